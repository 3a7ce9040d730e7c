/* verify_mixed.c: the rules of the mixed cube/vector ops (docs/semantics.md §8.9) and
 * of the cross-core flags' id ranges, checked over the whole module (a FIFO joins two
 * functions: the cube's and the vector's). Called by ir_verify after the per-op rules.
 *
 * Each op runs on a core: the core of its pto.section.* when inside one, else its
 * function's pto.kernel_kind (cube or vector), else unknown (a function without a kind
 * holds both: no core rule applies). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/ctx.h"
#include "ir/ir.h"
#include "target/target.h"

enum { CORE_ANY, CORE_CUBE, CORE_VECTOR };

typedef struct mctx {
	ir_ctx *ctx;
	const struct target *t;
	const ir_op *module, *func;
	const ir_op *init;       /* the function's pipe init (aic/aiv), the last one seen */
	const ir_op *nosplit_reported; /* the init whose nosplit conflict was reported */
	unsigned errors;
} mctx;

/* An error at `op`, counted in m->errors. */
#define err(m, op, ...) ((m)->errors += ir_op_error((m)->ctx, (op), __VA_ARGS__))

static int attr_int(const ir_op *op, const char *name, int64_t *out)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_INT)
		return 0;
	*out = a->u.i.v;
	return 1;
}

static int attr_bool(const ir_op *op, const char *name, int *out)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_BOOL)
		return 0;
	*out = (int)a->u.i.v;
	return 1;
}

static const ir_attr *attr_str(const ir_op *op, const char *name, ir_attr_kind kind)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	return a && a->kind == kind ? a : NULL;
}

static int pto_is(const ir_attr *a, const char *value)
{
	return a && a->kind == IR_ATTR_PTO && a->u.pto.value && !strcmp(a->u.pto.value, value);
}

static int func_core(const ir_op *f)
{
	const ir_attr *k = ir_op_get_attr(f, "pto.kernel_kind");
	if (pto_is(k, "cube"))
		return CORE_CUBE;
	if (pto_is(k, "vector"))
		return CORE_VECTOR;
	return CORE_ANY;
}

static const char *core_name(int core)
{
	return core == CORE_CUBE ? "cube" : "vector";
}

static const ir_op *find_func(const mctx *m, const ir_attr *sym)
{
	const ir_op *f;
	if (!sym || !m->module->num_regions || !m->module->regions[0].first)
		return NULL;
	for (f = m->module->regions[0].first->first; f; f = f->next) {
		const ir_attr *n = ir_op_get_attr(f, "sym_name");
		if (f->code == IR_OP_FUNC && n && n->kind == IR_ATTR_STRING &&
		    n->u.str.len == sym->u.str.len && !memcmp(n->u.str.s, sym->u.str.s, n->u.str.len))
			return f;
	}
	return NULL;
}

struct find {
	ir_opcode code;
	const ir_attr *nm;
	const ir_op *found;
};

static int find_cb(ir_op *o, void *user)
{
	struct find *f = user;
	const ir_attr *n = o->code == f->code ? ir_op_get_attr(o, "name") : NULL;
	if (o->code != f->code ||
	    (f->nm && !(n && n->kind == IR_ATTR_STRING && n->u.str.len == f->nm->u.str.len &&
			!memcmp(n->u.str.s, f->nm->u.str.s, f->nm->u.str.len))))
		return 0;
	f->found = o;
	return 1;
}

/* The first op of `code` under `root` (regions walked in order) whose `name` attribute
 * equals `nm` (any name when nm is NULL). */
static const ir_op *find_op(const ir_op *root, ir_opcode code, const ir_attr *nm)
{
	struct find f = {code, nm, NULL};
	ir_walk((ir_op *)root, find_cb, &f);
	return f.found;
}

/* Whether `o` initializes a pipe with the value `v` among its operands. */
static int inits_pipe_with(ir_op *o, void *v)
{
	unsigned k;
	if (o->code != IR_OP_AIC_INITIALIZE_PIPE && o->code != IR_OP_AIV_INITIALIZE_PIPE &&
	    o->code != IR_OP_INITIALIZE_L2L_PIPE && o->code != IR_OP_INITIALIZE_L2G2L_PIPE)
		return 0;
	for (k = 0; k < o->num_operands; k++)
		if (o->operands[k].value == v)
			return 1;
	return 0;
}

