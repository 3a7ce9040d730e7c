/* vop.c: the vector operation instructions (ptort.h sections 5.2 and 5.3;
 * docs/semantics.md §7.4, docs/vector.md).
 *
 * One engine per form. The A2A3 repeat form gathers each repeat's selected source
 * lanes into contiguous buffers, computes them with the array kernels
 * (ptort_vop_run, vop_fast.c) and scatters the results, so a repeat reads everything
 * before it writes; when the operands are contiguous with a full or prefix mask the
 * gathers become plain pointers, and a whole instruction whose operands are
 * back-to-back repeats, disjoint from the destination or exactly in place, is one
 * run. The A5 register form does the same per 256-byte register, and whole rows at
 * once when no source overlaps the destination except exactly in place. */
#include <stdio.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"
#include "vop_internal.h"

enum kind { K_BIN, K_UN, K_DUP, K_CMP, K_SEL, K_RED };

/* One data operand: byte address and strides (A2A3 units) or pitch (A5). */
struct opnd {
	int used;
	uint32_t addr;
	uint32_t blk, rep; /* A2A3: blocks of 32 bytes, repeats in 32-byte units */
	uint32_t pitch;	   /* A5: bytes between rows */
	int brc;	   /* A5: one element per row (1), one 32-byte block per row (2) */
};

/* What an instruction computes. */
struct vins {
	enum kind kind;
	const char *name;
	ptort_vop op;
	ptort_cmp cmp;
	ptort_type t;
	unsigned eb; /* element bytes */
	struct opnd d, s0, s1;
	int has_scalar, scalar_first;
	uint64_t scalar;
	uint32_t bits; /* predicate array: compare output or select input */
	uint32_t bits_pitch;
	uint32_t group; /* reductions */
};

static uint64_t ldx(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	memcpy(&v, p, bytes); /* little-endian host */
	return v;
}

static void stx(uint8_t *p, unsigned bytes, uint64_t v)
{
	memcpy(p, &v, bytes);
}

static int bit_get(const uint8_t *p, uint64_t i)
{
	return (p[i / 8] >> (i % 8)) & 1;
}

static void bit_set(uint8_t *p, uint64_t i, int v)
{
	uint8_t m = (uint8_t)(1u << (i % 8));
	p[i / 8] = (uint8_t)(v ? (p[i / 8] | m) : (p[i / 8] & ~m));
}

/* The identity of a reduction: +0, the lowest value, the highest value. */
static uint64_t red_identity(ptort_vop op, ptort_type t)
{
	unsigned b = ptort_type_bits(t);
	uint64_t m = b >= 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1, sb = (uint64_t)1 << (b - 1);
	if (op == PTORT_VOP_ADD)
		return 0;
	if (ptort_type_is_float(t)) {
		uint64_t inf = ptort_vop1(PTORT_VOP_RECIP, t, 0, 0); /* 1/+0 = +inf */
		return op == PTORT_VOP_MAX ? inf | sb : inf;
	}
	if (ptort_type_is_signed_int(t))
		return op == PTORT_VOP_MAX ? sb : m & ~sb;
	return op == PTORT_VOP_MAX ? 0 : m;
}

/* Checks what every instruction shares: memory, type, op. */
static int check_common(ptort_ctx *ctx, const struct vins *v, unsigned mem)
{
	if (mem >= PTORT_MEM_COUNT) {
		ptort_report(ctx, "%s: unknown memory %u", v->name, mem);
		return -1;
	}
	if ((unsigned)v->t >= PTORT_TYPE_COUNT) {
		ptort_report(ctx, "%s: unknown element type %u", v->name, (unsigned)v->t);
		return -1;
	}
	if (v->kind == K_CMP) {
		if ((unsigned)v->cmp >= PTORT_CMP_COUNT) {
			ptort_report(ctx, "%s: unknown compare mode %u", v->name, (unsigned)v->cmp);
			return -1;
		}
		if (!ptort_vop_check(PTORT_VOP_MAX, v->t)) {
			ptort_report(ctx, "%s: compare is not defined on %s", v->name,
				     ptort_type_name(v->t));
			return -1;
		}
		return 0;
	}
	if (v->kind == K_DUP || v->kind == K_SEL) {
		if (!ptort_vop_check(PTORT_VOP_MOV, v->t)) {
			ptort_report(ctx, "%s: not defined on %s", v->name, ptort_type_name(v->t));
			return -1;
		}
		return 0;
	}
	if ((unsigned)v->op >= PTORT_VOP_COUNT) {
		ptort_report(ctx, "%s: unknown operation %u", v->name, (unsigned)v->op);
		return -1;
	}
	if (v->kind == K_RED ? v->op != PTORT_VOP_ADD && v->op != PTORT_VOP_MAX &&
				       v->op != PTORT_VOP_MIN
			     : ptort_vop_arity(v->op) != (v->kind == K_BIN ? 2 : 1)) {
		ptort_report(ctx, "%s: %s is not an operation of this instruction", v->name,
			     ptort_vop_name(v->op));
		return -1;
	}
	if (!ptort_vop_check(v->op, v->t)) {
		ptort_report(ctx, "%s: %s is not defined on %s", v->name, ptort_vop_name(v->op),
			     ptort_type_name(v->t));
		return -1;
	}
	return 0;
}

