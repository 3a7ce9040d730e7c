/* insert_sync.c: the insert-sync pass: set_flag / wait_flag / barrier for every
 * dependence between pipes of a placed level-2 function (docs/sync.md).
 *
 * Per func.func without any sync op of its own (explicit and inserted syncs never
 * mix) and without mixed cube/vector ops:
 *   1. the ops that touch memory, each with its pipe (ir_op_pipe) and footprint
 *      (sync_fp.c), in pre-order;
 *   2. the dependences: two of them touching overlapping bytes, one writing, either
 *      in order in one iteration (forward) or across the back edge of a loop holding
 *      both (carried by that loop); dependences inside one in-order pipe need nothing,
 *      a forward one implied by two others through an op between them is left out;
 *   3. for each dependence, in the order forward, carried (innermost loops first),
 *      same-pipe: if the syncs placed so far do not order the producer before the
 *      consumer (hb_covered: the producer's completion propagated along every path,
 *      zero-trip loops and both arms of scf.if included), place one:
 *        forward: set_flag after the producer's op in the block where both meet, wait
 *          before the consumer's (or move the set of such a pair of the same pipes
 *          later, so that one pair serves several producers);
 *        carried: set_flag + wait_flag at the end of the loop body (of the scf.if arm
 *          in it holding both ops), from the pipe that
 *          knows the producer's completion last in the body; when the consumer's
 *          pipe has work in the body before the consumer, the wait goes before the
 *          consumer instead, with a set before the loop (prime) and a wait after it
 *          (drain);
 *        same pipe (a pipe not in order on the target): pto.barrier before the consumer;
 *        no flag between the two pipes on this core: pto.barrier <PIPE_ALL>;
 *   4. every placed pair or barrier that the others make unnecessary is removed again;
 *   5. event ids: per (src, dst) pair the lowest id free over the pair's lifetime (set
 *      or prime to the matching wait or drain); a pair with 8 ids live already becomes
 *      pto.barrier <PIPE_ALL> (a remark says so);
 *   6. every wait of a flag happens before the next set of that flag (same pipes and
 *      id), else a handshake flag back from the waiting pipe goes right after the wait.
 * A function with too many dependences or flags gets a barrier <PIPE_ALL> after each
 * op instead (a remark says so). Walks stop once the answer is known, ops of one block
 * compare by order keys (sync_keys.c), so that functions of thousands of ops get flags.
 * Sets and waits of a pair are always in one block, so every path through an scf.if
 * and a loop of any trip count (zero included) sets and waits equally often.
 *
 * Requires: level 2, placed (after place-tiles, before split-repeats).
 * Preserves: everything but the sync ops it inserts.
 * Diagnostics: an error for unplaced tiles; remarks (-Rpass=insert-sync) for each
 * pair and barrier, each fallback and each function left alone (its own syncs,
 * level-3 instructions, cube and vector code in one function). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/pipe.h"
#include "passes/insert_sync.h"
#include "passes/passes.h"
#include "target/target.h"

#define PASS_NAME "insert-sync"
#define CW 128               /* words of the pending-flag bitset */
#define MAX_PAIRS (64 * CW)  /* placed pairs per function before barriers take over */
#define PAIRS_TEXT "8192"    /* MAX_PAIRS, for the remark */
#define ALL_PIPES ((1u << PTORT_PIPE_COUNT) - 1)
/* Dependences of one function past which it is ordered by a `barrier <PIPE_ALL>` after
 * each op instead, with a remark. [decision] Correct and simple; slow on a device, and
 * said so. */
#define MAX_DEPS 200000
/* Steps of the placement's walks past which a function gets the same fallback (counted,
 * not timed, so the output does not depend on the machine), as does one that needs more
 * than MAX_PAIRS flags and barriers. A walk stops once the consumer's pipe knows the
 * producer's completion, so the tests' largest function (run/cvt_sweep.test's A5 module:
 * 7,416 ops, 12,381 dependences, 6,941 flags and barriers) takes about 300,000 steps. */
#define MAX_WORK 100000000ull

typedef struct aop {
	ir_op *op;
	int pipe;
	size_t fp0, nfp;
	unsigned pre, depth;
} aop;

typedef struct dep {
	unsigned a, b;  /* aop indices: producer, consumer */
	ir_op *loop;    /* NULL: forward; else the loop whose back edge it crosses */
	unsigned depth; /* the loop's depth */
} dep;

enum { PK_FWD, PK_END, PK_PRIME, PK_BAR };
typedef struct pair {
	int kind, src, dst, on, ev;
	int hs; /* placed after the wait of pair hs - 1 so that its flag's next set finds it
		 * cleared (0: for a dependence) */
	ir_op *set, *wait, *prime, *drain; /* PK_BAR: the barrier in `wait` */
	unsigned dep;
	const char *why;
} pair;

typedef struct is {
	ir_ctx *ctx;
	const pass_opts *o;
	const struct target *t;
	int core;
	aop *ops;
	size_t nops;
	sync_fps fp;
	dep *deps;
	size_t ndeps, capdeps;
	pair *pairs;
	size_t npairs;
	int full; /* more than MAX_PAIRS pairs and barriers needed */
	sync_keys ptab; /* sync op -> pair index + 1 */
	int oom;
	/* op -> order key (open addressing): increasing along each block, so that two ops
	 * of one block compare without a walk; the syncs get keys between their neighbours' */
	sync_keys keys;
	uint64_t work; /* ops stepped over by the walks and position checks */
} is;

/* ---- the sync-op table --------------------------------------------------------- */

static void hput(is *s, const ir_op *op, unsigned v)
{
	if (sync_keys_put(&s->ptab, op, v))
		s->oom = 1;
}

/* The pair a sync op belongs to, NULL when it is off or not one of ours. */
static pair *pair_of(const is *s, const ir_op *op)
{
	uint64_t v;
	pair *p;
	if (!sync_keys_get(&s->ptab, op, &v))
		return NULL;
	p = &s->pairs[v - 1];
	return p->on ? p : NULL;
}

/* ---- order keys ----------------------------------------------------------------- */

#define KEY_GAP ((uint64_t)1 << 20)

static void kput(is *s, const ir_op *op, uint64_t v)
{
	if (sync_keys_put(&s->keys, op, v))
		s->oom = 1;
}

static int kget(const is *s, const ir_op *op, uint64_t *v)
{
	return sync_keys_get(&s->keys, op, v);
}

static int key_op(ir_op *op, void *user)
{
	is *s = user;
	kput(s, op, (uint64_t)(s->keys.n + 1) * KEY_GAP);
	return s->oom;
}

/* A key for `op`, just put in its block, between its neighbours' (the block renumbered
 * when they have none between them). */
static void key_new(is *s, ir_op *op)
{
	uint64_t kp = 0, kn = 0;
	int hp = op->prev ? kget(s, op->prev, &kp) : 1, hn = op->next ? kget(s, op->next, &kn) : 1;
	ir_op *x;
	uint64_t k;
	if (!op->prev)
		kp = op->next && hn ? (kn > KEY_GAP ? kn - KEY_GAP : 0) : 0;
	if (!op->next)
		kn = kp + 2 * KEY_GAP;
	if (hp && hn && kn > kp + 1) {
		kput(s, op, kp + (kn - kp) / 2);
		return;
	}
	/* renumber the block (its keys are compared only with each other) */
	for (k = KEY_GAP, x = op->block->first; x; x = x->next, k += KEY_GAP)
		kput(s, x, k);
}

