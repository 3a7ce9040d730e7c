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

#endif
