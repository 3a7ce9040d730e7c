/* cvt_format.c: the element formats as data, and the questions answered from the
 * data alone: which pairs and round modes the generic semantics define
 * (ptort_cvt_check) and whether a conversion is exact (ptort_cvt_is_exact). */
#include <stddef.h>
#include <stdint.h>

#include "cvt_internal.h"
#include "ptort.h"

/* The formats, from the list of element types in ptort.h. */
static const struct ptort_fmt fmts[PTORT_TYPE_COUNT] = {
#define FMT_ROW_(id, name, kind, bits, eb, mb, bias, emax, maxfrac, inf, nan, qnan, nz, sgn) \
	[PTORT_##id] = {FMT_##kind, bits, eb, mb, bias, emax, maxfrac, inf, NAN_##nan, qnan, nz, sgn},
	PTORT_TYPE_LIST(FMT_ROW_)
#undef FMT_ROW_
};

const struct ptort_fmt *ptort_fmt_get(ptort_type t)
{
	return (unsigned)t < PTORT_TYPE_COUNT ? &fmts[t] : NULL;
}

/* Whether the format has finite nonzero values v with 2^e <= |v| < 2^(e+1); if so,
 * *q is the exponent of the spacing of its values there (every multiple of 2^q in the
 * binade, up to the largest finite value, is representable). */
static int binade(const struct ptort_fmt *f, int e, int *q)
{
	int emin;
	switch (f->kind) {
	case FMT_IEEE:
		emin = 1 - f->bias;
		if (e < emin - (int)f->mbits || e > f->emax)
			return 0;
		*q = (e < emin ? emin : e) - (int)f->mbits;
		return 1;
	case FMT_HIF8: {
		int a = e < 0 ? -e : e;
		if (e < -22 || e > 15)
			return 0;
		if (e <= -16)
			*q = e; /* denormal codes 0x01..0x07: powers of two only */
		else
			*q = e - (a <= 3 ? 3 : a <= 7 ? 2 : 1);
		return 1;
	}
	case FMT_E8M0:
		if (e < -127 || e > 127)
			return 0;
		*q = e;
		return 1;
	case FMT_INT:
		if (e < 0 || e > (int)f->bits - 1)
			return 0;
		/* a signed type's top binade holds only -2^(N-1) */
		*q = f->is_signed && e == (int)f->bits - 1 ? e : 0;
		return 1;
	}
	return 0;
}

static unsigned msb64(uint64_t x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

/* Largest finite magnitude on the positive (neg = 0) or negative side as sig * 2^exp;
 * returns 0 when that side has no nonzero value. */
static int maxmag(const struct ptort_fmt *f, int neg, uint64_t *sig, int *exp)
{
	switch (f->kind) {
	case FMT_IEEE:
		*sig = ((uint64_t)1 << f->mbits) | f->maxfrac;
		*exp = f->emax - (int)f->mbits;
		return 1;
	case FMT_HIF8:
		*sig = 1;
		*exp = 15;
		return 1;
	case FMT_E8M0:
		*sig = 1;
		*exp = 127;
		return !neg;
	case FMT_INT:
		*exp = 0;
		if (!f->is_signed) {
			*sig = f->bits == 64 ? UINT64_MAX : ((uint64_t)1 << f->bits) - 1;
			return !neg;
		}
		*sig = ((uint64_t)1 << (f->bits - 1)) - (neg ? 0 : 1);
		return 1;
	}
	return 0;
}

/* Compares a = sa * 2^xa with b = sb * 2^xb (both nonzero): -1, 0, 1. */
static int cmpmag(uint64_t sa, int xa, uint64_t sb, int xb)
{
	unsigned ma = msb64(sa), mb = msb64(sb);
	int ea = xa + (int)ma, eb = xb + (int)mb;
	if (ea != eb)
		return ea < eb ? -1 : 1;
	sa <<= 63 - ma;
	sb <<= 63 - mb;
	return sa < sb ? -1 : sa > sb;
}

static int has_zero(const struct ptort_fmt *f)
{
	return f->kind != FMT_E8M0;
}

int ptort_cvt_is_exact(ptort_type from, ptort_type to)
{
	const struct ptort_fmt *a = ptort_fmt_get(from), *b = ptort_fmt_get(to);
	int e, side;
	if (!a || !b)
		return 0;
	/* f32 -> f32 rounds to an integral value (docs/semantics.md §3 step 6): not exact */
	if (from == PTORT_F32 && to == PTORT_F32)
		return 0;
	if (from == to)
		return 1;
	if ((a->has_inf && !b->has_inf) || (a->nan != NAN_NONE && b->nan == NAN_NONE))
		return 0;
	if ((has_zero(a) && !has_zero(b)) || (a->has_negzero && !b->has_negzero))
		return 0;
	for (side = 0; side < 2; side++) {
		uint64_t sa, sb;
		int xa, xb;
		if (!maxmag(a, side, &sa, &xa))
			continue;
		if (!maxmag(b, side, &sb, &xb) || cmpmag(sa, xa, sb, xb) > 0)
			return 0;
	}
	/* Binades below 2^-160 or above 2^64 hold no value of any format. */
	for (e = -160; e <= 64; e++) {
		int qa, qb;
		if (!binade(a, e, &qa))
			continue;
		if (!binade(b, e, &qb) || qb > qa)
			return 0;
	}
	return 1;
}

static int generic_member(ptort_type t)
{
	return (unsigned)t < PTORT_TYPE_COUNT && t != PTORT_F8E8M0FNU;
}

ptort_cvt_status ptort_cvt_check(ptort_type from, ptort_type to, ptort_rmode rm)
{
	int e8 = (from == PTORT_BF16 && to == PTORT_F8E8M0FNU) ||
		 (from == PTORT_F8E8M0FNU && to == PTORT_BF16);
	if (!e8 && !(generic_member(from) && generic_member(to)))
		return PTORT_CVT_NO_PAIR;
	if ((unsigned)rm >= PTORT_RMODE_COUNT)
		return PTORT_CVT_BAD_MODE;
	if (rm == PTORT_ODD && !(from == PTORT_F32 && to == PTORT_F16))
		return PTORT_CVT_BAD_MODE;
	if (rm == PTORT_HYBRID && to != PTORT_HIF8)
		return PTORT_CVT_BAD_MODE;
	return PTORT_CVT_OK;
}