/* ---- structure ------------------------------------------------------------------- */

static ir_op *parent_op(const ir_op *op)
{
	return op->block && op->block->region ? op->block->region->parent : NULL;
}

/* The op of block `b` that is or holds `op`, NULL when none. */
static ir_op *anc(ir_op *op, const ir_block *b)
{
	while (op && op->block != b)
		op = parent_op(op);
	return op;
}

/* The innermost block holding both ops. */
static ir_block *lca_block(ir_op *a, ir_op *b)
{
	ir_op *x;
	for (x = a; x; x = parent_op(x)) {
		if (anc(b, x->block))
			return x->block;
	}
	return NULL;
}

/* x strictly before y, both in one block. */
static int before(is *s, const ir_op *x, const ir_op *y)
{
	uint64_t kx, ky;
	if (kget(s, x, &kx) && kget(s, y, &ky))
		return kx < ky;
	for (x = x->next; x; x = x->next) {
		s->work++;
		if (x == y)
			return 1;
	}
	return 0;
}

static int is_loop(const ir_op *op)
{
	return op && (op->code == IR_OP_SCF_FOR || op->code == IR_OP_SCF_WHILE);
}

static ir_block *region_block(ir_op *op, unsigned r)
{
	return r < op->num_regions ? op->regions[r].first : NULL;
}

/* Whether an scf.for runs at least once (constant bounds). */
static int runs_once(const ir_op *f)
{
	int64_t lb, ub;
	return ir_value_const_int(f->operands[0].value, &lb) &&
	       ir_value_const_int(f->operands[1].value, &ub) && ub > lb;
}

/* ---- happens-before: is the producer's completion known to the consumer's pipe? ---- */

/* What is known, at a point after the producer `a` (pipe pa): k, the pipes whose
 * later instructions are ordered after a; c, the pairs whose last set fired after a. */
typedef struct hb {
	unsigned k;
	uint64_t c[CW];
} hb;

typedef struct walker {
	is *s;
	int pa;
	/* pb >= 0: stop once pb knows (done), which on the path to the consumer stays so:
	 * outside the structures being summed up (inner == 0) what is known only grows */
	int pb, inner, done;
} walker;

static void meet(hb *x, const hb *y)
{
	unsigned i;
	x->k &= y->k;
	for (i = 0; i < CW; i++)
		x->c[i] &= y->c[i];
}

static int hb_eq(const hb *x, const hb *y)
{
	return x->k == y->k && !memcmp(x->c, y->c, sizeof x->c);
}

static void walk_range(walker *w, hb *st, ir_op *first, const ir_op *stop);

static void walk_block(walker *w, hb *st, ir_block *b)
{
	if (b)
		walk_range(w, st, b->first, NULL);
}

enum { U_FOR, U_WHILE_AB, U_WHILE_BA };

/* One more round of a loop: a for body; a while's after then before region (AB), or
 * before then after (BA). */
static void unit(walker *w, hb *st, ir_op *loop, int u)
{
	if (u == U_FOR) {
		walk_block(w, st, region_block(loop, 0));
	} else if (u == U_WHILE_AB) {
		walk_block(w, st, region_block(loop, 1));
		walk_block(w, st, region_block(loop, 0));
	} else {
		walk_block(w, st, region_block(loop, 0));
		walk_block(w, st, region_block(loop, 1));
	}
}

/* The state after any number of further rounds (0 too when zero_ok): the meet over
 * all of them. The sequence becomes constant after a few rounds (k only grows, and
 * a pair's set fires after a from the round its pipe knows a on). */
static void loop_more(walker *w, hb *st, ir_op *loop, int u, int zero_ok)
{
	hb acc, s, prev;
	int first = !zero_ok, i;
	if (w->done)
		return;
	acc = s = *st;
	w->inner++;
	for (i = 0; i < 24; i++) {
		prev = s;
		unit(w, &s, loop, u);
		if (first)
			acc = s, first = 0;
		else
			meet(&acc, &s);
		if (hb_eq(&prev, &s))
			break;
	}
	w->inner--;
	*st = acc;
}

static void xfer(walker *w, hb *st, ir_op *op)
{
	pair *p;
	unsigned i;
	switch (op->code) {
	case IR_OP_SET_FLAG:
		if (!(p = pair_of(w->s, op)))
			return;
		i = (unsigned)(p - w->s->pairs);
		if (p->src == w->pa || (st->k >> p->src & 1))
			st->c[i / 64] |= (uint64_t)1 << (i % 64);
		else
			st->c[i / 64] &= ~((uint64_t)1 << (i % 64));
		return;
	case IR_OP_WAIT_FLAG:
		if (!(p = pair_of(w->s, op)))
			return;
		i = (unsigned)(p - w->s->pairs);
		if (st->c[i / 64] >> (i % 64) & 1)
			st->k |= 1u << p->dst;
		return;
	case IR_OP_BARRIER:
		if (!(p = pair_of(w->s, op)))
			return;
		if (p->src == PTORT_PIPE_ALL)
			st->k = ALL_PIPES;
		else if (p->src == w->pa)
			st->k |= 1u << p->src;
		return;
	case IR_OP_SCF_FOR:
		loop_more(w, st, op, U_FOR, !runs_once(op));
		return;
	case IR_OP_SCF_WHILE:
		w->inner++;
		walk_block(w, st, region_block(op, 0));
		w->inner--;
		loop_more(w, st, op, U_WHILE_AB, 1);
		return;
	case IR_OP_SECTION_CUBE: case IR_OP_SECTION_VECTOR: /* one core's code: in line */
		w->inner++;
		walk_block(w, st, region_block(op, 0));
		w->inner--;
		return;
	case IR_OP_SCF_IF: {
		hb s2 = *st;
		w->inner++;
		walk_block(w, st, region_block(op, 0));
		walk_block(w, &s2, region_block(op, 1));
		w->inner--;
		meet(st, &s2);
		return;
	}
	default:
		return;
	}
}

static void walk_range(walker *w, hb *st, ir_op *first, const ir_op *stop)
{
	ir_op *x;
	for (x = first; x && x != stop && !w->done; x = x->next) {
		w->s->work++;
		xfer(w, st, x);
		if (w->pb >= 0 && !w->inner && (st->k >> w->pb & 1))
			w->done = 1;
	}
}

/* From just after `a` up to the block `L` holding it: the rest of each block and the
 * rest of each structure on the way (more rounds of a loop, its exit). Returns the op
 * of L holding a. */
static ir_op *up_to(walker *w, hb *st, ir_op *a, const ir_block *L)
{
	ir_op *x = a, *p;
	while (x->block != L) {
		walk_range(w, st, x->next, NULL);
		p = parent_op(x);
		if (p->code == IR_OP_SCF_FOR) {
			loop_more(w, st, p, U_FOR, 1);
		} else if (p->code == IR_OP_SCF_WHILE) {
			if (x->block != region_block(p, 0))
				walk_block(w, st, region_block(p, 0));
			loop_more(w, st, p, U_WHILE_AB, 1);
		}
		x = p;
	}
	return x;
}

