/* scope.c: the parser's value scopes (one hash table per isolated region, names
 * released when their region closes, as MLIR does) and the block being filled: the
 * pieces every builder of the frontend uses (build.c, build_forms.c, memref.c), in a
 * file of their own below them. */
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

/* ---- scopes ------------------------------------------------------------------ */

static fe_sym *slot(fe_scope *s, const char *name)
{
	size_t i = ir_hash_ptr(name) & (s->cap - 1);
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

void fe_scope_push(fe_parser *p)
{
	fe_scope *s = ir_xcalloc(1, sizeof *s);
	s->outer = p->scope;
	p->scope = s;
	scope_grow(s);
}

void fe_scope_pop(fe_parser *p)
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

