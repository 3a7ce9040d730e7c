/* verify_tile.c: the verifier's rules for the tile and view ops (docs/semantics.md):
 * alloc_tile, tassign, tload/tprefetch/tstore, tcvt, tmov, textract, the pointer
 * ops, the aliases (treshape, bitcast), tgetval/tsetval, set_validshape,
 * make_tensor_view and partition_view. Called by verify.c's dispatch. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"
#include "target/target.h"

/* ---- pto ops ------------------------------------------------------------------- */

static const ir_attr *seg_sizes(const ir_op *op, unsigned want, int64_t *out)
{
	const ir_attr *a = ir_op_get_attr(op, "operandSegmentSizes");
	unsigned i;
	if (!a || a->kind != IR_ATTR_DENSE || a->u.dense.n != want)
		return NULL;
	for (i = 0; i < want; i++)
		out[i] = a->u.dense.v[i];
	return a;
}

void verify_alloc_tile(vctx *v, const ir_op *op)
{
	int64_t seg[3] = {0, 0, 0};
	const ir_type *t = op->results[0].type;
	unsigned i, k = 0;
	static const char *const names[3] = {"addr", "valid_row", "valid_col"};
	if (!t || t->kind != IR_TYPE_TILE_BUF) {
		op_error(v, op, "result must be a !pto.tile_buf, but got '%s'", tstr(t));
		return;
	}
	if (!seg_sizes(op, 3, seg)) {
		if (op->num_operands) {
			op_error(v, op, "requires attribute 'operandSegmentSizes' (array<i32: addr, valid_row, valid_col>)");
			return;
		}
	}
	for (i = 0; i < 3; i++)
		if (seg[i] < 0 || seg[i] > 1) {
			op_error(v, op, "operandSegmentSizes entry for '%s' must be 0 or 1", names[i]);
			return;
		}
	if ((unsigned)(seg[0] + seg[1] + seg[2]) != op->num_operands) {
		op_error(v, op, "operandSegmentSizes sums to %lld but the op has %u operands",
			 (long long)(seg[0] + seg[1] + seg[2]), op->num_operands);
		return;
	}
	if (seg[0] && !is_int_or_index(vtype(op, k)))
		op_error(v, op, "expects addr to be an integer or index, but got '%s'", tstr(vtype(op, k)));
	k += (unsigned)seg[0];
	for (i = 1; i < 3; i++) {
		int64_t tv = i == 1 ? t->u.tb.v_row : t->u.tb.v_col;
		const char *fld = i == 1 ? "v_row" : "v_col";
		if (tv == IR_DYN && !seg[i])
			op_error(v, op, "%s operand is required because result type %s is ?", names[i], fld);
		else if (tv != IR_DYN && seg[i])
			op_error(v, op, "%s operand must be absent because result type %s is %lld",
				 names[i], fld, (long long)tv);
		if (seg[i]) {
			if (!is_int_or_index(vtype(op, k)))
				op_error(v, op, "expects %s to be an integer or index, but got '%s'", names[i],
					 tstr(vtype(op, k)));
			k++;
		}
	}
}

void verify_tassign(vctx *v, const ir_op *op)
{
	const ir_type *t = vtype(op, 0), *a = vtype(op, 1);
	if (!ir_type_is_tile(t))
		op_error(v, op, "expects tile to be a tile, but got '%s'", tstr(t));
	if (!is_int_or_index(a))
		op_error(v, op, "expects addr to be an integer, but got '%s'", tstr(a));
	if (op->num_results > 1)
		op_error(v, op, "expected 0 or 1 results, but found %u", op->num_results);
	else if (op->num_results == 1 && op->results[0].type != t)
		op_error(v, op, "result type must match tile operand type");
}

/* Product of static dims; -1 when any is dynamic. */
static int64_t static_count(const int64_t *d, unsigned n)
{
	int64_t p = 1;
	unsigned i;
	for (i = 0; i < n; i++) {
		if (d[i] < 0)
			return -1;
		if (d[i] && p > INT64_MAX / d[i])
			return -1;
		p *= d[i];
	}
	return p;
}

/* tstore from an f32 acc tile may convert to f16 or bf16 on the way (fixpipe: RINT,
 * saturated); every other transfer copies bit patterns of one element type. */
