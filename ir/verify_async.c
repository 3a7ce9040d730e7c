/* verify_async.c: the async GM session ops (docs/semantics.md §8.10).
 *
 *   %s = pto.build_async_session(%scratch, %workspace : T, V) -> !pto.async_session
 *   %e = pto.tput_async(%dst, %src, %s : D, S, !pto.async_session) -> !pto.async_event
 *   %e = pto.tget_async(%dst, %src, %s : ...) -> !pto.async_event
 *   %b = pto.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1
 *   %b = pto.test_async_event(%e, %s : ...) -> i1
 *
 * The transfers take flat contiguous logical 1-D GM views (pto-isa's SDMA path): every
 * dim static, all but the last 1, the last of stride 1 in the tensor view the
 * partition comes from; dst and src of one element type and count. */
#include <string.h>

#include "ir/verify_move.h"

static int is_opaque(const ir_type *t, const char *text)
{
	return t && t->kind == IR_TYPE_OPAQUE && !strcmp(t->u.opaque.text, text);
}

/* A partition view of static dims, all but the last 1, whose tensor view has a
 * constant stride 1 in its last dim. Its element count in *n. */
static int flat_1d(const ir_value *v, int64_t *n)
{
	const ir_type *t = v ? v->type : NULL;
	const ir_op *pv, *tv;
	unsigned i, rank;
	int64_t s;
	if (!t || t->kind != IR_TYPE_PART_VIEW || !(rank = t->u.shaped.rank))
		return 0;
	for (i = 0; i < rank; i++)
		if (t->u.shaped.dims[i] < 1 || (i + 1 < rank && t->u.shaped.dims[i] != 1))
			return 0;
	*n = t->u.shaped.dims[rank - 1];
	pv = v->def;
	if (!pv || pv->code != IR_OP_PARTITION_VIEW || !pv->num_operands)
		return 0;
	tv = pv->operands[0].value->def;
	if (!tv || tv->code != IR_OP_MAKE_TENSOR_VIEW || tv->num_operands != 1 + 2 * rank)
		return 0;
	return ir_value_const_int(tv->operands[2 * rank].value, &s) && s == 1;
}

unsigned ir_verify_async(ir_ctx *ctx, const ir_op *op)
{
	const ir_type *r = op->num_results == 1 ? op->results[0].type : NULL;
	char a[128], b[128];
	if (op->code == IR_OP_BUILD_ASYNC_SESSION && op->num_operands == 1) {
		/* without the scratch tile: split-repeats drops it (ptoc does not use it) */
		if (!is_opaque(r, "!pto.async_session"))
			return ir_op_error(ctx, op, "expects its result to be !pto.async_session");
		return 0;
	}
	if (op->num_operands < 2)
		return 0; /* the operand count was reported */
	if (op->code == IR_OP_BUILD_ASYNC_SESSION) {
		const ir_type *s = op->operands[0].value->type;
		ptort_type e;
		if (s->kind != IR_TYPE_TILE_BUF || s->u.tb.mem != IR_MEM_VEC ||
		    ir_type_to_elem(s->u.tb.elem, &e) ||
		    s->u.tb.rows * s->u.tb.cols * (int64_t)ptort_type_bits(e) < 64)
			return ir_op_error(ctx, op, "expects scratch to be a vec tile_buf of at least 8 "
						    "bytes, but got '%s'", ir_type_str(s, a, sizeof a));
		if (!is_opaque(r, "!pto.async_session"))
			return ir_op_error(ctx, op, "expects its result to be !pto.async_session");
		return 0;
	}
	if (op->code == IR_OP_TPUT_ASYNC || op->code == IR_OP_TGET_ASYNC) {
		int64_t nd, ns;
		const ir_type *d = op->operands[0].value->type, *s = op->operands[1].value->type;
		if (!flat_1d(op->operands[0].value, &nd))
			return ir_op_error(ctx, op, "expects dst to be a static flat contiguous logical 1D "
						    "GM memref, but got '%s'", ir_type_str(d, a, sizeof a));
		if (!flat_1d(op->operands[1].value, &ns))
			return ir_op_error(ctx, op, "expects src to be a static flat contiguous logical 1D "
						    "GM memref, but got '%s'", ir_type_str(s, a, sizeof a));
		if (d->u.shaped.elem != s->u.shaped.elem || nd != ns)
			return ir_op_error(ctx, op, "expects dst and src of one element type and count, "
						    "but got '%s' and '%s'", ir_type_str(d, a, sizeof a),
					   ir_type_str(s, b, sizeof b));
		if (op->num_operands != 3 || !is_opaque(op->operands[2].value->type, "!pto.async_session"))
			return ir_op_error(ctx, op, "expects its session to be !pto.async_session");
		if (!is_opaque(r, "!pto.async_event"))
			return ir_op_error(ctx, op, "expects its result to be !pto.async_event");
		return 0;
	}
	if (!is_opaque(op->operands[0].value->type, "!pto.async_event") ||
	    !is_opaque(op->operands[1].value->type, "!pto.async_session"))
		return ir_op_error(ctx, op, "expects (!pto.async_event, !pto.async_session) operands");
	if (!r || r->kind != IR_TYPE_INT || r->u.i.bits != 1)
		return ir_op_error(ctx, op, "expects its result to be i1");
	return 0;
}
