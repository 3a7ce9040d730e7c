/* emit_c_scalar.c: the C emitter's scalar code: arith as C expressions on int64_t /
 * uint64_t (docs/semantics.md §8.4), scf as C control flow, func.return. See emit_c.c
 * for the whole. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit_c_impl.h"

/* ---- arith and scf ------------------------------------------------------------------- */

static const char *const cmp_c[10][2] = {
	{"==", ""}, {"!=", ""}, {"<", ""}, {"<=", ""}, {">", ""}, {">=", ""},
	{"<", "u"}, {"<=", "u"}, {">", "u"}, {">=", "u"}};

/* The width of an integer or index type (index: 64). */
static unsigned ibits(const ir_type *t)
{
	return t->kind == IR_TYPE_INT ? t->u.i.bits : 64;
}

/* Integer C expressions (docs/semantics.md §8.4): a value of N < 64 bits is held
 * sign-extended in an int64_t, i1 as 0 or 1 in an int. sx: the value as a signed
 * int64_t; ux: its N bits zero-extended in a uint64_t; canon: a uint64_t expression
 * reduced to the result type's representation. */
static const char *sx(em *e, const ir_op *op, const ir_value *v)
{
	char buf[200];
	const char *x = em_vexpr(e, op, v);
	if (ibits(v->type) != 1)
		return x;
	snprintf(buf, sizeof buf, "(-(int64_t)%s)", x);
	return ir_intern(e->ctx, buf, strlen(buf));
}

static const char *ux(em *e, const ir_op *op, const ir_value *v)
{
	char buf[200];
	unsigned n = ibits(v->type);
	const char *x = em_vexpr(e, op, v);
	if (n == 1 || n == 64)
		snprintf(buf, sizeof buf, "(uint64_t)%s", x);
	else
		snprintf(buf, sizeof buf, "((uint64_t)%s & 0x%llxull)", x,
			 (unsigned long long)((((uint64_t)1) << n) - 1));
	return ir_intern(e->ctx, buf, strlen(buf));
}

/* Prints `const TYPE NAME = canon(expr);` for result r. */
static void def_canon(em *e, const ir_value *r, const char *name, const char *expr)
{
	unsigned n = ibits(r->type);
	em_ind(e);
	if (n == 1)
		em_pf(e, "const int %s = (int)((%s) & 1u);\n", name, expr);
	else if (n == 64)
		em_pf(e, "const int64_t %s = (int64_t)(%s);\n", name, expr);
	else
		em_pf(e, "const int64_t %s = ptort_sext(%s, %u);\n", name, expr, n);
}

/* The runtime type of float type t for arith's float ops (f32, f16, bf16), else -1
 * after reporting. */
static int fty(em *e, const ir_op *op, const ir_type *t)
{
	ptort_type et;
	if (t->kind != IR_TYPE_FLOAT || ir_type_to_elem(t, &et) ||
	    (et != PTORT_F32 && et != PTORT_F16 && et != PTORT_BF16)) {
		char tn[64];
		em_err(e, op, "'%s' on '%s': emit-c computes float scalars of types f32, f16 and bf16 "
		    "(docs/semantics.md §8.4)", op->name, ir_type_str(t, tn, sizeof tn));
		return -1;
	}
	return (int)et;
}

/* The runtime integer type of N bits (signed or not) for conversions, else -1 after
 * reporting. */
static int ity(em *e, const ir_op *op, unsigned n, int is_signed)
{
	switch (n) {
	case 8: return is_signed ? PTORT_I8 : PTORT_U8;
	case 16: return is_signed ? PTORT_I16 : PTORT_U16;
	case 32: return is_signed ? PTORT_I32 : PTORT_U32;
	case 64: return is_signed ? PTORT_I64 : PTORT_U64;
	default:
		em_err(e, op, "'%s': emit-c converts between floats and integers of 8, 16, 32 or 64 "
		    "bits (docs/semantics.md §8.4)", op->name);
		return -1;
	}
}

