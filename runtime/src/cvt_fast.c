/* cvt_fast.c: fast kernels for contiguous runs of the common 16/32-bit conversions.
 *
 * Every kernel gives exactly the bits of the generic decode-round-pack path (cvt.c);
 * test/unit/cvtfast compares them on all 2^16 and many random 2^32 inputs. Kernels are
 * branch-free loops over integer bit patterns written for auto-vectorisation; on
 * x86-64 the same bodies are also compiled for AVX2, and f32<->f16 use F16C, chosen at
 * run time (cpuid, cpu.c) and only while MXCSR has DAZ/FTZ clear. The only
 * host float operations are exact ones (int -> float of values below 2^24, and F16C
 * conversions whose results the unit test pins down). Pairs without a kernel of their
 * own are chained through an exact intermediate (f16/bf16/i8/i16 -> f32, ...), in
 * blocks, so the one rounding happens in the last step. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpu_internal.h"
#include "cvt_internal.h"
#include "ptort.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
#define PTORT_X86 1
#include <immintrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static
#endif

/* Round-mode increments, all branch-free: half = first discarded bit, sticky = any
 * later one, lsb = last kept bit, neg = sign. */
INLINE uint32_t rinc(int rm, uint32_t half, uint32_t sticky, uint32_t lsb, uint32_t neg)
{
	uint32_t inexact = half | sticky;
	switch (rm) {
	case PTORT_ROUND:
		return half;
	case PTORT_FLOOR:
		return neg & inexact;
	case PTORT_CEIL:
		return (neg ^ 1) & inexact;
	case PTORT_TRUNC:
	case PTORT_ODD:
		return 0;
	default: /* RINT, NONE */
		return half & (sticky | lsb);
	}
}

/* ---- f32 -> f16 ---------------------------------------------------------- */

INLINE uint16_t f32_f16_one(uint32_t u, int rm, int sat)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31, s16 = neg << 15;
	uint32_t isnan = abs > 0x7F800000u, isinf = abs == 0x7F800000u;
	uint32_t a = abs > 0x47800000u ? 0x47800000u : abs; /* >= 2^16 overflows anyway */
	uint32_t e = a >> 23, sub = e < 113;
	uint32_t sig = (a & 0x7FFFFFu) | (e ? 0x800000u : 0);
	uint32_t sh = sub ? (126 - e > 31 ? 31 : 126 - e) : 13;
	uint32_t kept = sub ? sig >> sh : (a >> 13) - (112u << 10);
	uint32_t disc = sig & ((1u << sh) - 1);
	uint32_t half = (disc >> (sh - 1)) & 1, sticky = (disc & ((1u << (sh - 1)) - 1)) != 0;
	uint32_t r = kept + rinc(rm, half, sticky, kept & 1, neg);
	uint32_t ovf_pos, ovf_neg, ovf, out;
	if (rm == PTORT_ODD)
		r = kept | half | sticky;
	/* overflow per SEMANTICS.md §3 step 2 */
	ovf_pos = (rm == PTORT_TRUNC || rm == PTORT_ODD || rm == PTORT_FLOOR) ? 0x7BFF : 0x7C00;
	ovf_neg = (rm == PTORT_TRUNC || rm == PTORT_ODD || rm == PTORT_CEIL) ? 0x7BFF : 0x7C00;
	if (sat)
		ovf_pos = ovf_neg = 0x7BFF;
	ovf = neg ? ovf_neg : ovf_pos;
	out = r >= 0x7C00 ? ovf : r;
	out = isinf ? (sat ? 0x7BFFu : 0x7C00u) : out;
	out |= s16;
	out = isnan ? (sat ? 0u : 0x7E00u) : out;
	return (uint16_t)out;
}

INLINE void k_f32_f16(const uint32_t *s, uint16_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = f32_f16_one(s[i], rm, sat);
}

/* ---- f32 -> bf16 --------------------------------------------------------- */

INLINE uint16_t f32_bf16_one(uint32_t u, int rm, int sat)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31;
	uint32_t isnan = abs > 0x7F800000u;
	uint32_t kept = u >> 16, low = u & 0xFFFF;
	uint32_t half = low >> 15, sticky = (low & 0x7FFF) != 0;
	uint32_t r = kept + rinc(rm, half, sticky, kept & 1, neg); /* IEEE overflow for free */
	uint32_t out = sat && (r & 0x7FFF) == 0x7F80 ? r - 1 : r;   /* +-inf -> +-max */
	out = isnan ? (sat ? 0u : 0x7FC0u) : out;
	return (uint16_t)out;
}

INLINE void k_f32_bf16(const uint32_t *s, uint16_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = f32_bf16_one(s[i], rm, sat);
}

/* ---- f16 / bf16 -> f32 (exact; NaN -> 0x7FC00000) ------------------------ */

