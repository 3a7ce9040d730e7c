/* build.c: from parsed pieces to IR. Keeps the value scopes (one hash table per
 * isolated region, names released when their region closes, as MLIR does), the
 * regions and blocks being filled, and the generic form; the custom forms (one parse
 * routine per syntax form of ops.def) are build_forms.c's. Every user error is
 * reported through ir_error at the token concerned; the op is then not built and the
 * names it would have defined are poisoned so later uses do not cascade. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

/* Names defined since mark `def0`; 0 when error recovery inside a nested region
 * (fe_recover) dropped the stack below the mark. */
unsigned defs_since(const fe_parser *p, unsigned def0)
{
	return p->defs.n > def0 ? p->defs.n - def0 : 0;
}

/* ---- type strings for messages -------------------------------------------- */

/* `!pto.tensor_view<2xf32>` on a make_tensor_view with two shape operands: PTOAS's
 * older spelling `tensor_view<RANK x T>` (before its views carried their dims), read as
 * a view of that rank with every dim dynamic. [decision] Only a rank-1 type whose one
 * dim equals the number of shape operands, when that number is not 1, is read so; any
 * other type is returned as it is and the verifier checks it. */
const ir_type *legacy_view_rank(fe_parser *p, const ir_type *t, unsigned nshape)
{
	int64_t dims[16];
	unsigned i;
	if (t->kind != IR_TYPE_TENSOR_VIEW || t->u.shaped.rank != 1 || nshape < 2 || nshape > 16 ||
	    t->u.shaped.dims[0] != (int64_t)nshape)
		return t;
	for (i = 0; i < nshape; i++)
		dims[i] = IR_DYN;
	return ir_type_shaped(p->ctx, IR_TYPE_TENSOR_VIEW, dims, nshape, t->u.shaped.elem);
}

/* Reports use `u` as MLIR does when its value is not of type `t`; -1 then. A view
 * read in the older rank spelling (legacy_view_rank) matches that spelling. */
int use_type(fe_parser *p, const fe_use *u, const ir_type *t)
{
	char tb[256], tb2[256];
	if (!u->v || u->v->type == t)
		return 0;
	if (t->kind == IR_TYPE_TENSOR_VIEW &&
	    legacy_view_rank(p, t, u->v->type->kind == IR_TYPE_TENSOR_VIEW ? u->v->type->u.shaped.rank : 0) ==
		    u->v->type)
		return 0;
	ir_error(p->ctx, u->loc,
		 "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'",
		 u->name, ir_type_str(t, tb, sizeof tb),
		 ir_type_str(u->v->type, tb2, sizeof tb2));
	ir_note(p->ctx, u->v->loc, "prior use here");
	return -1;
}

fe_use fe_index_const(fe_parser *p, fe_tok t)
{
	fe_use u;
	int64_t v;
	const ir_type *ix = ir_type_index(p->ctx);
	ir_op *op;
	u.v = NULL;
	u.loc = t.loc;
	u.name = ir_intern(p->ctx, t.s, t.len);
	u.namelen = t.len;
	if (fe_int_literal(p, t, 0, &v))
		return u;
	op = ir_op_create(p->ctx, "arith.constant", t.loc, NULL, 0, &ix, 1, NULL, 0);
	ir_op_set_attr(p->ctx, op, "value", ir_attr_int(p->ctx, v, ix));
	fe_append(p, op);
	u.v = &op->results[0];
	return u;
}

void fe_recover(fe_parser *p)
{
	fe_poison_defs(p, 0);
	p->defs.n = 0;
	p->pending_entry = NULL;
	p->arg_block = NULL;
	p->next_isolated = 0;
}

int fe_name_isolated(fe_parser *p, fe_tok name)
{
	const ir_attr *s = fe_string_attr(p, name);
	ir_opcode c;
	if (!s)
		return 0;
	c = ir_opcode_lookup(s->u.str.s, s->u.str.len);
	return c != IR_OP_UNKNOWN && (ir_opdef_get(c)->flags & IR_OPF_ISOLATED);
}

