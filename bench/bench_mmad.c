/* bench_mmad.c: `ptoc-bench mmad`: the runtime's f16 x f16 -> f32 and f32 x f32 -> f32
 * mmad (ptort_mmad on L0A Nz / L0B Zn / L0C Nz tiles, packing and layout conversion
 * included) on 128^3 and 256^3, beside OpenBLAS cblas_sgemm on one thread (row-major
 * f32 arrays, the same values) in the same run. Before timing, each mmad result is
 * compared bit for bit with the slow exact reference of test/unit/mmad (mmref.c).
 * One line per figure:
 *   mmad f16 f32 128x128x128 12.3 GFLOPS   /   baseline sgemm 128x128x128 45.6 GFLOPS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptort.h"

/* The reference, compiled into the bench (it lives with the tests). */
#include "test/unit/mmad/mmref.c"

#ifdef PTOC_HAVE_OPENBLAS
/* Declared here rather than through <cblas.h>, which may be another BLAS's header. */
void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha,
		 const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);
void openblas_set_num_threads(int n);
#define CBLAS_ROW_MAJOR 101
#define CBLAS_NO_TRANS 111
#endif

static uint64_t bx = 0x2545F4914F6CDD1Dull;
static uint32_t brnd(void)
{
	bx ^= bx << 13, bx ^= bx >> 7, bx ^= bx << 17;
	return (uint32_t)(bx >> 16);
}

/* A value in [-2, 2) with a random mantissa, as f32 bits (exactly representable in f16:
 * 11 significant bits). */
static uint32_t rnd_val(void)
{
	uint32_t r = brnd();
	return (r & 0x80000000u) | ((uint32_t)(126 + r % 2) << 23) | ((r >> 8) & 0x7FE000u);
}

struct job {
	ptort_ctx *ctx;
	ptort_tile a, b, c;
	uint32_t s;
	const float *fa, *fb;
	float *fc;
};

static void tile(ptort_tile *t, ptort_mem mem, ptort_type ty, unsigned bl, unsigned sl, uint32_t s,
		 uint32_t fractal)
{
	memset(t, 0, sizeof *t);
	t->mem = (uint8_t)mem, t->type = (uint8_t)ty, t->blayout = (uint8_t)bl, t->slayout = (uint8_t)sl;
	t->rows = t->cols = t->v_rows = t->v_cols = s;
	t->fractal = fractal;
}

static void put(ptort_ctx *ctx, const ptort_tile *t, uint32_t r, uint32_t c, uint32_t f32)
{
	uint8_t *p = ptort_mem_base(ctx, (ptort_mem)t->mem) + t->addr;
	size_t e = ptort_tile_offset(t, r, c);
	if (t->type == PTORT_F32) {
		memcpy(p + e * 4, &f32, 4);
	} else {
		uint16_t h = (uint16_t)ptort_cvt1(PTORT_F32, PTORT_F16, f32, PTORT_RINT, PTORT_SAT_ON);
		memcpy(p + e * 2, &h, 2);
	}
}

static double best_time(void (*fn)(struct job *), struct job *j)
{
	double t0, t, best = 1e30, start = bench_now();
	int n = 0;
	fn(j);
	while (n < 3 || bench_now() - start < 0.4) {
		t0 = bench_now();
		fn(j);
		t = bench_now() - t0;
		if (t < best)
			best = t;
		n++;
	}
	return best;
}

static void run_mmad(struct job *j)
{
	ptort_mmad(j->ctx, &j->c, &j->a, &j->b, j->s, j->s, j->s, PTORT_MMAD_INIT_ZERO, NULL);
}

#ifdef PTOC_HAVE_OPENBLAS
static void run_sgemm(struct job *j)
{
	int s = (int)j->s;
	cblas_sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, s, s, s, 1.0f, j->fa, s, j->fb, s,
		    0.0f, j->fc, s);
}
#endif