/* ---- A2A3 repeat form ------------------------------------------------------------- */

struct rgeo {
	unsigned lanes, per_blk, nsel, lmax;
	uint64_t m[2];
	int full, prefix;
};

static int lane_on(const struct rgeo *g, unsigned l)
{
	return (int)((g->m[l >> 6] >> (l & 63)) & 1);
}

static uint64_t lane_off(const struct opnd *o, const struct rgeo *g, uint32_t r, unsigned l,
			 unsigned eb)
{
	return (uint64_t)o->addr + (uint64_t)r * o->rep * 32 + (uint64_t)(l / g->per_blk) * o->blk * 32 +
	       (uint64_t)(l % g->per_blk) * eb;
}

/* bytes from the operand's address to the end of its furthest selected lane */
static uint64_t opnd_extent(const struct opnd *o, const struct rgeo *g, uint32_t repeat,
			    unsigned eb)
{
	uint64_t end = 0;
	unsigned l;
	for (l = 0; l < g->lanes; l++)
		if (lane_on(g, l)) {
			uint64_t e = lane_off(o, g, repeat - 1, l, eb) + eb - o->addr;
			end = e > end ? e : end;
		}
	return end;
}

static int range(ptort_ctx *ctx, const struct vins *v, unsigned mem, const char *what,
		 uint64_t start, uint64_t len)
{
	return ptort_check_range(ctx, v->name, what, mem, start, len);
}

/* Validates the geometry and footprints; fills g. */
static int rep_check(ptort_ctx *ctx, const struct vins *v, unsigned mem, uint32_t repeat,
		     uint64_t mask_hi, uint64_t mask_lo, struct rgeo *g)
{
	unsigned l, bitsw = v->eb * 8;
	if (check_common(ctx, v, mem))
		return -1;
	if (bitsw != 16 && bitsw != 32) {
		ptort_report(ctx, "%s: the repeat form takes 16- or 32-bit elements, not %s", v->name,
			     ptort_type_name(v->t));
		return -1;
	}
	if (!repeat) {
		ptort_report(ctx, "%s: repeat count is 0", v->name);
		return -1;
	}
	g->lanes = 2048 / bitsw;
	g->per_blk = g->lanes / 8;
	g->m[0] = g->lanes < 64 ? mask_lo & (((uint64_t)1 << g->lanes) - 1) : mask_lo;
	g->m[1] = g->lanes > 64 ? mask_hi : 0;
	g->nsel = 0, g->lmax = 0;
	for (l = 0; l < g->lanes; l++)
		if (lane_on(g, l))
			g->nsel++, g->lmax = l;
	if (!g->nsel) {
		ptort_report(ctx, "%s: the mask selects no lane", v->name);
		return -1;
	}
	g->full = g->nsel == g->lanes;
	g->prefix = g->lmax + 1 == g->nsel;
	if (v->s0.used && range(ctx, v, mem, "source", v->s0.addr, opnd_extent(&v->s0, g, repeat, v->eb)))
		return -1;
	if (v->s1.used && range(ctx, v, mem, "source", v->s1.addr, opnd_extent(&v->s1, g, repeat, v->eb)))
		return -1;
	if (v->kind == K_SEL || v->kind == K_CMP) {
		uint64_t nb = ((uint64_t)(repeat - 1) * g->lanes + g->lmax) / 8 + 1;
		if (range(ctx, v, mem, v->kind == K_SEL ? "select mask" : "destination", v->bits, nb))
			return -1;
	}
	if (v->kind == K_RED) {
		uint64_t ng = g->lanes / v->group, gmax = g->lmax / v->group;
		uint64_t len = ((uint64_t)(repeat - 1) * v->d.rep * ng + gmax + 1) * v->eb;
		if (range(ctx, v, mem, "destination", v->d.addr, len))
			return -1;
	} else if (v->d.used &&
		   range(ctx, v, mem, "destination", v->d.addr, opnd_extent(&v->d, g, repeat, v->eb))) {
		return -1;
	}
	return 0;
}

/* contiguous back-to-back repeats */
static int rep_contig(const struct opnd *o, uint32_t repeat)
{
	return o->blk == 1 && (repeat == 1 || o->rep == 8);
}

/* gathers the selected lanes of repeat r of o into buf */
static void gather(const uint8_t *base, const struct opnd *o, const struct rgeo *g, uint32_t r,
		   unsigned eb, uint8_t *buf)
{
	unsigned l, k = 0;
	for (l = 0; l < g->lanes; l++)
		if (lane_on(g, l))
			memcpy(buf + (size_t)k++ * eb, base + lane_off(o, g, r, l, eb), eb);
}

static void scatter(uint8_t *base, const struct opnd *o, const struct rgeo *g, uint32_t r,
		    unsigned eb, const uint8_t *buf)
{
	unsigned l, k = 0;
	for (l = 0; l < g->lanes; l++)
		if (lane_on(g, l))
			memcpy(base + lane_off(o, g, r, l, eb), buf + (size_t)k++ * eb, eb);
}

