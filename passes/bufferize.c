/* bufferize.c: the bufferize pass, tile SSA (level 1) to tile buffers in DPS form
 * (level 2).
 *
 * Every tile op in SSA form (`%d = pto.tcvt %s : T -> R`) gets one `pto.alloc_tile`
 * inserted before it, of the !pto.tile_buf type derived from its result (valid shape
 * = shape), and is rewritten to `pto.tcvt ins(%s) outs(%d_buf)`; the uses of the
 * result are replaced by the buffer. A tmatmul.acc whose accumulator input (defined
 * in the same block) has no other use accumulates in place: its outs is that input's
 * buffer. A `%t2 = pto.tassign %t, %a` on a level-1 tile becomes the binding
 * `pto.tassign %t_buf, %a` and %t2's uses are replaced by the buffer. The memory (`loc`) of a new buffer comes from the op that produces it
 * (docs/placement.md):
 *   tmatmul family -> acc;
 *   tmov -> left / right / bias / scaling when its result is that operand of a tmatmul,
 *           vec otherwise;
 *   tload -> mat when a use is a tmov into a cube memory (left/right/bias/scaling),
 *            vec otherwise;
 *   tcvt and the rest -> vec.
 * left/right/acc buffers take the target's cube layouts and fractal sizes; the
 * others are row_major/none_box with fractal 512.
 *
 * Tiles through scf (docs/semantics.md §8.1): an scf.for iteration argument of tile
 * type gets one carrier buffer of its init's buffer type (the init itself when
 * nothing reads it once the loop starts, else a copy by pto.tmov); the iteration
 * argument and the result are that buffer, and the body's yield copies its value into
 * it (all values staged first when a yield writes several carriers); a tmatmul.acc
 * on the iteration argument whose result is only yielded back accumulates in the
 * carrier. An scf.if result is the buffer its branches yield (they must agree on the
 * buffer type). scf.while: each before region argument of tile type is a carrier like
 * an iteration argument (the after region's yield copies into it); each result of
 * tile type, with the after region argument of the same position, is the carrier the
 * scf.condition passes unchanged, else a new buffer the condition copies into.
 * Requires: structurally verified IR (any mix of levels 1 and 2).
 * Produces: level 2 only. Tile values that cannot be bufferized (function arguments
 * of !pto.tile type, tile slots not fed by tile ops, branches yielding different
 * buffer types, dynamic tile shapes) are errors.
 * An `arith.select` between two tiles or tile buffers (what MLIR's canonicalizer
 * makes of an scf.if that only chooses a tile) is first rewritten back into that
 * scf.if, so that it takes the scf.if path above.
 * Preserves: a module already in DPS form is left untouched (byte-identical output);
 * op order, locations, attributes and value names. */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"
#include "passes/tiles.h"

/* The memory of operand `i` of a tmatmul-family op: its role's kind (ops.def). */
static ir_mem matmul_operand_mem(const ir_op *op, unsigned i)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	return i < d->num_roles ? ir_kind_mem((ir_kind)d->roles[i].kind) : IR_MEM_NONE;
}

static int is_matmul(const ir_op *op)
{
	return op->code != IR_OP_UNKNOWN && (ir_opdef_get(op->code)->flags & IR_OPF_MATMUL);
}

/* The memory a tmov result goes to: the matmul operand it feeds, else vec. */
static ir_mem tmov_mem(const ir_value *v)
{
	const ir_operand *u;
	for (u = v->uses; u; u = u->next_use)
		if (is_matmul(u->owner)) {
			ir_mem m = matmul_operand_mem(u->owner, (unsigned)(u - u->owner->operands));
			if (m != IR_MEM_NONE && m != IR_MEM_ACC)
				return m;
		}
	return IR_MEM_VEC;
}

/* The memory of the buffer for the result of SSA tile op `op`. */
static ir_mem result_mem(const ir_op *op)
{
	const ir_operand *u;
	if (is_matmul(op))
		return IR_MEM_ACC;
	if (op->code == IR_OP_TMOV)
		return tmov_mem(&op->results[0]);
	if (op->code == IR_OP_TLOAD)
		for (u = op->results[0].uses; u; u = u->next_use)
			if (u->owner->code == IR_OP_TMOV && u->owner->num_results == 1 &&
			    u - u->owner->operands == 0 && tmov_mem(&u->owner->results[0]) != IR_MEM_VEC)
				return IR_MEM_MAT;
	return IR_MEM_VEC;
}

