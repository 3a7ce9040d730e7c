/* verify.c: the structural verifier. Reports every error it finds (it does not stop at
 * the first), each at the location of the op concerned, with PTOAS's wording where
 * PTOAS has a message for the rule ("'pto.tcvt' op expects src and dst to have
 * compatible shapes").
 *
 * Checked: operand/result/region counts from ops.def; SSA dominance within blocks and
 * isolation of func.func/builtin.module; terminators and what they yield; the fields
 * of tile_buf types; per-op rules of alloc_tile, tassign, tload/tstore, tcvt, tmov,
 * the tmatmul family, views, arith and scf ops, func.func/func.return; the fields of
 * level-3 pto.i.* instructions (docs/lowered.md).
 * The per-target rules (tmov memory pairs and whether they may change the shape,
 * the tmatmul type triples, the m/k/n range) come from the target's table
 * (target/target.h), which the caller resolved (target_resolve).
 * Not checked here: target legality of conversions (passes/), memory capacities. */
#include <stdio.h>
#include <string.h>

#include "ir/ctx.h"
#include "ir/ir.h"
#include "ir/pipe.h"
#include "ir/verify_move.h"
#include "target/target.h"

#define MAX_DEPTH 1000 /* nested regions; the parser caps nesting well below this */

typedef struct vctx {
	ir_ctx *ctx;
	unsigned errors;
	unsigned scope;   /* the visibility scope of the current isolated op */
	const struct target *t;
	unsigned depth;
} vctx;

/* ---- messages ------------------------------------------------------------ */

/* An error at `op`, counted in v->errors. */
#define op_error(v, op, ...) ((v)->errors += ir_op_error((v)->ctx, (op), __VA_ARGS__))

static void op_note(vctx *v, ir_loc loc, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ir_note(v->ctx, loc, "%s", msg);
}

/* The printed form of a type (truncated), in one of four rotating buffers. */
static const char *tstr(const ir_type *t)
{
	static char bufs[4][256];
	static unsigned k;
	return ir_type_str(t, bufs[k++ % 4], sizeof bufs[0]);
}

/* ---- small helpers on types ------------------------------------------------ */

static const ir_type *vtype(const ir_op *op, unsigned i)
{
	return i < op->num_operands && op->operands[i].value ? op->operands[i].value->type : NULL;
}

static int is_int_or_index(const ir_type *t)
{
	return t && (t->kind == IR_TYPE_INT || t->kind == IR_TYPE_INDEX);
}

static int is_i1(const ir_type *t)
{
	return t && t->kind == IR_TYPE_INT && t->u.i.bits == 1;
}

/* Shape and valid shape of a tile type (a level-1 tile's valid shape is its shape). */
typedef struct tinfo {
	const ir_type *t;
	const ir_type *elem;
	ir_mem mem;
	int64_t rows, cols, vr, vc;
	int buf; /* a tile_buf */
} tinfo;

static int tile_info(const ir_type *t, tinfo *ti)
{
	memset(ti, 0, sizeof *ti);
	ti->t = t;
	if (!t)
		return -1;
	if (t->kind == IR_TYPE_TILE_BUF) {
		ti->elem = t->u.tb.elem;
		ti->mem = t->u.tb.mem;
		ti->rows = t->u.tb.rows;
		ti->cols = t->u.tb.cols;
		ti->vr = t->u.tb.v_row;
		ti->vc = t->u.tb.v_col;
		ti->buf = 1;
		return 0;
	}
	if (t->kind == IR_TYPE_TILE && t->u.shaped.rank == 2) {
		ti->elem = t->u.shaped.elem;
		ti->mem = IR_MEM_NONE;
		ti->rows = ti->vr = t->u.shaped.dims[0];
		ti->cols = ti->vc = t->u.shaped.dims[1];
		return 0;
	}
	return -1;
}

static int dyn(int64_t d)
{
	return d == IR_DYN || d < 0;
}

/* ---- type checks at definitions ------------------------------------------- */

static int valid_fractal(int64_t f)
{
	return f == 16 || f == 32 || f == 512 || f == 1024;
}

/* The fields of a tile_buf or tile type defined by `op` (result) or a block
 * argument; `what` names the value ("result #0", "block argument #1"). */
static void check_type_fields(vctx *v, const ir_op *op, ir_loc loc, const char *what,
			      const ir_type *t)
{
	char pre[300];
	if (!t)
		return;
	if (t->kind == IR_TYPE_TILE) {
		unsigned i;
		if (t->u.shaped.rank != 2) {
			snprintf(pre, sizeof pre, "%s: !pto.tile must have exactly two dims (got %u)",
				 what, t->u.shaped.rank);
			goto report;
		}
		for (i = 0; i < 2; i++)
			if (t->u.shaped.dims[i] < 0) {
				snprintf(pre, sizeof pre, "%s: !pto.tile dims must be static and non-negative", what);
				goto report;
			}
		return;
	}
	if (t->kind != IR_TYPE_TILE_BUF)
		return;
	if (t->u.tb.mem == IR_MEM_NONE || t->u.tb.mem >= IR_MEM_COUNT)
		snprintf(pre, sizeof pre, "%s: tile_buf loc must be one of vec, mat, left, right, acc, bias, scaling", what);
	else if (t->u.tb.blayout > IR_BLAYOUT_COL_MAJOR)
		snprintf(pre, sizeof pre, "%s: unknown blayout: %u", what, t->u.tb.blayout);
	else if (t->u.tb.slayout > IR_SLAYOUT_COL_MAJOR)
		snprintf(pre, sizeof pre, "%s: unknown slayout: %u", what, t->u.tb.slayout);
	else if (!valid_fractal(t->u.tb.fractal))
		snprintf(pre, sizeof pre, "%s: fractal must be one of 16, 32, 512, 1024 (got %lld)",
			 what, (long long)t->u.tb.fractal);
	else if (t->u.tb.pad < 0 || t->u.tb.pad > 3)
		snprintf(pre, sizeof pre, "%s: unknown pad: %lld", what, (long long)t->u.tb.pad);
	else if (t->u.tb.compact < 0 || t->u.tb.compact > 2)
		snprintf(pre, sizeof pre, "%s: unknown compact: %lld", what, (long long)t->u.tb.compact);
	else if (t->u.tb.rows < 0 || t->u.tb.cols < 0)
		snprintf(pre, sizeof pre, "%s: rows/cols must be non-negative", what);
	else if ((t->u.tb.v_row < 0 && t->u.tb.v_row != IR_DYN) ||
		 (t->u.tb.v_col < 0 && t->u.tb.v_col != IR_DYN))
		snprintf(pre, sizeof pre, "%s: v_row/v_col must be non-negative or ?", what);
	else if (!t->u.tb.elem || (t->u.tb.elem->kind != IR_TYPE_INT &&
				   t->u.tb.elem->kind != IR_TYPE_FLOAT))
		snprintf(pre, sizeof pre, "%s: tile_buf dtype must be an integer or float type", what);
	else
		return;
report:
	v->errors++;
	if (op)
		ir_error(v->ctx, loc, "'%s' op %s", op->name, pre);
	else
		ir_error(v->ctx, loc, "%s", pre);
}

/* PTOAS's verifyTileBufCommon: a rank-2 tile whose static valid shape fits its shape. */
static int check_tile_use(vctx *v, const ir_op *op, const ir_type *t, const char *role, tinfo *ti)
{
	if (tile_info(t, ti)) {
		op_error(v, op, "expects %s to be a rank-2 tile_buf, but got '%s'", role, tstr(t));
		return -1;
	}
	if (!dyn(ti->vr) && ti->vr > ti->rows) {
		op_error(v, op, "expects %s to satisfy valid_shape[0] <= shape[0]", role);
		return -1;
	}
	if (!dyn(ti->vc) && ti->vc > ti->cols) {
		op_error(v, op, "expects %s to satisfy valid_shape[1] <= shape[1]", role);
		return -1;
	}
	return 0;
}

/* ---- counts from ops.def ----------------------------------------------------- */

static void count_error(vctx *v, const ir_op *op, const char *what, int lo, int hi,
			unsigned found, const char *form)
{
	if (lo == hi)
		op_error(v, op, "expected %d %s%s, but found %u", lo, what, form, found);
	else if (hi < 0)
		op_error(v, op, "expected at least %d %s%s, but found %u", lo, what, form, found);
	else
		op_error(v, op, "expected between %d and %d %s%s, but found %u", lo, hi, what, form,
			 found);
}

