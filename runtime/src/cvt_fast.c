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
#include <stdlib.h>
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

/* Tables built on first use (from the generic path). lazy_ready returns 1 when the
 * table behind `state` (0 empty, 1 being built, 2 ready) can be read, building it with
 * fill(ctx) if this thread comes first; 0 while another thread builds it (the caller then
 * takes a path without the table). Compilers without the atomics get no tables. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
static int lazy_ready(int *state, void (*fill)(const void *), const void *ctx)
{
	int st = __atomic_load_n(state, __ATOMIC_ACQUIRE), empty = 0;
	if (st == 2)
		return 1;
	if (st != 0 || !__atomic_compare_exchange_n(state, &empty, 1, 0, __ATOMIC_ACQ_REL,
						    __ATOMIC_ACQUIRE))
		return 0;
	fill(ctx);
	__atomic_store_n(state, 2, __ATOMIC_RELEASE);
	return 1;
}

/* Adds n to *count; returns the new value */
static size_t count_add(size_t *count, size_t n)
{
	return __atomic_add_fetch(count, n, __ATOMIC_RELAXED);
}
#else
static int lazy_ready(int *state, void (*fill)(const void *), const void *ctx)
{
	(void)state, (void)fill, (void)ctx;
	return 0;
}

static size_t count_add(size_t *count, size_t n)
{
	(void)count;
	return n;
}
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
	/* overflow per docs/semantics.md §3 step 2 */
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

/* ---- f32 -> small IEEE-style floats (f8E4M3FN, f8E5M2, f4E2M1FN, f4E1M2) --- */

/* The code of one f32 in a small float with M fraction bits, bias B, largest finite
 * exponent EMAX and magnitude code MAXC. INFC is what an infinite result becomes: the
 * inf code (e5m2), the NaN code (e4m3fn: unsigned), MAXC (fp4); QNAN the NaN code (0
 * for fp4); SB the sign bit. The steps of f32_f16_one: clamp far overflow, round at the
 * normal or subnormal position, then overflow, inf, NaN (docs/semantics.md §3). */
INLINE uint32_t f32_small_one(uint32_t u, int rm, int sat, unsigned M, unsigned B, unsigned EMAX,
			      uint32_t MAXC, uint32_t INFC, uint32_t QNAN, unsigned SB)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31;
	uint32_t isnan = abs > 0x7F800000u, isinf = abs == 0x7F800000u;
	uint32_t top = (127u + EMAX + 1) << 23; /* 2^(EMAX+1) overflows in every mode */
	uint32_t a = abs > top ? top : abs;
	uint32_t e = a >> 23, sub = e < 128 - B;
	uint32_t sig = (a & 0x7FFFFFu) | (e ? 0x800000u : 0);
	uint32_t sh = sub ? (151 - B - M - e > 31 ? 31 : 151 - B - M - e) : 23 - M;
	uint32_t kept = sub ? sig >> sh : (a >> (23 - M)) - ((127u - B) << M);
	uint32_t disc = sig & ((1u << sh) - 1);
	uint32_t half = (disc >> (sh - 1)) & 1, sticky = (disc & ((1u << (sh - 1)) - 1)) != 0;
	uint32_t r = rm == PTORT_ODD ? kept | half | sticky
				     : kept + rinc(rm, half, sticky, kept & 1, neg);
	uint32_t ovf_pos = (rm == PTORT_TRUNC || rm == PTORT_ODD || rm == PTORT_FLOOR) ? MAXC : INFC;
	uint32_t ovf_neg = (rm == PTORT_TRUNC || rm == PTORT_ODD || rm == PTORT_CEIL) ? MAXC : INFC;
	uint32_t mag, out;
	if (sat)
		ovf_pos = ovf_neg = MAXC;
	mag = r > MAXC ? (neg ? ovf_neg : ovf_pos) : r;
	mag = isinf ? (sat ? MAXC : INFC) : mag;
	out = mag | (neg << SB);
	out = INFC == QNAN && mag == QNAN ? QNAN : out;
	out = isnan ? (sat ? 0u : QNAN) : out;
	return out;
}

#define F32_E4M3(u, rm, sat) f32_small_one(u, rm, sat, 3, 7, 8, 0x7E, 0x7F, 0x7F, 7)
#define F32_E5M2(u, rm, sat) f32_small_one(u, rm, sat, 2, 15, 15, 0x7B, 0x7C, 0x7E, 7)
#define F32_E2M1(u, rm, sat) f32_small_one(u, rm, sat, 1, 1, 2, 0x7, 0x7, 0, 3)
#define F32_E1M2(u, rm, sat) f32_small_one(u, rm, sat, 2, 1, 0, 0x7, 0x7, 0, 3)

INLINE void k_f32_e4m3(const uint32_t *s, uint8_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)F32_E4M3(s[i], rm, sat);
}

INLINE void k_f32_e5m2(const uint32_t *s, uint8_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)F32_E5M2(s[i], rm, sat);
}

/* 4-bit destinations: n byte pairs, element 2i in the low nibble of byte i */
INLINE void k_f32_e2m1(const uint32_t *s, uint8_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(F32_E2M1(s[2 * i], rm, sat) | F32_E2M1(s[2 * i + 1], rm, sat) << 4);
}

INLINE void k_f32_e1m2(const uint32_t *s, uint8_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(F32_E1M2(s[2 * i], rm, sat) | F32_E1M2(s[2 * i + 1], rm, sat) << 4);
}

/* ---- HiFloat8 (ROUND and HYBRID) ------------------------------------------- */

/* The 950 pseudocode (hif8_literal in cvt.c) without branches: sign, unbiased exponent
 * ev, fraction F of W bits, the HYBRID threshold thr of K bits (hy = 0: ROUND). The
 * caller handles NaN and inf; ev < -23 (zero, f32 subnormals) gives 0x00. Below 2^-15
 * the codes are powers of two (mb = 0 fraction bits), so the one rounding formula
 * covers them, and [2^-23, 2^-22) rounds to 0x01 or 0 on its own. */
INLINE uint32_t hif8_one(uint32_t neg, int32_t ev, uint32_t F, unsigned W, unsigned K,
			 uint32_t thr, int hy)
{
	int32_t a = ev < 0 ? -ev : ev, e2, a2;
	uint32_t mb = a <= 3 ? 3 : a <= 7 ? 2 : ev >= -15 ? 1 : 0;
	uint32_t M = F >> (W - mb), TA = (F >> (W - mb - 1)) & 1;
	uint32_t frac = (F >> (W - mb - K)) & ((1u << K) - 1);
	uint32_t up = hy && a > 3 ? frac >= thr : TA;
	uint32_t m2 = M + up, carry = m2 >> mb, es, c, ovf;
	uint32_t low = (1u << (K - 1)) | (F >> (W - (K - 1)));
	m2 &= (1u << mb) - 1;
	e2 = ev + (int32_t)carry;
	a2 = e2 < 0 ? -e2 : e2;
	es = e2 < 0;
	c = a2 <= 7 ? 0x40 | es << 4 | (uint32_t)(a2 - 4) << 2 | m2
		    : 0x60 | es << 4 | (uint32_t)(a2 - 8) << 1 | m2;
	c = a2 <= 3 ? 0x20 | es << 4 | (uint32_t)(a2 - 2) << 3 | m2 : c;
	c = a2 == 1 ? 0x10 | es << 3 | m2 : c;
	c = a2 == 0 ? 0x08 | m2 : c;
	c = e2 <= -16 ? (uint32_t)(e2 + 23) : c;
	ovf = e2 > 15 || (e2 == 15 && m2 != 0);
	c = ovf ? 0x6F : c;
	c = ev == -23 ? (uint32_t)(!hy || low >= thr) : c;
	c = (c | neg << 7) & (0u - (uint32_t)(c != 0));
	return ev < -23 ? 0 : c;
}

/* NaN, inf and saturation around hif8_one (sat: inf and overflow -> +-max 0x6E) */
INLINE uint32_t hif8_fix(uint32_t c, uint32_t abs, uint32_t neg, int sat)
{
	c = abs == 0x7F800000u ? (0x6Fu | neg << 7) : c;
	c = sat && (c & 0x7F) == 0x6F ? c - 1 : c;
	return abs > 0x7F800000u ? (sat ? 0u : 0x80u) : c;
}

INLINE uint32_t f32_hif8_one(uint32_t u, int hy, int sat)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31;
	uint32_t c = hif8_one(neg, (int32_t)(abs >> 23) - 127, abs & 0x7FFFFFu, 23, 14, u & 0x3FFF, hy);
	return hif8_fix(c, abs, neg, sat);
}

INLINE void k_f32_hif8(const uint32_t *s, uint8_t *d, size_t n, int hy, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)f32_hif8_one(s[i], hy, sat);
}

/* f16: the exact f32 value normalises subnormals; the threshold is the pseudocode's
 * for f16 (the fraction's last bit, then 1) */
INLINE void k_f16_hif8(const uint16_t *s, uint8_t *d, size_t n, int hy, int sat)
{
	size_t i;
	for (i = 0; i < n; i++) {
		uint32_t u = f16_f32_one(s[i]), abs = u & 0x7FFFFFFFu, neg = u >> 31;
		uint32_t F = (abs >> 13) & 0x3FF;
		uint32_t c = hif8_one(neg, (int32_t)(abs >> 23) - 127, F, 10, 2,
				      ((F & 1) << 1) | 1, hy);
		d[i] = (uint8_t)hif8_fix(c, abs, neg, sat);
	}
}

/* HiFloat8 under RINT, FLOOR, CEIL and TRUNC: plain rounding onto the HiF8 grid (the
 * spacing 2^(ev - mb) in a binade, 2^-22 below 2^-22), then the packing of hif8_one,
 * overflow per mode (docs/semantics.md §3 step 2) and NaN, inf and saturation. */
INLINE uint32_t hif8_pack(int32_t e2, uint32_t m2)
{
	int32_t a2 = e2 < 0 ? -e2 : e2;
	uint32_t es = e2 < 0, c;
	c = a2 <= 7 ? 0x40 | es << 4 | (uint32_t)(a2 - 4) << 2 | m2
		    : 0x60 | es << 4 | (uint32_t)(a2 - 8) << 1 | m2;
	c = a2 <= 3 ? 0x20 | es << 4 | (uint32_t)(a2 - 2) << 3 | m2 : c;
	c = a2 == 1 ? 0x10 | es << 3 | m2 : c;
	c = a2 == 0 ? 0x08 | m2 : c;
	return e2 <= -16 ? (uint32_t)(e2 + 23) : c;
}

INLINE uint32_t hif8_dir_one(uint32_t u, int rm, int sat)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31;
	int32_t ev = (int32_t)(abs >> 23) - 127, a = ev < 0 ? -ev : ev, e2;
	uint32_t mb = a <= 3 ? 3 : a <= 7 ? 2 : ev >= -15 ? 1 : 0;
	uint32_t tiny = ev < -22;
	uint32_t sig = (abs & 0x7FFFFFu) | (abs >= 0x800000u ? 0x800000u : 0);
	uint32_t sh = tiny ? (ev < -30 ? 31 : (uint32_t)(1 - ev)) : 23 - mb;
	uint32_t kept = sig >> sh, disc = sig & ((1u << sh) - 1);
	uint32_t half = (disc >> (sh - 1)) & 1, sticky = (disc & ((1u << (sh - 1)) - 1)) != 0;
	uint32_t r = kept + rinc(rm, half, sticky, kept & 1, neg);
	uint32_t carry = tiny ? 0 : r >> (mb + 1), m2 = r & ((1u << mb) - 1), c, ovf, opos, oneg;
	e2 = tiny ? -22 : ev + (int32_t)carry;
	ovf = e2 > 15 || (e2 == 15 && m2 != 0);
	opos = rm == PTORT_TRUNC || rm == PTORT_FLOOR ? 0x6E : 0x6F;
	oneg = rm == PTORT_TRUNC || rm == PTORT_CEIL ? 0x6E : 0x6F;
	c = ovf ? (sat ? 0x6E : neg ? oneg : opos) : hif8_pack(e2, m2);
	c = r == 0 ? 0 : c | neg << 7;
	c = abs == 0x7F800000u ? (sat ? 0x6E : 0x6F) | neg << 7 : c;
	return abs > 0x7F800000u ? (sat ? 0u : 0x80u) : c;
}

INLINE void k_f32_hif8d(const uint32_t *s, uint8_t *d, size_t n, int rm, int sat)
{
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)hif8_dir_one(s[i], rm, sat);
}

/* ---- f32 -> f32: round to an integral value -------------------------------- */

/* |x| >= 2^23, inf and NaN (canonical) are kept; below, the integer nearest in the mode
 * (at most 2^23, so exact back in f32) with the sign of x (-0.25 -> -0). */
INLINE uint32_t f32_integral_one(uint32_t u, int rm)
{
	uint32_t abs = u & 0x7FFFFFFFu, neg = u >> 31, e = abs >> 23;
	uint32_t sig = (abs & 0x7FFFFFu) | (e ? 0x800000u : 0);
	uint32_t sh = e >= 150 ? 1 : (150 - e > 31 ? 31 : 150 - e);
	uint32_t kept = sig >> sh, disc = sig & ((1u << sh) - 1);
	uint32_t half = (disc >> (sh - 1)) & 1, sticky = (disc & ((1u << (sh - 1)) - 1)) != 0;
	uint32_t r = kept + rinc(rm, half, sticky, kept & 1, neg), rb;
	float f = (float)(int32_t)r; /* r <= 2^23: exact */
	memcpy(&rb, &f, 4);
	rb |= neg << 31;
	rb = e >= 150 ? u : rb;
	return abs > 0x7F800000u ? 0x7FC00000u : rb;
}

