/* harness.c: the `ptoc run` harness (ptort.h section 6). ptort_main is the body of the
 * program `ptoc run` builds around a kernel (ptoc --emit=main writes the rest: the
 * argument table and a call trampoline). It is the one runtime function that prints:
 * its messages go to stderr, its result is the program's exit status.
 *
 * Command line: PROG [--in ARG=FILE]... [--out ARG=FILE]... [--arg ARG=VALUE]...
 * [--blocks N] [--threads T]. ARG is a kernel argument's name (without %) or its
 * position from 0; a scalar's VALUE is an integer or `block[*K][+C|-C]`, the block
 * index times K plus C (ptort.h section 7 runs the N blocks); a float scalar's is a
 * number rounded to its type or a bit pattern 0x....
 *
 * Input files are never copied more than once: a regular file is mapped privately
 * (the kernel reads the page cache; a page it writes is copied then, and the file
 * never changes, also when it is an --out buffer's too: outputs are written to a new
 * file); any other file (pipe, device) is read once straight into its GM buffer. A
 * zeroed buffer of 2 MiB or more (an --out without --in) is mapped with huge pages
 * where the host has them (madvise: a first touch of 4 KiB pages is slow on some
 * virtual machines, and writing out a 64 MiB buffer touched every page). Outputs go
 * to a temporary file beside each destination, renamed once every output is written,
 * so a failed run leaves no partial output. A FILE ending in .npy is a NumPy array,
 * read and written by harness_npy.c (its dtype and shape checked against the
 * argument). */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#ifdef __linux__
#define _DEFAULT_SOURCE 1 /* glibc: MAP_ANONYMOUS, madvise's MADV_HUGEPAGE */
#endif
#define HARNESS_POSIX 1
#else
#define HARNESS_POSIX 0
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if HARNESS_POSIX
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "harness_internal.h"
#include "ptort.h"

/* A GM buffer: its bytes (mapped or allocated) and elements. */
typedef struct gm_buf {
	void *p;
	uint64_t elems;
	size_t maplen; /* > 0: mapped with this length */
} gm_buf;

typedef struct hrun {
	const ptort_main_desc *d;
	const char *prog;
	gm_buf *buf;
	int64_t *scalar;
	const char **in;  /* --in FILE per argument (the last one given), or NULL */
	const char **out; /* --out FILE per argument, or NULL */
	char **tmp;       /* the temporary file of each output */
	int *have;        /* given on the command line */
	int64_t (*blk)[2]; /* --arg ARG=block*K+C: {K, C}; K = 0: a plain value */
	uint32_t blocks, threads;
} hrun;

#define HARNESS_MAX_BLOCKS PTORT_MAX_BLOCKS
#define HARNESS_MAX_THREADS PTORT_MAX_THREADS

