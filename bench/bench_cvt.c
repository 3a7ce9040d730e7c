/* bench_cvt.c: `ptoc-bench cvt [PAIR...]`: conversion throughput of ptort_cvt_run in
 * cache (64 KiB of source) and streaming (64 MiB of source, or 128 MiB of destination
 * for the conversions that widen more than twice), beside memcpy of the same bytes, a
 * naive scalar loop over ptort_cvt1, and (f32<->f16 on x86) the raw F16C instruction.
 * A PAIR argument "f32:f16" (or just "f32") restricts the figures. One line each:
 *   cvt SRC DST MODE cache|stream X Gelem/s  /  baseline ... X Gelem/s
 * `--all` instead sweeps every defined pair with a 16- or 32-bit side in cache: every
 * allowed mode of a rounding pair (saturation on, or off with `--sat off`), one mode of
 * an exact pair.
 * `--sweeps N` runs either N times and prints each line's best figure. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptort.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_F16C_BASELINE 1
#endif

#define CACHE_BYTES (64u << 10)
#define STREAM_BYTES (64u << 20)

static int nsel;
static char **sel;

static int selected(const char *f, const char *t)
{
	int i;
	char buf[64];
	if (!nsel)
		return 1;
	snprintf(buf, sizeof buf, "%s:%s", f, t);
	for (i = 0; i < nsel; i++)
		if (!strcmp(sel[i], buf) || !strcmp(sel[i], f))
			return 1;
	return 0;
}

static void fill(unsigned char *p, size_t bytes, ptort_type t)
{
	uint64_t x = 88172645463325252ull;
	size_t i;
	for (i = 0; i < bytes; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		p[i] = (unsigned char)x;
	}
	if (t == PTORT_F32) /* mostly normal finite values in f16 range and beyond */
		for (i = 0; i + 4 <= bytes; i += 4) {
			uint32_t u;
			memcpy(&u, p + i, 4);
			u = (u & 0x83FFFFFFu) | ((uint32_t)(100 + (u >> 26) % 48) << 23);
			memcpy(p + i, &u, 4);
		}
}

/* Elements per second of fn: the best of 5 samples of at least 0.02 s each. */
static double measure(void (*fn)(void *), void *ctx, size_t elems)
{
	return (double)elems / bench_best(fn, ctx, 0.02, 5, 0);
}

struct job {
	ptort_type f, t;
	ptort_rmode rm;
	int sat;
	void *src, *dst;
	size_t n;
};

static void run_cvt(void *c)
{
	struct job *j = c;
	ptort_cvt_run(j->f, j->t, j->src, j->dst, j->n, j->rm, j->sat);
}

static void run_naive(void *c)
{
	struct job *j = c;
	unsigned fb = ptort_type_bits(j->f) / 8, tb = ptort_type_bits(j->t) / 8;
	size_t i;
	for (i = 0; i < j->n; i++) {
		uint64_t x = 0, r;
		memcpy(&x, (unsigned char *)j->src + i * fb, fb);
		r = ptort_cvt1(j->f, j->t, x, j->rm, j->sat);
		memcpy((unsigned char *)j->dst + i * tb, &r, tb);
	}
}

static void run_memcpy(void *c)
{
	struct job *j = c;
	memcpy(j->dst, j->src, j->n * ptort_type_bits(j->f) / 8);
}

#ifdef HAVE_F16C_BASELINE
/* The F16C baseline: f32 -> f16 (RINT) when the job's source is f32, else f16 -> f32. */
__attribute__((target("avx2,f16c"))) static void run_f16c(void *c)
{
	struct job *j = c;
	size_t i;
	if (j->f == PTORT_F32) {
		const float *s = j->src;
		uint16_t *d = j->dst;
		for (i = 0; i + 8 <= j->n; i += 8)
			_mm_storeu_si128((__m128i *)(void *)(d + i),
					 _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
	} else {
		const uint16_t *s = j->src;
		float *d = j->dst;
		for (i = 0; i + 8 <= j->n; i += 8)
			_mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(s + i))));
	}
}
#endif

