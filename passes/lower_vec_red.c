/* lower_vec_red.c: the vector ops' reductions (trowsum/max/min, tcolsum/max/min and
 * tcolsum's isBinary), the row helpers the multi-step forms share (bin_rows, dup_rows,
 * copy_rows_p), tpart* and tfillpad, for lower_vec_op (lower_vec.c; its first comment
 * says what the lowering requires and produces). */
#include <stdio.h>
#include <string.h>

#include "passes/lower_vec.h"
#include "target/target.h"
#include "passes/tiles.h"

/* ---- reductions ------------------------------------------------------------------- */

/* A lowered instruction started (vl_start) with its dst and src at byte offsets doff
 * of d and aoff of a. */
static void li_start_ds(vl *v, lower_insn *li, ir_opcode code, int vop, const lower_tile *d,
			uint32_t doff, const lower_tile *a, uint32_t aoff)
{
	vl_start(v, li, code, vop);
	li_addr(v->ctx, li, "dst", d, doff, v->op);
	li_addr(v->ctx, li, "src", a, aoff, v->op);
}

/* vred: `repeat` repeats from src (strides src_rep blocks), results to dst. */
static int vred(vl *v, const lower_tile *dt, uint32_t doff, const lower_tile *st, uint32_t soff,
		uint32_t group, uint32_t repeat, uint32_t dst_rep, uint32_t src_rep, uint32_t m)
{
	lower_insn li;
	uint64_t hi, lo;
	vl_common(v, &li, IR_OP_I_VRED, 1);
	li_int(v->ctx, &li, "group", group);
	li_addr(v->ctx, &li, "dst", dt, doff, v->op);
	li_addr(v->ctx, &li, "src", st, soff, v->op);
	li_int(v->ctx, &li, "repeat", repeat);
	li_int(v->ctx, &li, "dst_rep", dst_rep);
	li_int(v->ctx, &li, "src_blk", 1);
	li_int(v->ctx, &li, "src_rep", src_rep);
	lane_mask(m, 2048 / v->w, &hi, &lo);
	li_int(v->ctx, &li, "mask_hi", (int64_t)hi);
	li_int(v->ctx, &li, "mask_lo", (int64_t)lo);
	return vl_emit(v, &li);
}

/* vbin d = a op b over `repeat` repeats of m lanes, repeat strides in blocks */
int vbin3(vl *v, const lower_tile *dt, uint32_t doff, const lower_tile *at, uint32_t aoff,
		 const lower_tile *bt, uint32_t boff, uint32_t repeat, uint32_t drep, uint32_t arep,
		 uint32_t brep, uint32_t m)
{
	lower_insn li;
	uint64_t hi, lo;
	vl_common(v, &li, IR_OP_I_VBIN, 1);
	li_addr(v->ctx, &li, "dst", dt, doff, v->op);
	li_addr(v->ctx, &li, "src0", at, aoff, v->op);
	li_addr(v->ctx, &li, "src1", bt, boff, v->op);
	li_int(v->ctx, &li, "repeat", repeat);
	li_int(v->ctx, &li, "dst_blk", 1);
	li_int(v->ctx, &li, "src0_blk", 1);
	li_int(v->ctx, &li, "src1_blk", 1);
	li_int(v->ctx, &li, "dst_rep", drep);
	li_int(v->ctx, &li, "src0_rep", arep);
	li_int(v->ctx, &li, "src1_rep", brep);
	lane_mask(m, 2048 / v->w, &hi, &lo);
	li_int(v->ctx, &li, "mask_hi", (int64_t)hi);
	li_int(v->ctx, &li, "mask_lo", (int64_t)lo);
	return vl_emit(v, &li);
}

