/* import.c: ptoc_module_from_mlir, MLIR operations to ptoc IR (mlir.h).
 *
 * Requires: an MLIR operation (builtin.module or func.func) whose values are defined
 * before their uses in pre-order (SSA regions). Preserves: op names, operand and result
 * order, attribute names, block arguments, locations (FileLineColLoc, bridge.h), value
 * names where the locations carry them (export.c's ex_op_loc).
 *
 * Walks the MLIR IR through the C API. Builtin attributes are converted one by one;
 * function types likewise; every other type and every dialect attribute goes through
 * the text MLIR prints for it and ptoc's type and attribute readers (frontend/), which
 * keep what they do not know as opaque text. Types, attributes and locations are
 * uniqued by MLIR, so each is converted once (maps keyed by their pointers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir/bridge.h"

typedef struct imp {
	ir_ctx *ctx;
	br_map values, types, attrs, locs;
	ptoc_buf buf;
	int failed;
} imp;

static void oom(imp *im, ir_loc loc)
{
	if (!im->failed)
		ir_error(im->ctx, loc, "out of memory importing MLIR");
	im->failed = 1;
}

/* ---- locations ---------------------------------------------------------------------- */

static int hexv(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int digits(const char **p, const char *e, uint32_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	while (s < e && *s >= '0' && *s <= '9' && v < 0xFFFFFFFFu)
		v = v * 10 + (uint64_t)(*s++ - '0');
	if (s == *p || v > 0xFFFFFFFFu)
		return -1;
	*p = s;
	*out = (uint32_t)v;
	return 0;
}

/* What ptoc takes from an MLIR location (export.c's ex_op_loc writes it). */
typedef struct loc_info {
	ir_loc loc;
	const char *name;    /* NameLoc: the name of the op's first result (interned) */
	unsigned nblocks;    /* FusedLoc metadata: the names of the results (list 0) and */
	unsigned *nargs;     /* of the block arguments (list 1 + block) */
	const char ***args;  /* [list][value]; NULL: unnamed */
} loc_info;

/* Reads a string literal whose opening quote is before `s`, unescaping into tmp
 * (NUL-terminated). Returns the position after the closing quote, NULL if none. */
static const char *read_str(const char *s, const char *e, char *tmp, size_t *k)
{
	*k = 0;
	while (s < e && *s != '"') {
		if (*s == '\\' && s + 2 < e && hexv(s[1]) >= 0 && hexv(s[2]) >= 0) {
			tmp[(*k)++] = (char)(hexv(s[1]) * 16 + hexv(s[2]));
			s += 3;
		} else if (*s == '\\' && s + 1 < e) {
			tmp[(*k)++] = s[1];
			s += 2;
		} else {
			tmp[(*k)++] = *s++;
		}
	}
	tmp[*k] = 0;
	return s < e ? s + 1 : NULL;
}

static const char *skip_ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\n'))
		s++;
	return s;
}

/* `[["r"], ["a", "b"], []]>` after `loc(fused<`: the value names. Returns the
 * position after the '>', or NULL (then li keeps no names) when the metadata is not
 * of this shape. */
static const char *read_arg_names(ir_ctx *ctx, const char *s, const char *e, char *tmp, loc_info *li)
{
	const char *names[256];
	unsigned nb = 0, cap = 0;
	unsigned *nargs = NULL;
	const char ***args = NULL;
	s = skip_ws(s, e);
	if (s == e || *s++ != '[')
		return NULL;
	for (;;) {
		unsigned n = 0;
		s = skip_ws(s, e);
		if (s < e && *s == ']')
			break;
		if (s == e || *s++ != '[')
			goto bad;
		for (;;) {
			size_t k;
			s = skip_ws(s, e);
			if (s < e && *s == ']')
				break;
			if (s == e || *s++ != '"' || n == 256 || !(s = read_str(s, e, tmp, &k)))
				goto bad;
			names[n++] = k ? ir_intern(ctx, tmp, k) : NULL;
			s = skip_ws(s, e);
			if (s < e && *s == ',')
				s++;
		}
		s++; /* ']' */
		if (nb == cap) {
			unsigned *g1 = realloc(nargs, sizeof *g1 * (cap = cap ? cap * 2 : 4));
			const char ***g2 = g1 ? realloc(args, sizeof *g2 * cap) : NULL;
			if (g1)
				nargs = g1;
			if (!g2)
				goto bad;
			args = g2;
		}
		nargs[nb] = n;
		args[nb] = ir_alloc(ctx, sizeof *args[nb] * (n + 1));
		memcpy(args[nb], names, sizeof *names * n);
		nb++;
		s = skip_ws(s, e);
		if (s < e && *s == ',')
			s++;
	}
	s = skip_ws(s + 1, e);
	if (s == e || *s != '>')
		goto bad;
	li->nblocks = nb;
	li->nargs = nb ? ir_alloc(ctx, sizeof *nargs * nb) : NULL;
	li->args = nb ? ir_alloc(ctx, sizeof *args * nb) : NULL;
	if (nb) {
		memcpy(li->nargs, nargs, sizeof *nargs * nb);
		memcpy(li->args, args, sizeof *args * nb);
	}
	free(nargs);
	free(args);
	return s + 1;
bad:
	free(nargs);
	free(args);
	return NULL;
}

