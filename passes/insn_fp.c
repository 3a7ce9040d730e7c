/* insn_fp.c: barriers inside one tile op's lowering (docs/sync.md, "Inside one tile
 * op"). split-repeats calls lower_pipe_barriers after lowering each tile op: where a
 * later instruction of that op's instructions touches bytes an earlier one of its pipe
 * (since the last barrier of that pipe) wrote, or writes bytes an earlier one read,
 * and the pipe does not execute in program order on the target (A2A3's V, M, MTE1,
 * MTE2, MTE3 and FIX; A5's MTE2 and MTE3) while its pipe_barrier orders it, a
 * `pto.barrier <PIPE>` goes before the later one, as pto-isa's A2A3 tile functions
 * have `pipe_barrier(PIPE_V)` between their dependent instructions. Footprints from
 * the instruction's fields as the runtime checks them (runtime/src/vop.c): from the
 * operand's address to the end of its furthest selected lane; a whole tile for a tile
 * field; for a DMA, GM as a whole (read by a load, written by a store); the whole
 * memory for an instruction or field not computed here (a dynamic field, a form not
 * listed).
 *
 * Requires: level-3 instructions with constant fields where known.
 * Preserves: everything; adds pto.barrier ops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/pipe.h"
#include "passes/lower.h"
#include "target/target.h"

#define MAX_SPANS 8

/* A footprint: bytes [lo, hi) of memory `mem` read or written (w) by an instruction
 * of pipe `pipe` */
typedef struct ispan {
	int mem; /* ir_mem; SPAN_GM: GM; -1: every memory */
	unsigned char w, pipe;
	uint64_t lo, hi;
} ispan;

#define SPAN_GM PTORT_MEM_COUNT

static int fint(const ir_op *op, const char *name, int64_t *v)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_INT)
		return 0;
	*v = a->u.i.v;
	return 1;
}

static unsigned ftype_bits(const ir_op *op, const char *name)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	ptort_type t;
	if (!a || a->kind != IR_ATTR_TYPE || ir_type_to_elem(a->u.type, &t))
		return 0;
	return ptort_type_bits(t);
}

static int written(const char *name)
{
	return !strcmp(name, "dst") || !strcmp(name, "dst_bits") || !strcmp(name, "c");
}

/* The repeat form's lanes: lanes per repeat, lanes per 32-byte block, the last
 * selected lane. */
typedef struct rep {
	int64_t repeat;
	unsigned lanes, per_blk, lmax;
} rep;

static int rep_geom(const ir_op *op, unsigned bits, rep *g)
{
	int64_t hi, lo;
	unsigned l;
	if (!fint(op, "repeat", &g->repeat) || g->repeat < 1 || (bits != 16 && bits != 32))
		return 0;
	g->lanes = 2048 / bits;
	g->per_blk = g->lanes / 8;
	if (!fint(op, "mask_hi", &hi) || !fint(op, "mask_lo", &lo))
		hi = lo = -1;
	g->lmax = 0;
	for (l = 0; l < g->lanes; l++)
		if (((uint64_t)(l < 64 ? lo : hi) >> (l & 63)) & 1)
			g->lmax = l;
	return 1;
}

static unsigned whole(ispan *out)
{
	out[0].mem = -1;
	out[0].w = 1;
	out[0].lo = 0;
	out[0].hi = UINT64_MAX;
	return 1;
}

/* The register form (A5's vector instructions, A2A3's vdup_v/vun_v of tfillpad, vtri_v):
 * rows x cols elements `pitch` bytes apart, or `count` contiguous elements; the
 * compare bits one per element, `bits_pitch` bytes apart. */
static unsigned reg_spans(const ir_op *op, int mem, unsigned bits, ispan *out)
{
	static const char *const names[] = {"dst", "src", "src0", "src1", "dst_bits", "sel_bits"};
	int64_t rows = 1, cols;
	unsigned k, n = 0, from = ftype_bits(op, "from"), to = ftype_bits(op, "to");
	int count = fint(op, "count", &cols);
	if (!count && (!fint(op, "rows", &rows) || !fint(op, "cols", &cols)))
		return whole(out);
	if (rows < 1 || cols < 1)
		return whole(out);
	for (k = 0; k < 6; k++) {
		char pn[24];
		int64_t addr, pitch = 0;
		uint64_t eb_bits = k >= 4 ? 1 : bits ? bits : k == 0 ? to : from;
		if (!fint(op, names[k], &addr))
			continue;
		snprintf(pn, sizeof pn, "%s_pitch", k >= 4 ? "bits" : names[k]);
		if (!eb_bits || (!count && rows > 1 && !fint(op, pn, &pitch)) || n == MAX_SPANS)
			return whole(out);
		out[n].mem = mem;
		out[n].w = (unsigned char)written(names[k]);
		out[n].lo = (uint64_t)addr;
		out[n].hi = out[n].lo + (uint64_t)(rows - 1) * (uint64_t)pitch +
			    ((uint64_t)cols * eb_bits + 7) / 8;
		n++;
	}
	return n ? n : whole(out);
}

