/* test_mlir_roundtrip.c: round trips through the MLIR bridge (libptoc_mlir), for every
 * file named on the command line, found by --corpus DIR PENDING (the PTOAS corpus minus
 * the files of corpus-pending.txt and the *invalid* ones; SKIP when DIR is missing) or
 * by --tree DIR [LEFT-OUT...] (every file under DIR that ptoc itself parses and
 * verifies, minus the *invalid* ones and the LEFT-OUT paths relative to DIR). For each
 * file, in two MLIR contexts (nothing registered, unregistered dialects allowed; func,
 * arith and scf registered):
 *
 *   A  ptoc parse -> ptoc_module_to_mlir -> mlirOperationVerify -> MLIR print (generic
 *      form) -> ptoc parse: printed as the first parse is
 *   B  ptoc --emit=generic text -> MLIR parse -> ptoc_module_from_mlir: printed as the
 *      first parse is
 *   C  ptoc_module_to_mlir -> ptoc_module_from_mlir without text: printed as the first
 *      parse is, value names included (they travel in the locations), and every op
 *      keeps its file:line:col
 *
 * "Printed as": ptoc's custom print; in A and B with SSA value names and block labels
 * cleared on both sides (MLIR's text does not keep value names: MLIR numbers them), so
 * the comparison covers everything else: op names, operands, results, regions,
 * attributes and types. The reference is ptoc's own parse and print of the file, not
 * the bridge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/ir.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "ptoc/mlir.h"
#include "mlir_util.h"

static ptoc_buf diags;
static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	(void)sev;
	mu_diag_line(&diags, loc, msg, len);
}

/* MLIR has no untyped literal: `1` is `1 : i64` and `2.5` is `2.5 : f64`, while ptoc
 * keeps whether the type was written. Both sides are compared with the type made
 * explicit, and f32 literals by their f32 value (docs/embedding.md). */
static const ir_attr *norm(ir_ctx *ctx, const ir_attr *a, void *user)
{
	(void)user;
	switch (a->kind) {
	case IR_ATTR_INT:
		return a->u.i.type ? a : ir_attr_int(ctx, a->u.i.v, ir_type_int(ctx, 64, IR_INT_SIGNLESS));
	case IR_ATTR_FLOAT:
		/* `0.1767767 : f32` and MLIR's `0.176776707 : f32` are the same f32 value:
		 * ptoc keeps the literal's double, so compare the value of the type */
		if (a->u.f.type && a->u.f.type->kind == IR_TYPE_FLOAT && a->u.f.type->u.f.kind == PTORT_F32 &&
		    a->u.f.v == a->u.f.v)
			return ir_attr_float(ctx, (double)(float)a->u.f.v, a->u.f.type);
		return a->u.f.type ? a : ir_attr_float(ctx, a->u.f.v, ir_type_float(ctx, IR_F64));
	default:
		return a;
	}
}

static int keep_names;

static int clear_names(ir_op *op, void *user)
{
	unsigned i, r;
	ir_ctx *ctx = user;
	op->attrs = ir_attr_map(ctx, op->attrs, norm, NULL);
	if (keep_names)
		return 0;
	for (i = 0; i < op->num_results; i++)
		op->results[i].name = NULL;
	for (r = 0; r < op->num_regions; r++) {
		ir_block *b;
		for (b = op->regions[r].first; b; b = b->next) {
			b->label = NULL;
			for (i = 0; i < b->num_args; i++)
				b->args[i]->name = NULL;
		}
	}
	return 0;
}

/* ptoc's custom print without value names, literals typed. */
static char *print_anon(ptoc_module *m, int names)
{
	ptoc_buf b = {0};
	keep_names = names;
	ir_walk(m->op, clear_names, m->ctx);
	ptoc_module_print(m, PTOC_PRINT_CUSTOM, ptoc_buf_write, &b);
	return b.data ? b.data : calloc(1, 1);
}

typedef struct ops {
	ir_op **a;
	unsigned n, cap;
} ops;
static int collect(ir_op *op, void *user)
{
	ops *o = user;
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->a = realloc(o->a, sizeof *o->a * o->cap);
		if (!o->a)
			abort();
	}
	o->a[o->n++] = op;
	return 0;
}

