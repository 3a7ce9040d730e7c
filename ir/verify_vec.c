/* verify_vec.c: the verifier's rules for the vector ops (target/vec_types.def;
 * docs/semantics.md §7): element types per target, tile shapes and valid shapes,
 * predicate tiles, row values, scratch room. Called by verify.c's dispatch. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"
#include "target/target.h"

/* ---- vector ops (target/vec_types.def; docs/semantics.md §7) ---- */

/* Rows and columns agree where both are static. */
static int same_extent(int64_t a, int64_t b)
{
	return dyn(a) || dyn(b) || a == b;
}

/* A tile of a vector op: in vec once bufferized; row-major none_box unless it is one
 * row or one column (whose elements sit at the same offsets in either blayout). */
static int vec_tile(vctx *v, const ir_op *op, const ir_type *t, const char *role, tinfo *ti)
{
	if (check_tile_use(v, op, t, role, ti))
		return -1;
	if (!ti->buf)
		return 0;
	if (ti->mem != IR_MEM_VEC) {
		op_error(v, op, "expects %s to be in vec (loc=vec), but got loc=%s", role,
			 ir_mem_name(ti->mem));
		return -1;
	}
	if (t->u.tb.slayout != IR_SLAYOUT_NONE_BOX ||
	    (t->u.tb.blayout != IR_BLAYOUT_ROW_MAJOR && ti->rows != 1 && ti->cols != 1)) {
		op_error(v, op, "expects %s to use the row-major layout (blayout=row_major, "
			 "slayout=none_box; one row or one column may be col_major)", role);
		return -1;
	}
	return 0;
}

/* The element type `e` of vector op `vd` on this target. */
static void vec_elem(vctx *v, const ir_op *op, const ir_vecdef *vd, const ir_type *e,
		     const char *role)
{
	uint32_t set = target_vec_types(v->t, (size_t)(op->code - IR_OP_V_FIRST));
	ptort_type t;
	char list[256];
	size_t n = 0;
	unsigned k;
	if (!ir_type_to_elem(e, &t) && (set >> t & 1))
		return;
	list[0] = 0;
	for (k = 0; k < PTORT_TYPE_COUNT; k++)
		if (set >> k & 1)
			n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s",
					      n ? ", " : "", ptort_type_name((ptort_type)k));
	op_error(v, op, "expects %s %s element type to be one of %s, but got '%s'",
		 v->t->title, vd->name, list, tstr(e));
	(void)role;
}

static void same_elem(vctx *v, const ir_op *op, const tinfo *a, const char *ra, const tinfo *b,
		      const char *rb)
{
	if (a->elem != b->elem)
		op_error(v, op, "expects %s and %s to have the same element type, but got '%s' and '%s'",
			 ra, rb, tstr(a->elem), tstr(b->elem));
}

static void same_valid(vctx *v, const ir_op *op, const tinfo *a, const char *ra, const tinfo *b,
		       const char *rb)
{
	if (!same_extent(a->vr, b->vr) || !same_extent(a->vc, b->vc))
		op_error(v, op, "expects %s and %s to have the same valid_shape (%lldx%lld vs %lldx%lld)",
			 ra, rb, (long long)a->vr, (long long)a->vc, (long long)b->vr, (long long)b->vc);
}

/* An 8-bit integer predicate tile (tcmp's dst, tsel's mask) with room for one bit
 * per column of `of`'s valid region in each row. */
/* A row (col = 0) or column reduction's extents: src and dst alike along the kept
 * axis, dst one wide along the reduced one; 0 after an error. */
static int reduced_extents(vctx *v, const ir_op *op, const tinfo *s, const tinfo *d, int col)
{
	int64_t sk = col ? s->vc : s->vr, dk = col ? d->vc : d->vr, d1 = col ? d->vr : d->vc;
	if (!same_extent(sk, dk)) {
		op_error(v, op, "expects src and dst to have the same valid %s (%lld vs %lld)",
			 col ? "columns" : "rows", (long long)sk, (long long)dk);
		return 0;
	}
	if (!same_extent(d1, 1)) {
		op_error(v, op, "expects dst to have one valid %s, but got %lld", col ? "row" : "column",
			 (long long)d1);
		return 0;
	}
	return 1;
}

