/* sanitize.c: the sync sanitizer (ptort_sync.h; docs/semantics.md §8.8a,
 * docs/sync-check.md).
 *
 * Recording: while ctx->san is set, ptort_check_range (mem.c, through ctx->hook) and
 * ptort_gm_note (dma.c, view.c) add the bytes the running instruction touches to a
 * pending list, and ptort_sync_op (sync.c), which generated code calls after each
 * instruction, closes the instruction as one trace event (ptort_san_op) with its pipe
 * and the location ptort_ctx_locate gave. The sync calls (sync.c) add set, wait and
 * barrier events. Below the schedule and the cluster: this file calls neither.
 *
 * Checking (ptort_sync_finish): the trace is replayed through the pipe model. The
 * scalar unit dispatches events in program order; an S event runs at dispatch (a
 * wait_flag on S blocks dispatch until its set has run), a barrier of PIPE_ALL waits
 * until every earlier event ran; every other event joins its pipe's queue, which runs
 * in order (a wait_flag at the head blocks its queue until its set ran). Among the
 * events that can run, the replay runs the one issued first. Happens-before is kept as
 * vector clocks: F[P] is what every later event of pipe P is ordered after, one issue
 * number per pipe (a prefix: all events of that pipe up to the number). An in-order
 * pipe advances its own component after each event; set_flag(P, Q) carries F[P] with
 * its own issue number for P (it fires when all earlier P work is done); the k-th
 * wait_flag of a flag joins the k-th set's clock into F[Q]; pipe_barrier(P) sets
 * F[P][P]; pipe_barrier(PIPE_ALL) orders everything before it before everything after.
 * Shadow memory: one cell per 32-byte granule of each on-chip memory and per 4-byte
 * granule of GM (a hash table): the last writer and the last reader per pipe (event
 * numbers); an access conflicts with a writer or reader of another event whose number
 * its clock does not cover. Findings go to sanitize_report.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "sanitize_internal.h"

#define NP PTORT_PIPE_COUNT
#define NLIST (NP + 1) /* the pipes' queues and the PIPE_ALL barriers */
#define NSPACE (PTORT_MEM_COUNT + 1)
#define NKEY (NP * NP * PTORT_EVENT_IDS)

enum { EV_INSN, EV_SET, EV_WAIT, EV_BAR };

typedef struct san_acc {
	uint64_t lo, hi;
	uint8_t space, write;
} san_acc;

typedef struct san_ev {
	uint8_t kind, pipe, src, dst; /* pipe: the queue (NP for a PIPE_ALL barrier) */
	int32_t event;
	const char *file;
	uint32_t line, col;
	size_t acc0, nacc;
} san_ev;

/* A shadow cell: event numbers (index + 1; 0 none) of the last writer (with its pipe
 * in the top bits: WPIPE) and of the last reader on each pipe. */
typedef struct cell {
	uint32_t w, r[NP];
} cell;
#define WSHIFT 29 /* event numbers stay below 2^29 (push) */
#define WNUM(w) ((w) & ((1u << WSHIFT) - 1))
#define WPIPE(w) ((w) >> WSHIFT)

/* GM shadow: chunks of 2^GM_CHUNK_SHIFT granules (512 bytes of GM, a 4 KiB page of shadow:
 * below malloc's mmap threshold), found by a hash of the chunk number; at most
 * GM_KEEP chunks are kept, zeroed, for the next run (a run touching rows far apart no
 * longer maps and unmaps a chunk per row) */
#define GM_CHUNK_SHIFT 7
#define GM_KEEP 16384
#define GM_SLAB 64
typedef struct gmchunk {
	uint64_t key; /* chunk number + 1; 0 empty */
	cell *c;
} gmchunk;

struct ptort_san {
	unsigned inorder;
	san_ev *ev;
	size_t nev, capev;
	san_acc *acc;
	size_t nacc, capacc, pending;
	const char *file;
	uint32_t line, col;
	int located, oom;
	/* replay state, kept between runs to save allocations */
	cell *shadow[PTORT_MEM_COUNT];
	size_t nshadow[PTORT_MEM_COUNT], shadow_hi[PTORT_MEM_COUNT];
	gmchunk *gm;
	size_t capgm, ngm;
	cell **spare; /* zeroed chunks for gm_cell (GM_KEEP places) */
	size_t nspare;
	cell **slab; /* the chunks come from slabs of GM_SLAB */
	size_t nslab, slabused; /* chunks of the last slab given out */
	uint64_t lastkey; /* the chunk gm_cell found last */
	cell *last;
	uint32_t cap[PTORT_MEM_COUNT];
};

