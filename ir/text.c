/* text.c: ptoc_buf, the one in-memory text buffer (include/ptoc/ptoc.h): growing
 * (malloc'd, reports running out of memory) or fixed (a caller's array, truncating
 * and counting like snprintf). Every module that collects text uses it. And
 * ir_str_cat, the one concatenation of two names. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

void ptoc_buf_fixed(ptoc_buf *b, char *array, size_t cap)
{
	b->data = array;
	b->len = 0;
	b->cap = cap;
	b->fixed = 1;
	b->oom = 0;
	if (cap)
		array[0] = 0;
}

int ptoc_buf_reserve(ptoc_buf *b, size_t n)
{
	size_t cap;
	char *p;
	if (b->fixed || b->len + n < b->cap)
		return 0;
	if (b->oom || n > (size_t)-1 / 2 - b->len)
		goto fail;
	cap = b->cap ? b->cap : 256;
	while (cap <= b->len + n)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p)
		goto fail;
	b->data = p;
	b->cap = cap;
	return 0;
fail:
	b->oom = 1;
	return -1;
}

int ptoc_buf_write(void *user, const char *data, size_t len)
{
	ptoc_buf *b = user;
	if (b->fixed) {
		size_t room = b->cap && b->len < b->cap - 1 ? b->cap - 1 - b->len : 0;
		size_t keep = len < room ? len : room;
		if (keep)
			memcpy(b->data + b->len, data, keep);
		if (b->cap)
			b->data[b->len + keep < b->cap ? b->len + keep : b->cap - 1] = 0;
		b->len += len;
		return 0;
	}
	if (b->oom || ptoc_buf_reserve(b, len))
		return -1;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = 0;
	return 0;
}

int ptoc_buf_puts(ptoc_buf *b, const char *s)
{
	return ptoc_buf_write(b, s, strlen(s));
}

void ptoc_buf_free(ptoc_buf *b)
{
	if (b->fixed) {
		ptoc_buf_fixed(b, b->data, b->cap);
		return;
	}
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

char *ir_str_cat(char *buf, size_t cap, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	if (na > cap - 1)
		na = cap - 1;
	if (nb > cap - 1 - na)
		nb = cap - 1 - na;
	memcpy(buf, a, na);
	memcpy(buf + na, b, nb);
	buf[na + nb] = 0;
	return buf;
}