/* Sets up s^3 with operand type ty, verifies against the reference, times. */
static int bench_one(ptort_type ty, uint32_t s, float *fa, float *fb, float *fc, double *gflops)
{
	uint32_t cap[PTORT_MEM_COUNT] = {0}, r, c;
	uint8_t *snap[PTORT_MEM_COUNT];
	unsigned bits = ptort_type_bits(ty);
	struct job j;
	int mi, ok = 1;

	cap[PTORT_MEM_L0A] = cap[PTORT_MEM_L0B] = s * s * bits / 8;
	cap[PTORT_MEM_L0C] = s * s * 4;
	j.ctx = ptort_ctx_create(cap);
	if (!j.ctx)
		return -1;
	j.s = s;
	tile(&j.a, PTORT_MEM_L0A, ty, 1, 1, s, 512); /* Nz */
	tile(&j.b, PTORT_MEM_L0B, ty, 0, 2, s, 512); /* Zn */
	tile(&j.c, PTORT_MEM_L0C, PTORT_F32, 1, 1, s, 1024); /* Nz */
	for (r = 0; r < s; r++)
		for (c = 0; c < s; c++) {
			uint32_t x = rnd_val(), y = rnd_val();
			put(j.ctx, &j.a, r, c, x);
			put(j.ctx, &j.b, r, c, y);
			memcpy(&fa[r * s + c], &x, 4);
			memcpy(&fb[r * s + c], &y, 4);
		}
	/* verify once: the same memories through the reference */
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
		snap[mi] = malloc(cap[mi] ? cap[mi] : 1);
		if (!snap[mi])
			return -1;
		if (cap[mi])
			memcpy(snap[mi], ptort_mem_base(j.ctx, (ptort_mem)mi), cap[mi]);
	}
	run_mmad(&j);
	ref_mmad(snap, &j.c, &j.a, NULL, &j.b, NULL, s, s, s, PTORT_MMAD_INIT_ZERO, NULL);
	if (ptort_ctx_error(j.ctx) ||
	    memcmp(snap[PTORT_MEM_L0C], ptort_mem_base(j.ctx, PTORT_MEM_L0C), cap[PTORT_MEM_L0C])) {
		fprintf(stderr, "ptoc-bench: mmad %s %ux%ux%u differs from the reference (%s)\n",
			ptort_type_name(ty), s, s, s,
			ptort_ctx_error(j.ctx) ? ptort_ctx_error(j.ctx) : "bits");
		ok = 0;
	}
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		free(snap[mi]);
	j.fa = fa, j.fb = fb, j.fc = fc;
	*gflops = 2.0 * s * s * s / best_time(run_mmad, &j) * 1e-9;
	ptort_ctx_destroy(j.ctx);
	return ok ? 0 : 1;
}

int bench_mmad(int argc, char **argv)
{
	static const uint32_t sizes[] = {128, 256};
	static const ptort_type types[] = {PTORT_F16, PTORT_F32};
	size_t si, ti;
	int bad = 0;
	(void)argc;
	(void)argv;
#ifdef PTOC_HAVE_OPENBLAS
	openblas_set_num_threads(1);
#endif
	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		uint32_t s = sizes[si];
		float *fa = malloc((size_t)s * s * 4), *fb = malloc((size_t)s * s * 4);
		float *fc = malloc((size_t)s * s * 4);
		double g;
		if (!fa || !fb || !fc)
			return 2;
		for (ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
			int rc = bench_one(types[ti], s, fa, fb, fc, &g);
			if (rc < 0)
				return 2;
			bad |= rc;
			printf("mmad %s f32 %ux%ux%u %.1f GFLOPS%s\n", ptort_type_name(types[ti]), s, s,
			       s, g, rc ? " (NOT bit-exact)" : "");
			fflush(stdout);
		}
#ifdef PTOC_HAVE_OPENBLAS
		{
			struct job j;
			memset(&j, 0, sizeof j);
			j.s = s, j.fa = fa, j.fb = fb, j.fc = fc;
			printf("baseline sgemm %ux%ux%u %.1f GFLOPS\n", s, s, s,
			       2.0 * s * s * s / best_time(run_sgemm, &j) * 1e-9);
		}
#else
		printf("baseline sgemm %ux%ux%u unavailable (built without OpenBLAS)\n", s, s, s);
#endif
		free(fa), free(fb), free(fc);
	}
	return bad;
}