static int acc_store_cvt(int load, const tinfo *ti, const ir_type *gm_elem)
{
	ptort_type te, ge;
	if (load || ti->mem != IR_MEM_ACC || ir_type_to_elem(ti->elem, &te) ||
	    ir_type_to_elem(gm_elem, &ge))
		return 0;
	return (te == PTORT_F32 && (ge == PTORT_F16 || ge == PTORT_BF16)) ||
	       (te == PTORT_I32 && ge == PTORT_F16); /* §6.2b: as a word of scale 1.0 */
}

/* A partition of rank 3-5 whose outer dims (all but the last two) are not all 1 moves
 * as a 2-D region (docs/semantics.md §6.2): its outer dims flatten into the rows of a
 * row-major tile, the columns of a col-major one; a boxed tile takes outer dims 1
 * only. With every dim static, the tile's valid shape must be that region. */
static int check_flat_partition(vctx *v, const ir_op *op, const ir_type *view,
				const ir_type *tile, const tinfo *ti, const char *vr, const char *tr)
{
	const int64_t *d = view->u.shaped.dims;
	unsigned rank = view->u.shaped.rank, i;
	int64_t outer = 1, pr, pc;
	int col_major = tile->kind == IR_TYPE_TILE_BUF && tile->u.tb.blayout == IR_BLAYOUT_COL_MAJOR;
	for (i = 0; i + 2 < rank; i++) {
		if (dyn(d[i]) || outer > INT64_MAX / (d[i] ? d[i] : 1))
			return 0; /* dynamic: the runtime checks the region */
		outer *= d[i];
	}
	if (outer == 1)
		return 0;
	if (tile->kind == IR_TYPE_TILE_BUF && tile->u.tb.slayout != IR_SLAYOUT_NONE_BOX) {
		op_error(v, op, "expects the outer dims of %s to be 1 for a boxed (fractal) %s tile, but got '%s'",
			 vr, tr, tstr(view));
		return -1;
	}
	if (dyn(d[rank - 2]) || dyn(d[rank - 1]) || dyn(ti->vr) || dyn(ti->vc))
		return 0;
	pr = col_major ? d[rank - 2] : outer * d[rank - 2];
	pc = col_major ? outer * d[rank - 1] : d[rank - 1];
	if (ti->vr != pr || ti->vc != pc) {
		op_error(v, op,
			 "expects %s valid_shape %lldx%lld to be the %s partition flattened for a %s "
			 "tile (%lldx%lld: outer dims into %s)",
			 tr, (long long)ti->vr, (long long)ti->vc, vr, col_major ? "col-major" : "row-major",
			 (long long)pr, (long long)pc, col_major ? "columns" : "rows");
		return -1;
	}
	return 0;
}

/* tload: view -> tile; tstore: tile -> view. */
void verify_transfer(vctx *v, const ir_op *op, int load)
{
	const ir_type *view = load ? vtype(op, 0) : dst_type(op);
	const ir_type *tile = load ? dst_type(op) : vtype(op, 0);
	const char *vr = load ? "src" : "dst", *tr = load ? "dst" : "src";
	tinfo ti;
	int64_t vn, tn, vd[2];
	unsigned i;
	if (!view || view->kind != IR_TYPE_PART_VIEW) {
		op_error(v, op, "expects %s to be a !pto.partition_tensor_view, but got '%s'", vr, tstr(view));
		view = NULL;
	}
	if (check_tile_use(v, op, tile, tr, &ti))
		return;
	if (!view)
		return;
	for (i = 0; i < view->u.shaped.rank; i++)
		if (!dyn(view->u.shaped.dims[i]) && view->u.shaped.dims[i] <= 0) {
			op_error(v, op, "expects %s dims to be positive", vr);
			return;
		}
	if ((!dyn(ti.vr) && ti.vr <= 0) || (!dyn(ti.vc) && ti.vc <= 0)) {
		op_error(v, op, "expects %s valid_shape dims to be positive", tr);
		return;
	}
	/* with a pre-quant operand the pair is verify_fixpipe.c's */
	if (view->u.shaped.elem != ti.elem && !acc_store_cvt(load, &ti, view->u.shaped.elem) &&
	    (load || num_ins(op) != 2))
		op_error(v, op, "expects %s and %s to have the same element type, but got '%s' and '%s'",
			 vr, tr, tstr(view->u.shaped.elem), tstr(ti.elem));
	if (view->u.shaped.rank > 2 && check_flat_partition(v, op, view, tile, &ti, vr, tr))
		return;
	vd[0] = ti.vr;
	vd[1] = ti.vc;
	vn = static_count(view->u.shaped.dims, view->u.shaped.rank);
	tn = dyn(ti.vr) || dyn(ti.vc) ? -1 : static_count(vd, 2);
	if (vn >= 0 && tn >= 0 && vn != tn)
		op_error(v, op, "expects %s static element count (%lld) to match %s valid_shape static element count (%lld)",
			 vr, (long long)vn, tr, (long long)tn);
}