static void vsay(const hrun *r, const ptort_main_arg *a, const char *fmt, va_list ap)
{
	if (a && a->file && a->line)
		fprintf(stderr, "%s:%u:%u: error: ", a->file, a->line, a->col);
	else
		fprintf(stderr, "%s: ", r->prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* A message about argument `a` (at its location when known), or about the run (a NULL). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void say(const hrun *r, const ptort_main_arg *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(r, a, fmt, ap);
	va_end(ap);
}

static int usage(const hrun *r, const char *msg, const char *a)
{
	fprintf(stderr, "%s: ", r->prog);
	fprintf(stderr, msg, a);
	fprintf(stderr, "\nusage: %s [--in ARG=FILE]... [--out ARG=FILE]... [--arg ARG=VALUE]... "
		"[--blocks N] [--threads T]\n", r->prog);
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

/* Checks that a file of n bytes fits argument a; sets *elems. 0, or 1 after a message. */
static int check_size(const hrun *r, const ptort_main_arg *a, const char *path, uint64_t n,
		      uint64_t *elems)
{
	uint64_t want = a->elems ? bytes_of(a->elems, a->bits) : n;
	if (n != want) {
		say(r, a, "--in %s: '%s' is too %s: %llu bytes, the kernel expects %llu (%llu "
		    "elements of %u bits)", a->name, path, n < want ? "short" : "long",
		    (unsigned long long)n, (unsigned long long)want, (unsigned long long)a->elems,
		    a->bits);
		return 1;
	}
	if (!a->elems && n * 8 % a->bits) {
		say(r, a, "--in %s: '%s' has %llu bytes, not a whole number of %u-bit elements",
		    a->name, path, (unsigned long long)n, a->bits);
		return 1;
	}
	*elems = a->elems ? a->elems : n * 8 / a->bits;
	return 0;
}

#if HARNESS_POSIX
/* Reads fd to its end, or to `limit` bytes, into a fresh buffer (files whose size is
 * not known ahead). */
static int slurp(int fd, size_t limit, void **pp, uint64_t *np)
{
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap), *q;
	ssize_t k;
	if (!p)
		return -1;
	for (;;) {
		if (n == cap) {
			if (cap > ((size_t)-1) / 2 || !(q = realloc(p, cap * 2))) {
				free(p);
				errno = ENOMEM;
				return -1;
			}
			p = q;
			cap *= 2;
		}
		if (n >= limit)
			break;
		k = read(fd, p + n, (cap < limit ? cap : limit) - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			free(p);
			return -1;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	*pp = p;
	*np = n;
	return 0;
}

/* Reads exactly n bytes of fd into p (one pass); -1 with errno, or EIO when the file
 * ended early (it shrank since fstat). */
static int read_all(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, (char *)p + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		got += (size_t)k;
	}
	return 0;
}
#endif

/* Loads --in FILE of argument i into its GM buffer; 0, or 1 after a message. */
static int load(hrun *r, unsigned i)
{
	const ptort_main_arg *a = &r->d->args[i];
	const char *path = r->in[i];
	gm_buf *b = &r->buf[i];
	uint64_t elems;
#if HARNESS_POSIX
	struct stat sb;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &sb)) {
		say(r, a, "--in %s: cannot read '%s': %s", a->name, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (S_ISDIR(sb.st_mode)) {
		say(r, a, "--in %s: cannot read '%s': it is a directory", a->name, path);
		close(fd);
		return 1;
	}
	if (!S_ISREG(sb.st_mode)) { /* a pipe or a device: read to its end */
		void *p;
		uint64_t n, want = bytes_of(a->elems, a->bits);
		if (slurp(fd, a->elems ? (size_t)want + 1 : (size_t)-1, &p, &n)) {
			say(r, a, "--in %s: cannot read '%s': %s", a->name, path, strerror(errno));
			close(fd);
			return 1;
		}
		close(fd);
		if (a->elems && n > want) {
			say(r, a, "--in %s: '%s' is too long: more than %llu bytes", a->name, path,
			    (unsigned long long)want);
			free(p);
			return 1;
		}
		if (check_size(r, a, path, n, &elems)) {
			free(p);
			return 1;
		}
		b->p = p;
		b->elems = elems;
		return 0;
	}
	if (check_size(r, a, path, (uint64_t)sb.st_size, &elems)) {
		close(fd);
		return 1;
	}
	if ((uint64_t)sb.st_size > (size_t)-1 - 1) {
		say(r, a, "--in %s: '%s' is too large for this host", a->name, path);
		close(fd);
		return 1;
	}
	if (sb.st_size > 0) {
		void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			close(fd);
			b->p = m;
			b->maplen = (size_t)sb.st_size;
			b->elems = elems;
			return 0;
		}
	}
	b->p = malloc((size_t)sb.st_size + 1);
	if (!b->p || read_all(fd, b->p, (size_t)sb.st_size)) {
		say(r, a, "--in %s: cannot read '%s': %s", a->name, path,
		    b->p ? strerror(errno) : "out of memory");
		close(fd);
		return 1; /* b->p freed by the caller */
	}
	close(fd);
	b->elems = elems;
	return 0;
#else
	FILE *f = fopen(path, "rb");
	long n;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		say(r, a, "--in %s: cannot read '%s'", a->name, path);
		if (f)
			fclose(f);
		return 1;
	}
	if (check_size(r, a, path, (uint64_t)n, &elems)) {
		fclose(f);
		return 1;
	}
	b->p = malloc((size_t)n + 1);
	if (!b->p || fread(b->p, 1, (size_t)n, f) != (size_t)n) {
		say(r, a, "--in %s: cannot read '%s'", a->name, path);
		fclose(f);
		return 1;
	}
	fclose(f);
	b->elems = elems;
	return 0;
#endif
}

/* Loads the .npy --in FILE of argument i (harness_npy.c); 0, or 1 after a message. */
static int load_npy(hrun *r, unsigned i)
{
	const ptort_main_arg *a = &r->d->args[i];
	char msg[1024];
	if (hnpy_load(a, r->in[i], &r->buf[i].p, &r->buf[i].elems, msg, sizeof msg)) {
		say(r, a, "--in %s: %s", a->name, msg);
		return 1;
	}
	return 0;
}

/* A zeroed buffer of n bytes in b (b->p NULL when out of memory): from calloc, or at
 * 2 MiB and more an anonymous mapping advised to use huge pages (see the top). */
static void zeroed(gm_buf *b, size_t n)
{
#if HARNESS_POSIX && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
	if (n >= (size_t)2 << 20) {
		void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			madvise(m, n, MADV_HUGEPAGE); /* a hint: 4 KiB pages where it fails */
			b->p = m;
			b->maplen = n;
			return;
		}
	}
#endif
	b->p = calloc(n, 1);
}

