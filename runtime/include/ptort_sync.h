/* ptort_sync.h: pipes, flags and barriers (docs/semantics.md §8.5, §8.7-§8.8, docs/runtime.md
 * "Sync calls"). Included by ptort.h; not a header of its own.
 *
 * An AI core issues every instruction to one of its pipes; the pipes run concurrently
 * and set_flag / wait_flag / pipe_barrier order them. The runtime executes a kernel's
 * instructions one after the other, so these calls change no data; they give the pipe
 * of each sync op to the context, which checks the run-time event ids (file: a string
 * literal naming the op's source, or NULL). */
#ifndef PTORT_SYNC_H
#define PTORT_SYNC_H

/* The pipes, once: X(ID). PTORT_PIPE_ALL is not a pipe but the barrier of all of them. */
#define PTORT_PIPE_LIST(X) X(S) X(V) X(M) X(MTE1) X(MTE2) X(MTE3) X(FIX)

typedef enum ptort_pipe {
#define PTORT_PIPE_ID_(id) PTORT_PIPE_##id,
	PTORT_PIPE_LIST(PTORT_PIPE_ID_)
#undef PTORT_PIPE_ID_
	PTORT_PIPE_COUNT,
	PTORT_PIPE_ALL = PTORT_PIPE_COUNT
} ptort_pipe;

/* Event ids of one (src, dst) pipe pair: 0 .. PTORT_EVENT_IDS - 1. */
#define PTORT_EVENT_IDS 8

/* "PIPE_S", "PIPE_V", ..., "PIPE_ALL" ("PIPE_?" when out of range). */
PTORT_API const char *ptort_pipe_name(ptort_pipe p);

/* set_flag(src, dst, event) and wait_flag(src, dst, event). An event id outside
 * [0, PTORT_EVENT_IDS) (a run-time id of set_flag_dyn / wait_flag_dyn) is a runtime error
 * located at the op; returns 0, or -1 after reporting. */
PTORT_API int ptort_sync_set(ptort_ctx *ctx, ptort_pipe src, ptort_pipe dst, int64_t event,
		   const char *file, uint32_t line, uint32_t col);
PTORT_API int ptort_sync_wait(ptort_ctx *ctx, ptort_pipe src, ptort_pipe dst, int64_t event,
		    const char *file, uint32_t line, uint32_t col);
/* pipe_barrier(pipe), pipe PTORT_PIPE_ALL for every pipe. */
PTORT_API int ptort_sync_barrier(ptort_ctx *ctx, ptort_pipe pipe, const char *file, uint32_t line,
		       uint32_t col);

/* An index into an event-id array of n elements (pto.eventid_array_get / _set): i when
 * it lies in [0, n), else 0 after reporting the error (the caller locates it). */
PTORT_API int64_t ptort_sync_index(ptort_ctx *ctx, int64_t i, int64_t n);

/* ---- The sync sanitizer (docs/semantics.md §8.8a, docs/sync-check.md) -------------
 *
 * Off by default; on for a context after ptort_sync_check(ctx, 1), or for every
 * context created while the environment variable PTORT_SYNC_CHECK is 1 (`ptoc run
 * --sync-check` sets it). While on, the context records the run as a trace: every
 * instruction with its pipe, its location and the bytes it reads and writes (on-chip
 * memories and GM), every set_flag, wait_flag and pipe_barrier. ptort_sync_finish then
 * replays the trace through the pipe model (happens-before from in-order pipes,
 * barriers and set/wait pairs: the k-th wait of a flag matches its k-th set) and
 * reports races, deadlocks and bad events. Off, each instruction costs one branch. */

/* Turns the sanitizer on (on != 0) or off for ctx; returns 0, -1 out of memory. */
PTORT_API int ptort_sync_check(ptort_ctx *ctx, int on);
/* Generated code, at the start of a kernel: bit p set = pipe p executes in program
 * order on the target (S always does). Returns 1 when ctx runs the adversarial
 * schedule (below): the instruction calls of pipes other than S then queue
 * themselves. */
