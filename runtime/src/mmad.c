/* mmad.c: the cube instruction (ptort.h section 4.2, SEMANTICS.md §6.3): operand
 * checks, packing of the valid regions of A and B from their tile layouts into f32
 * or i32 panels, the C buffer (init from zero, the bias row or C_in), the kernels of
 * mmad_kernel.c, and the MX path (scaled fp8/fp4 products).
 *
 * Host arithmetic used, and why each use is exact or a single IEEE rounding:
 *   - decoding f16/bf16/fp8/hif8/fp4 to f32 is done in integers or through
 *     ptort_cvt1 (exact pairs: every value of these formats is an f32 value);
 *   - the float triples are fmaf(a, b, acc) (mmad_kernel.c): exact product, one
 *     rounding, which is the definition;
 *   - MX: see mx_step(). The FP environment is forced to round-to-nearest without
 *     DAZ/FTZ for the duration of the call (mmad_fenv_enter). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "cvt_internal.h"
#include "mem_internal.h"
#include "mmad_internal.h"

#define MMAD_MAX_DIM 4095u
#define F32_QNAN 0x7FC00000u

/* ---- reading tiles -------------------------------------------------------------- */

/* Element access to a tile's region: offset(r, c) = roff[r] + coff[c] (every layout
 * is of that form, see layout.c). */
struct tview {
	const uint8_t *base; /* the memory's byte 0 + the tile's address */
	unsigned bits;
	size_t *roff, *coff;
};

static int tview_init(struct tview *v, ptort_ctx *ctx, const ptort_tile *t, uint32_t nr,
		      uint32_t nc)
{
	uint32_t i;
	v->base = ptort_mem_base(ctx, (ptort_mem)t->mem) + t->addr;
	v->bits = ptort_type_bits((ptort_type)t->type);
	v->roff = malloc((size_t)nr * sizeof(size_t));
	v->coff = malloc((size_t)nc * sizeof(size_t));
	if (!v->roff || !v->coff) {
		free(v->roff);
		free(v->coff);
		v->roff = v->coff = NULL;
		return -1;
	}
	for (i = 0; i < nr; i++)
		v->roff[i] = ptort_tile_offset(t, i, 0);
	for (i = 0; i < nc; i++)
		v->coff[i] = ptort_tile_offset(t, 0, i);
	return 0;
}

static void tview_free(struct tview *v)
{
	free(v->roff);
	free(v->coff);
}

static inline uint32_t tview_get(const struct tview *v, uint32_t r, uint32_t c)
{
	size_t e = v->roff[r] + v->coff[c];
	uint32_t x32;
	uint16_t x16;
	switch (v->bits) {
	case 32:
		memcpy(&x32, v->base + e * 4, 4);
		return x32;
	case 16:
		memcpy(&x16, v->base + e * 2, 2);
		return x16;
	case 8:
		return v->base[e];
	default: /* 4: element 2k is the low nibble of byte k */
		return (uint32_t)(v->base[e >> 1] >> ((e & 1) * 4)) & 0xF;
	}
}

static inline void put32(uint8_t *p, uint32_t x)
{
	memcpy(p, &x, 4);
}

/* ---- decoding operands to f32 bits ---------------------------------------------- */

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

struct decoder {
	ptort_type t;
	uint32_t lut[256]; /* 8- and 4-bit types */
};

static void decoder_init(struct decoder *d, ptort_type t)
{
	unsigned i, bits = ptort_type_bits(t);
	d->t = t;
	if (bits <= 8)
		for (i = 0; i < (1u << bits); i++)
			d->lut[i] = (uint32_t)ptort_cvt1(t, PTORT_F32, i, PTORT_RINT, PTORT_SAT_OFF);
}

static inline uint32_t decode(const struct decoder *d, uint32_t x)
{
	switch (d->t) {
	case PTORT_F32:
	case PTORT_I8: /* handled by the integer packer; kept total */
		return x;
	case PTORT_F16:
		return f16_to_f32(x);
	case PTORT_BF16:
		return x << 16;
	default:
		return d->lut[x & 0xFF];
	}
}

/* ---- packing -------------------------------------------------------------------- */

static inline float u2f(uint32_t x)
{
	float f;
	memcpy(&f, &x, 4);
	return f;
}
static inline uint32_t f2u(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	return x;
}

