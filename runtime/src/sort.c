/* sort.c: tsort32 and tmrgsort (docs/semantics.md §7.8b). Both work on 8-byte
 * structures of a value and its index: for f32 two elements (value, index bits), for
 * f16 four (value, 0, index low half, index high half). tsort32 sorts each 32-element
 * block of each row of src with the indices beside it into such structures; tmrgsort
 * merges lists of structures. Order: descending by value, a NaN above every number,
 * -0 equal to +0; equal values keep the smaller index (tsort32) or the earlier list
 * (tmrgsort) first. Everything is read before dst is written. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

typedef struct pair {
	uint64_t v;   /* the value's bits */
	uint32_t idx;
	uint32_t pos; /* position in the block: the last tie-break (a stable sort) */
} pair;

static double value_of(ptort_type t, uint64_t bits)
{
	uint32_t u = (uint32_t)(t == PTORT_F32 ? bits : ptort_cvt1(t, PTORT_F32, bits, PTORT_RINT, 0));
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* 1 when a sorts above b, -1 below, 0 equal: NaN above numbers, NaNs equal */
static int above(ptort_type t, uint64_t a, uint64_t b)
{
	double x = value_of(t, a), y = value_of(t, b);
	int nx = x != x, ny = y != y;
	if (nx || ny)
		return nx == ny ? 0 : nx ? 1 : -1;
	return x > y ? 1 : x < y ? -1 : 0;
}

static ptort_type sort_type; /* the element type of the qsort running (one thread) */

static int pair_cmp(const void *pa, const void *pb)
{
	const pair *a = pa, *b = pb;
	int c = above(sort_type, a->v, b->v);
	if (c)
		return -c;
	if (a->idx != b->idx)
		return a->idx < b->idx ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static uint64_t elem_pos(const ptort_tile *t, uint32_t r, uint32_t c)
{
	return (uint64_t)t->addr * 8 + ptort_tile_offset(t, r, c) * ptort_type_bits((ptort_type)t->type);
}

/* writes structure k of row r of dst (element column k * slots on) */
static void put_struct(ptort_ctx *ctx, const ptort_tile *dst, uint32_t r, uint32_t k, uint64_t v,
		       uint32_t idx)
{
	uint8_t *m = ctx->mem[dst->mem];
	if (dst->type == PTORT_F32) {
		ptort_st(m, elem_pos(dst, r, 2 * k), 32, v);
		ptort_st(m, elem_pos(dst, r, 2 * k + 1), 32, idx);
	} else {
		ptort_st(m, elem_pos(dst, r, 4 * k), 16, v);
		ptort_st(m, elem_pos(dst, r, 4 * k + 1), 16, 0);
		ptort_st(m, elem_pos(dst, r, 4 * k + 2), 16, idx & 0xffff);
		ptort_st(m, elem_pos(dst, r, 4 * k + 3), 16, idx >> 16);
	}
}

int ptort_tsort32_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx, const ptort_tile *dst)
{
	ptort_type t;
	unsigned bits;
	uint32_t vr, vc, r, b, k, slots;
	pair *row;
	if (ptort_check_tile(ctx, "tsort32", "source", src) ||
	    ptort_check_tile(ctx, "tsort32", "index", idx) ||
	    ptort_check_tile(ctx, "tsort32", "destination", dst))
		return -1;
	t = (ptort_type)src->type;
	if ((t != PTORT_F16 && t != PTORT_F32) || dst->type != src->type || idx->type != PTORT_U32) {
		ptort_report(ctx, "tsort32: cannot sort %s with %s indices into %s", ptort_type_name(t),
			     ptort_type_name((ptort_type)idx->type), ptort_type_name((ptort_type)dst->type));
		return -1;
	}
	bits = ptort_type_bits(t);
	slots = 64 / bits;
	vr = src->v_rows, vc = src->v_cols;
	if (vr == 0 || vc == 0)
		return 0;
	if (idx->rows < vr || idx->cols < vc || dst->rows < vr) {
		ptort_report(ctx, "tsort32: the %ux%u source's valid region needs %u index rows of %u and %u "
			     "destination rows (got %ux%u indices, %u rows)", src->rows, src->cols, vr, vc, vr,
			     idx->rows, idx->cols, dst->rows);
		return -1;
	}
	row = malloc((size_t)vc * sizeof *row);
	if (!row) {
		ptort_report(ctx, "tsort32: out of memory");
		return -1;
	}
	sort_type = t;
	for (r = 0; r < vr; r++) {
		for (k = 0; k < vc; k++) {
			row[k].v = ptort_ld(ctx->mem[src->mem], elem_pos(src, r, k), bits);
			row[k].idx = (uint32_t)ptort_ld(ctx->mem[idx->mem], elem_pos(idx, r, k), 32);
			row[k].pos = k;
		}
		for (b = 0; b < vc; b += 32)
			qsort(row + b, vc - b < 32 ? vc - b : 32, sizeof *row, pair_cmp);
		/* structure k fills element columns [k * slots, (k + 1) * slots) of dst: only
		 * those inside dst's valid columns are written */
		for (k = 0; k < vc && (uint64_t)(k + 1) * slots <= dst->v_cols; k++)
			put_struct(ctx, dst, r, k, row[k].v, row[k].idx);
	}
	free(row);
	return 0;
}

/* structure k of row 0 of tile t: its value bits, and its whole 8 bytes as (lo, hi) */
static void get_struct(ptort_ctx *ctx, const ptort_tile *t, uint32_t k, uint64_t s[4])
{
	unsigned bits = ptort_type_bits((ptort_type)t->type), slots = 64 / bits, i;
	for (i = 0; i < slots; i++)
		s[i] = ptort_ld(ctx->mem[t->mem], elem_pos(t, 0, k * slots + i), bits);
}

static void set_struct(ptort_ctx *ctx, const ptort_tile *t, uint32_t k, const uint64_t s[4])
{
	unsigned bits = ptort_type_bits((ptort_type)t->type), slots = 64 / bits, i;
	for (i = 0; i < slots; i++)
		ptort_st(ctx->mem[t->mem], elem_pos(t, 0, k * slots + i), bits, s[i]);
}

static int check_list(ptort_ctx *ctx, const char *what, const ptort_tile *t, ptort_type et)
{
	if (ptort_check_tile(ctx, "tmrgsort", what, t))
		return -1;
	if (t->type != et || t->rows != 1) {
		ptort_report(ctx, "tmrgsort: the %s must be one row of %s (got %ux%u %s)", what,
			     ptort_type_name(et), t->rows, t->cols, ptort_type_name((ptort_type)t->type));
		return -1;
	}
	return 0;
}

int ptort_tmrgsort_now(ptort_ctx *ctx, const ptort_tile *src0, const ptort_tile *src1, const ptort_tile *src2,
		   const ptort_tile *src3, const ptort_tile *dst, int64_t block_len, int64_t exhausted)
{
	const ptort_tile *src[4] = {src0, src1, src2, src3};
	ptort_type t = (ptort_type)dst->type;
	unsigned slots, n, i;
	uint32_t len[4], at[4] = {0, 0, 0, 0}, out = 0, room;
	uint64_t *buf, (*s)[4];
	static const char *const what[4] = {"first source", "second source", "third source", "fourth source"};
	if (check_list(ctx, "destination", dst, t))
		return -1;
	if (t != PTORT_F16 && t != PTORT_F32) {
		ptort_report(ctx, "tmrgsort: cannot merge %s lists", ptort_type_name(t));
		return -1;
	}
	slots = 64 / ptort_type_bits(t);
	for (n = 0; n < 4 && src[n]; n++)
		if (check_list(ctx, what[n], src[n], t))
			return -1;
	room = dst->v_cols / slots;
	if (block_len) { /* one list of 4 sorted blocks per group of 4 * block_len elements */
		uint32_t vc = src0->v_cols, group, g, cnt;
		if (n != 1 || block_len < 0 || block_len % 64 || vc % (4 * block_len) || vc > dst->v_cols) {
			ptort_report(ctx, "tmrgsort: block length %lld does not divide the %u valid columns "
				     "into groups of 4 blocks of a multiple of 64 elements that fit in the "
				     "%u-column destination", (long long)block_len, vc, dst->v_cols);
			return -1;
		}
		group = (uint32_t)(4 * block_len / slots);
		buf = malloc(sizeof(uint64_t[4]) * group);
		if (!buf) {
			ptort_report(ctx, "tmrgsort: out of memory");
			return -1;
		}
		s = (uint64_t(*)[4])buf;
		for (g = 0; g < vc / slots; g += group) {
			uint32_t per = group / 4, pos[4] = {0, 0, 0, 0};
			for (cnt = 0; cnt < group; cnt++) {
				int pick = -1;
				uint64_t best[4], cur[4];
				for (i = 0; i < 4; i++) {
					if (pos[i] >= per)
						continue;
					get_struct(ctx, src0, g + i * per + pos[i], cur);
					if (pick < 0 || above(t, cur[0], best[0]) > 0)
						pick = (int)i, memcpy(best, cur, sizeof best);
				}
				memcpy(s[cnt], best, sizeof best);
				pos[pick]++;
			}
			for (cnt = 0; cnt < group; cnt++)
				set_struct(ctx, dst, g + cnt, s[cnt]);
		}
		free(buf);
		return 0;
	}
	if (n < 2) {
		ptort_report(ctx, "tmrgsort: merging needs 2 to 4 source lists (got %u)", n);
		return -1;
	}
	for (i = 0; i < n; i++)
		len[i] = src[i]->v_cols / slots;
	buf = malloc(sizeof(uint64_t[4]) * (room + 1));
	if (!buf) {
		ptort_report(ctx, "tmrgsort: out of memory");
		return -1;
	}
	s = (uint64_t(*)[4])buf;
	while (out < room) {
		int pick = -1, done = 0;
		uint64_t best[4], cur[4];
		for (i = 0; i < n; i++) {
			if (at[i] >= len[i])
				continue;
			get_struct(ctx, src[i], at[i], cur);
			if (pick < 0 || above(t, cur[0], best[0]) > 0)
				pick = (int)i, memcpy(best, cur, sizeof best);
		}
		if (pick < 0)
			break;
		memcpy(s[out++], best, sizeof best);
		at[pick]++;
		for (i = 0; i < n; i++)
			done |= at[i] == len[i];
		if (exhausted && done)
			break;
	}
	for (i = 0; i < out; i++)
		set_struct(ctx, dst, i, s[i]);
	free(buf);
	return 0;
}