PTORT_API int ptort_sync_target(ptort_ctx *ctx, unsigned inorder_pipes);
/* Generated code, after each instruction (and its ptort_ctx_locate): the instruction
 * just executed (or deferred) issued to `pipe`. */
PTORT_API void ptort_sync_op(ptort_ctx *ctx, ptort_pipe pipe);

/* Findings, merged over blocks (thread-safe): deduplicated by class and source
 * locations, each with the count of its dynamic instances. */
typedef struct ptort_sync_findings ptort_sync_findings;
PTORT_API ptort_sync_findings *ptort_sync_findings_create(void);
PTORT_API void ptort_sync_findings_destroy(ptort_sync_findings *f);
/* Checks the run recorded since the last call (one kernel run of one block) and adds
 * its findings to f (f NULL: checks and drops them); clears the trace. Returns the
 * number of findings of this run. With PTORT_SYNC_TRACE=FILE in the environment the
 * trace is appended to FILE first (docs/sync-check.md "Trace format"). */
PTORT_API unsigned ptort_sync_finish(ptort_ctx *ctx, ptort_sync_findings *f);
/* Names GM buffers for the reports: a GM range inside base[k] .. base[k] + bytes[k]
 * is written as byte offsets "of 'name[k]'" (else as host addresses). The arrays
 * must outlive f's use. */
PTORT_API void ptort_sync_findings_gm(ptort_sync_findings *f, unsigned n, const void *const base[],
				      const uint64_t bytes[], const char *const name[]);
/* The number of distinct findings in f. */
PTORT_API unsigned ptort_sync_findings_count(const ptort_sync_findings *f);
/* Writes the findings as `FILE:LINE:COL: error: sync ...` lines with their notes,
 * sorted (deadlocks, races, events; then by location), through fn. */
PTORT_API void ptort_sync_findings_write(const ptort_sync_findings *f,
					 void (*fn)(void *user, const char *s, size_t n), void *user);

/* ---- The adversarial schedule (docs/semantics.md §8.8b, docs/sync-check.md) --------
 *
 * Off by default (program order); on for a context after ptort_sync_schedule(ctx, 1),
 * or for every context created while the environment variable PTORT_SYNC_SCHEDULE is
 * `adversarial` (`ptoc run --sync-schedule=adversarial` sets it). While on, each
 * instruction of a pipe other than S waits in its pipe's queue, and the queues run the
 * latest-issued work first as far as the kernel's flags, barriers and in-order pipes
 * allow: a kernel whose syncs order every dependence computes the same bits as in
 * program order, one with a missing sync may not. S instructions run when called; a
 * wait_flag on S, pipe_barrier(PIPE_ALL) and the kernel's end run the queued work. A
 * wait whose set never comes is a runtime error (a sync deadlock) at the wait. */

/* Turns the schedule on (adversarial != 0) or off for ctx; returns 0, -1 out of
 * memory. */
PTORT_API int ptort_sync_schedule(ptort_ctx *ctx, int adversarial);
/* Queues work in place of an instruction's call (the instruction calls of ptort.h do
 * this themselves under the schedule; a hand-written driver may queue its own): the
 * `size` bytes at `args` are copied; run(ctx, copy) makes the call when the
 * instruction's pipe runs it (ptort_ctx_locate and ptort_sync_op follow, as after the
 * call). With the schedule off, run(ctx, args) at once. */
PTORT_API void ptort_sync_defer(ptort_ctx *ctx, void (*run)(ptort_ctx *ctx, const void *args),
				const void *args, size_t size);
/* Generated code, before a kernel returns: runs every queued instruction (the end of
 * the kernel waits for all pipes). Nothing when the schedule is off. */
PTORT_API void ptort_sync_drain(ptort_ctx *ctx);

#endif
