/* verify_cube.c: the verifier's rules for the tmatmul family: the (dst, lhs, rhs)
 * element types of the target's mmad table, the m/k/n range, the memories of the
 * operands and scales. Called by verify.c's dispatch. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"
#include "target/target.h"

/* The (dst, lhs, rhs) element types of tmatmul/tmatmul.bias: a non-MX mmad of the
 * target's table. */
static int matmul_triple_ok(vctx *v, const ir_type *d, const ir_type *l, const ir_type *r)
{
	ptort_type ed, el, er;
	return !ir_type_to_elem(d, &ed) && !ir_type_to_elem(l, &el) && !ir_type_to_elem(r, &er) &&
	       target_has_mmad(v->t, el, er, ed, 0);
}

/* "(i32, i8, i8), (f32, f16, f16), ...": the non-MX triples of the target. */
static void matmul_triples(vctx *v, char *buf, size_t cap)
{
	size_t i, n = 0;
	buf[0] = 0;
	for (i = 0; i < v->t->cube.ntypes && n < cap; i++) {
		const ptoc_mmad_types *m = &v->t->cube.types[i];
		if (!m->mx)
			n += (size_t)snprintf(buf + n, cap - n, "%s(%s, %s, %s)", n ? ", " : "",
					      ptort_type_name(m->c), ptort_type_name(m->a),
					      ptort_type_name(m->b));
	}
}

/* A static m, k or n within the target's range (a dynamic one is checked at run time). */
static int mnk_ok(const vctx *v, int64_t x)
{
	return dyn(x) || (x >= v->t->cube.mnk_min && x <= v->t->cube.mnk_max);
}

