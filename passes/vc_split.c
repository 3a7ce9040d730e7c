/* vc_split.c: the pure splitting of a tile conversion into instructions of the
 * target's vector unit (lower.h), which split-repeats' tcvt and the vector ops'
 * conversions (lower_vec_steps.c) use; it calls neither. */
#include <stdint.h>
#include <string.h>

#include "passes/lower.h"

static uint32_t bits_of(ptort_type t)
{
	return ptort_type_bits(t);
}

static void lane_mask(uint32_t m, uint32_t lanes, uint64_t *hi, uint64_t *lo)
{
	*hi = 0;
	if (m >= 64)
		*lo = ~(uint64_t)0;
	else
		*lo = ((uint64_t)1 << m) - 1;
	if (lanes > 64 && m > 64)
		*hi = m - 64 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (m - 64)) - 1;
}

typedef struct vc_state {
	const ptoc_vec_limits *lim;
	const vc_geom *g;
	uint32_t sb, db, lanes; /* element bits of src / dst; lanes per repeat */
	vc_emit_fn emit;
	void *user;
} vc_state;

/* n contiguous elements from the given byte offsets. */
static int vc_run(vc_state *s, uint32_t soff, uint32_t doff, uint32_t n)
{
	uint32_t L = s->lanes, full = n / L, rem = n % L, k = 0;
	uint32_t sbytes = vc_nbytes(L, s->sb), dbytes = vc_nbytes(L, s->db), chunk;
	uint32_t srep = sbytes / 32, drep = dbytes / 32, maxr = vec_repeat_max(s->lim);
	vc_insn in;
	memset(&in, 0, sizeof in);
	in.kind = VC_REPEAT;
	in.src_blk = in.dst_blk = 1;
	/* A repeat that is not a whole number of blocks cannot be strided: one per insn. */
	if (sbytes % 32 || dbytes % 32 || srep == 0 || drep == 0 ||
	    srep > vec_repeat_stride_max(s->lim) || drep > vec_repeat_stride_max(s->lim))
		maxr = 1;
	in.src_rep = maxr == 1 ? 0 : srep;
	in.dst_rep = maxr == 1 ? 0 : drep;
	while (k < full) {
		chunk = full - k < maxr ? full - k : maxr;
		in.src = soff + k * sbytes;
		in.dst = doff + k * dbytes;
		in.repeat = chunk;
		lane_mask(L, L, &in.mask_hi, &in.mask_lo);
		if (s->emit(s->user, &in))
			return VC_ERR_EMIT;
		k += chunk;
	}
	if (rem) {
		in.src = soff + full * sbytes;
		in.dst = doff + full * dbytes;
		in.repeat = 1;
		lane_mask(rem, L, &in.mask_hi, &in.mask_lo);
		if (s->emit(s->user, &in))
			return VC_ERR_EMIT;
	}
	return VC_OK;
}

/* One repeat per row, strided by the row pitches: returns 1 when not expressible. */
static int vc_rows_strided(vc_state *s, int *rc)
{
	const vc_geom *g = s->g;
	uint32_t ps = vc_nbytes(g->src_cols, s->sb), pd = vc_nbytes(g->dst_cols, s->db);
	uint32_t L = s->lanes, j, r, chunk, maxr = vec_repeat_max(s->lim);
	uint32_t smax = vec_repeat_stride_max(s->lim);
	vc_insn in;
	if (ps % 32 || pd % 32 || ps / 32 > smax || pd / 32 > smax)
		return 1;
	memset(&in, 0, sizeof in);
	in.kind = VC_REPEAT;
	in.src_blk = in.dst_blk = 1;
	in.src_rep = ps / 32;
	in.dst_rep = pd / 32;
	for (j = 0; j * L < g->v_col; j++) {
		uint32_t m = g->v_col - j * L < L ? g->v_col - j * L : L;
		lane_mask(m, L, &in.mask_hi, &in.mask_lo);
		for (r = 0; r < g->v_row; r += chunk) {
			chunk = g->v_row - r < maxr ? g->v_row - r : maxr;
			in.repeat = chunk;
			in.src = r * ps + vc_nbytes(j * L, s->sb);
			in.dst = r * pd + vc_nbytes(j * L, s->db);
			if (s->emit(s->user, &in)) {
				*rc = VC_ERR_EMIT;
				return 0;
			}
		}
	}
	*rc = VC_OK;
	return 0;
}

int vc_split(const ptoc_vec_limits *lim, const vc_geom *g, vc_emit_fn emit, void *user)
{
	vc_state s;
	int contiguous = g->v_row == 1 || (g->v_col == g->src_cols && g->v_col == g->dst_cols);
	uint32_t r;
	int rc;
	s.lim = lim;
	s.g = g;
	s.sb = bits_of(g->from);
	s.db = bits_of(g->to);
	s.emit = emit;
	s.user = user;
	if (lim->predicated) {
		vc_insn in;
		memset(&in, 0, sizeof in);
		if (contiguous) {
			in.kind = VC_V;
			in.count = g->v_row * g->v_col;
		} else {
			in.kind = VC_V2D;
			in.rows = g->v_row;
			in.cols = g->v_col;
			in.src_pitch = vc_nbytes(g->src_cols, s.sb);
			in.dst_pitch = vc_nbytes(g->dst_cols, s.db);
		}
		return emit(user, &in) ? VC_ERR_EMIT : VC_OK;
	}
	{
		uint32_t w = s.sb > s.db ? s.sb : s.db;
		if (w <= 8)
			return VC_ERR_NARROW;
		s.lanes = (lim->repeat_bytes ? lim->repeat_bytes : 256) * 8 / w;
	}
	if (contiguous)
		return vc_run(&s, 0, 0, g->v_row * g->v_col);
	if (!vc_rows_strided(&s, &rc))
		return rc;
	for (r = 0; r < g->v_row; r++) {
		rc = vc_run(&s, r * vc_nbytes(g->src_cols, s.sb), r * vc_nbytes(g->dst_cols, s.db),
			    g->v_col);
		if (rc)
			return rc;
	}
	return VC_OK;
}
