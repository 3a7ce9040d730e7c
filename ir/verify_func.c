/* verify_func.c: the verifier's rules for func and scf: function types, returns,
 * calls (callee, types, no recursion), yields, scf.for/if/while/condition. Called by
 * verify.c's dispatch. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"
#include "target/target.h"

/* ---- func and scf ----------------------------------------------------------------- */

static const ir_type *func_type(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "function_type");
	return a && a->kind == IR_ATTR_TYPE && a->u.type && a->u.type->kind == IR_TYPE_FUNC
		       ? a->u.type
		       : NULL;
}

const char *sym_name(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "sym_name");
	return a && a->kind == IR_ATTR_STRING ? a->u.str.s : "?";
}

void verify_func(vctx *v, const ir_op *op)
{
	const ir_type *ft = func_type(op);
	const ir_attr *n = ir_op_get_attr(op, "sym_name");
	ir_block *b;
	unsigned i;
	if (!n || n->kind != IR_ATTR_STRING)
		op_error(v, op, "requires a string attribute 'sym_name'");
	if (!ft) {
		op_error(v, op, "requires a type attribute 'function_type'");
		return;
	}
	/* a kernel (pto.entry) is launched, nothing receives its results (semantics.md
	 * §8.3); functions that are called may return values */
	if (ft->u.fn.nout && ir_op_get_attr(op, "pto.entry"))
		op_error(v, op, "PTO entry functions must return void: @%s is marked pto.entry and returns %u value%s",
			 n && n->kind == IR_ATTR_STRING ? sym_name(op) : "?", ft->u.fn.nout,
			 ft->u.fn.nout == 1 ? "" : "s");
	if (op->num_regions != 1 || !(b = op->regions[0].first))
		return; /* a declaration */
	if (b->num_args != ft->u.fn.nin) {
		op_error(v, op, "entry block must have %u arguments to match function signature",
			 ft->u.fn.nin);
		return;
	}
	for (i = 0; i < b->num_args; i++)
		if (b->args[i]->type != ft->u.fn.in[i])
			op_error(v, op, "type of entry block argument #%u('%s') must match the type of the corresponding argument in function signature('%s')",
				 i, tstr(b->args[i]->type), tstr(ft->u.fn.in[i]));
}

static const ir_op *parent_op(const ir_op *op)
{
	return op->block && op->block->region ? op->block->region->parent : NULL;
}

void verify_return(vctx *v, const ir_op *op)
{
	const ir_op *f = parent_op(op);
	const ir_type *ft;
	unsigned i;
	if (!f || f->code != IR_OP_FUNC) {
		op_error(v, op, "expects parent op 'func.func'");
		return;
	}
	if (!(ft = func_type(f)))
		return;
	if (op->num_operands != ft->u.fn.nout) {
		op_error(v, op, "has %u operands, but enclosing function (@%s) returns %u",
			 op->num_operands, sym_name(f), ft->u.fn.nout);
		return;
	}
	for (i = 0; i < op->num_operands; i++)
		if (vtype(op, i) != ft->u.fn.out[i])
			op_error(v, op, "type of return operand %u ('%s') doesn't match function result type ('%s') in function @%s",
				 i, tstr(vtype(op, i)), tstr(ft->u.fn.out[i]), sym_name(f));
}

/* The function `name` (len bytes) at the top level of the module holding `op`, or NULL. */
static const ir_op *find_func(const ir_op *op, const char *name, size_t len)
{
	const ir_op *m = op, *f;
	while (parent_op(m))
		m = parent_op(m);
	if (m->code != IR_OP_MODULE || !m->num_regions || !m->regions[0].first)
		return NULL;
	for (f = m->regions[0].first->first; f; f = f->next) {
		const ir_attr *n = ir_op_get_attr(f, "sym_name");
		if (f->code == IR_OP_FUNC && n && n->kind == IR_ATTR_STRING && n->u.str.len == len &&
		    !memcmp(n->u.str.s, name, len))
			return f;
	}
	return NULL;
}

/* The function `op` is in. */
static const ir_op *enclosing_func(const ir_op *op)
{
	const ir_op *p;
	for (p = parent_op(op); p && p->code != IR_OP_FUNC; p = parent_op(p))
		;
	return p;
}

typedef struct callpath {
	const ir_op *f[16];
	unsigned n, steps;
} callpath;

static int reaches(const ir_op *from, const ir_op *target, callpath *path);

/* Whether some call in `op` (nested regions included) reaches `target`. */
static int calls_reach(const ir_op *op, const ir_op *target, callpath *path)
{
	unsigned i;
	const ir_block *b;
	const ir_op *o;
	if (op->code == IR_OP_CALL) {
		const ir_attr *c = ir_op_get_attr(op, "callee");
		const ir_op *g = c && c->kind == IR_ATTR_SYMBOL ? find_func(op, c->u.str.s, c->u.str.len)
								 : NULL;
		if (g && reaches(g, target, path))
			return 1;
	}
	for (i = 0; i < op->num_regions; i++)
		for (b = op->regions[i].first; b; b = b->next)
			for (o = b->first; o; o = o->next)
				if (calls_reach(o, target, path))
					return 1;
	return 0;
}

