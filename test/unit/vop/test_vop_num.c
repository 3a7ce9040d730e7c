/* test_vop_num.c: the element kernels of the vector operations (ptort_vop1, which
 * takes the double-precision paths of exp/ln/rsqrt, and ptort_vop1_ref, the integer
 * reference) against independent references:
 *   - MPFR, with the exponent range and subnormals of each format, for the correctly
 *     rounded float ops: every f16 and bf16 input of exp, ln, sqrt, rsqrt, recip; a
 *     boundary set and random inputs of the same in f32; boundary and random pairs of
 *     add, sub, mul, div, fmod, rem, prelu, expdif in all three formats (subnormal
 *     results included);
 *   - small C models for max/min/abs/neg/relu/mov and the compares (every f16 and bf16
 *     input, boundary and random pairs) and the integer ops;
 *   - MPFR again for every constant of vop_tables.c.
 * Argument: a scale for the random sets (default 1). Failures print in hex. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptort.h"
#include "vop_internal.h"

#ifndef PTOC_HAVE_MPFR
int main(void)
{
	return check_skip("vop_num", "MPFR not available (libmpfr-dev)");
}
#else
#include <mpfr.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#include "vop_ref.h"

static const char *tn(ptort_type t)
{
	return ptort_type_name(t);
}

static void check_one(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	uint64_t want = mref(op, t, a, b), got = ptort_vop1(op, t, a, b);
	uint64_t ref = ptort_vop1_ref(op, t, a, b);
	check_count(2);
	if (got != want && check_failed())
		printf("FAIL vop1 %s %s(0x%llx, 0x%llx) = 0x%llx, MPFR 0x%llx\n", tn(t),
		       ptort_vop_name(op), (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)got, (unsigned long long)want);
	if (ref != want && check_failed())
		printf("FAIL ref  %s %s(0x%llx, 0x%llx) = 0x%llx, MPFR 0x%llx\n", tn(t),
		       ptort_vop_name(op), (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)ref, (unsigned long long)want);
}

static const ptort_vop unary_ops[] = {PTORT_VOP_EXP, PTORT_VOP_LN, PTORT_VOP_SQRT, PTORT_VOP_RSQRT,
				      PTORT_VOP_RECIP};
static const ptort_vop binary_ops[] = {PTORT_VOP_ADD,  PTORT_VOP_SUB, PTORT_VOP_MUL,
				       PTORT_VOP_DIV,  PTORT_VOP_FMOD, PTORT_VOP_REM,
				       PTORT_VOP_PRELU, PTORT_VOP_EXPDIF};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* every 16-bit input of every correctly rounded unary op */
static void unary16(ptort_type t)
{
	unsigned k;
	uint64_t x;
	for (k = 0; k < NELEM(unary_ops); k++)
		for (x = 0; x < 0x10000; x++)
			check_one(unary_ops[k], t, x, 0);
}

static const uint32_t edge32[] = {
	0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00001u,
	0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00800000u, 0x00800001u, 0x3F800000u,
	0xBF800000u, 0x3F800001u, 0x3F7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x40000000u, 0x40800000u,
	/* exp: overflow (88.72284), underflow to subnormals and to 0 (-103.97), tiny x */
	0x42B17217u, 0x42B17218u, 0x42B17216u, 0xC2AEAC4Fu, 0xC2AEAC50u, 0xC2CFF1B4u, 0xC2CFF1B5u,
	0xC2CE8ECFu, 0xC2CE8ED0u, 0x33000000u, 0x33800000u, 0xB3000000u, 0xB3800000u, 0x32FFFFFFu,
	0x3C000000u, 0xBC000000u, 0x3F317218u, 0xC2C80000u, 0x42C80000u, 0xC3000000u, 0x43000000u,
	/* ln: near 1, at powers of two, sqrt(2) bucket edges */
	0x3F800002u, 0x3F7FFFFEu, 0x3FB504F3u, 0x3FB504F4u, 0x3F3504F3u, 0x3F3504F4u, 0x3F810000u,
	0x3F7F0000u, 0x3F808000u, 0x3F7F8000u, 0x4B000000u, 0x00000002u, 0x00400000u,
	/* rsqrt/recip/sqrt: powers of four, near the range ends */
	0x3E800000u, 0x40800001u, 0x7E800000u, 0x7F000000u, 0x00000004u, 0x00200000u, 0x3FFFFFFFu};

