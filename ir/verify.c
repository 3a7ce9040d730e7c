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
#include "ir/verify.h"
#include "ir/subset.h"
#include "ir/verify_move.h"
#include "target/target.h"

#define MAX_DEPTH 1000 /* nested regions; the parser caps nesting well below this */

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

/* Whether attribute `a` is of field kind `kind` (the kinds without their own check). */
static int attr_fits(unsigned kind, const ir_attr *a)
{
	ptort_rmode rm;
	switch (kind) {
	case IR_IF_SAT: return ir_attr_satmode(a) >= 0;
	case IR_IF_CMP: return ir_attr_cmp(a) >= 0;
	case IR_IF_BOOL: return a->kind == IR_ATTR_BOOL;
	case IR_IF_INT: return a->kind == IR_ATTR_INT;
	case IR_IF_RMODE: return ir_attr_rmode(a, &rm) >= 0;
	default: return 1;
	}
}

/* What an attribute of each checked kind must be, for the message. */
static const char *const attr_expect[] = {
	[IR_IF_SAT] = "#pto<saturation_mode ON> or #pto<saturation_mode OFF>",
	[IR_IF_CMP] = "a #pto<cmp X> attribute with X one of eq, ne, lt, le, gt, ge",
	[IR_IF_BOOL] = "true or false",
	[IR_IF_INT] = "an integer",
	[IR_IF_RMODE] = "a #pto<round_mode X> attribute with X one of NONE, RINT, ROUND, FLOOR, "
			"CEIL, TRUNC, ODD, CAST_RINT",
};

/* The attributes of the op's table row (ops.def ATTR), by kind. */
static void verify_attrs(vctx *v, const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	unsigned i;
	for (i = 0; i < d->num_attrs; i++) {
		const char *name = d->attrs[i].name;
		const ir_attr *a = ir_op_get_attr(op, name);
		unsigned kind = d->attrs[i].kind;
		if (!a) {
			if (d->attrs[i].req == IR_IF_REQ)
				op_error(v, op, "requires attribute '%s'", name);
		} else if (kind == IR_IF_SYNCOP || kind == IR_IF_EVENT || kind == IR_IF_PIPE) {
			verify_sync_attr(v, op, name, kind, a);
		} else if (!attr_fits(kind, a)) {
			op_error(v, op, "expects '%s' to be %s", name, attr_expect[kind]);
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
	case IR_OP_TSTORE: verify_transfer(v, op, 0); v->errors += ir_verify_fixpipe(v->ctx, op); break;
	case IR_OP_TCVT: verify_tcvt(v, op); break;
	case IR_OP_TMOV: verify_tmov(v, op); v->errors += ir_verify_fixpipe(v->ctx, op); break;
	case IR_OP_TEXTRACT: verify_textract(v, op); break;
	case IR_OP_TINSERT: v->errors += ir_verify_tinsert(v->ctx, op, v->t); break;
	case IR_OP_TGATHER: v->errors += ir_verify_tgather(v->ctx, op, v->t); break;
	case IR_OP_TGET_SCALE_ADDR: verify_scale_addr(v, op); break;
	case IR_OP_TSORT32: case IR_OP_TMRGSORT: case IR_OP_THISTOGRAM: case IR_OP_TCONCAT:
		v->errors += ir_verify_irregular(v->ctx, op, v->t); break;
	case IR_OP_TRANDOM: case IR_OP_TPACK: case IR_OP_TSYNC: v->errors += ir_verify_gen(v->ctx, op, v->t); break;
	case IR_OP_TQUANT: case IR_OP_TDEQUANT: v->errors += ir_verify_quant(v->ctx, op, v->t); break;
	case IR_OP_TEXTRACT_FP: case IR_OP_TINSERT_FP:
		v->errors += ir_verify_quant(v->ctx, op, v->t) + ir_verify_fixpipe(v->ctx, op);
		break;
	case IR_OP_BUILD_ASYNC_SESSION: case IR_OP_TPUT_ASYNC: case IR_OP_TGET_ASYNC:
	case IR_OP_WAIT_ASYNC_EVENT: case IR_OP_TEST_ASYNC_EVENT: v->errors += ir_verify_async(v->ctx, op); break;
	case IR_OP_TROWARGMAX: case IR_OP_TROWARGMIN: case IR_OP_TCOLARGMAX: case IR_OP_TCOLARGMIN:
		v->errors += ir_verify_argred(v->ctx, op, v->t);
		break;
	case IR_OP_TRESHAPE: verify_treshape(v, op); break;
	case IR_OP_TBITCAST: verify_bitcast(v, op); break;
	case IR_OP_SUBSET: v->errors += ir_verify_subset(v->ctx, op); break;
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