static void gm_clear(struct ptort_san *s);
static void san_free(ptort_ctx *ctx);
static void san_locate(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col);

#define GRAN_SHIFT 5 /* on-chip: 32-byte granules */
#define GM_SHIFT 2   /* GM: 4-byte granules */

int ptort_sync_check(ptort_ctx *ctx, int on)
{
	unsigned m;
	if (!ctx)
		return -1;
	if (!on) {
		san_free(ctx);
		return 0;
	}
	if (ctx->san)
		return 0;
	ctx->san = calloc(1, sizeof *ctx->san);
	if (!ctx->san)
		return -1;
	ctx->hook.san_note = ptort_san_note;
	ctx->hook.san_locate = san_locate;
	ctx->hook.san_free = san_free;
	ctx->san->inorder = 1u << PTORT_PIPE_S;
	for (m = 0; m < PTORT_MEM_COUNT; m++)
		ctx->san->cap[m] = ctx->cap[m];
	return 0;
}

/* ptort_ctx_destroy's (through ctx->hook) */
static void san_free(ptort_ctx *ctx)
{
	struct ptort_san *s = ctx->san;
	unsigned m;
	if (!s)
		return;
	free(s->ev);
	free(s->acc);
	for (m = 0; m < PTORT_MEM_COUNT; m++)
		free(s->shadow[m]);
	gm_clear(s);
	free(s);
	ctx->san = NULL;
}

void ptort_san_target(ptort_ctx *ctx, unsigned inorder_pipes)
{
	ctx->san->inorder = (inorder_pipes | 1u << PTORT_PIPE_S) & ((1u << NP) - 1);
}

void ptort_san_note(ptort_ctx *ctx, unsigned space, uint64_t lo, uint64_t n, int write)
{
	struct ptort_san *s = ctx->san;
	san_acc *a;
	if (!n || s->oom || space >= NSPACE)
		return;
	if (s->nacc > s->pending) {
		a = &s->acc[s->nacc - 1];
		if (a->space == space && a->write == (write != 0) && a->hi == lo) {
			a->hi = lo + n;
			return;
		}
	}
	if (s->nacc == s->capacc &&
	    ptort_grow(&s->acc, &s->capacc, 1024, sizeof *s->acc, (size_t)-1)) {
		s->oom = 1;
		return;
	}
	a = &s->acc[s->nacc++];
	a->lo = lo;
	a->hi = lo + n;
	a->space = (uint8_t)space;
	a->write = write != 0;
}

/* the location ptort_ctx_locate gave (through ctx->hook) */
static void san_locate(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col)
{
	struct ptort_san *s = ctx->san;
	s->file = file;
	s->line = line;
	s->col = col;
	s->located = 1;
}

static san_ev *push(struct ptort_san *s, int kind, unsigned pipe)
{
	san_ev *e;
	if (s->oom)
		return NULL;
	if (s->nev == s->capev && ptort_grow(&s->ev, &s->capev, 1024, sizeof *s->ev, 1u << WSHIFT)) {
		s->oom = 1;
		return NULL;
	}
	e = &s->ev[s->nev++];
	memset(e, 0, sizeof *e);
	e->kind = (uint8_t)kind;
	e->pipe = (uint8_t)pipe;
	e->acc0 = s->pending;
	return e;
}

uint32_t ptort_san_op(ptort_ctx *ctx, ptort_pipe pipe)
{
	struct ptort_san *s = ctx->san;
	san_ev *e = push(s, EV_INSN, (unsigned)pipe < NP ? (unsigned)pipe : PTORT_PIPE_S);
	if (!e)
		return 0;
	e->nacc = s->nacc - s->pending; /* none when the instruction is deferred */
	s->pending = s->nacc;
	if (s->located)
		e->file = s->file, e->line = s->line, e->col = s->col;
	s->located = 0;
	return (uint32_t)s->nev;
}

size_t ptort_san_begin(ptort_ctx *ctx)
{
	return ctx->san->nacc;
}

