/* tmov.c: tile-to-tile moves (tmov): mat -> left/right/bias/scaling, vec -> vec, and
 * acc -> vec/mat with the optional f32 -> f16/bf16 conversion (RINT, saturation ON)
 * and ReLU. Element (r, c) of the destination's valid region comes from element
 * (r, c) of the source, both through ptort_tile_offset, so any layout moves to any
 * layout. docs/semantics.md §6.2. */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

static uint64_t tile_bytes(const ptort_tile *t)
{
	return (uint64_t)t->rows * t->cols * ptort_type_bits((ptort_type)t->type) / 8;
}

/* Where a move from src to dst reads: *base and *addr (bytes into *base) are the
 * source tile in its memory, or, when the two tiles overlap in one memory, a copy of
 * the whole source taken before anything is written (*copy, for the caller to free;
 * NULL otherwise). -1 after reporting. */
static int source_bytes(ptort_ctx *ctx, const char *name, const ptort_tile *src,
			const ptort_tile *dst, const uint8_t **base, uint64_t *addr, uint8_t **copy)
{
	*base = ctx->mem[src->mem], *addr = src->addr, *copy = NULL;
	if (src->mem != dst->mem ||
	    !ptort_overlap(src->addr, tile_bytes(src), dst->addr, tile_bytes(dst)))
		return 0;
	*copy = malloc((size_t)tile_bytes(src));
	if (!*copy) {
		ptort_report(ctx, "%s: out of host memory", name);
		return -1;
	}
	memcpy(*copy, *base + src->addr, (size_t)tile_bytes(src));
	*base = *copy, *addr = 0;
	return 0;
}

static int types_check(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
		       int convert_to)
{
	ptort_type st = (ptort_type)src->type, dt = (ptort_type)dst->type;
	if (convert_to == PTORT_NO_CVT) {
		if (ptort_type_bits(st) == ptort_type_bits(dt))
			return 0;
		ptort_report(ctx, "tmov: %s and %s tiles differ in width", ptort_type_name(st),
			     ptort_type_name(dt));
		return -1;
	}
	if (convert_to != (int)dt || ptort_cvt_check(st, dt, PTORT_RINT) != PTORT_CVT_OK) {
		ptort_report(ctx, "tmov: cannot convert %s tile to %s tile (convert_to %d)",
			     ptort_type_name(st), ptort_type_name(dt), convert_to);
		return -1;
	}
	return 0;
}

int ptort_tmov_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, int convert_to,
	       int relu)
{
	ptort_type st, dt;
	unsigned sb, db;
	uint32_t r, c, vr, vc;
	const uint8_t *sbase;
	uint8_t *dbase, *copy = NULL;
	uint64_t saddr; /* in bytes, inside sbase */
	if (ptort_check_tile(ctx, "tmov", "source", src) ||
	    ptort_check_tile(ctx, "tmov", "destination", dst) ||
	    types_check(ctx, src, dst, convert_to))
		return -1;
	vr = dst->v_rows, vc = dst->v_cols;
	if (vr > src->rows || vc > src->cols) {
		ptort_report(ctx, "tmov: region %ux%u exceeds the %ux%u source tile", vr, vc,
			     src->rows, src->cols);
		return -1;
	}
	st = (ptort_type)src->type, dt = (ptort_type)dst->type;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt);
	dbase = ctx->mem[dst->mem];
	if (source_bytes(ctx, "tmov", src, dst, &sbase, &saddr, &copy))
		return -1;
	if (src->blayout == 0 && src->slayout == 0 && dst->blayout == 0 && dst->slayout == 0 &&
	    sb >= 8 && db >= 8 && !relu) {
		/* ND -> ND: row by row */
		for (r = 0; r < vr; r++) {
			const uint8_t *s = sbase + saddr + (size_t)r * src->cols * (sb / 8);
			uint8_t *d = dbase + dst->addr + (size_t)r * dst->cols * (db / 8);
			if (convert_to == PTORT_NO_CVT)
				memcpy(d, s, (size_t)vc * (sb / 8));
			else
				ptort_conv_n(st, dt, s, d, vc, PTORT_RINT, PTORT_SAT_ON);
		}
	} else {
		for (r = 0; r < vr; r++)
			for (c = 0; c < vc; c++) {
				uint64_t x = ptort_ld(sbase, saddr * 8 + ptort_tile_offset(src, r, c) * sb,
						      sb);
				if (relu)
					x = ptort_relu1(st, x);
				if (convert_to != PTORT_NO_CVT)
					x = ptort_cvt1(st, dt, x, PTORT_RINT, PTORT_SAT_ON);
				ptort_st(dbase, (uint64_t)dst->addr * 8 + ptort_tile_offset(dst, r, c) * db,
					 db, x);
			}
	}
	free(copy);
	return 0;
}

