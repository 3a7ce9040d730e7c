/* mmad_avx512.c: the AVX-512 level of mmad (mmad_internal.h): the vector operations
 * and the 16 x 16 transpose that mmad_kbody.h's kernels (8 x 32 blocks: 16
 * accumulators of 16 lanes in two 16-column groups, B's two vectors, one broadcast of
 * A; masked loads and stores for the columns past n), B box transposes (f16 / bf16
 * decoded on the way) and f16 / bf16 decoders are built from.
 *
 * Exactness: as mmad_avx2.c (one vfmadd per element and k step in increasing k;
 * vpmulld + vpaddd modulo 2^32; vcvtph2ps exact). Functions carry target attributes
 * and run only where mmad_best_level found AVX-512 F/BW/VL/DQ with the OS's ZMM
 * state. */
#include <string.h>

#include "mmad_internal.h"

#if MMAD_X86
#include <immintrin.h>

#define T5 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")))
#define INL static inline __attribute__((always_inline))
#define MR5 8

INL T5 __m512 imac5(__m512 a, __m512 b, __m512 acc)
{
	return _mm512_castsi512_ps(_mm512_add_epi32(
		_mm512_castps_si512(acc),
		_mm512_mullo_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))));
}

INL T5 __m512 canon5(__m512 v)
{
	return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q),
				  _mm512_castsi512_ps(_mm512_set1_epi32(0x7FC00000)));
}

INL T5 __mmask16 mask5(int c)
{
	return (__mmask16)(c >= 16 ? 0xFFFFu : c <= 0 ? 0u : (1u << c) - 1);
}

/* ---- packing helpers ------------------------------------------------------------------ */

/* Loads of 16 elements of a box column as f32 bit patterns. */
enum { L_F32, L_F16, L_BF16 };
INL T5 __m512 ld16(const uint8_t *p, int kind)
{
	if (kind == L_F32)
		return _mm512_loadu_ps((const void *)p);
	if (kind == L_F16)
		return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
	return _mm512_castsi512_ps(_mm512_slli_epi32(
		_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p)), 16));
}

/* 16 elements of an 8-bit type as f32 / i32 bit patterns (as ld8b of mmad_avx2.c). */
INL T5 __m512 ld16b(const uint8_t *p, int kind, const uint32_t *lut)
{
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m512i x, mag, r;
	switch (kind) {
	case MMAD_D8_I8:
		return _mm512_castsi512_ps(_mm512_cvtepi8_epi32(b));
	case MMAD_D8_E5M2:
		return _mm512_cvtph_ps(_mm256_slli_epi16(_mm256_cvtepu8_epi16(b), 8));
	case MMAD_D8_E4M3:
		x = _mm512_cvtepu8_epi32(b);
		mag = _mm512_and_si512(x, _mm512_set1_epi32(0x7F));
		r = _mm512_add_epi32(_mm512_slli_epi32(mag, 20), _mm512_set1_epi32(120 << 23));
		r = _mm512_mask_mov_epi32(
			r, _mm512_cmplt_epi32_mask(mag, _mm512_set1_epi32(8)),
			_mm512_castps_si512(_mm512_mul_ps(_mm512_cvtepi32_ps(mag),
							  _mm512_set1_ps(1.0f / 512.0f))));
		r = _mm512_mask_mov_epi32(r, _mm512_cmpeq_epi32_mask(mag, _mm512_set1_epi32(0x7F)),
					  _mm512_set1_epi32(0x7FC00000));
		return _mm512_castsi512_ps(_mm512_or_si512(
			r, _mm512_slli_epi32(_mm512_and_si512(x, _mm512_set1_epi32(0x80)), 24)));
	default: /* not used: lut8 */
		(void)lut;
		return _mm512_setzero_ps();
	}
}

/* The other 8-bit types through their 256-entry table held in 16 registers: eight
 * two-register permutes pick entry x % 32 of each 32-entry part, three rounds of
 * blends on bits 5, 6, 7 of x pick the part. */