static void emit_float_arith(em *e, ir_op *op, const char *name)
{
	const ir_value *r = &op->results[0], *va = op->operands[0].value;
	const char *a = em_vexpr(e, op, va), *b = op->num_operands > 1 ? em_vexpr(e, op, op->operands[1].value) : "0";
	const char *vop = NULL;
	char x[400];
	int t, t2;
	switch (op->code) {
	case IR_OP_ADDF: vop = "PTORT_VOP_ADD"; break;
	case IR_OP_SUBF: vop = "PTORT_VOP_SUB"; break;
	case IR_OP_MULF: vop = "PTORT_VOP_MUL"; break;
	case IR_OP_DIVF: vop = "PTORT_VOP_DIV"; break;
	case IR_OP_MAXIMUMF: vop = "PTORT_VOP_MAX"; break;
	case IR_OP_MINIMUMF: vop = "PTORT_VOP_MIN"; break;
	case IR_OP_NEGF: vop = "PTORT_VOP_NEG"; break;
	default: break;
	}
	if (vop || op->code == IR_OP_MAXNUMF || op->code == IR_OP_MINNUMF) {
		if ((t = fty(e, op, r->type)) < 0)
			return;
		em_ind(e);
		if (vop)
			em_pf(e, "const uint64_t %s = ptort_vop1(%s, %s, %s, %s);\n", name, vop,
			   em_rt_type_names[t], a, b);
		else
			em_pf(e, "const uint64_t %s = ptort_fnum(%s, %s, %s, %s);\n", name,
			   op->code == IR_OP_MAXNUMF ? "PTORT_VOP_MAX" : "PTORT_VOP_MIN", em_rt_type_names[t], a, b);
		return;
	}
	switch (op->code) {
	case IR_OP_CMPF: {
		const ir_attr *p = ir_op_get_attr(op, "predicate");
		if ((t = fty(e, op, va->type)) < 0)
			return;
		em_ind(e);
		em_pf(e, "const int %s = ptort_cmpf(%uu, %s, %s, %s);\n", name,
		   p && p->kind == IR_ATTR_INT ? (unsigned)p->u.i.v : 0u, em_rt_type_names[t], a, b);
		return;
	}
	case IR_OP_SITOFP: case IR_OP_UITOFP:
		if ((t = fty(e, op, r->type)) < 0)
			return;
		em_ind(e);
		em_pf(e, "const uint64_t %s = ptort_cvt1(%s, %s, %s, PTORT_RINT, PTORT_SAT_OFF);\n", name,
		   op->code == IR_OP_SITOFP ? "PTORT_I64" : "PTORT_U64", em_rt_type_names[t],
		   op->code == IR_OP_SITOFP ? sx(e, op, va) : ux(e, op, va));
		return;
	case IR_OP_FPTOSI: case IR_OP_FPTOUI:
		if ((t = fty(e, op, va->type)) < 0 ||
		    (t2 = ity(e, op, ibits(r->type), op->code == IR_OP_FPTOSI)) < 0)
			return;
		snprintf(x, sizeof x, "ptort_cvt1(%s, %s, %s, PTORT_TRUNC, PTORT_SAT_ON)",
			 em_rt_type_names[t], em_rt_type_names[t2], a);
		def_canon(e, r, name, x);
		return;
	case IR_OP_EXTF: case IR_OP_TRUNCF:
		if ((t = fty(e, op, va->type)) < 0 || (t2 = fty(e, op, r->type)) < 0)
			return;
		em_ind(e);
		em_pf(e, "const uint64_t %s = ptort_cvt1(%s, %s, %s, PTORT_RINT, PTORT_SAT_OFF);\n", name,
		   em_rt_type_names[t], em_rt_type_names[t2], a);
		return;
	case IR_OP_BITCAST:
		if (r->type->kind == IR_TYPE_FLOAT) {
			em_ind(e);
			em_pf(e, "const uint64_t %s = %s;\n", name,
			   va->type->kind == IR_TYPE_FLOAT ? a : ux(e, op, va));
		} else {
			snprintf(x, sizeof x, "(uint64_t)%s", a);
			def_canon(e, r, name, x);
		}
		return;
	default:
		em_err(e, op, "'%s' is not supported by emit-c", op->name);
	}
}