/* Whether some pipe initialization under `root` uses `v` as an operand. */
static int used_under(const ir_op *root, const ir_value *v)
{
	return ir_walk((ir_op *)root, inits_pipe_with, (void *)v);
}

/* The bytes of a tile's valid part, -1 when not known before the run */
static int64_t tile_bytes(const ir_type *t)
{
	ptort_type e;
	if (!t || t->kind != IR_TYPE_TILE_BUF || ir_type_to_elem(t->u.tb.elem, &e) ||
	    t->u.tb.v_row == IR_DYN || t->u.tb.v_col == IR_DYN)
		return -1; /* a dynamic valid shape is checked when it is known */
	return t->u.tb.v_row * t->u.tb.v_col * (int64_t)ptort_type_bits(e) / 8;
}

/* The op defining `v`, or NULL for a block argument. */
static const ir_op *def_op(const ir_value *v)
{
	return v ? v->def : NULL;
}

/* A pipe init's buffer operand that comes from reserve_buffer / import_reserved_buffer
 * must have its peer: the function the buffer is shared with holds the other side,
 * also consumed by a pipe init. */
static void check_peer(mctx *m, const ir_op *init, const ir_value *buf)
{
	const ir_op *d = def_op(buf), *peer_f = NULL, *peer = NULL;
	const ir_attr *nm;
	if (!d || (d->code != IR_OP_RESERVE_BUFFER && d->code != IR_OP_IMPORT_RESERVED_BUFFER))
		return;
	/* peer_func names a function of a kind; in a function of no kind (a kernel whose
	 * cube and vector functions were inlined into its sections) the pair was checked
	 * where it was written */
	if (func_core(m->func) == CORE_ANY)
		return;
	nm = attr_str(d, "name", IR_ATTR_STRING);
	if (!nm)
		return;
	if (d->code == IR_OP_IMPORT_RESERVED_BUFFER) {
		peer_f = find_func(m, attr_str(d, "peer_func", IR_ATTR_SYMBOL));
		peer = peer_f ? find_op(peer_f, IR_OP_RESERVE_BUFFER, nm) : NULL;
	} else {
		/* the function that imports this name with peer_func = this function */
		const ir_op *f;
		const ir_attr *self = ir_op_get_attr(m->func, "sym_name");
		for (f = m->module->regions[0].first->first; f && !peer; f = f->next) {
			const ir_op *imp;
			const ir_attr *pf;
			if (f == m->func || f->code != IR_OP_FUNC)
				continue;
			imp = find_op(f, IR_OP_IMPORT_RESERVED_BUFFER, nm);
			pf = imp ? attr_str(imp, "peer_func", IR_ATTR_SYMBOL) : NULL;
			if (pf && self && pf->u.str.len == self->u.str.len &&
			    !memcmp(pf->u.str.s, self->u.str.s, pf->u.str.len)) {
				peer_f = f;
				peer = imp;
			}
		}
	}
	if (!peer || !peer->num_results || !used_under(peer_f, &peer->results[0]))
		err(m, init, "requires a complete peer init pair when local_addr comes from "
			     "pto.reserve_buffer or pto.import_reserved_buffer (\"%.*s\" has no pipe "
			     "init on the peer side)", (int)nm->u.str.len, nm->u.str.s);
}

