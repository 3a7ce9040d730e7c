/* place_tiles.c: the place-tiles pass: a byte address for every tile buffer.
 *
 * Per func.func (each kernel has its own on-chip memories) and per memory:
 *   1. every pto.alloc_tile is a tile; the tassigns on it (and on the values they
 *      return) are part of it. Its live interval is the span, in pre-order op
 *      numbers, of its uses, each use widened to the op of the alloc's block that
 *      contains it (a tile used inside scf.for / scf.if is live for the whole op).
 *      A tile carried through scf (an scf.for init or a yield operand) is also live
 *      over the whole scf.for it enters and over the uses of the scf result it
 *      becomes (widened in that op's block).
 *      The ins and outs of one op are both live at that op, so they never share.
 *   2. manual tiles (`alloc_tile addr = %a`, `pto.tassign %t, %a`) keep their
 *      addresses. An address is resolved to the set of constants it can take
 *      (arith.constant, index_cast, select and scf.if of those); each must be aligned
 *      and inside the memory (errors otherwise; reaching into UB's reserved top is a
 *      warning). Two different manual tiles live at
 *      the same time whose ranges overlap are an error unless the ranges are
 *      identical (deliberate aliasing: the same bytes seen as two tiles). A manual
 *      address that is not a constant is warned about: automatic tiles cannot avoid
 *      what they cannot know.
 *   3. automatic tiles, in program order of their alloc_tile, go first-fit to the
 *      lowest aligned address that does not overlap any tile live at the same time
 *      (manual or already placed), below capacity minus the reserved top (UB's 8 KiB,
 *      only in a function with an op lower_vec_uses_ub_scratch names).
 *      No fit is an error saying the bytes needed and available.
 *   4. each automatic alloc_tile gets `addr = %cN` with `%cN = arith.constant N : i64`
 *      inserted just before it, so the printed IR shows every address and re-parses.
 * docs/placement.md describes the decisions.
 *
 * Requires: level 2 (run bufferize first; a level-1 tile op left is ignored).
 * Preserves: everything but alloc_tile ops of automatic tiles (rebuilt with an addr
 * operand, same result name, type and location). Manual tiles are untouched, so
 * running the pass twice changes nothing the second time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/lower.h"
#include "passes/passes.h"
#include "passes/tiles.h"

/* ---- op numbering: pre-order number and last descendant of every op ---------- */

typedef struct slot {
	const ir_op *op;
	int64_t pre, end;
} slot;

typedef struct numbering {
	slot *tab;
	size_t mask;
	int64_t next;
} numbering;

static slot *num_find(const numbering *n, const ir_op *op)
{
	size_t i = ir_hash_ptr(op) & n->mask;
	while (n->tab[i].op && n->tab[i].op != op)
		i = (i + 1) & n->mask;
	return &n->tab[i];
}


/* The last op of `op`'s subtree in walk order, or NULL when it has no nested op. */
static ir_op *last_inside(const ir_op *op)
{
	unsigned r = op->num_regions;
	while (r--) {
		const ir_block *b, *last = NULL;
		for (b = op->regions[r].first; b; b = b->next)
			if (b->last)
				last = b;
		if (last)
			return last->last;
	}
	return NULL;
}

/* Lists (one walk; the caller frees l->a) and numbers every op under `root`; -1 on out
 * of memory. */
static int number_ops(ir_ctx *ctx, ir_op *root, numbering *n, ir_op_list *l)
{
	size_t cap = 16, i;
	if (ir_op_list_collect(root, NULL, l))
		return -1;
	while (cap < 2 * l->n)
		cap *= 2;
	n->tab = ir_alloc(ctx, cap * sizeof *n->tab);
	if (!n->tab)
		return -1;
	n->mask = cap - 1;
	n->next = 0;
	for (i = 0; i < l->n; i++) {
		slot *s = num_find(n, l->a[i]);
		s->op = l->a[i];
		s->pre = s->end = n->next++;
	}
	/* reverse pre-order: nested ops are done before the op holding them */
	for (i = l->n; i--;) {
		ir_op *in = last_inside(l->a[i]);
		if (in)
			num_find(n, l->a[i])->end = num_find(n, in)->end;
	}
	return 0;
}

/* ---- tiles ---------------------------------------------------------------------- */

#define MAX_CONSTS 16

typedef struct mrange {
	size_t tile;
	int64_t addr;
	ir_loc loc;
} mrange;