INLINE void k_f32_f32(const uint32_t *s, uint32_t *d, size_t n, int rm, int sat)
{
	size_t i;
	(void)sat;
	for (i = 0; i < n; i++)
		d[i] = f32_integral_one(s[i], rm);
}

/* ---- bf16 -> f8E8M0FNU: the exponent field (mode-independent, §3) --------- */

INLINE void k_bf16_e8m0(const uint16_t *s, uint8_t *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		uint32_t e = (s[i] >> 7) & 0xFF, m = s[i] & 0x7F;
		d[i] = (uint8_t)(e == 0xFF ? (m ? 0xFF : 0xFE) : e);
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
K_F32_INT(k_f32_i4, uint8_t, 0x7u, 0x8u, 0xFu) /* one byte per element; the caller pairs them */

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
	if (rm == PTORT_ODD) /* an exact first step for a narrower destination */
		r = kept | half | sticky;
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

/* ---- sources read as f32 ------------------------------------------------- */

/* What a kernel reading f32 can read instead, converted on the fly: exactly (16-bit
 * types), or for 32-bit integers rounded to f32 to odd (ahead of one more rounding) or
 * to nearest even (ahead of the HiF8 pseudocode, which the semantics feed with f32), or
 * clamped to [-2^16, 2^16], which is exact in f32, for destinations whose finite
 * values lie below 2^16 (fp8, fp4, hif8): every value from 2^16 on overflows there
 * alike, in every mode, as it does rounded to f32 first. */
enum { ST_F32, ST_F16, ST_BF16, ST_I16, ST_U16, ST_I32, ST_U32, ST_I32N, ST_U32N, ST_I32C, ST_U32C };

INLINE uint32_t ld1(const void *s, size_t i, int st)
{
	const uint16_t *h = s;
	const uint32_t *w = s;
	float f;
	uint32_t b;
	switch (st) {
	case ST_F16: return f16_f32_one(h[i]);
	case ST_BF16: return (uint32_t)h[i] << 16;
	case ST_I16: f = (float)(int16_t)h[i]; break;
	case ST_U16: f = (float)(int32_t)h[i]; break;
	case ST_I32:
	case ST_I32N:
		b = w[i] >> 31;
		return u32mag_f32(sel(b, 0u - w[i], w[i]), b, st == ST_I32 ? PTORT_ODD : PTORT_RINT);
	case ST_U32:
	case ST_U32N: return u32mag_f32(w[i], 0, st == ST_U32 ? PTORT_ODD : PTORT_RINT);
	case ST_I32C:
		f = (float)((int32_t)w[i] < -65536 ? -65536 : (int32_t)w[i] > 65536 ? 65536 : (int32_t)w[i]);
		break;
	case ST_U32C: f = (float)(int32_t)(w[i] > 65536 ? 65536 : w[i]); break;
	default: return w[i];
	}
	memcpy(&b, &f, 4);
	return b;
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
		if (!sat) { /* modulo 2^N (negatives -> 0 with neg0): loops that vectorise */  \
			if (neg0)                                                               \
				for (i = 0; i < n; i++)                                         \
					d[i] = (int64_t)(SCAST)s[i] < 0 ? 0 : (DT)(SCAST)s[i];  \
			else                                                                    \
				for (i = 0; i < n; i++)                                         \
					d[i] = (DT)(SCAST)s[i];                                 \
			return;                                                                 \
		}                                                                               \
		for (i = 0; i < n; i++) {                                                       \
			int64_t v = (int64_t)(SCAST)s[i];                                       \
			int64_t c = v < lo ? lo : v > hi ? hi : v;                              \
			d[i] = (DT)(uint64_t)c;                                                 \
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
	K_F32_E4M3, K_F32_E5M2, K_F32_E2M1, K_F32_E1M2, K_F32_HIF8, K_F16_HIF8,
	K_F32_HIF8D, K_F32_F32, K_BF16_E8M0, K_F32_I4,
	K_INTINT
};

struct kargs {
	const void *s;
	void *d;
	size_t n;
	int rm, sat;
	int st; /* the source as an ST_ kind (fused kernels only; else ST_F32) */
	const uint8_t *tab; /* HiF8 kernels: the bf16 -> hif8 table for keys (hyb_table's
			     * in HYBRID), or NULL */
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
		case PTORT_ODD: fn(a->s, a->d, a->n, PTORT_ODD); break;                         \
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
	case K_F32_E4M3: RS(k_f32_e4m3);
	case K_F32_E5M2: RS(k_f32_e5m2);
	case K_F32_E2M1: RS(k_f32_e2m1);
	case K_F32_E1M2: RS(k_f32_e1m2);
	case K_F32_HIF8: /* ROUND or HYBRID (the caller checks) */
		if (a->rm == PTORT_HYBRID)
			RS_SAT(k_f32_hif8, 1);
		else
			RS_SAT(k_f32_hif8, 0);
		return 1;
	case K_F16_HIF8:
		if (a->rm == PTORT_HYBRID)
			RS_SAT(k_f16_hif8, 1);
		else
			RS_SAT(k_f16_hif8, 0);
		return 1;
	case K_F32_HIF8D: RS(k_f32_hif8d);
	case K_F32_F32: RS(k_f32_f32);
	case K_BF16_E8M0: k_bf16_e8m0(a->s, a->d, a->n); return 1;
	case K_F32_I4: RS(k_f32_i4);
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

/* F16C f32 -> f16, 8 lanes, the round mode and saturation compile-time constants.
 * ROUND is RINT of x with its lowest bit set (a tie becomes an above-half value; no
 * other result changes, as f16 keeps at most 11 of f32's 24 bits), except for inf.
 * ODD takes floor or ceil (whichever is toward zero) and sets the LSB when they differ. The fix-ups are done
 * on the 16-bit results: NaN -> the canonical (or 0 with sat), and with sat an inf
 * (overflow or inf input) -> max, as every mode gives +-max then. */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m128i
f16c_lanes(__m256i u, int rm, int sat)
{
	const __m128i abs16 = _mm_set1_epi16(0x7FFF), inf16 = _mm_set1_epi16(0x7C00);
	__m256 x;
	__m128i r, a16, nan;
	if (rm == PTORT_ROUND) {
		__m256i fin = _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7F800000),
						 _mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF)));
		u = _mm256_or_si256(u, _mm256_srli_epi32(fin, 31));
	}
	x = _mm256_castsi256_ps(u);
	switch (rm) {
	case PTORT_FLOOR: r = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEG_INF); break;
	case PTORT_CEIL: r = _mm256_cvtps_ph(x, _MM_FROUND_TO_POS_INF); break;
	case PTORT_ODD: r = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEG_INF); break;
	case PTORT_TRUNC: r = _mm256_cvtps_ph(x, _MM_FROUND_TO_ZERO); break;
	default: r = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT); break;
	}
	if (rm == PTORT_ODD) { /* inexact iff floor and ceil differ; trunc is one of them */
		__m128i c = _mm256_cvtps_ph(x, _MM_FROUND_TO_POS_INF);
		__m128i ex16 = _mm_cmpeq_epi16(r, c);
		r = _mm_blendv_epi8(r, c, _mm_srai_epi16(c, 15));
		r = _mm_or_si128(r, _mm_andnot_si128(ex16, _mm_set1_epi16(1)));
	}
	a16 = _mm_and_si128(r, abs16);
	nan = _mm_cmpgt_epi16(a16, inf16);
	if (sat) {
		r = _mm_add_epi16(r, _mm_cmpeq_epi16(a16, inf16));
		return _mm_andnot_si128(nan, r);
	}
	return _mm_or_si128(_mm_andnot_si128(nan, r), _mm_and_si128(nan, _mm_set1_epi16(0x7E00)));
}

__attribute__((target("avx2,f16c"), always_inline)) static inline void
f16c_f32_f16_body(const uint32_t *s, uint16_t *d, size_t n, int rm, int sat)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		__m256i u0 = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
		__m256i u1 = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 8));
		_mm_storeu_si128((__m128i *)(void *)(d + i), f16c_lanes(u0, rm, sat));
		_mm_storeu_si128((__m128i *)(void *)(d + i + 8), f16c_lanes(u1, rm, sat));
	}
	for (; i < n; i++)
		d[i] = f32_f16_one(s[i], rm, sat);
}

#define F16C_F32_F16(RM, NAME)                                                                  \
	__attribute__((target("avx2,f16c"))) static void NAME(const uint32_t *s, uint16_t *d,  \
							      size_t n, int sat)                \
	{                                                                                       \
		if (sat)                                                                        \
			f16c_f32_f16_body(s, d, n, RM, 1);                                      \
		else                                                                            \
			f16c_f32_f16_body(s, d, n, RM, 0);                                      \
	}
F16C_F32_F16(PTORT_RINT, f16c_f32_f16_rint)
F16C_F32_F16(PTORT_ROUND, f16c_f32_f16_round)
F16C_F32_F16(PTORT_FLOOR, f16c_f32_f16_floor)
F16C_F32_F16(PTORT_CEIL, f16c_f32_f16_ceil)
F16C_F32_F16(PTORT_TRUNC, f16c_f32_f16_trunc)
F16C_F32_F16(PTORT_ODD, f16c_f32_f16_odd)

static void f16c_f32_f16(const uint32_t *s, uint16_t *d, size_t n, int rm, int sat)
{
	switch (rm) {
	case PTORT_ROUND: f16c_f32_f16_round(s, d, n, sat); break;
	case PTORT_FLOOR: f16c_f32_f16_floor(s, d, n, sat); break;
	case PTORT_CEIL: f16c_f32_f16_ceil(s, d, n, sat); break;
	case PTORT_TRUNC: f16c_f32_f16_trunc(s, d, n, sat); break;
	case PTORT_ODD: f16c_f32_f16_odd(s, d, n, sat); break;
	default: f16c_f32_f16_rint(s, d, n, sat); break;
	}
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

/* 8 elements of an ST_ source from element i on, as f32 bit patterns (ld1's values).
 * Every other floating-point operation of the kernels that call this is exact or
 * rounds with an explicit mode, so the rounding mode set for i32 cannot change them. */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m256i
ld8(const void *s, size_t i, int st)
{
	const __m128i *h = (const __m128i *)(const void *)((const uint16_t *)s + i);
	const __m256i *w = (const __m256i *)(const void *)((const uint32_t *)s + i);
	__m256i x;
	switch (st) {
	case ST_F16: return _mm256_castps_si256(_mm256_cvtph_ps(_mm_loadu_si128(h)));
	case ST_BF16: return _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(h)), 16);
	case ST_I16: return _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm_loadu_si128(h))));
	case ST_U16: return _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(h))));
	case ST_I32: /* MXCSR.RC is toward zero (see with_rc): to odd is that, with the
		      * last bit set when the value was inexact */
		x = _mm256_loadu_si256(w);
		{
			__m256 f = _mm256_cvtepi32_ps(x);
			__m256i ex = _mm256_cmpeq_epi32(_mm256_cvttps_epi32(f), x);
			return _mm256_or_si256(_mm256_castps_si256(f),
					       _mm256_andnot_si256(ex, _mm256_set1_epi32(1)));
		}
	case ST_I32N: /* MXCSR.RC is to nearest even (see with_rc) */
		return _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_loadu_si256(w)));
	case ST_U32:
	case ST_U32N: /* as i32 (RC as there), values from 2^31 on halved with their last bit
		       * ORed into the next (a sticky bit: 24 of >= 32 bits are kept), then
		       * doubled back exactly */
		x = _mm256_loadu_si256(w);
		{
			__m256i big = _mm256_srai_epi32(x, 31), one = _mm256_set1_epi32(1);
			__m256i y = _mm256_blendv_epi8(x, _mm256_or_si256(_mm256_srli_epi32(x, 1),
									  _mm256_and_si256(x, one)), big);
			__m256 f = _mm256_cvtepi32_ps(y);
			__m256i fb = _mm256_castps_si256(f);
			if (st == ST_U32)
				fb = _mm256_or_si256(fb, _mm256_andnot_si256(
					_mm256_cmpeq_epi32(_mm256_cvttps_epi32(f), y), one));
			return _mm256_add_epi32(fb, _mm256_and_si256(big, _mm256_set1_epi32(1 << 23)));
		}
	case ST_I32C:
		x = _mm256_max_epi32(_mm256_min_epi32(_mm256_loadu_si256(w), _mm256_set1_epi32(65536)),
				     _mm256_set1_epi32(-65536));
		return _mm256_castps_si256(_mm256_cvtepi32_ps(x));
	case ST_U32C:
		x = _mm256_min_epu32(_mm256_loadu_si256(w), _mm256_set1_epi32(65536));
		return _mm256_castps_si256(_mm256_cvtepi32_ps(x));
	default: return _mm256_loadu_si256(w);
	}
}

/* f32 -> integers of <= 32 bits, 8 lanes: round to an integral float with the mode
 * (ties away from zero from trunc and the exact remainder), then convert the integral
 * value, saturate by clamping or wrap modulo 2^32 (the exact low bits of large values
 * from the significand), and narrow. Same results as f32_int_one, which does the tail
 * and the ODD mode. Needs MXCSR without DAZ (checked by the caller). */
