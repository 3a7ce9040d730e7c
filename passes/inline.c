/* inline.c: the `inline` pass: every func.call is replaced by a copy of its callee's
 * body (docs/semantics.md §8.3).
 *
 * Why [decision]: the on-chip memories (UB, L1, L0A/B/C, bias, scaling) are one set
 * shared by a caller and its callees. Functions placed independently would put their
 * tiles at the same addresses, and a callee would overwrite the caller's live tiles.
 * Inlined, the callee's tiles are the caller's own, and place-tiles gives them
 * addresses disjoint from every tile live at the same time (liveness across the call
 * included), which no per-function convention could do better; a tile passed in or
 * returned is the caller's buffer itself.
 *
 * Requires: verified IR (every callee a function of the module with a body and the
 *   call's types, no recursion: ir/verify.c); any level, normally level 1/2 before
 *   bufferize.
 * Produces: no func.call anywhere. Each call's callee block is copied before the call
 *   (operations, nested regions, attributes, locations and value names; the callee's
 *   arguments replaced by the call's operands), the call's results replaced by the
 *   copied func.return's operands, the call erased. Calls in the copied body are
 *   inlined in turn. Every function stays in the module and is compiled as its own
 *   kernel, except one whose signature carries a tile (!pto.tile_buf, !pto.tile) and
 *   that was inlined somewhere: its tiles exist only in its callers, so it is removed
 *   (a kernel of its own would have no address for them).
 * Diagnostics: a call of a declaration (a function without a body: nothing to copy,
 *   nothing to link) and a call the verifier would reject (unknown callee, arity) are
 *   reported; more than 100000 inlined calls in one function is an error (a guard
 *   against recursion that escaped the verifier). */
#include <stdlib.h>
#include <string.h>

#include "passes/lower.h"
#include "passes/passes.h"

#define PASS_NAME "inline"
#define INLINE_MAX 100000u

/* A map from the callee's values to their copies: open addressing on the pointer. */
typedef struct vmap {
	const ir_value **from;
	ir_value **to;
	size_t cap, n;
	int oom;
} vmap;

static size_t vhash(const ir_value *v, size_t cap)
{
	return (size_t)(((uintptr_t)v >> 4) * 2654435761u) & (cap - 1);
}

static void vmap_put(vmap *m, const ir_value *from, ir_value *to)
{
	size_t i;
	if (m->oom)
		return;
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64, k;
		const ir_value **nf = calloc(cap, sizeof *nf);
		ir_value **nt = calloc(cap, sizeof *nt);
		if (!nf || !nt) {
			free(nf);
			free(nt);
			m->oom = 1;
			return;
		}
		for (k = 0; k < m->cap; k++)
			if (m->from[k]) {
				i = vhash(m->from[k], cap);
				while (nf[i])
					i = (i + 1) & (cap - 1);
				nf[i] = m->from[k];
				nt[i] = m->to[k];
			}
		free(m->from);
		free(m->to);
		m->from = nf;
		m->to = nt;
		m->cap = cap;
	}
	i = vhash(from, m->cap);
	while (m->from[i] && m->from[i] != from)
		i = (i + 1) & (m->cap - 1);
	if (!m->from[i])
		m->n++;
	m->from[i] = from;
	m->to[i] = to;
}

