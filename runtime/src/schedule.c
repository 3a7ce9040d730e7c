/* schedule.c: the adversarial schedule (ptort_sync.h; docs/semantics.md §8.8b,
 * docs/sync-check.md "The adversarial schedule").
 *
 * While a context runs it, each instruction call of a pipe other than S hands itself
 * to ptort_sync_defer (insn_entry.c: its arguments copied, a function that makes the
 * call later) instead of executing; the instruction's ptort_ctx_locate and
 * ptort_sync_op then give it its location and its pipe, and it joins that pipe's
 * queue. set_flag,
 * wait_flag and pipe_barrier of a pipe other than S join the queue of their pipe
 * (a set its source's, a wait its destination's). S runs at issue: its instructions
 * execute when called, a set_flag on S fires at once, a wait_flag on S first runs
 * queued work until its set has fired, pipe_barrier(PIPE_ALL) and the end of the
 * kernel (ptort_sync_drain) run everything.
 *
 * Running queued work: among the items that may run, always the one issued last. An
 * item may run when
 *   in a pipe that executes in order (the target's, ptort_sync_target): it is the
 *     first of its queue not run (and, a wait, its set has fired);
 *   in another pipe: an instruction when no wait or barrier issued before it on its
 *     pipe is still queued (the instructions between two such fences run in any
 *     order: last first); a wait when it is its pipe's first fence and its set has
 *     fired; a set or a barrier when everything issued before it on its pipe has run.
 * The k-th wait of a flag needs the k-th set of the flag (sets of one flag run in
 * their order: each waits for everything before it on its pipe). Every order this
 * allows keeps each pair that the sync sanitizer's happens-before orders (sanitize.c):
 * a kernel the sanitizer finds clean computes the same bits as in program order.
 *
 * Per pipe, the items in issue order (q), the first not run (head), the first fence
 * not run (fence), and the instructions before that fence not run as a stack in
 * issue order (stk: its top is the latest). A step takes the latest candidate of the
 * seven pipes, so each item costs O(1) apart from the pipes' scan.
 *
 * Cross-core calls (FIFOs, cross-core flags), tprint and calls the scheduler cannot
 * hold run at issue after ptort_sched_flush ran every queued item that can run.
 *
 * Above the sanitizer (it calls ptort_san_begin and ptort_san_end), below the cluster
 * and sync.c, which call it; mem.c reaches it through ctx->hook. */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "sanitize_internal.h"

#define NP PTORT_PIPE_COUNT
#define NKEY (NP * NP * PTORT_EVENT_IDS)
#define NONE ((size_t)-1)

enum { IT_INSN, IT_SET, IT_WAIT, IT_BAR };

typedef struct sitem {
	void (*run)(ptort_ctx *ctx, const void *args);
	size_t off;      /* the arguments, in the arena */
	const char *file;
	uint32_t line, col;
	uint32_t ev;     /* the sanitizer's event + 1 (0: none) */
	uint32_t ord;    /* a wait: which set of its flag it needs (1 the first) */
	uint16_t key;    /* a set or wait: its flag */
	uint8_t kind, pipe, done;
} sitem;

typedef struct squeue {
	uint32_t *q;
	size_t n, cap, head, fence, scan; /* scan: items before it were looked at */
	uint32_t *stk;
	size_t nstk, capstk;
} squeue;

struct ptort_sched {
	unsigned inorder;
	int running;      /* inside a drain: calls made by queued work do not drain */
	int unbound;      /* the last deferred instruction still waits for its pipe */
	int oom;
	sitem *it;
	size_t nit, capit, pending;
	unsigned char *arena;
	size_t narena, caparena;
	squeue p[NP];
	uint32_t fired[NKEY], waits[NKEY];
};

static void sched_free(ptort_ctx *ctx);
static void sched_locate(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col);

int ptort_sync_schedule(ptort_ctx *ctx, int adversarial)
{
	if (!ctx)
		return -1;
	if (!adversarial) {
		sched_free(ctx);
		return 0;
	}
	if (ctx->sched)
		return 0;
	ctx->sched = calloc(1, sizeof *ctx->sched);
	if (!ctx->sched)
		return -1;
	ctx->hook.sched_locate = sched_locate;
	ctx->hook.sched_free = sched_free;
	ctx->sched->inorder = 1u << PTORT_PIPE_S;
	return 0;
}

