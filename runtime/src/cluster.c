/* cluster.c: mixed cube/vector kernels run as clusters (ptort.h section 10,
 * docs/semantics.md §8.9, docs/runtime.md "Clusters").
 *
 * A cluster is three contexts, the cube core (core 0) and the vector cores (1 and 2,
 * sub_idx 0 and 1), each running the kernel function as a coroutine (ucontext) of
 * the worker thread that runs the block. A core runs until it finishes or blocks; a
 * blocked core yields to the scheduler, which resumes the next core in the order
 * AIC, AIV0, AIV1, AIC, ...; a resumed core checks its condition again. A whole round
 * in which nothing changed (no push, pop, free, set or taken flag: the `progress`
 * counter) while every unfinished core is blocked is a deadlock: the cluster is
 * aborted, every blocking call then returns -1 at once, and the cores run to their
 * end. The order is fixed, so a cluster's run is the same on every thread count.
 *
 * FIFOs (direction 0 cube to vector, 1 vector to cube) keep, per vector core, counters
 * pushed / popped / freed; a push needs pushed - freed < depth on every receiving core,
 * a pop popped < pushed, a free freed < popped. The data is one ring of `depth` slots
 * per direction (A2A3's GM slot buffer layout): a slot holds the cube's whole tile
 * row-major, packed, and each vector core's part is its rows or columns of it; each
 * core indexes the ring by its own count of pushes or pops of the direction.
 * Flags: counters per (core, id), at most 15. At the end of a cluster every FIFO must
 * be drained (pushed == popped == freed) and every flag zero.
 *
 * Above the sync sanitizer and the adversarial schedule (this file calls
 * ptort_san_note and ptort_sched_flush), below sync.c; mem.c reaches it through
 * ctx->hook (docs/architecture.md, "Layers"). */
#if defined(__unix__) || defined(__APPLE__)
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "mem_internal.h"
#include "ptort.h"

#define CL_STACK (8u << 20)
#define CL_MAX_DEPTH 64
#define CL_FLAGS 32

typedef struct xfifo {
	uint32_t depth, slot;  /* depth 0: the direction is not initialised */
	uint8_t *ring;         /* the slots, `stride` bytes apart (slot_ring) */
	uint64_t stride;
	void *gm;              /* the GM slot buffer an init named for it, and its bytes */
	uint64_t gm_bytes;
	int after_c2v;         /* vector to cube, named by a two-way init: after that ring */
	uint32_t tix[3];       /* per core: its pushes or pops of this direction (the slot) */
	uint32_t rows[2][CL_MAX_DEPTH], cols[2][CL_MAX_DEPTH]; /* each slot's part */
	/* the on-chip bytes of the tile each slot was popped into (the freed-slot check) */
	uint64_t tile_lo[2][CL_MAX_DEPTH], tile_hi[2][CL_MAX_DEPTH];
	unsigned tile_mem[2][CL_MAX_DEPTH];
	uint32_t pushed[2], popped[2], freed[2];
	/* vector clocks: each slot's at its push (a pop joins it) and at its free (the
	 * push that reuses it joins it) */
	uint32_t full_vc[2][CL_MAX_DEPTH][3], free_vc[2][CL_MAX_DEPTH][3];
} xfifo;

/* The on-chip bytes of a tile popped from a FIFO slot that its core freed since: on the
 * device they are the slot, which the producer's next push may write at any time after
 * the free. A read of them before the core writes them again is reported. */
#define CL_FREED 8
typedef struct freed {
	unsigned mem;
	uint64_t lo, hi;
	const char *file; /* the tfree */
	uint32_t line, col;
} freed;

typedef struct core {
	ucontext_t uc;
	void *stack;
	ptort_ctx *ctx;
	int state; /* 0 running or runnable, 1 blocked, 2 finished */
	char what[200];
	const char *file;
	uint32_t line, col;
	freed fr[CL_FREED]; /* a ring of the last CL_FREED freed slots' tiles */
	unsigned nfr;
} core;

struct ptort_cluster {
	ucontext_t sched;
	core c[3];
	int cur, aborted;
	int stored;            /* the slots are placed (fifo_store) */
	unsigned long progress;
	void (*run)(ptort_ctx *, void *);
	void *user;
	xfifo f[2];
	uint8_t *own;          /* the slots when they live in the cluster (A5) */
	size_t ownsz;
	unsigned dir_mask;
	const char *init_file; /* the first pipe init, for the end-of-kernel errors */
	uint32_t init_line, init_col;
	int a5;                /* the flags' target, from the first sync op */
	uint8_t vflag[2][CL_FLAGS];   /* each vector core's flags */
	uint8_t cflag[CL_FLAGS][2];   /* the cube's flags, per signalling vector core (A2A3) */
	uint32_t vflag_vc[2][CL_FLAGS][3], cflag_vc[CL_FLAGS][3]; /* the sets' clocks, joined */
	const char *flag_file;        /* the last set, for a flag left set */
	uint32_t flag_line, flag_col;
};


static int cluster_access(ptort_ctx *ctx, const char *op, unsigned mem, uint64_t lo,
			  uint64_t n, int write);

ptort_cluster *ptort_cluster_create(ptort_ctx *(*ctx_create)(void))
{
	ptort_cluster *cl = calloc(1, sizeof *cl);
	unsigned i;
	if (!cl)
		return NULL;
	for (i = 0; i < 3; i++) {
		cl->c[i].ctx = ctx_create();
		cl->c[i].stack = malloc(CL_STACK);
		if (!cl->c[i].ctx || !cl->c[i].stack) {
			ptort_cluster_destroy(cl);
			return NULL;
		}
		cl->c[i].ctx->cl = cl;
		cl->c[i].ctx->hook.cl_access = cluster_access;
		cl->c[i].ctx->core = i ? PTORT_CORE_VECTOR : PTORT_CORE_CUBE;
	}
	return cl;
}