INLINE uint32_t f16_f32_one(uint16_t h)
{
	uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FFu;
	/* subnormal: m * 2^-24; (float)m is exact (m < 2^10), then scale the exponent */
	float fm = (float)(int32_t)m;
	uint32_t bm;
	uint32_t norm = ((e + 112) << 23) | (m << 13);
	uint32_t out;
	memcpy(&bm, &fm, 4);
	out = e == 0 ? (m ? bm - (24u << 23) : 0) : norm;
	out = e == 31 ? (m ? 0x7FC00000u : 0x7F800000u) : out;
	return out | (e == 31 && m ? 0 : s);
}

INLINE void k_f16_f32(const uint16_t *s, uint32_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = f16_f32_one(s[i]);
}

INLINE void k_bf16_f32(const uint16_t *s, uint32_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		uint32_t u = (uint32_t)s[i] << 16;
		d[i] = (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : u;
	}
}

/* ---- f32 -> integers of <= 32 bits --------------------------------------- */

/* hi: largest value, lom: magnitude of the smallest (0 for unsigned), mask: 2^N - 1;
 * the result in the low N bits. All 32-bit lane arithmetic. */
INLINE uint32_t sel(uint32_t c, uint32_t x, uint32_t y) /* c ? x : y, without a branch */
{
	uint32_t m = 0u - (c & 1);
	return (x & m) | (y & ~m);
}

INLINE uint32_t f32_int_one(uint32_t u, int rm, int sat, uint32_t hi, uint32_t lom, uint32_t mask)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31;
	uint32_t e = abs >> 23, frac = abs & 0x7FFFFFu;
	uint32_t sig = frac | sel(e != 0, 0x800000u, 0);
	uint32_t ee = e + (e == 0);
	uint32_t up = ee >= 150, kk = sel(up, ee - 150, 0);
	uint32_t big = sel(kk > 31, 0, sig << (kk & 31)); /* exact integer mod 2^32 */
	uint32_t sh = sel(up, 1, sel(150 - ee > 31, 31, 150 - ee));
	uint32_t kept = sig >> sh, disc = sig & ((1u << sh) - 1);
	uint32_t half = (disc >> (sh - 1)) & 1, sticky = (disc & ((1u << (sh - 1)) - 1)) != 0;
	uint32_t mag = sel(up, big, kept + rinc(rm, half, sticky, kept & 1, neg));
	uint32_t wrap = sel(neg, 0u - mag, mag) & mask;
	/* |value| >= 2^32 is out of range of every <= 32-bit destination; below, mag is exact */
	uint32_t huge = e >= 159;
	uint32_t lo = (0u - lom) & mask;
	uint32_t spos = sel(huge | (mag > hi), hi, mag);
	uint32_t sneg = sel(huge | (mag > lom), lo, (0u - mag) & mask);
	uint32_t out = sat ? sel(neg, sneg, spos) : wrap;
	out = sel(e == 255, sel(frac != 0, 0, sel(neg, lo, hi)), out);
	return out;
}

#define K_F32_INT(name, DT, HI, LOM, MASK)                                                      \
	INLINE void name(const uint32_t *s, DT *d, size_t n, int rm, int sat)                  \
	{                                                                                       \
		size_t i;                                                                       \
		for (i = 0; i < n; i++)                                                         \
			d[i] = (DT)f32_int_one(s[i], rm, sat, HI, LOM, MASK);                   \
	}
K_F32_INT(k_f32_i32, uint32_t, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu)
K_F32_INT(k_f32_u32, uint32_t, 0xFFFFFFFFu, 0, 0xFFFFFFFFu)
K_F32_INT(k_f32_i16, uint16_t, 0x7FFFu, 0x8000u, 0xFFFFu)
K_F32_INT(k_f32_u16, uint16_t, 0xFFFFu, 0, 0xFFFFu)
K_F32_INT(k_f32_i8, uint8_t, 0x7Fu, 0x80u, 0xFFu)
K_F32_INT(k_f32_u8, uint8_t, 0xFFu, 0, 0xFFu)

/* ---- 32-bit integers -> f32 ------------------------------------------------ */

/* |v| as uint32 -> f32 with rm: exponent found from an exact int -> float conversion of
 * the top 24 bits, rounding done on integers. */
INLINE uint32_t u32mag_f32(uint32_t mag, uint32_t neg, int rm)
{
	uint32_t small = mag < 0x1000000u;
	float f = (float)(int32_t)sel(small, mag, mag >> 8); /* < 2^24: exact */
	uint32_t fb, p, sh, sh1, kept, disc, half, sticky, r, out;
	memcpy(&fb, &f, 4);
	p = (fb >> 23) - 127 + sel(small, 0, 8); /* msb position of mag (when mag >= 2^24) */
	sh = sel(small, 1, p - 23);		 /* 1..8; unused when small */
	sh1 = sh - 1;
	kept = mag >> sh;
	disc = mag & ((1u << sh) - 1);
	half = (disc >> sh1) & 1;
	sticky = (disc & ((1u << sh1) - 1)) != 0;
	r = kept + rinc(rm, half, sticky, kept & 1, neg); /* in [2^23, 2^24], value r * 2^sh */
	out = ((127u + 23u + sh) << 23) + (r & 0x7FFFFFu) + ((r >> 24) << 23);
	out = sel(small, fb, out);
	return out | (neg << 31);
}