static inline uint32_t ld32(const uint8_t *b, size_t e)
{
	uint32_t x;
	memcpy(&x, b + e * 4, 4);
	return x;
}
static inline uint32_t ld16(const uint8_t *b, size_t e)
{
	uint16_t x;
	memcpy(&x, b + e * 2, 2);
	return x;
}
static inline uint32_t ld8(const uint8_t *b, size_t e)
{
	return b[e];
}
static inline uint32_t ld4(const uint8_t *b, size_t e)
{
	return (uint32_t)(b[e >> 1] >> ((e & 1) * 4)) & 0xF;
}
static inline uint32_t dec_id(const struct decoder *d, uint32_t x)
{
	(void)d;
	return x;
}
static inline uint32_t dec_f16(const struct decoder *d, uint32_t x)
{
	(void)d;
	return f16_to_f32(x);
}
static inline uint32_t dec_bf16(const struct decoder *d, uint32_t x)
{
	(void)d;
	return x << 16;
}
static inline uint32_t dec_lut(const struct decoder *d, uint32_t x)
{
	return d->lut[x & 0xFF];
}

/* A (m x k) into MR-row panels, B (k x n) into NR-column panels of floats (see
 * mmad_internal.h), one specialised pair per storage format so that the element loop
 * has no dispatch. The buffers are zero-filled past m / n by the caller. */
#define DEF_PACK(NAME, LD, DEC)                                                              \
	static void NAME##_a(const struct tview *v, const struct decoder *d, float *f,        \
			     uint32_t m, uint32_t k)                                           \
	{                                                                                     \
		uint32_t i0, r, q, mr;                                                        \
		for (i0 = 0; i0 < m; i0 += MMAD_MR) {                                         \
			float *p = f + (size_t)i0 * k;                                        \
			const size_t *ro = v->roff + i0;                                      \
			mr = m - i0 < MMAD_MR ? m - i0 : MMAD_MR;                             \
			for (q = 0; q < k; q++, p += MMAD_MR)                                 \
				for (r = 0; r < mr; r++)                                      \
					p[r] = u2f(DEC(d, LD(v->base, ro[r] + v->coff[q])));  \
		}                                                                             \
	}                                                                                     \
	static void NAME##_b(const struct tview *v, const struct decoder *d, float *f,        \
			     uint32_t k, uint32_t n)                                           \
	{                                                                                     \
		uint32_t j0, c, q, nr;                                                        \
		for (j0 = 0; j0 < n; j0 += MMAD_NR) {                                        \
			float *p = f + (size_t)j0 * k;                                        \
			const size_t *co = v->coff + j0;                                      \
			nr = n - j0 < MMAD_NR ? n - j0 : MMAD_NR;                             \
			for (q = 0; q < k; q++, p += MMAD_NR)                                 \
				for (c = 0; c < nr; c++)                                      \
					p[c] = u2f(DEC(d, LD(v->base, v->roff[q] + co[c])));  \
		}                                                                             \
	}
DEF_PACK(pk_f32, ld32, dec_id)
DEF_PACK(pk_f16, ld16, dec_f16)
DEF_PACK(pk_bf16, ld16, dec_bf16)
DEF_PACK(pk_lut8, ld8, dec_lut)
DEF_PACK(pk_lut4, ld4, dec_lut)

static void pack_f(const struct tview *v, const struct decoder *d, float *f, uint32_t rows,
		   uint32_t cols, int is_a)
{
	void (*fa)(const struct tview *, const struct decoder *, float *, uint32_t, uint32_t);
	void (*fb)(const struct tview *, const struct decoder *, float *, uint32_t, uint32_t);
	switch (d->t) {
	case PTORT_F32:
		fa = pk_f32_a, fb = pk_f32_b;
		break;
	case PTORT_F16:
		fa = pk_f16_a, fb = pk_f16_b;
		break;
	case PTORT_BF16:
		fa = pk_bf16_a, fb = pk_bf16_b;
		break;
	default:
		if (v->bits == 4)
			fa = pk_lut4_a, fb = pk_lut4_b;
		else
			fa = pk_lut8_a, fb = pk_lut8_b;
		break;
	}
	(is_a ? fa : fb)(v, d, f, rows, cols);
}

