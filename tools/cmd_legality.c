/* cmd_legality.c: `ptoc legality`: prints a target's conversion table (native pairs
 * and exact decompositions), memories and limits in markdown, CSV or JSON, or
 * decides one conversion and prints a one-line verdict. All facts come from the
 * library (include/ptoc/legality.h); this file only formats them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptoc/legality.h"
#include "tools.h"

enum format { FMT_MD, FMT_CSV, FMT_JSON };

struct opts {
	ptoc_target target;
	int has_from, has_to, has_rmode;
	ptort_type from, to;
	ptort_rmode rmode;
	ptoc_sat_request sat;
	enum format format;
};

static const char usage_text[] =
	"usage: ptoc legality [--target T] [--from TYPE] [--to TYPE] [--rmode M]\n"
	"                     [--sat on|off] [--format md|csv|json]\n"
	"\n"
	"Prints what a target accepts for tcvt: every native pair and every pair that\n"
	"compiles as a chain of exact conversions (a decomposition), with the round modes\n"
	"and saturation rules, then the on-chip memories and the vector and cube limits.\n"
	"\n"
	"  --target T        a2a3 (default; aliases a3, a2) or a5\n"
	"  --pto-arch T      the same as --target (PTOAS's spelling)\n"
	"  --from TYPE       only conversions from TYPE (f32, f16, bf16, i8, ui8, ...)\n"
	"  --to TYPE         only conversions to TYPE\n"
	"  --rmode M         with --from and --to: decide that conversion and print one\n"
	"                    line: 'native', 'decomposed via T: A -> T -> B' or\n"
	"                    'illegal: REASON' (exit 0, 0, 1); warnings go to stderr\n"
	"                    (M: RINT ROUND FLOOR CEIL TRUNC ODD NONE HYBRID)\n"
	"  --sat on|off      the requested saturation for the verdict (default: absent)\n"
	"  --format F        md (default), csv or json, for tables\n"
	"  -h, --help        this text\n"
	"\n"
	"Options take their value as the next word or after '='. Exit status: 0 done,\n"
	"1 the conversion asked about is illegal, 2 usage error.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptoc legality: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see 'ptoc legality --help')\n");
	return 2;
}

static int parse_type(const char *s, ptort_type *out)
{
	if (ptort_type_parse(s, strlen(s), out))
		return usage_error("unknown element type '%s'", s);
	return 0;
}

/* Returns 0, 2 for a usage error, or -1 after printing the help. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const char *const valued[] = {"--target", "--pto-arch", "--from", "--to",
					     "--rmode", "--sat", "--format"};
	int i;
	size_t k;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		size_t nlen;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return -1;
		}
		eq = strchr(a, '=');
		nlen = eq ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < sizeof valued / sizeof valued[0]; k++)
			if (strlen(valued[k]) == nlen && !strncmp(a, valued[k], nlen))
				break;
		if (k == sizeof valued / sizeof valued[0])
			return usage_error("unknown option '%s'", a);
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return usage_error("option '%s' needs a value", a);
		switch (k) {
		case 0:
		case 1:
			if (ptoc_target_parse(val, strlen(val), &o->target)) {
				char msg[256];
				return usage_error("%s", tool_unknown_target(val, msg, sizeof msg));
			}
			break;
		case 2:
			if (parse_type(val, &o->from))
				return 2;
			o->has_from = 1;
			break;
		case 3:
			if (parse_type(val, &o->to))
				return 2;
			o->has_to = 1;
			break;
		case 4:
			if (ptort_rmode_parse(val, strlen(val), &o->rmode))
				return usage_error("unknown round mode '%s' (expected RINT, ROUND, "
						   "FLOOR, CEIL, TRUNC, ODD, NONE or HYBRID)",
						   val);
			o->has_rmode = 1;
			break;
		case 5:
			if (!strcmp(val, "on"))
				o->sat = PTOC_SAT_REQ_ON;
			else if (!strcmp(val, "off"))
				o->sat = PTOC_SAT_REQ_OFF;
			else
				return usage_error("--sat expects on or off, not '%s'", val);
			break;
		default:
			if (!strcmp(val, "md"))
				o->format = FMT_MD;
			else if (!strcmp(val, "csv"))
				o->format = FMT_CSV;
			else if (!strcmp(val, "json"))
				o->format = FMT_JSON;
			else
				return usage_error("unknown format '%s' (expected md, csv or json)",
						   val);
		}
	}
	if (o->has_rmode && !(o->has_from && o->has_to))
		return usage_error("%s", "--rmode asks for a verdict and needs --from and --to");
	if (o->sat != PTOC_SAT_ABSENT && !o->has_rmode)
		return usage_error("%s", "--sat belongs to a verdict: give --from, --to and --rmode");
	return 0;
}

/* ---- The one-line verdict ---------------------------------------------- */

