/* verify_fixpipe.c: the fixpipe's forms of tmov and tstore out of the accumulator
 * (docs/semantics.md §6.2b): PTOAS's attributes and the pre-quant operand.
 *
 *   accToVecMode  #pto.acc_to_vec_mode<X>, tmov acc -> vec only: single_mode_vec0,
 *                 single_mode_vec1, dual_mode_split_m, dual_mode_split_n (the dual
 *                 modes without quantization or conversion, an even split, 32-bit
 *                 split_n a multiple of 32 columns, no DN destination)
 *   reluPreMode   #pto<relu_pre_mode no_relu | normal_relu>, from acc only
 *   atomicType    #pto<atomic_type atomic_none | atomic_add>, tstore only; atomic_add
 *                 to a GM view of f16, bf16, f32, i8, i16 or i32
 *   stPhase       any value: a scheduling hint of the store, no effect on the data
 *   quant operand (the one between src and dst): an i64 word (pto-isa's
 *                 preQuantScalar) or a loc=scaling tile of words (TMOV_FP), from acc,
 *                 with a pair the fixpipe quantizes
 *
 * textract_fp and tinsert_fp (§6.2a) take the attributes at their plain values only. */
#include <string.h>

#include "ir/verify_move.h"
#include "ptort.h"

static const char *pto_value(const ir_op *op, const char *name, int *bad)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	*bad = 0;
	if (!a)
		return NULL;
	if (a->kind != IR_ATTR_PTO) {
		*bad = 1;
		return "(not a #pto attribute)";
	}
	return a->u.pto.value;
}

static unsigned refuse(ir_ctx *ctx, const ir_op *op, const char *name, const char *plain)
{
	int bad;
	const char *val = pto_value(op, name, &bad);
	if (!val || !strcmp(val, plain))
		return 0;
	return ir_op_error(ctx, op,
			   "%s %s is not supported yet (ptoc models the plain move, %s = %s; "
			   "docs/semantics.md §6.2)",
			   name, val, name, plain);
}

/* The value of attribute `name` among `vals` (its index), or -1 after an error; 0
 * when absent. */
static int one_of(ir_ctx *ctx, const ir_op *op, const char *name, const char *const *vals,
		  unsigned *nerr)
{
	int bad, i;
	const char *val = pto_value(op, name, &bad);
	if (!val)
		return 0;
	for (i = 0; vals[i]; i++)
		if (!bad && !strcmp(val, vals[i]))
			return i;
	*nerr += ir_op_error(ctx, op, "%s %s is not one of %s, %s%s%s%s%s", name, val, vals[0], vals[1],
			     vals[2] ? ", " : "", vals[2] ? vals[2] : "", vals[2] && vals[3] ? ", " : "",
			     vals[2] && vals[3] ? vals[3] : "");
	return -1;
}

static int elem(const ir_type *t, ptort_type *e)
{
	return !t || ir_type_to_elem(t, e);
}

/* The pairs of the fixpipe's pre-quantization (pto-isa's GetScalarPreQuantMode and
 * GetVectorPreQuantMode, the i32 -> i16 shift modes left out): f32 -> i8/ui8, and with
 * the scalar word f16/bf16; i32 -> i8/ui8/f16. */
static int quant_pair(ptort_type s, ptort_type d, int vector)
{
	if (s == PTORT_F32)
		return d == PTORT_I8 || d == PTORT_U8 || (!vector && (d == PTORT_F16 || d == PTORT_BF16));
	return s == PTORT_I32 && (d == PTORT_I8 || d == PTORT_U8 || d == PTORT_F16);
}

