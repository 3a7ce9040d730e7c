/* legality.c: the legality queries over the target tables (target_a2a3.c,
 * target_a5.c) and the public API of include/ptoc/legality.h.
 *
 * A conversion is native when the target's table has the pair; otherwise it may be
 * decomposed (docs/semantics.md §4 [decision]): the shortest chain of native steps whose
 * steps before the last are exact for every value, which ptort_cvt_is_exact proves
 * from the format descriptions. Round mode and saturation apply to the last step.
 * Nothing here allocates, prints or fails: every answer is data or caller-buffer
 * text. */
#include <stdio.h>
#include <string.h>

#include "target/target.h"
#include "ptoc/ptoc.h" /* ptoc_buf */

/* ---- Targets ----------------------------------------------------------- */

/* Every target, in ptoc_target order, ended by NULL. */
static const struct target *const target_list[] = {
	[PTOC_TARGET_A2A3] = &target_a2a3,
	[PTOC_TARGET_A5] = &target_a5,
	[PTOC_TARGET_COUNT] = NULL,
};

const struct target *target_get(ptoc_target id)
{
	return (unsigned)id < PTOC_TARGET_COUNT ? target_list[id] : NULL;
}

const char *ptoc_target_name(ptoc_target t)
{
	const struct target *d = target_get(t);
	return d ? d->name : "?";
}

static int eqlit(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(s, lit, len);
}

static int same_name(const char *s, size_t len, const char *name)
{
	size_t i;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!name[i] || c != name[i])
			return 0;
	}
	return !name[len];
}

const struct target *target_lookup(const char *s, size_t len)
{
	size_t i;
	const char *const *a;
	for (i = 0; target_list[i]; i++) {
		if (same_name(s, len, target_list[i]->name))
			return target_list[i];
		for (a = target_list[i]->aliases; a && *a; a++)
			if (same_name(s, len, *a))
				return target_list[i];
	}
	return NULL;
}

size_t ptoc_target_spellings(char *buf, size_t cap)
{
	ptoc_buf b;
	size_t i;
	const char *const *a;
	ptoc_buf_fixed(&b, buf, cap);
	for (i = 0; target_list[i]; i++) {
		ptoc_buf_puts(&b, i ? ", " : "");
		ptoc_buf_puts(&b, target_list[i]->name);
		for (a = target_list[i]->aliases; a && *a; a++) {
			ptoc_buf_puts(&b, ", ");
			ptoc_buf_puts(&b, *a);
		}
	}
	return b.len;
}

int ptoc_target_parse(const char *s, size_t len, ptoc_target *out)
{
	const struct target *t = target_lookup(s, len);
	if (!t)
		return -1;
	*out = t->id;
	return 0;
}

const ptoc_tmov_pair *target_find_tmov(const struct target *t, ptoc_loc src, ptoc_loc dst)
{
	size_t i;
	for (i = 0; i < t->ntmov; i++)
		if (t->tmov[i].src == src && t->tmov[i].dst == dst)
			return &t->tmov[i];
	return NULL;
}

int target_has_extract(const struct target *t, ptoc_loc src, ptoc_loc dst)
{
	size_t i;
	for (i = 0; i < t->nextract; i++)
		if (t->extract[i].src == src && t->extract[i].dst == dst)
			return 1;
	return 0;
}

uint32_t target_vec_types(const struct target *t, size_t row)
{
	return row < t->nvec ? t->vec_types[row] : 0;
}

int target_has_mmad(const struct target *t, ptort_type a, ptort_type b, ptort_type c, int mx)
{
	size_t i;
	for (i = 0; i < t->cube.ntypes; i++)
		if (t->cube.types[i].a == a && t->cube.types[i].b == b && t->cube.types[i].c == c &&
		    !t->cube.types[i].mx == !mx)
			return 1;
	return 0;
}

/* ---- The tcvt table ---------------------------------------------------- */

/* The native rule of `from -> to`, or NULL. */
static const ptoc_cvt_rule *target_find_cvt(const struct target *t, ptort_type from,
					    ptort_type to)
{
	size_t i;
	for (i = 0; i < t->ncvt; i++)
		if (t->cvt[i].from == from && t->cvt[i].to == to)
			return &t->cvt[i];
	return NULL;
}

