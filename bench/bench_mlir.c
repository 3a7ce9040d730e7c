/* bench_mlir.c: `ptoc-bench mlir [KERNELS] [--runs N]`. The cost of the MLIR C API
 * bridge (libptoc_mlir, docs/embedding.md) beside MLIR's own parse and print of the same
 * module, in the same process. The module is `ptoc-bench parse`'s (KERNELS, default
 * 10,000, vector kernels shaped like PTOAS's tcvt_e2e.pto); its MLIR text is ptoc's
 * generic print of it (the interchange form). Per run, each step in fresh contexts:
 *   MLIR parse     mlirModuleCreateParse of the generic text (parses and verifies);
 *   MLIR print     mlirOperationPrintWithFlags, generic form, into a byte counter;
 *   from_mlir      ptoc_module_from_mlir of the module MLIR parsed;
 *   to_mlir        ptoc_module_to_mlir of ptoc's parse of the module.
 * Twice: in an MLIR context with nothing registered (pto, func, arith, scf all
 * unregistered) and in one with func, arith and scf registered, as a host would have.
 * MLIR contexts are created without threads so that every figure is one thread's work
 * (PTOC_BENCH_CLOCK=cpu then measures all of it). Each figure is the best of N runs.
 * Outside the timing, the first run checks that MLIR prints the export, and the export
 * of the import, as it prints the module it parsed: the bench does not time a broken
 * bridge.
 * Figures only; nothing is asserted. Without MLIR at build time it says so. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#ifndef PTOC_HAVE_MLIR
int bench_mlir(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("mlir: skipped (ptoc-bench was built without the MLIR bridge)\n");
	return 0;
}
#else
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "ptoc/mlir.h"
#include "ptoc/ptoc.h"

static void count_bytes(MlirStringRef s, void *user)
{
	*(size_t *)user += s.length;
}

static int failed;

static void on_pdiag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	if (sev == PTOC_ERROR)
		failed = 1;
	fprintf(stderr, "ptoc-bench mlir: %s:%u:%u: %.*s\n", loc.file ? loc.file : "?",
		(unsigned)loc.line, (unsigned)loc.col, (int)len, msg);
}

static void to_stderr(MlirStringRef s, void *user)
{
	(void)user;
	fwrite(s.data, 1, s.length, stderr);
}

static MlirLogicalResult on_mdiag(MlirDiagnostic d, void *user)
{
	(void)user;
	fputs("ptoc-bench mlir: MLIR: ", stderr);
	mlirDiagnosticPrint(d, to_stderr, NULL);
	fputc('\n', stderr);
	failed = 1;
	return mlirLogicalResultSuccess();
}

static MlirContext new_mctx(int registered)
{
	MlirContext mctx = mlirContextCreateWithThreading(false);
	mlirContextSetAllowUnregisteredDialects(mctx, true);
	if (registered) {
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), mctx);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), mctx);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), mctx);
	}
	mlirContextAttachDiagnosticHandler(mctx, on_mdiag, NULL, NULL);
	return mctx;
}

static void to_buf(MlirStringRef s, void *user)
{
	if (ptoc_buf_write(user, s.data, s.length))
		failed = 1;
}

static void print_generic(MlirModule mm, ptoc_buf *b)
{
	MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
	mlirOpPrintingFlagsPrintGenericOpForm(flags);
	mlirOperationPrintWithFlags(mlirModuleGetOperation(mm), flags, to_buf, b);
	mlirOpPrintingFlagsDestroy(flags);
}

/* The bridge's results are right: MLIR prints the export of ptoc's parse (em), and the
 * export of the import (im) of the module MLIR parsed (mm), as it prints mm itself.
 * MLIR's print numbers values and leaves locations out, so this compares everything
 * but names and locations (test_mlir_roundtrip checks those). Returns 0 when right. */
static int check(MlirModule mm, MlirModule em, ptoc_module *im, MlirContext ectx)
{
	ptoc_buf want = {0}, got = {0}, back = {0};
	MlirModule rm = {NULL};
	int bad = 0;
	if (mlirModuleIsNull(em) || !mlirOperationVerify(mlirModuleGetOperation(em))) {
		fprintf(stderr, "ptoc-bench mlir: the export does not verify\n");
		bad = 1;
	} else if (!im || ptoc_module_verify(im) ||
		   mlirModuleIsNull(rm = ptoc_module_to_mlir(im, ectx))) {
		fprintf(stderr, "ptoc-bench mlir: the import does not verify or export\n");
		bad = 1;
	} else {
		print_generic(mm, &want);
		print_generic(em, &got);
		print_generic(rm, &back);
		if (got.len != want.len || memcmp(got.data, want.data, got.len)) {
			fprintf(stderr, "ptoc-bench mlir: MLIR prints the export unlike the module it parsed\n");
			bad = 1;
		}
		if (back.len != want.len || memcmp(back.data, want.data, back.len)) {
			fprintf(stderr, "ptoc-bench mlir: MLIR prints the import's export unlike the module it parsed\n");
			bad = 1;
		}
	}
	if (!mlirModuleIsNull(rm))
		mlirModuleDestroy(rm);
	ptoc_buf_free(&want);
	ptoc_buf_free(&got);
	ptoc_buf_free(&back);
	return bad;
}