/* ---- regions and blocks ------------------------------------------------------ */

static void define_args(fe_parser *p, ir_block *b)
{
	unsigned i;
	for (i = 0; i < b->num_args; i++)
		if (b->args[i]->name)
			fe_define(p, b->args[i]->name, b->args[i], b->args[i]->loc);
}

ir_region *fe_region_begin(fe_parser *p)
{
	ir_region *r = ir_alloc(p->ctx, sizeof *r);
	int iso = p->next_isolated;
	p->next_isolated = 0;
	if (iso)
		fe_scope_push(p);
	fe_region_enter(p);
	FE_PUSH(p, p->regions, r);
	FE_PUSH(p, p->region_iso, iso);
	FE_PUSH(p, p->blocks, (ir_block *)NULL);
	if (p->pending_entry) {
		ir_region_append_block(r, p->pending_entry);
		p->blocks.a[p->blocks.n - 1] = p->pending_entry;
		define_args(p, p->pending_entry);
		fe_memref_views(p);
		p->pending_entry = NULL;
	}
	p->arg_block = NULL;
	return r;
}

ir_region *fe_region_end(fe_parser *p)
{
	ir_region *r;
	int iso;
	if (!p->regions.n)
		return NULL;
	r = p->regions.a[--p->regions.n];
	iso = p->region_iso.a[--p->region_iso.n];
	p->blocks.n--;
	fe_region_leave(p);
	if (iso)
		fe_scope_pop(p);
	return r;
}

void fe_block_label_begin(fe_parser *p, fe_tok label)
{
	ir_block *b = ir_block_create(p->ctx, label.loc);
	b->label = ir_intern(p->ctx, label.s + 1, label.len - 1);
	p->arg_block = b;
}

void fe_block_label_end(fe_parser *p)
{
	ir_block *b = p->arg_block;
	ir_region *r;
	p->arg_block = NULL;
	if (!b || !p->regions.n)
		return;
	r = p->regions.a[p->regions.n - 1];
	ir_region_append_block(r, b);
	p->blocks.a[p->blocks.n - 1] = b;
	define_args(p, b);
}

/* Moves the blocks of the detached region `from` into `to` (an op's region). */
static void move_region(ir_region *to, ir_region *from)
{
	ir_block *b;
	if (!from)
		return;
	for (b = from->first; b; b = b->next)
		b->region = to;
	to->first = from->first;
	to->last = from->last;
	from->first = from->last = NULL;
}

static ir_op *enclosing_op_check(fe_parser *p)
{
	(void)p;
	return NULL;
}

void fe_module_end(fe_parser *p, ir_loc loc, fe_tok sym, const ir_attr *attrs, ir_region *r)
{
	ir_op *m = ir_op_create(p->ctx, "builtin.module", loc, NULL, 0, NULL, 0, attrs, 1);
	(void)enclosing_op_check;
	if (sym.len)
		ir_op_set_attr(p->ctx, m, "sym_name", fe_symbol_attr(p, sym)->kind == IR_ATTR_SYMBOL
			? ir_attr_string(p->ctx, fe_symbol_attr(p, sym)->u.str.s, fe_symbol_attr(p, sym)->u.str.len)
			: NULL);
	move_region(&m->regions[0], r);
	if (!m->regions[0].first)
		ir_region_append_block(&m->regions[0], ir_block_create(p->ctx, loc));
	fe_append(p, m);
}

void fe_func_begin(fe_parser *p)
{
	p->pending_entry = ir_block_create(p->ctx, p->last_loc);
	p->arg_block = p->pending_entry;
	p->next_isolated = 1;
	p->gm_args.n = 0;
}