void ptort_cluster_destroy(ptort_cluster *cl)
{
	unsigned i;
	if (!cl)
		return;
	for (i = 0; i < 3; i++) {
		ptort_ctx_destroy(cl->c[i].ctx);
		free(cl->c[i].stack);
	}
	free(cl->own);
	free(cl);
}

ptort_ctx *ptort_cluster_ctx(ptort_cluster *cl, unsigned i)
{
	return i < 3 ? cl->c[i].ctx : NULL;
}

/* The coroutine's entry: the cluster's address in two ints (makecontext passes ints;
 * no thread-local variable, which tcc cannot link from the static runtime). */
static void core_main(int hi, int lo)
{
	ptort_cluster *cl = (ptort_cluster *)(uintptr_t)(((uint64_t)(uint32_t)hi << 32) |
							 (uint32_t)lo);
	int i = cl->cur;
	cl->run(cl->c[i].ctx, cl->user);
	cl->c[i].state = 2;
	swapcontext(&cl->c[i].uc, &cl->sched);
}

static const char *const core_names[3] = {"AIC", "AIV0", "AIV1"};

static int core_index(const ptort_ctx *ctx)
{
	return ctx->core == PTORT_CORE_CUBE ? 0 : 1 + (int)(ctx->sub_idx & 1);
}

/* Vector clocks (the cross-core race check): an acquire joins a clock into the core's,
 * a release (push, free, set) stores the core's clock and starts a new epoch of it.
 * Joining every set of a flag is conservative (a wait may pair with an earlier set):
 * it can hide a race, never invent one. */
static void vc_join(uint32_t *dst, const uint32_t *src)
{
	unsigned k;
	for (k = 0; k < 3; k++)
		if (src[k] > dst[k])
			dst[k] = src[k];
}

/* What a release (push, free, set) of core ctx passes on: its clock and, conservatively,
 * what its A5 per-pipe waits acquired (on any pipe: never a race invented). */
static void vc_release(uint32_t *dst, const ptort_ctx *ctx)
{
	unsigned p;
	vc_join(dst, ctx->vc);
	for (p = 0; p < PTORT_PIPE_COUNT; p++)
		vc_join(dst, ctx->acq[p]);
}

void ptort_cluster_op(ptort_ctx *ctx, ptort_pipe pipe)
{
	size_t i;
	if ((unsigned)pipe < PTORT_PIPE_COUNT)
		for (i = ctx->piped; i < ctx->nrec; i++)
			vc_join(ctx->rec[i].vc, ctx->acq[pipe]);
	ctx->piped = ctx->nrec;
}

void ptort_cluster_sync(ptort_ctx *ctx, int barrier, ptort_pipe src, ptort_pipe dst)
{
	unsigned p;
	if (barrier) { /* every later instruction follows every earlier one */
		for (p = 0; p < PTORT_PIPE_COUNT; p++)
			vc_join(ctx->vc, ctx->acq[p]);
	} else if ((unsigned)src < PTORT_PIPE_COUNT && (unsigned)dst < PTORT_PIPE_COUNT) {
		vc_join(ctx->acq[dst], ctx->acq[src]);
	}
}

/* The calling core waits: records what for, yields to the scheduler. Returns -1 when
 * the cluster was aborted (the caller returns -1), 0 to check again. */
static int wait_for(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col,
		    const char *fmt, ...)
{
	ptort_cluster *cl = ctx->cl;
	core *c = &cl->c[core_index(ctx)];
	va_list ap;
	if (cl->aborted)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof c->what, fmt, ap);
	va_end(ap);
	c->file = file, c->line = line, c->col = col;
	c->state = 1;
	swapcontext(&c->uc, &cl->sched);
	c->state = 0;
	return cl->aborted ? -1 : 0;
}

static void end_checks(ptort_cluster *cl);
static int race_check(ptort_cluster *cl, char *notes, size_t nn);

/* A fresh coroutine that runs core_main on c's stack (its own function: getcontext
 * returns twice only here, never after makecontext replaced the context). */
static void core_start(ptort_cluster *cl, core *c)
{
	uint64_t p = (uint64_t)(uintptr_t)cl;
	getcontext(&c->uc);
	c->uc.uc_stack.ss_sp = c->stack;
	c->uc.uc_stack.ss_size = CL_STACK;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, (void (*)(void))core_main, 2, (int)(uint32_t)(p >> 32),
		    (int)(uint32_t)p);
}