void verify_tcvt(vctx *v, const ir_op *op)
{
	tinfo s, d, t;
	int bad = 0;
	unsigned nin = num_ins(op);
	bad |= check_tile_use(v, op, vtype(op, 0), "src", &s);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &d);
	if (nin == 2)
		bad |= check_tile_use(v, op, vtype(op, 1), "tmp", &t);
	if (bad)
		return;
	if (dyn(s.rows) || dyn(s.cols) || dyn(d.rows) || dyn(d.cols))
		return; /* a dynamic !pto.tile shape, reported where it is defined */
	if (s.rows != d.rows || s.cols != d.cols)
		op_error(v, op, "expects src and dst to have compatible shapes");
	else if (!dyn(s.vr) && !dyn(s.vc) && !dyn(d.vr) && !dyn(d.vc) &&
		 (s.vr != d.vr || s.vc != d.vc))
		op_error(v, op, "expects src and dst to have the same valid_shape");
}

void verify_tmov(vctx *v, const ir_op *op)
{
	tinfo s, d;
	const ptoc_tmov_pair *mv;
	int bad = check_tile_use(v, op, vtype(op, 0), "src", &s);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &d);
	if (bad || !s.buf || !d.buf)
		return;
	mv = s.mem > IR_MEM_NONE && d.mem > IR_MEM_NONE
		     ? target_find_tmov(v->t, (ptoc_loc)(s.mem - IR_MEM_VEC), (ptoc_loc)(d.mem - IR_MEM_VEC))
		     : NULL;
	if (!mv) {
		op_error(v, op, "expects a supported tmov address-space pair for this target (got %s -> %s)",
			 ir_mem_name(s.mem), ir_mem_name(d.mem));
		return;
	}
	if (!mv->reshape && (s.rows != d.rows || s.cols != d.cols)) {
		op_error(v, op, "expects src and dst to have the same shape");
		return;
	}
	/* element types: copies, except the acc f32 -> f16/bf16 conversion of the fixpipe */
	if (s.elem != d.elem && num_ins(op) != 2) { /* a pre-quant operand: verify_fixpipe.c */
		ptort_type se, de;
		int cvt = s.mem == IR_MEM_ACC && !ir_type_to_elem(s.elem, &se) &&
			  !ir_type_to_elem(d.elem, &de) && se == PTORT_F32 &&
			  (de == PTORT_F16 || de == PTORT_BF16);
		if (!cvt)
			op_error(v, op, "expects src and dst to have the same element type (only acc "
					"f32 converts, to f16 or bf16), but got '%s' and '%s'",
				 tstr(s.elem), tstr(d.elem));
	}
	if (!dyn(s.vr) && !dyn(s.vc) && !dyn(d.vr) && !dyn(d.vc) && (s.vr != d.vr || s.vc != d.vc))
		op_error(v, op, "expects src and dst to have the same valid_shape (%lldx%lld vs %lldx%lld)",
			 (long long)s.vr, (long long)s.vc, (long long)d.vr, (long long)d.vc);
}

/* textract (docs/semantics.md §7.8): a window of src at (indexRow, indexCol) into dst,
 * same element type, between the memories and of the element types the target's
 * table lists (target.h). */
static int const_operand(const ir_op *op, unsigned i, int64_t *out);

