/* lower_irregular.c: level-3 lowering of the irregular vector ops (lower.h,
 * docs/lowered.md), called by lower_cube_op for each: one runtime instruction per op.
 *
 * Requires: level-2 DPS ops whose tiles have addresses (place-tiles) and which the
 * verifier accepted. Produces, before the op (which the caller erases):
 *   tsort32            pto.i.tsort32 (tmp unused).
 *   tmrgsort           pto.i.tmrgsort: the one-list form with block_len (a constant or
 *                      dyn operand), the multi-list form with its lists as src0..src3
 *                      and exhausted (tmp unused; the executed counts are not written).
 *   thistogram         pto.i.thistogram (msb 1 unless isMSB = false).
 *   tconcat            pto.i.tconcat.
 *   tquant, tdequant   pto.i.tquant (offset absent for INT8_SYM), pto.i.tdequant.
 *   textract_fp,       pto.i.tmovfp (insert 0 / 1) with the origin as constants or
 *   tinsert_fp         dyn operands. */
#include "passes/lower.h"

#define PASS_NAME "split-repeats"

/* Starts instruction `code` with the tiles of operands #0, #1 and #dst as fields `a`,
 * `b` and dst (tsort32, thistogram, tconcat, tmovfp). */
static int three_tiles(ir_ctx *ctx, ir_op *op, lower_insn *li, ir_opcode code, const char *a,
		       const char *b, unsigned dst)
{
	lower_tile t[3];
	if (lower_tile_at(ctx, op, 0, &t[0]) || lower_tile_at(ctx, op, 1, &t[1]) ||
	    lower_tile_at(ctx, op, dst, &t[2]))
		return -1;
	li_init(li, code);
	li_tile(ctx, li, a, &t[0]);
	li_tile(ctx, li, b, &t[1]);
	li_tile(ctx, li, "dst", &t[2]);
	return 0;
}

static unsigned lower_tsort32(ir_ctx *ctx, ir_op *op)
{
	lower_insn li;
	if (three_tiles(ctx, op, &li, IR_OP_I_TSORT32, "src", "idx", op->num_operands - 1))
		return 1;
	return li_emit(ctx, &li, op) ? 0 : 1;
}

static unsigned lower_tmrgsort(ir_ctx *ctx, ir_op *op)
{
	static const char *const names[4] = {"src0", "src1", "src2", "src3"};
	lower_tile t;
	lower_insn li;
	unsigned n = op->num_operands, i;
	const ir_attr *ex = ir_op_get_attr(op, "exhausted");
	li_init(&li, IR_OP_I_TMRGSORT);
	if (ir_type_is_tile(op->operands[n - 1].value->type)) { /* src, blockLen; dst */
		if (lower_tile_at(ctx, op, 0, &t))
			return 1;
		li_tile(ctx, &li, "src0", &t);
		if (lower_tile_at(ctx, op, 2, &t))
			return 1;
		li_tile(ctx, &li, "dst", &t);
		li_int_or_dyn(ctx, &li, "block_len", op->operands[1].value);
		li_int(ctx, &li, "exhausted", 0);
		return li_emit(ctx, &li, op) ? 0 : 1;
	}
	for (i = 0; i + 3 < n && i < 4; i++) { /* src0..srcK, tmp; dst, executed */
		if (lower_tile_at(ctx, op, i, &t))
			return 1;
		li_tile(ctx, &li, names[i], &t);
	}
	if (lower_tile_at(ctx, op, n - 2, &t))
		return 1;
	li_tile(ctx, &li, "dst", &t);
	li_int(ctx, &li, "block_len", 0);
	li_int(ctx, &li, "exhausted", ex && ex->kind == IR_ATTR_BOOL && ex->u.i.v);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

static unsigned lower_thistogram(ir_ctx *ctx, ir_op *op)
{
	lower_insn li;
	const ir_attr *msb = ir_op_get_attr(op, "isMSB");
	if (three_tiles(ctx, op, &li, IR_OP_I_THISTOGRAM, "src", "idx", 2))
		return 1;
	li_int(ctx, &li, "msb", !msb || msb->kind != IR_ATTR_BOOL || msb->u.i.v);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

static unsigned lower_tconcat(ir_ctx *ctx, ir_op *op)
{
	lower_insn li;
	if (three_tiles(ctx, op, &li, IR_OP_I_TCONCAT, "src0", "src1", 2))
		return 1;
	return li_emit(ctx, &li, op) ? 0 : 1;
}

/* tquant, tdequant: src, the scale, the offset if any, dst */
static unsigned lower_quant(ir_ctx *ctx, ir_op *op)
{
	static const char *const names[3] = {"src", "scale", "offset"};
	lower_tile t;
	lower_insn li;
	unsigned n = op->num_operands, i;
	li_init(&li, op->code == IR_OP_TQUANT ? IR_OP_I_TQUANT : IR_OP_I_TDEQUANT);
	for (i = 0; i < n; i++) {
		if (lower_tile_at(ctx, op, i, &t))
			return 1;
		li_tile(ctx, &li, i + 1 == n ? "dst" : names[i], &t);
	}
	return li_emit(ctx, &li, op) ? 0 : 1;
}

/* textract_fp, tinsert_fp: src, fp, dst and the origin (constants or dyn operands) */
static unsigned lower_movfp(ir_ctx *ctx, ir_op *op)
{
	lower_insn li;
	if (three_tiles(ctx, op, &li, IR_OP_I_TMOVFP, "src", "fp", 4))
		return 1;
	li_int_or_dyn(ctx, &li, "row", op->operands[2].value);
	li_int_or_dyn(ctx, &li, "col", op->operands[3].value);
	li_int(ctx, &li, "insert", op->code == IR_OP_TINSERT_FP);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

unsigned lower_irregular_op(ir_ctx *ctx, ir_op *op)
{
	if (lower_refuse_level1(ctx, op))
		return 1;
	switch (op->code) {
	case IR_OP_TSORT32: return lower_tsort32(ctx, op);
	case IR_OP_TMRGSORT: return lower_tmrgsort(ctx, op);
	case IR_OP_THISTOGRAM: return lower_thistogram(ctx, op);
	case IR_OP_TCONCAT: return lower_tconcat(ctx, op);
	case IR_OP_TQUANT: case IR_OP_TDEQUANT: return lower_quant(ctx, op);
	case IR_OP_TEXTRACT_FP: case IR_OP_TINSERT_FP: return lower_movfp(ctx, op);
	default: return lower_gen_op(ctx, op);
	}
}
