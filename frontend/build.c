/* build.c: from parsed pieces to IR. Keeps the value scopes (one hash table per
 * isolated region, names released when their region closes, as MLIR does), the
 * regions and blocks being filled, and the interpretation of the custom forms (one
 * parse routine per syntax form of ops.def; ir/print.c prints them). Every user error is
 * reported through ir_error at the token concerned; the op is then not built and the
 * names it would have defined are poisoned so later uses do not cascade. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

void fe_grow(void **a, unsigned *cap, size_t elem)
{
	unsigned n = *cap ? *cap * 2 : 16;
	*a = ir_xrealloc(*a, (size_t)n * elem); /* fatal when memory runs out */
	*cap = n;
}

/* Names defined since mark `def0`; 0 when error recovery inside a nested region
 * (fe_recover) dropped the stack below the mark. */
static unsigned defs_since(const fe_parser *p, unsigned def0)
{
	return p->defs.n > def0 ? p->defs.n - def0 : 0;
}

/* ---- type strings for messages -------------------------------------------- */

/* `!pto.tensor_view<2xf32>` on a make_tensor_view with two shape operands: PTOAS's
 * older spelling `tensor_view<RANK x T>` (before its views carried their dims), read as
 * a view of that rank with every dim dynamic. [decision] Only a rank-1 type whose one
 * dim equals the number of shape operands, when that number is not 1, is read so; any
 * other type is returned as it is and the verifier checks it. */
static const ir_type *legacy_view_rank(fe_parser *p, const ir_type *t, unsigned nshape)
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
static int use_type(fe_parser *p, const fe_use *u, const ir_type *t)
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

/* ---- scopes ------------------------------------------------------------------ */

static size_t hptr(const void *p)
{
	uintptr_t x = (uintptr_t)p;
	x ^= x >> 17;
	x *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(x ^ (x >> 29));
}

static fe_sym *slot(fe_scope *s, const char *name)
{
	size_t i = hptr(name) & (s->cap - 1);
	while (s->tab[i].name && s->tab[i].name != name)
		i = (i + 1) & (s->cap - 1);
	return &s->tab[i];
}

static void scope_grow(fe_scope *s)
{
	fe_sym *old = s->tab;
	unsigned oldcap = s->cap, i;
	s->cap = oldcap ? oldcap * 2 : 64;
	s->tab = ir_xcalloc(s->cap, sizeof *s->tab);
	for (i = 0; i < oldcap; i++)
		if (old[i].name)
			*slot(s, old[i].name) = old[i];
	free(old);
}

static void scope_push(fe_parser *p)
{
	fe_scope *s = ir_xcalloc(1, sizeof *s);
	s->outer = p->scope;
	p->scope = s;
	scope_grow(s);
}

static void scope_pop(fe_parser *p)
{
	fe_scope *s = p->scope;
	if (!s)
		return;
	p->scope = s->outer;
	free(s->tab);
	free(s->defs);
	free(s->region_marks);
	free(s);
}

void fe_region_enter(fe_parser *p)
{
	fe_scope *s = p->scope;
	if (s->nmarks == s->capmarks)
		fe_grow((void **)&s->region_marks, &s->capmarks, sizeof *s->region_marks);
	s->region_marks[s->nmarks++] = s->ndefs;
}

void fe_region_leave(fe_parser *p)
{
	fe_scope *s = p->scope;
	unsigned m;
	if (!s || !s->nmarks)
		return;
	m = s->region_marks[--s->nmarks];
	while (s->ndefs > m)
		slot(s, s->defs[--s->ndefs])->live = 0;
}

static void define_sym(fe_parser *p, const char *name, ir_value *v, ir_loc loc)
{
	fe_scope *s = p->scope;
	fe_sym *e;
	if ((s->n + 1) * 2 > s->cap)
		scope_grow(s);
	e = slot(s, name);
	if (!e->name)
		s->n++;
	e->name = name;
	e->v = v;
	e->loc = loc;
	e->live = 1;
	if (s->ndefs == s->capdefs)
		fe_grow((void **)&s->defs, &s->capdefs, sizeof *s->defs);
	s->defs[s->ndefs++] = name;
}

int fe_define(fe_parser *p, const char *name, ir_value *v, ir_loc loc)
{
	fe_sym *e = slot(p->scope, name);
	if (e->name && e->live) {
		ir_error(p->ctx, loc, "redefinition of SSA value '%%%s'", name);
		ir_note(p->ctx, e->loc, "previously defined here");
		return -1;
	}
	if (v) {
		v->name = name;
		v->loc = loc;
	}
	define_sym(p, name, v, loc);
	return 0;
}

