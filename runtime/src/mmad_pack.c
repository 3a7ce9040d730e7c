/* mmad_pack.c: operand preparation for the mmad kernels (mmad_internal.h).
 *
 * Requires: tiles checked (ptort_check_tile: whole boxes, footprint inside the
 * memory), so every element of a box that holds a valid element is readable.
 * Moves bits and decodes exactly; the only float operation is mmad_scale_a/_b's
 * multiplication by a power of two, exact for the scales of mmad_mx_range.
 *
 * A: the kernels read A(i, q) through an index structure (struct mmad_aview) that
 * the z-layouts (Nz, Zz) and ND have: rows of a box are Ci elements apart, box
 * columns kstride apart. An f32 A in such a layout may be read in place; otherwise
 * each k block is decoded into row-major rows, row by row over the row's box columns
 * (2-D runs, so the decoders see whole box rows); other layouts are gathered.
 * B: panels of 16 columns, row t of panel g holding B(t, 16g .. 16g+15). A Zn (or Nn)
 * box of Ri x 16 is stored column by column, so a panel is the box column transposed:
 * each box is decoded and transposed by the level's box code. ND rows are copied;
 * other layouts gathered. */
#include <stdlib.h>
#include <string.h>

#include "cvt_internal.h"
#include "mmad_internal.h"

#define NONE ((size_t)-1) /* "no box boundary" for rblk / kblk */

/* ---- decoders ---------------------------------------------------------------------- */

/* Per-thread tables for the 8- and 4-bit types, and the scale range that keeps
 * v * 2^(s - 127) exact for every value v of the type (MX). */
enum { SLOT_E4M3, SLOT_E5M2, SLOT_HIF8, SLOT_E2M1, SLOT_E1M2, SLOT_COUNT };
static _Thread_local uint32_t lut_tab[SLOT_COUNT][256];
static _Thread_local int lut_smin[SLOT_COUNT], lut_smax[SLOT_COUNT];
static _Thread_local unsigned char lut_ok[SLOT_COUNT];

static int slot_of(ptort_type t)
{
	switch (t) {
	case PTORT_F8E4M3FN:
		return SLOT_E4M3;
	case PTORT_F8E5M2:
		return SLOT_E5M2;
	case PTORT_HIF8:
		return SLOT_HIF8;
	case PTORT_F4E2M1FN:
		return SLOT_E2M1;
	case PTORT_F4E1M2:
		return SLOT_E1M2;
	default:
		return -1;
	}
}

static int ctz32(uint32_t x)
{
	int n = 0;
	while (!(x & 1)) {
		x >>= 1;
		n++;
	}
	return n;
}

/* Builds the table of slot s (type t): values through ptort_cvt1 (an exact pair), and
 * [smin, smax]: v * 2^(s - 127) is exact and finite for every finite v iff the largest
 * msb exponent stays <= 127 and the smallest lsb exponent >= -149 (f32's subnormal
 * unit). Every value of these types is a normal f32. */
static void lut_build(int s, ptort_type t)
{
	unsigned i, n = 1u << ptort_type_bits(t);
	int emax = -1000, lmin = 1000;
	for (i = 0; i < n; i++) {
		uint32_t v = (uint32_t)ptort_cvt1(t, PTORT_F32, i, PTORT_RINT, PTORT_SAT_OFF);
		uint32_t e = (v >> 23) & 0xFF;
		lut_tab[s][i] = v;
		if (e && e != 0xFF) {
			int msb = (int)e - 127;
			int lsb = msb - 23 + ctz32((v & 0x7FFFFFu) | 0x800000u);
			if (msb > emax)
				emax = msb;
			if (lsb < lmin)
				lmin = lsb;
		}
	}
	for (; i < 256; i++)
		lut_tab[s][i] = 0;
	/* msb + s - 127 <= 127 and lsb + s - 127 >= -149, within the finite scales 0..254 */
	lut_smax[s] = 254 - emax < 254 ? 254 - emax : 254;
	lut_smin[s] = -22 - lmin > 0 ? -22 - lmin : 0;
	lut_ok[s] = 1;
}

void mmad_dec_init(struct mmad_dec *d, ptort_type t)
{
	int s = slot_of(t);
	d->t = t;
	d->lut = NULL;
	if (s >= 0) {
		if (!lut_ok[s])
			lut_build(s, t);
		d->lut = lut_tab[s];
	}
}

void mmad_mx_range(ptort_type t, int *lo, int *hi)
{
	int s = slot_of(t);
	*lo = 1, *hi = 0; /* empty: no type of this kind */
	if (s < 0)
		return;
	if (!lut_ok[s])
		lut_build(s, t);
	*lo = lut_smin[s], *hi = lut_smax[s];
}

