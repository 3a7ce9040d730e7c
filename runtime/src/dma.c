/* dma.c: DMA between GM (host memory, through GM views) and the on-chip memories:
 * ptort_dma_load (tload) and ptort_dma_store (tstore, with the optional f32 -> f16/bf16
 * conversion and ReLU of accumulator stores). Element (r, c) of the 2-D partition
 * moves to or from the tile's element (r, c) inside the tile's valid region, through
 * ptort_tile_offset; ND row-major tiles are copied row by row. SEMANTICS.md §6.2. */
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

/* GM element index of partition element (0, 0) and the index range touched by the
 * vr x vc region; -1 (reported) when the view is unusable. */
struct gmspan {
	int64_t base, s3, s4;
};

/* a * b + *acc without overflow (|result| < 2^62), else -1 */
static int addmul(int64_t *acc, int64_t a, int64_t b)
{
	const int64_t lim = (int64_t)1 << 62;
	int64_t ma = a < 0 ? -a : a, mb = b < 0 ? -b : b;
	if (a <= -lim || b <= -lim || (ma && mb > lim / ma))
		return -1;
	if ((*acc > 0 && a * b > lim - *acc) || (*acc < 0 && a * b < -lim - *acc))
		return -1;
	*acc += a * b;
	return 0;
}

static int view_check(ptort_ctx *ctx, const char *op, const ptort_gm_view *v, const void *gm,
		      const ptort_tile *t, int convert_to, struct gmspan *sp)
{
	int64_t lo, hi;
	unsigned d;
	if (!v || !gm) {
		ptort_report(ctx, "%s: no GM %s", op, v ? "pointer" : "view");
		return -1;
	}
	if (v->type >= PTORT_TYPE_COUNT) {
		ptort_report(ctx, "%s: GM view has unknown element type %u", op, v->type);
		return -1;
	}
	if (v->size[0] != 1 || v->size[1] != 1 || v->size[2] != 1) {
		ptort_report(ctx, "%s: partition sizes %ux%ux%u of the outer dims must be 1", op,
			     v->size[0], v->size[1], v->size[2]);
		return -1;
	}
	for (d = 0; d < PTORT_GM_RANK; d++) {
		if ((uint64_t)v->offset[d] + v->size[d] > v->shape[d]) {
			ptort_report(ctx,
				     "%s: partition [%u, %llu) of dim %u leaves the tensor view "
				     "(size %u)",
				     op, v->offset[d], (unsigned long long)v->offset[d] + v->size[d],
				     d, v->shape[d]);
			return -1;
		}
	}
	if (t->v_rows > v->size[3] || t->v_cols > v->size[4]) {
		ptort_report(ctx, "%s: tile valid region %ux%u exceeds the partition %ux%u", op,
			     t->v_rows, t->v_cols, v->size[3], v->size[4]);
		return -1;
	}
	if (convert_to == PTORT_NO_CVT) {
		if (ptort_type_bits((ptort_type)v->type) != ptort_type_bits((ptort_type)t->type)) {
			ptort_report(ctx, "%s: GM type %s and tile type %s differ in width", op,
				     ptort_type_name((ptort_type)v->type),
				     ptort_type_name((ptort_type)t->type));
			return -1;
		}
	} else if (convert_to < 0 || convert_to >= PTORT_TYPE_COUNT || convert_to != v->type ||
		   ptort_cvt_check((ptort_type)t->type, (ptort_type)convert_to, PTORT_RINT)) {
		ptort_report(ctx, "%s: cannot convert %s tile to %s GM view", op,
			     ptort_type_name((ptort_type)t->type),
			     convert_to >= 0 && convert_to < PTORT_TYPE_COUNT
				     ? ptort_type_name((ptort_type)convert_to)
				     : "?");
		return -1;
	}
	sp->base = 0;
	for (d = 0; d < PTORT_GM_RANK; d++)
		if (addmul(&sp->base, v->offset[d], v->stride[d]))
			goto overflow;
	sp->s3 = v->stride[3], sp->s4 = v->stride[4];
	lo = hi = sp->base;
	if (addmul(sp->s3 < 0 ? &lo : &hi, (int64_t)t->v_rows - 1, sp->s3) ||
	    addmul(sp->s4 < 0 ? &lo : &hi, (int64_t)t->v_cols - 1, sp->s4))
		goto overflow;
	if (lo < 0 || (v->gm_elems && (uint64_t)hi >= v->gm_elems)) {
		ptort_report(ctx, "%s: GM elements [%lld, %lld] outside the buffer of %llu", op,
			     (long long)lo, (long long)hi, (unsigned long long)v->gm_elems);
		return -1;
	}
	return 0;
overflow:
	ptort_report(ctx, "%s: GM view offsets/strides overflow", op);
	return -1;
}

