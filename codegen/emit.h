/* emit.h: the emitters of codegen/ (internal header).
 *
 * emit_c prints a lowered module (level 3, docs/lowered.md) as C99 that links libptort:
 * for every func.func NAME
 *     ptort_ctx *NAME_ctx_create(void);   a context with the target's memory capacities
 *     void NAME(ptort_ctx *ctx, ARGS);    the kernel
 * where every !pto.ptr argument P becomes `void *P, uint64_t P_elems` (the GM buffer and
 * how many elements it holds, so the runtime reports accesses beyond it) and every
 * integer or index argument an int64_t. Instructions execute in order; the caller checks
 * ptort_ctx_error() once at the end.
 *
 * emit_main prints a harness (a C main) for one kernel of the module: it reads and
 * writes the GM buffers as raw binary or NumPy .npy files, the command line `ptoc run`
 * uses. */
#ifndef PTOC_CODEGEN_EMIT_H
#define PTOC_CODEGEN_EMIT_H

#include "ir/ir.h"
#include "target/target.h"

/* Returns the number of errors reported (ops that are not lowered, unsupported types);
 * nothing is written after the first error. A write error returns 1 without a
 * diagnostic. */
unsigned emit_c(ir_ctx *ctx, ir_op *module, const struct target *t, ptoc_write_fn out,
		void *user);

/* The entry kernel: the func.func called `entry` (NULL: the one marked pto.entry, else
 * the only one, else the cube function of a module whose functions of a kind are one
 * cube and one vector function, without results and with the same argument types:
 * *peer is then the vector function, run beside it as one cluster, docs/semantics.md
 * §8.9; NULL otherwise).
 * Reports an error and returns NULL when there is none or it is ambiguous. */
ir_op *emit_find_entry(ir_ctx *ctx, ir_op *module, const char *entry, ir_op **peer);

/* The harness of `func` for target `t` (see the file comment of emit_c.c for its
 * command line); `peer` (or NULL) is called after it with the same arguments. */
unsigned emit_main(ir_ctx *ctx, ir_op *module, ir_op *func, ir_op *peer,
		   const struct target *t, ptoc_write_fn out, void *user);

/* emit_mixed.c: the vector function that runs beside cube function `cube` when the
 * module has no entry (see emit_find_entry), or NULL. */
ir_op *emit_cluster_pair(ir_op *module, ir_op **cube);

/* arg_shape.c: the shape of GM argument `arg` (a !pto.ptr block argument holding
 * `elems` elements) as an array, outermost first, into shape[0..max): the shape of its
 * views when every use of it is a make_tensor_view with that one constant shape and
 * row-major compact strides (a dimension of size 1 may have any stride) covering all
 * `elems`. Returns the rank, or 0 (no such shape: the buffer is one dimension). */
unsigned emit_arg_shape(const ir_value *arg, uint64_t elems, uint64_t *shape, unsigned max);

/* emit_sync.c: the runtime call of a sync op (docs/semantics.md §8.7): `call`
 * (ptort_sync_set, _wait, _barrier) with pipes src, dst (ptort_pipe; a barrier's pipe
 * in both), the event id (-1 for a barrier; dyn: the op's operand gives it), and the
 * device intrinsic it stands for as a comment (`set_flag(PIPE_MTE2, PIPE_V,
 * EVENT_ID0)`). Returns -1 for an op without a call (cross-core flags, buffer ids). */
typedef struct emit_sync {
	const char *call;
	int src, dst;
	int64_t event;
	int dyn;
	char what[96];
} emit_sync;
int emit_sync_of(const ir_op *op, emit_sync *s);

/* emit_mixed.c (docs/semantics.md §8.9): the core a section or function runs on (1 the
 * cube, 2 the vector cores, 0 any); whether the vector code under `root` exchanges
 * tiles only with split 0 (then only vector core 0 runs it, as PTOAS guards it with
 * get_subblockid() == 0); whether kernel `func` is mixed, runs as clusters: it has a
 * section or a FIFO op (cross-core flags alone do not make it so: outside a cluster
 * they are no-ops, §8.5). */
int emit_core_of(const ir_op *op);
int emit_vector_only0(ir_op *root);
int emit_is_mixed(ir_op *func);

#endif
