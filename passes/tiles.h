/* tiles.h: the facts about tile buffers that bufferize.c and place_tiles.c share
 * with later passes (their entry points are in passes.h); tiles.c holds them. */
#ifndef PTOC_PASSES_TILES_H
#define PTOC_PASSES_TILES_H

#include <stdint.h>

#include "passes/pass.h"

/* Bytes a tile_buf occupies: rows * cols * element bits / 8, rounded up (4-bit
 * elements are nibbles); 0 when the type is not a static tile_buf of a runtime
 * element type or a dimension exceeds 2^28. */
uint64_t tile_buf_bytes(const ir_type *t);

/* The memory table row of a tile location (IR_MEM_VEC -> PTOC_LOC_VEC, ...); NULL for
 * IR_MEM_NONE. */
const ptoc_mem_info *tile_mem_info(const struct target *t, ir_mem m);

/* tile_args.c: a kernel's !pto.tile_buf arguments become pto.alloc_tile at the top of
 * its body, out of its signature (place-tiles' first step) */
void tile_args_to_allocs(ir_ctx *ctx, ir_op *fn);

/* The compile-time constants an address (or other integer) value `v` can take, through
 * index_cast(ui), ext(s|u)i, select and scf.if results, to a depth of 12 defs: 0 with
 * out[0..*n) (no repeats, at most `max`), -1 when not all are known. */
int tile_addr_consts(const ir_value *v, int64_t *out, unsigned *n, unsigned max);

#endif
