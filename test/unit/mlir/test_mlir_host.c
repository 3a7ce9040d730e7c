/* test_mlir_host.c: a module a host built through the MLIR C API (mlirOperationCreate,
 * types and attributes from the C API's getters; only pto types, which have no getter
 * without a registered dialect, come from mlirTypeParseGet), not parsed from text: the
 * import path the round-trip tests do not take. In two MLIR contexts (nothing
 * registered; func, arith and scf registered), the host builds an f32 -> DST tile
 * conversion kernel whose ops carry every kind of location (FileLineColLoc, NameLoc,
 * CallSiteLoc, FusedLoc, UnknownLoc) and attributes of another dialect (an opaque
 * `#host.origin<...>`, a dense elements attribute, an affine map) on the module, the
 * function and an op. Checks:
 *
 *   1. ptoc_module_from_mlir gives the module ptoc's parser gives for REF, the same
 *      kernel written by hand in the generic form (printed alike, value names aside:
 *      REF names values MLIR cannot name);
 *   2. the values named by NameLocs carry those names; every op has the location the
 *      table `want_locs` says (the FileLineColLoc inside a NameLoc, the callee of a
 *      CallSiteLoc, the first FileLineColLoc of a FusedLoc, none for UnknownLoc);
 *   3. after ptoc's pass in an MLIR pass manager, the module and the function still
 *      carry the other dialect's attributes (the very attributes the host made);
 *   4. with DST bf16 and round mode ODD (illegal on a2a3) the pass manager fails with
 *      ptoc's message located at the tcvt's callee FileLineColLoc, host.py:14:7. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/ir.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "ptoc/mlir.h"
#include "mlir_util.h"

static ptoc_buf diags;
static void on_pdiag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	(void)sev;
	mu_diag_line(&diags, loc, msg, len);
}

static ptoc_buf mdiags;
static MlirLogicalResult on_mdiag(MlirDiagnostic d, void *user)
{
	(void)user;
	mu_mlir_diag_line(&mdiags, d);
	return mlirLogicalResultSuccess();
}

/* ---- the host's builder ------------------------------------------------------------------ */

#define TB(dt)                                                                                   \
	"!pto.tile_buf<loc=vec, dtype=" dt ", rows=16, cols=32, v_row=16, v_col=32, "            \
	"blayout=row_major, slayout=none_box, fractal=512, pad=0>"

static MlirStringRef S(const char *s)
{
	return mlirStringRefCreateFromCString(s);
}

static MlirLocation F(MlirContext c, unsigned line, unsigned col)
{
	return mlirLocationFileLineColGet(c, S("host.py"), line, col);
}

static MlirNamedAttribute NA(MlirContext c, const char *name, MlirAttribute a)
{
	return mlirNamedAttributeGet(mlirIdentifierGet(c, S(name)), a);
}

static MlirAttribute segs(MlirContext c, int32_t a, int32_t b, int32_t d)
{
	int32_t v[3] = {a, b, d};
	return mlirDenseI32ArrayGet(c, 3, v);
}

