/* tiles.h: the tile-buffer passes (bufferize.c, place_tiles.c) and the facts about
 * tile buffers they share with later passes. */
#ifndef PTOC_PASSES_TILES_H
#define PTOC_PASSES_TILES_H

#include <stdint.h>

#include "passes/pass.h"

/* bufferize.c: tile SSA (level 1) -> DPS tile buffers (level 2). */
unsigned pass_bufferize(ir_ctx *ctx, ir_op *module, const pass_opts *o);
/* place_tiles.c: a byte address for every pto.alloc_tile. */
unsigned pass_place_tiles(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* Bytes a tile_buf occupies: rows * cols * element bits / 8, rounded up (4-bit
 * elements are nibbles); 0 when the type is not a static tile_buf of a runtime
 * element type or a dimension exceeds 2^28. */
uint64_t tile_buf_bytes(const ir_type *t);

/* The memory table row of a tile location (IR_MEM_VEC -> PTOC_LOC_VEC, ...); NULL for
 * IR_MEM_NONE. */
const ptoc_mem_info *tile_mem_info(const struct target *t, ir_mem m);

#endif