static void best(double *b, double t)
{
	if (*b < 0 || t < *b)
		*b = t;
}

/* One configuration (registered or not): best-of-`runs` figures, printed. */
static int measure(const char *text, size_t len, const char *src, size_t srclen,
		   const char *path, int registered, int runs)
{
	double parse = -1, print = -1, from = -1, to = -1;
	size_t printed = 0;
	int r;
	for (r = 0; r < runs && !failed; r++) {
		ptoc_context *pctx = ptoc_context_create(), *ictx = ptoc_context_create();
		ptoc_module *m, *im;
		MlirContext mctx = new_mctx(registered), ectx = new_mctx(registered);
		MlirModule mm, em;
		MlirOpPrintingFlags flags;
		double t;
		ptoc_context_set_diag_handler(pctx, on_pdiag, NULL);
		ptoc_context_set_diag_handler(ictx, on_pdiag, NULL);
		m = ptoc_parse(pctx, src, srclen, path);

		t = bench_now();
		mm = mlirModuleCreateParse(mctx, (MlirStringRef){text, len});
		best(&parse, bench_now() - t);
		if (mlirModuleIsNull(mm) || !m) {
			fprintf(stderr, "ptoc-bench mlir: the module does not parse\n");
			failed = 1;
		} else {
			flags = mlirOpPrintingFlagsCreate();
			mlirOpPrintingFlagsPrintGenericOpForm(flags);
			printed = 0;
			t = bench_now();
			mlirOperationPrintWithFlags(mlirModuleGetOperation(mm), flags, count_bytes, &printed);
			best(&print, bench_now() - t);
			mlirOpPrintingFlagsDestroy(flags);

			t = bench_now();
			im = ptoc_module_from_mlir(ictx, mlirModuleGetOperation(mm));
			best(&from, bench_now() - t);

			t = bench_now();
			em = ptoc_module_to_mlir(m, ectx);
			best(&to, bench_now() - t);

			if (r == 0 && check(mm, em, im, ectx)) /* outside the timing */
				failed = 1;
			if (!mlirModuleIsNull(em))
				mlirModuleDestroy(em);
			mlirModuleDestroy(mm);
		}
		mlirContextDestroy(mctx);
		mlirContextDestroy(ectx);
		ptoc_context_destroy(pctx);
		ptoc_context_destroy(ictx);
	}
	if (failed)
		return 1;
	printf("%s (best of %d):\n", registered ? "MLIR context with func, arith, scf registered"
						 : "MLIR context with nothing registered",
	       runs);
	printf("  %-34s %7.3f s\n", "MLIR parse (generic text)", parse);
	printf("  %-34s %7.3f s  (%.1f MB)\n", "MLIR print (generic form)", print, printed / 1e6);
	printf("  %-34s %7.3f s\n", "ptoc_module_from_mlir", from);
	printf("  %-34s %7.3f s\n", "ptoc_module_to_mlir", to);
	printf("  %-34s %7.3f s  = %.2fx MLIR's parse, %.2fx its parse + print\n",
	       "bridge (from + to)", from + to, (from + to) / parse, (from + to) / (parse + print));
	fflush(stdout);
	return 0;
}

int bench_mlir(int argc, char **argv)
{
	unsigned n = 10000;
	int runs = 3, i, rc = 1;
	char dir[] = "/tmp/ptoc-bench-mlir-XXXXXX", src[128];
	char *text = NULL;
	size_t srclen = 0;
	ptoc_buf generic = {0};
	ptoc_context *ctx;
	ptoc_module *m;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc && (runs = atoi(argv[i + 1])) > 0) {
			i++;
		} else if (!(n = (unsigned)strtoul(argv[i], NULL, 10))) {
			fprintf(stderr, "usage: ptoc-bench mlir [KERNELS] [--runs N]\n");
			return 2;
		}
	}
	if (!mkdtemp(dir)) {
		perror("ptoc-bench: mkdtemp");
		return 1;
	}
	snprintf(src, sizeof src, "%s/kernels.pto", dir);
	if (bench_parse_generate(src, n) || !(text = bench_slurp(src, &srclen))) {
		perror("ptoc-bench: generating the module");
		goto out;
	}
	/* The interchange text: ptoc's generic print of the module. */
	ctx = ptoc_context_create();
	ptoc_context_set_diag_handler(ctx, on_pdiag, NULL);
	m = ptoc_parse(ctx, text, srclen, src);
	if (!m || ptoc_module_verify(m) ||
	    ptoc_module_print(m, PTOC_PRINT_GENERIC, ptoc_buf_write, &generic)) {
		ptoc_context_destroy(ctx);
		goto out;
	}
	ptoc_context_destroy(ctx);
	printf("input: %u kernels; MLIR generic text %.1f MB; MLIR %d\n", n, generic.len / 1e6,
	       ptoc_mlir_version_major());
	fflush(stdout);
	if (measure(generic.data, generic.len, text, srclen, src, 0, runs) == 0 &&
	    measure(generic.data, generic.len, text, srclen, src, 1, runs) == 0)
		rc = 0;
out:
	free(text);
	ptoc_buf_free(&generic);
	unlink(src);
	rmdir(dir);
	return rc;
}
#endif
