/* vop_fast.c: contiguous array kernels of the vector operations.
 *
 * ptort_vop_run applies one element operation to n contiguous elements and gives
 * exactly ptort_vop1's bits (test/unit/vop/test_vop_fast compares them at every
 * level on boundary and random inputs and every 16-bit input; `make check-exhaustive`
 * on all 2^32 f16 and bf16 pairs). Levels:
 *   0  the element kernels one by one (vop_num.c);
 *   1  portable loops, written for auto-vectorisation, on host floats;
 *   2  the same loops compiled for AVX2, and exp of f32 with AVX2 intrinsics.
 * Levels 1 and 2 run only while ptort_vop_host_fp_ok (IEEE round-to-nearest, no
 * FTZ/DAZ), where a host float operation is the correctly rounded IEEE one:
 *   - f32 add, sub, mul, div, sqrt, recip are the host's float operations (each
 *     correctly rounded with gradual underflow); a NaN result becomes 0x7FC00000;
 *   - f16 and bf16 add, sub, mul, div, sqrt, recip convert exactly to f32 (cvt_fast's
 *     kernels), compute there and round once to the type: the f32 result is rounded
 *     twice, which cannot change it for these operations because f32 has at least
 *     2p + 2 bits for f16's and bf16's p (and the sums and products that land among
 *     bf16's subnormals are exact in f32); make check-exhaustive confirms it on
 *     every pair;
 *   - max, min, abs, neg, relu, mov are integer operations on the bits;
 *   - exp, ln, rsqrt take vop_num.c's double paths (exp of f32 four lanes at a time
 *     with the same operations in the same order under AVX2, so the same doubles).
 * Everything else (integers, the rest) runs at level 0. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#include "cpu_internal.h"
#include "ptort.h"
#include "vop_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
#define VOP_X86 1
#include <immintrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static
#endif

/* One call: dst[i] = op(a[i], b[i]) (mode 0), op(a[i], s) (1), op(s, a[i]) (2). */
struct run {
	ptort_vop op;
	ptort_type t;
	uint8_t *d;
	const uint8_t *a, *b;
	int mode;
	uint64_t s;
	size_t n;
};

/* element i of a little-endian array of 1, 2, 4 or 8-byte elements (fixed-size
 * copies, which compile to single moves) */
static uint64_t ld(const void *p, unsigned bytes, size_t i)
{
	const uint8_t *q = (const uint8_t *)p + i * bytes;
	uint8_t b1;
	uint16_t b2;
	uint32_t b4;
	uint64_t b8;
	switch (bytes) {
	case 1: memcpy(&b1, q, 1); return b1;
	case 2: memcpy(&b2, q, 2); return b2;
	case 4: memcpy(&b4, q, 4); return b4;
	default: memcpy(&b8, q, 8); return b8;
	}
}

static void st(void *p, unsigned bytes, size_t i, uint64_t v)
{
	uint8_t *q = (uint8_t *)p + i * bytes, b1 = (uint8_t)v;
	uint16_t b2 = (uint16_t)v;
	uint32_t b4 = (uint32_t)v;
	switch (bytes) {
	case 1: memcpy(q, &b1, 1); break;
	case 2: memcpy(q, &b2, 2); break;
	case 4: memcpy(q, &b4, 4); break;
	default: memcpy(q, &v, 8); break;
	}
}

/* level 0: one element at a time through ptort_vop1 */
static void run_elem(const struct run *r)
{
	unsigned bytes = ptort_type_bits(r->t) / 8;
	size_t i;
	for (i = 0; i < r->n; i++) {
		uint64_t x = ld(r->a, bytes, i), y = r->mode ? r->s : r->b ? ld(r->b, bytes, i) : 0;
		st(r->d, bytes, i, r->mode == 2 ? ptort_vop1(r->op, r->t, y, x) : ptort_vop1(r->op, r->t, x, y));
	}
}

/* ---- f32 on host floats -------------------------------------------------------- */

INLINE float lf(const uint8_t *p, size_t i)
{
	float f;
	memcpy(&f, p + 4 * i, 4);
	return f;
}

INLINE uint32_t lu(const uint8_t *p, size_t i)
{
	uint32_t u;
	memcpy(&u, p + 4 * i, 4);
	return u;
}

INLINE void su(uint8_t *p, size_t i, uint32_t u)
{
	memcpy(p + 4 * i, &u, 4);
}

INLINE uint32_t canon(float r)
{
	uint32_t u;
	memcpy(&u, &r, 4);
	return r != r ? 0x7FC00000u : u;
}