/* trowsum/max/min on the repeat form, one row (docs/semantics.md §7.6). */
static int rowred_row(vl *v, vops *p, uint32_t r, int special)
{
	const lower_tile *src = &p->t[0], *tmp = &p->t[1], *dst = p->dst;
	uint32_t L = 2048 / v->w, C = v->cols, n = C / L, t = C % L, so = r * tile_pitch(src);
	uint32_t doff = r * tile_pitch(dst), m, R = (uint32_t)src->type->u.tb.rows;
	uint64_t need;
	(void)R;
	if (special) { /* f32 whole tile, DN destination: block sums (a vcgadd each) */
		switch (C) {
		case 512: /* g(g(g(row))) */
			return vred(v, tmp, 0, src, so, 8, 8, 1, 8, 64) ||
			       vred(v, tmp, 0, tmp, 0, 8, 1, 1, 8, 64) ||
			       vred(v, dst, doff, tmp, 0, 8, 1, 1, 8, 8);
		case 128: /* s = 16 block sums, u_j = s_j + s_j+8, g(u) */
			return vred(v, tmp, 0, src, so, 8, 2, 1, 8, 64) ||
			       vbin3(v, tmp, 0, tmp, 0, tmp, 32, 1, 8, 8, 8, 8) ||
			       vred(v, dst, doff, tmp, 0, 8, 1, 1, 8, 8);
		case 256: /* s = 32 block sums, w, u, g(u) */
			return vred(v, tmp, 0, src, so, 8, 4, 1, 8, 64) ||
			       vbin3(v, tmp, 0, tmp, 0, tmp, 32, 2, 1, 2, 2, 8) ||
			       vbin3(v, tmp, 0, tmp, 0, tmp, 32, 1, 8, 8, 8, 8) ||
			       vred(v, dst, doff, tmp, 0, 8, 1, 1, 8, 8);
		default: /* 1024: s = g(g(row)), u_j = s_j + s_j+8, g(u) */
			return vred(v, tmp, 0, src, so, 8, 16, 1, 8, 64) ||
			       vred(v, tmp, 0, tmp, 0, 8, 2, 1, 8, 64) ||
			       vbin3(v, tmp, 0, tmp, 0, tmp, 32, 1, 8, 8, 8, 8) ||
			       vred(v, dst, doff, tmp, 0, 8, 1, 1, 8, 8);
		}
	}
	if (C <= L)
		return vred(v, dst, doff, src, so, L, 1, 1, 8, C);
	need = (uint64_t)(n / 2 ? n / 2 : 1) * 256;
	if (tile_buf_bytes(tmp->type) < need) {
		vl_err(v, "the tmp tile is too small for the row reduction%s", "");
		return -1;
	}
	if (n == 1) { /* L < C < 2L: p0 = c0; p0 += tail; tree(p0) */
		lower_insn li;
		li_start_ds(v, &li, IR_OP_I_VUN, PTORT_VOP_MOV, tmp, 0, src, so);
		li_int(v->ctx, &li, "repeat", 1);
		li_int(v->ctx, &li, "dst_blk", 1);
		li_int(v->ctx, &li, "src_blk", 1);
		li_int(v->ctx, &li, "dst_rep", 8);
		li_int(v->ctx, &li, "src_rep", 8);
		li_int(v->ctx, &li, "mask_hi", L > 64 ? -1 : 0);
		li_int(v->ctx, &li, "mask_lo", -1);
		return vl_emit(v, &li) || vbin3(v, tmp, 0, tmp, 0, src, so + 256, 1, 8, 8, 8, t) ||
		       vred(v, dst, doff, tmp, 0, L, 1, 1, 8, L);
	}
	/* C >= 2L: pairs of chunks, odd chunk, tail, then halving */
	if (vbin3(v, tmp, 0, src, so, src, so + 256, n / 2, 8, 16, 16, L))
		return -1;
	if (n % 2 && vbin3(v, tmp, 0, tmp, 0, src, so + (n - 1) * 256, 1, 8, 8, 8, L))
		return -1;
	if (t && vbin3(v, tmp, 0, tmp, 0, src, so + n * 256, 1, 8, 8, 8, t))
		return -1;
	for (m = n / 2; m > 1; m /= 2) {
		if (vbin3(v, tmp, 0, tmp, 0, tmp, 256, m / 2, 8, 16, 16, L))
			return -1;
		if (m % 2 && vbin3(v, tmp, (m / 2 - 1) * 256, tmp, (m / 2 - 1) * 256, tmp,
				   (m - 1) * 256, 1, 8, 8, 8, L))
			return -1;
	}
	return vred(v, dst, doff, tmp, 0, L, 1, 1, 8, L);
}

