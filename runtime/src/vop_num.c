/* vop_num.c: the element kernels of the vector operations (docs/semantics.md §7,
 * docs/vector.md).
 *
 * The reference (ptort_vop1_ref) is SoftFloat-shaped: decode (cvt.c's ptort_decode),
 * exact integer arithmetic on the significands (add/sub/mul/div/sqrt/rsqrt), or a
 * 128-bit fixed-point series with an error bound (exp/ln), then one shared
 * round-and-pack to the format (RINT, gradual underflow, overflow to inf). No host
 * float is involved.
 *
 * ptort_vop1 takes, for exp, ln and rsqrt only, a faster double-precision path with a
 * proven error bound (comments below) and a rounding test: when the bound leaves the
 * rounding undecided it returns the reference instead, so both give the same bits.
 * The double path runs only while the host's double arithmetic is IEEE
 * round-to-nearest (ptort_vop_host_fp_ok); otherwise ptort_vop1 is the reference. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cvt_internal.h"
#include "mem_internal.h"
#include "ptort.h"
#include "vop_internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
	defined(__SSE2__)
#include <immintrin.h>
#define VOP_X86 1
#else
#include <fenv.h>
#endif

/* ---- names and the op table -------------------------------------------------- */

static const struct {
	const char *name;
	int arity;
} vop_info[PTORT_VOP_COUNT] = {
#define VOP_ROW_(id, name, arity) [PTORT_VOP_##id] = {name, arity},
	PTORT_VOP_LIST(VOP_ROW_)
#undef VOP_ROW_
};

static const char *const cmp_names[PTORT_CMP_COUNT] = {
#define CMP_ROW_(id, name) [PTORT_CMP_##id] = name,
	PTORT_CMP_LIST(CMP_ROW_)
#undef CMP_ROW_
};

const char *ptort_vop_name(ptort_vop op)
{
	return (unsigned)op < PTORT_VOP_COUNT ? vop_info[op].name : "?";
}

int ptort_vop_arity(ptort_vop op)
{
	return (unsigned)op < PTORT_VOP_COUNT ? vop_info[op].arity : 0;
}

const char *ptort_cmp_name(ptort_cmp c)
{
	return (unsigned)c < PTORT_CMP_COUNT ? cmp_names[c] : "?";
}

static int is_vfloat(ptort_type t)
{
	return t == PTORT_F32 || t == PTORT_F16 || t == PTORT_BF16;
}

static int is_vint(ptort_type t)
{
	switch (t) {
	case PTORT_I8: case PTORT_I16: case PTORT_I32: case PTORT_I64:
	case PTORT_U8: case PTORT_U16: case PTORT_U32: case PTORT_U64:
		return 1;
	default:
		return 0;
	}
}

int ptort_vop_check(ptort_vop op, ptort_type t)
{
	if ((unsigned)t >= PTORT_TYPE_COUNT)
		return 0;
	switch (op) {
	case PTORT_VOP_ADD: case PTORT_VOP_SUB: case PTORT_VOP_MUL: case PTORT_VOP_DIV:
	case PTORT_VOP_MAX: case PTORT_VOP_MIN: case PTORT_VOP_RECIP: case PTORT_VOP_ABS:
	case PTORT_VOP_NEG: case PTORT_VOP_RELU: case PTORT_VOP_FMOD: case PTORT_VOP_REM:
		return is_vfloat(t) || is_vint(t);
	case PTORT_VOP_EXP: case PTORT_VOP_LN: case PTORT_VOP_SQRT: case PTORT_VOP_RSQRT:
	case PTORT_VOP_PRELU: case PTORT_VOP_EXPDIF:
		return is_vfloat(t);
	case PTORT_VOP_AND: case PTORT_VOP_OR: case PTORT_VOP_XOR: case PTORT_VOP_NOT:
	case PTORT_VOP_SHL: case PTORT_VOP_SHR:
		return is_vint(t);
	case PTORT_VOP_MOV:
		return ptort_type_bits(t) >= 8;
	default:
		return 0;
	}
}

/* ---- small integer helpers --------------------------------------------------- */

static unsigned msb64(uint64_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
	return 63u - (unsigned)__builtin_clzll(x);
#else
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
#endif
}

static uint64_t lowmask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
}

/* 64 x 64 -> 128 bits */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
	*lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* ---- formats ------------------------------------------------------------------ */

/* The float formats as data (cvt_format.c's rows) and double, for the rounding test. */
struct vfmt {
	unsigned bits, mbits;
	int bias;
	uint64_t emask, inf, qnan;
};

static int vfmt_of(ptort_type t, struct vfmt *f)
{
	const struct ptort_fmt *p = ptort_fmt_get(t);
	if (!p || !is_vfloat(t))
		return -1;
	f->bits = p->bits;
	f->mbits = p->mbits;
	f->bias = p->bias;
	f->emask = lowmask(p->ebits);
	f->inf = f->emask << p->mbits;
	f->qnan = p->qnan;
	return 0;
}

uint64_t ptort_vop_qnan(ptort_type t)
{
	struct vfmt f;
	return vfmt_of(t, &f) ? 0 : f.qnan;
}

static uint64_t signbit_of(const struct vfmt *f)
{
	return (uint64_t)1 << (f->bits - 1);
}

/* Rounds (-1)^sign * (sig + s) * 2^exp to the format with RINT, where sig != 0 and
 * 0 <= s < 1 is nonzero exactly when `sticky` is set. Gradual underflow; overflow
 * gives inf. The one rounding of every float result of the reference. */
