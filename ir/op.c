/* op.c: ops, values, blocks and regions; use lists; the pre-order walk; the op table
 * generated from ops.def. Everything lives in the context's arena. */
#include <string.h>

#include "ir/ir.h"

static const ir_opdef opdefs[IR_OP_COUNT + 1] = {
#define OP(id, name, flags, mino, maxo, outs, nres, nreg) \
	{name, flags, mino, maxo, outs, nres, nreg},
#include "ops.def"
#undef OP
	{"<unknown>", 0, -1, -1, -1, -1, -1},
};

const ir_opdef *ir_opdef_get(ir_opcode code)
{
	return &opdefs[(unsigned)code <= IR_OP_COUNT ? code : IR_OP_COUNT];
}

/* ---- the level-3 instruction table (insns.def) ---- */

#define IF_REQ IR_IF_REQ
#define IF_OPT IR_IF_OPT
#define IF_INIT IR_IF_INIT_REQ
#define F(name, kind, req) {#name, IR_IF_##kind, IF_##req, NULL},
#define T(name, req, cvar) {#name, IR_IF_TILE, IF_##req, #cvar},
#define INSN(id, name, call, fixed, fields) static const ir_ifield insn_##id[] = {fields};
#include "insns.def"
#undef INSN
#undef T
#undef F

