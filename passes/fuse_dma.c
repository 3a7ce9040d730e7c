/* fuse_dma.c: the `fuse-dma` pass: a tload whose tile only a whole-tile conversion
 * reads becomes one instruction converting from GM (docs/lowered.md, "Fusion").
 *
 * Requires: level 3 (split-repeats ran: every tile op is a pto.i.* instruction with
 *   constant addresses).
 * Produces: each `pto.i.dma_load` (tile T) followed, past pure ops and sync ops, by a
 *   `pto.i.vconv_v` converting all of T's rows * cols elements from T's address (A5),
 *   or by a run of `pto.i.vconv` (the A2A3 repeat form) that together convert the same
 *   elements contiguously in order, is replaced by one `pto.i.dma_load_cvt` when no
 *   other instruction of the function touches T's bytes (the rule below). Everything
 *   else is preserved.
 *
 * The rule [decision]: the fused instruction leaves T's bytes unspecified instead of
 * holding the loaded elements, so it is applied only where nothing can read them: no
 * other instruction of the function has a footprint overlapping T's bytes in T's
 * memory, anywhere (before or after, in any loop), counting an instruction whose
 * footprint the pass does not compute (other than tiles and vconv_v ranges) as
 * touching its whole memory (all memories without a `mem` field); functions with a
 * func.call or a tile op left unlowered are not touched. Tile memories are not a
 * kernel's result (results are in GM), so GM and every tile read later stay bit
 * identical. The runtime's ptort_dma_load_cvt falls back to the two instructions
 * whenever either would report an error or the direct path does not apply, so
 * errors are the same too.
 *
 * Pipes [decision]: the fused instruction goes where the conversion was and issues to
 * V (its row in insns.def), so the syncs ordering the conversion order it. It reads
 * GM there instead of at the load, so the pass fuses only when the load's completion
 * is known to V at the conversion (a set/wait MTE2 -> V of one flag between them, a
 * barrier <PIPE_ALL>, or no sync op at all: an unsynchronised kernel) and no other op
 * of the function may write the GM buffer the load reads (docs/lowered.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/pipe.h"
#include "passes/lower.h"

#define PASS_NAME "fuse-dma"

typedef struct span {
	int mem; /* ir_mem; -1: every memory */
	uint64_t lo, hi;
} span;

static int attr_int(const ir_op *op, const char *name, int64_t *v)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_INT)
		return 0;
	*v = a->u.i.v;
	return 1;
}

static const ir_type *attr_tile(const ir_op *op, const char *name)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_TYPE || a->u.type->kind != IR_TYPE_TILE_BUF)
		return NULL;
	return a->u.type;
}

static int tile_span(const ir_op *op, const char *name, span *s)
{
	char an[64];
	const ir_type *t = attr_tile(op, name);
	ptort_type et;
	int64_t addr;
	size_t n = strlen(name);
	if (n > sizeof an - 6) /* as snprintf "%s_addr" would truncate */
		n = sizeof an - 6;
	memcpy(an, name, n);
	memcpy(an + n, "_addr", 6);
	if (!t || !attr_int(op, an, &addr) || addr < 0 || ir_type_to_elem(t->u.tb.elem, &et) ||
	    t->u.tb.rows <= 0 || t->u.tb.cols <= 0)
		return 0;
	s->mem = (int)t->u.tb.mem;
	s->lo = (uint64_t)addr;
	s->hi = s->lo + ((uint64_t)t->u.tb.rows * (uint64_t)t->u.tb.cols * ptort_type_bits(et) + 7) / 8;
	return 1;
}

static int overlaps(const span *a, const span *b)
{
	return (a->mem < 0 || b->mem < 0 || a->mem == b->mem) && a->lo < b->hi && b->lo < a->hi;
}

