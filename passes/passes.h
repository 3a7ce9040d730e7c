/* passes.h: the table of contents of passes/. Every pass's entry point, in the order
 * of the default pipeline (pass.c's pass_table), with its contract in one line; the
 * full contract (Requires / Preserves / Produces / Diagnostics) heads each pass's file.
 *
 * A pass is `unsigned pass_NAME(ctx, module, opts)`: it reads the resolved target
 * and the remark switches in `opts` (pass.h), reports through the context's
 * diagnostics and returns the number of errors it reported. Everything else a pass
 * file defines is static, apart from what the lowering files share (lower.h) and the
 * tile-buffer facts bufferize and place-tiles share with later passes (tiles.h).
 *
 * The other headers of the folder: pass.h (the pass manager: table, pipelines,
 * target_resolve, remarks), lower.h, tiles.h. The target tables and their queries
 * are the layer below the IR: target/target.h. */
#ifndef PTOC_PASSES_PASSES_H
#define PTOC_PASSES_PASSES_H

#include "passes/pass.h"

/* 1. verify (pass.c): the structural verifier with the target's rules (ir_verify);
 *    any level; changes nothing. */
unsigned pass_verify(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 1a. inline (inline.c): every func.call replaced by a copy of its callee's body
 *    (shared on-chip memories: the callee's tiles are placed with the caller's);
 *    functions with tiles in their signature that were inlined are removed; any
 *    level. */
unsigned pass_inline(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 2. check-cube (check_cube.c): the target's cube rules (operand layouts, addressable
 *    fractal boxes, MX K granule, mmad triples); level 1 or 2; changes nothing. */
unsigned pass_check_cube(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 3. legalize-cvt (legalize_cvt.c): every tcvt becomes native conversions of the
 *    target with explicit rmode and sat_mode (exact decompositions, the deq path);
 *    level 1 or 2, kept; idempotent. */
unsigned pass_legalize_cvt(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 4. bufferize (bufferize.c): tile SSA (level 1) to tile buffers in DPS form
 *    (level 2), each buffer's memory chosen from the ops that use it. */
unsigned pass_bufferize(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 5. place-tiles (place_tiles.c): a byte address for every tile buffer in its
 *    memory, within the target's capacity and alignment; level 2. */
unsigned pass_place_tiles(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 5a. insert-sync (insert_sync.c, with sync_fp.c): pto.set_flag / pto.wait_flag /
 *    pto.barrier ordering every dependence between pipes of a placed function that has
 *    no sync op of its own; level 2, placed. */
unsigned pass_insert_sync(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 6. split-repeats (split_repeats.c, with lower.c and lower_cube.c): placed level-2
 *    tile ops to level-3 pto.i.* instructions within the target's vector limits. */
unsigned pass_split_repeats(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 7. fuse-dma (fuse_dma.c): a pto.i.dma_load whose tile only the whole-tile
 *    pto.i.vconv_v after it reads becomes one pto.i.dma_load_cvt; level 3. */
unsigned pass_fuse_dma(ir_ctx *ctx, ir_op *module, const pass_opts *o);

/* 8. verify again (the default pipeline ends with it). */

#endif
