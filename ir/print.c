/* print.c: the printers. The custom form is the syntax the frontend reads (PTOAS's
 * spellings: keyed tile_buf types, DPS tile ops as `ins(...) outs(...)` with tcvt's
 * attributes inside ins, tile SSA ops as `%d = pto.tcvt %s {...} : T -> T`), one print
 * routine per syntax form of ops.def (print_forms.c; frontend/build_forms.c parses
 * them); any op whose shape does not fit its form prints in MLIR's generic form, so every module
 * round-trips. The generic form (opts->generic) prints every op as
 * `"name"(%a) ({...}) {attrs} : (T) -> (R)`, which mlir-opt accepts.
 *
 * Names: a value keeps its source name when that name is free in its scope (names
 * are per isolated region and released when their region closes, as in the parser),
 * else it gets the first free `name_N`; unnamed values get `%N` / `%argN`. Output is
 * buffered and written through the caller's ptoc_write_fn in large chunks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/pipe.h"
#include "ir/print.h"

/* ---- types ------------------------------------------------------------------- */

static void pr_dim(wr *w, int64_t d)
{
	if (d == IR_DYN)
		putc_(w, '?');
	else
		put_i64(w, d);
}

void pr_fn_results(wr *w, const ir_type *const *out, unsigned n)
{
	unsigned i;
	if (n == 1 && out[0]->kind != IR_TYPE_FUNC) {
		pr_type(w, out[0]);
		return;
	}
	putc_(w, '(');
	for (i = 0; i < n; i++) {
		if (i)
			puts_(w, ", ");
		pr_type(w, out[i]);
	}
	putc_(w, ')');
}

/* The element type inside a pto type's body: always ptoc's own name. */
static void pr_body_type(wr *w, const ir_type *t)
{
	int mlir = w->mlir;
	w->mlir = 0;
	pr_type(w, t);
	w->mlir = mlir;
}

void pr_type(wr *w, const ir_type *t)
{
	unsigned i;
	if (!t) {
		puts_(w, "<<null type>>");
		return;
	}
	switch (t->kind) {
	case IR_TYPE_NONE: puts_(w, "none"); break;
	case IR_TYPE_INDEX: puts_(w, "index"); break;
	case IR_TYPE_INT:
		puts_(w, t->u.i.signedness == IR_INT_SIGNED ? "si"
			 : t->u.i.signedness == IR_INT_UNSIGNED ? "ui" : "i");
		put_u(w, t->u.i.bits);
		break;
	case IR_TYPE_FLOAT:
		if (w->mlir && !ir_float_is_mlir_builtin(t->u.f.kind))
			puts_(w, "!pto.");
		puts_(w, t->u.f.kind == IR_F64 ? "f64" : ptort_type_name((ptort_type)t->u.f.kind));
		break;
	case IR_TYPE_FUNC:
		putc_(w, '(');
		for (i = 0; i < t->u.fn.nin; i++) {
			if (i)
				puts_(w, ", ");
			pr_type(w, t->u.fn.in[i]);
		}
		puts_(w, ") -> ");
		pr_fn_results(w, t->u.fn.out, t->u.fn.nout);
		break;
	case IR_TYPE_PTR:
		puts_(w, "!pto.ptr<");
		pr_body_type(w, t->u.ptr.elem);
		putc_(w, '>');
		break;
	case IR_TYPE_TENSOR_VIEW:
	case IR_TYPE_PART_VIEW:
	case IR_TYPE_TILE:
		puts_(w, t->kind == IR_TYPE_TENSOR_VIEW ? "!pto.tensor_view<"
			 : t->kind == IR_TYPE_PART_VIEW ? "!pto.partition_tensor_view<" : "!pto.tile<");
		for (i = 0; i < t->u.shaped.rank; i++) {
			pr_dim(w, t->u.shaped.dims[i]);
			putc_(w, 'x');
		}
		pr_body_type(w, t->u.shaped.elem);
		putc_(w, '>');
		break;
	case IR_TYPE_TILE_BUF:
		puts_(w, "!pto.tile_buf<loc=");
		puts_(w, ir_mem_name(t->u.tb.mem));
		puts_(w, ", dtype=");
		pr_body_type(w, t->u.tb.elem);
		puts_(w, ", rows=");
		put_i64(w, t->u.tb.rows);
		puts_(w, ", cols=");
		put_i64(w, t->u.tb.cols);
		puts_(w, ", v_row=");
		pr_dim(w, t->u.tb.v_row);
		puts_(w, ", v_col=");
		pr_dim(w, t->u.tb.v_col);
		puts_(w, ", blayout=");
		puts_(w, ir_blayout_names[t->u.tb.blayout < IR_BLAYOUT_COUNT ? t->u.tb.blayout : 0]);
		puts_(w, ", slayout=");
		puts_(w, ir_slayout_names[t->u.tb.slayout < IR_SLAYOUT_COUNT ? t->u.tb.slayout : 0]);
		puts_(w, ", fractal=");
		put_i64(w, t->u.tb.fractal);
		puts_(w, ", pad=");
		put_i64(w, t->u.tb.pad);
		if (t->u.tb.compact) {
			puts_(w, ", compact=");
			put_i64(w, t->u.tb.compact);
		}
		putc_(w, '>');
		break;
	case IR_TYPE_OPAQUE:
		puts_(w, t->u.opaque.text);
		break;
	}
}

