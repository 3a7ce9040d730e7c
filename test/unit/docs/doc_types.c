/* doc_types.c (ptoc-doc-types): the element types as the runtime describes them, for
 * the docs (scripts/doc-tables.py).
 *   ptoc-doc-types table           the markdown table of docs/semantics.md §1, one row
 *                                  per ptort_type in enum order, from the format data
 *                                  (cvt_format.c) and ptort_value_format
 *   ptoc-doc-types spell WORD...   the canonical name each spelling parses to, one per
 *                                  line ("?" when ptort_type_parse rejects it)
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
	fprintf(stderr, "usage: ptoc-doc-types table | spell WORD...\n");
	return 2;
}
