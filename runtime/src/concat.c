/* concat.c: tconcat (docs/semantics.md §7.8d): each of dst's first src0.v_rows rows takes
 * src0's valid row, then src1's valid row right after it (pto-isa's CPU model); the
 * rest of dst is left as it was. Everything is read before dst is written. */
#include <stdint.h>
#include <stdlib.h>

#include "mem_internal.h"
#include "ptort.h"

static uint64_t at(const ptort_tile *t, uint32_t r, uint32_t c, unsigned bits)
{
	return (uint64_t)t->addr * 8 + ptort_tile_offset(t, r, c) * bits;
}

int ptort_tconcat_now(ptort_ctx *ctx, const ptort_tile *src0, const ptort_tile *src1, const ptort_tile *dst)
{
	unsigned bits;
	uint32_t rows, c0, c1, r, c;
	uint64_t *vals, k = 0;
	if (ptort_check_tile(ctx, "tconcat", "first source", src0) ||
	    ptort_check_tile(ctx, "tconcat", "second source", src1) ||
	    ptort_check_tile(ctx, "tconcat", "destination", dst))
		return -1;
	bits = ptort_type_bits((ptort_type)dst->type);
	if (src0->type != dst->type || src1->type != dst->type) {
		ptort_report(ctx, "tconcat: cannot join %s and %s into %s", ptort_type_name((ptort_type)src0->type),
			     ptort_type_name((ptort_type)src1->type), ptort_type_name((ptort_type)dst->type));
		return -1;
	}
	rows = dst->v_rows, c0 = src0->v_cols, c1 = src1->v_cols;
	if (src0->v_rows != rows || src1->v_rows != rows || (uint64_t)c0 + c1 > dst->cols) {
		ptort_report(ctx, "tconcat: valid regions %ux%u and %ux%u do not join into the %ux%u destination "
			     "(valid rows %u)", src0->v_rows, c0, src1->v_rows, c1, dst->rows, dst->cols, rows);
		return -1;
	}
	if (!rows || !(c0 + c1))
		return 0;
	vals = ptort_vals(ctx, "tconcat", (size_t)rows * (c0 + c1));
	if (!vals)
		return -1;
	for (r = 0; r < rows; r++) {
		for (c = 0; c < c0; c++)
			vals[k++] = ptort_ld(ctx->mem[src0->mem], at(src0, r, c, bits), bits);
		for (c = 0; c < c1; c++)
			vals[k++] = ptort_ld(ctx->mem[src1->mem], at(src1, r, c, bits), bits);
	}
	for (r = 0, k = 0; r < rows; r++)
		for (c = 0; c < c0 + c1; c++)
			ptort_st(ctx->mem[dst->mem], at(dst, r, c, bits), bits, vals[k++]);
	free(vals);
	return 0;
}
