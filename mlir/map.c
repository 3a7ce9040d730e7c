/* map.c: the bridge's pointer map and the MLIR printers' callback (bridge.h).
 * Requires: nothing but libc. */
#include <stdlib.h>
#include <string.h>

#include "mlir/bridge.h"

static size_t slot_of(const void *key, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)key;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (size_t)h & (cap - 1);
}

void *br_map_get(const br_map *m, const void *key)
{
	size_t i;
	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int grow(br_map *m)
{
	br_map g;
	size_t i;
	g.cap = m->cap ? m->cap * 2 : 64;
	g.n = 0;
	g.keys = calloc(g.cap, sizeof *g.keys);
	g.vals = calloc(g.cap, sizeof *g.vals);
	if (!g.keys || !g.vals) {
		free(g.keys);
		free(g.vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->keys[i])
			br_map_put(&g, m->keys[i], m->vals[i]);
	br_map_free(m);
	*m = g;
	return 0;
}

int br_map_put(br_map *m, const void *key, void *val)
{
	size_t i;
	if ((m->n + 1) * 4 > m->cap * 3 && grow(m))
		return -1;
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return 0;
}

void br_map_free(br_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

void br_buf_mlir(MlirStringRef s, void *user)
{
	ptoc_buf_write(user, s.data, s.length);
}