/* a random f32 with the exponent field in [lo, hi] */
static uint32_t rand_exp(unsigned lo, unsigned hi)
{
	uint64_t r = next();
	return (uint32_t)(r & 0x807FFFFFu) | (uint32_t)(lo + (r >> 40) % (hi - lo + 1)) << 23;
}

static void unary32(unsigned long n)
{
	unsigned k;
	unsigned long i;
	for (k = 0; k < NELEM(unary_ops); k++) {
		ptort_vop op = unary_ops[k];
		for (i = 0; i < NELEM(edge32); i++) {
			check_one(op, PTORT_F32, edge32[i], 0);
			check_one(op, PTORT_F32, edge32[i] ^ 0x80000000u, 0);
		}
		for (i = 0; i < n; i++) {
			uint32_t x = (uint32_t)next();
			check_one(op, PTORT_F32, x, 0);
			/* exp: |x| in [2^-30, 128); ln: around 1 and anywhere positive */
			if (op == PTORT_VOP_EXP)
				check_one(op, PTORT_F32, rand_exp(97, 133), 0);
			if (op == PTORT_VOP_LN) {
				check_one(op, PTORT_F32, rand_exp(125, 127) & 0x7FFFFFFFu, 0);
				check_one(op, PTORT_F32, (0x3F800000u + (uint32_t)(next() % 0x20000) -
							  0x10000), 0);
			}
		}
	}
}

static const uint16_t edge16[] = {0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8001, 0x03FF,
				  0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x3C01, 0x3BFF, 0x0200,
				  0x7F80, 0xFF80, 0x7FC0, 0x0080, 0x007F, 0x3F80, 0x7F7F, 0xFF7F};

static uint64_t rand_t(ptort_type t)
{
	uint64_t r = next();
	return t == PTORT_F32 ? (uint32_t)r : (uint16_t)r;
}

/* a value near `a`: same sign and exponent or the opposite sign (cancellation) */
static uint64_t near(ptort_type t, uint64_t a)
{
	uint64_t r = next(), d = r % 7;
	uint64_t sb = t == PTORT_F32 ? 0x80000000u : 0x8000u;
	uint64_t b = (r & 0x100) ? a + d : a - d;
	if (r & 0x200)
		b ^= sb;
	return b & (t == PTORT_F32 ? 0xFFFFFFFFu : 0xFFFFu);
}

/* a value with a small exponent (subnormal products and quotients) */
static uint64_t small(ptort_type t)
{
	uint64_t r = next();
	if (t == PTORT_F32)
		return rand_exp(1, 90);
	if (t == PTORT_BF16)
		return (r & 0x807F) | ((1 + (r >> 20) % 90) << 7);
	return (r & 0x83FF) | ((r >> 20) % 12) << 10;
}

static void binary(ptort_type t, unsigned long n)
{
	unsigned k;
	unsigned long i, j;
	for (k = 0; k < NELEM(binary_ops); k++) {
		ptort_vop op = binary_ops[k];
		if (t == PTORT_F32) {
			for (i = 0; i < NELEM(edge32); i++)
				for (j = 0; j < NELEM(edge32); j += 3)
					check_one(op, t, edge32[i], edge32[j]);
		} else {
			for (i = 0; i < NELEM(edge16); i++)
				for (j = 0; j < NELEM(edge16); j++)
					check_one(op, t, edge16[i], edge16[j]);
		}
		for (i = 0; i < n; i++) {
			uint64_t a = rand_t(t);
			check_one(op, t, a, rand_t(t));
			check_one(op, t, a, near(t, a));
			check_one(op, t, small(t), small(t));
			check_one(op, t, small(t), rand_t(t));
		}
	}
}

