/* cvt_pipe.c: converts raw little-endian elements read from stdin and writes the raw
 * results to stdout, with the runtime (ptort_cvt_run) or, given "ref", the reference.
 * Used by test_cvt_numpy.py. Usage: cvt_pipe <from> <to> <mode> <on|off> [ref] */
#include <stdio.h>
#include <stdlib.h>

#include "cvttest.h"

int main(int argc, char **argv)
{
	ptort_type from, to;
	ptort_rmode rm;
	if (argc < 5 || ref_type_parse(argv[1], &from) || ref_type_parse(argv[2], &to) ||
	    ref_mode_parse(argv[3], &rm) || ref_type_bits(from) < 8 || ref_type_bits(to) < 8) {
		fprintf(stderr, "usage: cvt_pipe <from> <to> <mode> <on|off> [ref] (8-bit types or wider)\n");
		return 2;
	}
	int sat = argv[4][1] == 'n', ref = argc > 5;
	size_t sb = ref_type_bits(from) / 8, db = ref_type_bits(to) / 8, cap = 1 << 16, n;
	unsigned char *s = malloc(cap * sb), *d = malloc(cap * db);
	if (!s || !d)
		return 2;
	ref_init();
	while ((n = fread(s, sb, cap, stdin)) > 0) {
		if (ref) {
			for (size_t i = 0; i < n; i++)
				tst_set(to, d, i, ref_cvt(from, to, tst_get(from, s, i), rm, sat));
		} else if (ptort_cvt_run(from, to, s, d, n, rm, sat) != PTORT_CVT_OK) {
			fprintf(stderr, "cvt_pipe: illegal conversion\n");
			return 2;
		}
		if (fwrite(d, db, n, stdout) != n)
			return 2;
	}
	free(s);
	free(d);
	return 0;
}
