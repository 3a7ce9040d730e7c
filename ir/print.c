/* print.c: the printers. The custom form is the syntax the frontend reads (PTOAS's
 * spellings: keyed tile_buf types, DPS tile ops as `ins(...) outs(...)` with tcvt's
 * attributes inside ins, tile SSA ops as `%d = pto.tcvt %s {...} : T -> T`), one print
 * routine per syntax form of ops.def (frontend/build.c parses them); any op whose
 * shape does not fit its form prints in MLIR's generic form, so every module
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

/* ---- buffered output -------------------------------------------------------- */

typedef struct wr {
	ptoc_write_fn out;
	void *user;
	int err;
	int mlir; /* element types MLIR lacks as `!pto.NAME` (generic form, outside pto types) */
	size_t n;
	char buf[1 << 16];
} wr;

static void flush(wr *w)
{
	if (w->n && !w->err)
		w->err = w->out(w->user, w->buf, w->n);
	w->n = 0;
}

static void put(wr *w, const char *s, size_t n)
{
	if (n > sizeof w->buf - w->n) {
		flush(w);
		if (n > sizeof w->buf) {
			if (!w->err)
				w->err = w->out(w->user, s, n);
			return;
		}
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

static void puts_(wr *w, const char *s)
{
	put(w, s, strlen(s));
}

static void putc_(wr *w, char c)
{
	if (w->n == sizeof w->buf)
		flush(w);
	w->buf[w->n++] = c;
}

static void put_i64(wr *w, int64_t v)
{
	char b[24];
	int n = 0;
	uint64_t x = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		b[n++] = (char)('0' + x % 10);
	while ((x /= 10));
	if (v < 0)
		putc_(w, '-');
	while (n)
		putc_(w, b[--n]);
}

static void put_u(wr *w, uint64_t x)
{
	put_i64(w, (int64_t)(x > INT64_MAX ? 0 : x));
}

/* ---- types ------------------------------------------------------------------- */

static void pr_type(wr *w, const ir_type *t);

static void pr_dim(wr *w, int64_t d)
{
	if (d == IR_DYN)
		putc_(w, '?');
	else
		put_i64(w, d);
}

static void pr_fn_results(wr *w, const ir_type *const *out, unsigned n)
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

static void pr_type(wr *w, const ir_type *t)
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

static int bare_id(const char *s, size_t n)
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

static void pr_string(wr *w, const char *s, size_t n)
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

static void pr_attr(wr *w, const ir_attr *a);

static void pr_float(wr *w, double v, const ir_type *t)
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

static void pr_attr(wr *w, const ir_attr *a)
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

typedef struct nslot { const char *name; int live; } nslot;
typedef struct vslot { const ir_value *v; const char *name; } vslot;

typedef struct nscope {
	nslot *tab;
	unsigned cap, n;
	const char **defs;
	unsigned ndefs, capdefs;
	unsigned *marks;
	unsigned nmarks, capmarks;
	unsigned next_num, next_arg;
	unsigned vmark;  /* pr.vlog's length when the scope began */
	struct nscope *outer;
} nscope;

typedef struct pr {
	wr w;
	ir_ctx *ctx;
	int generic;
	int locs;      /* locations after ops and block arguments */
	const struct target *target; /* `// PIPE_X` after each instruction (NULL: none) */
	nscope *scope;
	vslot *vals;
	unsigned vcap, vn;
	/* the values named, in order: a scope's are dropped from `vals` when it ends, so
	 * the table holds one function's values, not the module's (docs/performance.md) */
	const ir_value **vlog;
	unsigned vlogn, vlogcap;
	unsigned ind;  /* the indentation of the op being printed (the region forms) */
	char tmp[256];
} pr;

static size_t hp(const void *p)
{
	uintptr_t x = (uintptr_t)p;
	x ^= x >> 17;
	x *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(x ^ (x >> 29));
}

static nslot *nfind(nscope *s, const char *name)
{
	size_t i = hp(name) & (s->cap - 1);
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

static void scope_push(pr *p)
{
	nscope *s = ir_xcalloc(1, sizeof *s);
	s->vmark = p->vlogn;
	s->outer = p->scope;
	p->scope = s;
	ngrow(s);
}

static void scope_pop(pr *p)
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

static void region_enter(pr *p)
{
	nscope *s = p->scope;
	if (s->nmarks == s->capmarks) {
		s->capmarks = s->capmarks ? s->capmarks * 2 : 16;
		s->marks = ir_xrealloc(s->marks, s->capmarks * sizeof *s->marks);
	}
	s->marks[s->nmarks++] = s->ndefs;
}

static void region_leave(pr *p)
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
	size_t i = hp(v) & (p->vcap - 1);
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
		k = hp(p->vals[j].v) & mask; /* the entry's home slot */
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
static const char *name_value(pr *p, const ir_value *v, int is_arg)
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

static void pr_value(pr *p, const ir_value *v)
{
	vslot *e = p->vcap ? vfind(p, v) : NULL;
	const char *n = e && e->v ? e->name : name_value(p, v, v->def == NULL);
	putc_(&p->w, '%');
	puts_(&p->w, n);
}

/* ---- ops -------------------------------------------------------------------------- */

static void pr_op(pr *p, const ir_op *op, unsigned ind);

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

static void pr_values(pr *p, const ir_operand *ops, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_value(p, ops[i].value);
	}
}

static void pr_types_of(pr *p, const ir_operand *ops, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_type(&p->w, ops[i].value->type);
	}
}

static void pr_results(pr *p, const ir_op *op)
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

static void pr_block_args(pr *p, const ir_block *b, int with_types)
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
static void pr_region(pr *p, const ir_region *r, unsigned ind, int entry_args_shown,
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
static void pr_extra_attrs(pr *p, const ir_op *op, const char *const *skip, unsigned nskip,
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

static unsigned nattrs(const ir_op *op)
{
	return op->attrs->u.dict.n;
}

static int same_types(const ir_op *op, unsigned from, const ir_type *t)
{
	unsigned i;
	for (i = from; i < op->num_operands; i++)
		if (op->operands[i].value->type != t)
			return 0;
	return 1;
}

static const int64_t *segments(const ir_op *op, unsigned n)
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

static const char *const seg_skip[] = {"operandSegmentSizes"};

static void pr_list(pr *p, const ir_operand *ops, unsigned n)
{
	putc_(&p->w, '[');
	pr_values(p, ops, n);
	putc_(&p->w, ']');
}

/* ---- the custom forms (ir.h: ir_form), one print routine each --------------------
 *
 * Each returns 0 when `op` does not fit its form, having printed nothing (the caller
 * then prints the generic form); pr_results runs only after every check passed. */

typedef int (*pr_form_fn)(pr *p, const ir_op *op);

static void pr_sym(wr *w, const ir_attr *sym)
{
	if (bare_id(sym->u.str.s, sym->u.str.len))
		put(w, sym->u.str.s, sym->u.str.len);
	else
		pr_string(w, sym->u.str.s, sym->u.str.len);
}

/* `%r = name ` */
static void pr_head(pr *p, const ir_op *op)
{
	pr_results(p, op);
	puts_(&p->w, op->name);
	putc_(&p->w, ' ');
}

static void pr_result_types(pr *p, const ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_results; i++) {
		if (i)
			puts_(&p->w, ", ");
		pr_type(&p->w, op->results[i].type);
	}
}

static int pr_module(pr *p, const ir_op *op)
{
	unsigned ind = p->ind;
	const ir_attr *sym = ir_op_get_attr(op, "sym_name");
	static const char *const skip[] = {"sym_name"};
	wr *w = &p->w;
	if (op->num_regions != 1 || op->num_operands || op->num_results ||
	    (sym && sym->kind != IR_ATTR_STRING) || !op->regions[0].first ||
	    op->regions[0].first->next || op->regions[0].first->num_args)
		return 0;
	puts_(w, "module");
	if (sym) {
		puts_(w, " @");
		pr_sym(w, sym);
	}
	pr_extra_attrs(p, op, skip, 1, " attributes ");
	putc_(w, ' ');
	pr_region(p, &op->regions[0], ind, 0, 0, 1);
	return 1;
}

static int pr_func(pr *p, const ir_op *op)
{
	unsigned ind = p->ind;
	const ir_attr *sym = ir_op_get_attr(op, "sym_name");
	const ir_attr *ft = ir_op_get_attr(op, "function_type");
	const ir_attr *vis = ir_op_get_attr(op, "sym_visibility");
	static const char *const skip[] = {"sym_name", "function_type", "sym_visibility"};
	const ir_type *fn;
	const ir_block *entry = op->num_regions == 1 ? op->regions[0].first : NULL;
	wr *w = &p->w;
	unsigned i;
	if (!sym || sym->kind != IR_ATTR_STRING || !ft || ft->kind != IR_ATTR_TYPE ||
	    ft->u.type->kind != IR_TYPE_FUNC || op->num_regions != 1 || op->num_operands ||
	    op->num_results || (vis && (vis->kind != IR_ATTR_STRING || !bare_id(vis->u.str.s, vis->u.str.len))))
		return 0;
	fn = ft->u.type;
	if (entry) {
		if (entry->num_args != fn->u.fn.nin)
			return 0;
		for (i = 0; i < fn->u.fn.nin; i++)
			if (entry->args[i]->type != fn->u.fn.in[i])
				return 0;
	}
	puts_(w, "func.func ");
	if (vis) {
		put(w, vis->u.str.s, vis->u.str.len);
		putc_(w, ' ');
	}
	putc_(w, '@');
	pr_sym(w, sym);
	putc_(w, '(');
	if (entry) {
		scope_push(p);
		region_enter(p);
		for (i = 0; i < entry->num_args; i++)
			(void)name_value(p, entry->args[i], 1);
		pr_block_args(p, entry, 1);
	} else {
		for (i = 0; i < fn->u.fn.nin; i++) {
			if (i)
				puts_(w, ", ");
			pr_type(w, fn->u.fn.in[i]);
		}
	}
	putc_(w, ')');
	if (fn->u.fn.nout) {
		puts_(w, " -> ");
		pr_fn_results(w, fn->u.fn.out, fn->u.fn.nout);
	}
	pr_extra_attrs(p, op, skip, 3, " attributes ");
	if (entry) {
		putc_(w, ' ');
		/* args already named in this scope: print the body without a new scope */
		pr_region(p, &op->regions[0], ind, 1, 0, 0);
		region_leave(p);
		scope_pop(p);
	}
	return 1;
}

static int pr_for(pr *p, const ir_op *op)
{
	unsigned ind = p->ind;
	const ir_block *b = op->num_regions == 1 ? op->regions[0].first : NULL;
	unsigned nit = op->num_operands >= 3 ? op->num_operands - 3 : 0, i;
	wr *w = &p->w;
	if (!b || nattrs(op) || op->num_operands < 3 || op->num_results != nit ||
	    b->num_args != 1 + nit)
		return 0;
	for (i = 0; i < nit; i++)
		if (op->results[i].type != b->args[1 + i]->type)
			return 0;
	pr_results(p, op);
	puts_(w, "scf.for ");
	region_enter(p);
	for (i = 0; i < b->num_args; i++)
		(void)name_value(p, b->args[i], 1);
	pr_value(p, b->args[0]);
	puts_(w, " = ");
	pr_values(p, op->operands, 1);
	puts_(w, " to ");
	pr_values(p, op->operands + 1, 1);
	puts_(w, " step ");
	pr_values(p, op->operands + 2, 1);
	if (nit) {
		puts_(w, " iter_args(");
		for (i = 0; i < nit; i++) {
			if (i)
				puts_(w, ", ");
			pr_value(p, b->args[1 + i]);
			puts_(w, " = ");
			pr_value(p, op->operands[3 + i].value);
		}
		puts_(w, ") -> (");
		pr_result_types(p, op);
		putc_(w, ')');
	}
	putc_(w, ' ');
	pr_region(p, &op->regions[0], ind, 1, 1, 0);
	region_leave(p);
	return 1;
}

static int pr_if(pr *p, const ir_op *op)
{
	unsigned ind = p->ind;
	wr *w = &p->w;
	if (nattrs(op) || op->num_operands != 1 || op->num_regions != 2 ||
	    !op->regions[0].first || (op->regions[0].first->num_args) ||
	    (op->regions[1].first && op->regions[1].first->num_args))
		return 0;
	pr_results(p, op);
	puts_(w, "scf.if ");
	pr_values(p, op->operands, 1);
	if (op->num_results) {
		puts_(w, " -> (");
		pr_result_types(p, op);
		putc_(w, ')');
	}
	putc_(w, ' ');
	pr_region(p, &op->regions[0], ind, 0, 1, 0);
	if (op->regions[1].first) {
		puts_(w, " else ");
		pr_region(p, &op->regions[1], ind, 0, 1, 0);
	}
	return 1;
}

/* scf.while (%a = %x, ...) : (T, ...) -> (R, ...) { before } do { ^bb0(...): after } */
static int pr_while(pr *p, const ir_op *op)
{
	unsigned ind = p->ind, i;
	const ir_block *b = op->num_regions == 2 ? op->regions[0].first : NULL;
	wr *w = &p->w;
	if (!b || nattrs(op) || b->num_args != op->num_operands || b->next ||
	    !op->regions[1].first)
		return 0;
	for (i = 0; i < b->num_args; i++)
		if (b->args[i]->type != op->operands[i].value->type)
			return 0;
	pr_results(p, op);
	puts_(w, "scf.while ");
	region_enter(p);
	for (i = 0; i < b->num_args; i++)
		(void)name_value(p, b->args[i], 1);
	if (op->num_operands) {
		putc_(w, '(');
		for (i = 0; i < b->num_args; i++) {
			if (i)
				puts_(w, ", ");
			pr_value(p, b->args[i]);
			puts_(w, " = ");
			pr_value(p, op->operands[i].value);
		}
		puts_(w, ") ");
	}
	puts_(w, ": (");
	pr_types_of(p, op->operands, op->num_operands);
	puts_(w, ") -> (");
	pr_result_types(p, op);
	puts_(w, ") ");
	pr_region(p, &op->regions[0], ind, 1, 0, 0);
	region_leave(p);
	puts_(w, " do ");
	pr_region(p, &op->regions[1], ind, 0, 0, 0);
	return 1;
}

/* scf.condition(%c) %a, %b : T, U */
static int pr_cond(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	if (nattrs(op) || op->num_results || op->num_operands < 1)
		return 0;
	puts_(w, "scf.condition(");
	pr_values(p, op->operands, 1);
	putc_(w, ')');
	if (op->num_operands > 1) {
		putc_(w, ' ');
		pr_values(p, op->operands + 1, op->num_operands - 1);
		puts_(w, " : ");
		pr_types_of(p, op->operands + 1, op->num_operands - 1);
	}
	return 1;
}

/* `return` (func.return) and scf.yield: the operands, then their types. */
static int pr_term(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	if (nattrs(op) || op->num_results)
		return 0;
	puts_(w, op->code == IR_OP_RETURN ? "return" : op->name);
	if (op->num_operands) {
		putc_(w, ' ');
		pr_values(p, op->operands, op->num_operands);
		puts_(w, " : ");
		pr_types_of(p, op->operands, op->num_operands);
	}
	return 1;
}

static int pr_call(pr *p, const ir_op *op)
{
	const ir_attr *callee = ir_op_get_attr(op, "callee");
	wr *w = &p->w;
	if (!callee || callee->kind != IR_ATTR_SYMBOL || nattrs(op) != 1)
		return 0;
	pr_head(p, op);
	pr_attr(w, callee);
	putc_(w, '(');
	pr_values(p, op->operands, op->num_operands);
	puts_(w, ") : (");
	pr_types_of(p, op->operands, op->num_operands);
	puts_(w, ") -> ");
	putc_(w, '(');
	pr_result_types(p, op);
	putc_(w, ')');
	return 1;
}

static int pr_const(pr *p, const ir_op *op)
{
	const ir_attr *v = ir_op_get_attr(op, "value");
	wr *w = &p->w;
	if (!v || nattrs(op) != 1 || op->num_results != 1 || op->num_operands)
		return 0;
	if (v->kind == IR_ATTR_BOOL) {
		const ir_type *t = op->results[0].type;
		if (t->kind != IR_TYPE_INT || t->u.i.bits != 1 || t->u.i.signedness)
			return 0;
		pr_results(p, op);
		puts_(w, op->name);
		puts_(w, v->u.i.v ? " true" : " false");
		return 1;
	}
	if ((v->kind == IR_ATTR_INT && v->u.i.type == op->results[0].type &&
	     v->u.i.type->kind != IR_TYPE_FLOAT) ||
	    (v->kind == IR_ATTR_FLOAT && v->u.f.type == op->results[0].type)) {
		pr_head(p, op);
		if (v->kind == IR_ATTR_INT)
			put_i64(w, v->u.i.v);
		else
			pr_float(w, v->u.f.v, v->u.f.type);
		puts_(w, " : ");
		pr_type(w, op->results[0].type);
		return 1;
	}
	return 0;
}


static int pr_arith(pr *p, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	unsigned first = ir_opdef_lead(d, IR_KIND_I1);
	wr *w = &p->w;
	if (nattrs(op) || op->num_results != 1 || op->num_operands != d->num_roles ||
	    !same_types(op, first, op->results[0].type))
		return 0;
	pr_head(p, op);
	pr_values(p, op->operands, op->num_operands);
	puts_(w, " : ");
	pr_type(w, op->results[0].type);
	return 1;
}

static int pr_cmpi(pr *p, const ir_op *op)
{
	const ir_attr *pa = ir_op_get_attr(op, "predicate");
	const ir_type *rt;
	wr *w = &p->w;
	int f = op->code == IR_OP_CMPF;
	const char *const *names = f ? ir_cmpf_pred_names : ir_cmpi_pred_names;
	if (!pa || pa->kind != IR_ATTR_INT || pa->u.i.v < 0 ||
	    pa->u.i.v >= (f ? IR_CMPF_PRED_COUNT : IR_CMPI_PRED_COUNT) ||
	    nattrs(op) != 1 ||
	    !pa->u.i.type || pa->u.i.type->kind != IR_TYPE_INT || pa->u.i.type->u.i.bits != 64 ||
	    pa->u.i.type->u.i.signedness || op->num_operands != 2 || op->num_results != 1 ||
	    !same_types(op, 0, op->operands[0].value->type))
		return 0;
	rt = op->results[0].type;
	if (rt->kind != IR_TYPE_INT || rt->u.i.bits != 1 || rt->u.i.signedness)
		return 0;
	pr_head(p, op);
	puts_(w, names[pa->u.i.v]);
	puts_(w, ", ");
	pr_values(p, op->operands, 2);
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	return 1;
}

static int pr_cast(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	if (nattrs(op) || op->num_operands != 1 || op->num_results != 1)
		return 0;
	pr_head(p, op);
	pr_values(p, op->operands, 1);
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	puts_(w, " to ");
	pr_type(w, op->results[0].type);
	return 1;
}

/* VIEW and VIEW_FROM: the source, then the two VAR segments by their role names. */
static int pr_view(pr *p, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	const int64_t *seg = segments(op, 3);
	wr *w = &p->w;
	unsigned i;
	if (!seg || seg[0] != 1 || op->num_results != 1)
		return 0;
	pr_head(p, op);
	pr_values(p, op->operands, 1);
	for (i = 1; i < 3; i++) {
		puts_(w, ", ");
		puts_(w, d->roles[i].name);
		puts_(w, " = ");
		pr_list(p, op->operands + (i == 1 ? 1 : 1 + seg[1]), (unsigned)seg[i]);
	}
	pr_extra_attrs(p, op, seg_skip, 1, " ");
	puts_(w, " : ");
	if (d->form == IR_FORM_VIEW_FROM) {
		pr_type(w, op->operands[0].value->type);
		puts_(w, " -> ");
	}
	pr_type(w, op->results[0].type);
	return 1;
}

/* KWOPS: each present OPT operand as `role = %v`. */
static int pr_kwops(pr *p, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	const int64_t *seg = segments(op, d->num_roles);
	wr *w = &p->w;
	unsigned i, k = 0;
	if (!seg || op->num_results != 1)
		return 0;
	for (i = 0; i < d->num_roles; i++)
		if (seg[i] > 1)
			return 0;
	pr_results(p, op);
	puts_(w, op->name);
	for (i = 0; i < d->num_roles; i++)
		if (seg[i]) {
			putc_(w, ' ');
			puts_(w, d->roles[i].name);
			puts_(w, " = ");
			pr_value(p, op->operands[k++].value);
		}
	pr_extra_attrs(p, op, seg_skip, 1, " ");
	puts_(w, " : ");
	pr_type(w, op->results[0].type);
	return 1;
}

static int pr_tassign(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	/* two operands (tassign), or one and a result (treshape: %r = op %t : T -> R) */
	if (op->num_operands < 1 || op->num_operands > 2 || op->num_results > 1 ||
	    (op->num_operands == 1 && op->num_results != 1))
		return 0;
	pr_head(p, op);
	pr_values(p, op->operands, op->num_operands);
	pr_extra_attrs(p, op, NULL, 0, " ");
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	if (op->num_results) {
		puts_(w, " -> ");
		pr_type(w, op->results[0].type);
	} else {
		puts_(w, ", ");
		pr_type(w, op->operands[1].value->type);
	}
	return 1;
}

static const char *const flag_attrs[3] = {"src_pipe", "dst_pipe", "event_id"};

static int pr_flag(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	unsigned i, n = 3 - op->num_operands; /* set_flag_dyn: two and the id's value */
	if (nattrs(op) != n || op->num_operands > 1 || op->num_results)
		return 0;
	for (i = 0; i < n; i++) {
		const ir_attr *a = ir_op_get_attr(op, flag_attrs[i]);
		if (!a || a->kind != IR_ATTR_PTO || a->u.pto.style != IR_PTO_DOTTED ||
		    strcmp(a->u.pto.kind, i == 2 ? "event" : "pipe") ||
		    !bare_id(a->u.pto.value, strlen(a->u.pto.value)))
			return 0;
	}
	puts_(w, op->name);
	puts_(w, n == 3 ? "[" : " [");
	for (i = 0; i < n; i++) {
		if (i)
			puts_(w, ", ");
		putc_(w, '<');
		puts_(w, ir_op_get_attr(op, flag_attrs[i])->u.pto.value);
		putc_(w, '>');
	}
	if (n == 2) {
		puts_(w, ", ");
		pr_value(p, op->operands[0].value);
	}
	putc_(w, ']');
	return 1;
}

static int pr_barrier(pr *p, const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "pipe");
	wr *w = &p->w;
	if (nattrs(op) != 1 || !a || a->kind != IR_ATTR_PTO || a->u.pto.style != IR_PTO_DOTTED ||
	    strcmp(a->u.pto.kind, "pipe") || !bare_id(a->u.pto.value, strlen(a->u.pto.value)) ||
	    op->num_operands || op->num_results)
		return 0;
	puts_(w, op->name);
	puts_(w, " <");
	puts_(w, a->u.pto.value);
	putc_(w, '>');
	return 1;
}

/* EVARR: `%a = op -> A`, `%e = op %a[%i] : A`, `op %a[%i], %v : A` */
static int pr_evarr(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	if (nattrs(op) || op->num_operands == 1 || op->num_operands > 3 ||
	    op->num_results != (op->num_operands != 3))
		return 0;
	pr_head(p, op);
	if (!op->num_operands) {
		puts_(w, "-> ");
		pr_type(w, op->results[0].type);
		return 1;
	}
	pr_value(p, op->operands[0].value);
	putc_(w, '[');
	pr_value(p, op->operands[1].value);
	putc_(w, ']');
	if (op->num_operands == 3) {
		puts_(w, ", ");
		pr_value(p, op->operands[2].value);
	}
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	return 1;
}

/* PTRACC: `%v = op %p[%i] : P -> T`, `op %v, %p[%i] : P, T` */
static int pr_ptracc(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	unsigned nv = op->num_operands == 3;
	if (op->num_operands < 2 || op->num_results != !nv)
		return 0;
	pr_head(p, op);
	if (nv) {
		pr_value(p, op->operands[2].value);
		puts_(w, ", ");
	}
	pr_value(p, op->operands[0].value);
	putc_(w, '[');
	pr_value(p, op->operands[1].value);
	putc_(w, ']');
	pr_extra_attrs(p, op, NULL, 0, " ");
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	puts_(w, nv ? ", " : " -> ");
	pr_type(w, nv ? op->operands[2].value->type : op->results[0].type);
	return 1;
}

/* GETVAL: `%v = op ins(%t, %i : T, index) outs : R` */
static int pr_getval(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	if (op->num_operands != 2 || op->num_results != 1)
		return 0;
	pr_head(p, op);
	puts_(w, "ins(");
	pr_values(p, op->operands, 2);
	puts_(w, " : ");
	pr_types_of(p, op->operands, 2);
	puts_(w, ") outs : ");
	pr_type(w, op->results[0].type);
	pr_extra_attrs(p, op, NULL, 0, " ");
	return 1;
}

/* A value the SYNC form's `<X>` reads back: letters, digits and '_' (PTOAS's enum
 * spellings); anything else is printed as the whole attribute. */
static int sync_word(const char *s)
{
	if (!bare_id(s, strlen(s)))
		return 0;
	for (; *s; s++)
		if (*s == '.' || *s == '$')
			return 0;
	return 1;
}

/* SYNC: `op[<A>, <B>, ...]` with the row's attributes in order (an entry that is not
 * its kind's dotted #pto attribute is printed whole), `op <P>, N` for a pipe and an
 * integer (sync.set, sync.wait); the other attributes in a dict. */
static int pr_sync(pr *p, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	const char *names[8];
	wr *w = &p->w;
	unsigned i, n = 0;
	if (op->num_operands || op->num_results || d->num_attrs > 8)
		return 0;
	for (i = 0; i < d->num_attrs && d->attrs[i].req == IR_IF_REQ; i++) {
		if (!ir_op_get_attr(op, d->attrs[i].name))
			return 0;
		names[n++] = d->attrs[i].name;
	}
	puts_(w, op->name);
	for (i = 0; i < n; i++) {
		const ir_attr *a = ir_op_get_attr(op, names[i]);
		const char *k = ir_sync_kind(d->attrs[i].kind);
		int angle = n == 2 && d->attrs[0].kind == IR_IF_PIPE;
		puts_(w, i ? ", " : angle ? " " : "[");
		if (k && a->kind == IR_ATTR_PTO && a->u.pto.style == IR_PTO_DOTTED &&
		    !strcmp(a->u.pto.kind, k) && sync_word(a->u.pto.value)) {
			putc_(w, '<');
			puts_(w, a->u.pto.value);
			putc_(w, '>');
		} else {
			pr_attr(w, a);
		}
		if (i + 1 == n && !angle)
			putc_(w, ']');
	}
	pr_extra_attrs(p, op, names, n, " ");
	return 1;
}

static int pr_query(pr *p, const ir_op *op)
{
	const ir_type *t;
	wr *w = &p->w;
	if (nattrs(op) || op->num_operands || op->num_results != 1)
		return 0;
	t = op->results[0].type;
	pr_results(p, op);
	puts_(w, op->name);
	if (!(t->kind == IR_TYPE_INT && t->u.i.bits == 64 && !t->u.i.signedness)) {
		puts_(w, " : ");
		pr_type(w, t);
	}
	return 1;
}

/* TILE and TILE_INS_ATTRS: the SSA form of a tile op with results, else the DPS form. */
static int pr_tile(pr *p, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	wr *w = &p->w;
	unsigned nin;
	if (op->num_results && d->num_outs >= 0 && (d->flags & IR_OPF_TILE)) {
		/* tile SSA: %d = pto.tcvt %s {...} : T -> R */
		if (!op->num_operands)
			return 0;
		pr_head(p, op);
		pr_values(p, op->operands, op->num_operands);
		pr_extra_attrs(p, op, NULL, 0, " ");
		puts_(w, " : ");
		if (op->num_operands == 1) {
			pr_type(w, op->operands[0].value->type);
		} else {
			putc_(w, '(');
			pr_types_of(p, op->operands, op->num_operands);
			putc_(w, ')');
		}
		puts_(w, " -> ");
		if (op->num_results == 1) {
			pr_type(w, op->results[0].type);
		} else {
			putc_(w, '(');
			pr_result_types(p, op);
			putc_(w, ')');
		}
		return 1;
	}
	if (d->num_outs < 0 || op->num_operands <= ir_op_num_outs(op) || op->num_results)
		return 0;
	nin = op->num_operands - ir_op_num_outs(op);
	puts_(w, op->name);
	puts_(w, " ins(");
	pr_values(p, op->operands, nin);
	if (d->form == IR_FORM_TILE_INS_ATTRS)
		pr_extra_attrs(p, op, NULL, 0, " ");
	puts_(w, " : ");
	pr_types_of(p, op->operands, nin);
	putc_(w, ')');
	if (d->num_outs) {
		puts_(w, " outs(");
		pr_values(p, op->operands + nin, op->num_operands - nin);
		puts_(w, " : ");
		pr_types_of(p, op->operands + nin, op->num_operands - nin);
		putc_(w, ')');
	}
	if (d->form != IR_FORM_TILE_INS_ATTRS)
		pr_extra_attrs(p, op, NULL, 0, " ");
	return 1;
}

/* LEAD: `op %t, %a, %b {attrs} : T`, the operands after the first of type index. */
static int pr_lead(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	unsigned i;
	if (!op->num_operands || op->num_results)
		return 0;
	for (i = 1; i < op->num_operands; i++)
		if (op->operands[i].value->type->kind != IR_TYPE_INDEX)
			return 0;
	pr_head(p, op);
	pr_values(p, op->operands, op->num_operands);
	pr_extra_attrs(p, op, NULL, 0, " ");
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	return 1;
}

/* SECTION: `pto.section.cube { ... }` (docs/semantics.md §8.7) */
static int pr_section(pr *p, const ir_op *op)
{
	if (nattrs(op) || op->num_operands || op->num_results || op->num_regions != 1 ||
	    !op->regions[0].first || op->regions[0].first->num_args ||
	    op->regions[0].first != op->regions[0].last)
		return 0;
	puts_(&p->w, op->name);
	putc_(&p->w, ' ');
	pr_region(p, &op->regions[0], p->ind, 0, 0, 0);
	return 1;
}

/* PIPE: `%r = op(%a : T, ...) {attrs} -> R`, the pipe inits' operands keyed
 * (`c2v_consumer_buf = %b : i32`; frontend/mixed.c reads it) */
static int pr_pipe(pr *p, const ir_op *op)
{
	static const char *const keys[3] = {"gm_slot_buffer", "c2v_consumer_buf",
					    "v2c_consumer_buf"};
	int keyed = op->code == IR_OP_AIC_INITIALIZE_PIPE || op->code == IR_OP_AIV_INITIALIZE_PIPE;
	wr *w = &p->w;
	unsigned i;
	if (op->num_results > 1 || op->num_regions || op->num_operands > 8 ||
	    (keyed && (op->num_operands < 2 || op->num_operands > 3)))
		return 0;
	pr_results(p, op);
	puts_(w, op->name);
	if (op->num_operands) {
		putc_(w, '(');
		for (i = 0; i < op->num_operands; i++) {
			if (i)
				puts_(w, ", ");
			if (keyed) {
				puts_(w, keys[i + 3 - op->num_operands]);
				puts_(w, " = ");
			}
			pr_value(p, op->operands[i].value);
			puts_(w, " : ");
			pr_type(w, op->operands[i].value->type);
		}
		putc_(w, ')');
	}
	pr_extra_attrs(p, op, NULL, 0, " ");
	if (op->num_results) {
		puts_(w, " -> ");
		pr_type(w, op->results[0].type);
	}
	return 1;
}

static const pr_form_fn form_printers[IR_FORM_COUNT] = {
	[IR_FORM_NONE] = NULL,
	[IR_FORM_MODULE] = pr_module,
	[IR_FORM_FUNC] = pr_func,
	[IR_FORM_FOR] = pr_for,
	[IR_FORM_IF] = pr_if,
	[IR_FORM_WHILE] = pr_while,
	[IR_FORM_COND] = pr_cond,
	[IR_FORM_TERM] = pr_term,
	[IR_FORM_CALL] = pr_call,
	[IR_FORM_CONST] = pr_const,
	[IR_FORM_ARITH] = pr_arith,
	[IR_FORM_CMPI] = pr_cmpi,
	[IR_FORM_CAST] = pr_cast,
	[IR_FORM_VIEW] = pr_view,
	[IR_FORM_VIEW_FROM] = pr_view,
	[IR_FORM_KWOPS] = pr_kwops,
	[IR_FORM_TASSIGN] = pr_tassign,
	[IR_FORM_FLAG] = pr_flag,
	[IR_FORM_BARRIER] = pr_barrier,
	[IR_FORM_EVARR] = pr_evarr,
	[IR_FORM_SYNC] = pr_sync,
	[IR_FORM_GETVAL] = pr_getval,
	[IR_FORM_PTRACC] = pr_ptracc,
	[IR_FORM_QUERY] = pr_query,
	[IR_FORM_TILE] = pr_tile,
	[IR_FORM_TILE_INS_ATTRS] = pr_tile,
	[IR_FORM_LEAD] = pr_lead,
	[IR_FORM_SECTION] = pr_section,
	[IR_FORM_PIPE] = pr_pipe,
};

/* The custom form of `op`'s form; returns 0 when it has none or does not fit (the
 * caller prints the generic form). */
static int pr_custom(pr *p, const ir_op *op, unsigned ind)
{
	pr_form_fn f = form_printers[ir_opdef_get(op->code)->form];
	p->ind = ind;
	return f ? f(p, op) : 0;
}

static void pr_op(pr *p, const ir_op *op, unsigned ind)
{
	indent(p, ind);
	/* pr_custom prints nothing before deciding, except through pr_results after every
	 * check passed; a 0 return never leaves partial text */
	if (p->generic || !pr_custom(p, op, ind))
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

int ir_print_op(ir_ctx *ctx, const ir_op *op, const ir_printer_opts *opts, ptoc_write_fn out,
		void *user)
{
	pr *p = ir_xcalloc(1, sizeof *p);
	int err;
	p->w.out = out;
	p->w.user = user;
	p->ctx = ctx;
	p->generic = opts && opts->generic;
	p->locs = opts && opts->locs;
	p->target = opts ? opts->target : NULL;
	p->w.mlir = p->generic;
	scope_push(p);
	region_enter(p);
	pr_op(p, op, 0);
	region_leave(p);
	scope_pop(p);
	flush(&p->w);
	err = p->w.err;
	free(p->vals);
	free(p->vlog);
	free(p);
	return err;
}

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