fe_use fe_lookup(fe_parser *p, fe_tok t)
{
	fe_use u;
	const char *hash = memchr(t.s, '#', t.len);
	uint32_t nlen = hash ? (uint32_t)(hash - t.s) : t.len;
	fe_sym *e;
	u.v = NULL;
	u.loc = t.loc;
	u.name = ir_intern(p->ctx, t.s + 1, nlen - 1);
	u.namelen = nlen - 1;
	e = slot(p->scope, u.name);
	if (!e->name || !e->live) {
		ir_error(p->ctx, t.loc, "use of undefined value '%%%s'", u.name);
		/* report once: later uses of the same name stay quiet */
		define_sym(p, u.name, NULL, t.loc);
		return u;
	}
	if (!e->v)
		return u;
	if (hash) {
		/* %r#i: result i of the op that defined %r */
		int64_t i = 0;
		const char *c;
		ir_op *def = e->v->def;
		for (c = hash + 1; c < t.s + t.len && i < 1000000; c++)
			i = i * 10 + (*c - '0');
		if (!def || e->v->index != 0 || (uint64_t)i >= def->num_results) {
			ir_error(p->ctx, t.loc, "invalid result number in '%.*s'", (int)t.len, t.s);
			return u;
		}
		u.v = &def->results[i];
		return u;
	}
	u.v = e->v;
	return u;
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

/* The op defining defs [def0, n) failed: their names become quiet placeholders. */
void fe_poison_defs(fe_parser *p, unsigned def0)
{
	unsigned i;
	for (i = def0; i < p->defs.n; i++) {
		fe_sym *e = slot(p->scope, p->defs.a[i].name);
		if (!(e->name && e->live))
			define_sym(p, p->defs.a[i].name, NULL, p->defs.a[i].loc);
	}
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

static ir_block *cur_block(fe_parser *p)
{
	ir_block **b = &p->blocks.a[p->blocks.n - 1];
	if (!*b) {
		ir_region *r = p->regions.a[p->regions.n - 1];
		*b = ir_block_create(p->ctx, p->last_loc);
		ir_region_append_block(r, *b);
	}
	return *b;
}

void fe_append(fe_parser *p, ir_op *op)
{
	ir_block_append_op(cur_block(p), op);
	p->last_op = op;
}

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
		scope_push(p);
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
		scope_pop(p);
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

static int uses_ok(fe_parser *p, unsigned use0, unsigned n)
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
static int define_results(fe_parser *p, ir_op *op, unsigned def0, unsigned ndefs)
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

static unsigned count_defs(fe_parser *p, unsigned def0, unsigned ndefs)
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

static int tok_is(fe_tok t, const char *s);

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
	for (i = 0; i < nregions; i++)
		move_region(&op->regions[i], regs[i]);
	define_results(p, op, def0, ndefs);
	return op;
}

/* ---- custom form ---------------------------------------------------------------- */

typedef struct shape {
	fe_piece *ins, *outs, *colon, *arrow, *to, *word, *bracket, *angle, *lit, *call;
	fe_piece *kw[8];
	unsigned nkw;
	unsigned noperand;   /* direct operands */
	unsigned op0;        /* first direct operand use */
	const ir_attr *dict; /* merged attribute dicts */
	int bad;
} shape;

static int tok_is(fe_tok t, const char *s)
{
	return t.len == strlen(s) && !memcmp(t.s, s, t.len);
}

/* Checks the annotated types of uses [u0, u0+n) against types [t0, t0+n). */
static int check_types(fe_parser *p, unsigned u0, unsigned n, unsigned t0)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (use_type(p, &p->uses.a[u0 + i], p->types.a[t0 + i]))
			return -1;
	return 0;
}

static int check_group(fe_parser *p, fe_piece *g, const char *what)
{
	if (g->tn != g->vn) {
		ir_error(p->ctx, g->loc, "%s(...) has %u operands but %u types", what, g->vn, g->tn);
		return -1;
	}
	return check_types(p, g->v0, g->vn, g->t0);
}

static const ir_type *i64(fe_parser *p)
{
	return ir_type_int(p->ctx, 64, IR_INT_SIGNLESS);
}

/* `operandSegmentSizes = array<i32: ...>` */
static const ir_attr *segments(fe_parser *p, const int64_t *v, unsigned n)
{
	return ir_attr_dense(p->ctx, ir_type_int(p->ctx, 32, IR_INT_SIGNLESS), v, n);
}

/* Older PTOAS spellings of ops ptoc knows under their current names. [decision] They
 * parse to the same IR as the current spelling (and print as it): `pto.subview` was
 * PTOAS's name of `pto.partition_view` (with `!pto.tile_view` results), and
 * `memref.alloc() : memref<RxCxT, #pto.address_space<X>>` allocates the tile buffer
 * `pto.alloc_tile : !pto.tile_buf<X, RxCxT>` does (typetext.c: memref_tile_buf). */
static const struct { const char *old, *now; } op_aliases[] = {
	{"pto.subview", "pto.partition_view"},
	{"memref.alloc", "pto.alloc_tile"},
};

static const char *full_name(fe_parser *p, fe_tok t)
{
	char buf[256];
	unsigned k;
	/* func's ops as MLIR prints them inside a func.func (the default dialect) */
	if (tok_is(t, "return"))
		return ir_intern(p->ctx, "func.return", 11);
	if (tok_is(t, "call"))
		return ir_intern(p->ctx, "func.call", 9);
	for (k = 0; k < sizeof op_aliases / sizeof op_aliases[0]; k++)
		if (tok_is(t, op_aliases[k].old))
			return ir_intern(p->ctx, op_aliases[k].now, strlen(op_aliases[k].now));
	if (!memchr(t.s, '.', t.len) || (p->line_mode && t.len > 7 && !memchr(t.s, '.', 4) &&
					   ir_opcode_lookup(t.s, t.len) == IR_OP_UNKNOWN &&
					   (t.len < 4 || memcmp(t.s, "pto.", 4)))) {
		/* a bare PTO-AS opcode: tcvt, tmatmul.acc */
		if (t.len + 4 < sizeof buf && (t.len < 4 || memcmp(t.s, "pto.", 4))) {
			memcpy(buf, "pto.", 4);
			memcpy(buf + 4, t.s, t.len);
			return ir_intern(p->ctx, buf, t.len + 4);
		}
	}
	return ir_intern(p->ctx, t.s, t.len);
}

/* `0x7FC00000 : f32`: an integer literal for a float type is its bit pattern (f64, f32,
 * f16, bf16; other float types keep the integer, which the verifier reports) */
const ir_attr *fe_float_bits(fe_parser *p, uint64_t bits, const ir_type *t)
{
	return ir_attr_float_bits(p->ctx, bits, t);
}

/* `1.5 : f32`: the literal's exact decimal value rounded once to `t` (f32, f16, bf16;
 * f64 through strtod, also correctly rounded); NULL after an error when it lies beyond
 * the type's largest finite value (as MLIR). Other float types keep `dv`. */
const ir_attr *fe_float_typed(fe_parser *p, fe_tok tok, double dv, const ir_type *t)
{
	uint64_t bits;
	ptort_type et;
	int rc;
	if (!t || t->kind != IR_TYPE_FLOAT || t->u.f.kind == IR_F64 || !tok.len ||
	    (t->u.f.kind != PTORT_F32 && t->u.f.kind != PTORT_F16 && t->u.f.kind != PTORT_BF16))
		return ir_attr_float(p->ctx, dv, t);
	et = (ptort_type)t->u.f.kind;
	rc = ptort_value_parse(et, tok.s, tok.len, &bits);
	if (rc == -2) {
		ir_error(p->ctx, tok.loc, "floating point value too large for type '%s'",
			 ptort_type_name(et));
		return NULL;
	}
	if (rc)
		return ir_attr_float(p->ctx, dv, t);
	return fe_float_bits(p, bits, t);
}

