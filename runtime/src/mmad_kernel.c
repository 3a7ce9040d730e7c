/* mmad_kernel.c: the register-blocked mmad kernels on packed panels (see
 * mmad_internal.h). Each C element is updated by one fused multiply-add per k step,
 * in increasing k: the register blocking only changes which elements are computed
 * together, never the order of the steps of one element, and C blocks are kept in
 * registers or stored and reloaded as exact f32 values, so the result is the
 * sequential definition bit for bit.
 *
 * Why the host arithmetic is exact here: the operands are f32 values (decoded
 * exactly); fmaf() and the FMA instructions compute a*b+c with the exact product and
 * ONE rounding to f32 (IEEE 754 fusedMultiplyAdd) in the current rounding mode, which
 * mmad_fenv_enter sets to round-to-nearest-even without DAZ/FTZ. No other float
 * operation is performed. The file must never be compiled with -ffast-math. */
#include <math.h>
#include <float.h>
#include <string.h>
#include <fenv.h>

#include "cpu_internal.h"
#include "mmad_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MMAD_X86 1
#else
#define MMAD_X86 0
#endif

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "mmad needs FLT_EVAL_METHOD == 0 (float arithmetic evaluated in float)"
#endif

static int forced_level = -1;

static int best_level(void)
{
#if MMAD_X86 && (defined(__GNUC__) || defined(__clang__))
	unsigned f = ptort_cpu_features();
	if ((f & PTORT_CPU_AVX2) && (f & PTORT_CPU_FMA))
		return 1;
#endif
	return 0;
}

int mmad_level(void)
{
	int b = best_level();
	return forced_level >= 0 && forced_level < b ? forced_level : b;
}

void ptort_mmad_force_level(int level)
{
	forced_level = level;
}

void mmad_fenv_enter(mmad_fenv *e)
{
	e->changed = 0;
	e->saved = 0;
#if MMAD_X86
	{
		/* MXCSR: RC (bits 13-14) = 0 nearest, FTZ (bit 15) and DAZ (bit 6) clear */
		unsigned csr = _mm_getcsr(), want = csr & ~0xE040u;
		e->saved = csr;
		if (want != csr) {
			_mm_setcsr(want);
			e->changed = 1;
		}
	}
#else
	{
		int r = fegetround();
		e->saved = (unsigned long)r;
		if (r != FE_TONEAREST) {
			fesetround(FE_TONEAREST);
			e->changed = 1;
		}
	}
#endif
}

void mmad_fenv_leave(const mmad_fenv *e)
{
	if (!e->changed)
		return;
#if MMAD_X86
	_mm_setcsr((unsigned)e->saved);
#else
	fesetround((int)e->saved);
#endif
}

/* ---- f32, portable ------------------------------------------------------------ */

static void block_c(const float *ap, const float *bp, float *c, size_t ldc, uint32_t k,
		    uint32_t mr, uint32_t nr)
{
	float acc[MMAD_MR][MMAD_NR];
	uint32_t r, j, q;

	memset(acc, 0, sizeof acc);
	for (r = 0; r < mr; r++)
		memcpy(acc[r], c + r * ldc, nr * sizeof(float));
	for (q = 0; q < k; q++) {
		const float *a = ap + (size_t)q * MMAD_MR, *b = bp + (size_t)q * MMAD_NR;
		for (r = 0; r < MMAD_MR; r++)
			for (j = 0; j < MMAD_NR; j++)
				acc[r][j] = fmaf(a[r], b[j], acc[r][j]);
	}
	for (r = 0; r < mr; r++)
		memcpy(c + r * ldc, acc[r], nr * sizeof(float));
}

/* ---- f32, AVX2 + FMA: 6 x 16 block in 12 registers ------------------------------- */

