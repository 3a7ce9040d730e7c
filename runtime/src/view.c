/* view.c: GM views as C values (ptort.h section 3.6). Generated code carries each
 * make_tensor_view / partition_view as a ptort_view and, for a DMA, turns it into the
 * right-aligned 5-D ptort_gm_view the DMA executors take (dma.c checks it). */
#include <string.h>

#include "mem_internal.h"
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
	g->rank = bad ? 0 : (uint8_t)v->rank;
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

/* ---- pointers and scalars (ptort.h 3.7, docs/semantics.md §8.6) ---- */

void *ptort_addptr(ptort_ctx *ctx, void *p, uint64_t elems, int64_t off, ptort_type type,
		   uint64_t *out_elems)
{
	unsigned bits = ptort_type_bits(type);
	*out_elems = elems;
	if (!bits || off < 0 || (elems && (uint64_t)off > elems) || (uint64_t)off * bits % 8) {
		ptort_report(ctx, "addptr: offset %lld outside the %llu elements of %s the pointer "
			     "holds", (long long)off, (unsigned long long)elems,
			     bits ? ptort_type_name(type) : "?");
		return p;
	}
	if (elems)
		*out_elems = elems - (uint64_t)off;
	return (uint8_t *)p + (uint64_t)off * bits / 8;
}

static int scalar_check(ptort_ctx *ctx, const char *name, const void *p, uint64_t elems,
			int64_t off, ptort_type type)
{
	if (!p || !ptort_type_bits(type) || off < 0 || (elems && (uint64_t)off >= elems)) {
		ptort_report(ctx, "%s: element %lld outside the %llu elements the pointer holds",
			     name, (long long)off, (unsigned long long)elems);
		return -1;
	}
	return 0;
}

uint64_t ptort_load_scalar(ptort_ctx *ctx, const void *p, uint64_t elems, int64_t off,
			   ptort_type type)
{
	unsigned bits = ptort_type_bits(type);
	uint64_t x;
	if (scalar_check(ctx, "load_scalar", p, elems, off, type))
		return 0;
	x = ptort_ld(p, (uint64_t)off * bits, bits);
	ptort_gm_note(ctx, (const uint8_t *)p + (uint64_t)off * bits / 8, bits < 8 ? 1 : bits / 8, 0);
	if (ptort_type_is_signed_int(type) && bits < 64 && (x >> (bits - 1) & 1))
		x |= ~(uint64_t)0 << bits;
	return x;
}

int ptort_store_scalar(ptort_ctx *ctx, void *p, uint64_t elems, int64_t off, ptort_type type,
		       uint64_t v)
{
	unsigned bits = ptort_type_bits(type);
	if (scalar_check(ctx, "store_scalar", p, elems, off, type))
		return -1;
	if (bits < 64)
		v &= ((uint64_t)1 << bits) - 1;
	ptort_st(p, (uint64_t)off * bits, bits, v);
	ptort_gm_note(ctx, (uint8_t *)p + (uint64_t)off * bits / 8, bits < 8 ? 1 : bits / 8, 1);
	return 0;
}

int64_t ptort_view_dim(ptort_ctx *ctx, const ptort_view *v, int64_t dim)
{
	if (dim < 0 || dim >= (int64_t)v->rank) {
		ptort_report(ctx, "get_tensor_view_dim: dim %lld of a rank-%u view", (long long)dim,
			     v->rank);
		return 0;
	}
	return v->shape[dim];
}
