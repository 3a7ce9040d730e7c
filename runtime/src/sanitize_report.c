/* sanitize_report.c: the sync sanitizer's findings (ptort_sync.h; docs/sync-check.md
 * "Reading a report"). Each finding is an error at one source location with notes at
 * others; findings with the same class, kind and locations are one, with the count of
 * their dynamic instances (over the runs of all blocks), and keep the words of their
 * first instance (lowest block, then first found). Written sorted, so the report does
 * not depend on the order blocks ran in. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#define SAN_THREADS 1
#else
#define SAN_THREADS 0
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if SAN_THREADS
#include <pthread.h>
#endif

#include "mem_internal.h"
#include "sanitize_internal.h"

enum { CLS_DEADLOCK, CLS_RACE, CLS_EVENT, CLS_OOM };

struct san_find {
	int cls;
	const char *kind;
	const char *fa, *fb; /* the error's and the first note's locations */
	uint32_t la, ca, lb, cb;
	uint64_t count;
	uint32_t block;
	unsigned seq;
	int gm;             /* the byte range [lo, hi) is of GM (host addresses) */
	uint64_t lo, hi;
	char *text; /* "error: ..." without the location, then "\n" + whole note lines; a
		     * \001 stands for the byte range */
};

struct ptort_sync_findings {
#if SAN_THREADS
	pthread_mutex_t mu;
#endif
	san_find *f;
	size_t n, cap;
	int oom;
	/* GM buffers by name, for the byte ranges of GM races */
	unsigned nbuf;
	const void *const *base;
	const uint64_t *bytes;
	const char *const *name;
};