void fe_func_arg(fe_parser *p, fe_tok name, const ir_type *t, const ir_attr *attrs)
{
	ir_block *b = p->arg_block;
	ir_value *v;
	(void)attrs;
	if (!b || fe_memref_arg(p, b, name, t))
		return;
	v = ir_block_add_arg(p->ctx, b, t, name.len ? name.loc : p->last_loc);
	if (name.len)
		v->name = ir_intern(p->ctx, name.s + 1, name.len - 1);
}

static void add_terminator(fe_parser *p, ir_region *r, const char *name, ir_loc loc)
{
	ir_block *b;
	if (!r->first)
		ir_region_append_block(r, ir_block_create(p->ctx, loc));
	b = r->last;
	if (b->last && b->last->code != IR_OP_UNKNOWN &&
	    (ir_opdef_get(b->last->code)->flags & IR_OPF_TERMINATOR))
		return;
	if (b->last && b->last->code == IR_OP_UNKNOWN)
		return;
	ir_block_append_op(b, ir_op_create(p->ctx, name, loc, NULL, 0, NULL, 0, NULL, 0));
}

void fe_func_end(fe_parser *p, fe_tok vis, fe_tok sym, unsigned res0, const ir_attr *attrs,
		 ir_region *body, ir_loc loc)
{
	ir_block *entry = body ? body->first : p->arg_block;
	const ir_type *in[256], **inp = in;
	const ir_type *fnt;
	ir_op *f;
	unsigned i, nin = 0;
	const ir_attr *name = fe_symbol_attr(p, sym);
	/* function arguments: the entry block's (or the declaration's) */
	if (!body && !entry)
		entry = NULL;
	nin = entry ? entry->num_args : 0;
	if (nin > 256) {
		inp = ir_xrealloc(NULL, nin * sizeof *inp);
	}
	for (i = 0; i < nin; i++)
		inp[i] = entry->args[i]->type;
	fnt = ir_type_func(p->ctx, inp, nin, p->types.a + res0, p->types.n - res0);
	if (inp != in)
		free(inp);
	f = ir_op_create(p->ctx, "func.func", loc, NULL, 0, NULL, 0, attrs, 1);
	{
		ir_named_attr set[3] = {{"sym_name", NULL}, {"function_type", NULL},
					{"sym_visibility", NULL}};
		set[0].value = ir_attr_string(p->ctx, name->u.str.s, name->u.str.len);
		set[1].value = ir_attr_type(p->ctx, fnt);
		if (vis.len)
			set[2].value = ir_attr_string(p->ctx, vis.s, vis.len);
		ir_op_set_attrs(p->ctx, f, set, vis.len ? 3 : 2); /* one dictionary */
	}
	move_region(&f->regions[0], body);
	p->arg_block = NULL;
	p->pending_entry = NULL;
	fe_append(p, f);
}

void fe_for_begin(fe_parser *p, fe_tok iv, unsigned use0, unsigned idef0, unsigned itype0)
{
	ir_block *b = ir_block_create(p->ctx, iv.loc);
	const ir_type *ivt = p->uses.a[use0].v ? p->uses.a[use0].v->type : ir_type_index(p->ctx);
	ir_value *v = ir_block_add_arg(p->ctx, b, ivt, iv.loc);
	unsigned i, nit = p->types.n - itype0, ndef = defs_since(p, idef0);
	v->name = ir_intern(p->ctx, iv.s + 1, iv.len - 1);
	if (nit != ndef)
		ir_error(p->ctx, iv.loc, "'scf.for' has %u iter_args but %u result types", ndef, nit);
	for (i = 0; i < nit; i++) {
		v = ir_block_add_arg(p->ctx, b, p->types.a[itype0 + i],
				     i < ndef ? p->defs.a[idef0 + i].loc : iv.loc);
		if (i < ndef)
			v->name = p->defs.a[idef0 + i].name;
	}
	p->defs.n = idef0;
	p->pending_entry = b;
}

int uses_ok(fe_parser *p, unsigned use0, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (!p->uses.a[use0 + i].v)
			return 0;
	return 1;
}

