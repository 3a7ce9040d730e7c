/* lower.c: what the level-3 lowering passes share (lower.h): a tile operand resolved to
 * its descriptor and address (lower_tile_of), and the builder of pto.i.* instructions,
 * which checks the fields it builds against the instruction table (ir/insns.def).
 * split-repeats (split_repeats.c) and its cube side (lower_cube.c) both use them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/subset.h"
#include "passes/lower.h"

#define PASS_NAME "split-repeats"

/* ---- tiles ------------------------------------------------------------------------ */

/* The addr / valid_row / valid_col operands of an alloc_tile (NULL when absent). */
static void alloc_operands(const ir_op *op, ir_value *out[3])
{
	const ir_attr *seg = ir_op_get_attr(op, "operandSegmentSizes");
	unsigned i, k = 0;
	const ir_type *t = op->results[0].type;
	out[0] = out[1] = out[2] = NULL;
	if (seg && seg->kind == IR_ATTR_DENSE && seg->u.dense.n == 3) {
		for (i = 0; i < 3; i++)
			if (seg->u.dense.v[i] && k < op->num_operands)
				out[i] = op->operands[k++].value;
		return;
	}
	/* no segment sizes: the operands the type implies, valid dims last */
	k = op->num_operands;
	if (t->u.tb.v_col == IR_DYN && k)
		out[2] = op->operands[--k].value;
	if (t->u.tb.v_row == IR_DYN && k)
		out[1] = op->operands[--k].value;
	if (k)
		out[0] = op->operands[0].value;
}

static int is_rebind(const ir_op *op, const ir_value *v)
{
	return op->code == IR_OP_TASSIGN && op->num_results == 0 && op->num_operands == 2 &&
	       op->operands[0].value == v;
}

/* A result-less `pto.tassign %t, %a` rebinds alloc_tile result %t for the ops after it.
 * Supported in the alloc_tile's own block (straight-line order is then exact, also for
 * uses nested in loops after it). Sets *rb to the last rebinding before `user` (walking
 * back through the enclosing blocks), NULL when none. */
static int rebind_check(ir_ctx *ctx, const ir_op *user, const ir_value *v, const ir_op **rb)
{
	const ir_operand *u;
	const ir_op *op, *p;
	int any = 0;
	*rb = NULL;
	for (u = v->uses; u; u = u->next_use)
		if (is_rebind(u->owner, v)) {
			if (u->owner->block != v->def->block) {
				ir_error(ctx, u->owner->loc, "'pto.tassign' split-repeats: a tassign "
					 "without a result must be in the block of its pto.alloc_tile");
				return -1;
			}
			any = 1;
		}
	if (!any) /* a rebinding is a use of v: none to look for */
		return 0;
	for (op = user; op && op->block; op = op->block->region ? op->block->region->parent : NULL) {
		for (p = op->prev; p; p = p->prev)
			if (is_rebind(p, v)) {
				*rb = p;
				return 0;
			}
		if (op->block == v->def->block)
			break;
	}
	return 0;
}

/* The last `pto.set_validshape %v, ...` before `user` (walking back through the
 * enclosing blocks up to %v's block), NULL when none. */
static const ir_op *last_set_validshape(const ir_op *user, const ir_value *v)
{
	const ir_op *op, *p;
	for (op = user; op && op->block; op = op->block->region ? op->block->region->parent : NULL) {
		for (p = op->prev; p; p = p->prev)
			if (p->code == IR_OP_SET_VALIDSHAPE && p->num_operands == 3 &&
			    p->operands[0].value == v)
				return p;
		if (op->block == v->def->block)
			break;
	}
	return NULL;
}

int lower_is_scf_tile(const ir_value *v)
{
	const ir_op *p;
	if (!v || !v->type || v->type->kind != IR_TYPE_TILE_BUF)
		return 0;
	if (v->def)
		return v->def->code == IR_OP_SCF_FOR || v->def->code == IR_OP_SCF_IF ||
		       v->def->code == IR_OP_SCF_WHILE;
	p = v->owner && v->owner->region ? v->owner->region->parent : NULL;
	return p && (p->code == IR_OP_SCF_FOR || p->code == IR_OP_SCF_WHILE);
}