/* ---- attributes ----------------------------------------------------------------- */

int bare_id(const char *s, size_t n)
{
	size_t i;
	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return 0;
	for (i = 1; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '$' || s[i] == '.'))
			return 0;
	return 1;
}

void pr_string(wr *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, run = 0;
	putc_(w, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			run++;
			continue;
		}
		put(w, s + i - run, run);
		run = 0;
		putc_(w, '\\');
		if (c == '"' || c == '\\') {
			putc_(w, (char)c);
		} else if (c == '\n') {
			putc_(w, 'n');
		} else if (c == '\t') {
			putc_(w, 't');
		} else {
			putc_(w, hex[c >> 4]);
			putc_(w, hex[c & 15]);
		}
	}
	put(w, s + n - run, run);
	putc_(w, '"');
}

void pr_float(wr *w, double v, const ir_type *t)
{
	char b[40];
	int prec;
	if (!isfinite(v)) {
		uint64_t bits;
		char h[24];
		ir_attr tmp;
		memset(&tmp, 0, sizeof tmp);
		tmp.kind = IR_ATTR_FLOAT;
		tmp.u.f.v = v;
		tmp.u.f.type = t;
		if (ir_float_attr_bits(&tmp, t, &bits)) /* no type: f64 */
			memcpy(&bits, &v, 8);
		snprintf(h, sizeof h, "0x%llX", (unsigned long long)bits);
		puts_(w, h);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(b, sizeof b, "%.*g", prec, v);
		if (strtod(b, NULL) == v)
			break;
	}
	if (!strpbrk(b, ".e")) {
		strcat(b, ".0");
	} else if (!strchr(b, '.')) {
		/* 1e+20 -> 1.0e+20 */
		char *e = strchr(b, 'e');
		memmove(e + 2, e, strlen(e) + 1);
		e[0] = '.';
		e[1] = '0';
	}
	puts_(w, b);
}

static void pr_named_key(wr *w, const char *name)
{
	size_t n = strlen(name);
	if (bare_id(name, n))
		put(w, name, n);
	else
		pr_string(w, name, n);
}

static void pr_dict_body(wr *w, const ir_attr *d, const char *const *skip, unsigned nskip)
{
	unsigned i, k, first = 1;
	for (i = 0; i < d->u.dict.n; i++) {
		const ir_named_attr *e = &d->u.dict.entries[i];
		for (k = 0; k < nskip; k++)
			if (!strcmp(e->name, skip[k]))
				break;
		if (k < nskip)
			continue;
		if (!first)
			puts_(w, ", ");
		first = 0;
		pr_named_key(w, e->name);
		if (e->value->kind != IR_ATTR_UNIT) {
			puts_(w, " = ");
			pr_attr(w, e->value);
		}
	}
}

