/* harness.c: the `ptoc run` harness (ptort.h section 6). ptort_main is the body of the
 * program `ptoc run` builds around a kernel (ptoc --emit=main writes the rest: the
 * argument table and a call trampoline). It is the one runtime function that prints:
 * its messages go to stderr, its result is the program's exit status.
 *
 * Command line: PROG [--in ARG=FILE]... [--out ARG=FILE]... [--arg ARG=VALUE]...
 * ARG is a kernel argument's name (without %) or its position from 0. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptort.h"

/* A GM buffer: its bytes and elements. */
typedef struct gm_buf {
	void *p;
	uint64_t elems;
} gm_buf;

typedef struct hrun {
	const ptort_main_desc *d;
	const char *prog;
	gm_buf *buf;
	int64_t *scalar;
	const char **out; /* --out FILE per argument, or NULL */
	int *have;        /* given on the command line */
} hrun;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void say(const hrun *r, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", r->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int usage(const hrun *r, const char *msg, const char *a)
{
	fprintf(stderr, "%s: ", r->prog);
	fprintf(stderr, msg, a);
	fprintf(stderr, "\nusage: %s [--in ARG=FILE]... [--out ARG=FILE]... [--arg ARG=VALUE]...\n",
		r->prog);
	return 2;
}

/* The argument named by s[0..len): a name, or a position from 0; -1 if none. */
static int find_arg(const ptort_main_desc *d, const char *s, size_t len)
{
	unsigned i;
	unsigned long k = 0;
	size_t j;
	for (i = 0; i < d->nargs; i++)
		if (strlen(d->args[i].name) == len && !memcmp(d->args[i].name, s, len))
			return (int)i;
	if (!len || len > 9)
		return -1;
	for (j = 0; j < len; j++) {
		if (s[j] < '0' || s[j] > '9')
			return -1;
		k = k * 10 + (unsigned long)(s[j] - '0');
	}
	return k < d->nargs ? (int)k : -1;
}

static uint64_t bytes_of(uint64_t elems, unsigned bits)
{
	return (elems * bits + 7) / 8;
}

/* Reads --in FILE of argument i into its GM buffer (one read, straight into the
 * buffer); 0, or 1 after a message. */
static int load(hrun *r, unsigned i, const char *path)
{
	const ptort_main_arg *a = &r->d->args[i];
	FILE *f = fopen(path, "rb");
	long n;
	uint64_t want;
	void *p;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		say(r, "--in %s: cannot read '%s'", a->name, path);
		if (f)
			fclose(f);
		return 1;
	}
	want = a->elems ? bytes_of(a->elems, a->bits) : (uint64_t)n;
	if ((uint64_t)n != want || (!a->elems && (uint64_t)n * 8 % a->bits)) {
		say(r, "--in %s: '%s' has %ld bytes, the kernel expects %llu (%llu elements of %u bits)",
		    a->name, path, n, (unsigned long long)want,
		    (unsigned long long)(a->elems ? a->elems : want * 8 / a->bits), a->bits);
		fclose(f);
		return 1;
	}
	p = malloc((size_t)n + 1);
	if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
		say(r, "--in %s: cannot read '%s'", a->name, path);
		free(p);
		fclose(f);
		return 1;
	}
	fclose(f);
	free(r->buf[i].p);
	r->buf[i].p = p;
	r->buf[i].elems = a->elems ? a->elems : (uint64_t)n * 8 / a->bits;
	return 0;
}

static int store(const hrun *r, unsigned i, const char *path)
{
	FILE *f = fopen(path, "wb");
	size_t n = (size_t)bytes_of(r->buf[i].elems, r->d->args[i].bits);
	int bad = !f || (n && fwrite(r->buf[i].p, 1, n, f) != n);
	if (f && fclose(f))
		bad = 1;
	if (bad) {
		say(r, "--out %s: cannot write '%s'", r->d->args[i].name, path);
		return 1;
	}
	return 0;
}

