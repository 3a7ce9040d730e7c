/* loc.c: MLIR source locations written in the text, `loc(...)` after an op or a block
 * argument and `#name = loc(...)` aliases at the top level (what `mlir-opt
 * --mlir-print-debuginfo` and MLIR-based generators write).
 *
 * The grammar hands every `loc(...)` token here with the ir_loc it sets (fe_loc_ref)
 * and every alias definition (fe_loc_alias); fe_loc_resolve runs after the parse, since
 * MLIR prints the aliases after the ops that use them. A location becomes the first
 * `"file":line:col` found reading its text left to right, aliases followed where they
 * stand; a location without one (`loc(unknown)`, a bare name) leaves the position the
 * parser gave, the place in the text. [decision] ptoc keeps one file:line:col per op, so
 * of a fused or call-site location the first file position is kept: for `callsite(A at
 * B)` that is A, the callee's position, and for `fused[A, B]` A, as MLIR's own
 * diagnostics show them first. */
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

typedef struct fe_localias {
	const char *name;  /* interned, with its '#' */
	fe_tok body;       /* the loc(...) token */
	ir_loc def;        /* of the name */
	int state;         /* 0 not resolved, 1 being resolved, 2 done */
	int found;         /* done: it holds a file position */
	ir_loc at;         /* ... which is this */
} fe_localias;

struct fe_locs {
	FE_STACK(fe_localias) aliases;
	unsigned *index; /* open addressing over aliases by name pointer; 0: free, else i+1 */
	unsigned icap;
	struct { ir_loc *at; fe_tok tok; } *refs;
	unsigned nrefs, caprefs;
};

static fe_locs *locs(fe_parser *p)
{
	if (!p->locs) {
		p->locs = ir_xcalloc(1, sizeof *p->locs);
	}
	return p->locs;
}

static size_t hash_ptr(const void *q)
{
	size_t h = (size_t)q;
	return (h >> 4) ^ (h >> 13);
}

static unsigned *slot(fe_locs *l, const char *name)
{
	size_t i = hash_ptr(name) & (l->icap - 1);
	while (l->index[i] && l->aliases.a[l->index[i] - 1].name != name)
		i = (i + 1) & (l->icap - 1);
	return &l->index[i];
}

static void grow_index(fe_locs *l)
{
	unsigned i, old = l->icap;
	unsigned *oi = l->index;
	l->icap = old ? old * 2 : 64;
	l->index = ir_xcalloc(l->icap, sizeof *l->index);
	for (i = 0; i < l->aliases.n; i++)
		*slot(l, l->aliases.a[i].name) = i + 1;
	free(oi);
}

void fe_loc_ref(fe_parser *p, ir_loc *at, fe_tok t)
{
	fe_locs *l = locs(p);
	if (l->nrefs == l->caprefs)
		fe_grow((void **)&l->refs, &l->caprefs, sizeof *l->refs);
	l->refs[l->nrefs].at = at;
	l->refs[l->nrefs].tok = t;
	l->nrefs++;
}

void fe_loc_alias(fe_parser *p, fe_tok name, fe_tok body)
{
	fe_locs *l = locs(p);
	fe_localias a;
	unsigned *s;
	if (p->regions.n > 1) {
		ir_error(p->ctx, name.loc, "location alias '%.*s' must be defined at the top level",
			 (int)name.len, name.s);
		return;
	}
	memset(&a, 0, sizeof a);
	a.name = ir_intern(p->ctx, name.s, name.len);
	a.body = body;
	a.def = name.loc;
	if ((l->aliases.n + 1) * 2 > l->icap)
		grow_index(l);
	s = slot(l, a.name);
	if (*s) {
		ir_error(p->ctx, name.loc, "location alias '%s' is defined twice (first at line %u)",
			 a.name, l->aliases.a[*s - 1].def.line);
		return;
	}
	FE_PUSH(p, l->aliases, a);
	*s = l->aliases.n;
}

/* The position of t.s[i] (the token may span lines). */
static ir_loc at_char(fe_tok t, size_t i)
{
	ir_loc l = t.loc;
	size_t k, ls = 0;
	for (k = 0; k < i; k++)
		if (t.s[k] == '\n') {
			l.line++;
			ls = k + 1;
		}
	l.col = ls ? (uint32_t)(i - ls + 1) : t.loc.col + (uint32_t)i;
	return l;
}

