/* verify_argred.c: the verifier's rules for trowargmax, trowargmin, tcolargmax and
 * tcolargmin (docs/semantics.md §7.6a): vec tiles, the source element types of the
 * target (pto-isa: A2A3 f16, f32, i16, i32; A5 every 16- and 32-bit type), i32 or ui32
 * indices, a destination of one column (row forms) or one row (column forms) whose
 * valid extent matches the source's. The tmp tile is optional and never written. */
#include <stdarg.h>
#include <stdio.h>

#include "ir/verify_move.h"
#include "target/target.h"

#define T(x) (1u << PTORT_##x)

#define op_err ir_op_error

unsigned ir_verify_argred(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	int col = op->code == IR_OP_TCOLARGMAX || op->code == IR_OP_TCOLARGMIN;
	uint32_t src_ok = t->id == PTOC_TARGET_A5
				  ? T(F16) | T(BF16) | T(I16) | T(U16) | T(F32) | T(I32) | T(U32)
				  : T(F16) | T(F32) | T(I16) | T(I32);
	const char *src_list = t->id == PTOC_TARGET_A5 ? "f16, bf16, i16, ui16, f32, i32, ui32"
						     : "f16, f32, i16, i32";
	const ir_type *ty[3];
	const char *role[3] = {"src", "tmp", "dst"};
	char b1[256], b2[256];
	ptort_type se, de;
	unsigned i, n = op->num_operands;
	if (op->num_results || n < 2 || n > 3)
		return 0; /* the SSA form and operand counts: the generic checks */
	ty[0] = op->operands[0].value ? op->operands[0].value->type : NULL;
	ty[1] = n == 3 && op->operands[1].value ? op->operands[1].value->type : NULL;
	ty[2] = op->operands[n - 1].value ? op->operands[n - 1].value->type : NULL;
	for (i = 0; i < 3; i++) {
		if (i == 1 && n == 2)
			continue;
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC)
			return op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'",
				      role[i], ir_type_str(ty[i], b1, sizeof b1));
	}
	if (ir_type_to_elem(ty[0]->u.tb.elem, &se) || !(src_ok >> se & 1))
		return op_err(ctx, op, "expects %s src element type to be one of %s, but got '%s'",
			      t->title, src_list, ir_type_str(ty[0]->u.tb.elem, b1, sizeof b1));
	if (ir_type_to_elem(ty[2]->u.tb.elem, &de) || (de != PTORT_I32 && de != PTORT_U32))
		return op_err(ctx, op, "expects dst element type to be i32 or ui32, but got '%s'",
			      ir_type_str(ty[2]->u.tb.elem, b1, sizeof b1));
	{ /* dst one wide along the reduced axis, alike src along the kept one */
		int64_t one = col ? ty[2]->u.tb.v_row : ty[2]->u.tb.v_col;
		int64_t sk = col ? ty[0]->u.tb.v_col : ty[0]->u.tb.v_row;
		int64_t dk = col ? ty[2]->u.tb.v_col : ty[2]->u.tb.v_row;
		if (one != IR_DYN && one != 1)
			return op_err(ctx, op, "expects dst to have one valid %s, but got %lld",
				      col ? "row" : "column", (long long)one);
		if (sk != IR_DYN && dk != IR_DYN && sk != dk)
			return op_err(ctx, op, "expects src and dst to have the same valid %s (%lld vs %lld)",
				      col ? "columns" : "rows", (long long)sk, (long long)dk);
	}
	if (ty[0]->u.tb.v_row == 0 || ty[0]->u.tb.v_col == 0)
		return op_err(ctx, op, "expects src to have a non-empty valid region");
	for (i = 0; i < 3; i += 2)
		if ((ty[i]->u.tb.v_row != IR_DYN && ty[i]->u.tb.v_row > ty[i]->u.tb.rows) ||
		    (ty[i]->u.tb.v_col != IR_DYN && ty[i]->u.tb.v_col > ty[i]->u.tb.cols))
			return op_err(ctx, op, "expects %s's valid shape to fit in its shape (%s)", role[i],
				      ir_type_str(ty[i], b2, sizeof b2));
	return 0;
}