int ptort_cluster_run(ptort_cluster *cl, void (*run)(ptort_ctx *, void *), void *user,
		      char *notes, size_t nn)
{
	int i, started[3] = {0, 0, 0}, fail = -1, live;
	unsigned long seen;
	memset(cl->f, 0, sizeof cl->f);
	memset(cl->vflag, 0, sizeof cl->vflag);
	memset(cl->cflag, 0, sizeof cl->cflag);
	cl->aborted = cl->stored = 0;
	cl->dir_mask = 0;
	cl->progress = 0;
	cl->run = run, cl->user = user;
	cl->init_file = cl->flag_file = NULL;
	if (nn)
		notes[0] = 0;
	for (i = 0; i < 3; i++) {
		cl->c[i].state = 0;
		cl->c[i].what[0] = 0;
		cl->c[i].nfr = 0;
		cl->c[i].ctx->sub_idx = i ? (uint32_t)(i - 1) : 0;
		cl->c[i].ctx->sub_num = i ? 2 : 1;
		memset(cl->c[i].ctx->vc, 0, sizeof cl->c[i].ctx->vc);
		memset(cl->c[i].ctx->acq, 0, sizeof cl->c[i].ctx->acq);
		cl->c[i].ctx->piped = 0;
		cl->c[i].ctx->vc[i] = 1;
	}
	memset(cl->vflag_vc, 0, sizeof cl->vflag_vc);
	memset(cl->cflag_vc, 0, sizeof cl->cflag_vc);
	for (;;) {
		seen = cl->progress;
		live = 0;
		for (i = 0; i < 3; i++) {
			core *c = &cl->c[i];
			if (c->state == 2)
				continue;
			cl->cur = i;
			if (!started[i]) {
				core_start(cl, c);
				started[i] = 1;
			}
			swapcontext(&cl->sched, &c->uc);
			if (fail < 0 && ptort_ctx_error(c->ctx))
				fail = i;
			if (c->state != 2)
				live++;
		}
		if (!live)
			break;
		if (cl->progress == seen && !cl->aborted) {
			/* every unfinished core waits and nothing moved: a deadlock */
			size_t k = 0;
			int first = -1;
			for (i = 0; i < 3; i++) {
				core *c = &cl->c[i];
				if (c->state != 1)
					continue;
				if (first < 0)
					first = i;
				if (k < nn) {
					if (c->file)
						k += (size_t)snprintf(notes + k, nn - k, "%s:%u:%u: note: ", c->file,
								      c->line, c->col);
					else
						k += (size_t)snprintf(notes + k, nn - k, "note: ");
				}
				if (k < nn)
					k += (size_t)snprintf(notes + k, nn - k, "%s waits: %s\n", core_names[i],
							      c->what);
			}
			if (fail >= 0 && nn) /* an earlier error stands for the cluster */
				notes[0] = 0;
			if (first >= 0 && fail < 0) {
				core *c = &cl->c[first];
				ptort_ctx_clear_error(c->ctx);
				ptort_report(c->ctx, "deadlock: every unfinished core of the cluster waits "
						     "(the notes say for what)");
				ptort_ctx_locate(c->ctx, c->file, c->line, c->col);
				fail = first;
			}
			cl->aborted = 1;
		}
	}
	if (fail < 0 && !cl->aborted)
		end_checks(cl);
	if (fail < 0 && !cl->aborted) {
		int r = race_check(cl, notes, nn);
		if (r >= 0)
			return r;
	}
	for (i = 0; fail < 0 && i < 3; i++)
		if (ptort_ctx_error(cl->c[i].ctx))
			fail = i;
	return fail;
}

/* ---- FIFOs --------------------------------------------------------------------- */

static int outside(ptort_ctx *ctx, const char *op)
{
	if (ctx->cl)
		return 0;
	ptort_report(ctx, "%s: not in a cluster (a mixed kernel runs as clusters: "
			  "ptort_launch with PTORT_LAUNCH_CLUSTER)", op);
	return 1;
}

int ptort_core_in(const ptort_ctx *ctx, int core, int only0)
{
	if (!ctx->cl)
		return 1;
	if (ctx->core != core)
		return 0;
	return !(core == PTORT_CORE_VECTOR && only0 && ctx->sub_idx != 0);
}

int ptort_pipe_init(ptort_ctx *ctx, unsigned dir_mask, uint32_t slot_size, uint32_t c2v_depth,
		    uint32_t v2c_depth, void *gm, uint64_t gm_bytes, const char *file, uint32_t line,
		    uint32_t col)
{
	ptort_cluster *cl = ctx->cl;
	uint32_t depth[2] = {c2v_depth, v2c_depth};
	unsigned d;
	if (ctx->sched)
		ptort_sched_flush(ctx);
	if (outside(ctx, "pipe init"))
		return -1;
	if (!dir_mask || dir_mask > 3 || !slot_size) {
		ptort_report(ctx, "pipe init: dir_mask %u, slot_size %u", dir_mask, slot_size);
		return -1;
	}
	for (d = 0; d < 2; d++) {
		xfifo *f = &cl->f[d];
		if (!(dir_mask >> d & 1))
			continue;
		if (depth[d] > CL_MAX_DEPTH) {
			ptort_report(ctx, "pipe init: a FIFO of %u slots (at most %u)", depth[d], CL_MAX_DEPTH);
			return -1;
		}
		if ((f->slot && f->slot != slot_size) || (depth[d] && f->depth && f->depth != depth[d])) {
			ptort_report(ctx, "pipe init: the %s FIFO has %u slots of %u bytes here; "
					  "the other core's init made it %u of %u", d ? "vector-to-cube"
					  : "cube-to-vector", depth[d], slot_size, f->depth, f->slot);
			return -1;
		}
		f->slot = slot_size;
		if (depth[d]) /* 0: not known on this side (its buffer is the peer's) */
			f->depth = depth[d];
	}
	cl->dir_mask |= dir_mask;
	for (d = 0; gm && d < 2; d++)
		if (dir_mask >> d & 1) {
			cl->f[d].gm = gm, cl->f[d].gm_bytes = gm_bytes;
			cl->f[d].after_c2v = d == 1 && dir_mask == 3;
		}
	if (!cl->init_file)
		cl->init_file = file, cl->init_line = line, cl->init_col = col;
	cl->progress++; /* a core waiting for the depth may go on */
	return 0;
}