static ir_value **use_values(fe_parser *p, unsigned use0, unsigned n)
{
	unsigned i;
	p->vals.n = 0;
	for (i = 0; i < n; i++)
		FE_PUSH(p, p->vals, p->uses.a[use0 + i].v);
	return p->vals.a;
}

/* Defines the results of `op` with the names of defs [def0, def0 + ndefs). */
int define_results(fe_parser *p, ir_op *op, unsigned def0, unsigned ndefs)
{
	unsigned i, k, r = 0;
	for (i = 0; i < ndefs; i++) {
		fe_def *d = &p->defs.a[def0 + i];
		if (r >= op->num_results)
			break;
		fe_define(p, d->name, &op->results[r], d->loc);
		for (k = 0; k < d->count && r < op->num_results; k++, r++) {
			op->results[r].name = d->name;
			op->results[r].loc = d->loc;
		}
	}
	return 0;
}

unsigned count_defs(fe_parser *p, unsigned def0, unsigned ndefs)
{
	unsigned i, n = 0;
	for (i = 0; i < ndefs; i++)
		n += p->defs.a[def0 + i].count;
	return n;
}

static int check_result_count(fe_parser *p, const char *name, unsigned def0, unsigned ndefs,
			      unsigned have, ir_loc loc)
{
	unsigned want = count_defs(p, def0, ndefs);
	if (want != have) {
		ir_error(p->ctx, ndefs ? p->defs.a[def0].loc : loc,
			 "operation '%s' defines %u results but %u %s given", name, have, want,
			 want == 1 ? "name was" : "names were");
		return -1;
	}
	return 0;
}

void fe_for_end(fe_parser *p, unsigned def0, unsigned ndefs, unsigned use0, unsigned itype0,
		ir_region *body, ir_loc loc)
{
	unsigned nuse = p->uses.n - use0, nres = p->types.n - itype0;
	ir_op *op;
	if (!uses_ok(p, use0, nuse) || nuse != 3 + nres ||
	    check_result_count(p, "scf.for", def0, ndefs, nres, loc)) {
		fe_poison_defs(p, def0);
		return;
	}
	op = ir_op_create(p->ctx, "scf.for", loc, use_values(p, use0, nuse), nuse,
			  p->types.a + itype0, nres, NULL, 1);
	move_region(&op->regions[0], body);
	if (!nres)
		add_terminator(p, &op->regions[0], "scf.yield", loc);
	fe_append(p, op);
	define_results(p, op, def0, ndefs);
}

void fe_if_end(fe_parser *p, unsigned def0, unsigned use0, unsigned type0, ir_region *then_r,
	       ir_region *else_r, ir_loc loc)
{
	unsigned nres = p->types.n - type0, ndefs = defs_since(p, def0);
	ir_op *op;
	if (!uses_ok(p, use0, 1) || check_result_count(p, "scf.if", def0, ndefs, nres, loc)) {
		fe_poison_defs(p, def0);
		return;
	}
	op = ir_op_create(p->ctx, "scf.if", loc, use_values(p, use0, 1), 1, p->types.a + type0,
			  nres, NULL, 2);
	move_region(&op->regions[0], then_r);
	move_region(&op->regions[1], else_r);
	if (!nres) {
		add_terminator(p, &op->regions[0], "scf.yield", loc);
		if (else_r)
			add_terminator(p, &op->regions[1], "scf.yield", loc);
	}
	fe_append(p, op);
	define_results(p, op, def0, ndefs);
}

int tok_is(fe_tok t, const char *s)
{
	return t.len == strlen(s) && !memcmp(t.s, s, t.len);
}

/* scf.while: the before region's entry block takes the names of the assignments
 * `(%a = %x, ...)` and the input types of the function type. */