void ptort_san_end(ptort_ctx *ctx, uint32_t ev, size_t mark)
{
	struct ptort_san *s = ctx->san;
	if (ev && ev <= s->nev && mark <= s->nacc) {
		s->ev[ev - 1].acc0 = mark;
		s->ev[ev - 1].nacc = s->nacc - mark;
	}
	s->pending = s->nacc;
	s->located = 0;
}

uint32_t ptort_san_count(const ptort_ctx *ctx)
{
	return (uint32_t)ctx->san->nev;
}

void ptort_san_sync(ptort_ctx *ctx, int kind, ptort_pipe src, ptort_pipe dst, int64_t event,
		    const char *file, uint32_t line, uint32_t col)
{
	struct ptort_san *s = ctx->san;
	san_ev *e;
	unsigned q = kind == SAN_WAIT ? (unsigned)dst : (unsigned)src;
	e = push(s, kind == SAN_SET ? EV_SET : kind == SAN_WAIT ? EV_WAIT : EV_BAR,
		 q < NP ? q : NP);
	if (!e)
		return;
	e->src = (uint8_t)src;
	e->dst = (uint8_t)dst;
	e->event = (int32_t)event;
	e->file = file;
	e->line = line;
	e->col = col;
	s->located = 0;
}

/* ---- the trace as text (PTORT_SYNC_TRACE) ------------------------------------------ */

static const char *pipe_short(unsigned p)
{
	return p < NP ? ptort_pipe_name((ptort_pipe)p) + 5 : "ALL";
}

static const char *space_name(unsigned sp)
{
	return sp < PTORT_MEM_COUNT ? ptort_mem_name((ptort_mem)sp) : "GM";
}

static void dump(const ptort_ctx *ctx, const char *path)
{
	const struct ptort_san *s = ctx->san;
	FILE *fp = fopen(path, "a");
	size_t i, j;
	if (!fp)
		return;
	fprintf(fp, "block %u inorder", (unsigned)ctx->block_idx);
	for (i = 0; i < NP; i++)
		if (s->inorder >> i & 1)
			fprintf(fp, " %s", pipe_short((unsigned)i));
	fputc('\n', fp);
	for (i = 0; i < s->nev; i++) {
		const san_ev *e = &s->ev[i];
		static const char kinds[] = "ISWB";
		fprintf(fp, "%c %zu", kinds[e->kind], i + 1);
		if (e->kind == EV_INSN || e->kind == EV_BAR)
			fprintf(fp, " %s", pipe_short(e->pipe));
		else
			fprintf(fp, " %s %s %d", pipe_short(e->src), pipe_short(e->dst), (int)e->event);
		fprintf(fp, " %s:%u:%u", e->file ? e->file : "?", (unsigned)e->line, (unsigned)e->col);
		for (j = 0; j < e->nacc; j++) {
			const san_acc *a = &s->acc[e->acc0 + j];
			fprintf(fp, " %c %s %llu %llu", a->write ? 'W' : 'R', space_name(a->space),
				(unsigned long long)a->lo, (unsigned long long)a->hi);
		}
		fputc('\n', fp);
	}
	fprintf(fp, "end\n");
	fclose(fp);
}

/* ---- replay ------------------------------------------------------------------------ */

typedef struct replay {
	struct ptort_san *s;
	san_run *run;
	uint32_t F[NP][NP];
	uint32_t (*setclk)[NP]; /* per set event (by its slot) */
	uint32_t *slot;         /* event -> set slot */
	int32_t *match;         /* wait -> its set, set -> the wait of the previous set; -1 */
	int32_t *prevset;       /* set -> the previous set of its flag; -1 */
	uint8_t *done;
	uint32_t *list[NLIST];
	size_t nlist[NLIST], head[NLIST];
	uint32_t nsets[NKEY], nwaits[NKEY];
	int32_t lastset[NKEY];
	/* the current event's races already reported (prior event numbers) */
	uint32_t seen[16];
	unsigned nseen;
} replay;

static unsigned key_of(const san_ev *e)
{
	return ((unsigned)e->src * NP + e->dst) * PTORT_EVENT_IDS + (unsigned)e->event;
}