void verify_textract(vctx *v, const ir_op *op)
{
	tinfo s, d;
	int64_t k[2] = {0, 0};
	int known[2] = {0, 0};
	ptort_type e;
	unsigned i;
	int bad = check_tile_use(v, op, vtype(op, 0), "src", &s);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &d);
	if (bad)
		return;
	for (i = 1; i <= 2; i++) {
		const ir_type *t = vtype(op, i);
		if (!t || t->kind != IR_TYPE_INDEX) {
			op_error(v, op, "expects %s to be index, but got '%s'",
				 i == 1 ? "indexRow" : "indexCol", tstr(t));
			return;
		}
		known[i - 1] = const_operand(op, i, &k[i - 1]);
		if (known[i - 1] && k[i - 1] < 0) {
			op_error(v, op, "expects indexRow/indexCol to be non-negative");
			return;
		}
	}
	if (s.elem != d.elem) {
		op_error(v, op, "expects src and dst to have the same element type, but got '%s' and '%s'",
			 tstr(s.elem), tstr(d.elem));
		return;
	}
	if (ir_type_to_elem(d.elem, &e) || !(v->t->extract_types >> e & 1)) {
		char list[256];
		size_t n = 0;
		unsigned t;
		list[0] = 0;
		for (t = 0; t < PTORT_TYPE_COUNT; t++)
			if (v->t->extract_types >> t & 1)
				n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0,
						      "%s%s", n ? ", " : "", ptort_type_name((ptort_type)t));
		op_error(v, op, "expects %s textract element type to be one of %s, but got '%s'",
			 v->t->title, list, tstr(d.elem));
		return;
	}
	if (s.buf && d.buf &&
	    (s.mem <= IR_MEM_NONE || d.mem <= IR_MEM_NONE ||
	     !target_has_extract(v->t, (ptoc_loc)(s.mem - IR_MEM_VEC), (ptoc_loc)(d.mem - IR_MEM_VEC)))) {
		op_error(v, op, "expects a supported textract address-space pair for %s (got %s -> %s)",
			 v->t->title, ir_mem_name(s.mem), ir_mem_name(d.mem));
		return;
	}
	if (s.buf && d.buf && s.mem == IR_MEM_VEC && d.mem == IR_MEM_VEC &&
	    (s.t->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR || s.t->u.tb.slayout != IR_SLAYOUT_NONE_BOX ||
	     d.t->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR || d.t->u.tb.slayout != IR_SLAYOUT_NONE_BOX)) {
		op_error(v, op, "expects %s vec->vec textract src/dst to use ND layout (blayout=row_major, "
				"slayout=none_box)", v->t->title);
		return;
	}
	if ((known[0] && !dyn(d.vr) && k[0] + d.vr > s.rows) ||
	    (known[1] && !dyn(d.vc) && k[1] + d.vc > s.cols))
		op_error(v, op, "expects the %lldx%lld window at (%lld, %lld) to fit in the %lldx%lld src",
			 (long long)d.vr, (long long)d.vc, (long long)k[0], (long long)k[1],
			 (long long)s.rows, (long long)s.cols);
}