int lower_tile_at(ir_ctx *ctx, const ir_op *op, unsigned i, lower_tile *out)
{
	if (i >= op->num_operands || !op->operands[i].value) {
		ir_error(ctx, op->loc, "'%s' %s: missing tile operand #%u", op->name, PASS_NAME, i);
		return -1;
	}
	return lower_tile_of(ctx, op, op->operands[i].value, out);
}

int lower_refuse_level1(ir_ctx *ctx, const ir_op *op)
{
	if (!op->num_results)
		return 0;
	ir_error(ctx, op->loc, "'%s' %s: tile SSA form (level 1) must be bufferized first", op->name,
		 PASS_NAME);
	return 1;
}

int lower_tile_of(ir_ctx *ctx, const ir_op *user, ir_value *v, lower_tile *out)
{
	const ir_op *vs;
	ir_value *ops[3], *addr;
	const ir_op *d = v ? v->def : NULL;
	memset(out, 0, sizeof *out);
	if (!v || !v->type || v->type->kind != IR_TYPE_TILE_BUF) {
		ir_error(ctx, user->loc, "'%s': %s needs !pto.tile_buf operands (level 2)",
			 user->name, PASS_NAME);
		return -1;
	}
	out->type = v->type;
	if (d && (d->code == IR_OP_TRESHAPE || d->code == IR_OP_TBITCAST) && d->num_operands == 1) {
		/* the source's bytes under the result's type (docs/semantics.md §7.8) */
		if (lower_tile_of(ctx, user, d->operands[0].value, out))
			return -1;
		out->type = v->type;
		out->v_row = out->v_col = NULL;
		if ((vs = last_set_validshape(user, v))) {
			out->v_row = vs->operands[1].value;
			out->v_col = vs->operands[2].value;
		}
		return 0;
	}
	if (d && d->code == IR_OP_SUBSET && d->num_operands == 3) {
		/* a window of the source (docs/semantics.md §7.8): the source's row pitch,
		 * the window's rows and valid shape, at the window's first element */
		int64_t sz[2], off[2];
		ptort_type e;
		ir_type t;
		if (lower_tile_of(ctx, user, d->operands[0].value, out))
			return -1;
		if (ir_subset_sizes(d, sz) || !ir_value_const_int(d->operands[1].value, &off[0]) ||
		    !ir_value_const_int(d->operands[2].value, &off[1]) ||
		    ir_type_to_elem(out->type->u.tb.elem, &e)) {
			ir_error(ctx, user->loc, "'%s': %s needs a verified pto.subset", user->name,
				 PASS_NAME);
			return -1;
		}
		if (out->addr_v) {
			ir_error(ctx, user->loc, "'%s': a subset of a tile whose address is not a "
				 "constant (a run-time tassign, a tile carried by scf) is not supported",
				 user->name);
			return -1;
		}
		t = *out->type;
		t.u.tb.rows = sz[0];
		t.u.tb.v_row = v->type->u.tb.v_row;
		t.u.tb.v_col = v->type->u.tb.v_col;
		out->addr += (off[0] * out->type->u.tb.cols + off[1]) * ptort_type_bits(e) / 8;
		out->type = ir_type_tile_buf(ctx, &t);
		out->v_row = out->v_col = NULL;
		return 0;
	}
	if (lower_is_scf_tile(v)) {
		/* a tile carried by scf: its address is the slot's value, an integer once
		 * lower_scf_tiles has run (docs/semantics.md §8.1) */
		if (v->type->u.tb.v_row == IR_DYN || v->type->u.tb.v_col == IR_DYN) {
			ir_error(ctx, user->loc, "'%s': a tile with a dynamic valid shape cannot be "
				 "carried through scf.for / scf.if", user->name);
			return -1;
		}
		out->addr_v = v;
		return 0;
	}
	if (d && d->code == IR_OP_TASSIGN) {
		addr = d->operands[1].value;
		d = d->operands[0].value->def;
		if (d && d->code == IR_OP_ALLOC_TILE) {
			alloc_operands(d, ops);
			out->v_row = ops[1];
			out->v_col = ops[2];
		}
	} else if (d && d->code == IR_OP_ALLOC_TILE) {
		const ir_op *rb;
		alloc_operands(d, ops);
		addr = ops[0];
		out->v_row = ops[1];
		out->v_col = ops[2];
		if (rebind_check(ctx, user, v, &rb))
			return -1;
		if (rb)
			addr = rb->operands[1].value;
	} else {
		ir_error(ctx, user->loc, "'%s': tile operand is not a pto.alloc_tile or pto.tassign "
			 "result; %s cannot find its address", user->name, PASS_NAME);
		return -1;
	}
	if ((vs = last_set_validshape(user, v))) {
		out->v_row = vs->operands[1].value;
		out->v_col = vs->operands[2].value;
	}
	if (!addr) {
		ir_error(ctx, user->loc, "'%s': tile has no address (run place-tiles first)",
			 user->name);
		return -1;
	}
	if (!ir_value_const_int(addr, &out->addr))
		out->addr_v = addr;
	else if (out->addr < 0 || out->addr > (int64_t)UINT32_MAX) {
		ir_error(ctx, user->loc, "'%s': tile address %lld out of range", user->name,
			 (long long)out->addr);
		return -1;
	}
	if ((out->type->u.tb.v_row == IR_DYN && !out->v_row) ||
	    (out->type->u.tb.v_col == IR_DYN && !out->v_col)) {
		ir_error(ctx, user->loc, "'%s': dynamic valid shape without its valid_row/valid_col "
			 "operands", user->name);
		return -1;
	}
	return 0;
}