/* From just before B (an op holding b, or b) down to just before b: the earlier
 * rounds of each loop on the way and the start of each block. */
static void down(walker *w, hb *st, ir_op *B, ir_op *b)
{
	ir_op *path[64], *y;
	int n = 0, i;
	for (y = b; y && y != B && n < 64; y = parent_op(y))
		path[n++] = y;
	for (i = n - 1; i >= 0; i--) {
		ir_op *cur = i == n - 1 ? B : path[i + 1], *next = path[i];
		ir_block *blk = next->block;
		if (cur->code == IR_OP_SCF_FOR) {
			loop_more(w, st, cur, U_FOR, 1);
		} else if (cur->code == IR_OP_SCF_WHILE) {
			if (blk == region_block(cur, 0)) {
				loop_more(w, st, cur, U_WHILE_BA, 1);
			} else {
				walk_block(w, st, region_block(cur, 0));
				loop_more(w, st, cur, U_WHILE_AB, 1);
			}
		}
		walk_range(w, st, blk->first, next);
	}
}

static void hb_start(walker *w, hb *st, is *s, int pa)
{
	w->s = s;
	w->pa = pa;
	w->pb = -1;
	w->inner = w->done = 0;
	memset(st, 0, sizeof *st);
	if (s->t->inorder_pipes >> pa & 1)
		st->k = 1u << pa;
}

/* The block of `loop` (a region's block) that holds op x. */
static ir_block *loop_block_of(ir_op *loop, ir_op *x)
{
	unsigned r;
	for (r = 0; r < loop->num_regions; r++)
		if (region_block(loop, r) && anc(x, region_block(loop, r)))
			return region_block(loop, r);
	return NULL;
}

/* The state at the end of an iteration of `loop`, from just after op a (pipe pa; the
 * while's after region included when a is in its before region). */
static void to_round_end(walker *w, hb *st, is *s, ir_op *a, int pa, ir_op *loop)
{
	ir_block *ra = loop_block_of(loop, a);
	ir_op *A;
	hb_start(w, st, s, pa);
	A = up_to(w, st, a, ra);
	walk_range(w, st, A->next, NULL);
	if (loop->code == IR_OP_SCF_WHILE && ra == region_block(loop, 0))
		walk_block(w, st, region_block(loop, 1));
}

/* Whether the completion of op a (pipe pa) is known to pipe pb at op b on every path:
 * from a to b in one iteration (loop NULL) or from a in one iteration of `loop` to b
 * in a later one. */
static int hb_ordered(is *s, ir_op *a, int pa, ir_op *b, int pb, ir_op *loop)
{
	walker w;
	hb st;
	ir_op *A, *B;
	if (!loop) {
		ir_block *L = lca_block(a, b);
		hb_start(&w, &st, s, pa);
		w.pb = pb;
		A = anc(a, L);
		B = anc(b, L);
		if (A == B) { /* a in a while's before region, b in its after region */
			ir_block *bb = region_block(A, 0), *ab = region_block(A, 1);
			A = up_to(&w, &st, a, bb);
			walk_range(&w, &st, A->next, NULL);
			B = anc(b, ab);
			walk_range(&w, &st, ab->first, B);
			down(&w, &st, B, b);
		} else {
			up_to(&w, &st, a, L);
			walk_range(&w, &st, A->next, B);
			down(&w, &st, B, b);
		}
		return st.k >> pb & 1;
	}
	to_round_end(&w, &st, s, a, pa, loop);
	w.pb = pb; /* not before: the loop's later rounds are summed up from the round's end */
	if (loop->code == IR_OP_SCF_FOR) {
		ir_block *Lb = region_block(loop, 0);
		loop_more(&w, &st, loop, U_FOR, 1);
		B = anc(b, Lb);
		walk_range(&w, &st, Lb->first, B);
	} else {
		ir_block *rb = loop_block_of(loop, b);
		loop_more(&w, &st, loop, U_WHILE_BA, 1);
		if (rb != region_block(loop, 0))
			walk_block(&w, &st, region_block(loop, 0));
		B = anc(b, rb);
		walk_range(&w, &st, rb->first, B);
	}
	down(&w, &st, B, b);
	return st.k >> pb & 1;
}

static int hb_covered(is *s, const dep *d)
{
	return hb_ordered(s, s->ops[d->a].op, s->ops[d->a].pipe, s->ops[d->b].op,
			  s->ops[d->b].pipe, d->loop);
}

/* ---- placing syncs ---------------------------------------------------------------- */

static const ir_attr *pipe_attr(ir_ctx *ctx, int p)
{
	const char *n = p == PTORT_PIPE_ALL ? "PIPE_ALL" : ptort_pipe_name((ptort_pipe)p);
	return ir_attr_pto(ctx, ir_intern(ctx, "pipe", 4), ir_intern(ctx, n, strlen(n)),
			   IR_PTO_DOTTED);
}

static ir_op *mk_flag(is *s, int set, int src, int dst, int ev, ir_loc loc)
{
	char e[16];
	ir_named_attr na[3];
	int n = snprintf(e, sizeof e, "EVENT_ID%d", ev);
	na[0].name = ir_intern(s->ctx, "src_pipe", 8);
	na[0].value = pipe_attr(s->ctx, src);
	na[1].name = ir_intern(s->ctx, "dst_pipe", 8);
	na[1].value = pipe_attr(s->ctx, dst);
	na[2].name = ir_intern(s->ctx, "event_id", 8);
	na[2].value = ir_attr_pto(s->ctx, ir_intern(s->ctx, "event", 5), ir_intern(s->ctx, e, (size_t)n),
				  IR_PTO_DOTTED);
	return ir_op_create(s->ctx, set ? "pto.set_flag" : "pto.wait_flag", loc, NULL, 0, NULL, 0,
			    ir_attr_dict(s->ctx, na, 3, loc), 0);
}

static ir_op *mk_barrier(is *s, int p, ir_loc loc)
{
	ir_named_attr na;
	na.name = ir_intern(s->ctx, "pipe", 4);
	na.value = pipe_attr(s->ctx, p);
	return ir_op_create(s->ctx, "pto.barrier", loc, NULL, 0, NULL, 0,
			    ir_attr_dict(s->ctx, &na, 1, loc), 0);
}

static void put_after(is *s, ir_op *x, ir_op *op)
{
	if (x->next)
		ir_block_insert_before(x->next, op);
	else
		ir_block_append_op(x->block, op);
	key_new(s, op);
}

static void put_before(is *s, ir_op *y, ir_op *op)
{
	ir_block_insert_before(y, op);
	key_new(s, op);
}

/* Before the terminator of b (its end). */
static void put_at_end(is *s, ir_block *b, ir_op *op)
{
	if (b->last && (ir_opdef_get(b->last->code)->flags & IR_OPF_TERMINATOR))
		ir_block_insert_before(b->last, op);
	else
		ir_block_append_op(b, op);
	key_new(s, op);
}

