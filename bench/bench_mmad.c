/* bench_mmad.c: placeholder until its benchmark lands. */
#include <stdio.h>

#include "bench.h"

int bench_mmad(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ptoc-bench: 'mmad' is not available in this build yet\n");
	return 2;
}