/* ---- the instruction builder ---------------------------------------------------- */

void li_init(lower_insn *li, ir_opcode code)
{
	memset(li, 0, sizeof *li);
	li->def = ir_insn_get(code);
}

void li_attr(ir_ctx *ctx, lower_insn *li, const char *name, const ir_attr *a)
{
	if (li->nattrs < LI_MAX_ATTRS) {
		li->attrs[li->nattrs].name = ir_intern(ctx, name, strlen(name));
		li->attrs[li->nattrs].value = a;
		li->nattrs++;
	} else {
		li->overflow = 1;
	}
}

void li_int(ir_ctx *ctx, lower_insn *li, const char *name, int64_t v)
{
	li_attr(ctx, li, name, ir_attr_int(ctx, v, NULL));
}

void li_operand(lower_insn *li, ir_value *v)
{
	if (li->nops < LI_MAX_DYN + 1)
		li->ops[li->nops++] = v;
	else
		li->overflow = 1;
}

void li_dyn(ir_ctx *ctx, lower_insn *li, const char *name, ir_value *v)
{
	if (li->ndyn < LI_MAX_DYN && li->nops < LI_MAX_DYN + 1) {
		li->dyn[li->ndyn++] = ir_attr_string(ctx, name, strlen(name));
		li->ops[li->nops++] = v;
	} else {
		li->overflow = 1;
	}
}

void li_int_or_dyn(ir_ctx *ctx, lower_insn *li, const char *name, ir_value *v)
{
	int64_t k;
	if (ir_value_const_int(v, &k))
		li_int(ctx, li, name, k);
	else
		li_dyn(ctx, li, name, v);
}

void li_tile(ir_ctx *ctx, lower_insn *li, const char *name, const lower_tile *t)
{
	char f[64];
	li_attr(ctx, li, name, ir_attr_type(ctx, t->type));
	ir_str_cat(f, sizeof f, name, "_addr");
	if (t->addr_v)
		li_dyn(ctx, li, f, t->addr_v);
	else
		li_int(ctx, li, f, t->addr);
	if (t->type->u.tb.v_row == IR_DYN && t->v_row) {
		ir_str_cat(f, sizeof f, name, "_v_row");
		li_dyn(ctx, li, f, t->v_row);
	}
	if (t->type->u.tb.v_col == IR_DYN && t->v_col) {
		ir_str_cat(f, sizeof f, name, "_v_col");
		li_dyn(ctx, li, f, t->v_col);
	}
}

