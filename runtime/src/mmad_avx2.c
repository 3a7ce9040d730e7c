/* mmad_avx2.c: the AVX2+FMA level of mmad (mmad_internal.h): the vector operations
 * and the 8 x 8 transpose that mmad_kbody.h's kernels (6 x 16 blocks: 12 accumulators
 * of 8 lanes, B's two vectors, one broadcast of A), B box transposes and f16 (F16C) /
 * bf16 decoders are built from.
 *
 * Exactness: the f32 kernel is one _mm256_fmadd_ps per element and k step, in
 * increasing k (an IEEE fusedMultiplyAdd: exact product, one rounding, in the
 * environment mmad_fenv_enter sets); the i32 kernel is vpmulld + vpaddd, exact modulo
 * 2^32; everything else moves bits or converts exactly (vcvtph2ps is exact for every
 * f16, subnormals included, and ignores DAZ). Functions carry target attributes, so
 * the file builds with the project's flags and runs only where mmad_best_level found
 * the features. */
#include <string.h>

#include "mmad_internal.h"

#if MMAD_X86
#include <immintrin.h>

#define T2 __attribute__((target("avx2,fma,f16c")))
#define INL static inline __attribute__((always_inline))
#define MR2 6

INL T2 __m256 imac2(__m256 a, __m256 b, __m256 acc)
{
	return _mm256_castsi256_ps(_mm256_add_epi32(
		_mm256_castps_si256(acc),
		_mm256_mullo_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b))));
}

INL T2 __m256 canon2(__m256 v)
{
	return _mm256_blendv_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)),
				_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

INL T2 __m256i mask2(int c)
{
	return _mm256_cmpgt_epi32(_mm256_set1_epi32(c), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* ---- packing helpers ------------------------------------------------------------------ */

/* Loads of 8 elements of a box column as f32 bit patterns. */
enum { L_F32, L_F16, L_BF16 };
INL T2 __m256 ld8(const uint8_t *p, int kind)
{
	if (kind == L_F32)
		return _mm256_loadu_ps((const float *)(const void *)p);
	if (kind == L_F16)
		return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
	return _mm256_castsi256_ps(_mm256_slli_epi32(
		_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)), 16));
}

/* 8 elements of an 8-bit type as f32 / i32 bit patterns (mmad_d8_kind): i8 sign-
 * extended; e5m2 is the top byte of an f16 (vcvtph2ps: exact); e4m3 by its fields:
 * normal values are (x << 20) + (120 << 23), subnormals m * 2^-9 (an exact product),
 * 0x7F a NaN. (Other types go through their table element by element: a gather is no
 * faster on the machines measured.) */
INL T2 __m256 ld8b(const uint8_t *p, int kind, const uint32_t *lut)
{
	__m128i b = _mm_loadl_epi64((const __m128i *)(const void *)p);
	__m256i x, mag, r;
	switch (kind) {
	case MMAD_D8_I8:
		return _mm256_castsi256_ps(_mm256_cvtepi8_epi32(b));
	case MMAD_D8_E5M2:
		return _mm256_cvtph_ps(_mm_slli_epi16(_mm_cvtepu8_epi16(b), 8));
	case MMAD_D8_E4M3:
		x = _mm256_cvtepu8_epi32(b);
		mag = _mm256_and_si256(x, _mm256_set1_epi32(0x7F));
		r = _mm256_add_epi32(_mm256_slli_epi32(mag, 20), _mm256_set1_epi32(120 << 23));
		r = _mm256_castps_si256(_mm256_blendv_ps(
			_mm256_castsi256_ps(r),
			_mm256_mul_ps(_mm256_cvtepi32_ps(mag), _mm256_set1_ps(1.0f / 512.0f)),
			_mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(8), mag))));
		r = _mm256_castps_si256(_mm256_blendv_ps(
			_mm256_castsi256_ps(r), _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)),
			_mm256_castsi256_ps(_mm256_cmpeq_epi32(mag, _mm256_set1_epi32(0x7F)))));
		return _mm256_castsi256_ps(_mm256_or_si256(
			r, _mm256_slli_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x80)), 24)));
	default: /* not used: tables are looked up one element at a time (KB_LUT8) */
		(void)lut;
		return _mm256_setzero_ps();
	}
}

