/* cvt.c: the generic conversion path (decode -> round -> pack, SoftFloat style, bit
 * patterns in integers, no host float arithmetic) and the public entry points of one
 * element, ptort_cvt1 / ptort_deq* (those of buffers are cvt_run.c's, above this file
 * and the fast path's). Semantics: docs/semantics.md
 * §2-3 and docs/numerics.md. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cvt_internal.h"
#include "ptort.h"

static unsigned msb64(uint64_t x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

static uint64_t lowmask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
}

/* ---- decode ------------------------------------------------------------- */

static void decode_hif8(uint64_t bits, struct ptort_val *v)
{
	unsigned c = (unsigned)(bits & 0xFF), r = c & 0x7F;
	int es, mag = 0, mb = 3;
	v->sign = (int)(c >> 7);
	if (c == 0x00 || c == 0x80) {
		v->cls = c ? VAL_NAN : VAL_ZERO;
		v->sign = 0;
		return;
	}
	if (r == 0x6F) {
		v->cls = VAL_INF;
		return;
	}
	v->cls = VAL_FINITE;
	if (r < 0x08) { /* denormal: 2^(r-23) */
		v->sig = 1;
		v->exp = (int)r - 23;
		return;
	}
	if (r < 0x10) {
		es = 0;
	} else if (r < 0x20) {
		es = (r >> 3) & 1, mag = 1;
	} else if (r < 0x40) {
		es = (r >> 4) & 1, mag = 2 + ((r >> 3) & 1);
	} else if (r < 0x60) {
		es = (r >> 4) & 1, mag = 4 + ((r >> 2) & 3), mb = 2;
	} else {
		es = (r >> 4) & 1, mag = 8 + ((r >> 1) & 7), mb = 1;
	}
	v->sig = ((uint64_t)1 << mb) | (r & ((1u << mb) - 1));
	v->exp = (es ? -mag : mag) - mb;
}

void ptort_decode(ptort_type t, uint64_t bits, struct ptort_val *v)
{
	const struct ptort_fmt *f = ptort_fmt_get(t);
	v->cls = VAL_ZERO;
	v->sign = 0;
	v->sig = 0;
	v->exp = 0;
	if (!f)
		return;
	bits &= lowmask(f->bits);
	switch (f->kind) {
	case FMT_IEEE: {
		uint64_t emask = lowmask(f->ebits), mmask = lowmask(f->mbits);
		uint64_t E = (bits >> f->mbits) & emask, M = bits & mmask;
		v->sign = (int)(bits >> (f->bits - 1)) & 1;
		if (E == emask && ((f->nan == NAN_IEEE) || (f->nan == NAN_FN && M == mmask))) {
			v->cls = (f->nan == NAN_IEEE && M == 0) ? VAL_INF : VAL_NAN;
			return;
		}
		if (E == 0 && M == 0)
			return;
		v->cls = VAL_FINITE;
		v->sig = E ? (M | ((uint64_t)1 << f->mbits)) : M;
		v->exp = (E ? (int)E : 1) - f->bias - (int)f->mbits;
		return;
	}
	case FMT_HIF8:
		decode_hif8(bits, v);
		return;
	case FMT_E8M0:
		if (bits == 0xFF) {
			v->cls = VAL_NAN;
			return;
		}
		v->cls = VAL_FINITE;
		v->sig = 1;
		v->exp = (int)bits - 127;
		return;
	case FMT_INT:
		if (f->is_signed && ((bits >> (f->bits - 1)) & 1)) {
			v->sign = 1;
			v->sig = ((~bits) & lowmask(f->bits)) + 1; /* |value|, up to 2^63 */
		} else {
			v->sig = bits;
		}
		v->cls = v->sig ? VAL_FINITE : VAL_ZERO;
		return;
	}
}

/* ---- rounding ----------------------------------------------------------- */

