/* tiles.c: the facts about tile buffers of tiles.h (sizes, the memory table row of
 * a location, the constants an address can be), which place-tiles, the lowering and
 * the sync passes read. */
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

static int consts_at(const ir_value *v, int64_t *out, unsigned *n, unsigned max, unsigned depth)
{
	const ir_op *d = v ? v->def : NULL;
	int64_t c;
	unsigned k;
	if (!d || depth > 12)
		return -1;
	if (ir_value_const_int(v, &c)) {
		for (k = 0; k < *n; k++)
			if (out[k] == c)
				return 0;
		if (*n == max)
			return -1;
		out[(*n)++] = c;
		return 0;
	}
	switch (d->code) {
	case IR_OP_INDEX_CAST: case IR_OP_INDEX_CASTUI: case IR_OP_EXTSI: case IR_OP_EXTUI:
		return consts_at(d->operands[0].value, out, n, max, depth + 1);
	case IR_OP_SELECT:
		if (consts_at(d->operands[1].value, out, n, max, depth + 1))
			return -1;
		return consts_at(d->operands[2].value, out, n, max, depth + 1);
	case IR_OP_SCF_IF:
		for (k = 0; k < d->num_regions; k++) {
			const ir_op *y = d->regions[k].first ? d->regions[k].first->last : NULL;
			if (!y || y->code != IR_OP_SCF_YIELD || v->index >= y->num_operands)
				return -1;
			if (consts_at(y->operands[v->index].value, out, n, max, depth + 1))
				return -1;
		}
		return d->num_regions == 2 ? 0 : -1;
	default:
		return -1;
	}
}

int tile_addr_consts(const ir_value *v, int64_t *out, unsigned *n, unsigned max)
{
	return consts_at(v, out, n, max, 0);
}
