/* tinsert.c: tinsert, the inverse of textract (docs/semantics.md §7.8): the source's
 * valid region goes into the destination at (row, col), each element through both
 * tiles' layouts; an acc f32 source converts to an f16/bf16 destination (RINT,
 * saturation ON, as tmov). */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

int ptort_tinsert_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, uint32_t row,
		  uint32_t col, int convert_to)
{
	ptort_type st, dt;
	unsigned sb, db;
	uint32_t r, c, vr, vc;
	uint64_t *vals;
	if (ptort_check_tile(ctx, "tinsert", "source", src) ||
	    ptort_check_tile(ctx, "tinsert", "destination", dst))
		return -1;
	st = (ptort_type)src->type, dt = (ptort_type)dst->type;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt);
	if (convert_to == PTORT_NO_CVT ? sb != db
				       : convert_to != (int)dt ||
						 ptort_cvt_check(st, dt, PTORT_RINT) != PTORT_CVT_OK) {
		ptort_report(ctx, "tinsert: cannot move a %s tile into a %s tile",
			     ptort_type_name(st), ptort_type_name(dt));
		return -1;
	}
	vr = src->v_rows, vc = src->v_cols;
	if ((uint64_t)row + vr > dst->rows || (uint64_t)col + vc > dst->cols) {
		ptort_report(ctx, "tinsert: region %ux%u at (%u, %u) exceeds the %ux%u destination tile",
			     vr, vc, row, col, dst->rows, dst->cols);
		return -1;
	}
	/* read the whole region first: source and destination may overlap (vec -> vec) */
	vals = malloc(((size_t)vr * vc + 1) * sizeof *vals);
	if (!vals) {
		ptort_report(ctx, "tinsert: out of host memory");
		return -1;
	}
	for (r = 0; r < vr; r++)
		for (c = 0; c < vc; c++) {
			uint64_t x = ptort_ld(ctx->mem[src->mem],
					      (uint64_t)src->addr * 8 + ptort_tile_offset(src, r, c) * sb, sb);
			if (convert_to != PTORT_NO_CVT)
				x = ptort_cvt1(st, dt, x, PTORT_RINT, PTORT_SAT_ON);
			vals[(size_t)r * vc + c] = x;
		}
	for (r = 0; r < vr; r++)
		for (c = 0; c < vc; c++)
			ptort_st(ctx->mem[dst->mem],
				 (uint64_t)dst->addr * 8 + ptort_tile_offset(dst, row + r, col + c) * db, db,
				 vals[(size_t)r * vc + c]);
	free(vals);
	return 0;
}
