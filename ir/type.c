/* type.c: uniqued types. Each constructor builds a key on the stack, looks it up in
 * the context's hash set by structure and returns the one stored copy, so types
 * compare by pointer. Component types are uniqued already and hashed by pointer. */
#include <string.h>

#include "ir/ir.h"

static uint64_t hash_type(const ir_type *t)
{
	uint64_t h = ir_hash_mix(0x7479706573u, (uint64_t)t->kind);
	unsigned i;
	switch (t->kind) {
	case IR_TYPE_NONE:
	case IR_TYPE_INDEX:
		break;
	case IR_TYPE_INT:
		h = ir_hash_mix(h, t->u.i.bits * 4u + t->u.i.signedness);
		break;
	case IR_TYPE_FLOAT:
		h = ir_hash_mix(h, t->u.f.kind);
		break;
	case IR_TYPE_FUNC:
		h = ir_hash_mix(h, t->u.fn.nin * 65537u + t->u.fn.nout);
		for (i = 0; i < t->u.fn.nin; i++)
			h = ir_hash_mix(h, (uint64_t)(uintptr_t)t->u.fn.in[i]);
		for (i = 0; i < t->u.fn.nout; i++)
			h = ir_hash_mix(h, (uint64_t)(uintptr_t)t->u.fn.out[i]);
		break;
	case IR_TYPE_PTR:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)t->u.ptr.elem);
		break;
	case IR_TYPE_TENSOR_VIEW:
	case IR_TYPE_PART_VIEW:
	case IR_TYPE_TILE:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)t->u.shaped.elem);
		h = ir_hash_bytes(t->u.shaped.dims, t->u.shaped.rank * sizeof(int64_t), h);
		break;
	case IR_TYPE_TILE_BUF:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)t->u.tb.elem);
		h = ir_hash_mix(h, t->u.tb.mem * 16u + t->u.tb.blayout * 4u + t->u.tb.slayout);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.rows);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.cols);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.v_row);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.v_col);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.fractal);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.pad);
		h = ir_hash_mix(h, (uint64_t)t->u.tb.compact);
		break;
	case IR_TYPE_OPAQUE:
		h = ir_hash_bytes(t->u.opaque.text, strlen(t->u.opaque.text), h);
		break;
	}
	return h;
}

static int same_list(const ir_type *const *a, const ir_type *const *b, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static int eq_type(const void *elem, const void *key)
{
	const ir_type *a = elem, *b = key;
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case IR_TYPE_NONE:
	case IR_TYPE_INDEX:
		return 1;
	case IR_TYPE_INT:
		return a->u.i.bits == b->u.i.bits && a->u.i.signedness == b->u.i.signedness;
	case IR_TYPE_FLOAT:
		return a->u.f.kind == b->u.f.kind;
	case IR_TYPE_FUNC:
		return a->u.fn.nin == b->u.fn.nin && a->u.fn.nout == b->u.fn.nout &&
		       same_list(a->u.fn.in, b->u.fn.in, a->u.fn.nin) &&
		       same_list(a->u.fn.out, b->u.fn.out, a->u.fn.nout);
	case IR_TYPE_PTR:
		return a->u.ptr.elem == b->u.ptr.elem;
	case IR_TYPE_TENSOR_VIEW:
	case IR_TYPE_PART_VIEW:
	case IR_TYPE_TILE:
		return a->u.shaped.elem == b->u.shaped.elem && a->u.shaped.rank == b->u.shaped.rank &&
		       (!a->u.shaped.rank || !memcmp(a->u.shaped.dims, b->u.shaped.dims,
						     a->u.shaped.rank * sizeof(int64_t)));
	case IR_TYPE_TILE_BUF:
		return a->u.tb.mem == b->u.tb.mem && a->u.tb.elem == b->u.tb.elem &&
		       a->u.tb.rows == b->u.tb.rows && a->u.tb.cols == b->u.tb.cols &&
		       a->u.tb.v_row == b->u.tb.v_row && a->u.tb.v_col == b->u.tb.v_col &&
		       a->u.tb.blayout == b->u.tb.blayout && a->u.tb.slayout == b->u.tb.slayout &&
		       a->u.tb.fractal == b->u.tb.fractal && a->u.tb.pad == b->u.tb.pad &&
		       a->u.tb.compact == b->u.tb.compact;
	case IR_TYPE_OPAQUE:
		return !strcmp(a->u.opaque.text, b->u.opaque.text);
	}
	return 0;
}

/* Returns the uniqued copy of `key`; `deep` copies the arrays the key points to. */
static const ir_type *unique(ir_ctx *ctx, const ir_type *key)
{
	uint64_t h = hash_type(key);
	ir_type *t = ir_hset_find(&ctx->types, h, eq_type, key);
	size_t n;
	if (t)
		return t;
	t = ir_alloc(ctx, sizeof *t);
	*t = *key;
	switch (t->kind) {
	case IR_TYPE_FUNC: {
		const ir_type **v = ir_alloc(ctx, (key->u.fn.nin + key->u.fn.nout + 1) * sizeof *v);
		if (key->u.fn.nin)
			memcpy(v, key->u.fn.in, key->u.fn.nin * sizeof *v);
		if (key->u.fn.nout)
			memcpy(v + key->u.fn.nin, key->u.fn.out, key->u.fn.nout * sizeof *v);
		t->u.fn.in = v;
		t->u.fn.out = v + key->u.fn.nin;
		break;
	}
	case IR_TYPE_TENSOR_VIEW:
	case IR_TYPE_PART_VIEW:
	case IR_TYPE_TILE:
		t->u.shaped.dims = ir_memdup(ctx, key->u.shaped.dims, key->u.shaped.rank, sizeof(int64_t));
		break;
	case IR_TYPE_OPAQUE:
		n = strlen(key->u.opaque.text);
		t->u.opaque.text = ir_strndup(ctx, key->u.opaque.text, n);
		break;
	default:
		break;
	}
	ir_hset_insert(&ctx->types, h, t);
	return t;
}