/* The byte ranges instruction op reads and writes, into out (at most MAX_SPANS). */
static unsigned spans_of(const ir_op *op, ispan *out)
{
	const ir_insndef *d = ir_insn_get(op->code);
	int mem = ir_op_mem_field(op);
	unsigned i, n = 0, bits = ftype_bits(op, "type"), wide, cvt_bits[2] = {0, 0};
	rep g;
	if (!d || op->num_operands > d->fixed)
		goto all; /* a dynamic field */
	if (d->fixed) { /* a DMA's GM view: GM as a whole, written by a store */
		out[n].mem = SPAN_GM;
		out[n].w = op->code == IR_OP_I_DMA_STORE || op->code == IR_OP_I_DMA_STORE_Q;
		out[n].lo = 0;
		out[n].hi = UINT64_MAX;
		n++;
	}
	for (i = 0; i < d->nfields && n < MAX_SPANS; i++) { /* tile fields: the whole tile */
		const ir_ifield *f = &d->fields[i];
		char an[64];
		const ir_attr *ta;
		ptort_type et;
		int64_t addr;
		const ir_type *t;
		if (f->kind != IR_IF_TILE)
			continue;
		ta = ir_op_get_attr(op, f->name);
		snprintf(an, sizeof an, "%s_addr", f->name);
		if (!ta)
			continue; /* an absent optional tile */
		t = ta->kind == IR_ATTR_TYPE ? ta->u.type : NULL;
		if (!t || t->kind != IR_TYPE_TILE_BUF || !fint(op, an, &addr) || addr < 0 ||
		    ir_type_to_elem(t->u.tb.elem, &et) || t->u.tb.rows <= 0 || t->u.tb.cols <= 0)
			goto all;
		out[n].mem = (int)t->u.tb.mem;
		out[n].w = (unsigned char)written(f->name);
		out[n].lo = (uint64_t)addr;
		out[n].hi = out[n].lo + ((uint64_t)t->u.tb.rows * (uint64_t)t->u.tb.cols *
					 ptort_type_bits(et) + 7) / 8;
		n++;
	}
	if (!ir_op_get_attr(op, "repeat")) {
		if (n)
			return n;
		return reg_spans(op, mem, bits, out);
	}
	/* the repeat form */
	wide = bits;
	if (!bits) { /* vconv: lanes of the wider type, the narrower one's blocks narrower */
		unsigned f = ftype_bits(op, "from"), t = ftype_bits(op, "to");
		if (op->code == IR_OP_I_VCONV_DEQ)
			f = 32, t = 16;
		wide = f > t ? f : t;
		cvt_bits[0] = t, cvt_bits[1] = f;
		if (!f || !t)
			goto all;
	}
	if (!rep_geom(op, wide, &g))
		goto all;
	{
		static const char *const names[] = {"dst", "src", "src0", "src1"};
		unsigned k;
		for (k = 0; k < 4; k++) {
			char bn[16], rn[16];
			int64_t addr, blk = 0, rp = 0;
			uint64_t ext;
			if (!fint(op, names[k], &addr))
				continue;
			snprintf(bn, sizeof bn, "%s_blk", names[k]);
			snprintf(rn, sizeof rn, "%s_rep", names[k]);
			if (!fint(op, rn, &rp))
				goto all;
			if (op->code == IR_OP_I_VRED && k == 0) { /* one result per group */
				int64_t grp;
				uint64_t ng, gmax;
				if (!fint(op, "group", &grp) || grp < 1)
					goto all;
				ng = g.lanes / (uint64_t)grp, gmax = g.lmax / (uint64_t)grp;
				ext = ((uint64_t)(g.repeat - 1) * (uint64_t)rp * ng + gmax + 1) * (bits / 8);
			} else if (op->code == IR_OP_I_VBRCB && k == 1) {
				ext = (uint64_t)g.repeat * 8 * (bits / 8);
			} else if (op->code == IR_OP_I_VBRCB && k == 0) {
				if (!fint(op, bn, &blk))
					goto all;
				ext = (uint64_t)(g.repeat - 1) * (uint64_t)rp * 32 + 7 * (uint64_t)blk * 32 + 32;
			} else {
				if (!fint(op, bn, &blk))
					goto all;
				/* in bits: a block holds per_blk lanes of eb bits (vec.c) */
				uint64_t eb = bits ? bits : cvt_bits[k != 0];
				ext = ((uint64_t)(g.repeat - 1) * (uint64_t)rp * 256 +
				       (uint64_t)(g.lmax / g.per_blk) * (uint64_t)blk * (256 * eb / wide) +
				       (uint64_t)(g.lmax % g.per_blk + 1) * eb + 7) / 8;
			}
			if (n == MAX_SPANS)
				goto all;
			out[n].mem = mem;
			out[n].w = (unsigned char)written(names[k]);
			out[n].lo = (uint64_t)addr;
			out[n].hi = out[n].lo + ext;
			n++;
		}
		for (k = 0; k < 2; k++) { /* compare results and select masks: a bit per lane */
			int64_t addr;
			if (!fint(op, k ? "sel_bits" : "dst_bits", &addr))
				continue;
			if (n == MAX_SPANS)
				goto all;
			out[n].mem = mem;
			out[n].w = (unsigned char)!k;
			out[n].lo = (uint64_t)addr;
			out[n].hi = out[n].lo + ((uint64_t)(g.repeat - 1) * g.lanes + g.lmax) / 8 + 1;
			n++;
		}
	}
	return n;
all:
	return whole(out);
}

