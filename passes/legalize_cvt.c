/* legalize_cvt.c: the `legalize-cvt` pass: every pto.tcvt checked against the target
 * and rewritten so that later passes need no target knowledge (docs/semantics.md §3.2, §4).
 *
 * Requires: a verified module (the `verify` pass ran), at level 1 (tile SSA,
 *   `%d = pto.tcvt %s {...} : T -> R`) or level 2 (DPS, `pto.tcvt ins(%s[, %tmp]
 *   {...}) outs(%d)`), and the target in pass_opts (target_resolve).
 * Preserves: the IR level, every op other than pto.tcvt, the values of the module
 *   (a decomposed tcvt still defines the same SSA result / writes the same dst).
 *   It is idempotent: a second run changes nothing and warns about nothing.
 *
 * After the pass every pto.tcvt is one native conversion of the target and carries:
 *   rmode    = #pto<round_mode X>      the mode to execute: NONE resolved to RINT,
 *                                      RINT for exact, saturation-only and deq steps
 *   sat_mode = #pto<saturation_mode S> the saturation to execute: the pair's default
 *                                      when absent, ON where the target forces it, OFF
 *                                      for exact steps (which keeps NaN and inf);
 *                                      the PTOAS spelling `satmode` is replaced
 *   deq_scale = 15360 : ui16           only on the A2A3 i32 -> f16 deq path: the f16
 *                                      bit pattern of the scale (0x3C00 = 1.0); a tcvt
 *                                      carrying it lowers to ptort_vconv_deq (an
 *                                      existing integer deq_scale in [0, 0xFFFF] is
 *                                      kept; one on any other tcvt is removed)
 * Diagnostics at the tcvt's location:
 *   warning  an explicit sat_mode OFF forced ON; a round mode other than RINT/NONE
 *            ignored by the deq path (texts of target_cvt_warnings)
 *   error    an illegal pair (naming the target, the pair and the requested mode, and
 *            listing the legal destinations of the source), an illegal mode (listing
 *            the legal modes), a tile outside `vec` (level 2: src, tmp and dst must
 *            be in vec; level-1 tiles have no location)
 *   remark   (-Rpass=legalize-cvt) each decomposition, naming its chain, and each
 *            deq path
 *
 * Decomposition (a pair missing from the table but reachable through exact steps,
 * target_cvt_chain): `from -> to` via I1..Ik becomes k+1 tcvts in a row. The steps
 * before the last run with rmode RINT and sat_mode OFF; the last keeps the op (its
 * result or dst, its tmp and its other attributes) with the resolved mode and
 * saturation. Level 1: each intermediate is a new value of type !pto.tile<same shape
 * x Ii>. Level 2: each intermediate is a new `pto.alloc_tile` inserted before the
 * tcvt, of the source's tile_buf type with dtype Ii in vec (no address: placement
 * assigns one); a dynamic valid shape reuses the valid_row/valid_col operands of the
 * alloc_tile defining the source (or the destination). */
#include <stdarg.h>
#include <string.h>

#include "passes/passes.h"

#define PASS_NAME "legalize-cvt"

struct lcvt {
	ir_ctx *ctx;
	const pass_opts *o;
	const struct target *t;
	unsigned errors;
};

static const ir_type *src_type(const ir_op *op)
{
	return op->operands[0].value->type;
}

/* The destination: the result (level 1) or the last operand (level 2). */
static const ir_type *dst_type(const ir_op *op)
{
	if (op->num_results)
		return op->results[0].type;
	return op->operands[op->num_operands - 1].value->type;
}

static const ir_type *tile_elem(const ir_type *t)
{
	if (!t)
		return NULL;
	if (t->kind == IR_TYPE_TILE)
		return t->u.shaped.elem;
	if (t->kind == IR_TYPE_TILE_BUF)
		return t->u.tb.elem;
	return NULL;
}

