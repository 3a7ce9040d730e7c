/* split_repeats.c: the `split-repeats` pass: level 2 (DPS, placed tiles) -> level 3,
 * the pto.i.* instructions of docs/lowered.md.
 *
 * Requires: a verified level-2 module: every tile is a pto.alloc_tile with an address
 *   operand (`addr = %c`, place-tiles or the user) or a pto.tassign result (constant
 *   or dynamic address); every pto.tcvt is one native conversion of the target with
 *   explicit `rmode` and `sat_mode` (legalize-cvt), `deq_scale` marking A2A3's deq path.
 *   A result-less `pto.tassign %t, %a` (in %t's block) rebinds %t for the ops after it.
 * Produces: every tcvt, tload and tstore (and through lower_cube_op every tmov and
 *   tmatmul*) replaced in place by instructions; pto.alloc_tile, pto.tassign,
 *   pto.treshape and pto.bitcast (aliases: their users take the source's address), and
 *   pto.subset (a window: its users take the source's address plus the window's offset
 *   with the source's row pitch)
 *   erased,
 *   as are the arith.constants only they used. scf/arith structure, views, sync ops
 *   and locations are preserved (an instruction has the location of its tile op),
 *   except that tile_buf slots of scf.for / scf.if become i64 addresses
 *   (lower_scf_tiles).
 *
 * tcvt covers the destination's valid region (docs/semantics.md §5.1), row-major tiles only:
 *   repeat form (A2A3, vec.predicated = 0): L = 2048 / W lanes per 256-byte repeat
 *     (W the wider element width). A contiguous region (one valid row, or valid
 *     columns = both tiles' columns) is n elements: floor(n / L) full repeats in
 *     instructions of <= repeat_max repeats, then one masked repeat for n mod L.
 *     Otherwise, when both row pitches are whole 32-byte blocks <= repeat_stride_max,
 *     one repeat per row with the row pitch as repeat stride, one instruction per
 *     group of L columns (masked to the group's valid columns) and <= repeat_max rows;
 *     else (stride overflow) per-row instructions, each row as a contiguous run.
 *   register form (A5): vconv_v over a contiguous region, vconv_v2d otherwise (also
 *     for a dynamic valid shape, whose rows/cols become dyn operands).
 * Diagnostics (errors at the tile op): level-1 tile ops, a tile without an address,
 *   tiles outside vec for tcvt, layouts other than row_major/none_box, a tcvt without
 *   explicit rmode/sat_mode, a valid region larger than the source tile, a dynamic
 *   valid shape in the repeat form, both types 8 bits or narrower in the repeat form,
 *   deq_scale on a predicated target, a result-less tassign outside its alloc_tile's
 *   block. pto.tprint becomes pto.i.tprint (ptort_tprint). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/lower.h"
#include "passes/passes.h"

#define PASS_NAME "split-repeats"

/* A short English text of a VC_ERR_* code. */
static const char *vc_error_text(int code)
{
	switch (code) {
	case VC_OK: return "ok";
	case VC_ERR_NARROW: return "the repeat form needs an element type wider than 8 bits";
	case VC_ERR_STRIDE: return "a repeat stride cannot be expressed";
	default: return "instruction emission failed";
	}
}

/* ---- the pass ---------------------------------------------------------------------- */

typedef struct sr {
	ir_ctx *ctx;
	const pass_opts *o;
	unsigned errors;
	ir_op **ops; /* collected ops */
	size_t n, cap;
	int oom;
	int scf; /* the module has scf ops (lower_scf_tiles has work) */
} sr;

static void push(sr *s, ir_op *op)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		ir_op **p = realloc(s->ops, cap * sizeof *p);
		if (!p) {
			s->oom = 1;
			return;
		}
		s->ops = p;
		s->cap = cap;
	}
	s->ops[s->n++] = op;
}

static int collect(ir_op *op, void *user)
{
	sr *s = user;
	const ir_opdef *d = ir_opdef_get(op->code);
	if (op->code == IR_OP_SCF_FOR || op->code == IR_OP_SCF_IF || op->code == IR_OP_SCF_YIELD ||
	    op->code == IR_OP_SCF_WHILE || op->code == IR_OP_SCF_CONDITION)
		s->scf = 1;
	if ((d->flags & IR_OPF_TILE) || op->code == IR_OP_TPRINT || op->code == IR_OP_ALLOC_TILE ||
	    op->code == IR_OP_TASSIGN || op->code == IR_OP_SET_VALIDSHAPE ||
	    op->code == IR_OP_TRESHAPE || op->code == IR_OP_TBITCAST || op->code == IR_OP_TGETVAL ||
	    op->code == IR_OP_SUBSET ||
	    op->code == IR_OP_TSETVAL || op->code == IR_OP_BUILD_ASYNC_SESSION ||
	    (op->code >= IR_OP_TPUSH_TO_AIV && op->code <= IR_OP_TPOP &&
					   op->code != IR_OP_TFREE_FROM_AIC &&
					   op->code != IR_OP_TFREE_FROM_AIV))
		push(s, op);
	return 0;
}