/* computes n gathered lanes: out = f(a, b) per the instruction */
static void compute(const struct vins *v, uint8_t *out, const uint8_t *a, const uint8_t *b,
		    size_t n)
{
	switch (v->kind) {
	case K_BIN:
		ptort_vop_run(v->op, v->t, out, a, v->has_scalar ? NULL : b,
			      v->has_scalar ? &v->scalar : NULL, v->scalar_first, n);
		break;
	case K_UN:
		ptort_vop_run(v->op, v->t, out, a, NULL, NULL, 0, n);
		break;
	case K_DUP: {
		size_t i;
		for (i = 0; i < n; i++)
			stx(out + i * v->eb, v->eb, v->scalar);
		break;
	}
	default:
		break;
	}
}

static int overlaps(const struct opnd *s, uint64_t slen, const struct opnd *d, uint64_t dlen)
{
	return ptort_overlap(s->addr, slen, d->addr, dlen);
}

/* the elementwise kinds: K_BIN, K_UN, K_DUP */
static void rep_elementwise(uint8_t *base, const struct vins *v, const struct rgeo *g,
			    uint32_t repeat)
{
	unsigned eb = v->eb;
	uint64_t dlen = opnd_extent(&v->d, g, repeat, eb);
	uint64_t alen = v->s0.used ? opnd_extent(&v->s0, g, repeat, eb) : 0;
	uint64_t blen = v->s1.used ? opnd_extent(&v->s1, g, repeat, eb) : 0;
	int a_ok = !v->s0.used || !overlaps(&v->s0, alen, &v->d, dlen) ||
		   (v->s0.addr == v->d.addr && v->s0.blk == v->d.blk && v->s0.rep == v->d.rep);
	int b_ok = !v->s1.used || !overlaps(&v->s1, blen, &v->d, dlen) ||
		   (v->s1.addr == v->d.addr && v->s1.blk == v->d.blk && v->s1.rep == v->d.rep);
	uint8_t abuf[256], bbuf[256], obuf[256];
	uint32_t r;
	/* the whole instruction as one run */
	if (g->full && a_ok && b_ok && rep_contig(&v->d, repeat) &&
	    (!v->s0.used || rep_contig(&v->s0, repeat)) && (!v->s1.used || rep_contig(&v->s1, repeat))) {
		compute(v, base + v->d.addr, v->s0.used ? base + v->s0.addr : NULL,
			v->s1.used ? base + v->s1.addr : NULL, (size_t)repeat * g->lanes);
		return;
	}
	for (r = 0; r < repeat; r++) {
		const uint8_t *pa = abuf, *pb = bbuf;
		/* contiguous prefix of every operand: pointers (a copy when overlapping) */
		if (g->prefix && v->d.blk == 1 && (!v->s0.used || v->s0.blk == 1) &&
		    (!v->s1.used || v->s1.blk == 1)) {
			uint8_t *pd = base + lane_off(&v->d, g, r, 0, eb);
			size_t n = g->nsel, len = n * eb;
			if (v->s0.used) {
				pa = base + lane_off(&v->s0, g, r, 0, eb);
				if (!a_ok || (pa != pd && ptort_overlap((uint64_t)(pa - base), len,
									(uint64_t)(pd - base), len)))
					pa = memcpy(abuf, pa, len);
			}
			if (v->s1.used) {
				pb = base + lane_off(&v->s1, g, r, 0, eb);
				if (!b_ok || (pb != pd && ptort_overlap((uint64_t)(pb - base), len,
									(uint64_t)(pd - base), len)))
					pb = memcpy(bbuf, pb, len);
			}
			compute(v, pd, pa, pb, n);
			continue;
		}
		if (v->s0.used)
			gather(base, &v->s0, g, r, eb, abuf);
		if (v->s1.used)
			gather(base, &v->s1, g, r, eb, bbuf);
		compute(v, obuf, abuf, bbuf, g->nsel);
		scatter(base, &v->d, g, r, eb, obuf);
	}
}

static void rep_cmp(uint8_t *base, const struct vins *v, const struct rgeo *g, uint32_t repeat)
{
	uint8_t abuf[256], bbuf[256];
	unsigned eb = v->eb, l, k;
	uint32_t r;
	for (r = 0; r < repeat; r++) {
		gather(base, &v->s0, g, r, eb, abuf);
		if (!v->has_scalar)
			gather(base, &v->s1, g, r, eb, bbuf);
		for (l = 0, k = 0; l < g->lanes; l++) {
			uint64_t a, b;
			if (!lane_on(g, l))
				continue;
			a = ldx(abuf + (size_t)k * eb, eb);
			b = v->has_scalar ? v->scalar : ldx(bbuf + (size_t)k * eb, eb);
			k++;
			bit_set(base + v->bits, (uint64_t)r * g->lanes + l, ptort_cmp1(v->cmp, v->t, a, b));
		}
	}
}

static void rep_sel(uint8_t *base, const struct vins *v, const struct rgeo *g, uint32_t repeat)
{
	uint8_t abuf[256], bbuf[256], obuf[256], sel[128];
	unsigned eb = v->eb, l, k;
	uint32_t r;
	for (r = 0; r < repeat; r++) {
		gather(base, &v->s0, g, r, eb, abuf);
		if (!v->has_scalar)
			gather(base, &v->s1, g, r, eb, bbuf);
		for (l = 0, k = 0; l < g->lanes; l++)
			if (lane_on(g, l))
				sel[k++] = (uint8_t)bit_get(base + v->bits, (uint64_t)r * g->lanes + l);
		for (k = 0; k < g->nsel; k++) {
			uint64_t x = sel[k] ? ldx(abuf + (size_t)k * eb, eb)
					    : v->has_scalar ? v->scalar : ldx(bbuf + (size_t)k * eb, eb);
			stx(obuf + (size_t)k * eb, eb, x);
		}
		scatter(base, &v->d, g, r, eb, obuf);
	}
}