static pair *new_pair(is *s, int kind, int src, int dst, unsigned di, const char *why)
{
	pair *p;
	if (s->npairs == MAX_PAIRS)
		return NULL;
	p = &s->pairs[s->npairs++];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->src = src;
	p->dst = dst;
	p->on = 1;
	p->dep = di;
	p->why = why;
	return p;
}

static void reg(is *s, pair *p, ir_op *op)
{
	if (op)
		hput(s, op, (unsigned)(p - s->pairs) + 1);
}

static void reg_all(is *s, pair *p)
{
	reg(s, p, p->set);
	reg(s, p, p->wait);
	reg(s, p, p->prime);
	reg(s, p, p->drain);
}

/* pto.barrier <pipe> right before b. */
static void place_barrier(is *s, unsigned di, int pipe, const char *why)
{
	ir_op *b = s->ops[s->deps[di].b].op;
	pair *p = new_pair(s, PK_BAR, pipe, pipe, di, why);
	if (!p) {
		s->full = 1;
		return;
	}
	p->wait = mk_barrier(s, pipe, b->loc);
	put_before(s, b, p->wait);
	reg(s, p, p->wait);
}

/* The forward dependence di on (P, Q): move the set of a pair of the same pipes
 * later, or place a new pair. */
static void place_forward(is *s, unsigned di, int P, int Q)
{
	dep *d = &s->deps[di];
	ir_op *a = s->ops[d->a].op, *b = s->ops[d->b].op, *A, *B;
	ir_block *L = lca_block(a, b);
	size_t i;
	pair *p;
	A = anc(a, L);
	B = anc(b, L);
	if (A == B) { /* while: before region to after region */
		if (!(p = new_pair(s, PK_END, P, Q, di, "forward")))
			{ place_barrier(s, di, PTORT_PIPE_ALL, "too many pairs"); return; }
		p->set = mk_flag(s, 1, P, Q, 0, a->loc);
		p->wait = mk_flag(s, 0, P, Q, 0, a->loc);
		put_at_end(s, region_block(A, 0), p->set);
		put_at_end(s, region_block(A, 0), p->wait);
		reg_all(s, p);
		return;
	}
	for (i = 0; i < s->npairs; i++) {
		ir_op *Aa, *Bb;
		p = &s->pairs[i];
		if (!p->on || p->kind != PK_FWD || p->src != P || p->dst != Q)
			continue;
		Aa = anc(a, p->set->block);
		Bb = anc(b, p->set->block);
		if (!Aa || !Bb || !before(s, p->set, Aa) || !before(s, Aa, p->wait) ||
		    !(Bb == p->wait || before(s, p->wait, Bb)))
			continue;
		{
			ir_op *old = p->set->next;
			ir_op_erase(p->set);
			put_after(s, Aa, p->set);
			if (hb_covered(s, d))
				return;
			ir_op_erase(p->set); /* not expected (a later set covers more): undo */
			put_before(s, old, p->set);
		}
	}
	if (!(p = new_pair(s, PK_FWD, P, Q, di, "forward")))
		{ place_barrier(s, di, PTORT_PIPE_ALL, "too many pairs"); return; }
	p->set = mk_flag(s, 1, P, Q, 0, a->loc);
	p->wait = mk_flag(s, 0, P, Q, 0, b->loc);
	put_after(s, A, p->set);
	put_before(s, B, p->wait);
	reg_all(s, p);
}

/* The last pre-order number of an op on pipe R inside `loop` (in block `in` when not
 * NULL). */
static unsigned last_on(const is *s, ir_op *loop, ir_block *in, int R)
{
	size_t i;
	unsigned best = 0;
	for (i = 0; i < s->nops; i++)
		if (s->ops[i].pipe == R && s->ops[i].pre + 1 > best &&
		    (in ? anc(s->ops[i].op, in) != NULL : loop_block_of(loop, s->ops[i].op) != NULL))
			best = s->ops[i].pre + 1;
	return best;
}

/* Where the flag of a dependence carried by an scf.for goes: the body, or the arm of
 * an scf.if in it (of an if in that arm, ...) that holds both ops, so that the flag is
 * set and waited for only in the iterations that run them (docs/sync.md). */
static ir_block *carried_block(is *s, const dep *d)
{
	ir_op *a = s->ops[d->a].op, *b = s->ops[d->b].op, *A;
	ir_block *blk = region_block(d->loop, 0), *in;
	unsigned r;
	for (;;) {
		A = anc(a, blk);
		if (!A || A != anc(b, blk) || A->code != IR_OP_SCF_IF)
			return blk;
		for (in = NULL, r = 0; r < A->num_regions; r++)
			if (region_block(A, r) && anc(a, region_block(A, r)) && anc(b, region_block(A, r)))
				in = region_block(A, r);
		if (!in)
			return blk;
		blk = in;
	}
}

/* The carried dependence di on (P, Q) of its loop. */
static void place_carried(is *s, unsigned di, int Q)
{
	dep *d = &s->deps[di];
	ir_op *a = s->ops[d->a].op, *b = s->ops[d->b].op, *loop = d->loop, *B;
	walker w;
	hb st;
	unsigned kset, best = 0;
	int R, src = -1, prime = 0;
	size_t i;
	pair *p;
	ir_block *end, *in = NULL;
	if (loop->code == IR_OP_SCF_FOR) {
		/* the state at the end of the block the flag goes in */
		in = carried_block(s, d);
		hb_start(&w, &st, s, s->ops[d->a].pipe);
		B = up_to(&w, &st, a, in);
		walk_range(&w, &st, B->next, NULL);
	} else {
		to_round_end(&w, &st, s, a, s->ops[d->a].pipe, loop);
	}
	kset = st.k | 1u << s->ops[d->a].pipe;
	for (R = 0; R < PTORT_PIPE_COUNT; R++) {
		unsigned at;
		if (R == Q || !(kset >> R & 1) || !ir_pipe_pair_valid(s->t, s->core, R, Q))
			continue;
		at = last_on(s, loop, in, R);
		if (src < 0 || at > best || (at == best && R == s->ops[d->a].pipe))
			src = R, best = at;
	}
	if (src < 0)
		{ place_barrier(s, di, PTORT_PIPE_ALL, "no flag between the pipes on this core"); return; }
	end = in ? in : region_block(loop, 1);
	if (in) {
		B = anc(b, end);
		for (i = 0; i < s->nops && !prime; i++) {
			ir_op *x = anc(s->ops[i].op, end);
			prime = s->ops[i].pipe == Q && x && x != B && before(s, x, B);
		}
	}
	if (!(p = new_pair(s, prime ? PK_PRIME : PK_END, src, Q, di, "carried")))
		{ place_barrier(s, di, PTORT_PIPE_ALL, "too many pairs"); return; }
	p->set = mk_flag(s, 1, src, Q, 0, b->loc);
	put_at_end(s, end, p->set);
	p->wait = mk_flag(s, 0, src, Q, 0, b->loc);
	if (prime) {
		put_before(s, anc(b, end), p->wait);
		p->prime = mk_flag(s, 1, src, Q, 0, loop->loc);
		p->drain = mk_flag(s, 0, src, Q, 0, loop->loc);
		put_before(s, loop, p->prime);
		put_after(s, loop, p->drain);
	} else {
		put_at_end(s, end, p->wait);
	}
	reg_all(s, p);
}

