/* attr.c: uniqued attributes, like type.c: keys built on the stack, hashed by
 * structure (component attributes and types by pointer), one stored copy each.
 * Dictionaries are sorted by name with unique names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static uint64_t hash_attr(const ir_attr *a)
{
	uint64_t h = ir_hash_mix(0x61747472u, (uint64_t)a->kind), bits;
	unsigned i;
	switch (a->kind) {
	case IR_ATTR_UNIT:
		break;
	case IR_ATTR_BOOL:
	case IR_ATTR_INT:
		h = ir_hash_mix(h, (uint64_t)a->u.i.v);
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.i.type);
		break;
	case IR_ATTR_FLOAT:
		memcpy(&bits, &a->u.f.v, sizeof bits);
		h = ir_hash_mix(h, bits);
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.f.type);
		break;
	case IR_ATTR_STRING:
	case IR_ATTR_SYMBOL:
		h = ir_hash_bytes(a->u.str.s, a->u.str.len, h);
		break;
	case IR_ATTR_TYPE:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.type);
		break;
	case IR_ATTR_ARRAY:
		h = ir_hash_bytes(a->u.array.elems, a->u.array.n * sizeof(void *), h);
		break;
	case IR_ATTR_DENSE:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.dense.elem);
		h = ir_hash_bytes(a->u.dense.v, a->u.dense.n * sizeof(int64_t), h);
		break;
	case IR_ATTR_DICT:
		for (i = 0; i < a->u.dict.n; i++) {
			h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.dict.entries[i].name);
			h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.dict.entries[i].value);
		}
		h = ir_hash_mix(h, a->u.dict.n);
		break;
	case IR_ATTR_PTO:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.pto.kind);
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.pto.value);
		h = ir_hash_mix(h, a->u.pto.style);
		break;
	case IR_ATTR_OPAQUE:
		h = ir_hash_mix(h, (uint64_t)(uintptr_t)a->u.opaque.text);
		break;
	}
	return h;
}

static int eq_attr(const void *elem, const void *key)
{
	const ir_attr *a = elem, *b = key;
	unsigned i;
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case IR_ATTR_UNIT:
		return 1;
	case IR_ATTR_BOOL:
	case IR_ATTR_INT:
		return a->u.i.v == b->u.i.v && a->u.i.type == b->u.i.type;
	case IR_ATTR_FLOAT:
		return !memcmp(&a->u.f.v, &b->u.f.v, sizeof(double)) && a->u.f.type == b->u.f.type;
	case IR_ATTR_STRING:
	case IR_ATTR_SYMBOL:
		return a->u.str.len == b->u.str.len &&
		       (!a->u.str.len || !memcmp(a->u.str.s, b->u.str.s, a->u.str.len));
	case IR_ATTR_TYPE:
		return a->u.type == b->u.type;
	case IR_ATTR_ARRAY:
		return a->u.array.n == b->u.array.n &&
		       (!a->u.array.n || !memcmp(a->u.array.elems, b->u.array.elems,
						 a->u.array.n * sizeof(void *)));
	case IR_ATTR_DENSE:
		return a->u.dense.elem == b->u.dense.elem && a->u.dense.n == b->u.dense.n &&
		       (!a->u.dense.n || !memcmp(a->u.dense.v, b->u.dense.v,
						 a->u.dense.n * sizeof(int64_t)));
	case IR_ATTR_DICT:
		if (a->u.dict.n != b->u.dict.n)
			return 0;
		for (i = 0; i < a->u.dict.n; i++)
			if (a->u.dict.entries[i].name != b->u.dict.entries[i].name ||
			    a->u.dict.entries[i].value != b->u.dict.entries[i].value)
				return 0;
		return 1;
	case IR_ATTR_PTO:
		return a->u.pto.kind == b->u.pto.kind && a->u.pto.value == b->u.pto.value &&
		       a->u.pto.style == b->u.pto.style;
	case IR_ATTR_OPAQUE:
		return a->u.opaque.text == b->u.opaque.text;
	}
	return 0;
}

static const ir_attr *unique(ir_ctx *ctx, const ir_attr *key)
{
	uint64_t h = hash_attr(key);
	ir_attr *a = ir_hset_find(&ctx->attrs, h, eq_attr, key);
	if (a)
		return a;
	a = ir_alloc(ctx, sizeof *a);
	*a = *key;
	switch (a->kind) {
	case IR_ATTR_STRING:
	case IR_ATTR_SYMBOL:
		a->u.str.s = ir_strndup(ctx, key->u.str.s, key->u.str.len);
		break;
	case IR_ATTR_ARRAY:
		a->u.array.elems = ir_memdup(ctx, key->u.array.elems, key->u.array.n, sizeof(ir_attr *));
		break;
	case IR_ATTR_DENSE:
		a->u.dense.v = ir_memdup(ctx, key->u.dense.v, key->u.dense.n, sizeof(int64_t));
		break;
	case IR_ATTR_DICT:
		a->u.dict.entries = ir_memdup(ctx, key->u.dict.entries, key->u.dict.n,
					      sizeof(ir_named_attr));
		break;
	default:
		break;
	}
	ir_hset_insert(&ctx->attrs, h, a);
	return a;
}

static ir_attr blank(ir_attr_kind kind)
{
	ir_attr k;
	memset(&k, 0, sizeof k);
	k.kind = kind;
	return k;
}

const ir_attr *ir_attr_unit(ir_ctx *ctx)
{
	ir_attr k = blank(IR_ATTR_UNIT);
	return unique(ctx, &k);
}

const ir_attr *ir_attr_bool(ir_ctx *ctx, int v)
{
	ir_attr k = blank(IR_ATTR_BOOL);
	k.u.i.v = v != 0;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_int(ir_ctx *ctx, int64_t v, const ir_type *type)
{
	ir_attr k = blank(IR_ATTR_INT);
	k.u.i.v = v;
	k.u.i.type = type;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_float(ir_ctx *ctx, double v, const ir_type *type)
{
	ir_attr k = blank(IR_ATTR_FLOAT);
	k.u.f.v = v;
	k.u.f.type = type;
	return unique(ctx, &k);
}

/* The mantissa width of the float kinds a constant can have (f64, f32, f16, bf16); 0 for
 * the others. */