static void check_init(mctx *m, const ir_op *op, int core)
{
	int64_t dir = 0, slot = 0, n;
	unsigned i, first_buf;
	int aic = op->code == IR_OP_AIC_INITIALIZE_PIPE;
	int l2x = op->code == IR_OP_INITIALIZE_L2L_PIPE || op->code == IR_OP_INITIALIZE_L2G2L_PIPE;
	if ((op->code == IR_OP_AIC_INITIALIZE_PIPE && core == CORE_VECTOR) ||
	    (op->code == IR_OP_AIV_INITIALIZE_PIPE && core == CORE_CUBE))
		err(m, op, "is a %s-core op, but it is in a %s %s", aic ? "cube" : "vector",
		    core_name(core), "function");
	if (attr_int(op, "dir_mask", &dir) && (dir < 1 || dir > 3))
		err(m, op, "dir_mask must be 1 (cube to vector), 2 (vector to cube) or 3 (both), got %lld",
		    (long long)dir);
	if (attr_int(op, "slot_size", &slot) && slot <= 0)
		err(m, op, "slot_size must be positive, got %lld", (long long)slot);
	if (attr_int(op, "slot_num", &n) && (n < 1 || n > 16))
		err(m, op, "slot_num (the FIFO depth) must be between 1 and 16, got %lld", (long long)n);
	if (attr_int(op, "local_slot_num", &n) && (n < 1 || n > 16))
		err(m, op, "local_slot_num must be between 1 and 16, got %lld", (long long)n);
	if (l2x) {
		const ir_value *local = op->operands[op->num_operands - 1].value;
		const ir_op *d = def_op(local);
		int64_t fb;
		if (!ir_op_get_attr(op, "flag_base") &&
		    (!d || (d->code != IR_OP_RESERVE_BUFFER && d->code != IR_OP_IMPORT_RESERVED_BUFFER)))
			err(m, op, "requires local_addr to come from pto.reserve_buffer or "
				   "pto.import_reserved_buffer when 'flag_base' is not explicit");
		if (attr_int(op, "flag_base", &fb) && (fb < 0 || fb > 15))
			err(m, op, "flag_base must be between 0 and 15, got %lld", (long long)fb);
		check_peer(m, op, local);
		return;
	}
	/* aic/aiv: [gm_slot_buffer,] c2v_consumer_buf, v2c_consumer_buf */
	first_buf = op->num_operands == 3 ? 1 : 0;
	if (op->num_operands == 3) {
		const ir_type *g = op->operands[0].value->type;
		if (g->kind != IR_TYPE_PTR)
			err(m, op, "gm_slot_buffer must be a !pto.ptr, got another type");
	} else if (m->t && m->t->id == PTOC_TARGET_A2A3 && dir >= 1 && dir <= 3) {
		err(m, op, "on %s the FIFO between the cube and the vector cores goes through GM: "
			   "it requires the operand 'gm_slot_buffer = %%g : !pto.ptr<T>'", m->t->title);
	}
	for (i = first_buf; i < op->num_operands; i++) {
		const ir_value *v = op->operands[i].value;
		int used = (i == first_buf) ? (dir & 1) : (dir & 2);
		const ir_op *d = def_op(v);
		if (v->type->kind != IR_TYPE_INT || v->type->u.i.bits != 32)
			err(m, op, "%s must be an i32", i == first_buf ? "c2v_consumer_buf" : "v2c_consumer_buf");
		if (!used)
			continue;
		/* the consumer's side holds the slots: size = depth * slot_size */
		if (d && d->code == IR_OP_RESERVE_BUFFER && slot > 0 && attr_int(d, "size", &n) &&
		    (n < slot || n % slot))
			err(m, op, "the FIFO buffer '%s' of %lld bytes does not hold a whole number "
				   "of %lld-byte slots", i == first_buf ? "c2v_consumer_buf" : "v2c_consumer_buf",
			    (long long)n, (long long)slot);
		check_peer(m, op, v);
	}
	m->init = op;
}

/* A pto.alloc_tile without `addr` (memref.alloc reads as one): placement must place it. */
static int unplaced_alloc(ir_op *op, void *user)
{
	const ir_attr *seg;
	const ir_operand *u;
	if (op->code != IR_OP_ALLOC_TILE)
		return 0;
	/* the tile a pop fills (passes/mixed.c makes one before each pop, and of each
	 * declare_tile): on the device it is the FIFO slot, placed with the buffer */
	if (op->next && (op->next->code == IR_OP_TPOP_FROM_AIC || op->next->code == IR_OP_TPOP_FROM_AIV))
		return 0;
	for (u = op->num_results ? op->results[0].uses : NULL; u; u = u->next_use)
		if (u->owner->code == IR_OP_TPOP)
			return 0;
	seg = ir_op_get_attr(op, "operandSegmentSizes");
	if (seg && seg->kind == IR_ATTR_DENSE && seg->u.dense.n == 3 && seg->u.dense.v[0] == 1)
		return 0;
	*(ir_op **)user = op;
	return 1;
}

