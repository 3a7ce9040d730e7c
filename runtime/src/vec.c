/* vec.c: the vector conversion instructions. ptort_vconv / ptort_vconv_deq execute
 * the A2A3 repeat form (repeat, block and repeat strides, lane mask; docs/semantics.md
 * §5.1), ptort_vconv_v / ptort_vconv_v2d the A5 vector-register form (256-byte
 * registers, element-count predicate). Every element converts as ptort_cvt1 (or
 * ptort_deq1_i32_f16); contiguous work is handed to ptort_cvt_run in one call. The
 * geometry is documented in ptort.h section 3.2. */
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

/* What each lane computes. */
struct conv {
	ptort_type from, to;
	ptort_rmode rm;
	int sat;
	int deq; /* i32 -> f16 through ptort_deq*, with `scale` */
	uint16_t scale;
};

static void conv_apply(const struct conv *cv, const uint8_t *s, uint8_t *d, size_t n)
{
	size_t i;
	if (!cv->deq) {
		ptort_conv_n(cv->from, cv->to, s, d, n, cv->rm, cv->sat);
		return;
	}
	if ((uintptr_t)s % 4 == 0 && (uintptr_t)d % 2 == 0) {
		ptort_deq_i32_f16((const int32_t *)(const void *)s, (uint16_t *)(void *)d, n,
				  cv->scale);
		return;
	}
	for (i = 0; i < n; i++) {
		int32_t x;
		uint16_t y;
		memcpy(&x, s + 4 * i, 4);
		y = ptort_deq1_i32_f16(x, cv->scale);
		memcpy(d + 2 * i, &y, 2);
	}
}

/* Checks the memory, the types and the pair; fills the wider width. */
static int conv_check(ptort_ctx *ctx, const char *op, unsigned mem, const struct conv *cv)
{
	ptort_cvt_status st;
	if (mem >= PTORT_MEM_COUNT) {
		ptort_report(ctx, "%s: unknown memory %u", op, mem);
		return -1;
	}
	if ((unsigned)cv->from >= PTORT_TYPE_COUNT || (unsigned)cv->to >= PTORT_TYPE_COUNT) {
		ptort_report(ctx, "%s: unknown element type %u -> %u", op, (unsigned)cv->from,
			     (unsigned)cv->to);
		return -1;
	}
	if ((unsigned)cv->rm >= PTORT_RMODE_COUNT) {
		ptort_report(ctx, "%s: unknown round mode %u", op, (unsigned)cv->rm);
		return -1;
	}
	st = ptort_cvt_check(cv->from, cv->to, cv->rm);
	if (st != PTORT_CVT_OK) {
		ptort_report(ctx, "%s: %s -> %s %s", op, ptort_type_name(cv->from),
			     ptort_type_name(cv->to),
			     st == PTORT_CVT_NO_PAIR ? "is not a defined conversion"
						     : "does not allow this round mode");
		return -1;
	}
	return 0;
}

/* ---- the A2A3 repeat form ------------------------------------------------- */

/* One operand of a repeat-form instruction, positions in bits. */
struct vopnd {
	uint64_t base;     /* addr * 8 */
	unsigned eb;       /* element bits */
	uint64_t blk_step; /* blk_stride * block bits */
	uint64_t rep_step; /* rep_stride * 256 */
	uint64_t rep_bits; /* bits of one repeat when contiguous: lanes * eb */
	uint16_t blk_stride;
};

static uint64_t lane_pos(const struct vopnd *o, unsigned per_blk, unsigned l)
{
	return (uint64_t)(l / per_blk) * o->blk_step + (uint64_t)(l % per_blk) * o->eb;
}

static int lane_on(const uint64_t m[2], unsigned l)
{
	return (int)((m[l >> 6] >> (l & 63)) & 1);
}