/* Pairwise trees over consecutive groups of `group` elements (a power of two) of buf
 * (n elements of eb bytes, n a multiple of group), in place, a level at a time through
 * the array kernels: afterwards buf holds the n / group roots. */
#define TREE_MAX 1024 /* elements per call */
static void trees(ptort_vop op, ptort_type t, uint8_t *buf, unsigned n, unsigned group, unsigned eb)
{
	uint8_t ev[TREE_MAX / 2 * 8], od[TREE_MAX / 2 * 8];
	unsigned w, i;
	for (w = n; group > 1; w /= 2, group /= 2) {
		for (i = 0; i < w / 2; i++) {
			memcpy(ev + (size_t)i * eb, buf + (size_t)(2 * i) * eb, eb);
			memcpy(od + (size_t)i * eb, buf + (size_t)(2 * i + 1) * eb, eb);
		}
		ptort_vop_run(op, t, buf, ev, od, NULL, 0, w / 2);
	}
}

/* Whether every repeat's writes end before the next repeat's reads begin (or the two
 * footprints are disjoint): then reading a block of repeats before writing any of
 * them is the same as reading and writing repeat by repeat. */
static int red_batchable(const struct vins *v, const struct rgeo *g, uint32_t repeat)
{
	unsigned eb = v->eb, ng = g->lanes / v->group;
	uint64_t slen = opnd_extent(&v->s0, g, repeat, eb);
	uint64_t dstep = (uint64_t)v->d.rep * ng * eb, sstep = (uint64_t)v->s0.rep * 32;
	uint64_t wlen = (uint64_t)(g->lmax / v->group + 1) * eb;
	uint64_t dlen = (uint64_t)(repeat - 1) * dstep + wlen;
	uint64_t s0 = v->s0.addr, d0 = v->d.addr, r2;
	if (!ptort_overlap(s0, slen, d0, dlen) || repeat == 1)
		return 1;
	/* write_end(r) <= read_start(r + 1) at r = 0 and r = repeat - 2 (both linear in r) */
	r2 = repeat - 2;
	return d0 + wlen <= s0 + sstep && d0 + r2 * dstep + wlen <= s0 + (r2 + 1) * sstep;
}

static void rep_red(uint8_t *base, const struct vins *v, const struct rgeo *g, uint32_t repeat)
{
	uint8_t vals[TREE_MAX * 8];
	uint64_t id = red_identity(v->op, v->t);
	int any[128];
	unsigned eb = v->eb, l, gi, ng = g->lanes / v->group;
	unsigned per = red_batchable(v, g, repeat) ? TREE_MAX / g->lanes : 1, k, cnt;
	uint32_t r;
	for (gi = 0; gi < ng; gi++) {
		any[gi] = 0;
		for (l = 0; l < v->group; l++)
			any[gi] |= lane_on(g, gi * v->group + l);
	}
	for (r = 0; r < repeat; r += cnt) {
		cnt = repeat - r < per ? repeat - r : per;
		/* read `cnt` repeats whole before writing (dst may overlap src) */
		for (k = 0; k < cnt; k++) {
			uint8_t *p = vals + (size_t)k * g->lanes * eb;
			if (g->full && v->s0.blk == 1) {
				memcpy(p, base + lane_off(&v->s0, g, r + k, 0, eb), (size_t)g->lanes * eb);
				continue;
			}
			for (l = 0; l < g->lanes; l++)
				if (lane_on(g, l))
					memcpy(p + (size_t)l * eb, base + lane_off(&v->s0, g, r + k, l, eb), eb);
				else
					stx(p + (size_t)l * eb, eb, id);
		}
		trees(v->op, v->t, vals, cnt * g->lanes, v->group, eb);
		for (k = 0; k < cnt; k++)
			for (gi = 0; gi < ng; gi++)
				if (any[gi])
					memcpy(base + v->d.addr + ((uint64_t)(r + k) * v->d.rep * ng + gi) * eb,
					       vals + ((size_t)k * ng + gi) * eb, eb);
	}
}

static int rep_exec(ptort_ctx *ctx, struct vins *v, unsigned mem, uint32_t repeat,
		    uint64_t mask_hi, uint64_t mask_lo)
{
	struct rgeo g;
	uint8_t *base;
	v->eb = ptort_type_bits(v->t) / 8;
	if (rep_check(ctx, v, mem, repeat, mask_hi, mask_lo, &g))
		return -1;
	base = ctx->mem[mem];
	switch (v->kind) {
	case K_CMP:
		rep_cmp(base, v, &g, repeat);
		break;
	case K_SEL:
		rep_sel(base, v, &g, repeat);
		break;
	case K_RED:
		rep_red(base, v, &g, repeat);
		break;
	default:
		rep_elementwise(base, v, &g, repeat);
		break;
	}
	return 0;
}