/* Reads MLIR's printed location (`loc("f":1:2)`, `loc("name"("f":1:2))`,
 * `loc(callsite("f":1:2 at ...))`, `loc(fused<metadata>[...])`): the first
 * `"file":line:col`, the first name (a string followed by '('), the metadata. */
static void loc_from_text(ir_ctx *ctx, const char *s, size_t n, char *tmp, loc_info *li)
{
	const char *e = s + n, *q;
	int have_loc = 0;
	memset(li, 0, sizeof *li);
	if (n > 10 && !memcmp(s, "loc(fused<", 10) && (q = read_arg_names(ctx, s + 10, e, tmp, li)))
		s = q;
	while (s < e && !have_loc) {
		size_t k;
		uint32_t line, col;
		if (*s++ != '"')
			continue;
		if (!(s = read_str(s, e, tmp, &k)))
			break;
		q = s;
		if (q < e && *q == '(' && !li->name && k) {
			li->name = ir_intern(ctx, tmp, k);
		} else if (q < e && *q == ':' && (q++, !digits(&q, e, &line)) && q < e && *q == ':' &&
			   (q++, !digits(&q, e, &col))) {
			li->loc.file = ir_intern(ctx, tmp, k);
			li->loc.line = line;
			li->loc.col = col;
			have_loc = 1;
		}
	}
}

static void loc_info_from_mlir(ir_ctx *ctx, MlirLocation ml, loc_info *li)
{
	ptoc_buf b = {0};
	char *tmp;
	memset(li, 0, sizeof *li);
	mlirLocationPrint(ml, br_buf_mlir, &b);
	if (!b.oom && b.len && (tmp = malloc(b.len + 1))) {
		loc_from_text(ctx, b.data, b.len, tmp, li);
		free(tmp);
	}
	ptoc_buf_free(&b);
}

ir_loc br_loc_from_mlir(ir_ctx *ctx, MlirLocation ml)
{
	loc_info li;
	loc_info_from_mlir(ctx, ml, &li);
	return li.loc;
}

static const loc_info *imp_loc(imp *im, MlirLocation ml)
{
	loc_info *c = br_map_get(&im->locs, ml.ptr);
	if (c)
		return c;
	c = ir_alloc(im->ctx, sizeof *c);
	loc_info_from_mlir(im->ctx, ml, c);
	if (br_map_put(&im->locs, ml.ptr, c))
		oom(im, c->loc);
	return c;
}

/* ---- types and attributes ----------------------------------------------------------- */

static const ir_type *imp_type(imp *im, MlirType t, ir_loc loc)
{
	const ir_type *r = br_map_get(&im->types, t.ptr);
	if (r)
		return r;
	if (mlirTypeIsAFunction(t)) {
		unsigned nin = (unsigned)mlirFunctionTypeGetNumInputs(t);
		unsigned nout = (unsigned)mlirFunctionTypeGetNumResults(t), i;
		const ir_type **v = ir_alloc(im->ctx, sizeof *v * (nin + nout + 1));
		for (i = 0; i < nin; i++)
			if (!(v[i] = imp_type(im, mlirFunctionTypeGetInput(t, i), loc)))
				return NULL;
		for (i = 0; i < nout; i++)
			if (!(v[nin + i] = imp_type(im, mlirFunctionTypeGetResult(t, i), loc)))
				return NULL;
		r = ir_type_func(im->ctx, v, nin, v + nin, nout);
	} else {
		im->buf.len = 0;
		mlirTypePrint(t, br_buf_mlir, &im->buf);
		if (im->buf.oom) {
			oom(im, loc);
			return NULL;
		}
		r = fe_type_string(im->ctx, im->buf.data, im->buf.len, loc);
	}
	if (r && br_map_put(&im->types, t.ptr, (void *)r))
		oom(im, loc);
	return r;
}

static const ir_attr *imp_attr(imp *im, MlirAttribute a, ir_loc loc);

