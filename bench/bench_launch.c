/* bench_launch.c: `ptoc-bench launch [--runs R]`. Many blocks at once: a launch of 32
 * blocks of bench/blocks_sumsq_a2a3.pto (each block: 16 rows of a 512x32768 bf16
 * activation, 64 chunks of tload, tcvt to f32, tmul, tadd; then one tstore; compiled to
 * C by ptoc at build time) through ptort_launch_run on 2 threads beside 1 thread, in
 * the same process, wall clock (the point is the elapsed time; PTOC_BENCH_CLOCK=cpu
 * would count one thread only), best of R runs each (default 5), the runs of the two
 * alternating so that both see the same machine load. Also the cost of the GM race
 * check (the same launch with PTORT_LAUNCH_NO_RACE_CHECK) and whether the outputs of
 * every run are byte-identical. Figures only; nothing is asserted. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptort.h"

/* generated from bench/blocks_sumsq_a2a3.pto by ptoc (bench/CMakeLists.txt) */
ptort_ctx *blocks_sumsq_a2a3_ctx_create(void);
void blocks_sumsq_a2a3(ptort_ctx *ctx, void *x, uint64_t x_elems, void *y, uint64_t y_elems);

#define ROWS 512
#define COLS 32768
#define OCOLS 512
#define BLOCKS 32

typedef struct job {
	uint16_t *x;
	float *y;
} job;

static void run_block(ptort_ctx *ctx, void *user)
{
	job *j = user;
	blocks_sumsq_a2a3(ctx, j->x, (uint64_t)ROWS * COLS, j->y, (uint64_t)ROWS * OCOLS);
}

/* One launch; its wall time in seconds, or -1 after a message. */
static double launch_once(job *j, uint32_t threads, unsigned flags)
{
	ptort_launch l;
	ptort_launch_report rep;
	double t0, t;
	memset(&l, 0, sizeof l);
	l.blocks = BLOCKS;
	l.threads = threads;
	l.flags = flags;
	l.ctx_create = blocks_sumsq_a2a3_ctx_create;
	l.run = run_block;
	l.user = j;
	memset(j->y, 0, (size_t)ROWS * OCOLS * sizeof *j->y);
	t0 = bench_now();
	ptort_launch_run(&l, &rep);
	t = bench_now() - t0;
	if (rep.status != PTORT_LAUNCH_OK) {
		fprintf(stderr, "ptoc-bench launch: status %d: %s\n", (int)rep.status, rep.message);
		return -1;
	}
	if (rep.threads != threads) {
		fprintf(stderr, "ptoc-bench launch: %u threads ran instead of %u\n", rep.threads,
			threads);
		return -1;
	}
	return t;
}

int bench_launch(int argc, char **argv)
{
	/* 0: 1 thread, 1: 2 threads, 2: 1 thread unchecked, 3: 2 threads unchecked */
	static const uint32_t thr[4] = {1, 2, 1, 2};
	static const unsigned flg[4] = {0, 0, PTORT_LAUNCH_NO_RACE_CHECK, PTORT_LAUNCH_NO_RACE_CHECK};
	double best[4] = {1e30, 1e30, 1e30, 1e30};
	unsigned runs = 5, r, i;
	size_t k;
	uint64_t s = 0x9E3779B97F4A7C15ull;
	job j;
	float *ref;
	int same = 1;
	for (i = 1; i < (unsigned)argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < (unsigned)argc && atoi(argv[i + 1]) > 0)
			runs = (unsigned)atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: ptoc-bench launch [--runs R]\n");
			return 2;
		}
	}
	j.x = malloc((size_t)ROWS * COLS * sizeof *j.x);
	j.y = malloc((size_t)ROWS * OCOLS * sizeof *j.y);
	ref = malloc((size_t)ROWS * OCOLS * sizeof *ref);
	if (!j.x || !j.y || !ref) {
		fprintf(stderr, "ptoc-bench launch: out of memory\n");
		return 1;
	}
	for (k = 0; k < (size_t)ROWS * COLS; k++) { /* bf16 of magnitude 2^-8 .. 2^8 */
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		j.x[k] = (uint16_t)(((s >> 33) & 0x8000u) | (0x3B80u + ((s >> 40) % 0x800u)));
	}
	printf("launch: %u blocks of bench/blocks_sumsq_a2a3.pto (16x32768 bf16 each: 64 x tload, "
	       "tcvt, tmul, tadd; tstore), wall clock, best of %u\n", BLOCKS, runs);
	for (r = 0; r < runs; r++)
		for (i = 0; i < 4; i++) {
			double t = launch_once(&j, thr[i], flg[i]);
			if (t < 0)
				return 1;
			if (t < best[i])
				best[i] = t;
			if (r == 0 && i == 0)
				memcpy(ref, j.y, (size_t)ROWS * OCOLS * sizeof *ref);
			else if (memcmp(ref, j.y, (size_t)ROWS * OCOLS * sizeof *ref))
				same = 0;
		}
	printf("  1 thread:                   %8.2f ms\n", best[0] * 1e3);
	printf("  2 threads:                  %8.2f ms  (speed-up %.2fx over 1 thread)\n",
	       best[1] * 1e3, best[0] / best[1]);
	printf("  1 thread, no race check:    %8.2f ms  (the check costs %.1f %%)\n", best[2] * 1e3,
	       100.0 * (best[0] - best[2]) / best[2]);
	printf("  2 threads, no race check:   %8.2f ms  (speed-up %.2fx)\n", best[3] * 1e3,
	       best[2] / best[3]);
	printf("  outputs of all %u launches byte-identical: %s\n", 4 * runs, same ? "yes" : "NO");
	{ /* a speed-up needs idle CPUs: say how busy the machine was */
		FILE *f = fopen("/proc/loadavg", "r");
		double load;
		if (f && fscanf(f, "%lf", &load) == 1)
			printf("  machine load during the run (1-minute load average): %.1f on %u online "
			       "CPUs\n", load, ptort_launch_threads(0, 4096));
		if (f)
			fclose(f);
	}
	free(j.x);
	free(j.y);
	free(ref);
	return same ? 0 : 1;
}
