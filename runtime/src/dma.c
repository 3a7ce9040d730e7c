/* dma.c: DMA between GM (host memory, through GM views) and the on-chip memories:
 * ptort_dma_load (tload) and ptort_dma_store (tstore, with the optional f32 -> f16/bf16
 * conversion and ReLU of accumulator stores). Element (r, c) of the partition moves
 * to or from the tile's element (r, c) inside the tile's valid region, through
 * ptort_tile_offset. A partition whose outer dims (0-2) are larger than 1 flattens
 * into tile rows for a row-major tile (r runs over dims 0-3, dim 3 fastest; c is dim
 * 4) and into tile columns for a col-major one (r is dim 3; c runs over dims 0-2 and
 * 4, dim 4 fastest), as pto-isa's TLOAD/TSTORE map ND and DN tensors; boxed (fractal)
 * tiles take 2-D partitions only. ND (DN) tiles are copied row (column) at a time when
 * GM rows (columns) are contiguous too. docs/semantics.md §6.2. ptort_dma_load_cvt:
 * tload and a whole-tile vconv_v as one step, GM converted straight into the
 * destination. */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

/* GM element index of partition element (0, 0), the strides of dims 3 and 4, and how
 * tile lines (rows of a row-major tile, columns of a col-major one) split over the
 * partition's dims: line i is partition element (i0, i1, i2, i3) (row-major) or
 * (i0, i1, i2, i4) (col-major), the last index fastest. */
struct gmspan {
	int64_t base, s3, s4;
	int64_t os[3];    /* strides of dims 0-2 */
	uint32_t n[3];    /* partition sizes of dims 0-2 */
	uint32_t inner;   /* partition size of the line's own dim: 3 (row-major), 4 (col-major) */
	int64_t istride;  /* its stride */
	int flat;         /* outer dims larger than 1 */
};

/* GM element index of the first element of tile line i (row i of a row-major tile,
 * column i of a col-major one). */
static int64_t line_start(const struct gmspan *sp, uint32_t i)
{
	int64_t g = sp->base;
	uint32_t q;
	int d;
	if (!sp->flat)
		return g + (int64_t)i * sp->istride;
	g += (int64_t)(i % sp->inner) * sp->istride;
	q = i / sp->inner;
	for (d = 2; d >= 0; d--) {
		g += (int64_t)(q % sp->n[d]) * sp->os[d];
		q /= sp->n[d];
	}
	return g;
}

/* GM element index of tile element (r, c). */
static int64_t gm_index(const ptort_tile *t, const struct gmspan *sp, uint32_t r, uint32_t c)
{
	if (t->blayout == 0)
		return line_start(sp, r) + (int64_t)c * sp->s4;
	return line_start(sp, c) + (int64_t)r * sp->s3;
}

/* The highest index + 1 that dim d of the partition reaches for the first `lines` lines
 * (flattened: d in 0-2 or the line's own dim). */
static uint64_t reach(const struct gmspan *sp, int d, uint32_t lines)
{
	uint64_t below = sp->inner;
	int k;
	if (d == 3)
		return lines < sp->inner ? lines : sp->inner;
	for (k = 2; k > d; k--)
		below *= sp->n[k];
	if (!below)
		return 0;
	below = (lines + below - 1) / below;
	return below < sp->n[d] ? below : sp->n[d];
}

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