static uint64_t round_pack(const struct vfmt *f, int sign, uint64_t sig, int exp, int sticky)
{
	unsigned p = msb64(sig), sh;
	int top, q, emin = 1 - f->bias;
	uint64_t kept, rem, half, out, sb = sign ? signbit_of(f) : 0;
	/* normalise so the sticky lies below the guard bit: msb at bit 62 */
	if (p > 62) {
		sticky |= (sig & 1) != 0;
		sig >>= 1, exp += 1, p = 62;
	} else if (p < 62) {
		sig <<= 62 - p, exp -= (int)(62 - p), p = 62;
	}
	top = exp + 62;					/* value in [2^top, 2^(top+1)) */
	q = (top < emin ? emin : top) - (int)f->mbits;	/* exponent of the last kept bit */
	if (q - exp >= 64)
		return sb;				/* below half the smallest subnormal */
	sh = (unsigned)(q - exp);			/* >= 62 - mbits >= 38 */
	kept = sig >> sh;
	rem = sig & lowmask(sh);
	half = (uint64_t)1 << (sh - 1);
	if (rem > half || (rem == half && (sticky || (kept & 1))))
		kept++;
	if (top < emin)
		out = kept; /* subnormal (kept == 2^mbits is the smallest normal) */
	else
		out = ((uint64_t)(q + (int)f->mbits + f->bias - 1) << f->mbits) + kept;
	if (out >= f->inf)
		out = f->inf;
	return sb | out;
}

/* ---- the exact float operations -------------------------------------------------- */

struct fval {
	struct ptort_val v;
	int nan, inf, zero;
};

/* Decodes an IEEE-like float of format f (what ptort_decode does for these formats,
 * without its format lookup: this is every float op's first step). */
static void fdecf(const struct vfmt *f, uint64_t x, struct fval *a)
{
	uint64_t E = (x >> f->mbits) & f->emask, M = x & lowmask(f->mbits);
	a->v.sign = (int)(x >> (f->bits - 1)) & 1;
	a->nan = E == f->emask && M;
	a->inf = E == f->emask && !M;
	a->zero = !E && !M;
	a->v.cls = a->nan ? VAL_NAN : a->inf ? VAL_INF : a->zero ? VAL_ZERO : VAL_FINITE;
	a->v.sig = E ? M | ((uint64_t)1 << f->mbits) : M;
	a->v.exp = (E ? (int)E : 1) - f->bias - (int)f->mbits;
}

static void fdec(ptort_type t, uint64_t x, struct fval *a)
{
	struct vfmt f;
	if (vfmt_of(t, &f)) {
		memset(a, 0, sizeof *a);
		a->zero = 1;
		return;
	}
	fdecf(&f, x & lowmask(f.bits), a);
}

static uint64_t f_inf(const struct vfmt *f, int sign)
{
	return (sign ? signbit_of(f) : 0) | f->inf;
}

static uint64_t f_zero(const struct vfmt *f, int sign)
{
	return sign ? signbit_of(f) : 0;
}

/* a + (-1)^negb * b */
static uint64_t f_add(const struct vfmt *f, uint64_t xa, uint64_t xb, int negb)
{
	struct fval a, b;
	uint64_t A, B, s;
	int ea, eb, sa, sb, stB = 0, sign;
	unsigned d;
	fdecf(f, xa, &a);
	fdecf(f, xb, &b);
	if (a.nan || b.nan)
		return f->qnan;
	sa = a.v.sign, sb = b.v.sign ^ negb;
	if (a.inf || b.inf) {
		if (a.inf && b.inf && sa != sb)
			return f->qnan;
		return f_inf(f, a.inf ? sa : sb);
	}
	if (a.zero && b.zero)
		return f_zero(f, sa & sb);
	if (a.zero)
		return round_pack(f, sb, b.v.sig, b.v.exp, 0);
	if (b.zero)
		return round_pack(f, sa, a.v.sig, a.v.exp, 0);
	ea = a.v.exp, eb = b.v.exp;
	A = a.v.sig, B = b.v.sig;
	if (ea < eb) { /* a: the operand with the larger exponent (and magnitude unless equal) */
		uint64_t tu = A;
		int ti = ea;
		A = B, B = tu, ea = eb, eb = ti;
		ti = sa, sa = sb, sb = ti;
	}
	d = (unsigned)(ea - eb);
	A <<= 38; /* significands have at most 24 bits: A < 2^62 */
	if (d <= 38) {
		B <<= 38 - d;
	} else if (d - 38 >= 64) {
		stB = 1, B = 0;
	} else {
		stB = (B & lowmask(d - 38)) != 0;
		B >>= d - 38;
	}
	if (sa == sb) {
		s = A + B, sign = sa;
	} else if (A >= B) { /* with stB, |b| < |a| by far: take one unit off, keep sticky */
		s = A - B - (uint64_t)stB, sign = sa;
	} else {
		s = B - A, sign = sb;
	}
	if (!s && !stB)
		return 0; /* exact cancellation: +0 */
	return round_pack(f, sign, s, ea - 38, stB);
}

static uint64_t f_mul(const struct vfmt *f, uint64_t xa, uint64_t xb)
{
	struct fval a, b;
	int sign;
	fdecf(f, xa, &a);
	fdecf(f, xb, &b);
	if (a.nan || b.nan)
		return f->qnan;
	sign = a.v.sign ^ b.v.sign;
	if (a.inf || b.inf)
		return (a.zero || b.zero) ? f->qnan : f_inf(f, sign);
	if (a.zero || b.zero)
		return f_zero(f, sign);
	return round_pack(f, sign, a.v.sig * b.v.sig, a.v.exp + b.v.exp, 0);
}