/* sig * 2^-sh rounded to an integer with rm (sh >= 1); the caller maps NONE. */
static uint64_t round_shift(uint64_t sig, unsigned sh, int sign, ptort_rmode rm)
{
	uint64_t kept, half, sticky, inc = 0;
	if (sh > 64) {
		kept = 0, half = 0, sticky = sig != 0;
	} else if (sh == 64) {
		kept = 0, half = sig >> 63, sticky = (sig << 1) != 0;
	} else {
		kept = sig >> sh;
		half = (sig >> (sh - 1)) & 1;
		sticky = (sig & lowmask(sh - 1)) != 0;
	}
	switch (rm) {
	case PTORT_RINT:
	case PTORT_NONE:
		inc = half & (sticky | (kept & 1));
		break;
	case PTORT_ROUND:
	case PTORT_HYBRID: /* only reached for non-HiF8 grids, never in practice */
		inc = half;
		break;
	case PTORT_FLOOR:
		inc = (uint64_t)sign & (half | sticky);
		break;
	case PTORT_CEIL:
		inc = (uint64_t)!sign & (half | sticky);
		break;
	case PTORT_TRUNC:
		break;
	case PTORT_ODD:
		kept |= half | sticky;
		break;
	default:
		break;
	}
	return kept + inc;
}

/* The exponent of the destination's spacing in the binade [2^e, 2^(e+1)), with an
 * unbounded exponent range above (overflow is decided after rounding). */
static int grid_q(int integral, const struct ptort_fmt *f, int e)
{
	if (integral) {
		/* f32 -> f32 rounds to an integral value */
		int q = (e < -126 ? -126 : e) - 23;
		return q < 0 ? 0 : q;
	}
	if (f->kind == FMT_HIF8) {
		int a = e < 0 ? -e : e;
		if (e < -22)
			return -22;
		if (e <= -16)
			return e;
		return e - (a <= 3 ? 3 : a <= 7 ? 2 : 1);
	}
	{
		int emin = 1 - f->bias;
		return (e < emin ? emin : e) - (int)f->mbits;
	}
}

/* ---- packing ------------------------------------------------------------ */

static uint64_t ieee_max(const struct ptort_fmt *f, int sign)
{
	uint64_t p = ((uint64_t)(f->emax + f->bias) << f->mbits) | f->maxfrac;
	return p | ((uint64_t)sign << (f->bits - 1));
}

static uint64_t ieee_inf(const struct ptort_fmt *f, int sign)
{
	return (lowmask(f->ebits) << f->mbits) | ((uint64_t)sign << (f->bits - 1));
}

static uint64_t fmt_max(const struct ptort_fmt *f, int sign)
{
	if (f->kind == FMT_HIF8)
		return sign ? 0xEE : 0x6E;
	return ieee_max(f, sign);
}

/* What "infinity" becomes in a format: inf, or NaN (e4m3fn), or max (fp4). */
static uint64_t fmt_inf(const struct ptort_fmt *f, int sign)
{
	if (f->kind == FMT_HIF8)
		return sign ? 0xEF : 0x6F;
	if (f->has_inf)
		return ieee_inf(f, sign);
	if (f->nan != NAN_NONE)
		return f->qnan;
	return ieee_max(f, sign);
}

static uint64_t fmt_zero(const struct ptort_fmt *f, int sign)
{
	if (!f->has_negzero)
		return 0;
	return (uint64_t)sign << (f->bits - 1);
}

static uint64_t pack_hif8(int sign, int e, uint64_t frac)
{
	unsigned a = (unsigned)(e < 0 ? -e : e), es = e < 0, c;
	if (e <= -16)
		c = (unsigned)(e + 23);
	else if (a == 0)
		c = 0x08 | (unsigned)frac;
	else if (a == 1)
		c = 0x10 | es << 3 | (unsigned)frac;
	else if (a <= 3)
		c = 0x20 | es << 4 | (a - 2) << 3 | (unsigned)frac;
	else if (a <= 7)
		c = 0x40 | es << 4 | (a - 4) << 2 | (unsigned)frac;
	else
		c = 0x60 | es << 4 | (a - 8) << 1 | (unsigned)frac;
	return c | (unsigned)sign << 7;
}

static unsigned hif8_mbits(int e)
{
	int a = e < 0 ? -e : e;
	if (e <= -16)
		return 0;
	return a <= 3 ? 3 : a <= 7 ? 2 : 1;
}

/* Overflow result with saturation off (docs/semantics.md §3 step 2). */
static uint64_t overflow_nosat(const struct ptort_fmt *f, int sign, ptort_rmode rm)
{
	switch (rm) {
	case PTORT_TRUNC:
	case PTORT_ODD:
		return fmt_max(f, sign);
	case PTORT_FLOOR:
		return sign ? fmt_inf(f, 1) : fmt_max(f, 0);
	case PTORT_CEIL:
		return sign ? fmt_max(f, 1) : fmt_inf(f, 0);
	default:
		return fmt_inf(f, sign);
	}
}