#define AVX2_F32_INT(NAME, RM)                                                                  \
	__attribute__((target("avx2,f16c"), always_inline)) static inline void NAME##_b(        \
		const void *s, void *d, size_t n, int sat, int dbits, int dsigned, int st)      \
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
			__m256i u = ld8(s, i, st);                                              \
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
			uint32_t v = f32_int_one(ld1(s, i, st), RM, sat, hi, lom, mask);        \
			if (dbits == 32)                                                        \
				((uint32_t *)d)[i] = v;                                         \
			else if (dbits == 16)                                                   \
				((uint16_t *)d)[i] = (uint16_t)v;                               \
			else                                                                    \
				((uint8_t *)d)[i] = (uint8_t)v;                                 \
		}                                                                               \
	}                                                                                       \
	__attribute__((target("avx2,f16c"))) static void NAME(const void *s, void *d, size_t n, \
							      int sat, int dbits, int dsigned, int st) \
	{                                                                                       \
		/* (saturation a constant in each loop: the wrap is a third of the work) */  \
		switch (st * 2 + (sat != 0)) {                                                  \
		case ST_F32 * 2: NAME##_b(s, d, n, 0, dbits, dsigned, ST_F32); break;          \
		case ST_F32 * 2 + 1: NAME##_b(s, d, n, 1, dbits, dsigned, ST_F32); break;      \
		case ST_F16 * 2: NAME##_b(s, d, n, 0, dbits, dsigned, ST_F16); break;          \
		case ST_F16 * 2 + 1: NAME##_b(s, d, n, 1, dbits, dsigned, ST_F16); break;      \
		case ST_BF16 * 2: NAME##_b(s, d, n, 0, dbits, dsigned, ST_BF16); break;        \
		case ST_BF16 * 2 + 1: NAME##_b(s, d, n, 1, dbits, dsigned, ST_BF16); break;    \
		default: NAME##_b(s, d, n, sat, dbits, dsigned, st); break;                     \
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
	    a->rm != PTORT_TRUNC && a->rm != PTORT_ROUND)
		return 0;
	csr = _mm_getcsr();
	_mm_setcsr((csr & ~(3u << 13)) | rc[a->rm == PTORT_ROUND ? PTORT_RINT : a->rm]);
	if (a->rm == PTORT_ROUND) {
		/* RINT, then one ulp further from zero where that was a tie it broke toward
		 * zero: there x - n (exact, wrapping past 2^31 as n does) is half of n's ulp
		 * with n's sign, an f32 whose bits are n's sign and exponent less 24 */
		const __m256i se = _mm256_set1_epi32((int)0xFF800000), d24 = _mm256_set1_epi32(24 << 23);
		for (; i + 8 <= a->n; i += 8) {
			__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
			__m256 n = _mm256_cvtepi32_ps(v);
			__m256i r = _mm256_sub_epi32(v, _mm256_cvtps_epi32(n)), nb = _mm256_castps_si256(n);
			__m256i tie = _mm256_cmpeq_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(r)),
							 _mm256_sub_epi32(_mm256_and_si256(nb, se), d24));
			_mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_sub_epi32(nb, tie));
		}
	}
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

/* f32 -> f8E4M3FN / f8E5M2 with F16C, 16 lanes at a time. First round to odd at f16
 * precision: f16 keeps at least two more bits than either format at every magnitude
 * (its subnormals included), so rounding that result once more with any mode gives
 * the correctly rounded value (round-to-odd double rounding). e4m3 is scaled by 2^-8
 * first (exact: magnitudes below 2^-100 are raised to 2^-100, which round alike) so
 * that its normal/subnormal boundary and bias coincide with f16's; e5m2 already has
 * f16's. Then the f16 magnitude is rounded at bit S (7 for e4m3, 8 for e5m2) in
 * 16-bit lanes, and overflow, inf and NaN follow f32_small_one. */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m128i f16c_odd(__m256 x)
{
	__m128i f = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEG_INF);
	__m128i c = _mm256_cvtps_ph(x, _MM_FROUND_TO_POS_INF);
	__m128i t = _mm_blendv_epi8(f, c, _mm_srai_epi16(c, 15));
	return _mm_or_si128(t, _mm_andnot_si128(_mm_cmpeq_epi16(f, c), _mm_set1_epi16(1)));
}

/* fmt: 0 e5m2 (no scaling), 1 e4m3 (2^-8), 2 and 3 e2m1 and e1m2 (2^-14) */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m128i
f16c_odd_scaled(__m256i u, int fmt)
{
	if (fmt) {
		__m256i abs = _mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF));
		__m256i a = _mm256_max_epi32(abs, _mm256_set1_epi32(0x0D800000)); /* 2^-100 */
		a = _mm256_andnot_si256(_mm256_cmpeq_epi32(abs, _mm256_setzero_si256()), a);
		a = _mm256_or_si256(a, _mm256_andnot_si256(_mm256_set1_epi32(0x7FFFFFFF), u));
		return f16c_odd(_mm256_mul_ps(_mm256_castsi256_ps(a),
					      _mm256_set1_ps(fmt == 1 ? 0x1p-8f : 0x1p-14f)));
	}
	return f16c_odd(_mm256_castsi256_ps(u));
}

__attribute__((target("avx2"), always_inline)) static inline __m256i
avx2_f16_round8(__m256i h, int rm, int sat, unsigned S, uint16_t MAXC, uint16_t INFC,
		uint16_t QNAN, unsigned SB)
{
	const __m256i one = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
	const __m256i inf16 = _mm256_set1_epi16(0x7C00);
	__m256i m = _mm256_and_si256(h, _mm256_set1_epi16(0x7FFF));
	__m256i neg = _mm256_srli_epi16(h, 15), negm = _mm256_srai_epi16(h, 15);
	__m256i kept = _mm256_srli_epi16(m, (int)S);
	__m256i half = _mm256_and_si256(_mm256_srli_epi16(m, (int)S - 1), one);
	__m256i low = _mm256_and_si256(m, _mm256_set1_epi16((short)((1u << (S - 1)) - 1)));
	__m256i sticky = _mm256_andnot_si256(_mm256_cmpeq_epi16(low, zero), one);
	__m256i inexact = _mm256_or_si256(half, sticky), r, mag, out;
	uint16_t opos = (rm == PTORT_TRUNC || rm == PTORT_ODD || rm == PTORT_FLOOR) ? MAXC : INFC;
	uint16_t oneg = (rm == PTORT_TRUNC || rm == PTORT_ODD || rm == PTORT_CEIL) ? MAXC : INFC;
	switch (rm) {
	case PTORT_ROUND: r = _mm256_add_epi16(kept, half); break;
	case PTORT_FLOOR: r = _mm256_add_epi16(kept, _mm256_and_si256(neg, inexact)); break;
	case PTORT_CEIL: r = _mm256_add_epi16(kept, _mm256_andnot_si256(negm, inexact)); break;
	case PTORT_TRUNC: r = kept; break;
	case PTORT_ODD: r = _mm256_or_si256(kept, inexact); break;
	default:
		r = _mm256_add_epi16(kept, _mm256_and_si256(half, _mm256_or_si256(sticky,
					_mm256_and_si256(kept, one))));
		break;
	}
	if (sat)
		opos = oneg = MAXC;
	mag = _mm256_blendv_epi8(r, _mm256_blendv_epi8(_mm256_set1_epi16((short)opos),
						       _mm256_set1_epi16((short)oneg), negm),
				 _mm256_cmpgt_epi16(r, _mm256_set1_epi16((short)MAXC)));
	mag = _mm256_blendv_epi8(mag, _mm256_set1_epi16((short)(sat ? MAXC : INFC)),
				 _mm256_cmpeq_epi16(m, inf16));
	out = _mm256_or_si256(mag, _mm256_slli_epi16(neg, (int)SB));
	if (INFC == QNAN)
		out = _mm256_blendv_epi8(out, _mm256_set1_epi16((short)QNAN),
					 _mm256_cmpeq_epi16(mag, _mm256_set1_epi16((short)QNAN)));
	return _mm256_blendv_epi8(out, _mm256_set1_epi16(sat ? 0 : (short)QNAN),
				  _mm256_cmpgt_epi16(m, inf16));
}

/* the rounding of f32_small_one's formats in f16 lanes (fp4: no inf, NaN -> 0) */
#define V_FMT(h, rm, sat, fmt)                                                                  \
	((fmt) == 0   ? avx2_f16_round8(h, rm, sat, 8, 0x7B, 0x7C, 0x7E, 7)                     \
	 : (fmt) == 1 ? avx2_f16_round8(h, rm, sat, 7, 0x7E, 0x7F, 0x7F, 7)                     \
	 : (fmt) == 2 ? avx2_f16_round8(h, rm, sat, 9, 0x7, 0x7, 0, 3)                          \
		      : avx2_f16_round8(h, rm, sat, 8, 0x7, 0x7, 0, 3))

/* Runs X(kind) with the source kind a compile-time constant for the common sources:
 * a switch inside the loops (one per load) would cost a third of the speed. */
#define ST_CASES(X)                                                                             \
	switch (st) {                                                                           \
	case ST_F32: X(ST_F32); break;                                                          \
	case ST_F16: X(ST_F16); break;                                                          \
	case ST_BF16: X(ST_BF16); break;                                                        \
	case ST_I16: X(ST_I16); break;                                                          \
	case ST_U16: X(ST_U16); break;                                                          \
	case ST_I32: X(ST_I32); break;                                                          \
	case ST_U32: X(ST_U32); break;                                                          \
	case ST_I32C: X(ST_I32C); break;                                                        \
	case ST_U32C: X(ST_U32C); break;                                                        \
	default: X(st); break;                                                                  \
	}

/* the vector part: whole rounds of 32 elements from 0 on; returns how many it did.
 * Two loops over blocks of PASS_BLOCK elements, the round to odd f16 into an L1 buffer
 * and then the rounding in 16-bit lanes: each loop's dependency chain is short, so
 * the out-of-order window holds several rounds of it (one fused loop runs ~40%
 * slower, bound by its chain's latency). */
#define PASS_BLOCK 512 /* elements per block of the kernels' passes over L1 */

/* For a 32-bit integer source, m elements from i on converted to f32 (ld8's values) into
 * fb first, which then is the source (from 0, as ST_F32): a third short loop instead
 * of a longer chain in the next. Other sources stay as they are. */
__attribute__((target("avx2,f16c"), always_inline)) static inline const void *
blk_src(const void *s, size_t *i, size_t m, int *st, uint32_t *fb)
{
	size_t j;
	if (*st != ST_I32 && *st != ST_U32 && *st != ST_I32N && *st != ST_U32N)
		return s;
	for (j = 0; j < m; j += 8)
		_mm256_storeu_si256((__m256i *)(void *)(fb + j), ld8(s, *i + j, *st));
	*i = 0;
	*st = ST_F32;
	return fb;
}
__attribute__((target("avx2,f16c"), always_inline)) static inline size_t
fp8_loop(const void *s, uint8_t *d, size_t ne, int st, int RM, int SAT, int FMT)
{
	uint16_t hb[PASS_BLOCK];
	uint32_t fb[PASS_BLOCK];
	size_t i = 0, j, m;
	for (; i + 32 <= ne; i += m) {
		size_t at = i;
		int st1 = st;
		const void *src;
		m = ne - i < PASS_BLOCK ? (ne - i) & ~(size_t)31 : PASS_BLOCK;
		src = blk_src(s, &at, m, &st1, fb);
		for (j = 0; j < m; j += 8)
			_mm_storeu_si128((__m128i *)(void *)(hb + j), f16c_odd_scaled(ld8(src, at + j, st1), FMT));
		for (j = 0; j < m; j += 32) {
			__m256i h0 = _mm256_loadu_si256((const __m256i *)(const void *)(hb + j));
			__m256i h1 = _mm256_loadu_si256((const __m256i *)(const void *)(hb + j + 16));
			__m256i b = _mm256_permute4x64_epi64(
				_mm256_packus_epi16(V_FMT(h0, RM, SAT, FMT), V_FMT(h1, RM, SAT, FMT)), 0xD8);
			if (FMT < 2) {
				_mm256_storeu_si256((__m256i *)(void *)(d + i + j), b);
				continue;
			}
			b = _mm256_and_si256(_mm256_or_si256(b, _mm256_srli_epi16(b, 4)), _mm256_set1_epi16(0xFF));
			b = _mm256_permute4x64_epi64(_mm256_packus_epi16(b, b), 0x08);
			_mm_storeu_si128((__m128i *)(void *)(d + (i + j) / 2), _mm256_castsi256_si128(b));
		}
	}
	return i;
}

/* 32 elements a round; fmt as f16c_odd_scaled. fp4 codes are then paired into bytes
 * (low nibble first) and n counts those bytes. */
#define FP8_LOOP(ST) i = fp8_loop(s, d, ne, ST, rm_, sat_, fmt_)
#define AVX2_F32_FP8(NAME, RM, SAT, FMT)                                                        \
	__attribute__((target("avx2,f16c"))) static void NAME(const void *s, uint8_t *d,       \
							      size_t n, int st)                 \
	{                                                                                       \
		const int rm_ = RM, sat_ = SAT, fmt_ = FMT;                                     \
		size_t ne = FMT >= 2 ? 2 * n : n, i = 0;                                        \
		ST_CASES(FP8_LOOP)                                                              \
		for (; i < ne; i += FMT >= 2 ? 2 : 1)                                           \
			switch (FMT) {                                                          \
			case 0: d[i] = (uint8_t)F32_E5M2(ld1(s, i, st), RM, SAT); break;        \
			case 1: d[i] = (uint8_t)F32_E4M3(ld1(s, i, st), RM, SAT); break;        \
			case 2:                                                                 \
				d[i / 2] = (uint8_t)(F32_E2M1(ld1(s, i, st), RM, SAT) |         \
						     F32_E2M1(ld1(s, i + 1, st), RM, SAT) << 4); \
				break;                                                          \
			default:                                                                \
				d[i / 2] = (uint8_t)(F32_E1M2(ld1(s, i, st), RM, SAT) |         \
						     F32_E1M2(ld1(s, i + 1, st), RM, SAT) << 4); \
				break;                                                          \
			}                                                                       \
	}

