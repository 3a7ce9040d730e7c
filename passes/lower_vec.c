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

#define PASS_NAME "split-repeats"

void vl_err(vl *v, const char *fmt, const char *a)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a);
	ir_error(v->ctx, v->op->loc, "'%s' %s: %s", v->op->name, PASS_NAME, msg);
	v->errors++;
}

/* Row pitch of a tile in bytes: its physical columns (one-row or one-column tiles
 * in either blayout address element (r, 0) or (0, c) the same way: verify_vec). */
/* The most repeats (and the largest repeat stride, in 32-byte units) one repeat-form
 * instruction takes: the target's limits; a target without one (0) still has the
 * instruction's 8-bit fields (docs/semantics.md §5.1). */
uint32_t repeat_limit(const vl *v)
{
	return v->o->target->vec.repeat_max ? v->o->target->vec.repeat_max : 255;
}

static uint32_t repeat_stride_limit(const vl *v)
{
	return v->o->target->vec.repeat_stride_max ? v->o->target->vec.repeat_stride_max : 255;
}

uint32_t tile_pitch(const lower_tile *t)
{
	ptort_type e;
	if (ir_type_to_elem(t->type->u.tb.elem, &e))
		return 0;
	return (uint32_t)((uint64_t)t->type->u.tb.cols * ptort_type_bits(e) / 8);
}

/* ---- scalars -------------------------------------------------------------------------- */

/* f32 bits `b` as a value of `et` (tcvt RINT, saturation off; f32 itself unchanged:
 * an f32 -> f32 tcvt would round to an integral value, docs/semantics.md §3). */
uint64_t from_f32(ptort_type et, uint32_t b)
{
	return et == PTORT_F32 ? b : ptort_cvt1(PTORT_F32, et, b, PTORT_RINT, PTORT_SAT_OFF);
}

/* The bits of scalar `s` converted to the element type (docs/semantics.md §7.3: as a
 * tcvt with RINT, saturation off). Only constants are known here. */
int scalar_bits(vl *v, ir_value *s, uint64_t *out)
{
	const ir_attr *a = s && s->def && s->def->code == IR_OP_CONSTANT
				   ? ir_op_get_attr(s->def, "value") : NULL;
	ptort_type from;
	char buf[1200];
	int n;
	if (!a || (a->kind != IR_ATTR_INT && a->kind != IR_ATTR_FLOAT)) {
		/* a run-time scalar: converted by the generated code (lower_scalar.c) */
		*out = 0;
		if (!(v->sdyn = lower_rt_scalar(v->ctx, v->op, s, v->scalar_et))) {
			v->errors++;
			return -1;
		}
		return 0;
	}
	if (a->kind == IR_ATTR_INT) {
		const ir_type *t = s->type;
		int64_t x = a->u.i.v;
		if (t->kind == IR_TYPE_INT && t->u.i.bits < 64) {
			/* the constant's own width and signedness first */
			uint64_t m = ((uint64_t)1 << t->u.i.bits) - 1, u = (uint64_t)x & m;
			if (t->u.i.signedness != IR_INT_UNSIGNED && (u >> (t->u.i.bits - 1) & 1))
				x = (int64_t)(u | ~m);
			else
				x = (int64_t)u;
		}
		from = t->kind == IR_TYPE_INT && t->u.i.signedness == IR_INT_UNSIGNED ? PTORT_U64
										  : PTORT_I64;
		*out = ptort_cvt1(from, v->scalar_et, (uint64_t)x, PTORT_RINT, PTORT_SAT_OFF);
		if (v->pair8)
			*out = (*out & 0xFF) * 0x0101;
		return 0;
	}
	if (a->u.f.type && a->u.f.type->kind == IR_TYPE_FLOAT && a->u.f.type->u.f.kind != IR_F64) {
		/* an f32/f16/bf16 constant: its exact bits (a NaN keeps sign, payload and quiet
		 * bit, docs/semantics.md §8.2), used as they are by an element of its own type
		 * and converted as tcvt to another (a same-type tcvt would round to an
		 * integral value: §3) */
		ptort_type ct = (ptort_type)a->u.f.type->u.f.kind;
		uint64_t b;
		if (ir_float_attr_bits(a, a->u.f.type, &b))
			return vl_err(v, "cannot convert the scalar constant%s", ""), -1;
		*out = ct == v->scalar_et ? b : ptort_cvt1(ct, v->scalar_et, b, PTORT_RINT, PTORT_SAT_OFF);
		if (v->pair8)
			*out = (*out & 0xFF) * 0x0101;
		return 0;
	}
	/* an f64: its exact decimal value, rounded once to the element type (a NaN: the
	 * conversion's NaN, §3) */
	if (a->u.f.v != a->u.f.v) {
		*out = ptort_cvt1(PTORT_F32, v->scalar_et, 0x7FC00000u, PTORT_RINT, PTORT_SAT_OFF);
		return 0;
	}
	n = snprintf(buf, sizeof buf, "%.1100g", a->u.f.v);
	if (n <= 0 || (size_t)n >= sizeof buf) {
		vl_err(v, "cannot convert the scalar constant%s", "");
		return -1;
	}
	if (ptort_type_is_float(v->scalar_et)) {
		int rc = ptort_value_parse(v->scalar_et, buf, (size_t)n, out);
		if (rc == -2) /* beyond the largest finite value: the rounding gives inf */
			*out = from_f32(v->scalar_et, a->u.f.v > 0 ? 0x7F800000u : 0xFF800000u);
		else if (rc)
			return vl_err(v, "cannot convert the scalar constant%s", ""), -1;
		return 0;
	}
	{
		/* to an integer element type: via f32 bits of the value (exact for f32/f16/bf16
		 * constants), converted as tcvt f32 -> int with RINT */
		float f = (float)a->u.f.v;
		uint32_t b;
		memcpy(&b, &f, 4);
		*out = ptort_cvt1(PTORT_F32, v->scalar_et, b, PTORT_RINT, PTORT_SAT_OFF);
		if (v->pair8)
			*out = (*out & 0xFF) * 0x0101;
	}
	return 0;
}