int lower_rowred(vl *v, vops *p)
{
	lower_insn li;
	const ir_type *st = p->t[0].type, *dt = p->dst->type;
	uint32_t r;
	int special;
	if (v->o->target->vec.predicated) {
		/* the source's valid columns (the destination has one) */
		vl_common(v, &li, IR_OP_I_VRED_V, 1);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src", &p->t[0], 0, v->op);
		if (v->rows_v)
			li_dyn(v->ctx, &li, "rows", v->rows_v);
		else
			li_int(v->ctx, &li, "rows", v->rows);
		if (st->u.tb.v_col == IR_DYN)
			li_dyn(v->ctx, &li, "cols", p->t[0].v_col);
		else
			li_int(v->ctx, &li, "cols", st->u.tb.v_col);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src_pitch", tile_pitch(&p->t[0]));
		return vl_emit(v, &li);
	}
	/* the source's valid columns decide the order */
	if (v->rows_v || st->u.tb.v_col == IR_DYN || p->t[0].v_col) {
		vl_err(v, "a row reduction with a valid shape known only at run time is not "
			"supported by the repeat form (A2A3)%s", "");
		return -1;
	}
	v->cols = (uint32_t)st->u.tb.v_col;
	special = v->et == PTORT_F32 && st->u.tb.v_row == st->u.tb.rows &&
		  st->u.tb.v_col == st->u.tb.cols && dt->u.tb.cols == 1 &&
		  dt->u.tb.blayout == IR_BLAYOUT_COL_MAJOR &&
		  ((st->u.tb.rows == 64 && st->u.tb.cols == 128) ||
		   (st->u.tb.rows == 32 && st->u.tb.cols == 256) ||
		   (st->u.tb.rows == 16 && st->u.tb.cols == 512) ||
		   (st->u.tb.rows == 8 && st->u.tb.cols == 1024));
	for (r = 0; r < v->rows; r++)
		if (rowred_row(v, p, r, special))
			return -1;
	return 0;
}

/* `rows` rows of C columns in either form: d = a op b, each operand from its byte
 * offset, rows `pitch` bytes apart (0: the same row; d = a with pitch 0 accumulates
 * the rows of b in order). */
int bin_rows_op(vl *v, int vop, const lower_tile *d, uint32_t doff, uint32_t dp,
		       const lower_tile *a, uint32_t aoff, uint32_t ap, const lower_tile *b,
		       uint32_t boff, uint32_t bp, uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		vl_start(v, &li, IR_OP_I_VBIN_V, vop);
		li_addr(v->ctx, &li, "dst", d, doff, v->op);
		li_addr(v->ctx, &li, "src0", a, aoff, v->op);
		li_addr(v->ctx, &li, "src1", b, boff, v->op);
		li_rc(v, &li, rows, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", dp);
		li_int(v->ctx, &li, "src0_pitch", ap);
		li_int(v->ctx, &li, "src1_pitch", bp);
		li_int(v->ctx, &li, "flags", 0);
		return vl_emit(v, &li);
	}
	vs_init(&s, v, IR_OP_I_VBIN, 0);
	s.vop = vop;
	vs_add(&s, d, "dst", "dst_blk", "dst_rep", doff, dp);
	vs_add(&s, a, "src0", "src0_blk", "src0_rep", aoff, ap);
	vs_add(&s, b, "src1", "src1_blk", "src1_rep", boff, bp);
	return vs_split(&s, rows, v->cols);
}

/* bin_rows_op with the op's own element operation */
int bin_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, const lower_tile *a,
		    uint32_t aoff, uint32_t ap, const lower_tile *b, uint32_t boff, uint32_t bp,
		    uint32_t rows)
{
	return bin_rows_op(v, (int)v->vd->vop, d, doff, dp, a, aoff, ap, b, boff, bp, rows);
}

/* A register-form instruction's rows and columns and its dst and src row pitches (no
 * src pitch when ap is NULL), then the instruction. */