/* ---- the custom forms (ir.h: ir_form), one parse routine each ------------------------
 *
 * The grammar reads a custom-form statement as pieces (operands, `key = ...`, ins/outs
 * groups, dicts, brackets, `: types [-> types] [to type]`); fe_build_custom sorts them
 * into a shape and hands it to the parse routine of the op's form, which picks the
 * operands, the result types and the attributes the syntax carries outside the dict.
 * The routines share three steps: the operands (positional, keyword operands, or a
 * view's keyword lists), the types, and the attributes outside the dict. The region
 * forms (module, func.func, scf.for, scf.if) have grammar rules of their own
 * (fe_module_end, fe_func_end, fe_for_end, fe_if_end); written as plain statements
 * they go through the default reader like every form without a routine of its own. */

/* One op being built from its shape. */
typedef struct cust {
	fe_parser *p;
	fe_tok opname;
	const char *name;
	ir_opcode code;
	const ir_opdef *d;
	shape s;
	ir_value **ops;                  /* the operands, in order */
	unsigned nops;
	const ir_type *const *rtypes;    /* the result types */
	unsigned nrt;
	const ir_type *rt[1];
	const ir_attr *extra[8];         /* attributes outside the dict */
	const char *extra_name[8];
	unsigned nextra;
	unsigned use0;
	unsigned nres;                   /* result names given */
	unsigned ct;                     /* the types after `:` ... */
	const ir_type *const *cty;
	const ir_type *fn;               /* ... when they are one function type `(T) -> (R)` */
	char tb[256];
} cust;

static void add_extra(cust *c, const char *name, const ir_attr *a)
{
	c->extra_name[c->nextra] = name;
	c->extra[c->nextra++] = a;
}

static void set_result(cust *c, const ir_type *t)
{
	c->rt[0] = t;
	c->rtypes = c->rt;
	c->nrt = 1;
}


/* ---- step 1: the operands ---- */

/* Positional: direct operands, a call's `(...)`, ins, outs, bracket values. */
static int ops_positional(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned k;
	if (s->nkw) {
		ir_error(p->ctx, s->kw[0]->loc, "unexpected '%.*s = ...' in '%s'",
			 (int)s->kw[0]->key.len, s->kw[0]->key.s, c->name);
		return -1;
	}
	for (k = 0; k < s->noperand; k++)
		FE_PUSH(p, p->vals, p->uses.a[s->op0 + k].v);
	if (s->call)
		for (k = 0; k < s->call->vn; k++)
			FE_PUSH(p, p->vals, p->uses.a[s->call->v0 + k].v);
	if (s->ins)
		for (k = 0; k < s->ins->vn; k++)
			FE_PUSH(p, p->vals, p->uses.a[s->ins->v0 + k].v);
	if (s->outs)
		for (k = 0; k < s->outs->vn; k++)
			FE_PUSH(p, p->vals, p->uses.a[s->outs->v0 + k].v);
	if (s->bracket && s->bracket->vn)
		for (k = 0; k < s->bracket->vn; k++)
			FE_PUSH(p, p->vals, p->uses.a[s->bracket->v0 + k].v);
	return 0;
}

/* The placeholder of keyword operand `key` in messages: the first letter of its last
 * word (addr -> %a, valid_row -> %r). */
static char kw_letter(const char *key)
{
	const char *u = strrchr(key, '_');
	return u ? u[1] : key[0];
}

/* KWOPS: `KEY = %v` for each OPT role, each at most once, any order. */
static int ops_kwops(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	const ir_opdef *d = c->d;
	int64_t seg[8] = {0};
	unsigned k, j, n = d->num_roles < 8 ? d->num_roles : 8;
	for (k = 0; k < s->nkw; k++) {
		for (j = 0; j < n; j++)
			if (tok_is(s->kw[k]->key, d->roles[j].name))
				break;
		if (j == n || s->kw[k]->kind != FE_P_KWVAL || seg[j]) {
			char msg[256];
			size_t len = 0;
			for (j = 0; j < n && len < sizeof msg; j++)
				len += (size_t)snprintf(msg + len, sizeof msg - len, "%s'%s = %%%c'",
							!j ? "" : j + 1 == n ? " or " : ", ",
							d->roles[j].name, kw_letter(d->roles[j].name));
			ir_error(p->ctx, s->kw[k]->loc, "expected %s in '%s'", msg, c->name);
			return -1;
		}
		seg[j] = 1;
	}
	for (j = 0; j < n; j++)
		for (k = 0; k < s->nkw; k++)
			if (tok_is(s->kw[k]->key, d->roles[j].name))
				FE_PUSH(p, p->vals, p->uses.a[s->kw[k]->v0].v);
	add_extra(c, "operandSegmentSizes", segments(p, seg, n));
	return 0;
}

/* VIEW, VIEW_FROM: `%src, KW0 = [...], KW1 = [...]`, KW the two VAR roles. */
static int ops_view(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	const char *k0 = c->d->roles[1].name, *k1 = c->d->roles[2].name;
	fe_piece *a = NULL, *b = NULL;
	unsigned k;
	for (k = 0; k < s->nkw; k++) {
		if (tok_is(s->kw[k]->key, k0) && !a && s->kw[k]->kind == FE_P_KWLIST)
			a = s->kw[k];
		else if (tok_is(s->kw[k]->key, k1) && !b && s->kw[k]->kind == FE_P_KWLIST)
			b = s->kw[k];
		else {
			ir_error(p->ctx, s->kw[k]->loc, "unexpected '%.*s' in '%s'",
				 (int)s->kw[k]->key.len, s->kw[k]->key.s, c->name);
			return -1;
		}
	}
	if (s->noperand != 1 || !a || !b) {
		ir_error(p->ctx, c->opname.loc, "expected '%s %%src, %s = [...], %s = [...]'", c->name,
			 k0, k1);
		return -1;
	}
	FE_PUSH(p, p->vals, p->uses.a[s->op0].v);
	for (k = 0; k < a->vn; k++)
		FE_PUSH(p, p->vals, p->uses.a[a->v0 + k].v);
	for (k = 0; k < b->vn; k++)
		FE_PUSH(p, p->vals, p->uses.a[b->v0 + k].v);
	{
		int64_t seg[3];
		seg[0] = 1;
		seg[1] = a->vn;
		seg[2] = b->vn;
		add_extra(c, "operandSegmentSizes", segments(p, seg, 3));
	}
	return 0;
}

