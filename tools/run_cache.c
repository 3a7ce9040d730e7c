/* run_cache.c: the cache of programs `ptoc run` has built.
 *
 * A built program depends on the kernel's C, the harness's C, the runtime it links
 * (header contents, library identity), and the compiler with its words. The cache key
 * is a 128-bit hash of all of these, so that an entry is only ever reused for a build
 * that would have produced the same program. Entries are files named by the key's hex
 * digits in one directory:
 *
 *   --cache-dir DIR, else $PTOC_CACHE_DIR, else $XDG_CACHE_HOME/ptoc, else
 *   $HOME/.cache/ptoc (no cache when none of these is set).
 *
 * Concurrency: an entry is written to a temporary name in the directory and renamed
 * into place (atomic on one file system), so a reader sees no entry or a whole one. A
 * reader takes a hard link of the entry into its own temporary directory before it
 * runs it, so that an eviction by another process never removes a program under a
 * run. Any failure of the cache (a directory that cannot be made, a full disk, a lost
 * race) makes the run build as without a cache: the cache never fails a run.
 *
 * Size: after each store the entries' sizes are added up; past the bound
 * ($PTOC_CACHE_MAX_MB, default 512 MiB) the least recently used entries (by
 * modification time, which a hit refreshes) are removed until the total is under
 * three quarters of it. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "ptoc/ptoc.h"
#include "tools.h"

#define KEY_HEX 32
#define DEFAULT_MAX_MB 512

/* Two 64-bit lanes of a multiply-xorshift hash over a stream of bytes (not
 * cryptographic: the inputs are ours, not an adversary's). */
struct hasher {
	uint64_t a, b;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static void hash_bytes(struct hasher *h, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t w;
	size_t i;
	/* the length first, so that concatenations of different splits differ */
	h->a = mix(h->a ^ (uint64_t)len) * 0x9e3779b97f4a7c15ull;
	h->b = mix(h->b + (uint64_t)len) ^ 0x632be59bd9b4e019ull;
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h->a = (h->a ^ mix(w)) * 0x9e3779b97f4a7c15ull;
		h->b = (h->b + mix(w ^ 0x2545f4914f6cdd1dull)) * 0xbf58476d1ce4e5b9ull;
		h->a ^= h->a >> 29;
		h->b ^= h->b >> 31;
	}
	w = 0;
	memcpy(&w, p + i, len - i);
	h->a = mix(h->a ^ w ^ 0x5851f42d4c957f2dull);
	h->b = mix(h->b + w + 0x14057b7ef767814full);
}

static void hash_str(struct hasher *h, const char *s)
{
	hash_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

/* A file's identity: its path, device, inode, size and modification time (for the
 * runtime library, whose rebuild changes them; hashing its 30 MB would cost more
 * than the cache saves on small kernels). */
static void hash_identity(struct hasher *h, const char *path)
{
	struct stat sb;
	uint64_t v[5] = {0};
	hash_str(h, path);
	if (path && stat(path, &sb) == 0) {
		v[0] = (uint64_t)sb.st_dev;
		v[1] = (uint64_t)sb.st_ino;
		v[2] = (uint64_t)sb.st_size;
		v[3] = (uint64_t)sb.st_mtim.tv_sec;
		v[4] = (uint64_t)sb.st_mtim.tv_nsec;
	}
	hash_bytes(h, v, sizeof v);
}

/* A file's contents (the runtime header); its identity when it cannot be read. */
static void hash_contents(struct hasher *h, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;
	if (!f) {
		hash_identity(h, path);
		return;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		hash_bytes(h, buf, n);
	fclose(f);
}

/* The path the shell would run for `name` (searched in PATH unless it has a '/'),
 * or NULL. */
static char *which(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;
	char *full;
	if (strchr(name, '/'))
		return strdup(name);
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		size_t n;
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		n = (size_t)(e - p);
		full = malloc(n + strlen(name) + 2);
		if (!full)
			return NULL;
		memcpy(full, n ? p : ".", n ? n : 1);
		sprintf(full + (n ? n : 1), "/%s", name);
		if (access(full, X_OK) == 0)
			return full;
		free(full);
	}
	return NULL;
}

int run_cache_open(struct run_cache *c, const char *dir, int disabled)
{
	const char *env;
	char *d = NULL, *p;
	memset(c, 0, sizeof *c);
	if (disabled)
		return 0;
	if (dir && *dir) {
		d = strdup(dir);
	} else if ((env = getenv("PTOC_CACHE_DIR")) && *env) {
		d = strdup(env);
	} else if ((env = getenv("XDG_CACHE_HOME")) && *env) {
		d = malloc(strlen(env) + 6);
		if (d)
			sprintf(d, "%s/ptoc", env);
	} else if ((env = getenv("HOME")) && *env) {
		d = malloc(strlen(env) + 13);
		if (d)
			sprintf(d, "%s/.cache/ptoc", env);
	}
	if (!d)
		return 0;
	/* mkdir -p */
	for (p = d + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(d, 0777);
			*p = '/';
		}
	if (mkdir(d, 0777) && errno != EEXIST) {
		free(d);
		return 0;
	}
	c->dir = d;
	if ((env = getenv("PTOC_CACHE_MAX_MB")) && *env) {
		char *end;
		unsigned long long mb = strtoull(env, &end, 10);
		if (*end == 0 && mb > 0)
			c->max_bytes = mb << 20;
	}
	if (!c->max_bytes)
		c->max_bytes = (unsigned long long)DEFAULT_MAX_MB << 20;
	return 0;
}

void run_cache_key(struct run_cache *c, const ptoc_buf *kernel, const ptoc_buf *harness,
		   char *const *ccargv, int nccargv, const char *inc, const char *lib)
{
	struct hasher h = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull};
	static const char hex[] = "0123456789abcdef";
	char *hdr, *cc;
	int i;
	uint64_t lanes[2];
	if (!c->dir)
		return;
	hash_str(&h, "ptoc run cache 1");
	hash_bytes(&h, kernel->data, kernel->len);
	hash_bytes(&h, harness->data, harness->len);
	for (i = 0; i < nccargv; i++)
		hash_str(&h, ccargv[i]);
	cc = which(ccargv[0]);
	hash_identity(&h, cc); /* an upgraded compiler is another compiler */
	free(cc);
	hdr = malloc(strlen(inc) + 9);
	if (hdr) {
		sprintf(hdr, "%s/ptort.h", inc);
		hash_contents(&h, hdr);
		free(hdr);
	}
	hash_identity(&h, lib);
	lanes[0] = h.a;
	lanes[1] = h.b;
	for (i = 0; i < 16; i++) {
		unsigned v = (unsigned)(lanes[i / 8] >> (8 * (i % 8))) & 0xff;
		c->key[2 * i] = hex[v >> 4];
		c->key[2 * i + 1] = hex[v & 15];
	}
	c->key[KEY_HEX] = 0;
	free(c->entry);
	c->entry = malloc(strlen(c->dir) + KEY_HEX + 2);
	if (c->entry)
		sprintf(c->entry, "%s/%s", c->dir, c->key);
}