INLINE void k_i32_f32(const uint32_t *s, uint32_t *d, size_t n, int rm)
{
	size_t i;
	for (i = 0; i < n; i++) {
		uint32_t u = s[i], neg = u >> 31;
		d[i] = u32mag_f32(sel(neg, 0u - u, u), neg, rm);
	}
}

INLINE void k_u32_f32(const uint32_t *s, uint32_t *d, size_t n, int rm)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = u32mag_f32(s[i], 0, rm);
}

/* exact small integers (<= 16 bits) -> f32 */
INLINE void k_i16_f32(const uint16_t *s, uint32_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		float f = (float)(int16_t)s[i];
		memcpy(&d[i], &f, 4);
	}
}

INLINE void k_u16_f32(const uint16_t *s, uint32_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		float f = (float)(int32_t)s[i];
		memcpy(&d[i], &f, 4);
	}
}

INLINE void k_i8_f32(const uint8_t *s, uint32_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		float f = (float)(int8_t)s[i];
		memcpy(&d[i], &f, 4);
	}
}

INLINE void k_u8_f32(const uint8_t *s, uint32_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		float f = (float)(int32_t)s[i];
		memcpy(&d[i], &f, 4);
	}
}

/* ---- integers -> integers ---------------------------------------------- */

/* lo/hi: destination range; neg0: a signed source to a wider unsigned destination
 * (negatives -> 0 in both modes). */
#define K_INT_INT(name, ST, SCAST, DT)                                                          \
	INLINE void name(const void *sv, void *dv, size_t n, int sat, int64_t lo, int64_t hi,  \
			 int neg0)                                                              \
	{                                                                                       \
		const ST *s = sv;                                                               \
		DT *d = dv;                                                                     \
		size_t i;                                                                       \
		for (i = 0; i < n; i++) {                                                       \
			int64_t v = (int64_t)(SCAST)s[i];                                       \
			int64_t c = v < lo ? lo : v > hi ? hi : v;                              \
			d[i] = (DT)(uint64_t)((sat || (neg0 && v < 0)) ? c : v);                \
		}                                                                               \
	}
K_INT_INT(k_s32_n32, uint32_t, int32_t, uint32_t)
K_INT_INT(k_u32_n32, uint32_t, uint32_t, uint32_t)
K_INT_INT(k_s32_n16, uint32_t, int32_t, uint16_t)
K_INT_INT(k_u32_n16, uint32_t, uint32_t, uint16_t)
K_INT_INT(k_s32_n8, uint32_t, int32_t, uint8_t)
K_INT_INT(k_u32_n8, uint32_t, uint32_t, uint8_t)
K_INT_INT(k_s16_n32, uint16_t, int16_t, uint32_t)
K_INT_INT(k_u16_n32, uint16_t, uint16_t, uint32_t)
K_INT_INT(k_s16_n16, uint16_t, int16_t, uint16_t)
K_INT_INT(k_u16_n16, uint16_t, uint16_t, uint16_t)
K_INT_INT(k_s16_n8, uint16_t, int16_t, uint8_t)
K_INT_INT(k_u16_n8, uint16_t, uint16_t, uint8_t)
K_INT_INT(k_s8_n32, uint8_t, int8_t, uint32_t)
K_INT_INT(k_u8_n32, uint8_t, uint8_t, uint32_t)
K_INT_INT(k_s8_n16, uint8_t, int8_t, uint16_t)
K_INT_INT(k_u8_n16, uint8_t, uint8_t, uint16_t)
K_INT_INT(k_s64_n32, uint64_t, int64_t, uint32_t)

/* ---- the kernel table: one entry point per kernel, compiled per ISA ------- */

enum kid {
	K_F32_F16, K_F32_BF16, K_F16_F32, K_BF16_F32,
	K_F32_I32, K_F32_U32, K_F32_I16, K_F32_U16, K_F32_I8, K_F32_U8,
	K_I32_F32, K_U32_F32, K_I16_F32, K_U16_F32, K_I8_F32, K_U8_F32,
	K_INTINT
};

struct kargs {
	const void *s;
	void *d;
	size_t n;
	int rm, sat;
	/* int -> int */
	int sbits, ssigned, dbits, neg0;
	int64_t lo, hi;
};

#define INTINT_CASE(SB, SS, DB, F)                                                              \
	if (a->sbits == SB && a->ssigned == SS && a->dbits == DB) {                             \
		F(a->s, a->d, a->n, a->sat, a->lo, a->hi, a->neg0);                             \
		return 1;                                                                       \
	}

/* Calls fn with the round mode and saturation as compile-time constants, so that
 * each specialisation is a straight loop the compiler vectorises. */