/* One function per (mode, saturation) so that each loop body is straight-line code. */
#define AVX2_FP8_ALL(P, FMT)                                                                   \
	AVX2_F32_FP8(P##_rint0, PTORT_RINT, 0, FMT)                                            \
	AVX2_F32_FP8(P##_rint1, PTORT_RINT, 1, FMT)                                            \
	AVX2_F32_FP8(P##_round0, PTORT_ROUND, 0, FMT)                                          \
	AVX2_F32_FP8(P##_round1, PTORT_ROUND, 1, FMT)                                          \
	AVX2_F32_FP8(P##_floor0, PTORT_FLOOR, 0, FMT)                                          \
	AVX2_F32_FP8(P##_floor1, PTORT_FLOOR, 1, FMT)                                          \
	AVX2_F32_FP8(P##_ceil0, PTORT_CEIL, 0, FMT)                                            \
	AVX2_F32_FP8(P##_ceil1, PTORT_CEIL, 1, FMT)                                            \
	AVX2_F32_FP8(P##_trunc0, PTORT_TRUNC, 0, FMT)                                          \
	AVX2_F32_FP8(P##_trunc1, PTORT_TRUNC, 1, FMT)                                          \
	AVX2_F32_FP8(P##_odd0, PTORT_ODD, 0, FMT)                                              \
	AVX2_F32_FP8(P##_odd1, PTORT_ODD, 1, FMT)                                              \
	static void (*const P##_fn[6][2])(const void *, uint8_t *, size_t, int) = {             \
		{P##_rint0, P##_rint1}, {P##_round0, P##_round1}, {P##_floor0, P##_floor1},     \
		{P##_ceil0, P##_ceil1}, {P##_trunc0, P##_trunc1}, {P##_odd0, P##_odd1}};
AVX2_FP8_ALL(f16c_e5m2, 0)
AVX2_FP8_ALL(f16c_e4m3, 1)
AVX2_FP8_ALL(f16c_e2m1, 2)
AVX2_FP8_ALL(f16c_e1m2, 3)

/* HiF8 (ROUND and HYBRID), 16 elements at a time. Rounding and packing work on the
 * high halves of the f32 magnitudes (exponent and 7 fraction bits: HiF8 keeps at most
 * 3 and ROUND, ties away, looks at one more) in 16-bit lanes. What depends on the
 * binade ev alone comes from byte tables indexed by i = ev + 23 (0 for everything
 * below 2^-22, 39 and 40 past max), looked up 16 entries at a time with pshufb:
 * mb = fraction bits (3 for |ev| <= 3, 2 to 7, 1 to 15, 0 below -15), the unit of the
 * last kept bit 1 << (7 - mb), 2^mb, the code's base (the code is base + the kept
 * fraction bits M) and, for HYBRID, where the K-bit fraction after the kept bits
 * starts in f32 (23 - mb - K; for [2^-23, 2^-22), which rounds against 2^-22 above the
 * implicit bit, 24 - K: with the implicit bit ORed in, those K bits are the
 * pseudocode's "1F"). HYBRID's decision (that fraction against the threshold) needs
 * all of f32's bits and is taken in 32-bit lanes. */
#define H8_EV(i) ((i) - 23)
#define H8_A(i) (H8_EV(i) < 0 ? -H8_EV(i) : H8_EV(i))
#define H8_MB(i) (3 - (H8_A(i) > 3) - (H8_A(i) > 7) - (H8_EV(i) < -15))
#define H8_ES(i) (H8_EV(i) < 0)
#define H8_BASE(i)                                                                              \
	((i) == 0 ? 0                                                                           \
	 : (i) >= 39 ? 0x6F                                  /* 2^16 and 2^17: inf */           \
	 : H8_EV(i) <= -16 ? (i)                             /* denormals 2^(i - 23) */         \
	 : H8_A(i) <= 1 ? 8 + 8 * H8_A(i) + 8 * H8_ES(i)                                        \
		       : 112 - 32 * H8_MB(i) + 16 * H8_ES(i) + (H8_A(i) << H8_MB(i)))
#define H8_POW(i) ((i) == 0 || (i) >= 39 ? 0 : 1 << H8_MB(i))
#define H8_UNIT(i) (1 << (7 - H8_MB(i)))
#define H8_SH14(i) ((i) == 0 ? 24 - 14 : 23 - H8_MB(i) - 14)
#define H8_SH2(i) ((i) == 0 ? 24 - 2 : 23 - H8_MB(i) - 2)
#define H8_Q(i) ((1 << (16 - H8_SH14(i))) >> 6) /* 2^(16 - sh14) / 64 */
#define H8_48(F)                                                                                \
	F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13), \
	F(14), F(15), F(16), F(17), F(18), F(19), F(20), F(21), F(22), F(23), F(24), F(25),     \
	F(26), F(27), F(28), F(29), F(30), F(31), F(32), F(33), F(34), F(35), F(36), F(37),     \
	F(38), F(39), F(40), F(41), F(42), F(43), F(44), F(45), F(46), F(47)
enum { H8T_BASE, H8T_POW, H8T_UNIT, H8T_SH14, H8T_SH2, H8T_Q };
static const unsigned char h8_tab[6][48] = {{H8_48(H8_BASE)}, {H8_48(H8_POW)},
					    {H8_48(H8_UNIT)}, {H8_48(H8_SH14)},
					    {H8_48(H8_SH2)},  {H8_48(H8_Q)}};

/* pshufb indices for i = e - 104 (e the biased exponent, 16-bit lanes), one per
 * 16-entry third of a table; out-of-range bytes and the lanes' high bytes get bit 7
 * (pshufb gives 0 there) */
struct h8i {
	__m256i i0, i1, i2;
};

__attribute__((target("avx2"), always_inline)) static inline struct h8i h8_index(__m256i e)
{
	const __m256i bias = _mm256_set1_epi16((short)0x8070), n16 = _mm256_set1_epi16(16);
	struct h8i x;
	__m256i i = _mm256_subs_epu16(e, _mm256_set1_epi16(104));
	x.i0 = _mm256_adds_epu8(i, bias);
	x.i1 = _mm256_adds_epu8(_mm256_sub_epi8(i, n16), bias);
	x.i2 = _mm256_adds_epu8(_mm256_sub_epi8(i, _mm256_add_epi8(n16, n16)), bias);
	return x;
}

__attribute__((target("avx2"), always_inline)) static inline __m256i
h8_look(const unsigned char *t, struct h8i x)
{
#define H8_THIRD(j) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(t + 16 * (j))))
	return _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(H8_THIRD(0), x.i0),
					       _mm256_shuffle_epi8(H8_THIRD(1), x.i1)),
			       _mm256_shuffle_epi8(H8_THIRD(2), x.i2));
#undef H8_THIRD
}

/* HYBRID for 8 f32 values u: -1 where the K bits from sh on are below thr */
__attribute__((target("avx2"), always_inline)) static inline __m256i
h8_down(__m256i u, __m256i sh, __m256i thr, unsigned K)
{
	__m256i fk = _mm256_and_si256(_mm256_srlv_epi32(_mm256_or_si256(u, _mm256_set1_epi32(0x800000)), sh),
				      _mm256_set1_epi32((1 << K) - 1));
	return _mm256_cmpgt_epi32(thr, fk);
}

/* f32 thresholds: the low 14 bits; f16 ones (K = 2): the 10-bit fraction's last bit
 * (f32 bit 13), then 1 */
__attribute__((target("avx2"), always_inline)) static inline __m256i h8_thr(__m256i u, int f16)
{
	if (f16)
		return _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(u, 12), _mm256_set1_epi32(2)),
				       _mm256_set1_epi32(1));
	return _mm256_and_si256(u, _mm256_set1_epi32(0x3FFF));
}

/* 16 keys hr -> 16 codes (16-bit lanes, in hr's order). A key is the high half of an
 * f32 with the low half's OR in its last bit: round to odd at bf16 precision, which
 * keeps NaN a NaN and gives every mode but HYBRID the same HiF8 result as the f32
 * (HiF8 keeps at most 3 fraction bits, two fewer than the key's 7). HYBRID needs the
 * f32 values u0, u1 themselves (hy: hr then carries no OR). ROUND
 * adds half a unit and cuts (a carry leaves the next power of two); HYBRID cuts and
 * adds a unit unless `down` (ROUND where mb = 3). [2^-23, 2^-22) gives 2^-22 (ROUND;
 * HYBRID unless down), below that 0. Magnitudes are capped at 2^16 (past max), so
 * nothing carries out of the exponent. h8_round gives the rounded magnitude with the
 * key's sign (inf and NaN keep theirs); h8_encode then gives code = base + (f7 * 2^mb
 * >> 7), with sat inf (0x6F) -> max, the sign on nonzero codes, and NaN. */
__attribute__((target("avx2"), always_inline)) static inline __m256i
h8_round(__m256i hr, __m256i u0, __m256i u1, int f16, int rm)
{
	const int hy = rm == PTORT_HYBRID, dir = rm != PTORT_ROUND && !hy;
	__m256i hm = _mm256_and_si256(hr, _mm256_set1_epi16(0x7FFF));
	__m256i h = _mm256_min_epu16(hm, _mm256_set1_epi16(0x4780));
	__m256i e = _mm256_srli_epi16(h, 7);
	struct h8i x = h8_index(e);
	__m256i unit = h8_look(h8_tab[H8T_UNIT], x), cut = _mm256_sub_epi16(_mm256_setzero_si256(), unit);
	__m256i y = _mm256_and_si256(_mm256_add_epi16(h, _mm256_srli_epi16(unit, 1)), cut);
	__m256i tiny = _mm256_and_si256(_mm256_cmpeq_epi16(e, _mm256_set1_epi16(104)),
					_mm256_set1_epi16(0x3480));
	__m256i negm = _mm256_srai_epi16(hr, 15);
	if (dir) {
		/* the key's last bit is the sticky bit (the rounding bit is above it) */
		const __m256i one = _mm256_set1_epi16(1), z = _mm256_setzero_si256();
		__m256i hj = h;
		__m256i um1 = _mm256_sub_epi16(unit, one), up;
		__m256i nz = _mm256_andnot_si256(_mm256_cmpeq_epi16(hj, z), one);
		switch (rm) {
		case PTORT_FLOOR:
			y = _mm256_add_epi16(hj, _mm256_and_si256(negm, um1));
			up = _mm256_and_si256(negm, nz);
			break;
		case PTORT_CEIL:
			y = _mm256_add_epi16(hj, _mm256_andnot_si256(negm, um1));
			up = _mm256_andnot_si256(negm, nz);
			break;
		case PTORT_TRUNC:
			y = hj;
			up = z;
			break;
		default: /* RINT: + half - 1 + the last kept bit (the implicit 1 when mb = 0) */
			y = _mm256_sub_epi16(_mm256_add_epi16(hj, _mm256_srli_epi16(um1, 1)),
					     _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_and_si256(hj, unit), unit),
							     _mm256_cmpeq_epi16(unit, _mm256_set1_epi16(128))));
			up = _mm256_andnot_si256(_mm256_cmpeq_epi16(_mm256_and_si256(hj, _mm256_set1_epi16(0x7F)), z),
						 one);
			up = _mm256_and_si256(up, _mm256_srli_epi16(_mm256_cmpeq_epi16(e, _mm256_set1_epi16(104)), 15));
			break;
		}
		y = _mm256_and_si256(y, cut);
		tiny = _mm256_and_si256(_mm256_sub_epi16(z, up), _mm256_set1_epi16(0x3480));
	}
	if (hy) {
		__m256i sh = h8_look(h8_tab[f16 ? H8T_SH2 : H8T_SH14], x), z = _mm256_setzero_si256();
		__m256i down = _mm256_packs_epi32(
			h8_down(u0, _mm256_unpacklo_epi16(sh, z), h8_thr(u0, f16), f16 ? 2 : 14),
			h8_down(u1, _mm256_unpackhi_epi16(sh, z), h8_thr(u1, f16), f16 ? 2 : 14));
		__m256i yh = _mm256_add_epi16(_mm256_and_si256(h, cut), _mm256_andnot_si256(down, unit));
		y = _mm256_blendv_epi8(yh, y, _mm256_cmpeq_epi16(unit, _mm256_set1_epi16(16)));
		tiny = _mm256_andnot_si256(down, tiny);
	}
	y = _mm256_blendv_epi8(y, tiny, _mm256_cmpgt_epi16(_mm256_set1_epi16(105), e));
	y = _mm256_blendv_epi8(y, hm, _mm256_cmpgt_epi16(hm, _mm256_set1_epi16(0x7F7F)));
	return _mm256_or_si256(y, _mm256_and_si256(hr, _mm256_set1_epi16((short)0x8000)));
}

/* Rounded magnitudes w (h8_round's) -> codes */
__attribute__((target("avx2"), always_inline)) static inline __m256i h8_encode(__m256i w, int rm, int sat)
{
	const int dir = rm != PTORT_ROUND && rm != PTORT_HYBRID;
	__m256i ym = _mm256_and_si256(w, _mm256_set1_epi16(0x7FFF));
	__m256i nan = _mm256_cmpgt_epi16(ym, _mm256_set1_epi16(0x7F80));
	__m256i y = _mm256_min_epu16(ym, _mm256_set1_epi16(0x4780));
	__m256i sgn = _mm256_and_si256(_mm256_srli_epi16(w, 8), _mm256_set1_epi16(0x80));
	__m256i c, negm = _mm256_srai_epi16(w, 15);
	struct h8i x = h8_index(_mm256_srli_epi16(y, 7));
	c = _mm256_add_epi16(h8_look(h8_tab[H8T_BASE], x),
			     _mm256_srli_epi16(_mm256_mullo_epi16(_mm256_and_si256(y, _mm256_set1_epi16(0x7F)),
								  h8_look(h8_tab[H8T_POW], x)), 7));
	if (sat) {
		c = _mm256_add_epi16(c, _mm256_cmpeq_epi16(c, _mm256_set1_epi16(0x6F)));
	} else if (dir && rm != PTORT_RINT) { /* overflow to max toward zero (not inf itself) */
		__m256i tomax = rm == PTORT_TRUNC ? _mm256_set1_epi16(-1)
			      : rm == PTORT_FLOOR ? _mm256_xor_si256(negm, _mm256_set1_epi16(-1))
						  : negm;
		__m256i isinf = _mm256_cmpeq_epi16(ym, _mm256_set1_epi16(0x7F80));
		tomax = _mm256_andnot_si256(isinf, tomax);
		c = _mm256_add_epi16(c, _mm256_and_si256(tomax, _mm256_cmpeq_epi16(c, _mm256_set1_epi16(0x6F))));
	}
	c = _mm256_or_si256(c, _mm256_sign_epi16(sgn, c));
	return _mm256_blendv_epi8(c, _mm256_set1_epi16(sat ? 0 : 0x80), nan);
}


/* 16 codes of 16-bit lanes in order -> 16 bytes */
__attribute__((target("avx2"), always_inline)) static inline __m128i h8_bytes(__m256i c)
{
	return _mm_packus_epi16(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1));
}

/* 16 f32 values -> their keys (see h8_round), in the order of packus (look16's pk) */
__attribute__((target("avx2"), always_inline)) static inline __m256i h8_keyp(__m256i u0, __m256i u1)
{
	const __m256i lowm = _mm256_set1_epi32(0xFFFF), z = _mm256_setzero_si256();
	__m256i lz = _mm256_packs_epi32(_mm256_cmpeq_epi32(_mm256_and_si256(u0, lowm), z),
					_mm256_cmpeq_epi32(_mm256_and_si256(u1, lowm), z));
	__m256i hr = _mm256_packus_epi32(_mm256_srli_epi32(u0, 16), _mm256_srli_epi32(u1, 16));
	return _mm256_or_si256(hr, _mm256_andnot_si256(lz, _mm256_set1_epi16(1)));
}

/* The same in order */
__attribute__((target("avx2"), always_inline)) static inline __m256i h8_key(__m256i u0, __m256i u1)
{
	return _mm256_permute4x64_epi64(h8_keyp(u0, u1), 0xD8);
}

/* HYBRID's rounded magnitudes (h8_round's) of 16 f32 values (or f16 ones, exact in
 * f32), in order */
__attribute__((target("avx2"), always_inline)) static inline __m256i
h8_hyround(__m256i u0, __m256i u1, int f16)
{
	__m256i hr = _mm256_packus_epi32(_mm256_srli_epi32(u0, 16), _mm256_srli_epi32(u1, 16));
	/* with NaN payloads in the low half only, the high half is inf's: mark them */
	__m256i m = _mm256_set1_epi32(0x7FFFFFFF), inf = _mm256_set1_epi32(0x7F800000);
	__m256i nan = _mm256_packs_epi32(_mm256_cmpgt_epi32(_mm256_and_si256(u0, m), inf),
					 _mm256_cmpgt_epi32(_mm256_and_si256(u1, m), inf));
	hr = _mm256_or_si256(hr, _mm256_and_si256(nan, _mm256_set1_epi16(1)));
	return _mm256_permute4x64_epi64(h8_round(hr, u0, u1, f16, PTORT_HYBRID), 0xD8);
}

/* HYBRID's table indices (see hyb_table) of 16 f32 values, in the order of packus
 * (look16's pk): the high half's sign, exponent and first 4 fraction bits, then 1 where
 * the value rounds down. The decision of h8_down in 16-bit lanes: with p = 2^(16 - sh)
 * (0 past 2^24, where nothing depends on it), the K = 14 bits from sh on are the high
 * half's fraction times p, ORed with the low half times p >> 16. Bit 7 of the high
 * half, the exponent's last, is flipped: the one place p = 2^6 matters is 2^-23, whose
 * exponent 104 is even, and there bit 7 is the implicit bit. (Where mb = 3, HYBRID is
 * ROUND: the table looks at the fourth fraction bit and not at the decision.) A NaN
 * whose first 4 fraction bits are 0 gets the fourth, so that it does not look like inf. */
__attribute__((target("avx2"), always_inline)) static inline __m256i h8_hyidx(__m256i u0, __m256i u1)
{
	const __m256i lowm = _mm256_set1_epi32(0xFFFF), m14 = _mm256_set1_epi16(0x3FFF);
	__m256i hr = _mm256_packus_epi32(_mm256_srli_epi32(u0, 16), _mm256_srli_epi32(u1, 16));
	__m256i lo = _mm256_packus_epi32(_mm256_and_si256(u0, lowm), _mm256_and_si256(u1, lowm));
	__m256i hm = _mm256_and_si256(hr, _mm256_set1_epi16(0x7FFF));
	__m256i p = _mm256_slli_epi16(h8_look(h8_tab[H8T_Q], h8_index(_mm256_srli_epi16(hm, 7))), 6);
	__m256i fk = _mm256_and_si256(_mm256_or_si256(_mm256_mullo_epi16(_mm256_xor_si256(hr, _mm256_set1_epi16(0x80)), p),
						      _mm256_mulhi_epu16(lo, p)),
				      m14);
	__m256i down = _mm256_cmpgt_epi16(_mm256_and_si256(lo, m14), fk);
	__m256i nan = _mm256_cmpgt_epi16(_mm256_or_si256(hm, _mm256_min_epu16(lo, _mm256_set1_epi16(1))),
					 _mm256_set1_epi16(0x7F80));
	__m256i x = _mm256_and_si256(_mm256_srli_epi16(hr, 2), _mm256_set1_epi16(0x3FFE));
	return _mm256_or_si256(_mm256_sub_epi16(x, down), _mm256_and_si256(nan, _mm256_set1_epi16(2)));
}

/* 16 results of a byte table t at the 16-bit indices x: scalar loads inserted into a
 * vector (a store per byte would be the bottleneck). With pk the indices are in the
 * order of packus over two vectors of 8 (0-3, 8-11, 4-7, 12-15). */
__attribute__((target("avx2"), always_inline)) static inline __m128i look16(const uint8_t *t,
									   const uint16_t *x, int pk)
{
	__m128i r = _mm_cvtsi32_si128(t[x[0]]);
#define LOOK_AT(j) r = _mm_insert_epi8(r, t[x[pk && ((j) >> 2 & 1) != ((j) >> 3 & 1) ? (j) ^ 12 : (j)]], j)
	LOOK_AT(1), LOOK_AT(2), LOOK_AT(3), LOOK_AT(4), LOOK_AT(5), LOOK_AT(6), LOOK_AT(7);
	LOOK_AT(8), LOOK_AT(9), LOOK_AT(10), LOOK_AT(11), LOOK_AT(12), LOOK_AT(13), LOOK_AT(14);
	LOOK_AT(15);
#undef LOOK_AT
	return r;
}

/* Blocks of keys into an L1 buffer, then their rounding, then the codes: three short
 * dependency chains run faster than one long one (see fp8_loop). bf16 sources are their
 * own keys; HYBRID, which needs the f32 values, rounds in the first pass. With tab the
 * codes are looked up instead: a key is a bf16 value with the f32's result (tab the
 * bf16 -> hif8 results in this mode), HYBRID's an h8_hyidx index (tab hyb_table's). */
__attribute__((target("avx2,f16c"), always_inline)) static inline size_t
h8_loop(const void *s, uint8_t *d, size_t n, int st, int rm, int sat, int f16, const uint8_t *tab)
{
	uint16_t kb[PASS_BLOCK];
	uint32_t fb[PASS_BLOCK];
	const uint16_t *k = kb;
	size_t i = 0, j, m;
	const __m256i z = _mm256_setzero_si256();
	for (; i + 16 <= n; i += m) {
		size_t at = i;
		int st1 = st;
		const void *src;
		m = n - i < PASS_BLOCK ? (n - i) & ~(size_t)15 : PASS_BLOCK;
		if (st == ST_BF16 && rm != PTORT_HYBRID) {
			k = (const uint16_t *)s + i;
		} else {
			/* (with tab, the key pass is short enough to convert 32-bit integers too) */
			src = tab ? s : blk_src(s, &at, m, &st1, fb);
#define H8_KEYS(F)                                                                              \
	for (j = 0; j < m; j += 16)                                                             \
		_mm256_storeu_si256((__m256i *)(void *)(kb + j), F)
#define H8_U0 ld8(src, at + j, st1)
#define H8_U1 ld8(src, at + j + 8, st1)
			/* (one loop each: gcc keeps the constants of an unconditional body in
			 * registers) */
			if (rm != PTORT_HYBRID && tab)
				H8_KEYS(h8_keyp(H8_U0, H8_U1));
			else if (rm != PTORT_HYBRID)
				H8_KEYS(h8_key(H8_U0, H8_U1));
			else if (tab)
				H8_KEYS(h8_hyidx(H8_U0, H8_U1));
			else
				H8_KEYS(h8_hyround(H8_U0, H8_U1, f16));
#undef H8_U0
#undef H8_U1
#undef H8_KEYS
		}
		if (tab) { /* (the keys computed here are in packus order) */
			for (j = 0; j < m; j += 16)
				_mm_storeu_si128((__m128i *)(void *)(d + i + j),
						 k == kb ? look16(tab, k + j, 1) : look16(tab, k + j, 0));
			continue;
		}
		if (rm != PTORT_HYBRID)
			for (j = 0; j < m; j += 16)
				_mm256_storeu_si256((__m256i *)(void *)(kb + j),
						    h8_round(_mm256_loadu_si256((const __m256i *)(const void *)(k + j)),
							     z, z, 0, rm));
		for (j = 0; j < m; j += 16)
			_mm_storeu_si128((__m128i *)(void *)(d + i + j),
					 h8_bytes(h8_encode(_mm256_loadu_si256((const __m256i *)(const void *)(kb + j)),
							    rm, sat)));
	}
	return i;
}

#define H8_LOOP(ST) i = h8_loop(s, d, n, ST, rm_, sat_, f16_, tab)

/* F16: the f16 HYBRID threshold (st is then ST_F16); RM: ROUND, HYBRID or (any source)
 * RINT, FLOOR, CEIL, TRUNC */
#define AVX2_HIF8(NAME, F16, RM, SAT)                                                           \
	__attribute__((target("avx2,f16c"))) static void NAME(const void *s, uint8_t *d,       \
							      size_t n, int st, const uint8_t *tab) \
	{                                                                                       \
		const int f16_ = F16, rm_ = RM, sat_ = SAT;                                     \
		size_t i = 0;                                                                   \
		ST_CASES(H8_LOOP)                                                               \
		if (F16)                                                                        \
			k_f16_hif8((const uint16_t *)s + i, d + i, n - i, RM == PTORT_HYBRID, SAT); \
		else if (RM == PTORT_ROUND || RM == PTORT_HYBRID)                               \
			for (; i < n; i++)                                                      \
				d[i] = (uint8_t)f32_hif8_one(ld1(s, i, st), RM == PTORT_HYBRID, SAT); \
		else                                                                            \
			for (; i < n; i++)                                                      \
				d[i] = (uint8_t)hif8_dir_one(ld1(s, i, st), RM, SAT);           \
	}
#define AVX2_HIF8_SAT(NAME, F16, RM) AVX2_HIF8(NAME##0, F16, RM, 0) AVX2_HIF8(NAME##1, F16, RM, 1)
AVX2_HIF8_SAT(avx2_hif8_r, 0, PTORT_ROUND)
AVX2_HIF8_SAT(avx2_hif8_h, 0, PTORT_HYBRID)
AVX2_HIF8_SAT(avx2_hif8_r16_, 1, PTORT_ROUND)
AVX2_HIF8_SAT(avx2_hif8_h16_, 1, PTORT_HYBRID)
AVX2_HIF8_SAT(avx2_hif8_rint, 0, PTORT_RINT)
AVX2_HIF8_SAT(avx2_hif8_floor, 0, PTORT_FLOOR)
AVX2_HIF8_SAT(avx2_hif8_ceil, 0, PTORT_CEIL)
AVX2_HIF8_SAT(avx2_hif8_trunc, 0, PTORT_TRUNC)

/* Returns 1 when it converted (an f32 -> fp8/fp4 or f32/f16 -> hif8 kernel; level 2). */
static int avx2_small(enum kid k, const struct kargs *a)
{
	typedef void (*h8fn)(const void *, uint8_t *, size_t, int, const uint8_t *);
	static const h8fn hif8[2][2][2] = {
		{{avx2_hif8_r0, avx2_hif8_r1}, {avx2_hif8_h0, avx2_hif8_h1}},
		{{avx2_hif8_r16_0, avx2_hif8_r16_1}, {avx2_hif8_h16_0, avx2_hif8_h16_1}}};
	static const h8fn dir[4][2] = {{avx2_hif8_rint0, avx2_hif8_rint1},
				       {avx2_hif8_floor0, avx2_hif8_floor1},
				       {avx2_hif8_ceil0, avx2_hif8_ceil1},
				       {avx2_hif8_trunc0, avx2_hif8_trunc1}};
	int m;
	switch (a->rm) {
	case PTORT_ROUND: m = 1; break;
	case PTORT_FLOOR: m = 2; break;
	case PTORT_CEIL: m = 3; break;
	case PTORT_TRUNC: m = 4; break;
	case PTORT_ODD: m = 5; break;
	default: m = 0; break;
	}
	switch (k) {
	case K_F32_E4M3: f16c_e4m3_fn[m][a->sat](a->s, a->d, a->n, a->st); return 1;
	case K_F32_E5M2: f16c_e5m2_fn[m][a->sat](a->s, a->d, a->n, a->st); return 1;
	case K_F32_E2M1: f16c_e2m1_fn[m][a->sat](a->s, a->d, a->n, a->st); return 1;
	case K_F32_E1M2: f16c_e1m2_fn[m][a->sat](a->s, a->d, a->n, a->st); return 1;
	case K_F32_HIF8:
	case K_F16_HIF8:
		hif8[k == K_F16_HIF8][a->rm == PTORT_HYBRID][a->sat](
			a->s, a->d, a->n, k == K_F16_HIF8 ? ST_F16 : a->st, k == K_F16_HIF8 ? NULL : a->tab);
		return 1;
	case K_F32_HIF8D:
		if (m < 1 || m > 4)
			dir[0][a->sat](a->s, a->d, a->n, a->st, a->tab);
		else
			dir[m == 1 ? 0 : m - 1][a->sat](a->s, a->d, a->n, a->st, a->tab);
		return 1;
	default: return 0;
	}
}

/* Returns 1 when it converted (k an f32 -> integer kernel, a mode it has). */
static int avx2_f32_int(enum kid k, const struct kargs *a)
{
	static const signed char bits[] = {32, 32, 16, 16, 8, 8}, sgn[] = {1, 0, 1, 0, 1, 0};
	void (*fn)(const void *, void *, size_t, int, int, int, int);
	int nb, sg;
	if (k == K_F32_I4)
		nb = 4, sg = 1;
	else if (k >= K_F32_I32 && k <= K_F32_U8)
		nb = bits[k - K_F32_I32], sg = sgn[k - K_F32_I32];
	else
		return 0;
	switch (a->rm) {
	case PTORT_RINT: fn = avx2_f32_int_rint; break;
	case PTORT_ROUND: fn = avx2_f32_int_round; break;
	case PTORT_FLOOR: fn = avx2_f32_int_floor; break;
	case PTORT_CEIL: fn = avx2_f32_int_ceil; break;
	case PTORT_TRUNC: fn = avx2_f32_int_trunc; break;
	default: return 0;
	}
	fn(a->s, a->d, a->n, a->sat, nb, sg, a->st);
	return 1;
}

/* f32 -> bf16 of 16 ST_ source elements (f32_bf16_one in 32-bit lanes, packed) */
__attribute__((target("avx2,f16c"), always_inline)) static inline __m256i
bf16_16(const void *s, size_t i, int st, int rm, int sat)
{
	const __m256i one = _mm256_set1_epi32(1), z = _mm256_setzero_si256();
	__m256i r[2];
	int j;
	for (j = 0; j < 2; j++) {
		__m256i u = ld8(s, i + 8 * j, st), inc;
		__m256i kept = _mm256_srli_epi32(u, 16), low = _mm256_and_si256(u, _mm256_set1_epi32(0xFFFF));
		__m256i half = _mm256_srli_epi32(low, 15), neg = _mm256_srli_epi32(u, 31);
		__m256i sticky = _mm256_andnot_si256(
			_mm256_cmpeq_epi32(_mm256_and_si256(low, _mm256_set1_epi32(0x7FFF)), z), one);
		__m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF)),
						 _mm256_set1_epi32(0x7F800000));
		switch (rm) {
		case PTORT_ROUND: inc = half; break;
		case PTORT_FLOOR: inc = _mm256_and_si256(neg, _mm256_or_si256(half, sticky)); break;
		case PTORT_CEIL: inc = _mm256_andnot_si256(neg, _mm256_or_si256(half, sticky)); break;
		case PTORT_TRUNC:
		case PTORT_ODD: inc = z; break;
		default: inc = _mm256_and_si256(half, _mm256_or_si256(sticky, _mm256_and_si256(kept, one))); break;
		}
		r[j] = _mm256_add_epi32(kept, inc);
		if (sat) /* +-inf -> +-max */
			r[j] = _mm256_add_epi32(r[j], _mm256_cmpeq_epi32(_mm256_and_si256(r[j], _mm256_set1_epi32(0x7FFF)),
									 _mm256_set1_epi32(0x7F80)));
		r[j] = _mm256_blendv_epi8(r[j], _mm256_set1_epi32(sat ? 0 : 0x7FC0), nan);
	}
	return _mm256_permute4x64_epi64(_mm256_packus_epi32(r[0], r[1]), 0xD8);
}

#define BF16_LOOP(ST)                                                                           \
	for (; i + 16 <= n; i += 16)                                                            \
		_mm256_storeu_si256((__m256i *)(void *)(d + i), bf16_16(s, i, ST, rm_, sat))
#define AVX2_F32_BF16(NAME, RM)                                                                 \
	__attribute__((target("avx2,f16c"))) static void NAME(const void *s, uint16_t *d,      \
							      size_t n, int sat, int st)        \
	{                                                                                       \
		const int rm_ = RM;                                                             \
		size_t i = 0;                                                                   \
		ST_CASES(BF16_LOOP)                                                             \
		for (; i < n; i++)                                                              \
			d[i] = f32_bf16_one(ld1(s, i, st), RM, sat);                            \
	}
AVX2_F32_BF16(avx2_bf16_rint, PTORT_RINT)
AVX2_F32_BF16(avx2_bf16_round, PTORT_ROUND)
AVX2_F32_BF16(avx2_bf16_floor, PTORT_FLOOR)
AVX2_F32_BF16(avx2_bf16_ceil, PTORT_CEIL)
AVX2_F32_BF16(avx2_bf16_trunc, PTORT_TRUNC)

/* f32 -> bf16 from any ST_ source, for fused (f32 sources keep the portable kernel) */
static int avx2_f32_bf16(enum kid k, const struct kargs *a)
{
	void (*fn)(const void *, uint16_t *, size_t, int, int);
	if (k != K_F32_BF16 || a->st == ST_F32)
		return 0;
	switch (a->rm) {
	case PTORT_RINT:
	case PTORT_NONE: fn = avx2_bf16_rint; break;
	case PTORT_ROUND: fn = avx2_bf16_round; break;
	case PTORT_FLOOR: fn = avx2_bf16_floor; break;
	case PTORT_CEIL: fn = avx2_bf16_ceil; break;
	case PTORT_TRUNC: fn = avx2_bf16_trunc; break;
	default: return 0;
	}
	fn(a->s, a->d, a->n, a->sat, a->st);
	return 1;
}

/* f32 -> f32 integral: roundps with the mode (ROUND: trunc, then one unit away from zero
 * where the remainder is at least a half); NaN -> the canonical one. */
__attribute__((target("avx2"))) static void avx2_f32_f32(const uint32_t *s, uint32_t *d, size_t n,
							 int rm)
{
	const __m256 signm = _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u));
	const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000));
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256 x = _mm256_loadu_ps((const float *)(const void *)(s + i)), r;
		switch (rm) {
		case PTORT_ROUND: {
			__m256 t = _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
			__m256 ad = _mm256_andnot_ps(signm, _mm256_sub_ps(x, t));
			__m256 ge = _mm256_cmp_ps(ad, _mm256_set1_ps(0.5f), _CMP_GE_OQ);
			__m256 one = _mm256_or_ps(_mm256_and_ps(x, signm), _mm256_set1_ps(1.0f));
			r = _mm256_blendv_ps(t, _mm256_add_ps(t, one), ge); /* -0.25 stays -0 */
			break;
		}
		case PTORT_FLOOR: r = _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); break;
		case PTORT_CEIL: r = _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); break;
		case PTORT_TRUNC: r = _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); break;
		default: r = _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); break;
		}
		r = _mm256_blendv_ps(r, qnan, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
		_mm256_storeu_ps((float *)(void *)(d + i), r);
	}
	for (; i < n; i++)
		d[i] = f32_integral_one(s[i], rm);
}