/* Whether instruction `op` may touch the bytes of `t`. */
static int touches(const ir_op *op, const span *t)
{
	const ir_insndef *d = ir_insn_get(op->code);
	span s;
	unsigned i;
	int other = 0;
	if (op->code == IR_OP_I_VCONV_V) {
		int64_t dst, src, n;
		ptort_type f, to;
		const ir_attr *fa = ir_op_get_attr(op, "from"), *ta = ir_op_get_attr(op, "to");
		if (attr_int(op, "dst", &dst) && attr_int(op, "src", &src) &&
		    attr_int(op, "count", &n) && fa && ta && fa->kind == IR_ATTR_TYPE &&
		    ta->kind == IR_ATTR_TYPE && !ir_type_to_elem(fa->u.type, &f) &&
		    !ir_type_to_elem(ta->u.type, &to) && op->num_operands == 0 && dst >= 0 &&
		    src >= 0 && n >= 0) {
			s.mem = ir_op_mem_field(op);
			s.lo = (uint64_t)src, s.hi = s.lo + ((uint64_t)n * ptort_type_bits(f) + 7) / 8;
			if (overlaps(&s, t))
				return 1;
			s.lo = (uint64_t)dst, s.hi = s.lo + ((uint64_t)n * ptort_type_bits(to) + 7) / 8;
			return overlaps(&s, t);
		}
	}
	if (op->code == IR_OP_I_VCONV) {
		/* up to the furthest byte any lane can reach: a repeat spans at most 8
		 * blocks of 32 bytes each blk_stride apart, repeats rep_stride blocks apart */
		int64_t a[2], r, blk[2], rep[2];
		if (attr_int(op, "dst", &a[0]) && attr_int(op, "src", &a[1]) &&
		    attr_int(op, "repeat", &r) && attr_int(op, "dst_blk", &blk[0]) &&
		    attr_int(op, "src_blk", &blk[1]) && attr_int(op, "dst_rep", &rep[0]) &&
		    attr_int(op, "src_rep", &rep[1]) && op->num_operands == 0 && r >= 0 &&
		    a[0] >= 0 && a[1] >= 0 && blk[0] >= 0 && blk[1] >= 0 && rep[0] >= 0 &&
		    rep[1] >= 0) {
			s.mem = ir_op_mem_field(op);
			for (i = 0; i < 2; i++) {
				s.lo = (uint64_t)a[i];
				s.hi = s.lo + ((uint64_t)r * (uint64_t)rep[i] + 8 * (uint64_t)blk[i] + 8) * 32;
				if (overlaps(&s, t))
					return 1;
			}
			return 0;
		}
	}
	for (i = 0; d && i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		if (f->kind == IR_IF_TILE) {
			if (!ir_op_get_attr(op, f->name))
				continue; /* an absent optional tile */
			if (!tile_span(op, f->name, &s) || overlaps(&s, t))
				return 1;
		} else if (f->kind == IR_IF_ADDR) {
			other = 1;
		}
	}
	/* tiles with dynamic valid dims keep their footprint; other dyn operands are
	 * addresses or counts the pass does not follow */
	if (other || !d || op->num_operands > d->fixed) {
		s.mem = ir_op_mem_field(op), s.lo = 0, s.hi = UINT64_MAX;
		return overlaps(&s, t);
	}
	return 0;
}

/* The function argument GM value `v` comes from (through views and addptr), NULL when
 * it is not one. */
static const ir_value *gm_root(const ir_value *v)
{
	unsigned depth;
	for (depth = 0; v && v->def && depth < 64; depth++) {
		const ir_op *d = v->def;
		if ((d->code != IR_OP_PARTITION_VIEW && d->code != IR_OP_MAKE_TENSOR_VIEW &&
		     d->code != IR_OP_ADDPTR) || !d->num_operands)
			return NULL;
		v = d->operands[0].value;
	}
	return v && !v->def && v->type && v->type->kind == IR_TYPE_PTR ? v : NULL;
}

#define MAX_WROOTS 64
typedef struct fn_scan {
	ir_op **insns; /* the function's instructions, in order */
	unsigned n, cap;
	int blocked; /* a func.call, a tile op, or out of memory */
	/* the GM buffers (pointer arguments) an op may write: every op but the GM loads
	 * and the views using a GM value counts; wany: one of unknown origin, or too many */
	const ir_value *wroots[MAX_WROOTS];
	unsigned nw;
	int wany;
} fn_scan;