static ir_value *vmap_get(const vmap *m, const ir_value *from)
{
	size_t i;
	if (!m->cap)
		return NULL;
	i = vhash(from, m->cap);
	while (m->from[i]) {
		if (m->from[i] == from)
			return m->to[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

static void vmap_clear(vmap *m)
{
	if (m->cap) {
		memset(m->from, 0, m->cap * sizeof *m->from);
		memset(m->to, 0, m->cap * sizeof *m->to);
	}
	m->n = 0;
}

static ir_op *clone_op(ir_ctx *ctx, const ir_op *op, vmap *m);

/* Copies the blocks of region `src` into the empty region `dst`. */
static int clone_region(ir_ctx *ctx, const ir_region *src, ir_region *dst, vmap *m)
{
	const ir_block *b;
	const ir_op *o;
	unsigned i;
	for (b = src->first; b; b = b->next) {
		ir_block *nb = ir_block_create(ctx, b->loc);
		nb->label = b->label;
		ir_region_append_block(dst, nb);
		for (i = 0; i < b->num_args; i++) {
			ir_value *a = ir_block_add_arg(ctx, nb, b->args[i]->type, b->args[i]->loc);
			a->name = b->args[i]->name;
			vmap_put(m, b->args[i], a);
		}
		for (o = b->first; o; o = o->next) {
			ir_op *no = clone_op(ctx, o, m);
			if (!no)
				return -1;
			ir_block_append_op(nb, no);
		}
	}
	return m->oom ? -1 : 0;
}

/* A detached copy of `op` (its regions included), operands through `m`; NULL when an
 * operand has no copy or memory ran out. */
static ir_op *clone_op(ir_ctx *ctx, const ir_op *op, vmap *m)
{
	ir_value *ops[64], **opv = ops;
	const ir_type *rts[64], **rtv = rts;
	ir_op *no = NULL;
	unsigned i;
	if (op->num_operands > 64 && !(opv = malloc(op->num_operands * sizeof *opv)))
		goto out;
	if (op->num_results > 64 && !(rtv = malloc(op->num_results * sizeof *rtv)))
		goto out;
	for (i = 0; i < op->num_operands; i++)
		if (!(opv[i] = vmap_get(m, op->operands[i].value)))
			goto out;
	for (i = 0; i < op->num_results; i++)
		rtv[i] = op->results[i].type;
	no = ir_op_create(ctx, op->name, op->loc, opv, op->num_operands, rtv, op->num_results,
			  op->attrs, op->num_regions);
	for (i = 0; i < op->num_results; i++) {
		no->results[i].name = op->results[i].name;
		no->results[i].loc = op->results[i].loc;
		vmap_put(m, &op->results[i], &no->results[i]);
	}
	for (i = 0; i < op->num_regions; i++)
		if (clone_region(ctx, &op->regions[i], &no->regions[i], m)) {
			no = NULL;
			break;
		}
out:
	if (opv != ops)
		free(opv);
	if (rtv != rts)
		free(rtv);
	return no;
}

static const ir_op *lookup_func(const ir_op *module, const ir_attr *sym)
{
	const ir_op *f;
	for (f = module->regions[0].first ? module->regions[0].first->first : NULL; f; f = f->next) {
		const ir_attr *n = ir_op_get_attr(f, "sym_name");
		if (f->code == IR_OP_FUNC && n && n->kind == IR_ATTR_STRING &&
		    n->u.str.len == sym->u.str.len && !memcmp(n->u.str.s, sym->u.str.s, n->u.str.len))
			return f;
	}
	return NULL;
}

/* Inlines call `call` (in a function of `module`); marks the callee in `called`. */
static int inline_call(ir_ctx *ctx, const ir_op *module, ir_op *call, vmap *m,
		       const ir_op **callee_out)
{
	const ir_attr *sym = ir_op_get_attr(call, "callee");
	const ir_op *f = sym && sym->kind == IR_ATTR_SYMBOL ? lookup_func(module, sym) : NULL;
	const ir_block *b;
	const ir_op *o, *ret;
	unsigned i;
	if (f && (f->num_regions != 1 || !f->regions[0].first)) {
		ir_error(ctx, call->loc, PASS_NAME ": callee @%s is a declaration: ptoc inlines every "
			 "call and needs its body", ir_op_get_attr(f, "sym_name")->u.str.s);
		return -1;
	}
	if (!f || f->num_regions != 1 || !(b = f->regions[0].first) || b->next ||
	    b->num_args != call->num_operands || !(ret = b->last) || ret->code != IR_OP_RETURN ||
	    ret->num_operands != call->num_results) {
		ir_error(ctx, call->loc, PASS_NAME ": cannot inline this call (the callee must be a "
			 "function of the module with one block ending in func.return, matching the "
			 "call; run verify)");
		return -1;
	}
	*callee_out = f;
	vmap_clear(m);
	for (i = 0; i < b->num_args; i++)
		vmap_put(m, b->args[i], call->operands[i].value);
	for (o = b->first; o != ret; o = o->next) {
		ir_op *no = clone_op(ctx, o, m);
		if (!no)
			break;
		ir_block_insert_before(call, no);
	}
	if (o == ret)
		for (i = 0; i < call->num_results; i++) {
			ir_value *r = vmap_get(m, ret->operands[i].value);
			if (!r)
				break;
			ir_value_replace_all_uses(&call->results[i], r);
		}
	if (m->oom) {
		ir_error(ctx, call->loc, PASS_NAME ": out of memory");
		return -1;
	}
	if (o != ret || i < call->num_results) {
		ir_error(ctx, call->loc, PASS_NAME ": the callee uses a value it does not define");
		return -1;
	}
	ir_op_erase(call);
	return 0;
}

static int find_call(ir_op *op, void *user)
{
	if (op->code == IR_OP_CALL) {
		*(ir_op **)user = op;
		return 1;
	}
	return 0;
}

static int sig_has_tile(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "function_type");
	const ir_type *ft;
	unsigned i;
	if (!a || a->kind != IR_ATTR_TYPE || !(ft = a->u.type) || ft->kind != IR_TYPE_FUNC)
		return 0;
	for (i = 0; i < ft->u.fn.nin; i++)
		if (ir_type_is_tile(ft->u.fn.in[i]))
			return 1;
	for (i = 0; i < ft->u.fn.nout; i++)
		if (ir_type_is_tile(ft->u.fn.out[i]))
			return 1;
	return 0;
}

unsigned pass_inline(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	vmap m;
	ir_op *f, *next, **inlined = NULL;
	size_t ninl = 0, capinl = 0, k;
	unsigned errors = 0;
	if (!module->num_regions || !module->regions[0].first)
		return 0;
	/* mixed kernels: a cube / vector callee's body keeps its core (mixed.c) */
	if (mixed_prepare(ctx, module))
		return 1;
	memset(&m, 0, sizeof m);
	for (f = module->regions[0].first->first; f && !errors; f = f->next) {
		unsigned count = 0;
		ir_op *call;
		if (f->code != IR_OP_FUNC)
			continue;
		for (;;) {
			const ir_op *callee = NULL;
			call = NULL;
			if (!ir_walk(f, find_call, &call))
				break;
			if (++count > INLINE_MAX) {
				ir_error(ctx, call->loc, PASS_NAME ": more than %u calls inlined into one "
					 "function (recursion?)", INLINE_MAX);
				errors++;
				break;
			}
			if (inline_call(ctx, module, call, &m, &callee)) {
				errors++;
				break;
			}
			pass_remark(ctx, o, PASS_NAME, call->loc, "call of @%s inlined",
				    ir_op_get_attr(callee, "sym_name")->u.str.s);
			if (sig_has_tile(callee)) {
				for (k = 0; k < ninl && inlined[k] != callee; k++)
					;
				if (k == ninl) {
					if (ninl == capinl) {
						size_t cap = capinl ? capinl * 2 : 8;
						ir_op **n = realloc(inlined, cap * sizeof *n);
						if (!n) {
							ir_error(ctx, call->loc, PASS_NAME ": out of memory");
							errors++;
							break;
						}
						inlined = n;
						capinl = cap;
					}
					inlined[ninl++] = (ir_op *)callee;
				}
			}
		}
	}
	/* functions with tiles in their signature that were inlined: not kernels */
	for (f = module->regions[0].first->first; f && !errors; f = next) {
		next = f->next;
		for (k = 0; k < ninl; k++)
			if (inlined[k] == f) {
				ir_op_erase(f);
				break;
			}
	}
	free(inlined);
	free(m.from);
	free(m.to);
	return errors;
}
