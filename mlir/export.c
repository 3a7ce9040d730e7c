/* export.c: ptoc_module_to_mlir, ptoc IR to MLIR operations (mlir.h).
 *
 * Requires: a ptoc module (verified or not). Preserves: op names, operand and result
 * order, attributes, block arguments, locations (file:line:col as FileLineColLoc).
 *
 * Every op is created through an MlirOperationState in the generic way, so ops of
 * unregistered dialects and registered ones (func, arith, scf) are built alike.
 * Types and attributes are created from the text ptoc prints for them (ptoc's generic
 * form is what mlir-opt reads), once each: ptoc uniques them, so a map keyed by their
 * pointers finds the MLIR object for the next use. MLIR's diagnostics while parsing
 * that text are caught and reported through the ptoc context, at the op's location. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir/bridge.h"

typedef struct exp {
	ir_ctx *ctx;
	MlirContext mctx;
	br_map values, types, attrs;
	ptoc_buf buf;
	ir_loc at; /* the location MLIR's parse errors are reported at */
	int failed;
} exp;

static MlirLogicalResult on_diag(MlirDiagnostic d, void *user)
{
	exp *ex = user;
	ptoc_buf b = {0};
	mlirDiagnosticPrint(d, br_buf_mlir, &b);
	if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
		ir_error(ex->ctx, ex->at, "MLIR: %s", b.data ? b.data : "error");
		ex->failed = 1;
	}
	ptoc_buf_free(&b);
	return mlirLogicalResultSuccess();
}

static int ex_oom(exp *ex, ir_loc loc)
{
	if (!ex->failed)
		ir_error(ex->ctx, loc, "out of memory exporting to MLIR");
	ex->failed = 1;
	return -1;
}

static MlirLocation ex_loc(exp *ex, ir_loc l)
{
	if (!l.file || !l.line)
		return mlirLocationUnknownGet(ex->mctx);
	return mlirLocationFileLineColGet(ex->mctx, mlirStringRefCreateFromCString(l.file), l.line, l.col);
}

/* An op's location, carrying the names of its values (MLIR's C API carries none):
 * the first result's name as a NameLoc around the file location; when another result
 * or a block argument of its regions has a name, all of them as the metadata of a
 * FusedLoc around that: [[result names], [block 0's argument names], [block 1's], ...]
 * ("" for an unnamed value). */
static MlirAttribute names_attr(exp *ex, ir_value *const *v, const ir_value *w, unsigned n)
{
	MlirAttribute *a = malloc(sizeof *a * (n + 1)), r;
	unsigned i;
	if (!a)
		return mlirAttributeGetNull();
	for (i = 0; i < n; i++) {
		const char *name = v ? v[i]->name : w[i].name;
		a[i] = mlirStringAttrGet(ex->mctx, mlirStringRefCreateFromCString(name ? name : ""));
	}
	r = mlirArrayAttrGet(ex->mctx, n, a);
	free(a);
	return r;
}

static MlirLocation ex_op_loc(exp *ex, const ir_op *op)
{
	MlirLocation l = ex_loc(ex, op->loc);
	MlirAttribute *lists;
	unsigned nb = 1, named = 0, r, i;
	const ir_block *b;
	if (op->num_results && op->results[0].name)
		l = mlirLocationNameGet(ex->mctx, mlirStringRefCreateFromCString(op->results[0].name), l);
	for (i = 1; i < op->num_results; i++)
		named |= op->results[i].name != NULL;
	for (r = 0; r < op->num_regions; r++)
		for (b = op->regions[r].first; b; b = b->next) {
			nb++;
			for (i = 0; i < b->num_args; i++)
				named |= b->args[i]->name != NULL;
		}
	if (!named || !(lists = malloc(sizeof *lists * nb)))
		return l;
	lists[0] = names_attr(ex, NULL, op->results, op->num_results);
	nb = 1;
	for (r = 0; r < op->num_regions; r++)
		for (b = op->regions[r].first; b; b = b->next, nb++)
			lists[nb] = names_attr(ex, b->args, NULL, b->num_args);
	for (i = 0; i < nb; i++)
		if (mlirAttributeIsNull(lists[i]))
			break;
	if (i == nb)
		l = mlirLocationFusedGet(ex->mctx, 1, &l, mlirArrayAttrGet(ex->mctx, nb, lists));
	free(lists);
	return l;
}