/* Returns 0 when the counts allow the per-op rules to look at operand roles. */
static int check_counts(vctx *v, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	int lo = d->min_operands, hi = d->max_operands, bad = 0;
	const char *form = "";
	if (op->code == IR_OP_UNKNOWN)
		return 0;
	if (d->flags & IR_OPF_TILE) {
		/* min..max cover both forms: SSA (ins only, one result) and DPS (ins + outs). */
		if (op->num_results > 1 || (op->num_results == 1 && op->code == IR_OP_TSTORE)) {
			op_error(v, op, "expected %s results, but found %u",
				 op->code == IR_OP_TSTORE ? "0" : "0 or 1", op->num_results);
			return -1;
		}
		if (op->num_results == 1) {
			hi -= d->num_outs;
			form = " in tile SSA form";
		} else {
			lo += d->num_outs;
			form = " in destination-passing form";
		}
	} else if (d->num_results >= 0 && op->num_results != (unsigned)d->num_results) {
		count_error(v, op, "results", d->num_results, d->num_results, op->num_results, "");
		bad = 1;
	}
	if ((int)op->num_operands < lo || (hi >= 0 && (int)op->num_operands > hi)) {
		count_error(v, op, "operands", lo, hi, op->num_operands, form);
		bad = 1;
	}
	if (d->num_regions >= 0 && op->num_regions != (unsigned)d->num_regions) {
		op_error(v, op, "requires %d region%s, but found %u", d->num_regions,
			 d->num_regions == 1 ? "" : "s", op->num_regions);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* The destination of a tile op: the last operand (DPS) or the result (SSA). */
static const ir_type *dst_type(const ir_op *op)
{
	if (op->num_results == 1)
		return op->results[0].type;
	return vtype(op, op->num_operands - 1);
}

/* Number of `ins` operands of a tile op. */
static unsigned num_ins(const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	return op->num_results == 1 ? op->num_operands : op->num_operands - (unsigned)d->num_outs;
}

/* ---- pto ops ------------------------------------------------------------------- */

static const ir_attr *seg_sizes(const ir_op *op, unsigned want, int64_t *out)
{
	const ir_attr *a = ir_op_get_attr(op, "operandSegmentSizes");
	unsigned i;
	if (!a || a->kind != IR_ATTR_DENSE || a->u.dense.n != want)
		return NULL;
	for (i = 0; i < want; i++)
		out[i] = a->u.dense.v[i];
	return a;
}

static void verify_alloc_tile(vctx *v, const ir_op *op)
{
	int64_t seg[3] = {0, 0, 0};
	const ir_type *t = op->results[0].type;
	unsigned i, k = 0;
	static const char *const names[3] = {"addr", "valid_row", "valid_col"};
	if (!t || t->kind != IR_TYPE_TILE_BUF) {
		op_error(v, op, "result must be a !pto.tile_buf, but got '%s'", tstr(t));
		return;
	}
	if (!seg_sizes(op, 3, seg)) {
		if (op->num_operands) {
			op_error(v, op, "requires attribute 'operandSegmentSizes' (array<i32: addr, valid_row, valid_col>)");
			return;
		}
	}
	for (i = 0; i < 3; i++)
		if (seg[i] < 0 || seg[i] > 1) {
			op_error(v, op, "operandSegmentSizes entry for '%s' must be 0 or 1", names[i]);
			return;
		}
	if ((unsigned)(seg[0] + seg[1] + seg[2]) != op->num_operands) {
		op_error(v, op, "operandSegmentSizes sums to %lld but the op has %u operands",
			 (long long)(seg[0] + seg[1] + seg[2]), op->num_operands);
		return;
	}
	if (seg[0] && !is_int_or_index(vtype(op, k)))
		op_error(v, op, "expects addr to be an integer or index, but got '%s'", tstr(vtype(op, k)));
	k += (unsigned)seg[0];
	for (i = 1; i < 3; i++) {
		int64_t tv = i == 1 ? t->u.tb.v_row : t->u.tb.v_col;
		const char *fld = i == 1 ? "v_row" : "v_col";
		if (tv == IR_DYN && !seg[i])
			op_error(v, op, "%s operand is required because result type %s is ?", names[i], fld);
		else if (tv != IR_DYN && seg[i])
			op_error(v, op, "%s operand must be absent because result type %s is %lld",
				 names[i], fld, (long long)tv);
		if (seg[i]) {
			if (!is_int_or_index(vtype(op, k)))
				op_error(v, op, "expects %s to be an integer or index, but got '%s'", names[i],
					 tstr(vtype(op, k)));
			k++;
		}
	}
}

static void verify_tassign(vctx *v, const ir_op *op)
{
	const ir_type *t = vtype(op, 0), *a = vtype(op, 1);
	if (!ir_type_is_tile(t))
		op_error(v, op, "expects tile to be a tile, but got '%s'", tstr(t));
	if (!is_int_or_index(a))
		op_error(v, op, "expects addr to be an integer, but got '%s'", tstr(a));
	if (op->num_results > 1)
		op_error(v, op, "expected 0 or 1 results, but found %u", op->num_results);
	else if (op->num_results == 1 && op->results[0].type != t)
		op_error(v, op, "result type must match tile operand type");
}

/* Product of static dims; -1 when any is dynamic. */
static int64_t static_count(const int64_t *d, unsigned n)
{
	int64_t p = 1;
	unsigned i;
	for (i = 0; i < n; i++) {
		if (d[i] < 0)
			return -1;
		if (d[i] && p > INT64_MAX / d[i])
			return -1;
		p *= d[i];
	}
	return p;
}

/* tstore from an f32 acc tile may convert to f16 or bf16 on the way (fixpipe: RINT,
 * saturated); every other transfer copies bit patterns of one element type. */
static int acc_store_cvt(int load, const tinfo *ti, const ir_type *gm_elem)
{
	ptort_type te, ge;
	if (load || ti->mem != IR_MEM_ACC || ir_type_to_elem(ti->elem, &te) ||
	    ir_type_to_elem(gm_elem, &ge))
		return 0;
	return te == PTORT_F32 && (ge == PTORT_F16 || ge == PTORT_BF16);
}

/* A partition of rank 3-5 whose outer dims (all but the last two) are not all 1 moves
 * as a 2-D region (docs/semantics.md §6.2): its outer dims flatten into the rows of a
 * row-major tile, the columns of a col-major one; a boxed tile takes outer dims 1
 * only. With every dim static, the tile's valid shape must be that region. */
static int check_flat_partition(vctx *v, const ir_op *op, const ir_type *view,
				const ir_type *tile, const tinfo *ti, const char *vr, const char *tr)
{
	const int64_t *d = view->u.shaped.dims;
	unsigned rank = view->u.shaped.rank, i;
	int64_t outer = 1, pr, pc;
	int col_major = tile->kind == IR_TYPE_TILE_BUF && tile->u.tb.blayout == IR_BLAYOUT_COL_MAJOR;
	for (i = 0; i + 2 < rank; i++) {
		if (dyn(d[i]) || outer > INT64_MAX / (d[i] ? d[i] : 1))
			return 0; /* dynamic: the runtime checks the region */
		outer *= d[i];
	}
	if (outer == 1)
		return 0;
	if (tile->kind == IR_TYPE_TILE_BUF && tile->u.tb.slayout != IR_SLAYOUT_NONE_BOX) {
		op_error(v, op, "expects the outer dims of %s to be 1 for a boxed (fractal) %s tile, but got '%s'",
			 vr, tr, tstr(view));
		return -1;
	}
	if (dyn(d[rank - 2]) || dyn(d[rank - 1]) || dyn(ti->vr) || dyn(ti->vc))
		return 0;
	pr = col_major ? d[rank - 2] : outer * d[rank - 2];
	pc = col_major ? outer * d[rank - 1] : d[rank - 1];
	if (ti->vr != pr || ti->vc != pc) {
		op_error(v, op,
			 "expects %s valid_shape %lldx%lld to be the %s partition flattened for a %s "
			 "tile (%lldx%lld: outer dims into %s)",
			 tr, (long long)ti->vr, (long long)ti->vc, vr, col_major ? "col-major" : "row-major",
			 (long long)pr, (long long)pc, col_major ? "columns" : "rows");
		return -1;
	}
	return 0;
}

/* tload: view -> tile; tstore: tile -> view. */
static void verify_transfer(vctx *v, const ir_op *op, int load)
{
	const ir_type *view = load ? vtype(op, 0) : dst_type(op);
	const ir_type *tile = load ? dst_type(op) : vtype(op, 0);
	const char *vr = load ? "src" : "dst", *tr = load ? "dst" : "src";
	tinfo ti;
	int64_t vn, tn, vd[2];
	unsigned i;
	if (!view || view->kind != IR_TYPE_PART_VIEW) {
		op_error(v, op, "expects %s to be a !pto.partition_tensor_view, but got '%s'", vr, tstr(view));
		view = NULL;
	}
	if (check_tile_use(v, op, tile, tr, &ti))
		return;
	if (!view)
		return;
	for (i = 0; i < view->u.shaped.rank; i++)
		if (!dyn(view->u.shaped.dims[i]) && view->u.shaped.dims[i] <= 0) {
			op_error(v, op, "expects %s dims to be positive", vr);
			return;
		}
	if ((!dyn(ti.vr) && ti.vr <= 0) || (!dyn(ti.vc) && ti.vc <= 0)) {
		op_error(v, op, "expects %s valid_shape dims to be positive", tr);
		return;
	}
	if (view->u.shaped.elem != ti.elem && !acc_store_cvt(load, &ti, view->u.shaped.elem))
		op_error(v, op, "expects %s and %s to have the same element type, but got '%s' and '%s'",
			 vr, tr, tstr(view->u.shaped.elem), tstr(ti.elem));
	if (view->u.shaped.rank > 2 && check_flat_partition(v, op, view, tile, &ti, vr, tr))
		return;
	vd[0] = ti.vr;
	vd[1] = ti.vc;
	vn = static_count(view->u.shaped.dims, view->u.shaped.rank);
	tn = dyn(ti.vr) || dyn(ti.vc) ? -1 : static_count(vd, 2);
	if (vn >= 0 && tn >= 0 && vn != tn)
		op_error(v, op, "expects %s static element count (%lld) to match %s valid_shape static element count (%lld)",
			 vr, (long long)vn, tr, (long long)tn);
}

/* The values of the synchronisation attributes (PTOAS's enums; docs/semantics.md §8.5). */
static const char *const sync_op_names[] = {"TLOAD", "TSTORE_ACC", "TSTORE_VEC", "TMOV_M2L",
	"TMOV_M2S", "TMOV_M2B", "TMOV_M2V", "TMOV_V2M", "TMATMUL", "TVEC", "TVECWAIT_EVENT", NULL};
static const char *const event_names[] = {"EVENT_ID0", "EVENT_ID1", "EVENT_ID2", "EVENT_ID3",
	"EVENT_ID4", "EVENT_ID5", "EVENT_ID6", "EVENT_ID7", NULL};
static const char *const pipe_names[] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1",
	"PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX",
	"VIRTUAL_PIPE_MTE2_L1A", "VIRTUAL_PIPE_MTE2_L1B", "PIPE_NUM", "PIPE_UNASSIGNED", NULL};

/* A SYNCOP, EVENT or PIPE attribute: #pto.KIND<VALUE> with VALUE one of its enum's. */
static void verify_sync_attr(vctx *v, const ir_op *op, const char *name, unsigned kind,
			     const ir_attr *a)
{
	const char *const *vals = kind == IR_IF_SYNCOP ? sync_op_names
				  : kind == IR_IF_EVENT ? event_names : pipe_names;
	const char *want = kind == IR_IF_SYNCOP ? "#pto.pipe_event_type<TLOAD>"
			   : kind == IR_IF_EVENT ? "#pto.event<EVENT_ID0>" : "#pto.pipe<PIPE_V>";
	char list[400];
	size_t n = 0;
	unsigned k;
	int kind_ok = a->kind == IR_ATTR_PTO &&
		      (kind == IR_IF_SYNCOP ? !strcmp(a->u.pto.kind, "pipe_event_type") ||
						     !strcmp(a->u.pto.kind, "sync_op_type")
					    : !strcmp(a->u.pto.kind, kind == IR_IF_EVENT ? "event" : "pipe"));
	if (kind_ok)
		for (k = 0; vals[k]; k++)
			if (!strcmp(a->u.pto.value, vals[k]))
				return;
	list[0] = 0;
	for (k = 0; vals[k]; k++)
		n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s",
				      k ? ", " : "", vals[k]);
	op_error(v, op, "expects '%s' to be like %s, with one of %s", name, want, list);
}

/* The attributes of the op's table row (ops.def ATTR), by kind. */
static void verify_attrs(vctx *v, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	unsigned i;
	for (i = 0; i < d->num_attrs; i++) {
		const char *name = d->attrs[i].name;
		const ir_attr *a = ir_op_get_attr(op, name);
		ptort_rmode rm;
		if (!a) {
			if (d->attrs[i].req == IR_IF_REQ)
				op_error(v, op, "requires attribute '%s'", name);
			continue;
		}
		switch (d->attrs[i].kind) {
		case IR_IF_SAT:
			if (ir_attr_satmode(a) < 0)
				op_error(v, op, "expects '%s' to be #pto<saturation_mode ON> or #pto<saturation_mode OFF>", name);
			break;
		case IR_IF_CMP:
			if (ir_attr_cmp(a) < 0)
				op_error(v, op, "expects '%s' to be a #pto<cmp X> attribute with X one of eq, ne, lt, le, gt, ge", name);
			break;
		case IR_IF_BOOL:
			if (a->kind != IR_ATTR_BOOL)
				op_error(v, op, "expects '%s' to be true or false", name);
			break;
		case IR_IF_SYNCOP:
		case IR_IF_EVENT:
		case IR_IF_PIPE:
			verify_sync_attr(v, op, name, d->attrs[i].kind, a);
			break;
		case IR_IF_INT:
			if (a->kind != IR_ATTR_INT)
				op_error(v, op, "expects '%s' to be an integer", name);
			break;
		case IR_IF_RMODE:
			if (ir_attr_rmode(a, &rm) < 0)
				op_error(v, op, "expects '%s' to be a #pto<round_mode X> attribute with X one of NONE, RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT", name);
			break;
		default:
			break;
		}
	}
}

