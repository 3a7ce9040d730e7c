/* gather.c: tgather's index form (docs/semantics.md §7.8a): each valid element of dst
 * takes the src element at the flat index k the index tile holds at the same place,
 * k naming element (k / cols, k % cols) of src through its layout; an index outside
 * [0, rows * cols) gives 0, as pto-isa's CPU model. All elements are read before dst
 * is written, so src and dst may overlap. */
#include <stdint.h>
#include <stdlib.h>

#include "mem_internal.h"
#include "ptort.h"

int ptort_tgather_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx,
		  const ptort_tile *dst)
{
	ptort_type it;
	unsigned sb, ib, db;
	uint32_t vr, vc, i, j;
	uint64_t n, k, *vals;
	if (ptort_check_tile(ctx, "tgather", "source", src) ||
	    ptort_check_tile(ctx, "tgather", "index", idx) ||
	    ptort_check_tile(ctx, "tgather", "destination", dst))
		return -1;
	it = (ptort_type)idx->type;
	sb = ptort_type_bits((ptort_type)src->type), ib = ptort_type_bits(it);
	db = ptort_type_bits((ptort_type)dst->type);
	if (sb != db || (ib != 16 && ib != 32) ||
	    (it != PTORT_I32 && it != PTORT_U32 && it != PTORT_I16 && it != PTORT_U16)) {
		ptort_report(ctx, "tgather: cannot gather %s into %s by %s indices",
			     ptort_type_name((ptort_type)src->type), ptort_type_name((ptort_type)dst->type),
			     ptort_type_name(it));
		return -1;
	}
	vr = dst->v_rows, vc = dst->v_cols;
	if (vr == 0 || vc == 0)
		return 0;
	if (idx->rows < vr || idx->cols < vc) {
		ptort_report(ctx, "tgather: the %ux%u index tile does not cover the %ux%u destination",
			     idx->rows, idx->cols, vr, vc);
		return -1;
	}
	n = (uint64_t)src->rows * src->cols;
	vals = ptort_vals(ctx, "tgather", (size_t)vr * vc);
	if (!vals)
		return -1;
	for (i = 0; i < vr; i++)
		for (j = 0; j < vc; j++) {
			uint64_t x = ptort_ld(ctx->mem[idx->mem],
					      (uint64_t)idx->addr * 8 + ptort_tile_offset(idx, i, j) * ib, ib);
			int64_t v = (it == PTORT_I32 || it == PTORT_I16)
					    ? (int64_t)(x << (64 - ib)) >> (64 - ib)
					    : (int64_t)x;
			if (v < 0 || (uint64_t)v >= n) {
				vals[(uint64_t)i * vc + j] = 0; /* pto-isa's CPU model: 0 */
				continue;
			}
			vals[(uint64_t)i * vc + j] =
				ptort_ld(ctx->mem[src->mem],
					 (uint64_t)src->addr * 8 +
						 ptort_tile_offset(src, (uint32_t)(v / src->cols),
								   (uint32_t)(v % src->cols)) * sb,
					 sb);
		}
	for (i = 0, k = 0; i < vr; i++)
		for (j = 0; j < vc; j++, k++)
			ptort_st(ctx->mem[dst->mem],
				 (uint64_t)dst->addr * 8 + ptort_tile_offset(dst, i, j) * db, db, vals[k]);
	free(vals);
	return 0;
}

static int selected(int64_t pattern, uint32_t c)
{
	switch (pattern) {
	case 1: return c % 2 == 0;
	case 2: return c % 2 == 1;
	case 3: case 4: case 5: case 6: return c % 4 == (uint32_t)(pattern - 3);
	default: return 1;
	}
}

int ptort_tgatherm_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, int64_t pattern)
{
	unsigned sb, db;
	uint32_t r, c;
	uint64_t n = 0, room, *vals, k;
	if (ptort_check_tile(ctx, "tgather", "source", src) ||
	    ptort_check_tile(ctx, "tgather", "destination", dst))
		return -1;
	sb = ptort_type_bits((ptort_type)src->type), db = ptort_type_bits((ptort_type)dst->type);
	if (sb != db || pattern < 1 || pattern > 7) {
		ptort_report(ctx, "tgather: cannot gather %s into %s with mask pattern %lld",
			     ptort_type_name((ptort_type)src->type), ptort_type_name((ptort_type)dst->type),
			     (long long)pattern);
		return -1;
	}
	room = (uint64_t)dst->rows * dst->cols;
	vals = ptort_vals(ctx, "tgather", (size_t)src->v_rows * src->v_cols);
	if (!vals)
		return -1;
	for (r = 0; r < src->v_rows; r++)
		for (c = 0; c < src->v_cols; c++)
			if (selected(pattern, c))
				vals[n++] = ptort_ld(ctx->mem[src->mem],
						     (uint64_t)src->addr * 8 + ptort_tile_offset(src, r, c) * sb, sb);
	if (n > room) {
		ptort_report(ctx, "tgather: %llu selected elements do not fit in the %ux%u destination",
			     (unsigned long long)n, dst->rows, dst->cols);
		free(vals);
		return -1;
	}
	for (k = 0; k < n; k++)
		ptort_st(ctx->mem[dst->mem],
			 (uint64_t)dst->addr * 8 +
				 ptort_tile_offset(dst, (uint32_t)(k / dst->cols), (uint32_t)(k % dst->cols)) * db,
			 db, vals[k]);
	free(vals);
	return 0;
}