const ir_type *ir_type_none(ir_ctx *ctx)
{
	if (!ctx->t_none) {
		ir_type k = {.kind = IR_TYPE_NONE};
		ctx->t_none = unique(ctx, &k);
	}
	return ctx->t_none;
}

const ir_type *ir_type_index(ir_ctx *ctx)
{
	if (!ctx->t_index) {
		ir_type k = {.kind = IR_TYPE_INDEX};
		ctx->t_index = unique(ctx, &k);
	}
	return ctx->t_index;
}

const ir_type *ir_type_int(ir_ctx *ctx, unsigned bits, unsigned signedness)
{
	ir_type k = {.kind = IR_TYPE_INT, .u.i = {.bits = bits, .signedness = signedness}};
	return unique(ctx, &k);
}

const ir_type *ir_type_float(ir_ctx *ctx, unsigned kind)
{
	ir_type k = {.kind = IR_TYPE_FLOAT, .u.f.kind = kind};
	return unique(ctx, &k);
}

/* Element types come from the runtime's list (ptort.h): floats are float kinds, signed
 * integers signless, the others unsigned, at their storage width. */
const ir_type *ir_type_elem(ir_ctx *ctx, ptort_type t)
{
	if (ptort_type_is_float(t))
		return ir_type_float(ctx, (unsigned)t);
	return ir_type_int(ctx, ptort_type_bits(t),
			   ptort_type_is_signed_int(t) ? IR_INT_SIGNLESS : IR_INT_UNSIGNED);
}

int ir_float_is_mlir_builtin(unsigned kind)
{
	switch (kind) {
	case PTORT_HIF8: case PTORT_F4E2M1FN: case PTORT_F4E1M2: case PTORT_F8E8M0FNU:
		return 0;
	default:
		return 1;
	}
}

const ir_type *ir_type_func(ir_ctx *ctx, const ir_type *const *in, unsigned nin,
			    const ir_type *const *out, unsigned nout)
{
	ir_type k = {.kind = IR_TYPE_FUNC,
		     .u.fn = {.in = in, .nin = nin, .out = out, .nout = nout}};
	return unique(ctx, &k);
}

const ir_type *ir_type_ptr(ir_ctx *ctx, const ir_type *elem)
{
	ir_type k = {.kind = IR_TYPE_PTR, .u.ptr.elem = elem};
	return unique(ctx, &k);
}

const ir_type *ir_type_shaped(ir_ctx *ctx, ir_type_kind kind, const int64_t *dims,
			      unsigned rank, const ir_type *elem)
{
	ir_type k = {.kind = kind, .u.shaped = {.dims = dims, .rank = rank, .elem = elem}};
	return unique(ctx, &k);
}

const ir_type *ir_type_tile_buf(ir_ctx *ctx, const ir_type *tb)
{
	ir_type k = {.kind = IR_TYPE_TILE_BUF, .u.tb = tb->u.tb};
	return unique(ctx, &k);
}

const ir_type *ir_type_opaque(ir_ctx *ctx, const char *text, size_t len)
{
	ir_type k = {.kind = IR_TYPE_OPAQUE, .u.opaque.text = ir_intern(ctx, text, len)};
	return unique(ctx, &k);
}

int ir_type_to_elem(const ir_type *t, ptort_type *out)
{
	ptort_type r;
	if (!t)
		return -1;
	if (t->kind == IR_TYPE_FLOAT) {
		if (t->u.f.kind >= PTORT_TYPE_COUNT)
			return -1;
		*out = (ptort_type)t->u.f.kind;
		return 0;
	}
	if (t->kind != IR_TYPE_INT)
		return -1;
	for (r = (ptort_type)0; r < PTORT_TYPE_COUNT; r = (ptort_type)(r + 1))
		if (!ptort_type_is_float(r) && ptort_type_bits(r) == t->u.i.bits &&
		    ptort_type_is_signed_int(r) == (t->u.i.signedness != IR_INT_UNSIGNED)) {
			*out = r;
			return 0;
		}
	return -1;
}

int ir_type_is_tile(const ir_type *t)
{
	return t && (t->kind == IR_TYPE_TILE || t->kind == IR_TYPE_TILE_BUF);
}

const char *const ir_blayout_names[IR_BLAYOUT_COUNT] = {
#define BLAYOUT_NAME_(id, name) name,
	IR_BLAYOUT_LIST(BLAYOUT_NAME_)
#undef BLAYOUT_NAME_
};

const char *const ir_slayout_names[IR_SLAYOUT_COUNT] = {
#define SLAYOUT_NAME_(id, name) name,
	IR_SLAYOUT_LIST(SLAYOUT_NAME_)
#undef SLAYOUT_NAME_
};

/* ir_mem is ptoc_loc shifted by IR_MEM_VEC, after IR_MEM_NONE (ir.h) */
const char *ir_mem_name(ir_mem m)
{
	if (m == IR_MEM_NONE)
		return "none";
	return (unsigned)m < IR_MEM_COUNT ? ptoc_loc_name((ptoc_loc)(m - IR_MEM_VEC)) : "?";
}

int ir_mem_parse(const char *s, size_t len, ir_mem *out)
{
	ptoc_loc l;
	if (ptoc_loc_parse(s, len, &l))
		return -1;
	*out = (ir_mem)(IR_MEM_VEC + l);
	return 0;
}
