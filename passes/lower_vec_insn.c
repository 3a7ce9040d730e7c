/* lower_vec_insn.c: what every vector op's lowering builds on (lower_vec.h): the
 * errors, the scalars, one instruction, the repeat form's splitting of an elementwise
 * region (vs_split) and the UB scratch. lower_vec.c, lower_vec_red.c and
 * lower_vec_steps.c call it; it calls none of them. */
#include <stdio.h>
#include <string.h>

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
/* The most repeats (and the largest repeat stride) one repeat-form instruction takes
 * on this target (lower.h: vec_repeat_max). */
uint32_t repeat_limit(const vl *v)
{
	return vec_repeat_max(&v->o->target->vec);
}

static uint32_t repeat_stride_limit(const vl *v)
{
	return vec_repeat_stride_max(&v->o->target->vec);
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
static int vs_emit(vs *s, const uint32_t *off, uint32_t repeat, const uint32_t *rep, uint32_t m)
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
	vs_opnd o = {.t = t, .name = name, .blk = blk, .rep = rep, .off = off, .pitch = pitch,
		     .per_rep = 256, .blk_stride = 1};
	s->o[s->n++] = o;
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
