/* verify_insn.c: the verifier's rules for the level-3 pto.i.* instructions (added by
 * split-repeats; docs/lowered.md): each field's kind and range, the dynamic fields of
 * tiles with `?` valid dimensions. Called by verify.c's dispatch. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"
#include "target/target.h"

/* ---- level-3 instructions (added by split-repeats; docs/lowered.md) -------------- */

static int int_in(const ir_attr *a, int64_t lo, int64_t hi)
{
	return a->kind == IR_ATTR_INT && a->u.i.v >= lo && a->u.i.v <= hi;
}

static void verify_ifield(vctx *v, const ir_op *op, const char *name, unsigned kind,
			  const ir_attr *a)
{
	ptort_type et;
	ptort_rmode rm;
	ir_mem m;
	int ok = 1;
	switch (kind) {
	case IR_IF_MEM:
		ok = a->kind == IR_ATTR_PTO && !strcmp(a->u.pto.kind, "address_space") &&
		     !ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m) && m != IR_MEM_NONE;
		break;
	case IR_IF_ADDR: ok = int_in(a, 0, UINT32_MAX); break;
	case IR_IF_ETYPE: ok = a->kind == IR_ATTR_TYPE && !ir_type_to_elem(a->u.type, &et); break;
	case IR_IF_TILE: ok = a->kind == IR_ATTR_TYPE && a->u.type->kind == IR_TYPE_TILE_BUF; break;
	case IR_IF_RMODE: ok = !ir_attr_rmode(a, &rm); break;
	case IR_IF_SAT: ok = ir_attr_satmode(a) >= 0; break;
	case IR_IF_REPEAT: ok = int_in(a, 1, 255); break;
	case IR_IF_STRIDE: ok = int_in(a, 0, 255); break;
	case IR_IF_MASK: ok = a->kind == IR_ATTR_INT; break;
	case IR_IF_COUNT: ok = int_in(a, 1, UINT32_MAX); break;
	case IR_IF_F16BITS: ok = int_in(a, 0, 0xFFFF); break;
	case IR_IF_MNK: ok = int_in(a, v->t->cube.mnk_min, v->t->cube.mnk_max); break;
	case IR_IF_INIT: ok = a->kind == IR_ATTR_STRING; break;
	case IR_IF_UNIT: ok = a->kind == IR_ATTR_UNIT; break;
	case IR_IF_VOP: {
		unsigned k;
		ok = 0;
		if (a->kind == IR_ATTR_STRING)
			for (k = 0; k < PTORT_VOP_COUNT; k++)
				ok |= strlen(ptort_vop_name((ptort_vop)k)) == a->u.str.len &&
				      !memcmp(a->u.str.s, ptort_vop_name((ptort_vop)k), a->u.str.len);
		break;
	}
	case IR_IF_CMP: ok = ir_attr_cmp(a) >= 0; break;
	case IR_IF_SCALAR: ok = a->kind == IR_ATTR_INT; break;
	case IR_IF_FLAGS: ok = int_in(a, 0, 15); break;
	case IR_IF_BOOL: ok = a->kind == IR_ATTR_BOOL; break;
	case IR_IF_INT: ok = a->kind == IR_ATTR_INT; break;
	default: break;
	}
	if (!ok)
		op_error(v, op, "field '%s' is missing or out of range", name);
}

static int in_dyn_list(const ir_attr *dyn, const char *name)
{
	unsigned i;
	for (i = 0; dyn && i < dyn->u.array.n; i++)
		if (!strcmp(dyn->u.array.elems[i]->u.str.s, name))
			return 1;
	return 0;
}