#define AVX2_F32_F32(RM)                                                                        \
	do {                                                                                    \
		avx2_f32_f32(a->s, a->d, a->n, RM);                                             \
		return 1;                                                                       \
	} while (0)

/* The MXCSR rounding control ld8 needs for st: toward zero for ST_I32 and ST_U32, to
 * nearest for ST_I32N and ST_U32N; returns the old MXCSR to restore, or -1 when st
 * needs none. */
static long with_rc(int st)
{
	unsigned csr = _mm_getcsr();
	if (st != ST_I32 && st != ST_I32N && st != ST_U32 && st != ST_U32N)
		return -1;
	_mm_setcsr((csr & ~(3u << 13)) | (st == ST_I32 || st == ST_U32 ? 3u << 13 : 0));
	return (long)csr;
}

static void restore_rc(long csr)
{
	if (csr >= 0)
		_mm_setcsr((unsigned)csr);
}

/* i32/u32 -> f32 to odd (a chain's first step) or to nearest even, 8 lanes */
__attribute__((target("avx2,f16c"))) static int avx2_int32_f32(enum kid k, const struct kargs *a)
{
	int st;
	long csr;
	uint32_t *d = a->d;
	size_t i = 0;
	if ((k != K_I32_F32 && k != K_U32_F32) || (a->rm != PTORT_ODD && a->rm != PTORT_RINT))
		return 0;
	st = k == K_I32_F32 ? (a->rm == PTORT_ODD ? ST_I32 : ST_I32N)
			    : (a->rm == PTORT_ODD ? ST_U32 : ST_U32N);
	csr = with_rc(st);
	for (; i + 8 <= a->n; i += 8)
		_mm256_storeu_si256((__m256i *)(void *)(d + i), ld8(a->s, i, st));
	restore_rc(csr);
	for (; i < a->n; i++)
		d[i] = ld1(a->s, i, st);
	return 1;
}