/* addptr, load_scalar, store_scalar, get_tensor_view_dim (docs/semantics.md §8.6) */
void verify_ptr_ops(vctx *v, const ir_op *op)
{
	const ir_type *p = vtype(op, 0), *i = vtype(op, 1);
	const ir_type *r = op->num_results ? op->results[0].type : NULL;
	int64_t k;
	if (op->code == IR_OP_GET_TENSOR_VIEW_DIM) {
		if (!p || p->kind != IR_TYPE_TENSOR_VIEW)
			op_error(v, op, "expects tensor_view to be a !pto.tensor_view, but got '%s'", tstr(p));
		else if (!i || i->kind != IR_TYPE_INDEX)
			op_error(v, op, "expects dim_index to be index, but got '%s'", tstr(i));
		else if (!r || r->kind != IR_TYPE_INDEX)
			op_error(v, op, "expects the result to be index, but got '%s'", tstr(r));
		else if (const_operand(op, 1, &k) && (k < 0 || k >= p->u.shaped.rank))
			op_error(v, op, "expects dim_index %lld to be a dim of the rank-%u view",
				 (long long)k, p->u.shaped.rank);
		return;
	}
	if (!p || p->kind != IR_TYPE_PTR) {
		op_error(v, op, "expects ptr to be a !pto.ptr, but got '%s'", tstr(p));
		return;
	}
	if (!i || i->kind != IR_TYPE_INDEX) {
		op_error(v, op, "expects offset to be index, but got '%s'", tstr(i));
		return;
	}
	if (op->code == IR_OP_ADDPTR) {
		if (r != p)
			op_error(v, op, "expects the result type '%s' to be the ptr's type '%s'", tstr(r),
				 tstr(p));
		return;
	}
	if (op->code == IR_OP_STORE_SCALAR)
		r = vtype(op, 2);
	if (r != p->u.ptr.elem)
		op_error(v, op, "expects the %s type '%s' to be the ptr's element type '%s'",
			 op->code == IR_OP_LOAD_SCALAR ? "result" : "value", tstr(r), tstr(p->u.ptr.elem));
	else if (const_operand(op, 1, &k) && k < 0)
		op_error(v, op, "expects offset to be non-negative (got %lld)", (long long)k);
}

/* The source and result types of an alias (treshape, bitcast): tile_buf types of one
 * memory; -1 after reporting. */
static int alias_types(vctx *v, const ir_op *op, const ir_type **s, const ir_type **r)
{
	*s = vtype(op, 0), *r = op->num_results ? op->results[0].type : NULL;
	if (!*s || !*r || (*s)->kind != IR_TYPE_TILE_BUF || (*r)->kind != IR_TYPE_TILE_BUF) {
		op_error(v, op, "expects src and result to be tile_buf types, but got '%s' and '%s'",
			 tstr(*s), tstr(*r));
		return -1;
	}
	if ((*s)->u.tb.mem != (*r)->u.tb.mem) {
		op_error(v, op, "expects src and result to have the same memory space (%s vs %s)",
			 ir_mem_name((*s)->u.tb.mem), ir_mem_name((*r)->u.tb.mem));
		return -1;
	}
	return 0;
}

/* bitcast (docs/semantics.md §7.8): PTOAS's rules: tile_buf types of the same memory,
 * shape, valid shape and configuration, different element types, no more bytes than
 * the source. */
void verify_bitcast(vctx *v, const ir_op *op)
{
	const ir_type *s, *r;
	ptort_type es, er;
	if (alias_types(v, op, &s, &r))
		return;
	if (s->u.tb.elem == r->u.tb.elem)
		op_error(v, op, "expects src and result to have different element types; a shape "
			 "change is pto.treshape");
	else if (s->u.tb.rows != r->u.tb.rows || s->u.tb.cols != r->u.tb.cols)
		op_error(v, op, "expects src and result to have the same shape; a shape change is "
			 "pto.treshape");
	else if (s->u.tb.v_row != r->u.tb.v_row || s->u.tb.v_col != r->u.tb.v_col)
		op_error(v, op, "expects src and result to have the same valid_shape");
	else if (s->u.tb.blayout != r->u.tb.blayout || s->u.tb.slayout != r->u.tb.slayout ||
		 s->u.tb.fractal != r->u.tb.fractal || s->u.tb.pad != r->u.tb.pad)
		op_error(v, op, "expects src and result to have the same tile config");
	else if (ir_type_to_elem(s->u.tb.elem, &es) || ir_type_to_elem(r->u.tb.elem, &er))
		op_error(v, op, "expects element types with a runtime type");
	else if (ptort_type_bits(er) > ptort_type_bits(es))
		op_error(v, op, "expects the result to need no more bytes than the source (%s -> %s)",
			 tstr(s->u.tb.elem), tstr(r->u.tb.elem));
}

/* tgetval / tsetval (docs/semantics.md §7.9): a vec tile, an index offset inside its
 * storage when constant, the scalar of the tile's element type. */
