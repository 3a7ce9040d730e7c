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
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Transforms.h"
#include "ptoc/mlir.h"

typedef struct buf {
	char *s;
	size_t n, cap;
} buf;

static int put(void *user, const char *d, size_t n)
{
	buf *b = user;
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	memcpy(b->s + b->n, d, n);
	b->n += n;
	b->s[b->n] = 0;
	return 0;
}

static void mput(MlirStringRef s, void *user)
{
	put(user, s.data, s.length);
}

static const char *S(const buf *b)
{
	return b->s ? b->s : "";
}

/* ptoc diagnostics: "file:line:col: msg" lines */
static buf pdiags;
static void on_pdiag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	char h[600];
	(void)user;
	if (sev != PTOC_ERROR)
		return;
	snprintf(h, sizeof h, "%s:%u:%u: ", loc.file ? loc.file : "?", (unsigned)loc.line, (unsigned)loc.col);
	put(&pdiags, h, strlen(h));
	put(&pdiags, msg, len);
	put(&pdiags, "\n", 1);
}

/* MLIR diagnostics: "loc(...): msg" lines */
static buf mdiags;
static MlirLogicalResult on_mdiag(MlirDiagnostic d, void *user)
{
	(void)user;
	mlirLocationPrint(mlirDiagnosticGetLocation(d), mput, &mdiags);
	put(&mdiags, ": ", 2);
	mlirDiagnosticPrint(d, mput, &mdiags);
	put(&mdiags, "\n", 1);
	return mlirLogicalResultSuccess();
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s) {
		s[n] = 0;
		*len = (size_t)n;
	}
	return s;
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
static int run_pm(const char *path, const char *src, size_t len, int canon, int ptoc, buf *c)
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
		else if (!ptoc_mlir_emit_c(ctx, mlirModuleGetOperation(mm), NULL, put, c))
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
	char *src = slurp(path, &len);
	ptoc_context *ctx;
	ptoc_module *m;
	buf c1 = {0}, c0 = {0}, cp = {0}, cc = {0};
	int direct, r0, r1;
	CHECK(src != NULL, "cannot read %s", path);
	if (!src)
		return;
	ctx = ptoc_context_create();
	pdiags.n = mdiags.n = 0;
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	m = ptoc_parse(ctx, src, len, path);
	direct = m && !ptoc_module_verify(m) && !ptoc_module_emit_c(m, NULL, put, &c1) ? 0 : 1;
	ptoc_context_destroy(ctx);

	if (direct) {
		/* the file does not compile: through the pass manager (its pass, or the emit
		 * after it, as in the direct compile) it fails with the same first error */
		char first[512] = "", *msg = strstr(S(&pdiags), ": ");
		if (msg)
			snprintf(first, sizeof first, "%.*s", (int)strcspn(msg + 2, "\n"), msg + 2);
		pdiags.n = mdiags.n = 0;
		r0 = run_pm(path, src, len, 0, 1, &c0);
		CHECK(r0 != 0 && *first && (strstr(S(&pdiags), first) || strstr(S(&mdiags), first)),
		      "%s: direct compile fails with '%s', [ptoc] gives %d: %s%s", path, first, r0,
		      S(&pdiags), S(&mdiags));
		nfail_both++;
		goto out;
	}
	r0 = run_pm(path, src, len, 0, 1, &c0);
	CHECK(r0 == 0, "%s: [ptoc] fails: %s%s", path, S(&pdiags), S(&mdiags));
	CHECK(r0 != 0 || !strcmp(S(&c1), S(&c0)), "%s: [ptoc] emits other C than the direct compile", path);

	r1 = run_pm(path, src, len, 1, 1, &cp);
	CHECK(r1 == 0, "%s: [canonicalize, cse, ptoc] fails: %s%s", path, S(&pdiags), S(&mdiags));
	if (r1 == 0 && strcmp(S(&c1), S(&cp))) {
		int rc = run_pm(path, src, len, 1, 0, &cc);
		CHECK(rc == 0 && !strcmp(S(&cc), S(&cp)),
		      "%s: [canonicalize, cse, ptoc] emits C that is neither the direct compile's nor "
		      "that of the canonicalized module", path);
		printf("changed by canonicalize/cse: %s\n", path);
		nchanged++;
	} else if (r1 == 0) {
		nsame++;
	}
out:
	free(src);
	free(c1.s);
	free(c0.s);
	free(cp.s);
	free(cc.s);
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
	buf c = {0};
	pdiags.n = 0;
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	m = ptoc_parse(ctx, src, len, name);
	CHECK(m && !ptoc_module_verify(m) && ptoc_module_emit_c(m, NULL, put, &c) == -1,
	      "the illegal tcvt compiles directly");
	free(c.s);
	ptoc_context_destroy(ctx);
}

