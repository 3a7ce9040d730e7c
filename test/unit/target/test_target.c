/* test_target.c: checks the target tables (target/target_a2a3.c, target_a5.c) against
 * a second, independent transcription of docs/semantics.md §3.2, §4 and §5 written here
 * as text, cell by cell; checks the decomposition search against an exhaustive
 * enumeration of chains; and checks the verdicts, flags and messages of
 * representative queries. Prints the failures; exits 1 on any (test/unit/check.h). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "target/target.h"

#define TN(t) ptort_type_name(t)

/* ---- docs/semantics.md §4, transcribed as its cells ------------------------- */

struct spec_row {
	const char *srcs; /* one or more sources, ", "-separated */
	const char *a2a3, *a5;
};

static const struct spec_row spec[] = {
	{"f32",
	 "f16 (5+ODD), f32 (5, round to integral), bf16 (5), i16 (5), i32 (5), i64 (5)",
	 "f32 (5), f16 (5+ODD), bf16 (5), i16 (5), i32 (5), i64 (5), f8E4M3FN (RINT), "
	 "f8E5M2 (RINT), hif8 (ROUND, HYBRID)"},
	{"f16", "f32 (exact), i32 (5), i16 (5), i8 (5), ui8 (5), i4 (5)",
	 "f32 (exact), i32 (5), i16 (5), i8 (5), ui8 (5), hif8 (ROUND, HYBRID)"},
	{"bf16", "f32 (exact), i32 (5)",
	 "f32 (exact), i32 (5), f16 (5), f4E1M2 (5), f4E2M1FN (5)"},
	{"i16", "f16 (5), f32 (exact)",
	 "ui8 (sat), f16 (5), f32 (exact), ui32 (sat), i32 (exact)"},
	{"i32", "f32 (5), i16 (sat), i64 (exact), f16 (deq path)",
	 "f32 (5), i16 (sat), ui16 (sat), i64 (exact), ui8 (sat)"},
	{"i64", "f32 (5), i32 (sat)", "f32 (5), i32 (sat)"},
	{"ui8", "f16 (exact)", "f16 (exact), ui16 (exact)"},
	{"i8", "f16 (exact)", "f16 (exact), i16 (exact), i32 (exact)"},
	{"i4", "f16 (exact)", "—"},
	{"ui32", "—", "ui8 (sat), ui16 (sat), i16 (sat)"},
	{"f8E4M3FN, f8E5M2, hif8", "—", "f32 (exact)"},
	{"f4E1M2, f4E2M1FN", "—", "bf16 (exact)"},
};

/* §3.2: the six pairs whose default saturation is OFF. */
static const char *const six_off[] = {"f16 ui8", "f16 i8", "f32 i16", "f16 i16", "i64 i32",
				      "i32 i16"};

#define B(m) PTOC_RMODE_BIT(PTORT_##m)

static ptort_type ty(const char *s, size_t n)
{
	ptort_type t = PTORT_TYPE_COUNT;
	if (ptort_type_parse(s, n, &t))
		printf("test bug: type '%.*s'\n", (int)n, s);
	return t;
}

static int is_six(ptort_type f, ptort_type t)
{
	char buf[32];
	size_t i;
	snprintf(buf, sizeof buf, "%s %s", TN(f), TN(t));
	for (i = 0; i < sizeof six_off / sizeof six_off[0]; i++)
		if (!strcmp(buf, six_off[i]))
			return 1;
	return 0;
}

/* The expected rule of a cell: modes from the §4 notation; saturation from §3.2
 * plus the two documented refinements (fp4 destinations have no sat mode;
 * i16 -> ui32 is saturation only, so it is forced ON). */
