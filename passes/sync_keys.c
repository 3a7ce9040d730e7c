/* sync_keys.c: the op -> order key map of insert-sync (insert_sync.c): keys increase
 * along each block, so that two ops of one block compare without walking it. */
#include <stdlib.h>

#include "passes/insert_sync.h"

int sync_keys_put(sync_keys *m, const ir_op *op, uint64_t v)
{
	size_t i;
	if ((m->n + 1) * 2 > m->mask + 1) {
		size_t cap = m->mask ? (m->mask + 1) * 2 : 1024, j;
		const ir_op **k = calloc(cap, sizeof *k);
		uint64_t *vv = calloc(cap, sizeof *vv);
		if (!k || !vv) {
			free(k);
			free(vv);
			return -1;
		}
		for (j = 0; m->mask && j <= m->mask; j++)
			if (m->k[j]) {
				for (i = ir_hash_ptr(m->k[j]) & (cap - 1); k[i]; i = (i + 1) & (cap - 1))
					;
				k[i] = m->k[j];
				vv[i] = m->v[j];
			}
		free(m->k);
		free(m->v);
		m->k = k;
		m->v = vv;
		m->mask = cap - 1;
	}
	for (i = ir_hash_ptr(op) & m->mask; m->k[i] && m->k[i] != op; i = (i + 1) & m->mask)
		;
	if (!m->k[i])
		m->n++;
	m->k[i] = op;
	m->v[i] = v;
	return 0;
}

int sync_keys_get(const sync_keys *m, const ir_op *op, uint64_t *v)
{
	size_t i;
	if (!m->mask)
		return 0;
	for (i = ir_hash_ptr(op) & m->mask; m->k[i]; i = (i + 1) & m->mask)
		if (m->k[i] == op) {
			*v = m->v[i];
			return 1;
		}
	return 0;
}

void sync_keys_free(sync_keys *m)
{
	free(m->k);
	free(m->v);
	m->k = NULL;
	m->v = NULL;
	m->mask = m->n = 0;
}