static int emit_rows(vl *v, lower_insn *li, uint32_t rows, uint32_t dp, const uint32_t *ap)
{
	li_rc(v, li, rows, v->cols, 0);
	li_int(v->ctx, li, "dst_pitch", dp);
	if (ap)
		li_int(v->ctx, li, "src_pitch", *ap);
	return vl_emit(v, li);
}

/* A repeat-form split over `rows` rows of dst d and src a (none when a is NULL). */
static int split_rows(vs *s, const lower_tile *d, uint32_t doff, uint32_t dp, const lower_tile *a,
		      uint32_t aoff, uint32_t ap, uint32_t rows)
{
	vs_add(s, d, "dst", "dst_blk", "dst_rep", doff, dp);
	if (a)
		vs_add(s, a, "src", "src_blk", "src_rep", aoff, ap);
	return vs_split(s, rows, s->v->cols);
}

/* `rows` rows of C columns in either form: d = a op scalar (bits of the type). */
int bins_rows(vl *v, int vop, const lower_tile *d, uint32_t doff, uint32_t dp,
		     const lower_tile *a, uint32_t aoff, uint32_t ap, uint64_t sc, uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		li_start_ds(v, &li, IR_OP_I_VBINS_V, vop, d, doff, a, aoff);
		li_scalar(v, &li, sc);
		li_int(v->ctx, &li, "flags", 0);
		return emit_rows(v, &li, rows, dp, &ap);
	}
	vs_init(&s, v, IR_OP_I_VBINS, 0);
	s.vop = vop;
	s.has_scalar = 1;
	s.scalar = sc;
	s.has_flags = 1;
	return split_rows(&s, d, doff, dp, a, aoff, ap, rows);
}

/* `rows` rows of C columns set to the scalar (bits of the type), either form. */
int dup_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, uint64_t sc,
		    uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		vl_common(v, &li, IR_OP_I_VDUP_V, 0);
		li_addr(v->ctx, &li, "dst", d, doff, v->op);
		li_scalar(v, &li, sc);
		return emit_rows(v, &li, rows, dp, NULL);
	}
	vs_init(&s, v, IR_OP_I_VDUP, 0);
	s.has_scalar = 1;
	s.scalar = sc;
	return split_rows(&s, d, doff, dp, NULL, 0, 0, rows);
}

/* `rows` rows of C columns copied from byte offset aoff of a to doff of d, each tile
 * with its own row pitch, either form. */
int copy_rows_p(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp,
		       const lower_tile *a, uint32_t aoff, uint32_t ap, uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		li_start_ds(v, &li, IR_OP_I_VUN_V, PTORT_VOP_MOV, d, doff, a, aoff);
		return emit_rows(v, &li, rows, dp, &ap);
	}
	vs_init(&s, v, IR_OP_I_VUN, 0);
	s.vop = PTORT_VOP_MOV;
	return split_rows(&s, d, doff, dp, a, aoff, ap, rows);
}

/* copy_rows_p with the tiles' own row pitches */
static int copy_rows(vl *v, const lower_tile *d, uint32_t doff, const lower_tile *a,
		     uint32_t aoff, uint32_t rows)
{
	return copy_rows_p(v, d, doff, tile_pitch(d), a, aoff, tile_pitch(a), rows);
}

/* One row of C columns copied, either form. */
static int copy_row(vl *v, const lower_tile *d, const lower_tile *a, uint32_t aoff)
{
	return copy_rows(v, d, 0, a, aoff, 1);
}

/* tcolsum with isBinary (docs/semantics.md §7.6): pair sums of the rows into tmp, the
 * odd last row added into pair 0 (A2A3) or pair R/2-1 (A5), then halving the same
 * way; dst = p_0. One row: a copy (A2A3), +0 + r_0 (A5). */