void emit_arith(em *e, ir_op *op)
{
	const char *a, *b, *ty, *name, *o = NULL;
	ir_value *r = &op->results[0];
	char x[600];
	unsigned n;
	if (!r->uses)
		return; /* pure and unused */
	ty = em_ctype(r->type);
	if (!ty) {
		em_err(e, op, "unsupported result type of '%s' (integers, index and floats only)", op->name);
		return;
	}
	if ((op->code >= IR_OP_ADDF && op->code <= IR_OP_BITCAST) || op->code == IR_OP_CMPF) {
		emit_float_arith(e, op, em_name_value(e, r));
		return;
	}
	a = em_vexpr(e, op, op->operands[0].value);
	b = op->num_operands > 1 ? em_vexpr(e, op, op->operands[1].value) : NULL;
	n = ibits(r->type);
	switch (op->code) {
	case IR_OP_ADDI: o = "+"; break;
	case IR_OP_SUBI: o = "-"; break;
	case IR_OP_MULI: o = "*"; break;
	default: break;
	}
	if (o) { /* wraps: computed on uint64_t, reduced to the width */
		snprintf(x, sizeof x, "(uint64_t)%s %s (uint64_t)%s", a, o, b);
		def_canon(e, r, em_name_value(e, r), x);
		return;
	}
	switch (op->code) {
	case IR_OP_DIVSI: case IR_OP_REMSI: case IR_OP_CEILDIVSI: case IR_OP_FLOORDIVSI:
		snprintf(x, sizeof x, "(uint64_t)ptort_%s(%s, %s)",
			 op->code == IR_OP_DIVSI ? "sdiv" : op->code == IR_OP_REMSI ? "srem"
			 : op->code == IR_OP_CEILDIVSI ? "sceildiv" : "sfloordiv",
			 sx(e, op, op->operands[0].value), sx(e, op, op->operands[1].value));
		def_canon(e, r, em_name_value(e, r), x);
		return;
	case IR_OP_DIVUI: case IR_OP_REMUI: case IR_OP_CEILDIVUI:
		snprintf(x, sizeof x, "ptort_%s(%s, %s)",
			 op->code == IR_OP_DIVUI ? "udiv" : op->code == IR_OP_REMUI ? "urem" : "uceildiv",
			 ux(e, op, op->operands[0].value), ux(e, op, op->operands[1].value));
		def_canon(e, r, em_name_value(e, r), x);
		return;
	case IR_OP_SHLI: case IR_OP_SHRUI: case IR_OP_SHRSI: {
		const char *amt = ux(e, op, op->operands[1].value);
		if (op->code == IR_OP_SHLI)
			snprintf(x, sizeof x, "%s >= %u ? 0 : %s << %s", amt, n,
				 ux(e, op, op->operands[0].value), amt);
		else if (op->code == IR_OP_SHRUI)
			snprintf(x, sizeof x, "%s >= %u ? 0 : %s >> %s", amt, n,
				 ux(e, op, op->operands[0].value), amt);
		else
			snprintf(x, sizeof x, "(uint64_t)ptort_sar(%s, %s >= %u ? %u : (unsigned)%s)",
				 sx(e, op, op->operands[0].value), amt, n, n - 1, amt);
		def_canon(e, r, em_name_value(e, r), x);
		return;
	}
	case IR_OP_MINUI: case IR_OP_MAXUI: case IR_OP_MINSI: case IR_OP_MAXSI: {
		/* compared as unsigned or signed N bits; the result is an operand as held */
		int u = op->code == IR_OP_MINUI || op->code == IR_OP_MAXUI;
		const char *ka = (u ? ux : sx)(e, op, op->operands[0].value),
			   *kb = (u ? ux : sx)(e, op, op->operands[1].value);
		name = em_name_value(e, r);
		em_ind(e);
		em_pf(e, "const %s %s = %s %s %s ? %s : %s;\n", ty, name, ka,
		   op->code == IR_OP_MINUI || op->code == IR_OP_MINSI ? "<" : ">", kb, a, b);
		return;
	}
	case IR_OP_EXTSI:
		name = em_name_value(e, r);
		em_ind(e);
		em_pf(e, "const int64_t %s = %s;\n", name, sx(e, op, op->operands[0].value));
		return;
	case IR_OP_EXTUI: case IR_OP_INDEX_CASTUI:
		snprintf(x, sizeof x, "%s", ux(e, op, op->operands[0].value));
		def_canon(e, r, em_name_value(e, r), x);
		return;
	case IR_OP_TRUNCI: case IR_OP_INDEX_CAST:
		snprintf(x, sizeof x, "(uint64_t)%s", sx(e, op, op->operands[0].value));
		def_canon(e, r, em_name_value(e, r), x);
		return;
	default:
		break;
	}
	name = em_name_value(e, r);
	em_ind(e);
	switch (op->code) {
	case IR_OP_ANDI: em_pf(e, "const %s %s = %s & %s;\n", ty, name, a, b); break;
	case IR_OP_ORI: em_pf(e, "const %s %s = %s | %s;\n", ty, name, a, b); break;
	case IR_OP_XORI: em_pf(e, "const %s %s = %s ^ %s;\n", ty, name, a, b); break;
	case IR_OP_SELECT:
		em_pf(e, "const %s %s = %s ? %s : %s;\n", ty, name, a, b,
		   em_vexpr(e, op, op->operands[2].value));
		break;
	case IR_OP_CMPI: {
		const ir_attr *p = ir_op_get_attr(op, "predicate");
		int k = p && p->kind == IR_ATTR_INT && p->u.i.v >= 0 && p->u.i.v < 10 ? (int)p->u.i.v : 0;
		const ir_value *va = op->operands[0].value, *vb = op->operands[1].value;
		if (cmp_c[k][1][0])
			em_pf(e, "const int %s = %s %s %s;\n", name, ux(e, op, va), cmp_c[k][0], ux(e, op, vb));
		else
			em_pf(e, "const int %s = %s %s %s;\n", name, sx(e, op, va), cmp_c[k][0], sx(e, op, vb));
		break;
	}
	default:
		em_err(e, op, "'%s' is not supported by emit-c", op->name);
	}
}

