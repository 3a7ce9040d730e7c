/* bench_kernel.c: `ptoc-bench kernel [--compile-only] [KERNELS]`. Two figures of the
 * compile-and-run path (--compile-only: the second alone):
 *
 * 1. Throughput of generated code: bench/cvt_128x256_a5.pto (a 128x256 f32 tile ->
 *    f16 RINT through tload/tcvt/tstore on A5; A2A3's UB, 192 KiB with the top 8 KiB
 *    reserved, cannot hold the 128 KiB f32 + 64 KiB f16 tiles) and
 *    bench/cvt_64x256_a2a3.pto (the A2A3 repeat form), compiled to C by ptoc at build
 *    time, called in a loop on one runtime context, beside ptort_cvt_run converting
 *    the same bytes contiguously (the target: >= 50%). Each instruction is
 *    timed alone too (tload, tcvt, tstore, the fused load+convert, ptort_cvt_run)
 *    beside memcpy of the bytes it moves.
 * 2. Compile time: a module of KERNELS (default 10,000) kernels shaped like bench_parse's
 *    (32x32 tiles, tload/tcvt/tstore) parsed, verified and printed, beside parsed,
 *    verified, lowered through the default pipeline and emitted as C (ptoc_module_emit_c),
 *    in process, output discarded (issue 18's target: <= 1.25x), best of 5 each; then
 *    the same compile in stages (parse, verify, print, each pass, emit-c), each timed
 *    alone. ptoc-bench links OpenBLAS, whose libgfortran loads libquadmath, which
 *    registers printf extensions: glibc then formats every printf of this process on
 *    its slower positional path, which the ptoc binary does not pay.
 * Figures only; nothing is asserted. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptoc/ptoc.h"
#include "ptort.h"

/* generated from the bench .pto files by ptoc (bench/CMakeLists.txt) */
ptort_ctx *cvt_128x256_a5_ctx_create(void);
void cvt_128x256_a5(ptort_ctx *ctx, void *src, uint64_t src_elems, void *dst, uint64_t dst_elems);
ptort_ctx *cvt_64x256_a2a3_ctx_create(void);
void cvt_64x256_a2a3(ptort_ctx *ctx, void *src, uint64_t src_elems, void *dst, uint64_t dst_elems);

typedef struct kern {
	const char *name;
	unsigned rows;
	ptort_ctx *(*create)(void);
	void (*run)(ptort_ctx *, void *, uint64_t, void *, uint64_t);
} kern;

static double secs_per_call(const kern *k, float *src, uint16_t *dst, size_t n, int kernel)
{
	ptort_ctx *ctx = kernel ? k->create() : NULL;
	double t0, t;
	unsigned long it = 0, batch = 16, b;
	if (kernel && !ctx)
		return -1;
	t0 = bench_now();
	do {
		for (b = 0; b < batch; b++) {
			if (kernel)
				k->run(ctx, src, n, dst, n);
			else
				ptort_cvt_run(PTORT_F32, PTORT_F16, src, dst, n, PTORT_RINT, PTORT_SAT_ON);
		}
		it += batch;
		t = bench_now() - t0;
	} while (t < 0.5);
	if (kernel) {
		if (ptort_ctx_error(ctx))
			fprintf(stderr, "ptoc-bench: %s: %s\n", k->name, ptort_ctx_error(ctx));
		ptort_ctx_destroy(ctx);
	}
	return t / (double)it;
}

/* ---- per-instruction costs --------------------------------------------------------- */

typedef struct step {
	ptort_ctx *ctx;
	float *src;
	uint16_t *dst;
	void *scratch; /* n f32 */
	size_t n;
	ptort_gm_view gs, gd; /* rows x 256 f32 / f16 GM views */
	ptort_tile x, h;      /* the f32 tile at UB 0, the f16 tile after it */
} step;

static void st_memcpy32(step *s)
{
	memcpy(s->scratch, s->src, s->n * 4);
}
static void st_memcpy16(step *s)
{
	memcpy(s->dst, s->src, s->n * 2);
}
static void st_load(step *s)
{
	ptort_dma_load(s->ctx, s->src, &s->gs, &s->x);
}
static void st_vconv(step *s)
{
	ptort_vconv_v(s->ctx, PTORT_MEM_UB, s->h.addr, s->x.addr, PTORT_F32, PTORT_F16,
		      (uint32_t)s->n, PTORT_RINT, PTORT_SAT_ON);
}
static void st_store(step *s)
{
	ptort_dma_store(s->ctx, s->dst, &s->gd, &s->h, PTORT_NO_CVT, 0);
}
static void st_load_cvt(step *s)
{
	ptort_dma_load_cvt(s->ctx, s->src, &s->gs, &s->x, s->h.addr, PTORT_F16, (uint32_t)s->n,
			   PTORT_RINT, PTORT_SAT_ON);
}
static void st_cvt_run(step *s)
{
	ptort_cvt_run(PTORT_F32, PTORT_F16, s->src, s->dst, s->n, PTORT_RINT, PTORT_SAT_ON);
}