static void err(sr *s, const ir_op *op, const char *fmt, const char *a)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a);
	ir_error(s->ctx, op->loc, "'%s' %s", op->name, msg);
	s->errors++;
}

static ir_mem tile_mem(const lower_tile *t)
{
	return t->type->u.tb.mem;
}

static int row_major(const lower_tile *t)
{
	return t->type->u.tb.blayout == IR_BLAYOUT_ROW_MAJOR &&
	       t->type->u.tb.slayout == IR_SLAYOUT_NONE_BOX;
}

/* The context of one tcvt's instructions. */
typedef struct cvt_emit {
	sr *s;
	ir_op *op;
	lower_tile src, dst;
	ptort_type from, to;
	const ir_attr *rmode, *sat, *scale;
	ir_value *rows_v, *cols_v; /* dynamic valid shape (register form) */
} cvt_emit;

static void addr_field(cvt_emit *c, lower_insn *li, const char *name, const lower_tile *t,
		       uint32_t off)
{
	li_addr(c->s->ctx, li, name, t, off, c->op);
}

static int emit_cvt(void *user, const vc_insn *in)
{
	cvt_emit *c = user;
	ir_ctx *ctx = c->s->ctx;
	lower_insn li;
	li_init(&li, in->kind == VC_REPEAT ? (c->scale ? IR_OP_I_VCONV_DEQ : IR_OP_I_VCONV)
		     : in->kind == VC_V ? IR_OP_I_VCONV_V : IR_OP_I_VCONV_V2D);
	li_mem(ctx, &li, tile_mem(&c->dst));
	if (in->kind != VC_REPEAT || !c->scale) {
		li_attr(ctx, &li, "from", ir_attr_type(ctx, ir_type_elem(ctx, c->from)));
		li_attr(ctx, &li, "to", ir_attr_type(ctx, ir_type_elem(ctx, c->to)));
		li_attr(ctx, &li, "rmode", c->rmode);
		li_attr(ctx, &li, "sat_mode", c->sat);
	}
	switch (in->kind) {
	case VC_REPEAT:
		li_int(ctx, &li, "repeat", in->repeat);
		li_int(ctx, &li, "dst_blk", in->dst_blk);
		li_int(ctx, &li, "src_blk", in->src_blk);
		li_int(ctx, &li, "dst_rep", in->dst_rep);
		li_int(ctx, &li, "src_rep", in->src_rep);
		li_int(ctx, &li, "mask_hi", (int64_t)in->mask_hi);
		li_int(ctx, &li, "mask_lo", (int64_t)in->mask_lo);
		if (c->scale)
			li_attr(ctx, &li, "scale", c->scale);
		break;
	case VC_V:
		li_int(ctx, &li, "count", in->count);
		break;
	default:
		if (c->rows_v)
			li_dyn(ctx, &li, "rows", c->rows_v);
		else
			li_int(ctx, &li, "rows", in->rows);
		if (c->cols_v)
			li_dyn(ctx, &li, "cols", c->cols_v);
		else
			li_int(ctx, &li, "cols", in->cols);
		li_int(ctx, &li, "dst_pitch", in->dst_pitch);
		li_int(ctx, &li, "src_pitch", in->src_pitch);
		break;
	}
	addr_field(c, &li, "dst", &c->dst, in->dst);
	addr_field(c, &li, "src", &c->src, in->src);
	return li_emit(ctx, &li, c->op) ? 0 : -1;
}

