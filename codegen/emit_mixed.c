/* emit_mixed.c: what emit-c asks of a mixed cube/vector kernel (docs/semantics.md §8.9,
 * ptort.h section 10): the core a function or section runs on, whether a vector
 * section runs on vector core 0 only, whether a kernel needs the cluster launch. */
#include <string.h>

#include "codegen/emit.h"

int emit_core_of(const ir_op *op)
{
	const ir_attr *k;
	if (op->code == IR_OP_SECTION_CUBE)
		return 1;
	if (op->code == IR_OP_SECTION_VECTOR)
		return 2;
	if (op->code != IR_OP_FUNC || !(k = ir_op_get_attr(op, "pto.kernel_kind")) ||
	    k->kind != IR_ATTR_PTO || !k->u.pto.value)
		return 0;
	return !strcmp(k->u.pto.value, "cube") ? 1 : !strcmp(k->u.pto.value, "vector") ? 2 : 0;
}

/* The FIFO ops under `root`: counts those with split 0 and the others. */
typedef struct splits {
	unsigned zero, other;
} splits;

static int count_split(ir_op *op, void *user)
{
	splits *s = user;
	const ir_attr *a;
	if (op->code != IR_OP_I_TPUSH && op->code != IR_OP_I_TPOP &&
	    !(op->code >= IR_OP_TPUSH_TO_AIV && op->code <= IR_OP_TFREE))
		return 0;
	a = ir_op_get_attr(op, "split");
	if (a && a->kind == IR_ATTR_INT && a->u.i.v == 0)
		s->zero++;
	else
		s->other++;
	return 0;
}

int emit_vector_only0(ir_op *root)
{
	splits s = {0, 0};
	ir_walk(root, count_split, &s);
	return s.zero && !s.other;
}

/* A section, a pipe init, a push, pop or free. [decision] A reserve_buffer or an
 * import of one alone is not: it names FIFO memory but moves nothing between cores,
 * so a kernel with one and no other FIFO op runs on one core (PTOAS's
 * plan_memory_reserve_buffer_prefix.pto: a copy through UB beside a reserve_buffer). */
static int is_mixed_op(ir_op *op, void *user)
{
	(void)user;
	if (op->code == IR_OP_RESERVE_BUFFER || op->code == IR_OP_IMPORT_RESERVED_BUFFER)
		return 0;
	return (op->code >= IR_OP_SECTION_CUBE && op->code <= IR_OP_TFREE) ||
	       op->code == IR_OP_I_TPUSH || op->code == IR_OP_I_TPOP;
}

int emit_is_mixed(ir_op *func)
{
	/* a function of a kind alone is not: a vector kernel runs on one core */
	return ir_walk(func, is_mixed_op, NULL) != 0;
}

static int has_results(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "function_type");
	return !a || a->kind != IR_ATTR_TYPE || !a->u.type || a->u.type->kind != IR_TYPE_FUNC ||
	       a->u.type->u.fn.nout != 0;
}

/* Two functions, one of each kind, without results and with the same argument types,
 * or one of them without arguments (a kernel PTOAS writes as a cube and a vector
 * function without an entry that calls both): the cube one in *cube, the vector one
 * returned. Any other function of a kind, or another difference in the arguments,
 * and there is no pair (NULL). */
ir_op *emit_cluster_pair(ir_op *module, ir_op **cube)
{
	ir_op *f, *c = NULL, *v = NULL;
	const ir_block *bc, *bv;
	unsigned i;
	for (f = module->regions[0].first ? module->regions[0].first->first : NULL; f; f = f->next) {
		int k = f->code == IR_OP_FUNC ? emit_core_of(f) : 0;
		if (k == 1 && !c)
			c = f;
		else if (k == 2 && !v)
			v = f;
		else if (k)
			return NULL;
	}
	if (!c || !v || has_results(c) || has_results(v))
		return NULL;
	bc = c->regions[0].first, bv = v->regions[0].first;
	if (!bc || !bv)
		return NULL;
	if (!bc->num_args || !bv->num_args)
		goto pair; /* called without arguments */
	if (bc->num_args != bv->num_args)
		return NULL;
	for (i = 0; i < bc->num_args; i++)
		if (bc->args[i]->type != bv->args[i]->type)
			return NULL;
pair:
	*cube = c;
	return v;
}