void pr_attr(wr *w, const ir_attr *a)
{
	unsigned i;
	if (!a) {
		puts_(w, "unit");
		return;
	}
	switch (a->kind) {
	case IR_ATTR_UNIT: puts_(w, "unit"); break;
	case IR_ATTR_BOOL: puts_(w, a->u.i.v ? "true" : "false"); break;
	case IR_ATTR_INT:
		if (a->u.i.type && a->u.i.type->kind == IR_TYPE_FLOAT) {
			char h[24];
			snprintf(h, sizeof h, "0x%llX", (unsigned long long)(uint64_t)a->u.i.v);
			puts_(w, h);
		} else {
			put_i64(w, a->u.i.v);
		}
		if (a->u.i.type) {
			puts_(w, " : ");
			pr_type(w, a->u.i.type);
		}
		break;
	case IR_ATTR_FLOAT:
		pr_float(w, a->u.f.v, a->u.f.type);
		if (a->u.f.type) {
			puts_(w, " : ");
			pr_type(w, a->u.f.type);
		}
		break;
	case IR_ATTR_STRING: pr_string(w, a->u.str.s, a->u.str.len); break;
	case IR_ATTR_TYPE: pr_type(w, a->u.type); break;
	case IR_ATTR_ARRAY:
		putc_(w, '[');
		for (i = 0; i < a->u.array.n; i++) {
			if (i)
				puts_(w, ", ");
			pr_attr(w, a->u.array.elems[i]);
		}
		putc_(w, ']');
		break;
	case IR_ATTR_DENSE:
		puts_(w, "array<");
		pr_type(w, a->u.dense.elem);
		for (i = 0; i < a->u.dense.n; i++) {
			puts_(w, i ? ", " : ": ");
			put_i64(w, a->u.dense.v[i]);
		}
		putc_(w, '>');
		break;
	case IR_ATTR_DICT:
		putc_(w, '{');
		pr_dict_body(w, a, NULL, 0);
		putc_(w, '}');
		break;
	case IR_ATTR_SYMBOL:
		putc_(w, '@');
		if (bare_id(a->u.str.s, a->u.str.len))
			put(w, a->u.str.s, a->u.str.len);
		else
			pr_string(w, a->u.str.s, a->u.str.len);
		break;
	case IR_ATTR_PTO:
		if (a->u.pto.style == IR_PTO_ANGLE) {
			puts_(w, "#pto<");
			puts_(w, a->u.pto.kind);
			if (a->u.pto.value[0]) {
				putc_(w, ' ');
				puts_(w, a->u.pto.value);
			}
			putc_(w, '>');
		} else {
			puts_(w, "#pto.");
			puts_(w, a->u.pto.kind);
			putc_(w, '<');
			puts_(w, a->u.pto.value);
			putc_(w, '>');
		}
		break;
	case IR_ATTR_OPAQUE: puts_(w, a->u.opaque.text); break;
	}
}

/* ---- names ------------------------------------------------------------------------ */

static nslot *nfind(nscope *s, const char *name)
{
	size_t i = ir_hash_ptr(name) & (s->cap - 1);
	while (s->tab[i].name && s->tab[i].name != name)
		i = (i + 1) & (s->cap - 1);
	return &s->tab[i];
}

static void ngrow(nscope *s)
{
	nslot *old = s->tab;
	unsigned oc = s->cap, i;
	s->cap = oc ? oc * 2 : 64;
	s->tab = ir_xcalloc(s->cap, sizeof *s->tab);
	for (i = 0; i < oc; i++)
		if (old[i].name)
			*nfind(s, old[i].name) = old[i];
	free(old);
}

static void vdel(pr *p, const ir_value *v);

void scope_push(pr *p)
{
	nscope *s = ir_xcalloc(1, sizeof *s);
	s->vmark = p->vlogn;
	s->outer = p->scope;
	p->scope = s;
	ngrow(s);
}

void scope_pop(pr *p)
{
	nscope *s = p->scope;
	p->scope = s->outer;
	while (p->vlogn > s->vmark)
		vdel(p, p->vlog[--p->vlogn]);
	free(s->tab);
	free(s->defs);
	free(s->marks);
	free(s);
}

void region_enter(pr *p)
{
	nscope *s = p->scope;
	if (s->nmarks == s->capmarks) {
		s->capmarks = s->capmarks ? s->capmarks * 2 : 16;
		s->marks = ir_xrealloc(s->marks, s->capmarks * sizeof *s->marks);
	}
	s->marks[s->nmarks++] = s->ndefs;
}

void region_leave(pr *p)
{
	nscope *s = p->scope;
	unsigned m = s->marks[--s->nmarks];
	while (s->ndefs > m)
		nfind(s, s->defs[--s->ndefs])->live = 0;
}

static int taken(pr *p, const char *name)
{
	nslot *e = nfind(p->scope, name);
	return e->name && e->live;
}

