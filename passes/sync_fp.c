/* sync_fp.c: the footprints insert-sync (insert_sync.c) orders: which bytes of which
 * memory each op of a placed level-2 function reads and writes (docs/sync.md
 * "Footprints"). Tiles: the whole tile at each address it can have (its alloc_tile's
 * addr, every tassign on it, through treshape/bitcast aliases and subset windows
 * (the window's own bytes with its source's row pitch), scf.if/scf.for
 * results and loop-carried values); an address that is not a compile-time constant
 * is the whole memory. GM: the bytes a view's constant offsets, sizes and strides
 * span inside its pointer argument, else the whole argument; different pointer
 * arguments are different buffers. */
#include <stdlib.h>
#include <string.h>

#include "ir/pipe.h"
#include "ir/subset.h"
#include "passes/insert_sync.h"
#include "passes/lower.h"
#include "passes/tiles.h"

#define MAX_ADDRS 16

/* The addr operand of an alloc_tile, or NULL. */
static ir_value *alloc_addr(const ir_op *op)
{
	const ir_attr *seg = ir_op_get_attr(op, "operandSegmentSizes");
	const ir_type *t = op->results[0].type;
	unsigned k = op->num_operands;
	if (seg && seg->kind == IR_ATTR_DENSE && seg->u.dense.n == 3)
		return seg->u.dense.v[0] && k ? op->operands[0].value : NULL;
	if (t->kind == IR_TYPE_TILE_BUF) {
		if (t->u.tb.v_col == IR_DYN && k)
			k--;
		if (t->u.tb.v_row == IR_DYN && k)
			k--;
	}
	return k ? op->operands[0].value : NULL;
}

/* The addresses tile value `v` can have: 0 and out[0..*n), -1 when not all known. */
static int tile_addrs(const ir_value *v, int64_t *out, unsigned *n, unsigned depth)
{
	const ir_op *d = v->def;
	const ir_operand *u;
	unsigned k;
	if (depth > 12)
		return -1;
	/* every rebinding `pto.tassign %v, %a` of this value */
	for (u = v->uses; u; u = u->next_use)
		if (u->owner->code == IR_OP_TASSIGN && u->owner->num_results == 0 &&
		    u->owner->num_operands == 2 && u->owner->operands[0].value == v &&
		    tile_addr_consts(u->owner->operands[1].value, out, n, MAX_ADDRS))
			return -1;
	if (!d) { /* a block argument: a loop-carried tile */
		const ir_block *b = v->owner;
		const ir_op *p = b && b->region ? b->region->parent : NULL;
		const ir_op *y = b ? b->last : NULL;
		if (!p || p->code != IR_OP_SCF_FOR || v->index < 1 ||
		    3 + v->index - 1 >= p->num_operands)
			return -1;
		if (tile_addrs(p->operands[3 + v->index - 1].value, out, n, depth + 1))
			return -1;
		if (!y || y->code != IR_OP_SCF_YIELD || v->index - 1 >= y->num_operands)
			return -1;
		if (y->operands[v->index - 1].value == v)
			return 0;
		return tile_addrs(y->operands[v->index - 1].value, out, n, depth + 1);
	}
	switch (d->code) {
	case IR_OP_ALLOC_TILE: {
		ir_value *a = alloc_addr(d);
		if (a)
			return tile_addr_consts(a, out, n, MAX_ADDRS);
		return *n ? 0 : -1; /* unplaced unless rebound */
	}
	case IR_OP_TRESHAPE: case IR_OP_TBITCAST: case IR_OP_SUBSET:
		return tile_addrs(d->operands[0].value, out, n, depth + 1);
	case IR_OP_TASSIGN:
		return d->num_operands == 2
			       ? tile_addr_consts(d->operands[1].value, out, n, MAX_ADDRS)
			       : -1;
	case IR_OP_SCF_IF:
		for (k = 0; k < d->num_regions; k++) {
			const ir_op *y = d->regions[k].first ? d->regions[k].first->last : NULL;
			if (!y || y->code != IR_OP_SCF_YIELD || v->index >= y->num_operands ||
			    tile_addrs(y->operands[v->index].value, out, n, depth + 1))
				return -1;
		}
		return 0;
	case IR_OP_SCF_FOR: {
		const ir_block *body = d->regions[0].first;
		const ir_op *y = body ? body->last : NULL;
		if (3 + v->index >= d->num_operands ||
		    tile_addrs(d->operands[3 + v->index].value, out, n, depth + 1))
			return -1;
		if (!y || y->code != IR_OP_SCF_YIELD || v->index >= y->num_operands)
			return -1;
		if (body && v->index + 1 < body->num_args && y->operands[v->index].value == body->args[v->index + 1])
			return 0;
		return tile_addrs(y->operands[v->index].value, out, n, depth + 1);
	}
	default:
		return -1;
	}
}

