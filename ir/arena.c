/* arena.c: the context's memory (a bump allocator over malloc'd chunks), the generic
 * hash set used for uniquing, and string interning.
 *
 * Nothing allocated here is freed before the context: ptoc_context_destroy releases
 * all chunks at once. Running out of memory here is fatal (ir_xcalloc), the first of
 * the two rules of docs/architecture.md "Allocation failure". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

struct ir_chunk {
	ir_chunk *next;
	size_t size;
	/* the data follows, 16-byte aligned */
};

#define CHUNK_HDR (((sizeof(ir_chunk) + 15) / 16) * 16)
#define CHUNK_MIN ((size_t)64 << 10)
#define CHUNK_MAX ((size_t)4 << 20)

void ir_out_of_memory(void)
{
	fputs("ptoc: out of memory\n", stderr);
	abort();
}

void *ir_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		ir_out_of_memory();
	return p;
}

void *ir_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		ir_out_of_memory();
	return p;
}

static void *chunk_new(ir_ctx *ctx, size_t data)
{
	ir_chunk *c = ir_xcalloc(1, CHUNK_HDR + data);
	c->size = data;
	c->next = ctx->chunks;
	ctx->chunks = c;
	ctx->bytes += CHUNK_HDR + data;
	return (char *)c + CHUNK_HDR;
}

void *ir_alloc(ir_ctx *ctx, size_t size)
{
	size_t want = (size + 15) & ~(size_t)15, grow;
	char *p;
	if (size == 0)
		want = 16;
	if ((size_t)(ctx->end - ctx->cur) >= want) {
		p = ctx->cur;
		ctx->cur += want;
		return p;
	}
	/* Chunks grow with the arena (1/8 of what it holds) between the two bounds. */
	grow = ctx->bytes / 8;
	grow = grow < CHUNK_MIN ? CHUNK_MIN : grow > CHUNK_MAX ? CHUNK_MAX : grow;
	if (want > grow / 4)
		return chunk_new(ctx, want); /* big: its own chunk, keep the current one */
	p = chunk_new(ctx, grow);
	ctx->cur = p + want;
	ctx->end = p + grow;
	return p;
}

char *ir_strndup(ir_ctx *ctx, const char *s, size_t len)
{
	char *p = ir_alloc(ctx, len + 1);
	if (len)
		memcpy(p, s, len);
	p[len] = 0;
	return p;
}

void *ir_memdup(ir_ctx *ctx, const void *p, size_t n, size_t size)
{
	void *d = ir_alloc(ctx, (n + 1) * size);
	if (n)
		memcpy(d, p, n * size);
	return d;
}

void ir_arena_free(ir_ctx *ctx)
{
	ir_chunk *c = ctx->chunks, *n;
	for (; c; c = n) {
		n = c->next;
		free(c);
	}
	ctx->chunks = NULL;
	ctx->cur = ctx->end = NULL;
	ir_hset_free(&ctx->strings);
	ir_hset_free(&ctx->types);
	ir_hset_free(&ctx->attrs);
}

/* ---- hashing ---------------------------------------------------------- */

uint64_t ir_hash_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdu;
	return h ^ (h >> 32);
}

uint64_t ir_hash_bytes(const void *p, size_t len, uint64_t h)
{
	const unsigned char *s = p;
	size_t i = 0;
	uint64_t w;
	h ^= 0xcbf29ce484222325u ^ len;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3u;
		h ^= h >> 29;
	}
	w = 0;
	if (i < len)
		memcpy(&w, s + i, len - i);
	h = (h ^ w) * 0x100000001b3u;
	return ir_hash_mix(h, len);
}

/* ---- the hash set ------------------------------------------------------ */

void *ir_hset_find(const ir_hset *s, uint64_t hash, int (*eq)(const void *, const void *),
		   const void *key)
{
	size_t i, mask;
	if (!s->cap)
		return NULL;
	mask = s->cap - 1;
	for (i = hash & mask; s->slots[i].p; i = (i + 1) & mask)
		if (s->slots[i].hash == hash && eq(s->slots[i].p, key))
			return s->slots[i].p;
	return NULL;
}

static void put(ir_hslot *slots, size_t cap, uint64_t hash, void *p)
{
	size_t i, mask = cap - 1;
	for (i = hash & mask; slots[i].p; i = (i + 1) & mask)
		;
	slots[i].hash = hash;
	slots[i].p = p;
}

void ir_hset_insert(ir_hset *s, uint64_t hash, void *p)
{
	size_t i;
	if ((s->n + 1) * 4 > s->cap * 3) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		ir_hslot *slots = ir_xcalloc(cap, sizeof *slots);
		for (i = 0; i < s->cap; i++)
			if (s->slots[i].p)
				put(slots, cap, s->slots[i].hash, s->slots[i].p);
		free(s->slots);
		s->slots = slots;
		s->cap = cap;
	}
	put(s->slots, s->cap, hash, p);
	s->n++;
}

void ir_hset_free(ir_hset *s)
{
	free(s->slots);
	s->slots = NULL;
	s->cap = s->n = 0;
}

/* ---- interning --------------------------------------------------------- */

typedef struct ir_istr {
	int tag;     /* opcode cache for op names, -1 until looked up */
	size_t len;
	char s[];
} ir_istr;

typedef struct { const char *s; size_t len; } skey;

static int istr_eq(const void *elem, const void *key)
{
	const ir_istr *e = elem;
	const skey *k = key;
	return e->len == k->len && !memcmp(e->s, k->s, k->len);
}

const char *ir_intern(ir_ctx *ctx, const char *s, size_t len)
{
	skey k;
	uint64_t h = ir_hash_bytes(s, len, 0);
	ir_istr *e;
	k.s = s;
	k.len = len;
	e = ir_hset_find(&ctx->strings, h, istr_eq, &k);
	if (e)
		return e->s;
	e = ir_alloc(ctx, sizeof *e + len + 1);
	e->tag = -1;
	e->len = len;
	if (len)
		memcpy(e->s, s, len);
	e->s[len] = 0;
	ir_hset_insert(&ctx->strings, h, e);
	return e->s;
}

int *ir_intern_tag(const char *interned)
{
	return &((ir_istr *)(void *)(interned - offsetof(ir_istr, s)))->tag;
}
