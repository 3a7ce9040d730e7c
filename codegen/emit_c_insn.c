/* emit_c_insn.c: the C emitter's pto.i.* instructions (each one runtime call with
 * the fields of insns.def), the GM views of DMAs, sync ops, pointer ops (addptr,
 * load_scalar, ...) and the mixed cube/vector ops. See emit_c.c for the whole. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit_c_impl.h"
#include "ir/pipe.h"

/* ---- runtime enum spellings -------------------------------------------------------- */

static const char *const rt_rmode_names[PTORT_RMODE_COUNT] = {
#define RT_RMODE_NAME_(id) "PTORT_" #id,
	PTORT_RMODE_LIST(RT_RMODE_NAME_)
#undef RT_RMODE_NAME_
};
static const char *const rt_mem_names[PTORT_MEM_COUNT] = {
#define RT_MEM_NAME_(id) "PTORT_MEM_" #id,
	PTORT_MEM_LIST(RT_MEM_NAME_)
#undef RT_MEM_NAME_
};
static const char *const rt_blayout_names[IR_BLAYOUT_COUNT] = {
#define RT_BLAYOUT_NAME_(id, name) "PTORT_BLAYOUT_" #id,
	IR_BLAYOUT_LIST(RT_BLAYOUT_NAME_)
#undef RT_BLAYOUT_NAME_
};
static const char *const rt_slayout_names[IR_SLAYOUT_COUNT] = {
#define RT_SLAYOUT_NAME_(id, name) "PTORT_SLAYOUT_" #id,
	IR_SLAYOUT_LIST(RT_SLAYOUT_NAME_)
#undef RT_SLAYOUT_NAME_
};
/* the layout codes are the runtime's (ptort_blayout, ptort_slayout) */
typedef char rt_layout_check[(int)IR_BLAYOUT_COL_MAJOR == (int)PTORT_BLAYOUT_COL_MAJOR &&
			     (int)IR_SLAYOUT_COL_MAJOR == (int)PTORT_SLAYOUT_COL_MAJOR &&
			     IR_BLAYOUT_COUNT == 2 && IR_SLAYOUT_COUNT == 3 ? 1 : -1];
/* ir_mem - 1 indexes rt_mem_names: the runtime's memories are the dialect's, in order */
typedef char rt_mem_count_check[(int)PTOC_LOC_COUNT == (int)PTORT_MEM_COUNT ? 1 : -1];

/* ---- fields of pto.i.* ops ---------------------------------------------------------- */

/* The operand index of dyn field `name`, or -1. */
static int dyn_index(const ir_op *op, const char *name, unsigned fixed)
{
	const ir_attr *d = ir_op_get_attr(op, "dyn");
	unsigned i;
	if (!d || d->kind != IR_ATTR_ARRAY)
		return -1;
	for (i = 0; i < d->u.array.n; i++) {
		const ir_attr *s = d->u.array.elems[i];
		if (s->kind == IR_ATTR_STRING && strlen(name) == s->u.str.len &&
		    !memcmp(s->u.str.s, name, s->u.str.len))
			return fixed + i < op->num_operands ? (int)(fixed + i) : -1;
	}
	return -1;
}

/* An integer field as a C expression (`cast` wraps a dyn operand). */
static const char *fint(em *e, const ir_op *op, const char *name, unsigned fixed,
			const char *cast)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	char buf[256];
	int k;
	if (a && (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_BOOL))
		return ir_intern(e->ctx, buf, em_lit(buf, a->u.i.v));
	if ((k = dyn_index(op, name, fixed)) >= 0) {
		snprintf(buf, sizeof buf, "(%s)%s", cast, em_vexpr(e, op, op->operands[k].value));
		return ir_intern(e->ctx, buf, strlen(buf));
	}
	em_err(e, op, "'%s' needs the integer field '%s'", op->name, name);
	return "0";
}

static const char *fmask(em *e, const ir_op *op, const char *name, unsigned fixed)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	char buf[64];
	if (a && a->kind == IR_ATTR_INT) {
		snprintf(buf, sizeof buf, "0x%llxull", (unsigned long long)(uint64_t)a->u.i.v);
		return ir_intern(e->ctx, buf, strlen(buf));
	}
	return fint(e, op, name, fixed, "uint64_t");
}

static const char *ftype(em *e, const ir_op *op, const char *name, int optional)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	ptort_type t;
	if (!a && optional)
		return "PTORT_NO_CVT";
	if (!a || a->kind != IR_ATTR_TYPE || ir_type_to_elem(a->u.type, &t)) {
		em_err(e, op, "'%s' needs the element type field '%s'", op->name, name);
		return "PTORT_F32";
	}
	return em_rt_type_names[t];
}

