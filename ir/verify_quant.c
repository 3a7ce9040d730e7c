/* verify_quant.c: the verifier's rules for tquant and tdequant (semantics.md §7.8g;
 * PTOAS's checks and the element types pto-isa's library asserts): every tile in vec;
 * tquant's quant_type INT8_SYM (no offset, an i8 dst) or INT8_ASYM (an offset, a ui8
 * dst), src, fp and offset f32; tdequant's src i8 or i16, dst, scale and offset f32;
 * src and dst of one valid shape and row-major on A2A3; the parameter tiles holding
 * a value for each of src's valid rows. And for textract_fp and tinsert_fp (§6.2a):
 * src in acc, fp in scaling, dst in mat (or vec on A5), a fixpipe quantization pair
 * and a constant origin that keeps the region inside the tiles. The SSA form gets the
 * generic checks only. */
#include <string.h>

#include "ir/verify_move.h"
#include "target/target.h"

#define op_err ir_op_error

static const ir_type *otype(const ir_op *op, unsigned i)
{
	return i < op->num_operands && op->operands[i].value ? op->operands[i].value->type : NULL;
}

static int elem_of(const ir_type *ty, ptort_type *e)
{
	return ir_type_to_elem(ty->u.tb.elem, e);
}

/* the shared rules: tiles in vec, the shapes, the layouts; roles[0] src, last dst */
static unsigned tiles(ir_ctx *ctx, const ir_op *op, const struct target *t, const char *const *role)
{
	const ir_type *ty[4];
	unsigned n = op->num_operands, i;
	char b[256];
	for (i = 0; i < n; i++) {
		ty[i] = otype(op, i);
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC)
			return op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'", role[i],
				      ir_type_str(ty[i], b, sizeof b));
	}
	if ((ty[0]->u.tb.v_row != IR_DYN && ty[n - 1]->u.tb.v_row != IR_DYN && ty[0]->u.tb.v_row != ty[n - 1]->u.tb.v_row) ||
	    (ty[0]->u.tb.v_col != IR_DYN && ty[n - 1]->u.tb.v_col != IR_DYN && ty[0]->u.tb.v_col != ty[n - 1]->u.tb.v_col))
		return op_err(ctx, op, "expects src and dst to have the same valid_shape");
	for (i = 1; i + 1 < n; i++)
		if (ty[i]->u.tb.v_row != IR_DYN && ty[0]->u.tb.v_row != IR_DYN && ty[i]->u.tb.v_row < ty[0]->u.tb.v_row)
			return op_err(ctx, op, "expects %s to have a valid row for each of src's %lld valid rows (one "
				      "parameter per row), but it has %lld", role[i], (long long)ty[0]->u.tb.v_row,
				      (long long)ty[i]->u.tb.v_row);
	if (t->id == PTOC_TARGET_A2A3 &&
	    (ty[0]->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR || ty[n - 1]->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR))
		return op_err(ctx, op, "expects A2/A3 src and dst to use row-major layout");
	return 0;
}

static unsigned verify_tquant(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	static const char *const role3[3] = {"src", "fp", "dst"}, *const role4[4] = {"src", "fp", "offset", "dst"};
	const ir_attr *a = ir_op_get_attr(op, "quant_type");
	const char *q = a && a->kind == IR_ATTR_PTO && !strcmp(a->u.pto.kind, "quant_type") ? a->u.pto.value : NULL;
	int sym, has_off = op->num_operands == 4;
	const ir_type *dst;
	ptort_type e;
	unsigned i;
	char b[64];
	if (!a)
		return op_err(ctx, op, "expects a quant_type attribute (#pto<quant_type INT8_SYM> or "
			      "#pto<quant_type INT8_ASYM>)");
	if (!q || (strcmp(q, "INT8_SYM") && strcmp(q, "INT8_ASYM")))
		return op_err(ctx, op, "expects plain tquant quant_type to be INT8_SYM or INT8_ASYM, but got %s",
			      q ? q : "another attribute");
	sym = !strcmp(q, "INT8_SYM");
	if (sym && has_off)
		return op_err(ctx, op, "INT8_SYM quantization must not have an offset operand");
	if (!sym && !has_off)
		return op_err(ctx, op, "INT8_ASYM quantization requires an offset operand");
	dst = otype(op, op->num_operands - 1);
	if (dst && dst->kind == IR_TYPE_TILE_BUF && (elem_of(dst, &e) || e != (sym ? PTORT_I8 : PTORT_U8)))
		return op_err(ctx, op, "expects dst element type %s for %s quantization", sym ? "i8" : "ui8", q);
	if (tiles(ctx, op, t, has_off ? role4 : role3))
		return 1;
	for (i = 0; i + 1 < op->num_operands; i++)
		if (elem_of(otype(op, i), &e) || e != PTORT_F32)
			return op_err(ctx, op, "expects %s to have element type f32, but got '%s'",
				      (has_off ? role4 : role3)[i], ir_type_str(otype(op, i)->u.tb.elem, b, sizeof b));
	return 0;
}