/* Two spans in a common 32-byte granule, one written: the sync sanitizer's unit of
 * on-chip memory (docs/semantics.md §8.8a), placement's alignment of tiles. */
static int conflict(const ispan *a, const ispan *b)
{
	if (a->pipe != b->pipe)
		return 0;
	uint64_t alo = a->lo & ~(uint64_t)31, blo = b->lo & ~(uint64_t)31;
	uint64_t ahi = a->hi > UINT64_MAX - 31 ? UINT64_MAX : (a->hi + 31) & ~(uint64_t)31;
	uint64_t bhi = b->hi > UINT64_MAX - 31 ? UINT64_MAX : (b->hi + 31) & ~(uint64_t)31;
	return (a->w || b->w) && (a->mem < 0 || b->mem < 0 || a->mem == b->mem) && alo < bhi &&
	       blo < ahi;
}

static ir_op *mk_barrier(ir_ctx *ctx, int pipe, ir_loc loc)
{
	ir_named_attr na;
	const char *n = ptort_pipe_name((ptort_pipe)pipe);
	na.name = ir_intern(ctx, "pipe", 4);
	na.value = ir_attr_pto(ctx, ir_intern(ctx, "pipe", 4), ir_intern(ctx, n, strlen(n)),
			       IR_PTO_DOTTED);
	return ir_op_create(ctx, "pto.barrier", loc, NULL, 0, NULL, 0, ir_attr_dict(ctx, &na, 1, loc),
			    0);
}

/* Drops the footprints of pipe p (PTORT_PIPE_ALL: of every pipe) from seen[0..*n):
 * a barrier of p orders them. */
static void forget(ispan *seen, size_t *n, int p)
{
	size_t i, k = 0;
	for (i = 0; i < *n; i++)
		if (p != PTORT_PIPE_ALL && seen[i].pipe != p)
			seen[k++] = seen[i];
	*n = k;
}

/* The pipe of a pto.barrier (PTORT_PIPE_ALL for PIPE_ALL), or -1. */
static int barrier_pipe(const ir_op *op)
{
	const ir_attr *a = op->code == IR_OP_BARRIER ? ir_op_get_attr(op, "pipe") : NULL;
	unsigned p;
	if (!a || a->kind != IR_ATTR_PTO)
		return -1;
	for (p = 0; p <= PTORT_PIPE_ALL; p++)
		if (!strcmp(a->u.pto.value, ptort_pipe_name((ptort_pipe)p)))
			return (int)p;
	return -1;
}

unsigned lower_pipe_barriers(ir_ctx *ctx, const struct target *t, ir_op *first, ir_op *stop)
{
	ispan *seen = NULL, cur[MAX_SPANS];
	size_t nseen = 0, cap = 0, j;
	unsigned n, i, added = 0, unordered = ~t->inorder_pipes & t->barrier_pipes;
	ir_op *x;
	for (x = first; x && x != stop; x = x->next) {
		int hit = 0, p = barrier_pipe(x);
		if (p >= 0) { /* the lowering's own barrier */
			forget(seen, &nseen, p);
			continue;
		}
		p = ir_insn_get(x->code) ? ir_op_pipe(x, t) : -1;
		if (p < 0 || p >= PTORT_PIPE_COUNT || !(unordered >> p & 1))
			continue;
		n = spans_of(x, cur);
		for (i = 0; i < n; i++)
			cur[i].pipe = (unsigned char)p;
		for (i = 0; i < n && !hit; i++)
			for (j = 0; j < nseen && !hit; j++)
				hit = conflict(&cur[i], &seen[j]);
		if (hit) {
			ir_block_insert_before(x, mk_barrier(ctx, p, x->loc));
			added++;
			forget(seen, &nseen, p);
		}
		if (nseen + n > cap) {
			size_t c = cap ? cap * 2 : 64;
			ispan *q;
			while (c < nseen + n)
				c *= 2;
			if (!(q = realloc(seen, c * sizeof *q))) { /* out of memory: a barrier orders all */
				ir_block_insert_before(x, mk_barrier(ctx, p, x->loc));
				added++;
				forget(seen, &nseen, p);
				continue;
			}
			seen = q, cap = c;
		}
		for (i = 0; i < n; i++)
			seen[nseen++] = cur[i];
	}
	free(seen);
	return added;
}