static struct opnd op3(uint32_t addr, uint16_t blk, uint16_t rep)
{
	struct opnd o;
	memset(&o, 0, sizeof o);
	o.used = 1, o.addr = addr, o.blk = blk, o.rep = rep;
	return o;
}

static void vins_init(struct vins *v, enum kind k, ptort_vop op, ptort_type t, char *name,
		      size_t cap, const char *fmt)
{
	memset(v, 0, sizeof *v);
	v->kind = k, v->op = op, v->t = t;
	snprintf(name, cap, fmt, ptort_vop_name(op));
	v->name = name;
}

int ptort_vbin_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
	       uint32_t src0, uint32_t src1, uint32_t repeat, uint16_t dst_blk, uint16_t src0_blk,
	       uint16_t src1_blk, uint16_t dst_rep, uint16_t src0_rep, uint16_t src1_rep,
	       uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_BIN, op, type, name, sizeof name, "v%s");
	v.d = op3(dst, dst_blk, dst_rep);
	v.s0 = op3(src0, src0_blk, src0_rep);
	v.s1 = op3(src1, src1_blk, src1_rep);
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vbins_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		uint32_t src, uint64_t scalar, unsigned flags, uint32_t repeat, uint16_t dst_blk,
		uint16_t src_blk, uint16_t dst_rep, uint16_t src_rep, uint64_t mask_hi,
		uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_BIN, op, type, name, sizeof name, "v%ss");
	v.d = op3(dst, dst_blk, dst_rep);
	v.s0 = op3(src, src_blk, src_rep);
	v.has_scalar = 1, v.scalar = scalar, v.scalar_first = (flags & PTORT_V_SCALAR_FIRST) != 0;
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vun_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
	      uint32_t src, uint32_t repeat, uint16_t dst_blk, uint16_t src_blk, uint16_t dst_rep,
	      uint16_t src_rep, uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_UN, op, type, name, sizeof name, "v%s");
	v.d = op3(dst, dst_blk, dst_rep);
	v.s0 = op3(src, src_blk, src_rep);
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vdup_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint64_t scalar,
	       uint32_t repeat, uint16_t dst_blk, uint16_t dst_rep, uint64_t mask_hi,
	       uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_DUP, PTORT_VOP_MOV, type, name, sizeof name, "vdup");
	v.d = op3(dst, dst_blk, dst_rep);
	v.has_scalar = 1, v.scalar = scalar;
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vcmp_now(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type, uint32_t dst_bits,
	       uint32_t src0, uint32_t src1, uint32_t repeat, uint16_t src0_blk, uint16_t src1_blk,
	       uint16_t src0_rep, uint16_t src1_rep, uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_CMP, PTORT_VOP_MOV, type, name, sizeof name, "vcmp");
	v.cmp = cmp;
	v.bits = dst_bits;
	v.s0 = op3(src0, src0_blk, src0_rep);
	v.s1 = op3(src1, src1_blk, src1_rep);
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vcmps_now(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type, uint32_t dst_bits,
		uint32_t src, uint64_t scalar, uint32_t repeat, uint16_t src_blk, uint16_t src_rep,
		uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_CMP, PTORT_VOP_MOV, type, name, sizeof name, "vcmps");
	v.cmp = cmp;
	v.bits = dst_bits;
	v.s0 = op3(src, src_blk, src_rep);
	v.has_scalar = 1, v.scalar = scalar;
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vsel_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t sel_bits,
	       uint32_t src0, uint32_t src1, uint32_t repeat, uint16_t dst_blk, uint16_t src0_blk,
	       uint16_t src1_blk, uint16_t dst_rep, uint16_t src0_rep, uint16_t src1_rep,
	       uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_SEL, PTORT_VOP_MOV, type, name, sizeof name, "vsel");
	v.bits = sel_bits;
	v.d = op3(dst, dst_blk, dst_rep);
	v.s0 = op3(src0, src0_blk, src0_rep);
	v.s1 = op3(src1, src1_blk, src1_rep);
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vsels_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t sel_bits,
		uint32_t src, uint64_t scalar, uint32_t repeat, uint16_t dst_blk, uint16_t src_blk,
		uint16_t dst_rep, uint16_t src_rep, uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_SEL, PTORT_VOP_MOV, type, name, sizeof name, "vsels");
	v.bits = sel_bits;
	v.d = op3(dst, dst_blk, dst_rep);
	v.s0 = op3(src, src_blk, src_rep);
	v.has_scalar = 1, v.scalar = scalar;
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vred_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t group,
	       uint32_t dst, uint32_t src, uint32_t repeat, uint16_t dst_rep, uint16_t src_blk,
	       uint16_t src_rep, uint64_t mask_hi, uint64_t mask_lo)
{
	struct vins v;
	char name[24];
	unsigned lanes;
	vins_init(&v, K_RED, op, type, name, sizeof name, "vc%s");
	v.d = op3(dst, 1, dst_rep);
	v.d.used = 0; /* not a lane-addressed operand */
	v.s0 = op3(src, src_blk, src_rep);
	v.group = group;
	lanes = (unsigned)type < PTORT_TYPE_COUNT && ptort_type_bits(type) >= 16
			? 2048 / ptort_type_bits(type)
			: 0;
	if (lanes && (group < 2 || group > lanes || (group & (group - 1)))) {
		ptort_report(ctx, "%s: group %u is not a power of two in [2, %u]", v.name, group, lanes);
		return -1;
	}
	return rep_exec(ctx, &v, (unsigned)mem, repeat, mask_hi, mask_lo);
}