/* COND: `scf.condition(%c) %a, %b`: the condition, then the values passed on. */
static int ops_cond(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned k;
	if (!s->call || s->call->vn != 1 || s->nkw || s->ins || s->outs || s->bracket) {
		ir_error(p->ctx, c->opname.loc, "expected 'scf.condition(%%cond) %%a, ... : T, ...'");
		return -1;
	}
	FE_PUSH(p, p->vals, p->uses.a[s->call->v0].v);
	for (k = 0; k < s->noperand; k++)
		FE_PUSH(p, p->vals, p->uses.a[s->op0 + k].v);
	return 0;
}

/* PTRACC: `%p[%i]` (load_scalar) or `%v, %p[%i]` (store_scalar), as (%p, %i[, %v]). */
static int ops_ptracc(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned nv = c->d->num_roles == 3;
	if (s->noperand != 1 + nv || !s->bracket || s->bracket->vn != 1 || s->nkw || s->ins ||
	    s->outs || s->call) {
		ir_error(p->ctx, c->opname.loc, nv ? "expected '%s %%v, %%p[%%i] : !pto.ptr<T>, T'"
						   : "expected '%s %%p[%%i] : !pto.ptr<T> -> T'", c->name);
		return -1;
	}
	FE_PUSH(p, p->vals, p->uses.a[s->op0 + nv].v);
	FE_PUSH(p, p->vals, p->uses.a[s->bracket->v0].v);
	if (nv)
		FE_PUSH(p, p->vals, p->uses.a[s->op0].v);
	return 0;
}

/* EVARR: `op -> A` (declare), `op %a[%i] : A` (get), `op %a[%i], %v : A` (set). */
static int ops_evarr(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned nin = c->d->num_roles;
	if (nin ? s->noperand != nin - 1 || !s->bracket || s->bracket->vn != 1 ||
			  s->bracket->attr->u.array.n
		: s->noperand || s->bracket) {
		ir_error(p->ctx, c->opname.loc, "expected '%s'", nin == 0 ? "op -> !pto.eventid_array<N>"
								 : nin == 2 ? "op %a[%i] : !pto.eventid_array<N>"
									    : "op %a[%i], %v : !pto.eventid_array<N>");
		return -1;
	}
	if (!nin)
		return 0;
	FE_PUSH(p, p->vals, p->uses.a[s->op0].v);
	FE_PUSH(p, p->vals, p->uses.a[s->bracket->v0].v);
	if (nin == 3)
		FE_PUSH(p, p->vals, p->uses.a[s->bracket->v0 + 1].v); /* after the bracket */
	return 0;
}

/* ---- step 2: the types ---- */

/* EVARR: the array's type after `:` (get, set; an id is an index) or `->` (declare). */
static int types_evarr(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned nin = c->d->num_roles;
	if (nin ? c->fn || c->ct != 1 || s->arrow : s->colon || !s->arrow || s->arrow->tn != 1) {
		ir_error(p->ctx, s->colon ? s->colon->loc : c->opname.loc,
			 nin ? "expected ': !pto.eventid_array<N>' for '%s'"
			     : "expected '-> !pto.eventid_array<N>' for '%s'", c->name);
		return -1;
	}
	if (!nin) {
		set_result(c, p->types.a[s->arrow->t0]);
		return 0;
	}
	if (use_type(p, &p->uses.a[s->op0], c->cty[0]) ||
	    use_type(p, &p->uses.a[s->bracket->v0], ir_type_index(p->ctx)) ||
	    (nin == 3 && use_type(p, &p->uses.a[s->bracket->v0 + 1], ir_type_index(p->ctx))))
		return -1;
	if (nin == 2)
		set_result(c, ir_type_index(p->ctx));
	return 0;
}

/* PTRACC: `: P -> T` (load) or `: P, T` (store): the pointer's type, the value's. */
static int types_ptracc(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned nv = c->d->num_roles == 3;
	if (c->fn || !s->colon || c->ct != 1 + nv || (!nv && (!s->arrow || s->arrow->tn != 1)) ||
	    (nv && s->arrow)) {
		ir_error(p->ctx, s->colon ? s->colon->loc : c->opname.loc,
			 nv ? "expected ': !pto.ptr<T>, T' for '%s'" : "expected ': !pto.ptr<T> -> T' for '%s'",
			 c->name);
		return -1;
	}
	if (use_type(p, &p->uses.a[s->op0 + nv], c->cty[0]) ||
	    use_type(p, &p->uses.a[s->bracket->v0], ir_type_index(p->ctx)) ||
	    (nv && use_type(p, &p->uses.a[s->op0], c->cty[1])))
		return -1;
	if (!nv)
		set_result(c, p->types.a[s->arrow->t0]);
	return 0;
}

/* The default reader: `: (T, U) -> (R)`, `: T, U -> R`, `: R` (ops with results), or
 * `: T, U` (the operand types of an op without results). */
