/* lower_cube.c: the cube side of level-3 lowering (lower.h, docs/lowered.md), called by
 * split-repeats for tmov, the tmatmul family and transfers of tiles outside vec/mat.
 *
 * Requires: level-2 DPS ops whose tiles have addresses (place-tiles) and which the
 * verifier accepted (locations, shapes and type triples of the target are checked
 * there). Produces, before the op (which the caller erases):
 *   tstore acc -> GM    pto.i.dma_store, convert_to = the GM element type when it
 *                       differs from the tile's (f32 -> f16/bf16, RINT, saturated)
 *   tmov               pto.i.tmov, convert_to when the element types differ (acc f32 ->
 *                       f16/bf16); relu when the op carries a `relu` attribute
 *   tmov, tstore with the fixpipe's stages  lower_fixpipe.c
 *   tmatmul*           pto.i.mmad / pto.i.mmad_mx with m = lhs valid rows, k = lhs
 *                       valid columns, n = rhs valid columns (dynamic valid shapes go
 *                       to `dyn`), init "zero" (tmatmul, .mx), "c" (.acc: the acc_in
 *                       tile, which may be the destination itself), "bias" (.bias).
 *   tgemv*             pto.i.mmad with m = 1, k = rhs valid rows, n = rhs valid
 *                       columns, init as the tmatmul of the same suffix; tgemv.mx*
 *                       pto.i.mmad_mx likewise, k = lhs valid columns.
 *   tget_scale_addr    nothing: ptoc passes each MX scale tile to the mmad itself.
 *   textract           pto.i.textract (row, col: constants or dyn operands).
 *   tinsert            pto.i.tinsert (row, col likewise; convert_to as tmov).
 *   t{row,col}arg{max,min}  pto.i.targred (col, min flags; tmp unused).
 *   tgather (index form) pto.i.tgather (tmp unused).
 * Layout conversions (ND <-> Nz/Zn fractals) are the runtime's: every instruction
 * addresses elements through the tile descriptors' layouts. On A2A3 an m = 1 matmul is
 * an ordinary matmul of the valid row (no GEMV mode is modelled). */
#include <string.h>

#include "passes/lower.h"
#include "ir/verify_move.h"

#define PASS_NAME "split-repeats"

static int tile(ir_ctx *ctx, const ir_op *op, unsigned i, lower_tile *t)
{
	return lower_tile_at(ctx, op, i, t);
}

static int elem_of(const ir_type *t, ptort_type *out)
{
	if (t->kind == IR_TYPE_TILE_BUF)
		return ir_type_to_elem(t->u.tb.elem, out);
	if (t->kind == IR_TYPE_PART_VIEW || t->kind == IR_TYPE_TENSOR_VIEW)
		return ir_type_to_elem(t->u.shaped.elem, out);
	return -1;
}

/* convert_to = `to` when the element types of `from` and `to` differ. */
static void convert_field(ir_ctx *ctx, lower_insn *li, const ir_type *from, const ir_type *to)
{
	ptort_type a, b;
	if (elem_of(from, &a) || elem_of(to, &b) || a == b)
		return;
	li_attr(ctx, li, "convert_to", ir_attr_type(ctx, ir_type_elem(ctx, b)));
}

static int has_relu(const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "relu");
	return a && (a->kind == IR_ATTR_UNIT || (a->kind == IR_ATTR_BOOL && a->u.i.v));
}

static unsigned lower_tstore(ir_ctx *ctx, ir_op *op)
{
	lower_tile t;
	lower_insn li;
	if (tile(ctx, op, 0, &t))
		return 1;
	if (t.type->u.tb.mem != IR_MEM_ACC) {
		ir_error(ctx, op->loc,
			 "'%s' %s: a tile in loc=%s cannot be stored to GM (vec, mat and acc can)",
			 op->name, PASS_NAME, ir_mem_name(t.type->u.tb.mem));
		return 1;
	}
	li_init(&li, IR_OP_I_DMA_STORE);
	li_operand(&li, op->operands[1].value);
	li_tile(ctx, &li, "src", &t);
	convert_field(ctx, &li, t.type, op->operands[1].value->type);
	if (has_relu(op))
		li_attr(ctx, &li, "relu", ir_attr_unit(ctx));
	return li_emit(ctx, &li, op) ? 0 : 1;
}

