/* lower_fixpipe.c: tmov and tstore through the fixpipe's stages (docs/semantics.md
 * §6.2b), called by lower_cube_op and split-repeats' transfers.
 *
 * Requires: level-2 DPS ops the verifier accepted (verify_fixpipe.c: the attributes'
 * values, the pre-quant operand's type, the pairs). Produces, before the op (which the
 * caller erases):
 *   tmov     pto.i.tmovq src, [fp], dst, word, quant (0 none, 1 the i64 word, 2 the
 *            scaling tile fp), mode (accToVecMode: 0 vec0 .. 3 split_n), relu
 *   tstore   pto.i.dma_store_q (the view first) src, [fp], word, quant, relu, atomic
 * for an op lower_fixpipe_wants; the others keep pto.i.tmov / pto.i.dma_store. */
#include <string.h>

#include "passes/lower.h"

#define PASS_NAME "split-repeats"

static const char *pto_val(const ir_op *op, const char *name)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	return a && a->kind == IR_ATTR_PTO ? a->u.pto.value : "";
}

static int mode_of(const ir_op *op)
{
	static const char *const modes[] = {"single_mode_vec1", "dual_mode_split_m", "dual_mode_split_n"};
	const char *v = pto_val(op, "accToVecMode");
	int i;
	for (i = 0; i < 3; i++)
		if (!strcmp(v, modes[i]))
			return i + 1;
	return 0;
}

static int relu_of(const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "relu");
	return !strcmp(pto_val(op, "reluPreMode"), "normal_relu") ||
	       (a && (a->kind == IR_ATTR_UNIT || (a->kind == IR_ATTR_BOOL && a->u.i.v)));
}

static const ir_type *quant_type(const ir_op *op)
{
	return !op->num_results && op->num_operands == 3 ? op->operands[1].value->type : NULL;
}

int lower_fixpipe_wants(const ir_op *op)
{
	const ir_type *s, *d;
	ptort_type se, de;
	if (op->num_results || op->num_operands < 2)
		return 0;
	if (quant_type(op) || mode_of(op) || !strcmp(pto_val(op, "reluPreMode"), "normal_relu"))
		return 1;
	if (op->code != IR_OP_TSTORE)
		return 0;
	if (!strcmp(pto_val(op, "atomicType"), "atomic_add"))
		return 1;
	s = op->operands[0].value->type, d = op->operands[op->num_operands - 1].value->type;
	return s->kind == IR_TYPE_TILE_BUF && s->u.tb.mem == IR_MEM_ACC && d->kind == IR_TYPE_PART_VIEW &&
	       !ir_type_to_elem(s->u.tb.elem, &se) && !ir_type_to_elem(d->u.shaped.elem, &de) &&
	       se == PTORT_I32 && de == PTORT_F16;
}

unsigned lower_fixpipe(ir_ctx *ctx, ir_op *op)
{
	const ir_type *q = quant_type(op);
	int store = op->code == IR_OP_TSTORE, quant = !q ? 0 : q->kind == IR_TYPE_TILE_BUF ? 2 : 1;
	lower_tile s, f, d;
	lower_insn li;
	int64_t k;
	if (lower_tile_of(ctx, op, op->operands[0].value, &s) ||
	    (quant == 2 && lower_tile_of(ctx, op, op->operands[1].value, &f)) ||
	    (!store && lower_tile_of(ctx, op, op->operands[op->num_operands - 1].value, &d)))
		return 1;
	li_init(&li, store ? IR_OP_I_DMA_STORE_Q : IR_OP_I_TMOVQ);
	if (store)
		li_operand(&li, op->operands[op->num_operands - 1].value);
	li_tile(ctx, &li, "src", &s);
	if (quant == 2)
		li_tile(ctx, &li, "fp", &f);
	if (!store)
		li_tile(ctx, &li, "dst", &d);
	if (quant != 1)
		li_int(ctx, &li, "word", 0);
	else if (ir_value_const_int(op->operands[1].value, &k))
		li_int(ctx, &li, "word", k);
	else
		li_dyn(ctx, &li, "word", op->operands[1].value);
	li_int(ctx, &li, "quant", quant);
	if (!store)
		li_int(ctx, &li, "mode", mode_of(op));
	if (relu_of(op))
		li_attr(ctx, &li, "relu", ir_attr_unit(ctx));
	if (store)
		li_int(ctx, &li, "atomic", !strcmp(pto_val(op, "atomicType"), "atomic_add"));
	return li_emit(ctx, &li, op) ? 0 : 1;
}
