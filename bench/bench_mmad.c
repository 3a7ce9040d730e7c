/* bench_mmad.c: `ptoc-bench mmad [--runs N]`: ptort_mmad / ptort_mmad_mx (packing and
 * layout conversion included) at every ISA level of the host, beside OpenBLAS
 * cblas_sgemm on one thread (row-major f32 arrays holding the same values) on the
 * same shape in the same run: 128^3 and 256^3 (f32, f16, bf16; A Nz, B Zn, C Nz;
 * 256^3 also e4m3, hif8 and i8 -> i32) and
 * the shapes of PTOAS's sample kernels (Qwen3 decode and paged attention: bf16
 * 16 x k x n, the 16 x 512 x 64 one also as 16 in-place tmatmul.acc steps = split K;
 * FlashAttention / GQA / FFN: f32 32^3 with a Zz left tile; tmatmul.mx: e4m3
 * 16 x 32 x 16). Before timing, the result of every level is compared bit for bit
 * with the slow exact reference of test/unit/mmad (mmref.c). --runs N repeats every
 * measurement N times (interleaved) and keeps the best. One line per shape:
 *   mmad f32 256x256x256: avx512 190.1 avx2 110.2 c 1.9 GFLOPS, baseline sgemm
 *   120.3 GFLOPS, avx512/sgemm 158 % */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptort.h"
#include "runtime/src/mmad_internal.h"

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

static const char *level_name[] = {"c", "avx2", "avx512"};
#define NLEVEL 3

struct shape {
	ptort_type t;
	uint32_t m, k, n;
	int steps;  /* > 1: that many in-place accumulate calls (split K) */
	int a_zz;   /* left tile Zz (A2A3 samples) instead of Nz */
	int mx;	    /* tmatmul.mx with e8m0 scales */
	const char *what;
};

static const struct shape shapes[] = {
	{PTORT_F32, 128, 128, 128, 1, 0, 0, "square"},
	{PTORT_F16, 128, 128, 128, 1, 0, 0, "square"},
	{PTORT_BF16, 128, 128, 128, 1, 0, 0, "square"},
	{PTORT_F32, 256, 256, 256, 1, 0, 0, "square"},
	{PTORT_F16, 256, 256, 256, 1, 0, 0, "square"},
	{PTORT_BF16, 256, 256, 256, 1, 0, 0, "square"},
	{PTORT_F8E4M3FN, 256, 256, 256, 1, 0, 0, "square, A5 fp8"},
	{PTORT_HIF8, 256, 256, 256, 1, 0, 0, "square, A5 hif8"},
	{PTORT_I8, 256, 256, 256, 1, 0, 0, "square, i8 -> i32 (integer ops)"},
	{PTORT_BF16, 16, 512, 64, 1, 0, 0, "Qwen3 decode"},
	{PTORT_BF16, 16, 512, 64, 16, 0, 0, "Qwen3 decode, split K"},
	{PTORT_BF16, 16, 128, 64, 1, 0, 0, "Qwen3 decode"},
	{PTORT_BF16, 16, 64, 128, 1, 0, 0, "Qwen3 decode"},
	{PTORT_BF16, 16, 128, 128, 1, 0, 0, "paged attention"},
	{PTORT_BF16, 16, 256, 128, 1, 0, 0, "Qwen3 decode"},
	{PTORT_BF16, 16, 128, 256, 1, 0, 0, "Qwen3 decode"},
	{PTORT_F32, 32, 32, 32, 1, 1, 0, "FlashAttention, GQA, FFN (A2A3)"},
	{PTORT_F32, 32, 32, 32, 1, 0, 0, "MatMul samples (A5)"},
	{PTORT_F8E4M3FN, 16, 32, 16, 1, 0, 1, "tmatmul.mx"},
};

static uint64_t bx = 0x2545F4914F6CDD1Dull;
static uint32_t brnd(void)
{
	bx ^= bx << 13, bx ^= bx >> 7, bx ^= bx << 17;
	return (uint32_t)(bx >> 16);
}

/* A value in [-2, 2) with a random 11-bit significand, as f32 bits. */
static uint32_t rnd_val(void)
{
	uint32_t r = brnd();
	return (r & 0x80000000u) | ((uint32_t)(126 + r % 2) << 23) | ((r >> 8) & 0x7FE000u);
}

struct job {
	ptort_ctx *ctx;
	ptort_tile a, b, c, sa, sb;
	const struct shape *s;
	const float *fa, *fb;
	float *fc;
};

static void tile(ptort_tile *t, ptort_mem mem, ptort_type ty, unsigned bl, unsigned sl,
		 uint32_t rows, uint32_t cols, uint32_t fractal)
{
	memset(t, 0, sizeof *t);
	t->mem = (uint8_t)mem, t->type = (uint8_t)ty, t->blayout = (uint8_t)bl, t->slayout = (uint8_t)sl;
	t->rows = t->v_rows = rows, t->cols = t->v_cols = cols;
	t->fractal = sl ? fractal : 0;
}