/* The slots of every initialised direction, at the first push or pop (the depths are
 * known then): pto-isa's A2A3 layout when an init named a GM slot buffer, one ring of
 * depth x slot bytes per direction at the buffer's start, the vector-to-cube ring of a
 * two-way init right after the cube-to-vector one, no offset per cluster (a kernel
 * offsets the buffer by its block itself); else (A5) in the cluster, slots twice the
 * slot size apart (both parts of a split fit). -1 after reporting. */
static const char *dir_name(unsigned d);

static int fifo_store(ptort_ctx *ctx, const char *op)
{
	ptort_cluster *cl = ctx->cl;
	uint64_t need = 0, off;
	unsigned d;
	if (cl->stored)
		return 0;
	for (d = 0; d < 2; d++) {
		xfifo *f = &cl->f[d];
		if (!(cl->dir_mask >> d & 1))
			continue;
		if (!f->gm) {
			f->stride = 2ull * f->slot;
			need += f->depth * f->stride;
			continue;
		}
		f->stride = f->slot;
		off = f->after_c2v ? (uint64_t)cl->f[0].depth * cl->f[0].slot : 0;
		if (off + (uint64_t)f->depth * f->slot > f->gm_bytes) {
			ptort_report(ctx, "%s: the GM slot buffer holds %llu bytes; the %s FIFO's %u slots "
					  "of %u bytes need bytes [%llu, %llu)", op,
				     (unsigned long long)f->gm_bytes, dir_name(d), f->depth, f->slot,
				     (unsigned long long)off,
				     (unsigned long long)(off + (uint64_t)f->depth * f->slot));
			return -1;
		}
		f->ring = (uint8_t *)f->gm + off;
	}
	if (need > cl->ownsz) {
		uint8_t *p = realloc(cl->own, (size_t)need);
		if (!p) {
			ptort_report(ctx, "%s: out of host memory", op);
			return -1;
		}
		cl->own = p, cl->ownsz = (size_t)need;
	}
	for (d = 0, off = 0; d < 2; d++)
		if ((cl->dir_mask >> d & 1) && !cl->f[d].gm) {
			cl->f[d].ring = cl->own + off;
			off += cl->f[d].depth * cl->f[d].stride;
		}
	cl->stored = 1;
	return 0;
}

/* Where vector core s's part (rows x cols) of a slot starts, in elements, and its row
 * stride: the slot holds the cube's tile row-major, so under split 1 core 1's rows
 * follow core 0's, under split 2 the two parts' rows interleave (pto-isa's A2A3 layout). */
static uint64_t part_at(uint32_t split, unsigned s, uint32_t rows, uint32_t cols, uint32_t *stride)
{
	*stride = split == 2 ? 2 * cols : cols;
	return split == 1 ? (uint64_t)s * rows * cols : split == 2 ? (uint64_t)s * cols : 0;
}

/* The parts of a transfer: which vector cores take part (*lo..*hi) and each part's
 * rows and columns and its origin in the cube's tile. */
typedef struct parts {
	unsigned lo, hi;
	uint32_t rows, cols;     /* of one part */
	uint32_t r0[2], c0[2];   /* origin of part s in the cube's tile */
} parts;

/* The parts of a cube tile of vr x vc elements under `split`; -1 after reporting. */
static int split_parts(ptort_ctx *ctx, const char *op, uint32_t split, uint32_t vr, uint32_t vc,
		       parts *p)
{
	memset(p, 0, sizeof *p);
	if (split > 2) {
		ptort_report(ctx, "%s: split %u (0, 1 or 2)", op, split);
		return -1;
	}
	if (split == 0) {
		p->lo = p->hi = 0;
		p->rows = vr, p->cols = vc;
		return 0;
	}
	if ((split == 1 ? vr : vc) % 2) {
		ptort_report(ctx, "%s: split %u of a tile with %u valid %s: not two equal halves", op,
			     split, split == 1 ? vr : vc, split == 1 ? "rows" : "columns");
		return -1;
	}
	p->lo = 0, p->hi = 1;
	p->rows = split == 1 ? vr / 2 : vr;
	p->cols = split == 2 ? vc / 2 : vc;
	p->r0[1] = split == 1 ? p->rows : 0;
	p->c0[1] = split == 2 ? p->cols : 0;
	return 0;
}

/* Copies the rows x cols region at (r0, c0) of tile t to (to_slot) or from the slot,
 * element (r, c) through t's layout, at element e0 + r * stride + c of the slot. */
static void copy_part(ptort_ctx *ctx, const ptort_tile *t, uint8_t *slot, uint64_t e0,
		      uint32_t stride, uint32_t r0, uint32_t c0, uint32_t rows, uint32_t cols,
		      int to_slot)
{
	unsigned bits = ptort_type_bits((ptort_type)t->type);
	uint8_t *base = ctx->mem[t->mem];
	uint32_t r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			uint64_t tp = (uint64_t)t->addr * 8 + ptort_tile_offset(t, r0 + r, c0 + c) * bits;
			uint64_t sp = (e0 + (uint64_t)r * stride + c) * bits;
			if (to_slot)
				ptort_st(slot, sp, bits, ptort_ld(base, tp, bits));
			else
				ptort_st(base, tp, bits, ptort_ld(slot, sp, bits));
		}
}

static const char *dir_name(unsigned d)
{
	return d ? "vector-to-cube" : "cube-to-vector";
}

