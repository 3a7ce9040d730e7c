/* pass.c: ptoc's pipeline as an MLIR pass (ptoc_mlir_create_pass), C from an MLIR
 * operation (ptoc_mlir_emit_c), the version query (mlir.h).
 *
 * Requires: the pass runs on builtin.module. Preserves: the module op itself (its
 * body and attributes are replaced by ptoc's result).
 *
 * The pass imports the module (import.c), verifies it, runs ptoc's passes, exports the
 * result into the same MLIR context (export.c) and moves the new ops into the module's
 * body. ptoc's diagnostics are collected while it runs: each error becomes one MLIR
 * error at its FileLineColLoc (the MLIR 19 C API can emit errors only), with the notes
 * that follow it appended to its message; warnings and remarks are dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Support.h"
#include "mlir/bridge.h"

/* PTOC_MLIR_BUILT_MAJOR: the major version of the MLIR the build found (set by
 * mlir/CMakeLists.txt). The header's macro must name it: a host compares the two. */
#if !defined(PTOC_MLIR_BUILT_MAJOR) || PTOC_MLIR_BUILT_MAJOR != PTOC_MLIR_VERSION_MAJOR
#error "PTOC_MLIR_VERSION_MAJOR in include/ptoc/mlir.h is not the MLIR major version this build uses"
#endif

int ptoc_mlir_version_major(void)
{
	return PTOC_MLIR_BUILT_MAJOR;
}

int ptoc_mlir_emit_c(ptoc_context *ctx, MlirOperation op, const char *target,
		     ptoc_write_fn out, void *user)
{
	ptoc_module *m = ptoc_module_from_mlir(ctx, op);
	if (!m || ptoc_module_verify(m))
		return -1;
	return ptoc_module_emit_c(m, target, out, user);
}

/* ---- the pass ------------------------------------------------------------------------ */

typedef struct pass_data {
	char *pipeline, *target; /* NULL: the defaults */
} pass_data;

/* One pending MLIR error: ptoc's error and the notes after it. */
typedef struct sink {
	MlirContext mctx;
	MlirLocation fallback; /* the module's location, for errors without one */
	ptoc_buf msg;
	ir_loc loc;
	int pending;
} sink;

static void flush(sink *s)
{
	MlirLocation l = s->fallback;
	if (!s->pending)
		return;
	if (s->loc.file && s->loc.line)
		l = mlirLocationFileLineColGet(s->mctx, mlirStringRefCreateFromCString(s->loc.file),
					       s->loc.line, s->loc.col);
	mlirEmitError(l, s->msg.data ? s->msg.data : "ptoc: error");
	s->pending = 0;
	s->msg.len = 0;
}

static void on_ptoc_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	sink *s = user;
	char head[64];
	if (sev == PTOC_ERROR) {
		flush(s);
		s->pending = 1;
		s->loc = loc;
		ptoc_buf_write(&s->msg, msg, len);
	} else if (sev == PTOC_NOTE && s->pending) {
		ptoc_buf_write(&s->msg, "\nnote: ", 7);
		if (loc.file && loc.line) {
			ptoc_buf_write(&s->msg, loc.file, strlen(loc.file));
			snprintf(head, sizeof head, ":%u:%u: ", (unsigned)loc.line, (unsigned)loc.col);
			ptoc_buf_write(&s->msg, head, strlen(head));
		}
		ptoc_buf_write(&s->msg, msg, len);
	}
}

/* Replaces the body and attributes of module `op` by those of `nm`'s op. */
static int replace_module(MlirOperation op, MlirModule nm)
{
	MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
	MlirOperation nop = mlirModuleGetOperation(nm), o, next;
	MlirOperation *olds = NULL;
	size_t n = 0, cap = 0, i;
	intptr_t k;
	char **names;
	for (o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
		if (n == cap) {
			MlirOperation *g = realloc(olds, sizeof *g * (cap = cap ? cap * 2 : 16));
			if (!g) {
				free(olds);
				return -1;
			}
			olds = g;
		}
		olds[n++] = o;
	}
	/* uses follow definitions: erase from the last op back */
	for (i = n; i-- > 0;)
		mlirOperationDestroy(olds[i]);
	free(olds);
	for (o = mlirBlockGetFirstOperation(mlirModuleGetBody(nm)); !mlirOperationIsNull(o); o = next) {
		next = mlirOperationGetNextInBlock(o);
		mlirOperationRemoveFromParent(o);
		mlirBlockAppendOwnedOperation(body, o);
	}
	/* attributes: the names first (removing shifts the positions) */
	k = mlirOperationGetNumAttributes(op);
	if (!(names = calloc((size_t)k + 1, sizeof *names)))
		return -1;
	for (i = 0; i < (size_t)k; i++) {
		MlirStringRef s = mlirIdentifierStr(mlirOperationGetAttribute(op, (intptr_t)i).name);
		if ((names[i] = malloc(s.length + 1))) {
			memcpy(names[i], s.data, s.length);
			names[i][s.length] = 0;
		}
	}
	for (i = 0; i < (size_t)k; i++) {
		if (names[i])
			mlirOperationRemoveAttributeByName(op, mlirStringRefCreateFromCString(names[i]));
		free(names[i]);
	}
	free(names);
	for (k = 0; k < mlirOperationGetNumAttributes(nop); k++) {
		MlirNamedAttribute a = mlirOperationGetAttribute(nop, k);
		mlirOperationSetAttributeByName(op, mlirIdentifierStr(a.name), a.attribute);
	}
	return 0;
}