/* Stores f32 value x (bits) into element (r, c) as the tile's type; returns the f32
 * bits of the value stored (the type's rounding of x). */
static uint32_t put(ptort_ctx *ctx, const ptort_tile *t, uint32_t r, uint32_t c, uint32_t x)
{
	uint8_t *p = ptort_mem_base(ctx, (ptort_mem)t->mem) + t->addr;
	size_t e = ptort_tile_offset(t, r, c);
	unsigned bits = ptort_type_bits((ptort_type)t->type);
	uint64_t v = t->type == PTORT_F32
			     ? x
			     : ptort_cvt1(PTORT_F32, (ptort_type)t->type, x, PTORT_RINT, PTORT_SAT_ON);
	memcpy(p + e * bits / 8, &v, bits / 8); /* little-endian host */
	return (uint32_t)ptort_cvt1((ptort_type)t->type, PTORT_F32, v, PTORT_RINT, PTORT_SAT_OFF);
}

/* The best time of one call: samples of enough calls to last ~0.2 ms each (so that
 * the clock's resolution, coarse for PTOC_BENCH_CLOCK=cpu, does not matter), for at
 * least 3 samples and 0.25 s. */
static double best_time(void (*fn)(void *), struct job *j)
{
	return bench_best(fn, j, 2e-4, 3, 0.25);
}

static void run_mmad(void *arg)
{
	struct job *j = arg;
	const struct shape *s = j->s;
	int i;
	for (i = 0; i < s->steps; i++) {
		int init = s->steps > 1 ? PTORT_MMAD_INIT_C : PTORT_MMAD_INIT_ZERO;
		if (s->mx)
			ptort_mmad_mx(j->ctx, &j->c, &j->a, &j->sa, &j->b, &j->sb, s->m, s->k, s->n,
				      init, s->steps > 1 ? &j->c : NULL);
		else
			ptort_mmad(j->ctx, &j->c, &j->a, &j->b, s->m, s->k, s->n, init,
				   s->steps > 1 ? &j->c : NULL);
	}
}

#ifdef PTOC_HAVE_OPENBLAS
static void run_sgemm(void *arg)
{
	struct job *j = arg;
	const struct shape *s = j->s;
	int i, m = (int)s->m, k = (int)s->k, n = (int)s->n;
	for (i = 0; i < s->steps; i++)
		cblas_sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k, 1.0f, j->fa, k,
			    j->fb, n, s->steps > 1 ? 1.0f : 0.0f, j->fc, n);
}
#endif

/* Sets up shape s: tiles and the same values in row-major f32 arrays. */
static int setup(struct job *j, const struct shape *s, float *fa, float *fb, float *fc,
		 uint32_t cap[PTORT_MEM_COUNT])
{
	unsigned bits = ptort_type_bits(s->t);
	uint32_t kb = (s->k + 31) / 32, r, c;
	memset(j, 0, sizeof *j);
	memset(cap, 0, PTORT_MEM_COUNT * sizeof *cap);
	cap[PTORT_MEM_L0A] = s->m * s->k * bits / 8;
	cap[PTORT_MEM_L0B] = s->k * s->n * bits / 8;
	cap[PTORT_MEM_L0C] = s->m * s->n * 4;
	cap[PTORT_MEM_SCALING] = (s->m + s->n) * kb;
	j->ctx = ptort_ctx_create(cap);
	if (!j->ctx)
		return -1;
	j->s = s;
	tile(&j->a, PTORT_MEM_L0A, s->t, s->a_zz ? 0 : 1, 1, s->m, s->k, 512); /* Zz / Nz */
	tile(&j->b, PTORT_MEM_L0B, s->t, 0, 2, s->k, s->n, 512);		 /* Zn */
	tile(&j->c, PTORT_MEM_L0C, s->t == PTORT_I8 ? PTORT_I32 : PTORT_F32, 1, 1, s->m, s->n,
	     1024); /* Nz */
	for (r = 0; r < s->m; r++)
		for (c = 0; c < s->k; c++) {
			uint32_t x = put(j->ctx, &j->a, r, c, rnd_val());
			memcpy(&fa[(size_t)r * s->k + c], &x, 4);
		}
	for (r = 0; r < s->k; r++)
		for (c = 0; c < s->n; c++) {
			uint32_t x = put(j->ctx, &j->b, r, c, rnd_val());
			memcpy(&fb[(size_t)r * s->n + c], &x, 4);
		}
	memset(fc, 0, (size_t)s->m * s->n * 4);
	if (s->mx) { /* scales 2^-1 .. 2^1, ND */
		uint8_t *sc = ptort_mem_base(j->ctx, PTORT_MEM_SCALING);
		tile(&j->sa, PTORT_MEM_SCALING, PTORT_F8E8M0FNU, 0, 0, s->m, kb, 0);
		tile(&j->sb, PTORT_MEM_SCALING, PTORT_F8E8M0FNU, 0, 0, kb, s->n, 0);
		j->sb.addr = s->m * kb;
		for (r = 0; r < (s->m + s->n) * kb; r++)
			sc[r] = (uint8_t)(126 + brnd() % 3);
	}
	return 0;
}