static void set_layout(ir_type *tb, ptoc_layout l, uint32_t fractal)
{
	static const unsigned bl[] = {IR_BLAYOUT_ROW_MAJOR, IR_BLAYOUT_COL_MAJOR,
				      IR_BLAYOUT_ROW_MAJOR, IR_BLAYOUT_COL_MAJOR,
				      IR_BLAYOUT_ROW_MAJOR, IR_BLAYOUT_COL_MAJOR};
	static const unsigned sl[] = {IR_SLAYOUT_NONE_BOX, IR_SLAYOUT_NONE_BOX,
				      IR_SLAYOUT_ROW_MAJOR, IR_SLAYOUT_ROW_MAJOR,
				      IR_SLAYOUT_COL_MAJOR, IR_SLAYOUT_COL_MAJOR};
	tb->u.tb.blayout = bl[l];
	tb->u.tb.slayout = sl[l];
	tb->u.tb.fractal = fractal;
}

/* The tile_buf type of level-1 tile type `t` in memory `m`; NULL (reported) when the
 * shape is not static. */
static const ir_type *buf_type(ir_ctx *ctx, const pass_opts *o, const ir_type *t, ir_mem m,
			       ir_loc loc)
{
	ir_type tb;
	if (t->u.shaped.rank != 2 || t->u.shaped.dims[0] <= 0 || t->u.shaped.dims[1] <= 0) {
		ir_error(ctx, loc, "cannot bufferize a tile without a static rank-2 shape");
		return NULL;
	}
	memset(&tb, 0, sizeof tb);
	tb.kind = IR_TYPE_TILE_BUF;
	tb.u.tb.mem = m;
	tb.u.tb.elem = t->u.shaped.elem;
	tb.u.tb.rows = tb.u.tb.v_row = t->u.shaped.dims[0];
	tb.u.tb.cols = tb.u.tb.v_col = t->u.shaped.dims[1];
	switch (m) {
	case IR_MEM_LEFT: set_layout(&tb, o->target->cube.left, o->target->cube.left_fractal); break;
	case IR_MEM_RIGHT: set_layout(&tb, o->target->cube.right, o->target->cube.right_fractal); break;
	case IR_MEM_ACC: set_layout(&tb, o->target->cube.acc, o->target->cube.acc_fractal); break;
	default: set_layout(&tb, PTOC_LAYOUT_ND, 512); break;
	}
	return ir_type_tile_buf(ctx, &tb);
}

/* Whether block `b` is the body of an scf.for. */
static int is_for_body(const ir_block *b)
{
	return b && b->region && b->region->parent && b->region->parent->code == IR_OP_SCF_FOR;
}

/* Whether scf op `op` has a result of level-1 tile type. */
static int has_tile_result(const ir_op *op)
{
	unsigned i;
	for (i = 0; op && i < op->num_results; i++)
		if (op->results[i].type->kind == IR_TYPE_TILE)
			return 1;
	return 0;
}

/* Whether scf.while `op` carries a level-1 tile (an initial value of tile type). */
static int has_tile_init(const ir_op *op)
{
	unsigned i;
	for (i = 0; op && i < op->num_operands; i++)
		if (op->operands[i].value->type->kind == IR_TYPE_TILE)
			return 1;
	return 0;
}

/* The first operand of scf op `p` that enters a yield slot: scf.for's inits follow
 * the bounds, scf.while's are all its operands. */
static unsigned carrier_base(const ir_op *p)
{
	return p->code == IR_OP_SCF_FOR ? 3 : 0;
}

/* tmatmul.acc (and .mx.acc) whose accumulator input is a tile value used nowhere
 * else: it accumulates in place into that tile's buffer (docs/semantics.md §6.3, the
 * split-K form). Decided on the SSA form, before any rewriting: in SSA every use is a
 * read, so one use means no later reader; the input must come from the same block, as
 * an op in a loop body runs many times on a tile from outside. */
