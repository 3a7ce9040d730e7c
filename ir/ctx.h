/* ctx.h: the definition of the context (struct ptoc_context), internal to ir/.
 *
 * The context owns an arena of chunks (everything the IR allocates lives there), the
 * hash sets that intern strings and unique types and attributes, the registered source
 * buffers and the diagnostic sink. Included by ir.h; only ir/ touches the fields. */
#ifndef PTOC_IR_CTX_H
#define PTOC_IR_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "ptoc/ptoc.h"

/* An open-addressing hash set of pointers with their hashes (arena.c). */
typedef struct ir_hslot {
	uint64_t hash;
	void *p;
} ir_hslot;
typedef struct ir_hset {
	ir_hslot *slots;
	size_t cap, n; /* cap is 0 or a power of two */
} ir_hset;

typedef struct ir_chunk ir_chunk;

/* A registered source buffer (diag.c). */
typedef struct ir_source {
	const char *name;      /* interned */
	const char *buf;       /* the text (owned copy unless borrowed) */
	char *owned;           /* malloc'd copy, or NULL when borrowed */
	size_t len;
	size_t *lines;         /* offsets of line starts, built on first use */
	size_t nlines;
	struct ir_source *next;
} ir_source;

struct ptoc_context {
	/* arena.c */
	ir_chunk *chunks;
	char *cur, *end;
	size_t bytes;          /* total bytes obtained from malloc for chunks */
	ir_hset strings;       /* interned strings (struct ir_istr) */
	/* type.c, attr.c */
	ir_hset types, attrs;
	const void *t_none, *t_index;
	const void *empty_dict;
	/* diag.c */
	ir_source *sources;
	ptoc_diag_handler diag_fn;
	void *diag_user;
	unsigned errors;       /* every error reported */
	unsigned shown;        /* errors passed to the handler since the last reset */
	unsigned error_limit;  /* 0: no limit */
	int dropping;          /* the cap was reached: drop until the next reset */
	/* verify.c */
	unsigned scope_seq;    /* visibility scopes handed out so far */
};

/* Internal helpers of arena.c used by type.c/attr.c/op.c. */
uint64_t ir_hash_bytes(const void *p, size_t len, uint64_t h);
uint64_t ir_hash_mix(uint64_t h, uint64_t v);
/* A hash of a pointer, for the tables keyed by one (interned names, ops): the
 * passes', the printer's and the parser's. */
static inline size_t ir_hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}
/* Finds an element equal to `key` (eq returns non-zero when equal) or returns NULL. */
void *ir_hset_find(const ir_hset *s, uint64_t hash, int (*eq)(const void *elem, const void *key),
		   const void *key);
/* Inserts p (not already present); out of memory is fatal (ir_xcalloc). */
void ir_hset_insert(ir_hset *s, uint64_t hash, void *p);
void ir_hset_free(ir_hset *s);
void ir_arena_free(struct ptoc_context *ctx);
/* The cached opcode of an interned op name (-1 when not yet looked up). */
int *ir_intern_tag(const char *interned);

/* diag.c: restart the error cap (the driver calls it between split chunks). */
void ir_diag_reset_limit(struct ptoc_context *ctx);
void ir_diag_free(struct ptoc_context *ctx);

#endif
