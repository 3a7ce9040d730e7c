/* fixpipe.c: the fixpipe's quantization out of the accumulator (docs/semantics.md
 * §6.2a): textract_fp and tinsert_fp with one 64-bit word per column read from the
 * scaling memory at the fp tile's address; and one element of tmov and tstore out of
 * acc (§6.2b, ptort_fixq1), their tmov executor ptort_tmovq_now. Each rounding goes through the runtime's
 * exact element operations (ptort_cvt1, ptort_vop1). The region is read whole before
 * anything is written. */
#include <stdint.h>
#include <stdlib.h>

#include "mem_internal.h"
#include "ptort.h"

uint64_t ptort_fixpipe_q(ptort_type from, ptort_type to, uint64_t a, uint64_t q)
{
	uint64_t m1 = q & 0xFFFFE000u, p, v;
	int64_t i, off;
	p = from == PTORT_F32 ? a & 0xFFFFFFFFu : ptort_cvt1(from, PTORT_F32, a, PTORT_RINT, PTORT_SAT_ON);
	p = ptort_vop1(PTORT_VOP_MUL, PTORT_F32, p, m1);
	if (to == PTORT_F16 || to == PTORT_BF16)
		return ptort_cvt1(PTORT_F32, to, p, PTORT_RINT, PTORT_SAT_ON);
	v = ptort_cvt1(PTORT_F32, PTORT_I32, p, PTORT_RINT, PTORT_SAT_ON); /* NaN: 0 */
	i = (int32_t)(uint32_t)v;
	i = i < -256 ? -256 : i > 255 ? 255 : i;
	off = (int64_t)((q >> 37) & 0x1FF);
	if (off & 0x100)
		off -= 0x200;
	i += off;
	if ((q >> 46) & 1)
		i = i < -128 ? -128 : i > 127 ? 127 : i;
	else
		i = i < 0 ? 0 : i > 255 ? 255 : i;
	return (uint64_t)i & 0xFF;
}

static uint64_t at(const ptort_tile *t, uint32_t r, uint32_t c)
{
	return (uint64_t)t->addr * 8 + ptort_tile_offset(t, r, c) * ptort_type_bits((ptort_type)t->type);
}