static cell *gm_cell(struct ptort_san *s, uint64_t g)
{
	uint64_t key = (g >> GM_CHUNK_SHIFT) + 1;
	size_t i;
	if (key == s->lastkey)
		return &s->last[g & ((1u << GM_CHUNK_SHIFT) - 1)];
	if (2 * (s->ngm + 1) > s->capgm) {
		size_t cap = s->capgm ? s->capgm * 2 : 64, j;
		gmchunk *q = calloc(cap, sizeof *q);
		if (!q)
			return NULL;
		for (j = 0; j < s->capgm; j++)
			if (s->gm[j].key) {
				size_t k = (size_t)(s->gm[j].key * 0x9E3779B97F4A7C15ull >> 17) & (cap - 1);
				while (q[k].key)
					k = (k + 1) & (cap - 1);
				q[k] = s->gm[j];
			}
		free(s->gm);
		s->gm = q;
		s->capgm = cap;
	}
	i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 17) & (s->capgm - 1);
	while (s->gm[i].key && s->gm[i].key != key)
		i = (i + 1) & (s->capgm - 1);
	if (!s->gm[i].key) {
		cell *c;
		if (s->nspare) {
			c = s->spare[--s->nspare];
		} else {
			if (!s->nslab || s->slabused == GM_SLAB) {
				cell **q = realloc(s->slab, (s->nslab + 1) * sizeof *q);
				if (!q)
					return NULL;
				s->slab = q;
				if (!(q[s->nslab] = calloc((size_t)GM_SLAB << GM_CHUNK_SHIFT, sizeof *c)))
					return NULL;
				s->nslab++;
				s->slabused = 0;
			}
			c = s->slab[s->nslab - 1] + ((size_t)s->slabused++ << GM_CHUNK_SHIFT);
		}
		s->gm[i].key = key;
		s->gm[i].c = c;
		s->ngm++;
	}
	s->lastkey = key;
	s->last = s->gm[i].c;
	return &s->last[g & ((1u << GM_CHUNK_SHIFT) - 1)];
}

/* Drops the GM shadow (between runs). all, or more than GM_KEEP chunks made: frees
 * the chunks; else the chunks used are zeroed and kept as spares. */
static void gm_drop(struct ptort_san *s, int all)
{
	size_t j;
	if (s->nslab * GM_SLAB > GM_KEEP)
		all = 1;
	if (!all && !s->spare && !(s->spare = malloc(GM_KEEP * sizeof *s->spare)))
		all = 1;
	for (j = 0; j < s->capgm; j++)
		if (s->gm[j].key) {
			if (!all) {
				memset(s->gm[j].c, 0, ((size_t)1 << GM_CHUNK_SHIFT) * sizeof(cell));
				s->spare[s->nspare++] = s->gm[j].c;
			}
			s->gm[j].key = 0;
		}
	s->ngm = 0;
	s->lastkey = 0;
	s->last = NULL;
	if (all) {
		for (j = 0; j < s->nslab; j++)
			free(s->slab[j]);
		free(s->slab);
		free(s->spare);
		s->slab = NULL;
		s->spare = NULL;
		s->nslab = s->slabused = s->nspare = 0;
	}
}

static void gm_clear(struct ptort_san *s)
{
	gm_drop(s, 1);
	free(s->gm);
	s->gm = NULL;
	s->capgm = 0;
}

static cell *chip_cell(struct ptort_san *s, unsigned m, uint64_t g)
{
	if (!s->shadow[m]) {
		s->nshadow[m] = ((size_t)s->cap[m] + 31) >> GRAN_SHIFT;
		s->shadow[m] = calloc(s->nshadow[m] ? s->nshadow[m] : 1, sizeof(cell));
		if (!s->shadow[m])
			return NULL;
	}
	if (g >= s->nshadow[m])
		return NULL;
	if (g + 1 > s->shadow_hi[m])
		s->shadow_hi[m] = (size_t)g + 1;
	return &s->shadow[m][g];
}

/* The bytes of event b's accesses to `space` that meet [lo, hi). */
static void overlap(const struct ptort_san *s, const san_ev *b, unsigned space, uint64_t lo,
		    uint64_t hi, uint64_t *olo, uint64_t *ohi)
{
	size_t j;
	*olo = lo, *ohi = hi;
	for (j = 0; j < b->nacc; j++) {
		const san_acc *a = &s->acc[b->acc0 + j];
		if (a->space == space && a->lo < hi && lo < a->hi) {
			*olo = a->lo > lo ? a->lo : lo;
			*ohi = a->hi < hi ? a->hi : hi;
			return;
		}
	}
}

/* Event number `cur` (pipe P, access a, write w) meets the access of event `prior`
 * (write pw) that its clock does not cover. */