static int accumulates_in_place(const ir_op *op)
{
	const ir_value *c;
	const ir_operand *u;
	if (op->code != IR_OP_TMATMUL_ACC && op->code != IR_OP_TMATMUL_MX_ACC &&
	    op->code != IR_OP_TGEMV_ACC && op->code != IR_OP_TGEMV_MX_ACC)
		return 0;
	c = op->operands[0].value;
	if (c->type != op->results[0].type || ir_value_num_uses(c) != 1)
		return 0;
	if (!c->def) {
		/* an scf.for iteration argument read only here, whose new value is only
		 * yielded back to it: the loop's carrier buffer accumulates in place */
		u = op->results[0].uses;
		return is_for_body(c->owner) && c->owner == op->block && c->index > 0 && u &&
		       !u->next_use && u->owner->code == IR_OP_SCF_YIELD &&
		       u->owner->block == op->block &&
		       (unsigned)(u - u->owner->operands) == c->index - 1;
	}
	/* same block: inside a loop, a tile from outside must stay unchanged; an scf.if
	 * result names a buffer yielded by a branch, which may have other readers */
	return c->def->block == op->block && c->def->code != IR_OP_SCF_IF;
}

typedef struct oplist {
	ir_op **a;
	unsigned char *inplace;
	uint64_t *was_tile; /* a yield's slots of tile type (results of its parent) */
	size_t n, cap;
	int oom;
} oplist;

/* Collects the ops to rewrite, in walk order (definitions before uses). */
static int collect(ir_op *op, void *user)
{
	oplist *l = user;
	int ssa_tile = op->code != IR_OP_UNKNOWN && (ir_opdef_get(op->code)->flags & IR_OPF_TILE) &&
		       op->num_results == 1 && op->results[0].type->kind == IR_TYPE_TILE;
	int tassign = op->code == IR_OP_TASSIGN && op->num_results == 1 &&
		      op->results[0].type->kind == IR_TYPE_TILE;
	const ir_op *par = op->block && op->block->region ? op->block->region->parent : NULL;
	int scf = (op->code == IR_OP_SCF_FOR && has_tile_result(op)) ||
		  (op->code == IR_OP_SCF_WHILE && (has_tile_init(op) || has_tile_result(op))) ||
		  (op->code == IR_OP_SCF_CONDITION && has_tile_result(par)) ||
		  (op->code == IR_OP_SCF_YIELD && par && par->code == IR_OP_SCF_WHILE &&
		   has_tile_init(par)) ||
		  (op->code == IR_OP_SCF_YIELD && par &&
		   (par->code == IR_OP_SCF_FOR || par->code == IR_OP_SCF_IF) && has_tile_result(par));
	if (!ssa_tile && !tassign && !scf)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		ir_op **a = realloc(l->a, cap * sizeof *a);
		unsigned char *ip;
		uint64_t *wt;
		if (a)
			l->a = a;
		ip = a ? realloc(l->inplace, cap) : NULL;
		if (ip)
			l->inplace = ip;
		wt = ip ? realloc(l->was_tile, cap * sizeof *wt) : NULL;
		if (!wt) {
			l->oom = 1;
			return 1;
		}
		l->was_tile = wt;
		l->cap = cap;
	}
	l->inplace[l->n] = (unsigned char)(ssa_tile && accumulates_in_place(op));
	l->was_tile[l->n] = 0;
	if (op->code == IR_OP_SCF_YIELD && par->code == IR_OP_SCF_WHILE) {
		unsigned i; /* the slots: the before region's arguments */
		for (i = 0; i < par->num_operands && i < 64; i++)
			if (par->operands[i].value->type->kind == IR_TYPE_TILE)
				l->was_tile[l->n] |= (uint64_t)1 << i;
	} else if (op->code == IR_OP_SCF_YIELD || op->code == IR_OP_SCF_CONDITION) {
		unsigned i;
		for (i = 0; i < par->num_results && i < 64; i++)
			if (par->results[i].type->kind == IR_TYPE_TILE)
				l->was_tile[l->n] |= (uint64_t)1 << i;
	}
	l->a[l->n++] = op;
	return 0;
}

