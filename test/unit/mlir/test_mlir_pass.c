/* test_mlir_pass.c: ptoc's pipeline as a pass of an MLIR pass manager built through the
 * C API (ptoc_mlir_create_pass), mixed with upstream passes.
 *
 * For every file named on the command line or found by --corpus DIR PENDING (as
 * test_mlir_roundtrip; SKIP without the corpus), in an MLIR context with func, arith
 * and scf registered (so canonicalize and cse act on them) and pto unregistered, the
 * module built by ptoc_module_to_mlir from ptoc's parse of the file is run through
 *   P0 = [ptoc]                      its C (ptoc_mlir_emit_c) is the C ptoc emits from
 *                                    the file directly (ptoc_module_emit_c), or both fail
 *   P1 = [canonicalize, cse, ptoc]   its C is the direct C too, or, where canonicalize
 *                                    and cse changed the IR, the C ptoc emits from the
 *                                    module after [canonicalize, cse] alone (the file is
 *                                    then listed: "changed by canonicalize/cse: FILE")
 * and, with a file that has an illegal tcvt, the pass manager fails with ptoc's
 * diagnostic (the message of a direct compile) at the tcvt's line and column: once for
 * a module MLIR parsed from text (the location is in that text), once for one built
 * from a .pto file (the location is in the file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Transforms.h"
#include "ptoc/mlir.h"
#include "mlir_util.h"

/* ptoc diagnostics: "file:line:col: msg" lines */
static ptoc_buf pdiags;
static void on_pdiag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	if (sev == PTOC_ERROR)
		mu_diag_line(&pdiags, loc, msg, len);
}

/* MLIR diagnostics: "loc(...): msg" lines */
static ptoc_buf mdiags;
static MlirLogicalResult on_mdiag(MlirDiagnostic d, void *user)
{
	(void)user;
	mu_mlir_diag_line(&mdiags, d);
	return mlirLogicalResultSuccess();
}

static MlirContext new_mctx(void)
{
	MlirContext mctx = mlirContextCreate();
	mlirContextSetAllowUnregisteredDialects(mctx, true);
	mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), mctx);
	mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), mctx);
	mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), mctx);
	mlirContextAttachDiagnosticHandler(mctx, on_mdiag, NULL, NULL);
	return mctx;
}

/* Runs [canonicalize, cse] (when canon) and ptoc's pass (when ptoc) on a fresh MLIR
 * module of the file, then emits C from it into `c`. Returns 0, 1 when the pass manager
 * failed, 2 when the emit failed. */
static int run_pm(const char *path, const char *src, size_t len, int canon, int ptoc, ptoc_buf *c)
{
	ptoc_context *ctx = ptoc_context_create();
	MlirContext mctx = new_mctx();
	ptoc_module *m;
	MlirModule mm;
	int rc = 2;
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	m = ptoc_parse(ctx, src, len, path);
	mm = m ? ptoc_module_to_mlir(m, mctx) : (MlirModule){NULL};
	if (!mlirModuleIsNull(mm)) {
		MlirPassManager pm = mlirPassManagerCreate(mctx);
		if (canon) {
			mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCanonicalizer());
			mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCSE());
		}
		if (ptoc)
			mlirPassManagerAddOwnedPass(pm, ptoc_mlir_create_pass(NULL, NULL));
		if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(mm))))
			rc = 1;
		else if (!ptoc_mlir_emit_c(ctx, mlirModuleGetOperation(mm), NULL, ptoc_buf_write, c))
			rc = 0;
		mlirPassManagerDestroy(pm);
		mlirModuleDestroy(mm);
	}
	mlirContextDestroy(mctx);
	ptoc_context_destroy(ctx);
	return rc;
}

static unsigned nsame, nchanged, nfail_both;