/* The scalar field of `li`: the run-time scalar if the op has one, else the bits sc. */
void li_scalar(vl *v, lower_insn *li, uint64_t sc)
{
	if (v->sdyn)
		li_dyn(v->ctx, li, "scalar", v->sdyn);
	else
		li_int(v->ctx, li, "scalar", (int64_t)sc);
}

/* Whether a row-expand's src1 holds one 32-byte block per row (32 / element bytes
 * valid columns in a tile of more than one column: pto-isa's mode 2), whose element
 * c mod (32 / bytes) each column c takes, rather than one value per row (its column
 * 0, mode 1); docs/semantics.md §7.3, checked by the verifier. */
static int row_block(const vl *v, const lower_tile *t)
{
	return t->type->u.tb.cols > 1 && t->type->u.tb.v_col == 256 / v->w;
}

/* ---- building one instruction ------------------------------------------------------ */

/* Starts instruction `code` with mem, `op` (the element op `vop`, unless -1) and type. */
void vl_start(vl *v, lower_insn *li, ir_opcode code, int vop)
{
	li_init(li, code);
	li_mem(v->ctx, li, IR_MEM_VEC);
	if (vop >= 0)
		li_attr(v->ctx, li, "op", ir_attr_string(v->ctx, ptort_vop_name((ptort_vop)vop),
							 strlen(ptort_vop_name((ptort_vop)vop))));
	li_attr(v->ctx, li, "type", ir_attr_type(v->ctx, ir_type_elem(v->ctx, v->et)));
}

/* ... with the op's own element operation (with_op) or none */
void vl_common(vl *v, lower_insn *li, ir_opcode code, int with_op)
{
	vl_start(v, li, code, with_op ? (int)v->vd->vop : -1);
}

int vl_emit(vl *v, lower_insn *li)
{
	if (!li_emit(v->ctx, li, v->op)) {
		v->errors++;
		return -1;
	}
	return 0;
}

/* rows / cols fields of the register form: the static count, or the dyn value (rows:
 * with `dyn`, the region's; cols: the region's columns whenever they are dynamic, as
 * every caller covers all of them) */
void li_rc(vl *v, lower_insn *li, uint32_t rows, uint32_t cols, int dyn)
{
	if (dyn && v->rows_v)
		li_dyn(v->ctx, li, "rows", v->rows_v);
	else
		li_int(v->ctx, li, "rows", rows);
	if (v->cols_v)
		li_dyn(v->ctx, li, "cols", v->cols_v);
	else
		li_int(v->ctx, li, "cols", cols);
}

/* Whether the op's instructions take the register form: always on A5; on A2A3 for a
 * valid shape known only at run time and for 8-bit elements, which the repeat form
 * does not take (docs/semantics.md §7.4; the same bits, element by element). */
int reg_form(const vl *v)
{
	return v->o->target->vec.predicated || v->rows_v || v->cols_v || v->w == 8;
}

/* ---- the repeat form: splitting an elementwise region ------------------------------- */

void lane_mask(uint32_t m, uint32_t lanes, uint64_t *hi, uint64_t *lo)
{
	*hi = 0;
	*lo = m >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << m) - 1;
	if (lanes > 64 && m > 64)
		*hi = m - 64 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (m - 64)) - 1;
}