static MlirValue add(MlirBlock blk, const char *name, MlirLocation loc, intptr_t nopd,
		     const MlirValue *opd, MlirType *res, intptr_t nattr, const MlirNamedAttribute *attrs)
{
	MlirOperationState st = mlirOperationStateGet(S(name), loc);
	MlirOperation op;
	mlirOperationStateAddOperands(&st, nopd, opd);
	if (res)
		mlirOperationStateAddResults(&st, 1, res);
	mlirOperationStateAddAttributes(&st, nattr, attrs);
	op = mlirOperationCreate(&st);
	mlirBlockAppendOwnedOperation(blk, op);
	return res ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

typedef struct host_attrs {
	MlirAttribute build, origin, cost, map;
} host_attrs;

/* The kernel: src (f32) -> tile -> tcvt -> tile (dst) -> dst. */
static MlirModule build(MlirContext c, const char *dst, const char *rmode, host_attrs *h)
{
	char t[512];
	MlirModule m = mlirModuleCreateEmpty(F(c, 1, 1));
	MlirOperation mop = mlirModuleGetOperation(m);
	MlirType idx = mlirIndexTypeGet(c), tb32, tbd, pv32, pvd, tv32, tvd, args[2];
	MlirLocation argl[2] = {F(c, 2, 12), F(c, 2, 30)}, fused[2];
	MlirRegion r = mlirRegionCreate();
	MlirBlock b;
	MlirValue c0, c1, c16, c32, sv, dv, sp, dp, x, y, v[5];
	MlirNamedAttribute fa[6], a[2];
	MlirOperationState st;
	int32_t cost[2] = {1, 2};
	int64_t shape[1] = {2};
	unsigned i;

	args[0] = mlirTypeParseGet(c, S("!pto.ptr<f32>"));
	snprintf(t, sizeof t, "!pto.ptr<%s>", dst);
	args[1] = mlirTypeParseGet(c, S(t));
	tv32 = mlirTypeParseGet(c, S("!pto.tensor_view<?x?xf32>"));
	snprintf(t, sizeof t, "!pto.tensor_view<?x?x%s>", dst);
	tvd = mlirTypeParseGet(c, S(t));
	pv32 = mlirTypeParseGet(c, S("!pto.partition_tensor_view<16x32xf32>"));
	snprintf(t, sizeof t, "!pto.partition_tensor_view<16x32x%s>", dst);
	pvd = mlirTypeParseGet(c, S(t));
	tb32 = mlirTypeParseGet(c, S(TB("f32")));
	snprintf(t, sizeof t, "!pto.tile_buf<loc=vec, dtype=%s, rows=16, cols=32, v_row=16, v_col=32, "
			      "blayout=row_major, slayout=none_box, fractal=512, pad=0>", dst);
	tbd = mlirTypeParseGet(c, S(t));

	/* attributes of another dialect, made through the C API where it has getters */
	h->build = mlirAttributeParseGet(c, S("#host.build<7>")); /* unregistered: text only */
	h->origin = mlirAttributeParseGet(c, S("#host.origin<\"layer0\">"));
	h->cost = mlirDenseElementsAttrInt32Get(
		mlirRankedTensorTypeGet(1, shape, mlirIntegerTypeGet(c, 32), mlirAttributeGetNull()), 2, cost);
	h->map = mlirAffineMapAttrGet(mlirAffineMapMultiDimIdentityGet(c, 1));
	mlirOperationSetAttributeByName(mop, S("pto.target_arch"), mlirStringAttrGet(c, S("a2a3")));
	mlirOperationSetAttributeByName(mop, S("host.build"), h->build);

	b = mlirBlockCreate(2, args, argl);
	mlirRegionAppendOwnedBlock(r, b);
	{
		int64_t vals[4] = {0, 1, 16, 32};
		MlirValue *out[4] = {&c0, &c1, &c16, &c32};
		for (i = 0; i < 4; i++) {
			a[0] = NA(c, "value", mlirIntegerAttrGet(idx, vals[i]));
			*out[i] = add(b, "arith.constant", F(c, 3 + i, 5), 0, NULL, &idx, 1, a);
		}
	}
	a[0] = NA(c, "operandSegmentSizes", segs(c, 1, 2, 2));
	v[0] = mlirBlockGetArgument(b, 0), v[1] = c16, v[2] = c32, v[3] = c32, v[4] = c1;
	sv = add(b, "pto.make_tensor_view", mlirLocationNameGet(c, S("sv"), F(c, 7, 9)), 5, v, &tv32, 1, a);
	v[0] = mlirBlockGetArgument(b, 1);
	dv = add(b, "pto.make_tensor_view", mlirLocationNameGet(c, S("dv"), F(c, 8, 9)), 5, v, &tvd, 1, a);
	v[0] = sv, v[1] = c0, v[2] = c0, v[3] = c16, v[4] = c32;
	sp = add(b, "pto.partition_view", F(c, 9, 9), 5, v, &pv32, 1, a);
	v[0] = dv;
	dp = add(b, "pto.partition_view", F(c, 10, 9), 5, v, &pvd, 1, a);
	a[0] = NA(c, "operandSegmentSizes", segs(c, 0, 0, 0));
	x = add(b, "pto.alloc_tile", F(c, 11, 9), 0, NULL, &tb32, 1, a);
	y = add(b, "pto.alloc_tile", F(c, 12, 9), 0, NULL, &tbd, 1, a);
	v[0] = sp, v[1] = x;
	add(b, "pto.tload", F(c, 13, 5), 2, v, NULL, 0, NULL);
	snprintf(t, sizeof t, "#pto<round_mode %s>", rmode);
	a[0] = NA(c, "host.map", h->map);
	a[1] = NA(c, "rmode", mlirAttributeParseGet(c, S(t)));
	v[0] = x, v[1] = y;
	add(b, "pto.tcvt",
	    mlirLocationCallSiteGet(F(c, 14, 7), mlirLocationFileLineColGet(c, S("main.py"), 3, 1)), 2, v,
	    NULL, 2, a);
	fused[0] = mlirLocationUnknownGet(c);
	fused[1] = F(c, 15, 9);
	v[0] = y, v[1] = dp;
	add(b, "pto.tstore", mlirLocationFusedGet(c, 2, fused, mlirAttributeGetNull()), 2, v, NULL, 0, NULL);
	add(b, "func.return", mlirLocationUnknownGet(c), 0, NULL, NULL, 0, NULL);

	fa[0] = NA(c, "function_type", mlirTypeAttrGet(mlirFunctionTypeGet(c, 2, args, 0, NULL)));
	fa[1] = NA(c, "sym_name", mlirStringAttrGet(c, S("k")));
	fa[2] = NA(c, "pto.entry", mlirUnitAttrGet(c));
	fa[3] = NA(c, "pto.kernel_kind", mlirAttributeParseGet(c, S("#pto.kernel_kind<vector>")));
	fa[4] = NA(c, "host.origin", h->origin);
	fa[5] = NA(c, "host.cost", h->cost);
	st = mlirOperationStateGet(S("func.func"), F(c, 2, 3));
	mlirOperationStateAddAttributes(&st, 6, fa);
	mlirOperationStateAddOwnedRegions(&st, 1, &r);
	mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), mlirOperationCreate(&st));
	return m;
}