static void check_reserve(mctx *m, const ir_op *op, int core)
{
	int64_t size;
	const ir_attr *loc = ir_op_get_attr(op, "location");
	const ir_attr *au = ir_op_get_attr(op, "auto");
	ir_op *alloc = NULL;
	/* auto = false: the buffer sits at its `base`, placed by hand, and so must every
	 * tile of the function (PTOAS: PlanMemory does not run beside a manual buffer) */
	if (au && au->kind == IR_ATTR_BOOL && !au->u.i.v && m->func &&
	    ir_walk((ir_op *)m->func, unplaced_alloc, &alloc) && alloc) {
		/* PTOAS's words, naming the op as written (memref.alloc is the older
		 * spelling of pto.alloc_tile: frontend/build_forms.c) */
		m->errors++;
		ir_error(m->ctx, alloc->loc, "'%s' op cannot use pto.reserve_buffer with auto = "
			 "false when local memref.alloc still requires PlanMemory allocation",
			 ir_loc_spells(m->ctx, alloc->loc, "memref.alloc") ? "memref.alloc" : alloc->name);
	}
	if (!attr_str(op, "name", IR_ATTR_STRING))
		err(m, op, "requires a string attribute 'name'");
	if (attr_int(op, "size", &size) && size <= 0)
		err(m, op, "size must be positive, got %lld", (long long)size);
	if (loc && core != CORE_ANY &&
	    !pto_is(loc, core == CORE_CUBE ? "mat" : "vec"))
		err(m, op, "a FIFO buffer of the %s core must be in %s", core_name(core),
		    core == CORE_CUBE ? "#pto.address_space<mat>" : "#pto.address_space<vec>");
	if (op->results[0].type->kind != IR_TYPE_INT || op->results[0].type->u.i.bits != 32)
		err(m, op, "result must be an i32");
}

static void check_import(mctx *m, const ir_op *op)
{
	const ir_attr *nm = attr_str(op, "name", IR_ATTR_STRING);
	const ir_attr *pf = attr_str(op, "peer_func", IR_ATTR_SYMBOL);
	const ir_op *f;
	if (!nm || !pf) {
		err(m, op, "requires a string attribute 'name' and a symbol 'peer_func'");
		return;
	}
	f = find_func(m, pf);
	if (!f)
		err(m, op, "peer_func @%.*s is not a function of the module", (int)pf->u.str.len,
		    pf->u.str.s);
	else if (f == m->func)
		err(m, op, "peer_func must be another function");
	else if (!find_op(f, IR_OP_RESERVE_BUFFER, nm))
		err(m, op, "@%.*s has no pto.reserve_buffer named \"%.*s\"", (int)pf->u.str.len,
		    pf->u.str.s, (int)nm->u.str.len, nm->u.str.s);
	if (op->results[0].type->kind != IR_TYPE_INT || op->results[0].type->u.i.bits != 32)
		err(m, op, "result must be an i32");
}

/* push / pop / free of the FIFO between the cores */
static void check_fifo(mctx *m, const ir_op *op, int core)
{
	int to_cube = op->code == IR_OP_TPUSH_TO_AIC || op->code == IR_OP_TPOP_FROM_AIV ||
		      op->code == IR_OP_TFREE_FROM_AIV;
	int on_cube = op->code == IR_OP_TPUSH_TO_AIV || op->code == IR_OP_TPOP_FROM_AIV ||
		      op->code == IR_OP_TFREE_FROM_AIV;
	int64_t split = 0, dir = 0, slot = 0, bytes = -1;
	int nosplit;
	const ir_type *t = NULL;
	if (core != CORE_ANY && (core == CORE_CUBE) != on_cube)
		err(m, op, "is a %s-core op, but it is in a %s function", on_cube ? "cube" : "vector",
		    core_name(core));
	if (attr_int(op, "split", &split) && (split < 0 || split > 2))
		err(m, op, "split must be 0 (none), 1 (rows: one half to each vector core) or 2 "
			   "(columns), got %lld", (long long)split);
	if (op->code == IR_OP_TPOP_FROM_AIC || op->code == IR_OP_TPOP_FROM_AIV) {
		t = op->results[0].type;
		if (t->kind != IR_TYPE_TILE_BUF) {
			err(m, op, "result must be a !pto.tile_buf");
			return;
		}
		if (t->u.tb.mem != (to_cube ? IR_MEM_MAT : IR_MEM_VEC))
			err(m, op, "result must be a tile in %s (the %s core's FIFO), got loc=%s",
			    to_cube ? "mat" : "vec", to_cube ? "cube" : "vector", ir_mem_name(t->u.tb.mem));
		if (op->num_operands == 1)
			err(m, op, "takes no operand or both valid_row and valid_col");
		else if (op->num_operands == 2 && (t->u.tb.v_row != IR_DYN || t->u.tb.v_col != IR_DYN))
			err(m, op, "expects tile result to have dynamic validShape (?, ?) when "
				   "valid_row/valid_col operands are provided");
		bytes = tile_bytes(t);
		/* split: the cube's tile comes half from each vector core */
		if (bytes > 0 && split && on_cube)
			bytes /= 2;
	} else if (op->code == IR_OP_TPUSH_TO_AIC || op->code == IR_OP_TPUSH_TO_AIV) {
		t = op->operands[0].value->type;
		if (t->kind != IR_TYPE_TILE_BUF)
			err(m, op, "operand must be a !pto.tile_buf");
		bytes = tile_bytes(t);
		/* split: the cube's tile goes half to each vector core */
		if (bytes > 0 && split && on_cube)
			bytes /= 2;
	}
	if (!m->init) {
		err(m, op, "requires a pto.%s_initialize_pipe before it in its function",
		    on_cube ? "aic" : "aiv");
		return;
	}
	attr_int(m->init, "dir_mask", &dir);
	attr_int(m->init, "slot_size", &slot);
	if (!(dir & (to_cube ? 2 : 1)))
		err(m, op, "uses the %s direction, but the pipe has dir_mask = %lld",
		    to_cube ? "vector-to-cube (dir_mask bit 2)" : "cube-to-vector (dir_mask bit 1)",
		    (long long)dir);
	if (bytes > 0 && slot > 0 && bytes > slot)
		err(m, op, "moves %lld bytes per vector core, more than the slot size %lld",
		    (long long)bytes, (long long)slot);
	if (attr_bool(m->init, "nosplit", &nosplit)) {
		/* reported once, at the init (as PTOAS does) */
		if (((nosplit && split) || (!nosplit && !split)) && m->nosplit_reported != m->init) {
			m->nosplit_reported = m->init;
			if (nosplit)
				err(m, m->init, "'nosplit = true' conflicts with a user of split = %lld",
				    (long long)split);
			else
				err(m, m->init, "explicit 'nosplit = false' conflicts with downstream "
						"users that require split = 0");
		}
	}
}