static int fifo_ready(ptort_ctx *ctx, const char *op, unsigned d, const char *file, uint32_t line,
		      uint32_t col)
{
	if (!(ctx->cl->dir_mask >> d & 1)) {
		ptort_report(ctx, "%s: the %s FIFO is not initialised (no pipe init with that "
				  "direction ran before)", op, dir_name(d));
		return -1;
	}
	/* the consumer's init gives the depth: until it ran, wait for it */
	for (;;) {
		unsigned k;
		for (k = 0; k < 2; k++)
			if ((ctx->cl->dir_mask >> k & 1) && !ctx->cl->f[k].depth)
				break;
		if (k == 2 || ctx->cl->stored)
			break;
		if (wait_for(ctx, file, line, col, "'%s' for the pipe init that gives the %s FIFO's "
			     "depth (the one naming its reserve_buffer)", op, dir_name(k)))
			return -1;
	}
	return fifo_store(ctx, op);
}

/* A push's write or a pop's read of a slot in the GM slot buffer, recorded for the
 * cross-core race check as a GM access marked as the slot's. */
static void slot_note(ptort_ctx *ctx, const void *p, size_t n, int write)
{
	size_t k = ctx->nrec;
	ptort_gm_note(ctx, p, n, write);
	if (ctx->nrec > k)
		ctx->rec[ctx->nrec - 1].slot = 1;
}

/* The start of a tpush or tpop (`what`, as the op `op`) of tile t (its `role`) on FIFO
 * d: this core's queued work of the adversarial schedule first, then the checks of
 * the call, the tile and the FIFO. The FIFO, or NULL after reporting an error. */
static xfifo *fifo_begin(ptort_ctx *ctx, const char *what, const char *op, const char *role,
			 const ptort_tile *t, unsigned d, const char *file, uint32_t line,
			 uint32_t col)
{
	if (ctx->sched)
		ptort_sched_flush(ctx);
	if (outside(ctx, what) || ptort_check_tile(ctx, op, role, t) ||
	    fifo_ready(ctx, op, d, file, line, col))
		return NULL;
	return &ctx->cl->f[d];
}

/* The GM bytes of a part of a slot (part_at), row by row unless its rows are contiguous. */
static void note_part(ptort_ctx *ctx, uint8_t *slot, uint64_t e0, uint32_t stride, uint32_t rows,
		      uint32_t cols, unsigned bits, int write)
{
	uint32_t r;
	if (stride == cols)
		slot_note(ctx, slot + e0 * bits / 8, (size_t)((uint64_t)rows * cols * bits / 8), write);
	else
		for (r = 0; r < rows; r++)
			slot_note(ctx, slot + (e0 + (uint64_t)r * stride) * bits / 8,
				  (size_t)((uint64_t)cols * bits / 8), write);
}

int ptort_tpush_at(ptort_ctx *ctx, const ptort_tile *src, uint32_t split, const char *file,
		   uint32_t line, uint32_t col)
{
	const char *op = ctx->core == PTORT_CORE_CUBE ? "tpush_to_aiv" : "tpush_to_aic";
	ptort_cluster *cl;
	unsigned d, s, lo, hi;
	parts p;
	xfifo *f;
	d = ctx->core == PTORT_CORE_CUBE ? 0 : 1;
	if (!(f = fifo_begin(ctx, "tpush", op, "source", src, d, file, line, col)))
		return -1;
	cl = ctx->cl;
	if (d == 0) {
		if (split_parts(ctx, op, split, src->v_rows, src->v_cols, &p))
			return -1;
		lo = p.lo, hi = p.hi;
	} else {
		if (split > 2) {
			ptort_report(ctx, "%s: split %u (0, 1 or 2)", op, split);
			return -1;
		}
		if (split == 0 && ctx->sub_idx) {
			ptort_report(ctx, "%s: split 0 on vector core 1 (without a split only vector "
					  "core 0 exchanges tiles with the cube)", op);
			return -1;
		}
		lo = hi = ctx->sub_idx;
		p.rows = src->v_rows, p.cols = src->v_cols;
		p.r0[lo] = p.c0[lo] = 0;
	}
	if ((uint64_t)p.rows * p.cols * ptort_type_bits((ptort_type)src->type) / 8 > f->slot) {
		ptort_report(ctx, "%s: a part of %ux%u %s elements does not fit a slot of %u bytes",
			     op, p.rows, p.cols, ptort_type_name((ptort_type)src->type), f->slot);
		return -1;
	}
	if (f->gm && split && (uint64_t)p.rows * p.cols * 2 * ptort_type_bits((ptort_type)src->type) /
				      8 > f->slot) {
		/* A2A3: a slot of the GM slot buffer holds the cube's whole tile */
		ptort_report(ctx, "%s: the cube's tile of %ux%u %s elements (both vector cores' parts) "
				  "does not fit a slot of %u bytes of the GM slot buffer", op,
			     split == 1 ? 2 * p.rows : p.rows, split == 2 ? 2 * p.cols : p.cols,
			     ptort_type_name((ptort_type)src->type), f->slot);
		return -1;
	}
	for (;;) { /* a free slot on every receiving core */
		for (s = lo; s <= hi; s++)
			if (f->pushed[s] - f->freed[s] >= f->depth)
				break;
		if (s > hi)
			break;
		if (wait_for(ctx, file, line, col, "'%s' for a free slot of the %s FIFO of vector "
			     "core %u (%u slots, %u pushed, %u freed)", op, dir_name(d), s, f->depth,
			     f->pushed[s], f->freed[s]))
			return -1;
	}
	for (s = lo; s <= hi; s++) {
		uint32_t k = f->pushed[s] % f->depth, stride;
		uint8_t *slot = f->ring + f->tix[core_index(ctx)] % f->depth * f->stride;
		uint64_t e0 = part_at(split, s, p.rows, p.cols, &stride);
		vc_join(ctx->vc, f->free_vc[s][k]); /* the slot's last free */
		copy_part(ctx, src, slot, e0, stride, d ? 0 : p.r0[s], d ? 0 : p.c0[s], p.rows, p.cols, 1);
		if (f->gm) /* the slot is GM: the cross-core race check sees the write */
			note_part(ctx, slot, e0, stride, p.rows, p.cols,
				  ptort_type_bits((ptort_type)src->type), 1);
		f->rows[s][k] = p.rows, f->cols[s][k] = p.cols;
		f->pushed[s]++;
		memset(f->full_vc[s][k], 0, sizeof f->full_vc[s][k]);
		vc_release(f->full_vc[s][k], ctx);
	}
	f->tix[core_index(ctx)]++;
	ptort_ctx_locate(ctx, file, line, col);
	ctx->vc[core_index(ctx)]++;
	cl->progress++;
	return 0;
}

