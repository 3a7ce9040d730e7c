/* bridge.h: internals shared by the MLIR bridge's files (mlir/; table of contents).
 *
 *   import.c  ptoc_module_from_mlir: walks MLIR ops into ptoc IR
 *   export.c  ptoc_module_to_mlir: builds MLIR ops from ptoc IR
 *   pass.c    ptoc_mlir_create_pass, ptoc_mlir_emit_c
 *   map.c     the pointer map both directions use (values, types, attributes)
 *
 * Requires: the MLIR C API of LLVM 19 (mlir-c/), ptoc's internal IR (ir/ir.h). */
#ifndef PTOC_MLIR_BRIDGE_H
#define PTOC_MLIR_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "ptoc/mlir.h"

/* An open-addressing map from non-NULL pointers to pointers (malloc'd; the bridge
 * reports running out of memory as an error). */
typedef struct br_map {
	const void **keys;
	void **vals;
	size_t cap, n; /* cap: 0 or a power of two */
} br_map;

void *br_map_get(const br_map *m, const void *key);
/* Returns 0, or -1 when out of memory. */
int br_map_put(br_map *m, const void *key, void *val);
void br_map_free(br_map *m);

/* The MlirStringCallback that appends to a ptoc_buf (ptoc.h). */
void br_buf_mlir(MlirStringRef s, void *user);

/* The ptoc location of an MLIR location (the first FileLineColLoc inside; line 0 when
 * there is none), file names interned in `ctx`. */
ir_loc br_loc_from_mlir(ir_ctx *ctx, MlirLocation l);

#endif
