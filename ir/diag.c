/* diag.c: diagnostics. ir_emit formats a message and passes it to the context's
 * handler, counting errors and capping how many reach the handler; sources registered
 * with ir_add_source let ptoc_context_render_diag show the line and a caret. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

#define SHOW_MAX 160 /* longest source excerpt shown under a diagnostic */

static ir_source *source_slot(ir_ctx *ctx, const char *name)
{
	ir_source *s;
	for (s = ctx->sources; s; s = s->next)
		if (s->name == name)
			break;
	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s)
			return NULL;
		s->next = ctx->sources;
		ctx->sources = s;
		s->name = name;
	}
	free(s->owned);
	free(s->lines);
	s->owned = NULL;
	s->buf = "";
	s->len = 0;
	s->lines = NULL;
	s->nlines = 0;
	return s;
}

const char *ir_add_source(ir_ctx *ctx, const char *filename, const char *buf, size_t len)
{
	const char *name = ir_intern(ctx, filename, strlen(filename));
	ir_source *s = source_slot(ctx, name);
	if (!s || !(s->owned = malloc(len + 1)))
		return name;
	if (len)
		memcpy(s->owned, buf, len);
	s->owned[len] = 0;
	s->buf = s->owned;
	s->len = len;
	return name;
}

const char *ir_add_source_borrowed(ir_ctx *ctx, const char *filename, const char *buf,
				   size_t len)
{
	const char *name = ir_intern(ctx, filename, strlen(filename));
	ir_source *s = source_slot(ctx, name);
	if (s && buf) {
		s->buf = buf;
		s->len = len;
	}
	return name;
}

void ir_diag_free(ir_ctx *ctx)
{
	ir_source *s, *n;
	for (s = ctx->sources; s; s = n) {
		n = s->next;
		free(s->owned);
		free(s->lines);
		free(s);
	}
	ctx->sources = NULL;
}

void ir_diag_reset_limit(ir_ctx *ctx)
{
	ctx->shown = 0;
	ctx->dropping = 0;
}

static void deliver(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *msg, size_t len)
{
	if (ctx->diag_fn)
		ctx->diag_fn(ctx->diag_user, sev, loc, msg, len);
}

void ir_emitv_prefixed(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *prefix,
		       const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	ir_emit(ctx, sev, loc, "%s%s", prefix, msg);
}

void ir_emitv(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *fmt, va_list ap)
{
	char small[512], *msg = small;
	int n;
	va_list ap2;
	if (sev == PTOC_ERROR)
		ctx->errors++;
	if (ctx->dropping) /* past the cap: errors and their notes are dropped */
		return;
	if (sev == PTOC_ERROR && ctx->error_limit && ctx->shown >= ctx->error_limit) {
		ir_loc none = {NULL, 0, 0};
		static const char stop[] = "too many errors emitted, stopping now";
		ctx->dropping = 1;
		deliver(ctx, PTOC_ERROR, none, stop, sizeof stop - 1);
		return;
	}
	if (sev == PTOC_ERROR)
		ctx->shown++;
	if (!ctx->diag_fn)
		return;
	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n >= sizeof small) {
		msg = malloc((size_t)n + 1);
		if (msg)
			vsnprintf(msg, (size_t)n + 1, fmt, ap2);
		else /* out of memory: the message truncated rather than lost */
			msg = small, n = (int)sizeof small - 1;
	}
	va_end(ap2);
	deliver(ctx, sev, loc, msg, (size_t)n);
	if (msg != small)
		free(msg);
}

void ir_emit(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ir_emitv(ctx, sev, loc, fmt, ap);
	va_end(ap);
}

/* ---- rendering ------------------------------------------------------------ */

static const char *const sev_names[] = {"error", "warning", "note", "remark"};

static ir_source *find_source(ir_ctx *ctx, const char *file)
{
	ir_source *s;
	for (s = ctx->sources; s; s = s->next)
		if (s->name == file || !strcmp(s->name, file))
			return s;
	return NULL;
}

