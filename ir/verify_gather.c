/* verify_gather.c: the verifier's rules for tgather's index, mask and compare forms (semantics.md
 * §7.8a; pto-isa's checks): vec tiles; src and dst of one element type of 2 or 4
 * bytes; indices of 4 bytes on A2A3 (i32, ui32), 2 or 4 on A5; the valid columns of
 * the indices and of dst are their tiles' columns, and the indices cover dst's valid
 * region. The optional tmp tile is never written. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/verify_move.h"
#include "target/target.h"

#define op_err ir_op_error

int ir_tgather_pattern(const ir_op *op)
{
	static const char *const names[] = {"P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};
	const ir_attr *a = ir_op_get_attr(op, "maskPattern");
	unsigned i;
	if (!a)
		return 0;
	if (a->kind != IR_ATTR_PTO || strcmp(a->u.pto.kind, "mask_pattern"))
		return -1;
	for (i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(a->u.pto.value, names[i]))
			return (int)i + 1;
	return -1;
}

/* the mask-pattern form: src and dst vec, row-major, one element width of 2 or 4
 * bytes, dst contiguous, the selected elements of a static src region fit in dst */
static unsigned verify_mask(ir_ctx *ctx, const ir_op *op, int pattern)
{
	const ir_type *ty[2];
	const char *role[2] = {"src", "dst"};
	char b1[256], b2[256];
	ptort_type se, de;
	unsigned i, n = op->num_operands;
	if (pattern < 0)
		return op_err(ctx, op, "expects maskPattern to be #pto.mask_pattern<P0101>, P1010, "
			      "P0001, P0010, P0100, P1000 or P1111");
	if (n != 2)
		return op_err(ctx, op, "expects one source and no indices with a maskPattern, but got %u operands",
			      n - 1);
	for (i = 0; i < 2; i++) {
		ty[i] = op->operands[i].value ? op->operands[i].value->type : NULL;
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC ||
		    ty[i]->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR)
			return op_err(ctx, op, "expects %s to be a loc=vec row_major !pto.tile_buf, but got '%s'",
				      role[i], ir_type_str(ty[i], b1, sizeof b1));
	}
	if (ir_type_to_elem(ty[0]->u.tb.elem, &se) || ir_type_to_elem(ty[1]->u.tb.elem, &de) ||
	    ptort_type_bits(se) != ptort_type_bits(de) ||
	    (ptort_type_bits(se) != 16 && ptort_type_bits(se) != 32))
		return op_err(ctx, op, "expects src and dst elements of one width, 2 or 4 bytes, but got '%s' and '%s'",
			      ir_type_str(ty[0]->u.tb.elem, b1, sizeof b1),
			      ir_type_str(ty[1]->u.tb.elem, b2, sizeof b2));
	if (ty[1]->u.tb.v_col != IR_DYN && ty[1]->u.tb.v_col != ty[1]->u.tb.cols)
		return op_err(ctx, op, "expects dst's valid columns to be its columns (%lld vs %lld)",
			      (long long)ty[1]->u.tb.v_col, (long long)ty[1]->u.tb.cols);
	if (ty[0]->u.tb.v_row != IR_DYN && ty[0]->u.tb.v_col != IR_DYN) {
		int64_t vc = ty[0]->u.tb.v_col, per = pattern == 7 ? vc : pattern <= 2 ? (vc + 2 - pattern) / 2
										 : (vc + 6 - pattern) / 4;
		int64_t sel = ty[0]->u.tb.v_row * per;
		if (sel > ty[1]->u.tb.rows * ty[1]->u.tb.cols)
			return op_err(ctx, op, "expects dst to hold the %lld selected elements, but it has %lld",
				      (long long)sel, (long long)(ty[1]->u.tb.rows * ty[1]->u.tb.cols));
	}
	return 0;
}

/* the compare form ins(src, kValue, tmp) outs(dst, cdst) (PTOAS's checks): every tile
 * in vec; dst and cdst of one 32-bit integer type; kValue of src's element type; src
 * f16 or f32, or i32 with cmpMode eq, on A2A3 (i16, i32, f16, f32 on A5); cmpMode eq
 * (the default) or gt (the offset attribute's kind is the table's check) */