static void note_gm_use(fn_scan *f, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	unsigned i, k;
	if ((d && (d->flags & IR_OPF_PURE)) || op->code == IR_OP_I_DMA_LOAD ||
	    op->code == IR_OP_I_DMA_LOAD_CVT || op->code == IR_OP_LOAD_SCALAR)
		return;
	for (i = 0; i < op->num_operands; i++) {
		const ir_value *v = op->operands[i].value, *r;
		const ir_type *t = v ? v->type : NULL;
		if (!t || (t->kind != IR_TYPE_PTR && t->kind != IR_TYPE_PART_VIEW &&
			   t->kind != IR_TYPE_TENSOR_VIEW))
			continue;
		if (!(r = gm_root(v))) {
			f->wany = 1;
			continue;
		}
		for (k = 0; k < f->nw && f->wroots[k] != r; k++)
			;
		if (k == f->nw && f->nw < MAX_WROOTS)
			f->wroots[f->nw++] = r;
		else if (k == f->nw)
			f->wany = 1;
	}
}

static int scan_op(ir_op *op, void *user)
{
	fn_scan *f = user;
	const ir_opdef *d = ir_opdef_get(op->code);
	note_gm_use(f, op);
	if (op->code == IR_OP_CALL || op->code == IR_OP_UNKNOWN ||
	    (d && (d->flags & (IR_OPF_TILE | IR_OPF_VEC))))
		f->blocked = 1;
	else if (d && (d->flags & IR_OPF_LEVEL3)) {
		if (f->n == f->cap) {
			unsigned cap = f->cap ? f->cap * 2 : 64;
			ir_op **p = realloc(f->insns, cap * sizeof *p);
			if (!p) {
				f->blocked = 1;
				return 0;
			}
			f->insns = p, f->cap = cap;
		}
		f->insns[f->n++] = op;
	}
	return 0;
}

/* The conversion reading load `ld`'s tile: one vconv_v, or a run of vconv. */
typedef struct conv_run {
	ir_op *ops[64];
	unsigned n;
	int64_t dst, count; /* where the converted elements go, how many */
} conv_run;

static int etype_attr(const ir_op *op, const char *name, ptort_type *t)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	return a && a->kind == IR_ATTR_TYPE && !ir_type_to_elem(a->u.type, t);
}

/* Whether vconv `b` converts to the same type, round mode and saturation as `a`. */
static int same_conversion(const ir_op *a, const ir_op *b)
{
	ptort_type ta, tb;
	ptort_rmode ra, rb;
	int sa = ir_attr_satmode(ir_op_get_attr(a, "sat_mode"));
	return etype_attr(a, "to", &ta) && etype_attr(b, "to", &tb) && ta == tb &&
	       !ir_attr_rmode(ir_op_get_attr(a, "rmode"), &ra) &&
	       !ir_attr_rmode(ir_op_get_attr(b, "rmode"), &rb) && ra == rb && sa >= 0 &&
	       sa == ir_attr_satmode(ir_op_get_attr(b, "sat_mode"));
}

/* Lanes a vconv's mask selects when they are a prefix 0 .. n-1 of its `lanes`
 * lanes (as ptort_vconv counts them), 0 otherwise. */
static unsigned mask_prefix(uint64_t hi, uint64_t lo, unsigned lanes)
{
	uint64_t m[2];
	unsigned n;
	m[0] = lanes < 64 ? lo & (((uint64_t)1 << lanes) - 1) : lo;
	m[1] = lanes > 64 ? hi : 0;
	for (n = 0; n < lanes && ((m[n / 64] >> (n % 64)) & 1); n++)
		;
	if (n < 64 ? (m[0] >> n) != 0 || m[1] != 0 : n < 128 && (m[1] >> (n - 64)) != 0)
		return 0;
	return n;
}

/* A run of pto.i.vconv starting at `v` that converts elements src .. src+count-1 of
 * tile span t, contiguously and in order, into a contiguous destination disjoint
 * from t (so that splitting it into repeats and instructions cannot matter): exactly
 * what one vconv_v of `count` elements computes. Every instruction but the last
 * selects all lanes; the last may select a prefix of its lanes in a single repeat. */
