/* lower_vec.c: the vector ops (target/vec_types.def) to the runtime's vector
 * instructions (ptort.h section 5, docs/lowered.md), for split-repeats.
 *
 * Requires: a level-2 op with placed tiles (lower_tile_of), verified (ir/verify.c
 *   verify_vec: element types, valid shapes, row-major tiles).
 * Produces: instructions inserted before the op (the caller erases it); errors at the
 *   op for what cannot be lowered yet (a scalar that is not a constant, an overlap
 *   that only placement reveals); the valid shapes each form needs static and the
 *   operands of tcolsum's isBinary and of the row expands are the verifier's rules.
 *
 * Every op covers the valid region of its destination (docs/semantics.md §7): R rows
 * of C columns; row pitches are the tiles' physical columns. Register form (A5,
 * vec.predicated): one ptort_*_v instruction per op (a broadcast source by flags or a
 * pitch of 0), a reduction by the sequences of §7.6. Repeat form (A2A3): L = 2048 / W
 * lanes per repeat; an elementwise op is split by vs_split (below): the whole region
 * as one run when every operand's rows are contiguous, else one repeat per row strided
 * by the row pitches and one instruction per group of L columns, else one run per
 * row; a run is floor(n / L) full repeats in instructions of <= repeat_max repeats and
 * one masked repeat for the rest. Predicate bit arrays (tcmp, tsel) take one run per
 * row (their bits advance L/8 bytes per repeat). trowexpand* first broadcasts the
 * column into the scratch at the top of UB with vbrcb (one 32-byte block per row);
 * tpart* copies and combines rectangles of the valid regions (lower_part);
 * trowsum/max/min follow §7.6 on the op's tmp tile, trowprod its own order of §7.6
 * (lower_rowprod); taddc/tsubc/taddsc/tsubsc and taxpy are two steps each
 * (lower_ter, lower_axpy), through the UB scratch where a step must not overwrite an
 * operand the next one reads.
 * **[decision]** An op with a valid shape known only at run time, 8-bit elements
 * (other than byte pairs) or row values that are not one contiguous column is lowered
 * to the register form on A2A3 too (reg_form; rows and columns as operands): it
 * computes the same bits element by element (docs/semantics.md §7.4); row reductions
 * with such a shape are rejected on A2A3 by the verifier (their order depends on C). */
#include <stdio.h>
#include <string.h>

#include "passes/lower.h"
#include "passes/lower_vec.h"
#include "target/target.h"
#include "passes/tiles.h"

/* Whether a row-expand's src1 holds one 32-byte block per row (32 / element bytes
 * valid columns in a tile of more than one column: pto-isa's mode 2), whose element
 * c mod (32 / bytes) each column c takes, rather than one value per row (its column
 * 0, mode 1); docs/semantics.md §7.3, checked by the verifier. */
static int row_block(const vl *v, const lower_tile *t)
{
	return t->type->u.tb.cols > 1 && t->type->u.tb.v_col == 256 / v->w;
}

/* ---- the ops ---------------------------------------------------------------------- */

static int resolve(vl *v, vops *p)
{
	unsigned i;
	memset(p, 0, sizeof *p);
	p->nin = v->op->num_operands - 1;
	for (i = 0; i < v->op->num_operands && i < 6; i++) {
		ir_value *x = v->op->operands[i].value;
		if (!ir_type_is_tile(x->type))
			continue;
		p->is_tile[i] = 1;
		if (lower_tile_of(v->ctx, v->op, x, &p->t[i])) {
			v->errors++;
			return -1;
		}
	}
	p->dst = &p->t[v->op->num_operands - 1];
	return 0;
}

/* The sources of a register-form compare or select: src0 and src1 (two tiles), or src
 * and the scalar; each with its pitch. */
static void v_sources(vl *v, lower_insn *li, const lower_tile *a, const lower_tile *b,
		      uint64_t sc)
{
	if (b) {
		li_addr(v->ctx, li, "src0", a, 0, v->op);
		li_addr(v->ctx, li, "src1", b, 0, v->op);
		li_int(v->ctx, li, "src0_pitch", tile_pitch(a));
		li_int(v->ctx, li, "src1_pitch", tile_pitch(b));
	} else {
		li_addr(v->ctx, li, "src", a, 0, v->op);
		li_scalar(v, li, sc);
		li_int(v->ctx, li, "src_pitch", tile_pitch(a));
	}
}