static int colsum_binary(vl *v, vops *p, uint32_t R)
{
	const lower_tile *src = &p->t[0], *dst = p->dst, *tmp = p->nin == 2 ? &p->t[1] : NULL;
	uint32_t sp = tile_pitch(src), m = R / 2, k, tp = tmp ? tile_pitch(tmp) : 0;
	int a5 = v->o->target->vec.predicated;
	if (R == 1) {
		lower_insn li;
		if (!a5)
			return copy_row(v, dst, src, 0);
		vl_common(v, &li, IR_OP_I_VBINS_V, 1);
		li_addr(v->ctx, &li, "dst", dst, 0, v->op);
		li_addr(v->ctx, &li, "src", src, 0, v->op);
		li_int(v->ctx, &li, "scalar", 0);
		li_int(v->ctx, &li, "flags", PTORT_V_SCALAR_FIRST);
		li_rc(v, &li, 1, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(dst));
		li_int(v->ctx, &li, "src_pitch", sp);
		return vl_emit(v, &li);
	}
	if (!tmp || tile_buf_bytes(tmp->type) < (uint64_t)m * tp) { /* the verifier's rule */
		vl_err(v, "internal: tcolsum with isBinary without a tmp tile of rows / 2 rows%s", "");
		return -1;
	}
	if (bin_rows(v, tmp, 0, tp, src, 0, 2 * sp, src, sp, 2 * sp, m))
		return -1;
	if (R % 2) {
		k = a5 ? m - 1 : 0;
		if (bin_rows(v, tmp, k * tp, tp, tmp, k * tp, tp, src, (R - 1) * sp, sp, 1))
			return -1;
	}
	for (; m > 1; m /= 2) {
		if (bin_rows(v, tmp, 0, tp, tmp, 0, 2 * tp, tmp, tp, 2 * tp, m / 2))
			return -1;
		if (m % 2) {
			k = a5 ? m / 2 - 1 : 0;
			if (bin_rows(v, tmp, k * tp, tp, tmp, k * tp, tp, tmp, (m - 1) * tp, tp, 1))
				return -1;
		}
	}
	return copy_row(v, dst, tmp, 0);
}

/* A5 tcolsum / tcolprod after the copy of row 0 (docs/semantics.md §7.6):
 * dst = r_0 op (r_1 op r_2) op (r_3 op r_4) ... (op r_R-1 when R-1 is odd). The pairs go
 * to tcolsum's tmp tile when it holds them all (pto-isa's kernel keeps them in a
 * register and leaves tmp alone; tmp is optional), else through the UB scratch one
 * pair at a time, in column chunks of the scratch's size. */
static int colred_pairs(vl *v, vops *p, uint32_t R)
{
	const lower_tile *src = &p->t[0], *dst = p->dst;
	const lower_tile *tmp = v->vd->vop == PTORT_VOP_ADD && p->nin == 2 ? &p->t[1] : NULL;
	uint32_t sp = tile_pitch(src), pairs = (R - 1) / 2, eb = v->w / 8, C = v->cols;
	uint32_t bytes, k, c0, n, need = v->cols_v ? sp : C * eb;
	int64_t base;
	lower_tile scr;
	if (tmp && tmp->type->u.tb.elem == src->type->u.tb.elem && tile_pitch(tmp) >= need &&
	    tile_buf_bytes(tmp->type) >= (uint64_t)pairs * tile_pitch(tmp)) {
		uint32_t tp = tile_pitch(tmp);
		if (bin_rows(v, tmp, 0, tp, src, sp, 2 * sp, src, 2 * sp, 2 * sp, pairs) ||
		    bin_rows(v, dst, 0, 0, dst, 0, 0, tmp, 0, tp, pairs))
			return -1;
	} else {
		base = ub_scratch(v, &bytes);
		if (base < 0 || (v->cols_v && need > bytes)) {
			vl_err(v, "internal: a row of run-time valid columns larger than the UB "
				"scratch (the verifier's rule)%s", "");
			return -1;
		}
		memset(&scr, 0, sizeof scr);
		scr.type = dst->type;
		scr.addr = base;
		/* (run-time columns: one pass, v->cols unused) */
		for (c0 = 0; c0 < (v->cols_v ? 1 : C); c0 += n) {
			n = v->cols_v ? 1 : C - c0 <= bytes / eb ? C - c0 : bytes / eb;
			v->cols = v->cols_v ? 0 : n;
			for (k = 0; k < pairs; k++)
				if (bin_rows(v, &scr, 0, 0, src, (2 * k + 1) * sp + c0 * eb, 0, src,
					     (2 * k + 2) * sp + c0 * eb, 0, 1) ||
				    bin_rows(v, dst, c0 * eb, 0, dst, c0 * eb, 0, &scr, 0, 0, 1))
					return v->cols = C, -1;
		}
		v->cols = C;
	}
	if ((R - 1) % 2)
		return bin_rows(v, dst, 0, 0, dst, 0, 0, src, (R - 1) * sp, sp, 1);
	return 0;
}