static void release(gm_buf *b)
{
#if HARNESS_POSIX
	if (b->maplen) {
		munmap(b->p, b->maplen);
		b->p = NULL;
		return;
	}
#endif
	free(b->p);
	b->p = NULL;
}

/* Writes output i to a temporary file beside its destination (r->tmp[i]; NULL: the
 * destination itself, when it is not a regular file). 0, or 1 after a message. */
static int store(hrun *r, unsigned i)
{
	const ptort_main_arg *a = &r->d->args[i];
	const char *path = r->out[i];
	size_t n = (size_t)bytes_of(r->buf[i].elems, a->bits);
	FILE *f = NULL;
#if HARNESS_POSIX
	struct stat sb;
	if (stat(path, &sb) || S_ISREG(sb.st_mode)) {
		size_t len = strlen(path);
		int fd;
		mode_t um = umask(0);
		umask(um);
		r->tmp[i] = malloc(len + 16);
		if (!r->tmp[i]) {
			say(r, a, "--out %s: out of memory", a->name);
			return 1;
		}
		memcpy(r->tmp[i], path, len);
		memcpy(r->tmp[i] + len, ".ptoc-XXXXXX", 13);
		fd = mkstemp(r->tmp[i]);
		if (fd < 0) {
			say(r, a, "--out %s: cannot write '%s': %s", a->name, path, strerror(errno));
			free(r->tmp[i]);
			r->tmp[i] = NULL;
			return 1;
		}
		fchmod(fd, 0666 & ~um);
		f = fdopen(fd, "wb");
		if (!f)
			close(fd);
	} else
#endif
		f = fopen(path, "wb");
	{
		int bad = !f || (hnpy_is_npy(path)
				     ? hnpy_write(f, a, r->buf[i].p, r->buf[i].elems) != 0
				     : n && fwrite(r->buf[i].p, 1, n, f) != n);
		int e = errno;
		if (f && fclose(f))
			bad = 1, e = errno;
		if (bad) {
			say(r, a, "--out %s: cannot write '%s': %s", a->name, path, strerror(e));
			return 1;
		}
	}
	return 0;
}