/* ---- simple ops, compares, integers: C models ---- */

static uint64_t key(ptort_type t, uint64_t x)
{
	unsigned b = ptort_type_bits(t);
	uint64_t sb = (uint64_t)1 << (b - 1), m = b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
	return (x & sb) ? (~x & m) : (x | sb);
}

static void float_simple(ptort_type t, uint64_t a, uint64_t b)
{
	double da = to_d(t, a), db = to_d(t, b);
	uint64_t sb = t == PTORT_F32 ? 0x80000000u : 0x8000u, want;
	int c;
	/* max/min: NaN if either is NaN, -0 < +0 */
	want = (isnan(da) || isnan(db)) ? qnan(t) : key(t, a) > key(t, b) ? a : b;
	CHECK(ptort_vop1(PTORT_VOP_MAX, t, a, b) == want, "%s max 0x%llx 0x%llx", tn(t),
	      (unsigned long long)a, (unsigned long long)b);
	want = (isnan(da) || isnan(db)) ? qnan(t) : key(t, a) < key(t, b) ? a : b;
	CHECK(ptort_vop1(PTORT_VOP_MIN, t, a, b) == want, "%s min 0x%llx 0x%llx", tn(t),
	      (unsigned long long)a, (unsigned long long)b);
	CHECK(ptort_vop1(PTORT_VOP_ABS, t, a, 0) == (a & ~sb));
	CHECK(ptort_vop1(PTORT_VOP_NEG, t, a, 0) == (a ^ sb));
	CHECK(ptort_vop1(PTORT_VOP_MOV, t, a, 0) == a);
	want = (!isnan(da) && (a & sb)) ? 0 : a;
	CHECK(ptort_vop1(PTORT_VOP_RELU, t, a, 0) == want, "%s relu 0x%llx", tn(t),
	      (unsigned long long)a);
	/* compares: C's double comparisons are IEEE's */
	c = ptort_cmp1(PTORT_CMP_EQ, t, a, b) == (da == db) &&
	    ptort_cmp1(PTORT_CMP_NE, t, a, b) == (da != db) &&
	    ptort_cmp1(PTORT_CMP_LT, t, a, b) == (da < db) &&
	    ptort_cmp1(PTORT_CMP_LE, t, a, b) == (da <= db) &&
	    ptort_cmp1(PTORT_CMP_GT, t, a, b) == (da > db) &&
	    ptort_cmp1(PTORT_CMP_GE, t, a, b) == (da >= db);
	CHECK(c, "%s compare 0x%llx 0x%llx", tn(t), (unsigned long long)a, (unsigned long long)b);
}

static void floats_simple(void)
{
	static const ptort_type ts[] = {PTORT_F32, PTORT_F16, PTORT_BF16};
	unsigned k, i, j;
	unsigned long r;
	for (k = 0; k < 3; k++) {
		for (i = 0; i < NELEM(edge16); i++)
			for (j = 0; j < NELEM(edge16); j++) {
				uint64_t a = edge16[i], b = edge16[j];
				if (ts[k] == PTORT_F32)
					a = edge32[i], b = edge32[j];
				float_simple(ts[k], a, b);
			}
		for (r = 0; r < 20000; r++)
			float_simple(ts[k], rand_t(ts[k]), rand_t(ts[k]));
		if (ts[k] != PTORT_F32) /* every 16-bit input (against a random second operand) */
			for (r = 0; r < 0x10000; r++)
				float_simple(ts[k], r, rand_t(ts[k]));
	}
}

static int64_t sx(uint64_t x, unsigned b)
{
	if (b == 64)
		return (int64_t)x;
	x &= ((uint64_t)1 << b) - 1;
	return (x >> (b - 1)) ? (int64_t)(x | ~(((uint64_t)1 << b) - 1)) : (int64_t)x;
}