/* tcolsum/prod/max/min: dst = r_0, then dst = dst op r_i in order (A2A3; max/min on
 * both targets, where the order does not matter); A5 sums and multiplies pairs first
 * (§7.6). */
int lower_colred(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *dst = p->dst;
	const ir_attr *bin = ir_op_get_attr(v->op, "isBinary");
	uint32_t R, sp = tile_pitch(src);
	if (v->rows_v || src->type->u.tb.v_row == IR_DYN || src->v_row) { /* the verifier's rule */
		vl_err(v, "internal: a column reduction with a dynamic number of rows%s", "");
		return -1;
	}
	R = (uint32_t)src->type->u.tb.v_row;
	if (bin && bin->kind == IR_ATTR_BOOL && bin->u.i.v)
		return colsum_binary(v, p, R);
	if (copy_row(v, dst, src, 0))
		return -1;
	if (v->o->target->vec.predicated && R > 2 &&
	    (v->vd->vop == PTORT_VOP_MUL || v->vd->vop == PTORT_VOP_ADD))
		return colred_pairs(v, p, R);
	/* copy row 0, then accumulate rows 1 .. R-1 in order (the repeats or rows of one
	 * instruction run in order, each reading dst before writing it) */
	return R < 2 ? 0 : bin_rows(v, dst, 0, 0, dst, 0, 0, src, sp, sp, R - 1);
}

/* tpartadd/mul/max/min (docs/semantics.md §7.3): one source (full) has dst's valid
 * region, the other (part) pr x pc of it. As pto-isa's kernels: when pc < C, full is
 * copied to dst and then dst = dst op part over pr x pc (the ops are commutative, bit
 * for bit); when only pr < R, dst = src0 op src1 over pr rows, then full's rows
 * pr .. R-1 copied. */
