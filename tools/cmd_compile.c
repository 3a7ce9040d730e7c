/* cmd_compile.c: `ptoc FILE|- [options]`, the default command. Reads the input (any
 * bytes), optionally splits it on `// -----` lines, parses and verifies each chunk,
 * prints the result, and either reports diagnostics on stderr or checks them against
 * the `expected-*` comments of the input (--verify-diagnostics). Output to -o goes
 * through a temporary file in the same directory, renamed on success only. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen/emit.h"
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "passes/pass.h"
#include "tools.h"

typedef struct buf {
	char *p;
	size_t n, cap;
	int oom;
} buf;

static int buf_write(void *user, const char *data, size_t len)
{
	buf *b = user;
	if (b->oom)
		return -1;
	if (b->n + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;
		while (cap < b->n + len + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return -1;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	b->p[b->n] = 0;
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: ptoc FILE.pto|- [-o OUT] [--emit=c|ir|generic|lowered|main] [--target a2a3|a5]\n"
	      "            [--pto-arch=a3|a5] [--verify-diagnostics] [--split-input-file]\n"
	      "       ptoc cvt ...       convert element values (ptoc cvt --help)\n"
	      "       ptoc legality ...  per-target conversion table (ptoc legality --help)\n"
	      "       ptoc run ...       compile and execute a kernel (ptoc run --help)\n"
	      "\n"
	      "Compiles a .pto file (or stdin with -) to C through the default pipeline.\n"
	      "\n"
	      "options:\n"
	      "  -o OUT                write the output to OUT (atomically; nothing on failure)\n"
	      "  --emit=c              C99 calling the runtime (libptort; the default)\n"
	      "  --emit=main           a C main running the entry kernel on binary files\n"
	      "                        (the harness of ptoc run; --entry NAME chooses the kernel)\n"
	      "  --emit=ir             the verified IR in the syntax the parser reads (after\n"
	      "                        --pass-pipeline when given)\n"
	      "  --emit=generic        the MLIR generic op form, accepted by mlir-opt\n"
	      "                        --allow-unregistered-dialect\n"
	      "  --emit=lowered        level-3 instructions (default pipeline up to split-repeats)\n"
	      "  --target a2a3|a5      the target (also a3, a2; any case; default: the module's\n"
	      "                        pto.target_arch, same names, else a2a3)\n"
	      "  --pto-arch=a3|a5      PTOAS's spelling of --target\n"
	      "  --verify-diagnostics  check diagnostics against // expected-error {{...}} comments\n"
	      "  --split-input-file    process each chunk between '// -----' lines on its own\n"
	      "  --pass-pipeline=P     run the comma-separated passes P after parsing (below)\n"
	      "  --print-after-all     print the IR to stderr after every pass\n"
	      "  --verify-each         run the structural verifier after every pass\n"
	      "  -Rpass=NAMES          remarks of the named passes (comma-separated, or all)\n"
	      "  --help, --version\n"
	      "\n"
	      "exit status: 0 success, 1 errors in the input, 2 usage error\n"
	      "\n"
	      "passes (names for --pass-pipeline and -Rpass):\n",
	      f);
	{
		const pass_info *pi;
		for (pi = pass_table; pi->name; pi++)
			fprintf(f, "  %-20s  %s\n", pi->name, pi->summary);
	}
}

enum { EMIT_C, EMIT_IR, EMIT_MAIN };

typedef struct opts {
	const char *input, *output;
	int generic, verify_diags, split;
	const struct target *target; /* --target / --pto-arch, or NULL */
	int emit; /* EMIT_* */
	const char *entry; /* --entry (emit=main) */
	buf *emitted;      /* per chunk: the C emitted by process() (emit c/main) */
	const char *pipeline;  /* --pass-pipeline text, or NULL */
	const char *remarks;   /* -Rpass= */
	int print_after_all, verify_each;
	int lowered;           /* --emit=lowered: the default pipeline up to split-repeats */
} opts;

static int usage_error(const char *fmt, const char *arg)
{
	fputs("ptoc: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (try --help)\n", stderr);
	return 2;
}

