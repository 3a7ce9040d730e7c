/* mem_internal.h: the runtime's private view of the execution model, shared by
 * mem.c (contexts, error reporting, footprint checks, element access), vec*.c
 * (vector conversions), dma*.c (GM <-> on-chip copies) and tmov.c. Never installed. */
#ifndef PTORT_MEM_INTERNAL_H
#define PTORT_MEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "insn_entry.h"
#include "ptort.h"

/* One GM access recorded for the race check of a launch (launch.c): host bytes
 * [lo, hi) read or written by one instruction of block `block`, at the location
 * ptort_ctx_locate gave after it (file NULL: none). */
typedef struct ptort_gm_rec {
	uintptr_t lo, hi;
	uint32_t block;
	uint32_t write;
	const char *file;
	uint32_t line, col;
	/* in a cluster: the core (1 + its index: AIC, AIV0, AIV1; 0 outside one) and its
	 * vector clock when it made the access (cluster.c's cross-core race check) */
	uint32_t core;
	uint32_t vc[3];
	uint32_t slot; /* a FIFO push or pop on the GM slot buffer (cluster.c) */
} ptort_gm_rec;

struct ptort_ctx {
	uint8_t *mem[PTORT_MEM_COUNT];
	uint32_t cap[PTORT_MEM_COUNT];
	unsigned long nerr;
	char err[256];
	ptort_print_fn print; /* ptort_tprint's sink; NULL: standard output */
	void *print_user;
	const char *err_file; /* ptort_ctx_locate of the first error */
	uint32_t err_line, err_col;
	/* bytes [0, dirty[m]) of memory m may be non-zero: the furthest footprint an
	 * instruction checked, or all of it once ptort_mem_base gave it out (launch.c
	 * zeroes that much before the next block) */
	uint32_t dirty[PTORT_MEM_COUNT];
	uint32_t block_idx, block_num; /* get_block_idx / get_block_num: 0 and 1 unless launched */
	uint32_t sub_idx, sub_num;
	/* GM accesses of the block running (launch.c turns it on for a race check) */
	int track;
	int track_oom;           /* a record could not be stored */
	ptort_gm_rec *rec;
	size_t nrec, caprec;
	size_t located;          /* records before this one have their location */
	struct ptort_san *san;   /* the sync sanitizer's trace (sanitize.c), NULL when off */
	struct ptort_sched *sched; /* the adversarial schedule's queues (schedule.c), or NULL */
	/* the cluster this context is a core of (cluster.c), NULL outside one; core:
	 * PTORT_CORE_CUBE or PTORT_CORE_VECTOR (sub_idx tells the vector core) */
	struct ptort_cluster *cl;
	int core;
	uint32_t vc[3]; /* the core's vector clock over the cluster's three cores */
	/* what A5 waits on one pipe acquired, per pipe: joined into the clock of that
	 * pipe's accesses (ptort_cluster_op); piped: records before it have theirs */
	uint32_t acq[PTORT_PIPE_COUNT][3];
	size_t piped;
	/* mem.c's calls into the layers above it (docs/architecture.md, "Layers"): the
	 * sanitizer, the schedule and the cluster each set theirs when they take the
	 * context on (ptort_sync_check, ptort_sync_schedule, ptort_cluster_create), and
	 * mem.c calls one only while that layer's state (san, sched, cl) is set. */
	struct {
		/* sanitize.c: an on-chip access (ptort_check_range), ptort_ctx_locate's
		 * location, ptort_ctx_destroy's free */
		void (*san_note)(ptort_ctx *ctx, unsigned space, uint64_t lo, uint64_t n,
				 int write);
		void (*san_locate)(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col);
		void (*san_free)(ptort_ctx *ctx);
		/* schedule.c: the location of the instruction just deferred; the free */
		void (*sched_locate)(ptort_ctx *ctx, const char *file, uint32_t line,
				     uint32_t col);
		void (*sched_free)(ptort_ctx *ctx);
		/* cluster.c: an on-chip access of a core (the freed-slot check) */
		int (*cl_access)(ptort_ctx *ctx, const char *op, unsigned mem, uint64_t lo,
				 uint64_t n, int write);
	} hook;
};

/* cluster.c: a cluster of one cube and two vector contexts (ptort.h section 10) */
typedef struct ptort_cluster ptort_cluster;
/* Three contexts from ctx_create; NULL when out of memory. */
ptort_cluster *ptort_cluster_create(ptort_ctx *(*ctx_create)(void));
void ptort_cluster_destroy(ptort_cluster *cl);
/* Core i (0 the cube, 1 and 2 the vector cores) */
ptort_ctx *ptort_cluster_ctx(ptort_cluster *cl, unsigned i);
/* Runs run(ctx, user) on the three cores (their block set by the caller) until all
 * finish or all wait (deadlock). Returns the core whose error stands for the cluster's
 * (the first reported, in the deterministic order of the run), or -1; a deadlock
 * writes its notes into notes[0 .. nn). */
int ptort_cluster_run(ptort_cluster *cl, void (*run)(ptort_ctx *, void *), void *user,
		      char *notes, size_t nn);
/* After each instruction of a core (ptort_sync_op): its GM accesses take what waits on
 * its pipe acquired. ptort_cluster_sync: the core's own set/wait/barrier (sync.c) pass
 * that on (a wait from pipe src to dst, a barrier of every pipe). */