/* Checks that every result of scf op `op` has a C form. */
static int check_results(em *e, ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_results; i++)
		if (!em_ctype(op->results[i].type)) {
			em_err(e, op, "result #%u of '%s' has a type without a C value (tiles must be "
			    "forwarded before emit-c: docs/semantics.md §8)", i, op->name);
			return -1;
		}
	return 0;
}

/* Declares mutable variable `v` initialised from `init` (NULL: zero). */
static void declare_var(em *e, const ir_op *user, ir_value *v, const ir_value *init)
{
	const char *ty = em_ctype(v->type), *n, *iv = init ? em_vexpr(e, user, init) : NULL;
	const char *ie = init && v->type->kind == IR_TYPE_PTR ? em_ptr_elems(e, user, init) : NULL;
	n = em_name_any(e, v);
	em_ind(e);
	if (v->type->kind == IR_TYPE_PTR) {
		em_pf(e, "void *%s = %s;\n", n, iv ? iv : "0");
		em_ind(e);
		em_pf(e, "uint64_t %s_elems = %s;\n", n, ie ? ie : "0");
	} else if (!strcmp(ty, "ptort_view")) {
		if (iv)
			em_pf(e, "ptort_view %s = %s;\n", n, iv);
		else
			em_pf(e, "ptort_view %s;\n", n);
		if (!iv) {
			em_ind(e);
			em_pf(e, "memset(&%s, 0, sizeof %s);\n", n, n);
		}
	} else {
		em_pf(e, "%s %s = %s;\n", ty, n, iv ? iv : "0");
	}
}

/* `(void)R;` for every result variable no statement reads (set and never read): the
 * result's and, when `shared` (the block whose arguments first+i share result i's
 * variable: scf.for's iter args, scf.while's after region), that argument's uses. */
static void void_results(em *e, ir_op *op, const ir_block *shared, unsigned first)
{
	unsigned i;
	for (i = 0; i < op->num_results; i++)
		if (!em_c_used(&op->results[i]) && (!shared || !em_c_used(shared->args[first + i])))
			em_void(e, &op->results[i]);
}

/* `dst = src;` for C names (a !pto.ptr also copies NAME_elems). */
static void assign(em *e, const ir_type *t, const char *dst, const char *src, const char *src_elems)
{
	em_ind(e);
	em_pf(e, "%s = %s;\n", dst, src);
	if (t->kind == IR_TYPE_PTR) {
		em_ind(e);
		em_pf(e, "%s_elems = %s;\n", dst, src_elems);
	}
}

