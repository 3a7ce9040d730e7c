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
#define KB_TR(s, cs, kind, d) tr16(s, cs, kind, d)
#define KB_LOWER mmad_isa_avx2
#include "mmad_kbody.h"

const struct mmad_isa mmad_isa_avx512 = {
	2, MR5, 32, f325, i325, box5, dec165,
};
#else
typedef int mmad_avx512_unused; /* ISO C: a translation unit is never empty */
#endif
