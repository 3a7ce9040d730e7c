/* test_split.c: vc_split (passes/vc_split.c) against the runtime.
 *
 * For fixed edge cases and random tile shapes, valid regions, legal pairs, round modes
 * and saturation on both targets, the instructions vc_split produces are executed with
 * ptort_vconv / ptort_vconv_deq / ptort_vconv_v / ptort_vconv_v2d on a context with the
 * target's capacities, over UB filled with random bytes. The whole UB is then compared
 * with an independent model: every element (r, c) of the destination's valid region
 * converted with ptort_cvt1 (ptort_deq1_i32_f16 for the deq path), every other bit
 * unchanged. So the splitting covers the valid region exactly once and nothing else.
 * Also checked: the repeat form's limits (repeat in [1, 255], strides <= 255), also for
 * a target whose table gives none (repeat_max = repeat_stride_max = 0: the instruction's
 * 8-bit fields still bound them; passes/lower.h, vec_repeat_max). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "passes/lower.h"

static unsigned cases;
/* the limits to split with instead of the target's (NULL: the target's) */
static const ptoc_vec_limits *lim_override;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t rndn(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* Element i (counted in elements) of a byte array, `bits` wide, little-endian. */
static uint64_t get_el(const uint8_t *m, uint64_t i, unsigned bits)
{
	uint64_t v = 0;
	unsigned k;
	if (bits == 4)
		return (m[i / 2] >> (4 * (i % 2))) & 0xF;
	for (k = 0; k < bits / 8; k++)
		v |= (uint64_t)m[i * (bits / 8) + k] << (8 * k);
	return v;
}

static void set_el(uint8_t *m, uint64_t i, unsigned bits, uint64_t v)
{
	unsigned k;
	if (bits == 4) {
		unsigned sh = 4 * (unsigned)(i % 2);
		m[i / 2] = (uint8_t)((m[i / 2] & ~(0xF << sh)) | ((v & 0xF) << sh));
		return;
	}
	for (k = 0; k < bits / 8; k++)
		m[i * (bits / 8) + k] = (uint8_t)(v >> (8 * k));
}

typedef struct run {
	ptort_ctx *ctx;
	const ptoc_vec_limits *lim;
	uint32_t src_addr, dst_addr;
	ptort_type from, to;
	ptort_rmode rm;
	int sat, deq;
	unsigned ninsn, bad;
} run;

static int exec(void *user, const vc_insn *in)
{
	run *r = user;
	int rc = 0;
	r->ninsn++;
	switch (in->kind) {
	case VC_REPEAT:
		if (r->lim->predicated || in->repeat < 1 || in->repeat > 255 ||
		    (r->lim->repeat_max && in->repeat > r->lim->repeat_max) ||
		    in->dst_blk > 255 || in->src_blk > 255 || in->dst_rep > 255 || in->src_rep > 255 ||
		    (r->lim->repeat_stride_max &&
		     (in->dst_rep > r->lim->repeat_stride_max || in->src_rep > r->lim->repeat_stride_max)))
			r->bad++;
		if (r->deq)
			rc = ptort_vconv_deq(r->ctx, PTORT_MEM_UB, r->dst_addr + in->dst,
					     r->src_addr + in->src, in->repeat, (uint16_t)in->dst_blk,
					     (uint16_t)in->src_blk, (uint16_t)in->dst_rep,
					     (uint16_t)in->src_rep, in->mask_hi, in->mask_lo, 0x3555);
		else
			rc = ptort_vconv(r->ctx, PTORT_MEM_UB, r->dst_addr + in->dst,
					 r->src_addr + in->src, r->from, r->to, in->repeat,
					 (uint16_t)in->dst_blk, (uint16_t)in->src_blk,
					 (uint16_t)in->dst_rep, (uint16_t)in->src_rep, in->mask_hi,
					 in->mask_lo, r->rm, r->sat);
		break;
	case VC_V:
		if (!r->lim->predicated)
			r->bad++;
		rc = ptort_vconv_v(r->ctx, PTORT_MEM_UB, r->dst_addr + in->dst, r->src_addr + in->src,
				   r->from, r->to, in->count, r->rm, r->sat);
		break;
	default:
		if (!r->lim->predicated)
			r->bad++;
		rc = ptort_vconv_v2d(r->ctx, PTORT_MEM_UB, r->dst_addr + in->dst,
				     r->src_addr + in->src, r->from, r->to, in->rows, in->cols,
				     in->dst_pitch, in->src_pitch, r->rm, r->sat);
		break;
	}
	return rc ? 1 : 0;
}

/* One case; returns 1 when it ran (the pair is usable on the form). */
static int check(ptoc_target tg, ptort_type from, ptort_type to, ptort_rmode rm, int sat,
		 int deq, uint32_t rows, uint32_t src_cols, uint32_t dst_cols, uint32_t v_row,
		 uint32_t v_col, const char *what)
{
	const ptoc_vec_limits *lim = lim_override ? lim_override : ptoc_target_vec(tg);
	uint32_t cap[PTORT_MEM_COUNT], sbits = ptort_type_bits(from), dbits = ptort_type_bits(to);
	uint32_t sbytes = rows * src_cols * sbits / 8, dbytes = rows * dst_cols * dbits / 8, size;
	uint8_t *before, *expect;
	const uint8_t *ub;
	vc_geom g;
	run r;
	unsigned i;
	int rc;
	for (i = 0; i < PTORT_MEM_COUNT; i++)
		cap[i] = ptoc_target_mem(tg, (ptoc_loc)i)->capacity;
	memset(&r, 0, sizeof r);
	r.ctx = ptort_ctx_create(cap);
	r.lim = lim;
	r.from = from;
	r.to = to;
	r.rm = rm;
	r.sat = sat;
	r.deq = deq;
	r.src_addr = 32 * rndn(4);
	r.dst_addr = (r.src_addr + sbytes + 31) / 32 * 32 + 32 * rndn(3);
	size = ptort_mem_size(r.ctx, PTORT_MEM_UB);
	if (r.dst_addr + dbytes > size) {
		ptort_ctx_destroy(r.ctx);
		return 0;
	}
	ub = ptort_mem_base(r.ctx, PTORT_MEM_UB);
	for (i = 0; i < size; i++)
		ptort_mem_base(r.ctx, PTORT_MEM_UB)[i] = (uint8_t)rnd();
	before = malloc(size);
	expect = malloc(size);
	memcpy(before, ub, size);
	memcpy(expect, ub, size);
	for (i = 0; i < v_row * v_col; i++) {
		uint32_t rr = i / v_col, c = i % v_col;
		uint64_t x = get_el(before + r.src_addr, (uint64_t)rr * src_cols + c, sbits), y;
		y = deq ? ptort_deq1_i32_f16((int32_t)(uint32_t)x, 0x3555)
			: ptort_cvt1(from, to, x, rm, sat);
		set_el(expect + r.dst_addr, (uint64_t)rr * dst_cols + c, dbits, y);
	}
	g.from = from;
	g.to = to;
	g.src_cols = src_cols;
	g.dst_cols = dst_cols;
	g.v_row = v_row;
	g.v_col = v_col;
	rc = vc_split(lim, &g, exec, &r);
	cases++;
	check_count(1);
	if (rc == VC_ERR_NARROW && !lim->predicated && sbits <= 8 && dbits <= 8) {
		/* expected refusal */
	} else if (rc || r.bad || ptort_ctx_error(r.ctx) || memcmp(ub, expect, size)) {
		size_t k = 0;
		while (k < size && ub[k] == expect[k])
			k++;
		if (check_failed())
			printf("FAIL %s %s %s->%s %s sat=%d deq=%d rows=%u scols=%u dcols=%u valid=%ux%u:"
			       " rc=%d bad=%u insns=%u err=%s first diff at byte %zu\n",
			       what, ptoc_target_name(tg), ptort_type_name(from), ptort_type_name(to),
			       ptort_rmode_name(rm), sat, deq, rows, src_cols, dst_cols, v_row, v_col,
			       rc, r.bad, r.ninsn, ptort_ctx_error(r.ctx) ? ptort_ctx_error(r.ctx) : "-",
			       k);
	}
	free(before);
	free(expect);
	ptort_ctx_destroy(r.ctx);
	return 1;
}

static ptort_rmode pick_mode(const ptoc_cvt_rule *ru, ptort_type from, ptort_type to)
{
	unsigned k;
	for (k = 0; k < 8; k++) {
		ptort_rmode m = (ptort_rmode)rndn(PTORT_RMODE_COUNT);
		if ((ru->kind == PTOC_CVT_ROUNDING ? (ru->modes & PTOC_RMODE_BIT(m)) : 1) &&
		    m != PTORT_NONE && ptort_cvt_check(from, to, m) == PTORT_CVT_OK)
			return m;
	}
	return PTORT_RINT;
}

/* Columns (even for 4-bit types) in [1, max]. */
static uint32_t cols_for(unsigned bits4, uint32_t max)
{
	uint32_t c = 1 + rndn(max);
	return bits4 && c % 2 ? c + 1 : c;
}

static void fixed_cases(void)
{
	int t;
	for (t = 0; t < PTOC_TARGET_COUNT; t++) {
		ptoc_target tg = (ptoc_target)t;
		/* full, partial-row, partial-column, single element, maximum size */
		check(tg, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 32, 32, 32, 32, 32, "full");
		check(tg, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 32, 32, 32, 5, 32, "partial-row");
		check(tg, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 32, 32, 32, 32, 7, "partial-col");
		check(tg, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 32, 32, 32, 1, 1, "single");
		check(tg, PTORT_F32, PTORT_F16, PTORT_ROUND, 1, 0, 128, 256, 256, 128, 256, "max");
		check(tg, PTORT_F16, PTORT_F32, PTORT_RINT, 0, 0, 256, 128, 128, 256, 100, "rows>255");
		/* row pitch beyond 255 blocks: per-row fallback */
		check(tg, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 4, 4096, 4096, 4, 70, "stride-ovf");
		check(tg, PTORT_F16, PTORT_I8, PTORT_TRUNC, 1, 0, 16, 512, 512, 16, 300, "i8");
		check(tg, PTORT_F16, PTORT_I4, PTORT_RINT, 1, 0, 8, 256, 256, 8, 129, "i4");
	}
	check(PTOC_TARGET_A2A3, PTORT_I32, PTORT_F16, PTORT_RINT, 1, 1, 16, 64, 64, 16, 40, "deq");
	check(PTOC_TARGET_A2A3, PTORT_I32, PTORT_F16, PTORT_RINT, 1, 1, 64, 128, 128, 64, 128,
	      "deq-full");
}

/* A repeat-form target whose table gives no repeat limits (0): what the instructions'
 * fields take, 255 repeats and strides, still bounds the splitting (500 full repeats of
 * one contiguous run; a row pitch of 256 blocks falls back to per-row runs). */
static void no_limit_cases(void)
{
	ptoc_vec_limits l = *ptoc_target_vec(PTOC_TARGET_A2A3);
	l.repeat_max = 0;
	l.repeat_stride_max = 0;
	lim_override = &l;
	check(PTOC_TARGET_A2A3, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 125, 256, 256, 125, 256,
	      "repeat_max=0");
	check(PTOC_TARGET_A2A3, PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0, 4, 2048, 2048, 4, 70,
	      "repeat_stride_max=0");
	lim_override = NULL;
}

static void random_cases(unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		ptoc_target tg = (ptoc_target)rndn(PTOC_TARGET_COUNT);
		size_t nr = ptoc_target_cvt_count(tg);
		const ptoc_cvt_rule *ru = ptoc_target_cvt_get(tg, rndn((uint32_t)nr));
		unsigned sb = ptort_type_bits(ru->from), db = ptort_type_bits(ru->to);
		int deq = ru->kind == PTOC_CVT_DEQ;
		uint32_t rows = 1 + rndn(rndn(4) ? 40 : 300);
		uint32_t scols = cols_for(sb == 4 || db == 4, rndn(3) ? 160 : 1200);
		uint32_t dcols = rndn(2) ? scols : cols_for(sb == 4 || db == 4, rndn(3) ? 160 : 1200);
		uint32_t vcols = scols < dcols ? scols : dcols;
		uint32_t vr, vc;
		if (rndn(2)) { /* row pitches in whole blocks, as tiles in vec have */
			uint32_t qs = 256 / sb, qd = 256 / db;
			scols = (scols + qs - 1) / qs * qs;
			dcols = rndn(2) ? (scols * sb / db + qd - 1) / qd * qd
					: (dcols + qd - 1) / qd * qd;
			if (scols * sb / db == dcols && rndn(2))
				dcols = scols; /* same element count per row */
			vcols = scols < dcols ? scols : dcols;
		}
		vr = rndn(3) ? rows : 1 + rndn(rows);
		vc = rndn(3) ? vcols : 1 + rndn(vcols);
		check(tg, ru->from, ru->to, deq ? PTORT_RINT : pick_mode(ru, ru->from, ru->to),
		      deq ? 1 : (int)rndn(2), deq, rows, scols, dcols, vr, vc, "random");
	}
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 400;
	fixed_cases();
	no_limit_cases();
	random_cases(n);
	return check_report("test_lower_split");
}