static double step_secs(void (*f)(step *), step *s)
{
	double t0 = bench_now(), t;
	unsigned long it = 0, b;
	do {
		for (b = 0; b < 16; b++)
			f(s);
		it += 16;
		t = bench_now() - t0;
	} while (t < 0.25);
	return t / (double)it;
}

static void view(ptort_gm_view *g, ptort_type t, unsigned rows, size_t n)
{
	unsigned d;
	memset(g, 0, sizeof *g);
	g->type = (uint8_t)t;
	for (d = 0; d < PTORT_GM_RANK; d++)
		g->shape[d] = g->size[d] = 1, g->stride[d] = (int64_t)n;
	g->shape[3] = g->size[3] = rows, g->stride[3] = 256;
	g->shape[4] = g->size[4] = 256, g->stride[4] = 1;
	g->gm_elems = n;
}

/* Each instruction of the kernel alone, on the kernel's context, beside memcpy of the
 * bytes it moves (f32 in: 4 bytes an element; f16: 2). */
static void costs(const kern *k, float *src, uint16_t *dst, size_t n)
{
	static const struct {
		const char *what;
		void (*f)(step *);
		int base; /* 0: memcpy of the f32 bytes, 1: of the f16 bytes, -1: none */
	} st[] = {
		{"memcpy f32 bytes", st_memcpy32, -1},
		{"memcpy f16 bytes", st_memcpy16, -1},
		{"ptort_dma_load f32 (tload)", st_load, 0},
		{"ptort_vconv_v f32->f16 (tcvt)", st_vconv, 0},
		{"ptort_dma_store f16 (tstore)", st_store, 1},
		{"ptort_dma_load_cvt (fused)", st_load_cvt, 0},
		{"ptort_cvt_run f32->f16", st_cvt_run, 0},
	};
	step s;
	double mc[2] = {0, 0};
	size_t i;
	s.ctx = k->create();
	s.scratch = malloc(n * 4);
	if (!s.ctx || !s.scratch) {
		ptort_ctx_destroy(s.ctx);
		free(s.scratch);
		return;
	}
	s.src = src, s.dst = dst, s.n = n;
	view(&s.gs, PTORT_F32, k->rows, n);
	view(&s.gd, PTORT_F16, k->rows, n);
	s.x = (ptort_tile){PTORT_MEM_UB, PTORT_F32, 0, 0, 0, k->rows, 256, k->rows, 256, 512};
	s.h = (ptort_tile){PTORT_MEM_UB, PTORT_F16, 0, 0, (uint32_t)(n * 4), k->rows, 256,
			   k->rows, 256, 512};
	printf("  per instruction, %s's %ux256 tile:\n", k->name, k->rows);
	for (i = 0; i < sizeof st / sizeof st[0]; i++) {
		double t = step_secs(st[i].f, &s);
		if (st[i].base < 0) {
			mc[i] = t;
			printf("    %-32s %7.2f us\n", st[i].what, t * 1e6);
		} else {
			printf("    %-32s %7.2f us = %.2fx memcpy of the %s bytes\n", st[i].what,
			       t * 1e6, t / mc[st[i].base], st[i].base ? "f16" : "f32");
		}
	}
	if (ptort_ctx_error(s.ctx))
		fprintf(stderr, "ptoc-bench: %s: %s\n", k->name, ptort_ctx_error(s.ctx));
	ptort_ctx_destroy(s.ctx);
	free(s.scratch);
}

static void throughput(void)
{
	static const kern ks[] = {
		{"cvt_128x256_a5", 128, cvt_128x256_a5_ctx_create, cvt_128x256_a5},
		{"cvt_64x256_a2a3", 64, cvt_64x256_a2a3_ctx_create, cvt_64x256_a2a3},
	};
	size_t i, j;
	for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		size_t n = (size_t)ks[i].rows * 256;
		float *src = malloc(n * sizeof *src);
		uint16_t *dst = malloc(n * sizeof *dst), *ref = malloc(n * sizeof *ref);
		double tk, tr;
		if (!src || !dst || !ref)
			return;
		for (j = 0; j < n; j++)
			src[j] = (float)((double)((j * 2654435761u) % 200003u) / 97.0 - 1000.0);
		tr = secs_per_call(&ks[i], src, ref, n, 0);
		tk = secs_per_call(&ks[i], src, dst, n, 1);
		printf("%-34s %8.2f GB/s of f32 in (%.1f us per tile)\n", "ptort_cvt_run contiguous",
		       (double)(n * 4) / tr * 1e-9, tr * 1e6);
		printf("%-34s %8.2f GB/s of f32 in (%.1f us per tile) = %.0f%% of ptort_cvt_run%s\n",
		       ks[i].name, (double)(n * 4) / tk * 1e-9, tk * 1e6, 100.0 * tr / tk,
		       memcmp(dst, ref, n * sizeof *dst) ? "  RESULTS DIFFER" : "");
		costs(&ks[i], src, dst, n);
		free(src);
		free(dst);
		free(ref);
	}
}