static void verify_tcvt(vctx *v, const ir_op *op)
{
	tinfo s, d, t;
	int bad = 0;
	unsigned nin = num_ins(op);
	bad |= check_tile_use(v, op, vtype(op, 0), "src", &s);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &d);
	if (nin == 2)
		bad |= check_tile_use(v, op, vtype(op, 1), "tmp", &t);
	if (bad)
		return;
	if (dyn(s.rows) || dyn(s.cols) || dyn(d.rows) || dyn(d.cols))
		return; /* a dynamic !pto.tile shape, reported where it is defined */
	if (s.rows != d.rows || s.cols != d.cols)
		op_error(v, op, "expects src and dst to have compatible shapes");
	else if (!dyn(s.vr) && !dyn(s.vc) && !dyn(d.vr) && !dyn(d.vc) &&
		 (s.vr != d.vr || s.vc != d.vc))
		op_error(v, op, "expects src and dst to have the same valid_shape");
}

static void verify_tmov(vctx *v, const ir_op *op)
{
	tinfo s, d;
	const ptoc_tmov_pair *mv;
	int bad = check_tile_use(v, op, vtype(op, 0), "src", &s);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &d);
	if (bad || !s.buf || !d.buf)
		return;
	mv = s.mem > IR_MEM_NONE && d.mem > IR_MEM_NONE
		     ? target_find_tmov(v->t, (ptoc_loc)(s.mem - IR_MEM_VEC), (ptoc_loc)(d.mem - IR_MEM_VEC))
		     : NULL;
	if (!mv) {
		op_error(v, op, "expects a supported tmov address-space pair for this target (got %s -> %s)",
			 ir_mem_name(s.mem), ir_mem_name(d.mem));
		return;
	}
	if (!mv->reshape && (s.rows != d.rows || s.cols != d.cols)) {
		op_error(v, op, "expects src and dst to have the same shape");
		return;
	}
	/* element types: copies, except the acc f32 -> f16/bf16 conversion of the fixpipe */
	if (s.elem != d.elem) {
		ptort_type se, de;
		int cvt = s.mem == IR_MEM_ACC && !ir_type_to_elem(s.elem, &se) &&
			  !ir_type_to_elem(d.elem, &de) && se == PTORT_F32 &&
			  (de == PTORT_F16 || de == PTORT_BF16);
		if (!cvt)
			op_error(v, op, "expects src and dst to have the same element type (only acc "
					"f32 converts, to f16 or bf16), but got '%s' and '%s'",
				 tstr(s.elem), tstr(d.elem));
	}
	if (!dyn(s.vr) && !dyn(s.vc) && !dyn(d.vr) && !dyn(d.vc) && (s.vr != d.vr || s.vc != d.vc))
		op_error(v, op, "expects src and dst to have the same valid_shape (%lldx%lld vs %lldx%lld)",
			 (long long)s.vr, (long long)s.vc, (long long)d.vr, (long long)d.vc);
}

/* textract (docs/semantics.md §7.8): a window of src at (indexRow, indexCol) into dst,
 * same element type, between the memories and of the element types the target's
 * table lists (target.h). */
static int const_operand(const ir_op *op, unsigned i, int64_t *out);

static void verify_textract(vctx *v, const ir_op *op)
{
	tinfo s, d;
	int64_t k[2] = {0, 0};
	int known[2] = {0, 0};
	ptort_type e;
	unsigned i;
	int bad = check_tile_use(v, op, vtype(op, 0), "src", &s);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &d);
	if (bad)
		return;
	for (i = 1; i <= 2; i++) {
		const ir_type *t = vtype(op, i);
		if (!t || t->kind != IR_TYPE_INDEX) {
			op_error(v, op, "expects %s to be index, but got '%s'",
				 i == 1 ? "indexRow" : "indexCol", tstr(t));
			return;
		}
		known[i - 1] = const_operand(op, i, &k[i - 1]);
		if (known[i - 1] && k[i - 1] < 0) {
			op_error(v, op, "expects indexRow/indexCol to be non-negative");
			return;
		}
	}
	if (s.elem != d.elem) {
		op_error(v, op, "expects src and dst to have the same element type, but got '%s' and '%s'",
			 tstr(s.elem), tstr(d.elem));
		return;
	}
	if (ir_type_to_elem(d.elem, &e) || !(v->t->extract_types >> e & 1)) {
		char list[256];
		size_t n = 0;
		unsigned t;
		list[0] = 0;
		for (t = 0; t < PTORT_TYPE_COUNT; t++)
			if (v->t->extract_types >> t & 1)
				n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0,
						      "%s%s", n ? ", " : "", ptort_type_name((ptort_type)t));
		op_error(v, op, "expects %s textract element type to be one of %s, but got '%s'",
			 v->t->title, list, tstr(d.elem));
		return;
	}
	if (s.buf && d.buf &&
	    (s.mem <= IR_MEM_NONE || d.mem <= IR_MEM_NONE ||
	     !target_has_extract(v->t, (ptoc_loc)(s.mem - IR_MEM_VEC), (ptoc_loc)(d.mem - IR_MEM_VEC)))) {
		op_error(v, op, "expects a supported textract address-space pair for %s (got %s -> %s)",
			 v->t->title, ir_mem_name(s.mem), ir_mem_name(d.mem));
		return;
	}
	if ((known[0] && !dyn(d.vr) && k[0] + d.vr > s.rows) ||
	    (known[1] && !dyn(d.vc) && k[1] + d.vc > s.cols))
		op_error(v, op, "expects the %lldx%lld window at (%lld, %lld) to fit in the %lldx%lld src",
			 (long long)d.vr, (long long)d.vc, (long long)k[0], (long long)k[1],
			 (long long)s.rows, (long long)s.cols);
}

/* addptr, load_scalar, store_scalar, get_tensor_view_dim (docs/semantics.md §8.6) */
static void verify_ptr_ops(vctx *v, const ir_op *op)
{
	const ir_type *p = vtype(op, 0), *i = vtype(op, 1);
	const ir_type *r = op->num_results ? op->results[0].type : NULL;
	int64_t k;
	if (op->code == IR_OP_GET_TENSOR_VIEW_DIM) {
		if (!p || p->kind != IR_TYPE_TENSOR_VIEW)
			op_error(v, op, "expects tensor_view to be a !pto.tensor_view, but got '%s'", tstr(p));
		else if (!i || i->kind != IR_TYPE_INDEX)
			op_error(v, op, "expects dim_index to be index, but got '%s'", tstr(i));
		else if (!r || r->kind != IR_TYPE_INDEX)
			op_error(v, op, "expects the result to be index, but got '%s'", tstr(r));
		else if (const_operand(op, 1, &k) && (k < 0 || k >= p->u.shaped.rank))
			op_error(v, op, "expects dim_index %lld to be a dim of the rank-%u view",
				 (long long)k, p->u.shaped.rank);
		return;
	}
	if (!p || p->kind != IR_TYPE_PTR) {
		op_error(v, op, "expects ptr to be a !pto.ptr, but got '%s'", tstr(p));
		return;
	}
	if (!i || i->kind != IR_TYPE_INDEX) {
		op_error(v, op, "expects offset to be index, but got '%s'", tstr(i));
		return;
	}
	if (op->code == IR_OP_ADDPTR) {
		if (r != p)
			op_error(v, op, "expects the result type '%s' to be the ptr's type '%s'", tstr(r),
				 tstr(p));
		return;
	}
	if (op->code == IR_OP_STORE_SCALAR)
		r = vtype(op, 2);
	if (r != p->u.ptr.elem)
		op_error(v, op, "expects the %s type '%s' to be the ptr's element type '%s'",
			 op->code == IR_OP_LOAD_SCALAR ? "result" : "value", tstr(r), tstr(p->u.ptr.elem));
	else if (const_operand(op, 1, &k) && k < 0)
		op_error(v, op, "expects offset to be non-negative (got %lld)", (long long)k);
}

/* The source and result types of an alias (treshape, bitcast): tile_buf types of one
 * memory; -1 after reporting. */
static int alias_types(vctx *v, const ir_op *op, const ir_type **s, const ir_type **r)
{
	*s = vtype(op, 0), *r = op->num_results ? op->results[0].type : NULL;
	if (!*s || !*r || (*s)->kind != IR_TYPE_TILE_BUF || (*r)->kind != IR_TYPE_TILE_BUF) {
		op_error(v, op, "expects src and result to be tile_buf types, but got '%s' and '%s'",
			 tstr(*s), tstr(*r));
		return -1;
	}
	if ((*s)->u.tb.mem != (*r)->u.tb.mem) {
		op_error(v, op, "expects src and result to have the same memory space (%s vs %s)",
			 ir_mem_name((*s)->u.tb.mem), ir_mem_name((*r)->u.tb.mem));
		return -1;
	}
	return 0;
}

/* bitcast (docs/semantics.md §7.8): PTOAS's rules: tile_buf types of the same memory,
 * shape, valid shape and configuration, different element types, no more bytes than
 * the source. */
static void verify_bitcast(vctx *v, const ir_op *op)
{
	const ir_type *s, *r;
	ptort_type es, er;
	if (alias_types(v, op, &s, &r))
		return;
	if (s->u.tb.elem == r->u.tb.elem)
		op_error(v, op, "expects src and result to have different element types; a shape "
			 "change is pto.treshape");
	else if (s->u.tb.rows != r->u.tb.rows || s->u.tb.cols != r->u.tb.cols)
		op_error(v, op, "expects src and result to have the same shape; a shape change is "
			 "pto.treshape");
	else if (s->u.tb.v_row != r->u.tb.v_row || s->u.tb.v_col != r->u.tb.v_col)
		op_error(v, op, "expects src and result to have the same valid_shape");
	else if (s->u.tb.blayout != r->u.tb.blayout || s->u.tb.slayout != r->u.tb.slayout ||
		 s->u.tb.fractal != r->u.tb.fractal || s->u.tb.pad != r->u.tb.pad)
		op_error(v, op, "expects src and result to have the same tile config");
	else if (ir_type_to_elem(s->u.tb.elem, &es) || ir_type_to_elem(r->u.tb.elem, &er))
		op_error(v, op, "expects element types with a runtime type");
	else if (ptort_type_bits(er) > ptort_type_bits(es))
		op_error(v, op, "expects the result to need no more bytes than the source (%s -> %s)",
			 tstr(s->u.tb.elem), tstr(r->u.tb.elem));
}

/* tgetval / tsetval (docs/semantics.md §7.9): a vec tile, an index offset inside its
 * storage when constant, the scalar of the tile's element type. */