/* Same op count and, op by op, the same location. */
static int same_locs(ptoc_module *a, ptoc_module *b, const char *what)
{
	ops x = {0}, y = {0};
	unsigned i;
	int ok = 1;
	ir_walk(a->op, collect, &x);
	ir_walk(b->op, collect, &y);
	if (x.n != y.n) {
		CHECK_FAIL("%s: %u ops, %u after the bridge", what, x.n, y.n);
		ok = 0;
	}
	for (i = 0; ok && i < x.n; i++) {
		ir_loc l = x.a[i]->loc, k = y.a[i]->loc;
		int same = l.line == k.line && l.col == k.col &&
			   (l.file && k.file ? !strcmp(l.file, k.file) : l.file == k.file);
		if (!same) {
			CHECK_FAIL("%s: %s at %s:%u:%u comes back at %s:%u:%u", what, x.a[i]->name,
				   l.file ? l.file : "?", (unsigned)l.line, (unsigned)l.col,
				   k.file ? k.file : "?", (unsigned)k.line, (unsigned)k.col);
			ok = 0;
		}
	}
	check_count(x.n);
	free(x.a);
	free(y.a);
	return ok;
}

/* A registered arith dialect materialises its default flags, and MLIR's generic print
 * shows them (`overflowFlags = #arith.overflow<none>`); ptoc's parser reads them as
 * written. The bridge's import leaves them out (mlir/import.c), so does this. */
static int drop_default_flags(ir_op *op, void *user)
{
	static const char *const flags[][2] = {
		{"overflowFlags", "#arith.overflow<none>"},
		{"fastmath", "#arith.fastmath<none>"},
	};
	unsigned i;

	if (strncmp(op->name, "arith.", 6))
		return 0;
	for (i = 0; i < 2; i++) {
		const ir_attr *a = ir_op_get_attr(op, flags[i][0]);
		ptoc_buf b = {0};
		if (!a)
			continue;
		ir_print_attr(a, NULL, ptoc_buf_write, &b);
		if (b.data && !strcmp(b.data, flags[i][1]))
			ir_op_remove_attr(user, op, flags[i][0]);
		free(b.data);
	}
	return 0;
}

static void diff_fail(const char *what, const char *path, const char *want, const char *got)
{
	size_t i = 0, line = 1;
	while (want[i] && want[i] == got[i]) {
		if (want[i] == '\n')
			line++;
		i++;
	}
	CHECK_FAIL("%s: %s: prints differ from line %zu:\n  want: %.120s\n  got:  %.120s", what, path,
		   line, want + i - (i > 40 ? 40 : i), got + i - (i > 40 ? 40 : i));
}

static unsigned files_done;

static void one_file(const char *path, int registered)
{
	const char *mode = registered ? "registered" : "unregistered";
	ptoc_context *ctx = ptoc_context_create();
	MlirContext mctx = mlirContextCreate();
	ptoc_module *m1, *m2, *m3, *m4;
	char *src, *p1, *p1n, *p;
	size_t len;
	ptoc_buf t = {0}, g = {0};
	MlirModule mm, mg;
	char what[600];
	diags.len = 0;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	mlirContextSetAllowUnregisteredDialects(mctx, true);
	if (registered) {
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), mctx);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), mctx);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), mctx);
	}
	src = mu_slurp(path, &len);
	CHECK(src != NULL, "cannot read %s", path);
	if (!src)
		goto out;
	m1 = ptoc_parse(ctx, src, len, path);
	free(src);
	CHECK(m1 && !ptoc_module_verify(m1), "%s does not parse: %s", path, mu_str(&diags));
	if (!m1 || ptoc_context_error_count(ctx))
		goto out;
	ptoc_module_print(m1, PTOC_PRINT_GENERIC, ptoc_buf_write, &g);
	p1n = print_anon(m1, 1);

	/* A: to MLIR, verify, MLIR's generic text, back through ptoc's parser */
	snprintf(what, sizeof what, "A (%s)", mode);
	mm = ptoc_module_to_mlir(m1, mctx);
	p1 = print_anon(m1, 0); /* names cleared only now: the export carries them */
	CHECK(!mlirModuleIsNull(mm), "%s: %s: export failed: %s", what, path, mu_str(&diags));
	if (!mlirModuleIsNull(mm)) {
		MlirOpPrintingFlags fl = mlirOpPrintingFlagsCreate();
		CHECK(mlirOperationVerify(mlirModuleGetOperation(mm)),
		      "%s: %s: mlirOperationVerify fails", what, path);
		mlirOpPrintingFlagsPrintGenericOpForm(fl);
		mlirOperationPrintWithFlags(mlirModuleGetOperation(mm), fl, mu_mput, &t);
		mlirOpPrintingFlagsDestroy(fl);
		m2 = ptoc_parse(ctx, t.data, t.len, "mlir-print");
		CHECK(m2 != NULL, "%s: %s: MLIR's print does not parse: %s", what, path, mu_str(&diags));
		if (m2 && registered)
			ir_walk(m2->op, drop_default_flags, m2->ctx);
		if (m2) {
			p = print_anon(m2, 0);
			if (strcmp(p1, p))
				diff_fail(what, path, p1, p);
			check_count(1);
			free(p);
		}
		/* C: back without text, locations kept */
		snprintf(what, sizeof what, "C (%s)", mode);
		m4 = ptoc_module_from_mlir(ctx, mlirModuleGetOperation(mm));
		CHECK(m4 != NULL, "%s: %s: import failed: %s", what, path, mu_str(&diags));
		if (m4) {
			p = print_anon(m4, 1);
			if (strcmp(p1n, p))
				diff_fail(what, path, p1n, p);
			check_count(1);
			free(p);
			same_locs(m1, m4, what);
		}
		mlirModuleDestroy(mm);
	}

	/* B: MLIR parses ptoc's generic form; the bridge imports it */
	snprintf(what, sizeof what, "B (%s)", mode);
	mg = mlirModuleCreateParse(mctx, mlirStringRefCreate(g.data, g.len));
	CHECK(!mlirModuleIsNull(mg), "%s: %s: MLIR does not parse ptoc's generic form", what, path);
	if (!mlirModuleIsNull(mg)) {
		m3 = ptoc_module_from_mlir(ctx, mlirModuleGetOperation(mg));
		CHECK(m3 != NULL, "%s: %s: import failed: %s", what, path, mu_str(&diags));
		if (m3) {
			p = print_anon(m3, 0);
			if (strcmp(p1, p))
				diff_fail(what, path, p1, p);
			check_count(1);
			free(p);
		}
		mlirModuleDestroy(mg);
	}
	free(p1);
	free(p1n);
	files_done++;