typedef struct tile {
	ir_op *alloc;
	ir_mem mem;
	uint64_t size;
	int64_t lo, hi; /* live interval, pre-order numbers */
	int manual;     /* an addr operand or a tassign */
	int64_t addr;   /* automatic: the address placed; -1 not placed */
} tile;

typedef struct placer {
	ir_ctx *ctx;
	const pass_opts *o;
	numbering num;
	tile *t;
	size_t nt, capt;
	mrange *m;
	size_t nm, capm;
	unsigned errs;
	int oom;
	int scratch; /* an op of the function uses the UB scratch (lower_vec_uses_ub_scratch) */
} placer;

/* The reserved top of memory `mi` in this function: UB's reserve only when an op
 * uses the scratch there (docs/placement.md). */
static uint32_t reserved_top(const placer *p, const ptoc_mem_info *mi)
{
	return p->scratch || mi != tile_mem_info(p->o->target, IR_MEM_VEC) ? mi->reserved_top : 0;
}

static void *grow(void *a, size_t *cap, size_t n, size_t elem, int *oom)
{
	void *b;
	size_t c;
	if (n < *cap)
		return a;
	c = *cap ? 2 * *cap : 16;
	b = realloc(a, c * elem);
	if (!b) {
		*oom = 1;
		return a; /* still owned by the caller, freed at the end */
	}
	*cap = c;
	return b;
}

/* Records the manual address operand `v` of tile `ti`, held by op `holder`. */
static void add_manual(placer *p, size_t ti, const ir_value *v, const ir_op *holder)
{
	int64_t c[MAX_CONSTS];
	unsigned n = 0, k;
	p->t[ti].manual = 1;
	if (tile_addr_consts(v, c, &n, MAX_CONSTS)) {
		ir_warning(p->ctx, holder->loc,
			   "the address of this %s tile is not a compile-time constant; automatically placed tiles do not avoid it",
			   ir_mem_name(p->t[ti].mem));
		return;
	}
	for (k = 0; k < n; k++) {
		p->m = grow(p->m, &p->capm, p->nm, sizeof *p->m, &p->oom);
		if (p->oom)
			return;
		p->m[p->nm].tile = ti;
		p->m[p->nm].addr = c[k];
		p->m[p->nm].loc = holder->loc;
		p->nm++;
	}
}

/* The op of block `b` that is or contains `op`; NULL when none. */
static const ir_op *ancestor_in(const ir_op *op, const ir_block *b)
{
	while (op && op->block != b)
		op = op->block && op->block->region ? op->block->region->parent : NULL;
	return op;
}

static void widen(placer *p, size_t ti, const ir_op *a)
{
	tile *t = &p->t[ti];
	const slot *s = num_find(&p->num, a);
	if (s->pre < t->lo)
		t->lo = s->pre;
	if (s->end > t->hi)
		t->hi = s->end;
}

/* Widens tile ti's interval by the uses of `v`, each widened to the op of block
 * `anchor` that contains it. Follows tassign results and the scf slots the tile is
 * carried through: an scf.for init or yield operand keeps it live over the whole loop
 * (the next iteration reads it), and the uses of the scf result it becomes count,
 * widened in the scf op's own block. */
static void add_uses(placer *p, size_t ti, const ir_value *v, const ir_block *anchor,
		     unsigned depth)
{
	const ir_operand *u;
	for (u = v->uses; u; u = u->next_use) {
		const ir_op *o = u->owner, *a = ancestor_in(o, anchor), *par;
		unsigned idx = (unsigned)(u - o->operands);
		if (!a)
			continue;
		widen(p, ti, a);
		if (depth >= 64)
			continue;
		if (o->code == IR_OP_TASSIGN && idx == 0) {
			add_manual(p, ti, o->operands[1].value, o);
			if (o->num_results == 1)
				add_uses(p, ti, &o->results[0], anchor, depth + 1);
		} else if ((o->code == IR_OP_TRESHAPE || o->code == IR_OP_TBITCAST ||
			    (o->code == IR_OP_SUBSET && idx == 0)) && o->num_results == 1) {
			/* the same bytes under another type (or some of them, a subset's
			 * window): its uses are the tile's */
			add_uses(p, ti, &o->results[0], anchor, depth + 1);
		} else if (o->code == IR_OP_SCF_FOR && idx >= 3 && idx - 3 < o->num_results) {
			add_uses(p, ti, &o->results[idx - 3], o->block, depth + 1);
		} else if (o->code == IR_OP_SCF_WHILE ||
			   ((o->code == IR_OP_SCF_CONDITION || o->code == IR_OP_SCF_YIELD) &&
			    o->block->region && (par = o->block->region->parent) &&
			    par->code == IR_OP_SCF_WHILE)) {
			/* a slot of scf.while (an initial value, a value the condition passes
			 * on, an after region yield): the tile may stay in the loop's slots
			 * for any later iteration and leave through any result, so it is live
			 * over the whole loop and over the uses of every tile result */
			const ir_op *w = o->code == IR_OP_SCF_WHILE ? o : o->block->region->parent;
			unsigned r;
			widen(p, ti, w);
			for (r = 0; r < w->num_results; r++)
				if (w->results[r].type->kind == IR_TYPE_TILE_BUF)
					add_uses(p, ti, &w->results[r], w->block, depth + 1);
		} else if (o->code == IR_OP_SCF_YIELD && o->block->region &&
			   (par = o->block->region->parent) &&
			   (par->code == IR_OP_SCF_FOR || par->code == IR_OP_SCF_IF) &&
			   idx < par->num_results) {
			if (par->code == IR_OP_SCF_FOR)
				widen(p, ti, par);
			add_uses(p, ti, &par->results[idx], par->block, depth + 1);
		}
	}
}

