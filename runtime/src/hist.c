/* hist.c: thistogram (docs/semantics.md §7.8c): per valid row of a ui16 source, the
 * cumulative 256-bin histogram of one byte of its valid elements into the row's first
 * 256 ui32 elements of dst. msb != 0: the high byte of every element; msb == 0: the
 * low byte of the elements whose high byte equals idx(r, 0) (pto-isa's CPU model). */
#include <stdint.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

int ptort_thistogram_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx, const ptort_tile *dst,
		     int64_t msb)
{
	uint32_t vr, vc, r, c, bin, counts[256], sum;
	if (ptort_check_tile(ctx, "thistogram", "source", src) ||
	    ptort_check_tile(ctx, "thistogram", "index", idx) ||
	    ptort_check_tile(ctx, "thistogram", "destination", dst))
		return -1;
	if (ptort_type_bits((ptort_type)src->type) != 16 || ptort_type_bits((ptort_type)idx->type) != 8 ||
	    ptort_type_bits((ptort_type)dst->type) != 32) {
		ptort_report(ctx, "thistogram: cannot count %s by %s into %s (16-, 8- and 32-bit elements)",
			     ptort_type_name((ptort_type)src->type), ptort_type_name((ptort_type)idx->type),
			     ptort_type_name((ptort_type)dst->type));
		return -1;
	}
	vr = src->v_rows, vc = src->v_cols;
	if (vr > dst->rows || dst->cols < 256 || vr > idx->rows) {
		ptort_report(ctx, "thistogram: %u rows of 256 bins do not fit in the %ux%u destination or "
			     "the %u-row index tile", vr, dst->rows, dst->cols, idx->rows);
		return -1;
	}
	for (r = 0; r < vr; r++) {
		uint32_t key = (uint32_t)ptort_ld(ctx->mem[idx->mem],
						  (uint64_t)idx->addr * 8 + ptort_tile_offset(idx, r, 0) * 8, 8);
		memset(counts, 0, sizeof counts);
		for (c = 0; c < vc; c++) {
			uint32_t v = (uint32_t)ptort_ld(ctx->mem[src->mem],
							(uint64_t)src->addr * 8 + ptort_tile_offset(src, r, c) * 16, 16);
			if (msb)
				counts[v >> 8]++;
			else if ((v >> 8) == key)
				counts[v & 0xff]++;
		}
		for (bin = 0, sum = 0; bin < 256; bin++) {
			sum += counts[bin];
			ptort_st(ctx->mem[dst->mem], (uint64_t)dst->addr * 8 + ptort_tile_offset(dst, r, bin) * 32, 32,
				 sum);
		}
	}
	return 0;
}
