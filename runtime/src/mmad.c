/* mmad.c: the cube instruction (ptort.h section 4.2, docs/semantics.md §6.3): operand
 * checks, the plan of a call (which view of A, B and C the kernels use, see
 * mmad_internal.h), the block loops over the kernels of the ISA level, and the MX
 * path (scaled fp8/fp4 products).
 *
 * Host arithmetic used, and why each use is exact or a single IEEE rounding:
 *   - decoding f16/bf16/fp8/hif8/fp4 to f32 is exact (mmad_pack.c);
 *   - the float triples are fused multiply-adds (mmad_kernel.c, mmad_avx2.c,
 *     mmad_avx512.c): exact product, one rounding, which is the definition;
 *   - MX: each operand is multiplied by its block's scale 2^(s - 127) before the
 *     kernels, exact when every scale of the call is in mmad_mx_range (the
 *     product of the scaled operands is then the exact scaled product, which the
 *     fused multiply-add keeps exact whatever its own range); otherwise mx_exact()
 *     does each step in double (see mmad_add_exact).
 * The FP environment is forced to round-to-nearest without DAZ/FTZ for the duration
 * of the call (mmad_fenv_enter). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "cvt_internal.h"
#include "mem_internal.h"
#include "mmad_internal.h"

#define MMAD_MAX_DIM 4095u
#define F32_QNAN 0x7FC00000u
#define KC 256u /* k steps per kernel call (B panels of a call stay in L1, decoded A in L2) */

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

/* ---- C buffer (generic layouts) ------------------------------------------------------ */

/* Fills cb (m x n, row-major) with the initial values' bit patterns from a bias row or
 * a C_in tile. -1: out of memory. */
static int gather_c(ptort_ctx *ctx, uint32_t *cb, uint32_t m, uint32_t n, int init,
		    const ptort_tile *it)
{
	uint32_t i, j;
	struct tview v;
	if (tview_init(&v, ctx, it, init == PTORT_MMAD_INIT_BIAS ? 1 : m, n))
		return -1;
	for (i = 0; i < (init == PTORT_MMAD_INIT_BIAS ? 1u : m); i++)
		for (j = 0; j < n; j++)
			cb[(size_t)i * n + j] = tview_get(&v, i, j);
	tview_free(&v);
	return 0;
}

/* Writes the buffer into c_out's valid m x n region (values already canonical). */
static int store_c(ptort_ctx *ctx, const ptort_tile *c, const uint32_t *cb, uint32_t m,
		   uint32_t n)
{
	struct tview v;
	uint8_t *base = ptort_mem_base(ctx, (ptort_mem)c->mem) + c->addr;
	uint32_t i, j;
	if (tview_init(&v, ctx, c, m, n))
		return -1;
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			put32(base + (v.roff[i] + v.coff[j]) * 4, cb[(size_t)i * n + j]);
	tview_free(&v);
	return 0;
}

/* ---- scratch memory ------------------------------------------------------------------- *
 * The panels of a 256^3 mmad take ~0.5 MB; allocating them per call costs page faults
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

static int oom(ptort_ctx *ctx, const char *op)
{
	ptort_report(ctx, "%s: out of host memory", op);
	return -1;
}

/* ---- the plan and the block loops ------------------------------------------------------ */

static size_t tile_bytes(const ptort_tile *t)
{
	return (size_t)((uint64_t)t->rows * t->cols * ptort_type_bits((ptort_type)t->type) / 8);
}

/* Whether two tiles' footprints share a byte. */
static int overlap(const ptort_tile *x, const ptort_tile *y)
{
	return x->mem == y->mem && x->addr < y->addr + tile_bytes(y) &&
	       y->addr < x->addr + tile_bytes(x);
}

static int same_tile(const ptort_tile *x, const ptort_tile *y)
{
	return x->mem == y->mem && x->addr == y->addr && x->type == y->type &&
	       x->blayout == y->blayout && x->slayout == y->slayout && x->rows == y->rows &&
	       x->cols == y->cols && (!x->slayout || x->fractal == y->fractal);
}

/* The MX scales of a call, compact: sa[i * kb + q/32], sb[(q/32) * n + j]. */
struct mx_scales {
	const uint8_t *sa, *sb;
	uint32_t kb;
};

/* One call on checked operands: A, B decoded into the kernels' views, C updated in
 * place (or through a buffer), see mmad_internal.h. */