#define RS_SAT(fn, RM)                                                                          \
	do {                                                                                    \
		if (a->sat)                                                                     \
			fn(a->s, a->d, a->n, RM, 1);                                            \
		else                                                                            \
			fn(a->s, a->d, a->n, RM, 0);                                            \
	} while (0)
#define RS(fn)                                                                                  \
	do {                                                                                    \
		switch (a->rm) {                                                                \
		case PTORT_ROUND: RS_SAT(fn, PTORT_ROUND); break;                               \
		case PTORT_FLOOR: RS_SAT(fn, PTORT_FLOOR); break;                               \
		case PTORT_CEIL: RS_SAT(fn, PTORT_CEIL); break;                                 \
		case PTORT_TRUNC: RS_SAT(fn, PTORT_TRUNC); break;                               \
		case PTORT_ODD: RS_SAT(fn, PTORT_ODD); break;                                   \
		default: RS_SAT(fn, PTORT_RINT); break;                                         \
		}                                                                               \
		return 1;                                                                       \
	} while (0)
#define RM_ONLY(fn)                                                                             \
	do {                                                                                    \
		switch (a->rm) {                                                                \
		case PTORT_ROUND: fn(a->s, a->d, a->n, PTORT_ROUND); break;                     \
		case PTORT_FLOOR: fn(a->s, a->d, a->n, PTORT_FLOOR); break;                     \
		case PTORT_CEIL: fn(a->s, a->d, a->n, PTORT_CEIL); break;                       \
		case PTORT_TRUNC: fn(a->s, a->d, a->n, PTORT_TRUNC); break;                     \
		default: fn(a->s, a->d, a->n, PTORT_RINT); break;                               \
		}                                                                               \
		return 1;                                                                       \
	} while (0)

/* The body shared by every ISA; returns 0 when the kernel does not exist. */
INLINE int run_kernel(enum kid k, const struct kargs *a)
{
	switch (k) {
	case K_F32_F16: RS(k_f32_f16);
	case K_F32_BF16: RS(k_f32_bf16);
	case K_F16_F32: k_f16_f32(a->s, a->d, a->n); return 1;
	case K_BF16_F32: k_bf16_f32(a->s, a->d, a->n); return 1;
	case K_F32_I32: RS(k_f32_i32);
	case K_F32_U32: RS(k_f32_u32);
	case K_F32_I16: RS(k_f32_i16);
	case K_F32_U16: RS(k_f32_u16);
	case K_F32_I8: RS(k_f32_i8);
	case K_F32_U8: RS(k_f32_u8);
	case K_I32_F32: RM_ONLY(k_i32_f32);
	case K_U32_F32: RM_ONLY(k_u32_f32);
	case K_I16_F32: k_i16_f32(a->s, a->d, a->n); return 1;
	case K_U16_F32: k_u16_f32(a->s, a->d, a->n); return 1;
	case K_I8_F32: k_i8_f32(a->s, a->d, a->n); return 1;
	case K_U8_F32: k_u8_f32(a->s, a->d, a->n); return 1;
	case K_INTINT:
		INTINT_CASE(32, 1, 32, k_s32_n32)
		INTINT_CASE(32, 0, 32, k_u32_n32)
		INTINT_CASE(32, 1, 16, k_s32_n16)
		INTINT_CASE(32, 0, 16, k_u32_n16)
		INTINT_CASE(32, 1, 8, k_s32_n8)
		INTINT_CASE(32, 0, 8, k_u32_n8)
		INTINT_CASE(16, 1, 32, k_s16_n32)
		INTINT_CASE(16, 0, 32, k_u16_n32)
		INTINT_CASE(16, 1, 16, k_s16_n16)
		INTINT_CASE(16, 0, 16, k_u16_n16)
		INTINT_CASE(16, 1, 8, k_s16_n8)
		INTINT_CASE(16, 0, 8, k_u16_n8)
		INTINT_CASE(8, 1, 32, k_s8_n32)
		INTINT_CASE(8, 0, 32, k_u8_n32)
		INTINT_CASE(8, 1, 16, k_s8_n16)
		INTINT_CASE(8, 0, 16, k_u8_n16)
		INTINT_CASE(64, 1, 32, k_s64_n32)
		return 0;
	}
	return 0;
}

static int run_portable(enum kid k, const struct kargs *a)
{
	return run_kernel(k, a);
}

#ifdef PTORT_X86
__attribute__((target("avx2"))) static int run_avx2(enum kid k, const struct kargs *a)
{
	return run_kernel(k, a);
}