static void one_file(const char *path)
{
	size_t len;
	char *src = mu_slurp(path, &len);
	ptoc_context *ctx;
	ptoc_module *m;
	ptoc_buf c1 = {0}, c0 = {0}, cp = {0}, cc = {0};
	int direct, r0, r1;
	CHECK(src != NULL, "cannot read %s", path);
	if (!src)
		return;
	ctx = ptoc_context_create();
	pdiags.len = mdiags.len = 0;
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	m = ptoc_parse(ctx, src, len, path);
	direct = m && !ptoc_module_verify(m) && !ptoc_module_emit_c(m, NULL, ptoc_buf_write, &c1) ? 0 : 1;
	ptoc_context_destroy(ctx);

	if (direct) {
		/* the file does not compile: through the pass manager (its pass, or the emit
		 * after it, as in the direct compile) it fails with the same first error */
		char first[512] = "", *msg = strstr(mu_str(&pdiags), ": ");
		if (msg)
			snprintf(first, sizeof first, "%.*s", (int)strcspn(msg + 2, "\n"), msg + 2);
		pdiags.len = mdiags.len = 0;
		r0 = run_pm(path, src, len, 0, 1, &c0);
		CHECK(r0 != 0 && *first && (strstr(mu_str(&pdiags), first) || strstr(mu_str(&mdiags), first)),
		      "%s: direct compile fails with '%s', [ptoc] gives %d: %s%s", path, first, r0,
		      mu_str(&pdiags), mu_str(&mdiags));
		nfail_both++;
		goto out;
	}
	r0 = run_pm(path, src, len, 0, 1, &c0);
	CHECK(r0 == 0, "%s: [ptoc] fails: %s%s", path, mu_str(&pdiags), mu_str(&mdiags));
	CHECK(r0 != 0 || !strcmp(mu_str(&c1), mu_str(&c0)), "%s: [ptoc] emits other C than the direct compile", path);

	r1 = run_pm(path, src, len, 1, 1, &cp);
	CHECK(r1 == 0, "%s: [canonicalize, cse, ptoc] fails: %s%s", path, mu_str(&pdiags), mu_str(&mdiags));
	if (r1 == 0 && strcmp(mu_str(&c1), mu_str(&cp))) {
		int rc = run_pm(path, src, len, 1, 0, &cc);
		CHECK(rc == 0 && !strcmp(mu_str(&cc), mu_str(&cp)),
		      "%s: [canonicalize, cse, ptoc] emits C that is neither the direct compile's nor "
		      "that of the canonicalized module", path);
		printf("changed by canonicalize/cse: %s\n", path);
		nchanged++;
	} else if (r1 == 0) {
		nsame++;
	}
out:
	free(src);
	free(c1.data);
	free(c0.data);
	free(cp.data);
	free(cc.data);
}

/* ---- the illegal tcvt ------------------------------------------------------------------ */

static const char illegal_generic[] =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() <{function_type = (!pto.tile<16x16xf32>) -> (), sym_name = \"k\"}> ({\n"
	"  ^bb0(%t: !pto.tile<16x16xf32>):\n"
	"    %a = \"pto.tcvt\"(%t) {rmode = #pto<round_mode ODD>} : (!pto.tile<16x16xf32>) -> !pto.tile<16x16xbf16>\n"
	"    \"func.return\"() : () -> ()\n"
	"  }) : () -> ()\n"
	"}) : () -> ()\n";
#define ILLEGAL_MSG "'pto.tcvt' op f32 -> bf16 with round mode ODD is not supported on a2a3"

/* ptoc's own diagnostics for `src` compiled directly. */
static void direct_diags(const char *src, size_t len, const char *name)
{
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	ptoc_buf c = {0};
	pdiags.len = 0;
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	m = ptoc_parse(ctx, src, len, name);
	CHECK(m && !ptoc_module_verify(m) && ptoc_module_emit_c(m, NULL, ptoc_buf_write, &c) == -1,
	      "the illegal tcvt compiles directly");
	free(c.data);
	ptoc_context_destroy(ctx);
}

static void run_ptoc_pass(MlirContext mctx, MlirModule mm)
{
	MlirPassManager pm = mlirPassManagerCreate(mctx);
	mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCanonicalizer());
	mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCSE());
	mlirPassManagerAddOwnedPass(pm, ptoc_mlir_create_pass(NULL, NULL));
	mdiags.len = 0;
	CHECK(mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(mm))),
	      "the pass manager succeeds on an illegal tcvt");
	mlirPassManagerDestroy(pm);
}

