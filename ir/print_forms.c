/* print_forms.c: the custom forms of the printer, one print routine per syntax form
 * of ops.def (ir.h: ir_form; frontend/build_forms.c parses them), and ir_print_op,
 * which prints an op with them. print.c prints the rest (types, attributes, names,
 * regions, the generic form) and reaches the forms only through pr.custom, so that
 * the two files do not call each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/pipe.h"
#include "ir/print.h"
#include "ir/subset.h"

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

/* A loop's head: its results, `kw`, then its body block's arguments named in a new
 * region scope. */
static void loop_head(pr *p, const ir_op *op, const char *kw, const ir_block *b)
{
	unsigned i;
	pr_results(p, op);
	puts_(&p->w, kw);
	region_enter(p);
	for (i = 0; i < b->num_args; i++)
		(void)name_value(p, b->args[i], 1);
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
	loop_head(p, op, "scf.for ", b);
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
	loop_head(p, op, "scf.while ", b);
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

/* `T sep R`: the type of operand #0, `sep`, the type of result #0. */
static void pr_type_to(wr *w, const ir_op *op, const char *sep)
{
	pr_type(w, op->operands[0].value->type);
	puts_(w, sep);
	pr_type(w, op->results[0].type);
}

static int pr_cast(pr *p, const ir_op *op)
{
	wr *w = &p->w;
	if (nattrs(op) || op->num_operands != 1 || op->num_results != 1)
		return 0;
	pr_head(p, op);
	pr_values(p, op->operands, 1);
	puts_(w, " : ");
	pr_type_to(w, op, " to ");
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
	if (d->form == IR_FORM_VIEW_FROM)
		pr_type_to(w, op, " -> ");
	else
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
	if (op->num_results) {
		pr_type_to(w, op, " -> ");
	} else {
		pr_type(w, op->operands[0].value->type);
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

/* `%a[%i, ...]`: operand 0 indexed by the n operands after it */
static void pr_indexed(pr *p, const ir_op *op, unsigned n)
{
	pr_value(p, op->operands[0].value);
	putc_(&p->w, '[');
	pr_values(p, op->operands + 1, n);
	putc_(&p->w, ']');
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
	pr_indexed(p, op, 1);
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
	pr_indexed(p, op, 1);
	pr_extra_attrs(p, op, NULL, 0, " ");
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
	puts_(w, nv ? ", " : " -> ");
	pr_type(w, nv ? op->operands[2].value->type : op->results[0].type);
	return 1;
}

/* SUBSET: `%r = pto.subset %t[%i, %j] sizes [R, C] : T` (the result type is derived
 * from T: frontend/subset.c); the generic form when the result is not that type */
static int pr_subset(pr *p, const ir_op *op)
{
	static const char *const skip[] = {"sizes"};
	wr *w = &p->w;
	const ir_attr *a = ir_op_get_attr(op, "sizes");
	int64_t sz[2], off[2];
	int has[2];
	unsigned i;
	if (op->num_operands != 3 || op->num_results != 1 || ir_subset_sizes(op, sz))
		return 0;
	for (i = 0; i < 2; i++)
		has[i] = ir_value_const_int(op->operands[1 + i].value, &off[i]);
	if (ir_subset_type(p->ctx, op->operands[0].value->type, sz, off, has) != op->results[0].type)
		return 0;
	pr_head(p, op);
	pr_indexed(p, op, 2);
	puts_(w, " sizes ");
	pr_attr(w, a);
	pr_extra_attrs(p, op, skip, 1, " ");
	puts_(w, " : ");
	pr_type(w, op->operands[0].value->type);
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
	[IR_FORM_SUBSET] = pr_subset,
};

/* The custom form of `op`'s form; returns 0 when it has none or does not fit (the
 * caller prints the generic form). */
static int pr_custom(pr *p, const ir_op *op, unsigned ind)
{
	pr_form_fn f = form_printers[ir_opdef_get(op->code)->form];
	p->ind = ind;
	return f ? f(p, op) : 0;
}

/* ---- entry point ---------------------------------------------------------------------- */

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
	p->custom = pr_custom;
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