/* One element (the generic paths). */
static uint32_t decode1(const struct mmad_dec *d, const uint8_t *base, size_t e)
{
	uint32_t x;
	uint16_t h;
	switch (d->t) {
	case PTORT_F32:
	case PTORT_I32:
		memcpy(&x, base + e * 4, 4);
		return x;
	case PTORT_F16:
	case PTORT_BF16:
		memcpy(&h, base + e * 2, 2);
		mmad_isa_c.dec(d, &h, 1, 1, 1, &x, 1);
		return x;
	default:
		break;
	}
	if (ptort_type_bits(d->t) == 8) {
		mmad_isa_c.dec(d, base + e, 1, 1, 1, &x, 1);
		return x;
	}
	return d->lut[(base[e >> 1] >> ((e & 1) * 4)) & 0xF]; /* element 2k: low nibble */
}

void mmad_decode_2d(const struct mmad_isa *isa, const struct mmad_dec *d, const uint8_t *base,
		    size_t e0, size_t ss, size_t n, size_t rows, uint32_t *dst, size_t ds)
{
	size_t r, u;
	switch (d->t) {
	case PTORT_F32:
	case PTORT_I32:
		for (r = 0; r < rows; r++) {
			const uint8_t *s = base + (e0 + r * ss) * 4;
			uint32_t *o = dst + r * ds;
			if (n == 8) /* box rows: constant sizes, inlined moves */
				memcpy(o, s, 32);
			else if (n == 16)
				memcpy(o, s, 64);
			else
				memcpy(o, s, n * 4);
		}
		return;
	case PTORT_F16:
	case PTORT_BF16:
		isa->dec(d, base + e0 * 2, ss, n, rows, dst, ds);
		return;
	default:
		break;
	}
	if (ptort_type_bits(d->t) == 8) {
		isa->dec(d, base + e0, ss, n, rows, dst, ds);
		return;
	}
	for (r = 0; r < rows; r++)
		for (u = 0; u < n; u++)
			dst[r * ds + u] = decode1(d, base, e0 + r * ss + u);
}

/* ---- views ------------------------------------------------------------------------- */

static uint32_t box_of(const ptort_tile *t, uint32_t *ri, uint32_t *ci)
{
	*ri = *ci = 1;
	if (t->slayout && ptort_layout_box((ptort_type)t->type, t->slayout, t->fractal, ri, ci))
		return 0;
	if (t->rows == 1)
		*ri = 1; /* a one-row tile: boxes of one row (layout.c) */
	return 1;
}

int mmad_zview(const ptort_tile *t, struct mmad_aview *v)
{
	uint32_t ri, ci;
	if (!box_of(t, &ri, &ci))
		return -1;
	if (t->slayout == 0 && t->blayout == 0) { /* ND */
		v->rblk = NONE, v->rstride = 0, v->lda = t->cols, v->kblk = NONE, v->kstride = 0;
		return 0;
	}
	if (t->slayout != 1)
		return -1;
	v->lda = ci, v->kblk = ci;
	if (t->blayout == 1) /* Nz: a column of boxes is R x Ci row-major */
		v->rblk = NONE, v->rstride = 0, v->kstride = (size_t)t->rows * ci;
	else /* Zz: a row of boxes holds Ri x C elements, box after box */
		v->rblk = ri, v->rstride = (size_t)ri * t->cols, v->kstride = (size_t)ri * ci;
	return 0;
}

static int is32(const ptort_tile *t)
{
	return t->type == PTORT_F32 || t->type == PTORT_I32;
}

size_t mmad_a_ld(uint32_t k)
{
	return ((size_t)k + 15) / 16 * 16;
}

/* [decision] A is read in place only when it is f32 in a z-layout or ND and either its
 * rows are long runs (ND) or it is read once (n fits one kernel block): the kernels
 * restart at every box column, which costs ~20 % with 8-element runs, more than a
 * copy of A when A is read several times. */
size_t mmad_prep_a_bytes(const struct mmad_isa *isa, const ptort_tile *a, uint32_t m,
			 uint32_t kc, uint32_t n)
{
	struct mmad_aview v;
	if (is32(a) && mmad_zview(a, &v) == 0 && (v.kblk == NONE || n <= isa->nr))
		return 0;
	return (size_t)m * mmad_a_ld(kc) * 4;
}