static void take(pr *p, const char *name)
{
	nscope *s = p->scope;
	nslot *e;
	if ((s->n + 1) * 2 > s->cap)
		ngrow(s);
	e = nfind(s, name);
	if (!e->name)
		s->n++;
	e->name = name;
	e->live = 1;
	if (s->ndefs == s->capdefs) {
		s->capdefs = s->capdefs ? s->capdefs * 2 : 64;
		s->defs = ir_xrealloc(s->defs, s->capdefs * sizeof *s->defs);
	}
	s->defs[s->ndefs++] = name;
}

static vslot *vfind(pr *p, const ir_value *v)
{
	size_t i = ir_hash_ptr(v) & (p->vcap - 1);
	while (p->vals[i].v && p->vals[i].v != v)
		i = (i + 1) & (p->vcap - 1);
	return &p->vals[i];
}

static void vput(pr *p, const ir_value *v, const char *name)
{
	vslot *e;
	if ((p->vn + 1) * 2 > p->vcap) {
		vslot *old = p->vals;
		unsigned oc = p->vcap, i;
		p->vcap = oc ? oc * 2 : 1024;
		p->vals = ir_xcalloc(p->vcap, sizeof *p->vals);
		for (i = 0; i < oc; i++)
			if (old[i].v)
				*vfind(p, old[i].v) = old[i];
		free(old);
	}
	e = vfind(p, v);
	if (!e->v) {
		p->vn++;
		if (p->vlogn == p->vlogcap) {
			p->vlogcap = p->vlogcap ? p->vlogcap * 2 : 256;
			p->vlog = ir_xrealloc(p->vlog, p->vlogcap * sizeof *p->vlog);
		}
		p->vlog[p->vlogn++] = v;
	}
	e->v = v;
	e->name = name;
}

/* Removes `v` from the table (linear probing: the entries after it that would not be
 * found past the hole move back into it). */
static void vdel(pr *p, const ir_value *v)
{
	size_t mask = p->vcap - 1, i = (size_t)(vfind(p, v) - p->vals), j, k;
	if (!p->vals[i].v)
		return;
	p->vals[i].v = NULL;
	p->vn--;
	for (j = (i + 1) & mask; p->vals[j].v; j = (j + 1) & mask) {
		k = ir_hash_ptr(p->vals[j].v) & mask; /* the entry's home slot */
		if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
			p->vals[i] = p->vals[j];
			p->vals[j].v = NULL;
			i = j;
		}
	}
}

static int good_hint(const char *s)
{
	size_t i, n = strlen(s);
	if (!n || n > 200)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '$' || s[i] == '.' ||
		      s[i] == '-'))
			return 0;
	return 1;
}

static int all_num(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Gives `v` its printed name (without '%') in the current scope. */
const char *name_value(pr *p, const ir_value *v, int is_arg)
{
	const char *n = NULL;
	char buf[256];
	unsigned k;
	if (v->name && good_hint(v->name) && !all_num(v->name)) {
		if (!taken(p, v->name)) {
			n = v->name;
		} else {
			for (k = 1;; k++) {
				snprintf(buf, sizeof buf, "%s_%u", v->name, k);
				n = ir_intern(p->ctx, buf, strlen(buf));
				if (!taken(p, n))
					break;
			}
		}
	} else {
		for (;;) {
			if (is_arg)
				snprintf(buf, sizeof buf, "arg%u", p->scope->next_arg++);
			else
				snprintf(buf, sizeof buf, "%u", p->scope->next_num++);
			n = ir_intern(p->ctx, buf, strlen(buf));
			if (!taken(p, n))
				break;
		}
	}
	take(p, n);
	vput(p, v, n);
	return n;
}

void pr_value(pr *p, const ir_value *v)
{
	vslot *e = p->vcap ? vfind(p, v) : NULL;
	const char *n = e && e->v ? e->name : name_value(p, v, v->def == NULL);
	putc_(&p->w, '%');
	puts_(&p->w, n);
}

/* ---- ops -------------------------------------------------------------------------- */

static void indent(pr *p, unsigned ind)
{
	static const char sp[] = "                                                                ";
	ind *= 2;
	while (ind > 64) {
		put(&p->w, sp, 64);
		ind -= 64;
	}
	put(&p->w, sp, ind);
}

void pr_values(pr *p, const ir_operand *ops, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_value(p, ops[i].value);
	}
}