size_t ptoc_target_cvt_count(ptoc_target t)
{
	const struct target *d = target_get(t);
	return d ? d->ncvt : 0;
}

const ptoc_cvt_rule *ptoc_target_cvt_get(ptoc_target t, size_t i)
{
	return i < ptoc_target_cvt_count(t) ? &target_get(t)->cvt[i] : NULL;
}

const ptoc_cvt_rule *ptoc_target_cvt_find(ptoc_target t, ptort_type from, ptort_type to)
{
	const struct target *d = target_get(t);
	return d ? target_find_cvt(d, from, to) : NULL;
}

/* ---- Decomposition ----------------------------------------------------- */

/* Whether a native step may stand before the last step of a chain: it converts
 * every value exactly. It is executed with RINT (which it must accept) and
 * saturation OFF, since saturation would turn NaN into 0 and inf into max (so it
 * must not be forced ON). */
static int exact_step(const struct target *t, ptort_type from, ptort_type to)
{
	const ptoc_cvt_rule *r = target_find_cvt(t, from, to);
	return r && from != to && r->kind != PTOC_CVT_DEQ && r->sat != PTOC_SAT_FORCED_ON &&
	       (r->modes & PTOC_RMODE_BIT(PTORT_RINT)) && ptort_cvt_is_exact(from, to);
}

/* The decomposition of a pair without a native rule: the shortest chain of native
 * steps from `from` to `to` whose steps before the last are exact for every value
 * (proved with ptort_cvt_is_exact), the last step any native rule. Ties between
 * chains of the same length go to the chain whose intermediate types come first in
 * ptort_type order (so f32 is preferred). Fills chain[0..*nsteps]; returns 0, or -1
 * when there is none (or from == to). Independent of the round mode.
 *
 * Breadth-first over the exact steps from `from`, neighbours in ptort_type order:
 * the nodes of one depth leave the queue in the lexicographic order of their
 * paths, so the first node with a native step to `to` ends the shortest chain with
 * the smallest intermediates (f32 = 0 comes first). */
static int target_cvt_chain(const struct target *t, ptort_type from, ptort_type to,
			    ptort_type chain[PTOC_CVT_MAX_STEPS + 1], unsigned *nsteps)
{
	int prev[PTORT_TYPE_COUNT];
	unsigned depth[PTORT_TYPE_COUNT];
	ptort_type queue[PTORT_TYPE_COUNT];
	unsigned head = 0, tail = 0, i;
	int v;

	if (from == to || (unsigned)from >= PTORT_TYPE_COUNT || (unsigned)to >= PTORT_TYPE_COUNT)
		return -1;
	for (v = 0; v < PTORT_TYPE_COUNT; v++)
		prev[v] = -2;
	prev[from] = -1;
	depth[from] = 0;
	queue[tail++] = from;
	while (head < tail) {
		ptort_type u = queue[head++];
		if (depth[u] >= 1 && target_find_cvt(t, u, to)) {
			unsigned n = depth[u] + 1;
			ptort_type x = u;
			chain[n] = to;
			for (i = n; i-- > 0;) {
				chain[i] = x;
				if (prev[x] >= 0)
					x = (ptort_type)prev[x];
			}
			*nsteps = n;
			return 0;
		}
		if (depth[u] + 2 > PTOC_CVT_MAX_STEPS)
			continue;
		for (v = 0; v < PTORT_TYPE_COUNT; v++) {
			if (prev[v] != -2 || v == (int)to || !exact_step(t, u, (ptort_type)v))
				continue;
			prev[v] = (int)u;
			depth[v] = depth[u] + 1;
			queue[tail++] = (ptort_type)v;
		}
	}
	return -1;
}

/* ---- The query --------------------------------------------------------- */

/* The generic semantics of a signed integer to a wider unsigned one have saturation
 * only (negatives become 0, docs/semantics.md §3): such a pair is forced ON whatever the
 * target's rule for the step that executes it. */