static int is_nd(const ptort_tile *t)
{
	return t->blayout == 0 && t->slayout == 0;
}

/* An ND tile whose valid rows are whole rows, from GM rows just as long. */
static int whole_rows(const ptort_tile *t, const struct gmspan *sp)
{
	return t->v_cols == t->cols && sp->s4 == 1 && sp->s3 == (int64_t)t->cols;
}

int ptort_dma_load(ptort_ctx *ctx, const void *gm, const ptort_gm_view *view,
		   const ptort_tile *dst)
{
	const char *op = "dma_load";
	struct gmspan sp;
	unsigned bits;
	uint32_t r, c;
	uint8_t *m;
	const uint8_t *g = gm;
	if (ptort_check_tile(ctx, op, "destination", dst) ||
	    view_check(ctx, op, view, gm, dst, PTORT_NO_CVT, &sp))
		return -1;
	bits = ptort_type_bits((ptort_type)dst->type);
	m = ctx->mem[dst->mem];
	if (is_nd(dst) && sp.s4 == 1 && bits >= 8) {
		size_t rb = (size_t)dst->cols * (bits / 8);
		if (whole_rows(dst, &sp)) /* one contiguous block on both sides */
			memcpy(m + dst->addr, g + sp.base * (bits / 8), rb * dst->v_rows);
		else
			for (r = 0; r < dst->v_rows; r++)
				memcpy(m + dst->addr + r * rb,
				       g + (sp.base + r * sp.s3) * (bits / 8),
				       (size_t)dst->v_cols * (bits / 8));
		return 0;
	}
	for (r = 0; r < dst->v_rows; r++)
		for (c = 0; c < dst->v_cols; c++) {
			uint64_t gi = (uint64_t)(sp.base + r * sp.s3 + c * sp.s4);
			uint64_t ti = ptort_tile_offset(dst, r, c);
			ptort_st(m, (uint64_t)dst->addr * 8 + ti * bits, bits,
				 ptort_ld(g, gi * bits, bits));
		}
	return 0;
}

int ptort_dma_store(ptort_ctx *ctx, void *gm, const ptort_gm_view *view, const ptort_tile *src,
		    int convert_to, int relu)
{
	const char *op = "dma_store";
	struct gmspan sp;
	unsigned sb, db;
	ptort_type st, dt;
	uint32_t r, c;
	const uint8_t *m;
	uint8_t *g = gm;
	if (ptort_check_tile(ctx, op, "source", src) ||
	    view_check(ctx, op, view, gm, src, convert_to, &sp))
		return -1;
	st = (ptort_type)src->type;
	dt = convert_to == PTORT_NO_CVT ? st : (ptort_type)convert_to;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt);
	m = ctx->mem[src->mem];
	if (is_nd(src) && sp.s4 == 1 && sb >= 8 && db >= 8 && !relu) {
		size_t rb = (size_t)src->cols * (sb / 8), n = src->v_cols, rows = src->v_rows;
		if (whole_rows(src, &sp)) /* one contiguous block on both sides */
			n *= rows, rows = 1;
		for (r = 0; r < rows; r++) {
			const uint8_t *s = m + src->addr + r * rb;
			uint8_t *d = g + (sp.base + r * sp.s3) * (db / 8);
			if (convert_to == PTORT_NO_CVT)
				memcpy(d, s, n * (sb / 8));
			else
				ptort_conv_n(st, dt, s, d, n, PTORT_RINT, PTORT_SAT_ON);
		}
		return 0;
	}
	for (r = 0; r < src->v_rows; r++)
		for (c = 0; c < src->v_cols; c++) {
			uint64_t gi = (uint64_t)(sp.base + r * sp.s3 + c * sp.s4);
			uint64_t ti = ptort_tile_offset(src, r, c);
			uint64_t x = ptort_ld(m, (uint64_t)src->addr * 8 + ti * sb, sb);
			if (relu)
				x = ptort_relu1(st, x);
			if (convert_to != PTORT_NO_CVT)
				x = ptort_cvt1(st, dt, x, PTORT_RINT, PTORT_SAT_ON);
			ptort_st(g, gi * db, db, x);
		}
	return 0;
}