uint32_t ptort_count_parse(const char *s, uint32_t max)
{
	unsigned long long v = 0;
	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (unsigned)(*s - '0');
		if (v > max)
			return 0;
	}
	return (uint32_t)v;
}

/* x * k + c, or -1 when it overflows int64_t. */
static int affine(int64_t x, int64_t k, int64_t c, int64_t *out)
{
	int64_t p;
	if (x && (k > INT64_MAX / x || k < INT64_MIN / x))
		return -1;
	p = x * k;
	if ((c > 0 && p > INT64_MAX - c) || (c < 0 && p < INT64_MIN - c))
		return -1;
	*out = p + c;
	return 0;
}

/* `block[*K][+C|-C]` into {K, C} (K may be negative, not 0); -1 when malformed. */
static int parse_block_value(const char *s, int64_t kc[2])
{
	char *end;
	kc[0] = 1, kc[1] = 0;
	if (strncmp(s, "block", 5))
		return -1;
	s += 5;
	if (*s == '*') {
		errno = 0;
		kc[0] = strtoll(s + 1, &end, 0);
		if (end == s + 1 || errno || s[1] == '+' || s[1] == ' ' || !kc[0])
			return -1;
		s = end;
	}
	if (*s == '+' || *s == '-') {
		errno = 0;
		kc[1] = strtoll(s + 1, &end, 0);
		if (end == s + 1 || errno || s[1] == '+' || s[1] == '-' || s[1] == ' ')
			return -1;
		if (*s == '-')
			kc[1] = -kc[1];
		s = end;
	}
	return *s ? -1 : 0;
}

/* A float argument's VALUE: a bit pattern 0x... (as a float arith.constant's hex
 * literal, docs/semantics.md §8.2), else a number rounded once to type t. 0 or -1. */
static int float_value(ptort_type t, const char *s, int64_t *out)
{
	uint64_t b;
	unsigned n = ptort_type_bits(t);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		char *end;
		errno = 0;
		b = strtoull(s + 2, &end, 16);
		if (!s[2] || *end || errno || (n < 64 && b >> n))
			return -1;
	} else if (!*s || ptort_value_parse(t, s, strlen(s), &b)) {
		return -1;
	}
	*out = (int64_t)b;
	return 0;
}

/* Parses the command line into r; 0, or the exit status after a message. */
static int parse(hrun *r, int argc, char **argv)
{
	const ptort_main_desc *d = r->d;
	int a, i;
	r->blocks = 1;
	for (a = 1; a < argc; a++) {
		const char *o = argv[a], *v, *eq;
		int kind = !strcmp(o, "--in") ? 0 : !strcmp(o, "--out") ? 1 : !strcmp(o, "--arg") ? 2 : -1;
		if (!strcmp(o, "--blocks") || !strcmp(o, "--threads")) {
			int bl = o[2] == 'b';
			uint32_t n;
			if (a + 1 >= argc)
				return usage(r, "option '%s' needs a count", o);
			n = ptort_count_parse(argv[++a], bl ? HARNESS_MAX_BLOCKS : HARNESS_MAX_THREADS);
			if (!n) {
				fprintf(stderr, "%s: %s: '%s' is not a count from 1 to %u\n", r->prog, o,
					argv[a], bl ? HARNESS_MAX_BLOCKS : HARNESS_MAX_THREADS);
				return 2;
			}
			*(bl ? &r->blocks : &r->threads) = n;
			continue;
		}
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
		if (kind == 0)
			r->in[i] = eq + 1;
		if (kind == 1)
			r->out[i] = eq + 1;
		if (kind == 2 && d->args[i].is_float) {
			if (float_value(d->args[i].type, eq + 1, &r->scalar[i]))
				return usage(r, "--arg %s: not a number of the argument's float type "
					     "(a decimal, inf, nan, or a bit pattern 0x...)", v);
			r->blk[i][0] = 0;
		} else if (kind == 2 && !strncmp(eq + 1, "block", 5)) {
			if (parse_block_value(eq + 1, r->blk[i]))
				return usage(r, "--arg %s: not block, block*K, block+C or block*K+C (K, C "
					     "64-bit integers, K not 0)", v);
		} else if (kind == 2) {
			char *end;
			errno = 0;
			r->blk[i][0] = 0;
			r->scalar[i] = strtoll(eq + 1, &end, 0);
			if (!eq[1] || *end || errno)
				return usage(r, "--arg %s: not a 64-bit integer", v);
		}
		r->have[i] = 1;
	}
	for (i = 0; i < (int)d->nargs; i++) {
		int64_t lo, hi;
		if (!d->args[i].bits && !r->have[i])
			return usage(r, "the scalar argument '%s' needs a value: --arg NAME=VALUE",
				     d->args[i].name);
		if (r->blk[i][0] && (affine(0, r->blk[i][0], r->blk[i][1], &lo) ||
				     affine((int64_t)r->blocks - 1, r->blk[i][0], r->blk[i][1], &hi))) {
			fprintf(stderr, "%s: --arg %s: block*%lld%+lld overflows a 64-bit integer for "
				"block %u\n", r->prog, d->args[i].name, (long long)r->blk[i][0],
				(long long)r->blk[i][1], r->blocks - 1);
			return 2;
		}
	}
	return 0;
}