out:
	free(t.data);
	free(g.data);
	mlirContextDestroy(mctx);
	ptoc_context_destroy(ctx);
}

/* Whether ptoc parses and verifies the file (the tests of errors do not). */
static int ptoc_accepts(const char *path)
{
	ptoc_context *ctx = ptoc_context_create();
	size_t len;
	char *src = mu_slurp(path, &len);
	ptoc_module *m = src ? ptoc_parse(ctx, src, len, path) : NULL;
	int ok = m && !ptoc_module_verify(m) && !ptoc_context_error_count(ctx);
	free(src);
	ptoc_context_destroy(ctx);
	return ok;
}

int main(int argc, char **argv)
{
	int i;
	if (argc >= 4 && !strcmp(argv[1], "--corpus")) {
		mu_files f = {0};
		unsigned k;
		int rc = mu_corpus(&f, argv[2], argv[3]);
		if (rc)
			return check_skip("test_mlir_roundtrip", rc == 1 ? "no PTOAS corpus at %s" : "cannot read %s",
					  argv[1 + rc]);
		CHECK(f.n > 30, "only %u corpus files", f.n);
		for (k = 0; k < f.n; k++) {
			one_file(f.path[k], 0);
			one_file(f.path[k], 1);
		}
		mu_files_free(&f);
	} else if (argc >= 3 && !strcmp(argv[1], "--tree")) {
		/* every .pto under DIR that ptoc itself parses and verifies, minus the files
		 * named after DIR (paths relative to DIR) */
		mu_files f = {0};
		unsigned k, rejected = 0;
		for (i = 3; i < argc; i++)
			mu_skip(&f, argv[i]);
		mu_walk(&f, argv[2]);
		for (k = 0; k < f.n; k++) {
			if (ptoc_accepts(f.path[k])) {
				one_file(f.path[k], 0);
				one_file(f.path[k], 1);
			} else {
				rejected++;
			}
		}
		CHECK(f.n - rejected > 20, "only %u of the %u files under %s are round-trip inputs", f.n - rejected,
		      f.n, argv[2]);
		printf("test_mlir_roundtrip: %u files under %s that ptoc itself rejects left out\n", rejected,
		       argv[2]);
		mu_files_free(&f);
	} else {
		for (i = 1; i < argc; i++) {
			one_file(argv[i], 0);
			one_file(argv[i], 1);
		}
	}
	printf("test_mlir_roundtrip: %u file round trips (A, B, C in two contexts each)\n", files_done);
	free(diags.data);
	return check_report("test_mlir_roundtrip");
}