#define FIX_CVT (-2) /* view_check: any tile type, the view's type the destination's */

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
	sp->flat = v->size[0] != 1 || v->size[1] != 1 || v->size[2] != 1;
	if (sp->flat && t->slayout) {
		ptort_report(ctx,
			     "%s: partition sizes %ux%ux%u of the outer dims must be 1 for a "
			     "boxed (fractal) tile",
			     op, v->size[0], v->size[1], v->size[2]);
		return -1;
	}
	for (d = 0; d < PTORT_GM_RANK; d++) {
		if ((uint64_t)v->offset[d] + v->size[d] > v->shape[d]) {
			/* the dim as the view counts it: its own rank, right-aligned */
			unsigned rank = v->rank && v->rank <= PTORT_GM_RANK ? v->rank : PTORT_GM_RANK;
			unsigned vd = d + rank >= PTORT_GM_RANK ? d + rank - PTORT_GM_RANK : d;
			ptort_report(ctx,
				     "%s: partition [%u, %llu) of dim %u leaves the %u-D tensor view "
				     "(size %u)",
				     op, v->offset[d], (unsigned long long)v->offset[d] + v->size[d],
				     vd, rank, v->shape[d]);
			return -1;
		}
	}
	{
		/* the partition as a 2-D region: outer dims flatten into rows (row-major
		 * tiles) or columns (col-major) */
		uint64_t outer = (uint64_t)v->size[0] * v->size[1] * v->size[2];
		uint64_t pr = t->blayout == 0 ? outer * v->size[3] : v->size[3];
		uint64_t pc = t->blayout == 0 ? v->size[4] : outer * v->size[4];
		if (t->v_rows > pr || t->v_cols > pc) {
			ptort_report(ctx, "%s: tile valid region %ux%u exceeds the partition %llux%llu",
				     op, t->v_rows, t->v_cols, (unsigned long long)pr,
				     (unsigned long long)pc);
			return -1;
		}
	}
	if (convert_to == FIX_CVT) {
		/* the caller checks the pair (ptort_dma_store_q_now) */
	} else if (convert_to == PTORT_NO_CVT) {
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
	for (d = 0; d < 3; d++)
		sp->os[d] = v->stride[d], sp->n[d] = v->size[d];
	sp->inner = t->blayout == 0 ? v->size[3] : v->size[4];
	sp->istride = t->blayout == 0 ? sp->s3 : sp->s4;
	lo = hi = sp->base;
	if (sp->flat) {
		/* the box the valid region's lines reach in each dim (the offsets/strides
		 * above already fit: the partition lies inside the view) */
		uint32_t lines = t->blayout == 0 ? t->v_rows : t->v_cols;
		uint32_t across = t->blayout == 0 ? t->v_cols : t->v_rows;
		int64_t astride = t->blayout == 0 ? sp->s4 : sp->s3;
		for (d = 0; d < 3; d++)
			if (addmul(sp->os[d] < 0 ? &lo : &hi, (int64_t)reach(sp, (int)d, lines) - 1,
				   sp->os[d]))
				goto overflow;
		if (addmul(sp->istride < 0 ? &lo : &hi, (int64_t)reach(sp, 3, lines) - 1, sp->istride) ||
		    addmul(astride < 0 ? &lo : &hi, (int64_t)across - 1, astride))
			goto overflow;
	} else if (addmul(sp->s3 < 0 ? &lo : &hi, (int64_t)t->v_rows - 1, sp->s3) ||
		   addmul(sp->s4 < 0 ? &lo : &hi, (int64_t)t->v_cols - 1, sp->s4)) {
		goto overflow;
	}
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

/* The region as lines contiguous in both the tile and GM: ND tiles from GM rows
 * (stride[4] = 1), DN tiles from GM columns (stride[3] = 1). Line i starts at tile
 * element i * tpitch and GM element line_start(i) (base + i * gstep unless the outer
 * dims flatten). Whole lines back to back on both sides merge into one. 0 when the
 * region is not made of such lines. */
struct lines {
	uint32_t n;
	size_t len, tpitch;
	int64_t gstep;
};

static int find_lines(const ptort_tile *t, const struct gmspan *sp, struct lines *l)
{
	if (t->slayout)
		return 0;
	if (t->blayout == 0 && sp->s4 == 1)
		l->n = t->v_rows, l->len = t->v_cols, l->tpitch = t->cols, l->gstep = sp->s3;
	else if (t->blayout == 1 && sp->s3 == 1)
		l->n = t->v_cols, l->len = t->v_rows, l->tpitch = t->rows, l->gstep = sp->s4;
	else
		return 0;
	if (l->len == l->tpitch && l->gstep == (int64_t)l->len && !sp->flat)
		l->len *= l->n, l->n = 1;
	return 1;
}

int ptort_dma_load_now(ptort_ctx *ctx, const void *gm, const ptort_gm_view *view,
		   const ptort_tile *dst)
{
	const char *op = "dma_load";
	struct gmspan sp;
	struct lines ln;
	unsigned bits;
	uint32_t r, c, i;
	uint8_t *m;
	const uint8_t *g = gm;
	if (ptort_check_tile(ctx, op, "destination", dst) ||
	    view_check(ctx, op, view, gm, dst, PTORT_NO_CVT, &sp))
		return -1;
	bits = ptort_type_bits((ptort_type)dst->type);
	m = ctx->mem[dst->mem];
	if (bits >= 8 && find_lines(dst, &sp, &ln)) {
		size_t eb = bits / 8;
		for (i = 0; i < ln.n; i++) {
			const uint8_t *s = g + line_start(&sp, i) * eb;
			memcpy(m + dst->addr + i * ln.tpitch * eb, s, ln.len * eb);
			ptort_gm_note(ctx, s, ln.len * eb, 0);
		}
		return 0;
	}
	for (r = 0; r < dst->v_rows; r++)
		for (c = 0; c < dst->v_cols; c++) {
			uint64_t gi = (uint64_t)gm_index(dst, &sp, r, c);
			uint64_t ti = ptort_tile_offset(dst, r, c);
			ptort_st(m, (uint64_t)dst->addr * 8 + ti * bits, bits,
				 ptort_ld(g, gi * bits, bits));
			ptort_gm_note(ctx, g + gi * bits / 8, bits < 8 ? 1 : bits / 8, 0);
		}
	return 0;
}

int ptort_dma_store_now(ptort_ctx *ctx, void *gm, const ptort_gm_view *view, const ptort_tile *src,
		    int convert_to, int relu)
{
	const char *op = "dma_store";
	struct gmspan sp;
	struct lines ln;
	unsigned sb, db;
	ptort_type st, dt;
	uint32_t r, c, i;
	const uint8_t *m;
	uint8_t *g = gm;
	if (ptort_check_tile(ctx, op, "source", src) ||
	    view_check(ctx, op, view, gm, src, convert_to, &sp))
		return -1;
	st = (ptort_type)src->type;
	dt = convert_to == PTORT_NO_CVT ? st : (ptort_type)convert_to;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt);
	m = ctx->mem[src->mem];
	if (sb >= 8 && db >= 8 && !relu && find_lines(src, &sp, &ln)) {
		for (i = 0; i < ln.n; i++) {
			const uint8_t *s = m + src->addr + i * ln.tpitch * (sb / 8);
			uint8_t *d = g + line_start(&sp, i) * (db / 8);
			if (convert_to == PTORT_NO_CVT)
				memcpy(d, s, ln.len * (sb / 8));
			else
				ptort_conv_n(st, dt, s, d, ln.len, PTORT_RINT, PTORT_SAT_ON);
			ptort_gm_note(ctx, d, ln.len * (db / 8), 1);
		}
		return 0;
	}
	for (r = 0; r < src->v_rows; r++)
		for (c = 0; c < src->v_cols; c++) {
			uint64_t gi = (uint64_t)gm_index(src, &sp, r, c);
			uint64_t ti = ptort_tile_offset(src, r, c);
			uint64_t x = ptort_ld(m, (uint64_t)src->addr * 8 + ti * sb, sb);
			if (relu)
				x = ptort_relu1(st, x);
			if (convert_to != PTORT_NO_CVT)
				x = ptort_cvt1(st, dt, x, PTORT_RINT, PTORT_SAT_ON);
			ptort_st(g, gi * db, db, x);
			ptort_gm_note(ctx, g + gi * db / 8, db < 8 ? 1 : db / 8, 1);
		}
	return 0;
}