static ptoc_cvt_rule expect(ptoc_target tg, ptort_type f, ptort_type t, const char *m, size_t n)
{
	ptoc_cvt_rule r;
	char mode[64];
	memset(&r, 0, sizeof r);
	r.from = f;
	r.to = t;
	snprintf(mode, sizeof mode, "%.*s", (int)n, m);
	if (!strncmp(mode, "5", 1)) {
		r.kind = PTOC_CVT_ROUNDING;
		r.modes = B(RINT) | B(ROUND) | B(FLOOR) | B(CEIL) | B(TRUNC) | B(NONE);
		if (strstr(mode, "+ODD"))
			r.modes |= B(ODD);
	} else if (!strcmp(mode, "exact")) {
		r.kind = PTOC_CVT_EXACT;
		r.modes = 0xFF;
	} else if (!strcmp(mode, "sat")) {
		r.kind = PTOC_CVT_SAT_ONLY;
		r.modes = 0xFF;
	} else if (!strcmp(mode, "deq path")) {
		r.kind = PTOC_CVT_DEQ;
		r.modes = 0xFF;
	} else if (!strcmp(mode, "RINT")) {
		r.kind = PTOC_CVT_ROUNDING;
		r.modes = B(RINT) | B(NONE); /* NONE resolves to RINT */
	} else if (!strcmp(mode, "ROUND, HYBRID")) {
		r.kind = PTOC_CVT_ROUNDING;
		r.modes = B(ROUND) | B(HYBRID);
	} else {
		printf("test bug: mode '%s'\n", mode);
	}
	r.sat_default = is_six(f, t) ? PTORT_SAT_OFF : PTORT_SAT_ON;
	if (t == PTORT_F32 || r.kind == PTOC_CVT_EXACT || t == PTORT_F4E1M2 ||
	    t == PTORT_F4E2M1FN)
		r.sat = PTOC_SAT_NA;
	else if (f == PTORT_I16 && t == PTORT_U32)
		r.sat = PTOC_SAT_FORCED_ON;
	else if (tg == PTOC_TARGET_A2A3)
		r.sat = is_six(f, t) ? PTOC_SAT_HONOURED : PTOC_SAT_FORCED_ON;
	else
		r.sat = PTOC_SAT_HONOURED;
	return r;
}

/* Expands the cells of one target into rules, in the order of §4. */
static size_t transcribe(ptoc_target tg, ptoc_cvt_rule *out, size_t cap)
{
	size_t i, n = 0;
	for (i = 0; i < sizeof spec / sizeof spec[0]; i++) {
		const char *srcs = spec[i].srcs;
		while (*srcs) {
			size_t sl = strcspn(srcs, ",");
			ptort_type f = ty(srcs, sl);
			const char *c = tg == PTOC_TARGET_A2A3 ? spec[i].a2a3 : spec[i].a5;
			if (strcmp(c, "—")) {
				while (*c) {
					const char *sp = strchr(c, ' '), *close;
					close = strchr(sp, ')');
					if (n < cap)
						out[n] = expect(tg, f, ty(c, (size_t)(sp - c)), sp + 2,
								(size_t)(close - sp - 2));
					n++;
					c = close + 1;
					if (*c == ',')
						c += 2;
				}
			}
			srcs += sl;
			if (*srcs == ',')
				srcs += 2;
		}
	}
	return n;
}

static void test_tables(void)
{
	ptoc_cvt_rule want[128];
	int tg;
	for (tg = 0; tg < PTOC_TARGET_COUNT; tg++) {
		size_t n = transcribe((ptoc_target)tg, want, 128), i;
		const char *tn = ptoc_target_name((ptoc_target)tg);
		CHECK(n == ptoc_target_cvt_count((ptoc_target)tg), "%s: %zu rows in §4, %zu in table",
		      tn, n, ptoc_target_cvt_count((ptoc_target)tg));
		for (i = 0; i < n && i < ptoc_target_cvt_count((ptoc_target)tg); i++) {
			const ptoc_cvt_rule *g = ptoc_target_cvt_get((ptoc_target)tg, i), *w = &want[i];
			CHECK(g->from == w->from && g->to == w->to, "%s row %zu: %s -> %s, want %s -> %s",
			      tn, i, TN(g->from), TN(g->to), TN(w->from), TN(w->to));
			CHECK(g->modes == w->modes, "%s %s -> %s: modes 0x%x, want 0x%x", tn,
			      TN(w->from), TN(w->to), g->modes, w->modes);
			CHECK(g->kind == w->kind, "%s %s -> %s: kind %d, want %d", tn, TN(w->from),
			      TN(w->to), (int)g->kind, (int)w->kind);
			CHECK(g->sat == w->sat, "%s %s -> %s: sat rule %d, want %d", tn, TN(w->from),
			      TN(w->to), (int)g->sat, (int)w->sat);
			CHECK(g->sat_default == w->sat_default, "%s %s -> %s: sat default %d, want %d",
			      tn, TN(w->from), TN(w->to), g->sat_default, w->sat_default);
			/* the table's "exact" agrees with the format data */
			if (g->from != g->to)
				CHECK((g->kind == PTOC_CVT_EXACT) == !!ptort_cvt_is_exact(g->from, g->to),
				      "%s %s -> %s: kind %d but ptort_cvt_is_exact %d", tn,
				      TN(g->from), TN(g->to), (int)g->kind,
				      ptort_cvt_is_exact(g->from, g->to));
			/* every native pair is one the generic semantics define */
			CHECK(ptort_cvt_check(g->from, g->to, PTORT_RINT) != PTORT_CVT_NO_PAIR,
			      "%s %s -> %s: not a pair of the runtime", tn, TN(g->from), TN(g->to));
		}
	}
}

