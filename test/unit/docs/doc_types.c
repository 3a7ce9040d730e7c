/* doc_types.c (ptoc-doc-types): the element types as the runtime describes them, for
 * the docs (scripts/doc-tables.py).
 *   ptoc-doc-types table           the markdown table of docs/semantics.md §1, one row
 *                                  per ptort_type in enum order, from the format data
 *                                  (cvt_format.c) and ptort_value_format
 *   ptoc-doc-types spell WORD...   the canonical name each spelling parses to, one per
 *                                  line ("?" when ptort_type_parse rejects it)
 *   ptoc-doc-types insns           the instruction table of docs/lowered.md, from the
 *                                  compiler's ir/insns.def
 *   ptoc-doc-types ops             the op table of docs/ops.md, from ir/ops.def
 * Exit status 0, or 2 for a usage error. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cvt_internal.h"
#include "ptort.h"

static double value(ptort_type t, uint64_t code)
{
	struct ptort_val v;
	ptort_decode(t, code, &v);
	if (v.cls != VAL_FINITE)
		return v.cls == VAL_ZERO ? 0.0 : NAN;
	return ldexp((double)v.sig, v.exp) * (v.sign ? -1.0 : 1.0);
}

/* The codes of the largest and of the smallest positive finite values. */
static void extremes(ptort_type t, const struct ptort_fmt *f, uint64_t *max, uint64_t *min)
{
	uint64_t c, n, ones = f->bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << f->bits) - 1;
	double hi = 0, lo = INFINITY;
	if (f->kind == FMT_INT) {
		*max = f->is_signed ? ones >> 1 : ones;
		*min = 1;
		return;
	}
	if (f->bits > 16) { /* f32: the IEEE layout of its description */
		*max = (uint64_t)(f->emax + f->bias) << f->mbits | f->maxfrac;
		*min = 1;
		return;
	}
	*max = *min = 0;
	for (c = 0, n = ones + 1; c < n; c++) {
		double x = value(t, c);
		if (!(x > 0))
			continue;
		if (x > hi)
			hi = x, *max = c;
		if (x < lo)
			lo = x, *min = c;
	}
}

static const char *hex(unsigned bits, uint64_t c, char *buf, size_t cap)
{
	snprintf(buf, cap, "0x%0*llX", (int)(bits + 3) / 4 % 17, (unsigned long long)c);
	return buf;
}

static int msb(uint64_t x)
{
	int n = -1;
	while (x)
		x >>= 1, n++;
	return n;
}

/* A value for a table cell: the exact decimal when short, a power of two as 2^e,
 * an integer's largest value as 2^n-1, else the decimal rounded to 8 digits after "~". */
static const char *cell(ptort_type t, uint64_t code, char *buf, size_t cap)
{
	struct ptort_val v;
	char exact[512];
	ptort_decode(t, code, &v);
	ptort_value_format(t, code, exact, sizeof exact);
	if (strlen(exact) <= 16 || v.cls != VAL_FINITE)
		snprintf(buf, cap, "%s", exact);
	else if (ptort_fmt_get(t)->kind == FMT_INT) /* the largest: all ones */
		snprintf(buf, cap, "2^%d-1", msb(v.sig) + 1);
	else if (!(v.sig & (v.sig - 1)))
		snprintf(buf, cap, "2^%d", v.exp + msb(v.sig));
	else
		snprintf(buf, cap, "~%.8g", value(t, code));
	return buf;
}

static void row(ptort_type t)
{
	const struct ptort_fmt *f = ptort_fmt_get(t);
	char enc[64], vmax[520], vmin[520], cmax[24], cmin[24], nan[48], qn[24];
	uint64_t max, min;
	extremes(t, f, &max, &min);
	switch (f->kind) {
	case FMT_IEEE:
		snprintf(enc, sizeof enc, "1/%u/%u, bias %d", f->ebits, f->mbits, f->bias);
		break;
	case FMT_HIF8:
		snprintf(enc, sizeof enc, "HiFloat8, tapered (§3.3)");
		break;
	case FMT_E8M0:
		snprintf(enc, sizeof enc, "0/%u/0, bias %d, 2^(E-%d)", f->ebits, f->bias, f->bias);
		break;
	case FMT_INT:
		snprintf(enc, sizeof enc, "%s", f->is_signed ? "two's complement" : "unsigned");
		break;
	}
	cell(t, max, vmax, sizeof vmax);
	cell(t, min, vmin, sizeof vmin);
	if (f->nan == NAN_NONE)
		snprintf(nan, sizeof nan, "-");
	else
		snprintf(nan, sizeof nan, "%s%s", hex(f->bits, f->qnan, qn, sizeof qn),
			 f->nan == NAN_FN ? " (only S.1111.111)" : "");
	printf("| %s | %u | %s | %s %s | %s %s | %s | %s | %s |\n", ptort_type_name(t),
	       ptort_type_bits(t), enc, hex(f->bits, max, cmax, sizeof cmax), vmax,
	       hex(f->bits, min, cmin, sizeof cmin), vmin,
	       f->kind == FMT_INT ? "-" : f->has_inf ? "yes" : "no", nan,
	       f->kind == FMT_INT ? "-" : f->has_negzero ? "yes" : "no");
}

