/* verify_irregular.c: the verifier's rules for thistogram (semantics.md §7.8c; PTOAS's
 * checks, A5 only) and for tsort32 and tmrgsort (semantics.md §7.8b; pto-isa's checks):
 * every tile in vec and row-major; values f16 or f32, one type for all the value
 * tiles; tsort32's indices ui32 and covering src's valid region, dst holding its valid
 * rows; tmrgsort's tiles one row each, its one-list form with a constant block length
 * (a multiple of 64 that splits src's valid columns into 1 to 255 groups of 4 blocks),
 * its multi-list form 2 to 4 lists, a tmp tile of dst's shape and the executed counts
 * as a vector<4xi16>; and for tconcat (§7.8d; PTOAS's checks). The SSA form gets the
 * generic checks only (thistogram's target rule too). */
#include <stdio.h>
#include <string.h>

#include "ir/verify_move.h"
#include "target/target.h"

#define op_err ir_op_error

static const ir_type *otype(const ir_op *op, unsigned i)
{
	return i < op->num_operands && op->operands[i].value ? op->operands[i].value->type : NULL;
}

static unsigned vec_row_major(ir_ctx *ctx, const ir_op *op, const ir_type *ty, const char *role)
{
	char b[256];
	if (!ty || ty->kind != IR_TYPE_TILE_BUF || ty->u.tb.mem != IR_MEM_VEC ||
	    ty->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR)
		return op_err(ctx, op, "expects %s to be a loc=vec row_major !pto.tile_buf, but got '%s'", role,
			      ir_type_str(ty, b, sizeof b));
	return 0;
}

static int is_f16_f32(const ir_type *elem)
{
	ptort_type e;
	return !ir_type_to_elem(elem, &e) && (e == PTORT_F16 || e == PTORT_F32);
}

static unsigned verify_tsort32(ir_ctx *ctx, const ir_op *op)
{
	const ir_type *s, *x, *d;
	char b1[256], b2[256];
	ptort_type ie;
	unsigned n = op->num_operands;
	if (vec_row_major(ctx, op, s = otype(op, 0), "src") || vec_row_major(ctx, op, x = otype(op, 1), "idx") ||
	    (n == 4 && vec_row_major(ctx, op, otype(op, 2), "tmp")) ||
	    vec_row_major(ctx, op, d = otype(op, n - 1), "dst"))
		return 1;
	if (s->u.tb.elem != d->u.tb.elem)
		return op_err(ctx, op, "expects src and dst to have the same element type, but got '%s' and '%s'",
			      ir_type_str(s->u.tb.elem, b1, sizeof b1), ir_type_str(d->u.tb.elem, b2, sizeof b2));
	if (!is_f16_f32(s->u.tb.elem))
		return op_err(ctx, op, "expects src and dst element type to be f16 or f32, but got '%s'",
			      ir_type_str(s->u.tb.elem, b1, sizeof b1));
	if (ir_type_to_elem(x->u.tb.elem, &ie) || ie != PTORT_U32)
		return op_err(ctx, op, "expects idx element type to be ui32, but got '%s'",
			      ir_type_str(x->u.tb.elem, b1, sizeof b1));
	if ((s->u.tb.v_row != IR_DYN && (x->u.tb.rows < s->u.tb.v_row || d->u.tb.rows < s->u.tb.v_row)) ||
	    (s->u.tb.v_col != IR_DYN && x->u.tb.cols < s->u.tb.v_col))
		return op_err(ctx, op, "expects idx to cover src's valid region and dst to have its valid rows "
			      "(src %s, idx %lldx%lld, dst rows %lld)", ir_type_str(s, b1, sizeof b1),
			      (long long)x->u.tb.rows, (long long)x->u.tb.cols, (long long)d->u.tb.rows);
	return 0;
}

static unsigned one_row_list(ir_ctx *ctx, const ir_op *op, const ir_type *ty, const char *role,
			     const ir_type *elem)
{
	char b1[256], b2[256];
	if (vec_row_major(ctx, op, ty, role))
		return 1;
	if (ty->u.tb.rows != 1)
		return op_err(ctx, op, "expects %s to have 1 row, but it has %lld", role, (long long)ty->u.tb.rows);
	if (ty->u.tb.elem != elem)
		return op_err(ctx, op, "expects %s's element type '%s' to be dst's '%s'", role,
			      ir_type_str(ty->u.tb.elem, b1, sizeof b1), ir_type_str(elem, b2, sizeof b2));
	return 0;
}