static int push_fp(sync_fps *f, int space, int w, uint64_t lo, uint64_t hi)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		sync_fp *p = realloc(f->a, cap * sizeof *p);
		if (!p)
			return -1;
		f->a = p;
		f->cap = cap;
	}
	f->a[f->n].space = space;
	f->a[f->n].w = (unsigned char)w;
	f->a[f->n].lo = lo;
	f->a[f->n].hi = hi;
	f->n++;
	return 0;
}

/* A pto.subset's window (docs/semantics.md §7.8): the tile it is a window of (the
 * first that is not a subset), the byte offset of its first element there and the bytes
 * from there to its last; -1 when not all constant. */
static int subset_window(const ir_value **v, uint64_t *off, uint64_t *bytes)
{
	const ir_type *t = (*v)->type;
	const ir_value *root = *v;
	int64_t o[2], sz[2], e = 0;
	ptort_type pt;
	while (root->def && root->def->code == IR_OP_SUBSET && root->def->num_operands == 3)
		root = root->def->operands[0].value;
	if (!root->type || root->type->kind != IR_TYPE_TILE_BUF ||
	    ir_type_to_elem(t->u.tb.elem, &pt))
		return -1;
	for (root = *v; root->def && root->def->code == IR_OP_SUBSET; root = root->def->operands[0].value) {
		const ir_value *src = root->def->operands[0].value;
		if (ir_subset_sizes(root->def, sz) ||
		    !ir_value_const_int(root->def->operands[1].value, &o[0]) ||
		    !ir_value_const_int(root->def->operands[2].value, &o[1]))
			return -1;
		while (src->def && src->def->code == IR_OP_SUBSET)
			src = src->def->operands[0].value;
		e += o[0] * src->type->u.tb.cols + o[1];
	}
	*off = (uint64_t)e * ptort_type_bits(pt) / 8;
	*bytes = ((uint64_t)(t->u.tb.rows - 1) * root->type->u.tb.cols + (uint64_t)t->u.tb.cols) *
		 ptort_type_bits(pt) / 8;
	*v = root;
	return 0;
}

/* The bytes of tile value `v`, written or read. 1 when the tile has no placed memory
 * (level 1), -1 out of memory. */
static int tile_fp(sync_fps *f, const ir_value *v, int w)
{
	const ir_type *t = v->type;
	int64_t addrs[MAX_ADDRS];
	unsigned n = 0, k;
	uint64_t bytes = tile_buf_bytes(t), off = 0;
	if (!t || t->kind != IR_TYPE_TILE_BUF || t->u.tb.mem == IR_MEM_NONE)
		return 1;
	if (v->def && v->def->code == IR_OP_SUBSET && subset_window(&v, &off, &bytes))
		return push_fp(f, t->u.tb.mem, w, 0, UINT64_MAX);
	if (tile_addrs(v, addrs, &n, 0) || !n || !bytes)
		return push_fp(f, t->u.tb.mem, w, 0, UINT64_MAX);
	for (k = 0; k < n; k++)
		if (push_fp(f, t->u.tb.mem, w, (uint64_t)addrs[k] + off,
			    (uint64_t)addrs[k] + off + bytes))
			return -1;
	return 0;
}

/* The pointer argument a value comes from (through addptr), and the element offset
 * it adds when constant (else *known = 0). */
static const ir_value *ptr_root(const ir_value *p, int64_t *off, int *known)
{
	int64_t c;
	while (p && p->def && p->def->code == IR_OP_ADDPTR) {
		if (ir_value_const_int(p->def->operands[1].value, &c))
			*off += c;
		else
			*known = 0;
		p = p->def->operands[0].value;
	}
	return p;
}

static int root_space(sync_fps *f, const ir_value *root)
{
	size_t i;
	for (i = 0; i < f->nroots; i++)
		if (f->roots[i] == root)
			return SYNC_SPACE_GM + (int)i;
	if (f->nroots == SYNC_MAX_ROOTS)
		return SYNC_SPACE_GM_ANY;
	f->roots[f->nroots++] = root;
	return SYNC_SPACE_GM + (int)f->nroots - 1;
}

static unsigned elem_bytes(const ir_type *e)
{
	ptort_type pt;
	if (!e || ir_type_to_elem(e, &pt))
		return 8;
	return (ptort_type_bits(pt) + 7) / 8;
}