/* A vbin_v's fields over the whole valid region, dst = src0 (t[0]) op src1 (b, its
 * pitch bp), then the instruction. */
static int vbin_v_fields(vl *v, lower_insn *li, vops *p, const lower_tile *b, uint32_t bp,
			 unsigned flags)
{
	li_addr(v->ctx, li, "dst", p->dst, 0, v->op);
	li_addr(v->ctx, li, "src0", &p->t[0], 0, v->op);
	li_addr(v->ctx, li, "src1", b, 0, v->op);
	li_rc(v, li, v->rows, v->cols, 1);
	li_int(v->ctx, li, "dst_pitch", tile_pitch(p->dst));
	li_int(v->ctx, li, "src0_pitch", tile_pitch(&p->t[0]));
	li_int(v->ctx, li, "src1_pitch", bp);
	li_int(v->ctx, li, "flags", flags);
	return vl_emit(v, li);
}

/* The register-form call of an elementwise op; src1_pitch / flags for broadcasts. */
static int lower_v_elementwise(vl *v, vops *p)
{
	lower_insn li;
	const ir_vecdef *vd = v->vd;
	unsigned si = 0;
	uint64_t sc = 0;
	switch (vd->kind) {
	case IR_VK_BIN: case IR_VK_ROWEXP: case IR_VK_COLEXP:
		vl_common(v, &li, IR_OP_I_VBIN_V, 1);
		return vbin_v_fields(v, &li, p, &p->t[1],
				     vd->kind == IR_VK_COLEXP ? 0 : tile_pitch(&p->t[1]),
				     vd->kind != IR_VK_ROWEXP ? 0
				     : row_block(v, &p->t[1]) ? PTORT_V_BLK1 : PTORT_V_BRC1);
	case IR_VK_BINS:
		si = p->is_tile[0] ? 0 : 1;
		if (scalar_bits(v, v->op->operands[1 - si].value, &sc))
			return -1;
		vl_common(v, &li, IR_OP_I_VBINS_V, 1);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src", &p->t[si], 0, v->op);
		li_scalar(v, &li, sc);
		li_int(v->ctx, &li, "flags", si ? PTORT_V_SCALAR_FIRST : 0);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src_pitch", tile_pitch(&p->t[si]));
		return vl_emit(v, &li);
	case IR_VK_UN: case IR_VK_COLBC:
		vl_common(v, &li, IR_OP_I_VUN_V, 1);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src", &p->t[0], 0, v->op);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src_pitch", vd->kind == IR_VK_COLBC ? 0 : tile_pitch(&p->t[0]));
		return vl_emit(v, &li);
	case IR_VK_ROWBC: {
		/* the row's element in every column: and(x, x) on the unsigned integer of the
		 * width (the bits unchanged), both sources broadcast per row */
		ptort_type et = v->et;
		v->et = v->w == 8 ? PTORT_U8 : v->w == 16 ? PTORT_U16 : PTORT_U32;
		vl_start(v, &li, IR_OP_I_VBIN_V, PTORT_VOP_AND);
		v->et = et;
		return vbin_v_fields(v, &li, p, &p->t[0], tile_pitch(&p->t[0]),
				     PTORT_V_BRC0 | PTORT_V_BRC1);
	}
	case IR_VK_DUP:
		if (scalar_bits(v, v->op->operands[0].value, &sc))
			return -1;
		vl_common(v, &li, IR_OP_I_VDUP_V, 0);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_scalar(v, &li, sc);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		return vl_emit(v, &li);
	case IR_VK_CMP: case IR_VK_CMPS: {
		const ir_attr *cm = ir_op_get_attr(v->op, "cmpMode");
		if (vd->kind == IR_VK_CMPS && scalar_bits(v, v->op->operands[1].value, &sc))
			return -1;
		vl_common(v, &li, vd->kind == IR_VK_CMP ? IR_OP_I_VCMP_V : IR_OP_I_VCMPS_V, 0);
		li_attr(v->ctx, &li, "cmp", cm ? cm : ir_attr_pto(v->ctx, "cmp", "eq", IR_PTO_ANGLE));
		li_addr(v->ctx, &li, "dst_bits", p->dst, 0, v->op);
		v_sources(v, &li, &p->t[0], vd->kind == IR_VK_CMP ? &p->t[1] : NULL, sc);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "bits_pitch", tile_pitch(p->dst));
		return vl_emit(v, &li);
	}
	case IR_VK_SEL: case IR_VK_SELS:
		if (vd->kind == IR_VK_SELS && scalar_bits(v, v->op->operands[3].value, &sc))
			return -1;
		vl_common(v, &li, vd->kind == IR_VK_SEL ? IR_OP_I_VSEL_V : IR_OP_I_VSELS_V, 0);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "sel_bits", &p->t[0], 0, v->op);
		v_sources(v, &li, &p->t[1], vd->kind == IR_VK_SEL ? &p->t[2] : NULL, sc);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "bits_pitch", tile_pitch(&p->t[0]));
		return vl_emit(v, &li);
	default:
		return -1;
	}
}

