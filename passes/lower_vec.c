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
#include "target/target.h"
#include "passes/tiles.h"

#define PASS_NAME "split-repeats"

typedef struct vl {
	ir_ctx *ctx;
	ir_op *op;
	const pass_opts *o;
	const ir_vecdef *vd;
	ptort_type et;      /* the element type of the data (U16 for paired bytes) */
	uint32_t w;         /* its bits */
	ptort_type scalar_et; /* the type a scalar converts to (the tile's) */
	int pair8;          /* 8-bit bitwise op on the repeat form: byte pairs as 16 bits */
	ir_value *sdyn;     /* a run-time scalar (its bits of scalar_et), else NULL: the
			     * scalar field of every instruction that takes the op's scalar */
	unsigned errors;
	/* the valid region of the destination: static, or dynamic values */
	uint32_t rows, cols;
	ir_value *rows_v, *cols_v;
} vl;

static void verr(vl *v, const char *fmt, const char *a)
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
static uint32_t repeat_limit(const vl *v)
{
	return v->o->target->vec.repeat_max ? v->o->target->vec.repeat_max : 255;
}

static uint32_t repeat_stride_limit(const vl *v)
{
	return v->o->target->vec.repeat_stride_max ? v->o->target->vec.repeat_stride_max : 255;
}

static uint32_t tile_pitch(const lower_tile *t)
{
	ptort_type e;
	if (ir_type_to_elem(t->type->u.tb.elem, &e))
		return 0;
	return (uint32_t)((uint64_t)t->type->u.tb.cols * ptort_type_bits(e) / 8);
}

/* ---- scalars -------------------------------------------------------------------------- */

/* f32 bits `b` as a value of `et` (tcvt RINT, saturation off; f32 itself unchanged:
 * an f32 -> f32 tcvt would round to an integral value, docs/semantics.md §3). */
static uint64_t from_f32(ptort_type et, uint32_t b)
{
	return et == PTORT_F32 ? b : ptort_cvt1(PTORT_F32, et, b, PTORT_RINT, PTORT_SAT_OFF);
}

/* The bits of scalar `s` converted to the element type (docs/semantics.md §7.3: as a
 * tcvt with RINT, saturation off). Only constants are known here. */
static int scalar_bits(vl *v, ir_value *s, uint64_t *out)
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
			return verr(v, "cannot convert the scalar constant%s", ""), -1;
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
		verr(v, "cannot convert the scalar constant%s", "");
		return -1;
	}
	if (ptort_type_is_float(v->scalar_et)) {
		int rc = ptort_value_parse(v->scalar_et, buf, (size_t)n, out);
		if (rc == -2) /* beyond the largest finite value: the rounding gives inf */
			*out = from_f32(v->scalar_et, a->u.f.v > 0 ? 0x7F800000u : 0xFF800000u);
		else if (rc)
			return verr(v, "cannot convert the scalar constant%s", ""), -1;
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
static void li_scalar(vl *v, lower_insn *li, uint64_t sc)
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
static void start(vl *v, lower_insn *li, ir_opcode code, int vop)
{
	li_init(li, code);
	li_mem(v->ctx, li, IR_MEM_VEC);
	if (vop >= 0)
		li_attr(v->ctx, li, "op", ir_attr_string(v->ctx, ptort_vop_name((ptort_vop)vop),
							 strlen(ptort_vop_name((ptort_vop)vop))));
	li_attr(v->ctx, li, "type", ir_attr_type(v->ctx, ir_type_elem(v->ctx, v->et)));
}

/* ... with the op's own element operation (with_op) or none */
static void common(vl *v, lower_insn *li, ir_opcode code, int with_op)
{
	start(v, li, code, with_op ? (int)v->vd->vop : -1);
}

static int emit(vl *v, lower_insn *li)
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
static void li_rc(vl *v, lower_insn *li, uint32_t rows, uint32_t cols, int dyn)
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
static int reg_form(const vl *v)
{
	return v->o->target->vec.predicated || v->rows_v || v->cols_v || v->w == 8;
}

/* ---- the repeat form: splitting an elementwise region ------------------------------- */

#define VS_MAX 4

/* Operand i of a split: its tile, byte offset, row pitch, bytes it advances per
 * repeat within a run (256 for data, L/8 for a bit array, 0 for a broadcast block)
 * and its block stride (1, or 0 for a broadcast block). */
typedef struct vs_opnd {
	const lower_tile *t;
	const char *name;     /* the address field */
	const char *blk, *rep; /* its stride fields (NULL: none) */
	uint32_t off, pitch, per_rep, blk_stride;
} vs_opnd;

typedef struct vs {
	vl *v;
	ir_opcode code;
	int vop; /* the element op field, -1: none */
	int has_cmp;
	uint64_t scalar;
	int has_scalar;
	unsigned flags;
	int has_flags;
	unsigned n;
	vs_opnd o[VS_MAX];
	int per_row; /* one run per row */
} vs;

static void lane_mask(uint32_t m, uint32_t lanes, uint64_t *hi, uint64_t *lo)
{
	*hi = 0;
	*lo = m >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << m) - 1;
	if (lanes > 64 && m > 64)
		*hi = m - 64 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (m - 64)) - 1;
}