static void place(is *s, unsigned di)
{
	dep *d = &s->deps[di];
	int P = s->ops[d->a].pipe, Q = s->ops[d->b].pipe;
	if (P == Q)
		{ place_barrier(s, di, P, "same pipe"); return; }
	if (!ir_pipe_pair_valid(s->t, s->core, P, Q))
		{ place_barrier(s, di, PTORT_PIPE_ALL, "no flag between the pipes on this core"); return; }
	if (!d->loop)
		place_forward(s, di, P, Q);
	else
		place_carried(s, di, Q);
}

/* ---- the function ------------------------------------------------------------------- */

static int grow(void **a, size_t *cap, size_t n, size_t elem)
{
	void *p;
	if (n < *cap)
		return 0;
	p = realloc(*a, (*cap ? *cap * 2 : 64) * elem);
	if (!p)
		return -1;
	*a = p;
	*cap = *cap ? *cap * 2 : 64;
	return 0;
}

typedef struct collect {
	is *s;
	size_t cap;
	unsigned pre;
	int skip;      /* 1 explicit sync, 2 mixed, 3 level 3, 4 unplaced */
	ir_op *where;
	unsigned sections; /* 1 << IR_CORE_VECTOR / IR_CORE_CUBE: the kinds of its sections */
} collect;

static int has_sync_role(const ir_op *op)
{
	unsigned rule = IR_OPF_PIPE_RULE(ir_opdef_get(op->code)->flags);
	if (op->code == IR_OP_UNKNOWN)
		return 0;
	return rule == IR_PR_SYNC || op->code == IR_OP_SYNC_SET || op->code == IR_OP_SYNC_WAIT ||
	       op->code == IR_OP_GET_BUF || op->code == IR_OP_RLS_BUF || op->code == IR_OP_SET_FFTS ||
	       op->code == IR_OP_DECLARE_EVENTID_ARRAY || op->code == IR_OP_EVENTID_ARRAY_GET ||
	       op->code == IR_OP_EVENTID_ARRAY_SET;
}

/* Ops that touch no memory of their own. */
static int no_footprint(const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	switch (op->code) {
	case IR_OP_ALLOC_TILE: case IR_OP_TASSIGN: case IR_OP_SET_VALIDSHAPE:
	case IR_OP_SCF_FOR: case IR_OP_SCF_IF: case IR_OP_SCF_WHILE: case IR_OP_SCF_YIELD:
	case IR_OP_SCF_CONDITION: case IR_OP_RETURN: case IR_OP_FUNC: case IR_OP_TRAP:
	case IR_OP_CALL: case IR_OP_SECTION_CUBE: case IR_OP_SECTION_VECTOR:
		return 1;
	default:
		return (d->flags & IR_OPF_PURE) != 0;
	}
}

static int collect_op(ir_op *op, void *user)
{
	collect *c = user;
	is *s = c->s;
	const ir_opdef *d = ir_opdef_get(op->code);
	size_t first;
	unsigned i, n = 0;
	int r;
	aop *x;
	ir_op *p;
	c->pre++;
	if (op->code == IR_OP_FUNC)
		return 0;
	if (has_sync_role(op)) {
		c->skip = 1, c->where = op;
		return 1;
	}
	if (op->code == IR_OP_SECTION_CUBE || op->code == IR_OP_SECTION_VECTOR) {
		c->sections |= 1u << (op->code == IR_OP_SECTION_CUBE ? IR_CORE_CUBE : IR_CORE_VECTOR);
		if (c->sections == (1u << IR_CORE_CUBE | 1u << IR_CORE_VECTOR)) {
			c->skip = 2, c->where = op;
			return 1;
		}
		return 0;
	}
	if ((op->code >= IR_OP_SECTION_CUBE && op->code <= IR_OP_TFREE) ||
	    (op->code == IR_OP_UNKNOWN && op->num_regions)) {
		c->skip = 2, c->where = op;
		return 1;
	}
	if (d->flags & IR_OPF_LEVEL3) {
		c->skip = 3, c->where = op;
		return 1;
	}
	if (no_footprint(op) || op->code == IR_OP_UNKNOWN)
		return 0;
	for (i = 0; i < op->num_operands; i++) {
		const ir_type *t = op->operands[i].value->type;
		n += ir_type_is_tile(t) || (t && (t->kind == IR_TYPE_PART_VIEW ||
						  t->kind == IR_TYPE_TENSOR_VIEW || t->kind == IR_TYPE_PTR));
	}
	if (!n)
		return 0;
	r = sync_op_footprint(&s->fp, op, s->t, &first);
	if (r < 0) {
		s->oom = 1;
		return 1;
	}
	if (r > 0 || ir_op_pipe(op, s->t) < 0) {
		c->skip = 4, c->where = op;
		return 1;
	}
	if (s->fp.n == first)
		return 0;
	if (grow((void **)&s->ops, &c->cap, s->nops, sizeof *s->ops)) {
		s->oom = 1;
		return 1;
	}
	x = &s->ops[s->nops++];
	x->op = op;
	x->pipe = ir_op_pipe(op, s->t);
	x->fp0 = first;
	x->nfp = s->fp.n - first;
	x->pre = c->pre;
	x->depth = 0;
	for (p = parent_op(op); p; p = parent_op(p))
		x->depth += is_loop(p);
	return 0;
}

static int add_dep(is *s, unsigned a, unsigned b, ir_op *loop)
{
	dep *d;
	ir_op *p;
	if (grow((void **)&s->deps, &s->capdeps, s->ndeps, sizeof *s->deps))
		return -1;
	d = &s->deps[s->ndeps++];
	d->a = a;
	d->b = b;
	d->loop = loop;
	d->depth = 0;
	for (p = loop; p; p = parent_op(p))
		d->depth += is_loop(p);
	return 0;
}

/* Every dependence between the collected ops (none inside one in-order pipe), less
 * the forward ones that two others imply: a forward dependence i -> j is left out when
 * an op k directly in j's block, between i's op (or the structure holding it) and j,
 * touches bytes of both (i -> k and k -> j are then ordered, by the pass or by an
 * in-order pipe, and happens-before is transitive). For each consumer the nearest
 * CUT_MAX such ops are tried, so a chain of ops on one tile has a dependence per link
 * instead of one per pair (docs/sync.md, "Large functions"). */
