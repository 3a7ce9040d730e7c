/* subset.c: the custom form of pto.subset (IR_FORM_SUBSET, docs/ops.md):
 *
 *   %r = pto.subset %src[%i, %j] sizes [R, C] {attrs} : T
 *
 * T is the source's type; the result's is derived from it (ir/subset.c: the source's
 * tile_buf with shape R x C and the valid shape left at constant offsets), as PTOAS
 * infers it. The offsets are operands, the sizes the attribute `sizes`. */
#include <string.h>

#include "frontend/frontend.h"
#include "ir/subset.h"

static const char form[] = "expected 'pto.subset %%src[%%row, %%col] sizes [R, C] : "
			   "!pto.tile_buf<...>'";

ir_op *fe_build_subset(fe_parser *p, fe_tok opname, const char *name, unsigned piece0,
		       unsigned def0)
{
	const fe_piece *src = NULL, *offs = NULL, *sizes = NULL, *colon = NULL, *dict = NULL;
	ir_value *vals[3];
	const ir_type *rt;
	int64_t sz[2], off[2];
	int has[2];
	unsigned i, ndefs = defs_since(p, def0), want = 0, sized = 0;
	ir_op *op;
	for (i = piece0; i < p->pieces.n; i++) {
		const fe_piece *pc = &p->pieces.a[i];
		switch (pc->kind) {
		case FE_P_OPERAND:
			if (src)
				goto bad;
			src = pc;
			break;
		case FE_P_BRACKET:
			if (!src || (offs && !sized) || sizes)
				goto bad;
			if (!offs)
				offs = pc;
			else
				sizes = pc;
			break;
		case FE_P_WORD:
			if (!offs || sized || pc->key.len != 5 || memcmp(pc->key.s, "sizes", 5))
				goto bad;
			sized = 1;
			break;
		case FE_P_ATTRS:
		case FE_P_PROPS:
			if (dict)
				goto bad;
			dict = pc;
			break;
		case FE_P_COLON:
			colon = pc;
			break;
		default:
			goto bad;
		}
	}
	if (!src || !offs || !sizes || !colon || colon->tn != 1 || colon->fn || sizes->vn)
		goto bad;
	for (i = src->v0; i < p->uses.n; i++)
		if (!p->uses.a[i].v)
			return NULL; /* reported where it was read */
	if (offs->vn != 2) {
		ir_error(p->ctx, offs->loc, "'%s' takes 2 offsets (row, column), got %u", name,
			 offs->vn);
		return NULL;
	}
	if (!sizes->attr || sizes->attr->kind != IR_ATTR_ARRAY || sizes->attr->u.array.n != 2 ||
	    sizes->attr->u.array.elems[0]->kind != IR_ATTR_INT ||
	    sizes->attr->u.array.elems[1]->kind != IR_ATTR_INT) {
		ir_error(p->ctx, sizes->loc, "'%s' takes 2 integer sizes [rows, cols]", name);
		return NULL;
	}
	if (use_type(p, &p->uses.a[src->v0], p->types.a[colon->t0]))
		return NULL;
	vals[0] = p->uses.a[src->v0].v;
	for (i = 0; i < 2; i++) {
		vals[1 + i] = p->uses.a[offs->v0 + i].v;
		sz[i] = sizes->attr->u.array.elems[i]->u.i.v;
		has[i] = ir_value_const_int(vals[1 + i], &off[i]);
	}
	rt = ir_subset_type(p->ctx, vals[0]->type, sz, off, has);
	if (!rt) {
		ir_error(p->ctx, colon->loc, "'%s' expects a !pto.tile_buf source and positive sizes",
			 name);
		return NULL;
	}
	for (i = 0; i < ndefs; i++)
		want += p->defs.a[def0 + i].count;
	if (want != 1) {
		ir_error(p->ctx, ndefs ? p->defs.a[def0].loc : opname.loc,
			 "operation '%s' defines 1 result but %u %s given", name, want,
			 want == 1 ? "name was" : "names were");
		return NULL;
	}
	op = ir_op_create(p->ctx, name, opname.loc, vals, 3, &rt, 1, dict ? dict->attr : NULL, 0);
	ir_op_set_attr(p->ctx, op, "sizes", sizes->attr);
	define_results(p, op, def0, ndefs);
	return op;
bad:
	ir_error(p->ctx, opname.loc, form);
	return NULL;
}