static uint64_t f_div(const struct vfmt *f, uint64_t xa, uint64_t xb)
{
	struct fval a, b;
	int sign;
	unsigned sh;
	uint64_t n;
	fdecf(f, xa, &a);
	fdecf(f, xb, &b);
	if (a.nan || b.nan)
		return f->qnan;
	sign = a.v.sign ^ b.v.sign;
	if (a.inf)
		return b.inf ? f->qnan : f_inf(f, sign);
	if (b.inf)
		return f_zero(f, sign);
	if (b.zero)
		return a.zero ? f->qnan : f_inf(f, sign);
	if (a.zero)
		return f_zero(f, sign);
	sh = 62 - msb64(a.v.sig); /* quotient >= 2^62 / 2^24: at least 38 bits */
	n = a.v.sig << sh;
	return round_pack(f, sign, n / b.v.sig, a.v.exp - (int)sh - b.v.exp, n % b.v.sig != 0);
}

static uint64_t isqrt64(uint64_t n, uint64_t *rem)
{
	uint64_t r = 0, bit = (uint64_t)1 << 62;
	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	*rem = n;
	return r;
}

/* a finite positive value as sig * 2^exp with exp even */
static void even_exp(const struct ptort_val *v, uint64_t *sig, int *exp)
{
	*sig = v->sig, *exp = v->exp;
	if (*exp & 1)
		*sig <<= 1, *exp -= 1;
}

static uint64_t f_sqrt(const struct vfmt *f, uint64_t xa)
{
	struct fval a;
	uint64_t m, r, rem;
	int e;
	unsigned k;
	fdecf(f, xa, &a);
	if (a.nan || (a.v.sign && !a.zero))
		return f->qnan;
	if (a.zero || a.inf)
		return xa; /* sqrt(+-0) = +-0, sqrt(+inf) = +inf */
	even_exp(&a.v, &m, &e);
	k = (62 - msb64(m)) / 2; /* m << 2k < 2^63: a root of at least 31 bits */
	r = isqrt64(m << (2 * k), &rem);
	return round_pack(f, 0, r, e / 2 - (int)k, rem != 0);
}

/* Compares q*q*m with 2^80 (q < 2^40, m < 2^26): -1, 0, 1. */
static int rsq_cmp(uint64_t q, uint64_t m)
{
	uint64_t h, l, h2, l2, hh;
	mul64(q, q, &h, &l); /* q^2 < 2^80 */
	mul64(l, m, &h2, &l2);
	hh = h * m + h2; /* < 2^106 / 2^64: no overflow */
	if (hh != ((uint64_t)1 << 16))
		return hh < ((uint64_t)1 << 16) ? -1 : 1;
	return l2 ? 1 : 0;
}

/* 1/sqrt(x): q = floor(2^40 / sqrt(m)) bit by bit (q^2 * m <= 2^80), exact sticky. */
static uint64_t f_rsqrt(const struct vfmt *f, uint64_t xa)
{
	struct fval a;
	uint64_t m, q = 0;
	int e, i, c = 1;
	fdecf(f, xa, &a);
	if (a.nan || (a.v.sign && !a.zero))
		return f->qnan;
	if (a.zero)
		return f_inf(f, a.v.sign);
	if (a.inf)
		return 0;
	even_exp(&a.v, &m, &e); /* m < 2^26 */
	for (i = 39; i >= 0; i--) {
		uint64_t tq = q | ((uint64_t)1 << i);
		c = rsq_cmp(tq, m);
		if (c <= 0)
			q = tq;
		if (c == 0)
			break;
	}
	/* q >= 2^40 / 2^13 = 2^27; exact only when q*q*m == 2^80 */
	return round_pack(f, 0, q, -40 - e / 2, rsq_cmp(q, m) != 0);
}

/* fmod(a, b) = a - trunc(a/b) * b, always exact: the significand of a reduced modulo
 * that of b, 39 bits of a's exponent excess at a time. */
static uint64_t f_fmod(const struct vfmt *f, uint64_t xa, uint64_t xb)
{
	struct fval a, b;
	uint64_t r;
	int d;
	fdecf(f, xa, &a);
	fdecf(f, xb, &b);
	if (a.nan || b.nan || a.inf || b.zero)
		return f->qnan;
	if (a.zero || b.inf)
		return xa;
	d = a.v.exp - b.v.exp;
	if (d < 0) { /* |b| = (sig_b << -d) 2^exp_a: above |a| once the shift passes 2^40 */
		if (-d >= 40)
			return xa;
		r = a.v.sig % (b.v.sig << -d);
		d = 0;
		b.v.exp = a.v.exp;
	} else {
		r = a.v.sig % b.v.sig;
		while (d > 0) {
			int k = d < 39 ? d : 39;
			r = (r << k) % b.v.sig;
			d -= k;
		}
	}
	return r ? round_pack(f, a.v.sign, r, b.v.exp, 0) : f_zero(f, a.v.sign);
}

/* rem(a, b) = a - floor(a/b) * b: fmod, then + b (one rounding) when the signs differ;
 * a zero result takes b's sign */
static uint64_t f_rem(const struct vfmt *f, uint64_t xa, uint64_t xb)
{
	uint64_t r = f_fmod(f, xa, xb), sb = signbit_of(f);
	struct fval v;
	fdecf(f, r, &v);
	if (v.nan)
		return r;
	if (v.zero)
		return (xb & sb) | (r & ~sb);
	if ((r & sb) != (xb & sb))
		return f_add(f, r, xb, 0);
	return r;
}

/* prelu(a, b) = a > 0 ? a : a * b */
static uint64_t f_prelu(const struct vfmt *f, uint64_t xa, uint64_t xb)
{
	struct fval a;
	fdecf(f, xa, &a);
	if (!a.nan && !a.zero && !a.v.sign)
		return xa;
	return f_mul(f, xa, xb);
}

