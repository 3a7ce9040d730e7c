/* verify_move.c: the verifier's rules for tinsert (docs/semantics.md §7.8).
 *
 * tinsert ins(%src, %r, %c : S, index, index) outs(%dst : D) writes src's valid region
 * into dst at (r, c). The memory pairs and element types per target are the rows of
 * the table below (pto-isa's TINSERT constraints, PTOAS's verifier): A2A3 acc -> mat
 * converting f32 to f16/bf16; A5 acc -> mat (f32 to f16/bf16/f32, i32 to i32), vec ->
 * mat and vec -> vec (the same element type, fp8/f16/bf16/f32/i8/i32). */
#include <stdarg.h>
#include <stdio.h>

#include "ir/verify_move.h"
#include "target/target.h"

#define T(x) (1u << PTORT_##x)
#define SAME 0 /* src_types: the destination's type */

typedef struct insert_rule {
	ir_mem src, dst;
	uint32_t src_types; /* SAME, or the source types this row takes */
	uint32_t dst_types;
} insert_rule;

static const insert_rule a2a3_insert[] = {
	{IR_MEM_ACC, IR_MEM_MAT, T(F32), T(F16) | T(BF16)},
};

#define A5_MOVE_TYPES (T(F16) | T(BF16) | T(F32) | T(I32) | T(I8) | T(HIF8) | T(F8E4M3FN) | \
		       T(F8E5M2) | T(F8E8M0FNU))
static const insert_rule a5_insert[] = {
	{IR_MEM_ACC, IR_MEM_MAT, T(F32), T(F16) | T(BF16) | T(F32)},
	{IR_MEM_ACC, IR_MEM_MAT, T(I32), T(I32)},
	{IR_MEM_VEC, IR_MEM_MAT, SAME, A5_MOVE_TYPES},
	{IR_MEM_VEC, IR_MEM_VEC, SAME, A5_MOVE_TYPES},
};

#define op_err ir_op_error

static const char *tname(const ir_type *t, char *buf, size_t cap)
{
	return ir_type_str(t, buf, cap);
}

unsigned ir_verify_tinsert(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	const ir_type *s, *d;
	const insert_rule *rules = t->id == PTOC_TARGET_A5 ? a5_insert : a2a3_insert;
	size_t n = t->id == PTOC_TARGET_A5 ? sizeof a5_insert / sizeof a5_insert[0]
					   : sizeof a2a3_insert / sizeof a2a3_insert[0];
	char b1[256], b2[256];
	int64_t k[2];
	int known[2];
	ptort_type se, de;
	size_t i;
	int pair = 0;
	if (op->num_operands < 3 || !op->operands[0].value)
		return 0; /* operand counts: the generic checks */
	s = op->operands[0].value->type;
	d = op->num_results == 1 ? op->results[0].type : op->operands[op->num_operands - 1].value->type;
	if (!s || s->kind != IR_TYPE_TILE_BUF)
		return op_err(ctx, op, "expects src to be a !pto.tile_buf, but got '%s'", tname(s, b1, sizeof b1));
	if (!d || d->kind != IR_TYPE_TILE_BUF)
		return op_err(ctx, op, "expects dst to be a !pto.tile_buf, but got '%s'", tname(d, b1, sizeof b1));
	for (i = 1; i <= 2; i++) {
		const ir_type *it = op->operands[i].value ? op->operands[i].value->type : NULL;
		if (!it || it->kind != IR_TYPE_INDEX)
			return op_err(ctx, op, "expects %s to be index, but got '%s'",
				      i == 1 ? "indexRow" : "indexCol", tname(it, b1, sizeof b1));
		known[i - 1] = ir_value_const_int(op->operands[i].value, &k[i - 1]);
		if (known[i - 1] && k[i - 1] < 0)
			return op_err(ctx, op, "expects %s to be non-negative (got %lld)",
				      i == 1 ? "indexRow" : "indexCol", (long long)k[i - 1]);
	}
	if (ir_type_to_elem(s->u.tb.elem, &se))
		se = PTORT_TYPE_COUNT; /* no row takes it */
	if (ir_type_to_elem(d->u.tb.elem, &de))
		de = PTORT_TYPE_COUNT;
	for (i = 0; i < n; i++) {
		const insert_rule *r = &rules[i];
		if (r->src != s->u.tb.mem || r->dst != d->u.tb.mem)
			continue;
		pair = 1;
		if (r->src_types == SAME ? se == de && (r->dst_types >> de & 1)
					 : (r->src_types >> se & 1) && (r->dst_types >> de & 1))
			break;
	}
	if (!pair)
		return op_err(ctx, op, "expects %s tinsert to use a supported src/dst loc pair: %s (got %s -> %s)",
			      t->title, t->id == PTOC_TARGET_A5 ? "acc->mat, vec->mat, or vec->vec" : "acc->mat",
			      ir_mem_name(s->u.tb.mem), ir_mem_name(d->u.tb.mem));
	if (i == n) {
		if (s->u.tb.mem == IR_MEM_ACC && t->id == PTOC_TARGET_A5)
			return op_err(ctx, op, "expects A5 acc->mat tinsert element types to be "
				      "(src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32), but got '%s' and '%s'",
				      tname(s->u.tb.elem, b1, sizeof b1), tname(d->u.tb.elem, b2, sizeof b2));
		if (s->u.tb.mem == IR_MEM_ACC)
			return op_err(ctx, op, "expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16, "
				      "but got '%s' and '%s'",
				      tname(s->u.tb.elem, b1, sizeof b1), tname(d->u.tb.elem, b2, sizeof b2));
		return op_err(ctx, op, "expects A5 %s->%s tinsert src/dst to have the same supported element "
			      "type (fp8/f16/bf16/f32/i8/i32), but got '%s' and '%s'",
			      ir_mem_name(s->u.tb.mem), ir_mem_name(d->u.tb.mem),
			      tname(s->u.tb.elem, b1, sizeof b1), tname(d->u.tb.elem, b2, sizeof b2));
	}
	if (s->u.tb.v_row != IR_DYN && s->u.tb.v_row > s->u.tb.rows)
		return op_err(ctx, op, "expects src to satisfy valid_shape[0] <= shape[0]");
	if (s->u.tb.v_col != IR_DYN && s->u.tb.v_col > s->u.tb.cols)
		return op_err(ctx, op, "expects src to satisfy valid_shape[1] <= shape[1]");
	if ((known[0] && s->u.tb.v_row != IR_DYN && k[0] + s->u.tb.v_row > d->u.tb.rows) ||
	    (known[1] && s->u.tb.v_col != IR_DYN && k[1] + s->u.tb.v_col > d->u.tb.cols))
		return op_err(ctx, op, "expects the %lldx%lld src at (%lld, %lld) to fit in the %lldx%lld dst",
			      (long long)s->u.tb.v_row, (long long)s->u.tb.v_col, (long long)k[0],
			      (long long)k[1], (long long)d->u.tb.rows, (long long)d->u.tb.cols);
	return 0;
}