/* The value of `--name=V` or `--name V`; NULL (after a message) when missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *err)
{
	int missing = 0;
	const char *v = tool_opt_value(argc, argv, i, name, &missing);
	if (missing)
		*err = usage_error("option '%s' needs a value", name);
	return v;
}

/* --target / --pto-arch: a usage error when V names no target. */
static int parse_target(const char *opt, const char *v, const struct target **out)
{
	char names[128];
	if ((*out = target_lookup(v, strlen(v))))
		return -1;
	target_spellings(names, sizeof names);
	fprintf(stderr, "ptoc: unknown %s '%s' (%s) (try --help)\n", opt, v, names);
	return 2;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, opts *o)
{
	int i, err = 0, rc;
	const char *v;
	memset(o, 0, sizeof *o);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--version")) {
			printf("ptoc %s\n", PTOC_VERSION_STRING);
			return 0;
		}
		if (!strcmp(a, "--verify-diagnostics")) {
			o->verify_diags = 1;
		} else if (!strcmp(a, "--split-input-file")) {
			o->split = 1;
		} else if (!strcmp(a, "-o")) {
			if (i + 1 >= argc)
				return usage_error("option '%s' needs a value", "-o");
			o->output = argv[++i];
		} else if ((v = opt_value(argc, argv, &i, "--emit", &err))) {
			if (!strcmp(v, "ir"))
				o->generic = 0, o->emit = EMIT_IR;
			else if (!strcmp(v, "generic"))
				o->generic = 1, o->emit = EMIT_IR;
			else if (!strcmp(v, "c"))
				o->emit = EMIT_C;
			else if (!strcmp(v, "main"))
				o->emit = EMIT_MAIN;
			else if (!strcmp(v, "lowered"))
				o->lowered = 1, o->emit = EMIT_IR;
			else
				return usage_error("unknown --emit value '%s' (c, ir, generic, lowered, main)", v);
		} else if ((v = opt_value(argc, argv, &i, "--entry", &err))) {
			o->entry = v;
		} else if (!strcmp(a, "--print-after-all")) {
			o->print_after_all = 1;
		} else if (!strcmp(a, "--verify-each")) {
			o->verify_each = 1;
		} else if (!strncmp(a, "-Rpass=", 7)) {
			o->remarks = a + 7;
		} else if ((v = opt_value(argc, argv, &i, "--pass-pipeline", &err))) {
			pipeline p;
			char msg[512];
			if (pipeline_parse(&p, v, msg, sizeof msg))
				return usage_error("%s", msg);
			o->pipeline = v;
		} else if ((v = opt_value(argc, argv, &i, "--target", &err))) {
			if ((rc = parse_target("target", v, &o->target)) >= 0)
				return rc;
		} else if ((v = opt_value(argc, argv, &i, "--pto-arch", &err))) {
			if ((rc = parse_target("--pto-arch", v, &o->target)) >= 0)
				return rc;
		} else if (err) {
			return err;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (o->input) {
			return usage_error("more than one input file ('%s')", a);
		} else {
			o->input = a;
		}
		if (err)
			return err;
	}
	if (!o->input)
		return usage_error("%s", "no input file");
	return -1;
}

/* Reads all of `f`; returns 0, or -1 with errno set. `hint` is the expected size
 * (a regular file's), so the buffer is allocated once. */