static const char *fmem(em *e, const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "mem");
	ir_mem m;
	if (!a || a->kind != IR_ATTR_PTO || !a->u.pto.value ||
	    ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m) || m == IR_MEM_NONE) {
		em_err(e, op, "'%s' needs the field 'mem' (#pto.address_space<...>)", op->name);
		return "PTORT_MEM_UB";
	}
	return rt_mem_names[m - 1];
}

static const char *frmode(em *e, const ir_op *op)
{
	ptort_rmode rm;
	if (ir_attr_rmode(ir_op_get_attr(op, "rmode"), &rm) < 0) {
		em_err(e, op, "'%s' needs the field 'rmode' (#pto<round_mode ...>)", op->name);
		return "PTORT_RINT";
	}
	return rt_rmode_names[rm];
}

static const char *fsat(em *e, const ir_op *op)
{
	int s = ir_attr_satmode(ir_op_get_attr(op, "sat_mode"));
	if (s < 0) {
		em_err(e, op, "'%s' needs the field 'sat_mode' (#pto<saturation_mode ...>)", op->name);
		return "PTORT_SAT_OFF";
	}
	return s ? "PTORT_SAT_ON" : "PTORT_SAT_OFF";
}

/* Declares `const ptort_tile VAR = {.mem = ..., ...};` for tile descriptor field `name`. */
static void emit_tile(em *e, const ir_op *op, const char *name, unsigned fixed, const char *var)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	const ir_type *tb;
	char an[64], vr[64], vc[64];
	const char *v_row, *v_col, *addr;
	ptort_type et;
	if (!a || a->kind != IR_ATTR_TYPE || a->u.type->kind != IR_TYPE_TILE_BUF) {
		em_err(e, op, "'%s' needs the tile field '%s' (!pto.tile_buf<...>)", op->name, name);
		return;
	}
	tb = a->u.type;
	if (ir_type_to_elem(tb->u.tb.elem, &et) || tb->u.tb.mem == IR_MEM_NONE) {
		em_err(e, op, "'%s': tile '%s' has no runtime element type or memory", op->name, name);
		return;
	}
	addr = fint(e, op, ir_str_cat(an, sizeof an, name, "_addr"), fixed, "uint32_t");
	v_row = tb->u.tb.v_row == IR_DYN ? fint(e, op, ir_str_cat(vr, sizeof vr, name, "_v_row"), fixed,
						"uint32_t") : NULL;
	v_col = tb->u.tb.v_col == IR_DYN ? fint(e, op, ir_str_cat(vc, sizeof vc, name, "_v_col"), fixed,
						"uint32_t") : NULL;
	/* const ptort_tile VAR = {.mem = M, .type = T, .blayout = B, .slayout = S, .addr = A,
	 * .rows = %lld, .cols = %lld, .v_rows = R, .v_cols = C, .fractal = %lld}; */
	em_ind(e);
	em_ps(e, "const ptort_tile ");
	em_ps(e, var);
	em_ps(e, " = {.mem = ");
	em_ps(e, rt_mem_names[tb->u.tb.mem - 1]);
	em_ps(e, ", .type = ");
	em_ps(e, em_rt_type_names[et]);
	em_ps(e, ", .blayout = ");
	if (tb->u.tb.blayout < IR_BLAYOUT_COUNT)
		em_ps(e, rt_blayout_names[tb->u.tb.blayout]);
	else
		em_pu(e, (unsigned)tb->u.tb.blayout);
	em_ps(e, ", .slayout = ");
	if (tb->u.tb.slayout < IR_SLAYOUT_COUNT)
		em_ps(e, rt_slayout_names[tb->u.tb.slayout]);
	else
		em_pu(e, (unsigned)tb->u.tb.slayout);
	em_ps(e, ", .addr = ");
	em_ps(e, addr);
	em_ps(e, ", .rows = ");
	em_pd(e, tb->u.tb.rows);
	em_ps(e, ", .cols = ");
	em_pd(e, tb->u.tb.cols);
	em_ps(e, ", .v_rows = ");
	if (v_row)
		em_ps(e, v_row);
	else
		em_pd(e, tb->u.tb.v_row);
	em_ps(e, ", .v_cols = ");
	if (v_col)
		em_ps(e, v_col);
	else
		em_pd(e, tb->u.tb.v_col);
	em_ps(e, ", .fractal = ");
	em_pd(e, tb->u.tb.fractal);
	em_ps(e, "};\n");
}