/* 4-bit codes (two per byte, low nibble first) -> 16- or 32-bit results of table t: each
 * result byte is a 16-entry lookup (pshufb) of the code. Whole rounds of 32 elements;
 * returns how many it converted. */
__attribute__((target("avx2"))) static size_t avx2_table4(const uint32_t *t, unsigned dbits,
							   const unsigned char *s, void *dst, size_t n)
{
	unsigned char bt[4][16];
	__m128i T[4];
	const __m128i lo4 = _mm_set1_epi8(0x0F);
	size_t i = 0;
	unsigned x, k, q;
	for (k = 0; k < 4; k++) {
		for (x = 0; x < 16; x++)
			bt[k][x] = (unsigned char)(t[x] >> (8 * k));
		T[k] = _mm_loadu_si128((const __m128i *)(const void *)bt[k]);
	}
	for (; i + 32 <= n; i += 32) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i / 2));
		__m128i lo = _mm_and_si128(v, lo4), hi = _mm_and_si128(_mm_srli_epi16(v, 4), lo4);
		__m128i e[2];
		e[0] = _mm_unpacklo_epi8(lo, hi); /* the codes of elements i .. i + 15 */
		e[1] = _mm_unpackhi_epi8(lo, hi);
		for (q = 0; q < 2; q++) {
			__m128i b0 = _mm_shuffle_epi8(T[0], e[q]), b1 = _mm_shuffle_epi8(T[1], e[q]);
			__m128i w0 = _mm_unpacklo_epi8(b0, b1), w1 = _mm_unpackhi_epi8(b0, b1);
			if (dbits == 16) {
				uint16_t *d = (uint16_t *)dst + i + 16 * q;
				_mm_storeu_si128((__m128i *)(void *)d, w0);
				_mm_storeu_si128((__m128i *)(void *)(d + 8), w1);
			} else {
				__m128i b2 = _mm_shuffle_epi8(T[2], e[q]), b3 = _mm_shuffle_epi8(T[3], e[q]);
				__m128i v0 = _mm_unpacklo_epi8(b2, b3), v1 = _mm_unpackhi_epi8(b2, b3);
				uint32_t *d = (uint32_t *)dst + i + 16 * q;
				_mm_storeu_si128((__m128i *)(void *)d, _mm_unpacklo_epi16(w0, v0));
				_mm_storeu_si128((__m128i *)(void *)(d + 4), _mm_unpackhi_epi16(w0, v0));
				_mm_storeu_si128((__m128i *)(void *)(d + 8), _mm_unpacklo_epi16(w1, v1));
				_mm_storeu_si128((__m128i *)(void *)(d + 12), _mm_unpackhi_epi16(w1, v1));
			}
		}
	}
	return i;
}

/* 8-bit codes -> 16- or 32-bit results of table t: scalar lookups inserted into vectors
 * (pinsr with the load folded in) and stored 16 bytes at a time; a scalar store per
 * element runs at a third of the speed. Whole rounds of 8 elements; returns how many
 * it converted. */
__attribute__((target("avx2"), always_inline)) static inline __m128i t8_w4(const uint32_t *t,
									  const unsigned char *s)
{
	__m128i a = _mm_cvtsi32_si128((int)t[s[0]]);
	a = _mm_insert_epi32(a, (int)t[s[1]], 1);
	a = _mm_insert_epi32(a, (int)t[s[2]], 2);
	return _mm_insert_epi32(a, (int)t[s[3]], 3);
}

__attribute__((target("avx2"))) static size_t avx2_table8(const uint32_t *t, unsigned dbits,
							   const unsigned char *s, void *dst, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		if (dbits == 32) {
			uint32_t *d = (uint32_t *)dst + i;
			_mm_storeu_si128((__m128i *)(void *)d, t8_w4(t, s + i));
			_mm_storeu_si128((__m128i *)(void *)(d + 4), t8_w4(t, s + i + 4));
		} else {
			const unsigned char *c = s + i;
			__m128i a = _mm_cvtsi32_si128((int)t[c[0]]);
			a = _mm_insert_epi16(a, (int)t[c[1]], 1);
			a = _mm_insert_epi16(a, (int)t[c[2]], 2);
			a = _mm_insert_epi16(a, (int)t[c[3]], 3);
			a = _mm_insert_epi16(a, (int)t[c[4]], 4);
			a = _mm_insert_epi16(a, (int)t[c[5]], 5);
			a = _mm_insert_epi16(a, (int)t[c[6]], 6);
			a = _mm_insert_epi16(a, (int)t[c[7]], 7);
			_mm_storeu_si128((__m128i *)(void *)((uint16_t *)dst + i), a);
		}
	}
	return i;
}