int ptort_tpop_at(ptort_ctx *ctx, const ptort_tile *dst, uint32_t split, const char *file,
		  uint32_t line, uint32_t col)
{
	const char *op = ctx->core == PTORT_CORE_CUBE ? "tpop_from_aiv" : "tpop_from_aic";
	ptort_cluster *cl;
	unsigned d, s, lo, hi;
	uint32_t rows = 0, cols = 0;
	xfifo *f;
	d = ctx->core == PTORT_CORE_CUBE ? 1 : 0;
	if (!(f = fifo_begin(ctx, "tpop", op, "destination", dst, d, file, line, col)))
		return -1;
	cl = ctx->cl;
	if (split > 2) {
		ptort_report(ctx, "%s: split %u (0, 1 or 2)", op, split);
		return -1;
	}
	if (d == 0) {
		if (split == 0 && ctx->sub_idx) {
			ptort_report(ctx, "%s: split 0 on vector core 1 (without a split only vector "
					  "core 0 exchanges tiles with the cube)", op);
			return -1;
		}
		lo = hi = ctx->sub_idx;
	} else {
		lo = 0, hi = split ? 1 : 0;
	}
	for (;;) {
		for (s = lo; s <= hi; s++)
			if (f->popped[s] >= f->pushed[s])
				break;
		if (s > hi)
			break;
		if (wait_for(ctx, file, line, col, "'%s' for data in the %s FIFO of vector core %u "
			     "(%u pushed, %u popped)", op, dir_name(d), s, f->pushed[s], f->popped[s]))
			return -1;
	}
	/* the shape the parts make */
	for (s = lo; s <= hi; s++) {
		uint32_t k = f->popped[s] % f->depth;
		if (s == lo)
			rows = f->rows[s][k], cols = f->cols[s][k];
		else if (f->rows[s][k] != f->rows[lo][f->popped[lo] % f->depth] ||
			 f->cols[s][k] != f->cols[lo][f->popped[lo] % f->depth]) {
			ptort_report(ctx, "%s: the two vector cores pushed parts of different shapes", op);
			return -1;
		}
	}
	if ((split == 1 && hi > lo ? rows * 2 : rows) != dst->v_rows ||
	    (split == 2 && hi > lo ? cols * 2 : cols) != dst->v_cols) {
		ptort_report(ctx, "%s: the slot holds %ux%u elements%s; the tile's valid region is %ux%u",
			     op, rows, cols, hi > lo ? " from each vector core" : "", dst->v_rows,
			     dst->v_cols);
		return -1;
	}
	for (s = lo; s <= hi; s++) {
		uint32_t k = f->popped[s] % f->depth, stride;
		uint8_t *slot = f->ring + f->tix[core_index(ctx)] % f->depth * f->stride;
		uint64_t e0 = part_at(split, s, rows, cols, &stride);
		vc_join(ctx->vc, f->full_vc[s][k]);
		copy_part(ctx, dst, slot, e0, stride, d && split == 1 && s ? rows : 0,
			  d && split == 2 && s ? cols : 0, rows, cols, 0);
		if (f->gm)
			note_part(ctx, slot, e0, stride, rows, cols,
				  ptort_type_bits((ptort_type)dst->type), 0);
		f->tile_mem[s][k] = dst->mem;
		f->tile_lo[s][k] = dst->addr;
		f->tile_hi[s][k] = dst->addr + (uint64_t)dst->rows * dst->cols *
					     ptort_type_bits((ptort_type)dst->type) / 8;
		f->popped[s]++;
	}
	f->tix[core_index(ctx)]++;
	ptort_ctx_locate(ctx, file, line, col);
	cl->progress++;
	return 0;
}

int ptort_tpush(ptort_ctx *ctx, const ptort_tile *src, uint32_t split)
{
	return ptort_tpush_at(ctx, src, split, NULL, 0, 0);
}

int ptort_tpop(ptort_ctx *ctx, const ptort_tile *dst, uint32_t split)
{
	return ptort_tpop_at(ctx, dst, split, NULL, 0, 0);
}