/* Rounds a finite nonzero value onto the float destination's grid and packs it. */
static uint64_t round_pack_float(int integral, const struct ptort_fmt *f,
				 const struct ptort_val *v, ptort_rmode rm, int sat, int *ovf)
{
	int e = v->exp + (int)msb64(v->sig), q = grid_q(integral, f, e);
	uint64_t N, frac;
	unsigned mb, m;
	if (v->exp >= q)
		N = v->sig << (v->exp - q);
	else
		N = round_shift(v->sig, (unsigned)(q - v->exp), v->sign, rm);
	if (N == 0)
		return fmt_zero(f, v->sign);
	m = msb64(N);
	e = q + (int)m;
	mb = f->kind == FMT_HIF8 ? hif8_mbits(e) : f->mbits;
	frac = (m >= mb ? N >> (m - mb) : N << (mb - m)) & lowmask(mb);
	if (f->kind == FMT_HIF8) {
		if (e > 15 || (e == 15 && frac != 0)) {
			if (ovf)
				*ovf = 1;
			return sat ? fmt_max(f, v->sign) : overflow_nosat(f, v->sign, rm);
		}
		return pack_hif8(v->sign, e, frac);
	}
	if (e > f->emax || (e == f->emax && frac > f->maxfrac)) {
		if (ovf)
			*ovf = 1;
		return sat || f->nan == NAN_NONE ? fmt_max(f, v->sign)
						  : overflow_nosat(f, v->sign, rm);
	}
	{
		int emin = 1 - f->bias;
		uint64_t E = e < emin ? 0 : (uint64_t)(e + f->bias);
		uint64_t M = e < emin ? N : frac; /* subnormal: q = emin - mbits */
		return ((uint64_t)v->sign << (f->bits - 1)) | (E << f->mbits) | M;
	}
}

/* ---- HiFloat8, literally from the 950 pseudocode (ROUND and HYBRID) ------- */

/* sign, unbiased exponent Ev, normalised fraction F of W bits (no hidden bit), the
 * source's HYBRID threshold thr and frac width K (f32: 14, f16: 2). */
static unsigned hif8_literal(int sign, int Ev, uint32_t F, unsigned W, uint32_t thr, unsigned K,
			     int hybrid)
{
	unsigned mb, M, TA;
	uint32_t frac;
	int up;
	if (Ev > 15)
		return sign ? 0xEF : 0x6F;
	if (Ev < -23)
		return 0x00;
	if (Ev == -23) {
		uint32_t top = (1u << (K - 1)) | (F >> (W - (K - 1)));
		if (!hybrid || top >= thr)
			return sign ? 0x81 : 0x01;
		return 0x00;
	}
	if (Ev <= -16) { /* subnormal: M = Ev + 23, TA = F[W-1], frac = F[W-1 : W-K] */
		TA = (F >> (W - 1)) & 1;
		frac = F >> (W - K);
		up = hybrid ? frac >= thr : TA;
		if (up)
			Ev += 1;
		if (Ev == -15)
			return pack_hif8(sign, -15, 0);
		return pack_hif8(sign, Ev, 0);
	}
	mb = hif8_mbits(Ev);
	M = F >> (W - mb);
	TA = (F >> (W - mb - 1)) & 1;
	frac = (F >> (W - mb - K)) & ((1u << K) - 1);
	if (Ev >= -3 && Ev <= 3)
		up = TA;
	else
		up = hybrid ? frac >= thr : TA;
	if (up) {
		M += 1;
		if (M >> mb) {
			M = 0;
			Ev += 1;
			mb = hif8_mbits(Ev); /* M = 0 fits any width */
		}
	}
	if (Ev > 15 || (Ev == 15 && M != 0))
		return sign ? 0xEF : 0x6F;
	return (unsigned)pack_hif8(sign, Ev, M);
}

static unsigned hif8_from_f32(uint32_t b, int hybrid)
{
	int Ev = (int)((b >> 23) & 0xFF) - 127;
	uint32_t F = b & 0x7FFFFF;
	if (Ev == 128)
		return F ? 0x80 : ((b >> 31) ? 0xEF : 0x6F);
	return hif8_literal((int)(b >> 31), Ev, F, 23, b & 0x3FFF, 14, hybrid);
}