/* The same for i8 operands into int32 panels. */
static void pack_i8(const struct tview *v, int32_t *o, uint32_t rows, uint32_t cols, int is_a,
		    uint32_t k)
{
	uint32_t r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			int32_t x = (int8_t)(uint8_t)ld8(v->base, v->roff[r] + v->coff[c]);
			if (is_a) /* r = i, c = q */
				o[(size_t)(r / MMAD_MR) * k * MMAD_MR + (size_t)c * MMAD_MR + r % MMAD_MR] = x;
			else /* r = q, c = j */
				o[(size_t)(c / MMAD_NR) * k * MMAD_NR + (size_t)r * MMAD_NR + c % MMAD_NR] = x;
		}
}

/* ---- checks ----------------------------------------------------------------------- */

static int is_fp8(unsigned t)
{
	return t == PTORT_F8E4M3FN || t == PTORT_F8E5M2;
}
static int is_fp4(unsigned t)
{
	return t == PTORT_F4E2M1FN || t == PTORT_F4E1M2;
}

/* The accumulator type of a (a, b) pair of ptort_mmad, or -1. */
static int acc_type(unsigned a, unsigned b)
{
	if (a == PTORT_I8 && b == PTORT_I8)
		return PTORT_I32;
	if ((a == b && (a == PTORT_F16 || a == PTORT_BF16 || a == PTORT_F32 || a == PTORT_HIF8)) ||
	    (is_fp8(a) && is_fp8(b)))
		return PTORT_F32;
	return -1;
}

static const char *tname(unsigned t)
{
	return t < PTORT_TYPE_COUNT ? ptort_type_name((ptort_type)t) : "?";
}

static int check_dim(ptort_ctx *ctx, const char *op, const char *what, uint32_t v)
{
	if (v < 1 || v > MMAD_MAX_DIM) {
		ptort_report(ctx, "%s: %s = %u outside [1, 4095]", op, what, v);
		return -1;
	}
	return 0;
}

static int check_fits(ptort_ctx *ctx, const char *op, const char *what, const ptort_tile *t,
		      uint32_t rows, uint32_t cols)
{
	if (rows > t->rows || cols > t->cols) {
		ptort_report(ctx, "%s: %s tile %ux%u is smaller than the %ux%u it must hold", op,
			     what, t->rows, t->cols, rows, cols);
		return -1;
	}
	return 0;
}

/* Checks shared by ptort_mmad and ptort_mmad_mx (types of A and B excepted). */
static int check_common(ptort_ctx *ctx, const char *op, const ptort_tile *c, const ptort_tile *a,
			const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
			const ptort_tile *it)
{
	if (ptort_check_tile(ctx, op, "destination", c) || ptort_check_tile(ctx, op, "left", a) ||
	    ptort_check_tile(ctx, op, "right", b))
		return -1;
	if (check_dim(ctx, op, "m", m) || check_dim(ctx, op, "k", k) || check_dim(ctx, op, "n", n))
		return -1;
	if (check_fits(ctx, op, "left", a, m, k) || check_fits(ctx, op, "right", b, k, n) ||
	    check_fits(ctx, op, "destination", c, m, n))
		return -1;
	if (init == PTORT_MMAD_INIT_ZERO)
		return 0;
	if (init != PTORT_MMAD_INIT_BIAS && init != PTORT_MMAD_INIT_C) {
		ptort_report(ctx, "%s: unknown init %d", op, init);
		return -1;
	}
	if (ptort_check_tile(ctx, op, init == PTORT_MMAD_INIT_BIAS ? "bias" : "accumulator input",
			     it))
		return -1;
	if (it->type != c->type) {
		ptort_report(ctx, "%s: %s type %s differs from the destination's %s", op,
			     init == PTORT_MMAD_INIT_BIAS ? "bias" : "accumulator input",
			     tname(it->type), tname(c->type));
		return -1;
	}
	if (init == PTORT_MMAD_INIT_BIAS)
		return check_fits(ctx, op, "bias", it, 1, n);
	return check_fits(ctx, op, "accumulator input", it, m, n);
}

/* ---- C buffer ---------------------------------------------------------------------- */

/* Fills cb (m x n, row-major) with the initial values' bit patterns. -1: out of memory. */
static int init_values(ptort_ctx *ctx, uint32_t *cb, uint32_t m, uint32_t n, int init,
		       const ptort_tile *it)
{
	uint32_t i, j;
	struct tview v;
	if (init == PTORT_MMAD_INIT_ZERO) {
		memset(cb, 0, (size_t)m * n * sizeof *cb); /* +0.0 / 0 */
		return 0;
	}
	if (tview_init(&v, ctx, it, init == PTORT_MMAD_INIT_BIAS ? 1 : m, n))
		return -1;
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			cb[(size_t)i * n + j] = tview_get(&v, init == PTORT_MMAD_INIT_BIAS ? 0 : i, j);
	tview_free(&v);
	return 0;
}