static int read_all(FILE *f, buf *b, size_t hint)
{
	char chunk[65536];
	size_t n;
	if (hint) {
		b->p = malloc(hint + 1);
		if (!b->p)
			return -1;
		b->cap = hint + 1;
		b->n = fread(b->p, 1, hint, f);
		b->p[b->n] = 0;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (buf_write(b, chunk, n))
			return -1;
	if (ferror(f))
		return -1;
	if (!b->p && buf_write(b, "", 0))
		return -1;
	return 0;
}

/* ---- diagnostics: printed, or collected for --verify-diagnostics ------------ */

typedef struct diag {
	ptoc_severity sev;
	ptoc_location loc;
	char *msg;
	int matched;
} diag;

typedef struct expect {
	ptoc_severity sev;
	unsigned line;     /* the line the diagnostic must be on */
	ptoc_location at;  /* where the expectation is written */
	char *text;
	int matched;
} expect;

typedef struct state {
	ptoc_context *ctx;
	int collect;
	diag *diags;
	size_t ndiags, capdiags;
} state;

static int stderr_write(void *user, const char *data, size_t len)
{
	(void)user;
	return fwrite(data, 1, len, stderr) == len ? 0 : -1;
}

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	state *s = user;
	diag *d;
	if (!s->collect) {
		ptoc_context_render_diag(s->ctx, sev, loc, msg, len, stderr_write, NULL);
		return;
	}
	if (s->ndiags == s->capdiags) {
		size_t cap = s->capdiags ? s->capdiags * 2 : 16;
		diag *p = realloc(s->diags, cap * sizeof *p);
		if (!p)
			return;
		s->diags = p;
		s->capdiags = cap;
	}
	d = &s->diags[s->ndiags];
	d->msg = malloc(len + 1);
	if (!d->msg)
		return;
	memcpy(d->msg, msg, len);
	d->msg[len] = 0;
	d->sev = sev;
	d->loc = loc;
	d->matched = 0;
	s->ndiags++;
}

static const char *const sev_word[] = {"error", "warning", "note", "remark"};

/* Scans `expected-<sev>[@+N|@-N|@N|@above|@below] {{text}}` comments. */
static size_t collect_expectations(const char *src, size_t len, const char *file, expect **out)
{
	size_t cap = 0, n = 0;
	unsigned line = 1;
	const char *p, *end = src + len, *ls = src;
	expect *v = NULL;
	for (p = src; p < end; p++) {
		const char *q, *t0, *t1;
		int sev = -1, k;
		long off = 0;
		int rel = 1;
		if (*p == '\n') {
			line++;
			ls = p + 1;
			continue;
		}
		if (*p != 'e' || (size_t)(end - p) < 9 || memcmp(p, "expected-", 9))
			continue;
		q = p + 9;
		for (k = 0; k < 4; k++) {
			size_t wl = strlen(sev_word[k]);
			if ((size_t)(end - q) >= wl && !memcmp(q, sev_word[k], wl)) {
				sev = k;
				q += wl;
				break;
			}
		}
		if (sev < 0)
			continue;
		if (q < end && *q == '@') {
			q++;
			if ((size_t)(end - q) >= 5 && !memcmp(q, "above", 5)) {
				off = -1;
				q += 5;
			} else if ((size_t)(end - q) >= 5 && !memcmp(q, "below", 5)) {
				off = 1;
				q += 5;
			} else {
				int sign = 0;
				if (q < end && (*q == '+' || *q == '-'))
					sign = *q++ == '-' ? -1 : 1;
				if (q >= end || *q < '0' || *q > '9')
					continue;
				while (q < end && *q >= '0' && *q <= '9' && off < 10000000)
					off = off * 10 + (*q++ - '0');
				if (sign)
					off *= sign;
				else
					rel = 0;
			}
		}
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(end - q) < 2 || memcmp(q, "{{", 2))
			continue;
		t0 = q + 2;
		for (t1 = t0; t1 + 1 < end && *t1 != '\n' && memcmp(t1, "}}", 2); t1++)
			;
		if (t1 + 1 >= end || *t1 == '\n')
			continue;
		if (n == cap) {
			expect *nv;
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof *nv);
			if (!nv)
				break;
			v = nv;
		}
		v[n].sev = (ptoc_severity)sev;
		v[n].line = rel ? (unsigned)((long)line + off) : (unsigned)off;
		v[n].at.file = file;
		v[n].at.line = line;
		v[n].at.col = (uint32_t)(p - ls) + 1;
		v[n].text = malloc((size_t)(t1 - t0) + 1);
		if (!v[n].text)
			break;
		memcpy(v[n].text, t0, (size_t)(t1 - t0));
		v[n].text[t1 - t0] = 0;
		v[n].matched = 0;
		n++;
		p = t1 + 1;
	}
	*out = v;
	return n;
}

