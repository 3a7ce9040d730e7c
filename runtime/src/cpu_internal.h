/* cpu_internal.h: host CPU features for the runtime's fast paths (never installed). */
#ifndef PTORT_CPU_INTERNAL_H
#define PTORT_CPU_INTERNAL_H

enum {
	PTORT_CPU_AVX2 = 1u << 0, /* AVX2, and the OS saves the YMM state */
	PTORT_CPU_F16C = 1u << 1,
	PTORT_CPU_FMA = 1u << 2,
	PTORT_CPU_AVX512 = 1u << 3, /* AVX-512 F, BW, VL and DQ, and the OS saves ZMM/opmask */
};

/* The features of the host, detected once (cpuid + xgetbv; 0 on other hosts), capped
 * by the environment variable PTORT_ISA: "portable" keeps none, "avx2" keeps AVX2, FMA
 * and F16C, "avx512" and "native" (and unset or empty) keep all; any other value is
 * treated as "portable". Read once, at the first call. */
unsigned ptort_cpu_features(void);

/* Nonzero when PTORT_ISA holds a value none of the above (it then caps at portable). */
int ptort_cpu_isa_env_bad(void);

/* The highest level the capped features allow: "portable", "avx2" or "avx512". */
const char *ptort_cpu_isa_name(void);

#endif