/* ---- §5 memories, transcribed ------------------------------------------ */

static void test_memory(void)
{
	/* loc, A2A3 KiB, A5 KiB, align */
	static const struct {
		const char *loc;
		unsigned a2a3, a5, align;
		const char *mem;
	} m[] = {
		{"vec", 192, 256, 32, "UB"},	  {"mat", 512, 512, 32, "L1"},
		{"left", 64, 64, 512, "L0A"},	  {"right", 64, 64, 512, "L0B"},
		{"acc", 128, 256, 512, "L0C"},	  {"bias", 1, 4, 32, "bias table"},
		{"scaling", 2, 8, 32, "fixpipe buffer"},
	};
	size_t i;
	for (i = 0; i < sizeof m / sizeof m[0]; i++) {
		ptoc_loc l;
		const ptoc_mem_info *a, *b;
		CHECK(!ptoc_loc_parse(m[i].loc, strlen(m[i].loc), &l), "loc %s", m[i].loc);
		CHECK(!strcmp(ptoc_loc_name(l), m[i].loc), "loc name %s", m[i].loc);
		a = ptoc_target_mem(PTOC_TARGET_A2A3, l);
		b = ptoc_target_mem(PTOC_TARGET_A5, l);
		CHECK(a->capacity == m[i].a2a3 * 1024 && b->capacity == m[i].a5 * 1024,
		      "%s capacity %u/%u", m[i].loc, a->capacity, b->capacity);
		CHECK(a->align == m[i].align && b->align == m[i].align, "%s align", m[i].loc);
		CHECK(!strcmp(a->memory, m[i].mem) && !strcmp(b->memory, m[i].mem), "%s memory",
		      m[i].loc);
		CHECK(a->reserved_top == (l == PTOC_LOC_VEC ? 8192u : 0u) &&
			      b->reserved_top == a->reserved_top,
		      "%s reserved", m[i].loc);
	}
	CHECK(ptoc_target_mem(PTOC_TARGET_A5, PTOC_LOC_COUNT) == NULL, "loc out of range");
	{
		const ptoc_vec_limits *a = ptoc_target_vec(PTOC_TARGET_A2A3);
		const ptoc_vec_limits *b = ptoc_target_vec(PTOC_TARGET_A5);
		CHECK(a->repeat_bytes == 256 && a->block_bytes == 32 && a->repeat_max == 255 &&
			      a->block_stride_max == 255 && a->repeat_stride_max == 255 &&
			      !a->predicated,
		      "a2a3 vector limits");
		CHECK(b->repeat_bytes == 256 && b->repeat_max == 0 && b->block_stride_max == 0 &&
			      b->repeat_stride_max == 0 && b->predicated,
		      "a5 vector limits");
	}
	{
		const ptoc_cube_limits *a = ptoc_target_cube(PTOC_TARGET_A2A3);
		const ptoc_cube_limits *b = ptoc_target_cube(PTOC_TARGET_A5);
		CHECK(a->mnk_min == 1 && a->mnk_max == 4095 && b->mnk_min == 1 && b->mnk_max == 4095,
		      "mnk");
		CHECK(a->left == PTOC_LAYOUT_ZZ && b->left == PTOC_LAYOUT_NZ, "left layouts");
		CHECK(a->right == PTOC_LAYOUT_ZN && b->right == PTOC_LAYOUT_ZN, "right layouts");
		CHECK(a->acc == PTOC_LAYOUT_NZ && b->acc == PTOC_LAYOUT_NZ, "acc layouts");
		CHECK(a->ntypes == 4 && a->mx_k_multiple == 0, "a2a3 triples");
		/* 4 base + 4 fp8 + hif8 + 4 MX fp8 + 4 MX fp4 */
		CHECK(b->ntypes == 17 && b->mx_k_multiple == 64, "a5 triples %zu", b->ntypes);
	}
}

/* ---- Targets ----------------------------------------------------------- */