static unsigned lower_tmov(ir_ctx *ctx, ir_op *op)
{
	lower_tile s, d;
	lower_insn li;
	if (op->num_operands < 2 || tile(ctx, op, 0, &s) || tile(ctx, op, op->num_operands - 1, &d))
		return 1;
	li_init(&li, IR_OP_I_TMOV);
	li_tile(ctx, &li, "src", &s);
	li_tile(ctx, &li, "dst", &d);
	convert_field(ctx, &li, s.type, d.type);
	if (has_relu(op))
		li_attr(ctx, &li, "relu", ir_attr_unit(ctx));
	return li_emit(ctx, &li, op) ? 0 : 1;
}

/* A valid dimension as a field: the static value, or the tile's valid operand. */
static int dim_field(ir_ctx *ctx, lower_insn *li, const ir_op *op, const char *name,
		     int64_t v, ir_value *dyn)
{
	if (v != IR_DYN) {
		li_int(ctx, li, name, v);
		return 0;
	}
	if (!dyn) {
		ir_error(ctx, op->loc, "'%s' %s: the valid shape behind '%s' is unknown", op->name,
			 PASS_NAME, name);
		return -1;
	}
	li_dyn(ctx, li, name, dyn);
	return 0;
}

static unsigned lower_matmul(ir_ctx *ctx, ir_op *op)
{
	ir_matmul_roles ro;
	int acc, a, as, b, bs, bias, mx;
	lower_tile tc, ta, tb, tx;
	lower_insn li;
	const char *init = "zero";
	if (ir_matmul_roles_of(op->code, &ro))
		return 0;
	acc = ro.acc, a = ro.a, as = ro.a_scale, b = ro.b, bs = ro.b_scale, bias = ro.bias;
	mx = ro.mx;
	if (lower_refuse_level1(ctx, op))
		return 1;
	if (tile(ctx, op, op->num_operands - 1, &tc) || tile(ctx, op, (unsigned)a, &ta) ||
	    tile(ctx, op, (unsigned)b, &tb))
		return 1;
	li_init(&li, mx ? IR_OP_I_MMAD_MX : IR_OP_I_MMAD);
	li_tile(ctx, &li, "c", &tc);
	li_tile(ctx, &li, "a", &ta);
	li_tile(ctx, &li, "b", &tb);
	if (mx) {
		if (tile(ctx, op, (unsigned)as, &tx))
			return 1;
		li_tile(ctx, &li, "a_scale", &tx);
		if (tile(ctx, op, (unsigned)bs, &tx))
			return 1;
		li_tile(ctx, &li, "b_scale", &tx);
	}
	if (acc >= 0 || bias >= 0) {
		init = acc >= 0 ? "c" : "bias";
		if (tile(ctx, op, (unsigned)(acc >= 0 ? acc : bias), &tx))
			return 1;
		li_tile(ctx, &li, "bias", &tx);
	}
	li_attr(ctx, &li, "init", ir_attr_string(ctx, init, strlen(init)));
	if (ro.gemv) {
		/* m = 1, k and n from rhs's valid shape (pto-isa's TGEMV); the MX forms take
		 * k from lhs's valid columns (pto-isa's TGEMV_MX) */
		li_int(ctx, &li, "m", 1);
		if ((mx ? dim_field(ctx, &li, op, "k", ta.type->u.tb.v_col, ta.v_col)
			: dim_field(ctx, &li, op, "k", tb.type->u.tb.v_row, tb.v_row)) ||
		    dim_field(ctx, &li, op, "n", tb.type->u.tb.v_col, tb.v_col))
			return 1;
	} else if (dim_field(ctx, &li, op, "m", ta.type->u.tb.v_row, ta.v_row) ||
		   dim_field(ctx, &li, op, "k", ta.type->u.tb.v_col, ta.v_col) ||
		   dim_field(ctx, &li, op, "n", tb.type->u.tb.v_col, tb.v_col))
		return 1;
	return li_emit(ctx, &li, op) ? 0 : 1;
}

/* textract, tinsert: pto.i.textract / pto.i.tinsert with the window's origin as
 * constants or dyn operands; tinsert's convert_to when the element types differ
 * (acc f32 -> f16/bf16) */