void ptort_cluster_op(ptort_ctx *ctx, ptort_pipe pipe);
void ptort_cluster_sync(ptort_ctx *ctx, int barrier, ptort_pipe src, ptort_pipe dst);

/* mem.c, below the executors and the sync checks (only the numerics are below it).
 * ptort_ctx_new: a context without what the environment turns on (ptort_ctx_create,
 * ctx.c, adds that). */
ptort_ctx *ptort_ctx_new(const uint32_t capacity[PTORT_MEM_COUNT]);
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
void ptort_report(ptort_ctx *ctx, const char *fmt, ...);
/* 0 when [start, start + len) lies inside memory `mem`, else reports
 * "<op>: <what> range [a, b) exceeds <MEM> capacity c" and returns -1. */
int ptort_check_range(ptort_ctx *ctx, const char *op, const char *what, unsigned mem,
		      uint64_t start, uint64_t len);
/* Validates a tile descriptor (memory, ptort_layout_check, valid region) and
 * its footprint rows*cols*bits/8 at addr. 0 or -1 (reported). */
int ptort_check_tile(ptort_ctx *ctx, const char *op, const char *what, const ptort_tile *t);
/* Room for more in a full array *pa (the address of any object pointer) of *cap
 * elements of `size` bytes: twice as many (`first` when empty) while fewer than
 * `limit`. 0, with *pa (perhaps moved) and *cap updated; -1 (both unchanged) when out
 * of memory or at the limit. */
int ptort_grow(void *pa, size_t *cap, size_t first, size_t size, size_t limit);
/* Room for `need` bytes of text in *p (*cap bytes): *cap doubled (from 256) until it
 * holds them. 0, or -1 (*p and *cap unchanged) when out of memory. */
int ptort_reserve(char **p, size_t *cap, size_t need);
/* Room for n element values (an instruction's copy of a region), or NULL after
 * reporting "<op>: out of memory". */
uint64_t *ptort_vals(ptort_ctx *ctx, const char *op, size_t n);
/* Element of `bits` bits (4..64) at bit position `pos` of `p`, zero extended. */
uint64_t ptort_ld(const uint8_t *p, uint64_t pos, unsigned bits);
void ptort_st(uint8_t *p, uint64_t pos, unsigned bits, uint64_t v);
/* Converts n contiguous elements (byte-aligned starts): ptort_cvt_run when the
 * pointers suit its kernels, else element by element. The pair is already checked. */
void ptort_conv_n(ptort_type from, ptort_type to, const uint8_t *src, uint8_t *dst, size_t n,
		  ptort_rmode rm, int sat);
/* fixpipe.c (docs/semantics.md §6.2b): one element out of acc, of type s to d, as
 * ptort.h 3.5k describes F (quant 0, 1 or 2; word the element's quantization word);
 * whether the fixpipe moves s to d with that quant; the n words of columns c0.. at fp
 * (0, or -1 reported). */
uint64_t ptort_fixq1(ptort_type s, ptort_type d, uint64_t a, int quant, uint64_t word, int relu);
int ptort_fixq_pair(ptort_type s, ptort_type d, int quant);
int ptort_fixq_words(ptort_ctx *ctx, const char *name, const ptort_tile *fp, uint32_t c0, uint32_t n,
		     uint64_t *words);
/* ReLU on one element pattern of type t: negatives (not NaN) -> +0. */
uint64_t ptort_relu1(ptort_type t, uint64_t x);
/* Records that the instruction running reads (write 0) or writes (write 1) the n GM
 * bytes at p, when ctx->track is on; merges with the previous record of the same
 * instruction when contiguous. Out of memory sets ctx->track_oom. */
void ptort_gm_note_(ptort_ctx *ctx, const void *p, size_t n, int write);
#define ptort_gm_note(ctx, p, n, write) \
	do { \
		if ((ctx)->track) \
			ptort_gm_note_((ctx), (p), (n), (write)); \
		if ((ctx)->san) \
			ptort_san_note((ctx), PTORT_SAN_GM, (uint64_t)(uintptr_t)(p), (n), (write)); \
	} while (0)
/* sanitize.c: the instruction running reads (write 0) or writes bytes [lo, lo+n) of
 * on-chip memory `space` (a ptort_mem) or of GM (PTORT_SAN_GM, lo a host address);
 * called only while ctx->san is set. */
#define PTORT_SAN_GM PTORT_MEM_COUNT
void ptort_san_note(ptort_ctx *ctx, unsigned space, uint64_t lo, uint64_t n, int write);
/* schedule.c, the adversarial schedule (each called only while ctx->sched is set
 * unless said): ptort_sched_enter: ptort_sync_target's, returns 1 (deferring);
 * ptort_sched_bind: ptort_sync_op's, queues the instruction
 * just deferred on `pipe` (ev: its sanitizer event + 1, or 0), 0 when there was none;
 * ptort_sched_flush: runs every queued item that can run (cross-core calls, tprint;
 * any ctx). ptort_sched_sync is in sanitize_internal.h. */
int ptort_sched_enter(ptort_ctx *ctx, unsigned inorder);
int ptort_sched_bind(ptort_ctx *ctx, ptort_pipe pipe, uint32_t ev);
void ptort_sched_flush(ptort_ctx *ctx);
/* Whether an instruction called now is queued (insn_entry.c): not while the queues run. */
int ptort_sched_defers(const ptort_ctx *ctx);
/* Whether [a, a+la) and [b, b+lb) intersect. */
int ptort_overlap(uint64_t a, uint64_t la, uint64_t b, uint64_t lb);

#endif