/* tstore through the fixpipe (ptort.h 3.5k): each element through ptort_fixq1, added
 * into GM with atomic 1. */
int ptort_dma_store_q_now(ptort_ctx *ctx, void *gm, const ptort_gm_view *view, const ptort_tile *src,
			  const ptort_tile *fp, int64_t word, int64_t quant, int relu, int64_t atomic)
{
	const char *op = "dma_store_q";
	struct gmspan sp;
	unsigned sb, db;
	ptort_type st, dt;
	uint32_t r, c;
	uint64_t *words = NULL;
	uint8_t *g = gm;
	if (ptort_check_tile(ctx, op, "source", src) || view_check(ctx, op, view, gm, src, FIX_CVT, &sp))
		return -1;
	st = (ptort_type)src->type, dt = (ptort_type)view->type;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt);
	if (quant < 0 || quant > 2 || !ptort_fixq_pair(st, dt, (int)quant) || db < 8 ||
	    ((quant || relu || st != dt) && src->mem != PTORT_MEM_L0C)) {
		ptort_report(ctx, "%s: the fixpipe does not store %s %s to %s (quant %lld)", op,
			     src->mem == PTORT_MEM_L0C ? "acc" : "a non-acc", ptort_type_name(st),
			     ptort_type_name(dt), (long long)quant);
		return -1;
	}
	if (quant == 2) {
		words = malloc(((size_t)src->v_cols + 1) * sizeof *words);
		if (!words) {
			ptort_report(ctx, "%s: out of memory", op);
			return -1;
		}
		if (ptort_fixq_words(ctx, op, fp, 0, src->v_cols, words)) {
			free(words);
			return -1;
		}
	}
	for (r = 0; r < src->v_rows; r++)
		for (c = 0; c < src->v_cols; c++) {
			uint64_t gi = (uint64_t)gm_index(src, &sp, r, c);
			uint64_t x = ptort_ld(ctx->mem[src->mem],
					      (uint64_t)src->addr * 8 + ptort_tile_offset(src, r, c) * sb, sb);
			x = ptort_fixq1(st, dt, x, (int)quant, quant == 2 ? words[c] : (uint64_t)word, relu);
			if (atomic) {
				uint64_t old = ptort_ld(g, gi * db, db);
				if (dt == PTORT_F16 || dt == PTORT_BF16 || dt == PTORT_F32)
					x = ptort_vop1(PTORT_VOP_ADD, dt, old, x);
				else
					x = (old + x) & (db == 64 ? ~0ull : (1ull << db) - 1);
				ptort_gm_note(ctx, g + gi * db / 8, db / 8, 0);
			}
			ptort_st(g, gi * db, db, x);
			ptort_gm_note(ctx, g + gi * db / 8, db / 8, 1);
		}
	free(words);
	return 0;
}