void pr_types_of(pr *p, const ir_operand *ops, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_type(&p->w, ops[i].value->type);
	}
}

void pr_results(pr *p, const ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_results; i++)
		(void)name_value(p, &op->results[i], 0);
	for (i = 0; i < op->num_results; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_value(p, &op->results[i]);
	}
	if (op->num_results)
		puts_(&p->w, " = ");
}

/* ` loc("file":line:col)`, when locations are printed and `l` is known. */
static void pr_loc(pr *p, ir_loc l)
{
	if (!p->locs || !l.file)
		return;
	puts_(&p->w, " loc(");
	pr_string(&p->w, l.file, strlen(l.file));
	putc_(&p->w, ':');
	put_u(&p->w, l.line);
	putc_(&p->w, ':');
	put_u(&p->w, l.col);
	putc_(&p->w, ')');
}

void pr_block_args(pr *p, const ir_block *b, int with_types)
{
	unsigned i;
	for (i = 0; i < b->num_args; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_value(p, b->args[i]);
		if (with_types) {
			puts_(&p->w, ": ");
			pr_type(&p->w, b->args[i]->type);
			pr_loc(p, b->args[i]->loc);
		}
	}
}

static int is_implicit_yield(const ir_op *op)
{
	/* Only where the parser re-creates it: a yield of nothing for a parent without
	 * results (a bare `scf.yield` under an scf.if with results is an error to keep). */
	const ir_op *parent = op && op->block && op->block->region ? op->block->region->parent
								  : NULL;
	return op && op->code == IR_OP_SCF_YIELD && op->num_operands == 0 &&
	       !op->attrs->u.dict.n && (!parent || parent->num_results == 0);
}

/* Prints `{ ... }` of a region. `entry_args_shown`: the entry block's arguments are
 * printed by the op (func, for), so its label is omitted. */
void pr_region(pr *p, const ir_region *r, unsigned ind, int entry_args_shown,
		      int elide_yield, int isolated)
{
	const ir_block *b;
	unsigned bn = 0;
	if (isolated)
		scope_push(p);
	region_enter(p);
	puts_(&p->w, "{\n");
	/* name all block arguments first: blocks may refer to later blocks' args */
	for (b = r->first; b; b = b->next) {
		unsigned i;
		for (i = 0; i < b->num_args; i++)
			if (!p->vcap || !vfind(p, b->args[i])->v)
				(void)name_value(p, b->args[i], 1);
	}
	for (b = r->first; b; b = b->next, bn++) {
		const ir_op *op;
		int label = b != r->first || (b->num_args && !entry_args_shown);
		if (label) {
			char lb[32];
			indent(p, ind);
			snprintf(lb, sizeof lb, "^bb%u", bn);
			puts_(&p->w, lb);
			if (b->num_args) {
				putc_(&p->w, '(');
				pr_block_args(p, b, 1);
				putc_(&p->w, ')');
			}
			puts_(&p->w, ":\n");
		}
		for (op = b->first; op; op = op->next) {
			if (elide_yield && !p->generic && !op->next && !b->next && is_implicit_yield(op))
				break;
			pr_op(p, op, ind + 1);
		}
	}
	indent(p, ind);
	putc_(&p->w, '}');
	region_leave(p);
	if (isolated)
		scope_pop(p);
}

static int op_isolated(const ir_op *op)
{
	return op->code != IR_OP_UNKNOWN && (ir_opdef_get(op->code)->flags & IR_OPF_ISOLATED);
}

static void pr_generic(pr *p, const ir_op *op, unsigned ind)
{
	unsigned i;
	pr_results(p, op);
	pr_string(&p->w, op->name, strlen(op->name));
	putc_(&p->w, '(');
	pr_values(p, op->operands, op->num_operands);
	putc_(&p->w, ')');
	if (op->num_regions) {
		puts_(&p->w, " (");
		for (i = 0; i < op->num_regions; i++) {
			if (i)
				puts_(&p->w, ", ");
			pr_region(p, &op->regions[i], ind, 0, 0, op_isolated(op));
		}
		putc_(&p->w, ')');
	}
	if (op->attrs->u.dict.n) {
		putc_(&p->w, ' ');
		pr_attr(&p->w, op->attrs);
	}
	puts_(&p->w, " : (");
	pr_types_of(p, op->operands, op->num_operands);
	puts_(&p->w, ") -> ");
	if (op->num_results == 1 && op->results[0].type->kind != IR_TYPE_FUNC) {
		pr_type(&p->w, op->results[0].type);
	} else {
		putc_(&p->w, '(');
		for (i = 0; i < op->num_results; i++) {
			if (i)
				puts_(&p->w, ", ");
			pr_type(&p->w, op->results[i].type);
		}
		putc_(&p->w, ')');
	}
}