INLINE float bitsf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* dst = EXPR(x, y) in every operand mode */
#define F32_ARITH(NAME, EXPR)                                                                     \
	INLINE void NAME(const struct run *r)                                                     \
	{                                                                                         \
		size_t i, n = r->n;                                                               \
		uint8_t *d = r->d;                                                                \
		const uint8_t *a = r->a, *b = r->b;                                               \
		float s = bitsf((uint32_t)r->s);                                                  \
		if (r->mode == 0)                                                                 \
			for (i = 0; i < n; i++) {                                                 \
				float x = lf(a, i), y = lf(b, i);                                 \
				su(d, i, canon(EXPR));                                            \
			}                                                                         \
		else if (r->mode == 1)                                                            \
			for (i = 0; i < n; i++) {                                                 \
				float x = lf(a, i), y = s;                                        \
				su(d, i, canon(EXPR));                                            \
			}                                                                         \
		else                                                                              \
			for (i = 0; i < n; i++) {                                                 \
				float x = s, y = lf(a, i);                                        \
				su(d, i, canon(EXPR));                                            \
			}                                                                         \
	}
F32_ARITH(f32_add, x + y)
F32_ARITH(f32_sub, x - y)
F32_ARITH(f32_mul, x * y)
F32_ARITH(f32_div, x / y)

/* (the operands are read into locals first: a store through d could otherwise alias
 * *r, and the loops would not vectorise) */
INLINE void f32_sqrt(const struct run *r)
{
	size_t i, n = r->n;
	uint8_t *d = r->d;
	const uint8_t *a = r->a;
	for (i = 0; i < n; i++)
		su(d, i, canon(sqrtf(lf(a, i))));
}

INLINE void f32_recip(const struct run *r)
{
	size_t i, n = r->n;
	uint8_t *d = r->d;
	const uint8_t *a = r->a;
	for (i = 0; i < n; i++)
		su(d, i, canon(1.0f / lf(a, i)));
}

/* ---- bit kernels on 16- and 32-bit floats ---------------------------------------- */

/* max/min on the total order key (-0 < +0), NaN if either operand is NaN; written
 * with masks so the loops vectorise */
