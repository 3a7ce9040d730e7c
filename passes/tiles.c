/* tiles.c: the facts about tile buffers of tiles.h (sizes, the memory table row of
 * a location), which place-tiles, the lowering and the sync passes read. */
#include "passes/tiles.h"
#include "target/target.h"

uint64_t tile_buf_bytes(const ir_type *t)
{
	ptort_type e;
	uint64_t r, c, bits;
	if (!t || t->kind != IR_TYPE_TILE_BUF || t->u.tb.rows <= 0 || t->u.tb.cols <= 0 ||
	    ir_type_to_elem(t->u.tb.elem, &e))
		return 0;
	r = (uint64_t)t->u.tb.rows;
	c = (uint64_t)t->u.tb.cols;
	bits = ptort_type_bits(e);
	if (r > ((uint64_t)1 << 28) || c > ((uint64_t)1 << 28))
		return 0; /* r * c * bits stays below 2^62 */
	return (r * c * bits + 7) / 8;
}

const ptoc_mem_info *tile_mem_info(const struct target *t, ir_mem m)
{
	if (m <= IR_MEM_NONE || m >= IR_MEM_COUNT)
		return NULL;
	return &t->mem[m - IR_MEM_VEC];
}