/* Loads the inputs and makes the other GM buffers (zeroed); 0, or 1 after a message. */
static int prepare(hrun *r)
{
	unsigned i;
	for (i = 0; i < r->d->nargs; i++) {
		const ptort_main_arg *g = &r->d->args[i];
		if (!g->bits)
			continue;
		if (r->out[i] && hnpy_is_npy(r->out[i]) && ptort_type_bits(g->type) != g->bits) {
			say(r, g, "--out %s: '%s': the program has no element type for the argument "
			    "(build it again with ptoc), so .npy files cannot be written", g->name,
			    r->out[i]);
			return 1;
		}
		if (r->in[i]) {
			if (hnpy_is_npy(r->in[i]) ? load_npy(r, i) : load(r, i))
				return 1;
			continue;
		}
		if (!g->elems && r->have[i]) {
			say(r, g, "argument '%s' has no static size (dynamic shapes): give its "
			    "contents with --in", g->name);
			return 1;
		}
		r->buf[i].elems = g->elems;
		zeroed(&r->buf[i], (size_t)bytes_of(g->elems, g->bits) + 1);
		if (!r->buf[i].p) {
			say(r, g, "argument '%s': out of memory", g->name);
			return 1;
		}
	}
	return 0;
}

/* Writes every output, all or none. */
static int write_outputs(hrun *r)
{
	unsigned i;
	int rc = 0;
	for (i = 0; i < r->d->nargs && !rc; i++)
		if (r->out[i])
			rc = store(r, i);
	for (i = 0; i < r->d->nargs; i++) {
		if (!r->tmp[i])
			continue;
		if (!rc && rename(r->tmp[i], r->out[i])) {
			say(r, &r->d->args[i], "--out %s: cannot write '%s': %s", r->d->args[i].name,
			    r->out[i], strerror(errno));
			rc = 1;
		}
		if (rc)
			remove(r->tmp[i]);
	}
	return rc;
}

/* What each block's call gets: the buffers, and its row of scalars. */
typedef struct hcall {
	const ptort_main_desc *d;
	void **bufs;
	uint64_t *elems;
	int64_t *scalar; /* one row of nargs per block, or one row for all (stride 0) */
	size_t stride;
	ptort_sync_findings *sync; /* PTORT_SYNC_CHECK=1: the sync sanitizer's findings */
} hcall;