static int vconv_exec(ptort_ctx *ctx, const char *op, unsigned mem, uint32_t dst_addr,
		      uint32_t src_addr, const struct conv *cv, uint32_t repeat,
		      uint16_t dst_blk, uint16_t src_blk, uint16_t dst_rep, uint16_t src_rep,
		      uint64_t mask_hi, uint64_t mask_lo)
{
	unsigned fb, tb, wb, lanes, per_blk, l, nsel = 0, k;
	uint64_t m[2], send = 0, dend = 0, sbytes, dbytes, r;
	struct vopnd s, d;
	int prefix, disjoint, contig;
	uint8_t *base;
	uint64_t stmp[128], dtmp[128]; /* one repeat: at most 128 lanes of 64 bits */

	if (conv_check(ctx, op, mem, cv))
		return -1;
	fb = ptort_type_bits(cv->from);
	tb = ptort_type_bits(cv->to);
	wb = fb > tb ? fb : tb;
	if (wb < 16) {
		ptort_report(ctx, "%s: %s -> %s has no type of 16 bits or more to count lanes in",
			     op, ptort_type_name(cv->from), ptort_type_name(cv->to));
		return -1;
	}
	if (repeat == 0) {
		ptort_report(ctx, "%s: repeat count is 0", op);
		return -1;
	}
	lanes = 2048 / wb;
	per_blk = lanes / 8;
	m[0] = mask_lo;
	m[1] = lanes > 64 ? mask_hi : 0;
	if (lanes < 64)
		m[0] &= ((uint64_t)1 << lanes) - 1;
	if (!m[0] && !m[1]) {
		ptort_report(ctx, "%s: the mask selects no lane", op);
		return -1;
	}

	s.base = (uint64_t)src_addr * 8, s.eb = fb, s.blk_stride = src_blk;
	d.base = (uint64_t)dst_addr * 8, d.eb = tb, d.blk_stride = dst_blk;
	s.blk_step = (uint64_t)src_blk * (256u * fb / wb);
	d.blk_step = (uint64_t)dst_blk * (256u * tb / wb);
	s.rep_step = (uint64_t)src_rep * 256, d.rep_step = (uint64_t)dst_rep * 256;
	s.rep_bits = (uint64_t)lanes * fb, d.rep_bits = (uint64_t)lanes * tb;

	/* footprints: up to the last bit of the furthest selected lane */
	for (l = 0; l < lanes; l++) {
		uint64_t e;
		if (!lane_on(m, l))
			continue;
		nsel++;
		e = lane_pos(&s, per_blk, l) + fb;
		send = e > send ? e : send;
		e = lane_pos(&d, per_blk, l) + tb;
		dend = e > dend ? e : dend;
	}
	send += (uint64_t)(repeat - 1) * s.rep_step;
	dend += (uint64_t)(repeat - 1) * d.rep_step;
	sbytes = (send + 7) / 8, dbytes = (dend + 7) / 8;
	if (ptort_check_range(ctx, op, "source", mem, src_addr, sbytes) ||
	    ptort_check_range(ctx, op, "destination", mem, dst_addr, dbytes))
		return -1;

	base = ctx->mem[mem];
	/* the selected lanes are 0 .. nsel-1 */
	prefix = m[0] == (nsel >= 64 ? UINT64_MAX : ((uint64_t)1 << nsel) - 1) &&
		 m[1] == (nsel >= 128 ? UINT64_MAX
				       : nsel > 64 ? ((uint64_t)1 << (nsel - 64)) - 1 : 0);
	disjoint = !ptort_overlap(src_addr, sbytes, dst_addr, dbytes);
	contig = src_blk == 1 && dst_blk == 1 &&
		 (repeat == 1 || (s.rep_step == s.rep_bits && d.rep_step == d.rep_bits));

	/* fast path: the whole instruction is one contiguous run */
	if (contig && nsel == lanes && disjoint) {
		conv_apply(cv, base + src_addr, base + dst_addr, (size_t)repeat * lanes);
		return 0;
	}
	for (r = 0; r < repeat; r++) {
		uint64_t sp = s.base + r * s.rep_step, dp = d.base + r * d.rep_step;
		/* a contiguous prefix of each operand's repeat: convert directly (from a
		 * copy of the source lanes when the operands overlap) */
		if (src_blk == 1 && dst_blk == 1 && prefix) {
			const uint8_t *sptr = base + sp / 8;
			if (!disjoint) {
				memcpy(stmp, sptr, ((size_t)nsel * fb + 7) / 8);
				sptr = (const uint8_t *)stmp;
			}
			conv_apply(cv, sptr, base + dp / 8, nsel);
			continue;
		}
		/* general: gather the selected lanes, convert, scatter */
		for (l = 0, k = 0; l < lanes; l++)
			if (lane_on(m, l))
				ptort_st((uint8_t *)stmp, (uint64_t)k++ * fb, fb,
					 ptort_ld(base, sp + lane_pos(&s, per_blk, l), fb));
		conv_apply(cv, (const uint8_t *)stmp, (uint8_t *)dtmp, nsel);
		for (l = 0, k = 0; l < lanes; l++)
			if (lane_on(m, l))
				ptort_st(base, dp + lane_pos(&d, per_blk, l), tb,
					 ptort_ld((const uint8_t *)dtmp, (uint64_t)k++ * tb, tb));
	}
	return 0;
}

