/* cmd_cvt.c: `ptoc cvt`: converts element values between types with the runtime's
 * generic semantics (docs/semantics.md §2-3), reading bit patterns or decimal values from
 * the command line or stdin (one per line) and printing one result per line. All
 * output is buffered and written only when every value converted, so an error never
 * leaves partial output.
 *
 * With --target T the target's rules apply (ptoc_cvt_query, the same decision the
 * legalize-cvt pass takes): an illegal pair or mode is an error, saturation is what
 * the target executes (forced ON where it must be, with a warning for an explicit
 * OFF), the A2A3 deq path converts with scale 1.0, and a decomposition runs its
 * chain step by step (RINT and saturation OFF before the last step). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptoc/legality.h"
#include "ptoc/ptoc.h"
#include "ptort.h"
#include "tools.h"

enum { FMT_HEX, FMT_DEC, FMT_BOTH };

struct cvt_opts {
	ptort_type from, to;
	ptort_rmode rm;
	int sat; /* -1: the pair's default */
	int in_fmt, out; /* in_fmt: IN_AUTO, IN_HEX, IN_DEC */
	const ptoc_cvt_result *plan; /* --target: the target's decision, else NULL */
};

enum { IN_AUTO, IN_HEX, IN_DEC };

static const char usage[] =
	"usage: ptoc cvt --from TYPE --to TYPE [--rmode M] [--sat on|off] [--target T]\n"
	"                [--in-format hex|dec] [--out-format hex|dec|both] [VALUE...]\n"
	"\n"
	"Converts element values from one type to another with ptoc's generic semantics\n"
	"or, with --target, as that target executes tcvt. Values come from the command\n"
	"line or, when none are given, from stdin, one per line (blank lines are\n"
	"skipped). One result per line.\n"
	"\n"
	"  --from, --to TYPE   f32 f16 bf16 f8E4M3FN f8E5M2 hif8 f4E2M1FN f4E1M2 f8E8M0FNU\n"
	"                      i4 i8 i16 i32 i64 ui8 ui16 ui32 ui64 (and the aliases half,\n"
	"                      e4m3, e5m2, hifloat8, e2m1, e1m2, e8m0, int4b, si8 ...)\n"
	"  --rmode M           RINT (default), ROUND, FLOOR, CEIL, TRUNC, ODD (f32->f16\n"
	"                      only), NONE, HYBRID (hif8 destination only); CAST_ prefix ok\n"
	"  --sat on|off        saturation; default OFF for f16->ui8, f16->i8, f32->i16,\n"
	"                      f16->i16, i64->i32, i32->i16 and ON for every other pair\n"
	"  --target T          a2a3 (aliases a3, a2) or a5 (--pto-arch T is the same):\n"
	"                      apply the target's tcvt rules ('ptoc legality --target T'):\n"
	"                      an illegal pair or round mode is an error; without --rmode\n"
	"                      the mode is NONE (RINT where the pair rounds); saturation\n"
	"                      is forced ON where the target forces it (a warning when\n"
	"                      --sat off is overridden); A2A3 i32->f16 takes the deq path\n"
	"                      (scale 1.0, RINT, saturation ON; a warning for another\n"
	"                      mode); a pair the target lacks but reaches through exact\n"
	"                      steps runs that chain (e.g. a2a3 f16->bf16 via f32)\n"
	"  --in-format hex     VALUEs are bit patterns in hex, 0x optional\n"
	"  --in-format dec     VALUEs are numbers (1.5, -2e-3, inf, nan, -0), converted\n"
	"                      exactly to the source type with RINT\n"
	"                      Default: hex, except that a VALUE with a sign or a '.', or\n"
	"                      spelled inf/nan, is read as a number ('1.75', '-3', '1e-7';\n"
	"                      '10' and '1e5' are hex)\n"
	"  --out-format hex    print the result bit pattern, e.g. 0x3C00 (default)\n"
	"  --out-format dec    print the result's exact value in decimal (1.0, 0.099975586,\n"
	"                      -0.0, 5.9604644775390625e-08, inf, nan; integers as is)\n"
	"  --out-format both   print both, e.g. '0x3C00 1.0'\n"
	"\n"
	"Exit status: 0 success, 1 an error in the input (unknown type or round mode,\n"
	"illegal pair or mode, malformed or out-of-range value), 2 a usage error.\n";

static int err(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "ptoc cvt: error: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 1;
}

static int usage_err(const char *msg, const char *arg)
{
	fprintf(stderr, "ptoc cvt: ");
	fprintf(stderr, msg, arg);
	fprintf(stderr, "\n(try 'ptoc cvt --help')\n");
	return 2;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 0 ok, -1 malformed, -2 does not fit the width */
static int parse_hex(const char *s, size_t len, unsigned bits, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	int big = 0;
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == len)
		return -1;
	for (; i < len; i++) {
		int d = hexval(s[i]);
		if (d < 0)
			return -1;
		if (v >> 60)
			big = 1;
		v = (v << 4) | (uint64_t)d;
	}
	if (big || (bits < 64 && (v >> bits)))
		return -2;
	*out = v;
	return 0;
}