static int same_file(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_key(const san_find *x, const san_find *y)
{
	return x->cls == y->cls && !strcmp(x->kind, y->kind) && same_file(x->fa, y->fa) &&
	       x->la == y->la && x->ca == y->ca && same_file(x->fb, y->fb) && x->lb == y->lb &&
	       x->cb == y->cb;
}

void san_run_init(san_run *run, uint32_t block)
{
	memset(run, 0, sizeof *run);
	run->block = block;
}

/* printf into a growing string */
typedef struct sbuf {
	char *p;
	size_t n, cap;
	int oom;
} sbuf;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void sf(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (b->oom)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
	va_end(ap);
	if (k < 0) {
		b->oom = 1;
		return;
	}
	if (!b->p || b->n + (size_t)k + 1 > b->cap) {
		if (ptort_reserve(&b->p, &b->cap, b->n + (size_t)k + 1)) {
			b->oom = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
	}
	b->n += (size_t)k;
}

static void loc(sbuf *b, const char *file, uint32_t line, uint32_t col)
{
	sf(b, "%s:%u:%u", file ? file : "<unknown>", (unsigned)line, (unsigned)col);
}

static const char *pn(unsigned p)
{
	return ptort_pipe_name((ptort_pipe)p);
}

/* A finding equal to (cls, kind, locations) already in the run: counted, and 1. The
 * finders call it before they word anything (a racing loop repeats its findings). */
static int seen(san_run *run, int cls, const char *kind, const char *fa, uint32_t la,
		uint32_t ca, const char *fb, uint32_t lb, uint32_t cb)
{
	size_t i;
	for (i = run->n; i-- > 0;) {
		san_find *y = &run->f[i];
		if (y->cls == cls && y->la == la && y->ca == ca && y->lb == lb && y->cb == cb &&
		    !strcmp(y->kind, kind) && same_file(y->fa, fa) && same_file(y->fb, fb)) {
			y->count++;
			return 1;
		}
	}
	return 0;
}

/* Adds a finding (text owned by b) unless an equal one is there. */
static san_find *add(san_run *run, int cls, const char *kind, const char *fa, uint32_t la,
		     uint32_t ca, const char *fb, uint32_t lb, uint32_t cb, sbuf *b)
{
	san_find x, *y;
	size_t i;
	memset(&x, 0, sizeof x);
	x.cls = cls, x.kind = kind, x.fa = fa, x.la = la, x.ca = ca, x.fb = fb, x.lb = lb, x.cb = cb;
	for (i = 0; i < run->n; i++)
		if (same_key(&run->f[i], &x)) {
			run->f[i].count++;
			free(b->p);
			return NULL;
		}
	if (b->oom) {
		free(b->p);
		run->oom = 1;
		return NULL;
	}
	if (run->n == run->cap && ptort_grow(&run->f, &run->cap, 16, sizeof *run->f, (size_t)-1)) {
		free(b->p);
		run->oom = 1;
		return NULL;
	}
	y = &run->f[run->n++];
	*y = x;
	y->count = 1;
	y->block = run->block;
	y->seq = run->seq++;
	y->text = b->p;
	return y;
}

void san_race(san_run *run, const char *kind, const char *space, int gm, uint64_t lo,
	      uint64_t hi, unsigned fpipe, int fw, const char *ffile, uint32_t fline,
	      uint32_t fcol, unsigned spipe, int sw, const char *sfile, uint32_t sline,
	      uint32_t scol, int same_pipe)
{
	sbuf b = {0};
	san_find *y;
	if (seen(run, CLS_RACE, kind, sfile, sline, scol, ffile, fline, fcol))
		return;
	sf(&b, "sync race (%s) on %s bytes \001: %s %s them, and nothing orders it after the %s %s",
	   kind, space, pn(spipe), sw ? "writes" : "reads", pn(fpipe), fw ? "write" : "read");
	sf(&b, "\n");
	loc(&b, ffile, fline, fcol);
	if (same_pipe)
		sf(&b, ": note: %s %s them here; %s does not execute in program order on this "
		       "target: add pto.barrier <%s> between the two\n",
		   pn(fpipe), fw ? "writes" : "reads", pn(fpipe), pn(fpipe));
	else
		sf(&b, ": note: %s %s them here; nothing orders %s before %s between the two: add "
		       "pto.set_flag[<%s>, <%s>, <EVENT_IDn>] after this op and pto.wait_flag[<%s>, "
		       "<%s>, <EVENT_IDn>] before line %u\n",
		   pn(fpipe), fw ? "writes" : "reads", pn(fpipe), pn(spipe), pn(fpipe), pn(spipe),
		   pn(fpipe), pn(spipe), (unsigned)sline);
	y = add(run, CLS_RACE, kind, sfile, sline, scol, ffile, fline, fcol, &b);
	if (y)
		y->gm = gm, y->lo = lo, y->hi = hi;
}

void san_event_pending(san_run *run, unsigned src, unsigned dst, int event, const char *file,
		       uint32_t line, uint32_t col, const char *pfile, uint32_t pline,
		       uint32_t pcol, const char *wfile, uint32_t wline, uint32_t wcol)
{
	sbuf b = {0};
	sf(&b, "sync event: set_flag[<%s>, <%s>, <EVENT_ID%d>] on a flag still set: %s\n", pn(src),
	   pn(dst), event,
	   wfile ? "the wait_flag of its previous set does not happen before it"
		 : "its previous set has no wait_flag before it");
	loc(&b, pfile, pline, pcol);
	sf(&b, ": note: the previous set_flag of the flag\n");
	if (wfile) {
		loc(&b, wfile, wline, wcol);
		sf(&b, ": note: its wait_flag, on %s, which nothing orders before this set on %s\n",
		   pn(dst), pn(src));
	}
	add(run, CLS_EVENT, "pending", file, line, col, pfile, pline, pcol, &b);
}

void san_event_left(san_run *run, unsigned src, unsigned dst, int event, const char *file,
		    uint32_t line, uint32_t col, uint32_t nsets, uint32_t nwaits)
{
	sbuf b = {0};
	sf(&b, "sync event: set_flag[<%s>, <%s>, <EVENT_ID%d>] leaves the flag set at kernel end "
	       "(%u set%s, %u wait%s)\n",
	   pn(src), pn(dst), event, (unsigned)nsets, nsets == 1 ? "" : "s", (unsigned)nwaits,
	   nwaits == 1 ? "" : "s");
	add(run, CLS_EVENT, "left", file, line, col, NULL, 0, 0, &b);
}

static const char *ordinal(uint32_t n)
{
	return n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" :
		n % 10 == 3 ? "rd" : "th";
}

void san_deadlock_noset(san_run *run, unsigned src, unsigned dst, int event, const char *file,
			uint32_t line, uint32_t col, uint32_t ord, uint32_t nsets,
			const char *lfile, uint32_t lline, uint32_t lcol)
{
	sbuf b = {0};
	sf(&b, "sync deadlock: wait_flag[<%s>, <%s>, <EVENT_ID%d>] blocks %s forever: it waits for "
	       "the %u%s set_flag of the flag and the kernel issues %u\n",
	   pn(src), pn(dst), event, pn(dst), (unsigned)ord, ordinal(ord), (unsigned)nsets);
	if (lfile) {
		loc(&b, lfile, lline, lcol);
		sf(&b, ": note: the last set_flag of the flag\n");
	}
	add(run, CLS_DEADLOCK, "noset", file, line, col, lfile, lline, lcol, &b);
}

void san_deadlock_cycle(san_run *run, unsigned src, unsigned dst, int event, const char *file,
			uint32_t line, uint32_t col, const char *sfile, uint32_t sline,
			uint32_t scol, unsigned bpipe, int bwait, unsigned bsrc, unsigned bdst,
			int bevent, const char *bfile, uint32_t bline, uint32_t bcol)
{
	sbuf b = {0};
	sf(&b, "sync deadlock: wait_flag[<%s>, <%s>, <EVENT_ID%d>] blocks %s forever: its set_flag "
	       "never runs\n",
	   pn(src), pn(dst), event, pn(dst));
	loc(&b, sfile, sline, scol);
	sf(&b, ": note: the set_flag it waits for, issued to %s%s\n", pn(src),
	   bwait || bpipe != src ? ", which is blocked" : "");
	if (bwait && bfile) {
		loc(&b, bfile, bline, bcol);
		sf(&b, ": note: %s is blocked here, at wait_flag[<%s>, <%s>, <EVENT_ID%d>]\n",
		   bpipe < PTORT_PIPE_COUNT ? pn(bpipe) : "the scalar unit", pn(bsrc), pn(bdst),
		   bevent);
	}
	add(run, CLS_DEADLOCK, "cycle", file, line, col, sfile, sline, scol, &b);
}

void san_oom(san_run *run)
{
	sbuf b = {0};
	sf(&b, "sync check incomplete: out of memory for the trace\n");
	add(run, CLS_OOM, "oom", NULL, 0, 0, NULL, 0, 0, &b);
}

ptort_sync_findings *ptort_sync_findings_create(void)
{
	ptort_sync_findings *f = calloc(1, sizeof *f);
#if SAN_THREADS
	if (f && pthread_mutex_init(&f->mu, NULL)) {
		free(f);
		return NULL;
	}
#endif
	return f;
}

void ptort_sync_findings_destroy(ptort_sync_findings *f)
{
	size_t i;
	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		free(f->f[i].text);
	free(f->f);
#if SAN_THREADS
	pthread_mutex_destroy(&f->mu);
#endif
	free(f);
}

unsigned san_run_finish(san_run *run, ptort_sync_findings *f)
{
	size_t i, j;
	unsigned n = (unsigned)run->n + (unsigned)run->oom;
	if (f) {
#if SAN_THREADS
		pthread_mutex_lock(&f->mu);
#endif
		f->oom |= run->oom;
		for (i = 0; i < run->n; i++) {
			san_find *x = &run->f[i];
			for (j = 0; j < f->n; j++)
				if (same_key(&f->f[j], x))
					break;
			if (j < f->n) {
				san_find *y = &f->f[j];
				y->count += x->count;
				if (x->block < y->block) { /* the words of the lowest block */
					free(y->text);
					y->text = x->text, y->block = x->block, y->seq = x->seq;
					x->text = NULL;
				}
				continue;
			}
			if (f->n == f->cap &&
			    ptort_grow(&f->f, &f->cap, 16, sizeof *f->f, (size_t)-1)) {
				f->oom = 1;
				continue;
			}
			f->f[f->n++] = *x;
			x->text = NULL;
		}
#if SAN_THREADS
		pthread_mutex_unlock(&f->mu);
#endif
	}
	for (i = 0; i < run->n; i++)
		free(run->f[i].text);
	free(run->f);
	run->f = NULL;
	run->n = run->cap = 0;
	return n;
}

unsigned ptort_sync_findings_count(const ptort_sync_findings *f)
{
	return f ? (unsigned)f->n + (unsigned)f->oom : 0;
}

static int cmp_loc(const char *fa, uint32_t la, uint32_t ca, const char *fb, uint32_t lb,
		   uint32_t cb)
{
	int c = strcmp(fa ? fa : "", fb ? fb : "");
	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	return ca < cb ? -1 : ca > cb;
}

static int cmp_find(const void *a, const void *b)
{
	const san_find *x = a, *y = b;
	int c;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	c = cmp_loc(x->fa, x->la, x->ca, y->fa, y->la, y->ca);
	if (!c)
		c = cmp_loc(x->fb, x->lb, x->cb, y->fb, y->lb, y->cb);
	if (!c)
		c = strcmp(x->kind, y->kind);
	return c;
}

/* [lo, hi) of an on-chip memory; of GM: "[a, b) of NAME" (offsets in the buffer of a
 * kernel argument) when a buffer holds it, else the host addresses */
static void range(const ptort_sync_findings *f, sbuf *b, const san_find *x)
{
	unsigned k;
	if (x->gm)
		for (k = 0; k < f->nbuf; k++) {
			uint64_t p = (uint64_t)(uintptr_t)f->base[k];
			if (f->base[k] && x->lo >= p && x->lo - p < f->bytes[k]) {
				sf(b, "[%llu, %llu) of '%s'", (unsigned long long)(x->lo - p),
				   (unsigned long long)(x->hi - p), f->name[k]);
				return;
			}
		}
	sf(b, "[0x%llx, 0x%llx)%s", (unsigned long long)x->lo, (unsigned long long)x->hi,
	   x->gm ? " (host addresses)" : "");
}

void ptort_sync_findings_gm(ptort_sync_findings *f, unsigned n, const void *const base[],
			    const uint64_t bytes[], const char *const name[])
{
	if (!f)
		return;
	f->nbuf = n, f->base = base, f->bytes = bytes, f->name = name;
}

void ptort_sync_findings_write(const ptort_sync_findings *f,
			       void (*fn)(void *user, const char *s, size_t n), void *user)
{
	san_find *v;
	size_t i;
	if (!f || !fn)
		return;
	if (f->oom) {
		static const char m[] = "error: sync check incomplete: out of memory\n";
		fn(user, m, sizeof m - 1);
	}
	if (!f->n)
		return;
	v = malloc(f->n * sizeof *v);
	if (!v)
		return;
	memcpy(v, f->f, f->n * sizeof *v);
	qsort(v, f->n, sizeof *v, cmp_find);
	for (i = 0; i < f->n; i++) {
		sbuf b = {0};
		const char *t = v[i].text ? v[i].text : "sync finding\n";
		const char *nl = strchr(t, '\n');
		if (!nl)
			nl = t + strlen(t);
		if (v[i].cls != CLS_OOM) {
			loc(&b, v[i].fa, v[i].la, v[i].ca);
			sf(&b, ": ");
		}
		sf(&b, "error: ");
		for (; *t && t < nl; t++) {
			if (*t != '\001') {
				sf(&b, "%c", *t);
				continue;
			}
			range(f, &b, &v[i]);
		}
		sf(&b, " (%llu instance%s)\n%s", (unsigned long long)v[i].count,
		   v[i].count == 1 ? "" : "s", nl ? nl + 1 : "");
		if (b.p)
			fn(user, b.p, b.n);
		free(b.p);
	}
	free(v);
}
