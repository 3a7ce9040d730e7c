/* lower_gen.c: level-3 lowering of tgather's compare form, trandom and tpack (lower.h,
 * docs/lowered.md), called by lower_cube_op for each: one runtime instruction per op.
 *
 * Requires: level-2 DPS ops whose tiles have addresses (place-tiles) and which the
 * verifier accepted. Produces, before the op (which the caller erases):
 *   tgather (compare)  pto.i.tgatherc: src, dst, cdst, the scalar k as a dyn operand,
 *                      cmp (eq unless cmpMode = gt) and offset (0 when absent); tmp
 *                      unused.
 *   trandom            pto.i.trandom: dst, the six words (constants or dyn operands),
 *                      rounds (10 when absent).
 *   tpack              pto.i.tpack. */
#include "passes/lower.h"

#define PASS_NAME "split-repeats"

static unsigned lower_tgatherc(ir_ctx *ctx, ir_op *op)
{
	const ir_attr *cm = ir_op_get_attr(op, "cmpMode"), *off = ir_op_get_attr(op, "offset");
	lower_tile s, d, c;
	lower_insn li;
	if (lower_tile_at(ctx, op, 0, &s) || lower_tile_at(ctx, op, 3, &d) || lower_tile_at(ctx, op, 4, &c))
		return 1;
	li_init(&li, IR_OP_I_TGATHERC);
	li_tile(ctx, &li, "src", &s);
	li_tile(ctx, &li, "dst", &d);
	li_tile(ctx, &li, "cdst", &c);
	li_dyn(ctx, &li, "k", op->operands[1].value);
	li_int(ctx, &li, "cmp", cm ? ir_attr_cmp(cm) : PTORT_CMP_EQ);
	li_int(ctx, &li, "offset", off && off->kind == IR_ATTR_INT ? off->u.i.v : 0);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

static unsigned lower_trandom(ir_ctx *ctx, ir_op *op)
{
	static const char *const word[6] = {"key0", "key1", "counter0", "counter1", "counter2", "counter3"};
	const ir_attr *r = ir_op_get_attr(op, "rounds");
	lower_tile d;
	lower_insn li;
	unsigned i;
	if (lower_tile_at(ctx, op, 6, &d))
		return 1;
	li_init(&li, IR_OP_I_TRANDOM);
	li_tile(ctx, &li, "dst", &d);
	for (i = 0; i < 6; i++)
		li_int_or_dyn(ctx, &li, word[i], op->operands[i].value);
	li_int(ctx, &li, "rounds", r && r->kind == IR_ATTR_INT ? r->u.i.v : 10);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

static unsigned lower_tpack(ir_ctx *ctx, ir_op *op)
{
	lower_tile s, d;
	lower_insn li;
	if (lower_tile_at(ctx, op, 0, &s) || lower_tile_at(ctx, op, 1, &d))
		return 1;
	li_init(&li, IR_OP_I_TPACK);
	li_tile(ctx, &li, "src", &s);
	li_tile(ctx, &li, "dst", &d);
	return li_emit(ctx, &li, op) ? 0 : 1;
}

unsigned lower_gen_op(ir_ctx *ctx, ir_op *op)
{
	switch (op->code) {
	case IR_OP_TGATHER: return lower_tgatherc(ctx, op);
	case IR_OP_TRANDOM: return lower_trandom(ctx, op);
	case IR_OP_TPACK: return lower_tpack(ctx, op);
	default:
		ir_error(ctx, op->loc, "'%s' %s: no lowering", op->name, PASS_NAME);
		return 1;
	}
}
