/* pipe.h: pipes of ops and the flag pairs of each core kind (pipe.c; docs/semantics.md
 * §8.7-§8.8). The pipe numbers are the runtime's (ptort_pipe, ptort_sync.h). */
#ifndef PTOC_IR_PIPE_H
#define PTOC_IR_PIPE_H

#include "ir/ir.h"

struct target;

/* The core kinds a kernel runs on (pto.kernel_kind of its function). */
enum { IR_CORE_ANY, IR_CORE_VECTOR, IR_CORE_CUBE };

/* "PIPE_V" -> PTORT_PIPE_V, "PIPE_ALL" -> PTORT_PIPE_ALL; -1 for any other name. */
int ir_pipe_parse(const char *s);
/* A pipe_event_type value (TLOAD, TVEC, ...) -> its pipe; -1 when unknown. */
int ir_syncop_pipe(const char *s);
/* The pipe of attribute `name` of `op` (a #pto.pipe or a #pto.pipe_event_type); -1. */
int ir_attr_pipe(const ir_op *op, const char *name);
/* The pipe of a move from `src` to `dst` on `t` (its `moves` rows); -1 when none. */
int ir_move_pipe(const struct target *t, ir_mem src, ir_mem dst);
/* The pipe `op` issues to on `t` (its row's pipe column, resolved), -1 when its
 * memories are not known yet (level-1 tiles) or a sync op's attributes name none. A
 * sync op issues to the queue it blocks or signals from: set_flag to src, wait_flag to
 * dst, a barrier to its pipe. */
int ir_op_pipe(const ir_op *op, const struct target *t);
/* "S", "V", "M", "MTE2", "VEC", "MOVE", "STORE", "SYNC" */
const char *ir_pipe_rule_name(unsigned rule);
/* Whether a flag may join `src` and `dst` on `core` of `t` (IR_CORE_ANY: either). */
int ir_pipe_pair_valid(const struct target *t, int core, int src, int dst);
/* The core kind of a func.func: its pto.kernel_kind (vector, cube), else IR_CORE_ANY. */
int ir_func_core(const ir_op *func);

/* verify_sync.c: the rules on the sync ops and the event-id arrays (docs/semantics.md
 * §8.8), reported at `op`; returns the number of errors. */
unsigned ir_verify_sync(ir_ctx *ctx, const ir_op *op, const struct target *t);

#endif
