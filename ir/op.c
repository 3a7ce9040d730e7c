/* op.c: ops, values, blocks and regions; use lists; the pre-order walk; the op table
 * generated from ops.def. Everything lives in the context's arena. */
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

/* ---- the op table (ops.def) ---- */

/* Each op's roles and attributes (ops.def). */
#define OP(id, name, form, flags, nres, nreg, operands, attrs)       \
	static const ir_role roles_##id[] = {operands {NULL, 0, 0}}; \
	static const ir_attrdef attrs_##id[] = {attrs {NULL, 0, 0}};
#define IN(role, kind) {#role, IR_ROLE_IN, IR_KIND_##kind},
#define OPT(role, kind) {#role, IR_ROLE_OPT, IR_KIND_##kind},
#define VAR(role, kind) {#role, IR_ROLE_VAR, IR_KIND_##kind},
#define OUT(role, kind) {#role, IR_ROLE_OUT, IR_KIND_##kind},
#define ATTR(name, kind, req) {#name, IR_IF_##kind, IR_IF_##req},
#include "ops.def"
#undef OP

/* The operand counts of each op as one constant (an enum, so that the table below is a
 * constant initializer): INs in bits 0-7, OPTs 8-15, VARs 16-23, OUTs 24-31. */
enum {
#define OP(id, name, form, flags, nres, nreg, operands, attrs) OPS_N_##id = (0 operands),
#define IN(role, kind) +1
#define OPT(role, kind) +(1 << 8)
#define VAR(role, kind) +(1 << 16)
#define OUT(role, kind) +(1 << 24)
#define ATTR(name, kind, req)
#include "ops.def"
#undef OP
	OPS_N_END_
};
#define OPS_IN_(id) (OPS_N_##id & 255)
#define OPS_OPT_(id) (OPS_N_##id >> 8 & 255)
#define OPS_VAR_(id) (OPS_N_##id >> 16 & 255)
#define OPS_OUT_(id) (OPS_N_##id >> 24 & 255)

/* The DPS forms: their OUTs are the trailing `outs(...)` operands. */
#define OPS_DPS_(form) (IR_FORM_##form == IR_FORM_TILE || IR_FORM_##form == IR_FORM_TILE_INS_ATTRS)

