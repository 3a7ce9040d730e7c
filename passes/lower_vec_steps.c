/* lower_vec_steps.c: the vector ops lowered in several steps, for lower_vec_op
 * (lower_vec.c; its first comment says what the lowering requires and produces):
 * conversions inside an op, trowprod, taddc/tsubc/taddsc/tsubsc, taxpy, tci, ttri. */
#include <stdio.h>
#include <string.h>

#include "passes/lower_vec.h"
#include "target/target.h"
#include "passes/tiles.h"

/* ---- conversions inside an op -------------------------------------------------------- */

typedef struct cvt_ctx {
	vl *v;
	const lower_tile *d, *s;
	uint32_t doff, soff;
	ptort_type from, to;
} cvt_ctx;

static int cvt_emit1(void *user, const vc_insn *in)
{
	cvt_ctx *c = user;
	vl *v = c->v;
	lower_insn li;
	li_init(&li, in->kind == VC_REPEAT ? IR_OP_I_VCONV : in->kind == VC_V ? IR_OP_I_VCONV_V
									: IR_OP_I_VCONV_V2D);
	li_mem(v->ctx, &li, IR_MEM_VEC);
	li_addr(v->ctx, &li, "dst", c->d, c->doff + in->dst, v->op);
	li_addr(v->ctx, &li, "src", c->s, c->soff + in->src, v->op);
	li_attr(v->ctx, &li, "from", ir_attr_type(v->ctx, ir_type_elem(v->ctx, c->from)));
	li_attr(v->ctx, &li, "to", ir_attr_type(v->ctx, ir_type_elem(v->ctx, c->to)));
	li_attr(v->ctx, &li, "rmode", ir_attr_pto(v->ctx, "round_mode", "RINT", IR_PTO_ANGLE));
	li_attr(v->ctx, &li, "sat_mode", ir_attr_pto(v->ctx, "saturation_mode", "OFF", IR_PTO_ANGLE));
	if (in->kind == VC_REPEAT) {
		li_int(v->ctx, &li, "repeat", in->repeat);
		li_int(v->ctx, &li, "dst_blk", in->dst_blk);
		li_int(v->ctx, &li, "src_blk", in->src_blk);
		li_int(v->ctx, &li, "dst_rep", in->dst_rep);
		li_int(v->ctx, &li, "src_rep", in->src_rep);
		li_int(v->ctx, &li, "mask_hi", (int64_t)in->mask_hi);
		li_int(v->ctx, &li, "mask_lo", (int64_t)in->mask_lo);
	} else if (in->kind == VC_V) {
		li_int(v->ctx, &li, "count", in->count);
	} else {
		li_int(v->ctx, &li, "rows", in->rows);
		li_int(v->ctx, &li, "cols", in->cols);
		li_int(v->ctx, &li, "dst_pitch", in->dst_pitch);
		li_int(v->ctx, &li, "src_pitch", in->src_pitch);
	}
	return vl_emit(v, &li);
}

/* rows x cols elements of `from` at s + soff (row pitch sp bytes) converted (RINT,
 * saturation off) to `to` at d + doff (pitch dp bytes), either form. */
static int cvt_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, ptort_type to,
		    const lower_tile *s, uint32_t soff, uint32_t sp, ptort_type from,
		    uint32_t rows, uint32_t cols)
{
	cvt_ctx c;
	vc_geom g;
	c.v = v;
	c.d = d;
	c.s = s;
	c.doff = doff;
	c.soff = soff;
	c.from = from;
	c.to = to;
	g.from = from;
	g.to = to;
	g.src_cols = sp / (ptort_type_bits(from) / 8);
	g.dst_cols = dp / (ptort_type_bits(to) / 8);
	g.v_row = rows;
	g.v_col = cols;
	if (vc_split(&v->o->target->vec, &g, cvt_emit1, &c) != VC_OK) {
		if (!v->errors)
			vl_err(v, "cannot split the conversion into vector instructions%s", "");
		return -1;
	}
	return 0;
}

/* The UB scratch as a tile of `pitch`-byte rows: how many rows fit (0: none). */
static uint32_t scratch_tile(vl *v, lower_tile *scr, const ir_type *type, uint32_t pitch)
{
	uint32_t bytes;
	int64_t base = ub_scratch(v, &bytes);
	memset(scr, 0, sizeof *scr);
	scr->type = type;
	scr->addr = base;
	return base < 0 || !pitch ? 0 : bytes / pitch;
}

/* Whether the byte ranges of tiles a and b may overlap (a run-time address may). */
static int may_overlap(const lower_tile *a, const lower_tile *b)
{
	return a->addr_v || b->addr_v ||
	       (a->addr < b->addr + (int64_t)tile_buf_bytes(b->type) &&
		b->addr < a->addr + (int64_t)tile_buf_bytes(a->type));
}