/* ---- 192-bit fixed point for exp and ln ------------------------------------------
 *
 * A value is w[2]:w[1]:w[0] (two's complement) / 2^128: 64 integer bits and 128
 * fraction bits. Products and quotients truncate (error below 2^-128 each). */
struct mw {
	uint64_t w[3];
};

static struct mw mw_int(uint64_t i)
{
	struct mw r = {{0, 0, i}};
	return r;
}

static struct mw mw_add(struct mw a, struct mw b)
{
	struct mw r;
	uint64_t c0, c1;
	r.w[0] = a.w[0] + b.w[0];
	c0 = r.w[0] < a.w[0];
	r.w[1] = a.w[1] + b.w[1];
	c1 = r.w[1] < a.w[1];
	r.w[1] += c0;
	c1 |= r.w[1] < c0;
	r.w[2] = a.w[2] + b.w[2] + c1;
	return r;
}

static struct mw mw_neg(struct mw a)
{
	struct mw one = {{1, 0, 0}};
	a.w[0] = ~a.w[0], a.w[1] = ~a.w[1], a.w[2] = ~a.w[2];
	return mw_add(a, one);
}

static struct mw mw_sub(struct mw a, struct mw b)
{
	return mw_add(a, mw_neg(b));
}

static int mw_isneg(struct mw a)
{
	return (int)(a.w[2] >> 63);
}

static int mw_cmp(struct mw a, struct mw b) /* unsigned */
{
	int i;
	for (i = 2; i >= 0; i--)
		if (a.w[i] != b.w[i])
			return a.w[i] < b.w[i] ? -1 : 1;
	return 0;
}

static int mw_iszero(struct mw a)
{
	return !(a.w[0] | a.w[1] | a.w[2]);
}

/* a * b for a, b >= 0: bits 128..319 of the 384-bit product */
static struct mw mw_mul(struct mw a, struct mw b)
{
	uint64_t p[6] = {0, 0, 0, 0, 0, 0};
	struct mw r;
	int i, j;
	for (i = 0; i < 3; i++) {
		uint64_t carry = 0;
		for (j = 0; j < 3; j++) {
			uint64_t hi, lo, s;
			mul64(a.w[i], b.w[j], &hi, &lo);
			s = p[i + j] + lo;
			hi += s < lo;
			s += carry;
			hi += s < carry;
			p[i + j] = s;
			carry = hi;
		}
		p[i + 3] += carry;
	}
	r.w[0] = p[2], r.w[1] = p[3], r.w[2] = p[4];
	return r;
}

/* a * k for a >= 0, k < 2^32 */
static struct mw mw_muls(struct mw a, uint32_t k)
{
	struct mw r;
	uint64_t carry = 0;
	int i;
	for (i = 0; i < 3; i++) {
		uint64_t hi, lo;
		mul64(a.w[i], k, &hi, &lo);
		lo += carry;
		hi += lo < carry;
		r.w[i] = lo;
		carry = hi;
	}
	return r;
}

/* floor(a / d) for a >= 0, 0 < d < 2^32, 32 bits at a time */
static struct mw mw_divs(struct mw a, uint32_t d)
{
	struct mw r;
	uint64_t rem = 0;
	int i;
	for (i = 5; i >= 0; i--) {
		uint64_t limb = (a.w[i / 2] >> (32 * (i & 1))) & 0xFFFFFFFFu, cur = (rem << 32) | limb;
		uint64_t qd = cur / d;
		rem = cur % d;
		if (i & 1)
			r.w[i / 2] = qd << 32;
		else
			r.w[i / 2] |= qd;
	}
	return r;
}

static struct mw mw_shl1(struct mw a)
{
	a.w[2] = (a.w[2] << 1) | (a.w[1] >> 63);
	a.w[1] = (a.w[1] << 1) | (a.w[0] >> 63);
	a.w[0] <<= 1;
	return a;
}

/* sig * 2^e exactly, for 2^-128 <= granularity and value < 2^63 */
static struct mw mw_val(uint64_t sig, int e)
{
	struct mw r = {{0, 0, 0}};
	int pos = e + 128; /* bit position of sig's lsb */
	int i;
	for (i = 0; i < 64; i++)
		if ((sig >> i) & 1) {
			int b = pos + i;
			r.w[b / 64] |= (uint64_t)1 << (b % 64);
		}
	return r;
}

static struct mw mw_ln2(void)
{
	struct mw r = {{ptort_vop_ln2_fx[0], ptort_vop_ln2_fx[1], 0}};
	return r;
}

/* Rounds w * 2^(k - 128) (w >= 0, not zero) to the format: the rounding of w itself
 * when w - err and w + err round alike (err in units of w's last bit). */
static uint64_t mw_round1(const struct vfmt *f, int sign, struct mw w, int k)
{
	int p, i, sticky = 0;
	uint64_t sig = 0;
	for (p = 191; p >= 0; p--)
		if ((w.w[p / 64] >> (p % 64)) & 1)
			break;
	for (i = 0; i < 63 && p - i >= 0; i++)
		sig |= ((w.w[(p - i) / 64] >> ((p - i) % 64)) & 1) << (62 - i);
	for (i = p - 63; i >= 0; i--)
		if ((w.w[i / 64] >> (i % 64)) & 1) {
			sticky = 1;
			break;
		}
	return round_pack(f, sign, sig, k - 128 + p - 62, sticky);
}