/* ---- GM views ------------------------------------------------------------------------ */

/* Appends ", a, b, c" (operands first .. first+n-1) */
static void list_operands(em *e, const ir_op *user, const ir_op *op, unsigned first, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		const ir_value *v = op->operands[first + i].value;
		int64_t x;
		if (i)
			em_put(e, ", ", 2);
		if (v->type->kind != IR_TYPE_FLOAT && em_const_int(v, &x)) { /* as em_vexpr, not interned */
			char buf[64];
			em_put(e, buf, em_lit(buf, x));
		} else {
			em_ps(e, em_vexpr(e, user, v));
		}
	}
}

/* make_tensor_view / partition_view: `const ptort_view NAME = ...;` (when used). */
void emit_view_op(em *e, ir_op *op)
{
	ir_value *r = &op->results[0];
	unsigned rank = r->type->u.shaped.rank;
	const char *name;
	if (!r->uses)
		return;
	if (!em_ctype(r->type) || op->num_operands != 1 + 2 * rank) {
		em_err(e, op, "view of rank %u: the runtime moves views of rank 1 to %d", rank,
		    PTORT_GM_RANK);
		return;
	}
	if (op->code == IR_OP_MAKE_TENSOR_VIEW && op->operands[0].value->type->kind != IR_TYPE_PTR) {
		em_err(e, op, "the tensor view must be made from a !pto.ptr");
		return;
	}
	if (op->code == IR_OP_PARTITION_VIEW &&
	    op->operands[0].value->type->u.shaped.rank != rank) {
		em_err(e, op, "a partition of a rank-%u view must have rank %u",
		    op->operands[0].value->type->u.shaped.rank,
		    op->operands[0].value->type->u.shaped.rank);
		return;
	}
	{
		const char *src = em_vexpr(e, op, op->operands[0].value);
		const char *elems = op->code == IR_OP_MAKE_TENSOR_VIEW
					    ? em_ptr_elems(e, op, op->operands[0].value) : NULL;
		name = em_name_value(e, r);
		em_ind(e);
		em_ps(e, "const ptort_view ");
		em_ps(e, name);
		if (op->code == IR_OP_MAKE_TENSOR_VIEW) {
			em_ps(e, " = ptort_view_tensor(");
			em_ps(e, src);
			em_ps(e, ", ");
			em_ps(e, elems);
			em_ps(e, ", ");
			em_pu(e, rank);
			em_ps(e, ", (const int64_t[]){");
		} else {
			em_ps(e, " = ptort_view_part(&");
			em_ps(e, src);
			em_ps(e, ", (const int64_t[]){");
		}
	}
	list_operands(e, op, op, 1, rank);
	em_ps(e, "}, (const int64_t[]){");
	list_operands(e, op, op, 1 + rank, rank);
	em_ps(e, "});\n");
	if (!em_c_used(r))
		em_void(e, r);
}

/* Declares ptoc_g (the runtime's gm view) for the GM operand `pv` of a DMA and returns
 * the C expression of its GM pointer through *gm. */
static int emit_view(em *e, const ir_op *op, const ir_value *pv, const char **gm)
{
	ptort_type et;
	const char *v;
	if ((pv->type->kind != IR_TYPE_TENSOR_VIEW && pv->type->kind != IR_TYPE_PART_VIEW) ||
	    !em_ctype(pv->type) || ir_type_to_elem(pv->type->u.shaped.elem, &et)) {
		em_err(e, op, "the GM operand of '%s' must be a view of rank 1 to %d of a runtime "
		    "element type", op->name, PTORT_GM_RANK);
		return -1;
	}
	v = em_vexpr(e, op, pv);
	*gm = em_intern2(e, 200, v, ".gm");
	em_ind(e);
	em_ps(e, "ptort_gm_view ptoc_g;\n");
	em_ind(e);
	em_ps(e, "ptort_gm_view_init(&ptoc_g, ");
	em_ps(e, em_rt_type_names[et]);
	em_ps(e, ", &");
	em_ps(e, v);
	em_ps(e, ");\n");
	return 0;
}

/* ---- instructions -------------------------------------------------------------------- */

/* The C argument of integer field `f` (a literal, or its dyn operand cast to the
 * runtime parameter's type). */
static const char *fint_kind(em *e, const ir_op *op, const ir_ifield *f, unsigned fixed)
{
	switch (f->kind) {
	case IR_IF_MASK: return fmask(e, op, f->name, fixed);
	case IR_IF_STRIDE: case IR_IF_F16BITS: return fint(e, op, f->name, fixed, "uint16_t");
	case IR_IF_FLAGS: return fint(e, op, f->name, fixed, "unsigned");
	case IR_IF_INT: return fint(e, op, f->name, fixed, "int64_t");
	default: return fint(e, op, f->name, fixed, "uint32_t");
	}
}