struct split {
	int to_cube;
	int64_t s;
	const ir_op *where;
};

static int split_cb(ir_op *o, void *user)
{
	struct split *sp = user;
	int64_t v;
	int dir_cube = o->code == IR_OP_TPUSH_TO_AIC || o->code == IR_OP_TPOP_FROM_AIV;
	int dir_vec = o->code == IR_OP_TPUSH_TO_AIV || o->code == IR_OP_TPOP_FROM_AIC;
	if (((sp->to_cube && dir_cube) || (!sp->to_cube && dir_vec)) && attr_int(o, "split", &v)) {
		if (sp->s == -1) {
			sp->s = v;
			sp->where = o;
		} else if (sp->s != v && sp->s != -2) {
			sp->s = -2;
		}
	}
	return 0;
}

/* The split of every push/pop of one direction of the FIFO, in the function `f`: -1
 * none, -2 mixed, else the split. */
static void collect_split(const ir_op *root, int to_cube, int64_t *s, const ir_op **where)
{
	struct split sp = {to_cube, *s, *where};
	ir_walk((ir_op *)root, split_cb, &sp);
	*s = sp.s;
	*where = sp.where;
}

static void walk(mctx *m, const ir_op *root, int core);

static void check_op(mctx *m, const ir_op *op, int core)
{
	int64_t id;
	switch (op->code) {
	case IR_OP_SECTION_CUBE:
	case IR_OP_SECTION_VECTOR: {
		int c = op->code == IR_OP_SECTION_CUBE ? CORE_CUBE : CORE_VECTOR;
		if (core != CORE_ANY && core != c)
			err(m, op, "is inside a %s %s", core_name(core),
			    func_core(m->func) == core ? "function" : "section");
		walk(m, op, c);
		return;
	}
	case IR_OP_RESERVE_BUFFER: check_reserve(m, op, core); break;
	case IR_OP_IMPORT_RESERVED_BUFFER: check_import(m, op); break;
	case IR_OP_AIC_INITIALIZE_PIPE: case IR_OP_AIV_INITIALIZE_PIPE:
	case IR_OP_INITIALIZE_L2L_PIPE: case IR_OP_INITIALIZE_L2G2L_PIPE:
		check_init(m, op, core);
		break;
	case IR_OP_TPUSH_TO_AIV: case IR_OP_TPUSH_TO_AIC: case IR_OP_TPOP_FROM_AIC:
	case IR_OP_TPOP_FROM_AIV: case IR_OP_TFREE_FROM_AIC: case IR_OP_TFREE_FROM_AIV:
		check_fifo(m, op, core);
		break;
	case IR_OP_TPUSH: case IR_OP_TPOP: case IR_OP_TFREE: {
		const ir_op *d = def_op(op->operands[op->num_operands - 1].value);
		if (!d || (d->code != IR_OP_INITIALIZE_L2L_PIPE && d->code != IR_OP_INITIALIZE_L2G2L_PIPE))
			err(m, op, "pipe operand must be the result of pto.initialize_l2l_pipe or "
				   "pto.initialize_l2g2l_pipe");
		if (attr_int(op, "split", &id) && (id < 0 || id > 2))
			err(m, op, "split must be 0, 1 or 2, got %lld", (long long)id);
		break;
	}
	case IR_OP_SYNC_SET: case IR_OP_SYNC_WAIT: {
		/* cross-core flag ids: A2A3 FFTS 0-15; A5 0-31 (0-15 the first vector core,
		 * 16-31 the second) */
		int64_t hi = m->t && m->t->id == PTOC_TARGET_A5 ? 31 : 15;
		if (attr_int(op, "event_id", &id) && (id < 0 || id > hi))
			err(m, op, "event_id must be between 0 and %lld on %s, got %lld", (long long)hi,
			    m->t ? m->t->title : "A2/A3", (long long)id);
		break;
	}
	case IR_OP_DECLARE_TILE:
		if (op->num_results != 1 || op->results[0].type->kind != IR_TYPE_TILE_BUF)
			err(m, op, "result must be a !pto.tile_buf");
		break;
	case IR_OP_GET_BUF: case IR_OP_RLS_BUF:
		if (attr_int(op, "buf_id", &id) && (id < 0 || id > 31))
			err(m, op, "buf_id must be between 0 and 31, got %lld", (long long)id);
		break;
	default:
		break;
	}
	if (op->num_regions)
		walk(m, op, core);
}

