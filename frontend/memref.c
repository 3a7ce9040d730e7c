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
static ir_op *view_op_detached(fe_parser *p, const char *name, ir_value *src,
				   ir_value *const *a, ir_value *const *b, unsigned rank,
				   const ir_type *r, ir_loc loc)
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
	return op;
}

static ir_value *view_op(fe_parser *p, const char *name, ir_value *src, ir_value *const *a,
			 ir_value *const *b, unsigned rank, const ir_type *r, ir_loc loc)
{
	ir_op *op = view_op_detached(p, name, src, a, b, rank, r, loc);
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

/* ---- memref.reinterpret_cast ----------------------------------------------------------
 *
 *     %v = memref.reinterpret_cast %src to offset: [o], sizes: [s0, ...], strides: [t0, ...]
 *            {attrs} : SRC_TYPE to memref<S0x...xT, strided<[...], offset: ...>, gm>
 *
 * %src is a GM view built here (a memref argument's or another cast's): a
 * pto.partition_view of a pto.make_tensor_view of a pointer P. The cast is the view of
 * P offset by o elements with those sizes and strides (MLIR: the new offset, sizes and
 * strides describe the source's base buffer, whatever view the source is):
 *
 *     %p2 = pto.addptr P, o                         (left out when o is the constant 0)
 *     %tv = pto.make_tensor_view %p2, shape = [s...], strides = [t...]
 *     %v  = pto.partition_view %tv, offsets = [0, ...], sizes = [s...]
 *
 * The result type (typetext.c) is the partition view of its static shape; the layout's
 * own strides and offset are not compared with the operands ([decision], docs/ops.md).
 * A source whose pointer is a pto.addptr (a cast at an offset) is refused: MLIR would
 * count the new offset from the base buffer, which the view no longer names. */

static int key_is(fe_tok t, const char *s)
{
	return t.len == strlen(s) && !memcmp(t.s, s, t.len);
}

static int is_index(const ir_value *v)
{
	return v->type->kind == IR_TYPE_INDEX;
}

static int const_index(const ir_value *v, int64_t *out)
{
	const ir_attr *a;
	if (!v || !v->def || strcmp(v->def->name, "arith.constant"))
		return 0;
	a = ir_op_get_attr(v->def, "value");
	if (!a || a->kind != IR_ATTR_INT)
		return 0;
	*out = a->u.i.v;
	return 1;
}

static ir_value *gm_base(ir_value *src)
{
	ir_op *pv = src ? src->def : NULL, *tv;
	if (!pv || strcmp(pv->name, "pto.partition_view") || !pv->num_operands)
		return NULL;
	tv = pv->operands[0].value->def;
	if (!tv || strcmp(tv->name, "pto.make_tensor_view") || !tv->num_operands)
		return NULL;
	return tv->operands[0].value;
}

ir_op *fe_memref_cast(fe_parser *p, fe_tok opname, unsigned piece0)
{
	static const char form[] = "expected 'memref.reinterpret_cast %%src to offset: [o], sizes: "
				   "[...], strides: [...] : T to memref<...>'";
	const fe_piece *kl[3] = {NULL, NULL, NULL};
	const fe_piece *src = NULL, *colon = NULL, *to = NULL;
	static const char *const keys[3] = {"offset", "sizes", "strides"};
	ir_value *ops[11], *base, *zeros[5], *v;
	const ir_type *rt, *et;
	unsigned i, k, rank, nto = 0;
	int64_t off = -1;
	for (i = piece0; i < p->pieces.n; i++) {
		const fe_piece *pc = &p->pieces.a[i];
		switch (pc->kind) {
		case FE_P_OPERAND:
			if (src || nto) goto bad;
			src = pc;
			break;
		case FE_P_WORD:
			if (!key_is(pc->key, "to") || !src || nto++) goto bad;
			break;
		case FE_P_KWLIST:
			for (k = 0; k < 3; k++)
				if (key_is(pc->key, keys[k]))
					break;
			if (k == 3 || kl[k] || !nto || (k && !kl[k - 1])) goto bad;
			kl[k] = pc;
			break;
		case FE_P_ATTRS:
			break; /* {layout = ...}: PTOAS's layout hint, the view's strides say it */
		case FE_P_COLON:
			colon = pc;
			break;
		case FE_P_TO:
			to = pc;
			break;
		default:
			goto bad;
		}
	}
	if (!src || !kl[2] || !colon || colon->tn != 1 || !to || to->tn != 1)
		goto bad;
	for (i = src->v0; i < p->uses.n; i++)
		if (!p->uses.a[i].v)
			return NULL; /* reported where it was read */
	if (p->uses.a[src->v0].v->type != p->types.a[colon->t0]) {
		ir_error(p->ctx, colon->loc, "memref.reinterpret_cast: the source's type is not "
			 "the one written after ':'");
		return NULL;
	}
	rt = p->types.a[to->t0];
	rank = kl[1]->vn;
	if (kl[0]->vn != 1) {
		ir_error(p->ctx, kl[0]->loc, "memref.reinterpret_cast takes one offset, got %u",
			 kl[0]->vn);
		return NULL;
	}
	if (kl[2]->vn != rank) {
		ir_error(p->ctx, kl[2]->loc, "memref.reinterpret_cast has %u sizes but %u strides",
			 rank, kl[2]->vn);
		return NULL;
	}
	base = gm_base(p->uses.a[src->v0].v);
	if (!base) {
		ir_error(p->ctx, p->uses.a[src->v0].loc, "memref.reinterpret_cast expects its source "
			 "to be a GM memref (a function argument or another reinterpret_cast)");
		return NULL;
	}
	if (base->def && !strcmp(base->def->name, "pto.addptr")) {
		ir_error(p->ctx, p->uses.a[src->v0].loc, "memref.reinterpret_cast of a view that starts "
			 "at an offset is not supported (the offset would count from its base buffer)");
		return NULL;
	}
	et = base->type->u.ptr.elem;
	if (!rt || rt->kind != IR_TYPE_PART_VIEW || rt->u.shaped.rank != rank ||
	    rt->u.shaped.elem != et) {
		ir_error(p->ctx, to->loc, "memref.reinterpret_cast expects its result type to be a "
			 "static GM memref of rank %u and the source's element type", rank);
		return NULL;
	}
	for (i = 0; i < rank; i++) {
		int64_t n;
		ir_value *s = p->uses.a[kl[1]->v0 + i].v;
		if (!is_index(p->uses.a[kl[2]->v0 + i].v)) {
			ir_error(p->ctx, p->uses.a[kl[2]->v0 + i].loc, "memref.reinterpret_cast stride %u "
				 "must be an index", i);
			return NULL;
		}
		if (!is_index(s) || (const_index(s, &n) && n != rt->u.shaped.dims[i])) {
			ir_error(p->ctx, p->uses.a[kl[1]->v0 + i].loc, "memref.reinterpret_cast size %u "
				 "must be an index equal to the result type's dim %lld", i,
				 (long long)rt->u.shaped.dims[i]);
			return NULL;
		}
	}
	v = p->uses.a[kl[0]->v0].v;
	if (!is_index(v)) {
		ir_error(p->ctx, p->uses.a[kl[0]->v0].loc, "memref.reinterpret_cast offset must be an index");
		return NULL;
	}
	if (!const_index(v, &off) || off != 0) {
		ir_value *a[2] = {base, v};
		ir_op *op = ir_op_create(p->ctx, "pto.addptr", opname.loc, a, 2, &base->type, 1, NULL, 0);
		fe_append(p, op);
		base = &op->results[0];
	}
	for (i = 0; i < rank; i++) {
		ops[i] = p->uses.a[kl[1]->v0 + i].v;
		ops[5 + i] = p->uses.a[kl[2]->v0 + i].v;
		zeros[i] = i ? zeros[0] : index_const(p, 0, opname.loc);
	}
	v = view_op(p, "pto.make_tensor_view", base, ops, ops + 5, rank,
		    ir_type_shaped(p->ctx, IR_TYPE_TENSOR_VIEW, rt->u.shaped.dims, rank, et), opname.loc);
	return view_op_detached(p, "pto.partition_view", v, zeros, ops, rank, rt, opname.loc);
bad:
	ir_error(p->ctx, opname.loc, form);
	return NULL;
}
