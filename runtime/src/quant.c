/* quant.c: tquant and tdequant (docs/semantics.md §7.8g). Row r of src is scaled by
 * element (r, 0) of the scale tile (and shifted by element (r, 0) of the offset tile);
 * every rounding is one of the runtime's exact element operations (ptort_vop1 for the
 * f32 multiply, add and subtract, ptort_cvt1 for the conversions), so the steps are the
 * vector instructions pto-isa's library issues for these ops. Everything is read
 * before dst is written. */
#include <stdint.h>
#include <stdlib.h>

#include "mem_internal.h"
#include "ptort.h"

static uint64_t at(const ptort_tile *t, uint32_t r, uint32_t c)
{
	return (uint64_t)t->addr * 8 + ptort_tile_offset(t, r, c) * ptort_type_bits((ptort_type)t->type);
}

static uint64_t ld(ptort_ctx *ctx, const ptort_tile *t, uint32_t r, uint32_t c)
{
	return ptort_ld(ctx->mem[t->mem], at(t, r, c), ptort_type_bits((ptort_type)t->type));
}

/* the checks both ops share: the tiles, the types, the shapes; 0 or -1 (reported) */
static int check(ptort_ctx *ctx, const char *name, const ptort_tile *src, const ptort_tile *scale,
		 const ptort_tile *offset, const ptort_tile *dst, int quant)
{
	ptort_type s = (ptort_type)src->type, d = (ptort_type)dst->type;
	if (ptort_check_tile(ctx, name, "source", src) || ptort_check_tile(ctx, name, "scale", scale) ||
	    (offset && ptort_check_tile(ctx, name, "offset", offset)) ||
	    ptort_check_tile(ctx, name, "destination", dst))
		return -1;
	if (quant ? s != PTORT_F32 || d != (offset ? PTORT_U8 : PTORT_I8)
		  : (s != PTORT_I8 && s != PTORT_I16) || d != PTORT_F32) {
		ptort_report(ctx, "%s: cannot convert %s to %s", name, ptort_type_name(s), ptort_type_name(d));
		return -1;
	}
	if (scale->type != PTORT_F32 || (offset && offset->type != PTORT_F32)) {
		ptort_report(ctx, "%s: the scale and offset tiles must hold f32", name);
		return -1;
	}
	if (dst->v_rows != src->v_rows || dst->v_cols != src->v_cols || scale->v_rows < src->v_rows ||
	    (offset && offset->v_rows < src->v_rows) || !scale->v_cols || (offset && !offset->v_cols)) {
		ptort_report(ctx, "%s: valid regions do not match (src %ux%u, dst %ux%u, one parameter per row)",
			     name, src->v_rows, src->v_cols, dst->v_rows, dst->v_cols);
		return -1;
	}
	return 0;
}

static int run(ptort_ctx *ctx, const char *name, const ptort_tile *src, const ptort_tile *scale,
	       const ptort_tile *offset, const ptort_tile *dst, int quant)
{
	uint32_t rows = src->v_rows, cols = src->v_cols, r, c;
	unsigned dbits = ptort_type_bits((ptort_type)dst->type);
	uint64_t *vals, k = 0;
	if (check(ctx, name, src, scale, offset, dst, quant))
		return -1;
	if (!rows || !cols)
		return 0;
	vals = malloc((size_t)rows * cols * sizeof *vals);
	if (!vals) {
		ptort_report(ctx, "%s: out of memory", name);
		return -1;
	}
	for (r = 0; r < rows; r++) {
		uint64_t sc = ld(ctx, scale, r, 0), off = offset ? ld(ctx, offset, r, 0) : 0;
		for (c = 0; c < cols; c++) {
			uint64_t x = ld(ctx, src, r, c), v;
			if (quant) {
				v = ptort_vop1(PTORT_VOP_MUL, PTORT_F32, x, sc);
				if (offset)
					v = ptort_vop1(PTORT_VOP_ADD, PTORT_F32, v, off);
				v = ptort_cvt1(PTORT_F32, PTORT_I32, v, PTORT_RINT, PTORT_SAT_ON);
				v = ptort_cvt1(PTORT_I32, PTORT_F16, v, PTORT_RINT, PTORT_SAT_ON);
				v = ptort_cvt1(PTORT_F16, (ptort_type)dst->type, v, PTORT_RINT, PTORT_SAT_ON);
			} else {
				v = ptort_cvt1((ptort_type)src->type, PTORT_F32, x, PTORT_RINT, PTORT_SAT_ON);
				v = ptort_vop1(PTORT_VOP_SUB, PTORT_F32, v, off);
				v = ptort_vop1(PTORT_VOP_MUL, PTORT_F32, v, sc);
			}
			vals[k++] = v;
		}
	}
	for (r = 0, k = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			ptort_st(ctx->mem[dst->mem], at(dst, r, c), dbits, vals[k++]);
	free(vals);
	return 0;
}

int ptort_tquant_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale, const ptort_tile *offset,
		 const ptort_tile *dst)
{
	return run(ctx, "tquant", src, scale, offset, dst, 1);
}

int ptort_tdequant_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale, const ptort_tile *offset,
		   const ptort_tile *dst)
{
	if (!offset) {
		ptort_report(ctx, "tdequant: the offset tile is missing");
		return -1;
	}
	return run(ctx, "tdequant", src, scale, offset, dst, 0);
}