static int types_default(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned i;
	if (c->fn) {
		if (c->fn->u.fn.nin != s->noperand + (s->call ? s->call->vn : 0)) {
			ir_error(p->ctx, s->colon->loc, "'%s' has %u operands but its type lists %u",
				 c->name, s->noperand + (s->call ? s->call->vn : 0), c->fn->u.fn.nin);
			return -1;
		}
		for (i = 0; i < c->fn->u.fn.nin; i++)
			if (use_type(p, &p->uses.a[(s->call && !s->noperand ? s->call->v0 : s->op0) + i],
				     c->fn->u.fn.in[i]))
				return -1;
		c->rtypes = c->fn->u.fn.out;
		c->nrt = c->fn->u.fn.nout;
	} else if (s->arrow) {
		unsigned n = c->ct < s->noperand ? c->ct : s->noperand;
		if (c->ct > s->noperand) {
			ir_error(p->ctx, s->colon->loc, "'%s' has %u operands but %u types", c->name,
				 s->noperand, c->ct);
			return -1;
		}
		if (check_types(p, s->op0, n, s->colon ? s->colon->t0 : 0))
			return -1;
		c->rtypes = p->types.a + s->arrow->t0;
		c->nrt = s->arrow->tn;
	} else if (c->nres && s->colon) {
		c->rtypes = c->cty;
		c->nrt = c->ct;
	} else if (s->colon) {
		if (c->ct != s->noperand) {
			ir_error(p->ctx, s->colon->loc, "'%s' has %u operands but %u types", c->name,
				 s->noperand, c->ct);
			return -1;
		}
		if (check_types(p, s->op0, c->ct, s->colon->t0))
			return -1;
	} else if (s->noperand && !s->ins) {
		ir_error(p->ctx, c->opname.loc, "expected ':' and the operand types of '%s'", c->name);
		return -1;
	}
	return 0;
}

/* `: R` (the result type alone); QUERY: i64 when omitted. */
static int types_result(cust *c)
{
	fe_parser *p = c->p;
	const ir_type *dflt = c->d->form == IR_FORM_QUERY ? i64(p) : NULL;
	if (c->ct > 1 || c->fn || c->s.arrow) {
		ir_error(p->ctx, c->s.colon ? c->s.colon->loc : c->opname.loc,
			 "expected ': <result type>' for '%s'", c->name);
		return -1;
	}
	if (c->ct == 1)
		set_result(c, c->cty[0]);
	else if (dflt)
		set_result(c, dflt);
	else {
		ir_error(p->ctx, c->opname.loc, "expected ': <result type>' for '%s'", c->name);
		return -1;
	}
	return 0;
}

/* The first operand from `first` whose type is not `t`, reported at its (last) use. */
static int mismatch_same(cust *c, unsigned first, const ir_type *t)
{
	fe_parser *p = c->p;
	unsigned k, j;
	for (k = first; k < c->nops; k++)
		if (c->ops[k]->type != t) {
			fe_use *u = NULL;
			for (j = c->use0; j < p->uses.n; j++)
				if (p->uses.a[j].v == c->ops[k])
					u = &p->uses.a[j];
			if (u)
				return use_type(p, u, t);
			ir_error(p->ctx, c->opname.loc, "an operand of '%s' is not of type '%s'", c->name,
				 ir_type_str(t, c->tb, sizeof c->tb));
			return -1;
		}
	return 0;
}

/* CONST: `<literal> : T`, `true` / `false`. */
static int types_const(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	const ir_attr *v = s->lit ? s->lit->attr : NULL;
	if (!v || s->noperand) {
		ir_error(p->ctx, c->opname.loc, "expected 'arith.constant <literal> : <type>'");
		return -1;
	}
	if (v->kind == IR_ATTR_BOOL) {
		set_result(c, ir_type_int(p->ctx, 1, IR_INT_SIGNLESS));
	} else if (c->ct == 1) {
		set_result(c, c->cty[0]);
		if (v->kind == IR_ATTR_INT && c->cty[0]->kind == IR_TYPE_FLOAT)
			v = fe_float_bits(p, (uint64_t)v->u.i.v, c->cty[0]);
		else if (v->kind == IR_ATTR_INT)
			v = ir_attr_int(p->ctx, v->u.i.v, c->cty[0]);
		else if (v->kind == IR_ATTR_FLOAT && !v->u.f.type)
			v = fe_float_typed(p, s->lit->key, v->u.f.v, c->cty[0]);
		else if (v->kind == IR_ATTR_FLOAT)
			v = ir_attr_float(p->ctx, v->u.f.v, c->cty[0]);
		if (!v)
			return -1;
		if (v->kind == IR_ATTR_FLOAT && c->cty[0]->kind != IR_TYPE_FLOAT) {
			ir_error(p->ctx, s->colon->loc, "floating point value not valid for type '%s'",
				 ir_type_str(c->cty[0], c->tb, sizeof c->tb));
			return -1;
		}
	} else if (v->kind == IR_ATTR_INT && v->u.i.type) {
		set_result(c, v->u.i.type);
	} else if (v->kind == IR_ATTR_FLOAT && v->u.f.type) {
		set_result(c, v->u.f.type);
	} else if (v->kind == IR_ATTR_INT || v->kind == IR_ATTR_FLOAT) {
		ir_error(p->ctx, c->opname.loc, "expected ':' and the type of the constant");
		return -1;
	} else {
		set_result(c, c->ct == 1 ? c->cty[0] : ir_type_none(p->ctx));
	}
	add_extra(c, "value", v);
	s->lit = NULL;
	return 0;
}

/* ARITH: `: T`, every operand after the leading I1 ones of type T, the result T. */
static int types_arith(cust *c)
{
	fe_parser *p = c->p;
	if (c->ct != 1 || c->fn) {
		ir_error(p->ctx, c->opname.loc, "expected ': <type>' after the operands of '%s'",
			 c->name);
		return -1;
	}
	if (mismatch_same(c, ir_opdef_lead(c->d, IR_KIND_I1), c->cty[0]))
		return -1;
	set_result(c, c->cty[0]);
	return 0;
}

/* CMPI (arith.cmpi, arith.cmpf): a predicate word, `: T` of both operands; the result
 * i1. */