static int sat_only_pair(ptort_type from, ptort_type to)
{
	return ptort_type_is_signed_int(from) && !ptort_type_is_float(to) &&
	       !ptort_type_is_signed_int(to) && ptort_type_bits(to) > ptort_type_bits(from);
}

/* The saturation rule of the asked pair: the last step's, refined by the pair. An
 * exact pair cannot saturate, except that a forced-ON last step still turns a float
 * source's NaN into 0 and inf into max (integer sources have neither). */
static ptoc_sat_rule pair_sat_rule(const ptoc_cvt_rule *r, int exact, ptort_type from,
				   ptort_type to)
{
	if (exact)
		return r->sat == PTOC_SAT_FORCED_ON && ptort_type_is_float(from)
			       ? PTOC_SAT_FORCED_ON
			       : PTOC_SAT_NA;
	if (r->sat == PTOC_SAT_FORCED_ON || sat_only_pair(from, to))
		return PTOC_SAT_FORCED_ON;
	return r->sat;
}

static int resolve_sat(ptoc_sat_rule rule, int exact, int def, ptoc_sat_request req,
		       unsigned *flags)
{
	if (rule == PTOC_SAT_FORCED_ON) {
		if (req == PTOC_SAT_REQ_OFF)
			*flags |= PTOC_CVT_F_SAT_OVERRIDDEN;
		return PTORT_SAT_ON;
	}
	if (rule == PTOC_SAT_NA) {
		*flags |= PTOC_CVT_F_NO_SAT;
		/* an exact pair runs with OFF, which keeps NaN and inf through every step */
		if (exact)
			return PTORT_SAT_OFF;
	}
	if (req == PTOC_SAT_REQ_ON)
		return PTORT_SAT_ON;
	if (req == PTOC_SAT_REQ_OFF)
		return PTORT_SAT_OFF;
	return def;
}

ptoc_cvt_verdict target_cvt_query(const struct target *t, ptort_type from, ptort_type to,
				  ptort_rmode rm, ptoc_sat_request sat, ptoc_cvt_result *out)
{
	const ptoc_cvt_rule *r = NULL;
	int def = PTORT_SAT_ON, exact;

	memset(out, 0, sizeof *out);
	out->verdict = PTOC_CVT_ILLEGAL;
	out->target = t ? t->id : PTOC_TARGET_COUNT;
	out->from = from;
	out->to = to;
	out->requested = rm;
	out->sat_requested = sat;
	out->rmode = PTORT_RINT;
	out->sat = PTORT_SAT_ON;
	if (!t)
		return out->verdict;
	if ((r = target_find_cvt(t, from, to))) {
		out->verdict = PTOC_CVT_NATIVE;
		out->nsteps = 1;
		out->chain[0] = from;
		out->chain[1] = to;
		def = r->sat_default;
		out->modes = r->modes;
	} else if (!target_cvt_chain(t, from, to, out->chain, &out->nsteps)) {
		/* A decomposed pair is never one of the six pairs whose default is OFF
		 * (all six are native on every target): its default is ON. HYBRID rounds
		 * by the low bits of its own input's representation, so through a chain
		 * it would not compute the direct conversion: it is not offered. */
		out->verdict = PTOC_CVT_DECOMPOSED;
		r = target_find_cvt(t, out->chain[out->nsteps - 1], to);
		out->modes = r->modes & ~PTOC_RMODE_BIT(PTORT_HYBRID);
	} else {
		return out->verdict;
	}
	out->last = r;
	/* A pair exact for every value accepts every mode, to no effect (docs/semantics.md §2). */
	exact = r->kind == PTOC_CVT_EXACT || (from != to && ptort_cvt_is_exact(from, to));
	if (exact)
		out->modes = PTOC_RMODES_ANY;
	out->sat_rule = pair_sat_rule(r, exact, from, to);
	if ((unsigned)rm >= PTORT_RMODE_COUNT || !(out->modes & PTOC_RMODE_BIT(rm))) {
		out->verdict = PTOC_CVT_ILLEGAL;
		out->flags |= PTOC_CVT_F_BAD_MODE;
		return out->verdict;
	}
	if (r->kind == PTOC_CVT_ROUNDING && !exact)
		out->rmode = rm == PTORT_NONE ? PTORT_RINT : rm;
	if (exact)
		out->flags |= PTOC_CVT_F_EXACT;
	if (r->kind == PTOC_CVT_DEQ) {
		out->flags |= PTOC_CVT_F_DEQ;
		if (rm != PTORT_RINT && rm != PTORT_NONE)
			out->flags |= PTOC_CVT_F_RMODE_IGNORED;
	}
	out->sat = resolve_sat(out->sat_rule, exact, def, sat, &out->flags);
	return out->verdict;
}