/* ---- compile time ----------------------------------------------------------------- */

typedef struct text {
	char *p;
	size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void add(text *t, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (t->cap - t->n < 4096) {
		char *p = realloc(t->p, t->cap * 2 + 65536);
		if (!p)
			exit(1);
		t->p = p;
		t->cap = t->cap * 2 + 65536;
	}
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
	va_end(ap);
	t->n += (size_t)n;
}

static const struct {
	const char *src, *dst, *rmode;
} pairs[] = {
	{"f32", "f16", "RINT"},  {"f32", "bf16", "ROUND"}, {"f16", "f32", "RINT"},
	{"f32", "i32", "TRUNC"}, {"i32", "f32", "RINT"},   {"bf16", "f32", "RINT"},
	{"f16", "i8", "FLOOR"},  {"f32", "f16", "ODD"},
};

#define TILE "!pto.tile_buf<loc=vec, dtype=%s, rows=32, cols=32, v_row=32, v_col=32, " \
	     "blayout=row_major, slayout=none_box, fractal=512, pad=0>"

static void module(text *t, unsigned nk)
{
	unsigned k;
	add(t, "module {\n");
	for (k = 0; k < nk; k++) {
		const char *s = pairs[k % 8].src, *d = pairs[k % 8].dst, *rm = pairs[k % 8].rmode;
		add(t, "  func.func @k%u(%%src_ptr: !pto.ptr<%s>, %%dst_ptr: !pto.ptr<%s>) {\n"
		       "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n"
		       "    %%c32 = arith.constant 32 : index\n", k, s, d);
		add(t, "    %%sv = pto.make_tensor_view %%src_ptr, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?x%s>\n", s);
		add(t, "    %%dv = pto.make_tensor_view %%dst_ptr, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?x%s>\n", d);
		add(t, "    %%sp = pto.partition_view %%sv, offsets = [%%c0, %%c0], sizes = [%%c32, %%c32] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<32x32x%s>\n", s, s);
		add(t, "    %%dp = pto.partition_view %%dv, offsets = [%%c0, %%c0], sizes = [%%c32, %%c32] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<32x32x%s>\n", d, d);
		add(t, "    %%st = pto.alloc_tile : " TILE "\n    %%dt = pto.alloc_tile : " TILE "\n", s, d);
		add(t, "    pto.tload ins(%%sp : !pto.partition_tensor_view<32x32x%s>) outs(%%st : " TILE ")\n", s, s);
		add(t, "    pto.tcvt ins(%%st {rmode = #pto<round_mode %s>} : " TILE ") outs(%%dt : " TILE ")\n", rm, s, d);
		add(t, "    pto.tstore ins(%%dt : " TILE ") outs(%%dp : !pto.partition_tensor_view<32x32x%s>)\n    return\n  }\n", d, d);
	}
	add(t, "}\n");
}

static int discard(void *user, const char *data, size_t len)
{
	size_t *n = user;
	(void)data;
	*n += len;
	return 0;
}

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	if (sev == PTOC_ERROR)
		fprintf(stderr, "ptoc-bench: %u:%u: %.*s\n", (unsigned)loc.line, (unsigned)loc.col,
			(int)len, msg);
}

/* One in-process run: parse + verify + (print | pipeline + emit C). Seconds, or -1. */
static double compile_once(const text *t, int emit, size_t *out_bytes)
{
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	double t0 = bench_now(), dt = -1;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	*out_bytes = 0;
	m = ptoc_parse(ctx, t->p, t->n, "kernels.pto");
	if (m && ptoc_module_verify(m) == 0 &&
	    (emit ? ptoc_module_emit_c(m, "a2a3", discard, out_bytes)
		  : ptoc_module_print(m, PTOC_PRINT_CUSTOM, discard, out_bytes)) == 0)
		dt = bench_now() - t0;
	ptoc_context_destroy(ctx);
	return dt;
}

/* The same compile in stages, each timed alone (best of `runs` per stage): parse,
 * verify, print (the baseline's last stage, not part of the pipeline), every pass of
 * the default pipeline run by itself, emit C with no passes.
 * The lowered module is verified (untimed) before emit C so that emit-c does not
 * verify it. Fills secs[0..nst) and names; returns the stage count, or 0. */
#define MAX_STAGES 16