static uint64_t mw_round(const struct vfmt *f, int sign, struct mw w, int k, uint64_t err)
{
	struct mw e = {{err, 0, 0}};
	uint64_t r = mw_round1(f, sign, w, k);
	if (mw_round1(f, sign, mw_sub(w, e), k) == r && mw_round1(f, sign, mw_add(w, e), k) == r)
		return r;
	/* undecided within 2^-112 relative: not seen for any input of the three formats
	 * (test/unit/vop, check-exhaustive); the best estimate stands */
	return r;
}

static double bitsd(uint64_t u);

/* the double value of a decoded finite x (exact: at most 25 significant bits, and
 * 2^exp a normal double for every exponent of the three formats) */
static double val_double(const struct ptort_val *v)
{
	double d = (double)v->sig * bitsd((uint64_t)(v->exp + 1023) << 52);
	return v->sign ? -d : d;
}

/* exp(x) for a finite x with 2^-64 <= |x| < 2^8: x = k ln2 + r, 0 <= r < ln2, and
 * exp(r) by its Taylor series. Error below 2^-117 relative (vector.md). */
static uint64_t exp_mw(const struct vfmt *f, const struct ptort_val *v)
{
	struct mw X = mw_val(v->sig, v->exp), L = mw_ln2(), R, term, sum;
	int k = (int)floor(val_double(v) * 1.4426950408889634); /* a guess, corrected below */
	unsigned n;
	if (v->sign)
		X = mw_neg(X);
	R = k >= 0 ? mw_sub(X, mw_muls(L, (uint32_t)k)) : mw_add(X, mw_muls(L, (uint32_t)-k));
	while (mw_isneg(R))
		R = mw_add(R, L), k--;
	while (mw_cmp(R, L) >= 0)
		R = mw_sub(R, L), k++;
	term = mw_int(1), sum = term;
	for (n = 1; n < 60 && !mw_iszero(term); n++) {
		term = mw_divs(mw_mul(term, R), n);
		sum = mw_add(sum, term);
	}
	return mw_round(f, 0, sum, k, (uint64_t)1 << 16);
}

/* ln(x) for a finite x > 0: x = M 2^E with M in [sqrt(2)/2, sqrt(2)],
 * ln M = 2 atanh(s), s = (M - 1)/(M + 1). Error below 2^-118 absolute. */
static uint64_t ln_mw(const struct vfmt *f, const struct ptort_val *v)
{
	unsigned p = msb64(v->sig);
	int E = v->exp + (int)p, i, neg, sign;
	struct mw M = mw_val(v->sig, -(int)p), one = mw_int(1), N, D, s = {{0, 0, 0}}, rem, s2,
		  term, sum, lnx, L = mw_ln2();
	struct mw sqrt2 = {{0, 0x6A09E667F3BCC908ull, 1}}; /* sqrt(2) truncated to 64 fraction bits */
	unsigned k;
	if (mw_cmp(M, sqrt2) > 0)
		M = mw_val(v->sig, -(int)p - 1), E++;
	neg = mw_cmp(M, one) < 0;
	N = neg ? mw_sub(one, M) : mw_sub(M, one);
	D = mw_add(M, one);
	/* s = N / D to 128 fraction bits, one bit at a time */
	rem = N;
	for (i = 127; i >= 0; i--) {
		rem = mw_shl1(rem);
		if (mw_cmp(rem, D) >= 0) {
			rem = mw_sub(rem, D);
			s.w[i / 64] |= (uint64_t)1 << (i % 64);
		}
	}
	s2 = mw_mul(s, s);
	term = s, sum = s;
	for (k = 3; k < 200 && !mw_iszero(term); k += 2) {
		term = mw_mul(term, s2);
		sum = mw_add(sum, mw_divs(term, k));
	}
	sum = mw_add(sum, sum);
	if (neg)
		sum = mw_neg(sum);
	lnx = E >= 0 ? mw_add(mw_muls(L, (uint32_t)E), sum) : mw_sub(sum, mw_muls(L, (uint32_t)-E));
	sign = mw_isneg(lnx);
	if (sign)
		lnx = mw_neg(lnx);
	if (mw_iszero(lnx))
		return 0; /* ln 1 = +0 */
	return mw_round(f, sign, lnx, 0, (uint64_t)1 << 16);
}

static uint64_t f_one(const struct vfmt *f)
{
	return (uint64_t)f->bias << f->mbits;
}

static uint64_t f_exp_ref(const struct vfmt *f, uint64_t xa)
{
	struct fval a;
	fdecf(f, xa, &a);
	if (a.nan)
		return f->qnan;
	if (a.inf)
		return a.v.sign ? 0 : f->inf;
	if (a.zero)
		return f_one(f);
	if (a.v.exp + (int)msb64(a.v.sig) < -64)
		return f_one(f); /* |x| < 2^-64: exp(x) rounds to 1 */
	if (a.v.exp + (int)msb64(a.v.sig) >= 8) /* |x| >= 256: far beyond the range */
		return a.v.sign ? 0 : f->inf;
	return exp_mw(f, &a.v);
}

static uint64_t f_ln_ref(const struct vfmt *f, uint64_t xa)
{
	struct fval a;
	fdecf(f, xa, &a);
	if (a.nan || (a.v.sign && !a.zero))
		return f->qnan;
	if (a.zero)
		return f_inf(f, 1);
	if (a.inf)
		return f->inf;
	return ln_mw(f, &a.v);
}

/* Total order key with -0 < +0 (not for NaN). */
static uint64_t fkey(const struct vfmt *f, uint64_t x)
{
	uint64_t sb = signbit_of(f);
	return (x & sb) ? (~x & lowmask(f->bits)) : (x | sb);
}

static uint64_t f_maxmin(const struct vfmt *f, uint64_t a, uint64_t b, int max)
{
	struct fval x, y;
	fdecf(f, a, &x);
	fdecf(f, b, &y);
	if (x.nan || y.nan)
		return f->qnan;
	return (fkey(f, a) > fkey(f, b)) == max ? a : b;
}

