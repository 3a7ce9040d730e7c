/* mlir_util.h: what the MLIR bridge's tests share (header-only, as check.h): text
 * written by ptoc and by MLIR into a ptoc_buf, diagnostics as "file:line:col: msg"
 * lines, whole files, and the PTOAS corpus as a sorted list of paths. */
#ifndef PTOC_TEST_MLIR_UTIL_H
#define PTOC_TEST_MLIR_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Support.h"
#include "ptoc/ptoc.h"

/* An MlirStringCallback appending to the ptoc_buf `user`. */
static inline void mu_mput(MlirStringRef s, void *user)
{
	ptoc_buf_write(user, s.data, s.length);
}

/* The text of `b` ("" before anything was written). */
static inline const char *mu_str(const ptoc_buf *b)
{
	return b->data ? b->data : "";
}

/* Appends "file:line:col: msg\n" to `b`. */
static inline void mu_diag_line(ptoc_buf *b, ptoc_location loc, const char *msg, size_t len)
{
	char h[600];
	snprintf(h, sizeof h, "%s:%u:%u: ", loc.file ? loc.file : "?", (unsigned)loc.line,
		 (unsigned)loc.col);
	ptoc_buf_puts(b, h);
	ptoc_buf_write(b, msg, len);
	ptoc_buf_write(b, "\n", 1);
}

/* Appends "LOC: msg\n" (MLIR's printed location) of an MLIR diagnostic to `b`. */
static inline void mu_mlir_diag_line(ptoc_buf *b, MlirDiagnostic d)
{
	mlirLocationPrint(mlirDiagnosticGetLocation(d), mu_mput, b);
	ptoc_buf_write(b, ": ", 2);
	mlirDiagnosticPrint(d, mu_mput, b);
	ptoc_buf_write(b, "\n", 1);
}

/* The whole file, NUL-terminated (its length in *len); NULL when it cannot be read. */
static inline char *mu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s) {
		s[n] = 0;
		*len = (size_t)n;
	}
	return s;
}

/* ---- a tree of .pto files ------------------------------------------------------------ */

typedef struct mu_files {
	char **path;        /* full paths, sorted */
	unsigned n;
	const char **skip;  /* paths relative to the root that are left out */
	unsigned nskip;
	char *skip_text;    /* the pending file's text the skip list points into */
} mu_files;

static inline void mu_skip(mu_files *f, const char *rel)
{
	f->skip = realloc(f->skip, sizeof *f->skip * (f->nskip + 1));
	if (!f->skip)
		abort();
	f->skip[f->nskip++] = rel;
}

/* Leaves out the files listed in `pending_path` (one relative path a line, '#'
 * comments: test/lit/Inputs/corpus-pending.txt), or in several lists joined by ':'
 * (corpus-mixed.txt and corpus-rejected.txt, whose lines add targets or a message after
 * the path: a line's first word is the path). 0, or -1 when a list cannot be read. */
static inline int mu_skip_listed(mu_files *f, const char *pending_path)
{
	size_t len = 0;
	char *all = NULL, names[4096], *name, *next, *line;
	snprintf(names, sizeof names, "%s", pending_path);
	for (name = names; name; name = next) {
		size_t n;
		char *text, *grown;
		if ((next = strchr(name, ':')))
			*next++ = 0;
		if (!(text = mu_slurp(name, &n))) {
			free(all);
			return -1;
		}
		if (!(grown = (char *)realloc(all, len + n + 2))) {
			free(text);
			free(all);
			return -1;
		}
		all = grown;
		memcpy(all + len, text, n);
		all[len + n] = '\n';
		all[len += n + 1] = 0;
		free(text);
	}
	f->skip_text = all;
	for (line = strtok(f->skip_text, "\n"); line; line = strtok(NULL, "\n"))
		if (line[0] != '#') {
			line[strcspn(line, " ")] = 0;
			mu_skip(f, line);
		}
	return 0;
}

static inline int mu_cmpstr_(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void mu_walk_(mu_files *f, const char *root, const char *rel)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		char r[4096], full[8192];
		struct stat st;
		size_t k = strlen(e->d_name);
		unsigned i;
		if (e->d_name[0] == '.')
			continue;
		snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", root, r);
		if (stat(full, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			mu_walk_(f, root, r);
			continue;
		}
		/* thistogram_emitc.pto, issue487_tsel_i8_parser_arch_scope.pto: A5 ops without
		 * pto.target_arch, and the bridge verifies for the default target (a2a3) */
		if (k <= 4 || strcmp(e->d_name + k - 4, ".pto") || strstr(e->d_name, "invalid") ||
		    !strcmp(e->d_name, "thistogram_emitc.pto") ||
		    !strcmp(e->d_name, "issue487_tsel_i8_parser_arch_scope.pto"))
			continue;
		for (i = 0; i < f->nskip && strcmp(f->skip[i], r); i++)
			;
		if (i < f->nskip)
			continue;
		f->path = realloc(f->path, sizeof *f->path * (f->n + 1));
		if (!f->path || !(f->path[f->n] = malloc(strlen(full) + 1)))
			abort();
		strcpy(f->path[f->n++], full);
	}
	closedir(d);
}

/* Every *.pto under `root` but the *invalid* ones and the skipped ones, sorted. */
static inline void mu_walk(mu_files *f, const char *root)
{
	mu_walk_(f, root, "");
	if (f->n)
		qsort(f->path, f->n, sizeof *f->path, mu_cmpstr_);
}

/* The PTOAS corpus at `root` minus the files listed in `pending_path`: 0; 1 when
 * `root` is not a directory, 2 when the list cannot be read (the caller SKIPs). */
static inline int mu_corpus(mu_files *f, const char *root, const char *pending_path)
{
	struct stat st;
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		return 1;
	if (mu_skip_listed(f, pending_path))
		return 2;
	mu_walk(f, root);
	return 0;
}

static inline void mu_files_free(mu_files *f)
{
	unsigned i;
	for (i = 0; i < f->n; i++)
		free(f->path[i]);
	free(f->path);
	free(f->skip);
	free(f->skip_text);
	memset(f, 0, sizeof *f);
}

#endif