#define CUT_MAX 8
static int find_deps(is *s)
{
	size_t i, j, c;
	for (j = 0; j < s->nops && s->ndeps <= MAX_DEPS; j++) {
		aop *y = &s->ops[j];
		size_t cut[CUT_MAX], ncut = 0;
		for (i = j + 1; i-- > 0;) {
			aop *x = &s->ops[i];
			ir_block *L;
			ir_op *A, *B, *l;
			int inorder = x->pipe == y->pipe && (s->t->inorder_pipes >> x->pipe & 1), implied = 0;
			if (!sync_fp_conflict(s->fp.a + x->fp0, x->nfp, s->fp.a + y->fp0, y->nfp))
				continue;
			L = lca_block(x->op, y->op);
			A = anc(x->op, L);
			B = anc(y->op, L);
			if (i != j && (A != B || (A->code == IR_OP_SCF_WHILE &&
						  loop_block_of(A, x->op) == region_block(A, 0) &&
						  loop_block_of(A, y->op) == region_block(A, 1)))) {
				if (L == y->op->block && A != B)
					for (c = 0; c < ncut && !implied; c++) {
						const aop *k = &s->ops[cut[c]];
						implied = sync_fp_conflict(s->fp.a + x->fp0, x->nfp,
									   s->fp.a + k->fp0, k->nfp);
					}
				if (!implied && !inorder && add_dep(s, (unsigned)i, (unsigned)j, NULL))
					return -1;
				if (x->op->block == y->op->block && ncut < CUT_MAX)
					cut[ncut++] = i;
			}
			if (inorder)
				continue;
			for (l = i == j ? parent_op(x->op) : (A == B ? A : parent_op(A)); l; l = parent_op(l)) {
				if (!is_loop(l))
					continue;
				if (add_dep(s, (unsigned)i, (unsigned)j, l))
					return -1;
				if (i != j && add_dep(s, (unsigned)j, (unsigned)i, l))
					return -1;
			}
		}
	}
	return 0;
}

static const is *sort_s;

static int dep_class(const is *s, const dep *d)
{
	if (s->ops[d->a].pipe == s->ops[d->b].pipe)
		return 2;
	return d->loop ? 1 : 0;
}

