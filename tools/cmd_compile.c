/* cmd_compile.c: `ptoc FILE|- [options]`, the default command. Reads the input (any
 * bytes), optionally splits it on `// -----` lines, parses each chunk and runs
 * ptoc_module_compile on it (target, verify, passes, output: the public API only),
 * prints the outputs, and either reports diagnostics on stderr or checks them against
 * the `expected-*` comments of the input (--verify-diagnostics). Output to -o goes
 * through a temporary file in the same directory, renamed on success only. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptoc/legality.h"
#include "ptoc/ptoc.h"
#include "tools.h"

static void usage(FILE *f)
{
	fputs("usage: ptoc FILE.pto|- [-o OUT] [--emit=c|ir|generic|lowered|main] [--target a2a3|a5]\n"
	      "            [--pto-arch=a3|a5] [--verify-diagnostics] [--split-input-file]\n"
	      "            [--insert-sync|--no-insert-sync]\n"
	      "       ptoc cvt ...       convert element values (ptoc cvt --help)\n"
	      "       ptoc legality ...  per-target conversion table (ptoc legality --help)\n"
	      "       ptoc run ...       compile and execute a kernel (ptoc run --help)\n"
	      "\n"
	      "Compiles a .pto file (or stdin with -) to C through the default pipeline.\n"
	      "\n"
	      "options:\n"
	      "  -o OUT                write the output to OUT (atomically; nothing on failure)\n"
	      "  --emit=c              C99 calling the runtime (libptort; the default)\n"
	      "  --emit=main           a C main running the entry kernel on binary or .npy\n"
	      "                        files (the harness of ptoc run; --entry NAME chooses the kernel)\n"
	      "  --emit=ir             the verified IR in the syntax the parser reads (after\n"
	      "                        --pass-pipeline when given)\n"
	      "  --emit=generic        the MLIR generic op form, accepted by mlir-opt\n"
	      "                        --allow-unregistered-dialect\n"
	      "  --emit=lowered        level-3 instructions (the whole default pipeline)\n"
	      "  --target a2a3|a5      the target (also a3, a2; any case; default: the module's\n"
	      "                        pto.target_arch, same names, else a2a3)\n"
	      "  --pto-arch=a3|a5      PTOAS's spelling of --target\n"
	      "  --insert-sync         synchronise the pipes (the insert-sync pass, on by default\n"
	      "                        for C, main and lowered; functions with sync ops of\n"
	      "                        their own are left as written); with --emit=ir or\n"
	      "                        generic: the placed IR with the inserted set_flag,\n"
	      "                        wait_flag and barrier ops (also --enable-insert-sync)\n"
	      "  --no-insert-sync      leave the pipes unsynchronised (no insert-sync pass)\n"
	      "  --verify-diagnostics  check diagnostics against // expected-error {{...}} comments\n"
	      "  --split-input-file    process each chunk between '// -----' lines on its own\n"
	      "  --pass-pipeline=P     run the comma-separated passes P after parsing (below)\n"
	      "  --print-after-all     print the IR to stderr after every pass\n"
	      "  --print-locations     --emit=ir/generic and --print-after-all write each op's and\n"
	      "                        argument's location, loc(\"file\":line:col) (also\n"
	      "                        --mlir-print-debuginfo)\n"
	      "  --verify-each         run the structural verifier after every pass too (the input\n"
	      "                        is verified once before the passes; the default\n"
	      "                        pipeline does not verify again)\n"
	      "  -Rpass=NAMES          remarks of the named passes (comma-separated, or all)\n"
	      "  --help, --version\n"
	      "\n"
	      "exit status: 0 success, 1 errors in the input, 2 usage error\n"
	      "\n"
	      "passes (names for --pass-pipeline and -Rpass):\n",
	      f);
	{
		const char *name, *summary;
		size_t i;
		for (i = 0; !ptoc_pass_info(i, &name, &summary); i++)
			fprintf(f, "  %-20s  %s\n", name, summary);
	}
}

typedef struct opts {
	const char *input, *output;
	int verify_diags, split;
	ptoc_compile_opts c;   /* target, pipeline, remarks, output, entry, dumps */
	ptoc_buf *emitted;     /* per chunk: the output of process() */
	int sync;              /* --insert-sync 1, --no-insert-sync -1, else 0 */
	char pipebuf[512];     /* the pipeline --insert-sync / --no-insert-sync chose */
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
static int parse_target(const char *opt, const char *v, const char **out)
{
	char names[128];
	ptoc_target t;
	if (!ptoc_target_parse(v, strlen(v), &t)) {
		*out = v;
		return -1;
	}
	ptoc_target_spellings(names, sizeof names);
	fprintf(stderr, "ptoc: unknown %s '%s' (%s) (try --help)\n", opt, v, names);
	return 2;
}

/* Returns -1 to go on, else the exit status. */
static int dump_write(void *user, const char *data, size_t len)
{
	return fwrite(data, 1, len, (FILE *)user) == len ? 0 : -1;
}