#define BITS_MAXMIN(NAME, U, S, LOAD, STORE, SB, EXPINF, QNAN, GT)                                 \
	INLINE U NAME##_one(U x, U y)                                                              \
	{                                                                                          \
		U mx = (U)((S)x >> (8 * sizeof(U) - 1)), my = (U)((S)y >> (8 * sizeof(U) - 1));     \
		S kx = (S)(x ^ (mx & (U)~SB)), ky = (S)(y ^ (my & (U)~SB)); /* signed order keys */ \
		U nan = (U)(0 - (U)(((U)(x & (U)~SB) > EXPINF) | ((U)(y & (U)~SB) > EXPINF)));      \
		U px = (U)(0 - (U)((GT) ? kx > ky : kx < ky));                                     \
		return (U)((((x & px) | (y & (U)~px)) & (U)~nan) | ((U)QNAN & nan));               \
	}                                                                                          \
	INLINE void NAME(const struct run *r)                                                      \
	{                                                                                          \
		size_t i, n = r->n;                                                                \
		uint8_t *d = r->d;                                                                 \
		const uint8_t *a = r->a, *b = r->b;                                                \
		U s = (U)r->s;                                                                     \
		if (r->mode == 0)                                                                  \
			for (i = 0; i < n; i++)                                                    \
				STORE(d, i, NAME##_one(LOAD(a, i), LOAD(b, i)));                    \
		else                                                                               \
			for (i = 0; i < n; i++)                                                    \
				STORE(d, i, NAME##_one(LOAD(a, i), s));                             \
	}

INLINE uint16_t lh(const uint8_t *p, size_t i)
{
	uint16_t u;
	memcpy(&u, p + 2 * i, 2);
	return u;
}

INLINE void sh16(uint8_t *p, size_t i, uint16_t u)
{
	memcpy(p + 2 * i, &u, 2);
}

BITS_MAXMIN(f32_max, uint32_t, int32_t, lu, su, 0x80000000u, 0x7F800000u, 0x7FC00000u, 1)
BITS_MAXMIN(f32_min, uint32_t, int32_t, lu, su, 0x80000000u, 0x7F800000u, 0x7FC00000u, 0)
BITS_MAXMIN(f16_max, uint16_t, int16_t, lh, sh16, 0x8000u, 0x7C00u, 0x7E00u, 1)
BITS_MAXMIN(f16_min, uint16_t, int16_t, lh, sh16, 0x8000u, 0x7C00u, 0x7E00u, 0)
BITS_MAXMIN(bf16_max, uint16_t, int16_t, lh, sh16, 0x8000u, 0x7F80u, 0x7FC0u, 1)
BITS_MAXMIN(bf16_min, uint16_t, int16_t, lh, sh16, 0x8000u, 0x7F80u, 0x7FC0u, 0)

/* abs, neg, relu, mov: sign-bit operations (relu: sign set and not NaN -> +0) */
#define BITS_SIGN(NAME, U, LOAD, STORE, SB, EXPINF)                                                \
	INLINE void NAME(const struct run *r)                                                      \
	{                                                                                          \
		size_t i, n = r->n;                                                                \
		uint8_t *d = r->d;                                                                 \
		const uint8_t *a = r->a;                                                           \
		switch (r->op) {                                                                   \
		case PTORT_VOP_ABS:                                                                \
			for (i = 0; i < n; i++)                                                    \
				STORE(d, i, (U)(LOAD(a, i) & (U)~SB));                             \
			break;                                                                     \
		case PTORT_VOP_NEG:                                                                \
			for (i = 0; i < n; i++)                                                    \
				STORE(d, i, (U)(LOAD(a, i) ^ SB));                                 \
			break;                                                                     \
		case PTORT_VOP_RELU:                                                               \
			for (i = 0; i < n; i++) {                                                  \
				U x = LOAD(a, i);                                                  \
				STORE(d, i, ((x & SB) && (U)(x & (U)~SB) <= EXPINF) ? (U)0 : x);   \
			}                                                                          \
			break;                                                                     \
		default:                                                                           \
			memmove(d, a, n * sizeof(U));                                              \
			break;                                                                     \
		}                                                                                  \
	}
BITS_SIGN(f32_sign, uint32_t, lu, su, 0x80000000u, 0x7F800000u)
BITS_SIGN(f16_sign, uint16_t, lh, sh16, 0x8000u, 0x7C00u)
BITS_SIGN(bf16_sign, uint16_t, lh, sh16, 0x8000u, 0x7F80u)

/* ---- f16 and bf16 through f32 ------------------------------------------------------ */

#define CHUNK 256

/* converts, computes in f32, rounds back (see the file comment) */
INLINE void half_via_f32(const struct run *r, void (*f32op)(const struct run *))
{
	uint32_t xa[CHUNK], xb[CHUNK], xd[CHUNK];
	struct run q = *r;
	size_t i, n;
	uint32_t s32 = 0;
	if (r->mode)
		ptort_cvt_run(r->t, PTORT_F32, &r->s, &s32, 1, PTORT_RINT, PTORT_SAT_OFF);
	q.t = PTORT_F32;
	q.s = s32;
	for (i = 0; i < r->n; i += n) {
		n = r->n - i < CHUNK ? r->n - i : CHUNK;
		ptort_cvt_run(r->t, PTORT_F32, r->a + 2 * i, xa, n, PTORT_RINT, PTORT_SAT_OFF);
		if (!r->mode && r->b)
			ptort_cvt_run(r->t, PTORT_F32, r->b + 2 * i, xb, n, PTORT_RINT, PTORT_SAT_OFF);
		q.a = (const uint8_t *)xa, q.b = (const uint8_t *)xb, q.d = (uint8_t *)xd, q.n = n;
		f32op(&q);
		ptort_cvt_run(PTORT_F32, r->t, xd, r->d + 2 * i, n, PTORT_RINT, PTORT_SAT_OFF);
	}
}

/* ---- exp, ln, rsqrt: the double paths ------------------------------------------------- */

static void dpath(const struct run *r)
{
	unsigned bytes = ptort_type_bits(r->t) / 8;
	size_t i;
	for (i = 0; i < r->n; i++) {
		uint64_t x = ld(r->a, bytes, i), y;
		y = r->op == PTORT_VOP_EXP ? ptort_vop_exp_d(r->t, x)
		    : r->op == PTORT_VOP_LN ? ptort_vop_ln_d(r->t, x)
					    : ptort_vop_rsqrt_d(r->t, x);
		st(r->d, bytes, i, y);
	}
}

/* ---- dispatch --------------------------------------------------------------------- */

/* Runs the kernel for r at a level >= 1; returns 0 when there is none. */
INLINE int run_kernels(const struct run *r)
{
	ptort_type t = r->t;
	int f32 = t == PTORT_F32, half = t == PTORT_F16 || t == PTORT_BF16;
	if (!f32 && !half)
		return 0;
	switch (r->op) {
	case PTORT_VOP_ADD:
		f32 ? f32_add(r) : half_via_f32(r, f32_add);
		return 1;
	case PTORT_VOP_SUB:
		f32 ? f32_sub(r) : half_via_f32(r, f32_sub);
		return 1;
	case PTORT_VOP_MUL:
		f32 ? f32_mul(r) : half_via_f32(r, f32_mul);
		return 1;
	case PTORT_VOP_DIV:
		f32 ? f32_div(r) : half_via_f32(r, f32_div);
		return 1;
	case PTORT_VOP_SQRT:
		f32 ? f32_sqrt(r) : half_via_f32(r, f32_sqrt);
		return 1;
	case PTORT_VOP_RECIP:
		f32 ? f32_recip(r) : half_via_f32(r, f32_recip);
		return 1;
	case PTORT_VOP_MAX:
		if (r->mode == 2) /* max and min are symmetric: swap */
			return 0;
		f32 ? f32_max(r) : t == PTORT_F16 ? f16_max(r) : bf16_max(r);
		return 1;
	case PTORT_VOP_MIN:
		if (r->mode == 2)
			return 0;
		f32 ? f32_min(r) : t == PTORT_F16 ? f16_min(r) : bf16_min(r);
		return 1;
	case PTORT_VOP_ABS:
	case PTORT_VOP_NEG:
	case PTORT_VOP_RELU:
	case PTORT_VOP_MOV:
		f32 ? f32_sign(r) : t == PTORT_F16 ? f16_sign(r) : bf16_sign(r);
		return 1;
	case PTORT_VOP_EXP:
	case PTORT_VOP_LN:
	case PTORT_VOP_RSQRT:
		dpath(r);
		return 1;
	default:
		return 0;
	}
}

static int run_portable(const struct run *r)
{
	return run_kernels(r);
}

#ifdef VOP_X86
/* exp of f32, four lanes in double: ptort_vop_exp_d's operations in its order, and its
 * rounding test on the 64-bit lanes; a lane outside 2^-60 <= |x| <= 100, or whose
 * result is undecided or far below the normal range, is done by ptort_vop_exp_d. */
__attribute__((target("avx2"))) static void exp_f32_avx2(uint8_t *d, const uint8_t *a, size_t n)
{
	const double *c = ptort_vop_exp_c;
	const __m256d sh = _mm256_set1_pd(0x1.8p52), c0 = _mm256_set1_pd(c[0]),
		      c1 = _mm256_set1_pd(c[1]), c2 = _mm256_set1_pd(c[2]);
	const __m256d hi = _mm256_set1_pd(100.0), lo = _mm256_set1_pd(0x1p-60),
		      absm = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll));
	const __m256i m52 = _mm256_set1_epi64x(0xFFFFFFFFFFFFFll), one = _mm256_set1_epi64x(1),
		      imp = _mm256_set1_epi64x(1ll << 52), tol = _mm256_set1_epi64x(16),
		      pack = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256d x = _mm256_cvtps_pd(_mm_loadu_ps((const float *)(const void *)(a + 4 * i)));
		__m256d ax = _mm256_and_pd(x, absm), t, nd, r, p, tj, y;
		__m256i n64, j, u, e, shv, sig, kept, mask, disc, half, diff, dist, ok, out;
		int okm, inr = _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(ax, hi, _CMP_LE_OQ),
								_mm256_cmp_pd(ax, lo, _CMP_GE_OQ)));
		uint32_t res[8];
		unsigned k;
		if (inr == 15) {
			t = _mm256_add_pd(_mm256_mul_pd(x, c0), sh);
			nd = _mm256_sub_pd(t, sh);
			r = _mm256_sub_pd(_mm256_sub_pd(x, _mm256_mul_pd(nd, c1)), _mm256_mul_pd(nd, c2));
			p = _mm256_set1_pd(c[7]);
			p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(c[6]));
			p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(c[5]));
			p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(c[4]));
			p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(c[3]));
			p = _mm256_add_pd(r, _mm256_mul_pd(_mm256_mul_pd(r, r), p));
			n64 = _mm256_sub_epi64(_mm256_castpd_si256(t), _mm256_castpd_si256(sh));
			j = _mm256_and_si256(n64, _mm256_set1_epi64x(63));
			tj = _mm256_i64gather_pd(ptort_vop_exp_tab, j, 8);
			y = _mm256_add_pd(tj, _mm256_mul_pd(tj, p));
			y = _mm256_mul_pd(y, _mm256_castsi256_pd(_mm256_add_epi64(
						     _mm256_slli_epi64(_mm256_sub_epi64(n64, j), 46),
						     _mm256_set1_epi64x(1023ll << 52))));
			/* the rounding to f32 (y > 0): e = unbiased exponent */
			u = _mm256_castpd_si256(y);
			e = _mm256_sub_epi64(_mm256_srli_epi64(u, 52), _mm256_set1_epi64x(1023));
			shv = _mm256_sub_epi64(_mm256_set1_epi64x(-126), e); /* subnormal: extra shift */
			shv = _mm256_and_si256(shv, _mm256_cmpgt_epi64(shv, _mm256_setzero_si256()));
			shv = _mm256_add_epi64(shv, _mm256_set1_epi64x(29));
			sig = _mm256_or_si256(_mm256_and_si256(u, m52), imp);
			kept = _mm256_srlv_epi64(sig, shv);
			mask = _mm256_sub_epi64(_mm256_sllv_epi64(one, shv), one);
			disc = _mm256_and_si256(sig, mask);
			half = _mm256_sllv_epi64(one, _mm256_sub_epi64(shv, one));
			diff = _mm256_sub_epi64(disc, half);
			dist = _mm256_blendv_epi8(diff, _mm256_sub_epi64(_mm256_setzero_si256(), diff),
						  _mm256_cmpgt_epi64(_mm256_setzero_si256(), diff));
			/* decided, and not far below the normal range (e >= -156: shift <= 59) */
			ok = _mm256_and_si256(_mm256_cmpgt_epi64(dist, tol),
					      _mm256_cmpgt_epi64(e, _mm256_set1_epi64x(-157)));
			kept = _mm256_sub_epi64(kept, _mm256_cmpgt_epi64(disc, half));
			out = _mm256_blendv_epi8(
				_mm256_add_epi64(_mm256_slli_epi64(_mm256_add_epi64(e, _mm256_set1_epi64x(126)), 23),
						 kept),
				kept, _mm256_cmpgt_epi64(_mm256_set1_epi64x(-126), e));
			out = _mm256_blendv_epi8(out, _mm256_set1_epi64x(0x7F800000),
						 _mm256_cmpgt_epi64(out, _mm256_set1_epi64x(0x7F7FFFFF)));
			okm = ~_mm256_movemask_pd(_mm256_castsi256_pd(ok)) & 15; /* lanes not decided */
			_mm256_storeu_si256((__m256i *)(void *)res,
					    _mm256_permutevar8x32_epi32(out, pack));
		} else {
			okm = 15;
		}
		for (k = 0; k < 4; k++) {
			uint32_t v = (okm >> k) & 1 ? (uint32_t)ptort_vop_exp_d(PTORT_F32, lu(a, i + k))
						   : res[k];
			su(d, i + k, v);
		}
	}
	for (; i < n; i++)
		su(d, i, (uint32_t)ptort_vop_exp_d(PTORT_F32, lu(a, i)));
}

