/* gen.c: three irregular vector ops (ptort.h 3.5h): tgather's compare form
 * (docs/semantics.md §7.8a), trandom's counter-based generator (§7.8e) and tpack's
 * narrowing copy (§7.8f). Each reads everything it needs before it writes dst. */
#include <stdint.h>
#include <stdlib.h>

#include "mem_internal.h"
#include "ptort.h"

static uint64_t pos_of(const ptort_tile *t, uint32_t r, uint32_t c)
{
	return (uint64_t)t->addr * 8 + ptort_tile_offset(t, r, c) * ptort_type_bits((ptort_type)t->type);
}

int ptort_tgatherc_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
		   const ptort_tile *cdst, uint64_t k, int64_t cmp, int64_t offset)
{
	ptort_type st, dt;
	unsigned sb, db, cb;
	uint32_t r, c, n, *idx, *cnt;
	if (ptort_check_tile(ctx, "tgather", "source", src) ||
	    ptort_check_tile(ctx, "tgather", "destination", dst) ||
	    ptort_check_tile(ctx, "tgather", "count destination", cdst))
		return -1;
	st = (ptort_type)src->type, dt = (ptort_type)dst->type;
	sb = ptort_type_bits(st), db = ptort_type_bits(dt), cb = ptort_type_bits((ptort_type)cdst->type);
	if (db != 32 || cb != 32 || (cmp != PTORT_CMP_EQ && cmp != PTORT_CMP_GT)) {
		ptort_report(ctx, "tgather: cannot compare %s with mode %lld into %s indices",
			     ptort_type_name(st), (long long)cmp, ptort_type_name(dt));
		return -1;
	}
	if (src->v_rows > dst->rows || src->v_cols > dst->cols ||
	    src->v_rows > (uint64_t)cdst->rows * cdst->cols) {
		ptort_report(ctx, "tgather: the %ux%u destination or its %ux%u count tile cannot hold the "
			     "indices of a %ux%u source", dst->rows, dst->cols, cdst->rows, cdst->cols,
			     src->v_rows, src->v_cols);
		return -1;
	}
	idx = malloc(((size_t)src->v_rows * src->v_cols + 1) * sizeof *idx);
	cnt = malloc(((size_t)src->v_rows + 1) * sizeof *cnt);
	if (!idx || !cnt) {
		free(idx);
		free(cnt);
		ptort_report(ctx, "tgather: out of memory");
		return -1;
	}
	for (r = 0; r < src->v_rows; r++) {
		for (c = 0, n = 0; c < src->v_cols; c++)
			if (ptort_cmp1((ptort_cmp)cmp, st, ptort_ld(ctx->mem[src->mem], pos_of(src, r, c), sb), k))
				idx[(size_t)r * src->v_cols + n++] =
					(uint32_t)((uint64_t)offset + (uint64_t)r * src->cols + c);
		cnt[r] = n;
	}
	for (r = 0; r < src->v_rows; r++) {
		for (c = 0; c < cnt[r]; c++)
			ptort_st(ctx->mem[dst->mem], pos_of(dst, r, c), 32, idx[(size_t)r * src->v_cols + c]);
		ptort_st(ctx->mem[cdst->mem],
			 pos_of(cdst, (uint32_t)(r / cdst->cols), (uint32_t)(r % cdst->cols)), 32, cnt[r]);
	}
	free(idx);
	free(cnt);
	return 0;
}

/* 128-bit counter += v (word 0 the low word) */
static void ctr_add(uint32_t ctr[4], uint32_t v)
{
	uint64_t carry = v;
	unsigned i;
	for (i = 0; i < 4 && carry; i++) {
		carry += ctr[i];
		ctr[i] = (uint32_t)carry;
		carry >>= 32;
	}
}