/* `op = "add"`: PTORT_VOP_ADD */
static const char *fvop(em *e, const ir_op *op)
{
	static const char *const names[PTORT_VOP_COUNT] = {
#define FVOP_(id, name, arity) "PTORT_VOP_" #id,
		PTORT_VOP_LIST(FVOP_)
#undef FVOP_
	};
	const ir_attr *a = ir_op_get_attr(op, "op");
	unsigned k;
	if (a && a->kind == IR_ATTR_STRING)
		for (k = 0; k < PTORT_VOP_COUNT; k++)
			if (strlen(ptort_vop_name((ptort_vop)k)) == a->u.str.len &&
			    !memcmp(a->u.str.s, ptort_vop_name((ptort_vop)k), a->u.str.len))
				return names[k];
	em_err(e, op, "'%s' needs the field 'op' (an element operation: \"add\", ...)", op->name);
	return "PTORT_VOP_ADD";
}

/* `cmp = #pto<cmp lt>`: PTORT_CMP_LT */
static const char *fcmp(em *e, const ir_op *op)
{
	static const char *const names[PTORT_CMP_COUNT] = {
#define FCMP_(id, name) "PTORT_CMP_" #id,
		PTORT_CMP_LIST(FCMP_)
#undef FCMP_
	};
	int c = ir_attr_cmp(ir_op_get_attr(op, "cmp"));
	if (c < 0) {
		em_err(e, op, "'%s' needs the field 'cmp' (#pto<cmp ...>)", op->name);
		return "PTORT_CMP_EQ";
	}
	return names[c];
}

static const char *finit(em *e, const ir_op *op)
{
	const ir_attr *ia = ir_op_get_attr(op, "init");
	if (ia && ia->kind == IR_ATTR_STRING) {
		if (ia->u.str.len == 4 && !memcmp(ia->u.str.s, "zero", 4))
			return "PTORT_MMAD_INIT_ZERO";
		if (ia->u.str.len == 4 && !memcmp(ia->u.str.s, "bias", 4))
			return "PTORT_MMAD_INIT_BIAS";
		if (ia->u.str.len == 1 && ia->u.str.s[0] == 'c')
			return "PTORT_MMAD_INIT_C";
	}
	em_err(e, op, "'%s' needs the field 'init' (\"zero\", \"bias\" or \"c\")", op->name);
	return NULL;
}

/* The runtime returns an unsigned integer zero-extended; the generated code holds every
 * integer of 1 < N < 64 bits sign-extended (docs/semantics.md §8.4): narrow_bits is N
 * for such a type (else 0), canon_narrow brings `var`, just assigned from the runtime,
 * to that form. */
static unsigned narrow_bits(const ir_type *t)
{
	return t->kind == IR_TYPE_INT && t->u.i.bits > 1 && t->u.i.bits < 64 ? t->u.i.bits : 0;
}

int em_canon_narrow(em *e, const ir_type *t, const char *var)
{
	if (!narrow_bits(t))
		return 0;
	em_ind(e);
	em_pf(e, "%s = ptort_sext((uint64_t)%s, %u);\n", var, var, narrow_bits(t));
	return 1;
}

/* ` ptort_sync_op(ctx, PTORT_PIPE_X);`: the pipe the instruction just called issued
 * to, for the sync sanitizer (docs/sync-check.md); S when the table names none. */
static void sync_op(em *e, const ir_op *op)
{
	int p = ir_op_pipe(op, e->t);
	em_pf(e, " ptort_sync_op(ctx, PTORT_%s);",
	   ptort_pipe_name(p >= 0 && p < PTORT_PIPE_COUNT ? (ptort_pipe)p : PTORT_PIPE_S));
}

/* Whether the argument `a` of field `f` gets the field's name in a comment before it
 * (docs/lowered.md "How the C reads"): the numbers (addresses, counts, strides, masks,
 * scalars, flags) and an absent tile; the enum spellings (PTORT_MEM_UB, PTORT_F32,
 * ...) and tiles (&ptoc_src) name themselves. */
static int arg_named(const ir_ifield *f, const char *a)
{
	switch (f->kind) {
	case IR_IF_MEM: case IR_IF_ETYPE: case IR_IF_RMODE: case IR_IF_SAT: case IR_IF_VOP:
	case IR_IF_CMP: case IR_IF_INIT:
		return 0;
	case IR_IF_TILE:
		return a[0] != '&';
	default:
		return 1;
	}
}

