/* mixed.c: what the lowering of mixed cube/vector kernels adds to the passes
 * (docs/semantics.md §8.9; the runtime side is runtime/src/cluster.c).
 *
 * mixed_prepare runs first in `inline` (inline.c), while every function is still
 * whole:
 *   - a func.call of a function whose pto.kernel_kind is cube or vector, made from
 *     code of no kind and outside a section, is moved into a pto.section.cube /
 *     .vector of its own, so that the inlined body keeps its core;
 *   - every aic/aiv_initialize_pipe and initialize_l2l/l2g2l_pipe gets its FIFO
 *     depths as the attributes c2v_depth and v2c_depth: the size of the consumer's
 *     reserve_buffer (this function's, or the peer's for an import) / slot_size;
 *     slot_num when the init gives it;
 *   - the result of every tpop_from_aic / tpop_from_aiv becomes a pto.alloc_tile of
 *     its type inserted just before the pop (with its valid_row / valid_col), so that
 *     place-tiles gives it an address; the pop writes that tile; a pto.declare_tile
 *     (the tile an explicit-pipe tpop fills) becomes such a pto.alloc_tile too.
 * lower_mixed_op runs in split-repeats: tpush_to_aiv / tpush_to_aic / tpush become
 * pto.i.tpush of their tile, tpop_from_aic / tpop_from_aiv / tpop pto.i.tpop of the
 * tile the pop writes. The rest (sections, pipe inits, tfree, sync.set/wait) stays
 * for emit-c, which writes each as its runtime call. */
#include <stdlib.h>
#include <string.h>

#include "passes/lower.h"

#define PASS_NAME "split-repeats"

static int kind_of(const ir_op *f)
{
	const ir_attr *k = f ? ir_op_get_attr(f, "pto.kernel_kind") : NULL;
	if (!k || k->kind != IR_ATTR_PTO || !k->u.pto.value)
		return 0;
	return !strcmp(k->u.pto.value, "cube") ? 1 : !strcmp(k->u.pto.value, "vector") ? 2 : 0;
}

static int str_eq(const ir_attr *a, const ir_attr *b)
{
	return a && b && a->u.str.len == b->u.str.len && !memcmp(a->u.str.s, b->u.str.s, a->u.str.len);
}

static ir_op *find_func(ir_op *module, const ir_attr *sym)
{
	ir_op *f;
	if (!sym || !module->num_regions || !module->regions[0].first)
		return NULL;
	for (f = module->regions[0].first->first; f; f = f->next)
		if (f->code == IR_OP_FUNC && str_eq(ir_op_get_attr(f, "sym_name"), sym))
			return f;
	return NULL;
}

typedef struct find {
	ir_opcode code;
	const ir_attr *name;
	ir_op *found;
} find;

static int find_named(ir_op *op, void *user)
{
	find *q = user;
	if (op->code == q->code && str_eq(ir_op_get_attr(op, "name"), q->name)) {
		q->found = op;
		return 1;
	}
	return 0;
}

/* The reserve_buffer holding the slots a pipe-init buffer operand names. */
static ir_op *reserve_of(ir_op *module, const ir_value *v)
{
	ir_op *d = v ? v->def : NULL;
	find q;
	if (!d)
		return NULL;
	if (d->code == IR_OP_RESERVE_BUFFER)
		return d;
	if (d->code != IR_OP_IMPORT_RESERVED_BUFFER)
		return NULL;
	q.code = IR_OP_RESERVE_BUFFER;
	q.name = ir_op_get_attr(d, "name");
	q.found = NULL;
	if (ir_op_get_attr(d, "peer_func"))
		ir_walk(find_func(module, ir_op_get_attr(d, "peer_func")), find_named, &q);
	return q.found;
}

static int64_t attr_i(const ir_op *op, const char *name, int64_t dflt)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	return a && a->kind == IR_ATTR_INT ? a->u.i.v : dflt;
}