/* The m x n initial values (bit patterns, row-major) or NULL when out of memory. */
static uint32_t *init_buffer(ptort_ctx *ctx, uint32_t m, uint32_t n, int init,
			     const ptort_tile *it)
{
	uint32_t *cb = malloc((size_t)m * n * sizeof *cb);
	if (cb && init_values(ctx, cb, m, n, init, it)) {
		free(cb);
		cb = NULL;
	}
	return cb;
}

/* ---- scratch memory ------------------------------------------------------------------- *
 * The panels of a 256^3 mmad take ~0.8 MB; allocating them per call costs page faults
 * (glibc maps and unmaps blocks this size) comparable to the multiplication itself. Each
 * thread keeps one scratch block of up to SCRATCH_KEEP bytes; larger needs are
 * allocated and freed per call. */
#define SCRATCH_KEEP ((size_t)16 << 20)
static _Thread_local unsigned char *scratch_mem;
static _Thread_local size_t scratch_cap;

/* A block of `bytes` (64-byte aligned pieces are carved by the caller); *owned says
 * whether the caller must free it. NULL when out of memory. */
static void *scratch_get(size_t bytes, int *owned)
{
	*owned = 0;
	if (bytes > SCRATCH_KEEP) {
		*owned = 1;
		return malloc(bytes);
	}
	if (bytes > scratch_cap) {
		free(scratch_mem);
		scratch_cap = 0;
		scratch_mem = malloc(bytes);
		if (!scratch_mem)
			return NULL;
		scratch_cap = bytes;
	}
	return scratch_mem;
}

static size_t up64(size_t b)
{
	return (b + 63) & ~(size_t)63;
}

/* Writes the buffer into c_out's valid m x n region (f32 NaNs canonical). */
static int store_c(ptort_ctx *ctx, const ptort_tile *c, const uint32_t *cb, uint32_t m,
		   uint32_t n)
{
	struct tview v;
	uint8_t *base = ptort_mem_base(ctx, (ptort_mem)c->mem) + c->addr;
	int fl = c->type == PTORT_F32;
	uint32_t i, j;
	if (tview_init(&v, ctx, c, m, n))
		return -1;
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			uint32_t x = cb[(size_t)i * n + j];
			if (fl && (x & 0x7FFFFFFFu) > 0x7F800000u)
				x = F32_QNAN;
			put32(base + (v.roff[i] + v.coff[j]) * 4, x);
		}
	tview_free(&v);
	return 0;
}

static int oom(ptort_ctx *ctx, const char *op)
{
	ptort_report(ctx, "%s: out of host memory", op);
	return -1;
}

/* ---- ptort_mmad ---------------------------------------------------------------------- */