/* In the default input format: a sign, a '.', or inf/nan make a value decimal. */
static int looks_decimal(const char *s, size_t len)
{
	size_t i;
	for (i = 0; i < len; i++)
		if (s[i] == '.' || s[i] == '-' || s[i] == '+' || s[i] == 'n' || s[i] == 'N' || s[i] == 'i' || s[i] == 'I')
			return 1;
	return 0;
}

/* Converts one value; `where` names it in diagnostics. Returns 0 or 1. */
static int convert_one(const struct cvt_opts *o, const char *s, size_t len, const char *where,
		       ptoc_buf *out)
{
	unsigned fb = ptort_type_bits(o->from), tb = ptort_type_bits(o->to);
	char text[256], line[320], hex[32];
	uint64_t in, r;
	int rc;
	snprintf(text, sizeof text, "%.*s", (int)(len > 200 ? 200 : len), s);
	int dec = o->in_fmt == IN_DEC || (o->in_fmt == IN_AUTO && looks_decimal(s, len));
	rc = dec ? ptort_value_parse(o->from, s, len, &in) : parse_hex(s, len, fb, &in);
	if (rc == -1)
		return err(dec ? "malformed value '%s'%s" : "malformed hex value '%s'%s", text,
			   where);
	if (rc == -2) {
		fprintf(stderr, "ptoc cvt: error: value '%s'%s does not fit %s\n", text, where,
			ptort_type_name(o->from));
		return 1;
	}
	if (o->plan) {
		const ptoc_cvt_result *p = o->plan;
		unsigned k;
		r = in;
		for (k = 0; k + 1 < p->nsteps; k++)
			r = ptort_cvt1(p->chain[k], p->chain[k + 1], r, PTORT_RINT, PTORT_SAT_OFF);
		if (p->flags & PTOC_CVT_F_DEQ) {
			int32_t x;
			uint32_t u = (uint32_t)r;
			memcpy(&x, &u, sizeof x);
			r = ptort_deq1_i32_f16(x, 0x3C00);
		} else {
			r = ptort_cvt1(p->chain[p->nsteps - 1], o->to, r, p->rmode, p->sat);
		}
	} else {
		r = ptort_cvt1(o->from, o->to, in, o->rm, o->sat);
	}
	snprintf(hex, sizeof hex, "0x%0*llX", (int)((tb + 3) / 4), (unsigned long long)r);
	if (o->out == FMT_HEX) {
		snprintf(line, sizeof line, "%s\n", hex);
	} else {
		char val[200];
		ptort_value_format(o->to, r, val, sizeof val);
		if (o->out == FMT_DEC)
			snprintf(line, sizeof line, "%s\n", val);
		else
			snprintf(line, sizeof line, "%s %s\n", hex, val);
	}
	if (ptoc_buf_puts(out, line))
		return err("out of memory%s%s", "", "");
	return 0;
}

static int convert_stdin(const struct cvt_opts *o, ptoc_buf *out)
{
	char buf[4096], where[64];
	unsigned long lineno = 0;
	while (fgets(buf, sizeof buf, stdin)) {
		size_t len = strlen(buf), b = 0;
		lineno++;
		if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
			snprintf(where, sizeof where, "%lu", lineno);
			return err("line %s: line too long%s", where, "");
		}
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' ' ||
			       buf[len - 1] == '\t'))
			len--;
		while (b < len && (buf[b] == ' ' || buf[b] == '\t'))
			b++;
		if (b == len)
			continue;
		snprintf(where, sizeof where, " on line %lu", lineno);
		if (convert_one(o, buf + b, len - b, where, out))
			return 1;
	}
	if (ferror(stdin))
		return err("cannot read stdin%s%s", "", "");
	return 0;
}

static void warn_out(void *user, const char *msg, size_t len)
{
	(void)user;
	fprintf(stderr, "ptoc cvt: warning: %.*s\n", (int)len, msg);
}

/* --target: asks the target about the pair (plan->target set); 0 or 1 (reported). */
static int apply_target(struct cvt_opts *o, ptoc_cvt_result *plan, const char *sat)
{
	ptoc_sat_request req = !sat ? PTOC_SAT_ABSENT
			       : !strcmp(sat, "on") ? PTOC_SAT_REQ_ON : PTOC_SAT_REQ_OFF;
	if (ptoc_cvt_query(plan->target, o->from, o->to, o->rm, req, plan) ==
	    PTOC_CVT_ILLEGAL) {
		char reason[1024];
		ptoc_cvt_reason(plan, reason, sizeof reason);
		fprintf(stderr, "ptoc cvt: error: %s\n", reason);
		return 1;
	}
	ptoc_cvt_warnings(plan, warn_out, NULL);
	o->rm = plan->rmode;
	o->sat = plan->sat;
	return 0;
}


