/* subset.c: pto.subset (docs/semantics.md §7.8): the result type the parser derives
 * and the verifier's rules. A subset is a window of its source: element (i, j) of the
 * result is element (o0 + i, o1 + j) of the source, the same bytes with the source's
 * row pitch (an alias: place-tiles, insert-sync and the lowering follow it to the
 * source; passes/lower.c gives it its address). */
#include <stdio.h>

#include "ir/subset.h"

/* PTOAS's valid dim of a window: the parent's valid dim `pv` read as a period, so that
 * a window at offset pv (the pong half of a ping/pong workspace) is full again. */
static int64_t window_valid(int64_t pv, int64_t size, int64_t off, int has_off)
{
	int64_t diff;
	if (pv == IR_DYN || !has_off)
		return IR_DYN;
	if (pv <= 0)
		return 0;
	diff = pv - ((off % pv) + pv) % pv;
	return size < diff ? size : diff;
}

const ir_type *ir_subset_type(ir_ctx *ctx, const ir_type *src, const int64_t sizes[2],
			      const int64_t off[2], const int has_off[2])
{
	ir_type t;
	if (!src || src->kind != IR_TYPE_TILE_BUF || sizes[0] <= 0 || sizes[1] <= 0)
		return NULL;
	t = *src;
	t.u.tb.rows = sizes[0];
	t.u.tb.cols = sizes[1];
	t.u.tb.v_row = window_valid(src->u.tb.v_row, sizes[0], off ? off[0] : 0,
				    off && has_off[0]);
	t.u.tb.v_col = window_valid(src->u.tb.v_col, sizes[1], off ? off[1] : 0,
				    off && has_off[1]);
	return ir_type_tile_buf(ctx, &t);
}

int ir_subset_sizes(const ir_op *op, int64_t sizes[2])
{
	const ir_attr *a = ir_op_get_attr(op, "sizes");
	unsigned i;
	if (!a || a->kind != IR_ATTR_ARRAY || a->u.array.n != 2)
		return -1;
	for (i = 0; i < 2; i++) {
		if (a->u.array.elems[i]->kind != IR_ATTR_INT)
			return -1;
		sizes[i] = a->u.array.elems[i]->u.i.v;
	}
	return 0;
}

unsigned ir_verify_subset(ir_ctx *ctx, const ir_op *op)
{
	const ir_type *s = op->num_operands ? op->operands[0].value->type : NULL;
	const ir_type *r = op->num_results ? op->results[0].type : NULL, *want;
	int64_t sizes[2], off[2];
	int has[2] = {1, 1};
	ptort_type e;
	unsigned i, bits;
	char b1[256], b2[256];
	if (!s || s->kind != IR_TYPE_TILE_BUF)
		return ir_op_error(ctx, op, "expects source to be a !pto.tile_buf, but got '%s'",
				   ir_type_str(s, b1, sizeof b1));
	if (op->num_operands != 3)
		return ir_op_error(ctx, op, "expects 2 offsets (row, column), but got %u",
				   op->num_operands - 1);
	for (i = 1; i < 3; i++)
		if (op->operands[i].value->type->kind != IR_TYPE_INDEX &&
		    op->operands[i].value->type->kind != IR_TYPE_INT)
			return ir_op_error(ctx, op, "expects its offsets to be index values, but got '%s'",
					   ir_type_str(op->operands[i].value->type, b1, sizeof b1));
	if (ir_subset_sizes(op, sizes) || sizes[0] <= 0 || sizes[1] <= 0)
		return ir_op_error(ctx, op, "expects 'sizes' to be two positive integers [rows, cols]");
	/* [decision] ptoc takes windows of row-major none_box tiles only (no corpus file
	 * needs another): a window of a boxed tile is whole fractal rows of it (PTOAS's
	 * rule), which no op here needs yet */
	if (s->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR || s->u.tb.slayout != IR_SLAYOUT_NONE_BOX)
		return ir_op_error(ctx, op, "a subset of a %s %s tile is not supported (ptoc takes "
				   "windows of blayout=row_major, slayout=none_box tiles)",
				   s->u.tb.blayout == IR_BLAYOUT_ROW_MAJOR ? "row_major" : "col_major",
				   s->u.tb.slayout == IR_SLAYOUT_NONE_BOX ? "none_box" : "boxed");
	for (i = 0; i < 2; i++)
		if (!ir_value_const_int(op->operands[1 + i].value, &off[i]))
			/* [decision] the window's address and bounds are checked here and
			 * computed once: an offset must be a constant */
			return ir_op_error(ctx, op, "a run-time subset offset is not supported "
					   "(the %s offset must be an arith.constant)", i ? "column" : "row");
	if (s->u.tb.v_row == IR_DYN || s->u.tb.v_col == IR_DYN)
		return ir_op_error(ctx, op, "a subset of a tile with a dynamic valid shape is not "
				   "supported");
	if (off[0] < 0 || off[1] < 0 || off[0] + sizes[0] > s->u.tb.rows ||
	    off[1] + sizes[1] > s->u.tb.cols)
		return ir_op_error(ctx, op, "the window rows [%lld, %lld), cols [%lld, %lld) leaves "
				   "the %lldx%lld source", (long long)off[0],
				   (long long)(off[0] + sizes[0]), (long long)off[1],
				   (long long)(off[1] + sizes[1]), (long long)s->u.tb.rows,
				   (long long)s->u.tb.cols);
	bits = ir_type_to_elem(s->u.tb.elem, &e) ? 8 : ptort_type_bits(e); /* tile_buf: always one */
	/* every tile starts on a 32-byte block (semantics.md §5), so must a window: its
	 * first element lies (o0 * cols + o1) elements into the source */
	if ((uint64_t)(off[0] * s->u.tb.cols + off[1]) * bits % 256)
		return ir_op_error(ctx, op, "the window at [%lld, %lld] does not start on a 32-byte "
				   "block of the source (a column offset of a %s tile is a multiple "
				   "of %u elements)", (long long)off[0], (long long)off[1],
				   ir_type_str(s->u.tb.elem, b1, sizeof b1), 256 / bits);
	want = ir_subset_type(ctx, s, sizes, off, has);
	if (r != want)
		return ir_op_error(ctx, op, "expects result type '%s' (the source's with shape "
				   "sizes and the valid shape left at the offsets), but got '%s'",
				   ir_type_str(want, b1, sizeof b1), ir_type_str(r, b2, sizeof b2));
	return 0;
}