static void warn(void *user, const char *msg, size_t len)
{
	(void)user;
	fprintf(stderr, "ptoc legality: warning: %.*s\n", (int)len, msg);
}

static int verdict(const struct opts *o)
{
	ptoc_cvt_result r;
	char text[1024];
	ptoc_cvt_verdict v = ptoc_cvt_query(o->target, o->from, o->to, o->rmode, o->sat, &r);

	ptoc_cvt_warnings(&r, warn, NULL);
	ptoc_cvt_verdict_str(o->target, o->from, o->to, o->rmode, o->sat, text, sizeof text);
	puts(text);
	return v == PTOC_CVT_ILLEGAL;
}

/* ---- Tables ------------------------------------------------------------ */

/* One row: a native pair or a decomposition (r.last is the last step's rule). */
struct row {
	ptoc_cvt_result r;
};

static const char *kind_name(ptoc_cvt_kind k)
{
	switch (k) {
	case PTOC_CVT_ROUNDING: return "rounding";
	case PTOC_CVT_EXACT: return "exact";
	case PTOC_CVT_SAT_ONLY: return "sat_only";
	default: return "deq";
	}
}

static const char *sat_rule_name(ptoc_sat_rule s)
{
	switch (s) {
	case PTOC_SAT_NA: return "na";
	case PTOC_SAT_HONOURED: return "honoured";
	default: return "forced_on";
	}
}

/* Default saturation of a row as the query resolves it (absent sat_mode). */
static int row_sat_default(const struct row *w)
{
	return w->r.sat;
}

static void print_modes(unsigned modes, const char *sep)
{
	int m, first = 1;
	for (m = 0; m < PTORT_RMODE_COUNT; m++)
		if (modes & PTOC_RMODE_BIT(m)) {
			printf("%s%s", first ? "" : sep, ptort_rmode_name((ptort_rmode)m));
			first = 0;
		}
}

static void print_chain(const ptoc_cvt_result *r, const char *sep)
{
	unsigned i;
	for (i = 0; i <= r->nsteps; i++)
		printf("%s%s", i ? sep : "", ptort_type_name(r->chain[i]));
}

/* The kind shown for a row: an exact pair is "exact" whatever its last step. */
static ptoc_cvt_kind row_kind(const struct row *w)
{
	return (w->r.flags & PTOC_CVT_F_EXACT) ? PTOC_CVT_EXACT : w->r.last->kind;
}

static void md_row(const struct row *w)
{
	const ptoc_cvt_rule *l = w->r.last;
	printf("| %s | %s | ", ptort_type_name(w->r.from), ptort_type_name(w->r.to));
	if (w->r.verdict == PTOC_CVT_NATIVE)
		fputs(l->kind == PTOC_CVT_DEQ ? "native (deq path)" : "native", stdout);
	else
		print_chain(&w->r, " -> ");
	fputs(" | ", stdout);
	switch (row_kind(w)) {
	case PTOC_CVT_EXACT:
		fputs("any (exact)", stdout);
		break;
	case PTOC_CVT_SAT_ONLY:
		fputs("any (no rounding)", stdout);
		break;
	case PTOC_CVT_DEQ:
		fputs("any (RINT applied)", stdout);
		break;
	default:
		print_modes(w->r.modes, " ");
		if (l->from == l->to)
			fputs(" (to integral)", stdout);
	}
	if (w->r.sat_rule == PTOC_SAT_NA)
		fputs(" | - | - |\n", stdout);
	else
		printf(" | %s | %s |\n", row_sat_default(w) == PTORT_SAT_ON ? "ON" : "OFF",
		       w->r.sat_rule == PTOC_SAT_HONOURED ? "honoured" : "forced ON");
}

