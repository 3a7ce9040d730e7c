/* c99_kernel.c: what generated code looks like against ptort.h section 3 (a tload /
 * tcvt / tstore kernel on a 16x64 f32 tile). Compiled with -std=c99 -pedantic by each
 * available compiler (gcc, clang, tcc) to keep the header C99-clean; built and run by
 * the rtexec_c99_kernel test, which compares the result with ptort_cvt1. */
#include <stdio.h>
#include <string.h>

#include "ptort.h"

static int kernel(ptort_ctx *ctx, const float *in, unsigned short *out)
{
	static const ptort_tile t0 = {PTORT_MEM_UB, PTORT_F32, 0, 0, 0x0, 16, 64, 16, 61, 512};
	static const ptort_tile t1 = {PTORT_MEM_UB, PTORT_F16, 0, 0, 0x1000, 16, 64, 16, 61, 512};
	static const ptort_gm_view v0 = {PTORT_F32, {1, 1, 1, 16, 64}, {1024, 1024, 1024, 64, 1},
					 {0, 0, 0, 0, 0}, {1, 1, 1, 16, 61}, 1024, 0};
	static const ptort_gm_view v1 = {PTORT_F16, {1, 1, 1, 16, 64}, {1024, 1024, 1024, 64, 1},
					 {0, 0, 0, 0, 0}, {1, 1, 1, 16, 61}, 1024, 0};
	ptort_dma_load(ctx, in, &v0, &t0);                        /* tload  */
	ptort_vconv(ctx, PTORT_MEM_UB, 0x1000, 0x0, PTORT_F32, PTORT_F16, 16, 1, 1, 4, 8, 0x0ull,
		    0x1FFFFFFFFFFFFFFFull, PTORT_RINT, PTORT_SAT_ON); /* tcvt, 61 lanes per row */
	ptort_dma_store(ctx, out, &v1, &t1, PTORT_NO_CVT, 0);     /* tstore */
	return ptort_ctx_error(ctx) ? 1 : 0;
}

int main(void)
{
	static const uint32_t caps[PTORT_MEM_COUNT] = {196608, 524288, 65536, 65536, 131072,
						       1024, 2048};
	static float in[1024];
	static unsigned short out[1024];
	ptort_ctx *ctx = ptort_ctx_create(caps);
	unsigned i, bad = 0;
	for (i = 0; i < 1024; i++)
		in[i] = (float)i * 0.3183f - 100.0f;
	memset(out, 0xEE, sizeof out);
	if (!ctx || kernel(ctx, in, out)) {
		printf("error: %s\n", ctx ? ptort_ctx_error(ctx) : "no context");
		return 1;
	}
	for (i = 0; i < 1024; i++) {
		uint32_t b;
		unsigned short want;
		memcpy(&b, &in[i], 4);
		want = i % 64 < 61 ? (unsigned short)ptort_cvt1(PTORT_F32, PTORT_F16, b, PTORT_RINT, 1)
				   : 0xEEEE;
		bad += out[i] != want;
	}
	ptort_ctx_destroy(ctx);
	printf("c99 kernel: %u mismatches\n", bad);
	return bad != 0;
}