/* One instruction: offsets off[i], `repeat` repeats, rep strides rep[i], m lanes. */
int vs_emit(vs *s, const uint32_t *off, uint32_t repeat, const uint32_t *rep, uint32_t m)
{
	vl *v = s->v;
	lower_insn li;
	unsigned i;
	uint64_t hi, lo;
	uint32_t L = 2048 / v->w;
	vl_start(v, &li, s->code, s->vop);
	if (s->has_cmp)
		li_attr(v->ctx, &li, "cmp", ir_op_get_attr(v->op, "cmpMode") ? ir_op_get_attr(v->op, "cmpMode")
				: ir_attr_pto(v->ctx, "cmp", "eq", IR_PTO_ANGLE));
	for (i = 0; i < s->n; i++) {
		li_addr(v->ctx, &li, s->o[i].name, s->o[i].t, off[i], v->op);
		if (s->o[i].blk)
			li_int(v->ctx, &li, s->o[i].blk, s->o[i].blk_stride);
		if (s->o[i].rep)
			li_int(v->ctx, &li, s->o[i].rep, rep[i]);
	}
	if (s->has_scalar)
		li_scalar(v, &li, s->scalar);
	if (s->has_flags)
		li_int(v->ctx, &li, "flags", s->flags);
	li_int(v->ctx, &li, "repeat", repeat);
	lane_mask(m, L, &hi, &lo);
	li_int(v->ctx, &li, "mask_hi", (int64_t)hi);
	li_int(v->ctx, &li, "mask_lo", (int64_t)lo);
	return vl_emit(v, &li);
}

/* n elements from offsets base[i], each operand advancing per_rep bytes per repeat */
static int vs_run(vs *s, const uint32_t *base, uint32_t n)
{
	uint32_t L = 2048 / s->v->w, full = n / L, k = 0, chunk, off[VS_MAX], rep[VS_MAX];
	uint32_t maxr = repeat_limit(s->v);
	unsigned i;
	for (i = 0; i < s->n; i++)
		rep[i] = s->o[i].per_rep / 32; /* a bit array (L/8 bytes) never strides repeats */
	for (i = 0; i < s->n; i++) /* a bit array advances L bits a repeat by itself */
		if (s->o[i].rep && s->o[i].per_rep % 32)
			maxr = 1;
	while (k < full) {
		chunk = full - k < maxr ? full - k : maxr;
		for (i = 0; i < s->n; i++)
			off[i] = base[i] + k * s->o[i].per_rep;
		if (vs_emit(s, off, chunk, rep, L))
			return -1;
		k += chunk;
	}
	if (n % L) {
		for (i = 0; i < s->n; i++)
			off[i] = base[i] + full * s->o[i].per_rep;
		if (vs_emit(s, off, 1, rep, n % L))
			return -1;
	}
	return 0;
}

/* The region rows x cols of the operands. */
int vs_split(vs *s, uint32_t rows, uint32_t cols)
{
	vl *v = s->v;
	uint32_t L = 2048 / v->w, row_bytes = cols * v->w / 8, base[VS_MAX], rep[VS_MAX];
	uint32_t maxr = repeat_limit(v), smax = repeat_stride_limit(v);
	unsigned i;
	uint32_t r, j, chunk;
	int contiguous = !s->per_row, strided = !s->per_row;
	if (v->w != 16 && v->w != 32) { /* reg_form takes the others */
		vl_err(v, "internal: the repeat form takes 16- and 32-bit elements only%s", "");
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		if (s->o[i].pitch != row_bytes || s->o[i].per_rep != 256)
			contiguous = 0;
		if (s->o[i].pitch % 32 || s->o[i].pitch / 32 > smax)
			strided = 0;
	}
	if (contiguous || rows == 1) {
		if (!contiguous && rows == 1)
			s->per_row = 1;
		for (i = 0; i < s->n; i++)
			base[i] = s->o[i].off;
		if (!s->per_row)
			return vs_run(s, base, rows * cols);
	}
	if (strided && !s->per_row) {
		for (i = 0; i < s->n; i++)
			rep[i] = s->o[i].pitch / 32;
		for (j = 0; j * L < cols; j++) {
			uint32_t m = cols - j * L < L ? cols - j * L : L;
			for (r = 0; r < rows; r += chunk) {
				chunk = rows - r < maxr ? rows - r : maxr;
				for (i = 0; i < s->n; i++)
					base[i] = s->o[i].off + r * s->o[i].pitch + j * s->o[i].per_rep;
				if (vs_emit(s, base, chunk, rep, m))
					return -1;
			}
		}
		return 0;
	}
	for (r = 0; r < rows; r++) {
		for (i = 0; i < s->n; i++)
			base[i] = s->o[i].off + r * s->o[i].pitch;
		if (vs_run(s, base, cols))
			return -1;
	}
	return 0;
}