static unsigned hif8_from_f16(uint32_t b, int hybrid)
{
	int E = (int)((b >> 10) & 0x1F), Ev = E - 15;
	uint32_t F = b & 0x3FF;
	if (E == 31)
		return F ? 0x80 : ((b >> 15) ? 0xEF : 0x6F);
	if (E == 0) { /* subnormal (or zero): normalised first [decision] */
		if (F == 0)
			return 0x00;
		Ev = -14;
		while (!(F & 0x400)) {
			F <<= 1;
			Ev--;
		}
		F &= 0x3FF;
	}
	return hif8_literal((int)((b >> 15) & 1), Ev, F, 10, ((F & 1) << 1) | 1, 2, hybrid);
}

/* ---- integers ----------------------------------------------------------- */

static uint64_t int_max(const struct ptort_fmt *f)
{
	return f->is_signed ? lowmask(f->bits - 1) : lowmask(f->bits);
}

static uint64_t int_min(const struct ptort_fmt *f)
{
	return f->is_signed ? (UINT64_MAX << (f->bits - 1)) & lowmask(f->bits) : 0;
}

/* magnitude `mag` (huge: |value| >= 2^64, low 64 bits in mag) with `sign`. */
static uint64_t pack_int(const struct ptort_fmt *f, int sign, uint64_t mag, int huge, int sat)
{
	uint64_t mask = lowmask(f->bits);
	if (sat) {
		if (sign) {
			if (!f->is_signed)
				return 0;
			if (huge || mag > ((uint64_t)1 << (f->bits - 1)))
				return int_min(f);
		} else if (huge || mag > int_max(f)) {
			return int_max(f);
		}
	}
	return (sign ? (uint64_t)0 - mag : mag) & mask;
}

static uint64_t to_int(ptort_type from, const struct ptort_fmt *f, const struct ptort_val *v,
		       ptort_rmode rm, int sat)
{
	const struct ptort_fmt *sf = ptort_fmt_get(from);
	uint64_t mag;
	int huge = 0;
	switch (v->cls) {
	case VAL_NAN:
	case VAL_ZERO:
		return 0;
	case VAL_INF:
		return v->sign ? int_min(f) : int_max(f);
	default:
		break;
	}
	if (sf->kind == FMT_INT) {
		/* signed source to a wider unsigned destination: saturation only */
		if (v->sign && sf->is_signed && !f->is_signed && f->bits > sf->bits)
			return 0;
		return pack_int(f, v->sign, v->sig, 0, sat);
	}
	if (v->exp >= 0) {
		huge = v->exp + (int)msb64(v->sig) >= 64;
		mag = v->exp >= 64 ? 0 : v->sig << v->exp;
	} else {
		mag = round_shift(v->sig, (unsigned)-v->exp, v->sign, rm);
	}
	return pack_int(f, v->sign, mag, huge, sat);
}

/* ---- the generic conversion --------------------------------------------- */

static uint64_t to_float(ptort_type from, ptort_type to, const struct ptort_fmt *f,
			 const struct ptort_val *v, uint64_t bits, ptort_rmode rm, int sat)
{
	switch (v->cls) {
	case VAL_NAN:
		return sat || f->nan == NAN_NONE ? 0 : f->qnan;
	case VAL_INF:
		return sat ? fmt_max(f, v->sign) : fmt_inf(f, v->sign);
	case VAL_ZERO:
		return fmt_zero(f, v->sign);
	default:
		break;
	}
	if (f->kind == FMT_HIF8 && (rm == PTORT_ROUND || rm == PTORT_HYBRID)) {
		unsigned c;
		int hy = rm == PTORT_HYBRID;
		if (from == PTORT_F16)
			c = hif8_from_f16((uint32_t)bits, hy);
		else if (from == PTORT_F32)
			c = hif8_from_f32((uint32_t)bits, hy);
		else /* exact in f32 for every value below the overflow bound */
			c = hif8_from_f32((uint32_t)round_pack_float(0, ptort_fmt_get(PTORT_F32),
								     v, PTORT_RINT, 0, NULL), hy);
		if (sat && (c & 0x7F) == 0x6F)
			c = (c & 0x80) | 0x6E;
		return c;
	}
	return round_pack_float(from == PTORT_F32 && to == PTORT_F32, f, v, rm, sat, NULL);
}