static int collect_alloc(ir_op *op, void *user)
{
	placer *p = user;
	tile *t;
	const ir_type *ty;
	const ir_attr *seg;
	slot *s;
	if (op->code != IR_OP_ALLOC_TILE || op->num_results != 1)
		return 0;
	ty = op->results[0].type;
	if (ty->kind != IR_TYPE_TILE_BUF || !tile_mem_info(p->o->target, ty->u.tb.mem))
		return 0; /* the verifier reports it */
	p->t = grow(p->t, &p->capt, p->nt, sizeof *p->t, &p->oom);
	if (p->oom)
		return 1;
	t = &p->t[p->nt];
	memset(t, 0, sizeof *t);
	t->alloc = op;
	t->mem = ty->u.tb.mem;
	t->size = tile_buf_bytes(ty);
	t->addr = -1;
	s = num_find(&p->num, op);
	t->lo = INT64_MAX;
	t->hi = INT64_MIN;
	p->nt++;
	seg = ir_op_get_attr(op, "operandSegmentSizes");
	if (seg && seg->kind == IR_ATTR_DENSE && seg->u.dense.n == 3 && seg->u.dense.v[0] == 1 &&
	    op->num_operands >= 1)
		add_manual(p, p->nt - 1, op->operands[0].value, op);
	add_uses(p, p->nt - 1, &op->results[0], op->block, 0);
	t = &p->t[p->nt - 1];
	if (t->lo > t->hi)
		t->lo = t->hi = s->pre;
	if (!t->size) {
		ir_error(p->ctx, op->loc, "a tile of %lld x %lld elements is too large to place",
			 (long long)ty->u.tb.rows, (long long)ty->u.tb.cols);
		p->errs++;
	}
	return p->oom;
}

static int live_together(const tile *a, const tile *b)
{
	return a->lo <= b->hi && b->lo <= a->hi;
}

static int overlap(int64_t a, uint64_t an, int64_t b, uint64_t bn)
{
	return a < b + (int64_t)bn && b < a + (int64_t)an;
}

