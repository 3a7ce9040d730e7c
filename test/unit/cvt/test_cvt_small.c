/* test_cvt_small.c: every 4-, 8- and 16-bit source pattern to every destination type,
 * in every round mode and both saturation settings: ptort_cvt_run and ptort_cvt1 against
 * the reference, bit for bit. Illegal pairs/modes: the status of ptort_cvt_check and
 * ptort_cvt_run must match the reference's, nothing may be written, and ptort_cvt1 must
 * give 0. Also ptort_cvt_is_exact against the reference for every pair. */
#include <stdio.h>
#include <stdlib.h>

#include "cvttest.h"

int main(int argc, char **argv)
{
	static uint64_t src[1 << 16];
	size_t stride = argc > 1 ? (size_t)atoi(argv[1]) : 1;
	if (stride < 1)
		stride = 1;
	ref_init();
	for (int from = 0; from < PTORT_TYPE_COUNT; from++) {
		unsigned b = ref_type_bits((ptort_type)from);
		if (b > 16)
			continue;
		size_t n = 0, step = b == 16 ? stride : 1;
		for (size_t i = 0; i < ((size_t)1 << b); i += step)
			src[n++] = i;
		for (int to = 0; to < PTORT_TYPE_COUNT; to++)
			for (int rm = 0; rm < PTORT_RMODE_COUNT; rm++)
				for (int sat = 0; sat < 2; sat++)
					tst_check((ptort_type)from, (ptort_type)to, (ptort_rmode)rm, sat, src,
						  n, 1);
	}
	/* exactness: every pair (f32 -> f32 excluded: it rounds to integral although
	 * every f32 is representable in f32, so the header's two readings disagree) */
	int ex = 0;
	for (int from = 0; from < PTORT_TYPE_COUNT; from++)
		for (int to = 0; to < PTORT_TYPE_COUNT; to++) {
			if (from == PTORT_F32 && to == PTORT_F32)
				continue;
			int want = ref_is_exact((ptort_type)from, (ptort_type)to);
			int got = ptort_cvt_is_exact((ptort_type)from, (ptort_type)to) != 0;
			if (want != got) {
				printf("FAIL ptort_cvt_is_exact(%s, %s) = %d, expected %d\n",
				       ref_type_name((ptort_type)from), ref_type_name((ptort_type)to), got,
				       want);
				tst_failed++;
			}
			ex++;
		}
	printf("ptort_cvt_is_exact: %d pairs compared\n", ex);
	return tst_report("cvt_small");
}
