/* cpu_internal.h: host CPU features for the runtime's fast paths (never installed). */
#ifndef PTORT_CPU_INTERNAL_H
#define PTORT_CPU_INTERNAL_H

enum {
	PTORT_CPU_AVX2 = 1u << 0, /* AVX2, and the OS saves the YMM state */
	PTORT_CPU_F16C = 1u << 1,
	PTORT_CPU_FMA = 1u << 2,
	PTORT_CPU_AVX512 = 1u << 3, /* AVX-512 F, BW, VL and DQ, and the OS saves ZMM/opmask */
};

/* The features of the host, detected once (cpuid + xgetbv; 0 on other hosts). */
unsigned ptort_cpu_features(void);

#endif
