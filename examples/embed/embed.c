/* embed.c: what a compiler built on MLIR does with ptoc (docs/embedding.md).
 *
 *   embed KERNEL.pto RUNTIME_INCLUDE_DIR RUNTIME_LIB_DIR
 *
 * 1. The host holds the kernel as MLIR operations: here ptoc parses examples/cvt_kernel.pto
 *    and exports it into the host's MLIR context (a host that built or parsed its ops
 *    itself starts at step 2).
 * 2. An MLIR pass manager runs upstream passes and ptoc's pipeline as one more pass.
 * 3. ptoc emits C from the resulting MLIR module.
 * 4. The C is compiled against the installed runtime (libptort) into a shared object,
 *    loaded and run on a 16x32 f32 input; its f16 (RINT) and bf16 (TRUNC) outputs are
 *    checked against values worked out here: every input is a multiple of 1/8 in
 *    [-32, 32), exact in both formats, so f16 is the exact encoding and bf16 the upper
 *    half of the f32 bits.
 *
 * Built by the tests against an installed prefix through the CMake package
 * (CMakeLists.txt here) and through pkg-config (`pkg-config --cflags --libs ptoc-mlir
 * ptort`); exit status 0 when every output is right. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Transforms.h"
#include "ptoc/mlir.h"
#include "ptort.h"

enum { ROWS = 16, COLS = 32, N = ROWS * COLS };

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	fprintf(stderr, "%s:%u:%u: %s: %.*s\n", loc.file ? loc.file : "<unknown>", (unsigned)loc.line,
		(unsigned)loc.col, sev == PTOC_ERROR ? "error" : "note", (int)len, msg);
}

static int write_file(void *user, const char *data, size_t len)
{
	return fwrite(data, 1, len, user) == len ? 0 : -1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (s = malloc((size_t)n + 1)) && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s)
		*len = (size_t)n;
	return s;
}

/* The f16 encoding of v, a multiple of 1/8 with 1/8 <= |v| < 32 (or 0). */
static uint16_t f16_of(double v)
{
	int e;
	double m;
	uint16_t s = v < 0 ? 0x8000 : 0;
	if (v == 0)
		return s;
	m = frexp(fabs(v), &e); /* |v| = m * 2^e, 0.5 <= m < 1 */
	return (uint16_t)(s | (unsigned)(e - 1 + 15) << 10 | (unsigned)((m * 2 - 1) * 1024));
}

typedef ptort_ctx *(*ctx_create_fn)(void);
typedef void (*kernel_fn)(ptort_ctx *, void *, uint64_t, void *, uint64_t, void *, uint64_t);

int main(int argc, char **argv)
{
	ptoc_context *ctx;
	ptoc_module *m;
	MlirContext mctx;
	MlirModule mm;
	MlirPassManager pm;
	char dir[] = "/tmp/ptoc-embed-XXXXXX", path[512], cmd[2048];
	float in[N];
	uint16_t h[N], b[N];
	size_t len;
	char *src;
	FILE *f;
	void *so;
	ctx_create_fn create;
	kernel_fn kernel;
	ptort_ctx *rt;
	int i, bad = 0, rc;
	if (argc != 4) {
		fprintf(stderr, "usage: embed KERNEL.pto RUNTIME_INCLUDE_DIR RUNTIME_LIB_DIR\n");
		return 2;
	}
	if (!(src = slurp(argv[1], &len))) {
		fprintf(stderr, "embed: cannot read %s\n", argv[1]);
		return 1;
	}

	/* 1: the kernel as MLIR operations in the host's context */
	ctx = ptoc_context_create();
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	mctx = mlirContextCreate();
	mlirContextSetAllowUnregisteredDialects(mctx, true); /* pto is not registered */
	mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), mctx);
	mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), mctx);
	mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), mctx);
	m = ptoc_parse(ctx, src, len, argv[1]);
	free(src);
	if (!m || ptoc_module_verify(m))
		return 1;
	mm = ptoc_module_to_mlir(m, mctx);
	if (mlirModuleIsNull(mm))
		return 1;

	/* 2: upstream passes and ptoc's pipeline in one pass manager */
	pm = mlirPassManagerCreate(mctx);
	mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCanonicalizer());
	mlirPassManagerAddOwnedPass(pm, mlirCreateTransformsCSE());
	mlirPassManagerAddOwnedPass(pm, ptoc_mlir_create_pass(NULL, "a2a3"));
	if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(mm)))) {
		fprintf(stderr, "embed: the pass manager failed\n");
		return 1;
	}
	mlirPassManagerDestroy(pm);

	/* 3: C from the MLIR module */
	if (!mkdtemp(dir)) {
		perror("embed: mkdtemp");
		return 1;
	}
	snprintf(path, sizeof path, "%s/kernel.c", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	rc = ptoc_mlir_emit_c(ctx, mlirModuleGetOperation(mm), "a2a3", write_file, f);
	if (fclose(f) || rc)
		return 1;
	mlirModuleDestroy(mm);
	mlirContextDestroy(mctx);
	ptoc_context_destroy(ctx);

	/* 4: compile against the installed runtime, load, run, check */
	snprintf(cmd, sizeof cmd,
		 "cc -std=c99 -O1 -fPIC -shared -I'%s' -o '%s/kernel.so' '%s' -L'%s' -lptort -lm "
		 "-Wl,-rpath,'%s'", argv[2], dir, path, argv[3], argv[3]);
	if (system(cmd)) {
		fprintf(stderr, "embed: failed: %s\n", cmd);
		return 1;
	}
	snprintf(path, sizeof path, "%s/kernel.so", dir);
	if (!(so = dlopen(path, RTLD_NOW))) {
		fprintf(stderr, "embed: %s\n", dlerror());
		return 1;
	}
	*(void **)&create = dlsym(so, "cvt_kernel_ctx_create");
	*(void **)&kernel = dlsym(so, "cvt_kernel");
	if (!create || !kernel) {
		fprintf(stderr, "embed: the kernel's functions are missing\n");
		return 1;
	}
	for (i = 0; i < N; i++)
		in[i] = (float)(i - 256) * 0.125f;
	memset(h, 0xAA, sizeof h);
	memset(b, 0xAA, sizeof b);
	rt = create();
	kernel(rt, in, N, h, N, b, N);
	if (ptort_ctx_error(rt)) {
		fprintf(stderr, "embed: runtime error: %s\n", ptort_ctx_error(rt));
		return 1;
	}
	ptort_ctx_destroy(rt);
	for (i = 0; i < N; i++) {
		uint32_t x;
		memcpy(&x, &in[i], 4);
		if (h[i] != f16_of(in[i]) || b[i] != (uint16_t)(x >> 16)) {
			if (bad++ < 5)
				fprintf(stderr, "embed: element %d (%g): f16 %04x want %04x, bf16 %04x want %04x\n",
					i, (double)in[i], h[i], f16_of(in[i]), b[i], (unsigned)(x >> 16));
		}
	}
	dlclose(so);
	snprintf(path, sizeof path, "%s/kernel.c", dir);
	remove(path);
	snprintf(path, sizeof path, "%s/kernel.so", dir);
	remove(path);
	remove(dir);
	if (bad) {
		fprintf(stderr, "embed: %d of %d outputs wrong\n", bad, 2 * N);
		return 1;
	}
	printf("embed: %d f16 and %d bf16 outputs of the kernel, compiled through MLIR, correct\n", N, N);
	return 0;
}