static void test_targets(void)
{
	static const struct {
		const char *s;
		int ok;
		ptoc_target t;
	} c[] = {
		{"a2a3", 1, PTOC_TARGET_A2A3}, {"a3", 1, PTOC_TARGET_A2A3},
		{"a2", 1, PTOC_TARGET_A2A3},   {"a5", 1, PTOC_TARGET_A5},
		{"A5", 1, PTOC_TARGET_A5},     {"A2A3", 1, PTOC_TARGET_A2A3},
		{"A3", 1, PTOC_TARGET_A2A3},   {"a6", 0, 0},
		{"", 0, 0},		       {"a2a3x", 0, 0},
		{"a", 0, 0},		       {"a5 ", 0, 0},
	};
	size_t i;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		ptoc_target t = PTOC_TARGET_COUNT;
		int rc = ptoc_target_parse(c[i].s, strlen(c[i].s), &t);
		CHECK((rc == 0) == c[i].ok && (!c[i].ok || t == c[i].t), "parse '%s'", c[i].s);
	}
	{
		ptoc_target t;
		CHECK(ptoc_target_parse("a5\0", 3, &t) == -1, "parse with a NUL");
	}
	CHECK(!strcmp(ptoc_target_name(PTOC_TARGET_A2A3), "a2a3"), "name");
	CHECK(!strcmp(ptoc_target_name(PTOC_TARGET_A5), "a5"), "name");
	CHECK(!strcmp(ptoc_target_name(PTOC_TARGET_COUNT), "?"), "name out of range");
}

/* ---- Decomposition against an exhaustive enumeration ------------------- */

/* Best chain found by trying every path of native steps (all but the last exact
 * by ptort_cvt_is_exact, executable with RINT and sat OFF): shortest, then
 * lexicographically smallest intermediates in ptort_type order. */
static unsigned best_n;
static ptort_type best[PTOC_CVT_MAX_STEPS + 1];

static int exact_native(const struct target *t, ptort_type a, ptort_type b)
{
	size_t i;
	for (i = 0; i < t->ncvt; i++)
		if (t->cvt[i].from == a && t->cvt[i].to == b)
			return a != b && t->cvt[i].kind != PTOC_CVT_DEQ &&
			       t->cvt[i].sat != PTOC_SAT_FORCED_ON &&
			       (t->cvt[i].modes & PTOC_RMODE_BIT(PTORT_RINT)) &&
			       ptort_cvt_is_exact(a, b);
	return 0;
}

static int native(const struct target *t, ptort_type a, ptort_type b)
{
	size_t i;
	for (i = 0; i < t->ncvt; i++)
		if (t->cvt[i].from == a && t->cvt[i].to == b)
			return 1;
	return 0;
}

static void enumerate(const struct target *t, ptort_type *path, unsigned len, ptort_type to,
		      unsigned maxlen)
{
	int v;
	unsigned i;
	/* path[0..len-1], len >= 2 means intermediates exist */
	if (len >= 2 && native(t, path[len - 1], to)) {
		int better = !best_n || len < best_n;
		if (!better && len == best_n)
			for (i = 1; i < len; i++)
				if (path[i] != best[i]) {
					better = path[i] < best[i];
					break;
				}
		if (better) {
			best_n = len;
			memcpy(best, path, len * sizeof *path);
			best[len] = to;
		}
	}
	if (len >= maxlen)
		return;
	for (v = 0; v < PTORT_TYPE_COUNT; v++) {
		int seen = 0;
		for (i = 0; i < len; i++)
			seen |= path[i] == (ptort_type)v;
		if (seen || (ptort_type)v == to || !exact_native(t, path[len - 1], (ptort_type)v))
			continue;
		path[len] = (ptort_type)v;
		enumerate(t, path, len + 1, to, maxlen);
	}
}