static int is_idc(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '.' || c == '-';
}

/* Reads `:N` at s[*i]; 1 with the number when there is one that fits 32 bits. */
static int colon_num(const char *s, size_t n, size_t *i, uint32_t *out)
{
	size_t k = *i;
	uint64_t v = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k >= n || s[k] != ':')
		return 0;
	k++;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k >= n || s[k] < '0' || s[k] > '9')
		return 0;
	while (k < n && s[k] >= '0' && s[k] <= '9') {
		v = v * 10 + (uint64_t)(s[k++] - '0');
		if (v > 0xffffffffu)
			return 0;
	}
	*i = k;
	*out = (uint32_t)v;
	return 1;
}

static int resolve_alias(fe_parser *p, fe_localias *a, unsigned depth);

/* The first file position in `t` (a loc(...) token): 1 and *out, 0 when it has none,
 * -1 after an error. */
static int scan(fe_parser *p, fe_tok t, unsigned depth, ir_loc *out)
{
	fe_locs *l = p->locs;
	const char *s = t.s;
	size_t n = t.len, i = 3; /* after "loc" */
	while (i < n) {
		char c = s[i];
		if (c == '"') {
			size_t j = i + 1, k;
			uint32_t line, col;
			while (j < n && s[j] != '"')
				j += s[j] == '\\' ? 2 : 1;
			if (j >= n)
				break; /* the lexer only returns closed strings */
			k = j + 1;
			if (colon_num(s, n, &k, &line) && colon_num(s, n, &k, &col)) {
				fe_tok st;
				const ir_attr *f;
				st.s = s + i;
				st.len = (uint32_t)(j + 1 - i);
				st.loc = at_char(t, i);
				f = fe_string_attr(p, st);
				if (!f)
					return -1;
				out->file = ir_intern(p->ctx, f->u.str.s, f->u.str.len);
				out->line = line;
				out->col = col;
				return 1;
			}
			i = j + 1;
		} else if (c == '#') {
			size_t j = i + 1;
			const char *name;
			unsigned *sl;
			int r;
			while (j < n && is_idc(s[j]))
				j++;
			name = ir_intern(p->ctx, s + i, j - i);
			sl = l->icap ? slot(l, name) : NULL;
			if (!sl || !*sl) {
				ir_error(p->ctx, at_char(t, i), "undefined location alias '%s'", name);
				return -1;
			}
			r = resolve_alias(p, &l->aliases.a[*sl - 1], depth + 1);
			if (r < 0)
				return -1;
			if (r) {
				*out = l->aliases.a[*sl - 1].at;
				return 1;
			}
			i = j;
		} else {
			i++;
		}
	}
	return 0;
}

static int resolve_alias(fe_parser *p, fe_localias *a, unsigned depth)
{
	int r;
	if (a->state == 2)
		return a->found;
	if (a->state == 1) {
		ir_error(p->ctx, a->def, "location alias '%s' refers back to itself", a->name);
		return -1;
	}
	if (depth > FE_MAX_DEPTH) {
		ir_error(p->ctx, a->def, "location aliases nested too deep (limit %d)", FE_MAX_DEPTH);
		return -1;
	}
	a->state = 1;
	r = scan(p, a->body, depth, &a->at);
	a->state = 2;
	a->found = r > 0;
	return r;
}

int fe_loc_resolve(fe_parser *p)
{
	fe_locs *l = p->locs;
	unsigned i;
	int bad = 0;
	if (!l)
		return 0;
	for (i = 0; i < l->aliases.n; i++)
		if (resolve_alias(p, &l->aliases.a[i], 0) < 0)
			bad = 1;
	for (i = 0; i < l->nrefs && !bad; i++) {
		ir_loc at;
		int r = scan(p, l->refs[i].tok, 0, &at);
		if (r < 0)
			bad = 1;
		else if (r)
			*l->refs[i].at = at;
	}
	return bad ? -1 : 0;
}

void fe_loc_free(fe_parser *p)
{
	if (!p->locs)
		return;
	free(p->locs->aliases.a);
	free(p->locs->index);
	free(p->locs->refs);
	free(p->locs);
	p->locs = NULL;
}

void fe_arg_loc(fe_parser *p, fe_tok loc)
{
	ir_block *b = p->arg_block;
	if (b && b->num_args)
		fe_loc_ref(p, &b->args[b->num_args - 1]->loc, loc);
}