static int types_cmpi(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	int f = !strcmp(c->name, "arith.cmpf");
	const char *const *names = f ? ir_cmpf_pred_names : ir_cmpi_pred_names;
	unsigned k, n = f ? IR_CMPF_PRED_COUNT : IR_CMPI_PRED_COUNT;
	if (f && !s->word && s->lit && s->lit->attr && s->lit->attr->kind == IR_ATTR_BOOL) {
		k = s->lit->attr->u.i.v ? IR_CMPF_PRED_COUNT - 1 : 0; /* `true`, `false` */
		s->lit = NULL;
		goto found;
	}
	if (!s->word) {
		ir_error(p->ctx, c->opname.loc, "expected a comparison predicate (%s)",
			 f ? "oeq, olt, une, ..." : "eq, ne, slt, ...");
		return -1;
	}
	for (k = 0; k < n; k++)
		if (tok_is(s->word->key, names[k]))
			break;
	if (k == n) {
		ir_error(p->ctx, s->word->loc, "unknown comparison predicate '%.*s' (expected %s)",
			 (int)s->word->key.len, s->word->key.s,
			 f ? "false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno or true"
			   : "eq, ne, slt, sle, sgt, sge, ult, ule, ugt or uge");
		return -1;
	}
	s->word = NULL;
found:
	add_extra(c, "predicate", ir_attr_int(p->ctx, (int64_t)k, i64(p)));
	if (c->ct != 1) {
		ir_error(p->ctx, c->opname.loc, "expected ': <type>' after the operands of '%s'", c->name);
		return -1;
	}
	if (mismatch_same(c, 0, c->cty[0]))
		return -1;
	set_result(c, ir_type_int(p->ctx, 1, IR_INT_SIGNLESS));
	return 0;
}

/* CAST: `%v : T to R`. */
static int types_cast(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	if (c->ct != 1 || !s->to || c->nops != 1) {
		ir_error(p->ctx, c->opname.loc, "expected '%s %%v : <type> to <type>'", c->name);
		return -1;
	}
	if (check_types(p, s->op0, 1, s->colon->t0))
		return -1;
	set_result(c, p->types.a[s->to->t0]);
	return 0;
}

/* LEAD: `: T`, the type of the first operand; the others are index. */
static int types_lead(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	unsigned i;
	if (c->ct != 1 || c->fn || s->arrow || !s->noperand) {
		ir_error(p->ctx, s->colon ? s->colon->loc : c->opname.loc,
			 "expected '%s %%tile, %%a, %%b : <tile type>'", c->name);
		return -1;
	}
	if (check_types(p, s->op0, 1, s->colon->t0))
		return -1;
	for (i = 1; i < s->noperand; i++)
		if (use_type(p, &p->uses.a[s->op0 + i], ir_type_index(p->ctx)))
			return -1;
	return 0;
}

/* COND: `: T, ...` the types of the values passed on (none without values); the
 * condition is i1. */
static int types_cond(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	if (c->fn || s->arrow || c->ct != s->noperand) {
		ir_error(p->ctx, s->colon ? s->colon->loc : c->opname.loc,
			 "'scf.condition' passes %u values but %u types follow ':'", s->noperand, c->ct);
		return -1;
	}
	if (use_type(p, &p->uses.a[s->call->v0], ir_type_int(p->ctx, 1, IR_INT_SIGNLESS)) ||
	    (c->ct && check_types(p, s->op0, c->ct, s->colon->t0)))
		return -1;
	return 0;
}

/* ---- step 3: the attributes outside the dict ---- */

/* SYNC: the entries of `[...]` (or `<A>` and a literal) are the row's attributes in
 * order; an entry `<X>` is #pto.KIND<X> with the attribute's kind (ir_sync_kind:
 * pipe_event_type, event, pipe). */
static int sync_extras(cust *c)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	const ir_attr *e[8];
	unsigned n = 0, k;
	if (s->bracket) {
		const ir_attr *a = s->bracket->attr;
		if (s->bracket->vn || s->angle || s->lit || a->u.array.n > 8) {
			ir_error(p->ctx, s->bracket->loc, "expected '[' and the attributes of '%s'",
				 c->name);
			return -1;
		}
		for (k = 0; k < a->u.array.n; k++)
			e[n++] = a->u.array.elems[k];
	} else {
		if (s->angle)
			e[n++] = ir_attr_string(p->ctx, s->angle->key.s, s->angle->key.len);
		if (s->lit)
			e[n++] = s->lit->attr;
	}
	if (n > c->d->num_attrs) {
		ir_error(p->ctx, s->bracket ? s->bracket->loc : c->opname.loc,
			 "'%s' takes %u attributes in '[...]', got %u", c->name, c->d->num_attrs, n);
		return -1;
	}
	for (k = 0; k < n; k++) {
		const ir_attr *x = e[k];
		unsigned kind = c->d->attrs[k].kind;
		const char *pk = ir_sync_kind(kind);
		if (x->kind == IR_ATTR_STRING && pk)
			x = ir_attr_pto(p->ctx, pk, ir_intern(p->ctx, x->u.str.s, x->u.str.len),
					IR_PTO_DOTTED);
		add_extra(c, c->d->attrs[k].name, x);
	}
	return 0;
}

/* `[%a, <B>, 1]` as `args` (FLAG: `[<A>, <B>, <E>]` as the flag's pipes and event),
 * `<X>` as `angle_name`, a lone literal as `lit_name`; a stray word is an error. */
