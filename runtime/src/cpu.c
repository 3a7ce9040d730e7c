/* cpu.c: host feature detection with cpuid and xgetbv directly, so that a program
 * linking libptort with any C compiler (tcc included) needs no compiler-runtime
 * symbols (__builtin_cpu_supports needs libgcc's __cpu_model), capped by the
 * environment variable PTORT_ISA (docs/runtime.md, "Instruction-set levels"). */
#include <stdlib.h>
#include <string.h>

#include "cpu_internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

static unsigned long long xgetbv0(void)
{
	unsigned lo, hi;
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}

static unsigned detect(void)
{
	unsigned a, b, c, d, f = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	/* OSXSAVE (c bit 27) and AVX (c bit 28), and XCR0 saving XMM and YMM (bits 1, 2) */
	if (!(c & (1u << 27)) || !(c & (1u << 28)) || (xgetbv0() & 6) != 6)
		return 0;
	if (c & (1u << 29))
		f |= PTORT_CPU_F16C;
	if (c & (1u << 12))
		f |= PTORT_CPU_FMA;
	if (__get_cpuid_max(0, 0) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if (b & (1u << 5))
			f |= PTORT_CPU_AVX2;
		/* AVX512F (b bit 16), DQ (17), BW (30), VL (31), and XCR0 saving the opmask
		 * and ZMM state (bits 5, 6, 7) */
		if ((b & 0xC0030000u) == 0xC0030000u && (xgetbv0() & 0xE6) == 0xE6)
			f |= PTORT_CPU_AVX512;
	}
	return f;
}
#else
static unsigned detect(void)
{
	return 0;
}
#endif

/* The PTORT_ISA caps, as the features each one keeps. [decision] An unrecognised
 * value caps at "portable" (never faster than asked) and ptort_cpu_isa_env_bad()
 * says so, for the tools to warn; the library itself prints nothing. */
#define ISA_CAPS(X)                                                                        \
	X("portable", 0u)                                                                  \
	X("avx2", PTORT_CPU_AVX2 | PTORT_CPU_F16C | PTORT_CPU_FMA)                         \
	X("avx512", ~0u)                                                                   \
	X("native", ~0u)

static const struct {
	const char *name;
	unsigned keep;
} isa_caps[] = {
#define X(n, k) {n, k},
	ISA_CAPS(X)
#undef X
};

static int env_bad;

static unsigned env_cap(void)
{
	const char *e = getenv("PTORT_ISA");
	size_t i;
	if (!e || !*e)
		return ~0u;
	for (i = 0; i < sizeof isa_caps / sizeof isa_caps[0]; i++)
		if (!strcmp(e, isa_caps[i].name))
			return isa_caps[i].keep;
	env_bad = 1;
	return 0u;
}

unsigned ptort_cpu_features(void)
{
	static int done; /* benign race: every thread computes the same value */
	static unsigned features;
	if (!done) {
		features = detect() & env_cap();
		done = 1;
	}
	return features;
}

int ptort_cpu_isa_env_bad(void)
{
	(void)ptort_cpu_features();
	return env_bad;
}

const char *ptort_cpu_isa_name(void)
{
	unsigned f = ptort_cpu_features();
	if (f & PTORT_CPU_AVX512)
		return "avx512";
	if (f & PTORT_CPU_AVX2)
		return "avx2";
	return "portable";
}