static int parse_args(int argc, char **argv, opts *o)
{
	int i, err = 0, rc, lowered = 0;
	const char *v;
	memset(o, 0, sizeof *o);
	o->c.output = PTOC_OUTPUT_C;
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
			lowered = !strcmp(v, "lowered");
			if (!strcmp(v, "ir") || lowered)
				o->c.output = PTOC_OUTPUT_IR;
			else if (!strcmp(v, "generic"))
				o->c.output = PTOC_OUTPUT_GENERIC;
			else if (!strcmp(v, "c"))
				o->c.output = PTOC_OUTPUT_C;
			else if (!strcmp(v, "main"))
				o->c.output = PTOC_OUTPUT_MAIN;
			else
				return usage_error("unknown --emit value '%s' (c, ir, generic, lowered, main)", v);
		} else if ((v = opt_value(argc, argv, &i, "--entry", &err))) {
			o->c.entry = v;
		} else if (!strcmp(a, "--print-after-all")) {
			o->c.dump = dump_write;
			o->c.dump_user = stderr;
		} else if (!strcmp(a, "--print-locations") || !strcmp(a, "--mlir-print-debuginfo")) {
			o->c.print_locations = 1;
		} else if (!strcmp(a, "--insert-sync") || !strcmp(a, "--enable-insert-sync")) {
			o->sync = 1;
		} else if (!strcmp(a, "--no-insert-sync")) {
			o->sync = -1;
		} else if (!strcmp(a, "--verify-each")) {
			o->c.verify_each = 1;
		} else if (!strncmp(a, "-Rpass=", 7)) {
			o->c.remarks = a + 7;
		} else if ((v = opt_value(argc, argv, &i, "--pass-pipeline", &err))) {
			char msg[512];
			if (ptoc_pipeline_check(v, msg, sizeof msg))
				return usage_error("%s", msg);
			o->c.pipeline = v;
		} else if ((v = opt_value(argc, argv, &i, "--target", &err))) {
			if ((rc = parse_target("target", v, &o->c.target)) >= 0)
				return rc;
		} else if ((v = opt_value(argc, argv, &i, "--pto-arch", &err))) {
			if ((rc = parse_target("--pto-arch", v, &o->c.target)) >= 0)
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
	if (o->sync && o->c.pipeline)
		return usage_error("%s", "--insert-sync and --no-insert-sync choose passes of the "
				   "default pipeline; with --pass-pipeline name the passes instead");
	if (o->sync < 0 && (lowered || o->c.output == PTOC_OUTPUT_C || o->c.output == PTOC_OUTPUT_MAIN))
		o->c.pipeline = tool_sync_pipeline(-1, o->pipebuf, sizeof o->pipebuf);
	else if (o->sync > 0 && !lowered && (o->c.output == PTOC_OUTPUT_IR ||
					     o->c.output == PTOC_OUTPUT_GENERIC))
		o->c.pipeline = tool_sync_pipeline(1, o->pipebuf, sizeof o->pipebuf);
	if (lowered && !o->c.pipeline) /* the level-3 instructions */
		o->c.pipeline = ptoc_default_pipeline();
	o->c.dump_form = o->c.output == PTOC_OUTPUT_GENERIC ? PTOC_PRINT_GENERIC : PTOC_PRINT_CUSTOM;
	return -1;
}

/* Reads all of `f`; returns 0, or -1 with errno set. `hint` is the expected size
 * (a regular file's), so the buffer is allocated once. */
static int read_all(FILE *f, ptoc_buf *b, size_t hint)
{
	char chunk[65536];
	size_t n;
	if (hint) {
		if (ptoc_buf_reserve(b, hint))
			return -1;
		b->len = fread(b->data, 1, hint, f);
		b->data[b->len] = 0;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (ptoc_buf_write(b, chunk, n))
			return -1;
	if (ferror(f))
		return -1;
	if (!b->data && ptoc_buf_write(b, "", 0))
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

/* The outputs of the chunks that succeeded (ok[i]), separated by `// -----` lines
 * (IR) or a C comment of five dashes (C). */
static int print_all(const opts *o, const int *ok, size_t n, FILE *f)
{
	int ir = o->c.output == PTOC_OUTPUT_IR || o->c.output == PTOC_OUTPUT_GENERIC;
	size_t i;
	int first = 1;
	for (i = 0; i < n; i++) {
		if (!ok[i])
			continue;
		if (!first && fputs(ir ? "// -----\n" : "/* ----- */\n", f) == EOF)
			return -1;
		first = 0;
		if (fwrite(o->emitted[i].data, 1, o->emitted[i].len, f) != o->emitted[i].len)
			return -1;
	}
	return fflush(f) == 0 ? 0 : -1;
}

/* Prints to `path` through a temporary file in the same directory, renamed over
 * `path` only when everything was written. An existing `path` that is not a regular
 * file (/dev/null, a FIFO, a terminal) is written in place: renaming over it would
 * replace the device or pipe with a regular file (as root, /dev/null itself). */
static int write_atomic(const char *path, const opts *o, const int *ok, size_t n)
{
	size_t len = strlen(path);
	char *tmp;
	int fd, good;
	FILE *f;
	mode_t mask;
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
		f = fopen(path, "wb");
		good = f && print_all(o, ok, n, f) == 0;
		if (f)
			good &= fclose(f) == 0;
		if (!good)
			fprintf(stderr, "ptoc: cannot write '%s': %s\n", path, strerror(errno));
		return good ? 0 : -1;
	}
	tmp = malloc(len + 16);
	if (!tmp)
		return -1;
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".tmp.XXXXXX", 12);
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
	good = print_all(o, ok, n, f) == 0;
	good &= fclose(f) == 0;
	if (good && rename(tmp, path) != 0) {
		fprintf(stderr, "ptoc: cannot write '%s': %s\n", path, strerror(errno));
		good = 0;
	} else if (!good) {
		fprintf(stderr, "ptoc: cannot write '%s': %s\n", tmp, strerror(errno));
	}
	if (!good)
		unlink(tmp);
	free(tmp);
	return good ? 0 : -1;
}