/* 16-bit codes -> 8-bit results of a 64 KiB table t; whole rounds of 16 elements,
 * returns how many it converted */
__attribute__((target("avx2"))) static size_t avx2_wide_run(const uint8_t *t, const uint16_t *s,
							     uint8_t *d, size_t n)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16)
		_mm_storeu_si128((__m128i *)(void *)(d + i), look16(t, s + i, 0));
	return i;
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

static void table_run(const uint32_t *t, unsigned sbits, unsigned dbits, const unsigned char *s,
		      void *dst, size_t n);

/* The ISA level the kernels use: the machine's, capped by ptort_cvt_fast_force_level */
#ifdef PTORT_X86
static int use_level(void)
{
	int lv = cpu_level();
	return forced_level >= 0 && forced_level < lv ? forced_level : lv;
}
#endif

/* table_run, with SIMD where the machine has it: pshufb lookups for 4-bit sources,
 * vector stores for 8-bit ones (whose 256-entry lookups as pshufb, 16 per result byte
 * and 32 elements, lose to scalar loads) */
static void table_run_fast(const uint32_t *t, unsigned sbits, unsigned dbits,
			   const unsigned char *s, void *dst, size_t n)
{
	size_t done = 0;
#ifdef PTORT_X86
	int lv = use_level();
	if (lv >= 1 && sbits == 4 && (dbits == 16 || dbits == 32))
		done = avx2_table4(t, dbits, s, dst, n);
	if (lv >= 1 && sbits == 8 && (dbits == 16 || dbits == 32))
		done = avx2_table8(t, dbits, s, dst, n);
#endif
	table_run(t, sbits, dbits, s + done / (8 / sbits), (unsigned char *)dst + done * (dbits / 8),
		  n - done);
}

void ptort_cvt_fast_force_level(int level)
{
	forced_level = level;
}

static int dispatch(enum kid k, const struct kargs *a)
{
#ifdef PTORT_X86
	int lv = use_level();
	if (lv >= 2 && mxcsr_default()) {
		if (k == K_F32_F16) {
			f16c_f32_f16(a->s, a->d, a->n, a->rm, a->sat);
			return 1;
		}
		if (k == K_F16_F32) {
			f16c_f16_f32(a->s, a->d, a->n);
			return 1;
		}
		if (avx2_small(k, a) || avx2_f32_int(k, a) || avx2_int32_f32(k, a))
			return 1;
	}
	if (lv >= 1 && k == K_I32_F32 && avx2_i32_f32(a))
		return 1;
	if (lv >= 1 && k == K_F32_F32 && mxcsr_default()) {
		switch (a->rm) { /* the mode a constant in each loop */
		case PTORT_ROUND: AVX2_F32_F32(PTORT_ROUND);
		case PTORT_FLOOR: AVX2_F32_F32(PTORT_FLOOR);
		case PTORT_CEIL: AVX2_F32_F32(PTORT_CEIL);
		case PTORT_TRUNC: AVX2_F32_F32(PTORT_TRUNC);
		default: AVX2_F32_F32(PTORT_RINT);
		}
	}
	if (lv >= 1)
		return run_avx2(k, a);
#endif
	return run_portable(k, a);
}

/* k reading its source as a->st (not f32) in one pass, where a kernel can; 0 when not
 * (the caller then chains through f32 blocks). */
static int fused(enum kid k, const struct kargs *a)
{
#ifdef PTORT_X86
	int lv = use_level();
	if (lv >= 2 && mxcsr_default() && k != K_F16_HIF8) {
		long csr = with_rc(a->st);
		int done = avx2_small(k, a) || avx2_f32_int(k, a) || avx2_f32_bf16(k, a);
		restore_rc(csr);
		return done;
	}
#endif
	(void)k, (void)a;
	return 0;
}

/* ---- pairs -> kernels, with exact first steps --------------------------- */

/* The first step of a chain through f32: exact for 8/16-bit sources; 32-bit integers
 * are rounded to odd, which keeps the correctly rounded result of any later rounding
 * to at most 22 significant bits (f32 has 24) in every mode. */
static int to_f32_kernel(ptort_type t, enum kid *k)
{
	switch (t) {
	case PTORT_F16: *k = K_F16_F32; return 1;
	case PTORT_BF16: *k = K_BF16_F32; return 1;
	case PTORT_I16: *k = K_I16_F32; return 1;
	case PTORT_U16: *k = K_U16_F32; return 1;
	case PTORT_I8: *k = K_I8_F32; return 1;
	case PTORT_U8: *k = K_U8_F32; return 1;
	case PTORT_I32: *k = K_I32_F32; return 1;
	case PTORT_U32: *k = K_U32_F32; return 1;
	default: return 0;
	}
}