/* ptort_ctx_destroy's (through ctx->hook) */
static void sched_free(ptort_ctx *ctx)
{
	struct ptort_sched *s = ctx->sched;
	unsigned p;
	if (!s)
		return;
	for (p = 0; p < NP; p++) {
		free(s->p[p].q);
		free(s->p[p].stk);
	}
	free(s->it);
	free(s->arena);
	free(s);
	ctx->sched = NULL;
}

/* Forgets every item (nothing queued, or what a deadlock left). */
static void reset(struct ptort_sched *s)
{
	unsigned p;
	for (p = 0; p < NP; p++) {
		squeue *q = &s->p[p];
		q->n = q->head = q->scan = q->nstk = 0;
		q->fence = NONE;
	}
	s->nit = s->pending = s->narena = 0;
	s->unbound = 0;
}

int ptort_sched_enter(ptort_ctx *ctx, unsigned inorder)
{
	struct ptort_sched *s = ctx->sched;
	if (!s)
		return 0;
	/* a kernel starts (emit-c's functions call none): no flag set, nothing queued */
	s->inorder = (inorder | 1u << PTORT_PIPE_S) & ((1u << NP) - 1);
	reset(s);
	memset(s->fired, 0, sizeof s->fired);
	memset(s->waits, 0, sizeof s->waits);
	return 1;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *q;
	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* A new item (kind, on pipe p not yet known for an instruction); NULL out of memory. */
static sitem *new_item(ptort_ctx *ctx, int kind)
{
	struct ptort_sched *s = ctx->sched;
	sitem *x;
	if (s->oom || grow((void **)&s->it, &s->capit, s->nit + 1, sizeof *s->it)) {
		if (!s->oom)
			ptort_report(ctx, "adversarial schedule: out of memory");
		s->oom = 1;
		return NULL;
	}
	x = &s->it[s->nit++];
	memset(x, 0, sizeof *x);
	x->kind = (uint8_t)kind;
	return x;
}

static int is_fence(const sitem *x)
{
	return x->kind == IT_WAIT || x->kind == IT_BAR;
}

/* Appends item i to pipe p's queue. */
static void enqueue(ptort_ctx *ctx, unsigned p, uint32_t i)
{
	struct ptort_sched *s = ctx->sched;
	squeue *q = &s->p[p];
	sitem *x = &s->it[i];
	x->pipe = (uint8_t)p;
	if (grow((void **)&q->q, &q->cap, q->n + 1, sizeof *q->q) ||
	    grow((void **)&q->stk, &q->capstk, q->nstk + 1, sizeof *q->stk)) {
		if (!s->oom)
			ptort_report(ctx, "adversarial schedule: out of memory");
		s->oom = 1;
		x->done = 1;
		return;
	}
	if (!q->n)
		q->fence = NONE, q->scan = 0;
	q->q[q->n++] = i;
	s->pending++;
	if (q->fence != NONE || s->inorder >> p & 1) /* in order: only the head runs */
		return;
	/* no fence queued before it: an instruction may run, a fence becomes the first */
	if (is_fence(x))
		q->fence = q->n - 1;
	else if (x->kind == IT_INSN)
		q->stk[q->nstk++] = i;
	q->scan = q->n;
}

static unsigned key_of(ptort_pipe src, ptort_pipe dst, int64_t event)
{
	return ((unsigned)src * NP + (unsigned)dst) * PTORT_EVENT_IDS + (unsigned)event;
}

void ptort_sync_defer(ptort_ctx *ctx, void (*run)(ptort_ctx *ctx, const void *args),
		      const void *args, size_t size)
{
	struct ptort_sched *s;
	sitem *x;
	size_t off;
	if (!ctx)
		return;
	s = ctx->sched;
	if (!s || s->running) { /* not deferring: the call now */
		run(ctx, args);
		return;
	}
	off = (s->narena + 15) & ~(size_t)15;
	if (!s->oom && grow((void **)&s->arena, &s->caparena, off + size + 1, 1)) {
		ptort_report(ctx, "adversarial schedule: out of memory");
		s->oom = 1;
	}
	if (s->oom || !(x = new_item(ctx, IT_INSN))) {
		run(ctx, args);
		return;
	}
	memcpy(s->arena + off, args, size);
	s->narena = off + size;
	x->run = run;
	x->off = off;
	s->unbound = 1;
}

int ptort_sched_defers(const ptort_ctx *ctx)
{
	return !ctx->sched->running;
}

/* the location of the instruction just deferred (ptort_ctx_locate, through ctx->hook) */
static void sched_locate(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col)
{
	struct ptort_sched *s = ctx->sched;
	sitem *x;
	if (!s->unbound)
		return;
	x = &s->it[s->nit - 1];
	x->file = file, x->line = line, x->col = col;
}

static void run_item(ptort_ctx *ctx, uint32_t i);

int ptort_sched_bind(ptort_ctx *ctx, ptort_pipe pipe, uint32_t ev)
{
	struct ptort_sched *s = ctx->sched;
	uint32_t i;
	if (!s || !s->unbound)
		return 0;
	s->unbound = 0;
	i = (uint32_t)(s->nit - 1);
	s->it[i].ev = ev;
	if ((unsigned)pipe >= NP || pipe == PTORT_PIPE_S) { /* S runs at issue */
		s->it[i].pipe = PTORT_PIPE_S;
		s->pending++;
		run_item(ctx, i);
		return 1;
	}
	enqueue(ctx, (unsigned)pipe, i);
	return 1;
}

/* ---- running the queues ------------------------------------------------------------ */

static int wait_ready(const struct ptort_sched *s, const sitem *x)
{
	return s->fired[x->key] >= x->ord;
}

/* Item q->q[k] has run: moves the head and, when it was the first fence, the fence. */
static void advance(struct ptort_sched *s, squeue *q)
{
	while (q->head < q->n && s->it[q->q[q->head]].done)
		q->head++;
	if (q->fence != NONE && s->it[q->q[q->fence]].done) {
		/* the instructions up to the next fence may run */
		size_t k;
		q->fence = NONE;
		for (k = q->scan; k < q->n; k++) {
			const sitem *x = &s->it[q->q[k]];
			if (x->done)
				continue;
			if (is_fence(x)) {
				q->fence = k;
				break;
			}
			if (x->kind == IT_INSN)
				q->stk[q->nstk++] = q->q[k];
		}
		q->scan = q->fence != NONE ? q->fence + 1 : q->n;
	}
	while (q->nstk && s->it[q->stk[q->nstk - 1]].done)
		q->nstk--;
	if (q->head == q->n) { /* empty: start again at the front */
		q->n = q->head = q->scan = q->nstk = 0;
		q->fence = NONE;
	}
}

/* The latest item of pipe p that may run, or NONE. */
static size_t candidate(const struct ptort_sched *s, unsigned p)
{
	const squeue *q = &s->p[p];
	size_t best = NONE;
	const sitem *h;
	if (q->head >= q->n)
		return NONE;
	h = &s->it[q->q[q->head]];
	if (s->inorder >> p & 1) /* only the first */
		return h->kind != IT_WAIT || wait_ready(s, h) ? q->q[q->head] : NONE;
	if (q->nstk)
		best = q->stk[q->nstk - 1];
	if (q->fence != NONE) {
		const sitem *f = &s->it[q->q[q->fence]];
		if (f->kind == IT_WAIT ? wait_ready(s, f) : q->fence == q->head)
			return q->q[q->fence]; /* issued after every instruction of the stack */
	}
	if (h->kind == IT_SET && (best == NONE || q->q[q->head] > best))
		best = q->q[q->head]; /* everything before it on its pipe has run */
	return best;
}

static void run_item(ptort_ctx *ctx, uint32_t i)
{
	struct ptort_sched *s = ctx->sched;
	sitem *x = &s->it[i];
	s->running = 1;
	if (x->kind == IT_INSN) {
		size_t a0 = ctx->san ? ptort_san_begin(ctx) : 0;
		x->run(ctx, s->arena + x->off);
		x = &s->it[i];
		ptort_ctx_locate(ctx, x->file, x->line, x->col);
		if (ctx->san)
			ptort_san_end(ctx, x->ev, a0);
	} else if (x->kind == IT_SET) {
		s->fired[x->key]++;
	}
	s->running = 0;
	x->done = 1;
	s->pending--;
}

/* Runs one item (the latest that may run); 0 when none can. */
static int step(ptort_ctx *ctx)
{
	struct ptort_sched *s = ctx->sched;
	size_t best = NONE;
	unsigned p, bp = 0;
	for (p = 0; p < NP; p++) {
		size_t c = candidate(s, p);
		if (c != NONE && (best == NONE || c > best))
			best = c, bp = p;
	}
	if (best == NONE)
		return 0;
	if (s->p[bp].nstk && s->p[bp].stk[s->p[bp].nstk - 1] == best)
		s->p[bp].nstk--;
	run_item(ctx, (uint32_t)best);
	advance(s, &s->p[bp]);
	return 1;
}

/* The wait the queues are stuck at (the first issued at a pipe's fence or head), for
 * the deadlock report; NULL when none. */
static const sitem *stuck_wait(const struct ptort_sched *s)
{
	const sitem *w = NULL;
	unsigned p;
	for (p = 0; p < NP; p++) {
		const squeue *q = &s->p[p];
		size_t k = s->inorder >> p & 1 ? q->head : q->fence;
		if (k != NONE && k < q->n && s->it[q->q[k]].kind == IT_WAIT &&
		    (!w || &s->it[q->q[k]] < w))
			w = &s->it[q->q[k]];
	}
	return w;
}

static void deadlock(ptort_ctx *ctx, const sitem *w, unsigned src, unsigned dst, int event,
		     const char *file, uint32_t line, uint32_t col, const char *what)
{
	if (ctx->san) /* the sanitizer reports it, with what each blocked pipe waits for */
		return;
	if (w) {
		unsigned k = w->key;
		src = k / PTORT_EVENT_IDS / NP, dst = k / PTORT_EVENT_IDS % NP;
		event = (int)(k % PTORT_EVENT_IDS);
		file = w->file, line = w->line, col = w->col;
	}
	ptort_report(ctx, "sync deadlock under the adversarial schedule: wait_flag[<%s>, <%s>, "
		     "<EVENT_ID%d>] never sees its set_flag%s (--sync-check says why)",
		     ptort_pipe_name((ptort_pipe)src), ptort_pipe_name((ptort_pipe)dst), event,
		     what);
	ptort_ctx_locate(ctx, file, line, col);
}

/* Runs queued work until the flag `key` has fired `ord` sets (key NONE: until every
 * queue is empty). Returns 0, or -1 when the queues are stuck first. */
static int drain(ptort_ctx *ctx, size_t key, uint32_t ord)
{
	struct ptort_sched *s = ctx->sched;
	for (;;) {
		if (key == NONE ? !s->pending : s->fired[key] >= ord)
			return 0;
		if (!step(ctx))
			return -1;
	}
}

void ptort_sched_flush(ptort_ctx *ctx)
{
	struct ptort_sched *s = ctx->sched;
	if (s && !s->running)
		(void)drain(ctx, NONE, 0);
}

void ptort_sync_drain(ptort_ctx *ctx)
{
	struct ptort_sched *s;
	if (!ctx || !(s = ctx->sched) || s->running)
		return;
	if (drain(ctx, NONE, 0)) {
		deadlock(ctx, stuck_wait(s), 0, 0, 0, NULL, 0, 0, " before the kernel ends");
		reset(s); /* what is stuck never runs */
	}
}

/* ---- the sync calls (sync.c) -------------------------------------------------------- */

void ptort_sched_sync(ptort_ctx *ctx, int kind, ptort_pipe src, ptort_pipe dst, int64_t event,
		      const char *file, uint32_t line, uint32_t col, uint32_t ev)
{
	struct ptort_sched *s = ctx->sched;
	sitem *x;
	unsigned key = 0, p;
	if (s->running)
		return;
	if (kind != SAN_BAR)
		key = key_of(src, dst, event);
	if (kind == SAN_BAR && src == PTORT_PIPE_ALL) {
		if (drain(ctx, NONE, 0))
			deadlock(ctx, stuck_wait(s), 0, 0, 0, NULL, 0, 0, ", so barrier <PIPE_ALL> waits forever");
		return;
	}
	if (kind == SAN_WAIT) {
		uint32_t ord = ++s->waits[key];
		if (dst == PTORT_PIPE_S) { /* the scalar unit stops until the set has fired */
			if (drain(ctx, key, ord))
				deadlock(ctx, NULL, (unsigned)src, (unsigned)dst, (int)event, file, line,
					 col, "");
			return;
		}
		p = (unsigned)dst;
		if (!(x = new_item(ctx, IT_WAIT)))
			return;
		x->ord = ord;
	} else if (kind == SAN_SET) {
		if (src == PTORT_PIPE_S) { /* S ran everything before it */
			s->fired[key]++;
			return;
		}
		p = (unsigned)src;
		if (!(x = new_item(ctx, IT_SET)))
			return;
	} else {
		if (src == PTORT_PIPE_S)
			return;
		p = (unsigned)src;
		if (!(x = new_item(ctx, IT_BAR)))
			return;
	}
	x->key = (uint16_t)key;
	x->file = file, x->line = line, x->col = col;
	x->ev = ev;
	enqueue(ctx, p, (uint32_t)(s->nit - 1));
}