static void verify_getset(vctx *v, const ir_op *op)
{
	int get = op->code == IR_OP_TGETVAL;
	const ir_type *t = get ? vtype(op, 0) : dst_type(op);
	const ir_type *off = vtype(op, get ? 1 : 0);
	const ir_type *val = get ? (op->num_results ? op->results[0].type : NULL) : vtype(op, 1);
	int64_t k;
	tinfo ti;
	if (check_tile_use(v, op, t, get ? "src" : "dst", &ti) || !ti.buf) {
		if (!ti.buf && ti.t)
			op_error(v, op, "expects %s to be a tile_buf", get ? "src" : "dst");
		return;
	}
	if (ti.mem != IR_MEM_VEC) {
		op_error(v, op, "expects %s to be in vec (loc=vec), but got loc=%s%s", get ? "src" : "dst",
			 ir_mem_name(ti.mem), ti.mem == IR_MEM_MAT
			 ? " (the scalar unit reads and writes UB only)" : "");
		return;
	}
	if (!off || off->kind != IR_TYPE_INDEX) {
		op_error(v, op, "expects offset to be index, but got '%s'", tstr(off));
		return;
	}
	if (val != ti.elem) {
		op_error(v, op, "expects the %s type '%s' to be the tile's element type '%s'",
			 get ? "result" : "value", tstr(val), tstr(ti.elem));
		return;
	}
	if (const_operand(op, get ? 1 : 0, &k) && (k < 0 || k >= ti.rows * ti.cols))
		op_error(v, op, "expects offset %lld to lie in the %lldx%lld tile", (long long)k,
			 (long long)ti.rows, (long long)ti.cols);
}

/* treshape (docs/semantics.md §7.8): the source's bytes as another tile_buf type of
 * the same memory, element type and element count; boxed stays boxed (PTOAS, pto-isa). */
static void verify_treshape(vctx *v, const ir_op *op)
{
	const ir_type *s, *r;
	if (alias_types(v, op, &s, &r))
		return;
	if (s->u.tb.elem != r->u.tb.elem)
		op_error(v, op, "expects src and result to have the same element type ('%s' vs "
			 "'%s'); a dtype change is pto.bitcast", tstr(s->u.tb.elem), tstr(r->u.tb.elem));
	else if (s->u.tb.rows * s->u.tb.cols != r->u.tb.rows * r->u.tb.cols)
		op_error(v, op, "expects src and result to have the same number of elements "
			 "(%lldx%lld vs %lldx%lld)", (long long)s->u.tb.rows, (long long)s->u.tb.cols,
			 (long long)r->u.tb.rows, (long long)r->u.tb.cols);
	else if ((s->u.tb.slayout == IR_SLAYOUT_NONE_BOX) != (r->u.tb.slayout == IR_SLAYOUT_NONE_BOX))
		op_error(v, op, "expects src and result both boxed or both none_box (a reshape "
			 "cannot change boxing)");
}

/* ---- vector ops (target/vec_types.def; docs/semantics.md §7) ---- */

static int is_scalar_type(const ir_type *t)
{
	return t && (t->kind == IR_TYPE_INT || t->kind == IR_TYPE_INDEX || t->kind == IR_TYPE_FLOAT);
}

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

static void verify_vec(vctx *v, const ir_op *op, const ir_vecdef *vd)
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
		if (!same_extent(t[0].vr, dt.vr))
			op_error(v, op, "expects src and dst to have the same valid rows (%lld vs %lld)",
				 (long long)t[0].vr, (long long)dt.vr);
		else if (!same_extent(dt.vc, 1))
			op_error(v, op, "expects dst to have one valid column, but got %lld",
				 (long long)dt.vc);
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
		if (!same_extent(t[0].vc, dt.vc))
			op_error(v, op, "expects src and dst to have the same valid columns (%lld vs %lld)",
				 (long long)t[0].vc, (long long)dt.vc);
		else if (!same_extent(dt.vr, 1))
			op_error(v, op, "expects dst to have one valid row, but got %lld",
				 (long long)dt.vr);
		else if (dyn(t[0].vr))
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

static void verify_set_validshape(vctx *v, const ir_op *op)
{
	const ir_type *t = vtype(op, 0);
	unsigned i;
	if (!t || t->kind != IR_TYPE_TILE_BUF) {
		op_error(v, op, "expects source to be a !pto.tile_buf, but got '%s'", tstr(t));
		return;
	}
	if (t->u.tb.v_row != IR_DYN || t->u.tb.v_col != IR_DYN)
		op_error(v, op, "expects source to have a dynamic valid shape (v_row=?, v_col=?)");
	for (i = 1; i < 3; i++)
		if (!is_int_or_index(vtype(op, i)))
			op_error(v, op, "expects %s to be an index, but got '%s'",
				 i == 1 ? "valid_row" : "valid_col", tstr(vtype(op, i)));
}

/* The (dst, lhs, rhs) element types of tmatmul/tmatmul.bias: a non-MX mmad of the
 * target's table. */
static int matmul_triple_ok(vctx *v, const ir_type *d, const ir_type *l, const ir_type *r)
{
	ptort_type ed, el, er;
	return !ir_type_to_elem(d, &ed) && !ir_type_to_elem(l, &el) && !ir_type_to_elem(r, &er) &&
	       target_has_mmad(v->t, el, er, ed, 0);
}

/* "(i32, i8, i8), (f32, f16, f16), ...": the non-MX triples of the target. */
static void matmul_triples(vctx *v, char *buf, size_t cap)
{
	size_t i, n = 0;
	buf[0] = 0;
	for (i = 0; i < v->t->cube.ntypes && n < cap; i++) {
		const ptoc_mmad_types *m = &v->t->cube.types[i];
		if (!m->mx)
			n += (size_t)snprintf(buf + n, cap - n, "%s(%s, %s, %s)", n ? ", " : "",
					      ptort_type_name(m->c), ptort_type_name(m->a),
					      ptort_type_name(m->b));
	}
}

/* A static m, k or n within the target's range (a dynamic one is checked at run time). */
static int mnk_ok(const vctx *v, int64_t x)
{
	return dyn(x) || (x >= v->t->cube.mnk_min && x <= v->t->cube.mnk_max);
}

static void verify_matmul(vctx *v, const ir_op *op)
{
	ir_matmul_roles ro;
	int acc, a, as, b, bs, bias;
	tinfo ta, tb_, td, tx;
	int bad = 0;
	if (ir_matmul_roles_of(op->code, &ro))
		return;
	acc = ro.acc, a = ro.a, as = ro.a_scale, b = ro.b, bs = ro.b_scale, bias = ro.bias;
	bad |= check_tile_use(v, op, vtype(op, (unsigned)a), "lhs", &ta);
	bad |= check_tile_use(v, op, vtype(op, (unsigned)b), "rhs", &tb_);
	bad |= check_tile_use(v, op, dst_type(op), "dst", &td);
	if (bad)
		return;
	if (td.buf && td.mem != IR_MEM_ACC)
		op_error(v, op, "expects dst to be in the acc address space");
	else if ((ta.buf && ta.mem != IR_MEM_LEFT) || (tb_.buf && tb_.mem != IR_MEM_RIGHT))
		op_error(v, op, "expects lhs, rhs, and dst to use the left, right, and acc address spaces");
	if (ro.gemv) {
		/* m = 1: row 0 of lhs and dst; k, n = rhs's valid shape (semantics.md §6.3) */
		if (ta.cols != tb_.rows || tb_.cols != td.cols)
			op_error(v, op, "expects static gemv tile shapes lhs[M,K], rhs[K,N], and dst[M',N]");
		else if (!mnk_ok(v, tb_.vr) || !mnk_ok(v, tb_.vc))
			op_error(v, op, "expects k and n valid sizes to be in [%u, %u]",
				 v->t->cube.mnk_min, v->t->cube.mnk_max);
		else if ((!dyn(ta.vc) && !dyn(tb_.vr) && ta.vc != tb_.vr) ||
			 (!dyn(tb_.vc) && !dyn(td.vc) && tb_.vc != td.vc))
			op_error(v, op, "expects valid shapes lhs[1,k], rhs[k,n], and dst[1,n] (got %lldx%lld, %lldx%lld, %lldx%lld)",
				 (long long)ta.vr, (long long)ta.vc, (long long)tb_.vr, (long long)tb_.vc,
				 (long long)td.vr, (long long)td.vc);
	} else if (ta.rows != td.rows || tb_.cols != td.cols || ta.cols != tb_.rows)
		op_error(v, op, "expects static matmul tile shapes lhs[M,K], rhs[K,N], and dst[M,N]");
	else if (!mnk_ok(v, ta.vr) || !mnk_ok(v, ta.vc) || !mnk_ok(v, tb_.vc))
		op_error(v, op, "expects m, k, and n valid sizes to be in [%u, %u]",
			 v->t->cube.mnk_min, v->t->cube.mnk_max);
	else if ((!dyn(ta.vc) && !dyn(tb_.vr) && ta.vc != tb_.vr) ||
		 (!dyn(ta.vr) && !dyn(td.vr) && ta.vr != td.vr) ||
		 (!dyn(tb_.vc) && !dyn(td.vc) && tb_.vc != td.vc))
		op_error(v, op, "expects valid shapes lhs[m,k], rhs[k,n], and dst[m,n] (got %lldx%lld, %lldx%lld, %lldx%lld)",
			 (long long)ta.vr, (long long)ta.vc, (long long)tb_.vr, (long long)tb_.vc,
			 (long long)td.vr, (long long)td.vc);
	if ((op->code == IR_OP_TMATMUL || op->code == IR_OP_TMATMUL_BIAS || op->code == IR_OP_TGEMV ||
	     op->code == IR_OP_TGEMV_BIAS) &&
	    !matmul_triple_ok(v, td.elem, ta.elem, tb_.elem)) {
		char list[1024];
		matmul_triples(v, list, sizeof list);
		op_error(v, op, "expects (dst, lhs, rhs) element types to match one of %s", list);
	}
	if (bias >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)bias), "bias", &tx)) {
		if (tx.buf && tx.mem != IR_MEM_BIAS)
			op_error(v, op, "expects bias to be in the bias address space");
		if (tx.rows != 1)
			op_error(v, op, "expects bias to have 1 row");
		if (tx.elem != td.elem)
			op_error(v, op, "expects bias and dst to have the same element type");
		if (tx.cols != td.cols)
			op_error(v, op, "expects bias to have as many columns as dst (%lld vs %lld)",
				 (long long)tx.cols, (long long)td.cols);
	}
	if (acc >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)acc), "acc_in", &tx)) {
		if (tx.buf && tx.mem != IR_MEM_ACC)
			op_error(v, op, "expects acc_in to be in the acc address space");
		else if (tx.elem != td.elem || tx.rows != td.rows || tx.cols != td.cols ||
			 tx.vr != td.vr || tx.vc != td.vc)
			op_error(v, op, "expects acc_in and dst to have the same shape, valid_shape and element type");
	}
	if (as >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)as), "a_scale", &tx) &&
	    tx.buf && tx.mem != IR_MEM_SCALING)
		op_error(v, op, "expects a_scale to be in the scaling address space");
	if (bs >= 0 && !check_tile_use(v, op, vtype(op, (unsigned)bs), "b_scale", &tx) &&
	    tx.buf && tx.mem != IR_MEM_SCALING)
		op_error(v, op, "expects b_scale to be in the scaling address space");
}