/* The C variable a yield writes its operand #i into: the result of scf.for / scf.if,
 * the before region's argument #i of scf.while. */
static const char *yield_target(em *e, const ir_op *op, unsigned i)
{
	const ir_op *p = op->block->region->parent;
	const ir_value *t = p->code == IR_OP_SCF_WHILE ? p->regions[0].first->args[i]
						       : &p->results[i];
	return e->names[t->vmark - 1];
}

static void emit_yield(em *e, ir_op *op)
{
	unsigned i;
	char tmp[32], tmpe[40];
	if (!op->num_operands)
		return;
	if (op->num_operands == 1) {
		ir_value *v = op->operands[0].value;
		assign(e, v->type, yield_target(e, op, 0), em_vexpr(e, op, v),
		       v->type->kind == IR_TYPE_PTR ? em_ptr_elems(e, op, v) : NULL);
		return;
	}
	/* all values read before any is written: a yield may swap iter args */
	em_open_block(e);
	for (i = 0; i < op->num_operands; i++) {
		ir_value *v = op->operands[i].value;
		em_ind(e);
		if (v->type->kind == IR_TYPE_PTR) {
			em_pf(e, "void *const ptoc_y%u = %s;\n", i, em_vexpr(e, op, v));
			em_ind(e);
			em_pf(e, "const uint64_t ptoc_y%u_elems = %s;\n", i, em_ptr_elems(e, op, v));
		} else {
			em_pf(e, "const %s ptoc_y%u = %s;\n", em_ctype(v->type), i, em_vexpr(e, op, v));
		}
	}
	for (i = 0; i < op->num_operands; i++) {
		snprintf(tmp, sizeof tmp, "ptoc_y%u", i);
		snprintf(tmpe, sizeof tmpe, "ptoc_y%u_elems", i);
		assign(e, op->operands[i].value->type, yield_target(e, op, i), tmp, tmpe);
	}
	em_close_block(e);
}

/* scf.condition: the values passed on go into the result variables (which the after
 * region's arguments share), then the loop ends when the condition is false. The
 * values read here are never result variables (those are not visible in the before
 * region), so the assignments need no staging. */
static void emit_condition(em *e, ir_op *op)
{
	ir_op *p = op->block->region->parent;
	unsigned i;
	for (i = 1; i < op->num_operands; i++) {
		ir_value *v = op->operands[i].value;
		assign(e, v->type, e->names[p->results[i - 1].vmark - 1], em_vexpr(e, op, v),
		       v->type->kind == IR_TYPE_PTR ? em_ptr_elems(e, op, v) : NULL);
	}
	em_ind(e);
	em_pf(e, "if (!%s)\n", em_vexpr(e, op, op->operands[0].value));
	em_ind(e);
	em_pf(e, "\tbreak;\n");
}

/* scf.while (docs/semantics.md §8.1): the before region's arguments are variables
 * initialised from the operands, which the after region's scf.yield assigns; the
 * results are variables that scf.condition assigns and the after region's arguments
 * name; `for (;;)` runs the before region, leaves on a false condition, then runs the
 * after region. */
static void emit_while(em *e, ir_op *op)
{
	ir_block *b = op->regions[0].first, *a = op->num_regions > 1 ? op->regions[1].first : NULL;
	unsigned i;
	if (!b || !a || b->num_args != op->num_operands || a->num_args != op->num_results ||
	    check_results(e, op))
		return;
	for (i = 0; i < b->num_args; i++)
		if (!em_ctype(b->args[i]->type)) {
			em_err(e, op, "initial value #%u of 'scf.while' has a type without a C value", i);
			return;
		}
	for (i = 0; i < b->num_args; i++)
		declare_var(e, op, b->args[i], op->operands[i].value);
	for (i = 0; i < op->num_results; i++)
		declare_var(e, op, &op->results[i], NULL);
	for (i = 0; i < a->num_args; i++)
		em_set_name(e, a->args[i], e->names[op->results[i].vmark - 1]);
	em_ind(e);
	em_pf(e, "for (;;) {\n");
	e->indent++;
	e->block(e, b);
	e->block(e, a);
	em_close_block(e);
	for (i = 0; i < b->num_args; i++)
		if (!em_c_used(b->args[i]))
			em_void(e, b->args[i]);
	void_results(e, op, a, 0);
}