int ptort_vbrcb_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t src,
		uint32_t repeat, uint16_t dst_blk, uint16_t dst_rep)
{
	struct vins v;
	char name[24];
	unsigned eb, b, i;
	uint8_t *base;
	uint32_t r;
	vins_init(&v, K_DUP, PTORT_VOP_MOV, type, name, sizeof name, "vbrcb");
	if (check_common(ctx, &v, (unsigned)mem))
		return -1;
	eb = ptort_type_bits(type) / 8;
	if (eb != 2 && eb != 4) {
		ptort_report(ctx, "vbrcb: the repeat form takes 16- or 32-bit elements, not %s",
			     ptort_type_name(type));
		return -1;
	}
	if (!repeat) {
		ptort_report(ctx, "vbrcb: repeat count is 0");
		return -1;
	}
	if (ptort_check_range(ctx, "vbrcb", "source", (unsigned)mem, src, (uint64_t)repeat * 8 * eb) ||
	    ptort_check_range(ctx, "vbrcb", "destination", (unsigned)mem, dst,
			      (uint64_t)(repeat - 1) * dst_rep * 32 + (uint64_t)7 * dst_blk * 32 + 32))
		return -1;
	base = ctx->mem[mem];
	for (r = 0; r < repeat; r++) {
		uint64_t e[8];
		for (b = 0; b < 8; b++)
			e[b] = ldx(base + src + ((uint64_t)r * 8 + b) * eb, eb);
		for (b = 0; b < 8; b++) {
			uint8_t *blk = base + dst + (uint64_t)r * dst_rep * 32 + (uint64_t)b * dst_blk * 32;
			for (i = 0; i < 32 / eb; i++)
				stx(blk + i * eb, eb, e[b]);
		}
	}
	return 0;
}

/* ---- A5 register form ------------------------------------------------------------- */

static uint64_t row_extent(const struct opnd *o, uint32_t rows, uint32_t cols, unsigned eb)
{
	uint32_t n = o->brc == 1 ? 1 : o->brc == 2 && cols > 32 / eb ? 32 / eb : cols;
	return (uint64_t)(rows - 1) * o->pitch + (uint64_t)n * eb;
}

static int reg_check(ptort_ctx *ctx, const struct vins *v, unsigned mem, uint32_t rows,
		     uint32_t cols)
{
	if (check_common(ctx, v, mem))
		return -1;
	if (!rows || !cols) {
		ptort_report(ctx, "%s: empty region %ux%u", v->name, rows, cols);
		return -1;
	}
	if (v->s0.used && range(ctx, v, mem, "source", v->s0.addr, row_extent(&v->s0, rows, cols, v->eb)))
		return -1;
	if (v->s1.used && range(ctx, v, mem, "source", v->s1.addr, row_extent(&v->s1, rows, cols, v->eb)))
		return -1;
	if (v->kind == K_SEL || v->kind == K_CMP) {
		uint64_t nb = (uint64_t)(rows - 1) * v->bits_pitch + (cols + 7) / 8;
		if (range(ctx, v, mem, v->kind == K_SEL ? "select mask" : "destination", v->bits, nb))
			return -1;
	}
	if (v->kind == K_RED) {
		if (range(ctx, v, mem, "destination", v->d.addr,
			  (uint64_t)(rows - 1) * v->d.pitch + v->eb))
			return -1;
	} else if (v->d.used &&
		   range(ctx, v, mem, "destination", v->d.addr, row_extent(&v->d, rows, cols, v->eb))) {
		return -1;
	}
	return 0;
}

/* loads n elements of a source row from column c0 (or its one broadcast element, or
 * its block's elements c mod 32/eb) */
static const uint8_t *src_chunk(const uint8_t *base, const struct opnd *o, uint32_t r, uint32_t c0,
				unsigned n, unsigned eb, uint8_t *buf)
{
	const uint8_t *p = base + o->addr + (uint64_t)r * o->pitch;
	unsigned i;
	if (o->brc) {
		for (i = 0; i < n; i++)
			memcpy(buf + (size_t)i * eb, o->brc == 2 ? p + (c0 + i) % (32 / eb) * eb : p, eb);
		return buf;
	}
	return memcpy(buf, p + (uint64_t)c0 * eb, (size_t)n * eb);
}