/* 8 x 8 transpose of 32-bit lanes in registers: r[c] lane t -> r[t] lane c. */
INL T2 void tr8r(__m256 r[8])
{
	__m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
	__m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
	__m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
	__m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
	__m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
	__m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
	__m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
	__m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
	r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
	r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
	r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
	r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
	r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
	r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
	r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
	r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/* The 8 x 8 block whose column c starts at src + c * cs bytes (8 elements each) into 8
 * rows of dst (row stride 16 floats). */
INL T2 void tr8(const uint8_t *src, size_t cs, int kind, float *dst)
{
	__m256 r[8];
	int c;
#pragma GCC unroll 8
	for (c = 0; c < 8; c++)
		r[c] = ld8(src + c * cs, kind);
	tr8r(r);
#pragma GCC unroll 8
	for (c = 0; c < 8; c++)
		_mm256_storeu_ps(dst + c * 16, r[c]);
}

/* A Zn box of 16-bit elements. bf16: a column of 16 elements is 8 pairs (32-bit
 * lanes), so one 8 x 8 transpose of 32-bit lanes per 8 columns gives, for every pair
 * k, rows 2k and 2k + 1 side by side; a shift (the low halves) and a mask (the high
 * halves) make their f32 bits: half the shuffles of widening first. f16: converted by
 * vcvtph2ps first (gathering the halves for it costs more). */
INL T2 void box16u(const uint8_t *s, unsigned ri, uint32_t *dst, int kind)
{
	size_t cs = (size_t)ri * 2;
	unsigned t, c, k;
	__m256 r[8];
	if (kind == L_F16) { /* vcvtph2ps first costs less than gathering halves */
		for (t = 0; t < ri; t += 8)
			for (c = 0; c < 16; c += 8)
				tr8(s + c * cs + t * 2, cs, kind, (float *)(void *)(dst + (size_t)t * 16 + c));
		return;
	}
	for (t = 0; t < ri; t += 16)
		for (c = 0; c < 16; c += 8) {
			float *d = (float *)(void *)(dst + (size_t)t * 16 + c);
#pragma GCC unroll 8
			for (k = 0; k < 8; k++)
				r[k] = _mm256_loadu_ps((const float *)(const void *)(s + (c + k) * cs + t * 2));
			tr8r(r);
#pragma GCC unroll 8
			for (k = 0; k < 8; k++) {
				__m256i x = _mm256_castps_si256(r[k]);
				_mm256_storeu_si256((__m256i *)(void *)(d + (2 * k) * 16),
						    _mm256_slli_epi32(x, 16));
				_mm256_storeu_si256((__m256i *)(void *)(d + (2 * k + 1) * 16),
						    _mm256_and_si256(x, _mm256_set1_epi32((int)0xFFFF0000u)));
			}
		}
}

#define KB_ATTR T2
#define KB_V __m256
#define KB_W 8
#define KB_NV 2
#define KB_MR MR2
#define KB_M __m256i
#define KB_MASK(c) mask2(c)
#define KB_ZERO() _mm256_setzero_ps()
#define KB_LOAD(p) _mm256_loadu_ps(p)
#define KB_STORE(p, v) _mm256_storeu_ps(p, v)
#define KB_MLOAD(m, p) _mm256_maskload_ps(p, m)
#define KB_MSTORE(m, p, v) _mm256_maskstore_ps(p, m, v)
#define KB_BCAST(p) _mm256_broadcast_ss(p)
#define KB_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define KB_IMAC(a, b, c) imac2(a, b, c)
#define KB_CANON(v) canon2(v)
#define KB_NAME(x) x##2
#define KB_LF32 L_F32
#define KB_LF16 L_F16
#define KB_LBF16 L_BF16
#define KB_LD(p, kind) ld8(p, kind)
#define KB_LD8(p, kind, lut) ld8b(p, kind, lut)
#define KB_LUT8 mmad_isa_c.dec
#define KB_TR(s, cs, kind, d) tr8(s, cs, kind, d)
#define KB_LOWER mmad_isa_c
#define KB_BOX16(s, ri, d, kind) box16u(s, ri, d, kind)
#include "mmad_kbody.h"

const struct mmad_isa mmad_isa_avx2 = {
	1, MR2, 16, f322, i322, box2, dec2,
};
#else
typedef int mmad_avx2_unused; /* ISO C: a translation unit is never empty */
#endif