static int extras(cust *c, const char *lit_name, const char *angle_name)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	if (s->word) {
		ir_error(p->ctx, s->word->loc, "unexpected '%.*s' in '%s'", (int)s->word->key.len,
			 s->word->key.s, c->name);
		return -1;
	}
	if (c->d->form == IR_FORM_SYNC)
		return sync_extras(c);
	if (s->bracket) {
		const ir_attr *a = s->bracket->attr;
		/* set_flag: three attributes; set_flag_dyn: two and the id's value */
		unsigned nf = 3 - (c->d->num_roles == 1);
		if (c->d->form == IR_FORM_FLAG && a->u.array.n == nf && s->bracket->vn == 3 - nf) {
			static const char *const names[3] = {"src_pipe", "dst_pipe", "event_id"};
			unsigned k;
			for (k = 0; k < nf; k++) {
				const ir_attr *e = a->u.array.elems[k];
				if (e->kind == IR_ATTR_PTO && !strcmp(e->u.pto.kind, k == 2 ? "event" : "pipe")) {
					add_extra(c, names[k], e);
					continue;
				}
				if (e->kind != IR_ATTR_STRING) {
					ir_error(p->ctx, s->bracket->loc, "expected '[<PIPE_A>, <PIPE_B>, <EVENT_IDn>]'");
					return -1;
				}
				add_extra(c, names[k], ir_attr_pto(p->ctx, k == 2 ? "event" : "pipe",
								   ir_intern(p->ctx, e->u.str.s, e->u.str.len),
								   IR_PTO_DOTTED));
			}
		} else if (!s->bracket->vn || a->u.array.n) {
			add_extra(c, "args", a);
		}
	}
	if (s->angle)
		add_extra(c, angle_name, ir_attr_pto(p->ctx, "pipe",
						     ir_intern(p->ctx, s->angle->key.s, s->angle->key.len),
						     IR_PTO_DOTTED));
	if (s->lit)
		add_extra(c, lit_name, s->lit->attr);
	return 0;
}

/* VIEW_FROM: the default reader, one source and one result type. */
static int types_view_from(cust *c)
{
	if (types_default(c))
		return -1;
	if (!c->s.colon || c->s.colon->tn != 1 || !c->s.arrow || c->s.arrow->tn != 1) {
		ir_error(c->p->ctx, c->opname.loc,
			 "expected ': <source type> -> <result type>' for '%s'", c->name);
		return -1;
	}
	return 0;
}

/* `memref.alloc() : T`: T must have become a tile_buf (typetext.c), and the older
 * form's dynamic sizes `memref.alloc(%n)` have no tile_buf equivalent. */
static int memref_alloc_check(cust *c)
{
	char tb[256];
	if (c->s.call && c->s.call->vn) {
		ir_error(c->p->ctx, c->s.call->loc,
			 "'memref.alloc' with dynamic sizes has no tile_buf equivalent (write "
			 "pto.alloc_tile with valid_row/valid_col)");
		return -1;
	}
	if (c->nrt == 1 && c->rtypes[0]->kind == IR_TYPE_NONE)
		return -1; /* the type was reported where it was read */
	if (c->nrt != 1 || c->rtypes[0]->kind != IR_TYPE_TILE_BUF) {
		ir_error(c->p->ctx, c->s.colon ? c->s.colon->loc : c->opname.loc,
			 "'memref.alloc' allocates a tile buffer: its type must be a static memref "
			 "of rank 2 or more in an on-chip address space (memref<RxCxT, #pto.address_space<vec>>, "
			 "mat, left, right, acc, bias, scaling), got '%s'",
			 c->nrt ? ir_type_str(c->rtypes[0], tb, sizeof tb) : "nothing");
		return -1;
	}
	return 0;
}

/* The parse routine of each form: its operand and type steps, and the names a lone
 * literal and an `<X>` outside the dict take. A form without a row (TERM, TASSIGN,
 * TILE, TILE_INS_ATTRS, FLAG, NONE, the region forms written as statements) reads
 * positional operands and the default types, a lone literal as `value`, `<X>` as `arg`. */
static const struct form_parse {
	int (*operands)(cust *c);
	int (*types)(cust *c);
	const char *lit_name, *angle_name;
} form_parse[IR_FORM_COUNT] = {
	[IR_FORM_CALL] = {ops_positional, types_default, "callee", "arg"},
	[IR_FORM_COND] = {ops_cond, types_cond, "value", "arg"},
	[IR_FORM_CONST] = {ops_positional, types_const, "value", "arg"},
	[IR_FORM_ARITH] = {ops_positional, types_arith, "value", "arg"},
	[IR_FORM_CMPI] = {ops_positional, types_cmpi, "value", "arg"},
	[IR_FORM_CAST] = {ops_positional, types_cast, "value", "arg"},
	[IR_FORM_VIEW] = {ops_view, types_result, "value", "arg"},
	[IR_FORM_VIEW_FROM] = {ops_view, types_view_from, "value", "arg"},
	[IR_FORM_KWOPS] = {ops_kwops, types_result, "value", "arg"},
	[IR_FORM_BARRIER] = {ops_positional, types_default, "pipe", "pipe"},
	[IR_FORM_SYNC] = {ops_positional, types_default, "value", "arg"},
	[IR_FORM_PTRACC] = {ops_ptracc, types_ptracc, "value", "arg"},
	[IR_FORM_EVARR] = {ops_evarr, types_evarr, "value", "arg"},
	[IR_FORM_QUERY] = {ops_positional, types_result, "value", "arg"},
	[IR_FORM_LEAD] = {ops_positional, types_lead, "value", "arg"},
};
static const struct form_parse form_parse_default = {ops_positional, types_default, "value",
						     "arg"};