/* One pto.i.* op as its runtime call (insns.def): the arguments in the table's order,
 * numbers named by a comment (arg_named), tile descriptors declared first in a block of
 * their own. */
void emit_insn(em *e, const ir_op *op, const ir_insndef *d)
{
	const char *args[32], *names[32], *init = NULL, *res = NULL, *rty = NULL;
	unsigned n = 0, i, block = d->fixed > 0;
	for (i = 0; i < d->nfields; i++)
		block |= d->fields[i].kind == IR_IF_TILE;
	if (op->num_results == 1) {
		/* the value the call returns (pto.i.getval), declared before the block */
		rty = em_ctype(op->results[0].type);
		res = em_name_value(e, &op->results[0]);
		if (!rty) {
			em_err(e, op, "'%s' returns a value of a type C has no form for", op->name);
			return;
		}
		em_ind(e);
		em_pf(e, "%s %s;\n", rty, res);
	}
	if (block)
		em_open_block(e);
	if (d->fixed) { /* the GM view of a DMA */
		const char *gm = "0";
		if (emit_view(e, op, op->operands[0].value, &gm)) {
			em_close_block(e);
			return;
		}
		names[n] = NULL;
		args[n++] = gm;
		names[n] = NULL;
		args[n++] = "&ptoc_g";
	}
	for (i = 0; i < d->nfields && n < sizeof args / sizeof args[0]; i++) {
		const ir_ifield *f = &d->fields[i];
		const char *a;
		switch (f->kind) {
		case IR_IF_MEM: a = fmem(e, op); break;
		case IR_IF_ETYPE: a = ftype(e, op, f->name, f->req == IR_IF_OPT); break;
		case IR_IF_RMODE: a = frmode(e, op); break;
		case IR_IF_SAT: a = fsat(e, op); break;
		case IR_IF_UNIT: a = ir_op_get_attr(op, f->name) ? "1" : "0"; break;
		case IR_IF_VOP: a = fvop(e, op); break;
		case IR_IF_CMP: a = fcmp(e, op); break;
		case IR_IF_SCALAR: a = fmask(e, op, f->name, d->fixed); break;
		case IR_IF_INIT:
			if (!(a = init = finit(e, op)))
				a = "0";
			break;
		case IR_IF_TILE:
			if ((f->req == IR_IF_INIT_REQ && (!init || !strcmp(init, "PTORT_MMAD_INIT_ZERO"))) ||
			    (f->req == IR_IF_OPT && !ir_op_get_attr(op, f->name))) {
				a = "0";
				break;
			}
			emit_tile(e, op, f->name, d->fixed, f->cvar);
			a = em_intern2(e, 64, "&", f->cvar);
			break;
		default: a = fint_kind(e, op, f, d->fixed); break;
		}
		names[n] = arg_named(f, a) ? f->name : NULL;
		args[n++] = a;
	}
	/* after each instruction, the first error (if any, not yet located) gets this op's
	 * location */
	em_ind(e);
	if (res)
		em_pf(e, "%s = (%s)", res, rty);
	em_ps(e, d->call);
	em_ps(e, "(ctx");
	for (i = 0; i < n; i++) {
		em_put(e, ", ", 2);
		if (names[i]) {
			em_put(e, "/*", 2);
			em_ps(e, names[i]);
			em_put(e, "=*/", 3);
		}
		em_ps(e, args[i]);
	}
	em_put(e, ");", 2);
	if (op->loc.file) {
		em_ps(e, " ptort_ctx_locate(ctx, ");
		em_put_src(e, op->loc.file);
		em_put(e, ", ", 2);
		em_pu(e, op->loc.line);
		em_put(e, ", ", 2);
		em_pu(e, op->loc.col);
		em_put(e, ");", 2);
	}
	sync_op(e, op);
	em_put(e, "\n", 1);
	if (res)
		em_canon_narrow(e, op->results[0].type, res);
	if (block)
		em_close_block(e);
	if (res && !em_c_used(&op->results[0]))
		em_void(e, &op->results[0]);
}

/* em_locate, then the end of the line */
static void locate(em *e, const ir_op *op)
{
	em_locate(e, op);
	em_pf(e, "\n");
}

/* locate, for a GM access of the scalar unit: then ` ptort_sync_op(ctx, PTORT_PIPE_S);` */
static void locate_s(em *e, const ir_op *op)
{
	em_locate(e, op);
	em_pf(e, " ptort_sync_op(ctx, PTORT_PIPE_S);\n");
}

