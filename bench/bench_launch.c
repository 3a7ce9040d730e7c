/* bench_launch.c: `ptoc-bench launch [--runs R]`. Many blocks at once: a launch of 32
 * blocks of bench/blocks_sumsq_a2a3.pto (each block: 16 rows of a 512x32768 bf16
 * activation, 64 chunks of tload, tcvt to f32, tmul, tadd; then one tstore; compiled to
 * C by ptoc at build time) through ptort_launch_run on 2 threads beside 1 thread, in
 * the same process, wall clock (the point is the elapsed time; PTOC_BENCH_CLOCK=cpu
 * would count one thread only), best of R runs each (default 5), the runs of the two
 * alternating so that both see the same machine load. Also the cost of the GM race
 * check (the same launch with PTORT_LAUNCH_NO_RACE_CHECK) and whether the outputs of
 * every run are byte-identical. Figures only; nothing is asserted.
 *
 * A wall-clock speed-up needs two idle CPUs, which a shared machine seldom has. So each
 * launch is also timed by CPU clocks: every block's thread CPU time (in run_block),
 * summed per thread, and the launching thread's CPU time over the whole call, whose
 * part outside its own blocks is the serial rest (context creation, the joins, the race
 * check). The critical path on idle CPUs is then that rest plus the busiest thread's
 * blocks; its 1-thread / 2-thread ratio is the speed-up the launch would reach with no
 * other load, leaving out what two threads cost each other (shared caches and memory
 * bandwidth, page-fault locks): an upper bound, printed beside the wall figure. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "bench.h"
#include "ptort.h"

/* generated from bench/blocks_sumsq_a2a3.pto by ptoc (bench/CMakeLists.txt) */
ptort_ctx *blocks_sumsq_a2a3_ctx_create(void);
void blocks_sumsq_a2a3(ptort_ctx *ctx, void *x, uint64_t x_elems, void *y, uint64_t y_elems);

#define ROWS 512
#define COLS 32768
#define OCOLS 512
#define BLOCKS 32
#define SLOTS 8 /* threads of a launch whose block CPU time is kept */

typedef struct job {
	uint16_t *x;
	float *y;
	/* CPU clocks of the launch running: block seconds per thread (slot 0: the
	 * launching thread), the threads seen so far */
	pthread_t main;
	pthread_mutex_t mu;
	pthread_t tid[SLOTS];
	double blk[SLOTS];
	unsigned nslot;
} job;

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_block(ptort_ctx *ctx, void *user)
{
	job *j = user;
	pthread_t self = pthread_self();
	unsigned i;
	double t0 = thread_cpu(), t;
	blocks_sumsq_a2a3(ctx, j->x, (uint64_t)ROWS * COLS, j->y, (uint64_t)ROWS * OCOLS);
	t = thread_cpu() - t0;
	pthread_mutex_lock(&j->mu);
	for (i = 0; i < j->nslot && !pthread_equal(j->tid[i], self); i++)
		;
	if (i == j->nslot && i < SLOTS)
		j->tid[j->nslot++] = self;
	if (i < SLOTS)
		j->blk[i] += t;
	pthread_mutex_unlock(&j->mu);
}

/* One launch; its wall time in seconds, or -1 after a message; *crit: the critical
 * path by CPU clocks (see the top). */
static double launch_once(job *j, uint32_t threads, unsigned flags, double *crit, double *rest)
{
	ptort_launch l = {.blocks = BLOCKS, .threads = threads, .flags = flags,
			  .ctx_create = blocks_sumsq_a2a3_ctx_create, .run = run_block, .user = j};
	ptort_launch_report rep;
	double t0, t, c0, c, busiest = 0;
	unsigned i;
	memset(j->y, 0, (size_t)ROWS * OCOLS * sizeof *j->y);
	j->main = pthread_self();
	j->tid[0] = j->main; /* slot 0: the launching thread, which is worker 0 */
	j->blk[0] = 0;
	j->nslot = 1;
	c0 = thread_cpu();
	t0 = bench_now();
	ptort_launch_run(&l, &rep);
	t = bench_now() - t0;
	c = thread_cpu() - c0;
	for (i = 0; i < j->nslot; i++)
		if (j->blk[i] > busiest)
			busiest = j->blk[i];
	*rest = c - j->blk[0];
	*crit = *rest + busiest;
	for (i = 1; i < SLOTS; i++)
		j->blk[i] = 0;
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
	double best[4] = {1e30, 1e30, 1e30, 1e30}, cbest[4] = {1e30, 1e30, 1e30, 1e30}, crest[4];
	unsigned runs = 5, r, i;
	size_t k;
	uint64_t s = 0x9E3779B97F4A7C15ull;
	job j;
	float *ref;
	int same = 1;
	if (bench_runs_arg(argc, argv, "launch", &runs))
		return 2;
	memset(&j, 0, sizeof j);
	pthread_mutex_init(&j.mu, NULL);
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
			double crit, rest, t = launch_once(&j, thr[i], flg[i], &crit, &rest);
			if (t < 0)
				return 1;
			if (t < best[i])
				best[i] = t;
			if (crit < cbest[i])
				cbest[i] = crit, crest[i] = rest;
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
	printf("  by CPU clocks (critical path on idle CPUs: the serial rest + the busiest "
	       "thread's blocks; an upper bound):\n");
	printf("    with the race check:      %8.2f ms on 1 thread, %8.2f ms on 2: speed-up %.2fx "
	       "(serial rest %.2f, %.2f ms)\n", cbest[0] * 1e3, cbest[1] * 1e3, cbest[0] / cbest[1],
	       crest[0] * 1e3, crest[1] * 1e3);
	printf("    no race check:            %8.2f ms on 1 thread, %8.2f ms on 2: speed-up %.2fx "
	       "(serial rest %.2f, %.2f ms)\n", cbest[2] * 1e3, cbest[3] * 1e3, cbest[2] / cbest[3],
	       crest[2] * 1e3, crest[3] * 1e3);
	printf("  outputs of all %u launches byte-identical: %s\n", 4 * runs, same ? "yes" : "NO");
	bench_print_load(); /* a speed-up needs idle CPUs */
	free(j.x);
	free(j.y);
	free(ref);
	pthread_mutex_destroy(&j.mu);
	return same ? 0 : 1;
}