static void race(replay *r, uint32_t cur, const san_acc *a, int w, uint32_t prior, int pw)
{
	struct ptort_san *s = r->s;
	const san_ev *ec = &s->ev[cur - 1], *ep = &s->ev[prior - 1];
	const san_ev *first, *second;
	int fw, sw;
	uint64_t lo, hi;
	unsigned i;
	for (i = 0; i < r->nseen; i++)
		if (r->seen[i] == prior)
			return;
	if (r->nseen < 16)
		r->seen[r->nseen++] = prior;
	if (prior < cur)
		first = ep, fw = pw, second = ec, sw = w;
	else
		first = ec, fw = w, second = ep, sw = pw;
	overlap(s, ep, a->space, a->lo, a->hi, &lo, &hi);
	san_race(r->run, fw && sw ? "WAW" : fw ? "RAW" : "WAR", space_name(a->space),
		 a->space == PTORT_SAN_GM, lo, hi, first->pipe, fw, first->file, first->line,
		 first->col, second->pipe, sw, second->file, second->line, second->col,
		 first->pipe == second->pipe);
}

/* pass 0: a read against the last writer; 1: a write against the last writer and
 * readers, then it is the last writer; 2: a read becomes its pipe's last reader (after
 * the writes, so that an op reading and writing a granule meets the earlier readers);
 * 3: 0 then 2, for a read of bytes the op does not write */
static void check_cell(replay *r, cell *c, uint32_t n, unsigned P, const uint32_t *C,
		       const san_acc *a, int pass)
{
	uint32_t w = WNUM(c->w);
	unsigned p;
	if (pass != 1) {
		if (pass != 2 && w && w != n && C[WPIPE(c->w)] < w)
			race(r, n, a, 0, w, 1);
		if (pass >= 2 && c->r[P] < n)
			c->r[P] = n;
		return;
	}
	if (w && w != n && C[WPIPE(c->w)] < w)
		race(r, n, a, 1, w, 1);
	for (p = 0; p < NP; p++)
		if (c->r[p] && c->r[p] != n && C[p] < c->r[p])
			race(r, n, a, 1, c->r[p], 0);
	c->w = n | (uint32_t)P << WSHIFT;
	memset(c->r, 0, sizeof c->r);
}

static void accesses(replay *r, uint32_t n, const san_ev *e, const uint32_t *C)
{
	struct ptort_san *s = r->s;
	size_t j;
	int pass;
	/* the granules the event writes, per space, as one interval [wlo, whi]: a read
	 * outside it is checked and recorded in one visit of its cells (pass 3) */
	uint64_t wlo[NSPACE], whi[NSPACE];
	for (j = 0; j < NSPACE; j++)
		wlo[j] = UINT64_MAX, whi[j] = 0;
	for (j = 0; j < e->nacc; j++) {
		const san_acc *a = &s->acc[e->acc0 + j];
		unsigned sh = a->space == PTORT_SAN_GM ? GM_SHIFT : GRAN_SHIFT;
		if (a->write) {
			if (a->lo >> sh < wlo[a->space])
				wlo[a->space] = a->lo >> sh;
			if ((a->hi - 1) >> sh > whi[a->space])
				whi[a->space] = (a->hi - 1) >> sh;
		}
	}
	r->nseen = 0;
	for (pass = 0; pass < 3; pass++) /* reads, writes, reads (check_cell) */
		for (j = 0; j < e->nacc; j++) {
			const san_acc *a = &s->acc[e->acc0 + j];
			uint64_t g, g0, g1;
			int gm = a->space == PTORT_SAN_GM, cp = pass;
			if (a->write != (pass == 1))
				continue;
			g0 = a->lo >> (gm ? GM_SHIFT : GRAN_SHIFT);
			g1 = (a->hi - 1) >> (gm ? GM_SHIFT : GRAN_SHIFT);
			if (!a->write && (g1 < wlo[a->space] || g0 > whi[a->space])) {
				if (pass == 2) /* done in pass 0 */
					continue;
				cp = 3;
			}
			for (g = g0; g <= g1; g++) {
				cell *c = gm ? gm_cell(s, g) : chip_cell(s, a->space, g);
				if (!c) {
					s->oom |= gm;
					break;
				}
				check_cell(r, c, n, e->pipe, C, a, cp);
			}
		}
}