/* Step 2: the checks on manual addresses. */
static void check_manual(placer *p)
{
	size_t i, j;
	for (i = 0; i < p->nm; i++) {
		const mrange *r = &p->m[i];
		const tile *t = &p->t[r->tile];
		const ptoc_mem_info *mi = tile_mem_info(p->o->target, t->mem);
		if (!t->size)
			continue;
		if (r->addr < 0 || (uint64_t)r->addr + t->size > mi->capacity) {
			if (t->size > mi->capacity)
				ir_error(p->ctx, r->loc,
					 "manual address %lld of a %llu-byte tile is out of range: %s of target %s holds only %u bytes",
					 (long long)r->addr, (unsigned long long)t->size, mi->memory,
					 p->o->target->name, mi->capacity);
			else
				ir_error(p->ctx, r->loc,
					 "manual address %lld of a %llu-byte tile is out of range: %s of target %s holds %u bytes, so the tile must start between 0 and %llu",
					 (long long)r->addr, (unsigned long long)t->size, mi->memory,
					 p->o->target->name, mi->capacity,
					 (unsigned long long)(mi->capacity - t->size));
			p->errs++;
			continue;
		}
		if (r->addr % mi->align) {
			ir_error(p->ctx, r->loc,
				 "manual address %lld is misaligned: tiles in %s (%s) must be at multiples of %u bytes on target %s",
				 (long long)r->addr, mi->memory, ir_mem_name(t->mem), mi->align,
				 p->o->target->name);
			p->errs++;
			continue;
		}
		if (reserved_top(p, mi) &&
		    (uint64_t)r->addr + t->size > (uint64_t)mi->capacity - mi->reserved_top)
			ir_warning(p->ctx, r->loc,
				   "manual tile [%lld, %llu) reaches into the top %u bytes of %s reserved for compiler scratch; code the compiler generates may overwrite it",
				   (long long)r->addr, (unsigned long long)((uint64_t)r->addr + t->size),
				   mi->reserved_top, mi->memory);
		for (j = 0; j < i; j++) {
			const mrange *q = &p->m[j];
			const tile *u = &p->t[q->tile];
			if (q->tile == r->tile || u->mem != t->mem || !u->size ||
			    !live_together(t, u) || !overlap(r->addr, t->size, q->addr, u->size))
				continue;
			if (q->addr == r->addr && u->size == t->size)
				continue; /* the same bytes: deliberate aliasing */
			ir_error(p->ctx, r->loc,
				 "manually placed tile [%lld, %lld) overlaps a different live manually placed tile [%lld, %lld) in %s",
				 (long long)r->addr, (long long)(r->addr + (int64_t)t->size),
				 (long long)q->addr, (long long)(q->addr + (int64_t)u->size), mi->memory);
			ir_note(p->ctx, q->loc, "the other tile is placed here");
			p->errs++;
			break;
		}
	}
}

typedef struct busy {
	int64_t a;
	uint64_t n;
} busy;

static int busy_cmp(const void *x, const void *y)
{
	const busy *a = x, *b = y;
	return a->a < b->a ? -1 : a->a > b->a;
}

/* Bytes of [0, limit) covered by the sorted ranges. */
static uint64_t covered(const busy *b, size_t n, uint64_t limit)
{
	uint64_t sum = 0, end = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		uint64_t s = b[i].a < 0 ? 0 : (uint64_t)b[i].a, e = (uint64_t)b[i].a + b[i].n;
		if (e > limit)
			e = limit;
		if (s < end)
			s = end;
		if (e > s) {
			sum += e - s;
			end = e;
		}
	}
	return sum;
}

/* Step 3: first fit for automatic tile ti. */
static void place_auto(placer *p, size_t ti, busy *b)
{
	tile *t = &p->t[ti];
	const ptoc_mem_info *mi = tile_mem_info(p->o->target, t->mem);
	uint64_t limit = mi->capacity - reserved_top(p, mi), a = 0;
	size_t nb = 0, i, j;
	int moved;
	for (i = 0; i < p->nm; i++) {
		const tile *u = &p->t[p->m[i].tile];
		if (u->mem == t->mem && u->size && live_together(t, u)) {
			b[nb].a = p->m[i].addr;
			b[nb++].n = u->size;
		}
	}
	for (j = 0; j < ti; j++) {
		const tile *u = &p->t[j];
		if (u->addr >= 0 && u->mem == t->mem && live_together(t, u)) {
			b[nb].a = u->addr;
			b[nb++].n = u->size;
		}
	}
	qsort(b, nb, sizeof *b, busy_cmp);
	do {
		moved = 0;
		for (i = 0; i < nb; i++)
			if (overlap((int64_t)a, t->size, b[i].a, b[i].n)) {
				a = (uint64_t)b[i].a + b[i].n;
				a = (a + mi->align - 1) / mi->align * mi->align;
				moved = 1;
			}
	} while (moved && a + t->size <= limit);
	if (a + t->size > limit) {
		uint64_t used = covered(b, nb, limit);
		char more[96] = "";
		if (used)
			snprintf(more, sizeof more, ", %llu of them used by tiles live at the same time",
				 (unsigned long long)used);
		ir_error(p->ctx, t->alloc->loc,
			 "cannot place a %llu-byte tile in %s of target %s: %llu bytes available (%u capacity, %u reserved)%s",
			 (unsigned long long)t->size, mi->memory, p->o->target->name,
			 (unsigned long long)limit, mi->capacity, reserved_top(p, mi), more);
		p->errs++;
		return;
	}
	t->addr = (int64_t)a;
}

