/* test_view.c: GM views as C values (ptort.h section 3.6). Random make_tensor_view /
 * partition_view chains of rank 1 to 5 are built with ptort_view_tensor /
 * ptort_view_part, turned into DMA views by ptort_gm_view_init and loaded into a tile
 * from a GM buffer whose element i holds i; tile element (r, c) must be the index
 * sum_d (sum of the chain's offsets_d + i_d) * stride_d computed here from the chain
 * as written. Views the DMA must refuse (rank 0 or 6, a shape or offset outside
 * [0, 2^32), a partition leaving the tensor or the buffer) load nothing. */
#include <stdlib.h>

#include "rtexec_ref.h"

#define GM_MAX 4096

static uint32_t gm[GM_MAX];

static int load(ptort_ctx *ctx, const ptort_view *v, const ptort_tile *t)
{
	ptort_gm_view g;
	ptort_gm_view_init(&g, PTORT_I32, v);
	return ptort_dma_load(ctx, v->gm, &g, t);
}

static void random_chains(ptort_ctx *ctx)
{
	unsigned it;
	for (it = 0; it < 2000; it++) {
		unsigned rank = 1 + rndn(5), d, np = rndn(4), p;
		int64_t shape[5], stride[5], off[5] = {0}, size[5], o[5], s[5], acc = 1, want;
		ptort_view v;
		ptort_tile t;
		uint32_t rows, cols, r, c;
		uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
		for (d = rank; d-- > 0;) { /* row-major with padding */
			shape[d] = 1 + rndn(d + 2 >= rank ? 12 : 3);
			stride[d] = acc;
			acc *= shape[d] + rndn(2);
		}
		if (acc > GM_MAX)
			continue;
		v = ptort_view_tensor(gm, (uint64_t)acc, rank, shape, stride);
		for (d = 0; d < rank; d++)
			size[d] = shape[d];
		for (p = 0; p < np; p++) { /* each partition inside the previous one */
			for (d = 0; d < rank; d++) {
				s[d] = d + 2 >= rank ? 1 + rndn((uint32_t)size[d]) : 1;
				o[d] = rndn((uint32_t)(size[d] - s[d] + 1));
				off[d] += o[d];
				size[d] = s[d];
			}
			v = ptort_view_part(&v, o, s);
		}
		if (np == 0)
			for (d = 0; d + 2 < rank; d++) { /* outer sizes must be 1 */
				o[d] = rndn((uint32_t)shape[d]);
				s[d] = 1;
				off[d] = o[d];
				size[d] = 1;
			}
		if (np == 0 && rank > 2) {
			for (d = rank - 2; d < rank; d++)
				o[d] = 0, s[d] = size[d];
			v = ptort_view_part(&v, o, s);
		}
		rows = rank >= 2 ? (uint32_t)size[rank - 2] : 1;
		cols = (uint32_t)size[rank - 1];
		t = mk_tile(PTORT_MEM_UB, PTORT_I32, 0, 0, 0, 16, 16, rows, cols, 512);
		memset(ub, 0xAB, 16 * 16 * 4);
		CHECK(load(ctx, &v, &t) == 0, "rank %u: %s", rank, ptort_ctx_error(ctx));
		ptort_ctx_clear_error(ctx);
		for (r = 0; r < rows; r++)
			for (c = 0; c < cols; c++) {
				uint32_t got;
				want = 0;
				for (d = 0; d < rank; d++)
					want += (off[d] + (rank >= 2 && d == rank - 2 ? r : 0) +
						 (d == rank - 1 ? c : 0)) * stride[d];
				memcpy(&got, ub + 4 * ref_off(&t, r, c), 4);
				CHECK(got == (uint32_t)want, "rank %u (%u, %u): %u, want %lld", rank, r, c,
				      got, (long long)want);
			}
	}
}

static void refused(ptort_ctx *ctx)
{
	const int64_t sh[2] = {4, 8}, st[2] = {8, 1};
	const int64_t six[6] = {1, 1, 1, 1, 4, 8}, six_st[6] = {0, 0, 0, 0, 8, 1};
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_I32, 0, 0, 0, 16, 16, 4, 8, 512);
	ptort_view v;
	int64_t o[2], s[2];
	unsigned long before;
	struct {
		const char *what;
		ptort_view v;
	} bad[8];
	unsigned n = 0, k;
	bad[n].what = "rank 0";
	bad[n++].v = ptort_view_tensor(gm, 32, 0, sh, st);
	bad[n].what = "rank 6";
	bad[n++].v = ptort_view_tensor(gm, 32, 6, six, six_st);
	{
		const int64_t big[2] = {4, 0x100000000LL};
		bad[n].what = "shape 2^32";
		bad[n++].v = ptort_view_tensor(gm, 32, 2, big, st);
	}
	v = ptort_view_tensor(gm, 32, 2, sh, st);
	o[0] = -1, o[1] = 0, s[0] = 4, s[1] = 8;
	bad[n].what = "negative offset";
	bad[n++].v = ptort_view_part(&v, o, s);
	o[0] = 1, o[1] = 0;
	bad[n].what = "partition past the tensor";
	bad[n++].v = ptort_view_part(&v, o, s);
	bad[n].what = "buffer shorter than the tensor";
	bad[n++].v = ptort_view_tensor(gm, 31, 2, sh, st);
	o[0] = INT64_MAX, o[1] = 0;
	v = ptort_view_part(&v, o, s);
	o[0] = 2; /* wraps to INT64_MIN + 1: still negative */
	bad[n].what = "offsets adding past 2^63";
	bad[n++].v = ptort_view_part(&v, o, s);
	for (k = 0; k < n; k++) {
		before = ptort_ctx_error_count(ctx);
		CHECK(load(ctx, &bad[k].v, &t) == -1 && ptort_ctx_error_count(ctx) == before + 1,
		      "%s: accepted", bad[k].what);
	}
	ptort_ctx_clear_error(ctx);
	v = ptort_view_tensor(gm, 32, 2, sh, st);
	CHECK(load(ctx, &v, &t) == 0, "the well-formed 4x8 view: %s", ptort_ctx_error(ctx));
}

int main(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	uint32_t i;
	if (!ctx)
		return 1;
	for (i = 0; i < GM_MAX; i++)
		gm[i] = i;
	random_chains(ctx);
	refused(ctx);
	ptort_ctx_destroy(ctx);
	return check_report("rtexec_view");
}