static void pred_tile(vctx *v, const ir_op *op, const tinfo *p, const char *role, const tinfo *of)
{
	if (!p->elem || p->elem->kind != IR_TYPE_INT || p->elem->u.i.bits != 8) {
		op_error(v, op, "expects %s element type to be i8 or ui8 (a predicate bit per element), "
			 "but got '%s'", role, tstr(p->elem));
		return;
	}
	if (!same_extent(p->vr, of->vr))
		op_error(v, op, "expects %s valid rows (%lld) to equal the data's (%lld)", role,
			 (long long)p->vr, (long long)of->vr);
	else if (!dyn(of->vc) && !dyn(p->cols) && p->cols * 8 < of->vc)
		op_error(v, op, "expects %s to have at least %lld columns (one bit per element of %lld "
			 "valid columns)", role, (long long)((of->vc + 7) / 8), (long long)of->vc);
}

/* The row values of a row expand (docs/semantics.md §7.3): one value per row (one
 * valid column, or a tile of one column) or one 32-byte block per row (32 / element
 * bytes valid columns, pto-isa's mode 2); which one is decided statically. */
static void row_values(vctx *v, const ir_op *op, const tinfo *s)
{
	ptort_type e;
	int64_t blk;
	if (s->cols == 1 || ir_type_to_elem(s->elem, &e))
		return;
	blk = 256 / (int64_t)ptort_type_bits(e);
	if (dyn(s->vc))
		op_error(v, op, "expects src1 to have static valid columns (1: one value per row, "
			 "or %lld: one 32-byte block per row)", (long long)blk);
	else if (s->vc != 1 && s->vc != blk)
		op_error(v, op, "expects src1 to have 1 valid column (one value per row) or %lld "
			 "(one 32-byte block per row), but got %lld", (long long)blk, (long long)s->vc);
}

/* tcolsum with isBinary (docs/semantics.md §7.6): the pair sums live in tmp, which
 * needs the source's element type, rows / 2 rows and room for its valid columns. */
static void colsum_tmp(vctx *v, const ir_op *op, const tinfo *t, unsigned nin)
{
	const ir_attr *bin = ir_op_get_attr(op, "isBinary");
	int64_t need;
	if (!bin || bin->kind != IR_ATTR_BOOL || !bin->u.i.v || t[0].vr < 2)
		return;
	if (nin != 2) {
		op_error(v, op, "expects a tmp operand with isBinary (the pair sums are kept there)");
		return;
	}
	need = dyn(t[0].vc) ? t[0].cols : t[0].vc;
	if (t[1].elem != t[0].elem)
		same_elem(v, op, &t[0], "src", &t[1], "tmp");
	else if (t[1].buf && (dyn(t[1].rows) || dyn(t[1].cols) || t[1].rows < t[0].vr / 2 ||
			      t[1].cols < need))
		op_error(v, op, "expects tmp to have at least %lld rows and %lld columns with "
			 "isBinary (src valid rows / 2, and its %s columns)", (long long)(t[0].vr / 2),
			 (long long)need, dyn(t[0].vc) ? "physical" : "valid");
}

/* Why op `vd` needs the static valid shape it lacks here (NULL: it does not): forms
 * whose instructions are unrolled over the valid rows or columns (passes/lower_vec.c;
 * docs/semantics.md §7.6, §7.3). */
static const char *needs_static(const vctx *v, const ir_vecdef *vd, const tinfo *t,
				const tinfo *dt)
{
	switch (vd->kind) {
	case IR_VK_ROWRED:
		if (!dyn(dt->vr) && !dyn(t[0].vc))
			return NULL;
		if (vd->vop == PTORT_VOP_MUL)
			return "trowprod's order (docs/semantics.md §7.6) is unrolled over them";
		return v->t->vec.predicated ? NULL
			: "the A2/A3 reduction order (docs/semantics.md §7.6) depends on the valid "
			  "columns and is unrolled over the rows";
	case IR_VK_TER: case IR_VK_TERS: case IR_VK_AXPY: case IR_VK_TRI:
		return dyn(dt->vr) || dyn(dt->vc) ? "its steps are unrolled over them" : NULL;
	case IR_VK_SEQ:
		return dyn(dt->vc) ? "its doubling steps are unrolled over the columns" : NULL;
	case IR_VK_PADIN:
		return dyn(dt->vr) || dyn(dt->vc) || dyn(t[0].vr) || dyn(t[0].vc)
			? "the padded rectangles are unrolled from them" : NULL;
	default:
		return NULL;
	}
}

