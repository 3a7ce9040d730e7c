/* verify_gen.c: the verifier's rules for trandom (semantics.md §7.8e) and tpack
 * (§7.8f), PTOAS's checks: both are A5 ops; trandom's dst a row-major vec tile of i32 or
 * ui32, its six words 32-bit integers, rounds 7 or 10; tpack's src and dst vec tiles of
 * one valid shape whose element sizes are 4 -> 2, 4 -> 1 or 2 -> 1 bytes. The SSA form
 * gets the generic checks and the target rule only. tsync has no rules of its own. */
#include <stdio.h>

#include "ir/verify_move.h"
#include "target/target.h"

#define op_err ir_op_error

static const ir_type *vec_tile(ir_ctx *ctx, const ir_op *op, unsigned i, const char *role, unsigned *err)
{
	const ir_type *ty = i < op->num_operands && op->operands[i].value ? op->operands[i].value->type : NULL;
	char b[256];
	if (!ty || ty->kind != IR_TYPE_TILE_BUF || ty->u.tb.mem != IR_MEM_VEC) {
		*err = op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'", role,
			      ir_type_str(ty, b, sizeof b));
		return NULL;
	}
	if ((ty->u.tb.v_row != IR_DYN && ty->u.tb.v_row > ty->u.tb.rows) ||
	    (ty->u.tb.v_col != IR_DYN && ty->u.tb.v_col > ty->u.tb.cols)) {
		*err = op_err(ctx, op, "expects %s's valid shape to fit in its shape (%s)", role,
			      ir_type_str(ty, b, sizeof b));
		return NULL;
	}
	return ty;
}

static unsigned verify_trandom(ir_ctx *ctx, const ir_op *op)
{
	static const char *const word[6] = {"key0", "key1", "counter0", "counter1", "counter2", "counter3"};
	const ir_attr *rounds = ir_op_get_attr(op, "rounds");
	const ir_type *ty;
	ptort_type e;
	unsigned err = 0, i;
	if (!(ty = vec_tile(ctx, op, 6, "dst", &err)))
		return err;
	if (ty->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR)
		return op_err(ctx, op, "expects dst to use row-major layout");
	if (ir_type_to_elem(ty->u.tb.elem, &e) || (e != PTORT_I32 && e != PTORT_U32))
		return op_err(ctx, op, "expects dst element type to be i32 or ui32");
	for (i = 0; i < 6; i++) {
		const ir_type *w = op->operands[i].value ? op->operands[i].value->type : NULL;
		if (!w || w->kind != IR_TYPE_INT || w->u.i.bits != 32)
			return op_err(ctx, op, "expects %s to be i32/ui32", word[i]);
	}
	if (rounds && (rounds->kind != IR_ATTR_INT || (rounds->u.i.v != 7 && rounds->u.i.v != 10)))
		return op_err(ctx, op, "expects rounds to be 7 or 10");
	return 0;
}

static unsigned verify_tpack(ir_ctx *ctx, const ir_op *op)
{
	const ir_type *s, *d;
	ptort_type se, de;
	unsigned err = 0, sb, db;
	if (!(s = vec_tile(ctx, op, 0, "src", &err)) || !(d = vec_tile(ctx, op, 1, "dst", &err)))
		return err;
	if (s->u.tb.v_row != d->u.tb.v_row || s->u.tb.v_col != d->u.tb.v_col)
		return op_err(ctx, op, "expects src and dst to have the same valid_shape");
	if (ir_type_to_elem(s->u.tb.elem, &se) || ir_type_to_elem(d->u.tb.elem, &de))
		return op_err(ctx, op, "expects A5 tpack element-size pair to be 4->2, 4->1, or 2->1 bytes");
	sb = ptort_type_bits(se), db = ptort_type_bits(de);
	if (!((sb == 32 && (db == 16 || db == 8)) || (sb == 16 && db == 8)))
		return op_err(ctx, op, "expects A5 tpack element-size pair to be 4->2, 4->1, or 2->1 bytes");
	return 0;
}

unsigned ir_verify_gen(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	if (op->code == IR_OP_TSYNC)
		return 0;
	if (t->id != PTOC_TARGET_A5)
		return op_err(ctx, op, op->code == IR_OP_TRANDOM ? "trandom is only supported for A5 targets"
								 : "tpack is only supported on A5 targets");
	if (op->num_results)
		return 0;
	return op->code == IR_OP_TRANDOM ? verify_trandom(ctx, op) : verify_tpack(ctx, op);
}