/* Value of an index/integer operand defined by arith.constant, if any. */
static int const_operand(const ir_op *op, unsigned i, int64_t *out)
{
	return i < op->num_operands && ir_value_const_int(op->operands[i].value, out);
}

static void verify_make_tensor_view(vctx *v, const ir_op *op)
{
	const ir_type *p = vtype(op, 0), *r = op->results[0].type;
	int64_t seg[3];
	unsigned i;
	if (!r || r->kind != IR_TYPE_TENSOR_VIEW) {
		op_error(v, op, "result must be a !pto.tensor_view, but got '%s'", tstr(r));
		return;
	}
	if (!p || p->kind != IR_TYPE_PTR)
		op_error(v, op, "expects ptr to be a !pto.ptr, but got '%s'", tstr(p));
	else if (p->u.ptr.elem != r->u.shaped.elem)
		op_error(v, op, "ptr element type must match tensor_view element type");
	if (!seg_sizes(op, 3, seg)) {
		seg[0] = 1;
		seg[1] = seg[2] = (int64_t)(op->num_operands - 1) / 2;
		if (op->num_operands % 2 == 0) {
			op_error(v, op, "requires attribute 'operandSegmentSizes' (array<i32: 1, rank, rank>)");
			return;
		}
	}
	if (seg[0] != 1 || seg[1] < 0 || seg[2] < 0 || 1 + seg[1] + seg[2] != (int64_t)op->num_operands) {
		op_error(v, op, "operandSegmentSizes does not match the operands");
		return;
	}
	if (seg[1] != r->u.shaped.rank || seg[2] != r->u.shaped.rank) {
		op_error(v, op, "shape/strides operand counts must match tensor_view rank=%u", r->u.shaped.rank);
		return;
	}
	for (i = 1; i < op->num_operands; i++)
		if (!is_int_or_index(vtype(op, i))) {
			op_error(v, op, "expects shape and strides to be index values, but operand #%u is '%s'",
				 i, tstr(vtype(op, i)));
			return;
		}
}

static void verify_partition_view(vctx *v, const ir_op *op)
{
	const ir_type *s = vtype(op, 0), *r = op->results[0].type;
	int64_t seg[3], off = 0, sz = 0;
	unsigned i, rank;
	if (!r || r->kind != IR_TYPE_PART_VIEW) {
		op_error(v, op, "result must be a !pto.partition_tensor_view, but got '%s'", tstr(r));
		return;
	}
	if (!s || (s->kind != IR_TYPE_TENSOR_VIEW && s->kind != IR_TYPE_PART_VIEW)) {
		op_error(v, op, "expects source to be a !pto.tensor_view, but got '%s'", tstr(s));
		return;
	}
	if (s->u.shaped.elem != r->u.shaped.elem)
		op_error(v, op, "expects source and result to have the same element type");
	rank = s->u.shaped.rank;
	if (!seg_sizes(op, 3, seg)) {
		seg[0] = 1;
		seg[1] = seg[2] = (int64_t)(op->num_operands - 1) / 2;
	}
	if (seg[0] != 1 || seg[1] < 0 || seg[2] < 0 || 1 + seg[1] + seg[2] != (int64_t)op->num_operands) {
		op_error(v, op, "operandSegmentSizes does not match the operands");
		return;
	}
	if (seg[1] != rank) {
		op_error(v, op, "offset count (%lld) must match source rank (%u)", (long long)seg[1], rank);
		return;
	}
	if (seg[2] != rank) {
		op_error(v, op, "size count (%lld) must match source rank (%u)", (long long)seg[2], rank);
		return;
	}
	if (r->u.shaped.rank != rank) {
		op_error(v, op, "result rank (%u) must match source rank (%u)", r->u.shaped.rank, rank);
		return;
	}
	for (i = 0; i < rank; i++) {
		int have_off = const_operand(op, 1 + i, &off);
		int have_sz = const_operand(op, 1 + rank + i, &sz);
		int64_t sd = s->u.shaped.dims[i], rd = r->u.shaped.dims[i];
		if (have_off && off < 0)
			op_error(v, op, "offset at dim %u must be non-negative (got %lld)", i, (long long)off);
		if (!have_sz)
			continue;
		if (sz <= 0)
			op_error(v, op, "size at dim %u must be positive (got %lld)", i, (long long)sz);
		else if (!dyn(rd) && rd != sz)
			op_error(v, op, "size/result mismatch at dim %u (%lld vs %lld)", i, (long long)sz,
				 (long long)rd);
		else if (!dyn(sd) && sz > sd)
			op_error(v, op, "size at dim %u (%lld) exceeds static source dim (%lld)", i,
				 (long long)sz, (long long)sd);
		else if (!dyn(sd) && have_off && off >= 0 && off > sd - sz)
			op_error(v, op, "offset+size at dim %u (%lld) exceeds static source dim (%lld)", i,
				 (long long)(off + sz), (long long)sd);
		else
			continue;
		break; /* the first bad dim only */
	}
}

/* ---- arith ------------------------------------------------------------------------ */

static int int_fits(int64_t x, unsigned bits, unsigned sign)
{
	int64_t lo, hi;
	if (bits >= 64)
		return 1;
	if (bits == 0)
		return 0;
	/* signless integers accept both the signed and the unsigned reading; the bounds
	   are computed unsigned so that i63's 2^63 - 1 does not overflow */
	lo = sign == IR_INT_UNSIGNED ? 0 : -(int64_t)((uint64_t)1 << (bits - 1));
	hi = (int64_t)(((uint64_t)1 << (bits - (sign == IR_INT_SIGNED))) - 1);
	return x >= lo && x <= hi;
}

static void verify_constant(vctx *v, const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "value");
	const ir_type *t = op->results[0].type, *at;
	if (!a) {
		op_error(v, op, "requires attribute 'value'");
		return;
	}
	if (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_BOOL)
		at = a->u.i.type;
	else if (a->kind == IR_ATTR_FLOAT)
		at = a->u.f.type;
	else {
		op_error(v, op, "expects 'value' to be an integer or float attribute");
		return;
	}
	if (at && at != t) {
		op_error(v, op, "result type ('%s') does not match the type of the value attribute ('%s')",
			 tstr(t), tstr(at));
		return;
	}
	if (a->kind == IR_ATTR_FLOAT && (!t || t->kind != IR_TYPE_FLOAT))
		op_error(v, op, "float value requires a float result type, but got '%s'", tstr(t));
	else if (a->kind != IR_ATTR_FLOAT && !is_int_or_index(t))
		op_error(v, op, "integer value requires an integer or index result type, but got '%s'", tstr(t));
	else if (a->kind != IR_ATTR_FLOAT && t->kind == IR_TYPE_INT &&
		 !int_fits(a->u.i.v, t->u.i.bits, t->u.i.signedness))
		op_error(v, op, "integer constant %lld out of range for type '%s'", (long long)a->u.i.v,
			 tstr(t));
}

/* The bit width of an integer or float type (0 for other types). */
static unsigned scalar_bits(const ir_type *t)
{
	ptort_type et;
	if (t->kind == IR_TYPE_INT)
		return t->u.i.bits;
	if (t->kind == IR_TYPE_FLOAT)
		return t->u.f.kind == IR_F64 ? 64 : ir_type_to_elem(t, &et) ? 0 : ptort_type_bits(et);
	return 0;
}

static void verify_arith(vctx *v, const ir_op *op)
{
	const ir_type *r = op->num_results ? op->results[0].type : NULL;
	const ir_attr *p;
	switch (op->code) {
	case IR_OP_CONSTANT:
		verify_constant(v, op);
		return;
	case IR_OP_CMPI:
		if (vtype(op, 0) != vtype(op, 1) || !is_int_or_index(vtype(op, 0)))
			op_error(v, op, "requires both operands to have the same integer or index type");
		if (!is_i1(r))
			op_error(v, op, "result must be i1, but got '%s'", tstr(r));
		p = ir_op_get_attr(op, "predicate");
		if (!p || p->kind != IR_ATTR_INT || p->u.i.v < 0 || p->u.i.v > 9)
			op_error(v, op, "requires a 'predicate' attribute (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge)");
		return;
	case IR_OP_SELECT:
		if (!is_i1(vtype(op, 0)))
			op_error(v, op, "expects the condition to be i1, but got '%s'", tstr(vtype(op, 0)));
		if (vtype(op, 1) != r || vtype(op, 2) != r)
			op_error(v, op, "requires the true value, false value and result to have the same type");
		return;
	case IR_OP_INDEX_CAST: case IR_OP_INDEX_CASTUI: {
		const ir_type *s = vtype(op, 0);
		if (!(s && r && ((s->kind == IR_TYPE_INDEX && r->kind == IR_TYPE_INT) ||
				 (s->kind == IR_TYPE_INT && r->kind == IR_TYPE_INDEX))))
			op_error(v, op, "operand type '%s' and result type '%s' are cast incompatible",
				 tstr(s), tstr(r));
		return;
	}
	case IR_OP_EXTSI: case IR_OP_EXTUI: case IR_OP_TRUNCI: {
		const ir_type *s = vtype(op, 0);
		int ext = op->code != IR_OP_TRUNCI;
		if (!s || !r || s->kind != IR_TYPE_INT || r->kind != IR_TYPE_INT) {
			op_error(v, op, "expects integer (not index) operand and result, but got '%s' to '%s'",
				 tstr(s), tstr(r));
			return;
		}
		if (ext ? r->u.i.bits <= s->u.i.bits : r->u.i.bits >= s->u.i.bits)
			op_error(v, op, "result type '%s' must be %s than operand type '%s'", tstr(r),
				 ext ? "wider" : "shorter", tstr(s));
		return;
	}
	case IR_OP_SITOFP: case IR_OP_UITOFP: case IR_OP_FPTOSI: case IR_OP_FPTOUI: {
		const ir_type *s = vtype(op, 0);
		int tofp = op->code == IR_OP_SITOFP || op->code == IR_OP_UITOFP;
		const ir_type *it = tofp ? s : r, *ft = tofp ? r : s;
		if (!it || !ft || it->kind != IR_TYPE_INT || ft->kind != IR_TYPE_FLOAT)
			op_error(v, op, "expects %s, but got '%s' to '%s'",
				 tofp ? "an integer (not index) operand and a float result"
				      : "a float operand and an integer (not index) result",
				 tstr(s), tstr(r));
		return;
	}
	case IR_OP_EXTF: case IR_OP_TRUNCF: {
		const ir_type *s = vtype(op, 0);
		int ext = op->code == IR_OP_EXTF;
		if (!s || !r || s->kind != IR_TYPE_FLOAT || r->kind != IR_TYPE_FLOAT) {
			op_error(v, op, "expects a float operand and result, but got '%s' to '%s'", tstr(s),
				 tstr(r));
			return;
		}
		if (ext ? scalar_bits(r) <= scalar_bits(s) : scalar_bits(r) >= scalar_bits(s))
			op_error(v, op, "result type '%s' must be %s than operand type '%s'", tstr(r),
				 ext ? "wider" : "shorter", tstr(s));
		return;
	}
	case IR_OP_BITCAST: {
		const ir_type *s = vtype(op, 0);
		if (!s || !r || (s->kind != IR_TYPE_INT && s->kind != IR_TYPE_FLOAT) ||
		    (r->kind != IR_TYPE_INT && r->kind != IR_TYPE_FLOAT) ||
		    scalar_bits(s) != scalar_bits(r))
			op_error(v, op, "operand type '%s' and result type '%s' are cast incompatible "
				 "(integers and floats of the same width)", tstr(s), tstr(r));
		return;
	}
	case IR_OP_CMPF:
		if (vtype(op, 0) != vtype(op, 1) || !vtype(op, 0) || vtype(op, 0)->kind != IR_TYPE_FLOAT)
			op_error(v, op, "requires both operands to have the same float type");
		if (!is_i1(r))
			op_error(v, op, "result must be i1, but got '%s'", tstr(r));
		p = ir_op_get_attr(op, "predicate");
		if (!p || p->kind != IR_ATTR_INT || p->u.i.v < 0 || p->u.i.v >= IR_CMPF_PRED_COUNT)
			op_error(v, op, "requires a 'predicate' attribute (false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true)");
		return;
	case IR_OP_ADDF: case IR_OP_SUBF: case IR_OP_MULF: case IR_OP_DIVF:
	case IR_OP_MAXIMUMF: case IR_OP_MINIMUMF: case IR_OP_MAXNUMF: case IR_OP_MINNUMF:
	case IR_OP_NEGF: {
		unsigned i;
		int bad = !r || r->kind != IR_TYPE_FLOAT;
		for (i = 0; i < op->num_operands; i++)
			bad |= vtype(op, i) != r;
		if (bad)
			op_error(v, op, "requires the same float type for all operands and results");
		return;
	}
	default:
		if (vtype(op, 0) != r || vtype(op, 1) != r || !is_int_or_index(r))
			op_error(v, op, "requires the same integer or index type for all operands and results");
	}
}

