/* cvt_fast_kern.h: the portable fast conversion kernels, for contiguous runs of the
 * common 16/32-bit conversions (the file map: cvt_fast_internal.h).
 *
 * Kernels are branch-free loops over integer bit patterns written for
 * auto-vectorisation, with the round mode and saturation compile-time constants in each
 * specialisation. The only host float operations are exact ones (int -> float of values
 * below 2^24). Everything here is static inline: a file that includes this compiles
 * the kernels for its own ISA (run_kernel in cvt_fast.c for the portable level, in
 * cvt_fast_x86.c under target("avx2")), and the x86 kernels take their tails and
 * one-element fallbacks from here. */
#ifndef PTORT_CVT_FAST_KERN_H
#define PTORT_CVT_FAST_KERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cvt_fast_internal.h"

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

/* ---- sources read as f32 (the ST_ kinds: cvt_fast_internal.h) ----------- */

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


/* ---- run_kernel: every kernel by its kid, for the including file's ISA -------- */

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

#endif