static void walk(mctx *m, const ir_op *root, int core)
{
	unsigned i;
	const ir_block *b;
	const ir_op *o;
	for (i = 0; i < root->num_regions; i++)
		for (b = root->regions[i].first; b; b = b->next)
			for (o = b->first; o; o = o->next)
				check_op(m, o, core);
}

/* A FIFO direction's pushes and pops, across the two functions it joins, agree on the
 * split (PTOAS: "conflicting pipe split usage across peer pipe init ops"). */
static void check_split_pairs(mctx *m, const ir_op *f)
{
	const ir_op *imp = find_op(f, IR_OP_IMPORT_RESERVED_BUFFER, NULL);
	const ir_op *g, *init, *w1 = NULL, *w2 = NULL;
	int to_cube;
	if (!imp || func_core(f) == CORE_ANY)
		return;
	g = find_func(m, attr_str(imp, "peer_func", IR_ATTR_SYMBOL));
	if (!g || func_core(g) == CORE_ANY || func_core(g) == func_core(f))
		return;
	init = find_op(f, func_core(f) == CORE_CUBE ? IR_OP_AIC_INITIALIZE_PIPE
						    : IR_OP_AIV_INITIALIZE_PIPE, NULL);
	if (!init)
		return;
	for (to_cube = 0; to_cube < 2; to_cube++) {
		int64_t a = -1, b = -1;
		collect_split(f, to_cube, &a, &w1);
		collect_split(g, to_cube, &b, &w2);
		if (a == -2 || b == -2 || (a >= 0 && b >= 0 && a != b))
			err(m, init, "conflicting pipe split usage across peer pipe init ops "
				     "(%s: split = %lld here, %lld in the peer function)",
			    to_cube ? "vector to cube" : "cube to vector", (long long)a, (long long)b);
	}
}

unsigned ir_verify_mixed(ir_ctx *ctx, const ir_op *module, const struct target *t)
{
	mctx m;
	const ir_op *f;
	memset(&m, 0, sizeof m);
	m.ctx = ctx;
	m.t = t;
	m.module = module;
	if (module->code != IR_OP_MODULE || !module->num_regions || !module->regions[0].first)
		return 0;
	for (f = module->regions[0].first->first; f; f = f->next) {
		if (f->code != IR_OP_FUNC)
			continue;
		m.func = f;
		m.init = NULL;
		walk(&m, f, func_core(f));
		if (func_core(f) == CORE_CUBE)
			check_split_pairs(&m, f);
	}
	return m.errors;
}