/* Whether function `from` is `target` or calls it, directly or not; the functions on
 * the way are recorded in `path`. The walk stops (answering no) after 100000 steps or
 * 16 levels deeper than any path it records. */
static int reaches(const ir_op *from, const ir_op *target, callpath *path)
{
	unsigned i;
	if (from == target)
		return 1;
	if (++path->steps > 100000)
		return 0;
	for (i = 0; i < path->n; i++)
		if (path->f[i] == from)
			return 0; /* a cycle not through target: reported at its own calls */
	if (path->n == sizeof path->f / sizeof path->f[0])
		return 0;
	path->f[path->n++] = from;
	if (calls_reach(from, target, path))
		return 1;
	path->n--;
	return 0;
}

/* func.call (docs/semantics.md §8.3): the callee is a function of the module, the
 * operand and result types are its function type's, and no chain of calls leads back
 * to the caller (ptoc inlines every call: the inline pass, which also reports a call
 * of a declaration). */
void verify_call(vctx *v, const ir_op *op)
{
	const ir_attr *c = ir_op_get_attr(op, "callee");
	const ir_op *f, *caller;
	const ir_type *ft;
	callpath path;
	unsigned i;
	if (!c || c->kind != IR_ATTR_SYMBOL) {
		op_error(v, op, "requires a 'callee' symbol reference attribute");
		return;
	}
	f = find_func(op, c->u.str.s, c->u.str.len);
	if (!f) {
		op_error(v, op, "'%.*s' does not reference a valid function", (int)c->u.str.len,
			 c->u.str.s);
		return;
	}
	if (!(ft = func_type(f)))
		return; /* reported at the function */
	if (op->num_operands != ft->u.fn.nin) {
		op_error(v, op, "incorrect number of operands for callee @%s: %u, but it takes %u",
			 sym_name(f), op->num_operands, ft->u.fn.nin);
		return;
	}
	for (i = 0; i < op->num_operands; i++)
		if (vtype(op, i) != ft->u.fn.in[i])
			op_error(v, op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %u",
				 tstr(ft->u.fn.in[i]), tstr(vtype(op, i)), i);
	if (op->num_results != ft->u.fn.nout) {
		op_error(v, op, "incorrect number of results for callee @%s: %u, but it returns %u",
			 sym_name(f), op->num_results, ft->u.fn.nout);
		return;
	}
	for (i = 0; i < op->num_results; i++)
		if (op->results[i].type != ft->u.fn.out[i])
			op_error(v, op, "result type mismatch at index %u: expected '%s', but the callee returns '%s'",
				 i, tstr(op->results[i].type), tstr(ft->u.fn.out[i]));
	caller = enclosing_func(op);
	memset(&path, 0, sizeof path);
	if (caller && reaches(f, caller, &path)) {
		char chain[512];
		size_t n = 0;
		chain[0] = 0;
		for (i = 0; i < path.n && n + 2 < sizeof chain; i++)
			n += (size_t)snprintf(chain + n, sizeof chain - n, "@%s -> ", sym_name(path.f[i]));
		if (n < sizeof chain)
			snprintf(chain + n, sizeof chain - n, "@%s", sym_name(caller));
		op_error(v, op, "calls @%s recursively (@%s -> %s): ptoc inlines every call, so "
			 "recursion is not supported", sym_name(f), sym_name(caller), chain);
		op_note(v, f->loc, "callee @%s is defined here", sym_name(f));
	}
}

void verify_yield(vctx *v, const ir_op *op)
{
	const ir_op *p = parent_op(op);
	unsigned i;
	if (p && p->code == IR_OP_SCF_WHILE && op->block->region == &p->regions[1]) {
		/* the after region yields the next values of the before region's arguments */
		if (op->num_operands != p->num_operands) {
			op_error(v, op, "has %u operands, but parent 'scf.while' has %u initial values",
				 op->num_operands, p->num_operands);
			return;
		}
		for (i = 0; i < op->num_operands; i++)
			if (vtype(op, i) != vtype(p, i))
				op_error(v, op, "type of operand #%u ('%s') doesn't match the type of initial value #%u ('%s') of 'scf.while'",
					 i, tstr(vtype(op, i)), i, tstr(vtype(p, i)));
		return;
	}
	if (p && p->code == IR_OP_SCF_WHILE)
		return; /* in the before region: the missing scf.condition is reported */
	if (!p || (p->code != IR_OP_SCF_FOR && p->code != IR_OP_SCF_IF)) {
		if (p && p->code == IR_OP_UNKNOWN && !strncmp(p->name, "scf.", 4))
			return; /* other scf ops: not modelled */
		op_error(v, op, "expects parent op to be one of 'scf.for, scf.if, scf.while'");
		return;
	}
	if (op->num_operands != p->num_results) {
		op_error(v, op, "has %u operands, but parent '%s' has %u results", op->num_operands,
			 p->name, p->num_results);
		return;
	}
	for (i = 0; i < op->num_operands; i++)
		if (vtype(op, i) != p->results[i].type)
			op_error(v, op, "type of operand #%u ('%s') doesn't match the type of result #%u ('%s') of '%s'",
				 i, tstr(vtype(op, i)), i, tstr(p->results[i].type), p->name);
}