__attribute__((target("avx2"))) static int run_avx2(const struct run *r)
{
	if (r->t == PTORT_F32 && r->op == PTORT_VOP_EXP) {
		exp_f32_avx2(r->d, r->a, r->n);
		return 1;
	}
	return run_kernels(r);
}
#endif

static int forced = -1;

void ptort_vop_force_level(int level)
{
	forced = level;
}

/* the level the kernels use: the machine's, capped by ptort_vop_force_level */
static int vop_level(void)
{
	int best = 1;
#ifdef VOP_X86
	if (ptort_cpu_features() & PTORT_CPU_AVX2)
		best = 2;
#endif
	return forced >= 0 && forced < best ? forced : best;
}

void ptort_vop_run(ptort_vop op, ptort_type t, void *dst, const void *a, const void *b,
		   const uint64_t *b_scalar, int scalar_first, size_t n)
{
	struct run r;
	int level = vop_level();
	r.op = op, r.t = t, r.d = dst, r.a = a, r.b = b, r.n = n;
	r.mode = b_scalar ? (scalar_first ? 2 : 1) : 0;
	r.s = b_scalar ? *b_scalar : 0;
	if (!n)
		return;
	if (level >= 1 && ptort_vop_check(op, t) && ptort_vop_host_fp_ok()) {
#ifdef VOP_X86
		if (level >= 2 && run_avx2(&r))
			return;
#endif
		if (level == 1 && run_portable(&r))
			return;
	}
	run_elem(&r);
}