static void vs_sources(vs *s, const lower_tile *a, const lower_tile *b, uint64_t sc)
{
	if (b) {
		vs_add(s, a, "src0", "src0_blk", "src0_rep", 0, tile_pitch(a));
		vs_add(s, b, "src1", "src1_blk", "src1_rep", 0, tile_pitch(b));
	} else {
		s->has_scalar = 1;
		s->scalar = sc;
		vs_add(s, a, "src", "src_blk", "src_rep", 0, tile_pitch(a));
	}
}

/* The repeat-form split of an elementwise op. */
static int lower_r_elementwise(vl *v, vops *p)
{
	const ir_vecdef *vd = v->vd;
	vs s;
	uint64_t sc = 0;
	unsigned si;
	lower_tile scr;
	switch (vd->kind) {
	case IR_VK_BIN: case IR_VK_COLEXP:
		vs_init(&s, v, IR_OP_I_VBIN, 1);
		vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(p->dst));
		vs_add(&s, &p->t[0], "src0", "src0_blk", "src0_rep", 0, tile_pitch(&p->t[0]));
		vs_add(&s, &p->t[1], "src1", "src1_blk", "src1_rep", 0,
		       vd->kind == IR_VK_COLEXP ? 0 : tile_pitch(&p->t[1]));
		return vs_split(&s, v->rows, v->cols);
	case IR_VK_ROWEXP: case IR_VK_ROWBC: {
		/* vbrcb of src1's column into the UB scratch, one 32-byte block per row, then
		 * the op reading that block in every lane of the row (block stride 0);
		 * trowexpand: a copy of that block (src's column). src1 holding the blocks
		 * itself (row_block): the op reads them in place. Row values that are not one
		 * contiguous column (an ND source, rows 32 bytes apart): the register form,
		 * as pto-isa's kernel reads each row's value with the scalar unit and fills the
		 * row with it (the same bits, element by element). */
		const lower_tile *col = vd->kind == IR_VK_ROWBC ? &p->t[0] : &p->t[1];
		uint32_t bytes, r0, n, maxr = repeat_limit(v);
		int64_t base = ub_scratch(v, &bytes);
		lower_insn li;
		if (vd->kind == IR_VK_ROWEXP && row_block(v, col)) {
			vs_init(&s, v, IR_OP_I_VBIN, 1);
			vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(p->dst));
			vs_add(&s, &p->t[0], "src0", "src0_blk", "src0_rep", 0, tile_pitch(&p->t[0]));
			vs_add(&s, col, "src1", "src1_blk", "src1_rep", 0, tile_pitch(col));
			s.o[2].per_rep = 0;
			s.o[2].blk_stride = 0;
			return vs_split(&s, v->rows, v->cols);
		}
		if (base < 0 || tile_pitch(col) != v->w / 8)
			return lower_v_elementwise(v, p);
		memset(&scr, 0, sizeof scr);
		scr.type = col->type;
		for (r0 = 0; r0 < v->rows; r0 += n) {
			n = v->rows - r0;
			if (n > bytes / 32)
				n = bytes / 32 / 8 * 8;
			if (n > maxr * 8)
				n = maxr * 8;
			scr.addr = base;
			vl_common(v, &li, IR_OP_I_VBRCB, 0);
			li_int(v->ctx, &li, "dst", base);
			li_addr(v->ctx, &li, "src", col, r0 * (v->w / 8), v->op);
			li_int(v->ctx, &li, "repeat", (n + 7) / 8);
			li_int(v->ctx, &li, "dst_blk", 1);
			li_int(v->ctx, &li, "dst_rep", 8);
			if (vl_emit(v, &li))
				return -1;
			if (vd->kind == IR_VK_ROWBC) {
				vs_init(&s, v, IR_OP_I_VUN, 1);
				vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", r0 * tile_pitch(p->dst),
				       tile_pitch(p->dst));
				vs_add(&s, &scr, "src", "src_blk", "src_rep", 0, 32);
				s.o[1].per_rep = 0;
				s.o[1].blk_stride = 0;
				if (vs_split(&s, n, v->cols))
					return -1;
				continue;
			}
			vs_init(&s, v, IR_OP_I_VBIN, 1);
			vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", r0 * tile_pitch(p->dst),
			       tile_pitch(p->dst));
			vs_add(&s, &p->t[0], "src0", "src0_blk", "src0_rep", r0 * tile_pitch(&p->t[0]),
			       tile_pitch(&p->t[0]));
			vs_add(&s, &scr, "src1", "src1_blk", "src1_rep", 0, 32);
			s.o[2].per_rep = 0;
			s.o[2].blk_stride = 0;
			if (vs_split(&s, n, v->cols))
				return -1;
		}
		return 0;
	}
	case IR_VK_BINS:
		si = p->is_tile[0] ? 0 : 1;
		if (scalar_bits(v, v->op->operands[1 - si].value, &sc))
			return -1;
		vs_init(&s, v, IR_OP_I_VBINS, 1);
		s.has_scalar = 1;
		s.scalar = sc;
		s.has_flags = 1;
		s.flags = si ? PTORT_V_SCALAR_FIRST : 0;
		vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(p->dst));
		vs_add(&s, &p->t[si], "src", "src_blk", "src_rep", 0, tile_pitch(&p->t[si]));
		return vs_split(&s, v->rows, v->cols);
	case IR_VK_UN: case IR_VK_COLBC:
		vs_init(&s, v, IR_OP_I_VUN, 1);
		vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(p->dst));
		vs_add(&s, &p->t[0], "src", "src_blk", "src_rep", 0,
		       vd->kind == IR_VK_COLBC ? 0 : tile_pitch(&p->t[0]));
		return vs_split(&s, v->rows, v->cols);
	case IR_VK_DUP:
		if (scalar_bits(v, v->op->operands[0].value, &sc))
			return -1;
		vs_init(&s, v, IR_OP_I_VDUP, 0);
		s.has_scalar = 1;
		s.scalar = sc;
		vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(p->dst));
		return vs_split(&s, v->rows, v->cols);
	case IR_VK_CMP: case IR_VK_CMPS:
		if (vd->kind == IR_VK_CMPS && scalar_bits(v, v->op->operands[1].value, &sc))
			return -1;
		vs_init(&s, v, vd->kind == IR_VK_CMP ? IR_OP_I_VCMP : IR_OP_I_VCMPS, 0);
		s.has_cmp = 1;
		s.per_row = 1;
		vs_add(&s, p->dst, "dst_bits", NULL, NULL, 0, tile_pitch(p->dst));
		s.o[0].per_rep = 2048 / v->w / 8;
		vs_sources(&s, &p->t[0], vd->kind == IR_VK_CMP ? &p->t[1] : NULL, sc);
		return vs_split(&s, v->rows, v->cols);
	case IR_VK_SEL: case IR_VK_SELS:
		if (vd->kind == IR_VK_SELS && scalar_bits(v, v->op->operands[3].value, &sc))
			return -1;
		vs_init(&s, v, vd->kind == IR_VK_SEL ? IR_OP_I_VSEL : IR_OP_I_VSELS, 0);
		s.per_row = 1;
		vs_add(&s, p->dst, "dst", "dst_blk", "dst_rep", 0, tile_pitch(p->dst));
		vs_add(&s, &p->t[0], "sel_bits", NULL, NULL, 0, tile_pitch(&p->t[0]));
		s.o[1].per_rep = 2048 / v->w / 8;
		vs_sources(&s, &p->t[1], vd->kind == IR_VK_SEL ? &p->t[2] : NULL, sc);
		return vs_split(&s, v->rows, v->cols);
	default:
		return -1;
	}
}