/* The words of the CSV and JSON rows: the verdict, the saturation default. */
static const char *verdict_word(const struct row *w)
{
	return w->r.verdict == PTOC_CVT_NATIVE ? "native" : "decomposed";
}

static const char *sat_default_word(const struct row *w)
{
	return w->r.sat_rule == PTOC_SAT_NA ? "na" : row_sat_default(w) == PTORT_SAT_ON ? "on" : "off";
}

static void csv_row(const struct row *w)
{
	printf("%s,%s,%s,%s,", ptoc_target_name(w->r.target), ptort_type_name(w->r.from),
	       ptort_type_name(w->r.to), verdict_word(w));
	print_chain(&w->r, " ");
	printf(",%s,", kind_name(row_kind(w)));
	print_modes(w->r.modes, " ");
	printf(",%s,%s\n", sat_default_word(w), sat_rule_name(w->r.sat_rule));
}

static void json_row(const struct row *w, int first)
{
	printf("%s\n    {\"src\": \"%s\", \"dst\": \"%s\", \"verdict\": \"%s\", \"chain\": [\"",
	       first ? "" : ",", ptort_type_name(w->r.from), ptort_type_name(w->r.to), verdict_word(w));
	print_chain(&w->r, "\", \"");
	printf("\"], \"kind\": \"%s\", \"rmodes\": [\"", kind_name(row_kind(w)));
	print_modes(w->r.modes, "\", \"");
	printf("\"], \"sat_default\": \"%s\", \"sat_explicit\": \"%s\"}", sat_default_word(w),
	       sat_rule_name(w->r.sat_rule));
}

/* The row of `from -> to` when it is native or decomposable (the chain does not
 * depend on the mode; the mode checked is the last step's first legal one). */
static int get_row(ptoc_target t, ptort_type from, ptort_type to, struct row *w)
{
	ptoc_cvt_result *r = &w->r;
	int m;
	ptoc_cvt_query(t, from, to, PTORT_RINT, PTOC_SAT_ABSENT, r);
	if (r->verdict == PTOC_CVT_ILLEGAL && (r->flags & PTOC_CVT_F_BAD_MODE)) {
		for (m = 0; m < PTORT_RMODE_COUNT; m++)
			if (r->modes & PTOC_RMODE_BIT(m))
				break;
		ptoc_cvt_query(t, from, to, (ptort_rmode)m, PTOC_SAT_ABSENT, r);
	}
	return r->verdict != PTOC_CVT_ILLEGAL;
}

static void print_row(const struct opts *o, const struct row *w, int first)
{
	if (o->format == FMT_MD)
		md_row(w);
	else if (o->format == FMT_CSV)
		csv_row(w);
	else
		json_row(w, first);
}

/* Sources in the order they first appear in the native table (docs/semantics.md §4); for
 * each, its native rows, then its decompositions in ptort_type order. Returns the
 * number of rows printed. */
static size_t print_conversions(const struct opts *o)
{
	int seen[PTORT_TYPE_COUNT] = {0};
	size_t i, n = ptoc_target_cvt_count(o->target), rows = 0;
	struct row w;
	int to;

	for (i = 0; i < n; i++) {
		ptort_type from = ptoc_target_cvt_get(o->target, i)->from;
		size_t j;
		if (seen[from] || (o->has_from && from != o->from))
			continue;
		seen[from] = 1;
		for (j = i; j < n; j++) {
			const ptoc_cvt_rule *c = ptoc_target_cvt_get(o->target, j);
			if (c->from != from || (o->has_to && c->to != o->to))
				continue;
			get_row(o->target, from, c->to, &w);
			print_row(o, &w, !rows++);
		}
		for (to = 0; to < PTORT_TYPE_COUNT; to++) {
			if ((o->has_to && (ptort_type)to != o->to) ||
			    ptoc_target_cvt_find(o->target, from, (ptort_type)to) ||
			    !get_row(o->target, from, (ptort_type)to, &w))
				continue;
			print_row(o, &w, !rows++);
		}
	}
	return rows;
}

static void kib(uint32_t bytes)
{
	if (bytes % 1024 == 0)
		printf("%u KiB", (unsigned)(bytes / 1024));
	else
		printf("%u B", (unsigned)bytes);
}