/* Runs the shape at the current level on a copy of the memories and compares with the
 * reference (ref: the reference's memories after the run). 0 when bit-exact. */
static int verify(struct job *j, uint8_t *const ref[PTORT_MEM_COUNT],
		  uint8_t *const init[PTORT_MEM_COUNT], const uint32_t cap[PTORT_MEM_COUNT])
{
	int mi, bad = 0;
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		if (cap[mi])
			memcpy(ptort_mem_base(j->ctx, (ptort_mem)mi), init[mi], cap[mi]);
	run_mmad(j);
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		if (cap[mi] && memcmp(ref[mi], ptort_mem_base(j->ctx, (ptort_mem)mi), cap[mi]))
			bad = 1;
	return bad || ptort_ctx_error(j->ctx) != NULL;
}

static int bench_shape(const struct shape *s, int runs)
{
	uint32_t cap[PTORT_MEM_COUNT];
	uint8_t *ref[PTORT_MEM_COUNT], *init[PTORT_MEM_COUNT];
	float *fa = malloc((size_t)s->m * s->k * 4), *fb = malloc((size_t)s->k * s->n * 4);
	float *fc = malloc((size_t)s->m * s->n * 4);
	double g[NLEVEL] = {0}, gs = 0, flop = 2.0 * s->m * s->k * s->n * s->steps;
	int best = mmad_best_level(), lv, mi, run, bad = 0, i;
	struct job j;

	if (!fa || !fb || !fc || setup(&j, s, fa, fb, fc, cap))
		return -1;
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
		ref[mi] = malloc(cap[mi] ? cap[mi] : 1);
		init[mi] = malloc(cap[mi] ? cap[mi] : 1);
		if (!ref[mi] || !init[mi])
			return -1;
		if (cap[mi]) {
			memcpy(init[mi], ptort_mem_base(j.ctx, (ptort_mem)mi), cap[mi]);
			memcpy(ref[mi], init[mi], cap[mi]);
		}
	}
	for (i = 0; i < s->steps; i++)
		ref_mmad(ref, &j.c, &j.a, s->mx ? &j.sa : NULL, &j.b, s->mx ? &j.sb : NULL, s->m, s->k,
			 s->n, s->steps > 1 ? PTORT_MMAD_INIT_C : PTORT_MMAD_INIT_ZERO,
			 s->steps > 1 ? &j.c : NULL);
	for (lv = 0; lv <= best; lv++) {
		ptort_mmad_force_level(lv);
		if (verify(&j, ref, init, cap)) {
			fprintf(stderr, "ptoc-bench: mmad %s %ux%ux%u at level %s differs from the "
					"reference\n",
				ptort_type_name(s->t), s->m, s->k, s->n, level_name[lv]);
			bad = 1;
		}
	}
	j.fa = fa, j.fb = fb, j.fc = fc;
	for (run = 0; run < runs; run++) {
		for (lv = best; lv >= 0; lv--) {
			double t;
			ptort_mmad_force_level(lv);
			t = flop / best_time(run_mmad, &j) * 1e-9;
			if (t > g[lv])
				g[lv] = t;
		}
#ifdef PTOC_HAVE_OPENBLAS
		{
			double t = flop / best_time(run_sgemm, &j) * 1e-9;
			if (t > gs)
				gs = t;
		}
#endif
	}
	ptort_mmad_force_level(-1);
	printf("mmad%s %s %ux%ux%u%s:", s->mx ? ".mx" : "", ptort_type_name(s->t), s->m, s->k, s->n,
	       s->steps > 1 ? " x16 acc" : "");
	for (lv = best; lv >= 0; lv--)
		printf(" %s %.1f", level_name[lv], g[lv]);
	printf(" %s%s", s->t == PTORT_I8 ? "GOPS" : "GFLOPS", bad ? " (NOT bit-exact)" : "");
#ifdef PTOC_HAVE_OPENBLAS
	printf(", baseline sgemm %.1f GFLOPS, %s/sgemm %.0f %%", gs, level_name[best],
	       100.0 * g[best] / gs);
#else
	(void)gs;
	printf(", baseline sgemm unavailable (built without OpenBLAS)");
#endif
	printf(" [%s]\n", s->what);
	fflush(stdout);
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		free(ref[mi]), free(init[mi]);
	ptort_ctx_destroy(j.ctx);
	free(fa), free(fb), free(fc);
	return bad;
}

int bench_mmad(int argc, char **argv)
{
	int runs = 1, bad = 0, i;
	size_t si;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = atoi(argv[++i]);
			if (runs < 1)
				runs = 1;
		} else {
			fprintf(stderr, "usage: ptoc-bench mmad [--runs N]\n");
			return 2;
		}
	}
#ifdef PTOC_HAVE_OPENBLAS
	openblas_set_num_threads(1);
#endif
	for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
		int rc = bench_shape(&shapes[si], runs);
		if (rc < 0)
			return 2;
		bad |= rc;
	}
	return bad;
}