static int lower_tcvt(sr *s, ir_op *op)
{
	cvt_emit c;
	vc_geom g;
	const ir_attr *a;
	ptort_rmode rm;
	int sat, rc;
	const struct target *t = s->o->target;
	memset(&c, 0, sizeof c);
	c.s = s;
	c.op = op;
	if (op->num_results) {
		err(s, op, "%s: tile SSA form (level 1) must be bufferized first", PASS_NAME);
		return -1;
	}
	if (lower_tile_of(s->ctx, op, op->operands[0].value, &c.src) ||
	    lower_tile_of(s->ctx, op, op->operands[op->num_operands - 1].value, &c.dst)) {
		s->errors++;
		return -1;
	}
	if (tile_mem(&c.src) != IR_MEM_VEC || tile_mem(&c.dst) != IR_MEM_VEC) {
		err(s, op, "%s: source and destination tiles must be in vec", PASS_NAME);
		return -1;
	}
	if (!row_major(&c.src) || !row_major(&c.dst)) {
		err(s, op, "%s: unsupported tile layout (only blayout=row_major, slayout=none_box)",
		    PASS_NAME);
		return -1;
	}
	if (ir_type_to_elem(c.src.type->u.tb.elem, &c.from) ||
	    ir_type_to_elem(c.dst.type->u.tb.elem, &c.to)) {
		err(s, op, "%s: element type without a runtime type", PASS_NAME);
		return -1;
	}
	a = ir_op_get_attr(op, "rmode");
	if (!a || ir_attr_rmode(a, &rm)) {
		err(s, op, "%s: needs an explicit rmode (run legalize-cvt first)", PASS_NAME);
		return -1;
	}
	a = ir_op_get_attr(op, "sat_mode");
	if (!a)
		a = ir_op_get_attr(op, "satmode");
	if (!a || (sat = ir_attr_satmode(a)) < 0) {
		err(s, op, "%s: needs an explicit sat_mode (run legalize-cvt first)", PASS_NAME);
		return -1;
	}
	c.rmode = ir_attr_pto(s->ctx, "round_mode", ptort_rmode_name(rm), IR_PTO_ANGLE);
	c.sat = ir_attr_pto(s->ctx, "saturation_mode", sat ? "ON" : "OFF", IR_PTO_ANGLE);
	a = ir_op_get_attr(op, "deq_scale");
	if (a) {
		if (a->kind != IR_ATTR_INT || a->u.i.v < 0 || a->u.i.v > 0xFFFF) {
			err(s, op, "%s: deq_scale must be an integer f16 bit pattern", PASS_NAME);
			return -1;
		}
		if (t->vec.predicated || c.from != PTORT_I32 || c.to != PTORT_F16) {
			err(s, op, "%s: deq_scale only applies to i32 -> f16 on the repeat form",
			    PASS_NAME);
			return -1;
		}
		c.scale = ir_attr_int(s->ctx, a->u.i.v, NULL);
	}
	g.from = c.from;
	g.to = c.to;
	g.src_cols = (uint32_t)c.src.type->u.tb.cols;
	g.dst_cols = (uint32_t)c.dst.type->u.tb.cols;
	g.v_row = c.dst.type->u.tb.v_row == IR_DYN ? 0 : (uint32_t)c.dst.type->u.tb.v_row;
	g.v_col = c.dst.type->u.tb.v_col == IR_DYN ? 0 : (uint32_t)c.dst.type->u.tb.v_col;
	if (c.dst.type->u.tb.v_row == IR_DYN || c.dst.type->u.tb.v_col == IR_DYN) {
		vc_insn in;
		/* [decision] on A2A3 too (docs/semantics.md §5.1): the register form with
		 * run-time rows/cols converts each element of the region exactly as repeats
		 * under run-time masks would, and touches no other element; only the deq
		 * path (i32 -> f16 with deq_scale) has no such form */
		if (c.scale) {
			err(s, op, "%s: a dynamic valid shape with deq_scale is not supported (the deq "
				   "path has only the repeat form, whose masks need the region's shape)",
			    PASS_NAME);
			return -1;
		}
		/* the 2-D register form, rows/cols as dyn operands */
		c.rows_v = c.dst.type->u.tb.v_row == IR_DYN ? c.dst.v_row : NULL;
		c.cols_v = c.dst.type->u.tb.v_col == IR_DYN ? c.dst.v_col : NULL;
		memset(&in, 0, sizeof in);
		in.kind = VC_V2D;
		in.rows = g.v_row;
		in.cols = g.v_col;
		in.src_pitch = vc_nbytes(g.src_cols, ptort_type_bits(c.from));
		in.dst_pitch = vc_nbytes(g.dst_cols, ptort_type_bits(c.to));
		if (emit_cvt(&c, &in)) {
			s->errors++;
			return -1;
		}
		return 0;
	} else if (g.v_row == 0 || g.v_col == 0) {
		return 0; /* empty region: nothing to convert */
	}
	if (c.dst.type->u.tb.v_row != IR_DYN && c.dst.type->u.tb.v_col != IR_DYN &&
	    (g.v_row > c.src.type->u.tb.rows || g.v_col > c.src.type->u.tb.cols ||
	     g.v_row > c.dst.type->u.tb.rows || g.v_col > c.dst.type->u.tb.cols)) {
		err(s, op, "%s: the destination's valid region exceeds a tile's shape", PASS_NAME);
		return -1;
	}
	rc = vc_split(&t->vec, &g, emit_cvt, &c);
	if (rc) {
		err(s, op, "%s: cannot split this conversion into repeats", PASS_NAME);
		ir_note(s->ctx, op->loc, "%s", vc_error_text(rc));
		return -1;
	}
	return 0;
}