static unsigned count_blocks(const ir_region *r)
{
	unsigned n = 0;
	const ir_block *b;
	for (b = r->first; b; b = b->next)
		n++;
	return n;
}

/* scf.condition: ends the before region of an scf.while; the values after the
 * condition become the after region's arguments, or the results. */
void verify_condition(vctx *v, const ir_op *op)
{
	const ir_op *p = parent_op(op);
	unsigned i, n = op->num_operands - 1;
	if (!p || p->code != IR_OP_SCF_WHILE || op->block->region != &p->regions[0]) {
		op_error(v, op, "expects parent op 'scf.while' (its before region)");
		return;
	}
	if (n != p->num_results) {
		op_error(v, op, "passes %u values, but parent 'scf.while' has %u results", n,
			 p->num_results);
		return;
	}
	for (i = 0; i < n; i++)
		if (vtype(op, 1 + i) != p->results[i].type)
			op_error(v, op, "type of value #%u ('%s') doesn't match the type of result #%u ('%s') of 'scf.while'",
				 i, tstr(vtype(op, 1 + i)), i, tstr(p->results[i].type));
}

/* scf.while: a before region whose block takes the initial values (types of the
 * operands) and an after region whose block takes the results' types. */
void verify_while(vctx *v, const ir_op *op)
{
	const ir_block *b = op->regions[0].first, *a = op->regions[1].first;
	unsigned i;
	if (!b || !a || count_blocks(&op->regions[0]) != 1 || count_blocks(&op->regions[1]) != 1) {
		op_error(v, op, "expects its before and after regions to have exactly one block each");
		return;
	}
	if (b->num_args != op->num_operands) {
		op_error(v, op, "expects the before region to have %u arguments (the initial values), but found %u",
			 op->num_operands, b->num_args);
		return;
	}
	for (i = 0; i < b->num_args; i++)
		if (b->args[i]->type != vtype(op, i))
			op_error(v, op, "type of before region argument #%u ('%s') must match initial value #%u ('%s')",
				 i, tstr(b->args[i]->type), i, tstr(vtype(op, i)));
	if (a->num_args != op->num_results) {
		op_error(v, op, "expects the after region to have %u arguments (the result types), but found %u",
			 op->num_results, a->num_args);
		return;
	}
	for (i = 0; i < a->num_args; i++)
		if (a->args[i]->type != op->results[i].type)
			op_error(v, op, "type of after region argument #%u ('%s') must match result #%u ('%s')",
				 i, tstr(a->args[i]->type), i, tstr(op->results[i].type));
}

void verify_for(vctx *v, const ir_op *op)
{
	const ir_type *it = vtype(op, 0);
	unsigned ninit = op->num_operands - 3, i;
	ir_block *b = op->regions[0].first;
	if (!is_int_or_index(it) || vtype(op, 1) != it || vtype(op, 2) != it)
		op_error(v, op, "expects lower bound, upper bound and step to have the same integer or index type");
	if (op->num_results != ninit) {
		op_error(v, op, "mismatch in number of loop-carried values (%u) and defined values (%u)",
			 ninit, op->num_results);
		return;
	}
	for (i = 0; i < ninit; i++)
		if (op->results[i].type != vtype(op, 3 + i))
			op_error(v, op, "type of iter_args init #%u ('%s') must match result #%u ('%s')", i,
				 tstr(vtype(op, 3 + i)), i, tstr(op->results[i].type));
	if (count_blocks(&op->regions[0]) != 1) {
		op_error(v, op, "expects its body region to have exactly one block");
		return;
	}
	if (b->num_args != 1 + ninit) {
		op_error(v, op, "expects the body to have %u arguments (induction variable and iter_args), but found %u",
			 1 + ninit, b->num_args);
		return;
	}
	if (b->args[0]->type != it)
		op_error(v, op, "expects the induction variable to have the type of the bounds ('%s')", tstr(it));
	for (i = 0; i < ninit; i++)
		if (b->args[1 + i]->type != vtype(op, 3 + i))
			op_error(v, op, "type of region iter_arg #%u ('%s') must match its init ('%s')", i,
				 tstr(b->args[1 + i]->type), tstr(vtype(op, 3 + i)));
}

void verify_if(vctx *v, const ir_op *op)
{
	unsigned nthen = count_blocks(&op->regions[0]), nelse = count_blocks(&op->regions[1]);
	if (!is_i1(vtype(op, 0)))
		op_error(v, op, "expects the condition to be i1, but got '%s'", tstr(vtype(op, 0)));
	if (nthen != 1)
		op_error(v, op, "expects the 'then' region to have exactly one block");
	if (nelse > 1)
		op_error(v, op, "expects the 'else' region to have at most one block");
	if (op->num_results && nelse == 0)
		op_error(v, op, "must have an else block if defining values");
}