ptoc_cvt_verdict ptoc_cvt_query(ptoc_target t, ptort_type from, ptort_type to, ptort_rmode rm,
				ptoc_sat_request sat, ptoc_cvt_result *out)
{
	return target_cvt_query(target_get(t), from, to, rm, sat, out);
}

/* ---- Text -------------------------------------------------------------- */

static void put_chain(ptoc_buf *b, const ptoc_cvt_result *r)
{
	unsigned i;
	if (!r->nsteps) {
		ptoc_buf_puts(b, ptort_type_name(r->from));
		ptoc_buf_puts(b, " -> ");
		ptoc_buf_puts(b, ptort_type_name(r->to));
		return;
	}
	for (i = 0; i <= r->nsteps; i++) {
		if (i)
			ptoc_buf_puts(b, " -> ");
		ptoc_buf_puts(b, ptort_type_name(r->chain[i]));
	}
}

size_t ptoc_cvt_chain_str(const ptoc_cvt_result *r, char *buf, size_t cap)
{
	ptoc_buf b;
	ptoc_buf_fixed(&b, buf, cap);
	put_chain(&b, r);
	return b.len;
}

static void put_modes(ptoc_buf *b, unsigned modes)
{
	int m, first = 1;
	for (m = 0; m < PTORT_RMODE_COUNT; m++)
		if (modes & PTOC_RMODE_BIT(m)) {
			if (!first)
				ptoc_buf_puts(b, ", ");
			ptoc_buf_puts(b, ptort_rmode_name((ptort_rmode)m));
			first = 0;
		}
}

static void put_pair(ptoc_buf *b, const ptoc_cvt_result *r)
{
	ptoc_buf_puts(b, ptort_type_name(r->from));
	ptoc_buf_puts(b, " -> ");
	ptoc_buf_puts(b, ptort_type_name(r->to));
}

size_t target_cvt_reason(const struct target *t, const ptoc_cvt_result *r, char *buf,
			 size_t cap)
{
	ptoc_buf b;
	ptoc_buf_fixed(&b, buf, cap);
	size_t i, n = 0;

	if (r->verdict != PTOC_CVT_ILLEGAL)
		return b.len;
	if (!t) {
		ptoc_buf_puts(&b, "unknown target");
		return b.len;
	}
	put_pair(&b, r);
	if ((r->flags & PTOC_CVT_F_BAD_MODE) && r->last) {
		ptoc_buf_puts(&b, " with round mode ");
		ptoc_buf_puts(&b, ptort_rmode_name(r->requested));
		ptoc_buf_puts(&b, " is not supported on ");
		ptoc_buf_puts(&b, t->name);
		ptoc_buf_puts(&b, "; legal modes of ");
		put_chain(&b, r);
		ptoc_buf_puts(&b, ": ");
		put_modes(&b, r->modes);
		return b.len;
	}
	ptoc_buf_puts(&b, " is not supported on ");
	ptoc_buf_puts(&b, t->name);
	for (i = 0; i < t->ncvt; i++) {
		if (t->cvt[i].from != r->from)
			continue;
		ptoc_buf_puts(&b, n++ ? ", " : "; legal destinations of ");
		if (n == 1) {
			ptoc_buf_puts(&b, ptort_type_name(r->from));
			ptoc_buf_puts(&b, ": ");
		}
		ptoc_buf_puts(&b, ptort_type_name(t->cvt[i].to));
	}
	if (!n) {
		ptoc_buf_puts(&b, "; ");
		ptoc_buf_puts(&b, ptort_type_name(r->from));
		ptoc_buf_puts(&b, " has no conversions on ");
		ptoc_buf_puts(&b, t->name);
	}
	return b.len;
}