#if MMAD_X86 && (defined(__GNUC__) || defined(__clang__))
#define MMAD_HAVE_AVX2 1
__attribute__((target("avx2,fma"))) static void block_avx2(const float *ap, const float *bp,
							    float *c, size_t ldc, uint32_t k,
							    uint32_t mr, uint32_t nr)
{
	float tmp[MMAD_MR * MMAD_NR];
	float *cc = c;
	size_t ld = ldc;
	uint32_t r, q;
	__m256 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51, b0, b1, a;

	if (mr != MMAD_MR || nr != MMAD_NR) { /* edge block: through a full-size copy */
		memset(tmp, 0, sizeof tmp);
		for (r = 0; r < mr; r++)
			memcpy(tmp + r * MMAD_NR, c + r * ldc, nr * sizeof(float));
		cc = tmp;
		ld = MMAD_NR;
	}
	c00 = _mm256_loadu_ps(cc + 0 * ld), c01 = _mm256_loadu_ps(cc + 0 * ld + 8);
	c10 = _mm256_loadu_ps(cc + 1 * ld), c11 = _mm256_loadu_ps(cc + 1 * ld + 8);
	c20 = _mm256_loadu_ps(cc + 2 * ld), c21 = _mm256_loadu_ps(cc + 2 * ld + 8);
	c30 = _mm256_loadu_ps(cc + 3 * ld), c31 = _mm256_loadu_ps(cc + 3 * ld + 8);
	c40 = _mm256_loadu_ps(cc + 4 * ld), c41 = _mm256_loadu_ps(cc + 4 * ld + 8);
	c50 = _mm256_loadu_ps(cc + 5 * ld), c51 = _mm256_loadu_ps(cc + 5 * ld + 8);
	for (q = 0; q < k; q++) {
		const float *pa = ap + (size_t)q * MMAD_MR, *pb = bp + (size_t)q * MMAD_NR;
		b0 = _mm256_loadu_ps(pb);
		b1 = _mm256_loadu_ps(pb + 8);
		a = _mm256_broadcast_ss(pa + 0);
		c00 = _mm256_fmadd_ps(a, b0, c00), c01 = _mm256_fmadd_ps(a, b1, c01);
		a = _mm256_broadcast_ss(pa + 1);
		c10 = _mm256_fmadd_ps(a, b0, c10), c11 = _mm256_fmadd_ps(a, b1, c11);
		a = _mm256_broadcast_ss(pa + 2);
		c20 = _mm256_fmadd_ps(a, b0, c20), c21 = _mm256_fmadd_ps(a, b1, c21);
		a = _mm256_broadcast_ss(pa + 3);
		c30 = _mm256_fmadd_ps(a, b0, c30), c31 = _mm256_fmadd_ps(a, b1, c31);
		a = _mm256_broadcast_ss(pa + 4);
		c40 = _mm256_fmadd_ps(a, b0, c40), c41 = _mm256_fmadd_ps(a, b1, c41);
		a = _mm256_broadcast_ss(pa + 5);
		c50 = _mm256_fmadd_ps(a, b0, c50), c51 = _mm256_fmadd_ps(a, b1, c51);
	}
	_mm256_storeu_ps(cc + 0 * ld, c00), _mm256_storeu_ps(cc + 0 * ld + 8, c01);
	_mm256_storeu_ps(cc + 1 * ld, c10), _mm256_storeu_ps(cc + 1 * ld + 8, c11);
	_mm256_storeu_ps(cc + 2 * ld, c20), _mm256_storeu_ps(cc + 2 * ld + 8, c21);
	_mm256_storeu_ps(cc + 3 * ld, c30), _mm256_storeu_ps(cc + 3 * ld + 8, c31);
	_mm256_storeu_ps(cc + 4 * ld, c40), _mm256_storeu_ps(cc + 4 * ld + 8, c41);
	_mm256_storeu_ps(cc + 5 * ld, c50), _mm256_storeu_ps(cc + 5 * ld + 8, c51);
	if (cc == tmp)
		for (r = 0; r < mr; r++)
			memcpy(c + r * ldc, tmp + r * MMAD_NR, nr * sizeof(float));
}
#else
#define MMAD_HAVE_AVX2 0
#endif

void mmad_kernel_f32(const float *ap, const float *bp, float *c, size_t ldc, uint32_t m,
		     uint32_t k, uint32_t n)
{
	int level = mmad_level();
	uint32_t i0, j0;

	/* B panel outside (it stays in L1 while every A panel streams past it) */
	for (j0 = 0; j0 < n; j0 += MMAD_NR) {
		const float *bpan = bp + (size_t)(j0 / MMAD_NR) * k * MMAD_NR;
		uint32_t nr = n - j0 < MMAD_NR ? n - j0 : MMAD_NR;
		for (i0 = 0; i0 < m; i0 += MMAD_MR) {
			const float *apan = ap + (size_t)(i0 / MMAD_MR) * k * MMAD_MR;
			uint32_t mr = m - i0 < MMAD_MR ? m - i0 : MMAD_MR;
			float *cb = c + (size_t)i0 * ldc + j0;
#if MMAD_HAVE_AVX2
			if (level >= 1) {
				block_avx2(apan, bpan, cb, ldc, k, mr, nr);
				continue;
			}
#endif
			(void)level;
			block_c(apan, bpan, cb, ldc, k, mr, nr);
		}
	}
}

/* ---- i32: exact products of i8 values (|p| <= 2^14), sums modulo 2^32 in unsigned
 * arithmetic (no signed overflow). */
void mmad_kernel_i32(const int32_t *ap, const int32_t *bp, uint32_t *c, size_t ldc,
		     uint32_t m, uint32_t k, uint32_t n)
{
	uint32_t i0, j0, r, j, q;

	for (j0 = 0; j0 < n; j0 += MMAD_NR) {
		const int32_t *bpan = bp + (size_t)(j0 / MMAD_NR) * k * MMAD_NR;
		uint32_t nr = n - j0 < MMAD_NR ? n - j0 : MMAD_NR;
		for (i0 = 0; i0 < m; i0 += MMAD_MR) {
			const int32_t *apan = ap + (size_t)(i0 / MMAD_MR) * k * MMAD_MR;
			uint32_t mr = m - i0 < MMAD_MR ? m - i0 : MMAD_MR;
			uint32_t acc[MMAD_MR][MMAD_NR];
			memset(acc, 0, sizeof acc);
			for (r = 0; r < mr; r++)
				memcpy(acc[r], c + (size_t)(i0 + r) * ldc + j0, nr * sizeof(uint32_t));
			for (q = 0; q < k; q++) {
				const int32_t *a = apan + (size_t)q * MMAD_MR;
				const int32_t *b = bpan + (size_t)q * MMAD_NR;
				for (r = 0; r < MMAD_MR; r++)
					for (j = 0; j < MMAD_NR; j++)
						acc[r][j] += (uint32_t)a[r] * (uint32_t)b[j];
			}
			for (r = 0; r < mr; r++)
				memcpy(c + (size_t)(i0 + r) * ldc + j0, acc[r], nr * sizeof(uint32_t));
		}
	}
}