int cmd_cvt(int argc, char **argv)
{
	const char *from = NULL, *to = NULL, *rmode = NULL, *sat = NULL, *inf = NULL,
		   *outf = NULL, *target = NULL;
	ptoc_cvt_result plan;
	struct cvt_opts o;
	ptoc_buf out = {0};
	ptort_cvt_status st;
	int i, nvals = 0, rc = 0, only_values = 0;
	char **vals = calloc((size_t)argc + 1, sizeof *vals);
	if (!vals)
		return err("out of memory%s%s", "", "");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int bad = 0;
		if (only_values || a[0] != '-' || (a[1] != '-' && a[1] != 'h')) {
			vals[nvals++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_values = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			free(vals);
			return 0;
		}
		if ((v = tool_opt_value(argc, argv, &i, "--from", &bad)))
			from = v;
		else if ((v = tool_opt_value(argc, argv, &i, "--to", &bad)))
			to = v;
		else if ((v = tool_opt_value(argc, argv, &i, "--rmode", &bad)))
			rmode = v;
		else if ((v = tool_opt_value(argc, argv, &i, "--sat", &bad)))
			sat = v;
		else if ((v = tool_opt_value(argc, argv, &i, "--target", &bad)) ||
			 (v = tool_opt_value(argc, argv, &i, "--pto-arch", &bad)))
			target = v;
		else if ((v = tool_opt_value(argc, argv, &i, "--in-format", &bad)))
			inf = v;
		else if ((v = tool_opt_value(argc, argv, &i, "--out-format", &bad)))
			outf = v;
		else {
			free(vals);
			return usage_err(bad ? "option '%s' needs a value" : "unknown option '%s'", a);
		}
	}
	if (!from || !to) {
		free(vals);
		return usage_err("missing %s", !from ? "--from TYPE" : "--to TYPE");
	}
	o.sat = -1;
	o.rm = PTORT_RINT;
	o.plan = NULL;
	if (target) {
		ptoc_target t;
		if (ptoc_target_parse(target, strlen(target), &t)) {
			char msg[256];
			free(vals);
			return usage_err("%s", tool_unknown_target(target, msg, sizeof msg));
		}
		o.rm = PTORT_NONE;
		plan.target = t;
		o.plan = &plan;
	}
	o.in_fmt = IN_AUTO;
	o.out = FMT_HEX;
	if (ptort_type_parse(from, strlen(from), &o.from))
		rc = err("unknown type '%s'%s", from, "");
	else if (ptort_type_parse(to, strlen(to), &o.to))
		rc = err("unknown type '%s'%s", to, "");
	else if (rmode && ptort_rmode_parse(rmode, strlen(rmode), &o.rm))
		rc = err("unknown round mode '%s' (expected RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, "
			 "NONE or HYBRID)%s",
			 rmode, "");
	else if (sat && strcmp(sat, "on") && strcmp(sat, "off"))
		rc = err("--sat expects 'on' or 'off', not '%s'%s", sat, "");
	else if (inf && strcmp(inf, "hex") && strcmp(inf, "dec"))
		rc = err("--in-format expects 'hex' or 'dec', not '%s'%s", inf, "");
	else if (outf && strcmp(outf, "hex") && strcmp(outf, "dec") && strcmp(outf, "both"))
		rc = err("--out-format expects 'hex', 'dec' or 'both', not '%s'%s", outf, "");
	if (rc) {
		free(vals);
		return rc;
	}
	o.sat = sat ? !strcmp(sat, "on") : ptort_cvt_default_sat(o.from, o.to);
	o.in_fmt = !inf ? IN_AUTO : !strcmp(inf, "dec") ? IN_DEC : IN_HEX;
	o.out = !outf || !strcmp(outf, "hex") ? FMT_HEX : !strcmp(outf, "dec") ? FMT_DEC : FMT_BOTH;
	if (o.plan && (rc = apply_target(&o, &plan, sat))) {
		free(vals);
		return rc;
	}
	st = o.plan ? PTORT_CVT_OK : ptort_cvt_check(o.from, o.to, o.rm);
	if (st == PTORT_CVT_NO_PAIR) {
		fprintf(stderr, "ptoc cvt: error: no conversion from %s to %s\n",
			ptort_type_name(o.from), ptort_type_name(o.to));
		free(vals);
		return 1;
	}
	if (st == PTORT_CVT_BAD_MODE) {
		fprintf(stderr,
			"ptoc cvt: error: round mode %s is not allowed for %s -> %s (ODD: f32 -> f16 "
			"only; HYBRID: hif8 destinations only; neither to integers)\n",
			ptort_rmode_name(o.rm), ptort_type_name(o.from), ptort_type_name(o.to));
		free(vals);
		return 1;
	}
	if (nvals) {
		for (i = 0; i < nvals && !rc; i++)
			rc = convert_one(&o, vals[i], strlen(vals[i]), "", &out);
	} else {
		rc = convert_stdin(&o, &out);
	}
	if (!rc && out.len)
		fwrite(out.data, 1, out.len, stdout);
	ptoc_buf_free(&out);
	free(vals);
	return rc;
}
