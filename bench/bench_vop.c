/* bench_vop.c: `ptoc-bench vop`: the vector operations of the runtime.
 *   elements: ptort_vop_run on 16 Ki f32 in cache at each kernel level (0 element
 *     kernels, 1 portable, 2 AVX2) beside a plain host-float loop of the same op (for
 *     exp: libm's expf, which is not correctly rounded);
 *   instructions: a Qwen3-sized 16 x 512 f32 tile in UB through ptort_vbin (A2A3 form)
 *     and ptort_vbin_v (A5 form), and its row sums: A2A3's vcgadd sequence (three
 *     ptort_vred with group 8) and A5's ptort_vred_v.
 * One line each: "vop OP f32 level L X Gelem/s  /  baseline ... X Gelem/s".
 * `--sweeps N` repeats and keeps each line's best figure. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptort.h"
#include "runtime/src/cpu_internal.h"
#include "runtime/src/vop_internal.h"

#define N (16u << 10)

static float fa[N], fb[N], fd[N];

/* seconds per call of f, calls batched to last at least 20 ms */
static double timeit(void (*f)(void *), void *arg)
{
	double t0, t;
	unsigned long k, reps = 1;
	for (;;) {
		t0 = bench_now();
		for (k = 0; k < reps; k++)
			f(arg);
		t = bench_now() - t0;
		if (t > 0.02)
			return t / (double)reps;
		reps *= 4;
	}
}

struct vrun {
	ptort_vop op;
	int mode;
};

static void do_run(void *p)
{
	const struct vrun *v = p;
	uint64_t s = 0x3F9D70A4u; /* 1.23f */
	ptort_vop_run(v->op, PTORT_F32, fd, fa, ptort_vop_arity(v->op) == 2 && !v->mode ? fb : NULL,
		      v->mode ? &s : NULL, 0, N);
}

static void base_add(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = fa[i] + fb[i]; }
static void base_mul(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = fa[i] * fb[i]; }
static void base_muls(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = fa[i] * 1.23f; }
static void base_div(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = fa[i] / fb[i]; }
static void base_max(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = fa[i] > fb[i] ? fa[i] : fb[i]; }
static void base_sqrt(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = sqrtf(fa[i]); }
static void base_exp(void *p) { size_t i; (void)p; for (i = 0; i < N; i++) fd[i] = expf(fa[i]); }

static double best[64];
static int line;

static void report(const char *what, double secs, const char *base, double bsecs)
{
	double g = N / secs / 1e9, bg = N / bsecs / 1e9;
	if (g > best[line])
		best[line] = g;
	printf("vop %-24s %7.3f Gelem/s  /  baseline %-12s %7.3f Gelem/s\n", what, best[line], base, bg);
	line++;
}

/* ---- instructions on a 16 x 512 f32 tile ---- */

static ptort_ctx *ctx;

static void ins_a2a3(void *p)
{
	(void)p; /* 8192 elements: 128 repeats of 64 lanes */
	ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_MUL, PTORT_F32, 0x10000, 0, 0x8000, 128, 1, 1, 1, 8, 8,
		   8, ~0ull, ~0ull);
}

static void ins_a5(void *p)
{
	(void)p;
	ptort_vbin_v(ctx, PTORT_MEM_UB, PTORT_VOP_MUL, PTORT_F32, 0x10000, 0, 0x8000, 16, 512, 2048,
		     2048, 2048, 0);
}

static void rowsum_a2a3(void *p)
{
	(void)p; /* 512 -> 64 -> 8 -> 1 per row, as pto-isa's 16 x 512 path */
	ptort_vred(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 8, 0x18000, 0, 128, 1, 1, 8, ~0ull, ~0ull);
	ptort_vred(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 8, 0x18000, 0x18000, 16, 1, 1, 8, ~0ull,
		   ~0ull);
	ptort_vred(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 8, 0x1C000, 0x18000, 2, 1, 1, 8, ~0ull,
		   ~0ull);
}

static void rowsum_a5(void *p)
{
	(void)p;
	ptort_vred_v(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 0x1C000, 0, 16, 512, 4, 2048);
}

static void base_rowsum(void *p)
{
	size_t r, c;
	(void)p;
	for (r = 0; r < 16; r++) {
		float s = 0;
		for (c = 0; c < 512; c++)
			s += fa[r * 512 + c];
		fd[r] = s;
	}
}

int bench_vop(int argc, char **argv)
{
	static const struct {
		const char *name;
		ptort_vop op;
		int mode;
		void (*base)(void *);
		const char *bname;
	} ops[] = {
		{"add", PTORT_VOP_ADD, 0, base_add, "a+b"},	  {"mul", PTORT_VOP_MUL, 0, base_mul, "a*b"},
		{"muls", PTORT_VOP_MUL, 1, base_muls, "a*s"},	  {"div", PTORT_VOP_DIV, 0, base_div, "a/b"},
		{"max", PTORT_VOP_MAX, 0, base_max, "a>b?a:b"},  {"sqrt", PTORT_VOP_SQRT, 0, base_sqrt, "sqrtf"},
		{"exp", PTORT_VOP_EXP, 0, base_exp, "libm expf"},
	};
	uint32_t cap[PTORT_MEM_COUNT] = {0x20000};
	int sweeps = 1, s, level, maxl = (ptort_cpu_features() & PTORT_CPU_AVX2) ? 2 : 1;
	size_t i, k;
	if (argc > 2 && !strcmp(argv[1], "--sweeps"))
		sweeps = atoi(argv[2]);
	for (i = 0; i < N; i++) {
		fa[i] = (float)((double)(i % 1000) / 37.0 - 12.0);
		fb[i] = (float)((double)(i % 777) / 53.0 + 0.5);
	}
	ctx = ptort_ctx_create(cap);
	if (!ctx)
		return 1;
	memcpy(ptort_mem_base(ctx, PTORT_MEM_UB), fa, 0x8000);
	memcpy(ptort_mem_base(ctx, PTORT_MEM_UB) + 0x8000, fb, 0x8000);
	for (s = 0; s < sweeps; s++) {
		line = 0;
		for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
			struct vrun v;
			double bt = timeit(ops[k].base, NULL);
			v.op = ops[k].op, v.mode = ops[k].mode;
			for (level = 0; level <= maxl; level++) {
				char what[48];
				ptort_vop_force_level(level);
				snprintf(what, sizeof what, "%s f32 level %d", ops[k].name, level);
				report(what, timeit(do_run, &v), ops[k].bname, bt);
			}
			ptort_vop_force_level(-1);
		}
		report("tmul 16x512 A2A3 vmul", timeit(ins_a2a3, NULL) * N / 8192, "a*b", timeit(base_mul, NULL));
		report("tmul 16x512 A5 vmul_v", timeit(ins_a5, NULL) * N / 8192, "a*b", timeit(base_mul, NULL));
		report("trowsum 16x512 A2A3 vcgadd", timeit(rowsum_a2a3, NULL) * N / 8192, "serial sum",
		       timeit(base_rowsum, NULL) * N / 8192);
		report("trowsum 16x512 A5 vcadd", timeit(rowsum_a5, NULL) * N / 8192, "serial sum",
		       timeit(base_rowsum, NULL) * N / 8192);
	}
	if (ptort_ctx_error(ctx))
		printf("vop: instruction error: %s\n", ptort_ctx_error(ctx));
	ptort_ctx_destroy(ctx);
	return 0;
}