static void reg_elementwise(uint8_t *base, const struct vins *v, uint32_t rows, uint32_t cols)
{
	unsigned eb = v->eb, lanes = 256 / eb;
	uint64_t dlen = row_extent(&v->d, rows, cols, eb);
	int same0 = v->s0.used && !v->s0.brc && v->s0.addr == v->d.addr && v->s0.pitch == v->d.pitch;
	int same1 = v->s1.used && !v->s1.brc && v->s1.addr == v->d.addr && v->s1.pitch == v->d.pitch;
	int ok0 = !v->s0.used || same0 ||
		  !overlaps(&v->s0, row_extent(&v->s0, rows, cols, eb), &v->d, dlen);
	int ok1 = !v->s1.used || same1 ||
		  !overlaps(&v->s1, row_extent(&v->s1, rows, cols, eb), &v->d, dlen);
	uint8_t abuf[256], bbuf[256], obuf[256];
	uint32_t r, c0;
	for (r = 0; r < rows; r++) {
		uint8_t *pd = base + v->d.addr + (uint64_t)r * v->d.pitch;
		const uint8_t *pa = v->s0.used ? base + v->s0.addr + (uint64_t)r * v->s0.pitch : NULL;
		const uint8_t *pb = v->s1.used ? base + v->s1.addr + (uint64_t)r * v->s1.pitch : NULL;
		/* the whole row at once: sources untouched by the writes or exactly in place;
		 * a broadcast source becomes the scalar operand */
		if (ok0 && ok1 && !(v->s0.brc && v->s1.brc) && v->s0.brc != 2 && v->s1.brc != 2) {
			if (v->kind == K_BIN && v->s1.brc) {
				uint64_t s = ldx(pb, eb);
				ptort_vop_run(v->op, v->t, pd, pa, NULL, &s, 0, cols);
				continue;
			}
			if (v->kind == K_BIN && v->s0.brc) {
				uint64_t s = ldx(pa, eb);
				ptort_vop_run(v->op, v->t, pd, pb, NULL, &s, 1, cols);
				continue;
			}
			compute(v, pd, pa, pb, cols);
			continue;
		}
		for (c0 = 0; c0 < cols; c0 += lanes) {
			unsigned n = cols - c0 < lanes ? cols - c0 : lanes;
			const uint8_t *a = v->s0.used ? src_chunk(base, &v->s0, r, c0, n, eb, abuf) : NULL;
			const uint8_t *b = v->s1.used ? src_chunk(base, &v->s1, r, c0, n, eb, bbuf) : NULL;
			compute(v, obuf, a, b, n);
			memcpy(pd + (uint64_t)c0 * eb, obuf, (size_t)n * eb);
		}
	}
}

static void reg_cmp_sel(uint8_t *base, const struct vins *v, uint32_t rows, uint32_t cols)
{
	unsigned eb = v->eb, lanes = 256 / eb, i;
	uint8_t abuf[256], bbuf[256], obuf[256], sel[256];
	uint32_t r, c0;
	for (r = 0; r < rows; r++) {
		uint8_t *bits = base + v->bits + (uint64_t)r * v->bits_pitch;
		for (c0 = 0; c0 < cols; c0 += lanes) {
			unsigned n = cols - c0 < lanes ? cols - c0 : lanes;
			const uint8_t *a = src_chunk(base, &v->s0, r, c0, n, eb, abuf);
			const uint8_t *b = v->has_scalar ? NULL : src_chunk(base, &v->s1, r, c0, n, eb, bbuf);
			if (v->kind == K_CMP) {
				for (i = 0; i < n; i++)
					bit_set(bits, c0 + i,
						ptort_cmp1(v->cmp, v->t, ldx(a + (size_t)i * eb, eb),
							   b ? ldx(b + (size_t)i * eb, eb) : v->scalar));
				continue;
			}
			for (i = 0; i < n; i++)
				sel[i] = (uint8_t)bit_get(bits, c0 + i);
			for (i = 0; i < n; i++) {
				uint64_t x = sel[i] ? ldx(a + (size_t)i * eb, eb)
					     : b    ? ldx(b + (size_t)i * eb, eb)
						    : v->scalar;
				stx(obuf + (size_t)i * eb, eb, x);
			}
			memcpy(base + v->d.addr + (uint64_t)r * v->d.pitch + (uint64_t)c0 * eb, obuf,
			       (size_t)n * eb);
		}
	}
}

static void reg_red(uint8_t *base, const struct vins *v, uint32_t rows, uint32_t cols)
{
	unsigned eb = v->eb, lanes = 256 / eb, nreg = TREE_MAX / lanes, i, k;
	uint8_t vals[TREE_MAX * 8];
	uint64_t id = red_identity(v->op, v->t);
	uint32_t r, c0;
	for (r = 0; r < rows; r++) {
		const uint8_t *p = base + v->s0.addr + (uint64_t)r * v->s0.pitch;
		uint64_t acc = id;
		/* up to nreg registers of the row at a time: their trees, then acc in order */
		for (c0 = 0; c0 < cols; c0 += nreg * lanes) {
			unsigned n = cols - c0 < nreg * lanes ? cols - c0 : nreg * lanes;
			unsigned regs = (n + lanes - 1) / lanes;
			memcpy(vals, p + (uint64_t)c0 * eb, (size_t)n * eb);
			for (i = n; i < regs * lanes; i++)
				stx(vals + (size_t)i * eb, eb, id);
			trees(v->op, v->t, vals, regs * lanes, lanes, eb);
			for (k = 0; k < regs; k++)
				acc = ptort_vop1(v->op, v->t, acc, ldx(vals + (size_t)k * eb, eb));
		}
		stx(base + v->d.addr + (uint64_t)r * v->d.pitch, eb, acc);
	}
}