/* F16C kernels (8 lanes, AVX2 for the integer fix-ups). */
__attribute__((target("avx2,f16c"))) static void f16c_f32_f16(const uint32_t *s, uint16_t *d,
							      size_t n, int rm, int sat)
{
	const __m256i absm = _mm256_set1_epi32(0x7FFFFFFF), infb = _mm256_set1_epi32(0x7F800000);
	const __m256i maxb = _mm256_set1_epi32(0x477FE000), one = _mm256_set1_epi32(1);
	const __m128i nanv = _mm_set1_epi16(sat ? 0 : 0x7E00);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
		__m256i abs = _mm256_and_si256(u, absm);
		__m256i nan = _mm256_cmpgt_epi32(abs, infb);
		__m128i r, nan16;
		if (sat) { /* clamp to +-65504 first: every mode then gives +-max */
			__m256i big = _mm256_cmpgt_epi32(abs, maxb);
			__m256i cl = _mm256_or_si256(_mm256_andnot_si256(absm, u), maxb);
			u = _mm256_blendv_epi8(u, cl, big);
			abs = _mm256_and_si256(u, absm);
		}
		switch (rm) {
		case PTORT_ROUND: /* ties away = RINT of x with a sticky bit set (finite x) */
			u = _mm256_or_si256(u, _mm256_andnot_si256(_mm256_cmpgt_epi32(abs,
						_mm256_set1_epi32(0x7F7FFFFF)), one));
			r = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_NEAREST_INT);
			break;
		case PTORT_FLOOR:
			r = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_NEG_INF);
			break;
		case PTORT_CEIL:
			r = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_POS_INF);
			break;
		case PTORT_TRUNC:
			r = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_ZERO);
			break;
		case PTORT_ODD: { /* truncate, then force the LSB when inexact */
			__m256i back, inex;
			r = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_ZERO);
			back = _mm256_castps_si256(_mm256_cvtph_ps(r));
			inex = _mm256_andnot_si256(_mm256_cmpeq_epi32(back, u), one);
			r = _mm_or_si128(r, _mm_packus_epi32(_mm256_castsi256_si128(inex),
							     _mm256_extracti128_si256(inex, 1)));
			break;
		}
		default:
			r = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_NEAREST_INT);
			break;
		}
		nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nan), _mm256_extracti128_si256(nan, 1));
		r = _mm_blendv_epi8(r, nanv, nan16);
		_mm_storeu_si128((__m128i *)(void *)(d + i), r);
	}
	for (; i < n; i++)
		d[i] = f32_f16_one(s[i], rm, sat);
}

__attribute__((target("avx2,f16c"))) static void f16c_f16_f32(const uint16_t *s, uint32_t *d,
							      size_t n)
{
	const __m256i absm = _mm256_set1_epi32(0x7FFFFFFF), infb = _mm256_set1_epi32(0x7F800000);
	const __m256i qnan = _mm256_set1_epi32(0x7FC00000);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m256i f = _mm256_castps_si256(_mm256_cvtph_ps(h));
		__m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(f, absm), infb);
		_mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_blendv_epi8(f, qnan, nan));
	}
	for (; i < n; i++)
		d[i] = f16_f32_one(s[i]);
}

/* f32 -> integers of <= 32 bits, 8 lanes: round to an integral float with the mode
 * (ties away from zero from trunc and the exact remainder), then convert the integral
 * value, saturate by clamping or wrap modulo 2^32 (the exact low bits of large values
 * from the significand), and narrow. Same results as f32_int_one, which does the tail
 * and the ODD mode. Needs MXCSR without DAZ (checked by the caller). */