int ptort_round_val(ptort_type to, const struct ptort_val *v, uint64_t *bits)
{
	const struct ptort_fmt *f = ptort_fmt_get(to);
	int ovf = 0;
	if (!f || (f->kind != FMT_IEEE && f->kind != FMT_HIF8))
		return -1;
	if (v->cls != VAL_FINITE) {
		*bits = to_float(PTORT_F32, to, f, v, 0, PTORT_RINT, 0);
		return 0;
	}
	*bits = round_pack_float(0, f, v, PTORT_RINT, 0, &ovf);
	return ovf ? -1 : 0;
}

static uint64_t bf16_to_e8m0(uint64_t bits)
{
	unsigned E = (unsigned)(bits >> 7) & 0xFF, M = (unsigned)bits & 0x7F;
	if (E == 0xFF)
		return M ? 0xFF : 0xFE;
	return E;
}

/* sat_eff: the caller has already dropped saturation where it cannot matter. */
uint64_t ptort_cvt1_core(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm,
			 int sat_eff, int exact)
{
	const struct ptort_fmt *f = ptort_fmt_get(to);
	struct ptort_val v;
	if (from == to && f->kind == FMT_INT)
		return bits & lowmask(f->bits);
	if (from == PTORT_BF16 && to == PTORT_F8E8M0FNU)
		return bf16_to_e8m0(bits);
	/* NONE is RINT; on exact pairs no mode has an effect (the HiF8 pseudocode's HYBRID
	 * would otherwise bump exact values: hif8 -> hif8 must be the identity) */
	if (rm == PTORT_NONE || exact)
		rm = PTORT_RINT;
	ptort_decode(from, bits, &v);
	if (f->kind == FMT_INT)
		return to_int(from, f, &v, rm, sat_eff);
	return to_float(from, to, f, &v, bits, rm, sat_eff);
}

/* Saturation has no effect for an f32 destination and for exact conversions
 * (docs/semantics.md §3.2); integer destinations always honour it. */
int ptort_cvt_effective_sat(ptort_type from, ptort_type to, int sat)
{
	if (!sat || ptort_type_is_float(to) == 0)
		return sat != 0;
	if (to == PTORT_F32)
		return 0;
	return !ptort_cvt_is_exact(from, to);
}

uint64_t ptort_cvt1_generic(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm,
			    int sat)
{
	if (ptort_cvt_check(from, to, rm) != PTORT_CVT_OK)
		return 0;
	return ptort_cvt1_core(from, to, bits, rm, ptort_cvt_effective_sat(from, to, sat),
			 ptort_cvt_is_exact(from, to));
}

int ptort_cvt_default_sat(ptort_type from, ptort_type to)
{
	if (from == PTORT_F16 && (to == PTORT_U8 || to == PTORT_I8 || to == PTORT_I16))
		return PTORT_SAT_OFF;
	if ((from == PTORT_F32 && to == PTORT_I16) || (from == PTORT_I64 && to == PTORT_I32) ||
	    (from == PTORT_I32 && to == PTORT_I16))
		return PTORT_SAT_OFF;
	return PTORT_SAT_ON;
}

uint64_t ptort_cvt1(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm, int sat)
{
	return ptort_cvt1_generic(from, to, bits, rm, sat);
}

/* ---- the deq path ------------------------------------------------------- */

uint16_t ptort_deq1_i32_f16(int32_t src, uint16_t scale_f16)
{
	const struct ptort_fmt *f = ptort_fmt_get(PTORT_F16);
	struct ptort_val s, p;
	uint64_t mag = src < 0 ? (uint64_t)0 - (uint64_t)(int64_t)src : (uint64_t)src;
	ptort_decode(PTORT_F16, scale_f16, &s);
	p.sign = s.sign ^ (src < 0);
	p.sig = 0;
	p.exp = 0;
	if (s.cls == VAL_NAN || (s.cls == VAL_INF && mag == 0)) {
		p.cls = VAL_NAN;
	} else if (s.cls == VAL_INF) {
		p.cls = VAL_INF;
	} else if (s.cls == VAL_ZERO || mag == 0) {
		p.cls = VAL_ZERO;
	} else {
		p.cls = VAL_FINITE;
		p.sig = mag * s.sig; /* < 2^42 */
		p.exp = s.exp;
	}
	return (uint16_t)to_float(PTORT_I32, PTORT_F16, f, &p, 0, PTORT_RINT, 1);
}

void ptort_deq_i32_f16(const int32_t *src, uint16_t *dst, size_t n, uint16_t scale_f16)
{
	size_t i;
	for (i = 0; i < n; i++)
		dst[i] = ptort_deq1_i32_f16(src[i], scale_f16);
}