unsigned ir_verify_fixpipe(ir_ctx *ctx, const ir_op *op)
{
	static const char *const modes[] = {"single_mode_vec0", "single_mode_vec1", "dual_mode_split_m",
					    "dual_mode_split_n", NULL};
	static const char *const relus[] = {"no_relu", "normal_relu", NULL, NULL};
	static const char *const atomics[] = {"atomic_none", "atomic_add", NULL, NULL};
	const ir_type *src, *dst, *q = NULL, *delem;
	unsigned n = 0, nin;
	int mode, relu, atomic, store = op->code == IR_OP_TSTORE, acc;
	ptort_type se, de;
	char b[256], b2[64];
	if (op->code != IR_OP_TSTORE && op->code != IR_OP_TMOV) {
		n += refuse(ctx, op, "accToVecMode", "single_mode_vec0");
		n += refuse(ctx, op, "reluPreMode", "no_relu");
		n += refuse(ctx, op, "atomicType", "atomic_none");
		return n;
	}
	mode = one_of(ctx, op, "accToVecMode", modes, &n);
	relu = one_of(ctx, op, "reluPreMode", relus, &n);
	atomic = one_of(ctx, op, "atomicType", atomics, &n);
	if (n)
		return n;
	src = op->num_operands ? op->operands[0].value->type : NULL;
	dst = op->num_results ? op->results[0].type
			      : op->num_operands ? op->operands[op->num_operands - 1].value->type : NULL;
	nin = op->num_results ? op->num_operands : op->num_operands - 1;
	if (nin == 2 && op->num_results)
		return ir_op_error(ctx, op, "expects the destination-passing form for a pre-quant operand");
	if (!src || src->kind != IR_TYPE_TILE_BUF || !dst)
		return 0; /* the generic checks report it */
	if (nin == 2)
		q = op->operands[1].value->type;
	acc = src->u.tb.mem == IR_MEM_ACC;
	if (!acc && (q || relu > 0 || mode > 0))
		return ir_op_error(ctx, op, "expects src to be a loc=acc !pto.tile_buf for %s (the fixpipe's), "
				   "but got loc=%s",
				   q ? "a pre-quant operand" : relu > 0 ? "reluPreMode normal_relu" : "accToVecMode",
				   ir_mem_name(src->u.tb.mem));
	if (q && !(q->kind == IR_TYPE_INT && q->u.i.bits == 64) &&
	    !(q->kind == IR_TYPE_TILE_BUF && q->u.tb.mem == IR_MEM_SCALING))
		return ir_op_error(ctx, op, "expects the pre-quant operand to be an i64 word or a loc=scaling "
				   "!pto.tile_buf, but got '%s'", ir_type_str(q, b, sizeof b));
	if (store && mode > 0)
		return ir_op_error(ctx, op, "expects accToVecMode on a tmov into loc=vec only, but got a tstore");
	if (!store && mode > 0 && (dst->kind != IR_TYPE_TILE_BUF || dst->u.tb.mem != IR_MEM_VEC))
		return ir_op_error(ctx, op, "expects accToVecMode on a tmov into loc=vec only, but got loc=%s",
				   dst->kind == IR_TYPE_TILE_BUF ? ir_mem_name(dst->u.tb.mem) : "?");
	if (!store && atomic > 0)
		return ir_op_error(ctx, op, "expects atomicType atomic_add on a tstore only");
	delem = dst->kind == IR_TYPE_TILE_BUF ? dst->u.tb.elem
		: dst->kind == IR_TYPE_PART_VIEW ? dst->u.shaped.elem : NULL;
	if (elem(src->u.tb.elem, &se) || elem(delem, &de))
		return n;
	if (atomic > 0 && de != PTORT_F16 && de != PTORT_BF16 && de != PTORT_F32 && de != PTORT_I8 &&
	    de != PTORT_I16 && de != PTORT_I32)
		return ir_op_error(ctx, op, "expects atomic_add into a GM view of f16, bf16, f32, i8, i16 or "
				   "i32, but got %s", ir_type_str(delem, b, sizeof b));
	if (q && !quant_pair(se, de, q->kind == IR_TYPE_TILE_BUF))
		return ir_op_error(ctx, op, "expects a fixpipe quantization pair (%s), but got %s -> %s",
				   q->kind == IR_TYPE_TILE_BUF ? "f32 -> i8/ui8, i32 -> i8/ui8/f16"
							       : "f32 -> i8/ui8/f16/bf16, i32 -> i8/ui8/f16",
				   ir_type_str(src->u.tb.elem, b, sizeof b), ir_type_str(delem, b2, sizeof b2));
	if (mode >= 2 && (q || se != de))
		return ir_op_error(ctx, op, "expects no quantization or conversion in %s (pto-isa: dual "
				   "destinations require NoQuant), but got %s -> %s",
				   modes[mode], ir_type_str(src->u.tb.elem, b, sizeof b),
				   ir_type_str(delem, b2, sizeof b2));
	if (mode >= 2 && src->u.tb.v_row != IR_DYN && src->u.tb.v_col != IR_DYN &&
	    (mode == 2 ? src->u.tb.v_row : src->u.tb.v_col) % 2)
		return ir_op_error(ctx, op, "expects an even number of valid %s to split in %s, but got %lld",
				   mode == 2 ? "rows" : "columns", modes[mode],
				   (long long)(mode == 2 ? src->u.tb.v_row : src->u.tb.v_col));
	if (mode == 3 && (se == PTORT_F32 || se == PTORT_I32) && src->u.tb.v_col != IR_DYN && src->u.tb.v_col % 32)
		return ir_op_error(ctx, op, "expects a multiple of 32 valid columns to split a 32-bit tile in "
				   "dual_mode_split_n (pto-isa), but got %lld", (long long)src->u.tb.v_col);
	if (mode >= 2 && dst->kind == IR_TYPE_TILE_BUF && dst->u.tb.blayout == IR_BLAYOUT_COL_MAJOR &&
	    dst->u.tb.slayout == IR_SLAYOUT_NONE_BOX)
		return ir_op_error(ctx, op, "expects a destination that is not col-major ND (DN) in %s "
				   "(pto-isa: the dual modes have no NZ -> DN path)", modes[mode]);
	return n;
}
