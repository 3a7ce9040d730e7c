/* cvt_fast_x86.c: the x86-64 fast conversion kernels (AVX2, F16C), the same bits as
 * the portable ones (cvt_fast_kern.h) and the generic path (the file map:
 * cvt_fast_internal.h).
 *
 * Functions carry target attributes, so the file builds with the project's flags and
 * runs only at the level cvt_fast.c chose from cpuid (cpu.c); the F16C kernels only
 * while MXCSR has DAZ/FTZ clear. Host float operations are exact or round with an
 * explicit mode (F16C conversions, roundps, cvtdq2ps under a set MXCSR.RC), and
 * test/unit/cvtfast pins every result down against the generic path. */
#include "cpu_internal.h"
#include "cvt_fast_kern.h"

#ifdef PTORT_X86
#include <immintrin.h>

/* the portable kernels compiled for AVX2 (the kernels without one of their own) */
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
__attribute__((target("avx2"))) size_t ptort_cvtf_x86_wide_run(const uint8_t *t, const uint16_t *s,
							      uint8_t *d, size_t n)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16)
		_mm_storeu_si128((__m128i *)(void *)(d + i), look16(t, s + i, 0));
	return i;
}

int ptort_cvtf_x86_level(void)
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

/* ---- entry points (cvt_fast_internal.h) ---------------------------------- */

int ptort_cvtf_x86_run(enum kid k, const struct kargs *a, int lv)
{
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
	return run_avx2(k, a);
}

int ptort_cvtf_x86_fused(enum kid k, const struct kargs *a, int lv)
{
	if (lv >= 2 && mxcsr_default() && k != K_F16_HIF8) {
		long csr = with_rc(a->st);
		int done = avx2_small(k, a) || avx2_f32_int(k, a) || avx2_f32_bf16(k, a);
		restore_rc(csr);
		return done;
	}
	return 0;
}

/* pshufb lookups for 4-bit sources, vector stores for 8-bit ones (whose 256-entry
 * lookups as pshufb, 16 per result byte and 32 elements, lose to scalar loads) */
size_t ptort_cvtf_x86_table(const uint32_t *t, unsigned sbits, unsigned dbits,
			    const unsigned char *s, void *dst, size_t n)
{
	if (sbits == 4 && (dbits == 16 || dbits == 32))
		return avx2_table4(t, dbits, s, dst, n);
	if (sbits == 8 && (dbits == 16 || dbits == 32))
		return avx2_table8(t, dbits, s, dst, n);
	return 0;
}
#else
typedef int cvt_fast_x86_unused; /* ISO C: a translation unit is never empty */
#endif