static void test_chains(void)
{
	int tg, f, to, m;
	unsigned ndecomp = 0;
	for (tg = 0; tg < PTOC_TARGET_COUNT; tg++) {
		const struct target *t = target_get((ptoc_target)tg);
		for (f = 0; f < PTORT_TYPE_COUNT; f++)
			for (to = 0; to < PTORT_TYPE_COUNT; to++) {
				ptort_type path[PTOC_CVT_MAX_STEPS + 1];
				ptoc_cvt_result r;
				unsigned i;
				best_n = 0;
				path[0] = (ptort_type)f;
				if (f != to && !native(t, (ptort_type)f, (ptort_type)to))
					enumerate(t, path, 1, (ptort_type)to, 5);
				ptoc_cvt_query((ptoc_target)tg, (ptort_type)f, (ptort_type)to,
					       PTORT_RINT, PTOC_SAT_ABSENT, &r);
				if (native(t, (ptort_type)f, (ptort_type)to)) {
					CHECK(r.nsteps == 1 && r.verdict != PTOC_CVT_DECOMPOSED,
					      "%s %s -> %s native", t->name, TN(f), TN(to));
					continue;
				}
				if (!best_n) {
					CHECK(r.verdict == PTOC_CVT_ILLEGAL && r.nsteps == 0,
					      "%s %s -> %s: no chain exists, got %u steps", t->name,
					      TN(f), TN(to), r.nsteps);
					continue;
				}
				ndecomp++;
				CHECK(r.nsteps == best_n, "%s %s -> %s: %u steps, shortest %u",
				      t->name, TN(f), TN(to), r.nsteps, best_n);
				for (i = 0; i <= r.nsteps && r.nsteps == best_n; i++)
					CHECK(r.chain[i] == best[i], "%s %s -> %s: chain[%u] %s, want %s",
					      t->name, TN(f), TN(to), i, TN(r.chain[i]), TN(best[i]));
				/* each mode: legal iff the last step accepts it */
				for (m = 0; m < PTORT_RMODE_COUNT; m++) {
					int ok = ptort_cvt_is_exact((ptort_type)f, (ptort_type)to)
						? 1
						: m != PTORT_HYBRID &&
							  !!(r.last->modes & PTOC_RMODE_BIT(m));
					ptoc_cvt_result q;
					ptoc_cvt_query((ptoc_target)tg, (ptort_type)f, (ptort_type)to,
						       (ptort_rmode)m, PTOC_SAT_ABSENT, &q);
					CHECK(q.verdict == (ok ? PTOC_CVT_DECOMPOSED : PTOC_CVT_ILLEGAL),
					      "%s %s -> %s %s", t->name, TN(f), TN(to),
					      ptort_rmode_name((ptort_rmode)m));
					CHECK(ok || (q.flags & PTOC_CVT_F_BAD_MODE), "bad mode flag");
				}
			}
	}
	CHECK(ndecomp > 20, "only %u decompositions", ndecomp);
}

/* A hand-made table: the tie-break prefers f32, and the search trusts
 * ptort_cvt_is_exact, not the table's claim that a step is exact. */
static void test_fake_table(void)
{
	static const ptoc_cvt_rule rows[] = {
		{PTORT_I8, PTORT_F16, PTOC_RMODES_ANY, PTOC_CVT_EXACT, PTOC_SAT_NA, 1},
		{PTORT_I8, PTORT_F32, PTOC_RMODES_ANY, PTOC_CVT_EXACT, PTOC_SAT_NA, 1},
		{PTORT_F16, PTORT_I32, PTOC_RMODES_5, PTOC_CVT_ROUNDING, PTOC_SAT_HONOURED, 1},
		{PTORT_F32, PTORT_I32, PTOC_RMODES_5, PTOC_CVT_ROUNDING, PTOC_SAT_HONOURED, 1},
		/* claims exact, but i32 -> f16 is not */
		{PTORT_I32, PTORT_F16, PTOC_RMODES_ANY, PTOC_CVT_EXACT, PTOC_SAT_NA, 1},
		{PTORT_F16, PTORT_I8, PTOC_RMODES_5, PTOC_CVT_ROUNDING, PTOC_SAT_HONOURED, 1},
	};
	struct target t;
	ptoc_cvt_result r;
	memset(&t, 0, sizeof t);
	t.id = PTOC_TARGET_A2A3;
	t.name = "fake";
	t.cvt = rows;
	t.ncvt = sizeof rows / sizeof rows[0];
	target_cvt_query(&t, PTORT_I8, PTORT_I32, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.nsteps == 2 && r.chain[1] == PTORT_F32,
	      "tie-break: via %s", TN(r.chain[1]));
	target_cvt_query(&t, PTORT_I32, PTORT_I8, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && r.nsteps == 0, "i32 -> f16 is not exact");
}

/* ---- Decompositions compute what the direct conversion computes -------- */

/* A few patterns of a wide source: boundaries and a fixed pseudo-random walk. */
static uint64_t wide_pattern(unsigned bits, unsigned i)
{
	static const uint64_t edge[] = {0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF,
					0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu};
	uint64_t x = 0x9E3779B97F4A7C15ull * (i + 1);
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	if (i < sizeof edge / sizeof edge[0])
		return edge[i] & mask;
	x ^= x >> 29;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 32;
	return x & mask;
}