static unsigned float_mbits(const ir_type *t)
{
	if (!t || t->kind != IR_TYPE_FLOAT)
		return 0;
	switch (t->u.f.kind) {
	case IR_F64: return 52;
	case PTORT_F32: return 23;
	case PTORT_F16: return 10;
	case PTORT_BF16: return 7;
	default: return 0;
	}
}

/* A float attribute of `type` from its bit pattern. The double holds the exact value; a
 * NaN keeps its sign and payload (shifted to the top of the double's mantissa) and is
 * built and read with integer operations only, so a signalling NaN stays signalling. */
const ir_attr *ir_attr_float_bits(ir_ctx *ctx, uint64_t bits, const ir_type *type)
{
	unsigned mb = float_mbits(type), eb, width;
	uint64_t m, e, sgn, d;
	double v;
	if (!mb)
		return ir_attr_int(ctx, (int64_t)bits, type);
	if (mb == 52) {
		memcpy(&v, &bits, 8);
		return ir_attr_float(ctx, v, type);
	}
	eb = mb == 7 ? 8 : mb == 10 ? 5 : 8;
	width = 1 + eb + mb;
	bits &= ((uint64_t)1 << width) - 1;
	sgn = bits >> (width - 1);
	e = (bits >> mb) & (((uint64_t)1 << eb) - 1);
	m = bits & (((uint64_t)1 << mb) - 1);
	if (e == ((uint64_t)1 << eb) - 1) {
		d = sgn << 63 | (uint64_t)0x7FF << 52 | m << (52 - mb);
		memcpy(&v, &d, 8);
	} else {
		int bias = (1 << (eb - 1)) - 1;
		v = e ? ldexp((double)(m | (uint64_t)1 << mb), (int)e - bias - (int)mb)
		      : ldexp((double)m, 1 - bias - (int)mb);
		if (sgn)
			v = -v;
	}
	return ir_attr_float(ctx, v, type);
}

/* Rounds finite `v` to the nearest f32 with ties to odd (truncate, then set the last
 * bit when inexact): a later rounding to a narrower format is then correct. */