static int f_cmp(ptort_cmp c, ptort_type t, uint64_t a, uint64_t b)
{
	struct fval x, y;
	int lt, eq;
	fdec(t, a, &x);
	fdec(t, b, &y);
	if (x.nan || y.nan)
		return c == PTORT_CMP_NE;
	if (x.zero && y.zero) {
		eq = 1, lt = 0;
	} else {
		struct vfmt f;
		vfmt_of(t, &f);
		eq = a == b;
		lt = fkey(&f, a) < fkey(&f, b);
	}
	switch (c) {
	case PTORT_CMP_EQ: return eq;
	case PTORT_CMP_NE: return !eq;
	case PTORT_CMP_LT: return lt;
	case PTORT_CMP_LE: return lt || eq;
	case PTORT_CMP_GT: return !lt && !eq;
	case PTORT_CMP_GE: return !lt;
	default: return 0;
	}
}

static uint64_t f_op_ref(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	struct vfmt f;
	vfmt_of(t, &f);
	a &= lowmask(f.bits), b &= lowmask(f.bits);
	switch (op) {
	case PTORT_VOP_ADD: return f_add(&f, a, b, 0);
	case PTORT_VOP_SUB: return f_add(&f, a, b, 1);
	case PTORT_VOP_MUL: return f_mul(&f, a, b);
	case PTORT_VOP_DIV: return f_div(&f, a, b);
	case PTORT_VOP_RECIP: return f_div(&f, f_one(&f), a);
	case PTORT_VOP_SQRT: return f_sqrt(&f, a);
	case PTORT_VOP_RSQRT: return f_rsqrt(&f, a);
	case PTORT_VOP_EXP: return f_exp_ref(&f, a);
	case PTORT_VOP_LN: return f_ln_ref(&f, a);
	case PTORT_VOP_FMOD: return f_fmod(&f, a, b);
	case PTORT_VOP_REM: return f_rem(&f, a, b);
	case PTORT_VOP_PRELU: return f_prelu(&f, a, b);
	case PTORT_VOP_EXPDIF: return f_exp_ref(&f, f_add(&f, a, b, 1));
	case PTORT_VOP_MAX: return f_maxmin(&f, a, b, 1);
	case PTORT_VOP_MIN: return f_maxmin(&f, a, b, 0);
	case PTORT_VOP_ABS: return a & ~signbit_of(&f);
	case PTORT_VOP_NEG: return a ^ signbit_of(&f);
	case PTORT_VOP_RELU: return ptort_relu1(t, a);
	case PTORT_VOP_MOV: return a;
	default: return 0;
	}
}

/* ---- integers --------------------------------------------------------------------- */

static int64_t sext(uint64_t x, unsigned bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);
	x &= lowmask(bits);
	return (int64_t)((x ^ m) - m);
}

static uint64_t i_op(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	unsigned bits = ptort_type_bits(t);
	int sgn = ptort_type_is_signed_int(t);
	uint64_t m = lowmask(bits), minv = (uint64_t)1 << (bits - 1);
	int64_t sa = sext(a, bits), sb = sext(b, bits);
	a &= m, b &= m;
	switch (op) {
	case PTORT_VOP_ADD: return (a + b) & m;
	case PTORT_VOP_SUB: return (a - b) & m;
	case PTORT_VOP_MUL: return (a * b) & m;
	case PTORT_VOP_RECIP:
		b = a, sb = sa, a = 1, sa = 1;
		/* fall through */
	case PTORT_VOP_DIV:
		if (!b)
			return m;
		if (!sgn)
			return a / b;
		if (a == minv && sb == -1)
			return a;
		return (uint64_t)(sa / sb) & m;
	case PTORT_VOP_FMOD:
	case PTORT_VOP_REM: {
		int64_t r;
		if (!b)
			return a;
		if (!sgn)
			return a % b;
		if (a == minv && sb == -1)
			return 0;
		r = sa % sb; /* truncated */
		if (op == PTORT_VOP_REM && r && (r < 0) != (sb < 0))
			r += sb; /* floored */
		return (uint64_t)r & m;
	}
	case PTORT_VOP_MAX:
		return (sgn ? sa > sb : a > b) ? a : b;
	case PTORT_VOP_MIN:
		return (sgn ? sa < sb : a < b) ? a : b;
	case PTORT_VOP_AND: return a & b;
	case PTORT_VOP_OR: return a | b;
	case PTORT_VOP_XOR: return a ^ b;
	case PTORT_VOP_NOT: return ~a & m;
	case PTORT_VOP_SHL: return b >= bits ? 0 : (a << b) & m;
	case PTORT_VOP_SHR:
		if (sgn && sa < 0)
			return b >= bits ? m : ~(~(uint64_t)sa >> b) & m; /* arithmetic */
		return b >= bits ? 0 : a >> b;
	case PTORT_VOP_ABS: return (sgn && sa < 0) ? (0 - a) & m : a;
	case PTORT_VOP_NEG: return (0 - a) & m;
	case PTORT_VOP_RELU: return (sgn && sa < 0) ? 0 : a;
	case PTORT_VOP_MOV: return a;
	default: return 0;
	}
}

static int i_cmp(ptort_cmp c, ptort_type t, uint64_t a, uint64_t b)
{
	unsigned bits = ptort_type_bits(t);
	int lt;
	a &= lowmask(bits), b &= lowmask(bits);
	lt = ptort_type_is_signed_int(t) ? sext(a, bits) < sext(b, bits) : a < b;
	switch (c) {
	case PTORT_CMP_EQ: return a == b;
	case PTORT_CMP_NE: return a != b;
	case PTORT_CMP_LT: return lt;
	case PTORT_CMP_LE: return lt || a == b;
	case PTORT_CMP_GT: return !lt && a != b;
	case PTORT_CMP_GE: return !lt;
	default: return 0;
	}
}