static void pass_run(MlirOperation op, MlirExternalPass pass, void *user)
{
	pass_data *pd = user;
	ptoc_context *ctx = ptoc_context_create();
	sink s;
	ptoc_module *m;
	int ok = 0;
	memset(&s, 0, sizeof s);
	s.mctx = mlirOperationGetContext(op);
	s.fallback = mlirOperationGetLocation(op);
	if (!ctx) {
		mlirEmitError(s.fallback, "ptoc: out of memory");
		mlirExternalPassSignalFailure(pass);
		return;
	}
	ptoc_context_set_diag_handler(ctx, on_ptoc_diag, &s);
	m = ptoc_module_from_mlir(ctx, op);
	if (m && !ptoc_module_verify(m) && !ptoc_module_run_passes(m, pd->pipeline, pd->target, NULL)) {
		MlirModule nm = ptoc_module_to_mlir(m, s.mctx);
		if (!mlirModuleIsNull(nm)) {
			ok = !replace_module(op, nm);
			if (!ok)
				mlirEmitError(s.fallback, "ptoc: out of memory");
			mlirModuleDestroy(nm);
		}
	}
	flush(&s);
	if (!ok || ptoc_context_error_count(ctx))
		mlirExternalPassSignalFailure(pass);
	ptoc_buf_free(&s.msg);
	ptoc_context_destroy(ctx);
}

static char *dup_or_null(const char *s)
{
	char *d;
	if (!s || !(d = malloc(strlen(s) + 1)))
		return NULL;
	return strcpy(d, s);
}

static pass_data *pass_data_new(const char *pipeline, const char *target)
{
	pass_data *pd = calloc(1, sizeof *pd);
	if (!pd)
		return NULL;
	pd->pipeline = dup_or_null(pipeline);
	pd->target = dup_or_null(target);
	if ((pipeline && !pd->pipeline) || (target && !pd->target)) {
		free(pd->pipeline);
		free(pd->target);
		free(pd);
		return NULL;
	}
	return pd;
}

static void pass_construct(void *user)
{
	(void)user;
}

static void pass_destruct(void *user)
{
	pass_data *pd = user;
	if (!pd)
		return;
	free(pd->pipeline);
	free(pd->target);
	free(pd);
}

static MlirLogicalResult pass_initialize(MlirContext mctx, void *user)
{
	(void)mctx;
	return user ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static void *pass_clone(void *user)
{
	pass_data *pd = user;
	return pass_data_new(pd->pipeline, pd->target);
}

/* The pass's TypeID: the address of this object (8-byte aligned, as MLIR requires). */
static const uint64_t pass_type_anchor = 0;

MlirPass ptoc_mlir_create_pass(const char *pipeline, const char *target)
{
	MlirExternalPassCallbacks cb;
	pass_data *pd = pass_data_new(pipeline, target);
	cb.construct = pass_construct;
	cb.destruct = pass_destruct;
	cb.initialize = pass_initialize;
	cb.clone = pass_clone;
	cb.run = pass_run;
	/* Without memory the pass still exists: initialize fails it, which the pass
	 * manager reports, rather than handing back a null pass. */
	return mlirCreateExternalPass(mlirTypeIDCreate(&pass_type_anchor),
				      mlirStringRefCreateFromCString("PtocPass"),
				      mlirStringRefCreateFromCString("ptoc"),
				      mlirStringRefCreateFromCString("runs ptoc's pipeline on the module"),
				      mlirStringRefCreateFromCString("builtin.module"), 0, NULL, cb, pd);
}