static void set_depths(ir_ctx *ctx, ir_op *module, ir_op *init)
{
	const ir_type *i64 = ir_type_int(ctx, 64, IR_INT_SIGNLESS);
	int64_t slot = attr_i(init, "slot_size", 0), depth[2] = {0, 0};
	unsigned d;
	if (init->code == IR_OP_AIC_INITIALIZE_PIPE || init->code == IR_OP_AIV_INITIALIZE_PIPE) {
		unsigned first = init->num_operands == 3 ? 1 : 0;
		for (d = 0; d < 2 && first + d < init->num_operands; d++) {
			ir_op *r = reserve_of(module, init->operands[first + d].value);
			if (r && slot > 0)
				depth[d] = attr_i(r, "size", 0) / slot;
		}
	} else {
		int64_t n = attr_i(init, "slot_num", 0);
		ir_op *r;
		if (!n && (r = reserve_of(module, init->operands[init->num_operands - 1].value)) &&
		    slot > 0)
			n = attr_i(r, "size", 0) / slot;
		depth[0] = depth[1] = n ? n : 2;
	}
	ir_op_set_attr(ctx, init, "c2v_depth", ir_attr_int(ctx, depth[0], i64));
	ir_op_set_attr(ctx, init, "v2c_depth", ir_attr_int(ctx, depth[1], i64));
}

/* The op under `root` to rewrite: a call to wrap, a pipe init without depths, a pop
 * with a used result. */
typedef struct prep {
	ir_ctx *ctx;
	ir_op *module;
	ir_op_list l;
} prep;

static int want(const ir_op *op)
{
	return op->code == IR_OP_CALL || op->code == IR_OP_AIC_INITIALIZE_PIPE ||
	       op->code == IR_OP_AIV_INITIALIZE_PIPE || op->code == IR_OP_INITIALIZE_L2L_PIPE ||
	       op->code == IR_OP_INITIALIZE_L2G2L_PIPE || op->code == IR_OP_TPOP_FROM_AIC ||
	       op->code == IR_OP_TPOP_FROM_AIV || op->code == IR_OP_DECLARE_TILE;
}

/* Whether op sits in a section or in a function of a kind. */
static int has_core(const ir_op *op)
{
	const ir_op *p;
	for (p = op->block ? op->block->region->parent : NULL; p;
	     p = p->block ? p->block->region->parent : NULL) {
		if (p->code == IR_OP_SECTION_CUBE || p->code == IR_OP_SECTION_VECTOR)
			return 1;
		if (p->code == IR_OP_FUNC)
			return kind_of(p) != 0;
	}
	return 0;
}

static void wrap_call(ir_ctx *ctx, ir_op *module, ir_op *call)
{
	ir_op *callee = find_func(module, ir_op_get_attr(call, "callee"));
	int k = kind_of(callee);
	ir_value *ops[32];
	ir_op *sec, *copy;
	ir_block *b;
	unsigned i;
	if (!k || call->num_results || call->num_operands > 32 || has_core(call))
		return;
	for (i = 0; i < call->num_operands; i++)
		ops[i] = call->operands[i].value;
	sec = ir_op_create(ctx, k == 1 ? "pto.section.cube" : "pto.section.vector", call->loc, NULL,
			   0, NULL, 0, NULL, 1);
	b = ir_block_create(ctx, call->loc);
	ir_region_append_block(&sec->regions[0], b);
	copy = ir_op_create(ctx, call->name, call->loc, ops, call->num_operands, NULL, 0, call->attrs,
			    0);
	ir_block_append_op(b, copy);
	ir_block_insert_before(call, sec);
	ir_op_erase(call);
}