static unsigned char *bufs[2];

/* The figures: printed as they come in one sweep; with sweeps > 1 the whole run is
 * repeated that many times and each line gives its best figure (printed at the end):
 * on a shared machine a neighbour's load comes and goes over seconds, so the lines it
 * hit in one sweep are measured again minutes later. A sweep reports its lines in the
 * same order each time. */
#define LINES_MAX 1100
static struct {
	char label[80];
	double best;
} lines[LINES_MAX];
static int nlines, line_at, nsweeps = 1, all_sat = PTORT_SAT_ON;

static void report(double elems_per_s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void report(double elems_per_s, const char *fmt, ...)
{
	va_list ap;
	if (line_at >= LINES_MAX)
		return;
	if (line_at == nlines) {
		va_start(ap, fmt);
		vsnprintf(lines[nlines].label, sizeof lines[nlines].label, fmt, ap);
		va_end(ap);
		lines[nlines++].best = elems_per_s;
	} else if (elems_per_s > lines[line_at].best) {
		lines[line_at].best = elems_per_s;
	}
	if (nsweeps == 1) {
		printf("%s %.2f Gelem/s\n", lines[line_at].label, elems_per_s / 1e9);
		fflush(stdout);
	}
	line_at++;
}

static void report_best(void)
{
	int k;
	if (nsweeps > 1)
		for (k = 0; k < nlines; k++)
			printf("%s %.2f Gelem/s\n", lines[k].label, lines[k].best / 1e9);
}

/* --all: one cache figure per defined (pair, mode) with a 16- or 32-bit side */
#define ALL_MAX 1024
static void bench_all(void)
{
	static struct job jobs[ALL_MAX];
	int f, t, m, k, nj = 0;
	for (f = 0; f < PTORT_TYPE_COUNT; f++)
		for (t = 0; t < PTORT_TYPE_COUNT; t++) {
			unsigned sb = ptort_type_bits((ptort_type)f), db = ptort_type_bits((ptort_type)t);
			if (sb != 16 && sb != 32 && db != 16 && db != 32)
				continue;
			if (sb == 64 || db == 64)
				continue;
			for (m = 0; m < PTORT_RMODE_COUNT && nj < ALL_MAX; m++) {
				struct job *j = &jobs[nj];
				if (m == PTORT_NONE ||
				    ptort_cvt_check((ptort_type)f, (ptort_type)t, (ptort_rmode)m) != PTORT_CVT_OK)
					continue;
				if (!selected(ptort_type_name((ptort_type)f), ptort_type_name((ptort_type)t)))
					continue;
				j->f = (ptort_type)f, j->t = (ptort_type)t, j->rm = (ptort_rmode)m;
				j->sat = all_sat, j->src = bufs[0], j->dst = bufs[1];
				j->n = (size_t)CACHE_BYTES * 8 / sb;
				nj++;
				if (ptort_cvt_is_exact(j->f, j->t))
					break;
			}
		}
	for (k = 0; k < nj; k++) {
		fill(bufs[0], CACHE_BYTES, jobs[k].f);
		report(measure(run_cvt, &jobs[k], jobs[k].n), "cvt %s %s %s cache",
		       ptort_type_name(jobs[k].f), ptort_type_name(jobs[k].t),
		       ptort_rmode_name(jobs[k].rm));
	}
	{
		struct job c;
		c.f = PTORT_F32, c.src = bufs[0], c.dst = bufs[1], c.n = CACHE_BYTES / 4;
		report(measure(run_memcpy, &c, c.n), "baseline memcpy f32 cache");
	}
}

static void bench_pair(ptort_type f, ptort_type t, ptort_rmode rm, int sat, int naive)
{
	const char *fn = ptort_type_name(f), *tn = ptort_type_name(t), *mn = ptort_rmode_name(rm);
	unsigned sb = ptort_type_bits(f), db = ptort_type_bits(t);
	struct job j;
	if (!selected(fn, tn))
		return;
	j.f = f, j.t = t, j.rm = rm, j.sat = sat, j.src = bufs[0], j.dst = bufs[1];
	j.n = (size_t)CACHE_BYTES * 8 / sb;
	fill(bufs[0], CACHE_BYTES, f);
	report(measure(run_cvt, &j, j.n), "cvt %s %s %s cache", fn, tn, mn);
	if (naive)
		report(measure(run_naive, &j, j.n), "baseline naive %s %s %s cache", fn, tn, mn);
	j.n = (size_t)STREAM_BYTES * 8 / (sb > db / 2 ? sb : db / 2); /* dst fits 2x */
	fill(bufs[0], STREAM_BYTES, f);
	report(measure(run_cvt, &j, j.n), "cvt %s %s %s stream", fn, tn, mn);
}

int bench_cvt(int argc, char **argv)
{
	static const ptort_rmode modes[] = {PTORT_RINT, PTORT_ROUND, PTORT_FLOOR, PTORT_CEIL,
					    PTORT_TRUNC, PTORT_ODD, PTORT_NONE};
	static const struct {
		ptort_type f, t;
		ptort_rmode rm;
	} others[] = {
		{PTORT_F32, PTORT_I32, PTORT_RINT},	  {PTORT_F32, PTORT_I16, PTORT_RINT},
		{PTORT_I32, PTORT_F32, PTORT_RINT},	  {PTORT_F16, PTORT_I32, PTORT_RINT},
		{PTORT_F16, PTORT_I16, PTORT_RINT},	  {PTORT_BF16, PTORT_I32, PTORT_RINT},
		{PTORT_BF16, PTORT_F16, PTORT_RINT},	  {PTORT_F16, PTORT_BF16, PTORT_RINT},
		{PTORT_I16, PTORT_F16, PTORT_RINT},	  {PTORT_I16, PTORT_F32, PTORT_RINT},
		{PTORT_I32, PTORT_I16, PTORT_RINT},	  {PTORT_I32, PTORT_U16, PTORT_RINT},
		{PTORT_U32, PTORT_I16, PTORT_RINT},	  {PTORT_I16, PTORT_I32, PTORT_RINT},
		{PTORT_I16, PTORT_U32, PTORT_RINT},	  {PTORT_F16, PTORT_I8, PTORT_RINT},
		{PTORT_F16, PTORT_U8, PTORT_RINT},	  {PTORT_I8, PTORT_F16, PTORT_RINT},
		{PTORT_U8, PTORT_F16, PTORT_RINT},	  {PTORT_I32, PTORT_U8, PTORT_RINT},
		{PTORT_F32, PTORT_F8E4M3FN, PTORT_RINT}, {PTORT_F32, PTORT_F8E5M2, PTORT_RINT},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND},	  {PTORT_F32, PTORT_HIF8, PTORT_HYBRID},
		{PTORT_F16, PTORT_HIF8, PTORT_ROUND},	  {PTORT_F16, PTORT_HIF8, PTORT_HYBRID},
		{PTORT_F8E4M3FN, PTORT_F32, PTORT_RINT}, {PTORT_F8E5M2, PTORT_BF16, PTORT_RINT},
		{PTORT_HIF8, PTORT_F32, PTORT_RINT},	  {PTORT_BF16, PTORT_F4E2M1FN, PTORT_RINT},
		{PTORT_F4E2M1FN, PTORT_BF16, PTORT_RINT}, {PTORT_F8E8M0FNU, PTORT_BF16, PTORT_RINT},
	};
	size_t i;
	int all = 0, sweeps = 1, s;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: ptoc-bench cvt [--all [--sat off]] [--sweeps N] [SRC[:DST]...]\n"
		       "  --all        every defined pair with a 16- or 32-bit side, in cache\n"
		       "  --sat off    with --all: saturation off (default on)\n"
		       "  --sweeps N   run everything N times; each line gives its best figure\n"
		       "               (printed at the end)\n");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--all"))
		all = 1, argc--, argv++;
	if (argc > 1 && !strcmp(argv[1], "--sweeps")) {
		char *end;
		long v = argc > 2 ? strtol(argv[2], &end, 10) : 0;
		if (argc < 3 || *end || v < 1 || v > 100) {
			fprintf(stderr, "ptoc-bench cvt: --sweeps takes a count from 1 to 100\n");
			return 2;
		}
		sweeps = (int)v, argc -= 2, argv += 2;
	}
	if (argc > 1 && !strcmp(argv[1], "--all"))
		all = 1, argc--, argv++;
	if (all && argc > 1 && !strcmp(argv[1], "--sat")) {
		if (argc < 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
			fprintf(stderr, "ptoc-bench cvt: --sat takes on or off\n");
			return 2;
		}
		all_sat = !strcmp(argv[2], "on") ? PTORT_SAT_ON : PTORT_SAT_OFF;
		argc -= 2, argv += 2;
	}
	nsweeps = sweeps;
	nsel = argc - 1;
	sel = argv + 1;
	bufs[0] = malloc(STREAM_BYTES);
	bufs[1] = malloc(STREAM_BYTES * 2);
	if (!bufs[0] || !bufs[1]) {
		fprintf(stderr, "ptoc-bench cvt: out of memory\n");
		return 1;
	}
	for (s = 0; s < sweeps; s++) {
		line_at = 0;
		if (all) {
			bench_all();
			continue;
		}
		if (selected("f32", "f32")) {
			struct job j;
			j.f = PTORT_F32, j.src = bufs[0], j.dst = bufs[1], j.n = STREAM_BYTES / 4;
			report(measure(run_memcpy, &j, j.n), "baseline memcpy f32 stream");
			j.n = CACHE_BYTES / 4;
			report(measure(run_memcpy, &j, j.n), "baseline memcpy f32 cache");
		}
		for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
			bench_pair(PTORT_F32, PTORT_F16, modes[i], PTORT_SAT_ON, i == 0);
		bench_pair(PTORT_F32, PTORT_F16, PTORT_RINT, PTORT_SAT_OFF, 0);
		for (i = 0; i < 5; i++)
			bench_pair(PTORT_F32, PTORT_BF16, modes[i], PTORT_SAT_ON, i == 0);
		bench_pair(PTORT_F16, PTORT_F32, PTORT_RINT, PTORT_SAT_ON, 1);
		bench_pair(PTORT_BF16, PTORT_F32, PTORT_RINT, PTORT_SAT_ON, 0);
		for (i = 0; i < sizeof others / sizeof others[0]; i++) {
			bench_pair(others[i].f, others[i].t, others[i].rm, PTORT_SAT_ON,
				   others[i].t == PTORT_HIF8);
		}
#ifdef HAVE_F16C_BASELINE
		__builtin_cpu_init();
		if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2")) {
			struct job j;
			j.src = bufs[0], j.dst = bufs[1];
			if (selected("f32", "f16")) {
				j.f = PTORT_F32;
				j.n = CACHE_BYTES / 4;
				fill(bufs[0], CACHE_BYTES, PTORT_F32);
				report(measure(run_f16c, &j, j.n), "baseline f16c f32 f16 RINT cache");
				j.n = STREAM_BYTES / 4;
				report(measure(run_f16c, &j, j.n), "baseline f16c f32 f16 RINT stream");
			}
			if (selected("f16", "f32")) {
				j.f = PTORT_F16;
				j.n = CACHE_BYTES / 2;
				report(measure(run_f16c, &j, j.n), "baseline f16c f16 f32 RINT cache");
			}
		}
#endif
	}
	report_best();
	free(bufs[0]);
	free(bufs[1]);
	return 0;
}