static int mm_run(ptort_ctx *ctx, const char *op, const ptort_tile *c_out, const ptort_tile *a,
		  const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
		  const ptort_tile *it, const struct mx_scales *mx)
{
	const struct mmad_isa *isa = mmad_isa_get();
	mmad_kernel_fn kern = c_out->type == PTORT_F32 ? isa->f32 : isa->i32;
	const uint8_t *abase = ptort_mem_base(ctx, (ptort_mem)a->mem) + a->addr;
	const uint8_t *bbase = ptort_mem_base(ctx, (ptort_mem)b->mem) + b->addr;
	uint8_t *cmem = ptort_mem_base(ctx, (ptort_mem)c_out->mem) + c_out->addr;
	uint32_t brows = mmad_b_rows(b, k), np = (n + 15) / 16, npad = (n + 31) / 32 * 32;
	uint32_t kc = mmad_kc(a, KC);
	size_t sa_b = mmad_prep_a_bytes(isa, a, m, kc < k ? kc : k, n), sb_b, sc_b = 0, si_b = 0,
	       sr_b = 0, ld, cgs;
	size_t ldin = 0, cgsin = 0;
	struct mmad_dec da, db;
	struct mmad_aview av;
	struct mmad_kargs x;
	unsigned char *blk;
	uint32_t *abuf = NULL, *bp, *cbuf = NULL, *ibuf = NULL, *row = NULL;
	uint32_t *cbase, q0, i0, j0, r, nb, bi;
	size_t *roff;
	const uint32_t *cinbase = NULL;
	int owned, rc = -1, direct, init0;
	mmad_fenv fe;

	/* A read in place must not be c_out's bytes (all inputs are read first) */
	if (!sa_b && overlap(a, c_out))
		sa_b = (size_t)m * mmad_a_ld(kc < k ? kc : k) * 4;
	direct = mmad_cview(c_out, &ld, &cgs) == 0;
	init0 = init == PTORT_MMAD_INIT_ZERO ? MMAD_INIT_ZERO
		: init == PTORT_MMAD_INIT_BIAS ? MMAD_INIT_ROW
					       : MMAD_INIT_LOAD;
	if (!direct) {
		sc_b = (size_t)m * n * 4; /* C in a row-major buffer, stored at the end */
		ld = n, cgs = 16;
	} else if (init == PTORT_MMAD_INIT_C && !same_tile(it, c_out) &&
		   (overlap(it, c_out) || mmad_cview(it, &ldin, &cgsin))) {
		si_b = (size_t)m * n * 4; /* C_in through a row-major buffer */
	}
	if (init == PTORT_MMAD_INIT_BIAS)
		sr_b = (size_t)npad * 4;
	sb_b = (size_t)np * brows * MMAD_PANEL * 4;
	blk = scratch_get(up64(sa_b) + up64(sb_b) + up64(sc_b) + up64(si_b) + up64(sr_b) +
				  up64((size_t)m * sizeof *roff),
			  &owned);
	if (!blk)
		return oom(ctx, op);
	bp = (uint32_t *)(void *)blk;
	blk += up64(sb_b);
	roff = (size_t *)(void *)blk;
	blk += up64((size_t)m * sizeof *roff);
	if (sa_b)
		abuf = (uint32_t *)(void *)blk, blk += up64(sa_b);
	if (sc_b)
		cbuf = (uint32_t *)(void *)blk, blk += up64(sc_b);
	if (si_b)
		ibuf = (uint32_t *)(void *)blk, blk += up64(si_b);
	if (sr_b)
		row = (uint32_t *)(void *)blk;

	mmad_fenv_enter(&fe);
	mmad_dec_init(&da, (ptort_type)a->type);
	mmad_dec_init(&db, (ptort_type)b->type);
	if (mmad_prep_b(isa, bbase, b, &db, k, n, bp))
		goto out;
	if (mx)
		mmad_scale_b(bp, brows, mx->sb, k, n, mx->kb);
	/* C: the kernels' view of c_out and of the initial values */
	if (row) {
		memset(row, 0, sr_b);
		if (gather_c(ctx, row, 1, n, init, it))
			goto out;
	}
	if (cbuf) {
		cbase = cbuf;
		if (init == PTORT_MMAD_INIT_C && gather_c(ctx, cbuf, m, n, init, it))
			goto out;
		cinbase = cbuf, ldin = ld, cgsin = cgs;
	} else {
		cbase = (uint32_t *)(void *)cmem;
		if (ibuf) {
			if (gather_c(ctx, ibuf, m, n, init, it))
				goto out;
			cinbase = ibuf, ldin = n, cgsin = 16;
		} else if (init == PTORT_MMAD_INIT_C && !same_tile(it, c_out)) {
			cinbase = (const uint32_t *)(const void *)(ptort_mem_base(ctx, (ptort_mem)it->mem) +
								   it->addr);
		} else {
			cinbase = cbase, ldin = ld, cgsin = cgs;
		}
	}
	memset(&x, 0, sizeof x);
	nb = (m + isa->mr - 1) / isa->mr;
	x.bgs = (size_t)brows * MMAD_PANEL;
	x.ldc = ld;
	/* k blocks: a whole number of A's box columns (mmad_kc); A decoded per block */
	for (q0 = 0; q0 < k; q0 += kc) {
		int first = q0 == 0;
		const uint32_t *ab;
		x.k = k - q0 < kc ? k - q0 : kc;
		if (mmad_prep_a(isa, abase, a, &da, m, q0, x.k, abuf, mmad_a_ld(kc < k ? kc : k), &av))
			goto out;
		if (mx && abuf)
			mmad_scale_a(abuf, av.lda, mx->sa, m, q0, x.k, mx->kb);
		ab = (const uint32_t *)av.base;
		if (!abuf) /* in place: the block's first column */
			ab += av.kblk == (size_t)-1 ? q0 : q0 / av.kblk * av.kstride + q0 % av.kblk;
		if (first) /* A's row offsets (without a division per block) */
			for (i0 = 0, r = 0, j0 = 0; i0 < m; i0++) {
				roff[i0] = av.rblk == (size_t)-1 ? (size_t)i0 * av.lda
								 : j0 * av.rstride + r * av.lda;
				if (++r == av.rblk)
					r = 0, j0++;
			}
		x.kblk = av.kblk, x.kstride = av.kstride;
		x.canon = q0 + x.k >= k;
		x.init = first ? init0 : MMAD_INIT_LOAD;
		for (j0 = 0; j0 < n; j0 += isa->nr) {
			size_t coff = (size_t)(j0 / 16) * cgs;
			x.nr = n - j0 < isa->nr ? n - j0 : isa->nr;
			x.b = bp + (size_t)(j0 / 16) * x.bgs + (size_t)q0 * MMAD_PANEL;
			x.row = row ? row + j0 : NULL;
			x.cgs = cgs;
			for (i0 = 0, bi = 0; i0 < m; i0 += x.mr, bi++) {
				/* nb blocks of near-equal height (32 rows at 6: 6 6 5 5 5 5, not
				 * 6 6 6 6 6 2, whose 2-row block would wait on the FMA latency) */
				x.mr = m / nb + (bi < m % nb);
				for (r = 0; r < x.mr; r++)
					x.a[r] = ab + roff[i0 + r];
				x.c = cbase + coff + (size_t)i0 * ld;
				if (first) {
					x.cin = cinbase + (size_t)(j0 / 16) * cgsin + (size_t)i0 * ldin;
					x.ldin = ldin, x.cgsin = cgsin;
				} else {
					x.cin = x.c, x.ldin = ld, x.cgsin = cgs;
				}
				kern(&x);
			}
		}
	}
	if (cbuf && store_c(ctx, c_out, cbuf, m, n))
		goto out;
	rc = 0;
out:
	mmad_fenv_leave(&fe);
	if (owned)
		free(bp);
	if (rc)
		oom(ctx, op);
	return rc;
}

