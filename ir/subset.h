/* subset.h: pto.subset, a window of a tile (docs/semantics.md §7.8): the result type
 * the parser gives it and the verifier's rules (subset.c). */
#ifndef PTOC_IR_SUBSET_H
#define PTOC_IR_SUBSET_H

#include "ir/ir.h"

/* The type of `pto.subset %src[o0, o1] sizes [r, c]`: the source's tile_buf with shape
 * r x c and the valid shape the offsets leave (`off` NULL or has_off[i] 0: a run-time
 * offset, `?`); NULL when `src` is not a tile_buf or a size is not positive. */
const ir_type *ir_subset_type(ir_ctx *ctx, const ir_type *src, const int64_t sizes[2],
			      const int64_t off[2], const int has_off[2]);

/* The `sizes` attribute of a subset op as two integers; -1 when it is missing or not
 * an array of two integers. */
int ir_subset_sizes(const ir_op *op, int64_t sizes[2]);

/* The verifier's rules; returns the number of errors reported. */
unsigned ir_verify_subset(ir_ctx *ctx, const ir_op *op);

#endif