/* ---- func and scf ----------------------------------------------------------------- */

static const ir_type *func_type(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "function_type");
	return a && a->kind == IR_ATTR_TYPE && a->u.type && a->u.type->kind == IR_TYPE_FUNC
		       ? a->u.type
		       : NULL;
}

static const char *sym_name(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "sym_name");
	return a && a->kind == IR_ATTR_STRING ? a->u.str.s : "?";
}

static void verify_func(vctx *v, const ir_op *op)
{
	const ir_type *ft = func_type(op);
	const ir_attr *n = ir_op_get_attr(op, "sym_name");
	ir_block *b;
	unsigned i;
	if (!n || n->kind != IR_ATTR_STRING)
		op_error(v, op, "requires a string attribute 'sym_name'");
	if (!ft) {
		op_error(v, op, "requires a type attribute 'function_type'");
		return;
	}
	/* a kernel (pto.entry) is launched, nothing receives its results (semantics.md
	 * §8.3); functions that are called may return values */
	if (ft->u.fn.nout && ir_op_get_attr(op, "pto.entry"))
		op_error(v, op, "PTO entry functions must return void: @%s is marked pto.entry and returns %u value%s",
			 n && n->kind == IR_ATTR_STRING ? sym_name(op) : "?", ft->u.fn.nout,
			 ft->u.fn.nout == 1 ? "" : "s");
	if (op->num_regions != 1 || !(b = op->regions[0].first))
		return; /* a declaration */
	if (b->num_args != ft->u.fn.nin) {
		op_error(v, op, "entry block must have %u arguments to match function signature",
			 ft->u.fn.nin);
		return;
	}
	for (i = 0; i < b->num_args; i++)
		if (b->args[i]->type != ft->u.fn.in[i])
			op_error(v, op, "type of entry block argument #%u('%s') must match the type of the corresponding argument in function signature('%s')",
				 i, tstr(b->args[i]->type), tstr(ft->u.fn.in[i]));
}

static const ir_op *parent_op(const ir_op *op)
{
	return op->block && op->block->region ? op->block->region->parent : NULL;
}

static void verify_return(vctx *v, const ir_op *op)
{
	const ir_op *f = parent_op(op);
	const ir_type *ft;
	unsigned i;
	if (!f || f->code != IR_OP_FUNC) {
		op_error(v, op, "expects parent op 'func.func'");
		return;
	}
	if (!(ft = func_type(f)))
		return;
	if (op->num_operands != ft->u.fn.nout) {
		op_error(v, op, "has %u operands, but enclosing function (@%s) returns %u",
			 op->num_operands, sym_name(f), ft->u.fn.nout);
		return;
	}
	for (i = 0; i < op->num_operands; i++)
		if (vtype(op, i) != ft->u.fn.out[i])
			op_error(v, op, "type of return operand %u ('%s') doesn't match function result type ('%s') in function @%s",
				 i, tstr(vtype(op, i)), tstr(ft->u.fn.out[i]), sym_name(f));
}

/* The function `name` (len bytes) at the top level of the module holding `op`, or NULL. */
static const ir_op *find_func(const ir_op *op, const char *name, size_t len)
{
	const ir_op *m = op, *f;
	while (parent_op(m))
		m = parent_op(m);
	if (m->code != IR_OP_MODULE || !m->num_regions || !m->regions[0].first)
		return NULL;
	for (f = m->regions[0].first->first; f; f = f->next) {
		const ir_attr *n = ir_op_get_attr(f, "sym_name");
		if (f->code == IR_OP_FUNC && n && n->kind == IR_ATTR_STRING && n->u.str.len == len &&
		    !memcmp(n->u.str.s, name, len))
			return f;
	}
	return NULL;
}

/* The function `op` is in. */
static const ir_op *enclosing_func(const ir_op *op)
{
	const ir_op *p;
	for (p = parent_op(op); p && p->code != IR_OP_FUNC; p = parent_op(p))
		;
	return p;
}

typedef struct callpath {
	const ir_op *f[16];
	unsigned n, steps;
} callpath;

static int reaches(const ir_op *from, const ir_op *target, callpath *path);

/* Whether some call in `op` (nested regions included) reaches `target`. */
static int calls_reach(const ir_op *op, const ir_op *target, callpath *path)
{
	unsigned i;
	const ir_block *b;
	const ir_op *o;
	if (op->code == IR_OP_CALL) {
		const ir_attr *c = ir_op_get_attr(op, "callee");
		const ir_op *g = c && c->kind == IR_ATTR_SYMBOL ? find_func(op, c->u.str.s, c->u.str.len)
								 : NULL;
		if (g && reaches(g, target, path))
			return 1;
	}
	for (i = 0; i < op->num_regions; i++)
		for (b = op->regions[i].first; b; b = b->next)
			for (o = b->first; o; o = o->next)
				if (calls_reach(o, target, path))
					return 1;
	return 0;
}

/* Whether function `from` is `target` or calls it, directly or not; the functions on
 * the way are recorded in `path`. The walk stops (answering no) after 100000 steps or
 * 16 levels deeper than any path it records. */
static int reaches(const ir_op *from, const ir_op *target, callpath *path)
{
	unsigned i;
	if (from == target)
		return 1;
	if (++path->steps > 100000)
		return 0;
	for (i = 0; i < path->n; i++)
		if (path->f[i] == from)
			return 0; /* a cycle not through target: reported at its own calls */
	if (path->n == sizeof path->f / sizeof path->f[0])
		return 0;
	path->f[path->n++] = from;
	if (calls_reach(from, target, path))
		return 1;
	path->n--;
	return 0;
}

/* func.call (docs/semantics.md §8.3): the callee is a function of the module, the
 * operand and result types are its function type's, and no chain of calls leads back
 * to the caller (ptoc inlines every call: the inline pass, which also reports a call
 * of a declaration). */
static void verify_call(vctx *v, const ir_op *op)
{
	const ir_attr *c = ir_op_get_attr(op, "callee");
	const ir_op *f, *caller;
	const ir_type *ft;
	callpath path;
	unsigned i;
	if (!c || c->kind != IR_ATTR_SYMBOL) {
		op_error(v, op, "requires a 'callee' symbol reference attribute");
		return;
	}
	f = find_func(op, c->u.str.s, c->u.str.len);
	if (!f) {
		op_error(v, op, "'%.*s' does not reference a valid function", (int)c->u.str.len,
			 c->u.str.s);
		return;
	}
	if (!(ft = func_type(f)))
		return; /* reported at the function */
	if (op->num_operands != ft->u.fn.nin) {
		op_error(v, op, "incorrect number of operands for callee @%s: %u, but it takes %u",
			 sym_name(f), op->num_operands, ft->u.fn.nin);
		return;
	}
	for (i = 0; i < op->num_operands; i++)
		if (vtype(op, i) != ft->u.fn.in[i])
			op_error(v, op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %u",
				 tstr(ft->u.fn.in[i]), tstr(vtype(op, i)), i);
	if (op->num_results != ft->u.fn.nout) {
		op_error(v, op, "incorrect number of results for callee @%s: %u, but it returns %u",
			 sym_name(f), op->num_results, ft->u.fn.nout);
		return;
	}
	for (i = 0; i < op->num_results; i++)
		if (op->results[i].type != ft->u.fn.out[i])
			op_error(v, op, "result type mismatch at index %u: expected '%s', but the callee returns '%s'",
				 i, tstr(op->results[i].type), tstr(ft->u.fn.out[i]));
	caller = enclosing_func(op);
	memset(&path, 0, sizeof path);
	if (caller && reaches(f, caller, &path)) {
		char chain[512];
		size_t n = 0;
		chain[0] = 0;
		for (i = 0; i < path.n && n + 2 < sizeof chain; i++)
			n += (size_t)snprintf(chain + n, sizeof chain - n, "@%s -> ", sym_name(path.f[i]));
		if (n < sizeof chain)
			snprintf(chain + n, sizeof chain - n, "@%s", sym_name(caller));
		op_error(v, op, "calls @%s recursively (@%s -> %s): ptoc inlines every call, so "
			 "recursion is not supported", sym_name(f), sym_name(caller), chain);
		op_note(v, f->loc, "callee @%s is defined here", sym_name(f));
	}
}

static void verify_yield(vctx *v, const ir_op *op)
{
	const ir_op *p = parent_op(op);
	unsigned i;
	if (p && p->code == IR_OP_SCF_WHILE && op->block->region == &p->regions[1]) {
		/* the after region yields the next values of the before region's arguments */
		if (op->num_operands != p->num_operands) {
			op_error(v, op, "has %u operands, but parent 'scf.while' has %u initial values",
				 op->num_operands, p->num_operands);
			return;
		}
		for (i = 0; i < op->num_operands; i++)
			if (vtype(op, i) != vtype(p, i))
				op_error(v, op, "type of operand #%u ('%s') doesn't match the type of initial value #%u ('%s') of 'scf.while'",
					 i, tstr(vtype(op, i)), i, tstr(vtype(p, i)));
		return;
	}
	if (p && p->code == IR_OP_SCF_WHILE)
		return; /* in the before region: the missing scf.condition is reported */
	if (!p || (p->code != IR_OP_SCF_FOR && p->code != IR_OP_SCF_IF)) {
		if (p && p->code == IR_OP_UNKNOWN && !strncmp(p->name, "scf.", 4))
			return; /* other scf ops: not modelled */
		op_error(v, op, "expects parent op to be one of 'scf.for, scf.if, scf.while'");
		return;
	}
	if (op->num_operands != p->num_results) {
		op_error(v, op, "has %u operands, but parent '%s' has %u results", op->num_operands,
			 p->name, p->num_results);
		return;
	}
	for (i = 0; i < op->num_operands; i++)
		if (vtype(op, i) != p->results[i].type)
			op_error(v, op, "type of operand #%u ('%s') doesn't match the type of result #%u ('%s') of '%s'",
				 i, tstr(vtype(op, i)), i, tstr(p->results[i].type), p->name);
}