static int reg_exec(ptort_ctx *ctx, struct vins *v, unsigned mem, uint32_t rows, uint32_t cols)
{
	uint8_t *base;
	v->eb = (unsigned)v->t < PTORT_TYPE_COUNT ? ptort_type_bits(v->t) / 8 : 1;
	if (reg_check(ctx, v, mem, rows, cols))
		return -1;
	base = ctx->mem[mem];
	if (v->kind == K_CMP || v->kind == K_SEL)
		reg_cmp_sel(base, v, rows, cols);
	else if (v->kind == K_RED)
		reg_red(base, v, rows, cols);
	else
		reg_elementwise(base, v, rows, cols);
	return 0;
}

static struct opnd opv(uint32_t addr, uint32_t pitch, int brc)
{
	struct opnd o;
	memset(&o, 0, sizeof o);
	o.used = 1, o.addr = addr, o.pitch = pitch, o.brc = brc;
	return o;
}

int ptort_vbin_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		 uint32_t src0, uint32_t src1, uint32_t rows, uint32_t cols, uint32_t dst_pitch,
		 uint32_t src0_pitch, uint32_t src1_pitch, unsigned flags)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_BIN, op, type, name, sizeof name, "v%s_v");
	v.d = opv(dst, dst_pitch, 0);
	v.s0 = opv(src0, src0_pitch, (flags & PTORT_V_BRC0) != 0);
	v.s1 = opv(src1, src1_pitch, flags & PTORT_V_BLK1 ? 2 : (flags & PTORT_V_BRC1) != 0);
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vbins_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		  uint32_t src, uint64_t scalar, unsigned flags, uint32_t rows, uint32_t cols,
		  uint32_t dst_pitch, uint32_t src_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_BIN, op, type, name, sizeof name, "v%ss_v");
	v.d = opv(dst, dst_pitch, 0);
	v.s0 = opv(src, src_pitch, 0);
	v.has_scalar = 1, v.scalar = scalar, v.scalar_first = (flags & PTORT_V_SCALAR_FIRST) != 0;
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vun_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		uint32_t src, uint32_t rows, uint32_t cols, uint32_t dst_pitch, uint32_t src_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_UN, op, type, name, sizeof name, "v%s_v");
	v.d = opv(dst, dst_pitch, 0);
	v.s0 = opv(src, src_pitch, 0);
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vdup_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint64_t scalar,
		 uint32_t rows, uint32_t cols, uint32_t dst_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_DUP, PTORT_VOP_MOV, type, name, sizeof name, "vdup_v");
	v.d = opv(dst, dst_pitch, 0);
	v.has_scalar = 1, v.scalar = scalar;
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vcmp_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type, uint32_t dst_bits,
		 uint32_t src0, uint32_t src1, uint32_t rows, uint32_t cols, uint32_t bits_pitch,
		 uint32_t src0_pitch, uint32_t src1_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_CMP, PTORT_VOP_MOV, type, name, sizeof name, "vcmp_v");
	v.cmp = cmp;
	v.bits = dst_bits, v.bits_pitch = bits_pitch;
	v.s0 = opv(src0, src0_pitch, 0);
	v.s1 = opv(src1, src1_pitch, 0);
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vcmps_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type,
		  uint32_t dst_bits, uint32_t src, uint64_t scalar, uint32_t rows, uint32_t cols,
		  uint32_t bits_pitch, uint32_t src_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_CMP, PTORT_VOP_MOV, type, name, sizeof name, "vcmps_v");
	v.cmp = cmp;
	v.bits = dst_bits, v.bits_pitch = bits_pitch;
	v.s0 = opv(src, src_pitch, 0);
	v.has_scalar = 1, v.scalar = scalar;
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vsel_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t sel_bits,
		 uint32_t src0, uint32_t src1, uint32_t rows, uint32_t cols, uint32_t dst_pitch,
		 uint32_t bits_pitch, uint32_t src0_pitch, uint32_t src1_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_SEL, PTORT_VOP_MOV, type, name, sizeof name, "vsel_v");
	v.bits = sel_bits, v.bits_pitch = bits_pitch;
	v.d = opv(dst, dst_pitch, 0);
	v.s0 = opv(src0, src0_pitch, 0);
	v.s1 = opv(src1, src1_pitch, 0);
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vsels_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst,
		  uint32_t sel_bits, uint32_t src, uint64_t scalar, uint32_t rows, uint32_t cols,
		  uint32_t dst_pitch, uint32_t bits_pitch, uint32_t src_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_SEL, PTORT_VOP_MOV, type, name, sizeof name, "vsels_v");
	v.bits = sel_bits, v.bits_pitch = bits_pitch;
	v.d = opv(dst, dst_pitch, 0);
	v.s0 = opv(src, src_pitch, 0);
	v.has_scalar = 1, v.scalar = scalar;
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}

int ptort_vred_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		 uint32_t src, uint32_t rows, uint32_t cols, uint32_t dst_pitch, uint32_t src_pitch)
{
	struct vins v;
	char name[24];
	vins_init(&v, K_RED, op, type, name, sizeof name, "vc%s_v");
	v.d = opv(dst, dst_pitch, 0);
	v.d.used = 0;
	v.s0 = opv(src, src_pitch, 0);
	return reg_exec(ctx, &v, (unsigned)mem, rows, cols);
}
