/* bench_cluster.c: `ptoc-bench cluster [--runs R]`. A mixed cube/vector kernel run as
 * clusters (docs/semantics.md §8.9): 64 clusters of bench/mixed_clusters_a5.pto (each
 * 8 rounds of a 64x64x64 f32 tmatmul on the cube, pushed split by rows to the two
 * vector cores, which add them up and store 32 rows each; compiled to C by ptoc at
 * build time) through ptort_launch_run with PTORT_LAUNCH_CLUSTER on 1 and on 2 threads,
 * in the same process, wall clock, best of R runs each (default 5), the runs of the two
 * alternating so that both see the same machine load, and the CPU time of all the
 * launch's threads (what two idle CPUs would share). The output of every run is
 * compared with a plain C reference, out_b = a_b @ (b_0 + ... + b_7) on small integers
 * (every f32 sum exact), and between the runs. Figures only; nothing is asserted about
 * time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "ptort.h"

/* generated from bench/mixed_clusters_a5.pto by ptoc (bench/CMakeLists.txt) */
ptort_ctx *mixed_clusters_ctx_create(void);
void mixed_clusters(ptort_ctx *ctx, void *a, uint64_t a_elems, void *b, uint64_t b_elems,
		    void *out, uint64_t out_elems, int64_t n);

#define CLUSTERS 64
#define K 64
#define ROUNDS 8

typedef struct job {
	float *a, *b, *out;
} job;

static void run_cluster(ptort_ctx *ctx, void *user)
{
	job *j = user;
	mixed_clusters(ctx, j->a, (uint64_t)CLUSTERS * K * K, j->b, (uint64_t)ROUNDS * K * K, j->out,
		       (uint64_t)CLUSTERS * K * K, CLUSTERS);
}

static double process_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One launch; its wall time in seconds, or -1 after a message; *cpu: the CPU time of
 * all its threads. */
static double launch_once(job *j, uint32_t threads, double *cpu)
{
	double c0;
	ptort_launch l = {.blocks = CLUSTERS, .threads = threads, .flags = PTORT_LAUNCH_CLUSTER,
			  .ctx_create = mixed_clusters_ctx_create, .run = run_cluster, .user = j};
	ptort_launch_report rep;
	double t0, t;
	memset(j->out, 0, (size_t)CLUSTERS * K * K * sizeof *j->out);
	c0 = process_cpu();
	t0 = bench_now();
	ptort_launch_run(&l, &rep);
	t = bench_now() - t0;
	*cpu = process_cpu() - c0;
	if (rep.status != PTORT_LAUNCH_OK) {
		fprintf(stderr, "ptoc-bench cluster: status %d: %s\n", (int)rep.status, rep.message);
		return -1;
	}
	return t;
}

int bench_cluster(int argc, char **argv)
{
	double best[2] = {1e30, 1e30}, cbest[2] = {1e30, 1e30};
	unsigned runs = 5, r, i, c, x, y, k;
	size_t n = (size_t)CLUSTERS * K * K;
	uint64_t s = 0x9E3779B97F4A7C15ull;
	job j;
	float *ref, *bsum;
	int same = 1, right = 1;
	if (bench_runs_arg(argc, argv, "cluster", &runs))
		return 2;
	j.a = malloc(n * sizeof *j.a);
	j.b = malloc((size_t)ROUNDS * K * K * sizeof *j.b);
	j.out = malloc(n * sizeof *j.out);
	ref = malloc(n * sizeof *ref);
	bsum = calloc((size_t)K * K, sizeof *bsum);
	if (!j.a || !j.b || !j.out || !ref || !bsum) {
		fprintf(stderr, "ptoc-bench cluster: out of memory\n");
		return 1;
	}
	for (k = 0; k < n; k++) { /* integers in [-3, 3]: every sum below is exact in f32 */
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		j.a[k] = (float)((int)((s >> 33) % 7) - 3);
	}
	for (k = 0; k < (unsigned)(ROUNDS * K * K); k++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		j.b[k] = (float)((int)((s >> 33) % 7) - 3);
		bsum[k % (K * K)] += j.b[k];
	}
	for (c = 0; c < CLUSTERS; c++) /* out_b = a_b @ (b_0 + ... + b_7) */
		for (x = 0; x < K; x++)
			for (y = 0; y < K; y++) {
				double acc = 0;
				for (k = 0; k < K; k++)
					acc += (double)j.a[((size_t)c * K + x) * K + k] * bsum[k * K + y];
				ref[((size_t)c * K + x) * K + y] = (float)acc;
			}
	printf("cluster: %u clusters of bench/mixed_clusters_a5.pto (8 rounds of a 64x64x64 f32 "
	       "tmatmul pushed to 2 vector cores, summed), wall clock, best of %u\n", CLUSTERS, runs);
	for (r = 0; r < runs; r++)
		for (i = 0; i < 2; i++) {
			double cpu, t = launch_once(&j, i + 1, &cpu);
			if (t < 0)
				return 1;
			if (t < best[i])
				best[i] = t;
			if (cpu < cbest[i])
				cbest[i] = cpu;
			if (memcmp(ref, j.out, n * sizeof *ref))
				same = right = 0;
		}
	printf("  1 thread:                   %8.2f ms  (%.2f ms per cluster)\n", best[0] * 1e3,
	       best[0] * 1e3 / CLUSTERS);
	printf("  2 threads:                  %8.2f ms  (speed-up %.2fx over 1 thread)\n",
	       best[1] * 1e3, best[0] / best[1]);
	printf("  CPU time of all threads:    %8.2f ms on 1 thread, %8.2f ms on 2 (on two idle "
	       "CPUs the 2-thread launch would take about half of the latter: the clusters are "
	       "independent)\n", cbest[0] * 1e3, cbest[1] * 1e3);
	printf("  outputs of all %u launches equal to the C reference (so byte-identical): %s\n",
	       2 * runs, same && right ? "yes" : "NO");
	bench_print_load(); /* a speed-up needs idle CPUs */
	free(j.a);
	free(j.b);
	free(j.out);
	free(ref);
	free(bsum);
	return same ? 0 : 1;
}