static unsigned count_blocks(const ir_region *r)
{
	unsigned n = 0;
	const ir_block *b;
	for (b = r->first; b; b = b->next)
		n++;
	return n;
}

/* scf.condition: ends the before region of an scf.while; the values after the
 * condition become the after region's arguments, or the results. */
static void verify_condition(vctx *v, const ir_op *op)
{
	const ir_op *p = parent_op(op);
	unsigned i, n = op->num_operands - 1;
	if (!p || p->code != IR_OP_SCF_WHILE || op->block->region != &p->regions[0]) {
		op_error(v, op, "expects parent op 'scf.while' (its before region)");
		return;
	}
	if (n != p->num_results) {
		op_error(v, op, "passes %u values, but parent 'scf.while' has %u results", n,
			 p->num_results);
		return;
	}
	for (i = 0; i < n; i++)
		if (vtype(op, 1 + i) != p->results[i].type)
			op_error(v, op, "type of value #%u ('%s') doesn't match the type of result #%u ('%s') of 'scf.while'",
				 i, tstr(vtype(op, 1 + i)), i, tstr(p->results[i].type));
}

/* scf.while: a before region whose block takes the initial values (types of the
 * operands) and an after region whose block takes the results' types. */
static void verify_while(vctx *v, const ir_op *op)
{
	const ir_block *b = op->regions[0].first, *a = op->regions[1].first;
	unsigned i;
	if (!b || !a || count_blocks(&op->regions[0]) != 1 || count_blocks(&op->regions[1]) != 1) {
		op_error(v, op, "expects its before and after regions to have exactly one block each");
		return;
	}
	if (b->num_args != op->num_operands) {
		op_error(v, op, "expects the before region to have %u arguments (the initial values), but found %u",
			 op->num_operands, b->num_args);
		return;
	}
	for (i = 0; i < b->num_args; i++)
		if (b->args[i]->type != vtype(op, i))
			op_error(v, op, "type of before region argument #%u ('%s') must match initial value #%u ('%s')",
				 i, tstr(b->args[i]->type), i, tstr(vtype(op, i)));
	if (a->num_args != op->num_results) {
		op_error(v, op, "expects the after region to have %u arguments (the result types), but found %u",
			 op->num_results, a->num_args);
		return;
	}
	for (i = 0; i < a->num_args; i++)
		if (a->args[i]->type != op->results[i].type)
			op_error(v, op, "type of after region argument #%u ('%s') must match result #%u ('%s')",
				 i, tstr(a->args[i]->type), i, tstr(op->results[i].type));
}

static void verify_for(vctx *v, const ir_op *op)
{
	const ir_type *it = vtype(op, 0);
	unsigned ninit = op->num_operands - 3, i;
	ir_block *b = op->regions[0].first;
	if (!is_int_or_index(it) || vtype(op, 1) != it || vtype(op, 2) != it)
		op_error(v, op, "expects lower bound, upper bound and step to have the same integer or index type");
	if (op->num_results != ninit) {
		op_error(v, op, "mismatch in number of loop-carried values (%u) and defined values (%u)",
			 ninit, op->num_results);
		return;
	}
	for (i = 0; i < ninit; i++)
		if (op->results[i].type != vtype(op, 3 + i))
			op_error(v, op, "type of iter_args init #%u ('%s') must match result #%u ('%s')", i,
				 tstr(vtype(op, 3 + i)), i, tstr(op->results[i].type));
	if (count_blocks(&op->regions[0]) != 1) {
		op_error(v, op, "expects its body region to have exactly one block");
		return;
	}
	if (b->num_args != 1 + ninit) {
		op_error(v, op, "expects the body to have %u arguments (induction variable and iter_args), but found %u",
			 1 + ninit, b->num_args);
		return;
	}
	if (b->args[0]->type != it)
		op_error(v, op, "expects the induction variable to have the type of the bounds ('%s')", tstr(it));
	for (i = 0; i < ninit; i++)
		if (b->args[1 + i]->type != vtype(op, 3 + i))
			op_error(v, op, "type of region iter_arg #%u ('%s') must match its init ('%s')", i,
				 tstr(b->args[1 + i]->type), tstr(vtype(op, 3 + i)));
}

static void verify_if(vctx *v, const ir_op *op)
{
	unsigned nthen = count_blocks(&op->regions[0]), nelse = count_blocks(&op->regions[1]);
	if (!is_i1(vtype(op, 0)))
		op_error(v, op, "expects the condition to be i1, but got '%s'", tstr(vtype(op, 0)));
	if (nthen != 1)
		op_error(v, op, "expects the 'then' region to have exactly one block");
	if (nelse > 1)
		op_error(v, op, "expects the 'else' region to have at most one block");
	if (op->num_results && nelse == 0)
		op_error(v, op, "must have an else block if defining values");
}

/* ---- level-3 instructions (added by split-repeats; docs/lowered.md) -------------- */

static int int_in(const ir_attr *a, int64_t lo, int64_t hi)
{
	return a->kind == IR_ATTR_INT && a->u.i.v >= lo && a->u.i.v <= hi;
}

static void verify_ifield(vctx *v, const ir_op *op, const char *name, unsigned kind,
			  const ir_attr *a)
{
	ptort_type et;
	ptort_rmode rm;
	ir_mem m;
	int ok = 1;
	switch (kind) {
	case IR_IF_MEM:
		ok = a->kind == IR_ATTR_PTO && !strcmp(a->u.pto.kind, "address_space") &&
		     !ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m) && m != IR_MEM_NONE;
		break;
	case IR_IF_ADDR: ok = int_in(a, 0, UINT32_MAX); break;
	case IR_IF_ETYPE: ok = a->kind == IR_ATTR_TYPE && !ir_type_to_elem(a->u.type, &et); break;
	case IR_IF_TILE: ok = a->kind == IR_ATTR_TYPE && a->u.type->kind == IR_TYPE_TILE_BUF; break;
	case IR_IF_RMODE: ok = !ir_attr_rmode(a, &rm); break;
	case IR_IF_SAT: ok = ir_attr_satmode(a) >= 0; break;
	case IR_IF_REPEAT: ok = int_in(a, 1, 255); break;
	case IR_IF_STRIDE: ok = int_in(a, 0, 255); break;
	case IR_IF_MASK: ok = a->kind == IR_ATTR_INT; break;
	case IR_IF_COUNT: ok = int_in(a, 1, UINT32_MAX); break;
	case IR_IF_F16BITS: ok = int_in(a, 0, 0xFFFF); break;
	case IR_IF_MNK: ok = int_in(a, v->t->cube.mnk_min, v->t->cube.mnk_max); break;
	case IR_IF_INIT: ok = a->kind == IR_ATTR_STRING; break;
	case IR_IF_UNIT: ok = a->kind == IR_ATTR_UNIT; break;
	case IR_IF_VOP: {
		unsigned k;
		ok = 0;
		if (a->kind == IR_ATTR_STRING)
			for (k = 0; k < PTORT_VOP_COUNT; k++)
				ok |= strlen(ptort_vop_name((ptort_vop)k)) == a->u.str.len &&
				      !memcmp(a->u.str.s, ptort_vop_name((ptort_vop)k), a->u.str.len);
		break;
	}
	case IR_IF_CMP: ok = ir_attr_cmp(a) >= 0; break;
	case IR_IF_SCALAR: ok = a->kind == IR_ATTR_INT; break;
	case IR_IF_FLAGS: ok = int_in(a, 0, 15); break;
	case IR_IF_BOOL: ok = a->kind == IR_ATTR_BOOL; break;
	case IR_IF_INT: ok = a->kind == IR_ATTR_INT; break;
	default: break;
	}
	if (!ok)
		op_error(v, op, "field '%s' is missing or out of range", name);
}

static int in_dyn_list(const ir_attr *dyn, const char *name)
{
	unsigned i;
	for (i = 0; dyn && i < dyn->u.array.n; i++)
		if (!strcmp(dyn->u.array.elems[i]->u.str.s, name))
			return 1;
	return 0;
}

/* A `?` valid dimension of tile field NAME needs NAME_v_row / NAME_v_col in dyn. */
static void insn_tile_dyn(vctx *v, const ir_op *op, const char *name, const ir_type *t,
			  const ir_attr *dyn)
{
	char f[64];
	snprintf(f, sizeof f, "%s_v_row", name);
	if (t->u.tb.v_row == IR_DYN && !in_dyn_list(dyn, f))
		op_error(v, op, "dynamic valid rows of '%s' need '%s' in 'dyn'", name, f);
	snprintf(f, sizeof f, "%s_v_col", name);
	if (t->u.tb.v_col == IR_DYN && !in_dyn_list(dyn, f))
		op_error(v, op, "dynamic valid columns of '%s' need '%s' in 'dyn'", name, f);
}

/* One field: skipped when in `dyn`, an error when missing and `required`. Returns 1
 * when it is present as an attribute. */
static int verify_field(vctx *v, const ir_op *op, const char *name, unsigned kind,
			int required, const ir_attr *dyn)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (in_dyn_list(dyn, name))
		return 0;
	if (!a) {
		if (required)
			op_error(v, op, "field '%s' is missing", name);
		return 0;
	}
	verify_ifield(v, op, name, kind, a);
	return 1;
}

static int init_is_zero(const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "init");
	return a && a->kind == IR_ATTR_STRING && a->u.str.len == 4 && !memcmp(a->u.str.s, "zero", 4);
}

