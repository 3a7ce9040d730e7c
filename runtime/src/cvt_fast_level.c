/* cvt_fast_level.c: the ISA level the fast conversion kernels use (the file map:
 * cvt_fast_internal.h): the machine's, capped by ptort_cvt_fast_force_level. At the
 * bottom of the fast path's files, which all ask it. */
#include "cvt_fast_internal.h"

/* Level used by ptort_cvt_fast_run: -1 = best available (the default), else capped. */
static int forced_level = -1;

int ptort_cvtf_level(void)
{
#ifdef PTORT_X86
	int lv = ptort_cvtf_x86_level();
	return forced_level >= 0 && forced_level < lv ? forced_level : lv;
#else
	return 0;
#endif
}

void ptort_cvt_fast_force_level(int level)
{
	forced_level = level;
}
