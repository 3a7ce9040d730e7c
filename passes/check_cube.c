/* check_cube.c: the `check-cube` pass: target rules of the cube data path that the
 * structural verifier (ir/verify.c: tmov pairs, tmatmul type triples, m/k/n range)
 * does not check, read from the target's table (target/target.h, cube limits).
 *
 * Requires: a verified module, level 1 or 2. Changes nothing. Reports:
 *   - on targets whose table requires it (A5, as PTOAS), a tmatmul operand in a layout
 *     other than its role's: left Nz (any blayout: PTOAS's parser rewrites it to
 *     col_major, so a left tile written Zz is accepted), right Zn, acc Nz. A2A3 has
 *     no such rule (PTOAS has none; its A3 samples use both Zz and Nz left tiles). The
 *     runtime addresses every layout exactly, so results never depend on it;
 *   - a boxed tile (any slayout but none_box) whose shape is not a whole number of
 *     fractal boxes, or whose fractal does not fit its element type
 *     (ptort_layout_check: the runtime could not address it);
 *   - an MX matmul or a tget_scale_addr on a target without MX, or an MX matmul with
 *     a static K that is not a multiple of the target's MX K granule (A5: 64);
 *   - an (A, B -> C) element-type triple the target's mmad does not have. */
#include <stdio.h>

#include "passes/passes.h"

#define PASS_NAME "check-cube"

typedef struct cc {
	ir_ctx *ctx;
	const struct target *t;
	unsigned errors;
} cc;

/* A cube layout is a (blayout, slayout) pair: ptoc_layout counts them as
 * slayout * 2 + blayout (ND, DN, Zz, Nz, Zn, Nn; legality.h), and ptoc_layout_name
 * names them, so neither table is written here again. */
static void layout_codes(ptoc_layout l, unsigned *bl, unsigned *sl)
{
	*bl = (unsigned)l % 2;
	*sl = (unsigned)l / 2;
}

static const char *layout_of(const ir_type *t)
{
	return t->u.tb.blayout < 2 && t->u.tb.slayout < 3
		       ? ptoc_layout_name((ptoc_layout)(t->u.tb.slayout * 2 + t->u.tb.blayout))
		       : "?";
}

static const ir_type *tile_type(const ir_op *op, int i)
{
	const ir_type *t;
	if (i < 0 || (unsigned)i >= op->num_operands)
		return NULL;
	t = op->operands[i].value->type;
	return t && t->kind == IR_TYPE_TILE_BUF ? t : NULL;
}

static void role(cc *c, const ir_op *op, const ir_type *t, const char *what, ptoc_layout want,
		 int blayout_any)
{
	unsigned bl, sl;
	if (!t || !c->t->cube.layouts_required)
		return;
	layout_codes(want, &bl, &sl);
	if ((!blayout_any && t->u.tb.blayout != bl) || t->u.tb.slayout != sl) {
		ir_error(c->ctx, op->loc, "'%s' op: on %s the %s tile must be %s (blayout=%s, "
			 "slayout=%s), not %s", op->name, c->t->name, what, ptoc_layout_name(want),
			 ir_blayout_names[bl], ir_slayout_names[sl], layout_of(t));
		c->errors++;
	}
}

static int elem(const ir_type *t, ptort_type *out)
{
	return t ? ir_type_to_elem(t->u.tb.elem, out) : -1;
}

static void check_matmul(cc *c, const ir_op *op)
{
	const ptoc_cube_limits *cu = &c->t->cube;
	ir_matmul_roles ro;
	int acc, a, b, mx;
	const ir_type *ta, *tb, *td;
	ptort_type ea, eb, ed;
	size_t i;
	if (ir_matmul_roles_of(op->code, &ro) || op->num_results) /* level 1: no layouts yet */
		return;
	acc = ro.acc, a = ro.a, b = ro.b, mx = ro.mx;
	ta = tile_type(op, a);
	tb = tile_type(op, b);
	td = tile_type(op, (int)op->num_operands - 1);
	role(c, op, ta, "left (A)", cu->left, cu->left_blayout_any);
	role(c, op, tb, "right (B)", cu->right, 0);
	role(c, op, td, "accumulator", cu->acc, 0);
	role(c, op, tile_type(op, acc), "acc_in", cu->acc, 0);
	if (mx && !cu->mx_k_multiple) {
		ir_error(c->ctx, op->loc, "'%s' op: %s has no MX matmul", op->name, c->t->name);
		c->errors++;
		return;
	}
	if (mx && ta && ta->u.tb.v_col != IR_DYN && ta->u.tb.v_col % cu->mx_k_multiple) {
		ir_error(c->ctx, op->loc, "'%s' op: on %s the K of an MX matmul must be a multiple "
			 "of %u (got %lld)", op->name, c->t->name, cu->mx_k_multiple,
			 (long long)ta->u.tb.v_col);
		c->errors++;
	}
	if (elem(ta, &ea) || elem(tb, &eb) || elem(td, &ed))
		return;
	for (i = 0; i < cu->ntypes; i++)
		if (cu->types[i].a == ea && cu->types[i].b == eb && cu->types[i].c == ed &&
		    cu->types[i].mx == mx)
			return;
	ir_error(c->ctx, op->loc, "'%s' op: %s has no %smmad %s x %s -> %s", op->name, c->t->name,
		 mx ? "MX " : "", ptort_type_name(ea), ptort_type_name(eb), ptort_type_name(ed));
	c->errors++;
}

static void check_box(cc *c, const ir_op *op, const ir_type *t)
{
	ptort_type e;
	ptort_layout_status st;
	if (!t || t->kind != IR_TYPE_TILE_BUF || t->u.tb.slayout == IR_SLAYOUT_NONE_BOX ||
	    ir_type_to_elem(t->u.tb.elem, &e) || t->u.tb.rows <= 0 || t->u.tb.cols <= 0 ||
	    t->u.tb.fractal <= 0)
		return;
	st = ptort_layout_check(e, t->u.tb.blayout, t->u.tb.slayout, (uint32_t)t->u.tb.fractal,
				(uint32_t)t->u.tb.rows, (uint32_t)t->u.tb.cols);
	if (st != PTORT_LAYOUT_OK) {
		uint32_t br = 0, bc = 0;
		ptort_layout_box(e, t->u.tb.slayout, (uint32_t)t->u.tb.fractal, &br, &bc);
		ir_error(c->ctx, op->loc, "'%s' op: a %lldx%lld %s tile of %s with fractal=%lld is "
			 "not addressable: %s (box %ux%u)", op->name, (long long)t->u.tb.rows,
			 (long long)t->u.tb.cols, layout_of(t), ptort_type_name(e),
			 (long long)t->u.tb.fractal, ptort_layout_status_text(st), br, bc);
		c->errors++;
	}
}

static int visit(ir_op *op, void *user)
{
	cc *c = user;
	if (op->code == IR_OP_ALLOC_TILE && op->num_results)
		check_box(c, op, op->results[0].type);
	if (ir_opdef_get(op->code)->flags & IR_OPF_MATMUL)
		check_matmul(c, op);
	if (op->code == IR_OP_TGET_SCALE_ADDR && !c->t->cube.mx_k_multiple) {
		ir_error(c->ctx, op->loc, "'%s' op: %s has no MX matmul", op->name, c->t->name);
		c->errors++;
	}
	return 0;
}

unsigned pass_check_cube(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	cc c = {ctx, o->target, 0};
	ir_walk(module, visit, &c);
	return c.errors;
}