/* ---- the command ------------------------------------------------------------------- */

/* Parses each chunk and runs ptoc_module_compile on it, its output into memory (so
 * that errors are reported before any output exists); ok[i] tells which chunks
 * succeeded. Returns 0 when every chunk did. */
static int process(const opts *o, ptoc_context *ctx, const char *name, const chunk *chunks,
		   size_t nchunks, int *ok)
{
	size_t i;
	int failed = 0;
	for (i = 0; i < nchunks; i++) {
		unsigned before = ptoc_context_error_count(ctx);
		ptoc_module *m;
		ptoc_context_set_error_limit(ctx, o->verify_diags ? 0 : PTOC_DEFAULT_ERROR_LIMIT);
		m = ptoc_parse_part(ctx, chunks[i].p, chunks[i].len, name, chunks[i].line);
		if (m && ptoc_context_error_count(ctx) == before &&
		    ptoc_module_compile(m, &o->c, ptoc_buf_write, &o->emitted[i]) &&
		    o->emitted[i].oom)
			fputs("ptoc: out of memory\n", stderr);
		ok[i] = m && ptoc_context_error_count(ctx) == before && !o->emitted[i].oom;
		failed |= !ok[i];
	}
	return failed ? -1 : 0;
}

int cmd_compile(int argc, char **argv)
{
	opts o;
	ptoc_buf in = {0};
	ptoc_context *ctx;
	state st;
	const char *name;
	expect *ex = NULL;
	size_t nex = 0, i, nchunks;
	chunk *chunks = NULL;
	int *ok = NULL;
	int rc = parse_args(argc, argv, &o), failed;
	if (rc >= 0)
		return rc;
	if (!strcmp(o.input, "-")) {
		name = "<stdin>";
		if (read_all(stdin, &in, 0)) {
			fprintf(stderr, "ptoc: cannot read stdin: %s\n", strerror(errno));
			ptoc_buf_free(&in);
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
			ptoc_buf_free(&in);
			return 1;
		}
	}
	ctx = ptoc_context_create();
	nchunks = split_input(in.data, in.len, o.split, &chunks);
	o.emitted = calloc(nchunks + 1, sizeof *o.emitted);
	ok = calloc(nchunks + 1, sizeof *ok);
	if (!ctx || !chunks || !o.emitted || !ok) {
		fputs("ptoc: out of memory\n", stderr);
		ptoc_context_destroy(ctx);
		free(chunks);
		free(o.emitted);
		free(ok);
		ptoc_buf_free(&in);
		return 1;
	}
	memset(&st, 0, sizeof st);
	st.ctx = ctx;
	st.collect = o.verify_diags;
	ptoc_context_set_diag_handler(ctx, on_diag, &st);
	ptoc_context_add_source(ctx, name, in.data, in.len); /* `in` outlives ctx */
	if (o.verify_diags)
		nex = collect_expectations(in.data, in.len, name, &ex);
	failed = process(&o, ctx, name, chunks, nchunks, ok) != 0;
	if (o.verify_diags)
		failed = check_expectations(&st, ex, nex) != 0;
	rc = failed ? 1 : 0;
	if (!failed) {
		if (o.output && strcmp(o.output, "-"))
			rc = write_atomic(o.output, &o, ok, nchunks) ? 1 : 0;
		else if (print_all(&o, ok, nchunks, stdout)) {
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
	for (i = 0; i < nchunks; i++)
		ptoc_buf_free(&o.emitted[i]);
	free(o.emitted);
	free(ok);
	free(chunks);
	ptoc_context_destroy(ctx);
	ptoc_buf_free(&in);
	return rc;
}