void verify_matmul(vctx *v, const ir_op *op)
{
	ir_matmul_roles ro;
	int acc, a, as, b, bs, bias;
	tinfo ta, tb_, td, tx;
	ptort_type eb;
	int bad = 0;
	if (ir_matmul_roles_of(op->code, &ro))
		return;
	acc = ro.acc, a = ro.a, as = ro.a_scale, b = ro.b, bs = ro.b_scale, bias = ro.bias;
	bad |= check_tile_use(v, op, vtype(op, (unsigned)a), "lhs", &ta);
	bad |= check_tile_use(v, op, vtype(op, (unsigned)b), "rhs", &tb_);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &td);
	if (bad)
		return;
	if (td.buf && td.mem != IR_MEM_ACC)
		op_error(v, op, "expects dst to be in the acc address space");
	else if ((ta.buf && ta.mem != IR_MEM_LEFT) || (tb_.buf && tb_.mem != IR_MEM_RIGHT))
		op_error(v, op, "expects lhs, rhs, and dst to use the left, right, and acc address spaces");
	if (ro.gemv) {
		/* m = 1: row 0 of lhs and dst; k, n = rhs's valid shape (semantics.md §6.3) */
		if (ta.cols != tb_.rows || tb_.cols != td.cols)
			op_error(v, op, "expects static gemv tile shapes lhs[M,K], rhs[K,N], and dst[M',N]");
		else if (!mnk_ok(v, tb_.vr) || !mnk_ok(v, tb_.vc))
			op_error(v, op, "expects k and n valid sizes to be in [%u, %u]",
				 v->t->cube.mnk_min, v->t->cube.mnk_max);
		else if ((!dyn(ta.vc) && !dyn(tb_.vr) && ta.vc != tb_.vr) ||
			 (!dyn(tb_.vc) && !dyn(td.vc) && tb_.vc != td.vc))
			op_error(v, op, "expects valid shapes lhs[1,k], rhs[k,n], and dst[1,n] (got %lldx%lld, %lldx%lld, %lldx%lld)",
				 (long long)ta.vr, (long long)ta.vc, (long long)tb_.vr, (long long)tb_.vc,
				 (long long)td.vr, (long long)td.vc);
	} else if (ta.rows != td.rows || tb_.cols != td.cols || ta.cols != tb_.rows)
		op_error(v, op, "expects static matmul tile shapes lhs[M,K], rhs[K,N], and dst[M,N]");
	else if (!mnk_ok(v, ta.vr) || !mnk_ok(v, ta.vc) || !mnk_ok(v, tb_.vc))
		op_error(v, op, "expects m, k, and n valid sizes to be in [%u, %u]",
			 v->t->cube.mnk_min, v->t->cube.mnk_max);
	else if ((!dyn(ta.vc) && !dyn(tb_.vr) && ta.vc != tb_.vr) ||
		 (!dyn(ta.vr) && !dyn(td.vr) && ta.vr != td.vr) ||
		 (!dyn(tb_.vc) && !dyn(td.vc) && tb_.vc != td.vc))
		op_error(v, op, "expects valid shapes lhs[m,k], rhs[k,n], and dst[m,n] (got %lldx%lld, %lldx%lld, %lldx%lld)",
			 (long long)ta.vr, (long long)ta.vc, (long long)tb_.vr, (long long)tb_.vc,
			 (long long)td.vr, (long long)td.vc);
	if ((op->code == IR_OP_TMATMUL || op->code == IR_OP_TMATMUL_BIAS || op->code == IR_OP_TGEMV ||
	     op->code == IR_OP_TGEMV_BIAS) &&
	    !matmul_triple_ok(v, td.elem, ta.elem, tb_.elem)) {
		char list[1024];
		matmul_triples(v, list, sizeof list);
		op_error(v, op, "expects (dst, lhs, rhs) element types to match one of %s", list);
	}
	if (bias >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)bias), "bias", &tx)) {
		if (tx.buf && tx.mem != IR_MEM_BIAS)
			op_error(v, op, "expects bias to be in the bias address space");
		if (tx.rows != 1)
			op_error(v, op, "expects bias to have 1 row");
		/* pto-isa a5/TMatmul.hpp: the MX forms take an f32 bias (whatever dst is:
		 * check-cube holds dst to f32), the others one of dst's type */
		if (ro.mx && (ir_type_to_elem(tx.elem, &eb) || eb != PTORT_F32))
			op_error(v, op, "expects an f32 bias in the MX forms");
		else if (!ro.mx && tx.elem != td.elem)
			op_error(v, op, "expects bias and dst to have the same element type");
		if (tx.cols != td.cols)
			op_error(v, op, "expects bias to have as many columns as dst (%lld vs %lld)",
				 (long long)tx.cols, (long long)td.cols);
	}
	if (acc >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)acc), "acc_in", &tx)) {
		if (tx.buf && tx.mem != IR_MEM_ACC)
			op_error(v, op, "expects acc_in to be in the acc address space");
		else if (tx.elem != td.elem || tx.rows != td.rows || tx.cols != td.cols ||
			 tx.vr != td.vr || tx.vc != td.vc)
			op_error(v, op, "expects acc_in and dst to have the same shape, valid_shape and element type");
	}
	if (as >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)as), "a_scale", &tx) &&
	    tx.buf && tx.mem != IR_MEM_SCALING)
		op_error(v, op, "expects a_scale to be in the scaling address space");
	if (bs >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)bs), "b_scale", &tx) &&
	    tx.buf && tx.mem != IR_MEM_SCALING)
		op_error(v, op, "expects b_scale to be in the scaling address space");
}

/* tget_scale_addr: dst, a tile in `scaling` of src's shape and valid shape, becomes
 * src's MX scale tile (docs/semantics.md §6.3; check-cube refuses it without MX). */
void verify_scale_addr(vctx *v, const ir_op *op)
{
	tinfo ts, td;
	if (check_tile_use(v, op, vtype(op, 0), "src", &ts) ||
	    check_tile_use(v, op, dst_type(op), "dst", &td))
		return;
	if (td.buf && td.mem != IR_MEM_SCALING)
		op_error(v, op, "expects dst to be in the scaling address space");
	else if (td.rows != ts.rows || td.cols != ts.cols)
		op_error(v, op, "expects dst and src to have the same shape (got %lldx%lld and %lldx%lld)",
			 (long long)td.rows, (long long)td.cols, (long long)ts.rows, (long long)ts.cols);
	else if ((!dyn(td.vr) && !dyn(ts.vr) && td.vr != ts.vr) ||
		 (!dyn(td.vc) && !dyn(ts.vc) && td.vc != ts.vc))
		op_error(v, op, "expects dst and src to have the same valid_shape");
}