uint32_t mmad_kc(const ptort_tile *a, uint32_t kc)
{
	struct mmad_aview v;
	if (mmad_zview(a, &v) || v.kblk == NONE)
		return kc;
	return v.kblk >= kc ? (uint32_t)v.kblk : kc - kc % (uint32_t)v.kblk;
}

/* Any layout, element by element through offset tables (every layout's offset is
 * f(r) + g(c)): element (r, c0 + c) of the nr x nc region to out[r * ld + c], or with
 * ld 0 to B panels of ps elements. -1 when out of memory. */
static int gather(const ptort_tile *t, const struct mmad_dec *d, const uint8_t *tbase,
		  uint32_t c0, uint32_t nr, uint32_t nc, uint32_t *out, size_t ld, size_t ps)
{
	size_t *ro = malloc((size_t)nr * sizeof *ro), *co = malloc((size_t)nc * sizeof *co);
	uint32_t r, c;
	if (!ro || !co) {
		free(ro);
		free(co);
		return -1;
	}
	for (r = 0; r < nr; r++)
		ro[r] = ptort_tile_offset(t, r, 0);
	for (c = 0; c < nc; c++)
		co[c] = ptort_tile_offset(t, 0, c0 + c);
	for (r = 0; r < nr; r++)
		for (c = 0; c < nc; c++)
			out[ld ? r * ld + c : c / 16 * ps + (size_t)r * MMAD_PANEL + c % 16] =
				decode1(d, tbase, ro[r] + co[c]);
	free(ro);
	free(co);
	return 0;
}

int mmad_prep_a(const struct mmad_isa *isa, const uint8_t *tbase, const ptort_tile *a,
		const struct mmad_dec *d, uint32_t m, uint32_t q0, uint32_t kc, uint32_t *buf,
		size_t ld, struct mmad_aview *v)
{
	uint32_t i;
	if (mmad_zview(a, v) == 0) {
		size_t kb = v->kblk == NONE ? kc : v->kblk, full = v->kblk == NONE ? 0 : kc / kb;
		size_t e0 = v->kblk == NONE ? q0 : q0 / kb * v->kstride; /* q0 % kb == 0 */
		if (!buf) { /* f32 in place */
			v->base = tbase;
			return 0;
		}
		/* one 2-D run per row of A: its box columns kstride apart, written one after
		 * the other (rows of the buffer are written in order: writing a box column
		 * of all rows at once scatters the stores over the whole buffer) */
		for (i = 0; i < m; i++) {
			size_t e = e0 + (v->rblk == NONE ? i * v->lda
							 : i / v->rblk * v->rstride + i % v->rblk * v->lda);
			uint32_t *o = buf + i * ld;
			if (full)
				mmad_decode_2d(isa, d, tbase, e, v->kstride, kb, full, o, kb);
			if (kc > full * kb)
				mmad_decode_2d(isa, d, tbase, e + full * v->kstride, 0, kc - full * kb, 1,
					       o + full * kb, 0);
		}
	} else if (gather(a, d, tbase, q0, m, kc, buf, ld, 0)) { /* any other layout */
		return -1;
	}
	v->base = buf;
	v->rblk = NONE, v->rstride = 0, v->lda = ld, v->kblk = NONE, v->kstride = 0;
	return 0;
}

/* ---- B panels ----------------------------------------------------------------------- */

#define BOX_TMP 1024 /* elements of the decode buffer of one box (Ri <= 64) */

uint32_t mmad_b_rows(const ptort_tile *b, uint32_t k)
{
	uint32_t ri, ci;
	if (b->slayout == 2 && box_of(b, &ri, &ci) && ri * 16 <= BOX_TMP)
		return (k + ri - 1) / ri * ri;
	return k;
}