/* attrs other than `skip` as ` {...}`; returns how many were printed */
void pr_extra_attrs(pr *p, const ir_op *op, const char *const *skip, unsigned nskip,
			   const char *prefix)
{
	unsigned i, k, n = 0;
	for (i = 0; i < op->attrs->u.dict.n; i++) {
		for (k = 0; k < nskip; k++)
			if (!strcmp(op->attrs->u.dict.entries[i].name, skip[k]))
				break;
		if (k == nskip)
			n++;
	}
	if (!n)
		return;
	puts_(&p->w, prefix);
	putc_(&p->w, '{');
	pr_dict_body(&p->w, op->attrs, skip, nskip);
	putc_(&p->w, '}');
}

unsigned nattrs(const ir_op *op)
{
	return op->attrs->u.dict.n;
}

int same_types(const ir_op *op, unsigned from, const ir_type *t)
{
	unsigned i;
	for (i = from; i < op->num_operands; i++)
		if (op->operands[i].value->type != t)
			return 0;
	return 1;
}

const int64_t *segments(const ir_op *op, unsigned n)
{
	const ir_attr *a = ir_op_get_attr(op, "operandSegmentSizes");
	int64_t sum = 0;
	unsigned i;
	if (!a || a->kind != IR_ATTR_DENSE || a->u.dense.n != n)
		return NULL;
	for (i = 0; i < n; i++) {
		if (a->u.dense.v[i] < 0)
			return NULL;
		sum += a->u.dense.v[i];
	}
	return sum == op->num_operands ? a->u.dense.v : NULL;
}

const char *const seg_skip[] = {"operandSegmentSizes"};

void pr_list(pr *p, const ir_operand *ops, unsigned n)
{
	putc_(&p->w, '[');
	pr_values(p, ops, n);
	putc_(&p->w, ']');
}

void pr_op(pr *p, const ir_op *op, unsigned ind)
{
	indent(p, ind);
	/* the custom form prints nothing before deciding, except through pr_results after
	 * every check passed; a 0 return never leaves partial text */
	if (p->generic || !p->custom(p, op, ind))
		pr_generic(p, op, ind);
	pr_loc(p, op->loc);
	if (p->target && (ir_opdef_get(op->code)->flags & IR_OPF_LEVEL3)) {
		int pipe = ir_op_pipe(op, p->target);
		if (pipe >= 0) {
			puts_(&p->w, "  // ");
			puts_(&p->w, ptort_pipe_name((ptort_pipe)pipe));
		}
	}
	putc_(&p->w, '\n');
}

/* ---- entry points ------------------------------------------------------------------- */

/* One type (t) or one attribute (a, when t is NULL) through `out`. */
static int print_one(const ir_type *t, const ir_attr *a, const ir_printer_opts *opts,
		     ptoc_write_fn out, void *user)
{
	wr *w = ir_xcalloc(1, sizeof *w);
	int err;
	w->out = out;
	w->user = user;
	w->mlir = opts && opts->generic;
	if (t || !a)
		pr_type(w, t);
	else
		pr_attr(w, a);
	flush(w);
	err = w->err;
	free(w);
	return err;
}

int ir_print_type(const ir_type *t, const ir_printer_opts *opts, ptoc_write_fn out, void *user)
{
	return print_one(t, NULL, opts, out, user);
}

int ir_print_attr(const ir_attr *a, const ir_printer_opts *opts, ptoc_write_fn out, void *user)
{
	return print_one(NULL, a, opts, out, user);
}

const char *ir_type_str(const ir_type *t, char *buf, size_t cap)
{
	ptoc_buf b;
	ptoc_buf_fixed(&b, buf, cap);
	if (t)
		ir_print_type(t, NULL, ptoc_buf_write, &b);
	else
		ptoc_buf_puts(&b, "<null>");
	return buf;
}
