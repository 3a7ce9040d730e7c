/* verify_arith.c: the verifier's rules for the arith ops: constants that fit their
 * type, operand and result types of the integer, float, compare, select and cast ops.
 * Called by verify.c's dispatch. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"
#include "target/target.h"

/* ---- arith ------------------------------------------------------------------------ */

static int int_fits(int64_t x, unsigned bits, unsigned sign)
{
	int64_t lo, hi;
	if (bits >= 64)
		return 1;
	if (bits == 0)
		return 0;
	/* signless integers accept both the signed and the unsigned reading; the bounds
	   are computed unsigned so that i63's 2^63 - 1 does not overflow */
	lo = sign == IR_INT_UNSIGNED ? 0 : -(int64_t)((uint64_t)1 << (bits - 1));
	hi = (int64_t)(((uint64_t)1 << (bits - (sign == IR_INT_SIGNED))) - 1);
	return x >= lo && x <= hi;
}

static void verify_constant(vctx *v, const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "value");
	const ir_type *t = op->results[0].type, *at;
	if (!a) {
		op_error(v, op, "requires attribute 'value'");
		return;
	}
	if (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_BOOL)
		at = a->u.i.type;
	else if (a->kind == IR_ATTR_FLOAT)
		at = a->u.f.type;
	else {
		op_error(v, op, "expects 'value' to be an integer or float attribute");
		return;
	}
	if (at && at != t) {
		op_error(v, op, "result type ('%s') does not match the type of the value attribute ('%s')",
			 tstr(t), tstr(at));
		return;
	}
	if (a->kind == IR_ATTR_FLOAT && (!t || t->kind != IR_TYPE_FLOAT))
		op_error(v, op, "float value requires a float result type, but got '%s'", tstr(t));
	else if (a->kind != IR_ATTR_FLOAT && !is_int_or_index(t))
		op_error(v, op, "integer value requires an integer or index result type, but got '%s'", tstr(t));
	else if (a->kind != IR_ATTR_FLOAT && t->kind == IR_TYPE_INT &&
		 !int_fits(a->u.i.v, t->u.i.bits, t->u.i.signedness))
		op_error(v, op, "integer constant %lld out of range for type '%s'", (long long)a->u.i.v,
			 tstr(t));
}

/* The bit width of an integer or float type (0 for other types). */
static unsigned scalar_bits(const ir_type *t)
{
	ptort_type et;
	if (t->kind == IR_TYPE_INT)
		return t->u.i.bits;
	if (t->kind == IR_TYPE_FLOAT)
		return t->u.f.kind == IR_F64 ? 64 : ir_type_to_elem(t, &et) ? 0 : ptort_type_bits(et);
	return 0;
}

