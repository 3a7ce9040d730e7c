/* sanitize_internal.h: the sync sanitizer's pieces (sanitize.c records and replays a
 * run, sanitize_report.c words and collects its findings). Never installed. */
#ifndef PTORT_SANITIZE_INTERNAL_H
#define PTORT_SANITIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ptort.h"

/* sync.c -> sanitize.c, each called only while ctx->san is set: ptort_sync_target's
 * in-order pipes; ptort_sync_op's: closes the instruction as one event of `pipe`,
 * returns its number + 1 (0: out of memory); ptort_sync_finish's: whether accesses wait
 * for a ptort_sync_op (ptort_san_open), then the replay of the trace (ptort_san_finish,
 * the rest of ptort_sync_finish). */
void ptort_san_target(ptort_ctx *ctx, unsigned inorder_pipes);
uint32_t ptort_san_op(ptort_ctx *ctx, ptort_pipe pipe);
int ptort_san_open(const ptort_ctx *ctx);
unsigned ptort_san_finish(ptort_ctx *ctx, ptort_sync_findings *f);
/* sync.c -> sanitize.c: a set_flag, wait_flag or pipe_barrier (src = dst = the pipe) */
enum { SAN_SET, SAN_WAIT, SAN_BAR };
void ptort_san_sync(ptort_ctx *ctx, int kind, ptort_pipe src, ptort_pipe dst, int64_t event,
		    const char *file, uint32_t line, uint32_t col);

/* sync.c -> schedule.c: the same call under the adversarial schedule (ev: the
 * sanitizer's event + 1, or 0) */
void ptort_sched_sync(ptort_ctx *ctx, int kind, ptort_pipe src, ptort_pipe dst, int64_t event,
		      const char *file, uint32_t line, uint32_t col, uint32_t ev);
/* schedule.c -> sanitize.c: a deferred instruction runs; its accesses are event ev - 1's
 * (begin returns the mark end needs) */
size_t ptort_san_begin(ptort_ctx *ctx);
void ptort_san_end(ptort_ctx *ctx, uint32_t ev, size_t mark);
/* the number of events recorded (the next one's index) */
uint32_t ptort_san_count(const ptort_ctx *ctx);

/* The findings of one run (one block), in the order found. */
typedef struct san_find san_find;
typedef struct san_run {
	uint32_t block;
	san_find *f;
	size_t n, cap;
	unsigned seq;
	int oom;
} san_run;

void san_run_init(san_run *run, uint32_t block);
/* Adds the run's findings to f (NULL: drops them); returns how many distinct ones the
 * run had. */
unsigned san_run_finish(san_run *run, ptort_sync_findings *f);

/* A race between the access of an earlier-issued op (first) and a later one (second):
 * kind "RAW", "WAR" or "WAW"; bytes [lo, hi) of `space` (gm: host addresses). */
void san_race(san_run *run, const char *kind, const char *space, int gm, uint64_t lo,
	      uint64_t hi, unsigned fpipe, int fw, const char *ffile, uint32_t fline,
	      uint32_t fcol, unsigned spipe, int sw, const char *sfile, uint32_t sline,
	      uint32_t scol, int same_pipe);
/* A set on a flag whose previous set's wait (wfile NULL: none) does not happen before. */
void san_event_pending(san_run *run, unsigned src, unsigned dst, int event, const char *file,
		       uint32_t line, uint32_t col, const char *pfile, uint32_t pline,
		       uint32_t pcol, const char *wfile, uint32_t wline, uint32_t wcol);
/* More sets than waits on a flag at kernel end (the location: its last set). */
void san_event_left(san_run *run, unsigned src, unsigned dst, int event, const char *file,
		    uint32_t line, uint32_t col, uint32_t nsets, uint32_t nwaits);
/* A wait for the ord-th set of a flag that has only nsets (lfile: its last set). */
void san_deadlock_noset(san_run *run, unsigned src, unsigned dst, int event, const char *file,
			uint32_t line, uint32_t col, uint32_t ord, uint32_t nsets,
			const char *lfile, uint32_t lline, uint32_t lcol);
/* A wait whose set exists but cannot run: held by the head of the set's pipe (bpipe;
 * bwait: that head is a wait of flag (bsrc, bdst, bevent) at bfile). */
void san_deadlock_cycle(san_run *run, unsigned src, unsigned dst, int event, const char *file,
			uint32_t line, uint32_t col, const char *sfile, uint32_t sline,
			uint32_t scol, unsigned bpipe, int bwait, unsigned bsrc, unsigned bdst,
			int bevent, const char *bfile, uint32_t bline, uint32_t bcol);
/* The trace or the replay ran out of memory: the check is incomplete. */
void san_oom(san_run *run);

#endif