#define AVX2_F32_INT(NAME, RM)                                                                  \
	__attribute__((target("avx2"))) static void NAME(const uint32_t *s, void *d, size_t n,  \
							 int sat, int dbits, int dsigned)       \
	{                                                                                       \
		const __m256 signm = _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u)); \
		const __m256 two31 = _mm256_set1_ps(2147483648.0f);                             \
		const __m256 two32 = _mm256_set1_ps(4294967296.0f);                             \
		const __m256i m23 = _mm256_set1_epi32(0x7FFFFF), imp = _mm256_set1_epi32(0x800000); \
		const __m256i e255 = _mm256_set1_epi32(255), e157 = _mm256_set1_epi32(157);     \
		const __m256i e150 = _mm256_set1_epi32(150), hib = _mm256_set1_epi32((int)0x80000000u); \
		uint32_t mask = dbits == 32 ? 0xFFFFFFFFu : (1u << dbits) - 1;                  \
		uint32_t hi = dsigned ? mask >> 1 : mask, lom = dsigned ? (mask >> 1) + 1 : 0;  \
		uint32_t lo = (0u - lom) & mask;                                                \
		const __m256 fhi = _mm256_set1_ps((float)hi), flo = _mm256_set1_ps(-(float)lom); \
		const __m256i vmask = _mm256_set1_epi32((int)mask), vhi = _mm256_set1_epi32((int)hi); \
		const __m256i vlo = _mm256_set1_epi32((int)lo);                                 \
		size_t i = 0;                                                                   \
		for (; i + 8 <= n; i += 8) {                                                    \
			__m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(s + i)); \
			__m256 x = _mm256_castsi256_ps(u), r;                                   \
			__m256i rb, e, neg, out, nan, inf;                                      \
			if (RM == PTORT_ROUND) {                                                \
				__m256 t = _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); \
				__m256 ad = _mm256_andnot_ps(signm, _mm256_sub_ps(x, t));       \
				__m256 ge = _mm256_cmp_ps(ad, _mm256_set1_ps(0.5f), _CMP_GE_OQ); \
				__m256 one = _mm256_or_ps(_mm256_and_ps(x, signm), _mm256_set1_ps(1.0f)); \
				r = _mm256_add_ps(t, _mm256_and_ps(ge, one));                   \
			} else {                                                                \
				r = _mm256_round_ps(x, (RM == PTORT_FLOOR ? _MM_FROUND_TO_NEG_INF  \
							: RM == PTORT_CEIL ? _MM_FROUND_TO_POS_INF \
							: RM == PTORT_TRUNC ? _MM_FROUND_TO_ZERO   \
							: _MM_FROUND_TO_NEAREST_INT) |             \
							   _MM_FROUND_NO_EXC);                     \
			}                                                                       \
			rb = _mm256_castps_si256(r);                                            \
			e = _mm256_and_si256(_mm256_srli_epi32(rb, 23), e255);                  \
			neg = _mm256_srai_epi32(rb, 31);                                        \
			if (sat) {                                                              \
				if (dbits < 32) {                                               \
					__m256 c = _mm256_min_ps(_mm256_max_ps(r, flo), fhi);   \
					out = _mm256_and_si256(_mm256_cvttps_epi32(c), vmask);  \
				} else if (dsigned) {                                           \
					__m256 ge = _mm256_cmp_ps(r, two31, _CMP_GE_OQ);        \
					out = _mm256_blendv_epi8(_mm256_cvttps_epi32(r), vhi,  \
								 _mm256_castps_si256(ge));      \
				} else {                                                        \
					__m256 c = _mm256_max_ps(r, _mm256_setzero_ps());       \
					__m256 ge = _mm256_cmp_ps(c, two31, _CMP_GE_OQ);        \
					__m256 big = _mm256_cmp_ps(c, two32, _CMP_GE_OQ);       \
					__m256i v = _mm256_cvttps_epi32(                        \
						_mm256_sub_ps(c, _mm256_and_ps(ge, two31)));    \
					v = _mm256_xor_si256(v, _mm256_and_si256(               \
						_mm256_castps_si256(ge), hib));                 \
					out = _mm256_blendv_epi8(v, vhi, _mm256_castps_si256(big)); \
				}                                                               \
			} else {                                                                \
				__m256i big = _mm256_cmpgt_epi32(e, e157);                      \
				__m256i sig = _mm256_or_si256(_mm256_and_si256(rb, m23), imp);  \
				__m256i low = _mm256_sllv_epi32(sig, _mm256_sub_epi32(e, e150)); \
				low = _mm256_sub_epi32(_mm256_xor_si256(low, neg), neg);        \
				out = _mm256_blendv_epi8(_mm256_cvttps_epi32(r), low, big);     \
				out = _mm256_and_si256(out, vmask);                             \
				inf = _mm256_and_si256(_mm256_cmpeq_epi32(e, e255),             \
					_mm256_cmpeq_epi32(_mm256_and_si256(rb, m23),           \
							   _mm256_setzero_si256()));            \
				out = _mm256_blendv_epi8(out, _mm256_blendv_epi8(vhi, vlo, neg), inf); \
			}                                                                       \
			nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));           \
			out = _mm256_andnot_si256(nan, out);                                    \
			if (dbits == 32) {                                                      \
				_mm256_storeu_si256((__m256i *)(void *)((uint32_t *)d + i), out); \
			} else {                                                                \
				__m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(out, out), 0x08); \
				__m128i h = _mm256_castsi256_si128(p);                          \
				if (dbits == 16)                                                \
					_mm_storeu_si128((__m128i *)(void *)((uint16_t *)d + i), h); \
				else                                                            \
					_mm_storel_epi64((__m128i *)(void *)((uint8_t *)d + i), \
							 _mm_packus_epi16(h, h));               \
			}                                                                       \
		}                                                                               \
		for (; i < n; i++) {                                                            \
			uint32_t v = f32_int_one(s[i], RM, sat, hi, lom, mask);                 \
			if (dbits == 32)                                                        \
				((uint32_t *)d)[i] = v;                                         \
			else if (dbits == 16)                                                   \
				((uint16_t *)d)[i] = (uint16_t)v;                               \
			else                                                                    \
				((uint8_t *)d)[i] = (uint8_t)v;                                 \
		}                                                                               \
	}
AVX2_F32_INT(avx2_f32_int_rint, PTORT_RINT)
AVX2_F32_INT(avx2_f32_int_round, PTORT_ROUND)
AVX2_F32_INT(avx2_f32_int_floor, PTORT_FLOOR)
AVX2_F32_INT(avx2_f32_int_ceil, PTORT_CEIL)
AVX2_F32_INT(avx2_f32_int_trunc, PTORT_TRUNC)

/* i32 -> f32 under the modes the hardware has (RINT FLOOR CEIL TRUNC): cvtdq2ps rounds
 * by MXCSR.RC, which is set for the loop and restored (this thread only). */