static int lower_transfer(sr *s, ir_op *op, int load)
{
	lower_tile t;
	lower_insn li;
	unsigned ti = load ? 1 : 0, vi = load ? 0 : 1;
	if (op->num_results || op->num_operands != (load || !lower_fixpipe_wants(op) ? 2u : op->num_operands)) {
		err(s, op, "%s: tile SSA form (level 1) must be bufferized first", PASS_NAME);
		return -1;
	}
	if (lower_tile_of(s->ctx, op, op->operands[ti].value, &t)) {
		s->errors++;
		return -1;
	}
	if ((tile_mem(&t) != IR_MEM_VEC && tile_mem(&t) != IR_MEM_MAT) || (!load && lower_fixpipe_wants(op))) {
		unsigned e = lower_cube_op(s->ctx, op, s->o);
		s->errors += e;
		return e ? -1 : 0;
	}
	li_init(&li, load ? IR_OP_I_DMA_LOAD : IR_OP_I_DMA_STORE);
	li_operand(&li, op->operands[vi].value);
	li_tile(s->ctx, &li, load ? "dst" : "src", &t);
	if (!li_emit(s->ctx, &li, op)) {
		s->errors++;
		return -1;
	}
	return 0;
}

/* pto.tprint ins(%t) -> pto.i.tprint src = <tile> */
static int lower_tprint(sr *s, ir_op *op)
{
	lower_tile t;
	lower_insn li;
	if (op->num_operands != 1 || lower_tile_of(s->ctx, op, op->operands[0].value, &t)) {
		s->errors++;
		return -1;
	}
	li_init(&li, IR_OP_I_TPRINT);
	li_tile(s->ctx, &li, "src", &t);
	if (!li_emit(s->ctx, &li, op)) {
		s->errors++;
		return -1;
	}
	return 0;
}

/* tgetval -> pto.i.getval (its result replaces the op's), tsetval -> pto.i.setval
 * (docs/semantics.md §7.9); the offset and the value as dyn operands */
static int lower_getset(sr *s, ir_op *op)
{
	int get = op->code == IR_OP_TGETVAL;
	lower_tile t;
	lower_insn li;
	ir_op *in;
	if (op->num_operands != (get ? 2u : 3u) ||
	    lower_tile_of(s->ctx, op, op->operands[get ? 0 : 2].value, &t)) {
		s->errors++;
		return -1;
	}
	li_init(&li, get ? IR_OP_I_GETVAL : IR_OP_I_SETVAL);
	li_tile(s->ctx, &li, get ? "src" : "dst", &t);
	li_dyn(s->ctx, &li, "offset", op->operands[get ? 1 : 0].value);
	if (!get)
		li_dyn(s->ctx, &li, "value", op->operands[1].value);
	else
		li.result = op->results[0].type;
	if (!(in = li_emit(s->ctx, &li, op))) {
		s->errors++;
		return -1;
	}
	if (get)
		ir_value_replace_all_uses(&op->results[0], &in->results[0]);
	return 0;
}

/* build_async_session: ptoc's copies keep no control words in UB, so the scratch tile
 * goes (docs/semantics.md §8.10); the op keeps its workspace. */
static int lower_async_session(sr *s, ir_op *op)
{
	ir_value *w = op->operands[op->num_operands - 1].value;
	const ir_type *rt = op->results[0].type;
	ir_op *n = ir_op_create(s->ctx, op->name, op->loc, &w, 1, &rt, 1, op->attrs, 0);
	ir_block_insert_before(op, n);
	n->results[0].name = op->results[0].name;
	ir_value_replace_all_uses(&op->results[0], &n->results[0]);
	return 0;
}