static void verify_insn(vctx *v, const ir_op *op)
{
	const ir_insndef *d = ir_insn_get(op->code);
	const ir_attr *dyn = ir_op_get_attr(op, "dyn");
	unsigned fixed, nd = 0, i;
	if (!d)
		return;
	fixed = d->fixed;
	if (dyn) {
		if (dyn->kind != IR_ATTR_ARRAY) {
			op_error(v, op, "'dyn' must be an array of field names");
			return;
		}
		nd = dyn->u.array.n;
		for (i = 0; i < nd; i++) {
			const ir_attr *e = dyn->u.array.elems[i];
			if (e->kind != IR_ATTR_STRING) {
				op_error(v, op, "'dyn' must be an array of field names");
				return;
			}
			if (ir_op_get_attr(op, e->u.str.s))
				op_error(v, op, "field '%s' is both an attribute and in 'dyn'", e->u.str.s);
			if (fixed + i < op->num_operands && !is_int_or_index(vtype(op, fixed + i))) {
				/* a SCALAR field (setval's value) may be a float: its bits */
				const ir_ifield *f = ir_insn_field(d, e->u.str.s);
				if (!f || f->kind != IR_IF_SCALAR || !is_scalar_type(vtype(op, fixed + i)))
					op_error(v, op, "dyn operand '%s' must be an integer or index%s",
						 e->u.str.s, f && f->kind == IR_IF_SCALAR ? " or float" : "");
			}
		}
	}
	if (op->num_operands != fixed + nd) {
		op_error(v, op, "expects %u operands (%u fixed + 'dyn'), but found %u", fixed + nd,
			 fixed, op->num_operands);
		return;
	}
	if (fixed && (!vtype(op, 0) || vtype(op, 0)->kind != IR_TYPE_PART_VIEW))
		op_error(v, op, "operand 0 must be a !pto.partition_tensor_view");
	for (i = 0; i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		int req = f->req == IR_IF_REQ || (f->req == IR_IF_INIT_REQ && !init_is_zero(op));
		char an[64];
		if (!verify_field(v, op, f->name, f->kind, req, dyn)) {
			if (f->kind != IR_IF_TILE || !req)
				continue;
		} else if (f->kind == IR_IF_TILE) {
			const ir_attr *a = ir_op_get_attr(op, f->name);
			if (a->kind == IR_ATTR_TYPE && a->u.type->kind == IR_TYPE_TILE_BUF)
				insn_tile_dyn(v, op, f->name, a->u.type, dyn);
		}
		if (f->kind == IR_IF_TILE) {
			snprintf(an, sizeof an, "%s_addr", f->name);
			verify_field(v, op, an, IR_IF_ADDR, 1, dyn);
		}
	}
}

/* ---- per-op dispatch ---------------------------------------------------------------- */

static void verify_op_rules(vctx *v, const ir_op *op)
{
	verify_attrs(v, op);
	if (IR_OPF_PIPE_RULE(ir_opdef_get(op->code)->flags) == IR_PR_SYNC ||
	    ir_opdef_get(op->code)->form == IR_FORM_EVARR)
		v->errors += ir_verify_sync(v->ctx, op, v->t); /* verify_sync.c */
	switch (op->code) {
	case IR_OP_FUNC: verify_func(v, op); break;
	case IR_OP_RETURN: verify_return(v, op); break;
	case IR_OP_CALL: verify_call(v, op); break;
	case IR_OP_SCF_YIELD: verify_yield(v, op); break;
	case IR_OP_SCF_FOR: verify_for(v, op); break;
	case IR_OP_SCF_IF: verify_if(v, op); break;
	case IR_OP_SCF_WHILE: verify_while(v, op); break;
	case IR_OP_SCF_CONDITION: verify_condition(v, op); break;
	case IR_OP_CONSTANT: case IR_OP_ADDI: case IR_OP_SUBI: case IR_OP_MULI:
	case IR_OP_DIVSI: case IR_OP_REMSI: case IR_OP_MINSI: case IR_OP_MAXSI:
	case IR_OP_ANDI: case IR_OP_ORI: case IR_OP_XORI: case IR_OP_CMPI:
	case IR_OP_SELECT: case IR_OP_INDEX_CAST:
		verify_arith(v, op);
		break;
	case IR_OP_MAKE_TENSOR_VIEW: verify_make_tensor_view(v, op); break;
	case IR_OP_PARTITION_VIEW: verify_partition_view(v, op); break;
	case IR_OP_ALLOC_TILE: verify_alloc_tile(v, op); break;
	case IR_OP_TASSIGN: verify_tassign(v, op); break;
	case IR_OP_TLOAD: case IR_OP_TPREFETCH: verify_transfer(v, op, 1); break;
	case IR_OP_TSTORE: verify_transfer(v, op, 0); break;
	case IR_OP_TCVT: verify_tcvt(v, op); break;
	case IR_OP_TMOV: verify_tmov(v, op); break;
	case IR_OP_TEXTRACT: verify_textract(v, op); break;
	case IR_OP_TINSERT: v->errors += ir_verify_tinsert(v->ctx, op, v->t); break;
	case IR_OP_TGATHER: v->errors += ir_verify_tgather(v->ctx, op, v->t); break;
	case IR_OP_TSORT32: case IR_OP_TMRGSORT: case IR_OP_THISTOGRAM: case IR_OP_TCONCAT:
		v->errors += ir_verify_irregular(v->ctx, op, v->t); break;
	case IR_OP_TROWARGMAX: case IR_OP_TROWARGMIN: case IR_OP_TCOLARGMAX: case IR_OP_TCOLARGMIN:
		v->errors += ir_verify_argred(v->ctx, op, v->t);
		break;
	case IR_OP_TRESHAPE: verify_treshape(v, op); break;
	case IR_OP_TBITCAST: verify_bitcast(v, op); break;
	case IR_OP_TGETVAL: case IR_OP_TSETVAL: verify_getset(v, op); break;
	case IR_OP_ADDPTR: case IR_OP_LOAD_SCALAR: case IR_OP_STORE_SCALAR:
	case IR_OP_GET_TENSOR_VIEW_DIM: verify_ptr_ops(v, op); break;
	case IR_OP_SET_VALIDSHAPE: verify_set_validshape(v, op); break;
	case IR_OP_TPRINT:
		if (!ir_type_is_tile(vtype(op, 0)))
			op_error(v, op, "expects its operand to be a tile, but got '%s'", tstr(vtype(op, 0)));
		break;
	default:
		if (op->code >= IR_OP_SHLI && op->code <= IR_OP_BITCAST)
			verify_arith(v, op);
		if (ir_opdef_get(op->code)->flags & IR_OPF_MATMUL)
			verify_matmul(v, op);
		if (ir_opdef_get(op->code)->flags & IR_OPF_LEVEL3) /* split-repeats */
			verify_insn(v, op);
		if (ir_vecdef_get(op->code))
			verify_vec(v, op, ir_vecdef_get(op->code));
		break;
	}
}

/* The terminator a region of `op` must end with, or NULL when not checked. */
static const char *required_terminator(const ir_op *op, const ir_region *r)
{
	switch (op->code) {
	case IR_OP_FUNC: return "func.return";
	case IR_OP_SCF_FOR: case IR_OP_SCF_IF: return "scf.yield";
	case IR_OP_SCF_WHILE: return r == &op->regions[0] ? "scf.condition" : "scf.yield";
	default: return NULL;
	}
}

static void verify_region(vctx *v, ir_region *r);

static void check_operands_visible(vctx *v, const ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_operands; i++) {
		const ir_value *val = op->operands[i].value;
		if (!val || val->vmark == v->scope)
			continue;
		if (val->vmark) {
			op_error(v, op, "using value defined outside the region");
			op_note(v, val->loc, "required by region isolation constraints");
		} else {
			op_error(v, op, "operand #%u does not dominate this use", i);
			if (val->loc.line)
				op_note(v, val->loc, "operand defined here");
		}
	}
}

static void verify_op(vctx *v, ir_op *op)
{
	unsigned i, saved = v->scope;
	char what[32];
	int counts_ok = check_counts(v, op) == 0;
	for (i = 0; i < op->num_results; i++) {
		snprintf(what, sizeof what, "result #%u", i);
		check_type_fields(v, op, op->loc, what, op->results[i].type);
	}
	if (counts_ok)
		verify_op_rules(v, op);
	if (!op->num_regions)
		return;
	if (ir_opdef_get(op->code)->flags & IR_OPF_ISOLATED)
		v->scope = ++v->ctx->scope_seq;
	for (i = 0; i < op->num_regions; i++)
		verify_region(v, &op->regions[i]);
	v->scope = saved;
}

static void verify_block(vctx *v, ir_block *b, const char *term)
{
	ir_op *op;
	unsigned i;
	char what[48];
	for (i = 0; i < b->num_args; i++) {
		b->args[i]->vmark = v->scope;
		snprintf(what, sizeof what, "block argument #%u", i);
		check_type_fields(v, NULL, b->args[i]->loc, what, b->args[i]->type);
	}
	for (op = b->first; op; op = op->next) {
		check_operands_visible(v, op);
		verify_op(v, op);
		if ((ir_opdef_get(op->code)->flags & IR_OPF_TERMINATOR) && op->next)
			op_error(v, op, "must be the last operation in the parent block");
		for (i = 0; i < op->num_results; i++)
			op->results[i].vmark = v->scope;
	}
	if (term && (!b->last || strcmp(b->last->name, term))) {
		const ir_op *p = b->region->parent;
		v->errors++;
		ir_error(v->ctx, b->last ? b->last->loc : p->loc,
			 "'%s' op expects its body to end with '%s'", p->name, term);
	}
}

static void unmark_block(ir_block *b)
{
	ir_op *op;
	unsigned i;
	for (i = 0; i < b->num_args; i++)
		b->args[i]->vmark = 0;
	for (op = b->first; op; op = op->next)
		for (i = 0; i < op->num_results; i++)
			op->results[i].vmark = 0;
}

/* Blocks are visited in order; values of earlier blocks stay visible in later ones
 * (no branch ops are modelled, so textual order stands for dominance). */
static void verify_region(vctx *v, ir_region *r)
{
	ir_block *b;
	const char *term = r->parent ? required_terminator(r->parent, r) : NULL;
	if (!r->first)
		return;
	if (++v->depth > MAX_DEPTH) {
		if (v->depth == MAX_DEPTH + 1)
			op_error(v, r->parent, "regions nested too deeply (limit %d)", MAX_DEPTH);
		v->depth--;
		return;
	}
	for (b = r->first; b; b = b->next)
		verify_block(v, b, term);
	for (b = r->first; b; b = b->next)
		unmark_block(b);
	v->depth--;
}

/* Two functions of a module with one name (MLIR: a redefinition of the symbol): the
 * later one is the error, the first is noted. A hash set over the names keeps a
 * module of 100,000 functions linear. */
static int same_sym(const void *elem, const void *key)
{
	const ir_attr *a = ir_op_get_attr(elem, "sym_name"), *b = key;
	return a->u.str.len == b->u.str.len && !memcmp(a->u.str.s, b->u.str.s, b->u.str.len);
}

static void verify_symbols(vctx *v, const ir_op *module)
{
	ir_hset seen = {0};
	ir_op *f;
	if (module->code != IR_OP_MODULE || !module->num_regions || !module->regions[0].first)
		return;
	for (f = module->regions[0].first->first; f; f = f->next) {
		const ir_attr *n = ir_op_get_attr(f, "sym_name");
		const ir_op *first;
		uint64_t h;
		if (f->code != IR_OP_FUNC || !n || n->kind != IR_ATTR_STRING)
			continue;
		h = ir_hash_bytes(n->u.str.s, n->u.str.len, 0);
		first = ir_hset_find(&seen, h, same_sym, n);
		if (!first) {
			ir_hset_insert(&seen, h, f);
			continue;
		}
		op_error(v, f, "redefinition of symbol named '%s'", sym_name(f));
		op_note(v, first->loc, "see existing symbol definition here");
	}
	ir_hset_free(&seen);
}

unsigned ir_verify(ir_ctx *ctx, ir_op *root, const struct target *t)
{
	vctx v;
	memset(&v, 0, sizeof v);
	v.ctx = ctx;
	v.t = t;
	v.scope = ++ctx->scope_seq;
	verify_op(&v, root);
	verify_symbols(&v, root);
	if (!v.errors)
		v.errors += ir_verify_mixed(ctx, root, t);
	return v.errors;
}