static int vconv_run(ir_op *v, const span *t, ptort_type et, int64_t count, conv_run *run)
{
	int64_t src = (int64_t)t->lo, dst = -1, done = 0;
	ptort_type from, to;
	run->n = 0;
	for (; v && v->code == IR_OP_I_VCONV && done < count; v = v->next) {
		int64_t a_dst, a_src, r, db, sb, dr, sr, hi, lo;
		unsigned fb, tb, lanes, nsel;
		if (run->n == sizeof run->ops / sizeof run->ops[0] || v->num_operands ||
		    ir_op_mem_field(v) != t->mem || !etype_attr(v, "from", &from) || from != et ||
		    !etype_attr(v, "to", &to) || !attr_int(v, "dst", &a_dst) ||
		    !attr_int(v, "src", &a_src) || !attr_int(v, "repeat", &r) ||
		    !attr_int(v, "dst_blk", &db) || !attr_int(v, "src_blk", &sb) ||
		    !attr_int(v, "dst_rep", &dr) || !attr_int(v, "src_rep", &sr) ||
		    !attr_int(v, "mask_hi", &hi) || !attr_int(v, "mask_lo", &lo))
			return 0;
		if (run->n && !same_conversion(run->ops[0], v))
			return 0;
		fb = ptort_type_bits(from), tb = ptort_type_bits(to);
		if (fb < 8 || tb < 8 || (fb < 16 && tb < 16) || r <= 0)
			return 0;
		lanes = 2048 / (fb > tb ? fb : tb);
		nsel = mask_prefix((uint64_t)hi, (uint64_t)lo, lanes);
		if (!nsel || (nsel < lanes && r != 1) || db != 1 || sb != 1 ||
		    (r > 1 && (sr * 32 != (int64_t)lanes * fb / 8 || dr * 32 != (int64_t)lanes * tb / 8)))
			return 0;
		if (run->n == 0)
			dst = a_dst;
		if (a_src != src + done * fb / 8 || a_dst != dst + done * tb / 8)
			return 0;
		run->ops[run->n++] = v;
		done += nsel < lanes ? (int64_t)nsel : r * (int64_t)lanes;
		if (nsel < lanes && done < count)
			return 0; /* a partial instruction must be the last */
	}
	if (!run->n || done != count || dst < 0)
		return 0;
	{
		span d;
		d.mem = t->mem, d.lo = (uint64_t)dst;
		d.hi = d.lo + (uint64_t)count * ptort_type_bits(to) / 8;
		if (overlaps(&d, t))
			return 0;
	}
	run->dst = dst, run->count = count;
	return 1;
}

/* Skips from load `ld` over pure ops and sync ops to the next other op (*next):
 * whether the load's completion is known to V there. With no sync op between, 1 (an
 * unsynchronised kernel, as written); else the load must be followed by a
 * set_flag(MTE2, V, id) and the wait_flag(MTE2, V, id) after it, or by a
 * barrier <PIPE_ALL>, so that the fused instruction, issued on V where the conversion
 * was, reads GM after everything ordered before the load (docs/lowered.md, "Fusion"). */
static int load_known_at(ir_op *ld, ir_op **next)
{
	const ir_attr *pend = NULL;
	int syncs = 0, known = 0;
	ir_op *v;
	for (v = ld->next; v; v = v->next) {
		const ir_opdef *d = ir_opdef_get(v->code);
		if (v->code == IR_OP_SET_FLAG || v->code == IR_OP_WAIT_FLAG) {
			const ir_attr *ev = ir_op_get_attr(v, "event_id");
			syncs = 1;
			if (ir_attr_pipe(v, "src_pipe") != PTORT_PIPE_MTE2 ||
			    ir_attr_pipe(v, "dst_pipe") != PTORT_PIPE_V || !ev || ev->kind != IR_ATTR_PTO ||
			    !ev->u.pto.value)
				continue;
			if (v->code == IR_OP_SET_FLAG)
				pend = ev;
			else if (pend && !strcmp(pend->u.pto.value, ev->u.pto.value))
				known = 1;
			continue;
		}
		if (v->code == IR_OP_BARRIER) {
			syncs = 1;
			known |= ir_attr_pipe(v, "pipe") == PTORT_PIPE_ALL;
			continue;
		}
		if (!d || !(d->flags & IR_OPF_PURE) || v->num_regions)
			break;
	}
	*next = v;
	return !syncs || known;
}