/* Parses the command line into r; 0, or the exit status after a message. */
static int parse(hrun *r, int argc, char **argv)
{
	const ptort_main_desc *d = r->d;
	int a, i;
	for (a = 1; a < argc; a++) {
		const char *o = argv[a], *v, *eq;
		int kind = !strcmp(o, "--in") ? 0 : !strcmp(o, "--out") ? 1 : !strcmp(o, "--arg") ? 2 : -1;
		if (kind < 0)
			return usage(r, "unknown option '%s'", o);
		if (a + 1 >= argc)
			return usage(r, "option '%s' needs ARG=VALUE", o);
		v = argv[++a];
		eq = strchr(v, '=');
		if (!eq)
			return usage(r, "'%s' is not ARG=VALUE", v);
		i = find_arg(d, v, (size_t)(eq - v));
		if (i < 0)
			return usage(r, "no kernel argument '%s' (a name without %% or a position from 0)", v);
		if ((kind == 2) != !d->args[i].bits)
			return usage(r, kind == 2 ? "'%s' is a GM buffer: use --in or --out"
						  : "'%s' is a scalar: use --arg", d->args[i].name);
		if (kind == 0 && load(r, (unsigned)i, eq + 1))
			return 1;
		if (kind == 1)
			r->out[i] = eq + 1;
		if (kind == 2) {
			char *end;
			errno = 0;
			r->scalar[i] = strtoll(eq + 1, &end, 0);
			if (!eq[1] || *end || errno)
				return usage(r, "--arg %s: not a 64-bit integer", v);
		}
		r->have[i] = 1;
	}
	for (i = 0; i < (int)d->nargs; i++) {
		const ptort_main_arg *g = &d->args[i];
		if (!g->bits && !r->have[i])
			return usage(r, "the scalar argument '%s' needs a value: --arg NAME=VALUE", g->name);
		if (g->bits && !r->buf[i].p) {
			if (!g->elems && r->have[i]) {
				say(r, "argument '%s' has no static size (dynamic shapes): give its "
				    "contents with --in", g->name);
				return 1;
			}
			r->buf[i].elems = g->elems;
			r->buf[i].p = calloc((size_t)bytes_of(g->elems, g->bits) + 1, 1);
			if (!r->buf[i].p) {
				say(r, "out of memory");
				return 1;
			}
		}
	}
	return 0;
}

int ptort_main(const ptort_main_desc *d, int argc, char **argv)
{
	hrun r;
	unsigned n = d->nargs ? d->nargs : 1, i;
	void **bufs = NULL;
	uint64_t *elems = NULL;
	ptort_ctx *ctx = NULL;
	int rc;
	memset(&r, 0, sizeof r);
	r.d = d;
	r.prog = getenv("PTOC_RUN_PROG");
	if (!r.prog || !*r.prog)
		r.prog = argc > 0 && argv[0] ? argv[0] : "kernel";
	r.buf = calloc(n, sizeof *r.buf);
	r.scalar = calloc(n, sizeof *r.scalar);
	r.out = calloc(n, sizeof *r.out);
	r.have = calloc(n, sizeof *r.have);
	bufs = calloc(n, sizeof *bufs);
	elems = calloc(n, sizeof *elems);
	if (!r.buf || !r.scalar || !r.out || !r.have || !bufs || !elems) {
		say(&r, "out of memory");
		rc = 1;
		goto done;
	}
	rc = parse(&r, argc, argv);
	if (rc)
		goto done;
	ctx = d->ctx_create();
	if (!ctx) {
		say(&r, "out of memory");
		rc = 1;
		goto done;
	}
	for (i = 0; i < d->nargs; i++) {
		bufs[i] = r.buf[i].p;
		elems[i] = r.buf[i].elems;
	}
	d->call(ctx, bufs, elems, r.scalar);
	if (ptort_ctx_error(ctx)) {
		say(&r, "runtime error: %s", ptort_ctx_error(ctx));
		rc = 1;
	}
	for (i = 0; i < d->nargs && !rc; i++)
		if (r.out[i])
			rc = store(&r, i, r.out[i]);
done:
	ptort_ctx_destroy(ctx);
	if (r.buf)
		for (i = 0; i < d->nargs; i++)
			free(r.buf[i].p);
	free(r.buf);
	free(r.scalar);
	free(r.out);
	free(r.have);
	free(bufs);
	free(elems);
	return rc;
}