/* Whether the scalar operand of a tile-scalar op (the one that is not a tile) is an
 * arith.constant: a run-time one is not paired (the repeat form's byte pairs repeat the
 * scalar's byte, which is known at compile time only for a constant) */
static int scalar_is_const(const ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_operands; i++) {
		const ir_value *x = op->operands[i].value;
		if (!ir_type_is_tile(x->type))
			return x->def && x->def->code == IR_OP_CONSTANT;
	}
	return 1;
}

/* The lowering of each vector kind with one of its own (rowred: lower_rowprod for
 * trowprod, else lower_rowred); the others are elementwise. */
static int (*const by_kind[])(vl *v, vops *p) = {
	[IR_VK_COLRED] = lower_colred,
	[IR_VK_PART] = lower_part,
	[IR_VK_TER] = lower_ter, [IR_VK_TERS] = lower_ter,
	[IR_VK_AXPY] = lower_axpy,
	[IR_VK_PAD] = lower_pad, [IR_VK_PADIN] = lower_pad_inplace,
	[IR_VK_SEQ] = lower_seq,
	[IR_VK_TRI] = lower_tri,
};

unsigned lower_vec_op(ir_ctx *ctx, ir_op *op, const pass_opts *o)
{
	vl v;
	vops p;
	const ir_type *dt, *data;
	memset(&v, 0, sizeof v);
	v.ctx = ctx;
	v.op = op;
	v.o = o;
	v.vd = ir_vecdef_get(op->code);
	if (!v.vd)
		return 0;
	if (op->num_results) {
		vl_err(&v, "tile SSA form (level 1) must be bufferized first%s", "");
		return v.errors;
	}
	if (resolve(&v, &p))
		return v.errors;
	dt = p.dst->type;
	if (v.vd->kind == IR_VK_TRANS) {
		/* one instruction: the runtime transposes tile to tile (ptort_ttrans) */
		lower_insn li;
		li_init(&li, IR_OP_I_TTRANS);
		li_tile(ctx, &li, "src", &p.t[0]);
		li_tile(ctx, &li, "dst", p.dst);
		if (!li_emit(ctx, &li, op))
			v.errors++;
		return v.errors;
	}
	/* the data's element type: the compared tiles for tcmp/tcmps */
	data = v.vd->kind == IR_VK_CMP || v.vd->kind == IR_VK_CMPS ? p.t[0].type : dt;
	if (ir_type_to_elem(data->u.tb.elem, &v.et)) {
		vl_err(&v, "element type without a runtime type%s", "");
		return v.errors;
	}
	v.w = ptort_type_bits(v.et);
	/* the valid region the op covers: the destination's (the compared tile's for
	 * compares, whose destination holds bits) */
	{
		const lower_tile *rt = v.vd->kind == IR_VK_CMP || v.vd->kind == IR_VK_CMPS ? &p.t[0]
											   : p.dst;
		if (rt->type->u.tb.v_row == IR_DYN)
			v.rows_v = rt->v_row;
		else
			v.rows = (uint32_t)rt->type->u.tb.v_row;
		if (rt->type->u.tb.v_col == IR_DYN)
			v.cols_v = rt->v_col;
		else
			v.cols = (uint32_t)rt->type->u.tb.v_col;
		if ((!v.rows_v && !v.rows) || (!v.cols_v && !v.cols))
			return 0; /* an empty region: nothing to do */
	}
	v.scalar_et = v.et;
	/* and/or/xor of 8-bit elements on the repeat form: byte pairs as 16-bit lanes (the
	 * bits are the same; a scalar is repeated in both bytes) */
	if (!o->target->vec.predicated && v.w == 8 && !v.rows_v && !v.cols_v && v.cols % 2 == 0 &&
	    (v.vd->kind != IR_VK_BINS || scalar_is_const(op)) &&
	    (v.vd->kind == IR_VK_BIN || v.vd->kind == IR_VK_BINS) &&
	    (v.vd->vop == PTORT_VOP_AND || v.vd->vop == PTORT_VOP_OR || v.vd->vop == PTORT_VOP_XOR)) {
		v.pair8 = 1;
		v.et = PTORT_U16;
		v.w = 16;
		v.cols /= 2;
	}
	if (v.vd->kind == IR_VK_ROWRED)
		(v.vd->vop == PTORT_VOP_MUL ? lower_rowprod : lower_rowred)(&v, &p);
	else if ((size_t)v.vd->kind < sizeof by_kind / sizeof by_kind[0] && by_kind[v.vd->kind])
		by_kind[v.vd->kind](&v, &p);
	else if (reg_form(&v))
		lower_v_elementwise(&v, &p);
	else
		lower_r_elementwise(&v, &p);
	return v.errors;
}
