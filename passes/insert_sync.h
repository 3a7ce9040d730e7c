/* insert_sync.h: what the insert-sync pass (insert_sync.c) shares with its footprint
 * code (sync_fp.c). */
#ifndef PTOC_PASSES_INSERT_SYNC_H
#define PTOC_PASSES_INSERT_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "passes/pass.h"

/* A byte range one op reads or writes: space is an ir_mem (an on-chip memory),
 * SYNC_SPACE_GM + i (the i-th pointer argument met) or SYNC_SPACE_GM_ANY (GM of
 * unknown origin: overlaps every GM space); [lo, hi). */
enum { SYNC_SPACE_GM_ANY = 64, SYNC_SPACE_GM = 65, SYNC_MAX_ROOTS = 256 };
typedef struct sync_fp {
	int space;
	unsigned char w; /* written (or read and written) */
	uint64_t lo, hi;
} sync_fp;

typedef struct sync_fps {
	sync_fp *a;
	size_t n, cap;
	const ir_value *roots[SYNC_MAX_ROOTS];
	size_t nroots;
} sync_fps;

/* Appends the footprint of `op` to f (from *first on). 0, 1 when a tile operand has
 * no placed memory (level 1), -1 out of memory. */
int sync_op_footprint(sync_fps *f, const ir_op *op, const struct target *t, size_t *first);
/* Whether two footprints overlap with at least one of the two written. */
int sync_fp_conflict(const sync_fp *a, size_t na, const sync_fp *b, size_t nb);

/* An op -> order key map (open addressing; sync_keys.c); zero-initialised is empty. */
typedef struct sync_keys {
	const ir_op **k;
	uint64_t *v;
	size_t mask, n;
} sync_keys;
/* Sets the key of op; -1 out of memory. */
int sync_keys_put(sync_keys *m, const ir_op *op, uint64_t v);
/* The key of op in *v: 1, or 0 when it has none. */
int sync_keys_get(const sync_keys *m, const ir_op *op, uint64_t *v);
void sync_keys_free(sync_keys *m);

#endif