static unsigned verify_compare(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	static const char *const role[5] = {"src", "kValue", "tmp", "dst", "cdst"};
	const ir_type *ty[5];
	const ir_attr *cm = ir_op_get_attr(op, "cmpMode");
	char b1[256];
	ptort_type se, de;
	int mode = cm ? ir_attr_cmp(cm) : PTORT_CMP_EQ;
	unsigned i;
	if (op->num_operands != 5)
		return op_err(ctx, op, "compare-form tgather expects dst, cdst, kValue, and tmp");
	for (i = 0; i < 5; i++) {
		ty[i] = op->operands[i].value ? op->operands[i].value->type : NULL;
		if (i == 1)
			continue;
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC)
			return op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'",
				      role[i], ir_type_str(ty[i], b1, sizeof b1));
	}
	if (ir_type_to_elem(ty[3]->u.tb.elem, &de) || (de != PTORT_I32 && de != PTORT_U32))
		return op_err(ctx, op, "expects dst element type to be i32");
	if (ty[4]->u.tb.elem != ty[3]->u.tb.elem)
		return op_err(ctx, op, "expects cdst to have the same element type as dst");
	if (ty[1] != ty[0]->u.tb.elem)
		return op_err(ctx, op, "expects kValue to have the same type as src element type");
	if (mode != PTORT_CMP_EQ && mode != PTORT_CMP_GT)
		return op_err(ctx, op, "expects compare-form tgather cmpMode to be eq or gt");
	if (ir_type_to_elem(ty[0]->u.tb.elem, &se))
		se = PTORT_TYPE_COUNT;
	if (t->id == PTOC_TARGET_A5) {
		if (!(se == PTORT_F16 || se == PTORT_F32 || se == PTORT_I16 || se == PTORT_I32))
			return op_err(ctx, op, "expects A5 compare-form tgather src element type to be i16/i32/f16/f32");
	} else if (!(se == PTORT_F16 || se == PTORT_F32 || (se == PTORT_I32 && mode == PTORT_CMP_EQ)))
		return op_err(ctx, op, "expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 "
			      "when cmpMode=eq");
	return 0;
}

unsigned ir_verify_tgather(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	const ir_type *ty[4];
	const char *role[4] = {"src", "indices", "tmp", "dst"};
	char b1[256], b2[256];
	ptort_type se, ie, de;
	unsigned i, n = op->num_operands, bits;
	int a5 = t->id == PTOC_TARGET_A5;
	if (op->num_results)
		return 0; /* the SSA form: the generic checks */
	if (ir_op_get_attr(op, "maskPattern"))
		return verify_mask(ctx, op, ir_tgather_pattern(op));
	if (n >= 2 && op->operands[1].value && !ir_type_is_tile(op->operands[1].value->type))
		return verify_compare(ctx, op, t);
	if (ir_op_get_attr(op, "cmpMode") || ir_op_get_attr(op, "offset"))
		return op_err(ctx, op, "expects cmpMode and offset only in the compare form (a scalar kValue "
			      "after src, outs dst and cdst)");
	if (n < 3)
		return op_err(ctx, op, "expects src, indices and dst (or a maskPattern), but got %u operands", n);
	for (i = 0; i < 4; i++) {
		unsigned k = i == 3 ? n - 1 : i;
		ty[i] = NULL;
		if (i == 2 && n == 3)
			continue;
		ty[i] = op->operands[k].value ? op->operands[k].value->type : NULL;
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC)
			return op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'",
				      role[i], ir_type_str(ty[i], b1, sizeof b1));
	}
	if (ir_type_to_elem(ty[0]->u.tb.elem, &se) || ir_type_to_elem(ty[3]->u.tb.elem, &de) ||
	    se != de)
		return op_err(ctx, op, "expects src and dst to have one element type, but got '%s' and '%s'",
			      ir_type_str(ty[0]->u.tb.elem, b1, sizeof b1),
			      ir_type_str(ty[3]->u.tb.elem, b2, sizeof b2));
	bits = ptort_type_bits(se);
	if (bits != 16 && bits != 32)
		return op_err(ctx, op, "expects a 2- or 4-byte src element type, but got '%s'",
			      ir_type_str(ty[0]->u.tb.elem, b1, sizeof b1));
	if (ir_type_to_elem(ty[1]->u.tb.elem, &ie) ||
	    !(ie == PTORT_I32 || ie == PTORT_U32 || (a5 && (ie == PTORT_I16 || ie == PTORT_U16))))
		return op_err(ctx, op, "expects %s indices element type to be %s, but got '%s'", t->title,
			      a5 ? "i16, ui16, i32 or ui32" : "i32 or ui32",
			      ir_type_str(ty[1]->u.tb.elem, b1, sizeof b1));
	for (i = 1; i < 4; i += 2)
		if (ty[i]->u.tb.v_col != IR_DYN && ty[i]->u.tb.v_col != ty[i]->u.tb.cols)
			return op_err(ctx, op, "expects %s's valid columns to be its columns (%lld vs %lld)",
				      role[i], (long long)ty[i]->u.tb.v_col, (long long)ty[i]->u.tb.cols);
	for (i = 0; i < 4; i++)
		if (ty[i] && ((ty[i]->u.tb.v_row != IR_DYN && ty[i]->u.tb.v_row > ty[i]->u.tb.rows) ||
			      (ty[i]->u.tb.v_col != IR_DYN && ty[i]->u.tb.v_col > ty[i]->u.tb.cols)))
			return op_err(ctx, op, "expects %s's valid shape to fit in its shape (%s)", role[i],
				      ir_type_str(ty[i], b2, sizeof b2));
	if (ty[1]->u.tb.rows < ty[3]->u.tb.rows && ty[3]->u.tb.v_row == IR_DYN)
		return 0;
	if ((ty[3]->u.tb.v_row != IR_DYN && ty[1]->u.tb.rows < ty[3]->u.tb.v_row) ||
	    ty[1]->u.tb.cols < ty[3]->u.tb.cols)
		return op_err(ctx, op, "expects the indices (%lldx%lld) to cover dst's valid region",
			      (long long)ty[1]->u.tb.rows, (long long)ty[1]->u.tb.cols);
	return 0;
}