/* ---- trowprod ----------------------------------------------------------------------- */

/* trowprod (docs/semantics.md §7.6). A2A3, per row, in the op's tmp tile: the E lanes
 * of one 32-byte block start at 1 and multiply the row's blocks in order (one vbin
 * whose repeats step one block through the row), the last partial block on its first
 * lanes; then dst = t_0 * t_1 * ... * t_{E-1} left to right, single-lane vbins (f16:
 * in f32, the lanes converted first and the product rounded to f16 at the end). A5,
 * up to a UB scratch's worth of rows at a time: a 256-byte register per row starts at
 * 1 and multiplies the row's registers lane by lane, then halving: lane i times lane
 * i + h for h = L/2 ... 1; dst = lane 0. */
int lower_rowprod(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *tmp = &p->t[1], *dst = p->dst;
	const ir_type *st = src->type;
	uint32_t C, R = v->rows, sp = tile_pitch(src), dp = tile_pitch(dst), eb = v->w / 8;
	uint64_t one = ptort_type_is_float(v->et) ? from_f32(v->et, 0x3F800000u) : 1;
	uint32_t r, k;
	if (v->rows_v || st->u.tb.v_col == IR_DYN || src->v_col) {
		vl_err(v, "trowprod with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	C = (uint32_t)st->u.tb.v_col;
	if (v->o->target->vec.predicated) {
		uint32_t L = 2048 / v->w, per, r0, n, h, j, cols = v->cols;
		lower_tile scr;
		per = scratch_tile(v, &scr, dst->type, 256);
		if (!per) {
			vl_err(v, "trowprod on A5 needs the UB scratch%s", "");
			return -1;
		}
		for (r0 = 0; r0 < R; r0 += n) {
			n = R - r0 < per ? R - r0 : per;
			v->cols = L;
			if (dup_rows(v, &scr, 0, 256, one, n))
				return -1;
			for (j = 0; j * L < C; j++) {
				v->cols = C - j * L < L ? C - j * L : L;
				if (bin_rows(v, &scr, 0, 256, &scr, 0, 256, src, r0 * sp + j * 256, sp, n))
					return -1;
			}
			for (h = L / 2; h >= 1; h /= 2) {
				v->cols = h;
				if (bin_rows(v, &scr, 0, 256, &scr, 0, 256, &scr, h * eb, 256, n))
					return -1;
			}
			v->cols = 1;
			if (copy_rows_p(v, dst, r0 * dp, dp, &scr, 0, 256, n))
				return -1;
		}
		v->cols = cols;
		return 0;
	}
	{
		uint32_t E = 32 / eb, blocks = C / E, rest = C % E, b0, nb, f16 = v->et == PTORT_F16;
		uint32_t cols = v->cols;
		if (tile_buf_bytes(tmp->type) < (f16 ? 96u : 32u)) {
			vl_err(v, "the tmp tile is too small for trowprod (32 bytes, 96 for f16)%s", "");
			return -1;
		}
		for (r = 0; r < R; r++) {
			uint32_t so = r * sp, doff = r * dp;
			v->cols = E;
			if (dup_rows(v, tmp, 0, 32, one, 1))
				return -1;
			for (b0 = 0; b0 < blocks; b0 += nb) {
				nb = blocks - b0 < repeat_limit(v) ? blocks - b0 : repeat_limit(v);
				if (vbin3(v, tmp, 0, tmp, 0, src, so + b0 * 32, nb, 0, 0, 1, E))
					return -1;
			}
			if (rest && vbin3(v, tmp, 0, tmp, 0, src, so + blocks * 32, 1, 0, 0, 1, rest))
				return -1;
			if (!f16) {
				if (vbin3(v, dst, doff, tmp, 0, tmp, eb, 1, 8, 8, 8, 1))
					return -1;
				for (k = 2; k < E; k++)
					if (vbin3(v, dst, doff, dst, doff, tmp, k * eb, 1, 8, 8, 8, 1))
						return -1;
				continue;
			}
			/* f16: the 16 lanes as f32 at tmp + 32, their product in f32 at tmp + 32,
			 * rounded to f16 (RINT) into dst */
			if (cvt_rows(v, tmp, 32, 64, PTORT_F32, tmp, 0, 32, PTORT_F16, 1, E))
				return -1;
			v->et = PTORT_F32;
			v->w = 32;
			for (k = 1; k < E && !v->errors; k++)
				vbin3(v, tmp, 32, tmp, 32, tmp, 32 + k * 4, 1, 8, 8, 8, 1);
			v->et = PTORT_F16;
			v->w = 16;
			if (v->errors || cvt_rows(v, dst, doff, 2, PTORT_F16, tmp, 32, 4, PTORT_F32, 1, 1))
				return -1;
		}
		v->cols = cols;
	}
	return 0;
}

/* ---- taddc, tsubc, taddsc, tsubsc, taxpy -------------------------------------------- */

/* The first step of taddc/tsubc (src0 op src1) or taddsc/tsubsc (src0 op scalar) over
 * rows r0 .. r0+n-1 into d + doff (pitch dp). */
static int ter_step1(vl *v, vops *p, uint64_t sc, const lower_tile *d, uint32_t doff,
		     uint32_t dp, uint32_t r0, uint32_t n)
{
	const lower_tile *a = &p->t[0], *b = &p->t[1];
	if (v->vd->kind == IR_VK_TERS)
		return bins_rows(v, (int)v->vd->vop, d, doff, dp, a, r0 * tile_pitch(a),
				 tile_pitch(a), sc, n);
	return bin_rows(v, d, doff, dp, a, r0 * tile_pitch(a), tile_pitch(a), b,
			r0 * tile_pitch(b), tile_pitch(b), n);
}

/* taddc / tsubc / taddsc / tsubsc (docs/semantics.md §7.3): dst = (src0 op x) + last,
 * two instructions, each rounding once; when dst may share bytes with the last source
 * (which the first step would overwrite before the second reads it), the first step
 * goes to the UB scratch, a scratch's worth of rows at a time. */
int lower_ter(vl *v, vops *p)
{
	const lower_tile *d = p->dst, *c = &p->t[2];
	uint32_t R = v->rows, dp = tile_pitch(d), cp = tile_pitch(c), per, r0, n, pitch;
	uint64_t sc = 0;
	lower_tile scr;
	if (v->rows_v || v->cols_v) {
		vl_err(v, "a valid shape known only at run time is not supported by this op yet%s", "");
		return -1;
	}
	if (v->vd->kind == IR_VK_TERS && scalar_bits(v, v->op->operands[1].value, &sc))
		return -1;
	if (!may_overlap(c, d))
		return ter_step1(v, p, sc, d, 0, dp, 0, R) ||
		       bin_rows_op(v, PTORT_VOP_ADD, d, 0, dp, d, 0, dp, c, 0, cp, R);
	pitch = (v->cols * (v->w / 8) + 31) / 32 * 32;
	per = scratch_tile(v, &scr, d->type, pitch);
	if (!per) {
		vl_err(v, "dst shares bytes with the last source and a row does not fit the UB "
			"scratch%s", "");
		return -1;
	}
	for (r0 = 0; r0 < R; r0 += n) {
		n = R - r0 < per ? R - r0 : per;
		if (ter_step1(v, p, sc, &scr, 0, pitch, r0, n) ||
		    bin_rows_op(v, PTORT_VOP_ADD, d, r0 * dp, dp, &scr, 0, pitch, c, r0 * cp, cp, n))
			return -1;
	}
	return 0;
}

/* taxpy (docs/semantics.md §7.3): dst = dst + src * scalar, the product rounded to
 * dst's type first (two roundings); the product goes through the UB scratch, a
 * scratch's worth of rows at a time; an f16 source with an f32 destination is
 * converted (exactly) first, the scalar too. */
int lower_axpy(vl *v, vops *p)
{
	const lower_tile *s = &p->t[0], *d = p->dst;
	uint32_t R = v->rows, dp = tile_pitch(d), sp = tile_pitch(s), per, r0, n, pitch;
	ptort_type se;
	uint64_t sc = 0;
	lower_tile scr;
	if (v->rows_v || v->cols_v) {
		vl_err(v, "a valid shape known only at run time is not supported by taxpy yet%s", "");
		return -1;
	}
	if (ir_type_to_elem(s->type->u.tb.elem, &se))
		return -1;
	v->scalar_et = se;
	if (scalar_bits(v, v->op->operands[1].value, &sc))
		return -1;
	if (se != v->et)
		sc = ptort_cvt1(se, v->et, sc, PTORT_RINT, PTORT_SAT_OFF);
	if (se != v->et && v->sdyn && !(v->sdyn = lower_rt_scalar(v->ctx, v->op, v->sdyn, v->et)))
		return v->errors++, -1;
	pitch = (v->cols * (v->w / 8) + 31) / 32 * 32;
	per = scratch_tile(v, &scr, d->type, pitch);
	if (!per) {
		vl_err(v, "a row of taxpy does not fit the UB scratch%s", "");
		return -1;
	}
	for (r0 = 0; r0 < R; r0 += n) {
		n = R - r0 < per ? R - r0 : per;
		if (se != v->et) {
			if (cvt_rows(v, &scr, 0, pitch, v->et, s, r0 * sp, sp, se, n, v->cols) ||
			    bins_rows(v, PTORT_VOP_MUL, &scr, 0, pitch, &scr, 0, pitch, sc, n))
				return -1;
		} else if (bins_rows(v, PTORT_VOP_MUL, &scr, 0, pitch, s, r0 * sp, sp, sc, n)) {
			return -1;
		}
		if (bin_rows_op(v, PTORT_VOP_ADD, d, r0 * dp, dp, d, r0 * dp, dp, &scr, 0, pitch, n))
			return -1;
	}
	return 0;
}

/* ---- tci, ttri, tfillpad_inplace --------------------------------------------------- */

/* tci (docs/semantics.md §7.3): dst(0, k) = S + k (S - k with descending) for the
 * valid columns k, wrapping in the element type: S in column 0, then doubling, the
 * columns [n, 2n) from [0, n) plus (minus) n. */
int lower_seq(vl *v, vops *p)
{
	const lower_tile *d = p->dst;
	const ir_attr *desc = ir_op_get_attr(v->op, "descending");
	uint32_t C = v->cols, dp = tile_pitch(d), eb = v->w / 8, k, n;
	uint64_t mask = v->w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << v->w) - 1, sc;
	int64_t s;
	int vop = desc && desc->kind == IR_ATTR_BOOL && desc->u.i.v ? PTORT_VOP_SUB : PTORT_VOP_ADD;
	if (v->cols_v) {
		vl_err(v, "tci with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	if (ir_value_const_int(v->op->operands[0].value, &s)) {
		sc = (uint64_t)s & mask;
	} else {
		/* a run-time start: its low bits, as the constant's (the verifier checks it is
		 * an integer) */
		sc = 0;
		v->sdyn = v->op->operands[0].value;
	}
	v->cols = 1;
	if (dup_rows(v, d, 0, dp, sc, 1))
		return -1;
	v->sdyn = NULL;
	for (k = 1; k < C; k += n) {
		n = C - k < k ? C - k : k;
		v->cols = n;
		if (bins_rows(v, vop, d, k * eb, dp, d, 0, dp, (uint64_t)k & mask, 1))
			return -1;
	}
	v->cols = C;
	return 0;
}

/* ttri (docs/semantics.md §7.3): row i of the valid region is 1 in the columns
 * j <= i + d (lower) or j >= i + d (upper), 0 elsewhere; one or two fills a row. */
int lower_tri(vl *v, vops *p)
{
	const lower_tile *d = p->dst;
	const ir_attr *ul = ir_op_get_attr(v->op, "upperOrLower");
	uint32_t R = v->rows, C = v->cols, dp = tile_pitch(d), eb = v->w / 8, i, split;
	uint64_t one = ptort_type_is_float(v->et) ? from_f32(v->et, 0x3F800000u) : 1, lo, hi;
	int64_t diag, b;
	int upper = ul && ul->kind == IR_ATTR_INT && ul->u.i.v == 1, r = 0;
	if (v->rows_v || v->cols_v) {
		vl_err(v, "ttri with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	if (!ir_value_const_int(v->op->operands[0].value, &diag)) {
		/* a run-time diagonal: the splits are computed by the instruction */
		lower_insn li;
		vl_common(v, &li, IR_OP_I_VTRI_V, 0);
		li_addr(v->ctx, &li, "dst", d, 0, v->op);
		li_int(v->ctx, &li, "one", (int64_t)one);
		li_rc(v, &li, R, C, 1);
		li_int(v->ctx, &li, "dst_pitch", dp);
		li_dyn(v->ctx, &li, "diag", v->op->operands[0].value);
		li_int(v->ctx, &li, "upper", upper);
		return vl_emit(v, &li);
	}
	lo = upper ? 0 : one; /* the value left of the split, then right of it */
	hi = upper ? one : 0;
	for (i = 0; i < R && !r; i++) {
		/* the split: columns [0, split) get lo */
		b = (int64_t)i + diag + (upper ? 0 : 1);
		split = b < 0 ? 0 : b > (int64_t)C ? C : (uint32_t)b;
		if (split) {
			v->cols = split;
			r = dup_rows(v, d, i * dp, dp, lo, 1);
		}
		if (!r && split < C) {
			v->cols = C - split;
			r = dup_rows(v, d, i * dp + split * eb, dp, hi, 1);
		}
	}
	v->cols = C;
	return r ? -1 : 0;
}
