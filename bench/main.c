/* ptoc-bench: dispatches to one benchmark per subcommand. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "ptort.h"
#include "runtime/src/cpu_internal.h"

/* PTOC_BENCH_CLOCK=cpu measures this thread's CPU time instead of wall time: on a
 * shared virtual machine it leaves out the time the host gave to other guests (steal),
 * which otherwise shows up as noise of tens of per cent. */
double bench_now(void)
{
	static int cpu = -1;
	struct timespec ts;
	if (cpu < 0) {
		const char *e = getenv("PTOC_BENCH_CLOCK");
		cpu = e && !strcmp(e, "cpu");
	}
	clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_best(void (*fn)(void *), void *arg, double sample, int min_samples,
		  double min_total)
{
	double t0, t, best = 1e30, start;
	int n = 0, reps = 1, i;
	fn(arg);
	for (;;) { /* calibrate */
		t0 = bench_now();
		for (i = 0; i < reps; i++)
			fn(arg);
		if (bench_now() - t0 >= sample || reps >= 1 << 20)
			break;
		reps *= 2;
	}
	start = bench_now();
	while (n < min_samples || bench_now() - start < min_total) {
		t0 = bench_now();
		for (i = 0; i < reps; i++)
			fn(arg);
		t = (bench_now() - t0) / reps;
		if (t < best)
			best = t;
		n++;
	}
	return best;
}

int bench_runs_arg(int argc, char **argv, const char *name, unsigned *runs)
{
	int i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0) {
			*runs = (unsigned)atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: ptoc-bench %s [--runs R]\n", name);
			return 2;
		}
	}
	return 0;
}

char *bench_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (p = malloc((size_t)n + 1)) && fread(p, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

void bench_print_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load;
	if (f && fscanf(f, "%lf", &load) == 1)
		printf("  machine load during the run (1-minute load average): %.1f on %u online "
		       "CPUs\n", load, ptort_launch_threads(0, 4096));
	if (f)
		fclose(f);
}

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *help;
} benches[] = {
	{"cvt", bench_cvt, "element conversions, in cache and streaming, beside memcpy and F16C"},
	{"mmad", bench_mmad, "cube mmad kernels beside OpenBLAS sgemm"},
	{"kernel", bench_kernel, "generated tload/tcvt/tstore kernel beside ptort_cvt_run; emit-C compile time"},
	{"launch", bench_launch, "32 blocks of a generated kernel on 2 threads beside 1; race check cost"},
	{"cluster", bench_cluster, "64 clusters of a mixed cube/vector kernel on 2 threads beside 1"},
	{"vop", bench_vop, "vector operations: array kernels per level, instructions, row sums"},
	{"parse", bench_parse, "parse+verify+print a large module beside mlir-opt"},
	{"mlir", bench_mlir, "MLIR bridge import+export of that module beside MLIR's parse and print"},
};

int main(int argc, char **argv)
{
	size_t i;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: ptoc-bench BENCH [ARGS...]\n\nbenchmarks:\n");
		for (i = 0; i < sizeof benches / sizeof benches[0]; i++)
			printf("  %-6s %s\n", benches[i].name, benches[i].help);
		printf("\nenvironment:\n  PTOC_BENCH_CLOCK=cpu  time with the thread's CPU clock "
		       "(leaves out a VM's steal time)\n"
		       "  PTORT_ISA=LEVEL       cap the runtime's fast paths: portable, avx2, "
		       "avx512 (docs/runtime.md)\n");
		return argc < 2 ? 2 : 0;
	}
	if (ptort_cpu_isa_env_bad())
		fprintf(stderr, "ptoc-bench: warning: PTORT_ISA='%s' is not portable, avx2, avx512 "
				"or native; running at portable\n", getenv("PTORT_ISA"));
	for (i = 0; i < sizeof benches / sizeof benches[0]; i++)
		if (!strcmp(argv[1], benches[i].name)) {
			printf("runtime ISA level: %s%s\n", ptort_cpu_isa_name(),
			       getenv("PTORT_ISA") ? " (PTORT_ISA)" : "");
			return benches[i].run(argc - 1, argv + 1);
		}
	fprintf(stderr, "ptoc-bench: unknown benchmark '%s' (try --help)\n", argv[1]);
	return 2;
}