/* %d = op %x... -> %buf = alloc_tile; op ins(%x...) outs(%buf) */
static unsigned rewrite_tile_op(ir_ctx *ctx, const pass_opts *o, ir_op *op, int inplace)
{
	ir_value *res = &op->results[0];
	const ir_type *t = buf_type(ctx, o, res->type, result_mem(op), op->loc);
	static const int64_t seg[3] = {0, 0, 0};
	ir_value **ops;
	ir_value *outs;
	ir_op *alloc, *dps;
	unsigned i;
	if (!t)
		return 1;
	if (inplace && op->operands[0].value->type == t) {
		outs = op->operands[0].value;
	} else {
		alloc = ir_op_create(ctx, "pto.alloc_tile", op->loc, NULL, 0, &t, 1, NULL, 0);
		alloc->results[0].name = res->name;
		ir_op_set_attr(ctx, alloc, "operandSegmentSizes",
			       ir_attr_dense(ctx, ir_type_int(ctx, 32, IR_INT_SIGNLESS), seg, 3));
		ir_block_insert_before(op, alloc);
		outs = &alloc->results[0];
	}
	ops = ir_alloc(ctx, (op->num_operands + 1) * sizeof *ops);
	for (i = 0; i < op->num_operands; i++)
		ops[i] = op->operands[i].value;
	ops[i] = outs;
	dps = ir_op_create(ctx, op->name, op->loc, ops, op->num_operands + 1, NULL, 0, op->attrs, 0);
	ir_block_insert_before(op, dps);
	ir_value_replace_all_uses(res, outs);
	ir_op_erase(op);
	return 0;
}

/* %t2 = tassign %buf, %a -> tassign %buf, %a (uses of %t2 -> %buf) */
static unsigned rewrite_tassign(ir_ctx *ctx, ir_op *op)
{
	ir_value *ops[2];
	ir_op *n;
	if (op->operands[0].value->type->kind != IR_TYPE_TILE_BUF)
		return 0; /* a tile argument: reported by check_left */
	ops[0] = op->operands[0].value;
	ops[1] = op->operands[1].value;
	n = ir_op_create(ctx, op->name, op->loc, ops, 2, NULL, 0, op->attrs, 0);
	ir_block_insert_before(op, n);
	ir_value_replace_all_uses(&op->results[0], ops[0]);
	ir_op_erase(op);
	return 0;
}

/* A new `pto.alloc_tile` of type t before `before`. */
static ir_value *new_buf(ir_ctx *ctx, ir_op *before, const ir_type *t, const char *name)
{
	static const int64_t seg[3] = {0, 0, 0};
	ir_op *alloc = ir_op_create(ctx, "pto.alloc_tile", before->loc, NULL, 0, &t, 1, NULL, 0);
	alloc->results[0].name = name;
	ir_op_set_attr(ctx, alloc, "operandSegmentSizes",
		       ir_attr_dense(ctx, ir_type_int(ctx, 32, IR_INT_SIGNLESS), seg, 3));
	ir_block_insert_before(before, alloc);
	return &alloc->results[0];
}

/* `pto.tmov ins(src) outs(dst)` before `before`: the copy of a tile value. */
static void copy_buf(ir_ctx *ctx, ir_op *before, ir_value *src, ir_value *dst)
{
	ir_value *ops[2];
	ops[0] = src;
	ops[1] = dst;
	ir_block_insert_before(before, ir_op_create(ctx, "pto.tmov", before->loc, ops, 2, NULL, 0,
						    NULL, 0));
}

/* Whether every use of `v` but `op` is an op before `op` in its block (the buffer is
 * not read after the loop starts, so the loop may take it over). */
static int only_before(const ir_value *v, const ir_op *op)
{
	const ir_operand *u;
	const ir_op *p;
	for (u = v->uses; u; u = u->next_use) {
		if (u->owner == op)
			continue;
		for (p = op->prev; p && p != u->owner; p = p->prev)
			;
		if (!p)
			return 0;
	}
	return 1;
}