int mmad_prep_b(const struct mmad_isa *isa, const uint8_t *tbase, const ptort_tile *b,
		const struct mmad_dec *d, uint32_t k, uint32_t n, uint32_t *out)
{
	uint32_t rows = mmad_b_rows(b, k), np = (n + 15) / 16, g, t, c, ri, ci;
	size_t ps = (size_t)rows * MMAD_PANEL;
	if (b->slayout == 2 && box_of(b, &ri, &ci) && ri * 16 <= BOX_TMP) {
		/* Zn / Nn: box (br, g) is Ri x 16, column after column */
		uint32_t tmp[BOX_TMP];
		unsigned eb = ptort_type_bits((ptort_type)b->type);
		for (g = 0; g < np; g++)
			for (t = 0; t < rows; t += ri) {
				size_t e = b->blayout == 0
						   ? (size_t)(t / ri) * b->cols * ri + (size_t)g * ri * 16
						   : (size_t)g * b->rows * 16 + (size_t)(t / ri) * ri * 16;
				uint32_t *dst = out + g * ps + (size_t)t * MMAD_PANEL;
				/* 16- and 32-bit types in one go where the level can; else decoded
				 * first */
				if (eb >= 16 && isa->box((ptort_type)b->type, tbase + e * eb / 8, ri, dst) == 0)
					continue;
				mmad_decode_2d(isa, d, tbase, e, 0, (size_t)ri * 16, 1, tmp, 0);
				if (isa->box(PTORT_F32, tmp, ri, dst))
					mmad_isa_c.box(PTORT_F32, tmp, ri, dst);
			}
	} else if (b->slayout == 0 && b->blayout == 0) { /* ND: rows */
		for (g = 0; g < np; g++)
			mmad_decode_2d(isa, d, tbase, (size_t)g * 16, b->cols,
				       n - g * 16 < 16 ? n - g * 16 : 16, k, out + g * ps, MMAD_PANEL);
	} else if (gather(b, d, tbase, 0, k, n, out, 0, ps)) { /* any other layout */
		return -1;
	}
	if (n % 16) /* the lanes past n compute zeros */
		for (t = 0; t < rows; t++)
			for (c = n % 16; c < 16; c++)
				out[(np - 1) * ps + (size_t)t * MMAD_PANEL + c] = 0;
	return 0;
}

/* ---- MX scales ---------------------------------------------------------------------- */

/* 2^(s - 127) as an f32 (2^-127 is the subnormal 0x00400000), NaN for 0xFF. */
static float scale_f(unsigned s)
{
	uint32_t u;
	float f;
	if (s == 0xFF)
		u = 0x7FC00000u;
	else if (s == 0)
		u = 0x00400000u;
	else
		u = (uint32_t)s << 23;
	memcpy(&f, &u, 4);
	return f;
}

/* p[u] *= f[u % 16] for u < 16 * rows; exact: powers of two times values that stay
 * exact (mmad_mx_range). Fixed-size inner loops, which the compiler vectorises. */
static void scale_rows(uint32_t *p, size_t rows, const float f[16])
{
	size_t r, u;
	float x;
	for (r = 0; r < rows; r++, p += 16)
		for (u = 0; u < 16; u++) {
			memcpy(&x, p + u, 4);
			x = x * f[u];
			memcpy(p + u, &x, 4);
		}
}

void mmad_scale_a(uint32_t *buf, size_t ld, const uint8_t *sc, uint32_t m, uint32_t q0,
		  uint32_t kc, uint32_t kb)
{
	uint32_t i, q, u, len;
	float f[16], x;
	for (i = 0; i < m; i++)
		for (q = 0; q < kc; q += len) { /* runs within one block of 32 of A's k */
			uint32_t *p = buf + i * ld + q;
			len = 32 - (q0 + q) % 32;
			if (len > kc - q)
				len = kc - q;
			for (u = 0; u < 16; u++)
				f[u] = scale_f(sc[(size_t)i * kb + (q0 + q) / 32]);
			scale_rows(p, len / 16, f);
			for (u = len / 16 * 16; u < len; u++) { /* the run's last elements */
				memcpy(&x, p + u, 4);
				x = x * f[0];
				memcpy(p + u, &x, 4);
			}
		}
}

void mmad_scale_b(uint32_t *panels, uint32_t rows, const uint8_t *sc, uint32_t k, uint32_t n,
		  uint32_t kb)
{
	uint32_t g, t, c, np = (n + 15) / 16;
	float f[16];
	(void)kb;
	for (g = 0; g < np; g++)
		for (t = 0; t < k; t += 32) { /* a block of 32 rows: one scale per column */
			for (c = 0; c < 16; c++)
				f[c] = g * 16 + c < n ? scale_f(sc[(size_t)(t / 32) * n + g * 16 + c]) : 0.0f;
			scale_rows(panels + (size_t)g * rows * MMAD_PANEL + (size_t)t * MMAD_PANEL,
				   k - t < 32 ? k - t : 32, f);
		}
}

/* ---- C views ------------------------------------------------------------------------ */

int mmad_cview(const ptort_tile *t, size_t *ld, size_t *cgs)
{
	uint32_t ri, ci;
	if (t->slayout == 0 && t->blayout == 0) {
		*ld = t->cols, *cgs = 16;
		return 0;
	}
	if (t->slayout == 1 && t->blayout == 1 && box_of(t, &ri, &ci) && ci == 16) {
		*ld = 16, *cgs = (size_t)t->rows * 16;
		return 0;
	}
	return -1;
}