static void join(uint32_t *a, const uint32_t *b)
{
	unsigned p;
	for (p = 0; p < NP; p++)
		if (b[p] > a[p])
			a[p] = b[p];
}

static void exec(replay *r, uint32_t i)
{
	struct ptort_san *s = r->s;
	const san_ev *e = &s->ev[i];
	uint32_t n = i + 1, C[NP];
	unsigned P = e->pipe, p, q;
	switch (e->kind) {
	case EV_INSN:
		memcpy(C, r->F[P], sizeof C);
		accesses(r, n, e, C);
		break;
	case EV_SET: {
		uint32_t *sc = r->setclk[r->slot[i]];
		memcpy(sc, r->F[P], sizeof C);
		sc[P] = n;
		if (r->prevset[i] >= 0) { /* the previous set's wait must happen before */
			int32_t w = r->match[i];
			if (w < 0 || sc[s->ev[w].pipe] < (uint32_t)w + 1) {
				const san_ev *ps = &s->ev[r->prevset[i]];
				san_event_pending(r->run, e->src, e->dst, e->event, e->file, e->line,
						  e->col, ps->file, ps->line, ps->col,
						  w < 0 ? NULL : s->ev[w].file,
						  w < 0 ? 0 : s->ev[w].line, w < 0 ? 0 : s->ev[w].col);
			}
		}
		break;
	}
	case EV_WAIT:
		join(r->F[P], r->setclk[r->slot[r->match[i]]]);
		break;
	case EV_BAR:
		if (P < NP) {
			r->F[P][P] = n;
			return;
		}
		for (q = 0; q < NP; q++)
			for (p = 0; p < NP; p++)
				r->F[q][p] = n;
		return;
	}
	if (s->inorder >> P & 1)
		r->F[P][P] = n;
}

static int ready(const replay *r, uint32_t i)
{
	const san_ev *e = &r->s->ev[i];
	unsigned l;
	if (e->kind == EV_WAIT)
		return r->match[i] >= 0 && r->done[r->match[i]];
	if (e->kind == EV_BAR && e->pipe == NP) {
		for (l = 0; l < NP; l++)
			if (r->head[l] < r->nlist[l] && r->list[l][r->head[l]] < i)
				return 0;
	}
	return 1;
}