/* ---- ptort_mmad ---------------------------------------------------------------------- */

int ptort_mmad_now(ptort_ctx *ctx, const ptort_tile *c_out, const ptort_tile *a,
	       const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
	       const ptort_tile *bias_or_c_in)
{
	static const char op[] = "mmad";
	int at;

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
	return mm_run(ctx, op, c_out, a, b, m, k, n, init, bias_or_c_in, NULL);
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

static inline float u2f(uint32_t x)
{
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* The exact MX path for calls with extreme scales: every step through mmad_add_exact. */
static int mx_exact(ptort_ctx *ctx, const char *op, const ptort_tile *c_out, const ptort_tile *a,
		    const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
		    const ptort_tile *it, const struct mx_scales *mx)
{
	struct tview va, vb;
	struct mmad_dec d[2];
	float *af = NULL, *bt = NULL;
	uint32_t *cb = NULL, kb = mx->kb, i, j, q, x;
	int rc = -1;
	mmad_fenv fe;

	va.roff = vb.roff = va.coff = vb.coff = NULL;
	af = malloc((size_t)m * k * sizeof *af);
	bt = malloc((size_t)n * k * sizeof *bt);
	cb = malloc((size_t)m * n * sizeof *cb);
	if (!af || !bt || !cb || tview_init(&va, ctx, a, m, k) || tview_init(&vb, ctx, b, k, n))
		goto out;
	if (init == PTORT_MMAD_INIT_ZERO)
		memset(cb, 0, (size_t)m * n * 4);
	else if (gather_c(ctx, cb, init == PTORT_MMAD_INIT_BIAS ? 1 : m, n, init, it))
		goto out;
	if (init == PTORT_MMAD_INIT_BIAS)
		for (i = 1; i < m; i++)
			memcpy(cb + (size_t)i * n, cb, (size_t)n * 4);
	mmad_dec_init(&d[0], (ptort_type)a->type);
	mmad_dec_init(&d[1], (ptort_type)b->type);
	/* A row-major, B transposed (column j contiguous in q) */
	for (i = 0; i < m; i++)
		for (q = 0; q < k; q++) {
			x = d[0].lut[tview_get(&va, i, q)];
			af[(size_t)i * k + q] = u2f(x);
		}
	for (q = 0; q < k; q++)
		for (j = 0; j < n; j++) {
			x = d[1].lut[tview_get(&vb, q, j)];
			bt[(size_t)j * k + q] = u2f(x);
		}
	mmad_fenv_enter(&fe);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			const float *ar = af + (size_t)i * k, *bc = bt + (size_t)j * k;
			float acc = u2f(cb[(size_t)i * n + j]);
			double sc = 0;
			for (q = 0; q < k; q++) {
				if (q % 32 == 0)
					sc = mx_scale(mx->sa[(size_t)i * kb + q / 32],
						      mx->sb[(size_t)(q / 32) * n + j]);
				acc = mx_step(acc, ar[q], bc[q], sc);
			}
			memcpy(&x, &acc, 4);
			cb[(size_t)i * n + j] = (x & 0x7FFFFFFFu) > 0x7F800000u ? F32_QNAN : x;
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
	free(af), free(bt), free(cb);
	return rc;
}

/* out[r * cols + c] = the e8m0 element (r, c) of t, columns in chunks of 128 whose
 * offsets are computed once (every layout's offset is f(r) + g(c)). */
static void gather8(const uint8_t *base, const ptort_tile *t, uint32_t rows, uint32_t cols,
		    uint8_t *out)
{
	size_t g[128];
	uint32_t c0, c, r;
	for (c0 = 0; c0 < cols; c0 += 128) {
		uint32_t nc = cols - c0 < 128 ? cols - c0 : 128;
		for (c = 0; c < nc; c++)
			g[c] = ptort_tile_offset(t, 0, c0 + c);
		for (r = 0; r < rows; r++) {
			size_t f = ptort_tile_offset(t, r, 0);
			for (c = 0; c < nc; c++)
				out[(size_t)r * cols + c0 + c] = base[f + g[c]];
		}
	}
}

static _Thread_local unsigned long mx_counts[2]; /* calls through the kernels / mx_exact */

void mmad_mx_counts(unsigned long *fast, unsigned long *exact)
{
	*fast = mx_counts[0], *exact = mx_counts[1];
}

/* Whether every scale of the call keeps its operand exact (mmad_mx_range). */
static int mx_safe_all(ptort_type t, const uint8_t *sc, size_t n)
{
	int lo, hi;
	size_t i;
	mmad_mx_range(t, &lo, &hi);
	for (i = 0; i < n; i++)
		if (sc[i] != 0xFF && (sc[i] < lo || sc[i] > hi))
			return 0;
	return 1;
}

int ptort_mmad_mx_now(ptort_ctx *ctx, const ptort_tile *c_out, const ptort_tile *a,
		  const ptort_tile *a_scale, const ptort_tile *b, const ptort_tile *b_scale,
		  uint32_t m, uint32_t k, uint32_t n, int init, const ptort_tile *bias_or_c_in)
{
	static const char op[] = "mmad.mx";
	struct mx_scales mx;
	uint8_t small[1024], *sa, *sb;
	uint32_t kb = (k + 31) / 32;
	int rc, safe, big;

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
	big = (size_t)(m + n) * kb > sizeof small;
	sa = big ? malloc((size_t)(m + n) * kb) : small;
	if (!sa)
		return oom(ctx, op);
	sb = sa + (size_t)m * kb;
	gather8(ptort_mem_base(ctx, (ptort_mem)a_scale->mem) + a_scale->addr, a_scale, m, kb, sa);
	gather8(ptort_mem_base(ctx, (ptort_mem)b_scale->mem) + b_scale->addr, b_scale, kb, n, sb);
	safe = mx_safe_all((ptort_type)a->type, sa, (size_t)m * kb) &&
	       mx_safe_all((ptort_type)b->type, sb, (size_t)n * kb);
	mx.sa = sa, mx.sb = sb, mx.kb = kb;
	if (safe)
		mx_counts[0]++;
	else
		mx_counts[1]++;
	rc = safe ? mm_run(ctx, op, c_out, a, b, m, k, n, init, bias_or_c_in, &mx)
		  : mx_exact(ctx, op, c_out, a, b, m, k, n, init, bias_or_c_in, &mx);
	if (big)
		free(sa);
	return rc;
}