/* The mmad type triples with the given mx flag, comma separated, after `head`. */
static void print_mmad(const ptoc_cube_limits *c, int mx, const char *head)
{
	size_t i;
	int first = 1;
	fputs(head, stdout);
	for (i = 0; i < c->ntypes; i++) {
		if (c->types[i].mx != mx)
			continue;
		printf("%s %s x %s -> %s", first ? "" : ",", ptort_type_name(c->types[i].a),
		       ptort_type_name(c->types[i].b), ptort_type_name(c->types[i].c));
		first = 0;
	}
	fputs("\n", stdout);
}

/* The tmov pairs that may (reshape 1) or may not change the shape, after `head`;
 * nothing when there are none. */
static void print_tmov(ptoc_target t, int reshape, const char *head)
{
	size_t i, n = ptoc_target_tmov_count(t);
	int first = 1;
	for (i = 0; i < n; i++) {
		const ptoc_tmov_pair *p = ptoc_target_tmov_get(t, i);
		if (!p->reshape != !reshape)
			continue;
		printf("%s %s -> %s", first ? head : ",", ptoc_loc_name(p->src),
		       ptoc_loc_name(p->dst));
		first = 0;
	}
	if (!first)
		fputs("\n", stdout);
}

static void md_limits(ptoc_target t)
{
	const ptoc_vec_limits *v = ptoc_target_vec(t);
	const ptoc_cube_limits *c = ptoc_target_cube(t);
	int l;

	printf("\n### Memories\n\n| loc | memory | capacity | align | reserved |\n"
	       "|---|---|---|---|---|\n");
	for (l = 0; l < PTOC_LOC_COUNT; l++) {
		const ptoc_mem_info *m = ptoc_target_mem(t, (ptoc_loc)l);
		printf("| %s | %s | ", ptoc_loc_name((ptoc_loc)l), m->memory);
		kib(m->capacity);
		printf(" | %u B | ", (unsigned)m->align);
		if (m->reserved_top) {
			fputs("top ", stdout);
			kib(m->reserved_top);
		} else {
			fputs("-", stdout);
		}
		fputs(" |\n", stdout);
	}
	printf("\n### Vector\n\n");
	if (v->predicated)
		printf("* %u-byte vector registers with element-count predicates\n",
		       (unsigned)v->repeat_bytes);
	else
		printf("* %u-byte repeats of %u-byte blocks, lane masks\n",
		       (unsigned)v->repeat_bytes, (unsigned)v->block_bytes);
	if (v->repeat_max)
		printf("* repeat count in [1, %u]\n", (unsigned)v->repeat_max);
	else
		printf("* no repeat count limit\n");
	if (v->block_stride_max || v->repeat_stride_max)
		printf("* block stride <= %u, repeat stride <= %u (in %u-byte blocks)\n",
		       (unsigned)v->block_stride_max, (unsigned)v->repeat_stride_max,
		       (unsigned)v->block_bytes);
	else
		printf("* no stride limit\n");
	printf("\n### Data movement\n\n");
	print_tmov(t, 0, "* tmov, same shape:");
	print_tmov(t, 1, "* tmov, the shapes may differ:");
	printf("\n### Cube\n\n");
	printf("* m, k, n in [%u, %u]\n", (unsigned)c->mnk_min, (unsigned)c->mnk_max);
	printf("* layouts: A (left) %s, B (right) %s, C (acc) %s; fractals %u, %u, %u B\n",
	       ptoc_layout_name(c->left), ptoc_layout_name(c->right), ptoc_layout_name(c->acc),
	       (unsigned)c->left_fractal, (unsigned)c->right_fractal, (unsigned)c->acc_fractal);
	print_mmad(c, 0, "* types (A x B -> C):");
	if (c->mx_k_multiple) {
		printf("* MX (e8m0 scales, K a multiple of %u):", (unsigned)c->mx_k_multiple);
		print_mmad(c, 1, "");
	}
}