static uint32_t f32_round_odd(double v)
{
	float f = (float)v;
	uint32_t b;
	if ((double)f != v && isfinite(f)) {
		if (fabs((double)f) > fabs(v))
			f = nextafterf(f, 0.0f);
		memcpy(&b, &f, 4);
		return b | 1;
	}
	memcpy(&b, &f, 4);
	if (!isfinite(f)) /* beyond f32: the largest finite, inexact (odd) */
		b = (b & 0x80000000u) | 0x7F7FFFFFu;
	return b;
}

int ir_float_attr_bits(const ir_attr *a, const ir_type *type, uint64_t *bits)
{
	unsigned mb = float_mbits(type);
	uint64_t d;
	double v;
	if (!a || !mb)
		return -1;
	if (a->kind == IR_ATTR_INT) { /* `0x7FC00000 : f32` kept as its bits */
		*bits = (uint64_t)a->u.i.v;
		return 0;
	}
	if (a->kind != IR_ATTR_FLOAT)
		return -1;
	v = a->u.f.v;
	memcpy(&d, &v, 8);
	if (mb == 52) {
		*bits = d;
		return 0;
	}
	if (isnan(v)) {
		unsigned eb = mb == 10 ? 5 : 8, width = 1 + eb + mb;
		*bits = (d >> 63) << (width - 1) | (((uint64_t)1 << eb) - 1) << mb |
			((d >> (52 - mb)) & (((uint64_t)1 << mb) - 1));
		if (!(*bits & (((uint64_t)1 << mb) - 1)))
			*bits |= (uint64_t)1 << (mb - 1); /* a payload below the format: quiet NaN */
		return 0;
	}
	if (isinf(v)) {
		*bits = mb == 23 ? 0x7F800000u : mb == 10 ? 0x7C00u : 0x7F80u;
		if (v < 0)
			*bits |= mb == 23 ? 0x80000000u : 0x8000u;
		return 0;
	}
	{
		uint32_t f = f32_round_odd(v);
		if (mb == 23) {
			float x = (float)v; /* one rounding, to nearest even */
			memcpy(&f, &x, 4);
			*bits = f;
		} else {
			*bits = ptort_cvt1(PTORT_F32, (ptort_type)type->u.f.kind, f, PTORT_RINT, 0);
		}
	}
	return 0;
}