/* The f32 -> t kernel for round mode rm (NONE already mapped to RINT). */
static int from_f32_kernel(ptort_type t, ptort_rmode rm, enum kid *k)
{
	switch (t) {
	case PTORT_F32: *k = K_F32_F32; return rm != PTORT_ODD && rm != PTORT_HYBRID;
	case PTORT_F16: *k = K_F32_F16; return 1;
	case PTORT_BF16: *k = K_F32_BF16; return 1;
	case PTORT_I32: *k = K_F32_I32; return 1;
	case PTORT_U32: *k = K_F32_U32; return 1;
	case PTORT_I16: *k = K_F32_I16; return 1;
	case PTORT_U16: *k = K_F32_U16; return 1;
	case PTORT_I8: *k = K_F32_I8; return 1;
	case PTORT_U8: *k = K_F32_U8; return 1;
	case PTORT_I4: *k = K_F32_I4; return 1;
	case PTORT_F8E4M3FN: *k = K_F32_E4M3; return 1;
	case PTORT_F8E5M2: *k = K_F32_E5M2; return 1;
	case PTORT_F4E2M1FN: *k = K_F32_E2M1; return 1;
	case PTORT_F4E1M2: *k = K_F32_E1M2; return 1;
	case PTORT_HIF8:
		*k = rm == PTORT_ROUND || rm == PTORT_HYBRID ? K_F32_HIF8 : K_F32_HIF8D;
		return rm != PTORT_ODD;
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

/* ---- conversions from 8- and 4-bit sources: lookup tables ----------------- */

/* A result depends on the source code alone (given the mode and saturation), so each
 * (source, destination, mode, saturation) gets a table of every code's result, built
 * on first use from the generic path; exact pairs share one table for all modes. */
static const ptort_type tab_src[] = {PTORT_F8E4M3FN, PTORT_F8E5M2, PTORT_HIF8, PTORT_F8E8M0FNU,
				     PTORT_F4E2M1FN, PTORT_F4E1M2, PTORT_I4};
#define NTAB (sizeof tab_src / sizeof tab_src[0])
static uint32_t *tabs[NTAB][PTORT_TYPE_COUNT][PTORT_RMODE_COUNT][2];
static int tab_state[NTAB][PTORT_TYPE_COUNT][PTORT_RMODE_COUNT][2];
struct tab_key {
	unsigned i;
	ptort_type from, to;
	ptort_rmode rm;
	int sat;
};

static void small_fill(const void *ctx)
{
	const struct tab_key *k = ctx;
	unsigned x, count = ptort_type_bits(k->from) == 4 ? 16 : 256;
	uint32_t *t = calloc(256, sizeof *t);
	if (!t)
		return; /* the slot stays NULL: the generic path */
	for (x = 0; x < count; x++)
		t[x] = (uint32_t)ptort_cvt1_generic(k->from, k->to, x, k->rm, k->sat);
	tabs[k->i][k->to][k->rm][k->sat] = t;
}

/* The table of a conversion from a listed source to a destination of 4 to 32 bits;
 * NULL when there is none (or it is being built). */
static const uint32_t *small_table(ptort_type from, ptort_type to, ptort_rmode rm, int sat)
{
	struct tab_key key;
	unsigned i, tb = ptort_type_bits(to);
	for (i = 0; i < NTAB && tab_src[i] != from; i++)
		;
	if (i == NTAB || tb > 32 || ptort_cvt_check(from, to, rm) != PTORT_CVT_OK)
		return NULL;
	if (ptort_cvt_is_exact(from, to) || rm == PTORT_NONE)
		rm = PTORT_RINT;
	if (ptort_cvt_is_exact(from, to))
		sat = 0;
	key.i = i, key.from = from, key.to = to, key.rm = rm, key.sat = sat != 0;
	if (!lazy_ready(&tab_state[i][to][rm][key.sat], small_fill, &key))
		return NULL;
	return tabs[i][to][rm][key.sat];
}

/* n elements of 8-bit codes (or 4-bit ones, two per byte, low nibble first) through
 * table t into dst elements of DT */
#define TABLE_RUN(DT)                                                                           \
	do {                                                                                    \
		DT *d = dst;                                                                    \
		if (sbits == 8) {                                                               \
			for (i = 0; i < n; i++)                                                 \
				d[i] = (DT)t[s[i]];                                             \
		} else {                                                                        \
			for (i = 0; i + 1 < n; i += 2) {                                        \
				d[i] = (DT)t[s[i / 2] & 15];                                    \
				d[i + 1] = (DT)t[s[i / 2] >> 4];                                \
			}                                                                       \
			if (n & 1)                                                              \
				d[n - 1] = (DT)t[s[n / 2] & 15];                                \
		}                                                                               \
	} while (0)

static void table_run(const uint32_t *t, unsigned sbits, unsigned dbits, const unsigned char *s,
		      void *dst, size_t n)
{
	size_t i;
	if (dbits == 4) { /* pairs of codes into bytes; an odd last one keeps its high nibble */
		unsigned char *d = dst;
		for (i = 0; i + 1 < n; i += 2) {
			unsigned x = sbits == 8 ? s[i] : s[i / 2] & 15, y = sbits == 8 ? s[i + 1] : s[i / 2] >> 4;
			d[i / 2] = (unsigned char)((t[x] & 15) | (t[y] & 15) << 4);
		}
		if (n & 1)
			d[n / 2] = (unsigned char)((d[n / 2] & 0xF0) |
						   (t[sbits == 8 ? s[n - 1] : s[n / 2] & 15] & 15));
	} else if (dbits == 8)
		TABLE_RUN(uint8_t);
	else if (dbits == 16)
		TABLE_RUN(uint16_t);
	else
		TABLE_RUN(uint32_t);
}

/* m codes of one byte each (low nibble) -> m nibbles from dst's element 0 on; an odd last
 * element keeps its byte's high nibble. */
static void pack_nibbles(const uint8_t *b, size_t m, unsigned char *d)
{
	size_t j;
	for (j = 0; j < m / 2; j++)
		d[j] = (unsigned char)((b[2 * j] & 15) | (b[2 * j + 1] << 4));
	if (m & 1)
		d[m / 2] = (unsigned char)((d[m / 2] & 0xF0) | (b[m - 1] & 15));
}

/* i4 results of run(k, a), which writes one per byte: a block at a time into a buffer,
 * then paired into d (a->s has sbytes per element; d starts at an even element).
 * Returns 0 when run does not convert, which it finds on the first block, before
 * anything is written. */
static int i4_blocks(int (*run)(enum kid, const struct kargs *), enum kid k, const struct kargs *a,
		     size_t sbytes, void *d)
{
	uint8_t b[1024];
	struct kargs c = *a;
	size_t done;
	for (done = 0; done < a->n; done += sizeof b) {
		c.s = (const unsigned char *)a->s + done * sbytes;
		c.d = b;
		c.n = a->n - done < sizeof b ? a->n - done : sizeof b;
		if (!run(k, &c))
			return 0;
		pack_nibbles(b, c.n, (unsigned char *)d + done / 2);
	}
	return 1;
}

/* The last (rounding) step from an f32 block: kernel k over m elements into dst from
 * element `at` on. A 4-bit destination (at even) takes element pairs; an odd last
 * element goes through the generic path, keeping its byte's high nibble. i4 results
 * come one per byte and are paired here. */
static void last_step(enum kid k, const struct kargs *a, const uint32_t *s, void *dst,
		      ptort_type to, size_t at, size_t m)
{
	struct kargs c = *a;
	c.s = s;
	c.n = m;
	if (ptort_type_bits(to) != 4) {
		c.d = (unsigned char *)dst + at * (ptort_type_bits(to) / 8);
		dispatch(k, &c);
		return;
	}
	if (k == K_F32_I4) {
		i4_blocks(dispatch, k, &c, 4, (unsigned char *)dst + at / 2);
		return;
	}
	c.d = (unsigned char *)dst + at / 2;
	c.n = m / 2;
	dispatch(k, &c);
	if (m & 1) {
		unsigned char *p = (unsigned char *)c.d + m / 2;
		uint64_t v = ptort_cvt1_generic(PTORT_F32, to, s[m - 1], (ptort_rmode)a->rm, a->sat);
		*p = (unsigned char)((*p & 0xF0) | (v & 0xF));
	}
}

#define BLOCK 1024

static int fast_run_aligned(ptort_type from, ptort_type to, const void *src, void *dst,
			    size_t n, ptort_rmode rm, int sat);
static int kernel_run(ptort_type from, ptort_type to, const void *src, void *dst, size_t n,
		      ptort_rmode rm, int sat, const uint8_t *tab);

/* ---- 16-bit sources -> HiF8: 64 KiB lookup tables -------------------------- */

/* HiF8's rounding and encoding take ~60 vector instructions per 16 elements; a table of
 * every 16-bit pattern's result takes a load per element. So a run to hif8 from a
 * 16-bit source looks its results up, and one from a 32-bit source looks up its keys'
 * (see h8_round) in the bf16 table, or in HYBRID its h8_hyidx indices in hyb_table's
 * (HYBRID needs more of the f32 than a key keeps). A table
 * is built by the kernels (a run over all 65536 patterns, a few hundred microseconds
 * with its page faults) once WIDE_BUILD elements have gone through the kernels for its
 * (source, mode, saturation), which keeps the build a small part of the work: a program
 * that converts a tile once never pays for it. ptort_cvt_fast_force_tables overrides
 * that for the tests. AVX2 levels only: there the lookups go 16 to a vector store. */
#define WIDE_BUILD ((size_t)1 << 22)
static const ptort_type wide_src[] = {PTORT_BF16, PTORT_F16, PTORT_I16, PTORT_U16};
#define NWIDE (sizeof wide_src / sizeof wide_src[0])
static uint8_t *wide_tabs[NWIDE][PTORT_RMODE_COUNT][2];
static int wide_state[NWIDE][PTORT_RMODE_COUNT][2];
static size_t wide_work[NWIDE][PTORT_RMODE_COUNT][2];
static int forced_tables = -1;

void ptort_cvt_fast_force_tables(int on)
{
	forced_tables = on;
}

/* Whether a table whose runs are counted in *work is to be used (and built if need be)
 * for a run of n elements, which counts toward it: at an AVX2 level, unless the tests
 * said never, once WIDE_BUILD elements have gone through (at once when forced). */
static int table_due(size_t *work, size_t n)
{
#ifdef PTORT_X86
	if (use_level() < 1 || forced_tables == 0)
		return 0;
	return forced_tables > 0 || count_add(work, n) >= WIDE_BUILD;
#else
	(void)work, (void)n;
	return 0;
#endif
}

static void wide_fill(const void *ctx)
{
	const struct tab_key *k = ctx;
	uint16_t *x = malloc(65536 * sizeof *x);
	uint8_t *t = malloc(65536);
	unsigned i;
	if (x && t) {
		for (i = 0; i < 65536; i++)
			x[i] = (uint16_t)i;
		if (kernel_run(k->from, k->to, x, t, 65536, k->rm, k->sat, NULL)) {
			wide_tabs[k->i][k->rm][k->sat] = t;
			t = NULL;
		}
	}
	free(x);
	free(t); /* on failure the slot stays NULL: the kernels */
}

/* The from -> hif8 table (from 16-bit) for mode rm (NONE mapped to RINT) and sat, for a
 * run of n elements; NULL when there is none yet (the run then counts toward building
 * it) or another thread is building it. */
static const uint8_t *wide_table(ptort_type from, ptort_rmode rm, int sat, size_t n)
{
	struct tab_key key;
	unsigned i;
	for (i = 0; i < NWIDE && wide_src[i] != from; i++)
		;
	if (i == NWIDE || ptort_cvt_check(from, PTORT_HIF8, rm) != PTORT_CVT_OK)
		return NULL;
	key.i = i, key.from = from, key.to = PTORT_HIF8, key.rm = rm, key.sat = sat != 0;
	if (!table_due(&wide_work[i][rm][key.sat], n))
		return NULL;
	if (!lazy_ready(&wide_state[i][rm][key.sat], wide_fill, &key))
		return NULL;
	return wide_tabs[i][rm][key.sat];
}

/* HYBRID from f32 (and the 32-bit integers, through f32): a table of 16384 results,
 * indexed by the sign, exponent and first 4 fraction bits of the f32 and whether it
 * rounds down (h8_hyidx: HiF8 keeps at most 3 fraction bits, and where it keeps 3,
 * HYBRID is ROUND, which looks at the fourth), for sat. An index's result is that of
 * an f32 with those bits and no others (it rounds up: the threshold is 0) or with the
 * low 14 bits set too (it rounds down: the fraction after the kept bits has a 0, bit
 * 18, where the threshold is all ones). 16 KiB stay in L1 beside the data. Built like
 * the wide tables, from the portable one-element kernel. */
#define HYB_ENTRIES 16384
static uint8_t hyb_tabs[2][HYB_ENTRIES];
static int hyb_state[2];
static size_t hyb_work[2];

static void hyb_fill(const void *ctx)
{
	const int sat = *(const int *)ctx;
	uint32_t x;
	for (x = 0; x < HYB_ENTRIES; x++) {
		uint32_t u = (x >> 1) << 19;
		if (x & 1 && (u & 0x7FFFFFFF) != 0x7F800000) /* (inf: NaNs have a fraction bit) */
			u |= 0x3FFF;
		hyb_tabs[sat][x] = (uint8_t)f32_hif8_one(u, 1, sat);
	}
}

static const uint8_t *hyb_table(int sat, size_t n)
{
	sat = sat != 0;
	if (!table_due(&hyb_work[sat], n))
		return NULL;
	return lazy_ready(&hyb_state[sat], hyb_fill, &sat) ? hyb_tabs[sat] : NULL;
}

static void wide_run(const uint8_t *t, const uint16_t *s, uint8_t *d, size_t n)
{
	size_t i = 0;
#ifdef PTORT_X86
	i = avx2_wide_run(t, s, d, n);
#endif
	for (; i < n; i++)
		d[i] = t[s[i]];
}

/* The kernels read and write through typed pointers, so a buffer that is not aligned
 * to its element size goes through aligned blocks (memcpy in and out); with a 4-bit
 * side that is left to the generic path. */
int ptort_cvt_fast_run(ptort_type from, ptort_type to, const void *src, void *dst, size_t n,
		       ptort_rmode rm, int sat)
{
	unsigned sbits = ptort_type_bits(from), dbits = ptort_type_bits(to);
	uint64_t sbuf[BLOCK], dbuf[BLOCK];
	size_t done;
	if (n == 0 || ((uintptr_t)src % ((sbits + 7) / 8) == 0 && (uintptr_t)dst % ((dbits + 7) / 8) == 0))
		return fast_run_aligned(from, to, src, dst, n, rm, sat);
	if (sbits < 8 || dbits < 8)
		return 0;
	for (done = 0; done < n; done += BLOCK) {
		size_t m = n - done < BLOCK ? n - done : BLOCK;
		memcpy(sbuf, (const unsigned char *)src + done * (sbits / 8), m * (sbits / 8));
		if (!fast_run_aligned(from, to, sbuf, dbuf, m, rm, sat))
			return 0; /* decided by the pair alone: nothing was written yet */
		memcpy((unsigned char *)dst + done * (dbits / 8), dbuf, m * (dbits / 8));
	}
	return 1;
}

/* from -> to in one pass of k2 reading the source directly (see fused); rm1 the
 * rounding of 32-bit integers to f32. A 4-bit destination's odd last element goes
 * through the generic path. */
static int fused_step(ptort_type from, ptort_type to, enum kid k2, const struct kargs *a,
		      int rm1)
{
	struct kargs c = *a;
	const int below16 = to == PTORT_F8E4M3FN || to == PTORT_F8E5M2 || to == PTORT_HIF8 ||
			    to == PTORT_F4E2M1FN || to == PTORT_F4E1M2;
	switch (from) {
	case PTORT_F16: c.st = ST_F16; break;
	case PTORT_BF16: c.st = ST_BF16; break;
	case PTORT_I16: c.st = ST_I16; break;
	case PTORT_U16: c.st = ST_U16; break;
	case PTORT_I32: c.st = below16 ? ST_I32C : rm1 == PTORT_ODD ? ST_I32 : ST_I32N; break;
	case PTORT_U32: c.st = below16 ? ST_U32C : rm1 == PTORT_ODD ? ST_U32 : ST_U32N; break;
	default: return 0;
	}
	if (k2 == K_F32_F16)
		return 0;
	if (k2 == K_F32_I4)
		return i4_blocks(fused, k2, &c, ptort_type_bits(from) / 8, a->d);
	if (ptort_type_bits(to) == 4) {
		size_t n = a->n;
		c.n = n / 2;
		if (!fused(k2, &c))
			return 0;
		if (n & 1) {
			unsigned char *p = (unsigned char *)a->d + n / 2;
			uint64_t x = 0, v;
			memcpy(&x, (const unsigned char *)a->s + (n - 1) * (ptort_type_bits(from) / 8),
			       ptort_type_bits(from) / 8);
			v = ptort_cvt1_generic(from, to, x, (ptort_rmode)a->rm, a->sat);
			*p = (unsigned char)((*p & 0xF0) | (v & 0xF));
		}
		return 1;
	}
	return fused(k2, &c);
}

static int fast_run_aligned(ptort_type from, ptort_type to, const void *src, void *dst,
			    size_t n, ptort_rmode rm, int sat)
{
	const uint8_t *t = NULL;
	ptort_rmode r = rm == PTORT_NONE ? PTORT_RINT : rm;
	if (to == PTORT_HIF8 && ptort_type_bits(from) == 16 && (t = wide_table(from, r, sat, n))) {
		wide_run(t, src, dst, n);
		return 1;
	}
	if (to == PTORT_HIF8 && (from == PTORT_F32 || from == PTORT_I32 || from == PTORT_U32) &&
	    r != PTORT_ODD)
		t = r == PTORT_HYBRID ? hyb_table(sat, n) : wide_table(PTORT_BF16, r, sat, n);
	return kernel_run(from, to, src, dst, n, rm, sat, t);
}

/* from -> to with the kernels; tab: the bf16 -> hif8 table for keys, or NULL */
static int kernel_run(ptort_type from, ptort_type to, const void *src, void *dst, size_t n,
		      ptort_rmode rm, int sat, const uint8_t *tab)
{
	struct kargs a;
	enum kid k1, k2;
	int sb = 0, ss = 0, db = 0, ds = 0;
	const uint32_t *t;
	memset(&a, 0, sizeof a);
	a.s = src, a.d = dst, a.n = n, a.tab = tab;
	a.rm = rm == PTORT_NONE ? PTORT_RINT : (int)rm;
	a.sat = sat != 0;
	if (ptort_cvt_check(from, to, rm) != PTORT_CVT_OK)
		return 0;
	/* conversions from 8- and 4-bit codes */
	if ((t = small_table(from, to, rm, sat)) != NULL) {
		table_run_fast(t, ptort_type_bits(from), ptort_type_bits(to), src, dst, n);
		return 1;
	}
	/* integer -> integer (i4: one byte per element, then paired) */
	if (int_kind(from, &sb, &ss) && (int_kind(to, &db, &ds) || to == PTORT_I4) && db <= 32) {
		const struct ptort_fmt *f = ptort_fmt_get(to);
		if (sb == 64 && !ss)
			return 0;
		if (to == PTORT_I4)
			db = 4, ds = 1;
		a.sbits = sb, a.ssigned = ss, a.dbits = db < 8 ? 8 : db;
		a.hi = f->is_signed ? (int64_t)((1ull << (db - 1)) - 1) : (int64_t)((1ull << db) - 1);
		a.lo = f->is_signed ? -(int64_t)(1ull << (db - 1)) : 0;
		a.neg0 = ss && !ds && db > sb;
		if (db == 4) {
			uint8_t b[1024];
			size_t done;
			if (sb == 8)
				return 0;
			for (done = 0; done < n; done += sizeof b) {
				struct kargs c = a;
				c.s = (const unsigned char *)src + done * (sb / 8);
				c.d = b;
				c.n = n - done < sizeof b ? n - done : sizeof b;
				if (!dispatch(K_INTINT, &c))
					return 0; /* decided by the pair: nothing written yet */
				pack_nibbles(b, c.n, (unsigned char *)dst + done / 2);
			}
			return 1;
		}
		return dispatch(K_INTINT, &a);
	}
	if (from == PTORT_BF16 && to == PTORT_F8E8M0FNU)
		return dispatch(K_BF16_E8M0, &a);
	/* f16 -> hif8 has its own HYBRID threshold (from the f16 bits) */
	if (from == PTORT_F16 && to == PTORT_HIF8 && (rm == PTORT_ROUND || rm == PTORT_HYBRID))
		return dispatch(K_F16_HIF8, &a);
	/* f32 source */
	if (from == PTORT_F32 && from_f32_kernel(to, (ptort_rmode)a.rm, &k2)) {
		if (ptort_cvt_is_exact(from, to) || to == PTORT_F32)
			a.sat = 0;
		last_step(k2, &a, src, dst, to, 0, n);
		return 1;
	}
	if ((from == PTORT_I32 || from == PTORT_U32) && to == PTORT_F32)
		return dispatch(from == PTORT_I32 ? K_I32_F32 : K_U32_F32, &a);
	/* a first step to f32, then (maybe) one rounding step */
	if (to_f32_kernel(from, &k1)) {
		uint32_t tmp[BLOCK];
		size_t done;
		struct kargs b = a;
		if (to == PTORT_F32)
			return dispatch(k1, &a);
		if (!from_f32_kernel(to, (ptort_rmode)a.rm, &k2))
			return 0;
		/* saturation has no effect on exact pairs (docs/semantics.md §3.2) */
		if (ptort_cvt_is_exact(from, to))
			a.sat = 0;
		/* 32-bit integers: to odd, except before the HiF8 pseudocode, which the
		 * semantics feed with the value rounded to f32 (RINT) */
		b.rm = k2 == K_F32_HIF8 ? PTORT_RINT : PTORT_ODD;
		if (fused_step(from, to, k2, &a, b.rm))
			return 1;
		for (done = 0; done < n; done += BLOCK) {
			size_t m = n - done < BLOCK ? n - done : BLOCK;
			b.s = (const unsigned char *)src + done * (ptort_type_bits(from) / 8);
			b.d = tmp;
			b.n = m;
			dispatch(k1, &b);
			last_step(k2, &a, tmp, dst, to, done, m);
		}
		return 1;
	}
	return 0;
}