void verify_arith(vctx *v, const ir_op *op)
{
	const ir_type *r = op->num_results ? op->results[0].type : NULL;
	const ir_attr *p;
	switch (op->code) {
	case IR_OP_CONSTANT:
		verify_constant(v, op);
		return;
	case IR_OP_CMPI:
		if (vtype(op, 0) != vtype(op, 1) || !is_int_or_index(vtype(op, 0)))
			op_error(v, op, "requires both operands to have the same integer or index type");
		if (!is_i1(r))
			op_error(v, op, "result must be i1, but got '%s'", tstr(r));
		p = ir_op_get_attr(op, "predicate");
		if (!p || p->kind != IR_ATTR_INT || p->u.i.v < 0 || p->u.i.v > 9)
			op_error(v, op, "requires a 'predicate' attribute (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge)");
		return;
	case IR_OP_SELECT:
		if (!is_i1(vtype(op, 0)))
			op_error(v, op, "expects the condition to be i1, but got '%s'", tstr(vtype(op, 0)));
		if (vtype(op, 1) != r || vtype(op, 2) != r)
			op_error(v, op, "requires the true value, false value and result to have the same type");
		return;
	case IR_OP_INDEX_CAST: case IR_OP_INDEX_CASTUI: {
		const ir_type *s = vtype(op, 0);
		if (!(s && r && ((s->kind == IR_TYPE_INDEX && r->kind == IR_TYPE_INT) ||
				 (s->kind == IR_TYPE_INT && r->kind == IR_TYPE_INDEX))))
			op_error(v, op, "operand type '%s' and result type '%s' are cast incompatible",
				 tstr(s), tstr(r));
		return;
	}
	case IR_OP_EXTSI: case IR_OP_EXTUI: case IR_OP_TRUNCI: {
		const ir_type *s = vtype(op, 0);
		int ext = op->code != IR_OP_TRUNCI;
		if (!s || !r || s->kind != IR_TYPE_INT || r->kind != IR_TYPE_INT) {
			op_error(v, op, "expects integer (not index) operand and result, but got '%s' to '%s'",
				 tstr(s), tstr(r));
			return;
		}
		if (ext ? r->u.i.bits <= s->u.i.bits : r->u.i.bits >= s->u.i.bits)
			op_error(v, op, "result type '%s' must be %s than operand type '%s'", tstr(r),
				 ext ? "wider" : "shorter", tstr(s));
		return;
	}
	case IR_OP_SITOFP: case IR_OP_UITOFP: case IR_OP_FPTOSI: case IR_OP_FPTOUI: {
		const ir_type *s = vtype(op, 0);
		int tofp = op->code == IR_OP_SITOFP || op->code == IR_OP_UITOFP;
		const ir_type *it = tofp ? s : r, *ft = tofp ? r : s;
		if (!it || !ft || it->kind != IR_TYPE_INT || ft->kind != IR_TYPE_FLOAT)
			op_error(v, op, "expects %s, but got '%s' to '%s'",
				 tofp ? "an integer (not index) operand and a float result"
				      : "a float operand and an integer (not index) result",
				 tstr(s), tstr(r));
		return;
	}
	case IR_OP_EXTF: case IR_OP_TRUNCF: {
		const ir_type *s = vtype(op, 0);
		int ext = op->code == IR_OP_EXTF;
		if (!s || !r || s->kind != IR_TYPE_FLOAT || r->kind != IR_TYPE_FLOAT) {
			op_error(v, op, "expects a float operand and result, but got '%s' to '%s'", tstr(s),
				 tstr(r));
			return;
		}
		if (ext ? scalar_bits(r) <= scalar_bits(s) : scalar_bits(r) >= scalar_bits(s))
			op_error(v, op, "result type '%s' must be %s than operand type '%s'", tstr(r),
				 ext ? "wider" : "shorter", tstr(s));
		return;
	}
	case IR_OP_BITCAST: {
		const ir_type *s = vtype(op, 0);
		if (!s || !r || (s->kind != IR_TYPE_INT && s->kind != IR_TYPE_FLOAT) ||
		    (r->kind != IR_TYPE_INT && r->kind != IR_TYPE_FLOAT) ||
		    scalar_bits(s) != scalar_bits(r))
			op_error(v, op, "operand type '%s' and result type '%s' are cast incompatible "
				 "(integers and floats of the same width)", tstr(s), tstr(r));
		return;
	}
	case IR_OP_CMPF:
		if (vtype(op, 0) != vtype(op, 1) || !vtype(op, 0) || vtype(op, 0)->kind != IR_TYPE_FLOAT)
			op_error(v, op, "requires both operands to have the same float type");
		if (!is_i1(r))
			op_error(v, op, "result must be i1, but got '%s'", tstr(r));
		p = ir_op_get_attr(op, "predicate");
		if (!p || p->kind != IR_ATTR_INT || p->u.i.v < 0 || p->u.i.v >= IR_CMPF_PRED_COUNT)
			op_error(v, op, "requires a 'predicate' attribute (false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true)");
		return;
	case IR_OP_ADDF: case IR_OP_SUBF: case IR_OP_MULF: case IR_OP_DIVF:
	case IR_OP_MAXIMUMF: case IR_OP_MINIMUMF: case IR_OP_MAXNUMF: case IR_OP_MINNUMF:
	case IR_OP_NEGF: {
		unsigned i;
		int bad = !r || r->kind != IR_TYPE_FLOAT;
		for (i = 0; i < op->num_operands; i++)
			bad |= vtype(op, i) != r;
		if (bad)
			op_error(v, op, "requires the same float type for all operands and results");
		return;
	}
	default:
		if (vtype(op, 0) != r || vtype(op, 1) != r || !is_int_or_index(r))
			op_error(v, op, "requires the same integer or index type for all operands and results");
	}
}
