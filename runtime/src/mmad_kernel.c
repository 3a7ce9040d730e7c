/* mmad_kernel.c: the FP environment of a call and the portable kernels, the lowest
 * ISA level (mmad_level.c picks the level; mmad_internal.h has the block view they
 * compute).
 *
 * Every kernel of every level updates each C element by one fused multiply-add per k
 * step, in increasing k: register blocking only changes which elements are computed
 * together, never the order of the steps of one element, and values stored and
 * reloaded between k blocks are exact f32 values. So every level gives the
 * sequential definition bit for bit.
 *
 * Why the host arithmetic is exact here: the operands are f32 values (decoded
 * exactly); fmaf() and the FMA instructions compute a*b+c with the exact product and
 * ONE rounding to f32 (IEEE 754 fusedMultiplyAdd) in the current rounding mode, which
 * mmad_fenv_enter sets to round-to-nearest-even without DAZ/FTZ. No other float
 * operation is performed. The mmad files must never be compiled with -ffast-math. */
#include <math.h>
#include <float.h>
#include <string.h>
#include <fenv.h>

#include "mmad_internal.h"

#if MMAD_X86
#include <immintrin.h>
#endif

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "mmad needs FLT_EVAL_METHOD == 0 (float arithmetic evaluated in float)"
#endif

/* ---- the FP environment ------------------------------------------------------------ */

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

/* ---- portable kernels: 4 x 16 blocks ------------------------------------------------ */

#define C_MR 4

static inline float ldf(const void *p, size_t i)
{
	float f;
	memcpy(&f, (const char *)p + i * 4, 4);
	return f;
}

static inline uint32_t ldu(const void *p, size_t i)
{
	uint32_t u;
	memcpy(&u, (const char *)p + i * 4, 4);
	return u;
}

static inline void stu(void *p, size_t i, uint32_t u)
{
	memcpy((char *)p + i * 4, &u, 4);
}

/* The initial bit patterns of the block (16 columns: one group). */
static void init_block(const struct mmad_kargs *x, uint32_t acc[C_MR][MMAD_PANEL])
{
	uint32_t r, j;
	for (r = 0; r < C_MR; r++)
		for (j = 0; j < MMAD_PANEL; j++) {
			uint32_t v = 0;
			if (r < x->mr && j < x->nr) {
				if (x->init == MMAD_INIT_LOAD)
					v = ldu(x->cin, (size_t)r * x->ldin + j);
				else if (x->init == MMAD_INIT_ROW)
					v = ldu(x->row, j);
			}
			acc[r][j] = v;
		}
}

/* One block: f32 with fmaf, or i32 (exact products of i8 values, |p| <= 2^14, summed
 * modulo 2^32 in unsigned arithmetic: no signed overflow). */
static void c_block(const struct mmad_kargs *x, int is_int)
{
	uint32_t bits[C_MR][MMAD_PANEL], r, j, t, t0;
	float acc[C_MR][MMAD_PANEL];
	size_t off;

	init_block(x, bits);
	memcpy(acc, bits, sizeof acc);
	for (t0 = 0, off = 0; t0 < x->k; t0 += (uint32_t)(x->kblk < x->k ? x->kblk : x->k),
	    off += x->kstride) {
		uint32_t len = x->k - t0;
		if (len > x->kblk)
			len = (uint32_t)x->kblk;
		for (t = 0; t < len; t++) {
			const char *bt = (const char *)x->b + (size_t)(t0 + t) * MMAD_PANEL * 4;
			for (r = 0; r < x->mr; r++) {
				if (is_int) {
					uint32_t av = ldu(x->a[r], off + t);
					for (j = 0; j < MMAD_PANEL; j++)
						bits[r][j] += av * ldu(bt, j);
				} else {
					float av = ldf(x->a[r], off + t);
					for (j = 0; j < MMAD_PANEL; j++)
						acc[r][j] = fmaf(av, ldf(bt, j), acc[r][j]);
				}
			}
		}
	}
	if (!is_int)
		memcpy(bits, acc, sizeof bits);
	for (r = 0; r < x->mr; r++)
		for (j = 0; j < x->nr; j++) {
			uint32_t v = bits[r][j];
			if (!is_int && x->canon && (v & 0x7FFFFFFFu) > 0x7F800000u)
				v = 0x7FC00000u;
			stu(x->c, (size_t)r * x->ldc + j, v);
		}
}

static void c_f32(const struct mmad_kargs *x)
{
	c_block(x, 0);
}

static void c_i32(const struct mmad_kargs *x)
{
	c_block(x, 1);
}

/* ---- portable packing helpers -------------------------------------------------------- */

static int c_box(ptort_type ty, const void *src, unsigned ri, uint32_t *dst)
{
	unsigned t, c;
	if (ty != PTORT_F32 && ty != PTORT_I32)
		return -1;
	for (c = 0; c < MMAD_PANEL; c++)
		for (t = 0; t < ri; t++)
			dst[t * MMAD_PANEL + c] = ldu(src, (size_t)c * ri + t);
	return 0;
}

/* f16 -> f32 in integers: exact (11-bit significands, exponents -24..15). */
static inline uint32_t f16_to_f32(uint32_t h)
{
	uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1F, f = h & 0x3FF;
	int ex;
	if (e == 0x1F)
		return s | 0x7F800000u | (f << 13);
	if (e)
		return s | ((e + 112) << 23) | (f << 13);
	if (!f)
		return s;
	ex = 113; /* f * 2^-24: normalise the significand to 1.f */
	while (!(f & 0x400)) {
		f <<= 1;
		ex--;
	}
	return s | ((uint32_t)ex << 23) | ((f & 0x3FF) << 13);
}

static inline uint32_t ldh(const void *p, size_t i)
{
	uint16_t h;
	memcpy(&h, (const char *)p + i * 2, 2);
	return h;
}

static void c_dec(const struct mmad_dec *d, const void *src, size_t ss, size_t n, size_t rows,
		  uint32_t *dst, size_t ds)
{
	const uint8_t *s8 = (const uint8_t *)src;
	size_t r, i;
	for (r = 0; r < rows; r++)
		for (i = 0; i < n; i++) {
			uint32_t h, v;
			switch (d->t) {
			case PTORT_F16:
			case PTORT_BF16:
				h = ldh(src, r * ss + i);
				v = d->t == PTORT_BF16 ? h << 16 : f16_to_f32(h);
				break;
			case PTORT_I8:
				v = (uint32_t)(int32_t)(int8_t)s8[r * ss + i];
				break;
			default:
				v = d->lut[s8[r * ss + i]];
				break;
			}
			dst[r * ds + i] = v;
		}
}

const struct mmad_isa mmad_isa_c = {
	0, C_MR, MMAD_PANEL, c_f32, c_i32, c_box, c_dec,
};