/* An scf.for iteration argument of tile type gets one carrier buffer, of its init's
 * buffer type: the init (copied into it, unless the init is a buffer nothing reads
 * once the loop starts), the iteration argument and the result are all that buffer; the body's
 * yield copies its value into it (emit_yield_copies). */
static unsigned rewrite_for(ir_ctx *ctx, ir_op *op)
{
	ir_block *b = op->regions[0].first;
	unsigned base = carrier_base(op), arg0 = op->code == IR_OP_SCF_FOR;
	unsigned n = op->num_operands - base, i, errs = 0;
	for (i = 0; i < n; i++) {
		ir_value *init = op->operands[base + i].value, *c;
		if (op->code == IR_OP_SCF_FOR ? op->results[i].type->kind != IR_TYPE_TILE
					      : !b || i >= b->num_args ||
						b->args[i]->type->kind != IR_TYPE_TILE)
			continue;
		if (init->type->kind != IR_TYPE_TILE_BUF || !b || b->num_args <= arg0 + i) {
			ir_error(ctx, op->loc, "'%s' %s #%u: the init of a tile iteration "
				 "argument must be a tile made by a tile op", op->name,
				 arg0 ? "iter_arg" : "initial value", i);
			errs++;
			continue;
		}
		if (init->type->u.tb.v_row == IR_DYN || init->type->u.tb.v_col == IR_DYN) {
			ir_error(ctx, op->loc, "'%s' %s #%u: a tile with a dynamic valid shape cannot "
				 "be carried through scf.for / scf.if / scf.while", op->name,
				 arg0 ? "iter_arg" : "initial value", i);
			errs++;
			continue;
		}
		if (init->def && init->def->code == IR_OP_ALLOC_TILE && only_before(init, op)) {
			c = init;
		} else {
			c = new_buf(ctx, op, init->type, b->args[arg0 + i]->name);
			copy_buf(ctx, op, init, c);
			ir_op_set_operand(op, base + i, c);
		}
		ir_value_replace_all_uses(b->args[arg0 + i], c);
		b->args[arg0 + i]->type = init->type;
		if (op->code == IR_OP_SCF_FOR) {
			ir_value_replace_all_uses(&op->results[i], c);
			op->results[i].type = init->type;
		}
	}
	return errs;
}

/* The scf.condition of an scf.while with tile results: result #j (and the after
 * region's argument #j, which names the same value) gets a carrier buffer of the
 * type of the value passed: that value itself when it is one of the before region's
 * carriers (an argument passed on unchanged; the after region only reads it before its
 * yield writes the carriers), else a new buffer before the loop, into which the
 * condition copies the value. */
static unsigned rewrite_condition(ir_ctx *ctx, ir_op *c, uint64_t was_tile)
{
	ir_op *p = c->block->region->parent;
	ir_block *a = p->regions[1].first;
	unsigned j, k, errs = 0;
	for (j = 0; j + 1 < c->num_operands && j < p->num_results && j < 64; j++) {
		ir_value *v = c->operands[1 + j].value, *d = NULL;
		if (!(was_tile >> j & 1))
			continue;
		if (v->type->kind != IR_TYPE_TILE_BUF) {
			ir_error(ctx, c->loc, "'scf.condition' value #%u: a tile passed on must be made "
				 "by a tile op", j);
			errs++;
			continue;
		}
		if (v->type->u.tb.v_row == IR_DYN || v->type->u.tb.v_col == IR_DYN) {
			ir_error(ctx, c->loc, "'scf.condition' value #%u: a tile with a dynamic valid "
				 "shape cannot be carried through scf.for / scf.if / scf.while", j);
			errs++;
			continue;
		}
		for (k = 0; k < p->num_operands; k++)
			if (p->operands[k].value == v &&
			    p->regions[0].first->args[k]->type->kind == IR_TYPE_TILE_BUF)
				d = v;
		if (!d) {
			d = new_buf(ctx, p, v->type, p->results[j].name);
			copy_buf(ctx, c, v, d);
			ir_op_set_operand(c, 1 + j, d);
		}
		if (a && j < a->num_args) {
			ir_value_replace_all_uses(a->args[j], d);
			a->args[j]->type = v->type;
		}
		ir_value_replace_all_uses(&p->results[j], d);
		p->results[j].type = v->type;
	}
	return errs;
}