/* A `?` valid dimension of tile field NAME needs NAME_v_row / NAME_v_col in dyn. */
static void insn_tile_dyn(vctx *v, const ir_op *op, const char *name, const ir_type *t,
			  const ir_attr *dyn)
{
	char f[64];
	snprintf(f, sizeof f, "%s_v_row", name);
	if (t->u.tb.v_row == IR_DYN && !in_dyn_list(dyn, f))
		op_error(v, op, "dynamic valid rows of '%s' need '%s' in 'dyn'", name, f);
	snprintf(f, sizeof f, "%s_v_col", name);
	if (t->u.tb.v_col == IR_DYN && !in_dyn_list(dyn, f))
		op_error(v, op, "dynamic valid columns of '%s' need '%s' in 'dyn'", name, f);
}

/* One field: skipped when in `dyn`, an error when missing and `required`. Returns 1
 * when it is present as an attribute. */
static int verify_field(vctx *v, const ir_op *op, const char *name, unsigned kind,
			int required, const ir_attr *dyn)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (in_dyn_list(dyn, name))
		return 0;
	if (!a) {
		if (required)
			op_error(v, op, "field '%s' is missing", name);
		return 0;
	}
	verify_ifield(v, op, name, kind, a);
	return 1;
}

static int init_is_zero(const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "init");
	return a && a->kind == IR_ATTR_STRING && a->u.str.len == 4 && !memcmp(a->u.str.s, "zero", 4);
}

void verify_insn(vctx *v, const ir_op *op)
{
	const ir_insndef *d = ir_insn_get(op->code);
	const ir_attr *dyn = ir_op_get_attr(op, "dyn");
	unsigned fixed, nd = 0, i;
	if (!d)
		return;
	fixed = d->fixed;
	if (dyn) {
		if (dyn->kind != IR_ATTR_ARRAY) {
			op_error(v, op, "'dyn' must be an array of field names");
			return;
		}
		nd = dyn->u.array.n;
		for (i = 0; i < nd; i++) {
			const ir_attr *e = dyn->u.array.elems[i];
			if (e->kind != IR_ATTR_STRING) {
				op_error(v, op, "'dyn' must be an array of field names");
				return;
			}
			if (ir_op_get_attr(op, e->u.str.s))
				op_error(v, op, "field '%s' is both an attribute and in 'dyn'", e->u.str.s);
			if (fixed + i < op->num_operands && !is_int_or_index(vtype(op, fixed + i))) {
				/* a SCALAR field (setval's value) may be a float: its bits */
				const ir_ifield *f = ir_insn_field(d, e->u.str.s);
				if (!f || f->kind != IR_IF_SCALAR || !is_scalar_type(vtype(op, fixed + i)))
					op_error(v, op, "dyn operand '%s' must be an integer or index%s",
						 e->u.str.s, f && f->kind == IR_IF_SCALAR ? " or float" : "");
			}
		}
	}
	if (op->num_operands != fixed + nd) {
		op_error(v, op, "expects %u operands (%u fixed + 'dyn'), but found %u", fixed + nd,
			 fixed, op->num_operands);
		return;
	}
	if (fixed && (!vtype(op, 0) || vtype(op, 0)->kind != IR_TYPE_PART_VIEW))
		op_error(v, op, "operand 0 must be a !pto.partition_tensor_view");
	for (i = 0; i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		int req = f->req == IR_IF_REQ || (f->req == IR_IF_INIT_REQ && !init_is_zero(op));
		char an[64];
		if (!verify_field(v, op, f->name, f->kind, req, dyn)) {
			if (f->kind != IR_IF_TILE || !req)
				continue;
		} else if (f->kind == IR_IF_TILE) {
			const ir_attr *a = ir_op_get_attr(op, f->name);
			if (a->kind == IR_ATTR_TYPE && a->u.type->kind == IR_TYPE_TILE_BUF)
				insn_tile_dyn(v, op, f->name, a->u.type, dyn);
		}
		if (f->kind == IR_IF_TILE) {
			snprintf(an, sizeof an, "%s_addr", f->name);
			verify_field(v, op, an, IR_IF_ADDR, 1, dyn);
		}
	}
}
