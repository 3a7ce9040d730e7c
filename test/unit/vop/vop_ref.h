/* vop_ref.h: the independent references of the vector op tests (test_vop_num,
 * test_vop_exhaustive): f32/f16/bf16 bit patterns to and from doubles without the
 * runtime, and the correctly rounded result of an op by MPFR run with the format's
 * precision, exponent range and subnormals. Include after <mpfr.h>, <math.h>,
 * <string.h> and ptort.h. */
#ifndef PTOC_TEST_VOP_REF_H
#define PTOC_TEST_VOP_REF_H

static double to_d(ptort_type t, uint64_t x)
{
	float f;
	uint32_t u;
	if (t == PTORT_F32) {
		u = (uint32_t)x;
		memcpy(&f, &u, 4);
		return f;
	}
	if (t == PTORT_BF16) {
		u = (uint32_t)x << 16;
		memcpy(&f, &u, 4);
		return f;
	}
	{ /* f16 */
		int s = (int)(x >> 15) & 1, e = (int)(x >> 10) & 31, m = (int)(x & 1023);
		double v;
		if (e == 31)
			v = m ? NAN : INFINITY;
		else if (e == 0)
			v = ldexp(m, -24);
		else
			v = ldexp(m | 1024, e - 25);
		return s ? -v : v;
	}
}

/* bits of a value exactly representable in t (or inf/NaN: the canonical NaN) */
static uint64_t from_d(ptort_type t, double d)
{
	float f;
	uint32_t u;
	if (t != PTORT_F16) {
		if (isnan(d))
			return t == PTORT_F32 ? 0x7FC00000u : 0x7FC0u;
		f = (float)d;
		memcpy(&u, &f, 4);
		return t == PTORT_F32 ? u : u >> 16;
	}
	{
		uint64_t s = signbit(d) ? 0x8000u : 0;
		int e;
		double fr, a = fabs(d);
		if (isnan(d))
			return 0x7E00u;
		if (isinf(d))
			return s | 0x7C00u;
		if (a == 0)
			return s;
		fr = frexp(a, &e); /* a = fr 2^e, fr in [0.5, 1) */
		if (e - 1 >= -14)
			return s | (uint64_t)(e - 1 + 15) << 10 | (uint64_t)(ldexp(fr, 11) - 1024);
		return s | (uint64_t)ldexp(a, 24);
	}
}

static int tprec(ptort_type t)
{
	return t == PTORT_F32 ? 24 : t == PTORT_F16 ? 11 : 8;
}

static void tenv(ptort_type t)
{
	mpfr_set_emin(t == PTORT_F32 ? -148 : t == PTORT_F16 ? -23 : -132);
	mpfr_set_emax(t == PTORT_F16 ? 16 : 128);
}

static uint64_t qnan(ptort_type t)
{
	return t == PTORT_F32 ? 0x7FC00000u : t == PTORT_F16 ? 0x7E00u : 0x7FC0u;
}

/* the correctly rounded result, by MPFR */
static uint64_t mref(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	mpfr_t x, y, r;
	int i = 0;
	double da = to_d(t, a), db = to_d(t, b), out;
	if (op == PTORT_VOP_EXPDIF) /* exp of the difference rounded to the type */
		return mref(PTORT_VOP_EXP, t, mref(PTORT_VOP_SUB, t, a, b), 0);
	if (op == PTORT_VOP_RSQRT && da == 0 && signbit(da))
		return from_d(t, -INFINITY); /* IEEE rSqrt(-0) = -inf; mpfr_rec_sqrt gives +inf */
	tenv(t);
	mpfr_inits2(64, x, y, (mpfr_ptr)0);
	mpfr_init2(r, tprec(t));
	mpfr_set_d(x, da, MPFR_RNDN);
	mpfr_set_d(y, db, MPFR_RNDN);
	switch (op) {
	case PTORT_VOP_ADD: i = mpfr_add(r, x, y, MPFR_RNDN); break;
	case PTORT_VOP_SUB: i = mpfr_sub(r, x, y, MPFR_RNDN); break;
	case PTORT_VOP_MUL: i = mpfr_mul(r, x, y, MPFR_RNDN); break;
	case PTORT_VOP_DIV: i = mpfr_div(r, x, y, MPFR_RNDN); break;
	case PTORT_VOP_SQRT: i = mpfr_sqrt(r, x, MPFR_RNDN); break;
	case PTORT_VOP_RSQRT: i = mpfr_rec_sqrt(r, x, MPFR_RNDN); break;
	case PTORT_VOP_RECIP: i = mpfr_ui_div(r, 1, x, MPFR_RNDN); break;
	case PTORT_VOP_EXP: i = mpfr_exp(r, x, MPFR_RNDN); break;
	case PTORT_VOP_LN: i = mpfr_log(r, x, MPFR_RNDN); break;
	case PTORT_VOP_FMOD: i = mpfr_fmod(r, x, y, MPFR_RNDN); break;
	case PTORT_VOP_REM: { /* floored: fmod, + y once when the signs differ, 0 with y's sign */
		mpfr_t q;
		mpfr_init2(q, 64);
		mpfr_fmod(q, x, y, MPFR_RNDN); /* exact */
		if (mpfr_nan_p(q))
			mpfr_set_nan(r);
		else if (mpfr_zero_p(q))
			mpfr_set_zero(r, signbit(db) ? -1 : 1);
		else if (mpfr_signbit(q) != mpfr_signbit(y))
			i = mpfr_add(r, q, y, MPFR_RNDN);
		else
			i = mpfr_set(r, q, MPFR_RNDN);
		mpfr_clear(q);
		break;
	}
	case PTORT_VOP_PRELU: /* a > 0 ? a : a * b */
		if (da > 0)
			i = mpfr_set(r, x, MPFR_RNDN);
		else
			i = mpfr_mul(r, x, y, MPFR_RNDN);
		break;
	default: break;
	}
	i = mpfr_check_range(r, i, MPFR_RNDN);
	mpfr_subnormalize(r, i, MPFR_RNDN);
	out = mpfr_nan_p(r) ? NAN : mpfr_get_d(r, MPFR_RNDN);
	mpfr_clears(x, y, r, (mpfr_ptr)0);
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	return isnan(out) ? qnan(t) : from_d(t, out);
}

#endif
