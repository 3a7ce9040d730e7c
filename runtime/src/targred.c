/* targred.c: the arg reductions trowargmax/min, tcolargmax/min (docs/semantics.md
 * §7.6a): the index of the first maximum (minimum) of each valid row (column), by
 * ordered comparison, so a NaN never replaces an earlier element and a NaN first
 * element stays. Floats are compared as their exact f32 values (f16/bf16 widen
 * exactly), integers by value. */
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

static int is_float(ptort_type t)
{
	return t == PTORT_F16 || t == PTORT_BF16 || t == PTORT_F32;
}

static int is_unsigned(ptort_type t)
{
	return t == PTORT_U16 || t == PTORT_U32;
}

/* a < b (less) of two elements' bits of type t; 0 when unordered */
static int less(ptort_type t, unsigned bits, uint64_t a, uint64_t b)
{
	if (is_float(t)) {
		uint32_t ua = (uint32_t)(t == PTORT_F32 ? a : ptort_cvt1(t, PTORT_F32, a, PTORT_RINT, 0));
		uint32_t ub = (uint32_t)(t == PTORT_F32 ? b : ptort_cvt1(t, PTORT_F32, b, PTORT_RINT, 0));
		float fa, fb;
		memcpy(&fa, &ua, 4);
		memcpy(&fb, &ub, 4);
		return fa < fb;
	}
	if (is_unsigned(t))
		return a < b;
	{
		int64_t sa = (int64_t)(a << (64 - bits)) >> (64 - bits);
		int64_t sb = (int64_t)(b << (64 - bits)) >> (64 - bits);
		return sa < sb;
	}
}

int ptort_targred_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, int64_t col,
		  int64_t min)
{
	const char *name = col ? (min ? "tcolargmin" : "tcolargmax") : (min ? "trowargmin" : "trowargmax");
	ptort_type st, dt;
	unsigned sb, db;
	uint32_t vr, vc, outer, inner, o, i;
	if (ptort_check_tile(ctx, name, "source", src) ||
	    ptort_check_tile(ctx, name, "destination", dst))
		return -1;
	st = (ptort_type)src->type, dt = (ptort_type)dst->type;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt);
	if ((dt != PTORT_I32 && dt != PTORT_U32) || (sb != 16 && sb != 32)) {
		ptort_report(ctx, "%s: cannot reduce a %s tile into %s indices", name, ptort_type_name(st),
			     ptort_type_name(dt));
		return -1;
	}
	vr = src->v_rows, vc = src->v_cols;
	outer = col ? vc : vr, inner = col ? vr : vc;
	if (outer == 0 || inner == 0)
		return 0;
	if (col ? dst->cols < vc : dst->rows < vr) {
		ptort_report(ctx, "%s: %u results do not fit in the %ux%u destination tile", name, outer,
			     dst->rows, dst->cols);
		return -1;
	}
	for (o = 0; o < outer; o++) {
		uint32_t best = 0;
		uint64_t bv = ptort_ld(ctx->mem[src->mem],
				       (uint64_t)src->addr * 8 +
					       ptort_tile_offset(src, col ? 0 : o, col ? o : 0) * sb, sb);
		for (i = 1; i < inner; i++) {
			uint64_t x = ptort_ld(ctx->mem[src->mem],
					      (uint64_t)src->addr * 8 +
						      ptort_tile_offset(src, col ? i : o, col ? o : i) * sb, sb);
			if (min ? less(st, sb, x, bv) : less(st, sb, bv, x))
				best = i, bv = x;
		}
		ptort_st(ctx->mem[dst->mem],
			 (uint64_t)dst->addr * 8 + ptort_tile_offset(dst, col ? 0 : o, col ? o : 0) * db, db,
			 best);
	}
	return 0;
}