static int lower_op(sr *s, ir_op *op)
{
	unsigned e;
	switch (op->code) {
	case IR_OP_TCVT: return lower_tcvt(s, op);
	case IR_OP_TLOAD: case IR_OP_TPREFETCH: return lower_transfer(s, op, 1);
	case IR_OP_TSTORE: return lower_transfer(s, op, 0);
	case IR_OP_TPRINT: return lower_tprint(s, op);
	case IR_OP_TGETVAL: case IR_OP_TSETVAL: return lower_getset(s, op);
	case IR_OP_BUILD_ASYNC_SESSION:
		return op->num_operands == 2 ? lower_async_session(s, op) : -1;
	case IR_OP_TPUSH_TO_AIV: case IR_OP_TPUSH_TO_AIC: case IR_OP_TPOP_FROM_AIC:
	case IR_OP_TPOP_FROM_AIV: case IR_OP_TPUSH: case IR_OP_TPOP:
		e = lower_mixed_op(s->ctx, op);
		s->errors += e;
		return e ? -1 : 0;
	default:
		e = ir_vecdef_get(op->code) ? lower_vec_op(s->ctx, op, s->o)
					    : lower_cube_op(s->ctx, op, s->o);
		s->errors += e;
		return e ? -1 : 0;
	}
}

/* The pto.i.* instructions between `prev` (exclusive; NULL = block start) and `op`:
 * those the lowering of `op` inserted. */
static unsigned count_insns(const ir_op *prev, const ir_op *op)
{
	unsigned n = 0;
	const ir_op *p;
	for (p = op->prev; p && p != prev; p = p->prev)
		if (ir_opdef_get(p->code)->flags & IR_OPF_LEVEL3)
			n++;
	return n;
}

/* Erases `op` and the constants among its first `max` operands (at most 8) that
 * nothing else uses. */
static void erase_with_consts(ir_op *op, unsigned max)
{
	ir_value *used[8];
	unsigned i, n = op->num_operands < max ? op->num_operands : max;
	for (i = 0; i < n && i < 8; i++)
		used[i] = op->operands[i].value;
	ir_op_erase(op);
	for (i = 0; i < n && i < 8; i++)
		if (used[i] && used[i]->def && used[i]->def->code == IR_OP_CONSTANT &&
		    used[i]->def->block && !ir_value_num_uses(used[i]))
			ir_op_erase(used[i]->def);
}

/* Erases alloc_tile / tassign `op` and the constants only it used. */
static void erase_tile_def(ir_op *op)
{
	erase_with_consts(op, 3);
}

static unsigned split_repeats(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	sr s;
	size_t i;
	memset(&s, 0, sizeof s);
	s.ctx = ctx;
	s.o = o;
	ir_walk(module, collect, &s);
	if (s.oom) {
		free(s.ops);
		ir_error(ctx, module->loc, "%s: out of memory", PASS_NAME);
		return 1;
	}
	for (i = 0; i < s.n; i++) {
		ir_op *op = s.ops[i], *prev = op->prev;
		if (op->code == IR_OP_ALLOC_TILE || op->code == IR_OP_TASSIGN ||
		    op->code == IR_OP_SET_VALIDSHAPE || op->code == IR_OP_TRESHAPE ||
		    op->code == IR_OP_TBITCAST || op->code == IR_OP_SUBSET)
			/* read by lower_tile_of at later uses */
			continue;
		if (!lower_op(&s, op)) {
			/* A2A3: V barriers between dependent instructions of this op */
			lower_pipe_barriers(ctx, o->target, prev ? prev->next : op->block->first, op);
			pass_remark(ctx, o, PASS_NAME, op->loc, "'%s' lowered to %u instruction(s)",
				    op->name, count_insns(prev, op));
			/* a scalar constant now in the instructions' fields (vector ops) */
			erase_with_consts(op, 8);
		}
	}
	if (!s.errors && s.scf) /* without scf ops it would walk the module for nothing */
		s.errors += lower_scf_tiles(ctx, module);
	if (!s.errors) {
		/* tile definitions, last first (a tassign uses its alloc_tile) */
		for (i = s.n; i-- > 0;) {
			ir_op *op = s.ops[i];
			if (op->code == IR_OP_SET_VALIDSHAPE) {
				ir_op_erase(op);
				continue;
			}
			if (op->code != IR_OP_ALLOC_TILE && op->code != IR_OP_TASSIGN &&
			    op->code != IR_OP_TRESHAPE && op->code != IR_OP_TBITCAST &&
			    op->code != IR_OP_SUBSET)
				continue;
			if (op->num_results && ir_value_num_uses(&op->results[0])) {
				const ir_op *u = op->results[0].uses->owner;
				ir_error(ctx, u->loc, "'%s' %s: uses a tile that cannot be lowered",
					 u->name, PASS_NAME);
				s.errors++;
				continue;
			}
			erase_tile_def(op);
		}
	}
	free(s.ops);
	return s.errors;
}

/* The pass-table entry (pass.c). */
unsigned pass_split_repeats(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	return split_repeats(ctx, module, o);
}