static unsigned verify_tmrgsort(ir_ctx *ctx, const ir_op *op)
{
	static const char *const srcs[4] = {"src0", "src1", "src2", "src3"};
	unsigned n = op->num_operands, i;
	const ir_type *d, *last = otype(op, n - 1);
	char b1[256];
	if (ir_type_is_tile(last)) { /* the one-list form: src, blockLen; dst */
		const ir_type *s = otype(op, 0), *bl = otype(op, 1);
		int64_t len;
		if (n != 3)
			return op_err(ctx, op, "expects ins(src, blockLen) outs(dst), or 2 to 4 lists and tmp with "
				      "outs(dst, executed), but got %u operands", n);
		d = last;
		if (vec_row_major(ctx, op, d, "dst"))
			return 1;
		if (!is_f16_f32(d->u.tb.elem))
			return op_err(ctx, op, "expects element type f16 or f32, but got '%s'",
				      ir_type_str(d->u.tb.elem, b1, sizeof b1));
		if (one_row_list(ctx, op, d, "dst", d->u.tb.elem) || one_row_list(ctx, op, s, "src", d->u.tb.elem))
			return 1;
		if (!bl || bl->kind != IR_TYPE_INT)
			return op_err(ctx, op, "expects blockLen to be an integer, but got '%s'",
				      ir_type_str(bl, b1, sizeof b1));
		if (s->u.tb.cols != d->u.tb.cols)
			return op_err(ctx, op, "expects src and dst columns to match (%lld vs %lld)",
				      (long long)s->u.tb.cols, (long long)d->u.tb.cols);
		if (!ir_value_const_int(op->operands[1].value, &len))
			return 0;
		if (len <= 0 || len % 64)
			return op_err(ctx, op, "expects blockLen > 0 and a multiple of 64, but got %lld",
				      (long long)len);
		if (s->u.tb.v_col != IR_DYN &&
		    (s->u.tb.v_col % (4 * len) || s->u.tb.v_col / (4 * len) < 1 || s->u.tb.v_col / (4 * len) > 255))
			return op_err(ctx, op, "expects src's valid columns (%lld) to be 1 to 255 times 4 * blockLen "
				      "(%lld)", (long long)s->u.tb.v_col, (long long)(4 * len));
		return 0;
	}
	if (n < 5 || n > 7)
		return op_err(ctx, op, "expects 2 to 4 lists and tmp with outs(dst, executed), but got %u operands",
			      n);
	if (!last || last->kind != IR_TYPE_OPAQUE || strcmp(last->u.opaque.text, "vector<4xi16>"))
		return op_err(ctx, op, "expects the executed counts to be a vector<4xi16>, but got '%s'",
			      ir_type_str(last, b1, sizeof b1));
	d = otype(op, n - 2);
	if (vec_row_major(ctx, op, d, "dst"))
		return 1;
	if (!is_f16_f32(d->u.tb.elem))
		return op_err(ctx, op, "expects element type f16 or f32, but got '%s'",
			      ir_type_str(d->u.tb.elem, b1, sizeof b1));
	if (one_row_list(ctx, op, d, "dst", d->u.tb.elem) ||
	    one_row_list(ctx, op, otype(op, n - 3), "tmp", d->u.tb.elem))
		return 1;
	if (otype(op, n - 3)->u.tb.cols != d->u.tb.cols)
		return op_err(ctx, op, "expects tmp and dst to have one shape (1x%lld vs 1x%lld)",
			      (long long)otype(op, n - 3)->u.tb.cols, (long long)d->u.tb.cols);
	for (i = 0; i + 3 < n; i++)
		if (one_row_list(ctx, op, otype(op, i), srcs[i], d->u.tb.elem))
			return 1;
	return 0;
}

/* thistogram (A5 only): src 16-bit and row-major, idx 8-bit in one column (DN: col_major),
 * dst 32-bit and row-major with at least 256 columns; idx and dst have src's rows */