static void emit_for(em *e, ir_op *op)
{
	ir_block *b = op->regions[0].first;
	const char *iv, *ty;
	unsigned i;
	if (!b || b->num_args != op->num_results + 1 || check_results(e, op))
		return;
	for (i = 0; i < op->num_results; i++)
		declare_var(e, op, &op->results[i], op->operands[3 + i].value);
	for (i = 0; i < op->num_results; i++) /* iter args live in the result variables */
		em_set_name(e, b->args[1 + i], e->names[op->results[i].vmark - 1]);
	ty = em_ctype(b->args[0]->type);
	iv = em_name_value(e, b->args[0]);
	em_ind(e);
	em_pf(e, "for (%s %s = %s; %s < %s; %s += %s) {\n", ty ? ty : "int64_t", iv,
	   em_vexpr(e, op, op->operands[0].value), iv, em_vexpr(e, op, op->operands[1].value), iv,
	   em_vexpr(e, op, op->operands[2].value));
	e->indent++;
	e->block(e, b);
	em_close_block(e);
	void_results(e, op, b, 1);
}

static void emit_if(em *e, ir_op *op)
{
	unsigned i;
	if (check_results(e, op))
		return;
	for (i = 0; i < op->num_results; i++)
		declare_var(e, op, &op->results[i], NULL);
	em_ind(e);
	em_pf(e, "if (%s) {\n", em_vexpr(e, op, op->operands[0].value));
	e->indent++;
	if (op->regions[0].first)
		e->block(e, op->regions[0].first);
	e->indent--;
	if (op->num_regions > 1 && op->regions[1].first) {
		em_ind(e);
		em_pf(e, "} else {\n");
		e->indent++;
		e->block(e, op->regions[1].first);
		e->indent--;
	}
	em_ind(e);
	em_pf(e, "}\n");
	void_results(e, op, NULL, 0);
}

/* func.return (docs/semantics.md §8.3): no value: `return;` unless it ends the
 * function; one result (not a !pto.ptr): `return X;`; else the struct NAME_results
 * filled field by field (r0, r1, ...; a pointer also rN_elems). */
static void emit_return(em *e, ir_op *op)
{
	unsigned i;
	/* the pipes finish the kernel's work (the adversarial schedule's queues) */
	em_ind(e);
	em_pf(e, "ptort_sync_drain(ctx);\n");
	if (!op->num_operands) {
		if (op->next || op->block->region->parent->code != IR_OP_FUNC) {
			em_ind(e);
			em_pf(e, "return;\n");
		}
		return;
	}
	if (op->num_operands == 1 && op->operands[0].value->type->kind != IR_TYPE_PTR) {
		em_ind(e);
		em_pf(e, "return %s;\n", em_vexpr(e, op, op->operands[0].value));
		return;
	}
	em_open_block(e);
	em_ind(e);
	em_pf(e, "%s_results ptoc_r;\n", e->fname);
	for (i = 0; i < op->num_operands; i++) {
		const ir_value *v = op->operands[i].value;
		em_ind(e);
		em_pf(e, "ptoc_r.r%u = %s;\n", i, em_vexpr(e, op, v));
		if (v->type->kind == IR_TYPE_PTR) {
			em_ind(e);
			em_pf(e, "ptoc_r.r%u_elems = %s;\n", i, em_ptr_elems(e, op, v));
		}
	}
	em_ind(e);
	em_pf(e, "return ptoc_r;\n");
	em_close_block(e);
}

int emit_control(em *e, ir_op *op)
{
	static const struct {
		ir_opcode code;
		void (*emit)(em *e, ir_op *op);
	} ops[] = {
		{IR_OP_SCF_FOR, emit_for}, {IR_OP_SCF_IF, emit_if}, {IR_OP_SCF_YIELD, emit_yield},
		{IR_OP_SCF_WHILE, emit_while}, {IR_OP_SCF_CONDITION, emit_condition},
		{IR_OP_RETURN, emit_return},
	};
	size_t i;
	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (ops[i].code == op->code) {
			ops[i].emit(e, op);
			return 1;
		}
	return 0;
}