int ptort_tfree(ptort_ctx *ctx, uint32_t split, const char *file, uint32_t line, uint32_t col)
{
	const char *op = ctx->core == PTORT_CORE_CUBE ? "tfree_from_aiv" : "tfree_from_aic";
	unsigned d, s, lo, hi;
	xfifo *f;
	if (ctx->sched) /* the adversarial schedule: this core's queued work first */
		ptort_sched_flush(ctx);
	if (outside(ctx, "tfree"))
		return -1;
	d = ctx->core == PTORT_CORE_CUBE ? 1 : 0;
	if (fifo_ready(ctx, op, d, file, line, col))
		return -1;
	f = &ctx->cl->f[d];
	if (split > 2) {
		ptort_report(ctx, "%s: split %u (0, 1 or 2)", op, split);
		return -1;
	}
	if (d == 0)
		lo = hi = ctx->sub_idx;
	else
		lo = 0, hi = split ? 1 : 0;
	for (s = lo; s <= hi; s++)
		if (f->freed[s] >= f->popped[s]) {
			ptort_report(ctx, "%s: no popped slot to free in the %s FIFO of vector core %u "
					  "(%u popped, %u freed)", op, dir_name(d), s, f->popped[s], f->freed[s]);
			return -1;
		}
	for (s = lo; s <= hi; s++) {
		uint32_t k = f->freed[s] % f->depth;
		core *c = &ctx->cl->c[core_index(ctx)];
		freed *r = &c->fr[c->nfr++ % CL_FREED];
		r->mem = f->tile_mem[s][k], r->lo = f->tile_lo[s][k], r->hi = f->tile_hi[s][k];
		r->file = file, r->line = line, r->col = col;
		memset(f->free_vc[s][k], 0, sizeof f->free_vc[s][k]);
		vc_release(f->free_vc[s][k], ctx);
		f->freed[s]++;
	}
	ctx->vc[core_index(ctx)]++;
	ctx->cl->progress++;
	return 0;
}

/* An on-chip access of a core (mem.c's ptort_check_range, through ctx->hook): a read of
 * a tile popped from a slot the core freed since, before the core wrote those bytes
 * again, is an error; a write ends the freed range. -1 after reporting. */
static int cluster_access(ptort_ctx *ctx, const char *op, unsigned mem, uint64_t lo,
			  uint64_t n, int write)
{
	core *c = &ctx->cl->c[core_index(ctx)];
	unsigned i, live = c->nfr < CL_FREED ? c->nfr : CL_FREED;
	for (i = 0; i < live; i++) {
		freed *r = &c->fr[i];
		if (r->mem != mem || lo >= r->hi || lo + n <= r->lo)
			continue;
		if (write) {
			r->hi = r->lo; /* written again: the core's own data from here */
			continue;
		}
		if (r->file)
			ptort_report(ctx, "%s reads a tile popped from a FIFO slot after its free at "
					  "%s:%u:%u: the producer's next push may be writing the slot (move "
					  "the free after the tile's last use)", op, r->file, r->line, r->col);
		else
			ptort_report(ctx, "%s reads a tile popped from a FIFO slot after its free: the "
					  "producer's next push may be writing the slot", op);
		r->hi = r->lo;
		return -1;
	}
	return 0;
}

/* ---- cross-core flags ------------------------------------------------------------ */

static int flag_id(ptort_ctx *ctx, const char *op, int a5, int64_t id)
{
	if (id >= 0 && id < (a5 ? 32 : 16))
		return 0;
	ptort_report(ctx, "%s: event id %lld outside [0, %d] (%s)", op, (long long)id, a5 ? 31 : 15,
		     a5 ? "a5" : "a2a3");
	return -1;
}

static int bump(ptort_ctx *ctx, uint8_t *fl)
{
	if (*fl >= 15) {
		ptort_report(ctx, "sync.set: flag counter overflow (the counter holds 15)");
		return -1;
	}
	++*fl;
	return 0;
}

/* The head of sync.set and sync.wait: 0 when the kernel runs on one core (without
 * sections or FIFOs the call is a no-op), -1 on a bad flag id, 1 to go on. */
static int xsync_enter(ptort_ctx *ctx, const char *op, int a5, int64_t id)
{
	if (!ctx->cl)
		return 0;
	if (ctx->sched) /* the adversarial schedule: this core's queued work first */
		ptort_sched_flush(ctx);
	return flag_id(ctx, op, a5, id) ? -1 : 1;
}

int ptort_xsync_set(ptort_ctx *ctx, int a5, int64_t id, const char *file, uint32_t line,
		    uint32_t col)
{
	ptort_cluster *cl = ctx->cl;
	int rc, go = xsync_enter(ctx, "sync.set", a5, id);
	if (go <= 0)
		return go;
	cl->a5 = a5;
	if (ctx->core == PTORT_CORE_CUBE) {
		if (a5) {
			rc = bump(ctx, &cl->vflag[id / 16][id % 16]);
			vc_release(cl->vflag_vc[id / 16][id % 16], ctx);
		} else {
			rc = bump(ctx, &cl->vflag[0][id]) | bump(ctx, &cl->vflag[1][id]);
			vc_release(cl->vflag_vc[0][id], ctx);
			vc_release(cl->vflag_vc[1][id], ctx);
		}
	} else {
		rc = bump(ctx, &cl->cflag[id][a5 ? 0 : ctx->sub_idx & 1]);
		vc_release(cl->cflag_vc[id], ctx);
	}
	ctx->vc[core_index(ctx)]++;
	cl->flag_file = file, cl->flag_line = line, cl->flag_col = col;
	cl->progress++;
	return rc ? -1 : 0;
}

int ptort_xsync_wait(ptort_ctx *ctx, int a5, int64_t id, const char *file, uint32_t line,
		     uint32_t col)
{
	return ptort_xsync_wait_on(ctx, a5, PTORT_PIPE_ALL, id, file, line, col);
}