void li_addr(ir_ctx *ctx, lower_insn *li, const char *name, const lower_tile *t, uint32_t off,
	     ir_op *before)
{
	ir_value *ops[2];
	ir_op *k, *add;
	const ir_type *ty;
	if (!t->addr_v) {
		li_int(ctx, li, name, t->addr + off);
		return;
	}
	if (!off) {
		li_dyn(ctx, li, name, t->addr_v);
		return;
	}
	ty = t->addr_v->type;
	if (ty->kind == IR_TYPE_TILE_BUF) /* an scf slot, an i64 once lowered */
		ty = ir_type_int(ctx, 64, IR_INT_SIGNLESS);
	k = ir_op_create(ctx, "arith.constant", before->loc, NULL, 0, &ty, 1, NULL, 0);
	ir_op_set_attr(ctx, k, "value", ir_attr_int(ctx, off, ty));
	ir_block_insert_before(before, k);
	ops[0] = t->addr_v;
	ops[1] = &k->results[0];
	add = ir_op_create(ctx, "arith.addi", before->loc, ops, 2, &ty, 1, NULL, 0);
	ir_block_insert_before(before, add);
	li_dyn(ctx, li, name, &add->results[0]);
}

void li_mem(ir_ctx *ctx, lower_insn *li, ir_mem m)
{
	li_attr(ctx, li, "mem", ir_attr_pto(ctx, "address_space", ir_mem_name(m), IR_PTO_DOTTED));
}

/* Whether `name` is field `f` or, for a tile, one of its NAME_addr / NAME_v_row /
 * NAME_v_col fields. */
static int names_field(const ir_ifield *f, const char *name)
{
	size_t n = strlen(f->name);
	if (strncmp(name, f->name, n))
		return 0;
	if (!name[n])
		return 1;
	return f->kind == IR_IF_TILE && (!strcmp(name + n, "_addr") ||
					 !strcmp(name + n, "_v_row") || !strcmp(name + n, "_v_col"));
}

/* Whether s is NAME SUFFIX. */
static int is_suffixed(const char *s, const char *name, size_t n, const char *suffix)
{
	return !strncmp(s, name, n) && !strcmp(s + n, suffix);
}

/* Whether `li` has field NAME SUFFIX (an attribute or a dyn operand). */
static int li_has(const lower_insn *li, const char *name, const char *suffix)
{
	size_t n = strlen(name);
	unsigned i;
	for (i = 0; i < li->nattrs; i++)
		if (is_suffixed(li->attrs[i].name, name, n, suffix))
			return 1;
	for (i = 0; i < li->ndyn; i++)
		if (is_suffixed(li->dyn[i]->u.str.s, name, n, suffix))
			return 1;
	return 0;
}

/* The first field of `li` its instruction does not have, or the first required field
 * it lacks (insns.def); NULL when the fields are the instruction's. */
static const char *li_mismatch(const lower_insn *li)
{
	const ir_insndef *d = li->def;
	unsigned i, k;
	int init_zero = 0;
	for (i = 0; i < li->nattrs + li->ndyn; i++) {
		const char *n = i < li->nattrs ? li->attrs[i].name : li->dyn[i - li->nattrs]->u.str.s;
		for (k = 0; k < d->nfields && !names_field(&d->fields[k], n); k++)
			;
		if (k == d->nfields)
			return n;
		if (i < li->nattrs && d->fields[k].kind == IR_IF_INIT)
			init_zero = li->attrs[i].value->kind == IR_ATTR_STRING &&
				    !strcmp(li->attrs[i].value->u.str.s, "zero");
	}
	for (k = 0; k < d->nfields; k++) {
		const ir_ifield *f = &d->fields[k];
		if (f->req == IR_IF_OPT || (f->req == IR_IF_INIT_REQ && init_zero))
			continue;
		if (!li_has(li, f->name, ""))
			return f->name;
		if (f->kind == IR_IF_TILE && !li_has(li, f->name, "_addr"))
			return f->name;
	}
	return NULL;
}

ir_op *li_emit(ir_ctx *ctx, lower_insn *li, ir_op *before)
{
	ir_op *op;
	const char *bad;
	if (!li->def || li->overflow || (bad = li_mismatch(li))) {
		ir_error(ctx, before->loc, "'%s' %s: internal error: the fields built for '%s' do "
			 "not match its instruction table (%s)", before->name, PASS_NAME,
			 li->def ? li->def->name : "?", !li->def ? "not an instruction"
			 : li->overflow ? "too many fields" : bad);
		return NULL;
	}
	if (li->ndyn)
		li_attr(ctx, li, "dyn", ir_attr_array(ctx, li->dyn, li->ndyn));
	op = ir_op_create(ctx, li->def->name, before->loc, li->ops, li->nops,
			  li->result ? &li->result : NULL, li->result ? 1 : 0,
			  ir_attr_dict(ctx, li->attrs, li->nattrs, before->loc), 0);
	ir_block_insert_before(before, op);
	return op;
}