static void json_limits(ptoc_target t)
{
	const ptoc_vec_limits *v = ptoc_target_vec(t);
	const ptoc_cube_limits *c = ptoc_target_cube(t);
	int l;
	size_t i;

	printf(",\n  \"memory\": [");
	for (l = 0; l < PTOC_LOC_COUNT; l++) {
		const ptoc_mem_info *m = ptoc_target_mem(t, (ptoc_loc)l);
		printf("%s\n    {\"loc\": \"%s\", \"memory\": \"%s\", \"capacity\": %u, "
		       "\"align\": %u, \"reserved_top\": %u}",
		       l ? "," : "", ptoc_loc_name((ptoc_loc)l), m->memory, (unsigned)m->capacity,
		       (unsigned)m->align, (unsigned)m->reserved_top);
	}
	printf("\n  ],\n  \"vector\": {\"repeat_bytes\": %u, \"block_bytes\": %u, "
	       "\"repeat_max\": %u, \"block_stride_max\": %u, \"repeat_stride_max\": %u, "
	       "\"predicated\": %s},\n",
	       (unsigned)v->repeat_bytes, (unsigned)v->block_bytes, (unsigned)v->repeat_max,
	       (unsigned)v->block_stride_max, (unsigned)v->repeat_stride_max,
	       v->predicated ? "true" : "false");
	printf("  \"cube\": {\"mnk_min\": %u, \"mnk_max\": %u, \"left\": \"%s\", "
	       "\"right\": \"%s\", \"acc\": \"%s\", \"left_fractal\": %u, "
	       "\"right_fractal\": %u, \"acc_fractal\": %u, \"mx_k_multiple\": %u, \"types\": [",
	       (unsigned)c->mnk_min, (unsigned)c->mnk_max, ptoc_layout_name(c->left),
	       ptoc_layout_name(c->right), ptoc_layout_name(c->acc), (unsigned)c->left_fractal,
	       (unsigned)c->right_fractal, (unsigned)c->acc_fractal,
	       (unsigned)c->mx_k_multiple);
	for (i = 0; i < c->ntypes; i++)
		printf("%s\n    {\"a\": \"%s\", \"b\": \"%s\", \"c\": \"%s\", \"mx\": %s}",
		       i ? "," : "", ptort_type_name(c->types[i].a), ptort_type_name(c->types[i].b),
		       ptort_type_name(c->types[i].c), c->types[i].mx ? "true" : "false");
	printf("\n  ]},\n  \"tmov\": [");
	for (i = 0; i < ptoc_target_tmov_count(t); i++) {
		const ptoc_tmov_pair *p = ptoc_target_tmov_get(t, i);
		printf("%s\n    {\"src\": \"%s\", \"dst\": \"%s\", \"reshape\": %s}", i ? "," : "",
		       ptoc_loc_name(p->src), ptoc_loc_name(p->dst), p->reshape ? "true" : "false");
	}
	printf("\n  ]");
}

static int table(const struct opts *o)
{
	int narrowed = o->has_from || o->has_to;
	size_t rows;

	if (o->format == FMT_MD)
		printf("### Conversions\n\n| src | dst | path | round modes | sat default |"
		       " explicit sat |\n|---|---|---|---|---|---|\n");
	else if (o->format == FMT_CSV)
		printf("target,src,dst,verdict,chain,kind,rmodes,sat_default,sat_explicit\n");
	else
		printf("{\n  \"target\": \"%s\",\n  \"conversions\": [",
		       ptoc_target_name(o->target));
	rows = print_conversions(o);
	if (o->format == FMT_JSON) {
		printf("\n  ]");
		if (!narrowed)
			json_limits(o->target);
		printf("\n}\n");
	} else if (o->format == FMT_MD && !narrowed) {
		md_limits(o->target);
	}
	if (!rows && o->has_from && o->has_to) {
		ptoc_cvt_result r;
		char text[512];
		ptoc_cvt_query(o->target, o->from, o->to, PTORT_RINT, PTOC_SAT_ABSENT, &r);
		ptoc_cvt_reason(&r, text, sizeof text);
		fprintf(stderr, "ptoc legality: illegal: %s\n", text);
		return 1;
	}
	return 0;
}

int cmd_legality(int argc, char **argv)
{
	struct opts o;
	int rc;

	memset(&o, 0, sizeof o);
	o.target = PTOC_TARGET_A2A3;
	o.sat = PTOC_SAT_ABSENT;
	o.format = FMT_MD;
	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.has_rmode)
		return verdict(&o);
	return table(&o);
}