/* MLIR's spellings (ir.h: ir_float_is_mlir_builtin) */
static const ir_printer_opts generic = {1, 0, NULL};

/* The MLIR type (is_type) or attribute of ptoc's `key`: remembered in `map`, else
 * printed in the generic spelling, parsed by MLIR and remembered. NULL after an error. */
static const void *ex_parsed(exp *ex, br_map *map, const void *key, int is_type, ir_loc loc)
{
	const void *r = br_map_get(map, key);
	MlirStringRef text;
	if (r)
		return r;
	ex->buf.len = 0;
	if ((is_type ? ir_print_type(key, &generic, ptoc_buf_write, &ex->buf)
		     : ir_print_attr(key, &generic, ptoc_buf_write, &ex->buf)) || ex->buf.oom) {
		ex_oom(ex, loc);
		return NULL;
	}
	ex->at = loc;
	text = mlirStringRefCreate(ex->buf.data, ex->buf.len);
	r = is_type ? mlirTypeParseGet(ex->mctx, text).ptr : mlirAttributeParseGet(ex->mctx, text).ptr;
	if (!r) {
		ir_error(ex->ctx, loc, "MLIR does not accept the %s '%s'", is_type ? "type" : "attribute",
			 ex->buf.data);
		ex->failed = 1;
	} else if (br_map_put(map, key, (void *)r)) {
		ex_oom(ex, loc);
	}
	return r;
}

static MlirType ex_type(exp *ex, const ir_type *t, ir_loc loc)
{
	MlirType r;
	r.ptr = ex_parsed(ex, &ex->types, t, 1, loc);
	return r;
}

static MlirAttribute ex_attr(exp *ex, const ir_attr *a, ir_loc loc)
{
	MlirAttribute r;
	r.ptr = ex_parsed(ex, &ex->attrs, a, 0, loc);
	return r;
}

static MlirOperation ex_op(exp *ex, const ir_op *op);

/* Fills MLIR region `mr` with the blocks of `r`. */
static int ex_region(exp *ex, const ir_region *r, MlirRegion mr)
{
	const ir_block *b;
	for (b = r->first; b; b = b->next) {
		MlirType *ts = malloc(sizeof *ts * (b->num_args + 1));
		MlirLocation *ls = malloc(sizeof *ls * (b->num_args + 1));
		MlirBlock mb;
		const ir_op *op;
		unsigned i;
		if (!ts || !ls) {
			free(ts);
			free(ls);
			return ex_oom(ex, b->loc);
		}
		for (i = 0; i < b->num_args; i++) {
			ts[i] = ex_type(ex, b->args[i]->type, b->loc);
			ls[i] = ex_loc(ex, b->args[i]->loc);
			if (mlirTypeIsNull(ts[i])) {
				free(ts);
				free(ls);
				return -1;
			}
		}
		mb = mlirBlockCreate(b->num_args, ts, ls);
		free(ts);
		free(ls);
		mlirRegionAppendOwnedBlock(mr, mb);
		for (i = 0; i < b->num_args; i++)
			if (br_map_put(&ex->values, b->args[i], (void *)mlirBlockGetArgument(mb, i).ptr))
				return ex_oom(ex, b->loc);
		for (op = b->first; op; op = op->next) {
			MlirOperation mo = ex_op(ex, op);
			if (mlirOperationIsNull(mo))
				return -1;
			mlirBlockAppendOwnedOperation(mb, mo);
		}
	}
	return 0;
}