__attribute__((target("avx2"))) static int avx2_i32_f32(const struct kargs *a)
{
	static const unsigned rc[] = {0u << 13, 0, 1u << 13, 2u << 13, 3u << 13};
	const int32_t *s = a->s;
	float *d = a->d;
	unsigned csr;
	size_t i = 0;
	if (a->rm != PTORT_RINT && a->rm != PTORT_FLOOR && a->rm != PTORT_CEIL &&
	    a->rm != PTORT_TRUNC)
		return 0;
	csr = _mm_getcsr();
	_mm_setcsr((csr & ~(3u << 13)) | rc[a->rm]);
	for (; i + 8 <= a->n; i += 8) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
		_mm256_storeu_ps(d + i, _mm256_cvtepi32_ps(v));
	}
	_mm_setcsr(csr);
	if (i < a->n) {
		struct kargs t = *a;
		t.s = s + i;
		t.d = d + i;
		t.n = a->n - i;
		run_kernel(K_I32_F32, &t);
	}
	return 1;
}

/* Returns 1 when it converted (k an f32 -> integer kernel, a mode it has). */
static int avx2_f32_int(enum kid k, const struct kargs *a)
{
	static const signed char bits[] = {32, 32, 16, 16, 8, 8}, sgn[] = {1, 0, 1, 0, 1, 0};
	void (*fn)(const uint32_t *, void *, size_t, int, int, int);
	unsigned j;
	if (k < K_F32_I32 || k > K_F32_U8)
		return 0;
	j = (unsigned)(k - K_F32_I32);
	switch (a->rm) {
	case PTORT_RINT: fn = avx2_f32_int_rint; break;
	case PTORT_ROUND: fn = avx2_f32_int_round; break;
	case PTORT_FLOOR: fn = avx2_f32_int_floor; break;
	case PTORT_CEIL: fn = avx2_f32_int_ceil; break;
	case PTORT_TRUNC: fn = avx2_f32_int_trunc; break;
	default: return 0;
	}
	fn(a->s, a->d, a->n, a->sat, bits[j], sgn[j]);
	return 1;
}

static int cpu_level(void) /* 0 portable, 1 avx2, 2 avx2+f16c */
{
	static int level = -1; /* benign race: every thread computes the same value */
	if (level < 0) {
		unsigned f = ptort_cpu_features();
		int l = 0;
		if (f & PTORT_CPU_AVX2)
			l = (f & PTORT_CPU_F16C) ? 2 : 1;
		level = l;
	}
	return level;
}

static int mxcsr_default(void)
{
	return (_mm_getcsr() & 0x8040) == 0; /* FTZ and DAZ clear */
}
#endif

/* Level used by ptort_cvt_fast_run: -1 = best available (the default), else capped. */
static int forced_level = -1;

void ptort_cvt_fast_force_level(int level)
{
	forced_level = level;
}

static int dispatch(enum kid k, const struct kargs *a)
{
#ifdef PTORT_X86
	int lv = cpu_level();
	if (forced_level >= 0 && forced_level < lv)
		lv = forced_level;
	if (lv >= 2 && mxcsr_default()) {
		if (k == K_F32_F16) {
			f16c_f32_f16(a->s, a->d, a->n, a->rm, a->sat);
			return 1;
		}
		if (k == K_F16_F32) {
			f16c_f16_f32(a->s, a->d, a->n);
			return 1;
		}
	}
	if (lv >= 1 && mxcsr_default() && avx2_f32_int(k, a))
		return 1;
	if (lv >= 1 && k == K_I32_F32 && avx2_i32_f32(a))
		return 1;
	if (lv >= 1)
		return run_avx2(k, a);
#endif
	return run_portable(k, a);
}

/* ---- pairs -> kernels, with exact first steps --------------------------- */

static int to_f32_kernel(ptort_type t, enum kid *k)
{
	switch (t) {
	case PTORT_F16: *k = K_F16_F32; return 1;
	case PTORT_BF16: *k = K_BF16_F32; return 1;
	case PTORT_I16: *k = K_I16_F32; return 1;
	case PTORT_U16: *k = K_U16_F32; return 1;
	case PTORT_I8: *k = K_I8_F32; return 1;
	case PTORT_U8: *k = K_U8_F32; return 1;
	default: return 0;
	}
}

static int from_f32_kernel(ptort_type t, enum kid *k)
{
	switch (t) {
	case PTORT_F16: *k = K_F32_F16; return 1;
	case PTORT_BF16: *k = K_F32_BF16; return 1;
	case PTORT_I32: *k = K_F32_I32; return 1;
	case PTORT_U32: *k = K_F32_U32; return 1;
	case PTORT_I16: *k = K_F32_I16; return 1;
	case PTORT_U16: *k = K_F32_U16; return 1;
	case PTORT_I8: *k = K_F32_I8; return 1;
	case PTORT_U8: *k = K_F32_U8; return 1;
	default: return 0;
	}
}