int ptort_mmad(ptort_ctx *ctx, const ptort_tile *c_out, const ptort_tile *a,
	       const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
	       const ptort_tile *bias_or_c_in)
{
	static const char op[] = "mmad";
	struct tview va, vb;
	struct decoder d[2];
	unsigned char *blk = NULL;
	uint32_t *cb;
	size_t mp, np, mn = (size_t)m * n, sa, sb, sc, e;
	int at, rc = -1, owned = 0;
	mmad_fenv fe;

	if (!ctx)
		return -1;
	if (check_common(ctx, op, c_out, a, b, m, k, n, init, bias_or_c_in))
		return -1;
	at = acc_type(a->type, b->type);
	if (at < 0 || (unsigned)at != c_out->type) {
		ptort_report(ctx, "%s: no matrix multiply %s x %s -> %s", op, tname(a->type),
			     tname(b->type), tname(c_out->type));
		return -1;
	}
	/* scratch: A panels | B panels | C values (bits) | C floats, 4-byte elements */
	mp = ((size_t)m + MMAD_MR - 1) / MMAD_MR * MMAD_MR;
	np = ((size_t)n + MMAD_NR - 1) / MMAD_NR * MMAD_NR;
	sa = up64(mp * k * 4), sb = up64(np * k * 4), sc = up64(mn * 4);
	va.roff = vb.roff = va.coff = vb.coff = NULL;
	blk = scratch_get(sa + sb + 2 * sc, &owned);
	if (!blk || tview_init(&va, ctx, a, m, k) || tview_init(&vb, ctx, b, k, n))
		goto out;
	cb = (uint32_t *)(void *)(blk + sa + sb);
	if (init_values(ctx, cb, m, n, init, bias_or_c_in))
		goto out;
	/* the padding lanes of the last panels are zero */
	memset(blk + (mp - MMAD_MR) * k * 4, 0, (size_t)MMAD_MR * k * 4);
	memset(blk + sa + (np - MMAD_NR) * k * 4, 0, (size_t)MMAD_NR * k * 4);
	if (at == PTORT_F32) {
		float *af = (float *)(void *)blk, *bf = (float *)(void *)(blk + sa);
		float *cf = (float *)(void *)(blk + sa + sb + sc);
		decoder_init(&d[0], (ptort_type)a->type);
		decoder_init(&d[1], (ptort_type)b->type);
		pack_f(&va, &d[0], af, m, k, 1);
		pack_f(&vb, &d[1], bf, k, n, 0);
		for (e = 0; e < mn; e++) /* f32 bit patterns -> float objects */
			cf[e] = u2f(cb[e]);
		mmad_fenv_enter(&fe);
		mmad_kernel_f32(af, bf, cf, n, m, k, n);
		mmad_fenv_leave(&fe);
		for (e = 0; e < mn; e++)
			cb[e] = f2u(cf[e]);
	} else {
		int32_t *ai = (int32_t *)(void *)blk, *bi = (int32_t *)(void *)(blk + sa);
		pack_i8(&va, ai, m, k, 1, k);
		pack_i8(&vb, bi, k, n, 0, k);
		mmad_kernel_i32(ai, bi, cb, n, m, k, n);
	}
	if (store_c(ctx, c_out, cb, m, n))
		goto out;
	rc = 0;
out:
	if (rc)
		oom(ctx, op);
	tview_free(&va);
	tview_free(&vb);
	if (owned)
		free(blk);
	return rc;
}

/* ---- ptort_mmad_mx ------------------------------------------------------------------ */

/* One MX step: round_f32(acc + p * 2^e) with p = a*b (mx_step), the sum and its
 * single rounding done by mmad_add_exact (any exact double p, any f32 acc).
 *  - a*b: fp8/fp4 values have <= 4 significant bits and exponents in [-17, 16], so the
 *    float product is exact (<= 8 bits, |exponent| < 40).
 *  - pd = (double)p * sc with sc = 2^e exactly (|e| <= 254, built from its bits) or NaN:
 *    an exact scaling (double has the exponent range for 2^(+-40 +- 254)).
 *  - s + t = acc + pd exactly (Knuth's TwoSum: exact under round-to-nearest when
 *    nothing overflows, and |acc + pd| < 2^300 cannot overflow a double).
 *  - s is made round-to-odd at 53 bits (when t != 0 and s's last bit is even, step one
 *    ulp toward t); rounding a round-to-odd 53-bit value to 24 bits by RNE equals
 *    rounding the exact value once (53 >= 24 + 2), subnormal and overflow cases
 *    included. The final (float) is one RNE rounding.
 *  - NaN/inf operands: plain IEEE addition in double, then (float).
 */
float mmad_add_exact(float acc, double p)
{
	double x = acc, s = x + p, bb, t;
	uint64_t u;
	if (s - s != 0 || p - p != 0) /* s or p inf/NaN: IEEE result */
		return (float)s;
	bb = s - x;
	t = (x - (s - bb)) + (p - bb);
	if (t != 0) {
		memcpy(&u, &s, 8);
		if (!(u & 1)) {
			if ((t > 0) == (s > 0))
				u++;
			else
				u--;
			memcpy(&s, &u, 8);
		}
	}
	return (float)s;
}

static float mx_step(float acc, float a, float b, double sc)
{
	return mmad_add_exact(acc, (double)(a * b) * sc);
}

static double mx_scale(uint32_t sa, uint32_t sb)
{
	uint64_t u;
	double d;
	if (sa == 0xFF || sb == 0xFF)
		u = 0x7FF8000000000000ull; /* an e8m0 NaN scale: the product is NaN */
	else
		u = (uint64_t)((int)sa + (int)sb - 254 + 1023) << 52;
	memcpy(&d, &u, 8);
	return d;
}