/* ---- public element entry points ------------------------------------------------------ */

uint64_t ptort_vop1_ref(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	if (!ptort_vop_check(op, t))
		return 0;
	if (op == PTORT_VOP_MOV)
		return a & lowmask(ptort_type_bits(t));
	return is_vfloat(t) ? f_op_ref(op, t, a, b) : i_op(op, t, a, b);
}

uint64_t ptort_vop1(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	if (op == PTORT_VOP_EXPDIF && is_vfloat(t)) /* exp(a - b), the difference rounded */
		return ptort_vop1(PTORT_VOP_EXP, t, ptort_vop1(PTORT_VOP_SUB, t, a, b), 0);
	if ((op == PTORT_VOP_EXP || op == PTORT_VOP_LN || op == PTORT_VOP_RSQRT) && is_vfloat(t) &&
	    ptort_vop_host_fp_ok()) {
		if (op == PTORT_VOP_EXP)
			return ptort_vop_exp_d(t, a);
		if (op == PTORT_VOP_LN)
			return ptort_vop_ln_d(t, a);
		if (op == PTORT_VOP_RSQRT)
			return ptort_vop_rsqrt_d(t, a);
	}
	return ptort_vop1_ref(op, t, a, b);
}

int ptort_cmp1(ptort_cmp c, ptort_type t, uint64_t a, uint64_t b)
{
	if ((unsigned)c >= PTORT_CMP_COUNT || (unsigned)t >= PTORT_TYPE_COUNT)
		return 0;
	if (is_vfloat(t))
		return f_cmp(c, t, a, b);
	if (is_vint(t))
		return i_cmp(c, t, a, b);
	return 0;
}

/* ---- the double-precision paths --------------------------------------------------------
 *
 * Host double arithmetic is IEEE binary64 with round-to-nearest (checked by
 * ptort_vop_host_fp_ok); every operation below is exact or has the error stated.
 * y is the double estimate; ptort_vop_round_checked accepts its rounding only when the
 * error bound (tol ulps of y, at least twice the bound shown) cannot move it across a
 * rounding boundary of the destination format. */

int ptort_vop_host_fp_ok(void)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#if defined(VOP_X86)
	/* MXCSR: RC (bits 13-14) nearest, FTZ (15) and DAZ (6) clear */
	return (_mm_getcsr() & 0xE040u) == 0;
#else
	return fegetround() == FE_TONEAREST;
#endif
#else
	return 0;
#endif
}

static uint64_t dbits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

static double bitsd(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}

int ptort_vop_round_checked(ptort_type t, double y, unsigned tol, uint64_t *bits)
{
	struct vfmt f;
	uint64_t u = dbits(y), sig, kept, disc, half, out, sb;
	int e, emin;
	unsigned sh;
	if (vfmt_of(t, &f))
		return 0;
	sb = (u >> 63) ? signbit_of(&f) : 0;
	e = (int)((u >> 52) & 0x7FF) - 1023;
	if (e < -1022 || e > 1023)
		return 0; /* zero, subnormal, inf, NaN: not an estimate this handles */
	sig = (u & lowmask(52)) | ((uint64_t)1 << 52);
	emin = 1 - f.bias;
	sh = 52 - f.mbits + (unsigned)(e < emin ? emin - e : 0);
	if (sh >= 64) {
		*bits = sb; /* below a quarter of the smallest subnormal */
		return 1;
	}
	kept = sig >> sh;
	disc = sig & lowmask(sh);
	half = (uint64_t)1 << (sh - 1);
	if ((disc > half ? disc - half : half - disc) <= tol)
		return 0;
	kept += disc > half;
	out = e < emin ? kept : ((uint64_t)(e + f.bias - 1) << f.mbits) + kept;
	*bits = sb | (out >= f.inf ? f.inf : out);
	return 1;
}

/* exp: x = N ln2/64 + r, N = round(64 x / ln2), |r| <= ln2/128 + 2^-60;
 *   N * c_hi exact (N < 2^14, c_hi 39 bits); x - N c_hi exact (Sterbenz: both are
 *   multiples of 2^-45 below 2^-6 apart, or N = 0); r error <= 2^-60.
 *   p = exp(r) - 1 by Taylor to r^6 (truncation < 2^-64, evaluation < 2^-59 abs);
 *   y = T_j + T_j p, T_j = 2^(j/64) to nearest double: total relative error below
 *   2^-53 (T_j) + 2^-53 (last add) + 2^-58 < 2^-51.9, i.e. under 4.3 ulps of y;
 *   y * 2^k is exact (normal double). Tolerance: 16 ulps. */
uint64_t ptort_vop_exp_d(ptort_type t, uint64_t x)
{
	struct fval a;
	struct vfmt f;
	const double *c = ptort_vop_exp_c;
	double xd, nd, r, p, tj, y;
	int64_t n;
	int j, k;
	uint64_t bits;
	if (vfmt_of(t, &f))
		return 0;
	x &= lowmask(f.bits);
	fdecf(&f, x, &a);
	if (a.nan || a.inf || a.zero)
		return f_exp_ref(&f, x);
	xd = val_double(&a.v);
	if (xd > 100.0)
		return f.inf;
	if (xd < -120.0)
		return 0;
	if (fabs(xd) < 0x1p-60)
		return f_one(&f);
	nd = (xd * c[0] + 0x1.8p52) - 0x1.8p52; /* nearest integer (ties to even) */
	n = (int64_t)nd;
	r = (xd - nd * c[1]) - nd * c[2];
	p = c[7];
	p = p * r + c[6];
	p = p * r + c[5];
	p = p * r + c[4];
	p = p * r + c[3];
	p = r + (r * r) * p;
	j = (int)((uint64_t)n & 63);
	k = (int)((n - j) / 64);
	tj = ptort_vop_exp_tab[j];
	y = (tj + tj * p) * bitsd((uint64_t)(k + 1023) << 52);
	if (ptort_vop_round_checked(t, y, 16, &bits))
		return bits;
	return f_exp_ref(&f, x);
}