/* The last event of list l issued before i, UINT32_MAX when none or when it ran. */
static uint32_t last_before(const replay *r, unsigned l, uint32_t i)
{
	size_t lo = r->head[l], hi = r->nlist[l]; /* the events not run: list[head ..] */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->list[l][mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > r->head[l] ? r->list[l][lo - 1] : UINT32_MAX;
}

/* What event i (not run) waits for at the end, into out (at most NLIST + 3), each not
 * run: the event before it in its queue, the last S and PIPE_ALL events before it
 * (dispatch waits for them), a wait's set, for a PIPE_ALL barrier the last event of
 * every queue before it. Returns how many. */
static unsigned holders(const replay *r, uint32_t i, uint32_t *out)
{
	const san_ev *e = &r->s->ev[i];
	unsigned p = e->pipe, l, n = 0;
	for (l = 0; l < NLIST; l++) {
		uint32_t h;
		if (l != p && l != PTORT_PIPE_S && l != NP && p != NP)
			continue;
		h = last_before(r, l, i);
		if (h != UINT32_MAX)
			out[n++] = h;
	}
	if (e->kind == EV_WAIT && r->match[i] >= 0 && !r->done[r->match[i]])
		out[n++] = (uint32_t)r->match[i];
	return n;
}

/* Whether i is on a cycle of holders (a breadth-first search over the events not run;
 * par: one entry per event). *via: the first wait after i on the cycle, or NULL. */
static int on_cycle(const replay *r, uint32_t i, uint32_t *par, uint32_t *q,
		    const san_ev **via)
{
	size_t qh = 0, qt = 0, k;
	uint32_t out[NLIST + 3];
	int found = 0;
	*via = NULL;
	for (k = 0; k < r->s->nev; k++)
		par[k] = UINT32_MAX;
	q[qt++] = i;
	while (qh < qt && !found) {
		uint32_t x = q[qh++];
		unsigned n = holders(r, x, out), j;
		for (j = 0; j < n && !found; j++) {
			if (out[j] == i) {
				found = 1;
				par[i] = x;
			} else if (par[out[j]] == UINT32_MAX) {
				par[out[j]] = x;
				q[qt++] = out[j];
			}
		}
	}
	if (found) { /* back from i's holder to i: the wait nearest i */
		uint32_t x = par[i];
		while (x != i) {
			if (r->s->ev[x].kind == EV_WAIT)
				*via = &r->s->ev[x];
			x = par[x];
		}
	}
	return found;
}

/* The pipes blocked at the end: a deadlock report per wait without its set, and per
 * wait on a cycle (a wait blocked behind a wait without a set is its consequence). */
static void deadlock(replay *r)
{
	struct ptort_san *s = r->s;
	uint32_t *par = malloc((s->nev + 1) * sizeof *par), *qq = malloc((s->nev + 1) * sizeof *qq);
	unsigned l;
	if (!par || !qq)
		s->oom = 1;
	for (l = 0; l < NLIST; l++) {
		uint32_t i;
		const san_ev *e, *se, *be = NULL;
		if (r->head[l] >= r->nlist[l])
			continue;
		i = r->list[l][r->head[l]];
		e = &s->ev[i];
		if (e->kind != EV_WAIT)
			continue;
		if (r->match[i] < 0) {
			unsigned k = key_of(e);
			const san_ev *ls = r->lastset[k] >= 0 ? &s->ev[r->lastset[k]] : NULL;
			uint32_t ord = 0, j;
			for (j = 0; j < i; j++)
				if (s->ev[j].kind == EV_WAIT && key_of(&s->ev[j]) == k)
					ord++;
			san_deadlock_noset(r->run, e->src, e->dst, e->event, e->file, e->line, e->col,
					   ord + 1, r->nsets[k], ls ? ls->file : NULL,
					   ls ? ls->line : 0, ls ? ls->col : 0);
			continue;
		}
		if (!par || !on_cycle(r, i, par, qq, &be))
			continue;
		se = &s->ev[r->match[i]];
		san_deadlock_cycle(r->run, e->src, e->dst, e->event, e->file, e->line, e->col, se->file,
				   se->line, se->col, be ? be->pipe : NP, be != NULL, be ? be->src : 0,
				   be ? be->dst : 0, be ? be->event : 0, be ? be->file : NULL,
				   be ? be->line : 0, be ? be->col : 0);
	}
	free(par);
	free(qq);
}

static void replay_run(struct ptort_san *s, san_run *run)
{
	replay r;
	size_t i, nsets = 0;
	uint32_t k, blk = 0;
	unsigned l, m;
	int32_t *waits_of = NULL; /* per key: the waits in order, as a CSR table */
	size_t *woff = NULL;
	memset(&r, 0, sizeof r);
	r.s = s;
	r.run = run;
	r.slot = calloc(s->nev + 1, sizeof *r.slot);
	r.match = malloc((s->nev + 1) * sizeof *r.match);
	r.prevset = malloc((s->nev + 1) * sizeof *r.prevset);
	r.done = calloc(s->nev + 1, 1);
	woff = calloc(NKEY + 1, sizeof *woff);
	for (l = 0; l < NLIST; l++)
		r.list[l] = malloc((s->nev + 1) * sizeof *r.list[l]);
	for (k = 0; k < NKEY; k++)
		r.lastset[k] = -1;
	if (!r.slot || !r.match || !r.prevset || !r.done || !woff)
		goto oom;
	for (l = 0; l < NLIST; l++)
		if (!r.list[l])
			goto oom;
	/* queues, set slots, the flags' sets and waits in program order */
	for (i = 0; i < s->nev; i++) {
		const san_ev *e = &s->ev[i];
		r.list[e->pipe][r.nlist[e->pipe]++] = (uint32_t)i;
		r.match[i] = r.prevset[i] = -1;
		if (e->kind == EV_SET)
			r.slot[i] = (uint32_t)nsets++;
		if (e->kind == EV_WAIT)
			woff[key_of(e) + 1]++;
	}
	for (k = 0; k < NKEY; k++)
		woff[k + 1] += woff[k];
	waits_of = malloc((woff[NKEY] + 1) * sizeof *waits_of);
	r.setclk = calloc(nsets + 1, sizeof *r.setclk);
	if (!waits_of || !r.setclk)
		goto oom;
	{
		int32_t **sets_of = NULL;
		size_t *fill = calloc(NKEY, sizeof *fill);
		int32_t *sets = malloc((nsets + 1) * sizeof *sets);
		size_t *soff = calloc(NKEY + 1, sizeof *soff);
		(void)sets_of;
		if (!fill || !sets || !soff) {
			free(fill), free(sets), free(soff);
			goto oom;
		}
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == EV_SET)
				soff[key_of(&s->ev[i]) + 1]++;
		for (k = 0; k < NKEY; k++)
			soff[k + 1] += soff[k];
		for (i = 0; i < s->nev; i++) {
			const san_ev *e = &s->ev[i];
			if (e->kind == EV_SET) {
				k = key_of(e);
				sets[soff[k] + r.nsets[k]] = (int32_t)i;
				if (r.nsets[k])
					r.prevset[i] = sets[soff[k] + r.nsets[k] - 1];
				r.nsets[k]++;
				r.lastset[k] = (int32_t)i;
			} else if (e->kind == EV_WAIT) {
				k = key_of(e);
				waits_of[woff[k] + r.nwaits[k]] = (int32_t)i;
				r.nwaits[k]++;
			}
		}
		/* the k-th wait matches the k-th set; a set's `match` is the previous set's wait */
		for (k = 0; k < NKEY; k++) {
			uint32_t j;
			for (j = 0; j < r.nwaits[k]; j++)
				if (j < r.nsets[k])
					r.match[waits_of[woff[k] + j]] = sets[soff[k] + j];
			for (j = 1; j < r.nsets[k]; j++)
				r.match[sets[soff[k] + j]] = j - 1 < r.nwaits[k] ?
					waits_of[woff[k] + j - 1] : -1;
		}
		free(fill), free(sets), free(soff);
	}
	/* run: always the earliest-issued event that can run */
	for (;;) {
		uint32_t best = UINT32_MAX;
		blk = (uint32_t)s->nev;
		if (r.head[PTORT_PIPE_S] < r.nlist[PTORT_PIPE_S])
			blk = r.list[PTORT_PIPE_S][r.head[PTORT_PIPE_S]];
		if (r.head[NP] < r.nlist[NP] && r.list[NP][r.head[NP]] < blk)
			blk = r.list[NP][r.head[NP]];
		for (l = 0; l < NLIST; l++) {
			uint32_t i2;
			if (r.head[l] >= r.nlist[l])
				continue;
			i2 = r.list[l][r.head[l]];
			if (i2 <= blk && i2 < best && ready(&r, i2))
				best = i2;
		}
		if (best == UINT32_MAX)
			break;
		exec(&r, best);
		r.done[best] = 1;
		r.head[s->ev[best].pipe]++;
	}
	m = 0;
	for (l = 0; l < NLIST; l++)
		m |= r.head[l] < r.nlist[l];
	if (m)
		deadlock(&r);
	/* flags left set */
	for (k = 0; k < NKEY; k++)
		if (r.nsets[k] > r.nwaits[k]) {
			const san_ev *e = &s->ev[r.lastset[k]];
			san_event_left(run, e->src, e->dst, e->event, e->file, e->line, e->col,
				       r.nsets[k], r.nwaits[k]);
		}
	goto out;
oom:
	s->oom = 1;
out:
	free(waits_of);
	free(woff);
	for (l = 0; l < NLIST; l++)
		free(r.list[l]);
	free(r.slot);
	free(r.match);
	free(r.prevset);
	free(r.done);
	free(r.setclk);
}

int ptort_san_open(const ptort_ctx *ctx)
{
	return ctx->san->pending < ctx->san->nacc;
}

unsigned ptort_san_finish(ptort_ctx *ctx, ptort_sync_findings *f)
{
	struct ptort_san *s = ctx->san;
	const char *tr;
	san_run run;
	unsigned m, n;
	tr = getenv("PTORT_SYNC_TRACE");
	if (tr && *tr)
		dump(ctx, tr);
	san_run_init(&run, ctx->block_idx);
	for (m = 0; m < PTORT_MEM_COUNT; m++)
		if (s->shadow[m]) {
			memset(s->shadow[m], 0, s->shadow_hi[m] * sizeof(cell));
			s->shadow_hi[m] = 0;
		}
	gm_drop(s, 0);
	if (!s->oom)
		replay_run(s, &run);
	if (s->oom)
		san_oom(&run);
	n = san_run_finish(&run, f);
	s->nev = s->nacc = s->pending = 0;
	s->located = s->oom = 0;
	return n;
}