/* Sorts the pieces of one statement into `s`; -1 after reporting a misplaced piece. */
static int classify(fe_parser *p, const char *name, unsigned piece0, shape *s)
{
	unsigned i;
	memset(s, 0, sizeof *s);
	s->op0 = p->uses.n;
	for (i = piece0; i < p->pieces.n; i++) {
		fe_piece *pc = &p->pieces.a[i];
		switch (pc->kind) {
		case FE_P_OPERAND:
			if (!s->noperand)
				s->op0 = pc->v0;
			if (s->ins || s->nkw || s->colon) {
				ir_error(p->ctx, pc->loc, "unexpected operand in '%s'", name);
				return -1;
			}
			s->noperand++;
			break;
		case FE_P_WORD: s->word = pc; break;
		case FE_P_INS:
			if (s->ins) {
				ir_error(p->ctx, pc->loc, "duplicate ins(...) in '%s'", name);
				return -1;
			}
			s->ins = pc;
			break;
		case FE_P_OUTS:
			if (s->outs) {
				ir_error(p->ctx, pc->loc, "duplicate outs(...) in '%s'", name);
				return -1;
			}
			s->outs = pc;
			break;
		case FE_P_KWLIST:
			if (pc->key.len == 1 && pc->key.s[0] == '(') {
				s->call = pc;
				break;
			}
			/* fallthrough */
		case FE_P_KWVAL:
			if (s->nkw == 8) {
				ir_error(p->ctx, pc->loc, "too many keyword operands in '%s'", name);
				return -1;
			}
			s->kw[s->nkw++] = pc;
			break;
		case FE_P_ATTRS:
		case FE_P_PROPS:
			s->dict = s->dict ? s->dict : pc->attr;
			if (s->dict != pc->attr) {
				/* two dicts: merge into one */
				unsigned k, n0 = p->named.n;
				for (k = 0; k < s->dict->u.dict.n; k++)
					FE_PUSH(p, p->named, s->dict->u.dict.entries[k]);
				for (k = 0; k < pc->attr->u.dict.n; k++)
					FE_PUSH(p, p->named, pc->attr->u.dict.entries[k]);
				s->dict = fe_dict(p, n0, pc->loc);
			}
			break;
		case FE_P_COLON: s->colon = pc; break;
		case FE_P_ARROW: s->arrow = pc; break;
		case FE_P_TO: s->to = pc; break;
		case FE_P_BRACKET: s->bracket = pc; break;
		case FE_P_ANGLE: s->angle = pc; break;
		case FE_P_ATTR:
			if (!pc->attr)
				return -1; /* reported where it was read */
			if (s->lit) {
				ir_error(p->ctx, pc->loc, "unexpected attribute in '%s'", name);
				return -1;
			}
			s->lit = pc;
			break;
		}
	}
	return 0;
}

void fe_custom_name(fe_parser *p, fe_tok name)
{
	const char *n = full_name(p, name);
	if (ir_opcode_lookup(n, strlen(n)) == IR_OP_UNKNOWN)
		p->unknown_op = name;
	else
		p->unknown_op.len = 0;
}

static void unknown_op(fe_parser *p, fe_tok opname, const char *name)
{
	/* like MLIR: only known ops have a custom form; others use the generic form */
	ir_error(p->ctx, opname.loc, "custom op '%s' is unknown (use the generic form \"%s\"(...) : (...) -> (...))",
		 name, name);
}

int fe_unknown_op_error(fe_parser *p)
{
	if (!p->unknown_op.len)
		return 0;
	unknown_op(p, p->unknown_op, full_name(p, p->unknown_op));
	p->unknown_op.len = 0;
	return 1;
}

ir_op *fe_build_custom(fe_parser *p, fe_tok opname, unsigned piece0, unsigned def0,
		       unsigned use0, unsigned type0)
{
	cust c;
	unsigned ndefs = defs_since(p, def0), nres = count_defs(p, def0, ndefs), i;
	shape *s = &c.s;
	const struct form_parse *f;
	ir_op *op;
	(void)type0;

	memset(&c, 0, sizeof c);
	c.p = p;
	c.opname = opname;
	c.name = full_name(p, opname);
	c.code = ir_opcode_interned(c.name); /* full_name interns */
	c.use0 = use0;
	p->unknown_op.len = 0;
	if (c.code == IR_OP_UNKNOWN) {
		unknown_op(p, opname, c.name);
		return NULL;
	}
	c.d = ir_opdef_get(c.code);
	if (c.d->form == IR_FORM_PIPE) /* the cross-core ops: frontend/mixed.c */
		return fe_build_pipe(p, opname, c.name, piece0, def0);
	if (classify(p, c.name, piece0, s))
		return NULL;
	if (s->call && (s->call->tn || s->call->attr)) {
		ir_error(p->ctx, s->call->loc, "unexpected types or keys in '(...)' of '%s'", c.name);
		return NULL;
	}
	if (!uses_ok(p, use0, p->uses.n - use0))
		return NULL;
	if (s->ins && check_group(p, s->ins, "ins"))
		return NULL;
	if (s->outs && check_group(p, s->outs, "outs"))
		return NULL;
	if (s->ins && s->ins->attr) {
		if (s->dict) {
			unsigned k, n0 = p->named.n;
			for (k = 0; k < s->dict->u.dict.n; k++)
				FE_PUSH(p, p->named, s->dict->u.dict.entries[k]);
			for (k = 0; k < s->ins->attr->u.dict.n; k++)
				FE_PUSH(p, p->named, s->ins->attr->u.dict.entries[k]);
			s->dict = fe_dict(p, n0, s->ins->loc);
		} else {
			s->dict = s->ins->attr;
		}
	}

	/* the form's routine: operands, types, attributes outside the dict */
	p->vals.n = 0;
	c.nres = nres;
	f = form_parse[c.d->form].operands ? &form_parse[c.d->form] : &form_parse_default;
	if (f->operands(&c))
		return NULL;
	c.ops = p->vals.a;
	c.nops = p->vals.n;
	c.ct = s->colon ? s->colon->tn : 0;
	c.cty = s->colon ? p->types.a + s->colon->t0 : NULL;
	c.fn = c.ct == 1 && c.cty[0]->kind == IR_TYPE_FUNC && !s->arrow ? c.cty[0] : NULL;
	if (f->types(&c) || extras(&c, f->lit_name, f->angle_name))
		return NULL;
	if (tok_is(opname, "memref.alloc") && memref_alloc_check(&c))
		return NULL;
	if (c.code == IR_OP_MAKE_TENSOR_VIEW && c.nrt == 1)
		set_result(&c, legacy_view_rank(p, c.rtypes[0], c.nops > 1 ? (c.nops - 1) / 2 : 0));

	if (nres != c.nrt) {
		ir_error(p->ctx, ndefs ? p->defs.a[def0].loc : opname.loc,
			 "operation '%s' defines %u results but %u %s given", c.name, c.nrt, nres,
			 nres == 1 ? "name was" : "names were");
		return NULL;
	}
	op = ir_op_create(p->ctx, c.name, opname.loc, p->vals.a, p->vals.n, c.rtypes, c.nrt,
			  s->dict, 0);
	for (i = 0; i < c.nextra; i++)
		if (c.extra[i])
			ir_op_set_attr(p->ctx, op, c.extra_name[i], c.extra[i]);
	define_results(p, op, def0, ndefs);
	return op;
}