static void err_at(struct lcvt *s, const ir_op *op, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static void err_at(struct lcvt *s, const ir_op *op, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ir_emitv(s->ctx, PTOC_ERROR, op->loc, fmt, ap);
	va_end(ap);
	s->errors++;
}

/* Level 2: every tile_buf operand of a tcvt lives in vec (UB). */
static int check_locations(struct lcvt *s, const ir_op *op)
{
	static const char *const role3[] = {"src", "tmp", "dst"};
	static const char *const role2[] = {"src", "dst"};
	unsigned i;
	int bad = 0;
	if (op->num_results)
		return 0; /* level 1: the results and operands are tiles without location */
	for (i = 0; i < op->num_operands && i < 3; i++) {
		const ir_type *t = op->operands[i].value->type;
		const char *role = op->num_operands == 3 ? role3[i] : role2[i];
		if (t->kind != IR_TYPE_TILE_BUF || t->u.tb.mem == IR_MEM_VEC ||
		    t->u.tb.mem == IR_MEM_NONE)
			continue;
		err_at(s, op, "'pto.tcvt' op expects its tiles in vec (UB) on %s, but %s is in %s",
		       s->t->name, role, ir_mem_name(t->u.tb.mem));
		bad = -1;
	}
	return bad;
}

/* Where target_cvt_warnings' messages go. */
struct warn_to {
	ir_ctx *ctx;
	ir_loc loc;
};

static void warn_cb(void *user, const char *msg, size_t len)
{
	struct warn_to *w = user;
	ir_warning(w->ctx, w->loc, "'pto.tcvt' op %.*s", (int)len, msg);
}

static const ir_attr *rmode_attr(ir_ctx *ctx, ptort_rmode rm)
{
	return ir_attr_pto(ctx, "round_mode", ptort_rmode_name(rm), IR_PTO_ANGLE);
}

static const ir_attr *sat_attr(ir_ctx *ctx, int sat)
{
	return ir_attr_pto(ctx, "saturation_mode", sat == PTORT_SAT_ON ? "ON" : "OFF",
			   IR_PTO_ANGLE);
}

/* The operands of the alloc_tile defining `v` for its valid_row / valid_col, when the
 * type has `?` there; NULL entries when not needed. -1 when needed but unknown. */
static int dyn_valid_operands(const ir_value *v, ir_value *out[2])
{
	const ir_op *def = v->def;
	const ir_attr *seg;
	unsigned k, i;
	out[0] = out[1] = NULL;
	if (!def || def->code != IR_OP_ALLOC_TILE)
		return -1;
	seg = ir_op_get_attr(def, "operandSegmentSizes");
	if (!seg || seg->kind != IR_ATTR_DENSE || seg->u.dense.n != 3)
		return -1;
	k = (unsigned)seg->u.dense.v[0];
	for (i = 0; i < 2; i++)
		if (seg->u.dense.v[1 + i]) {
			if (k >= def->num_operands)
				return -1;
			out[i] = def->operands[k++].value;
		}
	return 0;
}

/* Level 2: a new tile in vec like `like` (src of the tcvt) with element `elem`,
 * allocated right before `op`. NULL (error reported) when its valid shape is
 * dynamic and cannot be recovered. */
static ir_value *new_tile_buf(struct lcvt *s, ir_op *op, const ptoc_cvt_result *r,
			      ptort_type elem)
{
	const ir_type *like = src_type(op);
	ir_type tb = *like;
	ir_value *valid[2] = {NULL, NULL}, *ops[2];
	int need = like->u.tb.v_row == IR_DYN || like->u.tb.v_col == IR_DYN;
	unsigned nops = 0, i;
	int64_t seg[3] = {0, 0, 0};
	const ir_type *i32 = ir_type_int(s->ctx, 32, IR_INT_SIGNLESS), *rt;
	ir_named_attr na;
	ir_op *alloc;

	tb.u.tb.elem = ir_type_elem(s->ctx, elem);
	tb.u.tb.mem = IR_MEM_VEC;
	rt = ir_type_tile_buf(s->ctx, &tb);
	if (need && dyn_valid_operands(op->operands[0].value, valid))
		dyn_valid_operands(op->operands[op->num_operands - 1].value, valid);
	for (i = 0; i < 2; i++) {
		int64_t d = i ? like->u.tb.v_col : like->u.tb.v_row;
		if (d == IR_DYN) {
			if (!valid[i]) {
				err_at(s, op, "'pto.tcvt' op cannot decompose %s -> %s on %s: the "
				       "dynamic %s of src and dst is not given by a pto.alloc_tile",
				       ptort_type_name(r->from), ptort_type_name(r->to), s->t->name,
				       i ? "valid_col" : "valid_row");
				return NULL;
			}
			ops[nops++] = valid[i];
			seg[1 + i] = 1;
		}
	}
	na.name = ir_intern(s->ctx, "operandSegmentSizes", 19);
	na.value = ir_attr_dense(s->ctx, i32, seg, 3);
	alloc = ir_op_create(s->ctx, "pto.alloc_tile", op->loc, ops, nops, &rt, 1,
			     ir_attr_dict(s->ctx, &na, 1, op->loc), 0);
	ir_block_insert_before(op, alloc);
	return &alloc->results[0];
}

/* Level 1: the type of an intermediate value, `like` with element `elem`. */
static const ir_type *with_elem(ir_ctx *ctx, const ir_type *like, ptort_type elem)
{
	if (like->kind == IR_TYPE_TILE_BUF) {
		ir_type tb = *like;
		tb.u.tb.elem = ir_type_elem(ctx, elem);
		return ir_type_tile_buf(ctx, &tb);
	}
	return ir_type_shaped(ctx, IR_TYPE_TILE, like->u.shaped.dims, like->u.shaped.rank,
			      ir_type_elem(ctx, elem));
}

/* Inserts the steps chain[0] -> ... -> chain[n-1] before `op` and makes `op` the
 * last step (chain[n-1] -> chain[n]). Returns 0, or -1 (error reported). */
static int decompose(struct lcvt *s, ir_op *op, const ptoc_cvt_result *r)
{
	ir_value *cur = op->operands[0].value;
	ir_named_attr na[2];
	const ir_attr *attrs;
	unsigned i;

	na[0].name = ir_intern(s->ctx, "rmode", 5);
	na[0].value = rmode_attr(s->ctx, PTORT_RINT);
	na[1].name = ir_intern(s->ctx, "sat_mode", 8);
	na[1].value = sat_attr(s->ctx, PTORT_SAT_OFF);
	attrs = ir_attr_dict(s->ctx, na, 2, op->loc);
	for (i = 1; i < r->nsteps; i++) {
		ir_op *step;
		if (op->num_results) {
			const ir_type *rt = with_elem(s->ctx, src_type(op), r->chain[i]);
			step = ir_op_create(s->ctx, "pto.tcvt", op->loc, &cur, 1, &rt, 1, attrs, 0);
			ir_block_insert_before(op, step);
			cur = &step->results[0];
		} else {
			ir_value *ops[2];
			if (src_type(op)->kind != IR_TYPE_TILE_BUF) {
				err_at(s, op, "'pto.tcvt' op cannot decompose %s -> %s on %s: src is "
				       "not a !pto.tile_buf", ptort_type_name(r->from),
				       ptort_type_name(r->to), s->t->name);
				return -1;
			}
			ops[0] = cur;
			if (!(ops[1] = new_tile_buf(s, op, r, r->chain[i])))
				return -1;
			step = ir_op_create(s->ctx, "pto.tcvt", op->loc, ops, 2, NULL, 0, attrs, 0);
			ir_block_insert_before(op, step);
			cur = ops[1];
		}
	}
	ir_op_set_operand(op, 0, cur);
	return 0;
}

/* A small text buffer for a printed type (truncated when long). */
/* "f16 -> bf16 with round mode X is not supported on T; ..." for an illegal pair
 * (the reason text names no mode then) or the reason itself for an illegal mode. */
static void report_illegal(struct lcvt *s, const ir_op *op, const ptoc_cvt_result *r)
{
	char reason[1024];
	size_t pair;
	target_cvt_reason(s->t, r, reason, sizeof reason);
	pair = strlen(ptort_type_name(r->from)) + 4 + strlen(ptort_type_name(r->to));
	if ((r->flags & PTOC_CVT_F_BAD_MODE) || strlen(reason) < pair) {
		ir_error(s->ctx, op->loc, "'pto.tcvt' op %s", reason);
	} else {
		ir_error(s->ctx, op->loc, "'pto.tcvt' op %.*s with round mode %s%s", (int)pair,
			 reason, ptort_rmode_name(r->requested), reason + pair);
	}
	s->errors++;
}

static void legalize(struct lcvt *s, ir_op *op)
{
	const ir_type *se, *de;
	ptort_type from, to;
	ptort_rmode rm = PTORT_NONE;
	ptoc_sat_request sat = PTOC_SAT_ABSENT;
	const ir_attr *a;
	ptoc_cvt_result r;
	struct warn_to w;
	char chain[256];

	if (op->num_operands < 1 || (!op->num_results && op->num_operands < 2))
		return; /* the verifier reported it */
	if (check_locations(s, op))
		return;
	se = tile_elem(src_type(op));
	de = tile_elem(dst_type(op));
	if (!se || !de)
		return; /* the verifier reported it */
	if (ir_type_to_elem(se, &from) || ir_type_to_elem(de, &to)) {
		int bad_src = ir_type_to_elem(se, &from) != 0;
		char tb[64];
		ir_type_str(bad_src ? se : de, tb, sizeof tb);
		err_at(s, op, "'pto.tcvt' op element type %s of %s has no conversions on %s",
		       tb, bad_src ? "src" : "dst", s->t->name);
		return;
	}
	if ((a = ir_op_get_attr(op, "rmode")) && ir_attr_rmode(a, &rm))
		return; /* the verifier reported it */
	a = ir_op_get_attr(op, "sat_mode");
	if (!a)
		a = ir_op_get_attr(op, "satmode");
	if (a)
		sat = ir_attr_satmode(a) > 0 ? PTOC_SAT_REQ_ON : PTOC_SAT_REQ_OFF;

	if (target_cvt_query(s->t, from, to, rm, sat, &r) == PTOC_CVT_ILLEGAL) {
		report_illegal(s, op, &r);
		return;
	}
	w.ctx = s->ctx;
	w.loc = op->loc;
	target_cvt_warnings(s->t, &r, warn_cb, &w);
	ptoc_cvt_chain_str(&r, chain, sizeof chain);
	/* r.sat is the pair's; a last step whose rule forces ON gets ON (the pair is
	 * then exact with an integer source, where ON and OFF agree), so that the
	 * step stays legal as written (and a second run has nothing to say). */
	if (r.last && r.last->sat == PTOC_SAT_FORCED_ON)
		r.sat = PTORT_SAT_ON;
	if (r.verdict == PTOC_CVT_DECOMPOSED) {
		if (decompose(s, op, &r))
			return;
		pass_remark(s->ctx, s->o, PASS_NAME, op->loc,
			    "%s -> %s decomposed on %s as %s (last step: rmode %s, sat_mode %s)",
			    ptort_type_name(from), ptort_type_name(to), s->t->name, chain,
			    ptort_rmode_name(r.rmode), r.sat == PTORT_SAT_ON ? "ON" : "OFF");
	}
	ir_op_remove_attr(s->ctx, op, "satmode");
	ir_op_set_attr(s->ctx, op, "rmode", rmode_attr(s->ctx, r.rmode));
	ir_op_set_attr(s->ctx, op, "sat_mode", sat_attr(s->ctx, r.sat));
	a = ir_op_get_attr(op, "deq_scale");
	if (!(r.flags & PTOC_CVT_F_DEQ)) {
		if (a) /* the marker of the deq path only (a retargeted module) */
			ir_op_remove_attr(s->ctx, op, "deq_scale");
	} else {
		if (!a || a->kind != IR_ATTR_INT || a->u.i.v < 0 || a->u.i.v > 0xFFFF)
			ir_op_set_attr(s->ctx, op, "deq_scale",
				       ir_attr_int(s->ctx, 0x3C00,
						   ir_type_int(s->ctx, 16, IR_INT_UNSIGNED)));
		pass_remark(s->ctx, s->o, PASS_NAME, op->loc,
			    "%s uses the deq path on %s (scale 1.0, RINT, saturation ON)", chain,
			    s->t->name);
	}
}

static int visit(ir_op *op, void *user)
{
	if (op->code == IR_OP_TCVT)
		legalize(user, op);
	return 0;
}

/* The pass entry (pass.c's table). */

unsigned pass_legalize_cvt(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	struct lcvt s;
	s.ctx = ctx;
	s.o = o;
	s.t = o->target;
	s.errors = 0;
	ir_walk(module, visit, &s);
	return s.errors;
}