static unsigned lower_textract_tinsert(ir_ctx *ctx, ir_op *op)
{
	lower_tile s, d;
	lower_insn li;
	if (lower_refuse_level1(ctx, op) || op->num_operands != 4 || tile(ctx, op, 0, &s) ||
	    tile(ctx, op, 3, &d))
		return 1;
	li_init(&li, op->code == IR_OP_TINSERT ? IR_OP_I_TINSERT : IR_OP_I_TEXTRACT);
	li_tile(ctx, &li, "src", &s);
	li_tile(ctx, &li, "dst", &d);
	li_int_or_dyn(ctx, &li, "row", op->operands[1].value);
	li_int_or_dyn(ctx, &li, "col", op->operands[2].value);
	if (op->code == IR_OP_TINSERT)
		convert_field(ctx, &li, s.type, d.type);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

/* the arg reductions: pto.i.targred (the tmp tile, when given, is not used) */
static unsigned lower_argred(ir_ctx *ctx, ir_op *op)
{
	lower_tile s, d;
	lower_insn li;
	if (lower_refuse_level1(ctx, op) || tile(ctx, op, 0, &s) ||
	    tile(ctx, op, op->num_operands - 1, &d))
		return 1;
	li_init(&li, IR_OP_I_TARGRED);
	li_tile(ctx, &li, "src", &s);
	li_tile(ctx, &li, "dst", &d);
	li_int(ctx, &li, "col", op->code == IR_OP_TCOLARGMAX || op->code == IR_OP_TCOLARGMIN);
	li_int(ctx, &li, "min", op->code == IR_OP_TROWARGMIN || op->code == IR_OP_TCOLARGMIN);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

/* tgather's index form: pto.i.tgather (the tmp tile, when given, is not used) */
static unsigned lower_tgather(ir_ctx *ctx, ir_op *op)
{
	lower_tile s, x, d;
	lower_insn li;
	if (lower_refuse_level1(ctx, op))
		return 1;
	if (op->num_operands == 5 && op->operands[1].value && !ir_type_is_tile(op->operands[1].value->type))
		return lower_gen_op(ctx, op); /* the compare form */
	if (ir_tgather_pattern(op) > 0) {
		if (tile(ctx, op, 0, &s) || tile(ctx, op, op->num_operands - 1, &d))
			return 1;
		li_init(&li, IR_OP_I_TGATHERM);
		li_tile(ctx, &li, "src", &s);
		li_tile(ctx, &li, "dst", &d);
		li_int(ctx, &li, "pattern", ir_tgather_pattern(op));
		return li_emit(ctx, &li, op) ? 0 : 1;
	}
	if (tile(ctx, op, 0, &s) || tile(ctx, op, 1, &x) || tile(ctx, op, op->num_operands - 1, &d))
		return 1;
	li_init(&li, IR_OP_I_TGATHER);
	li_tile(ctx, &li, "src", &s);
	li_tile(ctx, &li, "idx", &x);
	li_tile(ctx, &li, "dst", &d);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

unsigned lower_cube_op(ir_ctx *ctx, ir_op *op, const pass_opts *o)
{
	(void)o;
	switch (op->code) {
	case IR_OP_TSTORE:
		return lower_fixpipe_wants(op) ? lower_fixpipe(ctx, op) : lower_tstore(ctx, op);
	case IR_OP_TLOAD: {
		lower_tile t;
		if (tile(ctx, op, op->num_operands - 1, &t))
			return 1;
		ir_error(ctx, op->loc,
			 "'%s' %s: GM cannot be loaded into loc=%s directly (load into mat, then tmov)",
			 op->name, PASS_NAME, ir_mem_name(t.type->u.tb.mem));
		return 1;
	}
	case IR_OP_TMOV:
		return lower_fixpipe_wants(op) ? lower_fixpipe(ctx, op) : lower_tmov(ctx, op);
	case IR_OP_TEXTRACT: case IR_OP_TINSERT:
		return lower_textract_tinsert(ctx, op);
	case IR_OP_TROWARGMAX: case IR_OP_TROWARGMIN: case IR_OP_TCOLARGMAX: case IR_OP_TCOLARGMIN:
		return lower_argred(ctx, op);
	case IR_OP_TGATHER:
		return lower_tgather(ctx, op);
	case IR_OP_TGET_SCALE_ADDR:
		return 0; /* a binding, no instruction (docs/semantics.md §6.3) */
	case IR_OP_TSORT32: case IR_OP_TMRGSORT: case IR_OP_THISTOGRAM: case IR_OP_TCONCAT:
	case IR_OP_TRANDOM: case IR_OP_TPACK:
	case IR_OP_TQUANT: case IR_OP_TDEQUANT: case IR_OP_TEXTRACT_FP: case IR_OP_TINSERT_FP:
		return lower_irregular_op(ctx, op);
	default:
		if (ir_opdef_get(op->code)->flags & IR_OPF_MATMUL)
			return lower_matmul(ctx, op);
		ir_error(ctx, op->loc, "'%s' %s: no level-3 lowering for this op", op->name, PASS_NAME);
		return 1;
	}
}