static int dep_cmp(const void *x, const void *y)
{
	const dep *a = x, *b = y;
	const is *s = sort_s;
	int ca = dep_class(s, a), cb = dep_class(s, b);
	if (ca != cb)
		return ca - cb;
	if (ca == 1 && a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	if (s->ops[a->b].pre != s->ops[b->b].pre)
		return s->ops[a->b].pre < s->ops[b->b].pre ? -1 : 1;
	if (s->ops[a->a].pre != s->ops[b->a].pre)
		return s->ops[a->a].pre > s->ops[b->a].pre ? -1 : 1;
	return 0;
}

static int all_covered(is *s, size_t *bad)
{
	size_t i;
	for (i = 0; i < s->ndeps; i++)
		if (!hb_covered(s, &s->deps[i])) {
			if (bad)
				*bad = i;
			return 0;
		}
	return 1;
}

/* ---- event ids --------------------------------------------------------------------- */

static int is_flag_op(const ir_op *op)
{
	return op->code == IR_OP_SET_FLAG || op->code == IR_OP_WAIT_FLAG;
}

/* The position of `op` among the flag ops in program order (0 when absent). */
static size_t pos_of(const ir_op_list *n, const ir_op *op)
{
	size_t i;
	for (i = 0; i < n->n; i++)
		if (n->a[i] == op)
			return i;
	return 0;
}

static const char *dep_word(const is *s, const dep *d)
{
	const aop *a = &s->ops[d->a], *b = &s->ops[d->b];
	size_t i, j;
	for (i = 0; i < a->nfp; i++)
		for (j = 0; j < b->nfp; j++) {
			const sync_fp *x = &s->fp.a[a->fp0 + i], *y = &s->fp.a[b->fp0 + j];
			if (!sync_fp_conflict(x, 1, y, 1))
				continue;
			return x->w && y->w ? "WAW" : x->w ? "RAW" : "WAR";
		}
	return "dependence";
}

static const char *pname(int p)
{
	return p == PTORT_PIPE_ALL ? "PIPE_ALL" : ptort_pipe_name((ptort_pipe)p);
}

/* Turns pair p into a barrier <PIPE_ALL> where it waits. */
static void to_barrier_all(is *s, pair *p)
{
	ir_op *bar = mk_barrier(s, PTORT_PIPE_ALL, p->wait->loc);
	put_before(s, p->wait, bar);
	ir_op_erase(p->wait);
	ir_op_erase(p->set);
	if (p->prime)
		ir_op_erase(p->prime);
	if (p->drain)
		ir_op_erase(p->drain);
	p->kind = PK_BAR;
	p->why = "no event id free";
	p->src = p->dst = PTORT_PIPE_ALL;
	p->set = p->prime = p->drain = NULL;
	p->wait = bar;
	reg(s, p, bar);
}

static int assign_events(is *s, ir_op *func)
{
	ir_op_list n = {0};
	size_t i, j, *lo = NULL, *hi = NULL;
	unsigned char next_id[PTORT_PIPE_COUNT + 1][PTORT_PIPE_COUNT + 1];
	memset(next_id, 0, sizeof next_id);
	if (ir_op_list_collect(func, is_flag_op, &n))
		return -1;
	lo = calloc(s->npairs + 1, sizeof *lo);
	hi = calloc(s->npairs + 1, sizeof *hi);
	if (!lo || !hi) {
		free(lo);
		free(hi);
		free(n.a);
		return -1;
	}
	for (i = 0; i < s->npairs; i++) {
		pair *p = &s->pairs[i];
		if (!p->on || p->kind == PK_BAR)
			continue;
		lo[i] = pos_of(&n, p->prime ? p->prime : p->set);
		hi[i] = pos_of(&n, p->drain ? p->drain : p->wait);
		if (hi[i] < lo[i]) { /* the wait comes first (a loop body's): the whole span */
			size_t t = lo[i];
			lo[i] = hi[i];
			hi[i] = t;
		}
	}
	/* in order of start: the lowest id no overlapping pair of the same pipes holds */
	for (;;) {
		size_t pick = s->npairs;
		unsigned used = 0;
		for (i = 0; i < s->npairs; i++) {
			pair *p = &s->pairs[i];
			if (p->on && p->kind != PK_BAR && p->ev == 0 &&
			    (pick == s->npairs || lo[i] < lo[pick]))
				pick = i;
		}
		if (pick == s->npairs)
			break;
		for (j = 0; j < s->npairs; j++) {
			pair *q = &s->pairs[j];
			if (j != pick && q->on && q->kind != PK_BAR && q->ev > 0 &&
			    q->src == s->pairs[pick].src && q->dst == s->pairs[pick].dst &&
			    lo[j] <= hi[pick] && lo[pick] <= hi[j])
				used |= 1u << (q->ev - 1);
		}
		/* round robin from the key's last id: a flag of the same pipes placed after
		 * another takes another id while one is free, so that its set need not wait
		 * for the other's wait (a set on a flag still set is lost) */
		{
			unsigned k0 = next_id[s->pairs[pick].src][s->pairs[pick].dst], t;
			for (t = 0; t < PTORT_EVENT_IDS && (used >> ((k0 + t) % PTORT_EVENT_IDS) & 1); t++)
				;
			j = t == PTORT_EVENT_IDS ? PTORT_EVENT_IDS : (k0 + t) % PTORT_EVENT_IDS;
			if (j < PTORT_EVENT_IDS)
				next_id[s->pairs[pick].src][s->pairs[pick].dst] = (unsigned char)((j + 1) % PTORT_EVENT_IDS);
		}
		if (j == PTORT_EVENT_IDS) {
			pair *p = &s->pairs[pick];
			const dep *d = &s->deps[p->dep];
			pass_remark(s->ctx, s->o, PASS_NAME, p->wait->loc,
				    "%d flags %s -> %s are live here already: pto.barrier <PIPE_ALL> "
				    "instead of a flag for the %s of '%s' on '%s' (line %u)",
				    PTORT_EVENT_IDS, pname(p->src), pname(p->dst), dep_word(s, d),
				    s->ops[d->b].op->name, s->ops[d->a].op->name,
				    (unsigned)s->ops[d->a].op->loc.line);
			to_barrier_all(s, p);
			continue;
		}
		s->pairs[pick].ev = (int)j + 1;
	}
	free(lo);
	free(hi);
	free(n.a);
	return 0;
}

static void set_event(is *s, ir_op *op, int ev)
{
	char e[16];
	int n = snprintf(e, sizeof e, "EVENT_ID%d", ev);
	if (op)
		ir_op_set_attr(s->ctx, op, "event_id",
			       ir_attr_pto(s->ctx, ir_intern(s->ctx, "event", 5),
					   ir_intern(s->ctx, e, (size_t)n), IR_PTO_DOTTED));
}

/* ---- a flag's wait before its next set ---------------------------------------------- */

/* Whether wait W of a flag (P, Q, id) happens before set S of the same flag on every
 * path from W to S, in one iteration and across each loop holding both: a set while
 * the previous wait has not run is lost (docs/semantics.md §8.8). */
static int reuse_ordered(is *s, ir_op *W, ir_op *S, int P, int Q)
{
	ir_block *L = lca_block(W, S);
	ir_op *A = anc(W, L), *B = anc(S, L), *l;
	if (((A != B && before(s, A, B)) ||
	     (A == B && A->code == IR_OP_SCF_WHILE && loop_block_of(A, W) == region_block(A, 0) &&
	      loop_block_of(A, S) == region_block(A, 1))) &&
	    !hb_ordered(s, W, Q, S, P, NULL))
		return 0;
	for (l = A == B ? A : parent_op(A); l; l = parent_op(l))
		if (is_loop(l) && !hb_ordered(s, W, Q, S, P, l))
			return 0;
	return 1;
}

/* Orders wait W of pair pi before every later set of its flag: set_flag(Q, P) and
 * wait_flag(Q, P) right after W (P's later work, its sets included, then follows W),
 * or a barrier <PIPE_ALL> there when the core has no such flag or `bar`. */
static int handshake(is *s, size_t pi, ir_op *W, int bar)
{
	pair *p = &s->pairs[pi], *h = NULL;
	int P = p->src, Q = p->dst;
	if (!bar && ir_pipe_pair_valid(s->t, s->core, Q, P))
		h = new_pair(s, PK_END, Q, P, p->dep, "handshake");
	if (h) {
		h->set = mk_flag(s, 1, Q, P, 0, W->loc);
		h->wait = mk_flag(s, 0, Q, P, 0, W->loc);
		put_after(s, W, h->set);
		put_after(s, h->set, h->wait);
	} else {
		if (!(h = new_pair(s, PK_BAR, PTORT_PIPE_ALL, PTORT_PIPE_ALL, p->dep, "handshake"))) {
			s->full = 1;
			return -1;
		}
		h->wait = mk_barrier(s, PTORT_PIPE_ALL, W->loc);
		put_after(s, W, h->wait);
	}
	h->hs = (int)pi + 1;
	reg_all(s, h);
	return 0;
}

/* After the event ids: every wait of a flag happens before the next set of that flag
 * (same pipes and id), or a handshake orders it (a few rounds, as a handshake's own
 * flag needs the same; the last round uses barriers). */
static int order_reuse(is *s, ir_op *func)
{
	int round;
	for (round = 0; round < 4; round++) {
		size_t i, j, n = s->npairs;
		int added = 0;
		for (i = 0; i < n; i++) {
			pair *p = &s->pairs[i];
			ir_op *ws[2];
			unsigned k;
			if (!p->on || p->kind == PK_BAR || !p->ev)
				continue;
			ws[0] = p->wait;
			ws[1] = p->drain;
			for (k = 0; k < 2; k++) {
				int bad = 0;
				const ir_op *near = NULL;
				uint64_t kw = 0, kq, kmin = 0;
				/* of the sets after the wait in its block only the nearest is asked:
				 * the walk to a later one passes it, and what is known only grows */
				for (j = 0; j < n && ws[k] && kget(s, ws[k], &kw); j++) {
					pair *q = &s->pairs[j];
					if (q->on && q->kind != PK_BAR && q->src == p->src && q->dst == p->dst &&
					    q->ev == p->ev && q->set->block == ws[k]->block &&
					    kget(s, q->set, &kq) && kq > kw && (!near || kq < kmin))
						near = q->set, kmin = kq;
				}
				for (j = 0; j < n && ws[k] && !bad; j++) {
					pair *q = &s->pairs[j];
					if (!q->on || q->kind == PK_BAR || q->src != p->src || q->dst != p->dst ||
					    q->ev != p->ev)
						continue;
					if (near && q->set != near && q->set->block == ws[k]->block &&
					    kget(s, q->set, &kq) && kq > kmin)
						bad = q->prime && !reuse_ordered(s, ws[k], q->prime, p->src, p->dst);
					else
					bad = !reuse_ordered(s, ws[k], q->set, p->src, p->dst) ||
					      (q->prime && !reuse_ordered(s, ws[k], q->prime, p->src, p->dst));
				}
				if (bad && handshake(s, i, ws[k], round == 3))
					return -1;
				added |= bad;
			}
		}
		if (!added || round == 3)
			return 0;
		if (assign_events(s, func))
			return -1;
		for (i = n; i < s->npairs; i++) {
			pair *p = &s->pairs[i];
			if (p->on && p->kind != PK_BAR) {
				set_event(s, p->set, p->ev - 1);
				set_event(s, p->wait, p->ev - 1);
			}
		}
	}
	return 0;
}

static void report(is *s)
{
	size_t i;
	unsigned npairs = 0, nbar = 0;
	for (i = 0; i < s->npairs; i++) {
		pair *p = &s->pairs[i];
		const dep *d = &s->deps[p->dep];
		const aop *a = &s->ops[d->a], *b = &s->ops[d->b];
		if (!p->on)
			continue;
		if (p->hs) {
			const pair *o = &s->pairs[p->hs - 1];
			if (p->kind == PK_BAR)
				nbar++;
			else
				npairs++;
			if (p->kind == PK_BAR)
				pass_remark(s->ctx, s->o, PASS_NAME, p->wait->loc,
					    "pto.barrier <PIPE_ALL> after the wait of %s -> %s EVENT_ID%d, so "
					    "that the flag's next set finds it cleared", pname(o->src),
					    pname(o->dst), o->ev - 1);
			else
				pass_remark(s->ctx, s->o, PASS_NAME, p->wait->loc,
					    "%s -> %s EVENT_ID%d after the wait of %s -> %s EVENT_ID%d, so "
					    "that the flag's next set finds it cleared", pname(p->src),
					    pname(p->dst), p->ev - 1, pname(o->src), pname(o->dst), o->ev - 1);
			continue;
		}
		if (p->kind == PK_BAR) {
			nbar++;
			pass_remark(s->ctx, s->o, PASS_NAME, p->wait->loc,
				    "pto.barrier <%s> for the %s%s of '%s' (%s) on '%s' (%s, line %u)%s%s",
				    pname(p->src), dep_word(s, d), d->loop ? " across iterations" : "",
				    b->op->name, pname(b->pipe), a->op->name, pname(a->pipe),
				    (unsigned)a->op->loc.line, p->src == PTORT_PIPE_ALL ? ": " : "",
				    p->src == PTORT_PIPE_ALL ? p->why : "");
			continue;
		}
		npairs++;
		pass_remark(s->ctx, s->o, PASS_NAME, p->wait->loc,
			    "%s -> %s EVENT_ID%d%s for the %s%s of '%s' on '%s' (line %u)",
			    pname(p->src), pname(p->dst), p->ev - 1,
			    p->kind == PK_PRIME ? " (primed before the loop, drained after it)"
			    : p->kind == PK_END ? (is_loop(parent_op(p->set)) ? " (at the end of the loop body)"
						  : " (at the end of an scf.if arm in the loop)") : "",
			    dep_word(s, d), d->loop ? " across iterations" : "", b->op->name,
			    a->op->name, (unsigned)a->op->loc.line);
	}
	(void)npairs;
	(void)nbar;
}

/* A function too large to place flags in: a barrier <PIPE_ALL> after each op but the
 * last (docs/sync.md, "Large functions"). */
static void fallback(is *s, ir_op *func, const char *why)
{
	size_t i;
	for (i = 0; i + 1 < s->nops; i++)
		put_after(s, s->ops[i].op, mk_barrier(s, PTORT_PIPE_ALL, s->ops[i].op->loc));
	pass_remark(s->ctx, s->o, PASS_NAME, func->loc, "%s between its %zu ops: a barrier "
		    "<PIPE_ALL> after each op", why, (size_t)s->nops);
}

static unsigned run_func(is *s, ir_op *func)
{
	collect c;
	size_t i, bad;
	memset(&c, 0, sizeof c);
	c.s = s;
	if (!func->num_regions || !func->regions[0].first)
		return 0;
	ir_walk(func, collect_op, &c);
	if (s->oom)
		goto oom;
	if (c.skip == 4) {
		ir_error(s->ctx, c.where->loc, "insert-sync needs placed tile buffers: '%s' has a "
			 "tile without a memory (run bufferize and place-tiles first)", c.where->name);
		return 1;
	}
	if (c.skip) {
		pass_remark(s->ctx, s->o, PASS_NAME, c.where->loc,
			    "function left as written: %s",
			    c.skip == 1 ? "it synchronises itself (explicit and inserted syncs never mix)"
			    : c.skip == 3 ? "it holds level-3 instructions (insert-sync runs on tile "
					    "buffers, before split-repeats)"
					  : "mixed cube/vector ops are not synchronised by ptoc yet");
		return 0;
	}
	s->core = c.sections == 1u << IR_CORE_CUBE     ? IR_CORE_CUBE
		  : c.sections == 1u << IR_CORE_VECTOR ? IR_CORE_VECTOR
						       : ir_func_core(func);
	ir_walk(func, key_op, s);
	if (s->oom)
		goto oom;
	if (find_deps(s))
		goto oom;
	if (s->ndeps > MAX_DEPS) {
		fallback(s, func, "more than 200000 dependences");
		return 0;
	}
	sort_s = s;
	if (s->ndeps)
		qsort(s->deps, s->ndeps, sizeof *s->deps, dep_cmp);
	for (i = 0; i < s->ndeps && !s->oom && !s->full && s->work <= MAX_WORK; i++)
		if (!hb_covered(s, &s->deps[i]))
			place(s, (unsigned)i);
	if (s->oom)
		goto oom;
	if (s->full || s->work > MAX_WORK) {
		for (i = 0; i < s->npairs; i++) {
			pair *p = &s->pairs[i];
			ir_op *const x[4] = {p->set, p->wait, p->prime, p->drain};
			unsigned k;
			for (k = 0; k < 4; k++)
				if (x[k])
					ir_op_erase(x[k]);
			p->on = 0;
		}
		fallback(s, func, s->full ? "more than " PAIRS_TEXT " flags and barriers needed"
					  : "too many dependences to place flags in reasonable time");
		return 0;
	}
	/* drop what the others make unnecessary (the dependence a pair was placed for
	 * first: most pairs are needed for it, and that answer takes one walk instead of
	 * one per dependence) */
	for (i = 0; i < s->npairs; i++) {
		s->pairs[i].on = 0;
		if (s->work > 2 * MAX_WORK || !hb_covered(s, &s->deps[s->pairs[i].dep]) ||
		    !all_covered(s, NULL))
			s->pairs[i].on = 1; /* needed (or no budget left to find out) */
	}
	for (i = 0; i < s->npairs; i++) {
		pair *p = &s->pairs[i];
		if (p->on)
			continue;
		if (p->set)
			ir_op_erase(p->set);
		if (p->wait)
			ir_op_erase(p->wait);
		if (p->prime)
			ir_op_erase(p->prime);
		if (p->drain)
			ir_op_erase(p->drain);
	}
	if (assign_events(s, func))
		goto oom;
	for (i = 0; i < s->npairs; i++) {
		pair *p = &s->pairs[i];
		if (!p->on || p->kind == PK_BAR)
			continue;
		set_event(s, p->set, p->ev - 1);
		set_event(s, p->wait, p->ev - 1);
		set_event(s, p->prime, p->ev - 1);
		set_event(s, p->drain, p->ev - 1);
	}
	if (order_reuse(s, func)) {
		if (!s->full)
			goto oom;
		ir_error(s->ctx, func->loc, "insert-sync: more than %d flags and barriers needed in "
			 "one function", MAX_PAIRS);
		return 1;
	}
	if (!all_covered(s, &bad)) {
		const dep *d = &s->deps[bad];
		ir_error(s->ctx, s->ops[d->b].op->loc, "insert-sync: internal error: '%s' is not "
			 "ordered after '%s' (line %u)", s->ops[d->b].op->name, s->ops[d->a].op->name,
			 (unsigned)s->ops[d->a].op->loc.line);
		return 1;
	}
	report(s);
	return 0;
oom:
	ir_error(s->ctx, func->loc, "insert-sync: out of memory");
	return 1;
}

unsigned pass_insert_sync(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	ir_block *b = module->num_regions ? module->regions[0].first : NULL;
	ir_op *f;
	unsigned errs = 0;
	for (f = b ? b->first : NULL; f; f = f->next) {
		is s;
		if (f->code != IR_OP_FUNC)
			continue;
		memset(&s, 0, sizeof s);
		s.ctx = ctx;
		s.o = o;
		s.t = o->target;
		s.pairs = calloc(MAX_PAIRS, sizeof *s.pairs);
		if (!s.pairs) {
			ir_error(ctx, f->loc, "insert-sync: out of memory");
			errs++;
		} else {
			errs += run_func(&s, f);
		}
		free(s.pairs);
		sync_keys_free(&s.ptab);
		sync_keys_free(&s.keys);
		free(s.ops);
		free(s.deps);
		free(s.fp.a);
	}
	return errs;
}