static int int_kind(ptort_type t, int *bits, int *sgn)
{
	switch (t) {
	case PTORT_I8: *bits = 8, *sgn = 1; return 1;
	case PTORT_I16: *bits = 16, *sgn = 1; return 1;
	case PTORT_I32: *bits = 32, *sgn = 1; return 1;
	case PTORT_I64: *bits = 64, *sgn = 1; return 1;
	case PTORT_U8: *bits = 8, *sgn = 0; return 1;
	case PTORT_U16: *bits = 16, *sgn = 0; return 1;
	case PTORT_U32: *bits = 32, *sgn = 0; return 1;
	default: return 0;
	}
}

#define BLOCK 1024

static int fast_run_aligned(ptort_type from, ptort_type to, const void *src, void *dst,
			    size_t n, ptort_rmode rm, int sat);

/* The kernels read and write through typed pointers, so a buffer that is not aligned
 * to its element size goes through aligned blocks (memcpy in and out). */
int ptort_cvt_fast_run(ptort_type from, ptort_type to, const void *src, void *dst, size_t n,
		       ptort_rmode rm, int sat)
{
	unsigned sbits = ptort_type_bits(from), dbits = ptort_type_bits(to);
	uint64_t sbuf[BLOCK], dbuf[BLOCK];
	size_t done;
	if (n == 0 || sbits < 8 || dbits < 8 ||
	    ((uintptr_t)src % (sbits / 8) == 0 && (uintptr_t)dst % (dbits / 8) == 0))
		return fast_run_aligned(from, to, src, dst, n, rm, sat);
	for (done = 0; done < n; done += BLOCK) {
		size_t m = n - done < BLOCK ? n - done : BLOCK;
		memcpy(sbuf, (const unsigned char *)src + done * (sbits / 8), m * (sbits / 8));
		if (!fast_run_aligned(from, to, sbuf, dbuf, m, rm, sat))
			return 0; /* decided by the pair alone: nothing was written yet */
		memcpy((unsigned char *)dst + done * (dbits / 8), dbuf, m * (dbits / 8));
	}
	return 1;
}

static int fast_run_aligned(ptort_type from, ptort_type to, const void *src, void *dst,
			    size_t n, ptort_rmode rm, int sat)
{
	struct kargs a;
	enum kid k1, k2;
	int sb, ss, db, ds;
	memset(&a, 0, sizeof a);
	a.s = src, a.d = dst, a.n = n;
	a.rm = rm == PTORT_NONE ? PTORT_RINT : (int)rm;
	a.sat = sat != 0;
	if (rm == PTORT_HYBRID)
		return 0;
	/* integer -> integer */
	if (int_kind(from, &sb, &ss) && int_kind(to, &db, &ds) && db <= 32) {
		const struct ptort_fmt *f = ptort_fmt_get(to);
		if (sb == 64 && !ss)
			return 0;
		a.sbits = sb, a.ssigned = ss, a.dbits = db;
		a.hi = f->is_signed ? (int64_t)((1ull << (db - 1)) - 1) : (int64_t)((1ull << db) - 1);
		a.lo = f->is_signed ? -(int64_t)(1ull << (db - 1)) : 0;
		a.neg0 = ss && !ds && db > sb;
		return dispatch(K_INTINT, &a);
	}
	if (from == PTORT_F32 && to == PTORT_F32)
		return 0;
	/* f32 source */
	if (from == PTORT_F32 && from_f32_kernel(to, &k2)) {
		if (ptort_cvt_is_exact(from, to) || to == PTORT_F32)
			a.sat = 0;
		return dispatch(k2, &a);
	}
	if (from == PTORT_I32 && to == PTORT_F32)
		return dispatch(K_I32_F32, &a);
	if (from == PTORT_U32 && to == PTORT_F32)
		return dispatch(K_U32_F32, &a);
	/* exact first step to f32, then (maybe) one rounding step */
	if (to_f32_kernel(from, &k1)) {
		uint32_t tmp[BLOCK];
		size_t done;
		int sat2;
		if (to == PTORT_F32)
			return dispatch(k1, &a);
		if (!from_f32_kernel(to, &k2))
			return 0;
		/* saturation has no effect on exact pairs (SEMANTICS.md §3.2) */
		sat2 = ptort_cvt_is_exact(from, to) ? 0 : a.sat;
		for (done = 0; done < n; done += BLOCK) {
			size_t m = n - done < BLOCK ? n - done : BLOCK;
			struct kargs b = a, c = a;
			unsigned sbytes = ptort_type_bits(from) / 8, dbytes = ptort_type_bits(to) / 8;
			b.s = (const unsigned char *)src + done * sbytes;
			b.d = tmp;
			b.n = m;
			dispatch(k1, &b);
			c.s = tmp;
			c.d = (unsigned char *)dst + done * dbytes;
			c.n = m;
			c.sat = sat2;
			dispatch(k2, &c);
		}
		return 1;
	}
	return 0;
}