int ptort_xsync_wait_on(ptort_ctx *ctx, int a5, ptort_pipe pipe, int64_t id, const char *file,
			uint32_t line, uint32_t col)
{
	ptort_cluster *cl = ctx->cl;
	int go = xsync_enter(ctx, "sync.wait", a5, id);
	if (go <= 0)
		return go;
	for (;;) {
		uint8_t *a, *b = NULL;
		if (ctx->core == PTORT_CORE_CUBE) {
			a = &cl->cflag[id][0];
			if (!a5)
				b = &cl->cflag[id][1];
		} else {
			a = &cl->vflag[ctx->sub_idx & 1][id % 16];
		}
		if (*a && (!b || *b)) {
			--*a;
			if (b)
				--*b;
			/* A5 (an intra-block wait) stalls only its pipe; S and A2A3 the core */
			vc_join(a5 && (unsigned)pipe < PTORT_PIPE_COUNT && pipe != PTORT_PIPE_S
				? ctx->acq[pipe] : ctx->vc,
				ctx->core == PTORT_CORE_CUBE ? cl->cflag_vc[id]
				: cl->vflag_vc[ctx->sub_idx & 1][id % 16]);
			cl->progress++;
			return 0;
		}
		if (wait_for(ctx, file, line, col, "'sync.wait' for flag %lld%s", (long long)id,
			     ctx->core == PTORT_CORE_CUBE && !a5 ? " from both vector cores" : ""))
			return -1;
	}
}

/* At the end of a cluster: every FIFO drained, every flag zero. Reported on the
 * cube's context (located at the pipe init or the last set). */
static void end_checks(ptort_cluster *cl)
{
	ptort_ctx *ctx = cl->c[0].ctx;
	unsigned d, s, i, k;
	for (d = 0; d < 2; d++)
		for (s = 0; s < 2; s++) {
			xfifo *f = &cl->f[d];
			if (f->pushed[s] == f->popped[s] && f->popped[s] == f->freed[s])
				continue;
			ptort_report(ctx, "unbalanced FIFO at kernel end: the %s FIFO of vector core %u "
					  "had %u pushes, %u pops and %u frees",
				     dir_name(d), s, f->pushed[s], f->popped[s], f->freed[s]);
			ptort_ctx_locate(ctx, cl->init_file, cl->init_line, cl->init_col);
			return;
		}
	for (i = 0; i < CL_FLAGS; i++)
		for (k = 0; k < 2; k++)
			if (cl->vflag[k][i] || cl->cflag[i][k]) {
				ptort_report(ctx, "flag left set at kernel end: %s flag %u counts %u",
					     cl->vflag[k][i] ? (k ? "AIV1's" : "AIV0's") : "the cube's", i,
					     cl->vflag[k][i] ? cl->vflag[k][i] : cl->cflag[i][k]);
				ptort_ctx_locate(ctx, cl->flag_file, cl->flag_line, cl->flag_col);
				return;
			}
}

/* ---- the cross-core race check ----------------------------------------------------- */

static int lo_cmp(const void *pa, const void *pb)
{
	const ptort_gm_rec *a = pa, *b = pb;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Whether access x happens before access y: y's clock knows x's epoch of x's core. */
static int happens_before(const ptort_gm_rec *x, const ptort_gm_rec *y)
{
	return y->vc[x->core - 1] >= x->vc[x->core - 1];
}

/* Two GM accesses of different cores of the cluster on a common byte, one a write,
 * neither ordered before the other by a FIFO or a flag: reported on the core of the
 * access later in address order (then program order), the other as a note. Returns
 * that core, -1 when there is none (or no memory to look: the check is skipped). */
static int race_check(ptort_cluster *cl, char *notes, size_t nn)
{
	size_t n = 0, k = 0, i, j;
	ptort_gm_rec *all;
	unsigned c;
	for (c = 0; c < 3; c++)
		n += cl->c[c].ctx->nrec;
	if (n < 2 || !(all = malloc(n * sizeof *all)))
		return -1;
	for (c = 0; c < 3; c++) {
		if (cl->c[c].ctx->nrec)
			memcpy(all + k, cl->c[c].ctx->rec, cl->c[c].ctx->nrec * sizeof *all);
		k += cl->c[c].ctx->nrec;
	}
	qsort(all, n, sizeof *all, lo_cmp);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n && all[j].lo < all[i].hi; j++) {
			const ptort_gm_rec *a = &all[i], *b = &all[j];
			uintptr_t lo = b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
			ptort_ctx *ctx;
			if (!a->core || !b->core || a->core == b->core || !(a->write || b->write) ||
			    happens_before(a, b) || happens_before(b, a))
				continue;
			ctx = cl->c[b->core - 1].ctx;
			ptort_report(ctx, "cross-core race on GM: %s %s %llu bytes%s that %s %s%s; no FIFO "
					  "push/pop or cross-core flag orders the two accesses",
				     core_names[b->core - 1], b->write ? "writes" : "reads",
				     (unsigned long long)(hi - lo),
				     b->slot ? (b->write ? " of a FIFO slot (its push)" : " of a FIFO slot (its pop)") : "",
				     core_names[a->core - 1], a->write ? "writes" : "reads",
				     a->slot ? (a->write ? " (pushing into the FIFO slot)" : " (popping the FIFO slot)") : "");
			ptort_ctx_locate(ctx, b->file, b->line, b->col);
			if (nn && a->file)
				snprintf(notes, nn, "%s:%u:%u: note: %s's access\n", a->file, a->line, a->col,
					 core_names[a->core - 1]);
			free(all);
			return (int)b->core - 1;
		}
	free(all);
	return -1;
}