static void run_ptoc_pass(MlirContext mctx, MlirModule mm)
{
	MlirPassManager pm = mlirPassManagerCreate(mctx);
	mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCanonicalizer());
	mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCSE());
	mlirPassManagerAddOwnedPass(pm, ptoc_mlir_create_pass(NULL, NULL));
	mdiags.n = 0;
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
	CHECK(strstr(S(&pdiags), "-:4:10: " ILLEGAL_MSG), "ptoc's direct diagnostic: %s", S(&pdiags));
	mm = mlirModuleCreateParse(mctx, mlirStringRefCreateFromCString(illegal_generic));
	CHECK(!mlirModuleIsNull(mm));
	if (!mlirModuleIsNull(mm)) {
		run_ptoc_pass(mctx, mm);
		CHECK(strstr(S(&mdiags), "loc(\"-\":4:10): " ILLEGAL_MSG),
		      "the pass manager's diagnostic: %s", S(&mdiags));
		mlirModuleDestroy(mm);
	}
	/* 2: built from a .pto file: the location is the file's */
	if (pto_file) {
		size_t len;
		char *src = slurp(pto_file, &len), *colon;
		ptoc_context *ctx = ptoc_context_create();
		ptoc_module *m;
		CHECK(src != NULL, "cannot read %s", pto_file);
		if (src) {
			direct_diags(src, len, pto_file);
			/* want: loc("FILE":L:C): MSG, from ptoc's first direct error "FILE:L:C: MSG" */
			colon = strstr(S(&pdiags), ": '");
			CHECK(colon != NULL, "no direct diagnostic for %s", pto_file);
			if (colon) {
				const char *lc = S(&pdiags) + strlen(pto_file) + 1;
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
					CHECK(strstr(S(&mdiags), want), "want %s\ngot %s", want, S(&mdiags));
					mlirModuleDestroy(mm);
				}
			}
			free(src);
		}
		ptoc_context_destroy(ctx);
	}
	mlirContextDestroy(mctx);
}

/* ---- the corpus --------------------------------------------------------------------------- */

static char **pending;
static unsigned npending;

static int is_pending(const char *rel)
{
	unsigned i;
	for (i = 0; i < npending; i++)
		if (!strcmp(pending[i], rel))
			return 1;
	return 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *dupstr(const char *s)
{
	char *d = malloc(strlen(s) + 1);
	if (!d)
		abort();
	return strcpy(d, s);
}

static void walk(const char *root, const char *rel, char ***list, unsigned *n)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		char r[4096], full[8192];
		struct stat st;
		size_t k = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", root, r);
		if (stat(full, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(root, r, list, n);
		} else if (k > 4 && !strcmp(e->d_name + k - 4, ".pto") && !strstr(e->d_name, "invalid") &&
			   !is_pending(r)) {
			*list = realloc(*list, sizeof **list * (*n + 1));
			(*list)[(*n)++] = dupstr(full);
		}
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	int i = 1;
	if (argc >= 3 && !strcmp(argv[1], "--illegal")) {
		illegal_tcvt(argv[2]);
		i = 3;
	}
	if (argc >= i + 3 && !strcmp(argv[i], "--corpus")) {
		char **list = NULL, *pl, *line;
		unsigned n = 0, k;
		size_t len;
		struct stat st;
		if (stat(argv[i + 1], &st) || !S_ISDIR(st.st_mode))
			return check_skip("test_mlir_pass", "no PTOAS corpus at %s", argv[i + 1]);
		if (!(pl = slurp(argv[i + 2], &len)))
			return check_skip("test_mlir_pass", "cannot read %s", argv[i + 2]);
		for (line = strtok(pl, "\n"); line; line = strtok(NULL, "\n"))
			if (line[0] != '#' && line[0]) {
				pending = realloc(pending, sizeof *pending * (npending + 1));
				pending[npending++] = line;
			}
		walk(argv[i + 1], "", &list, &n);
		qsort(list, n, sizeof *list, cmpstr);
		CHECK(n > 30, "only %u corpus files", n);
		for (k = 0; k < n; k++) {
			one_file(list[k]);
			free(list[k]);
		}
		free(list);
		free(pending);
		free(pl);
	} else {
		for (; i < argc; i++)
			one_file(argv[i]);
	}
	printf("test_mlir_pass: C identical to the direct compile: %u files; changed by "
	       "canonicalize/cse: %u; failing both ways: %u\n", nsame, nchanged, nfail_both);
	free(pdiags.s);
	free(mdiags.s);
	return check_report("test_mlir_pass");
}