/* One instruction: offsets off[i], `repeat` repeats, rep strides rep[i], m lanes. */
static int vs_emit(vs *s, const uint32_t *off, uint32_t repeat, const uint32_t *rep, uint32_t m)
{
	vl *v = s->v;
	lower_insn li;
	unsigned i;
	uint64_t hi, lo;
	uint32_t L = 2048 / v->w;
	start(v, &li, s->code, s->vop);
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
	return emit(v, &li);
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
static int vs_split(vs *s, uint32_t rows, uint32_t cols)
{
	vl *v = s->v;
	uint32_t L = 2048 / v->w, row_bytes = cols * v->w / 8, base[VS_MAX], rep[VS_MAX];
	uint32_t maxr = repeat_limit(v), smax = repeat_stride_limit(v);
	unsigned i;
	uint32_t r, j, chunk;
	int contiguous = !s->per_row, strided = !s->per_row;
	if (v->w != 16 && v->w != 32) { /* reg_form takes the others */
		verr(v, "internal: the repeat form takes 16- and 32-bit elements only%s", "");
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

static void vs_init(vs *s, vl *v, ir_opcode code, int with_op)
{
	memset(s, 0, sizeof *s);
	s->v = v;
	s->code = code;
	s->vop = with_op ? (int)v->vd->vop : -1;
}

/* A data operand: address field `name`, strides `name_blk` / `name_rep`. */
static void vs_add(vs *s, const lower_tile *t, const char *name, const char *blk, const char *rep,
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

typedef struct vops {
	lower_tile t[6];   /* the op's tile operands by position (DPS) */
	int is_tile[6];
	unsigned nin;
	lower_tile *dst;
} vops;

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
		common(v, &li, IR_OP_I_VBIN_V, 1);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src0", &p->t[0], 0, v->op);
		li_addr(v->ctx, &li, "src1", &p->t[1], 0, v->op);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src0_pitch", tile_pitch(&p->t[0]));
		li_int(v->ctx, &li, "src1_pitch", vd->kind == IR_VK_COLEXP ? 0 : tile_pitch(&p->t[1]));
		li_int(v->ctx, &li, "flags", vd->kind != IR_VK_ROWEXP ? 0
					     : row_block(v, &p->t[1]) ? PTORT_V_BLK1 : PTORT_V_BRC1);
		return emit(v, &li);
	case IR_VK_BINS:
		si = p->is_tile[0] ? 0 : 1;
		if (scalar_bits(v, v->op->operands[1 - si].value, &sc))
			return -1;
		common(v, &li, IR_OP_I_VBINS_V, 1);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src", &p->t[si], 0, v->op);
		li_scalar(v, &li, sc);
		li_int(v->ctx, &li, "flags", si ? PTORT_V_SCALAR_FIRST : 0);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src_pitch", tile_pitch(&p->t[si]));
		return emit(v, &li);
	case IR_VK_UN: case IR_VK_COLBC:
		common(v, &li, IR_OP_I_VUN_V, 1);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src", &p->t[0], 0, v->op);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src_pitch", vd->kind == IR_VK_COLBC ? 0 : tile_pitch(&p->t[0]));
		return emit(v, &li);
	case IR_VK_ROWBC: {
		/* the row's element in every column: and(x, x) on the unsigned integer of the
		 * width (the bits unchanged), both sources broadcast per row */
		ptort_type et = v->et;
		int r;
		v->et = v->w == 8 ? PTORT_U8 : v->w == 16 ? PTORT_U16 : PTORT_U32;
		start(v, &li, IR_OP_I_VBIN_V, PTORT_VOP_AND);
		v->et = et;
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "src0", &p->t[0], 0, v->op);
		li_addr(v->ctx, &li, "src1", &p->t[0], 0, v->op);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "src0_pitch", tile_pitch(&p->t[0]));
		li_int(v->ctx, &li, "src1_pitch", tile_pitch(&p->t[0]));
		li_int(v->ctx, &li, "flags", PTORT_V_BRC0 | PTORT_V_BRC1);
		r = emit(v, &li);
		return r;
	}
	case IR_VK_DUP:
		if (scalar_bits(v, v->op->operands[0].value, &sc))
			return -1;
		common(v, &li, IR_OP_I_VDUP_V, 0);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_scalar(v, &li, sc);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		return emit(v, &li);
	case IR_VK_CMP: case IR_VK_CMPS: {
		const ir_attr *cm = ir_op_get_attr(v->op, "cmpMode");
		if (vd->kind == IR_VK_CMPS && scalar_bits(v, v->op->operands[1].value, &sc))
			return -1;
		common(v, &li, vd->kind == IR_VK_CMP ? IR_OP_I_VCMP_V : IR_OP_I_VCMPS_V, 0);
		li_attr(v->ctx, &li, "cmp", cm ? cm : ir_attr_pto(v->ctx, "cmp", "eq", IR_PTO_ANGLE));
		li_addr(v->ctx, &li, "dst_bits", p->dst, 0, v->op);
		v_sources(v, &li, &p->t[0], vd->kind == IR_VK_CMP ? &p->t[1] : NULL, sc);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "bits_pitch", tile_pitch(p->dst));
		return emit(v, &li);
	}
	case IR_VK_SEL: case IR_VK_SELS:
		if (vd->kind == IR_VK_SELS && scalar_bits(v, v->op->operands[3].value, &sc))
			return -1;
		common(v, &li, vd->kind == IR_VK_SEL ? IR_OP_I_VSEL_V : IR_OP_I_VSELS_V, 0);
		li_addr(v->ctx, &li, "dst", p->dst, 0, v->op);
		li_addr(v->ctx, &li, "sel_bits", &p->t[0], 0, v->op);
		v_sources(v, &li, &p->t[1], vd->kind == IR_VK_SEL ? &p->t[2] : NULL, sc);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(p->dst));
		li_int(v->ctx, &li, "bits_pitch", tile_pitch(&p->t[0]));
		return emit(v, &li);
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
static int64_t ub_scratch(vl *v, uint32_t *bytes)
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
			common(v, &li, IR_OP_I_VBRCB, 0);
			li_int(v->ctx, &li, "dst", base);
			li_addr(v->ctx, &li, "src", col, r0 * (v->w / 8), v->op);
			li_int(v->ctx, &li, "repeat", (n + 7) / 8);
			li_int(v->ctx, &li, "dst_blk", 1);
			li_int(v->ctx, &li, "dst_rep", 8);
			if (emit(v, &li))
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