/* Element i of a dense array of `bits`-wide elements (1: bool). */
static int64_t dense_elem(MlirAttribute a, unsigned bits, intptr_t i)
{
	switch (bits) {
	case 1: return mlirDenseBoolArrayGetElement(a, i);
	case 8: return mlirDenseI8ArrayGetElement(a, i);
	case 16: return mlirDenseI16ArrayGetElement(a, i);
	case 32: return mlirDenseI32ArrayGetElement(a, i);
	default: return mlirDenseI64ArrayGetElement(a, i);
	}
}

static const ir_attr *imp_dense(imp *im, MlirAttribute a)
{
	unsigned n = (unsigned)mlirDenseArrayGetNumElements(a), i;
	unsigned bits = mlirAttributeIsADenseBoolArray(a)  ? 1
			: mlirAttributeIsADenseI8Array(a)  ? 8
			: mlirAttributeIsADenseI16Array(a) ? 16
			: mlirAttributeIsADenseI32Array(a) ? 32
							   : 64;
	int64_t *v = ir_alloc(im->ctx, sizeof *v * (n + 1));
	for (i = 0; i < n; i++)
		v[i] = dense_elem(a, bits, i);
	return ir_attr_dense(im->ctx, ir_type_int(im->ctx, bits, IR_INT_SIGNLESS), v, n);
}

/* A float attribute as ptoc holds it (ir_attr_float_bits): the exact value of its type,
 * which mlirFloatAttrGetValueDouble gives for every finite value and infinity of f16,
 * bf16, f32 and f64. A NaN's payload, and whether it signals, would not survive the
 * conversion to double, so a NaN is read from the bit pattern MLIR prints for it
 * (`0x7F800001 : f32`). */
static const ir_attr *imp_float(imp *im, MlirAttribute a, const ir_type *ty)
{
	double v = mlirFloatAttrGetValueDouble(a);
	ptoc_buf b = {0};
	const ir_attr *r = NULL;
	if (v == v)
		return ir_attr_float(im->ctx, v, ty);
	mlirAttributePrint(a, br_buf_mlir, &b);
	if (b.data && b.data[0] == '0' && (b.data[1] == 'x' || b.data[1] == 'X')) {
		char *end;
		unsigned long long bits = strtoull(b.data + 2, &end, 16);
		if (end != b.data + 2)
			r = ir_attr_float_bits(im->ctx, bits, ty);
	}
	ptoc_buf_free(&b);
	return r ? r : ir_attr_float(im->ctx, v, ty);
}

static const ir_attr *imp_attr_uncached(imp *im, MlirAttribute a, ir_loc loc)
{
	ir_ctx *ctx = im->ctx;
	unsigned n, i;
	if (mlirAttributeIsAUnit(a))
		return ir_attr_unit(ctx);
	if (mlirAttributeIsABool(a))
		return ir_attr_bool(ctx, mlirBoolAttrGetValue(a));
	if (mlirAttributeIsAInteger(a)) {
		MlirType t = mlirAttributeGetType(a);
		const ir_type *ty = imp_type(im, t, loc);
		int64_t v;
		if (!ty)
			return NULL;
		if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t))
			v = (int64_t)mlirIntegerAttrGetValueUInt(a);
		else if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSigned(t))
			v = mlirIntegerAttrGetValueSInt(a);
		else
			v = mlirIntegerAttrGetValueInt(a);
		return ir_attr_int(ctx, v, ty);
	}
	if (mlirAttributeIsAFloat(a)) {
		const ir_type *ty = imp_type(im, mlirAttributeGetType(a), loc);
		return ty ? imp_float(im, a, ty) : NULL;
	}
	if (mlirAttributeIsAString(a)) {
		MlirStringRef s = mlirStringAttrGetValue(a);
		return ir_attr_string(ctx, s.data, s.length);
	}
	if (mlirAttributeIsAFlatSymbolRef(a)) {
		MlirStringRef s = mlirFlatSymbolRefAttrGetValue(a);
		return ir_attr_symbol(ctx, s.data, s.length);
	}
	if (mlirAttributeIsAType(a)) {
		const ir_type *ty = imp_type(im, mlirTypeAttrGetValue(a), loc);
		return ty ? ir_attr_type(ctx, ty) : NULL;
	}
	if (mlirAttributeIsAArray(a)) {
		const ir_attr **v;
		n = (unsigned)mlirArrayAttrGetNumElements(a);
		v = ir_alloc(ctx, sizeof *v * (n + 1));
		for (i = 0; i < n; i++)
			if (!(v[i] = imp_attr(im, mlirArrayAttrGetElement(a, i), loc)))
				return NULL;
		return ir_attr_array(ctx, v, n);
	}
	if (mlirAttributeIsADenseBoolArray(a) || mlirAttributeIsADenseI8Array(a) ||
	    mlirAttributeIsADenseI16Array(a) || mlirAttributeIsADenseI32Array(a) ||
	    mlirAttributeIsADenseI64Array(a))
		return imp_dense(im, a);
	if (mlirAttributeIsADictionary(a)) {
		ir_named_attr *e;
		n = (unsigned)mlirDictionaryAttrGetNumElements(a);
		e = ir_alloc(ctx, sizeof *e * (n + 1));
		for (i = 0; i < n; i++) {
			MlirNamedAttribute na = mlirDictionaryAttrGetElement(a, i);
			MlirStringRef s = mlirIdentifierStr(na.name);
			e[i].name = ir_intern(ctx, s.data, s.length);
			if (!(e[i].value = imp_attr(im, na.attribute, loc)))
				return NULL;
		}
		return ir_attr_dict(ctx, e, n, loc);
	}
	/* Dialect attributes (#pto..., any other) and the builtin ones ptoc keeps as text
	 * (dense elements, affine maps, nested symbol references). */
	im->buf.len = 0;
	mlirAttributePrint(a, br_buf_mlir, &im->buf);
	if (im->buf.oom) {
		oom(im, loc);
		return NULL;
	}
	if (im->buf.len && im->buf.data[0] == '#')
		return fe_attr_string(ctx, im->buf.data, im->buf.len, loc);
	return ir_attr_opaque(ctx, im->buf.data, im->buf.len);
}