/* Step 4: alloc_tile addr = %cN. */
static void set_addr(placer *p, tile *t)
{
	ir_ctx *ctx = p->ctx;
	ir_op *old = t->alloc, *c, *n;
	const ir_type *i64 = ir_type_int(ctx, 64, IR_INT_SIGNLESS);
	ir_named_attr va;
	ir_value *ops[3];
	int64_t seg[3] = {1, 0, 0};
	const ir_attr *s = ir_op_get_attr(old, "operandSegmentSizes");
	unsigned i;
	char name[32];
	va.name = ir_intern(ctx, "value", 5);
	va.value = ir_attr_int(ctx, t->addr, i64);
	c = ir_op_create(ctx, "arith.constant", old->loc, NULL, 0, &i64, 1,
			 ir_attr_dict(ctx, &va, 1, old->loc), 0);
	{ /* the name hint c<addr>_i64, as the parser would name the constant */
		char *q = name + sizeof name;
		uint64_t x = t->addr < 0 ? 0 - (uint64_t)t->addr : (uint64_t)t->addr;
		memcpy(q -= 4, "_i64", 4);
		do
			*--q = (char)('0' + x % 10);
		while (x /= 10);
		if (t->addr < 0)
			*--q = '-';
		*--q = 'c';
		c->results[0].name = ir_intern(ctx, q, (size_t)(name + sizeof name - q));
	}
	ir_block_insert_before(old, c);
	ops[0] = &c->results[0];
	for (i = 0; i < old->num_operands && i < 2; i++)
		ops[i + 1] = old->operands[i].value;
	if (s && s->kind == IR_ATTR_DENSE && s->u.dense.n == 3) {
		seg[1] = s->u.dense.v[1];
		seg[2] = s->u.dense.v[2];
	}
	n = ir_op_create(ctx, "pto.alloc_tile", old->loc, ops, old->num_operands + 1,
			 &old->results[0].type, 1, old->attrs, 0);
	ir_op_set_attr(ctx, n, "operandSegmentSizes",
		       ir_attr_dense(ctx, ir_type_int(ctx, 32, IR_INT_SIGNLESS), seg, 3));
	n->results[0].name = old->results[0].name;
	ir_block_insert_before(old, n);
	ir_value_replace_all_uses(&old->results[0], &n->results[0]);
	ir_op_erase(old);
}

static unsigned place_func(ir_ctx *ctx, ir_op *fn, const pass_opts *o)
{
	placer p;
	busy *b = NULL;
	ir_op_list l;
	size_t i;
	memset(&p, 0, sizeof p);
	p.ctx = ctx;
	p.o = o;
	tile_args_to_allocs(ctx, fn);
	if (number_ops(ctx, fn, &p.num, &l))
		p.oom = 1;
	else
		for (i = 0; i < l.n && !collect_alloc(l.a[i], &p); i++)
			;
	for (i = 0; !p.oom && i < l.n && !p.scratch; i++)
		p.scratch = lower_vec_uses_ub_scratch(l.a[i], o->target);
	free(l.a);
	if (!p.oom && p.nt) {
		check_manual(&p);
		b = malloc((p.nt + p.nm) * sizeof *b);
		p.oom = !b;
	}
	for (i = 0; !p.oom && !p.errs && i < p.nt; i++)
		if (!p.t[i].manual && p.t[i].size) {
			place_auto(&p, i, b);
			if (!p.errs)
				pass_remark(ctx, o, "place-tiles", p.t[i].alloc->loc,
					    "%llu bytes of %s at %lld, live over ops %lld-%lld",
					    (unsigned long long)p.t[i].size,
					    tile_mem_info(o->target, p.t[i].mem)->memory,
					    (long long)p.t[i].addr, (long long)p.t[i].lo,
					    (long long)p.t[i].hi);
		}
	if (p.oom) {
		ir_error(ctx, fn->loc, "place-tiles: out of memory");
		p.errs++;
	}
	for (i = 0; !p.errs && i < p.nt; i++)
		if (p.t[i].addr >= 0)
			set_addr(&p, &p.t[i]);
	free(b);
	free(p.t);
	free(p.m);
	return p.errs;
}

unsigned pass_place_tiles(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	unsigned errs = 0;
	ir_block *b;
	ir_op *op;
	for (b = module->regions[0].first; b; b = b->next)
		for (op = b->first; op; op = op->next)
			if (op->code == IR_OP_FUNC)
				errs += place_func(ctx, op, o);
	return errs;
}