int ptort_vconv_now(ptort_ctx *ctx, ptort_mem mem, uint32_t dst_addr, uint32_t src_addr,
		ptort_type from, ptort_type to, uint32_t repeat, uint16_t dst_blk_stride,
		uint16_t src_blk_stride, uint16_t dst_rep_stride, uint16_t src_rep_stride,
		uint64_t mask_hi, uint64_t mask_lo, ptort_rmode rm, int sat)
{
	struct conv cv;
	cv.from = from, cv.to = to, cv.rm = rm, cv.sat = sat, cv.deq = 0, cv.scale = 0;
	return vconv_exec(ctx, "vconv", (unsigned)mem, dst_addr, src_addr, &cv, repeat,
			  dst_blk_stride, src_blk_stride, dst_rep_stride, src_rep_stride,
			  mask_hi, mask_lo);
}

int ptort_vconv_deq_now(ptort_ctx *ctx, ptort_mem mem, uint32_t dst_addr, uint32_t src_addr,
		    uint32_t repeat, uint16_t dst_blk_stride, uint16_t src_blk_stride,
		    uint16_t dst_rep_stride, uint16_t src_rep_stride, uint64_t mask_hi,
		    uint64_t mask_lo, uint16_t scale_f16)
{
	struct conv cv;
	cv.from = PTORT_I32, cv.to = PTORT_F16, cv.rm = PTORT_RINT, cv.sat = PTORT_SAT_ON;
	cv.deq = 1, cv.scale = scale_f16;
	return vconv_exec(ctx, "vconv_deq", (unsigned)mem, dst_addr, src_addr, &cv, repeat,
			  dst_blk_stride, src_blk_stride, dst_rep_stride, src_rep_stride,
			  mask_hi, mask_lo);
}

/* ---- the A5 vector-register form ------------------------------------------ */

/* One row of `count` elements at byte positions s, d. When the operands may
 * overlap, each 256-byte register is copied out before its results are written. */
static void vrow(const struct conv *cv, const uint8_t *s, uint8_t *d, size_t count,
		 unsigned lanes, int disjoint)
{
	unsigned fb = ptort_type_bits(cv->from), tb = ptort_type_bits(cv->to);
	uint64_t reg[32]; /* 256 bytes */
	size_t i;
	if (disjoint) {
		conv_apply(cv, s, d, count);
		return;
	}
	for (i = 0; i < count; i += lanes) {
		size_t n = count - i < lanes ? count - i : lanes;
		memcpy(reg, s + i * fb / 8, (n * fb + 7) / 8);
		conv_apply(cv, (const uint8_t *)reg, d + i * tb / 8, n);
	}
}

static int vlanes(const struct conv *cv)
{
	unsigned fb = ptort_type_bits(cv->from), tb = ptort_type_bits(cv->to);
	return (int)(2048 / (fb > tb ? fb : tb));
}

int ptort_vconv_v_now(ptort_ctx *ctx, ptort_mem mem, uint32_t dst_addr, uint32_t src_addr,
		  ptort_type from, ptort_type to, uint32_t count, ptort_rmode rm, int sat)
{
	return ptort_vconv_v2d_now(ctx, mem, dst_addr, src_addr, from, to, 1, count, 0, 0, rm, sat);
}

int ptort_vconv_v2d_now(ptort_ctx *ctx, ptort_mem mem, uint32_t dst_addr, uint32_t src_addr,
		    ptort_type from, ptort_type to, uint32_t rows, uint32_t cols,
		    uint32_t dst_pitch, uint32_t src_pitch, ptort_rmode rm, int sat)
{
	const char *op = rows == 1 && !dst_pitch && !src_pitch ? "vconv_v" : "vconv_v2d";
	struct conv cv;
	uint64_t sbytes, dbytes, r;
	int disjoint;
	unsigned lanes;
	uint8_t *base;
	cv.from = from, cv.to = to, cv.rm = rm, cv.sat = sat, cv.deq = 0, cv.scale = 0;
	if (conv_check(ctx, op, (unsigned)mem, &cv))
		return -1;
	if (!rows || !cols) {
		ptort_report(ctx, "%s: empty region %ux%u", op, rows, cols);
		return -1;
	}
	sbytes = (uint64_t)(rows - 1) * src_pitch + ((uint64_t)cols * ptort_type_bits(from) + 7) / 8;
	dbytes = (uint64_t)(rows - 1) * dst_pitch + ((uint64_t)cols * ptort_type_bits(to) + 7) / 8;
	if (ptort_check_range(ctx, op, "source", (unsigned)mem, src_addr, sbytes) ||
	    ptort_check_range(ctx, op, "destination", (unsigned)mem, dst_addr, dbytes))
		return -1;
	base = ctx->mem[mem];
	disjoint = !ptort_overlap(src_addr, sbytes, dst_addr, dbytes);
	lanes = (unsigned)vlanes(&cv);
	for (r = 0; r < rows; r++)
		vrow(&cv, base + src_addr + r * src_pitch, base + dst_addr + r * dst_pitch, cols,
		     lanes, disjoint);
	return 0;
}