void verify_getset(vctx *v, const ir_op *op)
{
	int get = op->code == IR_OP_TGETVAL;
	const ir_type *t = get ? vtype(op, 0) : dst_type(op);
	const ir_type *off = vtype(op, get ? 1 : 0);
	const ir_type *val = get ? (op->num_results ? op->results[0].type : NULL) : vtype(op, 1);
	int64_t k;
	tinfo ti;
	if (check_tile_use(v, op, t, get ? "src" : "dst", &ti) || !ti.buf) {
		if (!ti.buf && ti.t)
			op_error(v, op, "expects %s to be a tile_buf", get ? "src" : "dst");
		return;
	}
	if (ti.mem != IR_MEM_VEC) {
		op_error(v, op, "expects %s to be in vec (loc=vec), but got loc=%s%s", get ? "src" : "dst",
			 ir_mem_name(ti.mem), ti.mem == IR_MEM_MAT
			 ? " (the scalar unit reads and writes UB only)" : "");
		return;
	}
	if (!off || off->kind != IR_TYPE_INDEX) {
		op_error(v, op, "expects offset to be index, but got '%s'", tstr(off));
		return;
	}
	if (val != ti.elem) {
		op_error(v, op, "expects the %s type '%s' to be the tile's element type '%s'",
			 get ? "result" : "value", tstr(val), tstr(ti.elem));
		return;
	}
	if (const_operand(op, get ? 1 : 0, &k) && (k < 0 || k >= ti.rows * ti.cols))
		op_error(v, op, "expects offset %lld to lie in the %lldx%lld tile", (long long)k,
			 (long long)ti.rows, (long long)ti.cols);
}

/* treshape (docs/semantics.md §7.8): the source's bytes as another tile_buf type of
 * the same memory, element type and element count; boxed stays boxed (PTOAS, pto-isa). */
void verify_treshape(vctx *v, const ir_op *op)
{
	const ir_type *s, *r;
	if (alias_types(v, op, &s, &r))
		return;
	if (s->u.tb.elem != r->u.tb.elem)
		op_error(v, op, "expects src and result to have the same element type ('%s' vs "
			 "'%s'); a dtype change is pto.bitcast", tstr(s->u.tb.elem), tstr(r->u.tb.elem));
	else if (s->u.tb.rows * s->u.tb.cols != r->u.tb.rows * r->u.tb.cols)
		op_error(v, op, "expects src and result to have the same number of elements "
			 "(%lldx%lld vs %lldx%lld)", (long long)s->u.tb.rows, (long long)s->u.tb.cols,
			 (long long)r->u.tb.rows, (long long)r->u.tb.cols);
	else if ((s->u.tb.slayout == IR_SLAYOUT_NONE_BOX) != (r->u.tb.slayout == IR_SLAYOUT_NONE_BOX))
		op_error(v, op, "expects src and result both boxed or both none_box (a reshape "
			 "cannot change boxing)");
}

void verify_set_validshape(vctx *v, const ir_op *op)
{
	const ir_type *t = vtype(op, 0);
	unsigned i;
	if (!t || t->kind != IR_TYPE_TILE_BUF) {
		op_error(v, op, "expects source to be a !pto.tile_buf, but got '%s'", tstr(t));
		return;
	}
	if (t->u.tb.v_row != IR_DYN || t->u.tb.v_col != IR_DYN)
		op_error(v, op, "expects source to have a dynamic valid shape (v_row=?, v_col=?)");
	for (i = 1; i < 3; i++)
		if (!is_int_or_index(vtype(op, i)))
			op_error(v, op, "expects %s to be an index, but got '%s'",
				 i == 1 ? "valid_row" : "valid_col", tstr(vtype(op, i)));
}

/* Value of an index/integer operand defined by arith.constant, if any. */
static int const_operand(const ir_op *op, unsigned i, int64_t *out)
{
	return i < op->num_operands && ir_value_const_int(op->operands[i].value, out);
}