/* A sync op as its runtime call (emit_sync.c decides which; docs/semantics.md §8.7), the
 * device intrinsic in a comment; an event-id array as a local int64_t array, its
 * indices checked by the runtime. */
void emit_sync_op(em *e, ir_op *op)
{
	emit_sync s;
	const char *n;
	if (op->code == IR_OP_DECLARE_EVENTID_ARRAY || op->code == IR_OP_EVENTID_ARRAY_GET ||
	    op->code == IR_OP_EVENTID_ARRAY_SET) {
		long long len = 0;
		const ir_type *ty = op->code == IR_OP_DECLARE_EVENTID_ARRAY ? op->results[0].type
									    : op->operands[0].value->type;
		if (ty->kind != IR_TYPE_OPAQUE ||
		    sscanf(ty->u.opaque.text, "!pto.eventid_array<%lld>", &len) != 1 || len < 1) {
			em_err(e, op, "an event-id array must be a !pto.eventid_array<N>");
			return;
		}
		em_ind(e);
		if (op->code == IR_OP_DECLARE_EVENTID_ARRAY) {
			em_pf(e, "int64_t %s[%lld] = {0}; /* %s */\n", em_name_value(e, &op->results[0]),
			   len, op->name);
			return;
		}
		n = em_vexpr(e, op, op->operands[0].value);
		if (op->code == IR_OP_EVENTID_ARRAY_GET)
			em_pf(e, "const int64_t %s = %s[ptort_sync_index(ctx, %s, %lld)];",
			   em_name_value(e, &op->results[0]), n, em_vexpr(e, op, op->operands[1].value), len);
		else
			em_pf(e, "%s[ptort_sync_index(ctx, %s, %lld)] = %s;", n,
			   em_vexpr(e, op, op->operands[1].value), len, em_vexpr(e, op, op->operands[2].value));
		locate(e, op);
		return;
	}
	em_ind(e);
	if (emit_sync_of(op, &s)) {
		em_pf(e, "/* %s: no pipe to sync */\n", op->name);
		return;
	}
	em_pf(e, "%s(ctx, PTORT_%s, ", s.call, ptort_pipe_name((ptort_pipe)s.src));
	if (strcmp(s.call, "ptort_sync_barrier")) {
		em_pf(e, "PTORT_%s, ", ptort_pipe_name((ptort_pipe)s.dst));
		if (s.dyn)
			em_pf(e, "%s, ", em_vexpr(e, op, op->operands[0].value));
		else
			em_pf(e, "%lld, ", (long long)s.event);
	}
	if (op->loc.file)
		em_put_src(e, op->loc.file);
	else
		em_pf(e, "0");
	em_pf(e, ", %u, %u); /* %s */\n", op->loc.line, op->loc.col, s.what);
}

/* addptr, load_scalar, store_scalar, get_tensor_view_dim (docs/semantics.md §8.6): one
 * runtime call each, which checks the access against the pointer's elements. */
void emit_ptr_op(em *e, ir_op *op)
{
	ptort_type t = PTORT_F32;
	const ir_value *p = op->operands[0].value;
	const char *pn = em_vexpr(e, op, p), *off = em_vexpr(e, op, op->operands[1].value);
	if (op->code == IR_OP_GET_TENSOR_VIEW_DIM) {
		if (!op->results[0].uses)
			return;
		if (!em_ctype(p->type)) {
			em_err(e, op, "the view must have rank 1 to %d", PTORT_GM_RANK);
			return;
		}
		em_ind(e);
		em_pf(e, "const int64_t %s = ptort_view_dim(ctx, &%s, %s);", em_name_value(e, &op->results[0]),
		   pn, off);
		locate(e, op);
		return;
	}
	if (ir_type_to_elem(p->type->u.ptr.elem, &t)) {
		em_err(e, op, "the pointer's element type has no runtime type");
		return;
	}
	if (op->code == IR_OP_ADDPTR) {
		const char *n = em_name_any(e, &op->results[0]);
		em_ind(e);
		em_pf(e, "uint64_t %s_elems;\n", n);
		em_ind(e);
		em_pf(e, "void *const %s = ptort_addptr(ctx, %s, %s, %s, %s, &%s_elems);", n, pn,
		   em_ptr_elems(e, op, p), off, em_rt_type_names[t], n);
		locate(e, op);
		if (!em_c_used(&op->results[0]))
			em_void(e, &op->results[0]);
	} else if (op->code == IR_OP_LOAD_SCALAR) {
		const char *ty = em_ctype(op->results[0].type), *n = em_name_value(e, &op->results[0]);
		unsigned sx_bits = narrow_bits(op->results[0].type);
		em_ind(e);
		em_pf(e, "const %s %s = (%s)%sptort_load_scalar(ctx, %s, %s, %s, %s)", ty, n, ty,
		   sx_bits ? "ptort_sext(" : "", pn, em_ptr_elems(e, op, p), off, em_rt_type_names[t]);
		if (sx_bits)
			em_pf(e, ", %u)", sx_bits);
		em_put(e, ";", 1);
		locate_s(e, op);
		if (!em_c_used(&op->results[0]))
			em_void(e, &op->results[0]);
	} else {
		em_ind(e);
		em_pf(e, "ptort_store_scalar(ctx, %s, %s, %s, %s, (uint64_t)%s);", pn, em_ptr_elems(e, op, p),
		   off, em_rt_type_names[t], em_vexpr(e, op, op->operands[2].value));
		locate_s(e, op);
	}
}

