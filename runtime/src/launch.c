/* launch.c: many blocks at once (ptort.h section 7, docs/runtime.md "Many blocks").
 *
 * ptort_launch_run runs blocks 0..N-1 of a kernel over T worker threads: the calling
 * thread is worker 0 and T-1 threads are started (one that fails to start leaves its
 * share to the others: results do not depend on T). Each worker owns one context
 * (ctx_create) and runs its blocks in it, one after another, the on-chip memories
 * zeroed before every block as far as anything may have written them (ctx->dirty: the
 * furthest footprint an instruction checked, all of a memory ptort_mem_base gave out),
 * so a block sees exactly what a fresh context gives. The only shared mutable state is the GM the
 * blocks write and the next-block counter (under a mutex); every block's results
 * (error, GM access records, tprint text) go to its own slot, read after the join.
 *
 * Race check: with tracking on, the DMA records the GM bytes each instruction reads
 * and writes (ptort_gm_note in dma.c, contiguous pieces of one instruction merged,
 * located by ptort_ctx_locate). After the run all records are sorted by start address
 * and swept once: a record conflicts with an earlier one of another block when that
 * one ends after it starts and one of the two writes. For each kind (read, write) the
 * sweep keeps the record that ends last and the one that ends last among the other
 * blocks, which is enough to find, exactly, the other-block record ending last before
 * any record: O(R log R) for R records. The first conflict in address order is
 * reported. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#define LAUNCH_THREADS 1
#else
#define LAUNCH_THREADS 0
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if LAUNCH_THREADS
#include <pthread.h>
#include <unistd.h>
#endif

#include "mem_internal.h"
#include "ptort.h"

#define LAUNCH_MAX_THREADS PTORT_MAX_THREADS

/* What one block left behind. */
typedef struct blk {
	int failed, oom;
	char msg[256];
	const char *file;
	uint32_t line, col;
	ptort_gm_rec *rec;
	size_t nrec;
	char notes[1024]; /* a deadlocked cluster's notes */
	char *text; /* tprint output, when captured */
	size_t ntext, captext;
} blk;

typedef struct launch_state {
	const ptort_launch *l;
	blk *b;
	int capture; /* tprint text into the blocks' slots (more than one worker) */
	int track;
#if LAUNCH_THREADS
	pthread_mutex_t mu;
#endif
	uint32_t next;
	int stop;
	int nomem; /* a worker could not create its context */
} launch_state;

uint32_t ptort_launch_threads(uint32_t threads, uint32_t blocks)
{
	if (!threads) {
#if LAUNCH_THREADS
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n > 0 ? (n > (long)LAUNCH_MAX_THREADS ? LAUNCH_MAX_THREADS : (uint32_t)n) : 1;
#else
		threads = 1;
#endif
	}
	if (threads > LAUNCH_MAX_THREADS)
		threads = LAUNCH_MAX_THREADS;
	if (threads > blocks)
		threads = blocks;
	return threads ? threads : 1;
}

static void capture(void *user, const char *s, size_t n)
{
	blk *b = user;
	if (b->oom || !n)
		return;
	if (b->ntext + n > b->captext && ptort_reserve(&b->text, &b->captext, b->ntext + n)) {
		b->oom = 1;
		return;
	}
	memcpy(b->text + b->ntext, s, n);
	b->ntext += n;
}

/* The next block to run, or the block count when none is left. */
static uint32_t take(launch_state *st)
{
	uint32_t b;
#if LAUNCH_THREADS
	pthread_mutex_lock(&st->mu);
#endif
	b = st->stop ? st->l->blocks : st->next;
	if (b < st->l->blocks)
		st->next++;
#if LAUNCH_THREADS
	pthread_mutex_unlock(&st->mu);
#endif
	return b;
}

static void stop_all(launch_state *st, int nomem)
{
#if LAUNCH_THREADS
	pthread_mutex_lock(&st->mu);
#endif
	st->stop = 1;
	if (nomem)
		st->nomem = 1;
#if LAUNCH_THREADS
	pthread_mutex_unlock(&st->mu);
#endif
}

/* Sets up ctx to run block b (memories zeroed as far as written, no error, the block,
 * tracking, the print sink). */
static void ctx_prepare(launch_state *st, ptort_ctx *ctx, uint32_t b)
{
	const ptort_launch *l = st->l;
	unsigned m;
	for (m = 0; m < PTORT_MEM_COUNT; m++) {
		memset(ctx->mem[m], 0, ctx->dirty[m]);
		ctx->dirty[m] = 0;
	}
	ptort_ctx_clear_error(ctx);
	ctx->block_idx = b;
	ctx->block_num = l->blocks;
	ctx->track = st->track;
	ctx->track_oom = 0;
	ctx->nrec = ctx->located = 0;
	if (st->capture)
		ptort_ctx_set_print(ctx, capture, &st->b[b]);
	else
		ptort_ctx_set_print(ctx, l->print, l->print_user);
}