static void call_block(ptort_ctx *ctx, void *user)
{
	const hcall *h = user;
	h->d->call(ctx, h->bufs, h->elems, h->scalar + (size_t)ptort_block_idx(ctx) * h->stride);
	if (h->sync)
		ptort_sync_finish(ctx, h->sync);
}

static void to_stderr(void *user, const char *s, size_t n)
{
	(void)user;
	fwrite(s, 1, n, stderr);
}

/* The kernel argument whose buffer holds host address p (*off: the byte in it), or -1. */
static int arg_at(const hrun *r, uintptr_t p, uint64_t *off)
{
	unsigned i;
	for (i = 0; i < r->d->nargs; i++) {
		const ptort_main_arg *a = &r->d->args[i];
		uintptr_t b = (uintptr_t)r->buf[i].p;
		if (a->bits && b && p >= b && p - b < bytes_of(r->buf[i].elems, a->bits)) {
			*off = p - b;
			return (int)i;
		}
	}
	return -1;
}

static void say_at(const hrun *r, const char *file, uint32_t line, uint32_t col)
{
	if (file)
		fprintf(stderr, "%s:%u:%u: error: ", file, (unsigned)line, (unsigned)col);
	else
		fprintf(stderr, "%s: ", r->prog);
}

/* The report of a race between two blocks (ptort.h section 7). */
static void say_race(const hrun *r, const ptort_launch_report *rep)
{
	const ptort_gm_access *w = &rep->acc[0], *o = &rep->acc[1];
	uint64_t off = 0;
	int i = arg_at(r, rep->lo, &off);
	char what[160];
	if (i >= 0)
		snprintf(what, sizeof what, "bytes [%llu, %llu) of '%s'", (unsigned long long)off,
			 (unsigned long long)(off + (rep->hi - rep->lo)), r->d->args[i].name);
	else
		snprintf(what, sizeof what, "%llu GM bytes at %#llx",
			 (unsigned long long)(rep->hi - rep->lo), (unsigned long long)rep->lo);
	say_at(r, o->file, o->line, o->col);
	if (o->write)
		fprintf(stderr, "GM race: blocks %u and %u both write %s", (unsigned)w->block,
			(unsigned)o->block, what);
	else
		fprintf(stderr, "GM race: block %u reads %s, which block %u writes", (unsigned)o->block,
			what, (unsigned)w->block);
	if (w->file)
		fprintf(stderr, " (block %u at %s:%u:%u)", (unsigned)w->block, w->file,
			(unsigned)w->line, (unsigned)w->col);
	fputs("; blocks run in no fixed order, so no block may touch GM bytes another block "
	      "writes\n", stderr);
}