/* A mixed cube/vector op (docs/semantics.md §8.9) as its runtime call (ptort.h section
 * 10), the op's location passed for the deadlock report: a section is an `if` on the
 * core; a pipe init gives the FIFO depths mixed.c (passes/) wrote; the buffer handles
 * are only comments. */
static void put_loc_args(em *e, const ir_op *op)
{
	if (op->loc.file)
		em_put_src(e, op->loc.file);
	else
		em_pf(e, "0");
	em_pf(e, ", %u, %u);", op->loc.line, op->loc.col);
}

void emit_mixed_op(em *e, ir_op *op)
{
	const ir_attr *a;
	int64_t v[4] = {0, 0, 0, 0};
	unsigned i;
	/* v[0]: the event id, the split or the dir_mask; v[1..3] a pipe init's numbers */
	const char *keys[4] = {"dir_mask", "slot_size", "c2v_depth", "v2c_depth"};
	if (op->code == IR_OP_SYNC_SET || op->code == IR_OP_SYNC_WAIT)
		keys[0] = "event_id";
	else if (ir_op_get_attr(op, "split"))
		keys[0] = "split";
	for (i = 0; i < 4; i++)
		if ((a = ir_op_get_attr(op, keys[i])) && a->kind == IR_ATTR_INT)
			v[i] = a->u.i.v;
	em_ind(e);
	switch (op->code) {
	case IR_OP_SECTION_CUBE: case IR_OP_SECTION_VECTOR:
		em_pf(e, "if (ptort_core_in(ctx, %s, %d)) { /* %s */\n",
		   op->code == IR_OP_SECTION_CUBE ? "PTORT_CORE_CUBE" : "PTORT_CORE_VECTOR",
		   op->code == IR_OP_SECTION_VECTOR && emit_vector_only0(op), op->name);
		e->indent++;
		if (op->regions[0].first)
			e->block(e, op->regions[0].first);
		e->indent--;
		em_ind(e);
		em_pf(e, "}\n");
		return;
	case IR_OP_RESERVE_BUFFER: case IR_OP_IMPORT_RESERVED_BUFFER:
		em_pf(e, "/* %s: the FIFO slots live in the cluster (ptort_pipe_init) */\n", op->name);
		return;
	case IR_OP_SYNC_SET: case IR_OP_SYNC_WAIT:
		if (op->code == IR_OP_SYNC_WAIT && e->t->id == PTOC_TARGET_A5) {
			/* A5: the wait stalls its pipe only (the cross-core race check) */
			int p = ir_attr_pipe(op, "pipe");
			em_pf(e, "ptort_xsync_wait_on(ctx, 1, PTORT_%s, %lld, ",
			   ptort_pipe_name(p >= 0 && p < PTORT_PIPE_COUNT ? (ptort_pipe)p : PTORT_PIPE_ALL),
			   (long long)v[0]);
			break;
		}
		em_pf(e, "ptort_xsync_%s(ctx, %d, %lld, ", op->code == IR_OP_SYNC_SET ? "set" : "wait",
		   e->t->id == PTOC_TARGET_A5, (long long)v[0]);
		break;
	case IR_OP_TFREE_FROM_AIC: case IR_OP_TFREE_FROM_AIV: case IR_OP_TFREE:
		em_pf(e, "ptort_tfree(ctx, %lldu, ", (long long)v[0]);
		break;
	case IR_OP_I_TPUSH: case IR_OP_I_TPOP: {
		int push = op->code == IR_OP_I_TPUSH;
		em_pf(e, "/* %s */\n", op->name);
		em_open_block(e);
		emit_tile(e, op, push ? "src" : "dst", 0, "ptoc_t");
		em_ind(e);
		em_pf(e, "ptort_%s_at(ctx, &ptoc_t, %lldu, ", push ? "tpush" : "tpop", (long long)v[0]);
		put_loc_args(e, op);
		locate(e, op);
		em_close_block(e);
		return;
	}
	default: { /* the pipe inits */
		const ir_value *gm = NULL;
		/* the aic/aiv inits' GM slot buffer on A2A3 only (PTOAS lowers them on A5 to an
		 * on-chip pipe that drops it) */
		if ((op->code == IR_OP_AIC_INITIALIZE_PIPE || op->code == IR_OP_AIV_INITIALIZE_PIPE) &&
		    op->num_operands == 3 && e->t->id != PTOC_TARGET_A5)
			gm = op->operands[0].value;
		else if (op->code == IR_OP_INITIALIZE_L2G2L_PIPE)
			gm = op->operands[0].value;
		if (gm && gm->type->kind != IR_TYPE_PTR && gm->type->kind != IR_TYPE_TENSOR_VIEW &&
		    gm->type->kind != IR_TYPE_PART_VIEW)
			gm = NULL;
		em_pf(e, "ptort_pipe_init(ctx, %lldu, %lldu, %lldu, %lldu, ", (long long)v[0],
		   (long long)v[1], (long long)v[2], (long long)v[3]);
		if (gm && gm->type->kind != IR_TYPE_PTR) {
			/* a GM view (the memref form's argument): the slots start at its
			 * first element and the buffer runs to the end of the viewed one */
			ptort_type t = PTORT_F32;
			const char *n = em_vexpr(e, op, gm);
			char off[400];
			size_t k, m = 0;
			unsigned es;
			ir_type_to_elem(gm->type->u.shaped.elem, &t);
			es = ptort_type_bits(t) / 8 ? ptort_type_bits(t) / 8 : 1;
			m += (size_t)snprintf(off, sizeof off, "(uint64_t)(0");
			for (k = 0; k < gm->type->u.shaped.rank && m < sizeof off; k++)
				m += (size_t)snprintf(off + m, sizeof off - m, " + %s.off[%u] * %s.stride[%u]",
						      n, (unsigned)k, n, (unsigned)k);
			if (m < sizeof off)
				snprintf(off + m, sizeof off - m, ")");
			em_pf(e, "(char *)%s.gm + %s * %uu, %s < %s.elems ? (%s.elems - %s) * %uu : 0, ",
			   n, off, es, off, n, n, off, es);
		} else if (gm) {
			ptort_type t = PTORT_F32;
			ir_type_to_elem(gm->type->u.ptr.elem, &t);
			em_pf(e, "%s, %s * %uu, ", em_vexpr(e, op, gm), em_ptr_elems(e, op, gm),
			   ptort_type_bits(t) / 8 ? ptort_type_bits(t) / 8 : 1);
		} else {
			em_pf(e, "0, 0, ");
		}
		break;
	}
	}
	put_loc_args(e, op);
	locate(e, op);
}