/* Stage k took dt seconds: names it and keeps its fastest run. */
static void stage_time(double *secs, const char **names, unsigned k, const char *name, double dt)
{
	names[k] = name;
	if (dt < secs[k])
		secs[k] = dt;
}
static unsigned compile_stages(const text *t, unsigned runs, double *secs, const char **names)
{
	static char pipe[256];
	static const char *pass[MAX_STAGES];
	unsigned np = 0, nst = 0, r, i;
	char *s;
	snprintf(pipe, sizeof pipe, "%s", ptoc_default_pipeline());
	for (s = pipe; s && *s && np < MAX_STAGES - 4;) {
		char *e = strchr(s, ',');
		pass[np++] = s;
		if (e)
			*e++ = 0;
		s = e;
	}
	for (i = 0; i < np + 4; i++)
		secs[i] = 1e30;
	for (r = 0; r < runs; r++) {
		ptoc_context *ctx = ptoc_context_create();
		ptoc_compile_opts o = {0};
		ptoc_module *m;
		size_t bytes = 0;
		double t0 = bench_now(), t1;
		unsigned k = 0;
		ptoc_context_set_diag_handler(ctx, on_diag, NULL);
		m = ptoc_parse(ctx, t->p, t->n, "kernels.pto");
		t1 = bench_now();
		if (!m || ptoc_module_set_target(m, "a2a3"))
			goto fail;
		stage_time(secs, names, k, "parse", t1 - t0);
		k++;
		t0 = bench_now();
		if (ptoc_module_verify(m))
			goto fail;
		t1 = bench_now();
		stage_time(secs, names, k, "verify", t1 - t0);
		k++;
		t0 = bench_now();
		if (ptoc_module_print(m, PTOC_PRINT_CUSTOM, discard, &bytes))
			goto fail;
		t1 = bench_now();
		stage_time(secs, names, k, "(print)", t1 - t0);
		k++;
		for (i = 0; i < np; i++, k++) {
			t0 = bench_now();
			if (ptoc_module_run_passes(m, pass[i], NULL, NULL))
				goto fail;
			t1 = bench_now();
			stage_time(secs, names, k, pass[i], t1 - t0);
		}
		if (ptoc_module_verify(m)) /* untimed: emit-c alone below */
			goto fail;
		o.pipeline = "";
		o.output = PTOC_OUTPUT_C;
		t0 = bench_now();
		if (ptoc_module_compile(m, &o, discard, &bytes))
			goto fail;
		t1 = bench_now();
		stage_time(secs, names, k, "emit-c", t1 - t0);
		nst = ++k;
		ptoc_context_destroy(ctx);
		continue;
	fail:
		ptoc_context_destroy(ctx);
		return 0;
	}
	return nst;
}

static void compile_time(unsigned nk)
{
	text t = {NULL, 0, 0};
	double best[2] = {1e30, 1e30};
	size_t bytes[2] = {0, 0};
	int r, e;
	module(&t, nk);
	for (r = 0; r < 5; r++)
		for (e = 0; e < 2; e++) {
			double s = compile_once(&t, e, &bytes[e]);
			if (s < 0) {
				printf("%s failed\n", e ? "emit C" : "parse + print");
				free(t.p);
				return;
			}
			if (s < best[e])
				best[e] = s;
		}
	printf("module of %u kernels: %.1f MiB of .pto\n", nk, (double)t.n / 1048576.0);
	printf("%-34s %8.3f s (%.1f MiB out)\n", "parse + verify + print", best[0],
	       (double)bytes[0] / 1048576.0);
	printf("%-34s %8.3f s (%.1f MiB of C) = %.2fx parse + print\n",
	       "parse + verify + pipeline + emit C", best[1], (double)bytes[1] / 1048576.0,
	       best[1] / best[0]);
	{
		double secs[MAX_STAGES];
		const char *names[MAX_STAGES];
		unsigned n = compile_stages(&t, 3, secs, names), i;
		if (n) {
			printf("the stages, each timed alone (best of 3; %% of parse + verify + "
			       "print):\n");
			for (i = 0; i < n; i++)
				printf("  %-20s %8.3f s  %5.1f %%\n", names[i], secs[i],
				       100.0 * secs[i] / (secs[0] + secs[1] + secs[2]));
		}
	}
	free(t.p);
}

int bench_kernel(int argc, char **argv)
{
	unsigned nk = 10000;
	int compile_only = 0;
	if (argc > 1 && !strcmp(argv[1], "--compile-only"))
		compile_only = 1, argc--, argv++;
	if (argc > 1)
		nk = (unsigned)strtoul(argv[1], NULL, 10);
	if (!nk) {
		fprintf(stderr, "usage: ptoc-bench kernel [--compile-only] [KERNELS]\n");
		return 2;
	}
	if (!compile_only)
		throughput();
	compile_time(nk);
	return 0;
}