/* `rounds` rounds of the generator on counter x with key (k0, k1): each round
 * multiplies words 0 and 2 by two constants to 64-bit products, mixes their high
 * halves with words 3 and 1 and the key, keeps their low halves, and steps the key by
 * the two constants of the golden ratio and of sqrt(3) - 1 */
static void rounds_of(uint32_t x[4], uint32_t k0, uint32_t k1, int64_t rounds)
{
	int64_t i;
	for (i = 0; i < rounds; i++) {
		uint64_t p0 = (uint64_t)x[0] * 0xD2511F53u, p1 = (uint64_t)x[2] * 0xCD9E8D57u;
		uint32_t y0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0, y1 = (uint32_t)p1;
		uint32_t y2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1, y3 = (uint32_t)p0;
		x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
		k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
	}
}

int ptort_trandom_now(ptort_ctx *ctx, const ptort_tile *dst, int64_t key0, int64_t key1, int64_t counter0,
		  int64_t counter1, int64_t counter2, int64_t counter3, int64_t rounds)
{
	uint32_t ctr[4], r, b, l, w;
	if (ptort_check_tile(ctx, "trandom", "destination", dst))
		return -1;
	if (ptort_type_bits((ptort_type)dst->type) != 32 || dst->blayout != PTORT_BLAYOUT_ROW_MAJOR ||
	    (rounds != 7 && rounds != 10)) {
		ptort_report(ctx, "trandom: cannot generate %s words in %lld rounds (32-bit row-major tile, "
			     "7 or 10 rounds)", ptort_type_name((ptort_type)dst->type), (long long)rounds);
		return -1;
	}
	ctr[0] = (uint32_t)counter0, ctr[1] = (uint32_t)counter1;
	ctr[2] = (uint32_t)counter2, ctr[3] = (uint32_t)counter3;
	for (r = 0; r < dst->v_rows; r++)
		for (b = 0; b < dst->v_cols; b += 256) {
			for (l = 0; l < 64; l++) {
				uint32_t x[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
				ctr_add(x, l);
				rounds_of(x, (uint32_t)key0, (uint32_t)key1, rounds);
				for (w = 0; w < 4; w++)
					if (b + w * 64 + l < dst->v_cols)
						ptort_st(ctx->mem[dst->mem], pos_of(dst, r, b + w * 64 + l), 32, x[w]);
			}
			ctr_add(ctr, dst->cols / 4);
		}
	return 0;
}

int ptort_tpack_now(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst)
{
	unsigned sb, db;
	uint32_t r, c;
	uint64_t *vals;
	if (ptort_check_tile(ctx, "tpack", "source", src) || ptort_check_tile(ctx, "tpack", "destination", dst))
		return -1;
	sb = ptort_type_bits((ptort_type)src->type), db = ptort_type_bits((ptort_type)dst->type);
	if (!((sb == 32 && (db == 16 || db == 8)) || (sb == 16 && db == 8)) || src->v_rows > dst->rows ||
	    src->v_cols > dst->cols) {
		ptort_report(ctx, "tpack: cannot pack a %ux%u %s region into a %ux%u %s tile", src->v_rows,
			     src->v_cols, ptort_type_name((ptort_type)src->type), dst->rows, dst->cols,
			     ptort_type_name((ptort_type)dst->type));
		return -1;
	}
	vals = ptort_vals(ctx, "tpack", (size_t)src->v_rows * src->v_cols);
	if (!vals)
		return -1;
	for (r = 0; r < src->v_rows; r++)
		for (c = 0; c < src->v_cols; c++)
			vals[(size_t)r * src->v_cols + c] = ptort_ld(ctx->mem[src->mem], pos_of(src, r, c), sb);
	for (r = 0; r < src->v_rows; r++)
		for (c = 0; c < src->v_cols; c++)
			ptort_st(ctx->mem[dst->mem], pos_of(dst, r, c), db,
				 vals[(size_t)r * src->v_cols + c] & ((UINT64_C(1) << db) - 1));
	free(vals);
	return 0;
}