static T5 void lut8(const struct mmad_dec *d, const void *src, size_t ss, size_t n, size_t rows,
		    uint32_t *dst, size_t ds)
{
	__m512 t[16], p[8];
	size_t r, i;
	int k;
#pragma GCC unroll 16
	for (k = 0; k < 16; k++)
		t[k] = _mm512_loadu_ps((const void *)(d->lut + 16 * k));
	for (r = 0; r < rows; r++) {
		const uint8_t *s = (const uint8_t *)src + r * ss;
		uint32_t *o = dst + r * ds;
		for (i = 0; i + 16 <= n; i += 16) {
			__m512i x = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(s + i)));
			__mmask16 b5 = _mm512_test_epi32_mask(x, _mm512_set1_epi32(32));
			__mmask16 b6 = _mm512_test_epi32_mask(x, _mm512_set1_epi32(64));
			__mmask16 b7 = _mm512_test_epi32_mask(x, _mm512_set1_epi32(128));
#pragma GCC unroll 8
			for (k = 0; k < 8; k++)
				p[k] = _mm512_permutex2var_ps(t[2 * k], x, t[2 * k + 1]);
#pragma GCC unroll 4
			for (k = 0; k < 4; k++)
				p[k] = _mm512_mask_mov_ps(p[2 * k], b5, p[2 * k + 1]);
#pragma GCC unroll 2
			for (k = 0; k < 2; k++)
				p[k] = _mm512_mask_mov_ps(p[2 * k], b6, p[2 * k + 1]);
			_mm512_storeu_ps((void *)(o + i), _mm512_mask_mov_ps(p[0], b7, p[1]));
		}
		if (i < n)
			mmad_isa_c.dec(d, s + i, 0, n - i, 1, o + i, 0);
	}
}

/* The 16 x 16 block whose column c starts at src + c * cs bytes into 16 rows of dst:
 * 32-bit and 64-bit interleaves make 4 x 4 blocks in every 128-bit lane, then two
 * rounds of lane shuffles transpose the lanes. */
INL T5 void tr16(const uint8_t *src, size_t cs, int kind, float *dst)
{
	__m512 r[16], t[16], u[16];
	int c, g, e;
#pragma GCC unroll 16
	for (c = 0; c < 16; c++)
		r[c] = ld16(src + c * cs, kind);
#pragma GCC unroll 8
	for (c = 0; c < 16; c += 2) {
		t[c] = _mm512_unpacklo_ps(r[c], r[c + 1]);
		t[c + 1] = _mm512_unpackhi_ps(r[c], r[c + 1]);
	}
	/* u[4g + e], lane L = rows 4g .. 4g+3 of element 4L + e */
#pragma GCC unroll 4
	for (g = 0; g < 4; g++) {
		__m512d a0 = _mm512_castps_pd(t[4 * g]), a1 = _mm512_castps_pd(t[4 * g + 1]);
		__m512d a2 = _mm512_castps_pd(t[4 * g + 2]), a3 = _mm512_castps_pd(t[4 * g + 3]);
		u[4 * g + 0] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
		u[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
		u[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
		u[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
	}
#pragma GCC unroll 4
	for (e = 0; e < 4; e++) {
		__m512 v0 = _mm512_shuffle_f32x4(u[e], u[4 + e], 0x44);
		__m512 v1 = _mm512_shuffle_f32x4(u[e], u[4 + e], 0xEE);
		__m512 v2 = _mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0x44);
		__m512 v3 = _mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0xEE);
		_mm512_storeu_ps(dst + (0 + e) * 16, _mm512_shuffle_f32x4(v0, v2, 0x88));
		_mm512_storeu_ps(dst + (4 + e) * 16, _mm512_shuffle_f32x4(v0, v2, 0xDD));
		_mm512_storeu_ps(dst + (8 + e) * 16, _mm512_shuffle_f32x4(v1, v3, 0x88));
		_mm512_storeu_ps(dst + (12 + e) * 16, _mm512_shuffle_f32x4(v1, v3, 0xDD));
	}
}

#define KB_ATTR T5
#define KB_V __m512
#define KB_W 16
#define KB_NV 2
#define KB_MR MR5
#define KB_M __mmask16
#define KB_MASK(c) mask5(c)
#define KB_ZERO() _mm512_setzero_ps()
#define KB_LOAD(p) _mm512_loadu_ps(p)
#define KB_STORE(p, v) _mm512_storeu_ps(p, v)
#define KB_MLOAD(m, p) _mm512_maskz_loadu_ps(m, p)
#define KB_MSTORE(m, p, v) _mm512_mask_storeu_ps(p, m, v)
#define KB_BCAST(p) _mm512_set1_ps(*(p))
#define KB_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define KB_IMAC(a, b, c) imac5(a, b, c)
#define KB_CANON(v) canon5(v)
#define KB_NAME(x) x##5
#define KB_LF32 L_F32
#define KB_LF16 L_F16
#define KB_LBF16 L_BF16
#define KB_LD(p, kind) ld16(p, kind)
#define KB_LD8(p, kind, lut) ld16b(p, kind, lut)
#define KB_LUT8 lut8
#define KB_TR(s, cs, kind, d) tr16(s, cs, kind, d)
#define KB_LOWER mmad_isa_avx2
#include "mmad_kbody.h"

const struct mmad_isa mmad_isa_avx512 = {
	2, MR5, 32, f325, i325, box5, dec5,
};
#else
typedef int mmad_avx512_unused; /* ISO C: a translation unit is never empty */
#endif
