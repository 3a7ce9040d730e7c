/* bench_cvt.c: placeholder until its benchmark lands. */
#include <stdio.h>

#include "bench.h"

int bench_cvt(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ptoc-bench: 'cvt' is not available in this build yet\n");
	return 2;
}
