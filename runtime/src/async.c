/* async.c: the async GM session ops (docs/semantics.md §8.10, ptort.h 3.8). The
 * transfer is a GM-to-GM copy done when the op is issued; its event then reads as
 * complete, so a Wait or Test that follows returns true. */
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

/* The element offset of linear element `k` of view `v`'s partition (row-major over
 * its sizes), or -1 outside the buffer. */
static int64_t elem_at(const ptort_view *v, uint64_t k)
{
	int64_t o = 0;
	unsigned d;
	for (d = v->rank; d-- > 0;) {
		uint64_t i = v->size[d] ? k % (uint64_t)v->size[d] : 0;
		k = v->size[d] ? k / (uint64_t)v->size[d] : 0;
		o += (v->off[d] + (int64_t)i) * v->stride[d];
	}
	return o < 0 || (v->elems && (uint64_t)o >= v->elems) ? -1 : o;
}

static uint64_t count(const ptort_view *v)
{
	uint64_t n = 1;
	unsigned d;
	for (d = 0; d < v->rank; d++)
		n *= (uint64_t)v->size[d];
	return n;
}

int64_t ptort_gm_copy(ptort_ctx *ctx, const ptort_view *dst, const ptort_view *src,
		      ptort_type type)
{
	unsigned bits = ptort_type_bits(type);
	uint64_t n, k;
	if (bits < 8 || bits % 8 || !dst->rank || !src->rank) {
		ptort_report(ctx, "async copy: views of whole bytes and rank 1 to %d", PTORT_GM_RANK);
		return 0;
	}
	n = count(src);
	if (count(dst) != n) {
		ptort_report(ctx, "async copy: %llu elements into %llu", (unsigned long long)n,
			     (unsigned long long)count(dst));
		return 0;
	}
	for (k = 0; k < n; k++)
		if (elem_at(src, k) < 0 || elem_at(dst, k) < 0) {
			ptort_report(ctx, "async copy: element %llu lies outside its GM buffer",
				     (unsigned long long)k);
			return 0;
		}
	for (k = 0; k < n; k++) {
		const uint8_t *s = (const uint8_t *)src->gm + (uint64_t)elem_at(src, k) * (bits / 8);
		uint8_t *d = (uint8_t *)dst->gm + (uint64_t)elem_at(dst, k) * (bits / 8);
		memmove(d, s, bits / 8);
		ptort_gm_note(ctx, s, bits / 8, 0);
		ptort_gm_note(ctx, d, bits / 8, 1);
	}
	return 1;
}
