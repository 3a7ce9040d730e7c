/* test_cvt_f16c.c: cross-check against the host's F16C instructions (vcvtps2ph with an
 * immediate rounding mode, vcvtph2ps), detected at run time; SKIP (exit 77) without F16C.
 *   - f32 -> f16, RINT/FLOOR/CEIL/TRUNC with sat OFF (IEEE overflow rules, which F16C
 *     follows): boundary inputs (every f16 value and midpoint +-2 ulp, every power of
 *     two) and `count` random inputs, for the fast path and the reference;
 *   - f16 -> f32 for all 65536 patterns.
 * NaN results are compared as "is a NaN" (F16C keeps payload bits, the spec gives the
 * canonical NaN). Usage: test_cvt_f16c [count] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

#include "cvttest.h"

#ifdef HAVE_X86
__attribute__((target("f16c"))) static uint16_t hw_f32_f16(uint32_t x, int m)
{
	float f;
	__m128i r;
	memcpy(&f, &x, 4);
	switch (m) {
	case 0:
		r = _mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
		break;
	case 1:
		r = _mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
		break;
	case 2:
		r = _mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
		break;
	default:
		r = _mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
		break;
	}
	return (uint16_t)_mm_extract_epi16(r, 0);
}

__attribute__((target("f16c"))) static uint32_t hw_f16_f32(uint16_t h)
{
	float f = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h)));
	uint32_t x;
	memcpy(&x, &f, 4);
	return x;
}

static const ptort_rmode modes[4] = {PTORT_RINT, PTORT_FLOOR, PTORT_CEIL, PTORT_TRUNC};

static void one(uint32_t x)
{
	for (int m = 0; m < 4; m++) {
		uint16_t hw = hw_f32_f16(x, m);
		uint64_t fast = ptort_cvt1(PTORT_F32, PTORT_F16, x, modes[m], PTORT_SAT_OFF);
		uint64_t ref = ref_cvt(PTORT_F32, PTORT_F16, x, modes[m], PTORT_SAT_OFF);
		int hn = ref_is_nan(PTORT_F16, hw);
		int okf = hn ? ref_is_nan(PTORT_F16, fast) : fast == hw;
		int okr = hn ? ref_is_nan(PTORT_F16, ref) : ref == hw;
		if ((!okf || !okr) && check_failed())
			printf("FAIL f32->f16 %s 0x%08X: F16C 0x%04X fast 0x%04llX reference 0x%04llX\n",
			       ref_mode_name(modes[m]), x, hw, (unsigned long long)fast,
			       (unsigned long long)ref);
		check_count(1);
	}
}

static void add_f32(uint32_t x)
{
	for (int d = -2; d <= 2; d++) {
		one((x + (uint32_t)d) & 0x7FFFFFFFu);
		one((x + (uint32_t)d) | 0x80000000u);
	}
}

static void run(uint64_t count)
{
	uint64_t st = 5;
	for (uint32_t h = 0; h < 0x10000; h++) {
		uint32_t hw = hw_f16_f32((uint16_t)h);
		uint64_t fast = ptort_cvt1(PTORT_F16, PTORT_F32, h, PTORT_RINT, 0);
		uint64_t ref = ref_cvt(PTORT_F16, PTORT_F32, h, PTORT_RINT, 0);
		int hn = ref_is_nan(PTORT_F32, hw);
		if (((hn ? !ref_is_nan(PTORT_F32, fast) : fast != hw) ||
		     (hn ? !ref_is_nan(PTORT_F32, ref) : ref != hw)) &&
		    check_failed())
			printf("FAIL f16->f32 0x%04X: F16C 0x%08X fast 0x%08llX reference 0x%08llX\n", h, hw,
			       (unsigned long long)fast, (unsigned long long)ref);
		check_count(1);
		/* every f16 value and the midpoint to the next code (same sign) */
		if ((h & 0x7C00) != 0x7C00 && !(h & 0x8000)) {
			add_f32(hw);
			if (h < 0x7BFF)
				add_f32(hw + ((hw_f16_f32((uint16_t)(h + 1)) - hw) / 2));
			else /* overflow midpoint 65520 */
				add_f32(0x477FF000u);
		}
	}
	for (uint32_t e = 0; e < 255; e++)
		add_f32(e << 23);
	for (uint64_t i = 0; i < count; i++) {
		uint32_t x = (uint32_t)tst_rand(&st);
		if (i & 1) /* exponent around the f16 range */
			x = (x & 0x807FFFFFu) | (uint32_t)(127 - 28 + (int)((x >> 8) % 46)) << 23;
		one(x);
	}
}
#endif

int main(int argc, char **argv)
{
	uint64_t count = tst_random_count(argc > 1 ? argv[1] : NULL);
	ref_init();
#ifdef HAVE_X86
	__builtin_cpu_init();
	if (__builtin_cpu_supports("f16c")) {
		run(count);
		return check_report("cvt_f16c");
	}
#endif
	(void)count;
	return check_skip("cvt_f16c", "the host has no F16C");
}