/* The GM bytes of view value `v`. */
static int view_fp(sync_fps *f, const ir_value *v, int w)
{
	const ir_op *pv = v->def, *tv;
	const ir_value *root;
	int64_t off = 0, lo = 0, ext = 1, c;
	int known = 1;
	unsigned i, rank, eb;
	if (!pv || pv->code != IR_OP_PARTITION_VIEW) {
		if (pv && pv->code == IR_OP_MAKE_TENSOR_VIEW) {
			root = ptr_root(pv->operands[0].value, &off, &known);
			return push_fp(f, root_space(f, root), w, 0, UINT64_MAX);
		}
		return push_fp(f, SYNC_SPACE_GM_ANY, w, 0, UINT64_MAX);
	}
	tv = pv->operands[0].value->def;
	if (!tv || tv->code != IR_OP_MAKE_TENSOR_VIEW)
		return push_fp(f, SYNC_SPACE_GM_ANY, w, 0, UINT64_MAX);
	root = ptr_root(tv->operands[0].value, &off, &known);
	rank = (pv->num_operands - 1) / 2;
	eb = elem_bytes(v->type && v->type->kind == IR_TYPE_PART_VIEW ? v->type->u.shaped.elem : NULL);
	/* make_tensor_view: ptr, shape[rank], strides[rank]; partition_view: src,
	 * offsets[rank], sizes[rank] */
	if (tv->num_operands != 1 + 2 * rank || pv->num_operands != 1 + 2 * rank)
		known = 0;
	for (i = 0; known && i < rank; i++) {
		int64_t o, s, st;
		if (!ir_value_const_int(pv->operands[1 + i].value, &o) ||
		    !ir_value_const_int(pv->operands[1 + rank + i].value, &s) ||
		    !ir_value_const_int(tv->operands[1 + rank + i].value, &st) || o < 0 || s < 1 ||
		    st < 0 || st > ((int64_t)1 << 32) || o > ((int64_t)1 << 32) || s > ((int64_t)1 << 32)) {
			known = 0;
			break;
		}
		lo += o * st;
		ext += (s - 1) * st;
	}
	c = off + lo;
	if (!known || c < 0)
		return push_fp(f, root_space(f, root), w, 0, UINT64_MAX);
	return push_fp(f, root_space(f, root), w, (uint64_t)c * eb, (uint64_t)(c + ext) * eb);
}

int sync_op_footprint(sync_fps *f, const ir_op *op, const struct target *t, size_t *first)
{
	const ir_vecdef *vd = ir_vecdef_get(op->code);
	unsigned i, nout = ir_op_num_outs(op);
	int tmp = ir_opdef_role(op->code, "tmp"), r;
	*first = f->n;
	if (op->code == IR_OP_LOAD_SCALAR || op->code == IR_OP_STORE_SCALAR) {
		int64_t off = 0, k;
		int known = 1;
		const ir_value *root = ptr_root(op->operands[0].value, &off, &known);
		const ir_type *pt = op->operands[0].value->type;
		unsigned eb = elem_bytes(pt && pt->kind == IR_TYPE_PTR ? pt->u.ptr.elem : NULL);
		int w = op->code == IR_OP_STORE_SCALAR;
		if (known && ir_value_const_int(op->operands[1].value, &k) && off + k >= 0)
			return push_fp(f, root_space(f, root), w, (uint64_t)(off + k) * eb,
				       (uint64_t)(off + k + 1) * eb) ? -1 : 0;
		return push_fp(f, root_space(f, root), w, 0, UINT64_MAX) ? -1 : 0;
	}
	if (op->num_operands < nout)
		nout = 0;
	for (i = 0; i < op->num_operands; i++) {
		const ir_value *v = op->operands[i].value;
		int w = i >= op->num_operands - nout || (tmp >= 0 && (unsigned)tmp == i &&
							  i < op->num_operands - nout);
		if (op->code == IR_OP_TSETVAL && ir_type_is_tile(v->type))
			w = 1;
		if (vd && vd->kind == IR_VK_AXPY && i == op->num_operands - 1)
			w = 1;
		if (ir_type_is_tile(v->type)) {
			if ((r = tile_fp(f, v, w)) != 0)
				return r;
		} else if (v->type && (v->type->kind == IR_TYPE_PART_VIEW ||
				       v->type->kind == IR_TYPE_TENSOR_VIEW)) {
			if (view_fp(f, v, w))
				return -1;
		}
	}
	if (lower_vec_uses_ub_scratch(op, t)) { /* the lowering's UB scratch */
		const ptoc_mem_info *mi = tile_mem_info(t, IR_MEM_VEC);
		if (push_fp(f, IR_MEM_VEC, 1, mi->capacity - mi->reserved_top, mi->capacity))
			return -1;
	}
	return 0;
}

int sync_fp_conflict(const sync_fp *a, size_t na, const sync_fp *b, size_t nb)
{
	size_t i, j;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			const sync_fp *x = &a[i], *y = &b[j];
			int gx = x->space >= SYNC_SPACE_GM_ANY, gy = y->space >= SYNC_SPACE_GM_ANY;
			if (!x->w && !y->w)
				continue;
			if (x->space != y->space &&
			    !(gx && gy && (x->space == SYNC_SPACE_GM_ANY || y->space == SYNC_SPACE_GM_ANY)))
				continue;
			if (x->lo < y->hi && y->lo < x->hi)
				return 1;
		}
	return 0;
}