void fe_while_begin(fe_parser *p, unsigned idef0, unsigned use0, const ir_type *fn, ir_loc loc)
{
	ir_block *b = ir_block_create(p->ctx, loc);
	unsigned i, ndef = defs_since(p, idef0), nuse = p->uses.n - use0;
	if (fn->kind != IR_TYPE_FUNC)
		ir_error(p->ctx, loc, "expected a function type '(T, ...) -> (R, ...)' after "
			 "'scf.while ... :'");
	else if (fn->u.fn.nin != ndef)
		ir_error(p->ctx, loc, "'scf.while' has %u initial values but its type lists %u",
			 ndef, fn->u.fn.nin);
	for (i = 0; i < ndef; i++) {
		const ir_type *t = fn->kind == IR_TYPE_FUNC && i < fn->u.fn.nin ? fn->u.fn.in[i]
			: i < nuse && p->uses.a[use0 + i].v ? p->uses.a[use0 + i].v->type
			: ir_type_none(p->ctx);
		ir_value *v = ir_block_add_arg(p->ctx, b, t, p->defs.a[idef0 + i].loc);
		v->name = p->defs.a[idef0 + i].name;
	}
	p->defs.n = idef0;
	p->pending_entry = b;
}

void fe_while_end(fe_parser *p, unsigned def0, unsigned ndefs, unsigned use0, const ir_type *fn,
		  ir_region *before, fe_tok word, ir_region *after, ir_loc loc)
{
	unsigned nuse = p->uses.n - use0, i;
	ir_op *op;
	if (!tok_is(word, "do")) {
		ir_error(p->ctx, word.loc, "expected 'do' between the regions of 'scf.while'");
		fe_poison_defs(p, def0);
		return;
	}
	if (fn->kind != IR_TYPE_FUNC || fn->u.fn.nin != nuse || !uses_ok(p, use0, nuse)) {
		fe_poison_defs(p, def0);
		return;
	}
	for (i = 0; i < nuse; i++)
		if (use_type(p, &p->uses.a[use0 + i], fn->u.fn.in[i])) {
			fe_poison_defs(p, def0);
			return;
		}
	if (check_result_count(p, "scf.while", def0, ndefs, fn->u.fn.nout, loc)) {
		fe_poison_defs(p, def0);
		return;
	}
	op = ir_op_create(p->ctx, "scf.while", loc, use_values(p, use0, nuse), nuse, fn->u.fn.out,
			  fn->u.fn.nout, NULL, 2);
	move_region(&op->regions[0], before);
	move_region(&op->regions[1], after);
	fe_append(p, op);
	define_results(p, op, def0, ndefs);
}

/* ---- line-oriented PTO-AS --------------------------------------------------- */

void fe_line_arg(fe_parser *p, fe_tok name, const ir_type *t)
{
	ir_block *b = p->kernel_entry;
	ir_value *v = ir_block_add_arg(p->ctx, b, t, name.loc);
	fe_define(p, ir_intern(p->ctx, name.s + 1, name.len - 1), v, name.loc);
}

void fe_line_const(fe_parser *p, fe_tok name, const ir_attr *value, const ir_type *t)
{
	const ir_attr *a = value;
	ir_op *op;
	if (!value) {
		fe_poison_defs(p, p->defs.n);
		return;
	}
	if (value->kind == IR_ATTR_INT)
		a = ir_attr_int(p->ctx, value->u.i.v, t);
	else if (value->kind == IR_ATTR_FLOAT)
		a = ir_attr_float(p->ctx, value->u.f.v, t);
	op = ir_op_create(p->ctx, "arith.constant", name.loc, NULL, 0, &t, 1, NULL, 0);
	ir_op_set_attr(p->ctx, op, "value", a);
	fe_append(p, op);
	fe_define(p, ir_intern(p->ctx, name.s + 1, name.len - 1), &op->results[0], name.loc);
}

/* ---- attributes ----------------------------------------------------------------- */