/* Whether `v` is the carrier buffer of one of scf.for `p`'s iteration arguments (of
 * scf.while `p`'s before region arguments). */
static int is_carrier(const ir_op *p, const ir_value *v)
{
	unsigned i;
	for (i = carrier_base(p); i < p->num_operands; i++)
		if (p->operands[i].value == v)
			return 1;
	return 0;
}

/* The yield of a body whose scf.for had tile iteration arguments: each value goes into
 * the carrier (the loop's init operand after rewrite_for), by a copy unless it is the
 * carrier already. The yield of an scf.if with tile results: the results take the
 * buffer type the branches yield, which must agree. */
static unsigned rewrite_yield(ir_ctx *ctx, ir_op *y, uint64_t was_tile)
{
	ir_op *p = y->block->region->parent;
	unsigned i, r, errs = 0, ncopy = 0, base = carrier_base(p);
	unsigned nslot = p->code == IR_OP_SCF_WHILE ? p->num_operands : p->num_results;
	if (p->code != IR_OP_SCF_IF) {
		/* every value is read before any carrier is written (a yield may swap
		 * iteration arguments): with more than one copy, a value that may be a
		 * carrier's buffer (anything but a fresh alloc_tile) goes through a
		 * temporary first */
		for (i = 0; i < y->num_operands && i < 64; i++)
			ncopy += (was_tile >> i & 1) && y->operands[i].value != p->operands[base + i].value;
		for (i = 0; ncopy > 1 && i < y->num_operands && i < 64; i++) {
			ir_value *v = y->operands[i].value, *tmp;
			if (!(was_tile >> i & 1) || v == p->operands[base + i].value ||
			    v->type->kind != IR_TYPE_TILE_BUF ||
			    (v->def && v->def->code == IR_OP_ALLOC_TILE && !is_carrier(p, v)))
				continue;
			tmp = new_buf(ctx, y, v->type, v->name);
			copy_buf(ctx, y, v, tmp);
			ir_op_set_operand(y, i, tmp);
		}
	}
	for (i = 0; i < y->num_operands && i < nslot; i++) {
		ir_value *v = y->operands[i].value;
		char t1[256], t2[256];
		if (i >= 64 || !(was_tile >> i & 1))
			continue;
		if (v->type->kind != IR_TYPE_TILE_BUF) {
			ir_error(ctx, y->loc, "'scf.yield' operand #%u: a yielded tile must be made "
				 "by a tile op", i);
			errs++;
			continue;
		}
		if (p->code != IR_OP_SCF_IF) {
			ir_value *c = p->operands[base + i].value;
			if (v == c)
				continue;
			if (v->type != c->type) {
				ir_error(ctx, y->loc, "'scf.yield' operand #%u: the tile yielded has buffer "
					 "type '%s' but the loop carries '%s'", i, ir_type_str(v->type, t1, sizeof t1),
					 ir_type_str(c->type, t2, sizeof t2));
				errs++;
				continue;
			}
			copy_buf(ctx, y, v, c);
			ir_op_set_operand(y, i, c);
			continue;
		}
		/* scf.if: once the last region's yield is reached, both are rewritten */
		if (y->block->region != &p->regions[p->num_regions - 1])
			continue;
		for (r = 0; r < p->num_regions; r++) {
			const ir_op *o = p->regions[r].first ? p->regions[r].first->last : NULL;
			const ir_type *t = o && o->code == IR_OP_SCF_YIELD && i < o->num_operands
						   ? o->operands[i].value->type : NULL;
			if (t != v->type) {
				ir_error(ctx, y->loc, "'scf.if' result #%u: the branches yield tiles of "
					 "different buffer types ('%s' and '%s')", i,
					 t ? ir_type_str(t, t1, sizeof t1) : "?",
					 ir_type_str(v->type, t2, sizeof t2));
				errs++;
				break;
			}
		}
		if (r == p->num_regions) {
			if (v->type->u.tb.v_row == IR_DYN || v->type->u.tb.v_col == IR_DYN) {
				ir_error(ctx, y->loc, "'scf.yield' operand #%u: a tile with a dynamic "
					 "valid shape cannot be carried through scf.for / scf.if", i);
				errs++;
			}
			p->results[i].type = v->type;
		}
	}
	return errs;
}