/* For every decomposition of both targets, every legal mode and sat request: the
 * chain run through the runtime (steps before the last with RINT and sat OFF, the
 * last with the effective mode and saturation) equals the runtime's direct
 * conversion with that mode and saturation, on every source pattern of up to 16
 * bits (and samples of wider ones). This is what "every step but the last is
 * exact" promises. */
static void test_chain_values(void)
{
	int tg, f, to, m, s;
	unsigned long compared = 0;
	unsigned done = 0;
	for (tg = 0; tg < PTOC_TARGET_COUNT; tg++)
		for (f = 0; f < PTORT_TYPE_COUNT; f++)
			for (to = 0; to < PTORT_TYPE_COUNT; to++)
				for (m = 0; m < PTORT_RMODE_COUNT; m++)
					for (s = 0; s < 3; s++) {
						ptoc_cvt_result r;
						unsigned bits = ptort_type_bits((ptort_type)f), n, i, k;
						int bad = 0;
						if (m == 0 && s == 0)
							done = 0;
						if (ptoc_cvt_query((ptoc_target)tg, (ptort_type)f,
								   (ptort_type)to, (ptort_rmode)m,
								   (ptoc_sat_request)s, &r) != PTOC_CVT_DECOMPOSED)
							continue;
						if (ptort_cvt_check(r.from, r.to, r.rmode) != PTORT_CVT_OK)
							continue; /* e.g. ODD beyond f32 -> f16 */
						/* each effective (mode, sat) once per pair */
						if (done & (1u << (r.rmode * 2 + r.sat)))
							continue;
						done |= 1u << (r.rmode * 2 + r.sat);
						n = bits <= 16 ? 1u << bits : 4096;
						for (i = 0; i < n && bad < 3; i++) {
							uint64_t x = bits <= 16 ? i : wide_pattern(bits, i);
							uint64_t v = x, want;
							for (k = 0; k + 1 < r.nsteps; k++)
								v = ptort_cvt1(r.chain[k], r.chain[k + 1], v,
									       PTORT_RINT, PTORT_SAT_OFF);
							v = ptort_cvt1(r.chain[k], r.chain[k + 1], v, r.rmode,
								       r.sat);
							want = ptort_cvt1(r.from, r.to, x, r.rmode, r.sat);
							compared++;
							if (v != want) {
								bad++;
								CHECK(v == want,
								      "%s %s %s %s sat %d: 0x%llx -> 0x%llx, "
								      "direct 0x%llx",
								      ptoc_target_name((ptoc_target)tg),
								      TN(f), TN(to), ptort_rmode_name(r.rmode),
								      r.sat, (unsigned long long)x,
								      (unsigned long long)v,
								      (unsigned long long)want);
							}
						}
					}
	CHECK(compared > 500000, "only %lu values compared", compared);
	printf("chain values: %lu compared\n", compared);
}

/* ---- Representative queries -------------------------------------------- */

static const char *reason(const ptoc_cvt_result *r)
{
	static char buf[512];
	ptoc_cvt_reason(r, buf, sizeof buf);
	return buf;
}

static unsigned nwarn;
static char warn_text[2][256];

static void collect(void *user, const char *msg, size_t len)
{
	(void)user;
	if (nwarn < 2)
		snprintf(warn_text[nwarn], sizeof warn_text[0], "%.*s", (int)len, msg);
	nwarn++;
}