/* Moves ctx's GM records to block slot s (appended); 0, or -1 out of memory. */
static int ctx_collect(ptort_ctx *ctx, blk *s)
{
	if (!s->rec) {
		s->rec = ctx->rec;
		s->nrec = ctx->nrec;
		ctx->rec = NULL;
		ctx->caprec = 0;
	} else if (ctx->nrec) {
		ptort_gm_rec *q = realloc(s->rec, (s->nrec + ctx->nrec) * sizeof *q);
		if (!q)
			return -1;
		memcpy(q + s->nrec, ctx->rec, ctx->nrec * sizeof *q);
		s->rec = q;
		s->nrec += ctx->nrec;
	}
	ctx->nrec = ctx->located = 0;
	if (ctx->track_oom)
		s->oom = 1;
	return 0;
}

static void fail_block(launch_state *st, blk *s, ptort_ctx *ctx)
{
	s->failed = 1;
	snprintf(s->msg, sizeof s->msg, "%s", ptort_ctx_error(ctx));
	s->file = ptort_ctx_error_loc(ctx, &s->line, &s->col);
	stop_all(st, 0);
}

static void *worker(void *arg)
{
	launch_state *st = arg;
	const ptort_launch *l = st->l;
	int cluster = (l->flags & PTORT_LAUNCH_CLUSTER) != 0;
	ptort_cluster *cl = cluster ? ptort_cluster_create(l->ctx_create) : NULL;
	ptort_ctx *ctx = cluster ? NULL : l->ctx_create();
	uint32_t b;
	if (cluster ? !cl : !ctx) {
		stop_all(st, 1);
		return NULL;
	}
	while ((b = take(st)) < l->blocks) {
		blk *s = &st->b[b];
		if (cluster) {
			unsigned i;
			int f;
			for (i = 0; i < 3; i++) {
				ctx_prepare(st, ptort_cluster_ctx(cl, i), b);
				ptort_cluster_ctx(cl, i)->track = 1; /* the cross-core race check */
			}
			f = ptort_cluster_run(cl, l->run, l->user, s->notes, sizeof s->notes);
			for (i = 0; i < 3; i++)
				if (ctx_collect(ptort_cluster_ctx(cl, i), s))
					s->oom = 1;
			if (f >= 0)
				fail_block(st, s, ptort_cluster_ctx(cl, (unsigned)f));
			continue;
		}
		ctx_prepare(st, ctx, b);
		l->run(ctx, l->user);
		/* the records of this block move to its slot */
		ctx_collect(ctx, s);
		if (ptort_ctx_error(ctx))
			fail_block(st, s, ctx);
	}
	ptort_ctx_destroy(ctx);
	ptort_cluster_destroy(cl);
	return NULL;
}

static int rec_cmp(const void *pa, const void *pb)
{
	const ptort_gm_rec *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	if (a->write != b->write)
		return a->write < b->write ? -1 : 1;
	return 0;
}

/* The record ending last (e1) and the one ending last among the other blocks (e2). */
typedef struct top2 {
	const ptort_gm_rec *e1, *e2;
} top2;

static void top2_add(top2 *t, const ptort_gm_rec *r)
{
	if (t->e1 && t->e1->block == r->block) {
		if (r->hi > t->e1->hi)
			t->e1 = r;
	} else if (!t->e1 || r->hi > t->e1->hi) {
		t->e2 = t->e1;
		t->e1 = r;
	} else if (!t->e2 || r->hi > t->e2->hi) {
		t->e2 = r;
	}
}

/* The record of another block than `block` ending last, or NULL. */
static const ptort_gm_rec *top2_other(const top2 *t, uint32_t block)
{
	return t->e1 && t->e1->block != block ? t->e1 : t->e2;
}

static void set_acc(ptort_gm_access *a, const ptort_gm_rec *r)
{
	a->block = r->block;
	a->write = (int)r->write;
	a->file = r->file;
	a->line = r->line;
	a->col = r->col;
}

/* The race check over every block's records; 0 (none), 1 (reported in rep), -1 (out of
 * memory). */