/* A5 tcolsum / tcolprod (docs/semantics.md §7.6) hold their pair sums in tcolsum's tmp
 * tile when it has room for them, else in the UB scratch (the reserved top of vec), in
 * column chunks when the valid columns are
 * static; a row of run-time columns must fit it whole (passes/lower_vec.c). */
static void colred_pairs(vctx *v, const ir_op *op, const ir_vecdef *vd, const tinfo *t,
			 unsigned nin)
{
	const ir_attr *bin = ir_op_get_attr(op, "isBinary");
	int64_t pairs = (t[0].vr - 1) / 2, row, scratch = v->t->mem[PTOC_LOC_VEC].reserved_top;
	ptort_type e;
	if (!v->t->vec.predicated || (vd->vop != PTORT_VOP_ADD && vd->vop != PTORT_VOP_MUL) ||
	    (bin && bin->kind == IR_ATTR_BOOL && bin->u.i.v) || t[0].vr <= 2 || !dyn(t[0].vc) ||
	    !t[0].buf || dyn(t[0].cols) || ir_type_to_elem(t[0].elem, &e))
		return;
	row = t[0].cols * (int64_t)ptort_type_bits(e) / 8;
	if (row <= scratch || (nin == 2 && t[1].buf && t[1].elem == t[0].elem && !dyn(t[1].rows) &&
			       !dyn(t[1].cols) && t[1].cols >= t[0].cols && t[1].rows >= pairs))
		return;
	op_error(v, op, "expects %s on %s: a source row of %lld bytes with valid columns known only "
		 "at run time does not fit the UB scratch (%lld bytes) its pairs go through",
		 vd->vop == PTORT_VOP_ADD ? "a tmp tile of at least (rows - 1) / 2 rows and the "
		 "source's columns" : "static valid columns or rows of at most the UB scratch",
		 v->t->title, (long long)row, (long long)scratch);
}

/* Scratch a form keeps whole (passes/lower_vec.c): taxpy's product, a row at a time,
 * in the UB scratch (the reserved top of vec); A2A3 trowprod's block lanes (and the
 * f32 chain for f16) in its tmp tile (docs/semantics.md §7.3, §7.6). */
static void scratch_room(vctx *v, const ir_op *op, const ir_vecdef *vd, const tinfo *t,
			 const tinfo *dt, unsigned nin)
{
	ptort_type e;
	int64_t need, have;
	if (ir_type_to_elem(dt->elem, &e))
		return;
	if (vd->kind == IR_VK_AXPY && !dyn(dt->vc)) {
		need = (dt->vc * (int64_t)ptort_type_bits(e) / 8 + 31) / 32 * 32;
		have = v->t->mem[PTOC_LOC_VEC].reserved_top;
		if (need > have)
			op_error(v, op, "expects dst rows of at most %lld bytes on %s (%lld valid columns "
				 "take %lld): the product goes through the UB scratch a row at a time",
				 (long long)have, v->t->title, (long long)dt->vc, (long long)need);
	}
	need = e == PTORT_F16 ? 96 : 32; /* the destination's type decides */
	if (vd->kind == IR_VK_ROWRED && vd->vop == PTORT_VOP_MUL && !v->t->vec.predicated &&
	    nin == 2 && t[1].buf && !dyn(t[1].rows) && !dyn(t[1].cols) &&
	    !ir_type_to_elem(t[1].elem, &e)) {
		have = t[1].rows * t[1].cols * (int64_t)ptort_type_bits(e) / 8;
		if (have < need)
			op_error(v, op, "expects tmp to hold at least %lld bytes on %s (the block lanes%s "
				 "of trowprod, docs/semantics.md §7.6), but it has %lld", (long long)need,
				 v->t->title, need == 96 ? " and the f32 chain" : "", (long long)have);
	}
}

