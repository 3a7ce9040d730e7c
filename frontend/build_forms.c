/* build_forms.c: the custom forms of the frontend, one parse routine per syntax form
 * of ops.def (ir.h: ir_form; ir/print_forms.c prints them): fe_build_custom sorts a
 * statement's pieces and builds the op; build.c keeps the scopes, regions and the
 * generic form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

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
	if (ir_opcode_lookup(n, strlen(n)) == IR_OP_UNKNOWN && !tok_is(name, "memref.dealloc") &&
	    !tok_is(name, "memref.reinterpret_cast"))
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

/* `memref.dealloc %t : T` (PTOAS's memref form) is read and dropped. [decision] A
 * tile's storage is placement's business, which takes a tile's life from its uses
 * (place-tiles), so a dealloc tells ptoc nothing; its operand must still be a value
 * of the type written. Returns NULL: there is no op to append. */
static ir_op *memref_dealloc(cust *c, unsigned piece0, unsigned ndefs)
{
	fe_parser *p = c->p;
	shape *s = &c->s;
	if (classify(p, c->name, piece0, s))
		return NULL;
	if (ndefs || s->noperand != 1 || !s->colon || s->colon->tn != 1 || s->arrow || s->ins ||
	    s->outs || s->call || s->nkw || s->dict || s->word || s->to || s->bracket || s->angle ||
	    s->lit) {
		ir_error(p->ctx, c->opname.loc, "expected 'memref.dealloc %%value : type' without "
			 "results");
		return NULL;
	}
	if (!uses_ok(p, s->op0, 1))
		return NULL;
	check_types(p, s->op0, 1, s->colon->t0);
	return NULL;
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
	if (c.code == IR_OP_UNKNOWN && tok_is(opname, "memref.dealloc"))
		return memref_dealloc(&c, piece0, ndefs);
	if (c.code == IR_OP_UNKNOWN && tok_is(opname, "memref.reinterpret_cast")) {
		if (nres != 1) {
			ir_error(p->ctx, opname.loc, "'memref.reinterpret_cast' defines one result");
			return NULL;
		}
		op = fe_memref_cast(p, opname, piece0);
		if (op)
			define_results(p, op, def0, ndefs);
		return op;
	}
	if (c.code == IR_OP_UNKNOWN) {
		unknown_op(p, opname, c.name);
		return NULL;
	}
	c.d = ir_opdef_get(c.code);
	if (c.d->form == IR_FORM_PIPE) /* the cross-core ops: frontend/mixed.c */
		return fe_build_pipe(p, opname, c.name, piece0, def0);
	if (c.d->form == IR_FORM_SUBSET)
		return fe_build_subset(p, opname, c.name, piece0, def0);
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
