/* view.c: GM views as C values (ptort.h section 3.6). Generated code carries each
 * make_tensor_view / partition_view as a ptort_view and, for a DMA, turns it into the
 * right-aligned 5-D ptort_gm_view the DMA executors take (dma.c checks it). */
#include <string.h>

#include "ptort.h"

ptort_view ptort_view_tensor(void *gm, uint64_t elems, unsigned rank, const int64_t shape[],
			     const int64_t stride[])
{
	ptort_view v;
	unsigned d;
	memset(&v, 0, sizeof v);
	v.gm = gm;
	v.elems = elems;
	if (rank < 1 || rank > PTORT_GM_RANK || !shape || !stride)
		return v; /* rank 0: ptort_gm_view_init makes a view every DMA reports */
	v.rank = rank;
	for (d = 0; d < rank; d++) {
		v.shape[d] = v.size[d] = shape[d];
		v.stride[d] = stride[d];
	}
	return v;
}

ptort_view ptort_view_part(const ptort_view *src, const int64_t off[], const int64_t size[])
{
	ptort_view v = *src;
	unsigned d;
	for (d = 0; d < v.rank; d++) {
		v.off[d] = (int64_t)((uint64_t)v.off[d] + (uint64_t)off[d]);
		v.size[d] = size[d];
	}
	return v;
}

static int in_u32(int64_t x)
{
	return x >= 0 && x <= 0xffffffffLL;
}

void ptort_gm_view_init(ptort_gm_view *g, ptort_type type, const ptort_view *v)
{
	unsigned d, k;
	int bad = v->rank < 1 || v->rank > PTORT_GM_RANK;
	memset(g, 0, sizeof *g);
	g->type = (uint8_t)type;
	g->gm_elems = v->elems;
	for (d = 0; d < PTORT_GM_RANK; d++)
		g->shape[d] = g->size[d] = 1;
	for (d = 0; !bad && d < v->rank; d++) {
		k = PTORT_GM_RANK - v->rank + d;
		if (!in_u32(v->shape[d]) || !in_u32(v->off[d]) || !in_u32(v->size[d]))
			bad = 1;
		g->shape[k] = (uint32_t)v->shape[d];
		g->stride[k] = v->stride[d];
		g->offset[k] = (uint32_t)v->off[d];
		g->size[k] = (uint32_t)v->size[d];
	}
	if (bad)
		g->size[PTORT_GM_RANK - 1] = 0;
}