static unsigned verify_thistogram(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	static const char *const role[3] = {"src", "idx", "dst"};
	const ir_type *ty[3];
	char b[256];
	ptort_type e;
	unsigned i;
	(void)t;
	for (i = 0; i < 3; i++) {
		ty[i] = otype(op, i);
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC)
			return op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'", role[i],
				      ir_type_str(ty[i], b, sizeof b));
		if (ty[i]->u.tb.slayout != IR_SLAYOUT_NONE_BOX ||
		    ty[i]->u.tb.blayout != (i == 1 ? IR_BLAYOUT_COL_MAJOR : IR_BLAYOUT_ROW_MAJOR))
			return op_err(ctx, op, "expects %s to use %s + none_box layout", role[i],
				      i == 1 ? "col_major (DN)" : "row_major");
		if (ir_type_to_elem(ty[i]->u.tb.elem, &e) || ptort_type_bits(e) != (i == 0 ? 16u : i == 1 ? 8u : 32u) ||
		    ptort_type_is_float(e))
			return op_err(ctx, op, "expects %s element type to be %s, but got '%s'", role[i],
				      i == 0 ? "ui16" : i == 1 ? "ui8" : "ui32", ir_type_str(ty[i]->u.tb.elem, b, sizeof b));
	}
	for (i = 1; i < 3; i++)
		if (ty[i]->u.tb.rows != ty[0]->u.tb.rows ||
		    (ty[i]->u.tb.v_row != IR_DYN && ty[0]->u.tb.v_row != IR_DYN && ty[i]->u.tb.v_row != ty[0]->u.tb.v_row))
			return op_err(ctx, op, "expects %s rows and valid rows to match src", role[i]);
	if (ty[1]->u.tb.cols != 1 || ty[1]->u.tb.v_col != 1)
		return op_err(ctx, op, "expects idx to have exactly one column");
	if (ty[2]->u.tb.cols < 256 || (ty[2]->u.tb.v_col != IR_DYN && ty[2]->u.tb.v_col < 256))
		return op_err(ctx, op, "expects dst to have at least 256 valid columns (the bins)");
	return 0;
}

/* tconcat: src0, src1 and dst in vec, of one element type (8-, 16- or 32-bit integers,
 * f16, f32, bf16); the sources' valid rows are dst's and their valid columns fit in
 * dst's columns */
static unsigned verify_tconcat(ir_ctx *ctx, const ir_op *op)
{
	static const char *const role[3] = {"src0", "src1", "dst"};
	const ir_type *ty[3];
	char b[256];
	ptort_type e;
	unsigned i;
	for (i = 0; i < 3; i++) {
		ty[i] = otype(op, i);
		if (!ty[i] || ty[i]->kind != IR_TYPE_TILE_BUF || ty[i]->u.tb.mem != IR_MEM_VEC)
			return op_err(ctx, op, "expects %s to be a loc=vec !pto.tile_buf, but got '%s'", role[i],
				      ir_type_str(ty[i], b, sizeof b));
	}
	if (ty[0]->u.tb.elem != ty[2]->u.tb.elem || ty[1]->u.tb.elem != ty[2]->u.tb.elem)
		return op_err(ctx, op, "expects src0, src1, and dst to have the same element type");
	if (ir_type_to_elem(ty[2]->u.tb.elem, &e) ||
	    !(e == PTORT_I8 || e == PTORT_I16 || e == PTORT_I32 || e == PTORT_F16 || e == PTORT_F32 ||
	      e == PTORT_BF16))
		return op_err(ctx, op, "expects element type to be i8, i16, i32, f16, f32, or bf16, but got '%s'",
			      ir_type_str(ty[2]->u.tb.elem, b, sizeof b));
	for (i = 0; i < 2; i++)
		if (ty[i]->u.tb.v_row != IR_DYN && ty[2]->u.tb.v_row != IR_DYN && ty[i]->u.tb.v_row != ty[2]->u.tb.v_row)
			return op_err(ctx, op, "expects %s valid row to match dst valid row", role[i]);
	if (ty[0]->u.tb.v_col != IR_DYN && ty[1]->u.tb.v_col != IR_DYN &&
	    ty[0]->u.tb.v_col + ty[1]->u.tb.v_col > ty[2]->u.tb.cols)
		return op_err(ctx, op, "expects src0.valid_col + src1.valid_col <= dst.cols (%lld + %lld > %lld)",
			      (long long)ty[0]->u.tb.v_col, (long long)ty[1]->u.tb.v_col, (long long)ty[2]->u.tb.cols);
	return 0;
}

unsigned ir_verify_irregular(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	if (op->code == IR_OP_THISTOGRAM && t->id != PTOC_TARGET_A5)
		return op_err(ctx, op, "thistogram is only supported on A5");
	if (op->num_results)
		return 0; /* the SSA form: the generic checks */
	switch (op->code) {
	case IR_OP_TSORT32: return verify_tsort32(ctx, op);
	case IR_OP_TMRGSORT: return verify_tmrgsort(ctx, op);
	case IR_OP_TCONCAT: return verify_tconcat(ctx, op);
	default: return verify_thistogram(ctx, op, t);
	}
}