static void pop_alloc(ir_ctx *ctx, ir_op *pop)
{
	ir_value *ops[2];
	unsigned n = 0;
	int64_t seg[3] = {0, 0, 0};
	ir_named_attr na;
	ir_op *alloc;
	if (!pop->num_results || pop->results[0].type->kind != IR_TYPE_TILE_BUF)
		return;
	if (pop->num_operands == 2) {
		ops[n++] = pop->operands[0].value;
		ops[n++] = pop->operands[1].value;
		seg[1] = seg[2] = 1;
	} else if (pop->results[0].type->u.tb.v_row == IR_DYN ||
		   pop->results[0].type->u.tb.v_col == IR_DYN) {
		/* a `?` valid shape without operands: the whole tile (the pop's check then
		 * wants parts of that shape) */
		const ir_type *tb = pop->results[0].type, *idx = ir_type_index(ctx);
		int64_t dims[2] = {tb->u.tb.rows, tb->u.tb.cols};
		unsigned k;
		for (k = 0; k < 2; k++) {
			ir_named_attr va = {ir_intern(ctx, "value", 5), ir_attr_int(ctx, dims[k], idx)};
			ir_op *c = ir_op_create(ctx, "arith.constant", pop->loc, NULL, 0, &idx, 1,
						ir_attr_dict(ctx, &va, 1, pop->loc), 0);
			ir_block_insert_before(pop, c);
			ops[n++] = &c->results[0];
		}
		seg[1] = seg[2] = 1;
	}
	na.name = ir_intern(ctx, "operandSegmentSizes", 19);
	na.value = ir_attr_dense(ctx, ir_type_int(ctx, 32, IR_INT_SIGNLESS), seg, 3);
	alloc = ir_op_create(ctx, "pto.alloc_tile", pop->loc, ops, n, &pop->results[0].type, 1,
			     ir_attr_dict(ctx, &na, 1, pop->loc), 0);
	alloc->results[0].name = pop->results[0].name;
	ir_block_insert_before(pop, alloc);
	ir_value_replace_all_uses(&pop->results[0], &alloc->results[0]);
}

unsigned mixed_prepare(ir_ctx *ctx, ir_op *module)
{
	ir_op_list l;
	size_t i;
	memset(&l, 0, sizeof l);
	if (ir_op_list_collect(module, want, &l)) {
		ir_error(ctx, module->loc, "inline: out of memory");
		return 1;
	}
	for (i = 0; i < l.n; i++) {
		ir_op *op = l.a[i];
		if (op->code == IR_OP_CALL)
			wrap_call(ctx, module, op);
		else if (op->code == IR_OP_TPOP_FROM_AIC || op->code == IR_OP_TPOP_FROM_AIV)
			pop_alloc(ctx, op);
		else if (op->code == IR_OP_DECLARE_TILE) {
			/* the tile an explicit-pipe tpop fills: a tile of its own, as a
			 * tpop_from_aic's result (docs/semantics.md §8.9) */
			pop_alloc(ctx, op);
			ir_op_erase(op);
		}
		else if (!ir_op_get_attr(op, "c2v_depth"))
			set_depths(ctx, module, op);
	}
	free(l.a);
	return 0;
}

unsigned lower_mixed_op(ir_ctx *ctx, ir_op *op)
{
	int push = op->code == IR_OP_TPUSH_TO_AIV || op->code == IR_OP_TPUSH_TO_AIC ||
		   op->code == IR_OP_TPUSH;
	ir_value *tile = NULL;
	lower_tile t;
	lower_insn li;
	if (op->code == IR_OP_TPUSH_TO_AIV || op->code == IR_OP_TPUSH_TO_AIC ||
	    op->code == IR_OP_TPUSH || op->code == IR_OP_TPOP)
		tile = op->num_operands ? op->operands[0].value : NULL;
	else if (op->prev && op->prev->code == IR_OP_ALLOC_TILE && op->num_results &&
		 op->prev->results[0].type == op->results[0].type)
		tile = &op->prev->results[0];
	if (!tile) {
		ir_error(ctx, op->loc, "'%s': %s found no tile for the pop (the inline pass puts "
			 "one before it)", op->name, PASS_NAME);
		return 1;
	}
	if (lower_tile_of(ctx, op, tile, &t))
		return 1;
	li_init(&li, push ? IR_OP_I_TPUSH : IR_OP_I_TPOP);
	li_tile(ctx, &li, push ? "src" : "dst", &t);
	li_int(ctx, &li, "split", attr_i(op, "split", 0));
	return li_emit(ctx, &li, op) ? 0 : 1;
}
