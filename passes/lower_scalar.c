/* lower_scalar.c: a run-time scalar operand of a tile-scalar op (tadds ... tshrs,
 * texpands, tcmps, tsels, taddsc, tsubsc, taxpy; docs/semantics.md §7.3). A constant
 * is converted to the element type at compile time (lower_vec.c); a value known only
 * at run time is converted by the generated code: a pto.i.scvt before the op, whose
 * result the vector instructions take as their `scalar` operand. */
#include <stdio.h>
#include <string.h>

#include "passes/lower.h"

#define PASS_NAME "split-repeats"

ir_value *lower_rt_scalar(ir_ctx *ctx, ir_op *op, ir_value *s, ptort_type et)
{
	const ir_type *t = s->type;
	ptort_type from;
	lower_insn li;
	ir_op *in;
	char buf[128];
	if (t->kind == IR_TYPE_INDEX) {
		from = PTORT_I64;
	} else if ((t->kind == IR_TYPE_INT && t->u.i.bits == 1) || ir_type_to_elem(t, &from) ||
		   from == PTORT_I4 || (ptort_type_is_float(from) && from != PTORT_F32 &&
					 from != PTORT_F16 && from != PTORT_BF16)) {
		ir_error(ctx, op->loc, "'%s' %s: a run-time scalar of type '%s' is not supported "
			 "(index, the integer types of 8 to 64 bits, f32, f16 and bf16 are)", op->name,
			 PASS_NAME, ir_type_str(t, buf, sizeof buf));
		return NULL;
	}
	if (from == et)
		return s; /* the bits the instruction takes, as they are (§8.2) */
	if (!ptort_type_is_float(from) && !ptort_type_is_float(et) &&
	    ptort_type_bits(from) >= ptort_type_bits(et))
		return s; /* an integer to one no wider: its low bits, as the conversion gives */
	li_init(&li, IR_OP_I_SCVT);
	li_attr(ctx, &li, "from", ir_attr_type(ctx, ir_type_elem(ctx, from)));
	li_attr(ctx, &li, "to", ir_attr_type(ctx, ir_type_elem(ctx, et)));
	li_dyn(ctx, &li, "value", s);
	li.result = ir_type_elem(ctx, et);
	if (!(in = li_emit(ctx, &li, op)))
		return NULL;
	return &in->results[0];
}