static const ir_attr *imp_attr(imp *im, MlirAttribute a, ir_loc loc)
{
	const ir_attr *r = br_map_get(&im->attrs, a.ptr);
	if (r)
		return r;
	if ((r = imp_attr_uncached(im, a, loc)) && br_map_put(&im->attrs, a.ptr, (void *)r))
		oom(im, loc);
	return r;
}

/* ---- ops ------------------------------------------------------------------------------- */

static ir_op *imp_op(imp *im, MlirOperation mo);

/* `li`, `*nb`: the names of the block arguments of the op's regions, and how many of
 * its blocks came before this region's. */
static int imp_region(imp *im, MlirRegion mr, ir_region *r, ir_loc loc, const loc_info *li,
		      unsigned *nb)
{
	MlirBlock mb;
	for (mb = mlirRegionGetFirstBlock(mr); !mlirBlockIsNull(mb); mb = mlirBlockGetNextInRegion(mb), ++*nb) {
		ir_block *b = ir_block_create(im->ctx, loc);
		unsigned na = (unsigned)mlirBlockGetNumArguments(mb), i;
		MlirOperation mo;
		for (i = 0; i < na; i++) {
			MlirValue mv = mlirBlockGetArgument(mb, i);
			const ir_type *t = imp_type(im, mlirValueGetType(mv), loc);
			ir_value *v;
			if (!t)
				return -1;
			v = ir_block_add_arg(im->ctx, b, t, loc);
			if (*nb + 1 < li->nblocks && i < li->nargs[*nb + 1])
				v->name = li->args[*nb + 1][i];
			if (br_map_put(&im->values, mv.ptr, v)) {
				oom(im, loc);
				return -1;
			}
		}
		ir_region_append_block(r, b);
		for (mo = mlirBlockGetFirstOperation(mb); !mlirOperationIsNull(mo);
		     mo = mlirOperationGetNextInBlock(mo)) {
			ir_op *op = imp_op(im, mo);
			if (!op)
				return -1;
			ir_block_append_op(b, op);
		}
	}
	return 0;
}

/* The flags a registered arith dialect materialises with their default value
 * (`overflowFlags = #arith.overflow<none>`, `fastmath = #arith.fastmath<none>`), which
 * MLIR's own custom printer leaves out: ptoc leaves them out too, so an op reads the
 * same whether arith is registered in the host's context or not. */
static int is_default_flag(MlirStringRef op, MlirStringRef name, MlirAttribute a)
{
	static const struct { const char *name, *none; } flags[] = {
		{"overflowFlags", "#arith.overflow<none>"},
		{"fastmath", "#arith.fastmath<none>"},
	};
	unsigned i;
	if (op.length < 6 || memcmp(op.data, "arith.", 6) || mlirAttributeIsAOpaque(a))
		return 0;
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (name.length == strlen(flags[i].name) && !memcmp(name.data, flags[i].name, name.length))
			return mlirAttributeEqual(a, mlirAttributeParseGet(mlirAttributeGetContext(a),
						  mlirStringRefCreateFromCString(flags[i].none)));
	return 0;
}

