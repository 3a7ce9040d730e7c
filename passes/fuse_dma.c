/* fuse_dma.c: the `fuse-dma` pass: a tload whose tile only a whole-tile conversion
 * reads becomes one instruction converting from GM (docs/lowered.md, "Fusion").
 *
 * Requires: level 3 (split-repeats ran: every tile op is a pto.i.* instruction with
 *   constant addresses).
 * Produces: each `pto.i.dma_load` (tile T) directly followed, past pure ops only, by a
 *   `pto.i.vconv_v` converting all of T's rows * cols elements from T's address, is
 *   replaced by one `pto.i.dma_load_cvt` when no other instruction of the function
 *   touches T's bytes (the rule below). Everything else is preserved.
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
 * errors are the same too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	snprintf(an, sizeof an, "%s_addr", name);
	if (!t || !attr_int(op, an, &addr) || addr < 0 || ir_type_to_elem(t->u.tb.elem, &et) ||
	    t->u.tb.rows <= 0 || t->u.tb.cols <= 0)
		return 0;
	s->mem = (int)t->u.tb.mem;
	s->lo = (uint64_t)addr;
	s->hi = s->lo + ((uint64_t)t->u.tb.rows * (uint64_t)t->u.tb.cols * ptort_type_bits(et) + 7) / 8;
	return 1;
}

static int mem_of(const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "mem");
	ir_mem m;
	if (!a || a->kind != IR_ATTR_PTO || !a->u.pto.value ||
	    ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m))
		return -1;
	return (int)m;
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
			s.mem = mem_of(op);
			s.lo = (uint64_t)src, s.hi = s.lo + ((uint64_t)n * ptort_type_bits(f) + 7) / 8;
			if (overlaps(&s, t))
				return 1;
			s.lo = (uint64_t)dst, s.hi = s.lo + ((uint64_t)n * ptort_type_bits(to) + 7) / 8;
			return overlaps(&s, t);
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
		s.mem = mem_of(op), s.lo = 0, s.hi = UINT64_MAX;
		return overlaps(&s, t);
	}
	return 0;
}

typedef struct fn_scan {
	ir_op *insns[4096];
	unsigned n;
	int blocked; /* a func.call, a tile op, or too many instructions */
} fn_scan;

static int scan_op(ir_op *op, void *user)
{
	fn_scan *f = user;
	const ir_opdef *d = ir_opdef_get(op->code);
	if (op->code == IR_OP_CALL || op->code == IR_OP_UNKNOWN ||
	    (d && (d->flags & (IR_OPF_TILE | IR_OPF_VEC))))
		f->blocked = 1;
	else if (d && (d->flags & IR_OPF_LEVEL3)) {
		if (f->n == sizeof f->insns / sizeof f->insns[0])
			f->blocked = 1;
		else
			f->insns[f->n++] = op;
	}
	return 0;
}

/* The vconv_v that converts all of load `ld`'s tile, NULL when there is none. */
static ir_op *whole_conversion(ir_op *ld, span *t)
{
	const ir_type *tt = attr_tile(ld, "dst");
	ir_op *v;
	ptort_type et, from;
	int64_t src, n;
	const ir_attr *fa;
	if (ld->num_operands != 1 || !tt || !tile_span(ld, "dst", t) ||
	    ir_type_to_elem(tt->u.tb.elem, &et) || ptort_type_bits(et) < 8)
		return NULL;
	for (v = ld->next; v; v = v->next) {
		const ir_opdef *d = ir_opdef_get(v->code);
		if (!d || !(d->flags & IR_OPF_PURE) || v->num_regions)
			break;
	}
	if (!v || v->code != IR_OP_I_VCONV_V || v->num_operands || mem_of(v) != t->mem ||
	    !attr_int(v, "src", &src) || (uint64_t)src != t->lo || !attr_int(v, "count", &n) ||
	    n != tt->u.tb.rows * tt->u.tb.cols || !(fa = ir_op_get_attr(v, "from")) ||
	    fa->kind != IR_ATTR_TYPE || ir_type_to_elem(fa->u.type, &from) || from != et)
		return NULL;
	return v;
}

static unsigned fuse_function(ir_ctx *ctx, ir_op *fn, const pass_opts *o)
{
	static const char *const copy_v[] = {"dst", "to", "count", "rmode", "sat_mode"};
	fn_scan *f = calloc(1, sizeof *f);
	unsigned i, j, k;
	if (!f)
		return 0;
	ir_walk(fn, scan_op, f);
	for (i = 0; i < f->n && !f->blocked; i++) {
		ir_op *ld = f->insns[i], *cv, *nw;
		lower_insn li;
		span t;
		if (!ld || ld->code != IR_OP_I_DMA_LOAD || !(cv = whole_conversion(ld, &t)))
			continue;
		for (j = 0; j < f->n; j++)
			if (f->insns[j] && f->insns[j] != ld && f->insns[j] != cv &&
			    touches(f->insns[j], &t))
				break;
		if (j < f->n)
			continue;
		li_init(&li, IR_OP_I_DMA_LOAD_CVT);
		li_operand(&li, ld->operands[0].value);
		li_attr(ctx, &li, "dst", ir_op_get_attr(ld, "dst"));
		li_attr(ctx, &li, "dst_addr", ir_op_get_attr(ld, "dst_addr"));
		for (k = 0; k < sizeof copy_v / sizeof copy_v[0]; k++)
			li_attr(ctx, &li, k ? copy_v[k] : "cvt_dst", ir_op_get_attr(cv, copy_v[k]));
		nw = li_emit(ctx, &li, cv);
		if (!nw)
			break;
		nw->loc = ld->loc;
		pass_remark(ctx, o, PASS_NAME, ld->loc,
			    "tload and the whole-tile conversion fused (the loaded tile is read "
			    "by nothing else)");
		for (j = 0; j < f->n; j++)
			if (f->insns[j] == cv)
				f->insns[j] = NULL;
		f->insns[i] = NULL;
		ir_op_erase(ld);
		ir_op_erase(cv);
	}
	free(f);
	return 0;
}

unsigned pass_fuse_dma(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	unsigned errs = 0;
	ir_block *b;
	ir_op *op;
	if (!module->num_regions)
		return 0;
	for (b = module->regions[0].first; b; b = b->next)
		for (op = b->first; op; op = op->next)
			if (op->code == IR_OP_FUNC)
				errs += fuse_function(ctx, op, o);
	return errs;
}