int ptort_tmovfp_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *fp, const ptort_tile *dst,
		 uint32_t row, uint32_t col, int64_t insert)
{
	const char *name = insert ? "tinsert_fp" : "textract_fp";
	ptort_type s = (ptort_type)src->type, d = (ptort_type)dst->type;
	uint32_t rows, cols, r, c, sr, sc, dr, dc;
	uint64_t *vals, *words, k = 0;
	unsigned sb = ptort_type_bits(s), db = ptort_type_bits(d);
	if (ptort_check_tile(ctx, name, "source", src) || ptort_check_tile(ctx, name, "destination", dst))
		return -1;
	if (!fp || fp->mem >= PTORT_MEM_COUNT) {
		ptort_report(ctx, "%s: no fp tile", name);
		return -1;
	}
	if (!((s == PTORT_F32 && (d == PTORT_I8 || d == PTORT_U8)) ||
	      (s == PTORT_I32 && (d == PTORT_I8 || d == PTORT_U8 || d == PTORT_F16)))) {
		ptort_report(ctx, "%s: the fixpipe does not quantize %s to %s", name, ptort_type_name(s),
			     ptort_type_name(d));
		return -1;
	}
	rows = insert ? src->v_rows : dst->v_rows;
	cols = insert ? src->v_cols : dst->v_cols;
	sr = insert ? 0 : row, sc = insert ? 0 : col, dr = insert ? row : 0, dc = insert ? col : 0;
	if ((uint64_t)sr + rows > src->rows || (uint64_t)sc + cols > src->cols ||
	    (uint64_t)dr + rows > dst->rows || (uint64_t)dc + cols > dst->cols) {
		ptort_report(ctx, "%s: the %ux%u region at (%u, %u) leaves the %s tile", name, rows, cols, row, col,
			     insert ? "destination" : "source");
		return -1;
	}
	if ((uint64_t)fp->addr + 8ull * cols > ctx->cap[fp->mem]) {
		ptort_report(ctx, "%s: the %u quantization words at byte %u leave the fp memory (%u bytes)", name, cols,
			     fp->addr, ctx->cap[fp->mem]);
		return -1;
	}
	vals = malloc((size_t)rows * cols * sizeof *vals);
	words = malloc((size_t)cols * sizeof *words);
	if (!vals || !words) {
		free(vals);
		free(words);
		ptort_report(ctx, "%s: out of memory", name);
		return -1;
	}
	for (c = 0; c < cols; c++)
		words[c] = ptort_ld(ctx->mem[fp->mem], ((uint64_t)fp->addr + 8ull * c) * 8, 64);
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			vals[k++] = ptort_fixpipe_q(s, d, ptort_ld(ctx->mem[src->mem], at(src, sr + r, sc + c), sb),
						    words[c]);
	for (r = 0, k = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			ptort_st(ctx->mem[dst->mem], at(dst, dr + r, dc + c), db, vals[k++]);
	free(vals);
	free(words);
	return 0;
}

uint64_t ptort_fixq1(ptort_type s, ptort_type d, uint64_t a, int quant, uint64_t word, int relu)
{
	uint64_t x = a;
	if (!quant) {
		if (relu)
			x = ptort_relu1(s, x);
		if (s == d)
			return x;
		if (s == PTORT_I32) /* §6.2b [decision]: a word of scale 1.0 */
			return ptort_fixpipe_q(s, d, x, 0x3F800000u);
		return ptort_cvt1(s, d, x, PTORT_RINT, PTORT_SAT_ON);
	}
	x = ptort_fixpipe_q(s, d, a, word);
	if (relu && ptort_type_bits(d) == 8)
		return ((word >> 46) & 1) && (x & 0x80) ? 0 : x;
	return relu ? ptort_relu1(d, x) : x;
}

int ptort_fixq_pair(ptort_type s, ptort_type d, int quant)
{
	if (!quant)
		return s == d || (s == PTORT_F32 && (d == PTORT_F16 || d == PTORT_BF16)) ||
		       (s == PTORT_I32 && d == PTORT_F16);
	if (s == PTORT_F32)
		return d == PTORT_I8 || d == PTORT_U8 || (quant == 1 && (d == PTORT_F16 || d == PTORT_BF16));
	return s == PTORT_I32 && (d == PTORT_I8 || d == PTORT_U8 || d == PTORT_F16);
}

int ptort_fixq_words(ptort_ctx *ctx, const char *name, const ptort_tile *fp, uint32_t c0, uint32_t n,
		     uint64_t *words)
{
	uint32_t c;
	if (!fp || fp->mem >= PTORT_MEM_COUNT) {
		ptort_report(ctx, "%s: no fp tile", name);
		return -1;
	}
	if ((uint64_t)fp->addr + 8ull * (c0 + (uint64_t)n) > ctx->cap[fp->mem]) {
		ptort_report(ctx, "%s: the %u quantization words at byte %u leave the fp memory (%u bytes)", name,
			     c0 + n, fp->addr, ctx->cap[fp->mem]);
		return -1;
	}
	for (c = 0; c < n; c++)
		words[c] = ptort_ld(ctx->mem[fp->mem], ((uint64_t)fp->addr + 8ull * (c0 + c)) * 8, 64);
	return 0;
}

int ptort_tmovq_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *fp, const ptort_tile *dst,
		    int64_t word, int64_t quant, int64_t mode, int relu)
{
	const char *name = "tmov";
	ptort_type s, d;
	int64_t sub = ptort_subblock_idx(ctx);
	uint32_t r0 = 0, c0 = 0, nr, nc, r, c;
	uint64_t *vals, *words, k = 0;
	unsigned sb, db;
	if (ptort_check_tile(ctx, name, "source", src) || ptort_check_tile(ctx, name, "destination", dst))
		return -1;
	s = (ptort_type)src->type, d = (ptort_type)dst->type;
	sb = ptort_type_bits(s), db = ptort_type_bits(d);
	if (quant < 0 || quant > 2 || mode < 0 || mode > 3 || !ptort_fixq_pair(s, d, (int)quant) ||
	    (mode >= 2 && s != d)) {
		ptort_report(ctx, "%s: the fixpipe does not move %s to %s (quant %lld, mode %lld)", name,
			     ptort_type_name(s), ptort_type_name(d), (long long)quant, (long long)mode);
		return -1;
	}
	nr = src->v_rows, nc = src->v_cols;
	if (mode <= 1 && sub != mode)
		return 0; /* the other vector core's UB */
	if (mode >= 2 && sub > 1)
		return 0;
	if (mode == 2)
		nr /= 2, r0 = (uint32_t)sub * nr;
	if (mode == 3)
		nc /= 2, c0 = (uint32_t)sub * nc;
	if (nr > dst->rows || nc > dst->cols) {
		ptort_report(ctx, "%s: the %ux%u region leaves the %ux%u destination", name, nr, nc, dst->rows,
			     dst->cols);
		return -1;
	}
	vals = malloc(((size_t)nr * nc + 1) * sizeof *vals);
	words = malloc(((size_t)nc + 1) * sizeof *words);
	if (!vals || !words) {
		free(vals);
		free(words);
		ptort_report(ctx, "%s: out of memory", name);
		return -1;
	}
	if (quant == 2 && ptort_fixq_words(ctx, name, fp, 0, nc, words)) {
		free(vals);
		free(words);
		return -1;
	}
	for (r = 0; r < nr; r++)
		for (c = 0; c < nc; c++)
			vals[k++] = ptort_fixq1(s, d, ptort_ld(ctx->mem[src->mem], at(src, r0 + r, c0 + c), sb),
						(int)quant, quant == 2 ? words[c] : (uint64_t)word, relu);
	for (r = 0, k = 0; r < nr; r++)
		for (c = 0; c < nc; c++)
			ptort_st(ctx->mem[dst->mem], at(dst, r, c), db, vals[k++]);
	free(vals);
	free(words);
	return 0;
}