void verify_make_tensor_view(vctx *v, const ir_op *op)
{
	const ir_type *p = vtype(op, 0), *r = op->results[0].type;
	int64_t seg[3];
	unsigned i;
	if (!r || r->kind != IR_TYPE_TENSOR_VIEW) {
		op_error(v, op, "result must be a !pto.tensor_view, but got '%s'", tstr(r));
		return;
	}
	if (!p || p->kind != IR_TYPE_PTR)
		op_error(v, op, "expects ptr to be a !pto.ptr, but got '%s'", tstr(p));
	else if (p->u.ptr.elem != r->u.shaped.elem)
		op_error(v, op, "ptr element type must match tensor_view element type");
	if (!seg_sizes(op, 3, seg)) {
		seg[0] = 1;
		seg[1] = seg[2] = (int64_t)(op->num_operands - 1) / 2;
		if (op->num_operands % 2 == 0) {
			op_error(v, op, "requires attribute 'operandSegmentSizes' (array<i32: 1, rank, rank>)");
			return;
		}
	}
	if (seg[0] != 1 || seg[1] < 0 || seg[2] < 0 || 1 + seg[1] + seg[2] != (int64_t)op->num_operands) {
		op_error(v, op, "operandSegmentSizes does not match the operands");
		return;
	}
	if (seg[1] != r->u.shaped.rank || seg[2] != r->u.shaped.rank) {
		op_error(v, op, "shape/strides operand counts must match tensor_view rank=%u", r->u.shaped.rank);
		return;
	}
	for (i = 1; i < op->num_operands; i++)
		if (!is_int_or_index(vtype(op, i))) {
			op_error(v, op, "expects shape and strides to be index values, but operand #%u is '%s'",
				 i, tstr(vtype(op, i)));
			return;
		}
}

void verify_partition_view(vctx *v, const ir_op *op)
{
	const ir_type *s = vtype(op, 0), *r = op->results[0].type;
	int64_t seg[3], off = 0, sz = 0;
	unsigned i, rank;
	if (!r || r->kind != IR_TYPE_PART_VIEW) {
		op_error(v, op, "result must be a !pto.partition_tensor_view, but got '%s'", tstr(r));
		return;
	}
	if (!s || (s->kind != IR_TYPE_TENSOR_VIEW && s->kind != IR_TYPE_PART_VIEW)) {
		op_error(v, op, "expects source to be a !pto.tensor_view, but got '%s'", tstr(s));
		return;
	}
	if (s->u.shaped.elem != r->u.shaped.elem)
		op_error(v, op, "expects source and result to have the same element type");
	rank = s->u.shaped.rank;
	if (!seg_sizes(op, 3, seg)) {
		seg[0] = 1;
		seg[1] = seg[2] = (int64_t)(op->num_operands - 1) / 2;
	}
	if (seg[0] != 1 || seg[1] < 0 || seg[2] < 0 || 1 + seg[1] + seg[2] != (int64_t)op->num_operands) {
		op_error(v, op, "operandSegmentSizes does not match the operands");
		return;
	}
	if (seg[1] != rank) {
		op_error(v, op, "offset count (%lld) must match source rank (%u)", (long long)seg[1], rank);
		return;
	}
	if (seg[2] != rank) {
		op_error(v, op, "size count (%lld) must match source rank (%u)", (long long)seg[2], rank);
		return;
	}
	if (r->u.shaped.rank != rank) {
		op_error(v, op, "result rank (%u) must match source rank (%u)", r->u.shaped.rank, rank);
		return;
	}
	for (i = 0; i < rank; i++) {
		int have_off = const_operand(op, 1 + i, &off);
		int have_sz = const_operand(op, 1 + rank + i, &sz);
		int64_t sd = s->u.shaped.dims[i], rd = r->u.shaped.dims[i];
		if (have_off && off < 0)
			op_error(v, op, "offset at dim %u must be non-negative (got %lld)", i, (long long)off);
		if (!have_sz)
			continue;
		if (sz <= 0)
			op_error(v, op, "size at dim %u must be positive (got %lld)", i, (long long)sz);
		else if (!dyn(rd) && rd != sz)
			op_error(v, op, "size/result mismatch at dim %u (%lld vs %lld)", i, (long long)sz,
				 (long long)rd);
		else if (!dyn(sd) && sz > sd)
			op_error(v, op, "size at dim %u (%lld) exceeds static source dim (%lld)", i,
				 (long long)sz, (long long)sd);
		else if (!dyn(sd) && have_off && off >= 0 && off > sd - sz)
			op_error(v, op, "offset+size at dim %u (%lld) exceeds static source dim (%lld)", i,
				 (long long)(off + sz), (long long)sd);
		else
			continue;
		break; /* the first bad dim only */
	}
}