int ptort_main(const ptort_main_desc *d, int argc, char **argv)
{
	hrun r;
	unsigned n = d->nargs ? d->nargs : 1, i;
	void **bufs = NULL;
	uint64_t *elems = NULL;
	int64_t *rows = NULL;
	ptort_launch l;
	ptort_launch_report rep;
	hcall h;
	int rc;
	memset(&r, 0, sizeof r);
	memset(&h, 0, sizeof h);
	r.d = d;
	r.prog = getenv("PTOC_RUN_PROG");
	if (!r.prog || !*r.prog)
		r.prog = argc > 0 && argv[0] ? argv[0] : "kernel";
	r.buf = calloc(n, sizeof *r.buf);
	r.scalar = calloc(n, sizeof *r.scalar);
	r.in = calloc(n, sizeof *r.in);
	r.out = calloc(n, sizeof *r.out);
	r.tmp = calloc(n, sizeof *r.tmp);
	r.have = calloc(n, sizeof *r.have);
	r.blk = calloc(n, sizeof *r.blk);
	bufs = calloc(n, sizeof *bufs);
	elems = calloc(n, sizeof *elems);
	if (!r.buf || !r.scalar || !r.in || !r.out || !r.tmp || !r.have || !r.blk || !bufs ||
	    !elems) {
		say(&r, NULL, "out of memory");
		rc = 1;
		goto done;
	}
	rc = parse(&r, argc, argv);
	if (!rc)
		rc = prepare(&r);
	if (rc)
		goto done;
	for (i = 0; i < d->nargs; i++) {
		bufs[i] = r.buf[i].p;
		elems[i] = r.buf[i].elems;
	}
	memset(&h, 0, sizeof h);
	h.d = d;
	h.bufs = bufs;
	h.elems = elems;
	h.scalar = r.scalar;
	for (i = 0; i < d->nargs; i++)
		if (r.blk[i][0])
			h.stride = n;
	if (h.stride) { /* a row of scalars per block */
		uint32_t b;
		rows = calloc((size_t)r.blocks, n * sizeof *rows);
		if (!rows) {
			say(&r, NULL, "out of memory");
			rc = 1;
			goto done;
		}
		for (b = 0; b < r.blocks; b++)
			for (i = 0; i < d->nargs; i++)
				if (!r.blk[i][0] || affine((int64_t)b, r.blk[i][0], r.blk[i][1],
							   &rows[(size_t)b * n + i]))
					rows[(size_t)b * n + i] = r.scalar[i];
		h.scalar = rows;
	}
	{
		const char *sc = getenv("PTORT_SYNC_CHECK");
		if (sc && !strcmp(sc, "1") && !(h.sync = ptort_sync_findings_create())) {
			say(&r, NULL, "out of memory");
			rc = 1;
			goto done;
		}
	}
	memset(&l, 0, sizeof l);
	l.blocks = r.blocks;
	l.threads = r.threads;
	l.ctx_create = d->ctx_create;
	if (d->flags & PTORT_MAIN_CLUSTER)
		l.flags |= PTORT_LAUNCH_CLUSTER;
	l.run = call_block;
	l.user = &h;
	switch (ptort_launch_run(&l, &rep)) {
	case PTORT_LAUNCH_OK:
		break;
	case PTORT_LAUNCH_ERROR:
		say_at(&r, rep.file, rep.line, rep.col);
		if (r.blocks > 1)
			fprintf(stderr, "runtime error in block %u: %s\n", (unsigned)rep.block,
				rep.message);
		else
			fprintf(stderr, "runtime error: %s\n", rep.message);
		fputs(rep.notes, stderr); /* a deadlocked cluster: what each core waits for */
		rc = 1;
		break;
	case PTORT_LAUNCH_RACE:
		say_race(&r, &rep);
		rc = 1;
		break;
	default:
		say(&r, NULL, "%s", rep.message[0] ? rep.message : "out of memory");
		rc = 1;
		break;
	}
	if (!rc && ptort_sync_findings_count(h.sync)) { /* sync findings: no output written */
		uint64_t *nb = calloc(n, sizeof *nb);
		const char **nm = calloc(n, sizeof *nm);
		if (nb && nm) {
			for (i = 0; i < d->nargs; i++) {
				nm[i] = d->args[i].name;
				nb[i] = d->args[i].bits ? bytes_of(r.buf[i].elems, d->args[i].bits) : 0;
			}
			ptort_sync_findings_gm(h.sync, d->nargs, (const void *const *)bufs, nb, nm);
		}
		ptort_sync_findings_write(h.sync, to_stderr, NULL);
		free(nb);
		free(nm);
		rc = 1;
	}
	if (!rc)
		rc = write_outputs(&r);
done:
	ptort_sync_findings_destroy(h.sync);
	if (r.buf)
		for (i = 0; i < d->nargs; i++)
			release(&r.buf[i]);
	if (r.tmp)
		for (i = 0; i < d->nargs; i++)
			free(r.tmp[i]);
	free(r.buf);
	free(r.scalar);
	free(r.in);
	free(r.out);
	free(r.tmp);
	free(r.have);
	free(r.blk);
	free(rows);
	free(bufs);
	free(elems);
	return rc;
}
