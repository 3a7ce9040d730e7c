/* sync.c: the sync calls of generated code (ptort_sync.h; docs/semantics.md §8.5, §8.7-§8.8,
 * docs/runtime.md "Sync calls"). In program order the instructions run one after the
 * other, so the calls order nothing; they check the run-time event ids of
 * set_flag_dyn and wait_flag_dyn, and hand the call to the cluster (cluster.c), the
 * sync sanitizer (sanitize.c) and the adversarial schedule (schedule.c) when they are
 * on. Above all three (docs/architecture.md, "Layers"): none of them calls this file. */
#include "mem_internal.h"
#include "sanitize_internal.h"

int ptort_sync_target(ptort_ctx *ctx, unsigned inorder_pipes)
{
	if (!ctx)
		return 0;
	if (ctx->san)
		ptort_san_target(ctx, inorder_pipes);
	return ctx->sched ? ptort_sched_enter(ctx, inorder_pipes) : 0;
}

void ptort_sync_op(ptort_ctx *ctx, ptort_pipe pipe)
{
	uint32_t ev;
	if (ctx && ctx->cl)
		ptort_cluster_op(ctx, pipe);
	if (!ctx || (!ctx->san && !ctx->sched))
		return;
	ev = ctx->san ? ptort_san_op(ctx, pipe) : 0;
	if (ctx->sched)
		ptort_sched_bind(ctx, pipe, ev);
}

unsigned ptort_sync_finish(ptort_ctx *ctx, ptort_sync_findings *f)
{
	if (!ctx || !ctx->san)
		return 0;
	if (ptort_san_open(ctx)) /* accesses no ptort_sync_op closed: an S instruction */
		ptort_sync_op(ctx, PTORT_PIPE_S);
	return ptort_san_finish(ctx, f);
}

static int flag(ptort_ctx *ctx, const char *op, ptort_pipe src, ptort_pipe dst, int64_t event,
		const char *file, uint32_t line, uint32_t col)
{
	if (event >= 0 && event < PTORT_EVENT_IDS && (unsigned)src < PTORT_PIPE_COUNT &&
	    (unsigned)dst < PTORT_PIPE_COUNT)
		return 0;
	if (event < 0 || event >= PTORT_EVENT_IDS)
		ptort_report(ctx, "%s: event id %lld outside [0, %d)", op, (long long)event,
			     PTORT_EVENT_IDS);
	else
		ptort_report(ctx, "%s: no pipe pair (%s, %s)", op, ptort_pipe_name(src),
			     ptort_pipe_name(dst));
	ptort_ctx_locate(ctx, file, line, col);
	return -1;
}

/* Hands one set, wait or barrier to the sync sanitizer and the adversarial schedule,
 * whichever are on. */
static void observe(ptort_ctx *ctx, int kind, ptort_pipe src, ptort_pipe dst, int64_t event,
		    const char *file, uint32_t line, uint32_t col)
{
	if (ctx->san)
		ptort_san_sync(ctx, kind, src, dst, event, file, line, col);
	if (ctx->sched)
		ptort_sched_sync(ctx, kind, src, dst, event, file, line, col,
				 ctx->san ? ptort_san_count(ctx) : 0);
}

int ptort_sync_set(ptort_ctx *ctx, ptort_pipe src, ptort_pipe dst, int64_t event,
		   const char *file, uint32_t line, uint32_t col)
{
	if (flag(ctx, "set_flag", src, dst, event, file, line, col))
		return -1;
	observe(ctx, SAN_SET, src, dst, event, file, line, col);
	return 0;
}

int ptort_sync_wait(ptort_ctx *ctx, ptort_pipe src, ptort_pipe dst, int64_t event,
		    const char *file, uint32_t line, uint32_t col)
{
	if (flag(ctx, "wait_flag", src, dst, event, file, line, col))
		return -1;
	if (ctx->cl)
		ptort_cluster_sync(ctx, 0, src, dst);
	observe(ctx, SAN_WAIT, src, dst, event, file, line, col);
	return 0;
}

int ptort_sync_barrier(ptort_ctx *ctx, ptort_pipe pipe, const char *file, uint32_t line,
		       uint32_t col)
{
	if ((unsigned)pipe <= PTORT_PIPE_ALL) {
		if (ctx->cl && pipe == PTORT_PIPE_ALL)
			ptort_cluster_sync(ctx, 1, pipe, pipe);
		observe(ctx, SAN_BAR, pipe, pipe, 0, file, line, col);
		return 0;
	}
	ptort_report(ctx, "pipe_barrier: no pipe %d", (int)pipe);
	ptort_ctx_locate(ctx, file, line, col);
	return -1;
}

int64_t ptort_sync_index(ptort_ctx *ctx, int64_t i, int64_t n)
{
	if (i >= 0 && i < n)
		return i;
	ptort_report(ctx, "eventid_array: index %lld outside [0, %lld)", (long long)i, (long long)n);
	return 0;
}
