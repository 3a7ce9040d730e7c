/* mmad_level.c: which instruction-set level of the mmad kernels a call uses: the best
 * the host has (cpu.c's features), capped by ptort_mmad_force_level. Above the levels'
 * files (mmad_kernel.c's portable one, mmad_avx2.c, mmad_avx512.c), which build on
 * each other from the bottom up and never call back here (docs/architecture.md). */
#include "cpu_internal.h"
#include "mmad_internal.h"

/* ---- levels ------------------------------------------------------------------------ */

static int forced_level = -1;

int mmad_best_level(void)
{
#if MMAD_X86
	unsigned f = ptort_cpu_features();
	if ((f & PTORT_CPU_AVX2) && (f & PTORT_CPU_FMA) && (f & PTORT_CPU_F16C)) {
		if (f & PTORT_CPU_AVX512)
			return 2;
		return 1;
	}
#endif
	return 0;
}

int mmad_level(void)
{
	int b = mmad_best_level();
	return forced_level >= 0 && forced_level < b ? forced_level : b;
}

void ptort_mmad_force_level(int level)
{
	forced_level = level;
}

const struct mmad_isa *mmad_isa_get(void)
{
#if MMAD_X86
	switch (mmad_level()) {
	case 2:
		return &mmad_isa_avx512;
	case 1:
		return &mmad_isa_avx2;
	default:
		break;
	}
#endif
	return &mmad_isa_c;
}