static const ir_insndef insns[] = {
#define INSN(id, name, call, fixed, fields) \
	{name, call, fixed, insn_##id, sizeof insn_##id / sizeof insn_##id[0]},
#include "insns.def"
#undef INSN
};

/* The opcodes of the rows, contiguous in ops.def (one include of insns.def). */
static const ir_opcode insn_ops[] = {
#define INSN(id, name, call, fixed, fields) IR_OP_I_##id,
#include "insns.def"
#undef INSN
};

const ir_insndef *ir_insn_get(ir_opcode code)
{
	unsigned i = (unsigned)code - (unsigned)insn_ops[0];
	return i < sizeof insns / sizeof insns[0] && insn_ops[i] == code ? &insns[i] : NULL;
}

const ir_ifield *ir_insn_field(const ir_insndef *d, const char *name)
{
	unsigned i;
	for (i = 0; d && i < d->nfields; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

int ir_matmul_roles_of(ir_opcode code, ir_matmul_roles *r)
{
	static const ir_matmul_roles plain = {-1, 0, -1, 1, -1, -1, 0};
	*r = plain;
	switch (code) {
	case IR_OP_TMATMUL: break;
	case IR_OP_TMATMUL_ACC: r->acc = 0; r->a = 1; r->b = 2; break;
	case IR_OP_TMATMUL_BIAS: r->bias = 2; break;
	case IR_OP_TMATMUL_MX: r->a_scale = 1; r->b = 2; r->b_scale = 3; r->mx = 1; break;
	case IR_OP_TMATMUL_MX_ACC:
		r->acc = 0; r->a = 1; r->a_scale = 2; r->b = 3; r->b_scale = 4; r->mx = 1;
		break;
	case IR_OP_TMATMUL_MX_BIAS:
		r->a_scale = 1; r->b = 2; r->b_scale = 3; r->bias = 4; r->mx = 1;
		break;
	default: return -1;
	}
	return 0;
}

ir_opcode ir_opcode_lookup(const char *name, size_t len)
{
	unsigned i;
	for (i = 0; i < IR_OP_COUNT; i++)
		if (strlen(opdefs[i].name) == len && !memcmp(opdefs[i].name, name, len))
			return (ir_opcode)i;
	return IR_OP_UNKNOWN;
}

/* Looks the opcode up once per interned name (cached beside the string). */
static ir_opcode lookup_interned(const char *name)
{
	int *tag = ir_intern_tag(name);
	if (*tag < 0)
		*tag = (int)ir_opcode_lookup(name, strlen(name));
	return (ir_opcode)*tag;
}

static void use_add(ir_operand *o)
{
	o->next_use = o->value->uses;
	o->value->uses = o;
}

static void use_remove(ir_operand *o)
{
	ir_operand **p;
	if (!o->value)
		return;
	for (p = &o->value->uses; *p; p = &(*p)->next_use)
		if (*p == o) {
			*p = o->next_use;
			break;
		}
	o->next_use = NULL;
}

ir_op *ir_op_create(ir_ctx *ctx, const char *name, ir_loc loc, ir_value *const *operands,
		    unsigned num_operands, const ir_type *const *result_types,
		    unsigned num_results, const ir_attr *attrs, unsigned num_regions)
{
	ir_op *op = ir_alloc(ctx, sizeof *op);
	unsigned i;
	op->name = ir_intern(ctx, name, strlen(name));
	op->code = lookup_interned(op->name);
	op->loc = loc;
	if (!attrs) {
		if (!ctx->empty_dict)
			ctx->empty_dict = ir_attr_dict(ctx, NULL, 0, loc);
		attrs = ctx->empty_dict;
	}
	op->attrs = attrs;
	if (num_operands) {
		op->operands = ir_alloc(ctx, num_operands * sizeof *op->operands);
		op->num_operands = num_operands;
		for (i = 0; i < num_operands; i++) {
			op->operands[i].owner = op;
			op->operands[i].value = operands[i];
			if (operands[i])
				use_add(&op->operands[i]);
		}
	}
	if (num_results) {
		op->results = ir_alloc(ctx, num_results * sizeof *op->results);
		op->num_results = num_results;
		for (i = 0; i < num_results; i++) {
			op->results[i].type = result_types ? result_types[i] : NULL;
			op->results[i].def = op;
			op->results[i].index = i;
			op->results[i].loc = loc;
		}
	}
	if (num_regions) {
		op->regions = ir_alloc(ctx, num_regions * sizeof *op->regions);
		op->num_regions = num_regions;
		for (i = 0; i < num_regions; i++)
			op->regions[i].parent = op;
	}
	return op;
}

const ir_attr *ir_op_get_attr(const ir_op *op, const char *name)
{
	return ir_dict_get(op->attrs, name);
}

/* Rebuilds the dictionary with `name` set to `value` (removed when NULL). */
static void replace_attr(ir_ctx *ctx, ir_op *op, const char *name, const ir_attr *value)
{
	unsigned n = op->attrs->u.dict.n, i, m = 0;
	ir_named_attr *v = ir_alloc(ctx, (n + 1) * sizeof *v);
	for (i = 0; i < n; i++)
		if (strcmp(op->attrs->u.dict.entries[i].name, name))
			v[m++] = op->attrs->u.dict.entries[i];
	if (value) {
		v[m].name = name;
		v[m++].value = value;
	}
	op->attrs = ir_attr_dict(ctx, v, m, op->loc);
}

void ir_op_set_attr(ir_ctx *ctx, ir_op *op, const char *name, const ir_attr *value)
{
	replace_attr(ctx, op, name, value);
}

void ir_op_remove_attr(ir_ctx *ctx, ir_op *op, const char *name)
{
	if (ir_dict_get(op->attrs, name))
		replace_attr(ctx, op, name, NULL);
}

void ir_op_set_operand(ir_op *op, unsigned i, ir_value *v)
{
	ir_operand *o = &op->operands[i];
	use_remove(o);
	o->value = v;
	if (v)
		use_add(o);
}

void ir_op_erase(ir_op *op)
{
	unsigned i;
	ir_block *b = op->block;
	for (i = 0; i < op->num_operands; i++) {
		use_remove(&op->operands[i]);
		op->operands[i].value = NULL;
	}
	if (!b)
		return;
	if (op->prev)
		op->prev->next = op->next;
	else
		b->first = op->next;
	if (op->next)
		op->next->prev = op->prev;
	else
		b->last = op->prev;
	op->prev = op->next = NULL;
	op->block = NULL;
}

void ir_value_replace_all_uses(ir_value *from, ir_value *to)
{
	ir_operand *o, *next;
	if (from == to)
		return;
	for (o = from->uses; o; o = next) {
		next = o->next_use;
		o->value = to;
		if (to)
			use_add(o);
		else
			o->next_use = NULL;
	}
	from->uses = NULL;
}

unsigned ir_value_num_uses(const ir_value *v)
{
	unsigned n = 0;
	const ir_operand *o;
	for (o = v->uses; o; o = o->next_use)
		n++;
	return n;
}

ir_block *ir_block_create(ir_ctx *ctx, ir_loc loc)
{
	ir_block *b = ir_alloc(ctx, sizeof *b);
	b->loc = loc;
	return b;
}

ir_value *ir_block_add_arg(ir_ctx *ctx, ir_block *b, const ir_type *type, ir_loc loc)
{
	ir_value *v = ir_alloc(ctx, sizeof *v);
	if (b->num_args == b->cap_args) {
		unsigned cap = b->cap_args ? b->cap_args * 2 : 4;
		ir_value **args = ir_alloc(ctx, cap * sizeof *args);
		if (b->num_args)
			memcpy(args, b->args, b->num_args * sizeof *args);
		b->args = args;
		b->cap_args = cap;
	}
	v->type = type;
	v->owner = b;
	v->index = b->num_args;
	v->loc = loc;
	b->args[b->num_args++] = v;
	return v;
}

void ir_region_append_block(ir_region *r, ir_block *b)
{
	b->region = r;
	b->next = NULL;
	if (r->last)
		r->last->next = b;
	else
		r->first = b;
	r->last = b;
}

void ir_block_append_op(ir_block *b, ir_op *op)
{
	op->block = b;
	op->next = NULL;
	op->prev = b->last;
	if (b->last)
		b->last->next = op;
	else
		b->first = op;
	b->last = op;
}

void ir_block_insert_before(ir_op *before, ir_op *op)
{
	ir_block *b = before->block;
	op->block = b;
	op->next = before;
	op->prev = before->prev;
	if (before->prev)
		before->prev->next = op;
	else
		b->first = op;
	before->prev = op;
}

/* The first op nested in `op` (in its first non-empty block), or NULL. */
static ir_op *first_inside(ir_op *op)
{
	unsigned i;
	ir_block *b;
	for (i = 0; i < op->num_regions; i++)
		for (b = op->regions[i].first; b; b = b->next)
			if (b->first)
				return b->first;
	return NULL;
}

/* The op after `op` in walk order once its nested ops are done, not leaving `root`. */
static ir_op *next_after(ir_op *op, const ir_op *root)
{
	while (op && op != root) {
		ir_block *b;
		ir_region *r;
		ir_op *parent;
		unsigned i;
		if (op->next)
			return op->next;
		b = op->block;
		if (!b)
			return NULL;
		for (b = b->next; b; b = b->next)
			if (b->first)
				return b->first;
		r = op->block->region;
		if (!r || !r->parent)
			return NULL;
		parent = r->parent;
		for (i = (unsigned)(r - parent->regions) + 1; i < parent->num_regions; i++)
			for (b = parent->regions[i].first; b; b = b->next)
				if (b->first)
					return b->first;
		op = parent;
	}
	return NULL;
}

/* Iterative, so deep nesting cannot exhaust the stack. */
int ir_walk(ir_op *root, int (*fn)(ir_op *op, void *user), void *user)
{
	ir_op *op = root, *in;
	int rc;
	while (op) {
		rc = fn(op, user);
		if (rc)
			return rc;
		in = first_inside(op);
		op = in ? in : next_after(op, root);
	}
	return 0;
}
