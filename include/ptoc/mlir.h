/* mlir.h: the MLIR C API bridge of ptoc (libptoc_mlir; docs/embedding.md).
 *
 * For compilers built on MLIR that hold PTO ops as MLIR operations: import them into a
 * ptoc module, export a ptoc module as MLIR operations, run ptoc's passes as a pass of
 * an MLIR pass manager, emit C from an MLIR operation. Built against the MLIR C API
 * of LLVM PTOC_MLIR_VERSION_MAJOR (the C API is not ABI-stable across LLVM releases;
 * the MLIR generic text form is the stable interchange).
 *
 * Types and attributes: builtin types and attributes map one to one; pto types
 * (`!pto.tile_buf<...>`, ...) and dialect attributes (`#pto.round_mode<RINT>`,
 * `#pto<pipe PIPE_ALL>`) are opaque to MLIR (unregistered dialect) and cross the bridge
 * in their textual spelling; attributes and types of any other dialect are kept as
 * their text by ptoc and re-created from it on export.
 *
 * Locations: an MLIR FileLineColLoc becomes ptoc's file:line:col and back; of a
 * NameLoc, CallSiteLoc or FusedLoc ptoc keeps the first FileLineColLoc inside; other
 * locations are unknown to ptoc (line 0) and exported as UnknownLoc.
 *
 * Errors are reported through the ptoc context's diagnostic handler (import, export,
 * emit) or as MLIR diagnostics on the ops' locations (the pass); nothing here exits,
 * aborts or prints. */
#ifndef PTOC_MLIR_H
#define PTOC_MLIR_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "ptoc/ptoc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The LLVM major version whose MLIR C API this library was built against. */
#define PTOC_MLIR_VERSION_MAJOR 19
/* The same, of the library actually linked (compare with the macro at run time). */
PTOC_API int ptoc_mlir_version_major(void);

/* Converts an MLIR operation (builtin.module or func.func) holding pto, func, arith and
 * scf ops (registered or not) into a ptoc module in `ctx`, by walking the MLIR IR:
 * names, operands, results, regions, blocks, attributes, types and locations. Ops with
 * successors (several blocks joined by branches) are not supported. The module is not
 * verified (ptoc_module_verify). NULL after reporting errors. */
PTOC_API ptoc_module *ptoc_module_from_mlir(ptoc_context *ctx, MlirOperation op);

/* The MLIR form of a ptoc module, built in `mctx` (ops of the pto dialect as
 * operations of the `pto` namespace: `mctx` must allow unregistered dialects unless
 * pto is registered; func, arith and scf may be registered or not). The caller owns
 * the result (mlirModuleDestroy). A null module (mlirModuleIsNull) after reporting
 * errors through the module's context (a type or attribute MLIR does not parse). */
PTOC_API MlirModule ptoc_module_to_mlir(ptoc_module *m, MlirContext mctx);

/* An MLIR pass on builtin.module that runs ptoc's passes (`pipeline` as for
 * --pass-pipeline, NULL: the default pipeline) for `target` ("a2a3", "a5", NULL: the
 * module's pto.target_arch) on the module it is run on, replacing the module's body
 * and attributes with the result. Errors become MLIR errors at the ops' locations
 * (ptoc's notes appended to the error's message) and fail the pass. The pass owns
 * copies of the strings; hand it to a pass manager (mlirPassManagerAddOwnedPass or
 * mlirOpPassManagerAddOwnedPass), which destroys it. */
PTOC_API MlirPass ptoc_mlir_create_pass(const char *pipeline, const char *target);

/* Imports `op` (as ptoc_module_from_mlir), verifies it and compiles it to C (as
 * ptoc_module_emit_c). Returns 0, or -1 after reporting errors through `ctx`. */
PTOC_API int ptoc_mlir_emit_c(ptoc_context *ctx, MlirOperation op, const char *target,
		     ptoc_write_fn out, void *user);

#ifdef __cplusplus
}
#endif
#endif