/* The async GM session ops (docs/semantics.md §8.10): a session and an event are
 * int64_t handles (1: valid); tput/tget_async copy at once (ptort_gm_copy), so wait and
 * test read a valid event as complete. */
void emit_async_op(em *e, ir_op *op)
{
	const char *n = em_name_value(e, &op->results[0]);
	ptort_type t;
	em_ind(e);
	if (op->code == IR_OP_BUILD_ASYNC_SESSION) {
		em_pf(e, "const int64_t %s = 1; /* %s: no control words on the CPU */\n", n, op->name);
	} else if (op->code == IR_OP_TPUT_ASYNC || op->code == IR_OP_TGET_ASYNC) {
		const ir_value *d = op->operands[0].value, *src = op->operands[1].value;
		if (ir_type_to_elem(d->type->u.shaped.elem, &t)) {
			em_err(e, op, "the views' element type has no runtime type");
			return;
		}
		em_pf(e, "const int64_t %s = %s != 0 ? ptort_gm_copy(ctx, &%s, &%s, %s) : 0;", n,
		   em_vexpr(e, op, op->operands[2].value), em_vexpr(e, op, d), em_vexpr(e, op, src),
		   em_rt_type_names[t]);
		em_locate(e, op);
	} else {
		em_pf(e, "const int %s = %s != 0 && %s != 0; /* %s */\n", n,
		   em_vexpr(e, op, op->operands[0].value), em_vexpr(e, op, op->operands[1].value), op->name);
	}
	em_ind(e);
	em_pf(e, "(void)%s;\n", n);
}