static ir_op *imp_op(imp *im, MlirOperation mo)
{
	ir_ctx *ctx = im->ctx;
	MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(mo));
	const loc_info *li = imp_loc(im, mlirOperationGetLocation(mo));
	ir_loc loc = li->loc;
	unsigned nops = (unsigned)mlirOperationGetNumOperands(mo);
	unsigned nres = (unsigned)mlirOperationGetNumResults(mo);
	unsigned nreg = (unsigned)mlirOperationGetNumRegions(mo);
	unsigned nat = (unsigned)mlirOperationGetNumAttributes(mo), i, k, nb = 0;
	ir_value **ops = ir_alloc(ctx, sizeof *ops * (nops + 1));
	const ir_type **res = ir_alloc(ctx, sizeof *res * (nres + 1));
	ir_named_attr *na = ir_alloc(ctx, sizeof *na * (nat + 1));
	char *nm;
	ir_op *op;
	if (mlirOperationGetNumSuccessors(mo)) {
		ir_error(ctx, loc, "'%.*s': ops with successors (branches between blocks) are not "
			 "supported by ptoc", (int)name.length, name.data);
		return NULL;
	}
	for (i = 0; i < nops; i++) {
		MlirValue mv = mlirOperationGetOperand(mo, i);
		if (!(ops[i] = br_map_get(&im->values, mv.ptr))) {
			ir_error(ctx, loc, "'%.*s': operand #%u is used before it is defined (ptoc needs "
				 "SSA regions in dominance order)", (int)name.length, name.data, i);
			return NULL;
		}
	}
	for (i = 0; i < nres; i++)
		if (!(res[i] = imp_type(im, mlirValueGetType(mlirOperationGetResult(mo, i)), loc)))
			return NULL;
	for (i = k = 0; i < nat; i++) {
		MlirNamedAttribute a = mlirOperationGetAttribute(mo, i);
		MlirStringRef s = mlirIdentifierStr(a.name);
		if (is_default_flag(name, s, a.attribute))
			continue;
		na[k].name = ir_intern(ctx, s.data, s.length);
		if (!(na[k++].value = imp_attr(im, a.attribute, loc)))
			return NULL;
	}
	nm = ir_strndup(ctx, name.data, name.length);
	op = ir_op_create(ctx, nm, loc, ops, nops, res, nres, ir_attr_dict(ctx, na, k, loc), nreg);
	for (i = 0; i < nres; i++)
		if (br_map_put(&im->values, mlirOperationGetResult(mo, i).ptr, &op->results[i])) {
			oom(im, loc);
			return NULL;
		}
	if (nres && li->name)
		op->results[0].name = li->name;
	for (i = 0; li->nblocks && i < nres && i < li->nargs[0]; i++)
		op->results[i].name = li->args[0][i];
	for (i = 0; i < nreg; i++)
		if (imp_region(im, mlirOperationGetRegion(mo, i), &op->regions[i], loc, li, &nb))
			return NULL;
	return op;
}

ptoc_module *ptoc_module_from_mlir(ptoc_context *ctx, MlirOperation op)
{
	imp im;
	ptoc_module *m = NULL;
	ir_op *top;
	unsigned errs = ctx->errors;
	memset(&im, 0, sizeof im);
	im.ctx = ctx;
	if (mlirOperationIsNull(op)) {
		ir_loc none = {NULL, 0, 0};
		ir_error(ctx, none, "ptoc_module_from_mlir: null operation");
		return NULL;
	}
	top = imp_op(&im, op);
	if (top && strcmp(top->name, "builtin.module")) {
		/* a func.func (or any other op): the only op of a new module */
		ir_op *mod = ir_op_create(ctx, "builtin.module", top->loc, NULL, 0, NULL, 0, NULL, 1);
		ir_region_append_block(&mod->regions[0], ir_block_create(ctx, top->loc));
		ir_block_append_op(mod->regions[0].first, top);
		top = mod;
	} else if (top && !top->regions[0].first) {
		ir_region_append_block(&top->regions[0], ir_block_create(ctx, top->loc));
	}
	if (top && !im.failed && ctx->errors == errs) {
		m = ir_alloc(ctx, sizeof *m);
		m->ctx = ctx;
		m->op = top;
	}
	br_map_free(&im.values);
	br_map_free(&im.types);
	br_map_free(&im.attrs);
	br_map_free(&im.locs);
	ptoc_buf_free(&im.buf);
	return m;
}