/* The same kernel (DST f16, RINT) as a host would write it in the generic form. */
static const char REF[] =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() ({\n"
	"  ^bb0(%src: !pto.ptr<f32>, %dst: !pto.ptr<f16>):\n"
	"    %c0 = \"arith.constant\"() {value = 0 : index} : () -> index\n"
	"    %c1 = \"arith.constant\"() {value = 1 : index} : () -> index\n"
	"    %c16 = \"arith.constant\"() {value = 16 : index} : () -> index\n"
	"    %c32 = \"arith.constant\"() {value = 32 : index} : () -> index\n"
	"    %sv = \"pto.make_tensor_view\"(%src, %c16, %c32, %c32, %c1) {operandSegmentSizes = "
	"array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>\n"
	"    %dv = \"pto.make_tensor_view\"(%dst, %c16, %c32, %c32, %c1) {operandSegmentSizes = "
	"array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>\n"
	"    %sp = \"pto.partition_view\"(%sv, %c0, %c0, %c16, %c32) {operandSegmentSizes = array<i32: 1, 2, 2>} : "
	"(!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf32>\n"
	"    %dp = \"pto.partition_view\"(%dv, %c0, %c0, %c16, %c32) {operandSegmentSizes = array<i32: 1, 2, 2>} : "
	"(!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>\n"
	"    %x = \"pto.alloc_tile\"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> " TB("f32") "\n"
	"    %y = \"pto.alloc_tile\"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> " TB("f16") "\n"
	"    \"pto.tload\"(%sp, %x) : (!pto.partition_tensor_view<16x32xf32>, " TB("f32") ") -> ()\n"
	"    \"pto.tcvt\"(%x, %y) {host.map = affine_map<(d0) -> (d0)>, rmode = #pto<round_mode RINT>} : "
	"(" TB("f32") ", " TB("f16") ") -> ()\n"
	"    \"pto.tstore\"(%y, %dp) : (" TB("f16") ", !pto.partition_tensor_view<16x32xf16>) -> ()\n"
	"    \"func.return\"() : () -> ()\n"
	"  }) {function_type = (!pto.ptr<f32>, !pto.ptr<f16>) -> (), host.cost = dense<[1, 2]> : tensor<2xi32>, "
	"host.origin = #host.origin<\"layer0\">, pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>, "
	"sym_name = \"k\"} : () -> ()\n"
	"}) {host.build = #host.build<7>, pto.target_arch = \"a2a3\"} : () -> ()\n";

/* Where each op of the imported module is, in walk order (line 0: unknown). */
static const struct {
	const char *op, *file;
	unsigned line, col;
} want_locs[] = {
	{"builtin.module", "host.py", 1, 1},     {"func.func", "host.py", 2, 3},
	{"arith.constant", "host.py", 3, 5},     {"arith.constant", "host.py", 4, 5},
	{"arith.constant", "host.py", 5, 5},     {"arith.constant", "host.py", 6, 5},
	{"pto.make_tensor_view", "host.py", 7, 9}, /* NameLoc */
	{"pto.make_tensor_view", "host.py", 8, 9}, /* NameLoc */
	{"pto.partition_view", "host.py", 9, 9}, {"pto.partition_view", "host.py", 10, 9},
	{"pto.alloc_tile", "host.py", 11, 9},    {"pto.alloc_tile", "host.py", 12, 9},
	{"pto.tload", "host.py", 13, 5},         {"pto.tcvt", "host.py", 14, 7}, /* CallSiteLoc */
	{"pto.tstore", "host.py", 15, 9},        /* FusedLoc[Unknown, FileLineCol] */
	{"func.return", NULL, 0, 0},             /* UnknownLoc */
};

/* ---- comparisons ------------------------------------------------------------------------- */

static int clear_names(ir_op *op, void *user)
{
	unsigned i, r;
	(void)user;
	for (i = 0; i < op->num_results; i++)
		op->results[i].name = NULL;
	for (r = 0; r < op->num_regions; r++) {
		ir_block *b;
		for (b = op->regions[r].first; b; b = b->next)
			for (i = 0; i < b->num_args; i++)
				b->args[i]->name = NULL;
	}
	return 0;
}

static char *print_anon(ptoc_module *m)
{
	ptoc_buf b = {0};
	ir_walk(m->op, clear_names, NULL);
	ptoc_module_print(m, PTOC_PRINT_GENERIC, ptoc_buf_write, &b);
	return b.data ? b.data : calloc(1, 1);
}

typedef struct walk_state {
	unsigned n;
	const char *mode;
} walk_state;

static int check_loc(ir_op *op, void *user)
{
	walk_state *w = user;
	unsigned i = w->n++;
	ir_loc l = op->loc;
	if (i >= sizeof want_locs / sizeof want_locs[0]) {
		CHECK_FAIL("%s: more ops than expected (%s)", w->mode, op->name);
		return 0;
	}
	CHECK(!strcmp(op->name, want_locs[i].op), "%s: op %u is %s, not %s", w->mode, i, op->name,
	      want_locs[i].op);
	CHECK(l.line == want_locs[i].line && l.col == want_locs[i].col &&
		      (want_locs[i].file ? l.file && !strcmp(l.file, want_locs[i].file) : !l.file || !l.line),
	      "%s: %s at %s:%u:%u, want %s:%u:%u", w->mode, op->name, l.file ? l.file : "?",
	      (unsigned)l.line, (unsigned)l.col, want_locs[i].file ? want_locs[i].file : "?",
	      want_locs[i].line, want_locs[i].col);
	return 0;
}

static unsigned found_named;
static int find_named(ir_op *op, void *user)
{
	const char *name = user;
	if (op->num_results && op->results[0].name && !strcmp(op->results[0].name, name))
		found_named++;
	return 0;
}

static MlirAttribute attr_of(MlirOperation op, const char *name)
{
	return mlirOperationGetAttributeByName(op, S(name));
}

static void one(int registered)
{
	const char *mode = registered ? "registered" : "unregistered";
	ptoc_context *ctx = ptoc_context_create();
	MlirContext c = mlirContextCreate();
	MlirModule hm, bad;
	MlirOperation func;
	MlirPassManager pm;
	ptoc_module *ref, *im;
	host_attrs h, h2;
	walk_state w = {0, mode};
	char *pr, *pi;

	ptoc_buf_free(&diags);
	ptoc_buf_free(&mdiags);
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	mlirContextSetAllowUnregisteredDialects(c, true);
	if (registered) {
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), c);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), c);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), c);
	}
	mlirContextAttachDiagnosticHandler(c, on_mdiag, NULL, NULL);

	hm = build(c, "f16", "RINT", &h);
	CHECK(mlirOperationVerify(mlirModuleGetOperation(hm)), "%s: the host's module does not verify: %s",
	      mode, mdiags.data ? mdiags.data : "");
	ref = ptoc_parse(ctx, REF, strlen(REF), "ref.mlir");
	CHECK(ref && !ptoc_module_verify(ref), "%s: REF does not parse: %s", mode, diags.data ? diags.data : "");
	im = ptoc_module_from_mlir(ctx, mlirModuleGetOperation(hm));
	CHECK(im && !ptoc_module_verify(im), "%s: the import fails: %s", mode, diags.data ? diags.data : "");
	if (!ref || !im)
		goto out;

	/* 2: names from NameLocs, locations of every kind */
	found_named = 0;
	ir_walk(im->op, find_named, "sv");
	ir_walk(im->op, find_named, "dv");
	CHECK(found_named == 2, "%s: %u of the values named by NameLocs carry their names", mode, found_named);
	ir_walk(im->op, check_loc, &w);
	CHECK(w.n == sizeof want_locs / sizeof want_locs[0], "%s: %u ops imported", mode, w.n);

	/* 1: the module ptoc parses from REF */
	pr = print_anon(ref);
	pi = print_anon(im);
	CHECK(!strcmp(pr, pi), "%s: the import prints\n%s\nptoc's parse of REF prints\n%s", mode, pi, pr);
	free(pr);
	free(pi);

	/* 3: ptoc's pass keeps the other dialect's attributes */
	pm = mlirPassManagerCreate(c);
	mlirPassManagerAddOwnedPass(pm, ptoc_mlir_create_pass(NULL, NULL));
	CHECK(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(hm))),
	      "%s: ptoc's pass fails: %s", mode, mdiags.data ? mdiags.data : "");
	mlirPassManagerDestroy(pm);
	func = mlirBlockGetFirstOperation(mlirModuleGetBody(hm));
	CHECK(!mlirOperationIsNull(func), "%s: no op after the pass", mode);
	if (!mlirOperationIsNull(func)) {
		CHECK(mlirAttributeEqual(attr_of(mlirModuleGetOperation(hm), "host.build"), h.build),
		      "%s: the module lost host.build", mode);
		CHECK(mlirAttributeEqual(attr_of(func, "host.origin"), h.origin), "%s: the function lost host.origin", mode);
		CHECK(mlirAttributeEqual(attr_of(func, "host.cost"), h.cost), "%s: the function lost host.cost", mode);
	}

	/* 4: an illegal tcvt, located through its CallSiteLoc */
	bad = build(c, "bf16", "ODD", &h2);
	ptoc_buf_free(&mdiags);
	pm = mlirPassManagerCreate(c);
	mlirPassManagerAddOwnedPass(pm, ptoc_mlir_create_pass(NULL, NULL));
	CHECK(mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(bad))),
	      "%s: the pass accepts an illegal tcvt", mode);
	CHECK(mdiags.data && strstr(mdiags.data, "loc(\"host.py\":14:7): 'pto.tcvt' op f32 -> bf16 with round mode "
				       "ODD is not supported on a2a3"),
	      "%s: the illegal tcvt's diagnostic: %s", mode, mdiags.data ? mdiags.data : "(none)");
	mlirPassManagerDestroy(pm);
	mlirModuleDestroy(bad);
out:
	mlirModuleDestroy(hm);
	mlirContextDestroy(c);
	ptoc_context_destroy(ctx);
}

int main(void)
{
	one(0);
	one(1);
	ptoc_buf_free(&diags);
	ptoc_buf_free(&mdiags);
	return check_report("test_mlir_host");
}