/* ln: x = 2^E m, m in [sqrt(2)/2, sqrt(2)]; i = round(128 (m - 1)), r_i = 1/(1 + i/128)
 *   to 9 bits: m r_i is exact (24 + 9 bits) and z = m r_i - 1 exact, |z| < 2^-7;
 *   ln x = E ln2 - ln r_i + log1p z; log1p by its series to z^8 (truncation < 2^-66).
 *   E ln2_hi exact (|E| < 2^8, 44 bits). y = (E ln2_hi + L_hi) + ((E ln2_lo + L_lo) + p):
 *   relative error below 2^-51 when E != 0 or i != 0 (|y| >= 2^-8 then), and below
 *   2^-52 when y = p: under 8 ulps of y. Tolerance: 32 ulps. */
uint64_t ptort_vop_ln_d(ptort_type t, uint64_t x)
{
	struct fval a;
	struct vfmt f;
	const double *c = ptort_vop_ln_c;
	double xd, m, z, p, y;
	uint64_t u, bits;
	int E, i;
	if (vfmt_of(t, &f))
		return 0;
	x &= lowmask(f.bits);
	fdecf(&f, x, &a);
	if (a.nan || a.inf || a.zero || a.v.sign)
		return f_ln_ref(&f, x);
	xd = val_double(&a.v);
	if (xd == 1.0)
		return 0;
	u = dbits(xd);
	E = (int)((u >> 52) & 0x7FF) - 1023;
	m = bitsd((u & lowmask(52)) | ((uint64_t)1023 << 52));
	if (m > 0x1.6a09e667f3bcdp+0)
		m *= 0.5, E++;
	i = (int)floor((m - 1.0) * 128.0 + 0.5);
	z = m * ptort_vop_ln_r[i + 37] - 1.0;
	p = c[8];
	p = p * z + c[7];
	p = p * z + c[6];
	p = p * z + c[5];
	p = p * z + c[4];
	p = p * z + c[3];
	p = p * z + c[2];
	p = z + (z * z) * p;
	y = ((double)E * c[0] + ptort_vop_ln_hi[i + 37]) +
	    (((double)E * c[1] + ptort_vop_ln_lo[i + 37]) + p);
	if (ptort_vop_round_checked(t, y, 32, &bits))
		return bits;
	return f_ln_ref(&f, x);
}

/* rsqrt: y = 1 / sqrt(x) in double: two roundings, relative error below 2^-52 (2 ulps).
 * Tolerance: 16 ulps. */
uint64_t ptort_vop_rsqrt_d(ptort_type t, uint64_t x)
{
	struct fval a;
	struct vfmt f;
	uint64_t bits;
	double y;
	if (vfmt_of(t, &f))
		return 0;
	x &= lowmask(f.bits);
	fdecf(&f, x, &a);
	if (a.nan || a.inf || a.zero || a.v.sign)
		return f_rsqrt(&f, x);
	y = 1.0 / sqrt(val_double(&a.v));
	if (ptort_vop_round_checked(t, y, 16, &bits))
		return bits;
	return f_rsqrt(&f, x);
}

/* ---- arith's float scalars (ptort.h section 8) ---------------------------------------- */

uint64_t ptort_fnum(ptort_vop op, ptort_type t, uint64_t a, uint64_t b)
{
	if (ptort_cmp1(PTORT_CMP_NE, t, a, a))
		return b;
	if (ptort_cmp1(PTORT_CMP_NE, t, b, b))
		return a;
	return ptort_vop1(op, t, a, b);
}

int ptort_cmpf(unsigned pred, ptort_type t, uint64_t a, uint64_t b)
{
	int uno = ptort_cmp1(PTORT_CMP_NE, t, a, a) || ptort_cmp1(PTORT_CMP_NE, t, b, b);
	switch (pred) {
	case 0: return 0;
	case 1: return ptort_cmp1(PTORT_CMP_EQ, t, a, b);
	case 2: return ptort_cmp1(PTORT_CMP_GT, t, a, b);
	case 3: return ptort_cmp1(PTORT_CMP_GE, t, a, b);
	case 4: return ptort_cmp1(PTORT_CMP_LT, t, a, b);
	case 5: return ptort_cmp1(PTORT_CMP_LE, t, a, b);
	case 6: return !uno && ptort_cmp1(PTORT_CMP_NE, t, a, b);
	case 7: return !uno;
	case 8: return uno || ptort_cmp1(PTORT_CMP_EQ, t, a, b);
	case 9: return uno || ptort_cmp1(PTORT_CMP_GT, t, a, b);
	case 10: return uno || ptort_cmp1(PTORT_CMP_GE, t, a, b);
	case 11: return uno || ptort_cmp1(PTORT_CMP_LT, t, a, b);
	case 12: return uno || ptort_cmp1(PTORT_CMP_LE, t, a, b);
	case 13: return ptort_cmp1(PTORT_CMP_NE, t, a, b);
	case 14: return uno;
	case 15: return 1;
	default: return 0;
	}
}