/* textract and ttrans (docs/semantics.md §7.8): element (r, c) of the destination's
 * valid region from source element (row + r, col + c), or (c, r) when transposing;
 * the same element widths, bit patterns copied. Overlapping tiles read the whole
 * source first. */
static int move_at(ptort_ctx *ctx, const char *name, const ptort_tile *src,
		   const ptort_tile *dst, uint32_t row, uint32_t col, int trans)
{
	unsigned sb, db;
	uint32_t r, c, vr, vc, need_r, need_c;
	const uint8_t *sbase;
	uint8_t *dbase, *copy = NULL;
	uint64_t saddr;
	if (ptort_check_tile(ctx, name, "source", src) ||
	    ptort_check_tile(ctx, name, "destination", dst))
		return -1;
	sb = ptort_type_bits((ptort_type)src->type), db = ptort_type_bits((ptort_type)dst->type);
	if (sb != db) {
		ptort_report(ctx, "%s: %s and %s tiles differ in width", name,
			     ptort_type_name((ptort_type)src->type),
			     ptort_type_name((ptort_type)dst->type));
		return -1;
	}
	vr = dst->v_rows, vc = dst->v_cols;
	need_r = trans ? vc : vr, need_c = trans ? vr : vc;
	if ((uint64_t)row + need_r > src->rows || (uint64_t)col + need_c > src->cols) {
		ptort_report(ctx, "%s: region %ux%u at (%u, %u) exceeds the %ux%u source tile", name,
			     need_r, need_c, row, col, src->rows, src->cols);
		return -1;
	}
	dbase = ctx->mem[dst->mem];
	if (source_bytes(ctx, name, src, dst, &sbase, &saddr, &copy))
		return -1;
	for (r = 0; r < vr; r++)
		for (c = 0; c < vc; c++) {
			uint32_t sr = trans ? c : row + r, sc = trans ? r : col + c;
			uint64_t x = ptort_ld(sbase, saddr * 8 + ptort_tile_offset(src, sr, sc) * sb, sb);
			ptort_st(dbase, (uint64_t)dst->addr * 8 + ptort_tile_offset(dst, r, c) * db, db,
				 x);
		}
	free(copy);
	return 0;
}

int ptort_textract_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, uint32_t row,
		   uint32_t col)
{
	return move_at(ctx, "textract", src, dst, row, col, 0);
}

int ptort_ttrans_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst)
{
	return move_at(ctx, "ttrans", src, dst, 0, 0, 1);
}

/* tgetval / tsetval (docs/semantics.md §7.9): element `offset` of the storage. */
static int val_check(ptort_ctx *ctx, const char *name, const ptort_tile *t, int64_t offset)
{
	struct ptort_san *san = ctx->san;
	int bad;
	ctx->san = NULL; /* the sync sanitizer sees the element, not the whole tile */
	bad = ptort_check_tile(ctx, name, "tile", t);
	ctx->san = san;
	if (bad)
		return -1;
	if (offset < 0 || (uint64_t)offset >= (uint64_t)t->rows * t->cols) {
		ptort_report(ctx, "%s: offset %lld outside the %ux%u tile", name, (long long)offset,
			     t->rows, t->cols);
		return -1;
	}
	if (san) {
		unsigned b = ptort_type_bits((ptort_type)t->type);
		ptort_san_note(ctx, t->mem, t->addr + (uint64_t)offset * b / 8, b < 8 ? 1 : b / 8,
			       name[1] == 's');
	}
	return 0;
}

uint64_t ptort_getval(ptort_ctx *ctx, const ptort_tile *src, int64_t offset)
{
	ptort_type ty;
	unsigned b;
	uint64_t x;
	if (val_check(ctx, "tgetval", src, offset))
		return 0;
	ty = (ptort_type)src->type;
	b = ptort_type_bits(ty);
	x = ptort_ld(ctx->mem[src->mem], (uint64_t)src->addr * 8 + (uint64_t)offset * b, b);
	if (ptort_type_is_signed_int(ty) && b < 64 && (x >> (b - 1) & 1))
		x |= ~(uint64_t)0 << b;
	return x;
}

int ptort_setval(ptort_ctx *ctx, const ptort_tile *dst, int64_t offset, uint64_t value)
{
	unsigned b;
	if (val_check(ctx, "tsetval", dst, offset))
		return -1;
	b = ptort_type_bits((ptort_type)dst->type);
	if (b < 64)
		value &= ((uint64_t)1 << b) - 1;
	ptort_st(ctx->mem[dst->mem], (uint64_t)dst->addr * 8 + (uint64_t)offset * b, b, value);
	return 0;
}