/* Whether ptort_dma_load(view, src) and ptort_vconv_v over src's count elements would
 * both succeed with the direct path applicable; reports nothing (the reports of the
 * checks are rolled back). */
static int load_cvt_direct(ptort_ctx *ctx, const void *gm, const ptort_gm_view *view,
			   const ptort_tile *src, uint32_t dst_addr, ptort_type to,
			   uint32_t count, ptort_rmode rm, struct gmspan *sp, struct lines *ln)
{
	unsigned long nerr = ctx->nerr;
	unsigned fb, tb;
	int ok;
	ok = !ptort_check_tile(ctx, "", "", src) &&
	     !view_check(ctx, "", view, gm, src, PTORT_NO_CVT, sp);
	if (ok) {
		fb = ptort_type_bits((ptort_type)src->type);
		tb = (unsigned)to < PTORT_TYPE_COUNT ? ptort_type_bits(to) : 0;
		ok = src->blayout == 0 && src->slayout == 0 && fb >= 8 && tb >= 8 &&
		     (unsigned)rm < PTORT_RMODE_COUNT &&
		     ptort_cvt_check((ptort_type)src->type, to, rm) == PTORT_CVT_OK &&
		     src->v_rows == src->rows && src->v_cols == src->cols &&
		     count == (uint64_t)src->rows * src->cols &&
		     !ptort_check_range(ctx, "", "", src->mem, dst_addr, (uint64_t)count * tb / 8) &&
		     !ptort_overlap(src->addr, (uint64_t)count * fb / 8, dst_addr,
				    (uint64_t)count * tb / 8) &&
		     find_lines(src, sp, ln);
	}
	if (ctx->nerr != nerr) {
		if (!nerr)
			ctx->err[0] = 0;
		ctx->nerr = nerr;
	}
	return ok;
}

int ptort_dma_load_cvt_now(ptort_ctx *ctx, const void *gm, const ptort_gm_view *view,
		       const ptort_tile *src, uint32_t dst_addr, ptort_type to, uint32_t count,
		       ptort_rmode rm, int sat)
{
	struct gmspan sp;
	struct lines ln;
	size_t fe, te;
	uint32_t i;
	uint8_t *d;
	const uint8_t *g = gm;
	if (!ctx || !src || !load_cvt_direct(ctx, gm, view, src, dst_addr, to, count, rm, &sp, &ln)) {
		/* the two instructions as written: the same reports, the same bytes (their
		 * executors: a _now runs at once, so the entries would not queue them) */
		int e = ptort_dma_load_now(ctx, gm, view, src);
		if (!src)
			return -1;
		return ptort_vconv_v_now(ctx, (ptort_mem)src->mem, dst_addr, src->addr,
					 (ptort_type)src->type, to, count, rm, sat) | e;
	}
	fe = ptort_type_bits((ptort_type)src->type) / 8, te = ptort_type_bits(to) / 8;
	d = ctx->mem[src->mem] + dst_addr;
	for (i = 0; i < ln.n; i++) {
		const uint8_t *s = g + line_start(&sp, i) * fe;
		ptort_conv_n((ptort_type)src->type, to, s, d + i * ln.tpitch * te, ln.len, rm, sat);
		ptort_gm_note(ctx, s, ln.len * fe, 0);
	}
	return 0;
}