/* the integer ops on one pair, modelled with __int128-free C on int64/uint64 */
static void int_one(ptort_type t, uint64_t a, uint64_t b)
{
	unsigned bits = ptort_type_bits(t);
	int sg = ptort_type_is_signed_int(t);
	uint64_t m = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	int64_t sa, sb;
	uint64_t want;
	a &= m, b &= m;
	sa = sx(a, bits), sb = sx(b, bits);
#define IWANT(op, w)                                                                           \
	do {                                                                                   \
		uint64_t g_ = ptort_vop1(PTORT_VOP_##op, t, a, b);                             \
		CHECK(g_ == ((w) & m), "%s %s(0x%llx, 0x%llx) = 0x%llx", tn(t), #op,           \
		      (unsigned long long)a, (unsigned long long)b, (unsigned long long)g_);    \
	} while (0)
	IWANT(ADD, a + b);
	IWANT(SUB, a - b);
	IWANT(MUL, a * b);
	IWANT(AND, a & b);
	IWANT(OR, a | b);
	IWANT(XOR, a ^ b);
	IWANT(NOT, ~a);
	IWANT(NEG, 0 - a);
	IWANT(MOV, a);
	if (sg) {
		IWANT(MAX, (uint64_t)(sa > sb ? sa : sb));
		IWANT(MIN, (uint64_t)(sa < sb ? sa : sb));
		IWANT(ABS, sa < 0 ? 0 - a : a);
		IWANT(RELU, sa < 0 ? 0 : a);
		if (b == 0)
			want = m;
		else if (sb == -1)
			want = 0 - a; /* MIN / -1 wraps to MIN */
		else
			want = (uint64_t)(sa / sb);
		IWANT(DIV, want);
		IWANT(SHR, b >= bits ? (sa < 0 ? m : 0) : (uint64_t)(sa < 0 ? ~(~(uint64_t)sa >> b) : (uint64_t)sa >> b));
		if (b == 0) {
			IWANT(FMOD, a);
			IWANT(REM, a);
		} else if (sb == -1) {
			IWANT(FMOD, 0);
			IWANT(REM, 0);
		} else {
			int64_t q = sa / sb, rr = sa - q * sb; /* C99: truncated */
			IWANT(FMOD, (uint64_t)rr);
			IWANT(REM, (uint64_t)(rr && ((rr < 0) != (sb < 0)) ? rr + sb : rr));
		}
	} else {
		IWANT(MAX, a > b ? a : b);
		IWANT(MIN, a < b ? a : b);
		IWANT(ABS, a);
		IWANT(RELU, a);
		IWANT(DIV, b ? a / b : m);
		IWANT(SHR, b >= bits ? 0 : a >> b);
		IWANT(FMOD, b ? a % b : a);
		IWANT(REM, b ? a % b : a);
	}
	IWANT(SHL, b >= bits ? 0 : a << b);
	want = ptort_vop1(PTORT_VOP_DIV, t, 1, a);
	IWANT(RECIP, want);
	CHECK(ptort_cmp1(PTORT_CMP_LT, t, a, b) == (sg ? sa < sb : a < b));
	CHECK(ptort_cmp1(PTORT_CMP_GE, t, a, b) == (sg ? sa >= sb : a >= b));
	CHECK(ptort_cmp1(PTORT_CMP_EQ, t, a, b) == (a == b));
	CHECK(ptort_cmp1(PTORT_CMP_NE, t, a, b) == (a != b));
	CHECK(ptort_cmp1(PTORT_CMP_LE, t, a, b) == (sg ? sa <= sb : a <= b));
	CHECK(ptort_cmp1(PTORT_CMP_GT, t, a, b) == (sg ? sa > sb : a > b));
#undef IWANT
}

static void ints(void)
{
	static const ptort_type ts[] = {PTORT_I8,  PTORT_I16, PTORT_I32, PTORT_I64,
					PTORT_U8,  PTORT_U16, PTORT_U32, PTORT_U64};
	static const uint64_t edge[] = {0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 0x7F, 0x80, 0xFF,
					0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu,
					UINT64_MAX, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull};
	unsigned k, i, j;
	for (k = 0; k < NELEM(ts); k++) {
		for (i = 0; i < NELEM(edge); i++)
			for (j = 0; j < NELEM(edge); j++)
				int_one(ts[k], edge[i], edge[j]);
		for (i = 0; i < 20000; i++)
			int_one(ts[k], next(), (i & 1) ? next() % 70 : next());
	}
	/* what the ops are not defined on */
	CHECK(!ptort_vop_check(PTORT_VOP_EXP, PTORT_I32));
	CHECK(!ptort_vop_check(PTORT_VOP_AND, PTORT_F32));
	CHECK(!ptort_vop_check(PTORT_VOP_ADD, PTORT_F8E4M3FN));
	CHECK(!ptort_vop_check(PTORT_VOP_MOV, PTORT_I4));
	CHECK(ptort_vop_check(PTORT_VOP_MOV, PTORT_HIF8));
	CHECK(ptort_vop1(PTORT_VOP_EXP, PTORT_I32, 1, 0) == 0);
	CHECK(!strcmp(ptort_vop_name(PTORT_VOP_RSQRT), "rsqrt") && ptort_vop_arity(PTORT_VOP_SHL) == 2);
	CHECK(!strcmp(ptort_cmp_name(PTORT_CMP_GE), "ge"));
}

/* ---- the generated constants, against MPFR ---- */

static double mpfr_dbl(mpfr_t x)
{
	return mpfr_get_d(x, MPFR_RNDN);
}

static void tables(void)
{
	mpfr_t x, y;
	int j;
	mpfr_inits2(256, x, y, (mpfr_ptr)0);
	/* ln 2 * 2^128 truncated */
	mpfr_const_log2(x, MPFR_RNDN);
	mpfr_mul_2ui(x, x, 64, MPFR_RNDN);
	mpfr_frac(y, x, MPFR_RNDN); /* ln2 * 2^64 = 0xB172.. . frac */
	CHECK(mpfr_get_ui(x, MPFR_RNDZ) == 0 || 1); /* (the integer part checked below) */
	{
		mpfr_t w;
		mpfr_init2(w, 256);
		mpfr_const_log2(w, MPFR_RNDN);
		mpfr_mul_2ui(w, w, 128, MPFR_RNDN);
		mpfr_floor(w, w);
		/* w = hi * 2^64 + lo */
		mpfr_t hi;
		mpfr_init2(hi, 256);
		mpfr_div_2ui(hi, w, 64, MPFR_RNDN);
		mpfr_floor(hi, hi);
		CHECK(mpfr_get_uj(hi, MPFR_RNDN) == ptort_vop_ln2_fx[1], "ln2 high word");
		mpfr_mul_2ui(hi, hi, 64, MPFR_RNDN);
		mpfr_sub(w, w, hi, MPFR_RNDN);
		CHECK(mpfr_get_uj(w, MPFR_RNDN) == ptort_vop_ln2_fx[0], "ln2 low word");
		mpfr_clears(w, hi, (mpfr_ptr)0);
	}
	for (j = 0; j < 64; j++) {
		mpfr_set_si(x, j, MPFR_RNDN);
		mpfr_div_ui(x, x, 64, MPFR_RNDN);
		mpfr_ui_pow(x, 2, x, MPFR_RNDN);
		CHECK(mpfr_dbl(x) == ptort_vop_exp_tab[j], "2^(%d/64)", j);
	}
	/* exp constants */
	mpfr_const_log2(x, MPFR_RNDN);
	mpfr_ui_div(y, 64, x, MPFR_RNDN);
	CHECK(mpfr_dbl(y) == ptort_vop_exp_c[0], "64/ln2");
	mpfr_div_ui(y, x, 64, MPFR_RNDN);
	CHECK(ptort_vop_exp_c[1] == ldexp(floor(ldexp(ptort_vop_exp_c[1], 45)), -45), "ln2/64 hi: 2^-45 grid");
	mpfr_sub_d(y, y, ptort_vop_exp_c[1], MPFR_RNDN);
	CHECK(mpfr_dbl(y) == ptort_vop_exp_c[2], "ln2/64 lo");
	CHECK(fabs(mpfr_get_d(y, MPFR_RNDN)) < 0x1p-46, "ln2/64 hi is the nearest on its grid");
	{
		double f = 1;
		for (j = 2; j <= 6; j++) {
			f *= j;
			mpfr_set_ui(y, 1, MPFR_RNDN);
			mpfr_div_d(y, y, f, MPFR_RNDN);
			CHECK(mpfr_dbl(y) == ptort_vop_exp_c[j + 1], "1/%d!", j);
		}
	}
	/* ln: r_i = 1/(1 + i/128) to 9 bits, -ln r_i as hi + lo */
	for (j = -37; j <= 53; j++) {
		mpfr_t r9;
		double r = ptort_vop_ln_r[j + 37];
		mpfr_init2(r9, 9);
		mpfr_set_si(y, j, MPFR_RNDN);
		mpfr_div_ui(y, y, 128, MPFR_RNDN);
		mpfr_add_ui(y, y, 1, MPFR_RNDN);
		mpfr_ui_div(r9, 1, y, MPFR_RNDN);
		CHECK(j == 0 ? r == 1.0 : mpfr_get_d(r9, MPFR_RNDN) == r, "ln r_%d", j);
		mpfr_set_d(y, r, MPFR_RNDN);
		mpfr_log(y, y, MPFR_RNDN);
		mpfr_neg(y, y, MPFR_RNDN);
		CHECK(mpfr_dbl(y) == ptort_vop_ln_hi[j + 37], "-ln r_%d hi", j);
		mpfr_sub_d(y, y, ptort_vop_ln_hi[j + 37], MPFR_RNDN);
		CHECK(mpfr_dbl(y) == ptort_vop_ln_lo[j + 37], "-ln r_%d lo", j);
		mpfr_clear(r9);
	}
	CHECK(ptort_vop_ln_c[0] == ldexp(floor(ldexp(ptort_vop_ln_c[0], 44)), -44), "ln2 hi: 44 bits");
	mpfr_const_log2(y, MPFR_RNDN);
	mpfr_sub_d(y, y, ptort_vop_ln_c[0], MPFR_RNDN);
	CHECK(mpfr_dbl(y) == ptort_vop_ln_c[1], "ln2 lo");
	for (j = 2; j <= 8; j++)
		CHECK(ptort_vop_ln_c[j] == ((j % 2) ? 1.0 : -1.0) / j, "log1p c%d", j);
	mpfr_clears(x, y, (mpfr_ptr)0);
}

/* the rounding test of the double paths */
static void round_checked(void)
{
	uint64_t b = 0;
	/* 1 + 2^-24 is the f32 midpoint between 1 and 1 + 2^-23: undecided at any tolerance */
	CHECK(!ptort_vop_round_checked(PTORT_F32, 1.0 + 0x1p-24, 0, &b));
	CHECK(ptort_vop_round_checked(PTORT_F32, 1.0 + 0x1p-24 + 0x1p-40, 16, &b) && b == 0x3F800001u);
	CHECK(!ptort_vop_round_checked(PTORT_F32, 1.0 + 0x1p-24 + 0x1p-50, 16, &b));
	CHECK(ptort_vop_round_checked(PTORT_F16, 0x1p-25 * 1.5, 16, &b) && b == 0x0001);
	CHECK(ptort_vop_round_checked(PTORT_F16, 65520.0 * 1.001, 16, &b) && b == 0x7C00);
	CHECK(ptort_vop_round_checked(PTORT_BF16, -0x1p-140, 16, &b) && b == 0x8000);
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	if (!ptort_vop_host_fp_ok())
		printf("vop_num: note: host double arithmetic is not round-to-nearest; "
		       "ptort_vop1 is the reference here\n");
	tables();
	round_checked();
	unary16(PTORT_F16);
	unary16(PTORT_BF16);
	unary32(20000 * scale);
	binary(PTORT_F32, 30000 * scale);
	binary(PTORT_F16, 30000 * scale);
	binary(PTORT_BF16, 30000 * scale);
	floats_simple();
	ints();
	return check_report("vop_num");
}
#endif