const ir_attr *ir_attr_string(ir_ctx *ctx, const char *s, size_t len)
{
	ir_attr k = blank(IR_ATTR_STRING);
	k.u.str.s = s;
	k.u.str.len = len;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_symbol(ir_ctx *ctx, const char *s, size_t len)
{
	ir_attr k = blank(IR_ATTR_SYMBOL);
	k.u.str.s = s;
	k.u.str.len = len;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_type(ir_ctx *ctx, const ir_type *t)
{
	ir_attr k = blank(IR_ATTR_TYPE);
	k.u.type = t;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_array(ir_ctx *ctx, const ir_attr *const *elems, unsigned n)
{
	ir_attr k = blank(IR_ATTR_ARRAY);
	k.u.array.elems = elems;
	k.u.array.n = n;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_dense(ir_ctx *ctx, const ir_type *elem, const int64_t *v, unsigned n)
{
	ir_attr k = blank(IR_ATTR_DENSE);
	k.u.dense.elem = elem;
	k.u.dense.v = v;
	k.u.dense.n = n;
	return unique(ctx, &k);
}


struct ikey {
	ir_named_attr e;
	unsigned i;
};

/* Name order, then source order: a stable sort through qsort. */
static int by_name_index(const void *a, const void *b)
{
	const struct ikey *x = a, *y = b;
	int c = strcmp(x->e.name, y->e.name);
	if (c)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

const ir_attr *ir_attr_dict(ir_ctx *ctx, const ir_named_attr *entries, unsigned n, ir_loc loc)
{
	ir_named_attr small[16], *v = n <= 16 ? small : ir_alloc(ctx, n * sizeof *v);
	unsigned i, j, m = 0;
	ir_attr k = blank(IR_ATTR_DICT);
	int sorted = 1;
	/* Intern the names, then sort (insertion sort: stable, dictionaries are small). */
	for (i = 0; i < n; i++) {
		v[i].name = ir_intern(ctx, entries[i].name, strlen(entries[i].name));
		v[i].value = entries[i].value;
		if (i && strcmp(v[i - 1].name, v[i].name) >= 0)
			sorted = 0;
	}
	if (!sorted && n <= 32) {
		for (i = 1; i < n; i++) {
			ir_named_attr t = v[i];
			for (j = i; j > 0 && strcmp(v[j - 1].name, t.name) > 0; j--)
				v[j] = v[j - 1];
			v[j] = t;
		}
	} else if (!sorted) {
		struct ikey *ix = ir_alloc(ctx, n * sizeof *ix);
		for (i = 0; i < n; i++) {
			ix[i].e = v[i];
			ix[i].i = i;
		}
		qsort(ix, n, sizeof *ix, by_name_index);
		for (i = 0; i < n; i++)
			v[i] = ix[i].e;
	}
	for (i = 0; i < n; i++) {
		if (m && v[m - 1].name == v[i].name) {
			ir_error(ctx, loc, "duplicate key '%s' in dictionary attribute", v[i].name);
			continue;
		}
		v[m++] = v[i];
	}
	k.u.dict.entries = v;
	k.u.dict.n = m;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_pto(ir_ctx *ctx, const char *kind, const char *value, unsigned style)
{
	ir_attr k = blank(IR_ATTR_PTO);
	k.u.pto.kind = ir_intern(ctx, kind, strlen(kind));
	k.u.pto.value = ir_intern(ctx, value, strlen(value));
	k.u.pto.style = style;
	return unique(ctx, &k);
}

const ir_attr *ir_attr_opaque(ir_ctx *ctx, const char *text, size_t len)
{
	ir_attr k = blank(IR_ATTR_OPAQUE);
	k.u.opaque.text = ir_intern(ctx, text, len);
	return unique(ctx, &k);
}

const ir_attr *ir_attr_map(ir_ctx *ctx, const ir_attr *a, ir_attr_leaf_fn fn, void *user)
{
	unsigned i;
	if (!a)
		return NULL;
	if (a->kind == IR_ATTR_ARRAY) {
		const ir_attr **v = ir_alloc(ctx, sizeof *v * (a->u.array.n + 1));
		for (i = 0; i < a->u.array.n; i++)
			v[i] = ir_attr_map(ctx, a->u.array.elems[i], fn, user);
		return ir_attr_array(ctx, v, a->u.array.n);
	}
	if (a->kind == IR_ATTR_DICT) {
		ir_named_attr *e = ir_alloc(ctx, sizeof *e * (a->u.dict.n + 1));
		ir_loc none = {NULL, 0, 0};
		for (i = 0; i < a->u.dict.n; i++) {
			e[i].name = a->u.dict.entries[i].name;
			e[i].value = ir_attr_map(ctx, a->u.dict.entries[i].value, fn, user);
		}
		return ir_attr_dict(ctx, e, a->u.dict.n, none); /* names already unique */
	}
	return fn(ctx, a, user);
}

const ir_attr *ir_dict_get(const ir_attr *dict, const char *name)
{
	unsigned lo = 0, hi, mid;
	int c;
	if (!dict || dict->kind != IR_ATTR_DICT)
		return NULL;
	hi = dict->u.dict.n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(dict->u.dict.entries[mid].name, name);
		if (!c)
			return dict->u.dict.entries[mid].value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int ir_attr_rmode(const ir_attr *a, ptort_rmode *out)
{
	if (!a || a->kind != IR_ATTR_PTO || strcmp(a->u.pto.kind, "round_mode"))
		return -1;
	return ptort_rmode_parse(a->u.pto.value, strlen(a->u.pto.value), out);
}

int ir_attr_cmp(const ir_attr *a)
{
	unsigned k;
	if (!a || a->kind != IR_ATTR_PTO || strcmp(a->u.pto.kind, "cmp"))
		return -1;
	for (k = 0; k < PTORT_CMP_COUNT; k++)
		if (!strcmp(a->u.pto.value, ptort_cmp_name((ptort_cmp)k)))
			return (int)k;
	return -1;
}

int ir_attr_satmode(const ir_attr *a)
{
	const char *v;
	if (!a || a->kind != IR_ATTR_PTO || strcmp(a->u.pto.kind, "saturation_mode"))
		return -1;
	v = a->u.pto.value;
	if (!strcmp(v, "ON"))
		return 1;
	if (!strcmp(v, "OFF"))
		return 0;
	return -1;
}