static void illegal_tcvt(const char *pto_file)
{
	MlirContext mctx = new_mctx();
	MlirModule mm;
	char want[1024];
	/* 1: MLIR parsed the text; the tcvt op is at line 4, column 10 of it (its name, for MLIR and ptoc alike) */
	direct_diags(illegal_generic, strlen(illegal_generic), "-");
	CHECK(strstr(mu_str(&pdiags), "-:4:10: " ILLEGAL_MSG), "ptoc's direct diagnostic: %s", mu_str(&pdiags));
	mm = mlirModuleCreateParse(mctx, mlirStringRefCreateFromCString(illegal_generic));
	CHECK(!mlirModuleIsNull(mm));
	if (!mlirModuleIsNull(mm)) {
		run_ptoc_pass(mctx, mm);
		CHECK(strstr(mu_str(&mdiags), "loc(\"-\":4:10): " ILLEGAL_MSG),
		      "the pass manager's diagnostic: %s", mu_str(&mdiags));
		mlirModuleDestroy(mm);
	}
	/* 2: built from a .pto file: the location is the file's */
	if (pto_file) {
		size_t len;
		char *src = mu_slurp(pto_file, &len), *colon;
		ptoc_context *ctx = ptoc_context_create();
		ptoc_module *m;
		CHECK(src != NULL, "cannot read %s", pto_file);
		if (src) {
			direct_diags(src, len, pto_file);
			/* want: loc("FILE":L:C): MSG, from ptoc's first direct error "FILE:L:C: MSG" */
			colon = strstr(mu_str(&pdiags), ": '");
			CHECK(colon != NULL, "no direct diagnostic for %s", pto_file);
			if (colon) {
				const char *lc = mu_str(&pdiags) + strlen(pto_file) + 1;
				unsigned line = 0, col = 0;
				char *nl = strchr(colon, '\n');
				sscanf(lc, "%u:%u", &line, &col);
				snprintf(want, sizeof want, "loc(\"%s\":%u:%u): %.*s", pto_file, line, col,
					 (int)(nl - colon - 2), colon + 2);
				m = ptoc_parse(ctx, src, len, pto_file);
				mm = m ? ptoc_module_to_mlir(m, mctx) : (MlirModule){NULL};
				CHECK(!mlirModuleIsNull(mm));
				if (!mlirModuleIsNull(mm)) {
					run_ptoc_pass(mctx, mm);
					CHECK(strstr(mu_str(&mdiags), want), "want %s\ngot %s", want, mu_str(&mdiags));
					mlirModuleDestroy(mm);
				}
			}
			free(src);
		}
		ptoc_context_destroy(ctx);
	}
	mlirContextDestroy(mctx);
}

int main(int argc, char **argv)
{
	int i = 1;
	if (argc >= 3 && !strcmp(argv[1], "--illegal")) {
		illegal_tcvt(argv[2]);
		i = 3;
	}
	if (argc >= i + 3 && !strcmp(argv[i], "--corpus")) {
		mu_files f = {0};
		unsigned k;
		int rc = mu_corpus(&f, argv[i + 1], argv[i + 2]);
		if (rc)
			return check_skip("test_mlir_pass", rc == 1 ? "no PTOAS corpus at %s" : "cannot read %s",
					  argv[i + rc]);
		CHECK(f.n > 30, "only %u corpus files", f.n);
		for (k = 0; k < f.n; k++)
			one_file(f.path[k]);
		mu_files_free(&f);
	} else {
		for (; i < argc; i++)
			one_file(argv[i]);
	}
	printf("test_mlir_pass: C identical to the direct compile: %u files; changed by "
	       "canonicalize/cse: %u; failing both ways: %u\n", nsame, nchanged, nfail_both);
	free(pdiags.data);
	free(mdiags.data);
	return check_report("test_mlir_pass");
}