/* Reports every level-1 tile value left. */
static int check_left(ir_op *op, void *user)
{
	ir_ctx *ctx = ((void **)user)[0];
	unsigned *errs = ((void **)user)[1];
	unsigned i, r;
	ir_block *b;
	for (i = 0; i < op->num_results; i++)
		if (op->results[i].type->kind == IR_TYPE_TILE) {
			ir_error(ctx, op->loc, "'%s' op result #%u of tile type cannot be bufferized (only tile ops and pto.tassign produce tiles)",
				 op->name, i);
			(*errs)++;
		}
	for (r = 0; r < op->num_regions; r++)
		for (b = op->regions[r].first; b; b = b->next)
			for (i = 0; i < b->num_args; i++)
				if (b->args[i]->type->kind == IR_TYPE_TILE) {
					ir_error(ctx, b->args[i]->loc,
						 "block argument of tile type cannot be bufferized: tiles live in on-chip memory and are created by tile ops");
					(*errs)++;
				}
	return 0;
}

static int is_tile_select(const ir_op *op)
{
	return op->code == IR_OP_SELECT && op->num_results == 1 &&
	       ir_type_is_tile(op->results[0].type);
}

/* `%r = arith.select %c, %a, %b : T` (T a tile or tile buffer) becomes
 * `%r = scf.if %c -> T { scf.yield %a } else { scf.yield %b }`. */
static void select_to_if(ir_ctx *ctx, ir_op *sel)
{
	const ir_type *t = sel->results[0].type;
	ir_value *cond = sel->operands[0].value;
	ir_op *iff = ir_op_create(ctx, "scf.if", sel->loc, &cond, 1, &t, 1, NULL, 2);
	unsigned k;
	for (k = 0; k < 2; k++) {
		ir_block *b = ir_block_create(ctx, sel->loc);
		ir_value *v = sel->operands[1 + k].value;
		ir_region_append_block(&iff->regions[k], b);
		ir_block_append_op(b, ir_op_create(ctx, "scf.yield", sel->loc, &v, 1, NULL, 0, NULL, 0));
	}
	if (sel->results[0].name)
		iff->results[0].name = sel->results[0].name;
	ir_block_insert_before(sel, iff);
	ir_value_replace_all_uses(&sel->results[0], &iff->results[0]);
	ir_op_erase(sel);
}

unsigned pass_bufferize(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	oplist l = {NULL, NULL, NULL, 0, 0, 0};
	ir_op_list sels = {NULL, 0, 0};
	unsigned errs = 0;
	size_t i;
	void *u[2];
	if (ir_op_list_collect(module, is_tile_select, &sels)) {
		ir_error(ctx, module->loc, "bufferize: out of memory");
		return 1;
	}
	for (i = 0; i < sels.n; i++)
		select_to_if(ctx, sels.a[i]);
	free(sels.a);
	ir_walk(module, collect, &l);
	if (l.oom) {
		free(l.a);
		free(l.inplace);
		free(l.was_tile);
		ir_error(ctx, module->loc, "bufferize: out of memory");
		return 1;
	}
	for (i = 0; i < l.n; i++) {
		ir_op *op = l.a[i];
		if (op->code == IR_OP_TASSIGN)
			errs += rewrite_tassign(ctx, op);
		else if (op->code == IR_OP_SCF_FOR || op->code == IR_OP_SCF_WHILE)
			errs += rewrite_for(ctx, op);
		else if (op->code == IR_OP_SCF_CONDITION)
			errs += rewrite_condition(ctx, op, l.was_tile[i]);
		else if (op->code == IR_OP_SCF_YIELD)
			errs += rewrite_yield(ctx, op, l.was_tile[i]);
		else
			errs += rewrite_tile_op(ctx, o, op, l.inplace[i]);
	}
	free(l.a);
	free(l.inplace);
	free(l.was_tile);
	u[0] = ctx;
	u[1] = &errs;
	ir_walk(module, check_left, u);
	return errs;
}