void vs_init(vs *s, vl *v, ir_opcode code, int with_op)
{
	memset(s, 0, sizeof *s);
	s->v = v;
	s->code = code;
	s->vop = with_op ? (int)v->vd->vop : -1;
}

/* A data operand: address field `name`, strides `name_blk` / `name_rep`. */
void vs_add(vs *s, const lower_tile *t, const char *name, const char *blk, const char *rep,
		   uint32_t off, uint32_t pitch)
{
	vs_opnd *p = &s->o[s->n++];
	p->t = t;
	p->name = name;
	p->blk = blk;
	p->rep = rep;
	p->off = off;
	p->pitch = pitch;
	p->per_rep = 256;
	p->blk_stride = 1;
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
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src0", &p->t[0], 0, v->op);
		li_addr(v->ctx, &li, "src1", &p->t[1], 0, v->op);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src0_pitch", tile_pitch(&p->t[0]));
		li_int(v->ctx, &li, "src1_pitch", vd->kind == IR_VK_COLEXP ? 0 : tile_pitch(&p->t[1]));
		li_int(v->ctx, &li, "flags", vd->kind != IR_VK_ROWEXP ? 0
					     : row_block(v, &p->t[1]) ? PTORT_V_BLK1 : PTORT_V_BRC1);
		return vl_emit(v, &li);
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
		int r;
		v->et = v->w == 8 ? PTORT_U8 : v->w == 16 ? PTORT_U16 : PTORT_U32;
		vl_start(v, &li, IR_OP_I_VBIN_V, PTORT_VOP_AND);
		v->et = et;
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src0", &p->t[0], 0, v->op);
		li_addr(v->ctx, &li, "src1", &p->t[0], 0, v->op);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src0_pitch", tile_pitch(&p->t[0]));
		li_int(v->ctx, &li, "src1_pitch", tile_pitch(&p->t[0]));
		li_int(v->ctx, &li, "flags", PTORT_V_BRC0 | PTORT_V_BRC1);
		r = vl_emit(v, &li);
		return r;
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

int lower_vec_uses_ub_scratch(const ir_op *op, const struct target *t)
{
	const ir_vecdef *vd = ir_vecdef_get(op->code);
	if (!vd)
		return 0;
	switch (vd->kind) {
	case IR_VK_ROWEXP: case IR_VK_ROWBC:
		return !t->vec.predicated;
	case IR_VK_ROWRED:
		return t->vec.predicated && vd->vop == PTORT_VOP_MUL;
	case IR_VK_COLRED:
		/* A5 tcolprod, and tcolsum whose tmp cannot hold the pair sums (colred_pairs) */
		return t->vec.predicated && (vd->vop == PTORT_VOP_MUL || vd->vop == PTORT_VOP_ADD);
	case IR_VK_TER: case IR_VK_TERS: case IR_VK_AXPY:
		return 1;
	default:
		return 0;
	}
}

/* The scratch at the top of UB (the target's reserved bytes), or -1. place-tiles keeps
 * it free only in functions with an op lower_vec_uses_ub_scratch names. */
int64_t ub_scratch(vl *v, uint32_t *bytes)
{
	const ptoc_mem_info *mi = tile_mem_info(v->o->target, IR_MEM_VEC);
	if (!mi || !mi->reserved_top || !lower_vec_uses_ub_scratch(v->op, v->o->target))
		return -1;
	*bytes = mi->reserved_top;
	return (int64_t)mi->capacity - mi->reserved_top;
}

/* The sources of a repeat-form compare or select (as v_sources). */
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
	switch (v.vd->kind) {
	case IR_VK_ROWRED:
		if (v.vd->vop == PTORT_VOP_MUL)
			lower_rowprod(&v, &p);
		else
			lower_rowred(&v, &p);
		break;
	case IR_VK_COLRED:
		lower_colred(&v, &p);
		break;
	case IR_VK_PART:
		lower_part(&v, &p);
		break;
	case IR_VK_TER:
	case IR_VK_TERS:
		lower_ter(&v, &p);
		break;
	case IR_VK_AXPY:
		lower_axpy(&v, &p);
		break;
	case IR_VK_PAD:
	case IR_VK_PADIN:
		if (v.vd->kind == IR_VK_PAD)
			lower_pad(&v, &p);
		else
			lower_pad_inplace(&v, &p);
		break;
	case IR_VK_SEQ:
		lower_seq(&v, &p);
		break;
	case IR_VK_TRI:
		lower_tri(&v, &p);
		break;
	default:
		if (reg_form(&v))
			lower_v_elementwise(&v, &p);
		else
			lower_r_elementwise(&v, &p);
		break;
	}
	return v.errors;
}