int ptort_mmad_mx(ptort_ctx *ctx, const ptort_tile *c_out, const ptort_tile *a,
		  const ptort_tile *a_scale, const ptort_tile *b, const ptort_tile *b_scale,
		  uint32_t m, uint32_t k, uint32_t n, int init, const ptort_tile *bias_or_c_in)
{
	static const char op[] = "mmad.mx";
	struct tview va, vb, vsa, vsb;
	struct decoder *d = NULL;
	float *af = NULL, *bt = NULL;
	uint8_t *sa = NULL, *sbt = NULL;
	uint32_t *cb = NULL, kb = (k + 31) / 32, i, j, q;
	int rc = -1;
	mmad_fenv fe;

	if (!ctx)
		return -1;
	if (check_common(ctx, op, c_out, a, b, m, k, n, init, bias_or_c_in))
		return -1;
	if (!((is_fp8(a->type) && is_fp8(b->type)) || (is_fp4(a->type) && is_fp4(b->type))) ||
	    c_out->type != PTORT_F32) {
		ptort_report(ctx, "%s: no scaled matrix multiply %s x %s -> %s", op, tname(a->type),
			     tname(b->type), tname(c_out->type));
		return -1;
	}
	if (ptort_check_tile(ctx, op, "left scale", a_scale) ||
	    ptort_check_tile(ctx, op, "right scale", b_scale))
		return -1;
	if (a_scale->type != PTORT_F8E8M0FNU || b_scale->type != PTORT_F8E8M0FNU) {
		ptort_report(ctx, "%s: scale tiles must be f8E8M0FNU, not %s and %s", op,
			     tname(a_scale->type), tname(b_scale->type));
		return -1;
	}
	if (check_fits(ctx, op, "left scale", a_scale, m, kb) ||
	    check_fits(ctx, op, "right scale", b_scale, kb, n))
		return -1;
	va.roff = vb.roff = vsa.roff = vsb.roff = NULL;
	va.coff = vb.coff = vsa.coff = vsb.coff = NULL;
	af = malloc((size_t)m * k * sizeof *af);
	bt = malloc((size_t)n * k * sizeof *bt);
	sa = malloc((size_t)m * kb);
	sbt = malloc((size_t)n * kb);
	d = malloc(2 * sizeof *d);
	if (!af || !bt || !sa || !sbt || !d || tview_init(&va, ctx, a, m, k) ||
	    tview_init(&vb, ctx, b, k, n) || tview_init(&vsa, ctx, a_scale, m, kb) ||
	    tview_init(&vsb, ctx, b_scale, kb, n))
		goto out;
	decoder_init(&d[0], (ptort_type)a->type);
	decoder_init(&d[1], (ptort_type)b->type);
	/* A row-major, B transposed (column j contiguous in q), scales likewise */
	for (i = 0; i < m; i++) {
		for (q = 0; q < k; q++)
			af[(size_t)i * k + q] = u2f(decode(&d[0], tview_get(&va, i, q)));
		for (q = 0; q < kb; q++)
			sa[(size_t)i * kb + q] = (uint8_t)tview_get(&vsa, i, q);
	}
	for (q = 0; q < k; q++)
		for (j = 0; j < n; j++)
			bt[(size_t)j * k + q] = u2f(decode(&d[1], tview_get(&vb, q, j)));
	for (q = 0; q < kb; q++)
		for (j = 0; j < n; j++)
			sbt[(size_t)j * kb + q] = (uint8_t)tview_get(&vsb, q, j);
	cb = init_buffer(ctx, m, n, init, bias_or_c_in);
	if (!cb)
		goto out;
	mmad_fenv_enter(&fe);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			const float *ar = af + (size_t)i * k, *bc = bt + (size_t)j * k;
			float acc = u2f(cb[(size_t)i * n + j]);
			double sc = 0;
			for (q = 0; q < k; q++) {
				if (q % 32 == 0)
					sc = mx_scale(sa[(size_t)i * kb + q / 32],
						      sbt[(size_t)j * kb + q / 32]);
				acc = mx_step(acc, ar[q], bc[q], sc);
			}
			memcpy(&cb[(size_t)i * n + j], &acc, 4);
		}
	mmad_fenv_leave(&fe);
	if (store_c(ctx, c_out, cb, m, n))
		goto out;
	rc = 0;
out:
	if (rc)
		oom(ctx, op);
	tview_free(&va);
	tview_free(&vb);
	tview_free(&vsa);
	tview_free(&vsb);
	free(d);
	free(af), free(bt), free(sa), free(sbt), free(cb);
	return rc;
}
