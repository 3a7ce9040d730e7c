/* bench_parse.c: placeholder until its benchmark lands. */
#include <stdio.h>

#include "bench.h"

int bench_parse(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ptoc-bench: 'parse' is not available in this build yet\n");
	return 2;
}