static int race_check(const launch_state *st, ptort_launch_report *rep)
{
	uint32_t n = st->l->blocks, b;
	size_t total = 0, k = 0, i;
	ptort_gm_rec *all;
	top2 w = {NULL, NULL}, r = {NULL, NULL};
	int found = 0;
	for (b = 0; b < n; b++)
		total += st->b[b].nrec;
	if (!total)
		return 0;
	all = total < ((size_t)-1) / sizeof *all ? malloc(total * sizeof *all) : NULL;
	if (!all)
		return -1;
	for (b = 0; b < n; b++)
		if (st->b[b].nrec) {
			memcpy(all + k, st->b[b].rec, st->b[b].nrec * sizeof *all);
			k += st->b[b].nrec;
		}
	qsort(all, total, sizeof *all, rec_cmp);
	for (i = 0; i < total && !found; i++) {
		const ptort_gm_rec *c = &all[i], *o, *wr = NULL, *other = NULL;
		o = top2_other(&w, c->block);
		if (o && o->hi > c->lo) /* c against an earlier write */
			wr = o, other = c;
		if (!wr && c->write) {
			o = top2_other(&r, c->block);
			if (o && o->hi > c->lo) /* c writes what another block reads */
				wr = c, other = o;
		}
		if (wr) {
			const ptort_gm_rec *x = wr, *y = other;
			if (x->write && y->write && y->block < x->block)
				x = other, y = wr; /* two writes: the lower block first */
			rep->status = PTORT_LAUNCH_RACE;
			rep->lo = c->lo;
			rep->hi = o->hi < c->hi ? o->hi : c->hi;
			set_acc(&rep->acc[0], x);
			set_acc(&rep->acc[1], y);
			found = 1;
		}
		top2_add(c->write ? &w : &r, c);
	}
	free(all);
	return found;
}

ptort_launch_status ptort_launch_run(const ptort_launch *l, ptort_launch_report *rep)
{
	ptort_launch_report dummy;
	launch_state st;
	uint32_t t, i, b, nthr;
	int fail = -1, oom = 0;
#if LAUNCH_THREADS
	pthread_t *tid = NULL;
	uint32_t started = 0;
#endif
	if (!rep)
		rep = &dummy;
	memset(rep, 0, sizeof *rep);
	if (!l || !l->blocks || !l->ctx_create || !l->run) {
		rep->status = PTORT_LAUNCH_BAD;
		snprintf(rep->message, sizeof rep->message, "launch: %s",
			 !l ? "no launch description" : !l->blocks ? "zero blocks"
							   : "no ctx_create or run function");
		return rep->status;
	}
	nthr = ptort_launch_threads(l->threads, l->blocks);
	memset(&st, 0, sizeof st);
	st.l = l;
	st.capture = nthr > 1;
	st.track = l->blocks > 1 && !(l->flags & PTORT_LAUNCH_NO_RACE_CHECK);
	st.b = calloc(l->blocks, sizeof *st.b);
	if (!st.b) {
		rep->status = PTORT_LAUNCH_NOMEM;
		snprintf(rep->message, sizeof rep->message, "out of memory");
		return rep->status;
	}
	t = 1;
#if LAUNCH_THREADS
	pthread_mutex_init(&st.mu, NULL);
	if (nthr > 1) {
		tid = calloc(nthr, sizeof *tid);
		for (i = 1; tid && i < nthr; i++)
			if (!pthread_create(&tid[started], NULL, worker, &st))
				started++;
		t += started;
	}
#endif
	worker(&st);
#if LAUNCH_THREADS
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	pthread_mutex_destroy(&st.mu);
#endif
	rep->threads = t;
	for (b = 0; b < l->blocks; b++) {
		if (st.b[b].failed && fail < 0)
			fail = (int)b;
		if (st.b[b].oom)
			oom = 1;
	}
	/* the captured text, block by block, up to the failed block */
	for (b = 0; st.capture && b < l->blocks && (fail < 0 || b <= (uint32_t)fail); b++) {
		if (!st.b[b].ntext)
			continue;
		if (l->print)
			l->print(l->print_user, st.b[b].text, st.b[b].ntext);
		else
			fwrite(st.b[b].text, 1, st.b[b].ntext, stdout);
	}
	if (!l->print)
		fflush(stdout);
	if (st.nomem || oom) {
		rep->status = PTORT_LAUNCH_NOMEM;
	} else if (fail >= 0) {
		blk *s = &st.b[fail];
		rep->status = PTORT_LAUNCH_ERROR;
		rep->block = (uint32_t)fail;
		memcpy(rep->message, s->msg, sizeof rep->message);
		rep->file = s->file;
		rep->line = s->line;
		rep->col = s->col;
		memcpy(rep->notes, s->notes, sizeof rep->notes);
	} else if (st.track && race_check(&st, rep) < 0) {
		rep->status = PTORT_LAUNCH_NOMEM;
	}
	if (rep->status == PTORT_LAUNCH_NOMEM)
		snprintf(rep->message, sizeof rep->message, "out of memory");
	for (b = 0; b < l->blocks; b++) {
		free(st.b[b].rec);
		free(st.b[b].text);
	}
	free(st.b);
	return rep->status;
}