void verify_vec(vctx *v, const ir_op *op, const ir_vecdef *vd)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	unsigned nin = num_ins(op), i, errors = v->errors;
	tinfo t[6], dt;
	const ir_type *ty;
	const char *why;
	int bad = 0, scalar_first = 0;
	/* every operand a tile except the scalar ones */
	for (i = 0; i < nin && i < 5; i++) {
		const char *role = d->roles[i].name;
		ty = vtype(op, i);
		if (vd->kind == IR_VK_BINS && ir_type_is_tile(vtype(op, 1)) && !ir_type_is_tile(vtype(op, 0)))
			role = i == 0 ? "scalar" : "src", scalar_first = 1;
		if (!strcmp(role, "scalar") || d->roles[i].kind == IR_KIND_SCALAR) {
			if (!is_scalar_type(ty)) {
				op_error(v, op, "expects %s to be an integer or float scalar, but got '%s'",
					 role, tstr(ty));
				bad = 1;
			}
			memset(&t[i], 0, sizeof t[i]);
			continue;
		}
		bad |= vec_tile(v, op, ty, role, &t[i]);
	}
	bad |= vec_tile(v, op, dst_type(op), "dst", &dt);
	if (bad)
		return;
	if (scalar_first && op->code != IR_OP_V_tdivs) {
		op_error(v, op, "expects the tile first and the scalar second (only tdivs takes "
			 "the scalar first)");
		return;
	}
	switch (vd->kind) {
	case IR_VK_BIN:
	case IR_VK_ROWEXP:
	case IR_VK_COLEXP:
		if (nin == 3 && op->code == IR_OP_V_trowexpandadd) {
			op_error(v, op, "expects no tmp operand (PTOAS's trowexpandadd takes none)");
			break;
		}
		if (nin == 3 && vd->kind == IR_VK_BIN && op->code != IR_OP_V_trem) {
			op_error(v, op, "expects no tmp operand (of the binary ops only trem takes one)");
			break;
		}
		same_elem(v, op, &t[0], "src0", &t[1], "src1");
		same_elem(v, op, &t[0], "src0", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		same_valid(v, op, &t[0], "src0", &dt, "dst");
		if (vd->kind == IR_VK_BIN)
			same_valid(v, op, &t[1], "src1", &dt, "dst");
		else if (vd->kind == IR_VK_ROWEXP && !same_extent(t[1].vr, dt.vr))
			op_error(v, op, "expects src1 valid rows (%lld) to equal dst valid rows (%lld)",
				 (long long)t[1].vr, (long long)dt.vr);
		else if (vd->kind == IR_VK_ROWEXP)
			row_values(v, op, &t[1]);
		else if (vd->kind == IR_VK_COLEXP && !same_extent(t[1].vc, dt.vc))
			op_error(v, op, "expects src1 valid columns (%lld) to equal dst valid columns (%lld)",
				 (long long)t[1].vc, (long long)dt.vc);
		break;
	case IR_VK_BINS:
	case IR_VK_UN:
	case IR_VK_CMPS: {
		if (vd->kind == IR_VK_UN && nin == 2 && op->code != IR_OP_V_trsqrt) {
			op_error(v, op, "expects no tmp operand (of the unary ops only trsqrt takes one)");
			break;
		}
		tinfo *s = &t[scalar_first ? 1 : 0];
		if (vd->kind == IR_VK_CMPS) {
			vec_elem(v, op, vd, s->elem, "src");
			pred_tile(v, op, &dt, "dst", s);
			break;
		}
		same_elem(v, op, s, "src", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		same_valid(v, op, s, "src", &dt, "dst");
		break;
	}
	case IR_VK_DUP:
		vec_elem(v, op, vd, dt.elem, "dst");
		break;
	case IR_VK_ROWRED:
		same_elem(v, op, &t[0], "src", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		reduced_extents(v, op, &t[0], &dt, 0);
		break;
	case IR_VK_COLRED:
		if (nin == 2 && op->code != IR_OP_V_tcolsum) {
			op_error(v, op, "expects no tmp operand (only tcolsum takes one)");
			break;
		}
		if (ir_op_get_attr(op, "isBinary") && op->code != IR_OP_V_tcolsum) {
			op_error(v, op, "expects no 'isBinary' attribute (only tcolsum has it)");
			break;
		}
		same_elem(v, op, &t[0], "src", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		if (!reduced_extents(v, op, &t[0], &dt, 1))
			break;
		if (dyn(t[0].vr))
			op_error(v, op, "expects src to have static valid rows (the reduction order of "
				 "docs/semantics.md §7.6 is unrolled over them)");
		else
			colsum_tmp(v, op, t, nin), colred_pairs(v, op, vd, t, nin);
		break;
	case IR_VK_CMP:
		same_elem(v, op, &t[0], "src0", &t[1], "src1");
		vec_elem(v, op, vd, t[0].elem, "src0");
		same_valid(v, op, &t[0], "src0", &t[1], "src1");
		pred_tile(v, op, &dt, "dst", &t[0]);
		break;
	case IR_VK_SEL:
	case IR_VK_SELS: {
		unsigned last = vd->kind == IR_VK_SEL ? 2 : 1;
		for (i = 1; i <= last; i++) {
			same_elem(v, op, &t[i], d->roles[i].name, &dt, "dst");
			same_valid(v, op, &t[i], d->roles[i].name, &dt, "dst");
		}
		vec_elem(v, op, vd, dt.elem, "dst");
		pred_tile(v, op, &t[0], "mask", &dt);
		break;
	}
	case IR_VK_PART:
		same_elem(v, op, &t[0], "src0", &t[1], "src1");
		same_elem(v, op, &t[0], "src0", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		if (dyn(t[0].vr) || dyn(t[0].vc) || dyn(t[1].vr) || dyn(t[1].vc) || dyn(dt.vr) ||
		    dyn(dt.vc))
			op_error(v, op, "expects static valid shapes (which source covers dst decides "
				 "the lowering)");
		else if (t[0].vr > dt.vr || t[0].vc > dt.vc || t[1].vr > dt.vr || t[1].vc > dt.vc)
			op_error(v, op, "expects src0 and src1 valid_shape to fit in dst valid_shape");
		else if ((t[0].vr != dt.vr || t[0].vc != dt.vc) && (t[1].vr != dt.vr || t[1].vc != dt.vc))
			op_error(v, op, "expects src0 or src1 to have dst's valid_shape (%lldx%lld); "
				 "the rest of dst would be undefined", (long long)dt.vr, (long long)dt.vc);
		break;
	case IR_VK_ROWBC:
	case IR_VK_COLBC:
		same_elem(v, op, &t[0], "src", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		if (vd->kind == IR_VK_ROWBC && !same_extent(t[0].vr, dt.vr))
			op_error(v, op, "expects src valid rows (%lld) to equal dst valid rows (%lld)",
				 (long long)t[0].vr, (long long)dt.vr);
		else if (vd->kind == IR_VK_COLBC && !same_extent(t[0].vc, dt.vc))
			op_error(v, op, "expects src valid columns (%lld) to equal dst valid columns (%lld)",
				 (long long)t[0].vc, (long long)dt.vc);
		break;
	case IR_VK_TER:
	case IR_VK_TERS: {
		unsigned k, last = vd->kind == IR_VK_TER ? 2 : 1;
		for (k = 0; k <= last; k++) {
			if (vd->kind == IR_VK_TERS && k == 1)
				k = 2; /* the scalar; src1 is operand 2 */
			same_elem(v, op, &t[k], d->roles[k].name, &dt, "dst");
			same_valid(v, op, &t[k], d->roles[k].name, &dt, "dst");
		}
		vec_elem(v, op, vd, dt.elem, "dst");
		break;
	}
	case IR_VK_AXPY: {
		ptort_type se, de;
		if (op->num_results) {
			op_error(v, op, "expects the DPS form (outs): taxpy adds into its destination, "
				 "which the SSA form has no value for");
			break;
		}
		vec_elem(v, op, vd, dt.elem, "dst");
		if (t[0].elem != dt.elem &&
		    (ir_type_to_elem(t[0].elem, &se) || ir_type_to_elem(dt.elem, &de) ||
		     se != PTORT_F16 || de != PTORT_F32))
			op_error(v, op, "expects src and dst to have the same element type, or f16 "
				 "and f32, but got '%s' and '%s'", tstr(t[0].elem), tstr(dt.elem));
		same_valid(v, op, &t[0], "src", &dt, "dst");
		break;
	}
	case IR_VK_SEQ:
	case IR_VK_TRI: {
		const ir_attr *ul = ir_op_get_attr(op, "upperOrLower");
		vec_elem(v, op, vd, dt.elem, "dst");
		if (vtype(op, 0)->kind != IR_TYPE_INT && vtype(op, 0)->kind != IR_TYPE_INDEX)
			op_error(v, op, "expects %s to be an integer, but got '%s'", d->roles[0].name,
				 tstr(vtype(op, 0)));
		else if (vd->kind == IR_VK_SEQ && !dyn(dt.cols) && dt.cols == 1)
			op_error(v, op, "expects dst to have more than one column (PTOAS's tci)");
		else if (vd->kind == IR_VK_TRI && ul &&
			 (ul->kind != IR_ATTR_INT || (ul->u.i.v != 0 && ul->u.i.v != 1)))
			op_error(v, op, "expects upperOrLower to be the integer 0 (lower) or 1 (upper)");
		break;
	}
	case IR_VK_TRANS:
		if (nin == 2 && t[1].elem != t[0].elem) {
			same_elem(v, op, &t[0], "src", &t[1], "tmp");
			break;
		}
		same_elem(v, op, &t[0], "src", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		/* dst's valid region reads src's transposed valid region */
		if ((!dyn(dt.vr) && !dyn(t[0].vc) && dt.vr > t[0].vc) ||
		    (!dyn(dt.vc) && !dyn(t[0].vr) && dt.vc > t[0].vr))
			op_error(v, op, "expects dst valid_shape (%lldx%lld) to fit in src valid_shape "
				 "transposed (%lldx%lld)", (long long)dt.vr, (long long)dt.vc,
				 (long long)t[0].vc, (long long)t[0].vr);
		break;
	case IR_VK_PADIN:
		if ((!dyn(t[0].rows) && !dyn(dt.rows) && t[0].rows != dt.rows) ||
		    (!dyn(t[0].cols) && !dyn(dt.cols) && t[0].cols != dt.cols)) {
			op_error(v, op, "expects src and dst to have the same shape (the same storage, "
				 "padded in place)");
			break;
		}
		/* fall through */
	case IR_VK_PAD:
		same_elem(v, op, &t[0], "src", &dt, "dst");
		vec_elem(v, op, vd, dt.elem, "dst");
		if ((!dyn(t[0].vr) && !dyn(dt.vr) && t[0].vr > dt.vr) ||
		    (!dyn(t[0].vc) && !dyn(dt.vc) && t[0].vc > dt.vc))
			op_error(v, op, "expects src valid_shape to fit in dst valid_shape");
		break;
	}
	if (vd->kind == IR_VK_CMP || vd->kind == IR_VK_CMPS) {
		const ir_attr *a = ir_op_get_attr(op, "cmpMode");
		ptort_type et;
		if (a && v->t->vec_cmp_i32_eq_only && vd->kind == IR_VK_CMP && !ir_type_to_elem(t[0].elem, &et) &&
		    et == PTORT_I32 && ir_attr_cmp(a) != PTORT_CMP_EQ && ir_attr_cmp(a) != PTORT_CMP_NE)
			op_error(v, op, "expects cmpMode eq or ne for i32 on %s (the vector unit "
				 "compares i32 for equality only)", v->t->title);
	}
	if (v->errors == errors && (why = needs_static(v, vd, t, &dt)))
		op_error(v, op, "expects static valid shapes on %s: %s", v->t->title, why);
	if (v->errors == errors)
		scratch_room(v, op, vd, t, &dt, nin);
}
