/* memref.c: function arguments written as GM memrefs (PTOAS's memref form).
 *
 * `%a: memref<16x16x16xf16, #pto.address_space<gm>>` reads as the static partition view
 * `!pto.partition_tensor_view<16x16x16xf16>` wherever the type is written (typetext.c).
 * As a function argument it is the pointer `!pto.ptr<f16>` the kernel is called with,
 * and `%a` names, in the body, the view of the whole buffer built at its top:
 *
 *     %c.. = arith.constant N : index                  (the dims, the strides, 0)
 *     %tv = pto.make_tensor_view %ptr, shape = [dims], strides = [row-major strides]
 *     %a = pto.partition_view %tv, offsets = [0, ...], sizes = [dims]
 *
 * [decision] A memref carries no stride here (typetext.c reads only the identity
 * layout), so the buffer is dense and row-major, as MLIR's identity layout means; the
 * kernel's signature is then the one its pointer form has, and `ptoc run`, the
 * reference and the C it emits see an ordinary kernel (docs/ops.md "Older PTOAS spellings").
 */
#include <string.h>

#include "frontend/frontend.h"

int fe_memref_arg(fe_parser *p, ir_block *b, fe_tok name, const ir_type *t)
{
	fe_gm_arg g;
	if (!t || t != p->gm_memref || t->kind != IR_TYPE_PART_VIEW || b != p->pending_entry)
		return 0;
	p->gm_memref = NULL;
	g.view = t;
	g.loc = name.len ? name.loc : p->last_loc;
	g.arg = ir_block_add_arg(p->ctx, b, ir_type_ptr(p->ctx, t->u.shaped.elem), g.loc);
	g.name = name.len ? ir_intern(p->ctx, name.s + 1, name.len - 1) : NULL;
	FE_PUSH(p, p->gm_args, g);
	return 1;
}

static ir_value *index_const(fe_parser *p, int64_t v, ir_loc loc)
{
	const ir_type *ix = ir_type_index(p->ctx);
	ir_op *op = ir_op_create(p->ctx, "arith.constant", loc, NULL, 0, &ix, 1, NULL, 0);
	ir_op_set_attr(p->ctx, op, "value", ir_attr_int(p->ctx, v, ix));
	fe_append(p, op);
	return &op->results[0];
}

/* `NAME %src, K0 = [a...], K1 = [b...] : R` with rank operands in each list. */
static ir_value *view_op(fe_parser *p, const char *name, ir_value *src, ir_value *const *a,
			 ir_value *const *b, unsigned rank, const ir_type *r, ir_loc loc)
{
	ir_value *ops[11];
	int64_t seg[3];
	unsigned i;
	ir_op *op;
	ops[0] = src;
	for (i = 0; i < rank; i++) {
		ops[1 + i] = a[i];
		ops[1 + rank + i] = b[i];
	}
	op = ir_op_create(p->ctx, name, loc, ops, 1 + 2 * rank, &r, 1, NULL, 0);
	seg[0] = 1;
	seg[1] = seg[2] = rank;
	ir_op_set_attr(p->ctx, op, "operandSegmentSizes",
		       ir_attr_dense(p->ctx, ir_type_int(p->ctx, 32, IR_INT_SIGNLESS), seg, 3));
	fe_append(p, op);
	return &op->results[0];
}

/* At the top of the body (its entry block is the current block): each GM memref
 * argument's view, and its name bound to it. */
void fe_memref_views(fe_parser *p)
{
	unsigned k, i;
	for (k = 0; k < p->gm_args.n; k++) {
		const fe_gm_arg *g = &p->gm_args.a[k];
		const ir_type *t = g->view;
		unsigned rank = t->u.shaped.rank;
		ir_value *dims[5], *strides[5], *zeros[5], *tv, *v;
		int64_t st = 1;
		for (i = rank; i-- > 0;) {
			strides[i] = index_const(p, st, g->loc);
			st *= t->u.shaped.dims[i];
		}
		for (i = 0; i < rank; i++) {
			dims[i] = index_const(p, t->u.shaped.dims[i], g->loc);
			zeros[i] = i ? zeros[0] : index_const(p, 0, g->loc);
		}
		tv = view_op(p, "pto.make_tensor_view", g->arg, dims, strides, rank,
			     ir_type_shaped(p->ctx, IR_TYPE_TENSOR_VIEW, t->u.shaped.dims, rank,
					    t->u.shaped.elem),
			     g->loc);
		v = view_op(p, "pto.partition_view", tv, zeros, dims, rank, t, g->loc);
		if (g->name) {
			fe_define(p, g->name, v, g->loc);
			g->arg->name = g->name; /* `ptoc run --in NAME=...` names the pointer */
		}
	}
	p->gm_args.n = 0;
}