/* Copies the file `src` to the open descriptor `out`; 0 or -1. */
static int copy_to(const char *src, int out)
{
	char buf[65536];
	ssize_t r;
	int in = open(src, O_RDONLY), ok = in >= 0;
	while (ok && (r = read(in, buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ok = 0;
			break;
		}
		if (write(out, buf, (size_t)r) != r)
			ok = 0;
	}
	if (in >= 0)
		close(in);
	if (fchmod(out, 0755))
		ok = 0;
	return ok ? 0 : -1;
}

int run_cache_fetch(struct run_cache *c, const char *prog)
{
	int out;
	if (!c->entry)
		return -1;
	if (link(c->entry, prog)) {
		/* another file system (EXDEV) or no hard links: a copy */
		if (errno == ENOENT)
			return -1;
		out = open(prog, O_WRONLY | O_CREAT | O_EXCL, 0755);
		if (out < 0)
			return -1;
		if (copy_to(c->entry, out)) {
			close(out);
			unlink(prog);
			return -1;
		}
		if (close(out)) {
			unlink(prog);
			return -1;
		}
	}
	/* a hit refreshes the entry's age for the eviction */
	utimensat(AT_FDCWD, c->entry, NULL, 0);
	c->hit = 1;
	return 0;
}

struct entry_age {
	char *path;
	time_t mtime;
	long mtime_ns;
	unsigned long long size;
};

static int older_first(const void *x, const void *y)
{
	const struct entry_age *a = x, *b = y;
	if (a->mtime != b->mtime)
		return a->mtime < b->mtime ? -1 : 1;
	if (a->mtime_ns != b->mtime_ns)
		return a->mtime_ns < b->mtime_ns ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Removes the least recently used entries while the total is over the bound. */
static void evict(struct run_cache *c)
{
	DIR *d = opendir(c->dir);
	struct dirent *de;
	struct entry_age *v = NULL;
	size_t n = 0, cap = 0, i;
	unsigned long long total = 0;
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat sb;
		char *p;
		if (strlen(de->d_name) != KEY_HEX)
			continue; /* temporaries and foreign files are left alone */
		p = malloc(strlen(c->dir) + KEY_HEX + 2);
		if (!p)
			break;
		sprintf(p, "%s/%s", c->dir, de->d_name);
		if (stat(p, &sb) || !S_ISREG(sb.st_mode)) {
			free(p);
			continue;
		}
		if (n == cap) {
			struct entry_age *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
			if (!nv) {
				free(p);
				break;
			}
			v = nv;
		}
		v[n].path = p;
		v[n].mtime = sb.st_mtim.tv_sec;
		v[n].mtime_ns = sb.st_mtim.tv_nsec;
		v[n].size = (unsigned long long)sb.st_size;
		total += v[n].size;
		n++;
	}
	closedir(d);
	if (total > c->max_bytes) {
		qsort(v, n, sizeof *v, older_first);
		for (i = 0; i < n && total > c->max_bytes / 4 * 3; i++)
			if (unlink(v[i].path) == 0)
				total -= v[i].size;
	}
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void run_cache_store(struct run_cache *c, const char *prog)
{
	char *tmp;
	int out, ok;
	if (!c->entry || c->hit)
		return;
	tmp = malloc(strlen(c->dir) + 32);
	if (!tmp)
		return;
	sprintf(tmp, "%s/.tmp-XXXXXX", c->dir);
	out = mkstemp(tmp);
	if (out < 0) {
		free(tmp);
		return;
	}
	ok = copy_to(prog, out) == 0;
	if (close(out))
		ok = 0;
	if (!ok || rename(tmp, c->entry))
		unlink(tmp);
	free(tmp);
	evict(c);
}

void run_cache_close(struct run_cache *c)
{
	free(c->dir);
	free(c->entry);
	memset(c, 0, sizeof *c);
}