/* ---- tiles carried by scf ------------------------------------------------------------ */

static int is_scf(const ir_op *op)
{
	return op->code == IR_OP_SCF_FOR || op->code == IR_OP_SCF_IF || op->code == IR_OP_SCF_YIELD ||
	       op->code == IR_OP_SCF_WHILE || op->code == IR_OP_SCF_CONDITION;
}

/* Operand i of `op` (a tile_buf from an alloc_tile / tassign) -> its address as i64. */
static unsigned tile_to_addr(ir_ctx *ctx, ir_op *op, unsigned i)
{
	ir_value *v = op->operands[i].value;
	const ir_type *i64 = ir_type_int(ctx, 64, IR_INT_SIGNLESS);
	lower_tile t;
	ir_op *k;
	if (v->type->kind != IR_TYPE_TILE_BUF || lower_is_scf_tile(v))
		return 0;
	if (v->type->u.tb.v_row == IR_DYN || v->type->u.tb.v_col == IR_DYN) {
		ir_error(ctx, op->loc, "'%s': a tile with a dynamic valid shape cannot be carried "
			 "through scf.for / scf.if", op->name);
		return 1;
	}
	if (lower_tile_of(ctx, op, v, &t))
		return 1;
	if (t.addr_v) {
		ir_op_set_operand(op, i, t.addr_v);
		return 0;
	}
	k = ir_op_create(ctx, "arith.constant", op->loc, NULL, 0, &i64, 1, NULL, 0);
	ir_op_set_attr(ctx, k, "value", ir_attr_int(ctx, t.addr, i64));
	ir_block_insert_before(op, k);
	ir_op_set_operand(op, i, &k->results[0]);
	return 0;
}

unsigned lower_scf_tiles(ir_ctx *ctx, ir_op *module)
{
	ir_op_list l;
	const ir_type *i64 = ir_type_int(ctx, 64, IR_INT_SIGNLESS);
	unsigned errs = 0, i;
	size_t k;
	if (ir_op_list_collect(module, is_scf, &l)) {
		ir_error(ctx, module->loc, "split-repeats: out of memory");
		return 1;
	}
	/* the values entering a slot: for inits and yield operands */
	for (k = 0; k < l.n; k++) {
		ir_op *op = l.a[k];
		const ir_op *p = op->block && op->block->region ? op->block->region->parent : NULL;
		if (op->code == IR_OP_SCF_FOR || op->code == IR_OP_SCF_WHILE)
			for (i = op->code == IR_OP_SCF_FOR ? 3 : 0; i < op->num_operands; i++)
				errs += tile_to_addr(ctx, op, i);
		else if (op->code == IR_OP_SCF_CONDITION)
			for (i = 1; i < op->num_operands; i++)
				errs += tile_to_addr(ctx, op, i);
		else if (op->code == IR_OP_SCF_YIELD && p &&
			 (p->code == IR_OP_SCF_FOR || p->code == IR_OP_SCF_IF ||
			  p->code == IR_OP_SCF_WHILE))
			for (i = 0; i < op->num_operands; i++)
				errs += tile_to_addr(ctx, op, i);
	}
	/* then the slots themselves: results and iteration arguments */
	for (k = 0; !errs && k < l.n; k++) {
		ir_op *op = l.a[k];
		unsigned r;
		if (op->code == IR_OP_SCF_YIELD || op->code == IR_OP_SCF_CONDITION)
			continue;
		for (i = 0; i < op->num_results; i++)
			if (op->results[i].type->kind == IR_TYPE_TILE_BUF)
				op->results[i].type = i64;
		for (r = 0; op->code != IR_OP_SCF_IF && r < op->num_regions; r++) {
			ir_block *b = op->regions[r].first;
			for (i = 0; b && i < b->num_args; i++)
				if (b->args[i]->type->kind == IR_TYPE_TILE_BUF)
					b->args[i]->type = i64;
		}
	}
	free(l.a);
	return errs;
}