size_t ptoc_cvt_reason(const ptoc_cvt_result *r, char *buf, size_t cap)
{
	return target_cvt_reason(target_get(r->target), r, buf, cap);
}

/* One warning: `head` + the chain + " on <target>" + `tail`, through fn. */
static void cvt_warning(const struct target *t, const ptoc_cvt_result *r, const char *head,
			const char *tail, ptoc_msg_fn fn, void *user)
{
	char text[256];
	ptoc_buf b;
	ptoc_buf_fixed(&b, text, sizeof text);
	ptoc_buf_puts(&b, head);
	put_chain(&b, r);
	ptoc_buf_puts(&b, " on ");
	ptoc_buf_puts(&b, t->name);
	ptoc_buf_puts(&b, tail);
	if (fn)
		fn(user, text, strlen(text));
}

unsigned target_cvt_warnings(const struct target *t, const ptoc_cvt_result *r,
			     ptoc_msg_fn fn, void *user)
{
	char head[64];
	unsigned n = 0;

	if (!t || r->verdict == PTOC_CVT_ILLEGAL)
		return 0;
	if (r->flags & PTOC_CVT_F_RMODE_IGNORED) {
		snprintf(head, sizeof head, "round mode %s is ignored by the deq path of ",
			 ptort_rmode_name(r->requested));
		cvt_warning(t, r, head, "; RINT is applied", fn, user);
		n++;
	}
	if (r->flags & PTOC_CVT_F_SAT_OVERRIDDEN) {
		cvt_warning(t, r, "saturation OFF is not available for ", "; saturation is forced ON",
			    fn, user);
		n++;
	}
	return n;
}

unsigned ptoc_cvt_warnings(const ptoc_cvt_result *r, ptoc_msg_fn fn, void *user)
{
	return target_cvt_warnings(target_get(r->target), r, fn, user);
}

/* ---- Memories and limits ----------------------------------------------- */

static const char *const loc_names[PTOC_LOC_COUNT] = {
#define LOC_NAME_(id, name) name,
	PTOC_LOC_LIST(LOC_NAME_)
#undef LOC_NAME_
};

const char *ptoc_loc_name(ptoc_loc l)
{
	return (unsigned)l < PTOC_LOC_COUNT ? loc_names[l] : "?";
}

int ptoc_loc_parse(const char *s, size_t len, ptoc_loc *out)
{
	int i;
	for (i = 0; i < PTOC_LOC_COUNT; i++)
		if (eqlit(s, len, loc_names[i])) {
			*out = (ptoc_loc)i;
			return 0;
		}
	return -1;
}

const ptoc_mem_info *ptoc_target_mem(ptoc_target t, ptoc_loc l)
{
	const struct target *d = target_get(t);
	return d && (unsigned)l < PTOC_LOC_COUNT ? &d->mem[l] : NULL;
}

size_t ptoc_target_tmov_count(ptoc_target t)
{
	const struct target *d = target_get(t);
	return d ? d->ntmov : 0;
}

const ptoc_tmov_pair *ptoc_target_tmov_get(ptoc_target t, size_t i)
{
	return i < ptoc_target_tmov_count(t) ? &target_get(t)->tmov[i] : NULL;
}

const ptoc_vec_limits *ptoc_target_vec(ptoc_target t)
{
	const struct target *d = target_get(t);
	return d ? &d->vec : NULL;
}

const ptoc_cube_limits *ptoc_target_cube(ptoc_target t)
{
	const struct target *d = target_get(t);
	return d ? &d->cube : NULL;
}

const char *ptoc_layout_name(ptoc_layout l)
{
	static const char *const names[] = {"ND", "DN", "Zz", "Nz", "Zn", "Nn"};
	return (unsigned)l < sizeof names / sizeof names[0] ? names[l] : "?";
}
