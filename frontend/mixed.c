/* mixed.c: the syntax of the mixed cube/vector ops (docs/semantics.md §8.9).
 *
 *   pto.section.cube { ... }            pto.section.vector { ... }
 *   %b = pto.reserve_buffer {name = "f", size = 4096, location = #pto.address_space<vec>} -> i32
 *   pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024}
 *       (gm_slot_buffer = %g : !pto.ptr<f32>, c2v_consumer_buf = %b : i32, v2c_consumer_buf = %z : i32)
 *   %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024}(%b : i32) -> !pto.pipe
 *   pto.tpush_to_aiv(%t : T) {split = 1}       %t = pto.tpop_from_aic(%vr, %vc) {split = 0} -> T
 *   pto.tfree_from_aic {split = 1}             pto.tpush(%t, %p : T, !pto.pipe) {split = 0}
 *
 * Every op of form PIPE is read from the same pieces: at most one `(...)` (values, typed
 * or not, keyed or not), at most one attribute dict, an optional `-> R` (the result
 * type). The printer (ir/print.c, pr_pipe) writes `op(...) {attrs} -> R`. */
#include <stdio.h>
#include <string.h>

#include "frontend/frontend.h"

static int is_key(const ir_attr *keys, unsigned i, const char *k)
{
	return keys && i < keys->u.array.n && keys->u.array.elems[i]->kind == IR_ATTR_STRING &&
	       keys->u.array.elems[i]->u.str.len == strlen(k) &&
	       !memcmp(keys->u.array.elems[i]->u.str.s, k, strlen(k));
}

void fe_section_end(fe_parser *p, fe_tok kw, ir_region *r)
{
	char name[32];
	ir_op *op;
	ir_block *b;
	snprintf(name, sizeof name, "%.*s", (int)(kw.len < 31 ? kw.len : 31), kw.s);
	op = ir_op_create(p->ctx, name, kw.loc, NULL, 0, NULL, 0, NULL, 1);
	if (r) {
		for (b = r->first; b; b = b->next)
			b->region = &op->regions[0];
		op->regions[0].first = r->first;
		op->regions[0].last = r->last;
		r->first = r->last = NULL;
	}
	fe_append(p, op);
}

ir_op *fe_build_pipe(fe_parser *p, fe_tok opname, const char *name, unsigned piece0,
		     unsigned def0)
{
	const fe_piece *paren = NULL, *arrow = NULL;
	const ir_attr *dict = NULL;
	ir_value *vals[8];
	const ir_type *rt = NULL;
	unsigned i, n = 0, ndefs = p->defs.n > def0 ? p->defs.n - def0 : 0, nres = 0;
	ir_op *op;
	for (i = piece0; i < p->pieces.n; i++) {
		const fe_piece *pc = &p->pieces.a[i];
		switch (pc->kind) {
		case FE_P_KWLIST:
			if (pc->key.len == 1 && pc->key.s[0] == '(' && !paren) {
				paren = pc;
				continue;
			}
			break;
		case FE_P_ATTRS:
		case FE_P_PROPS:
			if (!dict) {
				dict = pc->attr;
				continue;
			}
			break;
		case FE_P_ARROW:
			if (!arrow && pc->tn == 1) {
				arrow = pc;
				continue;
			}
			break;
		default:
			break;
		}
		ir_error(p->ctx, pc->loc,
			 "unexpected text in '%s' (expected '%s(%%a : T, ...) {attributes} [-> R]')",
			 name, name);
		return NULL;
	}
	if (paren) {
		const ir_attr *keys = paren->attr;
		if (paren->vn > 8) {
			ir_error(p->ctx, paren->loc, "too many operands in '%s'", name);
			return NULL;
		}
		if (paren->tn && paren->tn != paren->vn) {
			ir_error(p->ctx, paren->loc, "'%s' has %u operands but %u types", name,
				 paren->vn, paren->tn);
			return NULL;
		}
		for (i = 0; i < paren->vn; i++) {
			const fe_use *u = &p->uses.a[paren->v0 + i];
			if (!u->v)
				return NULL; /* reported where it was read */
			if (paren->tn && u->v->type != p->types.a[paren->t0 + i]) {
				char a[256], b[256];
				ir_error(p->ctx, u->loc, "use of value '%%%.*s' expects type '%s', but it has type '%s'",
					 (int)u->namelen, u->name, ir_type_str(p->types.a[paren->t0 + i], a, sizeof a),
					 ir_type_str(u->v->type, b, sizeof b));
				return NULL;
			}
			vals[n++] = u->v;
		}
		/* keyed operands (the pipe inits): [gm_slot_buffer,] c2v_consumer_buf,
		 * v2c_consumer_buf, in this order */
		if (keys) {
			static const char *const order[3] = {"gm_slot_buffer", "c2v_consumer_buf",
							     "v2c_consumer_buf"};
			unsigned k = n == 3 ? 0 : 1;
			for (i = 0; i < n; i++, k++)
				if (k >= 3 || !is_key(keys, i, order[k])) {
					ir_error(p->ctx, paren->loc,
						 "'%s' takes its operands as '[gm_slot_buffer = %%g : T, ] "
						 "c2v_consumer_buf = %%c : i32, v2c_consumer_buf = %%v : i32'",
						 name);
					return NULL;
				}
		}
	}
	if (arrow) {
		rt = p->types.a[arrow->t0];
		nres = 1;
	}
	{
		unsigned want = 0;
		for (i = 0; i < ndefs; i++)
			want += p->defs.a[def0 + i].count;
		if (want != nres) {
			ir_error(p->ctx, ndefs ? p->defs.a[def0].loc : opname.loc,
				 "operation '%s' defines %u results but %u %s given", name, nres, want,
				 want == 1 ? "name was" : "names were");
			return NULL;
		}
	}
	op = ir_op_create(p->ctx, name, opname.loc, vals, n, nres ? &rt : NULL, nres, dict, 0);
	if (ndefs) {
		fe_def *d = &p->defs.a[def0];
		fe_define(p, d->name, &op->results[0], d->loc);
		op->results[0].name = d->name;
		op->results[0].loc = d->loc;
	}
	return op;
}