static int index_lines(ir_source *s)
{
	size_t i, n = 1, k = 0;
	const char *p;
	if (s->lines)
		return 0;
	for (p = s->buf; (p = memchr(p, '\n', (size_t)(s->buf + s->len - p))); p++)
		n++;
	s->lines = malloc(n * sizeof *s->lines);
	if (!s->lines)
		return -1;
	s->lines[k++] = 0;
	for (i = 0; i < s->len; i++)
		if (s->buf[i] == '\n')
			s->lines[k++] = i + 1;
	s->nlines = k;
	return 0;
}

/* 1 when the registered source text at `loc` starts with `word` (how an op there was
 * spelled, for a message that names an op by its older spelling); 0 otherwise, also
 * when the source is not registered. */
int ir_loc_spells(ir_ctx *ctx, ir_loc loc, const char *word)
{
	ir_source *s = loc.file ? find_source(ctx, loc.file) : NULL;
	size_t at, n = strlen(word);
	if (!s || !loc.line || !loc.col || index_lines(s) || loc.line > s->nlines)
		return 0;
	at = s->lines[loc.line - 1] + loc.col - 1;
	return at <= s->len && s->len - at >= n && !memcmp(s->buf + at, word, n);
}

/* The source line of `loc` and a caret under its column. Long lines are shown as a
 * window around the column; control bytes and non-ASCII bytes are shown as '?' so
 * the caret stays aligned (one column per byte, tabs kept). */
static void render_excerpt(ptoc_buf *b, ir_source *s, ir_loc loc)
{
	size_t start, end, col, from, to, i;
	char c;
	if (loc.line == 0 || index_lines(s) || loc.line > s->nlines)
		return;
	start = s->lines[loc.line - 1];
	end = loc.line < s->nlines ? s->lines[loc.line] - 1 : s->len;
	if (end > start && s->buf[end - 1] == '\r')
		end--;
	col = loc.col ? loc.col - 1 : 0;
	if (col > end - start)
		col = end - start;
	from = start;
	to = end;
	if (to - from > SHOW_MAX) {
		from = start + (col > SHOW_MAX / 2 ? col - SHOW_MAX / 2 : 0);
		to = from + SHOW_MAX < end ? from + SHOW_MAX : end;
	}
	for (i = from; i < to; i++) {
		c = s->buf[i];
		if (c == '\t' || (c >= 0x20 && c < 0x7f))
			ptoc_buf_write(b, &c, 1);
		else
			ptoc_buf_write(b, "?", 1);
	}
	ptoc_buf_write(b, "\n", 1);
	if (!loc.col)
		return;
	for (i = from; i < start + col; i++)
		ptoc_buf_write(b, s->buf[i] == '\t' ? "\t" : " ", 1);
	ptoc_buf_write(b, "^\n", 2);
}

int ptoc_context_render_diag(ptoc_context *ctx, ptoc_severity sev, ptoc_location loc,
			     const char *msg, size_t len, ptoc_write_fn out, void *user)
{
	ptoc_buf b = {0};
	char num[64];
	ir_source *s = NULL;
	int rc;
	if (loc.file) {
		ptoc_buf_puts(&b, loc.file);
		if (loc.line) {
			snprintf(num, sizeof num, ":%u:%u", (unsigned)loc.line, (unsigned)loc.col);
			ptoc_buf_puts(&b, num);
		}
		ptoc_buf_puts(&b, ": ");
		s = find_source(ctx, loc.file);
	} else {
		ptoc_buf_puts(&b, "ptoc: ");
	}
	ptoc_buf_puts(&b, sev_names[(unsigned)sev < 4 ? sev : 0]);
	ptoc_buf_puts(&b, ": ");
	ptoc_buf_write(&b, msg, len);
	ptoc_buf_write(&b, "\n", 1);
	if (s)
		render_excerpt(&b, s, loc);
	if (b.oom || !b.data) {
		ptoc_buf_free(&b);
		return -1;
	}
	rc = out(user, b.data, b.len);
	ptoc_buf_free(&b);
	return rc;
}