static void test_queries(void)
{
	ptoc_cvt_result r;
	char small[8];
	size_t n;

	/* A2A3 f16 -> bf16 via f32 */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F16, PTORT_BF16, PTORT_FLOOR, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.nsteps == 2 && r.chain[0] == PTORT_F16 &&
		      r.chain[1] == PTORT_F32 && r.chain[2] == PTORT_BF16,
	      "a2a3 f16 -> bf16");
	CHECK(r.rmode == PTORT_FLOOR && r.sat == PTORT_SAT_ON &&
		      (r.flags & PTOC_CVT_F_SAT_OVERRIDDEN),
	      "a2a3 f16 -> bf16: rmode %d sat %d flags %x", r.rmode, r.sat, r.flags);
	nwarn = 0;
	CHECK(ptoc_cvt_warnings(&r, collect, NULL) == 1 && nwarn == 1, "one warning");
	CHECK(!strcmp(warn_text[0], "saturation OFF is not available for f16 -> f32 -> bf16 on "
				    "a2a3; saturation is forced ON"),
	      "warning '%s'", warn_text[0]);
	n = ptoc_cvt_chain_str(&r, small, sizeof small);
	CHECK(n == strlen("f16 -> f32 -> bf16") && !strcmp(small, "f16 -> "), "chain_str '%s'",
	      small);

	/* A5 f16 -> f8E4M3FN via f32, RINT only */
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F16, PTORT_F8E4M3FN, PTORT_NONE, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.chain[1] == PTORT_F32 && r.rmode == PTORT_RINT &&
		      r.sat == PTORT_SAT_ON,
	      "a5 f16 -> e4m3");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F16, PTORT_F8E4M3FN, PTORT_ROUND, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && (r.flags & PTOC_CVT_F_BAD_MODE), "a5 e4m3 ROUND");
	CHECK(!strcmp(reason(&r), "f16 -> f8E4M3FN with round mode ROUND is not supported on a5; "
				  "legal modes of f16 -> f32 -> f8E4M3FN: RINT, NONE"),
	      "'%s'", reason(&r));

	/* A2A3 f16 -> hif8: illegal, no chain */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F16, PTORT_HIF8, PTORT_ROUND, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && r.nsteps == 0 && !r.last, "a2a3 f16 -> hif8");
	CHECK(!strcmp(reason(&r), "f16 -> hif8 is not supported on a2a3; legal destinations of "
				  "f16: f32, i32, i16, i8, ui8, i4"),
	      "'%s'", reason(&r));
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F16, PTORT_F8E4M3FN, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(!strcmp(reason(&r), "f16 -> f8E4M3FN is not supported on a2a3; legal destinations "
				  "of f16: f32, i32, i16, i8, ui8, i4"),
	      "'%s'", reason(&r));
	n = ptoc_cvt_reason(&r, small, sizeof small);
	CHECK(n == strlen(reason(&r)) && !strcmp(small, "f16 -> "), "truncated reason");
	CHECK(ptoc_cvt_reason(&r, NULL, 0) == n, "sizing call");
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_HIF8, PTORT_F32, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(!strcmp(reason(&r), "hif8 -> f32 is not supported on a2a3; hif8 has no conversions "
				  "on a2a3"),
	      "'%s'", reason(&r));

	/* A2A3 i8 -> f32: i8 -> f16 is exact (format data), f16 -> f32 native */
	CHECK(ptort_cvt_is_exact(PTORT_I8, PTORT_F16), "i8 -> f16 exact");
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_I8, PTORT_F32, PTORT_ODD, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.nsteps == 2 && r.chain[1] == PTORT_F16 &&
		      (r.flags & PTOC_CVT_F_EXACT) && r.rmode == PTORT_RINT,
	      "a2a3 i8 -> f32");
	/* A2A3 i16 -> i8: i16 -> f16 is not exact, f32 -> i8 missing: illegal */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_I16, PTORT_I8, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL, "a2a3 i16 -> i8");
	/* same-type pairs are never decomposed; f32 -> f32 is native */
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F16, PTORT_F16, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL, "f16 -> f16");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F32, PTORT_F32, PTORT_ODD, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && (r.flags & PTOC_CVT_F_BAD_MODE), "f32 -> f32 ODD");

	/* deq path */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_I32, PTORT_F16, PTORT_TRUNC, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.verdict == PTOC_CVT_NATIVE && r.rmode == PTORT_RINT && r.sat == PTORT_SAT_ON &&
		      r.flags == (PTOC_CVT_F_DEQ | PTOC_CVT_F_RMODE_IGNORED |
				  PTOC_CVT_F_SAT_OVERRIDDEN),
	      "deq flags %x", r.flags);
	nwarn = 0;
	CHECK(ptoc_cvt_warnings(&r, collect, NULL) == 2, "two warnings");
	CHECK(!strcmp(warn_text[0], "round mode TRUNC is ignored by the deq path of i32 -> f16 on "
				    "a2a3; RINT is applied"),
	      "'%s'", warn_text[0]);
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_I32, PTORT_F16, PTORT_NONE, PTOC_SAT_ABSENT, &r);
	CHECK(r.flags == PTOC_CVT_F_DEQ, "deq NONE: no warning");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_I32, PTORT_F16, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL, "a5 has no i32 -> f16");

	/* NONE -> RINT; ODD only f32 -> f16 */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F32, PTORT_F16, PTORT_NONE, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_NATIVE && r.rmode == PTORT_RINT, "NONE -> RINT");
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F32, PTORT_F16, PTORT_ODD, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_NATIVE && r.rmode == PTORT_ODD, "ODD");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F32, PTORT_HIF8, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && !strcmp(reason(&r),
		"f32 -> hif8 with round mode RINT is not supported on a5; legal modes of f32 -> "
		"hif8: ROUND, HYBRID"), "'%s'", reason(&r));
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F32, PTORT_HIF8, PTORT_HYBRID, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_NATIVE && r.rmode == PTORT_HYBRID, "HYBRID");

	/* saturation: defaults, honoured, forced */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F16, PTORT_I8, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.sat == PTORT_SAT_OFF && !r.flags, "a2a3 f16 -> i8 default OFF");
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F16, PTORT_I8, PTORT_RINT, PTOC_SAT_REQ_ON, &r);
	CHECK(r.sat == PTORT_SAT_ON && !r.flags, "a2a3 f16 -> i8 ON honoured");
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_F32, PTORT_F16, PTORT_RINT, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.sat == PTORT_SAT_ON && r.flags == PTOC_CVT_F_SAT_OVERRIDDEN, "a2a3 forced ON");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F32, PTORT_F16, PTORT_RINT, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.sat == PTORT_SAT_OFF && !r.flags, "a5 honoured OFF");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_I64, PTORT_I32, PTORT_CEIL, PTOC_SAT_ABSENT, &r);
	CHECK(r.sat == PTORT_SAT_OFF && r.rmode == PTORT_RINT, "a5 i64 -> i32 default OFF");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_I16, PTORT_U32, PTORT_RINT, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.sat == PTORT_SAT_ON && (r.flags & PTOC_CVT_F_SAT_OVERRIDDEN), "i16 -> ui32");
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_I32, PTORT_F32, PTORT_RINT, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.flags == PTOC_CVT_F_NO_SAT && nwarn == 2, "f32 destination: no warning");
	CHECK(ptoc_cvt_warnings(&r, NULL, NULL) == 0, "no warnings");
	/* decomposed: default ON even when the last step's own default is OFF */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_BF16, PTORT_I16, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.sat == PTORT_SAT_ON &&
		      r.last->sat_default == PTORT_SAT_OFF,
	      "decomposed default ON");

	/* an exact pair through a chain: any mode, no effect, sat OFF keeps NaN */
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F8E4M3FN, PTORT_BF16, PTORT_HYBRID, PTOC_SAT_REQ_ON, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.rmode == PTORT_RINT && r.sat == PTORT_SAT_OFF &&
		      r.flags == (PTOC_CVT_F_EXACT | PTOC_CVT_F_NO_SAT) && r.sat_rule == PTOC_SAT_NA,
	      "exact chain: flags %x sat %d", r.flags, r.sat);
	/* HYBRID is not offered through a chain */
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_I8, PTORT_HIF8, PTORT_HYBRID, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && !strcmp(reason(&r),
		"i8 -> hif8 with round mode HYBRID is not supported on a5; legal modes of i8 -> f16 "
		"-> hif8: ROUND"), "'%s'", reason(&r));
	/* a signed integer to a wider unsigned one is saturation only */
	ptoc_cvt_query(PTOC_TARGET_A2A3, PTORT_I4, PTORT_U8, PTORT_RINT, PTOC_SAT_REQ_OFF, &r);
	CHECK(r.verdict == PTOC_CVT_DECOMPOSED && r.sat == PTORT_SAT_ON &&
		      r.sat_rule == PTOC_SAT_FORCED_ON && (r.flags & PTOC_CVT_F_SAT_OVERRIDDEN),
	      "i4 -> ui8 forced ON");

	/* out-of-range arguments never crash */
	ptoc_cvt_query(PTOC_TARGET_COUNT, PTORT_F16, PTORT_F32, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL && !strcmp(reason(&r), "unknown target"), "bad target");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_F16, PTORT_F32, PTORT_RMODE_COUNT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL, "bad mode");
	ptoc_cvt_query(PTOC_TARGET_A5, PTORT_TYPE_COUNT, PTORT_F32, PTORT_RINT, PTOC_SAT_ABSENT, &r);
	CHECK(r.verdict == PTOC_CVT_ILLEGAL, "bad type");
	CHECK(ptoc_target_cvt_get(PTOC_TARGET_A5, 1000) == NULL, "row out of range");
}

int main(void)
{
	test_tables();
	test_memory();
	test_targets();
	test_chains();
	test_fake_table();
	test_queries();
	test_chain_values();
	return check_report("target");
}