/* The conversion of all of load `ld`'s tile, 0 when there is none. */
static int whole_conversion(ir_op *ld, span *t, conv_run *run)
{
	const ir_type *tt = attr_tile(ld, "dst");
	ir_op *v;
	ptort_type et, from;
	int64_t src, n, dst;
	const ir_attr *fa;
	if (ld->num_operands != 1 || !tt || !tile_span(ld, "dst", t) ||
	    ir_type_to_elem(tt->u.tb.elem, &et) || ptort_type_bits(et) < 8)
		return 0;
	if (!load_known_at(ld, &v))
		return 0;
	if (v && v->code == IR_OP_I_VCONV)
		return vconv_run(v, t, et, tt->u.tb.rows * tt->u.tb.cols, run);
	if (!v || v->code != IR_OP_I_VCONV_V || v->num_operands || ir_op_mem_field(v) != t->mem ||
	    !attr_int(v, "src", &src) || (uint64_t)src != t->lo || !attr_int(v, "count", &n) ||
	    n != tt->u.tb.rows * tt->u.tb.cols || !(fa = ir_op_get_attr(v, "from")) ||
	    fa->kind != IR_ATTR_TYPE || ir_type_to_elem(fa->u.type, &from) || from != et ||
	    !attr_int(v, "dst", &dst))
		return 0;
	run->ops[0] = v, run->n = 1, run->dst = dst, run->count = n;
	return 1;
}

static int in_run(const conv_run *run, const ir_op *op)
{
	unsigned k;
	for (k = 0; k < run->n; k++)
		if (run->ops[k] == op)
			return 1;
	return 0;
}

/* One function; `f` is the scan buffer, reused from function to function. */
static void fuse_function(ir_ctx *ctx, ir_op *fn, const pass_opts *o, fn_scan *f)
{
	static const char *const copy_v[] = {"to", "rmode", "sat_mode"};
	conv_run run;
	unsigned i, j, k;
	f->n = 0, f->blocked = 0, f->nw = 0, f->wany = 0;
	ir_walk(fn, scan_op, f);
	for (i = 0; i < f->n && !f->blocked; i++) {
		ir_op *ld = f->insns[i], *nw;
		lower_insn li;
		span t;
		const ir_value *root;
		if (!ld || ld->code != IR_OP_I_DMA_LOAD || !whole_conversion(ld, &t, &run))
			continue;
		/* the fused instruction reads GM where the conversion was: no op may write
		 * those bytes (a later write is ordered after the load only) */
		root = gm_root(ld->operands[0].value);
		for (j = 0; root && !f->wany && j < f->nw && f->wroots[j] != root; j++)
			;
		if (!root || f->wany || j < f->nw)
			continue;
		for (j = 0; j < f->n; j++)
			if (f->insns[j] && f->insns[j] != ld && !in_run(&run, f->insns[j]) &&
			    touches(f->insns[j], &t))
				break;
		if (j < f->n)
			continue;
		li_init(&li, IR_OP_I_DMA_LOAD_CVT);
		li_operand(&li, ld->operands[0].value);
		li_attr(ctx, &li, "dst", ir_op_get_attr(ld, "dst"));
		li_attr(ctx, &li, "dst_addr", ir_op_get_attr(ld, "dst_addr"));
		li_int(ctx, &li, "cvt_dst", run.dst);
		li_int(ctx, &li, "count", run.count);
		for (k = 0; k < sizeof copy_v / sizeof copy_v[0]; k++)
			li_attr(ctx, &li, copy_v[k], ir_op_get_attr(run.ops[0], copy_v[k]));
		nw = li_emit(ctx, &li, run.ops[0]);
		if (!nw)
			break;
		nw->loc = ld->loc;
		pass_remark(ctx, o, PASS_NAME, ld->loc,
			    "tload and the whole-tile conversion fused (the loaded tile is read "
			    "by nothing else)");
		for (j = 0; j < f->n; j++)
			if (f->insns[j] && in_run(&run, f->insns[j]))
				f->insns[j] = NULL;
		f->insns[i] = NULL;
		ir_op_erase(ld);
		for (k = 0; k < run.n; k++)
			ir_op_erase(run.ops[k]);
	}
}

unsigned pass_fuse_dma(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	fn_scan f;
	ir_block *b;
	ir_op *op;
	if (!module->num_regions)
		return 0;
	memset(&f, 0, sizeof f);
	for (b = module->regions[0].first; b; b = b->next)
		for (op = b->first; op; op = op->next)
			if (op->code == IR_OP_FUNC)
				fuse_function(ctx, op, o, &f);
	free(f.insns);
	return 0;
}