static unsigned verify_tdequant(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	static const char *const role[4] = {"src", "scale", "offset", "dst"};
	ptort_type e;
	unsigned i;
	if (tiles(ctx, op, t, role))
		return 1;
	if (elem_of(otype(op, 0), &e) || (e != PTORT_I8 && e != PTORT_I16))
		return op_err(ctx, op, "expects src element type i8 or i16");
	for (i = 1; i < 4; i++)
		if (elem_of(otype(op, i), &e) || e != PTORT_F32)
			return op_err(ctx, op, "expects %s element type f32", role[i]);
	return 0;
}

static const char *mem_name(const ir_type *ty, char *b, size_t n)
{
	return ir_type_str(ty, b, n);
}

/* textract_fp, tinsert_fp (semantics.md §6.2a): src in acc, fp in scaling, dst in mat
 * (or vec on A5), a quantization pair, the moved region inside both tiles */
static unsigned verify_movfp(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	const ir_type *src = otype(op, 0), *fp = otype(op, 1), *dst = otype(op, 4);
	int ins = op->code == IR_OP_TINSERT_FP;
	ptort_type s, d;
	int64_t r0 = 0, c0 = 0, vr, vc;
	char b[256], b2[64];
	if (!src || src->kind != IR_TYPE_TILE_BUF || src->u.tb.mem != IR_MEM_ACC)
		return op_err(ctx, op, "expects src to be a loc=acc !pto.tile_buf, but got '%s'", mem_name(src, b, sizeof b));
	if (!fp || fp->kind != IR_TYPE_TILE_BUF || fp->u.tb.mem != IR_MEM_SCALING)
		return op_err(ctx, op, "expects fp to be a loc=scaling !pto.tile_buf, but got '%s'", mem_name(fp, b, sizeof b));
	if (!dst || dst->kind != IR_TYPE_TILE_BUF ||
	    !(dst->u.tb.mem == IR_MEM_MAT || (dst->u.tb.mem == IR_MEM_VEC && t->id == PTOC_TARGET_A5)))
		return op_err(ctx, op, "expects dst to be a loc=mat !pto.tile_buf (or loc=vec on A5), but got '%s'",
			      mem_name(dst, b, sizeof b));
	if (elem_of(src, &s) || elem_of(dst, &d) ||
	    !((s == PTORT_F32 && (d == PTORT_I8 || d == PTORT_U8)) ||
	      (s == PTORT_I32 && (d == PTORT_I8 || d == PTORT_U8 || d == PTORT_F16))))
		return op_err(ctx, op, "expects a fixpipe quantization pair (f32 -> i8/ui8, i32 -> i8/ui8/f16), "
			      "but got %s -> %s", ir_type_str(src->u.tb.elem, b, sizeof b),
			      ir_type_str(dst->u.tb.elem, b2, sizeof b2));
	vr = ins ? src->u.tb.v_row : dst->u.tb.v_row;
	vc = ins ? src->u.tb.v_col : dst->u.tb.v_col;
	if (!ir_value_const_int(op->operands[2].value, &r0) || !ir_value_const_int(op->operands[3].value, &c0))
		return 0; /* a run-time origin: the run time checks the region */
	if (vr != IR_DYN && vc != IR_DYN &&
	    (r0 < 0 || c0 < 0 || r0 + vr > (ins ? dst : src)->u.tb.rows || c0 + vc > (ins ? dst : src)->u.tb.cols))
		return op_err(ctx, op, "expects the %lldx%lld region at (%lld, %lld) to fit in %s's %lldx%lld",
			      (long long)vr, (long long)vc, (long long)r0, (long long)c0, ins ? "dst" : "src",
			      (long long)(ins ? dst : src)->u.tb.rows, (long long)(ins ? dst : src)->u.tb.cols);
	return 0;
}

unsigned ir_verify_quant(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	if (op->num_results)
		return 0; /* the SSA form: the generic checks */
	if (op->code == IR_OP_TEXTRACT_FP || op->code == IR_OP_TINSERT_FP)
		return verify_movfp(ctx, op, t);
	return op->code == IR_OP_TQUANT ? verify_tquant(ctx, op, t) : verify_tdequant(ctx, op, t);
}