/* Matches diagnostics with expectations; reports mismatches. Returns 0 when all match. */
static int check_expectations(state *s, expect *ex, size_t nex)
{
	size_t i, j;
	int bad = 0;
	for (i = 0; i < s->ndiags; i++) {
		diag *d = &s->diags[i];
		for (j = 0; j < nex; j++)
			if (!ex[j].matched && ex[j].sev == d->sev && ex[j].line == d->loc.line &&
			    d->loc.file && ex[j].at.file && !strcmp(d->loc.file, ex[j].at.file) &&
			    strstr(d->msg, ex[j].text)) {
				ex[j].matched = d->matched = 1;
				break;
			}
	}
	s->collect = 0;
	for (i = 0; i < s->ndiags; i++) {
		char *m;
		size_t len;
		if (s->diags[i].matched)
			continue;
		len = strlen(s->diags[i].msg) + 32;
		m = malloc(len);
		if (!m)
			return -1;
		snprintf(m, len, "unexpected %s: %s", sev_word[s->diags[i].sev], s->diags[i].msg);
		ptoc_context_render_diag(s->ctx, PTOC_ERROR, s->diags[i].loc, m, strlen(m),
					 stderr_write, NULL);
		free(m);
		bad = 1;
	}
	for (j = 0; j < nex; j++) {
		char *m;
		size_t len;
		if (ex[j].matched)
			continue;
		len = strlen(ex[j].text) + 64;
		m = malloc(len);
		if (!m)
			return -1;
		snprintf(m, len, "expected %s \"%s\" was not produced", sev_word[ex[j].sev], ex[j].text);
		ptoc_context_render_diag(s->ctx, PTOC_ERROR, ex[j].at, m, strlen(m), stderr_write, NULL);
		free(m);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* ---- splitting ------------------------------------------------------------------------ */

/* A split marker is a line holding only `// -----` (surrounding blanks allowed). */
static int is_marker(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 8 || memcmp(p, "// -----", 8))
		return 0;
	p += 8;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p == end;
}

typedef struct chunk {
	const char *p;
	size_t len;
	unsigned line; /* line number of p[0] */
} chunk;

static size_t split_input(const char *src, size_t len, int split, chunk **out)
{
	size_t n = 0, cap = 8;
	chunk *v = malloc(cap * sizeof *v);
	const char *p = src, *end = src + len, *start = src;
	unsigned line = 1, start_line = 1;
	if (!v)
		return 0;
	while (split && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (is_marker(p, le)) {
			if (n == cap) {
				chunk *nv = realloc(v, (cap *= 2) * sizeof *nv);
				if (!nv)
					break;
				v = nv;
			}
			v[n].p = start;
			v[n].len = (size_t)(p - start);
			v[n].line = start_line;
			n++;
			start = nl ? nl + 1 : end;
			start_line = line + 1;
		}
		if (!nl)
			break;
		p = nl + 1;
		line++;
	}
	if (n == cap) {
		chunk *nv = realloc(v, (cap + 1) * sizeof *nv);
		if (!nv) {
			*out = v;
			return n;
		}
		v = nv;
	}
	v[n].p = start;
	v[n].len = (size_t)(end - start);
	v[n].line = start_line;
	*out = v;
	return n + 1;
}

/* ---- output -------------------------------------------------------------------------- */

static int print_all(const opts *o, ptoc_module **mods, size_t nmods, FILE *f);
static void emit_text(const opts *o, ptoc_context *ctx, ptoc_module *m,
		      const struct target *t, buf *b);

/* Prints to `path` through a temporary file in the same directory, renamed over
 * `path` only when everything was written. */
static int write_atomic(const char *path, const opts *o, ptoc_module **mods, size_t nmods)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	int fd, ok;
	FILE *f;
	mode_t mask;
	if (!tmp)
		return -1;
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp.XXXXXX", 12);
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "ptoc: cannot create '%s': %s\n", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	ok = print_all(o, mods, nmods, f) == 0;
	ok &= fclose(f) == 0;
	if (ok && rename(tmp, path) != 0) {
		fprintf(stderr, "ptoc: cannot write '%s': %s\n", path, strerror(errno));
		ok = 0;
	} else if (!ok) {
		fprintf(stderr, "ptoc: cannot write '%s': %s\n", tmp, strerror(errno));
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok ? 0 : -1;
}

/* ---- the command ------------------------------------------------------------------- */

/* Parses and verifies every chunk; the modules that succeed are kept in `mods`
 * (NULL for a failed chunk). Returns 0 when every chunk succeeded. */
static int dump_write(void *user, const char *data, size_t len)
{
	return fwrite(data, 1, len, (FILE *)user) == len ? 0 : -1;
}

/* Runs the pipeline the options name on a verified module for target t. */
static void run_passes(const opts *o, ptoc_context *ctx, ptoc_module *m, const struct target *t)
{
	pipeline p;
	pipeline_run_opts ro;
	char msg[512];
	memset(&ro, 0, sizeof ro);
	if (!o->pipeline && o->lowered) { /* --emit=lowered: the default pipeline up to split-repeats */
		pipeline_default(&p, "split-repeats");
		if (p.n < PIPELINE_MAX && pass_lookup("verify", 6))
			p.pass[p.n++] = pass_lookup("verify", 6);
	} else if (!o->pipeline)
		pipeline_default(&p, NULL);
	else if (pipeline_parse(&p, o->pipeline, msg, sizeof msg))
		return; /* checked by parse_args */
	ro.verify_each = o->verify_each;
	if (o->print_after_all) {
		ro.dump = dump_write;
		ro.dump_user = stderr;
		ro.dump_generic = o->generic;
	}
	pipeline_run(ctx, m->op, &p, t, o->remarks, &ro);
}

static int process(const opts *o, ptoc_context *ctx, const char *name, const buf *in,
		   ptoc_module ***mods, size_t *nmods)
{
	chunk *chunks = NULL;
	size_t nchunks = split_input(in->p, in->n, o->split, &chunks), i;
	int failed = 0;
	*mods = nchunks ? calloc(nchunks, sizeof **mods) : NULL;
	*nmods = *mods ? nchunks : 0;
	if (!*mods) {
		free(chunks);
		return -1;
	}
	for (i = 0; i < nchunks; i++) {
		unsigned before = ptoc_context_error_count(ctx);
		ptoc_module *m;
		ir_diag_reset_limit(ctx);
		const struct target *t = NULL;
		m = fe_parse(ctx, chunks[i].p, chunks[i].len, name, chunks[i].line);
		if (m && ptoc_context_error_count(ctx) == before &&
		    (t = target_resolve(ctx, m->op, o->target)))
			ir_verify(ctx, m->op, t);
		if (t && ptoc_context_error_count(ctx) == before &&
		    (o->pipeline || o->lowered || o->emit != EMIT_IR))
			run_passes(o, ctx, m, t);
		if (t && ptoc_context_error_count(ctx) == before && o->emit != EMIT_IR)
			emit_text(o, ctx, m, t, &o->emitted[i]);
		if (!m || ptoc_context_error_count(ctx) != before)
			failed = 1;
		else
			(*mods)[i] = m;
	}
	free(chunks);
	return failed ? -1 : 0;
}

static int file_write(void *user, const char *data, size_t len)
{
	return fwrite(data, 1, len, user) == len ? 0 : -1;
}

/* Emits C into memory, so that emit errors are reported before any output exists. */
static void emit_text(const opts *o, ptoc_context *ctx, ptoc_module *m,
		      const struct target *t, buf *b)
{
	if (o->emit == EMIT_C) {
		if (emit_c(ctx, m->op, t, buf_write, b) && b->oom)
			fputs("ptoc: out of memory\n", stderr);
	} else {
		ir_op *f = emit_find_entry(ctx, m->op, o->entry);
		if (f)
			emit_main(ctx, m->op, f, t, buf_write, b);
	}
}

static int print_one(const opts *o, ptoc_module *m, size_t i, FILE *f)
{
	if (o->emit != EMIT_IR)
		return fwrite(o->emitted[i].p, 1, o->emitted[i].n, f) == o->emitted[i].n ? 0 : -1;
	return ptoc_module_print(m, o->generic ? PTOC_PRINT_GENERIC : PTOC_PRINT_CUSTOM,
				 file_write, f);
}

/* Prints the modules that succeeded, separated by `// -----` lines. */
static int print_all(const opts *o, ptoc_module **mods, size_t nmods, FILE *f)
{
	size_t i;
	int first = 1;
	for (i = 0; i < nmods; i++) {
		if (!mods[i])
			continue;
		if (!first && fputs(o->emit == EMIT_IR ? "// -----\n" : "/* ----- */\n", f) == EOF)
			return -1;
		first = 0;
		if (print_one(o, mods[i], i, f))
			return -1;
	}
	return fflush(f) == 0 ? 0 : -1;
}

int cmd_compile(int argc, char **argv)
{
	opts o;
	buf in = {NULL, 0, 0, 0};
	ptoc_module **mods = NULL;
	size_t nmods = 0;
	ptoc_context *ctx;
	state st;
	const char *name;
	expect *ex = NULL;
	size_t nex = 0, i, nex_chunks;
	chunk *chunks = NULL;
	int rc = parse_args(argc, argv, &o), failed;
	if (rc >= 0)
		return rc;
	if (!strcmp(o.input, "-")) {
		name = "<stdin>";
		if (read_all(stdin, &in, 0)) {
			fprintf(stderr, "ptoc: cannot read stdin: %s\n", strerror(errno));
			free(in.p);
			return 1;
		}
	} else {
		FILE *f = fopen(o.input, "rb");
		struct stat sb;
		name = o.input;
		if (!f || fstat(fileno(f), &sb) != 0 || S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "ptoc: cannot open '%s': %s\n", o.input,
				f ? strerror(EISDIR) : strerror(errno));
			if (f)
				fclose(f);
			return 1;
		}
		rc = read_all(f, &in, S_ISREG(sb.st_mode) ? (size_t)sb.st_size : 0);
		fclose(f);
		if (rc) {
			fprintf(stderr, "ptoc: cannot read '%s': %s\n", o.input, strerror(errno));
			free(in.p);
			return 1;
		}
	}
	ctx = ptoc_context_create();
	if (!ctx) {
		free(in.p);
		fputs("ptoc: out of memory\n", stderr);
		return 1;
	}
	memset(&st, 0, sizeof st);
	st.ctx = ctx;
	st.collect = o.verify_diags;
	ptoc_context_set_diag_handler(ctx, on_diag, &st);
	if (o.verify_diags)
		ptoc_context_set_error_limit(ctx, 0);
	name = ir_add_source_borrowed(ctx, name, in.p, in.n); /* `in` outlives ctx */
	if (o.verify_diags)
		nex = collect_expectations(in.p, in.n, name, &ex);
	nex_chunks = split_input(in.p, in.n, o.split, &chunks);
	free(chunks);
	o.emitted = calloc(nex_chunks + 1, sizeof *o.emitted);
	if (!o.emitted) {
		fputs("ptoc: out of memory\n", stderr);
		ptoc_context_destroy(ctx);
		free(in.p);
		return 1;
	}
	failed = process(&o, ctx, name, &in, &mods, &nmods) != 0;
	if (o.verify_diags)
		failed = check_expectations(&st, ex, nex) != 0;
	rc = failed ? 1 : 0;
	if (!failed) {
		if (o.output && strcmp(o.output, "-"))
			rc = write_atomic(o.output, &o, mods, nmods) ? 1 : 0;
		else if (print_all(&o, mods, nmods, stdout)) {
			fprintf(stderr, "ptoc: cannot write the output: %s\n", strerror(errno));
			rc = 1;
		}
	}
	for (i = 0; i < st.ndiags; i++)
		free(st.diags[i].msg);
	free(st.diags);
	for (i = 0; i < nex; i++)
		free(ex[i].text);
	free(ex);
	free(mods);
	for (i = 0; i < nex_chunks; i++)
		free(o.emitted[i].p);
	free(o.emitted);
	ptoc_context_destroy(ctx);
	free(in.p);
	return rc;
}