int lower_part(vl *v, vops *p)
{
	const lower_tile *s0 = &p->t[0], *s1 = &p->t[1], *d = p->dst, *full, *part;
	uint32_t R = v->rows, C = v->cols, pr, pc, dp = tile_pitch(d);
	int r;
	if (v->rows_v || v->cols_v) {
		vl_err(v, "a partial op with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	full = (uint32_t)s0->type->u.tb.v_row == R && (uint32_t)s0->type->u.tb.v_col == C ? s0 : s1;
	part = full == s0 ? s1 : s0;
	pr = (uint32_t)part->type->u.tb.v_row;
	pc = (uint32_t)part->type->u.tb.v_col;
	if (pc < C) {
		if (!part->addr_v && !d->addr_v && part->addr == d->addr) {
			vl_err(v, "dst shares its buffer with the source of fewer valid columns, which "
				"the copy of the other source would overwrite first%s", "");
			return -1;
		}
		if ((full->addr_v || d->addr_v || full->addr != d->addr) &&
		    copy_rows(v, d, 0, full, 0, R))
			return -1;
		if (!pr || !pc)
			return 0;
		v->cols = pc;
		r = bin_rows(v, d, 0, dp, d, 0, dp, part, 0, tile_pitch(part), pr);
		v->cols = C;
		return r;
	}
	if (pr && bin_rows(v, d, 0, dp, s0, 0, tile_pitch(s0), s1, 0, tile_pitch(s1), pr))
		return -1;
	if (pr < R && (full->addr_v || d->addr_v || full->addr != d->addr))
		return copy_rows(v, d, pr * dp, full, pr * tile_pitch(full), R - pr);
	return 0;
}

/* tfillpad: the pad value over the destination's valid region, then the source's
 * valid region copied over it (docs/semantics.md §7.3). */
/* The bits of the pad value of dst's `pad` (docs/semantics.md §7.3). */
static uint64_t pad_value(vl *v, const lower_tile *dst)
{
	int64_t pad = dst->type->u.tb.pad;
	unsigned bits = v->w;
	uint64_t all = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
	if (pad != 2 && pad != 3)
		return 0;
	if (ptort_type_is_float(v->et))
		return from_f32(v->et, pad == 2 ? 0x7F800000u : 0xFF800000u);
	if (ptort_type_is_signed_int(v->et)) {
		uint64_t max = ((uint64_t)1 << (bits - 1)) - 1;
		return pad == 2 ? max : (~max & all);
	}
	return pad == 2 ? all : 0;
}

/* tfillpad_inplace (docs/semantics.md §7.3): the pad value in dst's valid region
 * outside src's (the columns right of it in src's rows, then the rows below); the
 * elements inside it are not written. */
int lower_pad_inplace(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *dst = p->dst;
	const ir_type *st = src->type;
	uint32_t R = v->rows, C = v->cols, dp = tile_pitch(dst), eb = v->w / 8, sr, sc;
	uint64_t pv = pad_value(v, dst);
	int r = 0;
	if (v->rows_v || v->cols_v || st->u.tb.v_row == IR_DYN || st->u.tb.v_col == IR_DYN) {
		vl_err(v, "tfillpad_inplace with a valid shape known only at run time is not "
			"supported%s", "");
		return -1;
	}
	sr = (uint32_t)st->u.tb.v_row < R ? (uint32_t)st->u.tb.v_row : R;
	sc = (uint32_t)st->u.tb.v_col < C ? (uint32_t)st->u.tb.v_col : C;
	if (sr && sc < C) {
		v->cols = C - sc;
		r = dup_rows(v, dst, sc * eb, dp, pv, sr);
	}
	if (!r && sr < R) {
		v->cols = C;
		r = dup_rows(v, dst, sr * dp, dp, pv, R - sr);
	}
	v->cols = C;
	return r ? -1 : 0;
}

int lower_pad(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *dst = p->dst;
	uint64_t pv = pad_value(v, dst);
	lower_insn li;
	ir_value *srows = NULL, *scols = NULL;
	uint32_t sr, sc;
	vs s;
	int dyn;
	sr = src->type->u.tb.v_row == IR_DYN ? 0 : (uint32_t)src->type->u.tb.v_row;
	sc = src->type->u.tb.v_col == IR_DYN ? 0 : (uint32_t)src->type->u.tb.v_col;
	if (src->type->u.tb.v_row == IR_DYN)
		srows = src->v_row;
	if (src->type->u.tb.v_col == IR_DYN)
		scols = src->v_col;
	dyn = srows || scols || v->rows_v || v->cols_v;
	if (reg_form(v) || dyn) {
		vl_common(v, &li, IR_OP_I_VDUP_V, 0);
		li_addr(v->ctx, &li, "dst", dst, 0, v->op);
		li_int(v->ctx, &li, "scalar", (int64_t)pv);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(dst));
		if (vl_emit(v, &li))
			return -1;
		li_start_ds(v, &li, IR_OP_I_VUN_V, PTORT_VOP_MOV, dst, 0, src, 0);
		if (srows)
			li_dyn(v->ctx, &li, "rows", srows);
		else
			li_int(v->ctx, &li, "rows", sr);
		if (scols)
			li_dyn(v->ctx, &li, "cols", scols);
		else
			li_int(v->ctx, &li, "cols", sc);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(dst));
		li_int(v->ctx, &li, "src_pitch", tile_pitch(src));
		return vl_emit(v, &li);
	}
	vs_init(&s, v, IR_OP_I_VDUP, 0);
	s.has_scalar = 1;
	s.scalar = pv;
	vs_add(&s, dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(dst));
	if (vs_split(&s, v->rows, v->cols))
		return -1;
	if (!sr || !sc)
		return 0;
	vs_init(&s, v, IR_OP_I_VUN, 0);
	s.vop = PTORT_VOP_MOV;
	vs_add(&s, dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(dst));
	vs_add(&s, src, "src", "src_blk", "src_rep", 0, tile_pitch(src));
	return vs_split(&s, sr, sc);
}
