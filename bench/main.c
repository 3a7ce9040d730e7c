/* ptoc-bench: dispatches to one benchmark per subcommand. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *help;
} benches[] = {
	{"cvt", bench_cvt, "element conversions, in cache and streaming, beside memcpy and F16C"},
	{"mmad", bench_mmad, "cube mmad kernels beside OpenBLAS sgemm"},
	{"kernel", bench_kernel, "generated tload/tcvt/tstore kernel beside ptort_cvt_run; emit-C compile time"},
	{"parse", bench_parse, "parse+verify+print a large module beside mlir-opt"},
};

int main(int argc, char **argv)
{
	size_t i;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: ptoc-bench BENCH [ARGS...]\n\nbenchmarks:\n");
		for (i = 0; i < sizeof benches / sizeof benches[0]; i++)
			printf("  %-6s %s\n", benches[i].name, benches[i].help);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < sizeof benches / sizeof benches[0]; i++)
		if (!strcmp(argv[1], benches[i].name))
			return benches[i].run(argc - 1, argv + 1);
	fprintf(stderr, "ptoc-bench: unknown benchmark '%s' (try --help)\n", argv[1]);
	return 2;
}