static const ir_opdef opdefs[IR_OP_COUNT + 1] = {
#define OP(id, name, form, flags, nres, nreg, operands, attrs)                                 \
	{name, flags, OPS_IN_(id), OPS_VAR_(id) ? -1 : OPS_IN_(id) + OPS_OPT_(id) + OPS_OUT_(id), \
	 OPS_DPS_(form) ? OPS_OUT_(id) : -1, nres, nreg, IR_FORM_##form, roles_##id,             \
	 sizeof roles_##id / sizeof roles_##id[0] - 1, attrs_##id,                              \
	 sizeof attrs_##id / sizeof attrs_##id[0] - 1},
#include "ops.def"
#undef OP
	{"<unknown>", 0, -1, -1, -1, -1, -1, IR_FORM_NONE, NULL, 0, NULL, 0},
};
#undef OPS_DPS_
#undef OPS_IN_
#undef OPS_OPT_
#undef OPS_VAR_
#undef OPS_OUT_

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
#define INSN(id, name, call, fixed, pipe, fields) static const ir_ifield insn_##id[] = {fields};
#include "insns.def"
#undef INSN
#undef T
#undef F

static const ir_insndef insns[] = {
#define INSN(id, name, call, fixed, pipe, fields) \
	{name, call, fixed, insn_##id, sizeof insn_##id / sizeof insn_##id[0]},
#include "insns.def"
#undef INSN
};

/* The opcodes of the rows, contiguous in ops.def (one include of insns.def). */
static const ir_opcode insn_ops[] = {
#define INSN(id, name, call, fixed, pipe, fields) IR_OP_I_##id,
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

const char *const ir_cmpi_pred_names[IR_CMPI_PRED_COUNT] = {
	"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
};

const char *const ir_cmpf_pred_names[IR_CMPF_PRED_COUNT] = {
	"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
	"ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
};

/* The vector ops, in the order of their opcodes (ops.def includes the same file). */
static const ir_vecdef vecdefs[] = {
#define VT(id) (1u << PTORT_##id)
#define VEC_OP(name, kind, vop, a2a3, a5) {#name, IR_VK_##kind, PTORT_VOP_##vop},
#include "../target/vec_types.def"
#undef VEC_OP
#undef VT
};
_Static_assert(sizeof vecdefs / sizeof vecdefs[0] == IR_OP_V_END - IR_OP_V_FIRST,
	       "the vector ops of ops.def are the rows of vec_types.def");

const ir_vecdef *ir_vecdef_get(ir_opcode code)
{
	if (code < IR_OP_V_FIRST || code >= IR_OP_V_END)
		return NULL;
	return &vecdefs[code - IR_OP_V_FIRST];
}

int ir_opdef_role(ir_opcode code, const char *name)
{
	const ir_opdef *d = ir_opdef_get(code);
	unsigned i;
	for (i = 0; i < d->num_roles; i++)
		if (!strcmp(d->roles[i].name, name))
			return (int)i;
	return -1;
}

unsigned ir_op_num_outs(const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	if (op->code == IR_OP_TMRGSORT && op->num_operands &&
	    ir_type_is_tile(op->operands[op->num_operands - 1].value->type))
		return 1;
	/* tgather's compare form (a scalar second operand) has two outs, dst and cdst */
	if (op->code == IR_OP_TGATHER && op->num_operands == 5 && op->operands[1].value &&
	    !ir_type_is_tile(op->operands[1].value->type))
		return 2;
	return d->num_outs > 0 ? (unsigned)d->num_outs : 0;
}

unsigned ir_opdef_lead(const ir_opdef *d, ir_kind k)
{
	unsigned n = 0;
	while (n < d->num_roles && d->roles[n].kind == (unsigned char)k)
		n++;
	return n;
}

ir_mem ir_kind_mem(ir_kind k)
{
	switch (k) {
	case IR_KIND_TILE_LEFT: return IR_MEM_LEFT;
	case IR_KIND_TILE_RIGHT: return IR_MEM_RIGHT;
	case IR_KIND_TILE_ACC: return IR_MEM_ACC;
	case IR_KIND_TILE_BIAS: return IR_MEM_BIAS;
	case IR_KIND_TILE_SCALING: return IR_MEM_SCALING;
	default: return IR_MEM_NONE;
	}
}

int ir_matmul_roles_of(ir_opcode code, ir_matmul_roles *r)
{
	if (!(ir_opdef_get(code)->flags & IR_OPF_MATMUL))
		return -1;
	r->acc = ir_opdef_role(code, "acc_in");
	r->a = ir_opdef_role(code, "lhs");
	r->a_scale = ir_opdef_role(code, "a_scale");
	r->b = ir_opdef_role(code, "rhs");
	r->b_scale = ir_opdef_role(code, "b_scale");
	r->bias = ir_opdef_role(code, "bias");
	r->mx = r->a_scale >= 0;
	r->gemv = code == IR_OP_TGEMV || code == IR_OP_TGEMV_ACC || code == IR_OP_TGEMV_BIAS ||
		  code == IR_OP_TGEMV_MX || code == IR_OP_TGEMV_MX_ACC || code == IR_OP_TGEMV_MX_BIAS;
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

/* Looks the opcode up once per interned name (cached beside the string): the table is
 * scanned once per distinct name, not once per op (docs/performance.md). */
ir_opcode ir_opcode_interned(const char *name)
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
	op->code = ir_opcode_interned(op->name);
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

int ir_op_mem_field(const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "mem");
	ir_mem m;
	if (!a || a->kind != IR_ATTR_PTO || !a->u.pto.value ||
	    ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m))
		return -1;
	return (int)m;
}

/* Rebuilds the dictionary with each name of `set` set to its value (removed when
 * NULL): one new dictionary for the lot. */
unsigned ir_op_error(ir_ctx *ctx, const ir_op *op, const char *fmt, ...)
{
	char pre[128];
	va_list ap;
	snprintf(pre, sizeof pre, "'%s' op ", op->name);
	va_start(ap, fmt);
	ir_emitv_prefixed(ctx, PTOC_ERROR, op->loc, pre, fmt, ap);
	va_end(ap);
	return 1;
}

void ir_op_set_attrs(ir_ctx *ctx, ir_op *op, const ir_named_attr *set, unsigned nset)
{
	unsigned n = op->attrs->u.dict.n, i, j, m = 0;
	/* work memory, not the arena: ir_attr_dict copies what it keeps (the arena
	 * kept every intermediate array, 2.6 MB on ptoc-bench's 10k kernels) */
	ir_named_attr small[16];
	ir_named_attr *v = n + nset <= 16 ? small : ir_xcalloc(n + nset, sizeof *v);
	for (i = 0; i < n; i++) {
		for (j = 0; j < nset && strcmp(op->attrs->u.dict.entries[i].name, set[j].name); j++)
			;
		if (j == nset)
			v[m++] = op->attrs->u.dict.entries[i];
	}
	for (j = 0; j < nset; j++)
		if (set[j].value)
			v[m++] = set[j];
	op->attrs = ir_attr_dict(ctx, v, m, op->loc);
	if (v != small)
		free(v);
}

void ir_op_set_attr(ir_ctx *ctx, ir_op *op, const char *name, const ir_attr *value)
{
	ir_named_attr e;
	e.name = name;
	e.value = value;
	ir_op_set_attrs(ctx, op, &e, 1);
}

void ir_op_remove_attr(ir_ctx *ctx, ir_op *op, const char *name)
{
	if (ir_dict_get(op->attrs, name))
		ir_op_set_attr(ctx, op, name, NULL);
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

int ir_value_const_int(const ir_value *v, int64_t *out)
{
	const ir_attr *a;
	if (!v || !v->def || v->def->code != IR_OP_CONSTANT)
		return 0;
	a = ir_op_get_attr(v->def, "value");
	if (!a || a->kind != IR_ATTR_INT)
		return 0;
	*out = a->u.i.v;
	return 1;
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

typedef struct op_collect {
	ir_op_list *l;
	int (*keep)(const ir_op *op);
} op_collect;

static int collect_one(ir_op *op, void *user)
{
	op_collect *c = user;
	ir_op_list *l = c->l;
	if (c->keep && !c->keep(op))
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		ir_op **a = realloc(l->a, cap * sizeof *a);
		if (!a)
			return 1;
		l->a = a;
		l->cap = cap;
	}
	l->a[l->n++] = op;
	return 0;
}

int ir_op_list_collect(ir_op *root, int (*keep)(const ir_op *op), ir_op_list *l)
{
	op_collect c;
	memset(l, 0, sizeof *l);
	c.l = l;
	c.keep = keep;
	if (ir_walk(root, collect_one, &c)) {
		free(l->a);
		memset(l, 0, sizeof *l);
		return -1;
	}
	return 0;
}