/* The instruction table: per row of ir/insns.def the op, the call and the fields in
 * the call's order (optional ones in brackets, a tile as NAME and NAME_addr). */
static int doc_first;

static void doc_field(const char *name, const char *req, int tile)
{
	int opt = strcmp(req, "REQ") != 0;
	printf("%s%s%s", doc_first ? "" : " ", opt ? "[" : "", name);
	if (tile)
		printf(" %s_addr", name);
	printf("%s", opt ? "]" : "");
	doc_first = 0;
}

static void insns(void)
{
	printf("| op | runtime call | pipe | fields, in the call's order ([optional]) |\n");
	printf("|---|---|---|---|\n");
#define F(name, kind, req) doc_field(#name, #req, 0);
#define T(name, req, cvar) doc_field(#name, #req, 1);
#define INSN(id, name, call, fixed, pipe, fields)                                       \
	printf("| `%s` | `%s` | %s | %s`", name, call, #pipe,                          \
	       fixed ? "the GM partition view, " : "");                                \
	doc_first = 1;                                                                \
	fields printf("` |\n");
#include "ir/insns.def"
#undef INSN
#undef T
#undef F
}

/* The op table: per row of ir/ops.def the op, its form, its operands, its attributes. */
static void doc_item(const char *text, const char *sep)
{
	printf("%s%s", doc_first ? "" : sep, text);
	doc_first = 0;
}

/* The pipe column of a row: the rule in its flags' IR_OPF_PIPE(RULE), S without one. */
static void doc_pipe(const char *flags)
{
	const char *p = strstr(flags, "IR_OPF_PIPE(");
	int n = 0;
	if (!p) {
		printf("S | ");
		return;
	}
	p += strlen("IR_OPF_PIPE(");
	while (p[n] && p[n] != ')')
		n++;
	printf("%.*s | ", n, p);
}

static void ops(void)
{
	printf("| op | form | pipe | operands (role: kind; `?` zero or one, `*` any number; after `;` "
	       "the DPS outs) | attributes checked |\n");
	printf("|---|---|---|---|---|\n");
#define IN(role, kind) doc_item(#role ": " #kind, ", ");
#define OPT(role, kind) doc_item(#role "?: " #kind, ", ");
#define VAR(role, kind) doc_item(#role "*: " #kind, ", ");
#define OUT(role, kind) doc_item(#role ": " #kind, "; ");
#define ATTR(name, kind, req) doc_item(#name ": " #kind " (" #req ")", ", ");
#define OP(id, name, form, flags, nres, nreg, operands, attrs)          \
	printf("| `%s` | %s | ", name, #form);                           \
	doc_pipe(#flags);                                                 \
	doc_first = 1;                                                    \
	operands printf("%s | ", doc_first ? "-" : "");                  \
	doc_first = 1;                                                    \
	attrs printf("%s |\n", doc_first ? "-" : "");
#include "ir/ops.def"
#undef OP
}

int main(int argc, char **argv)
{
	int i;
	if (argc == 2 && !strcmp(argv[1], "table")) {
		printf("| type | bits | sign/exponent/mantissa | largest finite | smallest positive | "
		       "inf | NaN (canonical) | -0 |\n");
		printf("|---|---|---|---|---|---|---|---|\n");
		for (i = 0; i < PTORT_TYPE_COUNT; i++)
			row((ptort_type)i);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "spell")) {
		for (i = 2; i < argc; i++) {
			ptort_type t;
			puts(ptort_type_parse(argv[i], strlen(argv[i]), &t) ? "?" : ptort_type_name(t));
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "ops")) {
		ops();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "insns")) {
		insns();
		return 0;
	}
	fprintf(stderr, "usage: ptoc-doc-types table | spell WORD... | insns | ops\n");
	return 2;
}
