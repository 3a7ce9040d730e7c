/* verify_move.h: the verifier's rules for tinsert and the arg reductions, called
 * from verify.c. */
#ifndef PTOC_IR_VERIFY_MOVE_H
#define PTOC_IR_VERIFY_MOVE_H

#include "ir/ir.h"

struct target;

/* Checks `op` (a pto.tinsert) for target `t`; reports each broken rule at the op and
 * returns the number of errors. */
unsigned ir_verify_tinsert(ir_ctx *ctx, const ir_op *op, const struct target *t);
/* verify_argred.c: the same for trowargmax/min and tcolargmax/min (semantics.md §7.6a). */
unsigned ir_verify_argred(ir_ctx *ctx, const ir_op *op, const struct target *t);
/* verify_gather.c: the same for tgather's index form (semantics.md §7.8a). */
unsigned ir_verify_tgather(ir_ctx *ctx, const ir_op *op, const struct target *t);
/* verify_fixpipe.c: PTOAS's fixpipe attributes of tmov and tstore (accToVecMode,
 * reluPreMode, atomicType) other than the plain move, refused as not modelled yet. */
unsigned ir_verify_fixpipe(ir_ctx *ctx, const ir_op *op);
/* verify_async.c: the async GM session ops (semantics.md §8.10). */
unsigned ir_verify_async(ir_ctx *ctx, const ir_op *op);
/* tgather's maskPattern: 0 none, 1 P0101, 2 P1010, 3 P0001, 4 P0010, 5 P0100, 6 P1000,
 * 7 P1111, -1 another value (the runtime's pattern codes, ptort_tgatherm) */
int ir_tgather_pattern(const ir_op *op);
/* verify_irregular.c: the same for tsort32, tmrgsort (semantics.md §7.8b),
 * thistogram (§7.8c) and tconcat (§7.8d). */
unsigned ir_verify_irregular(ir_ctx *ctx, const ir_op *op, const struct target *t);
/* verify_gen.c: the same for trandom (semantics.md §7.8e), tpack (§7.8f) and tsync. */
unsigned ir_verify_gen(ir_ctx *ctx, const ir_op *op, const struct target *t);
/* verify_quant.c: the same for tquant and tdequant (semantics.md §7.8g), textract_fp
 * and tinsert_fp (§6.2a). */
unsigned ir_verify_quant(ir_ctx *ctx, const ir_op *op, const struct target *t);

#endif
