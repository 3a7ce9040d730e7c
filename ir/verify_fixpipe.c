/* verify_fixpipe.c: PTOAS's fixpipe attributes on tmov and tstore out of the
 * accumulator (docs/semantics.md §6.2), which ptoc does not model yet: each one that
 * asks for something other than the plain move is refused at the op, with what it
 * asks for, so that no kernel runs with an attribute silently ignored.
 *
 *   accToVecMode  #pto.acc_to_vec_mode<single_mode_vec0> (the plain move into this
 *                 core's UB); vec1 and the dual (split) modes address the two vector
 *                 cores of a cluster
 *   reluPreMode   #pto<relu_pre_mode no_relu>; ptoc's own ReLU is the `relu` unit
 *                 attribute
 *   atomicType    #pto<atomic_type atomic_none>; atomic_add accumulates into GM
 *   stPhase       any value: a scheduling hint of the store, no effect on the data
 *
 * textract_fp and tinsert_fp (the fixpipe's vector quantization, §6.2a, modelled) take
 * the same attributes and go through the same check. */
#include <string.h>

#include "ir/verify_move.h"

static unsigned refuse(ir_ctx *ctx, const ir_op *op, const char *name, const char *plain)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	const char *val;
	if (!a)
		return 0;
	val = a->kind == IR_ATTR_PTO ? a->u.pto.value : NULL;
	if (val && !strcmp(val, plain))
		return 0;
	return ir_op_error(ctx, op,
			   "%s %s is not supported yet (ptoc models the plain move, %s = %s; "
			   "docs/semantics.md §6.2)",
			   name, val ? val : "(not a #pto attribute)", name, plain);
}

unsigned ir_verify_fixpipe(ir_ctx *ctx, const ir_op *op)
{
	unsigned n = 0;
	n += refuse(ctx, op, "accToVecMode", "single_mode_vec0");
	n += refuse(ctx, op, "reluPreMode", "no_relu");
	n += refuse(ctx, op, "atomicType", "atomic_none");
	return n;
}