/* ---- reductions ------------------------------------------------------------------- */

/* vred: `repeat` repeats from src (strides src_rep blocks), results to dst. */
static int vred(vl *v, const lower_tile *dt, uint32_t doff, const lower_tile *st, uint32_t soff,
		uint32_t group, uint32_t repeat, uint32_t dst_rep, uint32_t src_rep, uint32_t m)
{
	lower_insn li;
	uint64_t hi, lo;
	common(v, &li, IR_OP_I_VRED, 1);
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
	return emit(v, &li);
}

/* vbin d = a op b over `repeat` repeats of m lanes, repeat strides in blocks */
static int vbin3(vl *v, const lower_tile *dt, uint32_t doff, const lower_tile *at, uint32_t aoff,
		 const lower_tile *bt, uint32_t boff, uint32_t repeat, uint32_t drep, uint32_t arep,
		 uint32_t brep, uint32_t m)
{
	lower_insn li;
	uint64_t hi, lo;
	common(v, &li, IR_OP_I_VBIN, 1);
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
	return emit(v, &li);
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
		verr(v, "the tmp tile is too small for the row reduction%s", "");
		return -1;
	}
	if (n == 1) { /* L < C < 2L: p0 = c0; p0 += tail; tree(p0) */
		lower_insn li;
		start(v, &li, IR_OP_I_VUN, PTORT_VOP_MOV);
		li_addr(v->ctx, &li, "dst", tmp, 0, v->op);
		li_addr(v->ctx, &li, "src", src, so, v->op);
		li_int(v->ctx, &li, "repeat", 1);
		li_int(v->ctx, &li, "dst_blk", 1);
		li_int(v->ctx, &li, "src_blk", 1);
		li_int(v->ctx, &li, "dst_rep", 8);
		li_int(v->ctx, &li, "src_rep", 8);
		li_int(v->ctx, &li, "mask_hi", L > 64 ? -1 : 0);
		li_int(v->ctx, &li, "mask_lo", -1);
		return emit(v, &li) || vbin3(v, tmp, 0, tmp, 0, src, so + 256, 1, 8, 8, 8, t) ||
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

static int lower_rowred(vl *v, vops *p)
{
	lower_insn li;
	const ir_type *st = p->t[0].type, *dt = p->dst->type;
	uint32_t r;
	int special;
	if (v->o->target->vec.predicated) {
		/* the source's valid columns (the destination has one) */
		common(v, &li, IR_OP_I_VRED_V, 1);
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
		return emit(v, &li);
	}
	/* the source's valid columns decide the order */
	if (v->rows_v || st->u.tb.v_col == IR_DYN || p->t[0].v_col) {
		verr(v, "a row reduction with a valid shape known only at run time is not "
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
static int bin_rows_op(vl *v, int vop, const lower_tile *d, uint32_t doff, uint32_t dp,
		       const lower_tile *a, uint32_t aoff, uint32_t ap, const lower_tile *b,
		       uint32_t boff, uint32_t bp, uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		start(v, &li, IR_OP_I_VBIN_V, vop);
		li_addr(v->ctx, &li, "dst", d, doff, v->op);
		li_addr(v->ctx, &li, "src0", a, aoff, v->op);
		li_addr(v->ctx, &li, "src1", b, boff, v->op);
		li_rc(v, &li, rows, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", dp);
		li_int(v->ctx, &li, "src0_pitch", ap);
		li_int(v->ctx, &li, "src1_pitch", bp);
		li_int(v->ctx, &li, "flags", 0);
		return emit(v, &li);
	}
	vs_init(&s, v, IR_OP_I_VBIN, 0);
	s.vop = vop;
	vs_add(&s, d, "dst", "dst_blk", "dst_rep", doff, dp);
	vs_add(&s, a, "src0", "src0_blk", "src0_rep", aoff, ap);
	vs_add(&s, b, "src1", "src1_blk", "src1_rep", boff, bp);
	return vs_split(&s, rows, v->cols);
}

/* bin_rows_op with the op's own element operation */
static int bin_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, const lower_tile *a,
		    uint32_t aoff, uint32_t ap, const lower_tile *b, uint32_t boff, uint32_t bp,
		    uint32_t rows)
{
	return bin_rows_op(v, (int)v->vd->vop, d, doff, dp, a, aoff, ap, b, boff, bp, rows);
}

/* `rows` rows of C columns in either form: d = a op scalar (bits of the type). */
static int bins_rows(vl *v, int vop, const lower_tile *d, uint32_t doff, uint32_t dp,
		     const lower_tile *a, uint32_t aoff, uint32_t ap, uint64_t sc, uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		start(v, &li, IR_OP_I_VBINS_V, vop);
		li_addr(v->ctx, &li, "dst", d, doff, v->op);
		li_addr(v->ctx, &li, "src", a, aoff, v->op);
		li_scalar(v, &li, sc);
		li_int(v->ctx, &li, "flags", 0);
		li_rc(v, &li, rows, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", dp);
		li_int(v->ctx, &li, "src_pitch", ap);
		return emit(v, &li);
	}
	vs_init(&s, v, IR_OP_I_VBINS, 0);
	s.vop = vop;
	s.has_scalar = 1;
	s.scalar = sc;
	s.has_flags = 1;
	vs_add(&s, d, "dst", "dst_blk", "dst_rep", doff, dp);
	vs_add(&s, a, "src", "src_blk", "src_rep", aoff, ap);
	return vs_split(&s, rows, v->cols);
}

/* `rows` rows of C columns set to the scalar (bits of the type), either form. */
static int dup_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, uint64_t sc,
		    uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		common(v, &li, IR_OP_I_VDUP_V, 0);
		li_addr(v->ctx, &li, "dst", d, doff, v->op);
		li_scalar(v, &li, sc);
		li_rc(v, &li, rows, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", dp);
		return emit(v, &li);
	}
	vs_init(&s, v, IR_OP_I_VDUP, 0);
	s.has_scalar = 1;
	s.scalar = sc;
	vs_add(&s, d, "dst", "dst_blk", "dst_rep", doff, dp);
	return vs_split(&s, rows, v->cols);
}

/* `rows` rows of C columns copied from byte offset aoff of a to doff of d, each tile
 * with its own row pitch, either form. */
static int copy_rows_p(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp,
		       const lower_tile *a, uint32_t aoff, uint32_t ap, uint32_t rows)
{
	vs s;
	if (reg_form(v)) {
		lower_insn li;
		start(v, &li, IR_OP_I_VUN_V, PTORT_VOP_MOV);
		li_addr(v->ctx, &li, "dst", d, doff, v->op);
		li_addr(v->ctx, &li, "src", a, aoff, v->op);
		li_rc(v, &li, rows, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", dp);
		li_int(v->ctx, &li, "src_pitch", ap);
		return emit(v, &li);
	}
	vs_init(&s, v, IR_OP_I_VUN, 0);
	s.vop = PTORT_VOP_MOV;
	vs_add(&s, d, "dst", "dst_blk", "dst_rep", doff, dp);
	vs_add(&s, a, "src", "src_blk", "src_rep", aoff, ap);
	return vs_split(&s, rows, v->cols);
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
		common(v, &li, IR_OP_I_VBINS_V, 1);
		li_addr(v->ctx, &li, "dst", dst, 0, v->op);
		li_addr(v->ctx, &li, "src", src, 0, v->op);
		li_int(v->ctx, &li, "scalar", 0);
		li_int(v->ctx, &li, "flags", PTORT_V_SCALAR_FIRST);
		li_rc(v, &li, 1, v->cols, 0);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(dst));
		li_int(v->ctx, &li, "src_pitch", sp);
		return emit(v, &li);
	}
	if (!tmp || tile_buf_bytes(tmp->type) < (uint64_t)m * tp) { /* the verifier's rule */
		verr(v, "internal: tcolsum with isBinary without a tmp tile of rows / 2 rows%s", "");
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
			verr(v, "internal: a row of run-time valid columns larger than the UB "
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
static int lower_colred(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *dst = p->dst;
	const ir_attr *bin = ir_op_get_attr(v->op, "isBinary");
	uint32_t R, sp = tile_pitch(src);
	if (v->rows_v || src->type->u.tb.v_row == IR_DYN || src->v_row) { /* the verifier's rule */
		verr(v, "internal: a column reduction with a dynamic number of rows%s", "");
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
static int lower_part(vl *v, vops *p)
{
	const lower_tile *s0 = &p->t[0], *s1 = &p->t[1], *d = p->dst, *full, *part;
	uint32_t R = v->rows, C = v->cols, pr, pc, dp = tile_pitch(d);
	int r;
	if (v->rows_v || v->cols_v) {
		verr(v, "a partial op with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	full = (uint32_t)s0->type->u.tb.v_row == R && (uint32_t)s0->type->u.tb.v_col == C ? s0 : s1;
	part = full == s0 ? s1 : s0;
	pr = (uint32_t)part->type->u.tb.v_row;
	pc = (uint32_t)part->type->u.tb.v_col;
	if (pc < C) {
		if (!part->addr_v && !d->addr_v && part->addr == d->addr) {
			verr(v, "dst shares its buffer with the source of fewer valid columns, which "
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
static int lower_pad_inplace(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *dst = p->dst;
	const ir_type *st = src->type;
	uint32_t R = v->rows, C = v->cols, dp = tile_pitch(dst), eb = v->w / 8, sr, sc;
	uint64_t pv = pad_value(v, dst);
	int r = 0;
	if (v->rows_v || v->cols_v || st->u.tb.v_row == IR_DYN || st->u.tb.v_col == IR_DYN) {
		verr(v, "tfillpad_inplace with a valid shape known only at run time is not "
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

static int lower_pad(vl *v, vops *p)
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
		common(v, &li, IR_OP_I_VDUP_V, 0);
		li_addr(v->ctx, &li, "dst", dst, 0, v->op);
		li_int(v->ctx, &li, "scalar", (int64_t)pv);
		li_rc(v, &li, v->rows, v->cols, 1);
		li_int(v->ctx, &li, "dst_pitch", tile_pitch(dst));
		if (emit(v, &li))
			return -1;
		start(v, &li, IR_OP_I_VUN_V, PTORT_VOP_MOV);
		li_addr(v->ctx, &li, "dst", dst, 0, v->op);
		li_addr(v->ctx, &li, "src", src, 0, v->op);
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
		return emit(v, &li);
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
	return emit(v, &li);
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
			verr(v, "cannot split the conversion into vector instructions%s", "");
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
static int lower_rowprod(vl *v, vops *p)
{
	const lower_tile *src = &p->t[0], *tmp = &p->t[1], *dst = p->dst;
	const ir_type *st = src->type;
	uint32_t C, R = v->rows, sp = tile_pitch(src), dp = tile_pitch(dst), eb = v->w / 8;
	uint64_t one = ptort_type_is_float(v->et) ? from_f32(v->et, 0x3F800000u) : 1;
	uint32_t r, k;
	if (v->rows_v || st->u.tb.v_col == IR_DYN || src->v_col) {
		verr(v, "trowprod with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	C = (uint32_t)st->u.tb.v_col;
	if (v->o->target->vec.predicated) {
		uint32_t L = 2048 / v->w, per, r0, n, h, j, cols = v->cols;
		lower_tile scr;
		per = scratch_tile(v, &scr, dst->type, 256);
		if (!per) {
			verr(v, "trowprod on A5 needs the UB scratch%s", "");
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
			verr(v, "the tmp tile is too small for trowprod (32 bytes, 96 for f16)%s", "");
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
static int lower_ter(vl *v, vops *p)
{
	const lower_tile *d = p->dst, *c = &p->t[2];
	uint32_t R = v->rows, dp = tile_pitch(d), cp = tile_pitch(c), per, r0, n, pitch;
	uint64_t sc = 0;
	lower_tile scr;
	if (v->rows_v || v->cols_v) {
		verr(v, "a valid shape known only at run time is not supported by this op yet%s", "");
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
		verr(v, "dst shares bytes with the last source and a row does not fit the UB "
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
static int lower_axpy(vl *v, vops *p)
{
	const lower_tile *s = &p->t[0], *d = p->dst;
	uint32_t R = v->rows, dp = tile_pitch(d), sp = tile_pitch(s), per, r0, n, pitch;
	ptort_type se;
	uint64_t sc = 0;
	lower_tile scr;
	if (v->rows_v || v->cols_v) {
		verr(v, "a valid shape known only at run time is not supported by taxpy yet%s", "");
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
		verr(v, "a row of taxpy does not fit the UB scratch%s", "");
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
static int lower_seq(vl *v, vops *p)
{
	const lower_tile *d = p->dst;
	const ir_attr *desc = ir_op_get_attr(v->op, "descending");
	uint32_t C = v->cols, dp = tile_pitch(d), eb = v->w / 8, k, n;
	uint64_t mask = v->w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << v->w) - 1, sc;
	int64_t s;
	int vop = desc && desc->kind == IR_ATTR_BOOL && desc->u.i.v ? PTORT_VOP_SUB : PTORT_VOP_ADD;
	if (v->cols_v) {
		verr(v, "tci with a valid shape known only at run time is not supported%s", "");
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
static int lower_tri(vl *v, vops *p)
{
	const lower_tile *d = p->dst;
	const ir_attr *ul = ir_op_get_attr(v->op, "upperOrLower");
	uint32_t R = v->rows, C = v->cols, dp = tile_pitch(d), eb = v->w / 8, i, split;
	uint64_t one = ptort_type_is_float(v->et) ? from_f32(v->et, 0x3F800000u) : 1, lo, hi;
	int64_t diag, b;
	int upper = ul && ul->kind == IR_ATTR_INT && ul->u.i.v == 1, r = 0;
	if (v->rows_v || v->cols_v) {
		verr(v, "ttri with a valid shape known only at run time is not supported%s", "");
		return -1;
	}
	if (!ir_value_const_int(v->op->operands[0].value, &diag)) {
		/* a run-time diagonal: the splits are computed by the instruction */
		lower_insn li;
		common(v, &li, IR_OP_I_VTRI_V, 0);
		li_addr(v->ctx, &li, "dst", d, 0, v->op);
		li_int(v->ctx, &li, "one", (int64_t)one);
		li_rc(v, &li, R, C, 1);
		li_int(v->ctx, &li, "dst_pitch", dp);
		li_dyn(v->ctx, &li, "diag", v->op->operands[0].value);
		li_int(v->ctx, &li, "upper", upper);
		return emit(v, &li);
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
		verr(&v, "tile SSA form (level 1) must be bufferized first%s", "");
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
		verr(&v, "element type without a runtime type%s", "");
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