static MlirOperation ex_op(exp *ex, const ir_op *op)
{
	MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(op->name),
						      ex_op_loc(ex, op));
	MlirOperation mo = {NULL};
	unsigned nat = op->attrs->u.dict.n, i, nbuf;
	MlirValue *vs;
	MlirType *ts;
	MlirNamedAttribute *as;
	MlirRegion *rs;
	nbuf = op->num_operands + op->num_results + nat + op->num_regions + 1;
	vs = malloc(sizeof *vs * nbuf);
	ts = malloc(sizeof *ts * nbuf);
	as = malloc(sizeof *as * nbuf);
	rs = malloc(sizeof *rs * nbuf);
	if (!vs || !ts || !as || !rs) {
		ex_oom(ex, op->loc);
		goto done;
	}
	for (i = 0; i < op->num_operands; i++) {
		vs[i].ptr = br_map_get(&ex->values, op->operands[i].value);
		if (!vs[i].ptr) {
			ir_error(ex->ctx, op->loc, "'%s': operand #%u is not defined before its use",
				 op->name, i);
			ex->failed = 1;
			goto done;
		}
	}
	for (i = 0; i < op->num_results; i++)
		if (mlirTypeIsNull(ts[i] = ex_type(ex, op->results[i].type, op->loc)))
			goto done;
	for (i = 0; i < nat; i++) {
		const ir_named_attr *e = &op->attrs->u.dict.entries[i];
		MlirAttribute a = ex_attr(ex, e->value, op->loc);
		if (mlirAttributeIsNull(a))
			goto done;
		as[i] = mlirNamedAttributeGet(mlirIdentifierGet(ex->mctx, mlirStringRefCreateFromCString(e->name)), a);
	}
	for (i = 0; i < op->num_regions; i++)
		rs[i] = mlirRegionCreate();
	for (i = 0; i < op->num_regions; i++)
		if (ex_region(ex, &op->regions[i], rs[i])) {
			for (i = 0; i < op->num_regions; i++)
				mlirRegionDestroy(rs[i]);
			goto done;
		}
	mlirOperationStateAddOperands(&st, op->num_operands, vs);
	mlirOperationStateAddResults(&st, op->num_results, ts);
	mlirOperationStateAddAttributes(&st, nat, as);
	mlirOperationStateAddOwnedRegions(&st, op->num_regions, rs);
	ex->at = op->loc;
	mo = mlirOperationCreate(&st);
	if (mlirOperationIsNull(mo)) {
		ir_error(ex->ctx, op->loc, "MLIR could not create '%s'", op->name);
		ex->failed = 1;
		goto done;
	}
	for (i = 0; i < op->num_results; i++)
		if (br_map_put(&ex->values, &op->results[i], (void *)mlirOperationGetResult(mo, i).ptr)) {
			ex_oom(ex, op->loc);
			mlirOperationDestroy(mo);
			mo.ptr = NULL;
			break;
		}
done:
	free(vs);
	free(ts);
	free(as);
	free(rs);
	return mo;
}

MlirModule ptoc_module_to_mlir(ptoc_module *m, MlirContext mctx)
{
	exp ex;
	MlirModule r = {NULL};
	MlirOperation mo;
	MlirDiagnosticHandlerID h;
	memset(&ex, 0, sizeof ex);
	ex.ctx = m->ctx;
	ex.mctx = mctx;
	h = mlirContextAttachDiagnosticHandler(mctx, on_diag, &ex, NULL);
	mo = ex_op(&ex, m->op);
	mlirContextDetachDiagnosticHandler(mctx, h);
	if (!mlirOperationIsNull(mo)) {
		if (ex.failed)
			mlirOperationDestroy(mo);
		else
			r = mlirModuleFromOperation(mo);
	}
	br_map_free(&ex.values);
	br_map_free(&ex.types);
	br_map_free(&ex.attrs);
	ptoc_buf_free(&ex.buf);
	return r;
}