const ir_attr *fe_dict(fe_parser *p, unsigned named0, ir_loc loc)
{
	const ir_attr *d = ir_attr_dict(p->ctx, p->named.a + named0, p->named.n - named0, loc);
	p->named.n = named0;
	return d;
}

static void merge_attrs(fe_parser *p, ir_op *op, const ir_attr *d)
{
	unsigned i;
	if (!d || d->kind != IR_ATTR_DICT)
		return;
	for (i = 0; i < d->u.dict.n; i++)
		ir_op_set_attr(p->ctx, op, d->u.dict.entries[i].name, d->u.dict.entries[i].value);
}

/* ---- generic form ------------------------------------------------------------- */

/* PTOAS's generic tmov and tstore list src, dst, fp, preQuantScalar, sized by an
 * operandSegmentSizes of four; ptoc's order is its ins then its outs (src, the
 * quantization operand, dst; docs/semantics.md §6.2b), so the operands are put in that
 * order and the attribute, which describes the other, is dropped. */
static void fixpipe_operand_order(fe_parser *p, ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "operandSegmentSizes");
	ir_value *dst;
	const int64_t *v;
	if ((strcmp(op->name, "pto.tmov") && strcmp(op->name, "pto.tstore")) || !a ||
	    a->kind != IR_ATTR_DENSE || a->u.dense.n != 4)
		return;
	v = a->u.dense.v;
	if (v[0] != 1 || v[1] != 1 || v[2] < 0 || v[3] < 0 || v[2] + v[3] > 1 ||
	    op->num_operands != (unsigned)(2 + v[2] + v[3]))
		return; /* left to the verifier's operand counts */
	if (op->num_operands == 3) {
		dst = op->operands[1].value;
		ir_op_set_operand(op, 1, op->operands[2].value);
		ir_op_set_operand(op, 2, dst);
	}
	ir_op_remove_attr(p->ctx, op, "operandSegmentSizes");
}

ir_op *fe_build_generic(fe_parser *p, fe_tok opname, unsigned use0, unsigned nuses,
			const ir_attr *props, const ir_attr *attrs, const ir_type *fn,
			unsigned nregions, unsigned def0, ir_loc loc)
{
	const ir_attr *nm = fe_string_attr(p, opname);
	unsigned ndefs = defs_since(p, def0), i;
	ir_region **regs = p->regions_done.a + p->regions_done.n - nregions;
	ir_op *op;
	p->regions_done.n -= nregions;
	if (!nm || !uses_ok(p, use0, nuses))
		return NULL;
	if (memchr(nm->u.str.s, 0, nm->u.str.len) || !nm->u.str.len) {
		ir_error(p->ctx, loc, "an operation name must be non-empty and without NUL bytes");
		return NULL;
	}
	if (fn->kind != IR_TYPE_FUNC) {
		ir_error(p->ctx, loc, "expected a function type after ':' in the generic op form");
		return NULL;
	}
	if (fn->u.fn.nin != nuses) {
		ir_error(p->ctx, loc, "'%.*s' has %u operands but its type lists %u", (int)nm->u.str.len,
			 nm->u.str.s, nuses, fn->u.fn.nin);
		return NULL;
	}
	for (i = 0; i < nuses; i++)
		if (use_type(p, &p->uses.a[use0 + i], fn->u.fn.in[i]))
			return NULL;
	if (check_result_count(p, ir_intern(p->ctx, nm->u.str.s, nm->u.str.len), def0, ndefs,
			       fn->u.fn.nout, loc))
		return NULL;
	op = ir_op_create(p->ctx, ir_intern(p->ctx, nm->u.str.s, nm->u.str.len), loc,
			  use_values(p, use0, nuses), nuses, fn->u.fn.out, fn->u.fn.nout, attrs,
			  nregions);
	merge_attrs(p, op, props);
	fixpipe_operand_order(p, op);
	for (i = 0; i < nregions; i++)
		move_region(&op->regions[i], regs[i]);
	define_results(p, op, def0, ndefs);
	return op;
}
