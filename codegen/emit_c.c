/* emit_c.c: the C emitter. Prints a lowered module (level 3, docs/lowered.md) as C99
 * calling libptort (runtime/include/ptort.h), and the `ptoc run` harness (emit_main).
 *
 * It decides nothing: every pto.i.* op becomes one runtime call with the fields the op
 * holds (attributes as literals, `dyn` fields as the C names of their operands), the
 * GM side of a DMA is built from the make_tensor_view / partition_view chain of its
 * operand, arith and scf become plain C, arith.constant values are written as
 * literals where they are used. Every instruction is preceded by a comment with its
 * source line. Values in C (docs/semantics.md §8):
 *   index and integers: int64_t (i1: int);
 *   floats: their bit pattern in a uint64_t (the runtime's scalar form);
 *   !pto.ptr P: `void *P` and `uint64_t P_elems`, the elements its buffer holds (so
 *     the DMA reports accesses beyond the buffer);
 *   !pto.tensor_view and !pto.partition_tensor_view: a ptort_view value (ptort.h
 *     section 3.6: GM pointer and elements, shape, strides, offsets, sizes), so
 *     yielding a view from scf.if / scf.for is an assignment; a DMA takes the
 *     ptort_gm_view that ptort_gm_view_init builds from it.
 * Functions (docs/semantics.md §8.3): no result is `void`, one result (not a
 * !pto.ptr) the C return value, else `struct NAME_results` (r0, r1, ...); func.call
 * never reaches emit-c (the inline pass) and is refused when it does; the harness
 * prints the entry's results (result_print).
 * scf.for results and iter_args share one mutable variable per result; scf.if
 * results are variables assigned by the yields of the branch taken; scf.while is
 * `for (;;)` over its two regions (emit_while).
 *
 * Decisions where the IR is silent: get_block_idx / get_block_num / get_subblock_idx /
 * get_subblock_num read the context (ptort_block_idx(ctx), ...: block 0 of 1 unless
 * the runtime launches many blocks, ptort.h section 7); synchronisation ops are
 * comments; integer arithmetic wraps modulo 2^64 (narrower integer types are computed
 * in 64 bits).
 *
 * The harness (emit_main) is a table of the entry kernel's arguments (name, element
 * bits, GM elements from the constant shapes and strides of its make_tensor_views, 0
 * when dynamic), a trampoline calling the kernel and `return ptort_main(...)`: the
 * command line, the files and the run are the runtime's (ptort.h section 6). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "ir/pipe.h"
#include "passes/pass.h"

#define EM_BUF 16384

#define EM_FILES 16

typedef struct em {
	ir_ctx *ctx;
	const struct target *t;
	ptoc_write_fn out;
	void *user;
	int werr;
	int oom;           /* a work allocation failed (also sets werr) */
	unsigned errors;
	/* C names of values: id = vmark - 1 */
	const char **names;
	ir_value **vals;
	unsigned nvals, capvals;
	const char **used; /* open-addressed set of interned names used in this function */
	unsigned capused, nused;
	int indent;
	/* the output, passed to `out` in pieces of up to EM_BUF bytes (flush) */
	size_t nbuf;
	char buf[EM_BUF];
	const ir_op *func;  /* the function being emitted */
	int adv;            /* it defers instructions (ptoc_adv; emit_defer.c) */
	const char *fname;  /* its C name */
	/* the source files of the module's locations (interned), each written once as
	 * `static const char ptoc_src_K[]` and named by it (ptoc_src) */
	const char *files[EM_FILES];
	unsigned nfiles;
} em;

/* ---- output ----------------------------------------------------------------------- */

/* The result of an emitter: the errors reported, after reporting a failed work
 * allocation (docs/architecture.md "Allocation failure"); 1 for a write error, which
 * the writer's owner reports. */
static void flush(em *e);

static unsigned finish(em *e, const ir_op *module)
{
	flush(e);
	if (e->oom && !e->errors) {
		ir_error(e->ctx, module->loc, "emit-c: out of memory");
		e->errors++;
	}
	return e->errors ? e->errors : e->werr ? 1 : 0;
}

/* Writes the buffered text (what put kept before any error) through `out`. */
static void flush(em *e)
{
	if (e->nbuf && !e->werr && e->out(e->user, e->buf, e->nbuf))
		e->werr = 1;
	e->nbuf = 0;
}

/* Appends n bytes to the output; nothing after an error. */
static void put(em *e, const char *s, size_t n)
{
	if (e->werr || e->errors)
		return;
	if (n > EM_BUF - e->nbuf) {
		flush(e);
		if (n >= EM_BUF) {
			if (!e->werr && e->out(e->user, s, n))
				e->werr = 1;
			return;
		}
	}
	memcpy(e->buf + e->nbuf, s, n);
	e->nbuf += n;
}

/* A NUL-terminated string. */
static void ps(em *e, const char *s)
{
	put(e, s, strlen(s));
}

/* ps for emit_defer.c */
static void put_text(void *user, const char *s)
{
	ps(user, s);
}

/* Decimal digits of x into the end of b[0..24) ; returns the first. */
static char *udigits(char *end, uint64_t x)
{
	do
		*--end = (char)('0' + x % 10);
	while (x /= 10);
	return end;
}

/* An unsigned integer in decimal (as %u / %llu). */
static void pu(em *e, uint64_t x)
{
	char b[24], *p = udigits(b + sizeof b, x);
	put(e, p, (size_t)(b + sizeof b - p));
}

/* A signed integer in decimal (as %lld). */
static void pd(em *e, int64_t x)
{
	char b[24], *p = udigits(b + sizeof b, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
	if (x < 0)
		*--p = '-';
	put(e, p, (size_t)(b + sizeof b - p));
}

/* `a` then `b`, interned, as ir_str_cat into cap (<= 256) bytes. */
static const char *intern2(em *e, size_t cap, const char *a, const char *b)
{
	char buf[256];
	ir_str_cat(buf, cap, a, b);
	return ir_intern(e->ctx, buf, strlen(buf));
}

static void pf(em *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void pf(em *e, const char *fmt, ...)
{
	char small[512], *p = small;
	va_list ap;
	int n;
	if (e->werr || e->errors)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof small) {
		p = malloc((size_t)n + 1);
		if (!p) {
			e->oom = e->werr = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	put(e, p, (size_t)n);
	if (p != small)
		free(p);
}

static void ind(em *e)
{
	int i;
	for (i = 0; i < e->indent; i++)
		put(e, "\t", 1);
}

static void err(em *e, const ir_op *op, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ir_error(e->ctx, op->loc, "emit-c: %s", msg);
	e->errors++;
}

/* ---- names ------------------------------------------------------------------------ */

static const char *const c_reserved[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double",
	"else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
	"register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
	"switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool",
	"_Complex", "_Imaginary", "ctx", "main", "memset", "memcpy", "strlen", "free",
	"malloc", "calloc", "exit", "abs", "printf", "fopen", "int64_t", "uint64_t", "uint32_t", "size_t",
	NULL};

static int is_ident(const char *s)
{
	const char *p;
	unsigned i;
	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	if (!strncmp(s, "ptoc_", 5) || !strncmp(s, "ptort_", 6) || !strncmp(s, "PTORT_", 6) ||
	    !strncmp(s, "__", 2))
		return 0;
	for (i = 0; c_reserved[i]; i++)
		if (*s == *c_reserved[i] && !strcmp(s, c_reserved[i]))
			return 0;
	return 1;
}

static size_t hash_str(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* Adds an interned name to the function's set; returns 0 when it was already there. */
static int name_claim(em *e, const char *s)
{
	size_t i;
	if (2 * (e->nused + 1) > e->capused) {
		unsigned cap = e->capused ? e->capused * 2 : 64, k;
		const char **nu = calloc(cap, sizeof *nu);
		if (!nu) {
			e->oom = e->werr = 1;
			return 1;
		}
		for (k = 0; k < e->capused; k++)
			if (e->used[k]) {
				i = hash_str(e->used[k]) & (cap - 1);
				while (nu[i])
					i = (i + 1) & (cap - 1);
				nu[i] = e->used[k];
			}
		free(e->used);
		e->used = nu;
		e->capused = cap;
	}
	i = hash_str(s) & (e->capused - 1);
	while (e->used[i]) {
		if (e->used[i] == s)
			return 0;
		i = (i + 1) & (e->capused - 1);
	}
	e->used[i] = s;
	e->nused++;
	return 1;
}

static void names_reset(em *e)
{
	unsigned i;
	for (i = 0; i < e->nvals; i++)
		e->vals[i]->vmark = 0;
	e->nvals = 0;
	if (e->used)
		memset(e->used, 0, e->capused * sizeof *e->used);
	e->nused = 0;
}

static const char *set_name(em *e, ir_value *v, const char *s)
{
	if (e->nvals == e->capvals) {
		unsigned cap = e->capvals ? e->capvals * 2 : 64;
		const char **nn = realloc(e->names, cap * sizeof *nn);
		ir_value **nv;
		if (!nn) {
			e->oom = e->werr = 1;
			return "ptoc_oom";
		}
		e->names = nn;
		nv = realloc(e->vals, cap * sizeof *nv);
		if (!nv) {
			e->oom = e->werr = 1;
			return "ptoc_oom";
		}
		e->vals = nv;
		e->capvals = cap;
	}
	e->names[e->nvals] = s;
	e->vals[e->nvals] = v;
	v->vmark = ++e->nvals;
	return s;
}

/* Gives `v` a fresh C name from its hint. */
static const char *name_value(em *e, ir_value *v)
{
	char buf[160], kw[112];
	const char *base = "v", *s;
	unsigned k = 0;
	if (v->name && strlen(v->name) < 100) {
		if (is_ident(v->name))
			base = v->name;
		else { /* C keywords and reserved names */
			snprintf(kw, sizeof kw, "%s_", v->name);
			base = is_ident(kw) ? kw : "v";
		}
	}
	s = ir_intern(e->ctx, base, strlen(base));
	while (!name_claim(e, s)) {
		snprintf(buf, sizeof buf, "%s_%u", base, ++k);
		s = ir_intern(e->ctx, buf, strlen(buf));
	}
	return set_name(e, v, s);
}

static int const_int(const ir_value *v, int64_t *out)
{
	const ir_attr *a;
	if (!v->def || v->def->code != IR_OP_CONSTANT)
		return 0;
	a = ir_op_get_attr(v->def, "value");
	if (!a || (a->kind != IR_ATTR_INT && a->kind != IR_ATTR_BOOL))
		return 0;
	*out = a->u.i.v;
	return 1;
}

/* A C literal of x into buf (at least 32 bytes): 5, -5, 5000000000LL, the minimum as
 * an expression; returns its length. */
static size_t lit(char *buf, int64_t x)
{
	static const char min[] = "(-9223372036854775807LL - 1)";
	char b[24], *p;
	size_t n;
	if (x == INT64_MIN) {
		memcpy(buf, min, sizeof min);
		return sizeof min - 1;
	}
	p = udigits(b + sizeof b, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
	if (x < 0)
		*--p = '-';
	n = (size_t)(b + sizeof b - p);
	memcpy(buf, p, n);
	if (x > 2147483647 || x < -2147483647)
		buf[n++] = 'L', buf[n++] = 'L';
	buf[n] = 0;
	return n;
}

/* The bit pattern of a float constant. */
static int const_float(const ir_value *v, uint64_t *bits)
{
	if (!v->def || v->def->code != IR_OP_CONSTANT || v->type->kind != IR_TYPE_FLOAT)
		return 0;
	return !ir_float_attr_bits(ir_op_get_attr(v->def, "value"), v->type, bits);
}

/* The C expression of a value: a literal for constants, else its name. */
static const char *vexpr(em *e, const ir_op *user, const ir_value *v)
{
	int64_t x;
	uint64_t bits;
	if (const_float(v, &bits)) {
		char buf[64];
		snprintf(buf, sizeof buf, "0x%llxull", (unsigned long long)bits);
		return ir_intern(e->ctx, buf, strlen(buf));
	}
	if (const_int(v, &x)) {
		char buf[64];
		return ir_intern(e->ctx, buf, lit(buf, x));
	}
	if (!v->vmark) {
		err(e, user, "operand defined by '%s' has no C value", v->def ? v->def->name : "?");
		return "0";
	}
	return e->names[v->vmark - 1];
}

/* The C type of a value of type `t` (a !pto.ptr is two variables: see ptr_elems);
 * NULL when the type has no C form. */
static const char *ctype(const ir_type *t)
{
	if (!t)
		return NULL;
	switch (t->kind) {
	case IR_TYPE_INDEX: return "int64_t";
	case IR_TYPE_INT: return t->u.i.bits == 1 ? "int" : "int64_t";
	case IR_TYPE_FLOAT: return "uint64_t";
	case IR_TYPE_PTR: return "void *";
	case IR_TYPE_TENSOR_VIEW: case IR_TYPE_PART_VIEW:
		return t->u.shaped.rank >= 1 && t->u.shaped.rank <= PTORT_GM_RANK ? "ptort_view" : NULL;
	default: return NULL;
	}
}

/* The C name of the element count of !pto.ptr value `v` (named NAME: NAME_elems). */
static const char *ptr_elems(em *e, const ir_op *user, const ir_value *v)
{
	return intern2(e, 160, vexpr(e, user, v), "_elems");
}

/* Names `v` (vexpr); a !pto.ptr also claims NAME_elems. */
static const char *name_any(em *e, ir_value *v)
{
	const char *n;
	char buf[180];
	unsigned k = 0;
	if (v->type->kind != IR_TYPE_PTR)
		return name_value(e, v);
	for (;;) {
		const char *base = v->name && strlen(v->name) < 100 && is_ident(v->name) ? v->name : "p";
		const char *ns, *es;
		if (k)
			snprintf(buf, sizeof buf, "%s_%u", base, k);
		else
			ir_str_cat(buf, sizeof buf, base, "");
		ns = ir_intern(e->ctx, buf, strlen(buf));
		strcat(buf, "_elems");
		es = ir_intern(e->ctx, buf, strlen(buf));
		k++;
		if (!name_claim(e, ns))
			continue;
		if (!name_claim(e, es))
			continue; /* ns stays claimed: harmless */
		n = set_name(e, v, ns);
		return n;
	}
}

/* ---- runtime enum spellings -------------------------------------------------------- */

static const char *const rt_type_names[PTORT_TYPE_COUNT] = {
#define RT_TYPE_NAME_(id, ...) "PTORT_" #id,
	PTORT_TYPE_LIST(RT_TYPE_NAME_)
#undef RT_TYPE_NAME_
};
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
		return ir_intern(e->ctx, buf, lit(buf, a->u.i.v));
	if ((k = dyn_index(op, name, fixed)) >= 0) {
		snprintf(buf, sizeof buf, "(%s)%s", cast, vexpr(e, op, op->operands[k].value));
		return ir_intern(e->ctx, buf, strlen(buf));
	}
	err(e, op, "'%s' needs the integer field '%s'", op->name, name);
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
		err(e, op, "'%s' needs the element type field '%s'", op->name, name);
		return "PTORT_F32";
	}
	return rt_type_names[t];
}

static const char *fmem(em *e, const ir_op *op)
{
	const ir_attr *a = ir_op_get_attr(op, "mem");
	ir_mem m;
	if (!a || a->kind != IR_ATTR_PTO || !a->u.pto.value ||
	    ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m) || m == IR_MEM_NONE) {
		err(e, op, "'%s' needs the field 'mem' (#pto.address_space<...>)", op->name);
		return "PTORT_MEM_UB";
	}
	return rt_mem_names[m - 1];
}

static const char *frmode(em *e, const ir_op *op)
{
	ptort_rmode rm;
	if (ir_attr_rmode(ir_op_get_attr(op, "rmode"), &rm) < 0) {
		err(e, op, "'%s' needs the field 'rmode' (#pto<round_mode ...>)", op->name);
		return "PTORT_RINT";
	}
	return rt_rmode_names[rm];
}

static const char *fsat(em *e, const ir_op *op)
{
	int s = ir_attr_satmode(ir_op_get_attr(op, "sat_mode"));
	if (s < 0) {
		err(e, op, "'%s' needs the field 'sat_mode' (#pto<saturation_mode ...>)", op->name);
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
		err(e, op, "'%s' needs the tile field '%s' (!pto.tile_buf<...>)", op->name, name);
		return;
	}
	tb = a->u.type;
	if (ir_type_to_elem(tb->u.tb.elem, &et) || tb->u.tb.mem == IR_MEM_NONE) {
		err(e, op, "'%s': tile '%s' has no runtime element type or memory", op->name, name);
		return;
	}
	addr = fint(e, op, ir_str_cat(an, sizeof an, name, "_addr"), fixed, "uint32_t");
	v_row = tb->u.tb.v_row == IR_DYN ? fint(e, op, ir_str_cat(vr, sizeof vr, name, "_v_row"), fixed,
						"uint32_t") : NULL;
	v_col = tb->u.tb.v_col == IR_DYN ? fint(e, op, ir_str_cat(vc, sizeof vc, name, "_v_col"), fixed,
						"uint32_t") : NULL;
	/* const ptort_tile VAR = {.mem = M, .type = T, .blayout = %u, .slayout = %u, .addr = A,
	 * .rows = %lld, .cols = %lld, .v_rows = R, .v_cols = C, .fractal = %lld}; */
	ind(e);
	ps(e, "const ptort_tile ");
	ps(e, var);
	ps(e, " = {.mem = ");
	ps(e, rt_mem_names[tb->u.tb.mem - 1]);
	ps(e, ", .type = ");
	ps(e, rt_type_names[et]);
	ps(e, ", .blayout = ");
	pu(e, (unsigned)tb->u.tb.blayout);
	ps(e, ", .slayout = ");
	pu(e, (unsigned)tb->u.tb.slayout);
	ps(e, ", .addr = ");
	ps(e, addr);
	ps(e, ", .rows = ");
	pd(e, tb->u.tb.rows);
	ps(e, ", .cols = ");
	pd(e, tb->u.tb.cols);
	ps(e, ", .v_rows = ");
	if (v_row)
		ps(e, v_row);
	else
		pd(e, tb->u.tb.v_row);
	ps(e, ", .v_cols = ");
	if (v_col)
		ps(e, v_col);
	else
		pd(e, tb->u.tb.v_col);
	ps(e, ", .fractal = ");
	pd(e, tb->u.tb.fractal);
	ps(e, "};\n");
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
			put(e, ", ", 2);
		if (v->type->kind != IR_TYPE_FLOAT && const_int(v, &x)) { /* as vexpr, not interned */
			char buf[64];
			put(e, buf, lit(buf, x));
		} else {
			ps(e, vexpr(e, user, v));
		}
	}
}

/* make_tensor_view / partition_view: `const ptort_view NAME = ...;` (when used). */
static void emit_view_op(em *e, ir_op *op)
{
	ir_value *r = &op->results[0];
	unsigned rank = r->type->u.shaped.rank;
	const char *name;
	if (!r->uses)
		return;
	if (!ctype(r->type) || op->num_operands != 1 + 2 * rank) {
		err(e, op, "view of rank %u: the runtime moves views of rank 1 to %d", rank,
		    PTORT_GM_RANK);
		return;
	}
	if (op->code == IR_OP_MAKE_TENSOR_VIEW && op->operands[0].value->type->kind != IR_TYPE_PTR) {
		err(e, op, "the tensor view must be made from a !pto.ptr");
		return;
	}
	if (op->code == IR_OP_PARTITION_VIEW &&
	    op->operands[0].value->type->u.shaped.rank != rank) {
		err(e, op, "a partition of a rank-%u view must have rank %u",
		    op->operands[0].value->type->u.shaped.rank,
		    op->operands[0].value->type->u.shaped.rank);
		return;
	}
	{
		const char *src = vexpr(e, op, op->operands[0].value);
		const char *elems = op->code == IR_OP_MAKE_TENSOR_VIEW
					    ? ptr_elems(e, op, op->operands[0].value) : NULL;
		name = name_value(e, r);
		ind(e);
		ps(e, "const ptort_view ");
		ps(e, name);
		if (op->code == IR_OP_MAKE_TENSOR_VIEW) {
			ps(e, " = ptort_view_tensor(");
			ps(e, src);
			ps(e, ", ");
			ps(e, elems);
			ps(e, ", ");
			pu(e, rank);
			ps(e, ", (const int64_t[]){");
		} else {
			ps(e, " = ptort_view_part(&");
			ps(e, src);
			ps(e, ", (const int64_t[]){");
		}
	}
	list_operands(e, op, op, 1, rank);
	ps(e, "}, (const int64_t[]){");
	list_operands(e, op, op, 1 + rank, rank);
	ps(e, "});\n");
	ind(e);
	ps(e, "(void)");
	ps(e, name);
	ps(e, ";\n");
}

/* Declares ptoc_g (the runtime's gm view) for the GM operand `pv` of a DMA and returns
 * the C expression of its GM pointer through *gm. */
static int emit_view(em *e, const ir_op *op, const ir_value *pv, const char **gm)
{
	ptort_type et;
	const char *v;
	if ((pv->type->kind != IR_TYPE_TENSOR_VIEW && pv->type->kind != IR_TYPE_PART_VIEW) ||
	    !ctype(pv->type) || ir_type_to_elem(pv->type->u.shaped.elem, &et)) {
		err(e, op, "the GM operand of '%s' must be a view of rank 1 to %d of a runtime "
		    "element type", op->name, PTORT_GM_RANK);
		return -1;
	}
	v = vexpr(e, op, pv);
	*gm = intern2(e, 200, v, ".gm");
	ind(e);
	ps(e, "ptort_gm_view ptoc_g;\n");
	ind(e);
	ps(e, "ptort_gm_view_init(&ptoc_g, ");
	ps(e, rt_type_names[et]);
	ps(e, ", &");
	ps(e, v);
	ps(e, ");\n");
	return 0;
}

/* ---- instructions -------------------------------------------------------------------- */

/* The comment before an instruction: NAME:LINE and the op's name, NAME the file's
 * last component (its whole path is written once, at ptoc_src_K). */
static void loc_comment(em *e, const ir_op *op)
{
	const char *f = op->loc.file ? op->loc.file : "?", *p;
	if (strrchr(f, '/') && strrchr(f, '/')[1])
		f = strrchr(f, '/') + 1;
	ind(e);
	put(e, "/* ", 3);
	for (p = f; *p; p++) /* never close the comment early */
		put(e, p[0] == '*' && p[1] == '/' ? "*_" : p, p[0] == '*' && p[1] == '/' ? 2 : 1);
	put(e, ":", 1);
	pu(e, op->loc.line);
	put(e, ": ", 2);
	ps(e, op->name);
	put(e, " */\n", 4);
}

static void put_cstr(em *e, const char *s);

/* A source file for ptort_ctx_locate: `ptoc_src_K` when the file is one of the
 * module's first EM_FILES, else its path as a literal. */
static void put_src(em *e, const char *file)
{
	unsigned k;
	for (k = 0; k < e->nfiles; k++)
		if (e->files[k] == file) {
			pf(e, "ptoc_src_%u", k);
			return;
		}
	put_cstr(e, file);
}

/* The files of the ops whose C locates them (every level-3 instruction and pto.trap),
 * so that each ptoc_src_K is used (an unused static array is a warning). */
static int collect_file(ir_op *op, void *user)
{
	em *e = user;
	unsigned k;
	if (!op->loc.file || (!ir_insn_get(op->code) && op->code != IR_OP_TRAP))
		return 0;
	for (k = 0; k < e->nfiles; k++)
		if (e->files[k] == op->loc.file)
			return 0;
	if (e->nfiles < EM_FILES)
		e->files[e->nfiles++] = op->loc.file;
	return 0;
}

/* `s` as a C string literal (quotes, backslashes and non-printing bytes escaped). */
static void put_cstr(em *e, const char *s)
{
	put(e, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			char b[2] = {'\\', (char)c};
			put(e, b, 2);
		} else if (c < 0x20 || c >= 0x7f || c == '?') { /* '?': no trigraphs */
			pf(e, "\\%03o", c);
		} else {
			put(e, (const char *)&c, 1);
		}
	}
	put(e, "\"", 1);
}

static void open_block(em *e)
{
	ind(e);
	pf(e, "{\n");
	e->indent++;
}

static void close_block(em *e)
{
	e->indent--;
	ind(e);
	pf(e, "}\n");
}

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
	err(e, op, "'%s' needs the field 'op' (an element operation: \"add\", ...)", op->name);
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
		err(e, op, "'%s' needs the field 'cmp' (#pto<cmp ...>)", op->name);
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
	err(e, op, "'%s' needs the field 'init' (\"zero\", \"bias\" or \"c\")", op->name);
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

static void canon_narrow(em *e, const ir_type *t, const char *var)
{
	if (!narrow_bits(t))
		return;
	ind(e);
	pf(e, "%s = ptort_sext((uint64_t)%s, %u);\n", var, var, narrow_bits(t));
}

/* ` ptort_sync_op(ctx, PTORT_PIPE_X);`: the pipe the instruction just called issued
 * to, for the sync sanitizer (docs/sync-check.md); S when the table names none. */
static void sync_op(em *e, const ir_op *op)
{
	int p = ir_op_pipe(op, e->t);
	pf(e, " ptort_sync_op(ctx, PTORT_%s);",
	   ptort_pipe_name(p >= 0 && p < PTORT_PIPE_COUNT ? (ptort_pipe)p : PTORT_PIPE_S));
}

/* One pto.i.* op as its runtime call (insns.def): the arguments in the table's order,
 * tile descriptors declared first in a block of their own. */
static void emit_insn(em *e, const ir_op *op, const ir_insndef *d)
{
	const char *args[32], *init = NULL, *res = NULL, *rty = NULL;
	unsigned n = 0, i, block = d->fixed > 0;
	for (i = 0; i < d->nfields; i++)
		block |= d->fields[i].kind == IR_IF_TILE;
	if (op->num_results == 1) {
		/* the value the call returns (pto.i.getval), declared before the block */
		rty = ctype(op->results[0].type);
		res = name_value(e, &op->results[0]);
		if (!rty) {
			err(e, op, "'%s' returns a value of a type C has no form for", op->name);
			return;
		}
		ind(e);
		pf(e, "%s %s;\n", rty, res);
	}
	if (block)
		open_block(e);
	if (d->fixed) { /* the GM view of a DMA */
		const char *gm = "0";
		if (emit_view(e, op, op->operands[0].value, &gm)) {
			close_block(e);
			return;
		}
		args[n++] = gm;
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
			if (f->req == IR_IF_INIT_REQ && (!init || !strcmp(init, "PTORT_MMAD_INIT_ZERO"))) {
				a = "0";
				break;
			}
			emit_tile(e, op, f->name, d->fixed, f->cvar);
			a = intern2(e, 64, "&", f->cvar);
			break;
		default: a = fint_kind(e, op, f, d->fixed); break;
		}
		args[n++] = a;
	}
	/* after each instruction, the first error (if any, not yet located) gets this op's
	 * location */
	ind(e);
	if (res)
		pf(e, "%s = (%s)", res, rty);
	if (e->adv && emit_deferred(op, e->t)) { /* the adversarial schedule's queue */
		pf(e, "if (ptoc_adv) ptoc_%s_defer(ctx", d->call + strlen("ptort_"));
		for (i = 0; i < n; i++) {
			put(e, ", ", 2);
			ps(e, args[i]);
		}
		ps(e, "); else ");
	}
	ps(e, d->call);
	ps(e, "(ctx");
	for (i = 0; i < n; i++) {
		put(e, ", ", 2);
		ps(e, args[i]);
	}
	put(e, ");", 2);
	if (op->loc.file) {
		ps(e, " ptort_ctx_locate(ctx, ");
		put_src(e, op->loc.file);
		put(e, ", ", 2);
		pu(e, op->loc.line);
		put(e, ", ", 2);
		pu(e, op->loc.col);
		put(e, ");", 2);
	}
	sync_op(e, op);
	put(e, "\n", 1);
	if (res)
		canon_narrow(e, op->results[0].type, res);
	if (block)
		close_block(e);
	if (res) {
		ind(e);
		pf(e, "(void)%s;\n", res);
	}
}

/* ` ptort_ctx_locate(ctx, FILE, LINE, COL);` after a runtime call of `op` */
static void locate(em *e, const ir_op *op)
{
	if (op->loc.file) {
		pf(e, " ptort_ctx_locate(ctx, ");
		put_src(e, op->loc.file);
		pf(e, ", %u, %u);", op->loc.line, op->loc.col);
	}
	pf(e, "\n");
}

/* locate, for a GM access of the scalar unit: then ` ptort_sync_op(ctx, PTORT_PIPE_S);` */
static void locate_s(em *e, const ir_op *op)
{
	if (op->loc.file) {
		pf(e, " ptort_ctx_locate(ctx, ");
		put_src(e, op->loc.file);
		pf(e, ", %u, %u);", op->loc.line, op->loc.col);
	}
	pf(e, " ptort_sync_op(ctx, PTORT_PIPE_S);\n");
}

/* A sync op as its runtime call (emit_sync.c decides which; docs/semantics.md §8.7), the
 * device intrinsic in a comment; an event-id array as a local int64_t array, its
 * indices checked by the runtime. */
static void emit_sync_op(em *e, ir_op *op)
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
			err(e, op, "an event-id array must be a !pto.eventid_array<N>");
			return;
		}
		ind(e);
		if (op->code == IR_OP_DECLARE_EVENTID_ARRAY) {
			pf(e, "int64_t %s[%lld] = {0}; /* %s */\n", name_value(e, &op->results[0]),
			   len, op->name);
			return;
		}
		n = vexpr(e, op, op->operands[0].value);
		if (op->code == IR_OP_EVENTID_ARRAY_GET)
			pf(e, "const int64_t %s = %s[ptort_sync_index(ctx, %s, %lld)];",
			   name_value(e, &op->results[0]), n, vexpr(e, op, op->operands[1].value), len);
		else
			pf(e, "%s[ptort_sync_index(ctx, %s, %lld)] = %s;", n,
			   vexpr(e, op, op->operands[1].value), len, vexpr(e, op, op->operands[2].value));
		locate(e, op);
		return;
	}
	ind(e);
	if (emit_sync_of(op, &s)) {
		pf(e, "/* %s: no pipe to sync */\n", op->name);
		return;
	}
	pf(e, "%s(ctx, PTORT_%s, ", s.call, ptort_pipe_name((ptort_pipe)s.src));
	if (strcmp(s.call, "ptort_sync_barrier")) {
		pf(e, "PTORT_%s, ", ptort_pipe_name((ptort_pipe)s.dst));
		if (s.dyn)
			pf(e, "%s, ", vexpr(e, op, op->operands[0].value));
		else
			pf(e, "%lld, ", (long long)s.event);
	}
	if (op->loc.file)
		put_cstr(e, op->loc.file);
	else
		pf(e, "0");
	pf(e, ", %u, %u); /* %s */\n", op->loc.line, op->loc.col, s.what);
}

/* addptr, load_scalar, store_scalar, get_tensor_view_dim (docs/semantics.md §8.6): one
 * runtime call each, which checks the access against the pointer's elements. */
static void emit_ptr_op(em *e, ir_op *op)
{
	ptort_type t = PTORT_F32;
	const ir_value *p = op->operands[0].value;
	const char *pn = vexpr(e, op, p), *off = vexpr(e, op, op->operands[1].value);
	if (op->code == IR_OP_GET_TENSOR_VIEW_DIM) {
		if (!op->results[0].uses)
			return;
		if (!ctype(p->type)) {
			err(e, op, "the view must have rank 1 to %d", PTORT_GM_RANK);
			return;
		}
		ind(e);
		pf(e, "const int64_t %s = ptort_view_dim(ctx, &%s, %s);", name_value(e, &op->results[0]),
		   pn, off);
		locate(e, op);
		return;
	}
	if (ir_type_to_elem(p->type->u.ptr.elem, &t)) {
		err(e, op, "the pointer's element type has no runtime type");
		return;
	}
	if (op->code == IR_OP_ADDPTR) {
		const char *n = name_any(e, &op->results[0]);
		ind(e);
		pf(e, "uint64_t %s_elems;\n", n);
		ind(e);
		pf(e, "void *const %s = ptort_addptr(ctx, %s, %s, %s, %s, &%s_elems);", n, pn,
		   ptr_elems(e, op, p), off, rt_type_names[t], n);
		locate(e, op);
		ind(e);
		pf(e, "(void)%s; (void)%s_elems;\n", n, n);
	} else if (op->code == IR_OP_LOAD_SCALAR) {
		const char *ty = ctype(op->results[0].type), *n = name_value(e, &op->results[0]);
		unsigned sx_bits = narrow_bits(op->results[0].type);
		ind(e);
		pf(e, "const %s %s = (%s)%sptort_load_scalar(ctx, %s, %s, %s, %s)", ty, n, ty,
		   sx_bits ? "ptort_sext(" : "", pn, ptr_elems(e, op, p), off, rt_type_names[t]);
		if (sx_bits)
			pf(e, ", %u)", sx_bits);
		put(e, ";", 1);
		locate_s(e, op);
		ind(e);
		pf(e, "(void)%s;\n", n);
	} else {
		ind(e);
		pf(e, "ptort_store_scalar(ctx, %s, %s, %s, %s, (uint64_t)%s);", pn, ptr_elems(e, op, p),
		   off, rt_type_names[t], vexpr(e, op, op->operands[2].value));
		locate_s(e, op);
	}
}

/* ---- arith and scf ------------------------------------------------------------------- */

static const char *const cmp_c[10][2] = {
	{"==", ""}, {"!=", ""}, {"<", ""}, {"<=", ""}, {">", ""}, {">=", ""},
	{"<", "u"}, {"<=", "u"}, {">", "u"}, {">=", "u"}};

static void emit_block(em *e, ir_block *b);

/* The width of an integer or index type (index: 64). */
static unsigned ibits(const ir_type *t)
{
	return t->kind == IR_TYPE_INT ? t->u.i.bits : 64;
}

/* Integer C expressions (docs/semantics.md §8.4): a value of N < 64 bits is held
 * sign-extended in an int64_t, i1 as 0 or 1 in an int. sx: the value as a signed
 * int64_t; ux: its N bits zero-extended in a uint64_t; canon: a uint64_t expression
 * reduced to the result type's representation. */
static const char *sx(em *e, const ir_op *op, const ir_value *v)
{
	char buf[200];
	const char *x = vexpr(e, op, v);
	if (ibits(v->type) != 1)
		return x;
	snprintf(buf, sizeof buf, "(-(int64_t)%s)", x);
	return ir_intern(e->ctx, buf, strlen(buf));
}

static const char *ux(em *e, const ir_op *op, const ir_value *v)
{
	char buf[200];
	unsigned n = ibits(v->type);
	const char *x = vexpr(e, op, v);
	if (n == 1 || n == 64)
		snprintf(buf, sizeof buf, "(uint64_t)%s", x);
	else
		snprintf(buf, sizeof buf, "((uint64_t)%s & 0x%llxull)", x,
			 (unsigned long long)((((uint64_t)1) << n) - 1));
	return ir_intern(e->ctx, buf, strlen(buf));
}

/* Prints `const TYPE NAME = canon(expr);` for result r. */
static void def_canon(em *e, const ir_value *r, const char *name, const char *expr)
{
	unsigned n = ibits(r->type);
	ind(e);
	if (n == 1)
		pf(e, "const int %s = (int)((%s) & 1u);\n", name, expr);
	else if (n == 64)
		pf(e, "const int64_t %s = (int64_t)(%s);\n", name, expr);
	else
		pf(e, "const int64_t %s = ptort_sext(%s, %u);\n", name, expr, n);
}

/* The runtime type of float type t for arith's float ops (f32, f16, bf16), else -1
 * after reporting. */
static int fty(em *e, const ir_op *op, const ir_type *t)
{
	ptort_type et;
	if (t->kind != IR_TYPE_FLOAT || ir_type_to_elem(t, &et) ||
	    (et != PTORT_F32 && et != PTORT_F16 && et != PTORT_BF16)) {
		char tn[64];
		err(e, op, "'%s' on '%s': emit-c computes float scalars of types f32, f16 and bf16 "
		    "(docs/semantics.md §8.4)", op->name, ir_type_str(t, tn, sizeof tn));
		return -1;
	}
	return (int)et;
}

/* The runtime integer type of N bits (signed or not) for conversions, else -1 after
 * reporting. */
static int ity(em *e, const ir_op *op, unsigned n, int is_signed)
{
	switch (n) {
	case 8: return is_signed ? PTORT_I8 : PTORT_U8;
	case 16: return is_signed ? PTORT_I16 : PTORT_U16;
	case 32: return is_signed ? PTORT_I32 : PTORT_U32;
	case 64: return is_signed ? PTORT_I64 : PTORT_U64;
	default:
		err(e, op, "'%s': emit-c converts between floats and integers of 8, 16, 32 or 64 "
		    "bits (docs/semantics.md §8.4)", op->name);
		return -1;
	}
}

static void emit_float_arith(em *e, ir_op *op, const char *name)
{
	const ir_value *r = &op->results[0], *va = op->operands[0].value;
	const char *a = vexpr(e, op, va), *b = op->num_operands > 1 ? vexpr(e, op, op->operands[1].value) : "0";
	const char *vop = NULL;
	char x[400];
	int t, t2;
	switch (op->code) {
	case IR_OP_ADDF: vop = "PTORT_VOP_ADD"; break;
	case IR_OP_SUBF: vop = "PTORT_VOP_SUB"; break;
	case IR_OP_MULF: vop = "PTORT_VOP_MUL"; break;
	case IR_OP_DIVF: vop = "PTORT_VOP_DIV"; break;
	case IR_OP_MAXIMUMF: vop = "PTORT_VOP_MAX"; break;
	case IR_OP_MINIMUMF: vop = "PTORT_VOP_MIN"; break;
	case IR_OP_NEGF: vop = "PTORT_VOP_NEG"; break;
	default: break;
	}
	if (vop || op->code == IR_OP_MAXNUMF || op->code == IR_OP_MINNUMF) {
		if ((t = fty(e, op, r->type)) < 0)
			return;
		ind(e);
		if (vop)
			pf(e, "const uint64_t %s = ptort_vop1(%s, %s, %s, %s);\n", name, vop,
			   rt_type_names[t], a, b);
		else
			pf(e, "const uint64_t %s = ptort_fnum(%s, %s, %s, %s);\n", name,
			   op->code == IR_OP_MAXNUMF ? "PTORT_VOP_MAX" : "PTORT_VOP_MIN", rt_type_names[t], a, b);
		return;
	}
	switch (op->code) {
	case IR_OP_CMPF: {
		const ir_attr *p = ir_op_get_attr(op, "predicate");
		if ((t = fty(e, op, va->type)) < 0)
			return;
		ind(e);
		pf(e, "const int %s = ptort_cmpf(%uu, %s, %s, %s);\n", name,
		   p && p->kind == IR_ATTR_INT ? (unsigned)p->u.i.v : 0u, rt_type_names[t], a, b);
		return;
	}
	case IR_OP_SITOFP: case IR_OP_UITOFP:
		if ((t = fty(e, op, r->type)) < 0)
			return;
		ind(e);
		pf(e, "const uint64_t %s = ptort_cvt1(%s, %s, %s, PTORT_RINT, PTORT_SAT_OFF);\n", name,
		   op->code == IR_OP_SITOFP ? "PTORT_I64" : "PTORT_U64", rt_type_names[t],
		   op->code == IR_OP_SITOFP ? sx(e, op, va) : ux(e, op, va));
		return;
	case IR_OP_FPTOSI: case IR_OP_FPTOUI:
		if ((t = fty(e, op, va->type)) < 0 ||
		    (t2 = ity(e, op, ibits(r->type), op->code == IR_OP_FPTOSI)) < 0)
			return;
		snprintf(x, sizeof x, "ptort_cvt1(%s, %s, %s, PTORT_TRUNC, PTORT_SAT_ON)",
			 rt_type_names[t], rt_type_names[t2], a);
		def_canon(e, r, name, x);
		return;
	case IR_OP_EXTF: case IR_OP_TRUNCF:
		if ((t = fty(e, op, va->type)) < 0 || (t2 = fty(e, op, r->type)) < 0)
			return;
		ind(e);
		pf(e, "const uint64_t %s = ptort_cvt1(%s, %s, %s, PTORT_RINT, PTORT_SAT_OFF);\n", name,
		   rt_type_names[t], rt_type_names[t2], a);
		return;
	case IR_OP_BITCAST:
		if (r->type->kind == IR_TYPE_FLOAT) {
			ind(e);
			pf(e, "const uint64_t %s = %s;\n", name,
			   va->type->kind == IR_TYPE_FLOAT ? a : ux(e, op, va));
		} else {
			snprintf(x, sizeof x, "(uint64_t)%s", a);
			def_canon(e, r, name, x);
		}
		return;
	default:
		err(e, op, "'%s' is not supported by emit-c", op->name);
	}
}

static void emit_arith(em *e, ir_op *op)
{
	const char *a, *b, *ty, *name, *o = NULL;
	ir_value *r = &op->results[0];
	char x[600];
	unsigned n;
	if (!r->uses)
		return; /* pure and unused */
	ty = ctype(r->type);
	if (!ty) {
		err(e, op, "unsupported result type of '%s' (integers, index and floats only)", op->name);
		return;
	}
	if ((op->code >= IR_OP_ADDF && op->code <= IR_OP_BITCAST) || op->code == IR_OP_CMPF) {
		emit_float_arith(e, op, name_value(e, r));
		return;
	}
	a = vexpr(e, op, op->operands[0].value);
	b = op->num_operands > 1 ? vexpr(e, op, op->operands[1].value) : NULL;
	n = ibits(r->type);
	switch (op->code) {
	case IR_OP_ADDI: o = "+"; break;
	case IR_OP_SUBI: o = "-"; break;
	case IR_OP_MULI: o = "*"; break;
	default: break;
	}
	if (o) { /* wraps: computed on uint64_t, reduced to the width */
		snprintf(x, sizeof x, "(uint64_t)%s %s (uint64_t)%s", a, o, b);
		def_canon(e, r, name_value(e, r), x);
		return;
	}
	switch (op->code) {
	case IR_OP_DIVSI: case IR_OP_REMSI: case IR_OP_CEILDIVSI: case IR_OP_FLOORDIVSI:
		snprintf(x, sizeof x, "(uint64_t)ptort_%s(%s, %s)",
			 op->code == IR_OP_DIVSI ? "sdiv" : op->code == IR_OP_REMSI ? "srem"
			 : op->code == IR_OP_CEILDIVSI ? "sceildiv" : "sfloordiv",
			 sx(e, op, op->operands[0].value), sx(e, op, op->operands[1].value));
		def_canon(e, r, name_value(e, r), x);
		return;
	case IR_OP_DIVUI: case IR_OP_REMUI: case IR_OP_CEILDIVUI:
		snprintf(x, sizeof x, "ptort_%s(%s, %s)",
			 op->code == IR_OP_DIVUI ? "udiv" : op->code == IR_OP_REMUI ? "urem" : "uceildiv",
			 ux(e, op, op->operands[0].value), ux(e, op, op->operands[1].value));
		def_canon(e, r, name_value(e, r), x);
		return;
	case IR_OP_SHLI: case IR_OP_SHRUI: case IR_OP_SHRSI: {
		const char *amt = ux(e, op, op->operands[1].value);
		if (op->code == IR_OP_SHLI)
			snprintf(x, sizeof x, "%s >= %u ? 0 : %s << %s", amt, n,
				 ux(e, op, op->operands[0].value), amt);
		else if (op->code == IR_OP_SHRUI)
			snprintf(x, sizeof x, "%s >= %u ? 0 : %s >> %s", amt, n,
				 ux(e, op, op->operands[0].value), amt);
		else
			snprintf(x, sizeof x, "(uint64_t)ptort_sar(%s, %s >= %u ? %u : (unsigned)%s)",
				 sx(e, op, op->operands[0].value), amt, n, n - 1, amt);
		def_canon(e, r, name_value(e, r), x);
		return;
	}
	case IR_OP_MINUI: case IR_OP_MAXUI: case IR_OP_MINSI: case IR_OP_MAXSI: {
		/* compared as unsigned or signed N bits; the result is an operand as held */
		int u = op->code == IR_OP_MINUI || op->code == IR_OP_MAXUI;
		const char *ka = (u ? ux : sx)(e, op, op->operands[0].value),
			   *kb = (u ? ux : sx)(e, op, op->operands[1].value);
		name = name_value(e, r);
		ind(e);
		pf(e, "const %s %s = %s %s %s ? %s : %s;\n", ty, name, ka,
		   op->code == IR_OP_MINUI || op->code == IR_OP_MINSI ? "<" : ">", kb, a, b);
		return;
	}
	case IR_OP_EXTSI:
		name = name_value(e, r);
		ind(e);
		pf(e, "const int64_t %s = %s;\n", name, sx(e, op, op->operands[0].value));
		return;
	case IR_OP_EXTUI: case IR_OP_INDEX_CASTUI:
		snprintf(x, sizeof x, "%s", ux(e, op, op->operands[0].value));
		def_canon(e, r, name_value(e, r), x);
		return;
	case IR_OP_TRUNCI: case IR_OP_INDEX_CAST:
		snprintf(x, sizeof x, "(uint64_t)%s", sx(e, op, op->operands[0].value));
		def_canon(e, r, name_value(e, r), x);
		return;
	default:
		break;
	}
	name = name_value(e, r);
	ind(e);
	switch (op->code) {
	case IR_OP_ANDI: pf(e, "const %s %s = %s & %s;\n", ty, name, a, b); break;
	case IR_OP_ORI: pf(e, "const %s %s = %s | %s;\n", ty, name, a, b); break;
	case IR_OP_XORI: pf(e, "const %s %s = %s ^ %s;\n", ty, name, a, b); break;
	case IR_OP_SELECT:
		pf(e, "const %s %s = %s ? %s : %s;\n", ty, name, a, b,
		   vexpr(e, op, op->operands[2].value));
		break;
	case IR_OP_CMPI: {
		const ir_attr *p = ir_op_get_attr(op, "predicate");
		int k = p && p->kind == IR_ATTR_INT && p->u.i.v >= 0 && p->u.i.v < 10 ? (int)p->u.i.v : 0;
		const ir_value *va = op->operands[0].value, *vb = op->operands[1].value;
		if (cmp_c[k][1][0])
			pf(e, "const int %s = %s %s %s;\n", name, ux(e, op, va), cmp_c[k][0], ux(e, op, vb));
		else
			pf(e, "const int %s = %s %s %s;\n", name, sx(e, op, va), cmp_c[k][0], sx(e, op, vb));
		break;
	}
	default:
		err(e, op, "'%s' is not supported by emit-c", op->name);
	}
}

/* Checks that every result of scf op `op` has a C form. */
static int check_results(em *e, ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_results; i++)
		if (!ctype(op->results[i].type)) {
			err(e, op, "result #%u of '%s' has a type without a C value (tiles must be "
			    "forwarded before emit-c: docs/semantics.md §8)", i, op->name);
			return -1;
		}
	return 0;
}

/* Declares mutable variable `v` initialised from `init` (NULL: zero). */
static void declare_var(em *e, const ir_op *user, ir_value *v, const ir_value *init)
{
	const char *ty = ctype(v->type), *n, *iv = init ? vexpr(e, user, init) : NULL;
	const char *ie = init && v->type->kind == IR_TYPE_PTR ? ptr_elems(e, user, init) : NULL;
	n = name_any(e, v);
	ind(e);
	if (v->type->kind == IR_TYPE_PTR) {
		pf(e, "void *%s = %s;\n", n, iv ? iv : "0");
		ind(e);
		pf(e, "uint64_t %s_elems = %s;\n", n, ie ? ie : "0");
	} else if (!strcmp(ty, "ptort_view")) {
		if (iv)
			pf(e, "ptort_view %s = %s;\n", n, iv);
		else
			pf(e, "ptort_view %s;\n", n);
		if (!iv) {
			ind(e);
			pf(e, "memset(&%s, 0, sizeof %s);\n", n, n);
		}
	} else {
		pf(e, "%s %s = %s;\n", ty, n, iv ? iv : "0");
	}
}

/* `(void)R;` for every result no op uses (a C variable set and never read). */
static void void_results(em *e, ir_op *op)
{
	unsigned i;
	for (i = 0; i < op->num_results; i++) {
		if (ir_value_num_uses(&op->results[i]))
			continue;
		ind(e);
		pf(e, "(void)%s;\n", e->names[op->results[i].vmark - 1]);
		if (op->results[i].type->kind == IR_TYPE_PTR) {
			ind(e);
			pf(e, "(void)%s_elems;\n", e->names[op->results[i].vmark - 1]);
		}
	}
}

/* `dst = src;` for C names (a !pto.ptr also copies NAME_elems). */
static void assign(em *e, const ir_type *t, const char *dst, const char *src, const char *src_elems)
{
	ind(e);
	pf(e, "%s = %s;\n", dst, src);
	if (t->kind == IR_TYPE_PTR) {
		ind(e);
		pf(e, "%s_elems = %s;\n", dst, src_elems);
	}
}

/* The C variable a yield writes its operand #i into: the result of scf.for / scf.if,
 * the before region's argument #i of scf.while. */
static const char *yield_target(em *e, const ir_op *op, unsigned i)
{
	const ir_op *p = op->block->region->parent;
	const ir_value *t = p->code == IR_OP_SCF_WHILE ? p->regions[0].first->args[i]
						       : &p->results[i];
	return e->names[t->vmark - 1];
}

static void emit_yield(em *e, ir_op *op)
{
	unsigned i;
	char tmp[32], tmpe[40];
	if (!op->num_operands)
		return;
	if (op->num_operands == 1) {
		ir_value *v = op->operands[0].value;
		assign(e, v->type, yield_target(e, op, 0), vexpr(e, op, v),
		       v->type->kind == IR_TYPE_PTR ? ptr_elems(e, op, v) : NULL);
		return;
	}
	/* all values read before any is written: a yield may swap iter args */
	open_block(e);
	for (i = 0; i < op->num_operands; i++) {
		ir_value *v = op->operands[i].value;
		ind(e);
		if (v->type->kind == IR_TYPE_PTR) {
			pf(e, "void *const ptoc_y%u = %s;\n", i, vexpr(e, op, v));
			ind(e);
			pf(e, "const uint64_t ptoc_y%u_elems = %s;\n", i, ptr_elems(e, op, v));
		} else {
			pf(e, "const %s ptoc_y%u = %s;\n", ctype(v->type), i, vexpr(e, op, v));
		}
	}
	for (i = 0; i < op->num_operands; i++) {
		snprintf(tmp, sizeof tmp, "ptoc_y%u", i);
		snprintf(tmpe, sizeof tmpe, "ptoc_y%u_elems", i);
		assign(e, op->operands[i].value->type, yield_target(e, op, i), tmp, tmpe);
	}
	close_block(e);
}

/* scf.condition: the values passed on go into the result variables (which the after
 * region's arguments share), then the loop ends when the condition is false. The
 * values read here are never result variables (those are not visible in the before
 * region), so the assignments need no staging. */
static void emit_condition(em *e, ir_op *op)
{
	ir_op *p = op->block->region->parent;
	unsigned i;
	for (i = 1; i < op->num_operands; i++) {
		ir_value *v = op->operands[i].value;
		assign(e, v->type, e->names[p->results[i - 1].vmark - 1], vexpr(e, op, v),
		       v->type->kind == IR_TYPE_PTR ? ptr_elems(e, op, v) : NULL);
	}
	ind(e);
	pf(e, "if (!%s)\n", vexpr(e, op, op->operands[0].value));
	ind(e);
	pf(e, "\tbreak;\n");
}

/* scf.while (docs/semantics.md §8.1): the before region's arguments are variables
 * initialised from the operands, which the after region's scf.yield assigns; the
 * results are variables that scf.condition assigns and the after region's arguments
 * name; `for (;;)` runs the before region, leaves on a false condition, then runs the
 * after region. */
static void emit_while(em *e, ir_op *op)
{
	ir_block *b = op->regions[0].first, *a = op->num_regions > 1 ? op->regions[1].first : NULL;
	unsigned i;
	if (!b || !a || b->num_args != op->num_operands || a->num_args != op->num_results ||
	    check_results(e, op))
		return;
	for (i = 0; i < b->num_args; i++)
		if (!ctype(b->args[i]->type)) {
			err(e, op, "initial value #%u of 'scf.while' has a type without a C value", i);
			return;
		}
	for (i = 0; i < b->num_args; i++)
		declare_var(e, op, b->args[i], op->operands[i].value);
	for (i = 0; i < op->num_results; i++)
		declare_var(e, op, &op->results[i], NULL);
	for (i = 0; i < a->num_args; i++)
		set_name(e, a->args[i], e->names[op->results[i].vmark - 1]);
	ind(e);
	pf(e, "for (;;) {\n");
	e->indent++;
	emit_block(e, b);
	emit_block(e, a);
	close_block(e);
	for (i = 0; i < b->num_args; i++) {
		ind(e);
		pf(e, "(void)%s;\n", e->names[b->args[i]->vmark - 1]);
	}
	void_results(e, op);
}

static void emit_for(em *e, ir_op *op)
{
	ir_block *b = op->regions[0].first;
	const char *iv, *ty;
	unsigned i;
	if (!b || b->num_args != op->num_results + 1 || check_results(e, op))
		return;
	for (i = 0; i < op->num_results; i++)
		declare_var(e, op, &op->results[i], op->operands[3 + i].value);
	for (i = 0; i < op->num_results; i++) /* iter args live in the result variables */
		set_name(e, b->args[1 + i], e->names[op->results[i].vmark - 1]);
	ty = ctype(b->args[0]->type);
	iv = name_value(e, b->args[0]);
	ind(e);
	pf(e, "for (%s %s = %s; %s < %s; %s += %s) {\n", ty ? ty : "int64_t", iv,
	   vexpr(e, op, op->operands[0].value), iv, vexpr(e, op, op->operands[1].value), iv,
	   vexpr(e, op, op->operands[2].value));
	e->indent++;
	emit_block(e, b);
	close_block(e);
	void_results(e, op);
}

static void emit_if(em *e, ir_op *op)
{
	unsigned i;
	if (check_results(e, op))
		return;
	for (i = 0; i < op->num_results; i++)
		declare_var(e, op, &op->results[i], NULL);
	ind(e);
	pf(e, "if (%s) {\n", vexpr(e, op, op->operands[0].value));
	e->indent++;
	if (op->regions[0].first)
		emit_block(e, op->regions[0].first);
	e->indent--;
	if (op->num_regions > 1 && op->regions[1].first) {
		ind(e);
		pf(e, "} else {\n");
		e->indent++;
		emit_block(e, op->regions[1].first);
		e->indent--;
	}
	ind(e);
	pf(e, "}\n");
	void_results(e, op);
}

/* The function type of func.func `f`, or NULL. */
static const ir_type *fn_type(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "function_type");
	return a && a->kind == IR_ATTR_TYPE && a->u.type && a->u.type->kind == IR_TYPE_FUNC
		       ? a->u.type
		       : NULL;
}

/* Whether function type `ft` returns its one result as the C return value (else its
 * results are the fields of struct NAME_results). */
static int ret_single(const ir_type *ft)
{
	return ft->u.fn.nout == 1 && ft->u.fn.out[0]->kind != IR_TYPE_PTR;
}

/* func.return (docs/semantics.md §8.3): no value: `return;` unless it ends the
 * function; one result (not a !pto.ptr): `return X;`; else the struct NAME_results
 * filled field by field (r0, r1, ...; a pointer also rN_elems). */
static void emit_return(em *e, ir_op *op)
{
	unsigned i;
	/* the pipes finish the kernel's work (the adversarial schedule's queues) */
	ind(e);
	pf(e, "ptort_sync_drain(ctx);\n");
	if (!op->num_operands) {
		if (op->next || op->block->region->parent->code != IR_OP_FUNC) {
			ind(e);
			pf(e, "return;\n");
		}
		return;
	}
	if (op->num_operands == 1 && op->operands[0].value->type->kind != IR_TYPE_PTR) {
		ind(e);
		pf(e, "return %s;\n", vexpr(e, op, op->operands[0].value));
		return;
	}
	open_block(e);
	ind(e);
	pf(e, "%s_results ptoc_r;\n", e->fname);
	for (i = 0; i < op->num_operands; i++) {
		const ir_value *v = op->operands[i].value;
		ind(e);
		pf(e, "ptoc_r.r%u = %s;\n", i, vexpr(e, op, v));
		if (v->type->kind == IR_TYPE_PTR) {
			ind(e);
			pf(e, "ptoc_r.r%u_elems = %s;\n", i, ptr_elems(e, op, v));
		}
	}
	ind(e);
	pf(e, "return ptoc_r;\n");
	close_block(e);
}

/* A mixed cube/vector op (docs/semantics.md §8.9) as its runtime call (ptort.h section
 * 10), the op's location passed for the deadlock report: a section is an `if` on the
 * core; a pipe init gives the FIFO depths mixed.c (passes/) wrote; the buffer handles
 * are only comments. */
static void put_loc_args(em *e, const ir_op *op)
{
	if (op->loc.file)
		put_src(e, op->loc.file);
	else
		pf(e, "0");
	pf(e, ", %u, %u);", op->loc.line, op->loc.col);
}

static void emit_mixed_op(em *e, ir_op *op)
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
	ind(e);
	switch (op->code) {
	case IR_OP_SECTION_CUBE: case IR_OP_SECTION_VECTOR:
		pf(e, "if (ptort_core_in(ctx, %s, %d)) { /* %s */\n",
		   op->code == IR_OP_SECTION_CUBE ? "PTORT_CORE_CUBE" : "PTORT_CORE_VECTOR",
		   op->code == IR_OP_SECTION_VECTOR && emit_vector_only0(op), op->name);
		e->indent++;
		if (op->regions[0].first)
			emit_block(e, op->regions[0].first);
		e->indent--;
		ind(e);
		pf(e, "}\n");
		return;
	case IR_OP_RESERVE_BUFFER: case IR_OP_IMPORT_RESERVED_BUFFER:
		pf(e, "/* %s: the FIFO slots live in the cluster (ptort_pipe_init) */\n", op->name);
		return;
	case IR_OP_SYNC_SET: case IR_OP_SYNC_WAIT:
		pf(e, "ptort_xsync_%s(ctx, %d, %lld, ", op->code == IR_OP_SYNC_SET ? "set" : "wait",
		   e->t->id == PTOC_TARGET_A5, (long long)v[0]);
		break;
	case IR_OP_TFREE_FROM_AIC: case IR_OP_TFREE_FROM_AIV: case IR_OP_TFREE:
		pf(e, "ptort_tfree(ctx, %lldu, ", (long long)v[0]);
		break;
	case IR_OP_I_TPUSH: case IR_OP_I_TPOP: {
		int push = op->code == IR_OP_I_TPUSH;
		pf(e, "/* %s */\n", op->name);
		open_block(e);
		emit_tile(e, op, push ? "src" : "dst", 0, "ptoc_t");
		ind(e);
		pf(e, "ptort_%s_at(ctx, &ptoc_t, %lldu, ", push ? "tpush" : "tpop", (long long)v[0]);
		put_loc_args(e, op);
		locate(e, op);
		close_block(e);
		return;
	}
	default: { /* the pipe inits */
		const ir_value *gm = NULL;
		if ((op->code == IR_OP_AIC_INITIALIZE_PIPE || op->code == IR_OP_AIV_INITIALIZE_PIPE) &&
		    op->num_operands == 3)
			gm = op->operands[0].value;
		else if (op->code == IR_OP_INITIALIZE_L2G2L_PIPE)
			gm = op->operands[0].value;
		if (gm && gm->type->kind != IR_TYPE_PTR)
			gm = NULL;
		pf(e, "ptort_pipe_init(ctx, %lldu, %lldu, %lldu, %lldu, ", (long long)v[0],
		   (long long)v[1], (long long)v[2], (long long)v[3]);
		if (gm) {
			ptort_type t = PTORT_F32;
			ir_type_to_elem(gm->type->u.ptr.elem, &t);
			pf(e, "%s, %s * %uu, ", vexpr(e, op, gm), ptr_elems(e, op, gm),
			   ptort_type_bits(t) / 8 ? ptort_type_bits(t) / 8 : 1);
		} else {
			pf(e, "0, 0, ");
		}
		break;
	}
	}
	put_loc_args(e, op);
	locate(e, op);
}

static void emit_op(em *e, ir_op *op)
{
	switch (op->code) {
	case IR_OP_CONSTANT: {
		const ir_attr *a = ir_op_get_attr(op, "value");
		uint64_t bits;
		if (op->results[0].type->kind == IR_TYPE_FLOAT) {
			if (ir_float_attr_bits(a, op->results[0].type, &bits))
				err(e, op, "float constants of type f64, f32, f16 and bf16 only");
		} else if (!a || (a->kind != IR_ATTR_INT && a->kind != IR_ATTR_BOOL) ||
			   !ctype(op->results[0].type)) {
			err(e, op, "only integer, index and float constants are supported");
		}
		return;
	}
	case IR_OP_ADDI: case IR_OP_SUBI: case IR_OP_MULI: case IR_OP_DIVSI: case IR_OP_REMSI:
	case IR_OP_MINSI: case IR_OP_MAXSI: case IR_OP_ANDI: case IR_OP_ORI: case IR_OP_XORI:
	case IR_OP_CMPI: case IR_OP_SELECT: case IR_OP_INDEX_CAST:
		emit_arith(e, op);
		return;
	case IR_OP_SHLI: case IR_OP_SHRSI: case IR_OP_SHRUI: case IR_OP_DIVUI: case IR_OP_REMUI:
	case IR_OP_CEILDIVSI: case IR_OP_FLOORDIVSI: case IR_OP_CEILDIVUI: case IR_OP_MINUI:
	case IR_OP_MAXUI: case IR_OP_EXTSI: case IR_OP_EXTUI: case IR_OP_TRUNCI:
	case IR_OP_INDEX_CASTUI: case IR_OP_ADDF: case IR_OP_SUBF: case IR_OP_MULF: case IR_OP_DIVF:
	case IR_OP_MAXIMUMF: case IR_OP_MINIMUMF: case IR_OP_MAXNUMF: case IR_OP_MINNUMF:
	case IR_OP_NEGF: case IR_OP_CMPF: case IR_OP_SITOFP: case IR_OP_UITOFP: case IR_OP_FPTOSI:
	case IR_OP_FPTOUI: case IR_OP_EXTF: case IR_OP_TRUNCF: case IR_OP_BITCAST:
		emit_arith(e, op);
		return;
	case IR_OP_GET_BLOCK_IDX: case IR_OP_GET_SUBBLOCK_IDX:
	case IR_OP_GET_BLOCK_NUM: case IR_OP_GET_SUBBLOCK_NUM:
		if (op->results[0].uses) {
			const char *ty = ctype(op->results[0].type);
			const char *n = name_value(e, &op->results[0]);
			const char *fn = op->code == IR_OP_GET_BLOCK_IDX ? "ptort_block_idx"
					 : op->code == IR_OP_GET_BLOCK_NUM ? "ptort_block_num"
					 : op->code == IR_OP_GET_SUBBLOCK_IDX ? "ptort_subblock_idx"
									       : "ptort_subblock_num";
			ind(e);
			pf(e, "const %s %s = (%s)%s(ctx); /* %s */\n", ty ? ty : "int64_t", n,
			   ty ? ty : "int64_t", fn, op->name);
		}
		return;
	case IR_OP_MAKE_TENSOR_VIEW: case IR_OP_PARTITION_VIEW:
		emit_view_op(e, op);
		return;
	case IR_OP_ADDPTR: case IR_OP_LOAD_SCALAR: case IR_OP_STORE_SCALAR:
	case IR_OP_GET_TENSOR_VIEW_DIM:
		emit_ptr_op(e, op);
		return;
	case IR_OP_SET_FLAG: case IR_OP_WAIT_FLAG: case IR_OP_BARRIER:
	case IR_OP_RECORD_EVENT: case IR_OP_WAIT_EVENT: case IR_OP_BARRIER_SYNC:
	case IR_OP_SET_FLAG_DYN: case IR_OP_WAIT_FLAG_DYN:
	case IR_OP_DECLARE_EVENTID_ARRAY: case IR_OP_EVENTID_ARRAY_GET: case IR_OP_EVENTID_ARRAY_SET:
		emit_sync_op(e, op);
		return;
	case IR_OP_GET_BUF: case IR_OP_RLS_BUF:
		ind(e);
		pf(e, "/* %s: no-op on the CPU */\n", op->name);
		return;
	case IR_OP_SYNC_SET: case IR_OP_SYNC_WAIT: case IR_OP_SECTION_CUBE: case IR_OP_SECTION_VECTOR:
	case IR_OP_RESERVE_BUFFER: case IR_OP_IMPORT_RESERVED_BUFFER: case IR_OP_AIC_INITIALIZE_PIPE:
	case IR_OP_AIV_INITIALIZE_PIPE: case IR_OP_INITIALIZE_L2L_PIPE: case IR_OP_INITIALIZE_L2G2L_PIPE:
	case IR_OP_TFREE_FROM_AIC: case IR_OP_TFREE_FROM_AIV: case IR_OP_TFREE: case IR_OP_I_TPUSH:
	case IR_OP_I_TPOP:
		emit_mixed_op(e, op);
		return;
	case IR_OP_TRAP:
		/* a located runtime error; the function stops here (docs/semantics.md §8.5) */
		ind(e);
		pf(e, "ptort_trap(ctx);");
		if (op->loc.file) {
			pf(e, " ptort_ctx_locate(ctx, ");
			put_src(e, op->loc.file);
			pf(e, ", %u, %u);", op->loc.line, op->loc.col);
		}
		pf(e, " ptort_sync_drain(ctx); return;\n");
		return;
	case IR_OP_SCF_FOR:
		emit_for(e, op);
		return;
	case IR_OP_SCF_IF:
		emit_if(e, op);
		return;
	case IR_OP_SCF_YIELD:
		emit_yield(e, op);
		return;
	case IR_OP_SCF_WHILE:
		emit_while(e, op);
		return;
	case IR_OP_SCF_CONDITION:
		emit_condition(e, op);
		return;
	case IR_OP_RETURN:
		emit_return(e, op);
		return;
	case IR_OP_CALL:
		err(e, op, "'func.call' reached emit-c: calls are inlined by the 'inline' pass "
		    "(the default pipeline's first; docs/semantics.md §8.3)");
		return;
	default:
		break;
	}
	if (!ir_insn_get(op->code)) {
		err(e, op, "'%s' is not lowered to level-3 instructions (emit-c needs the default "
		    "pipeline through split-repeats)", op->name);
		return;
	}
	loc_comment(e, op);
	if (emit_step_barrier(op, e->t) >= 0) { /* the op orders its own steps */
		const char *pn = ptort_pipe_name((ptort_pipe)emit_step_barrier(op, e->t));
		ind(e);
		pf(e, "ptort_sync_barrier(ctx, PTORT_%s, ", pn);
		put_src(e, op->loc.file);
		pf(e, ", %u, %u); /* pipe_barrier(%s) between two steps of the op */\n", op->loc.line,
		   op->loc.col, pn);
	}
	emit_insn(e, op, ir_insn_get(op->code));
}

static void emit_block(em *e, ir_block *b)
{
	ir_op *op;
	for (op = b->first; op && !e->errors && !e->werr; op = op->next)
		emit_op(e, op);
}

/* ---- functions ----------------------------------------------------------------------- */

static const char *func_name(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "sym_name");
	return a && a->kind == IR_ATTR_STRING ? a->u.str.s : NULL;
}

/* Names the arguments and prints "ptort_ctx *ctx, void *a, uint64_t a_elems, ...". */
static int emit_params(em *e, ir_op *f)
{
	ir_block *b = f->regions[0].first;
	unsigned i;
	ps(e, "ptort_ctx *ctx");
	for (i = 0; b && i < b->num_args; i++) {
		ir_value *v = b->args[i];
		const char *n, *ty = ctype(v->type);
		if (!ty) {
			err(e, f, "argument %u: unsupported type (!pto.ptr, views, integers, index and "
			    "floats only)", i);
			return -1;
		}
		n = name_any(e, v);
		if (v->type->kind == IR_TYPE_PTR) {
			ps(e, ", void *");
			ps(e, n);
			ps(e, ", uint64_t ");
			ps(e, n);
			ps(e, "_elems");
		} else {
			put(e, ", ", 2);
			ps(e, ty);
			put(e, " ", 1);
			ps(e, n);
		}
	}
	return 0;
}

/* Prints the C return type of function `f` (named `name`) and a space; with `decl`,
 * first the typedef of struct NAME_results when it has one (several results or a
 * !pto.ptr: docs/semantics.md §8.3). */
static int emit_ret_type(em *e, ir_op *f, const char *name, int decl)
{
	const ir_type *ft = fn_type(f);
	unsigned i;
	if (!ft || !ft->u.fn.nout) {
		pf(e, "void ");
		return 0;
	}
	for (i = 0; i < ft->u.fn.nout; i++)
		if (!ctype(ft->u.fn.out[i])) {
			err(e, f, "result %u: unsupported type (!pto.ptr, views, integers, index and "
			    "floats only; tiles are returned only to callers, which inline the call)", i);
			return -1;
		}
	if (ret_single(ft)) {
		pf(e, "%s ", ctype(ft->u.fn.out[0]));
		return 0;
	}
	if (decl) {
		pf(e, "typedef struct %s_results {\n", name);
		for (i = 0; i < ft->u.fn.nout; i++) {
			if (ft->u.fn.out[i]->kind == IR_TYPE_PTR)
				pf(e, "\tvoid *r%u;\n\tuint64_t r%u_elems;\n", i, i);
			else
				pf(e, "\t%s r%u;\n", ctype(ft->u.fn.out[i]), i);
		}
		pf(e, "} %s_results;\n\n", name);
	}
	pf(e, "%s_results ", name);
	return 0;
}

static int check_func_name(em *e, ir_op *f, const char **name)
{
	*name = func_name(f);
	if (!*name || !is_ident(*name) || strlen(*name) > 100) {
		err(e, f, "function name '%s' is not usable as a C identifier", *name ? *name : "");
		return -1;
	}
	return 0;
}

static void emit_func(em *e, ir_op *f)
{
	const char *name;
	ir_block *b = f->regions[0].first;
	unsigned i;
	if (check_func_name(e, f, &name))
		return;
	names_reset(e);
	name_claim(e, ir_intern(e->ctx, name, strlen(name)));
	{
		char rn[128];
		snprintf(rn, sizeof rn, "%s_results", name);
		name_claim(e, ir_intern(e->ctx, rn, strlen(rn)));
	}
	ps(e, "\nptort_ctx *");
	ps(e, name);
	ps(e, "_ctx_create(void)\n{\n\treturn ptort_ctx_create(ptoc_capacities);\n}\n\n");
	e->func = f;
	e->fname = name;
	if (emit_ret_type(e, f, name, 1))
		return;
	ps(e, name);
	put(e, "(", 1);
	if (emit_params(e, f))
		return;
	ps(e, ")\n{\n");
	e->indent = 1;
	ind(e);
	/* the pipes that execute in program order, for the sync sanitizer and the
	 * adversarial schedule (ptoc_adv: it runs, instructions go to its queues) */
	e->adv = emit_func_defers(f, e->t);
	pf(e, "(void)ctx; %sptort_sync_target(ctx, 0x%xu);\n", e->adv ? "const int ptoc_adv = " : "",
	   e->t ? e->t->inorder_pipes : 1u);
	for (i = 0; b && i < b->num_args; i++) {
		/* an argument no op uses (a pointer's _elems goes with it) */
		if (!ir_value_num_uses(b->args[i])) {
			ind(e);
			ps(e, "(void)");
			ps(e, e->names[b->args[i]->vmark - 1]);
			ps(e, ";\n");
			if (b->args[i]->type->kind == IR_TYPE_PTR) {
				ind(e);
				ps(e, "(void)");
				ps(e, e->names[b->args[i]->vmark - 1]);
				ps(e, "_elems;\n");
			}
		}
		/* an argument of N < 64 bits is reduced to them (docs/semantics.md §8.4) */
		canon_narrow(e, b->args[i]->type, e->names[b->args[i]->vmark - 1]);
	}
	if (emit_core_of(f) && !(fn_type(f) && fn_type(f)->u.fn.nout)) {
		/* a cube or vector function runs on its core only (docs/semantics.md §8.9) */
		ind(e);
		pf(e, "if (!ptort_core_in(ctx, %s, %d))\n", emit_core_of(f) == 1 ? "PTORT_CORE_CUBE"
		   : "PTORT_CORE_VECTOR", emit_core_of(f) == 2 && emit_vector_only0(f));
		ind(e);
		pf(e, "\treturn;\n");
	}
	if (b)
		emit_block(e, b);
	e->indent = 0;
	ps(e, "}\n");
	names_reset(e);
}

static void emit_header(em *e, ir_op *module, const char *what)
{
	unsigned l;
	pf(e, "/* Generated by ptoc %s: %s for target %s. Do not edit.\n", PTOC_VERSION_STRING, what,
	   e->t->name);
	pf(e, " * Memories (bytes):");
	for (l = 0; l < PTOC_LOC_COUNT; l++)
		pf(e, " %s %u%s", e->t->mem[l].memory ? e->t->mem[l].memory : "?", e->t->mem[l].capacity,
		   l + 1 < PTOC_LOC_COUNT ? "," : "");
	pf(e, "\n * (the runtime's memories have these sizes; placement keeps off the top %u bytes "
	   "of UB in kernels that use it as scratch).\n * Build: cc -std=c99 -I<ptoc>/runtime/include FILE.c libptort.a -lm */\n",
	   e->t->mem[PTOC_LOC_VEC].reserved_top);
	(void)module;
}

unsigned emit_c(ir_ctx *ctx, ir_op *module, const struct target *t, ptoc_write_fn out,
		void *user)
{
	em e;
	ir_op *f;
	unsigned l;
	memset(&e, 0, sizeof e);
	e.ctx = ctx;
	e.t = t;
	e.out = out;
	e.user = user;
	emit_header(&e, module, "kernels");
	pf(&e, "#include <stdint.h>\n#include <string.h>\n\n#include \"ptort.h\"\n\n");
	pf(&e, "static const uint32_t ptoc_capacities[PTORT_MEM_COUNT] = {");
	for (l = 0; l < PTOC_LOC_COUNT && l < PTORT_MEM_COUNT; l++)
		pf(&e, "%s%uu", l ? ", " : "", t->mem[l].capacity);
	pf(&e, "};\n");
	ir_walk(module, collect_file, &e);
	for (l = 0; l < e.nfiles; l++) {
		pf(&e, "static const char ptoc_src_%u[] = ", l);
		put_cstr(&e, e.files[l]);
		pf(&e, ";\n");
	}
	emit_defer_decls(module, t, put_text, &e);
	for (f = module->regions[0].first ? module->regions[0].first->first : NULL; f && !e.errors;
	     f = f->next) {
		if (f->code == IR_OP_FUNC)
			emit_func(&e, f);
		else
			err(&e, f, "'%s' at module level is not supported by emit-c", f->name);
	}
	free(e.names);
	free(e.vals);
	free(e.used);
	return finish(&e, module);
}

/* ---- the harness ------------------------------------------------------------------- */

ir_op *emit_find_entry(ir_ctx *ctx, ir_op *module, const char *entry)
{
	ir_op *f, *only = NULL, *marked = NULL;
	unsigned nf = 0, nm = 0;
	for (f = module->regions[0].first ? module->regions[0].first->first : NULL; f; f = f->next) {
		const char *n;
		if (f->code != IR_OP_FUNC)
			continue;
		n = func_name(f);
		if (entry && n && !strcmp(n, entry))
			return f;
		nf++;
		only = f;
		if (ir_op_get_attr(f, "pto.entry")) {
			nm++;
			marked = f;
		}
	}
	if (entry) {
		ir_error(ctx, module->loc, "no function named '%s' in the module", entry);
		return NULL;
	}
	if (nm == 1)
		return marked;
	if (nf == 1)
		return only;
	ir_error(ctx, module->loc, "%s: choose the kernel with --entry NAME",
		 nf ? "several functions could be the entry" : "the module has no function");
	return NULL;
}

/* Elements of a ptr argument's GM buffer from its views' constant shapes and strides:
 * the largest element index + 1; 0 when some view is dynamic (or none exists). */
static uint64_t arg_elems(const ir_value *arg)
{
	const ir_operand *u;
	uint64_t best = 0;
	for (u = arg->uses; u; u = u->next_use) {
		const ir_op *m = u->owner;
		unsigned rank, d;
		uint64_t last = 0;
		int64_t off;
		if ((m->code == IR_OP_ADDPTR || m->code == IR_OP_LOAD_SCALAR ||
		     m->code == IR_OP_STORE_SCALAR) && u == &m->operands[0]) {
			/* a constant offset: the elements from there (an addptr's own uses), else
			 * unknown (docs/semantics.md §8.6) */
			uint64_t sub = 1;
			if (!const_int(m->operands[1].value, &off) || off < 0 || off > (1LL << 40))
				return 0;
			if (m->code == IR_OP_ADDPTR && !(sub = arg_elems(&m->results[0])))
				return 0;
			if ((uint64_t)off + sub > best)
				best = (uint64_t)off + sub;
			continue;
		}
		if (m->code != IR_OP_MAKE_TENSOR_VIEW || u != &m->operands[0])
			continue;
		rank = m->results[0].type->u.shaped.rank;
		if (m->num_operands != 1 + 2 * rank)
			return 0;
		for (d = 0; d < rank; d++) {
			int64_t sh, st;
			if (!const_int(m->operands[1 + d].value, &sh) ||
			    !const_int(m->operands[1 + rank + d].value, &st) || sh < 0 || st < 0 ||
			    sh > (1LL << 32) || st > (1LL << 32))
				return 0;
			if (sh == 0)
				return 0;
			last += (uint64_t)(sh - 1) * (uint64_t)st;
		}
		if (last + 1 > best)
			best = last + 1;
	}
	return best;
}

/* Result #i (type t, C expression x) of the entry as ptort_print_value's call
 * (docs/runtime.md "Results"): "result #I TYPE VALUE", integers sign-extended from
 * their width (unsigned types zero-extended, i1 0 or 1), index as i64, f32/f16/bf16
 * as tprint writes them. With x NULL, only checks that the type prints (else reports
 * and returns 0). */
static int result_print(em *e, const ir_op *func, unsigned i, const ir_type *t, const char *x)
{
	char tn[96];
	const char *rt = NULL;
	char val[160];
	ptort_type et;
	ir_type_str(t, tn, sizeof tn);
	if (t->kind == IR_TYPE_INDEX || (t->kind == IR_TYPE_INT && t->u.i.bits == 64)) {
		rt = t->kind == IR_TYPE_INT && t->u.i.signedness == IR_INT_UNSIGNED ? "PTORT_U64" : "PTORT_I64";
		snprintf(val, sizeof val, "(uint64_t)%s", x ? x : "");
	} else if (t->kind == IR_TYPE_INT && t->u.i.bits == 1) {
		rt = "PTORT_U8";
		snprintf(val, sizeof val, "(uint64_t)(%s != 0)", x ? x : "");
	} else if (t->kind == IR_TYPE_INT && t->u.i.bits < 64) {
		unsigned sh = 64 - t->u.i.bits;
		if (t->u.i.signedness == IR_INT_UNSIGNED) {
			rt = "PTORT_U64";
			snprintf(val, sizeof val, "((uint64_t)%s << %u >> %u)", x ? x : "", sh, sh);
		} else {
			rt = "PTORT_I64";
			snprintf(val, sizeof val, "(uint64_t)((int64_t)((uint64_t)%s << %u) >> %u)",
				 x ? x : "", sh, sh);
		}
	} else if (t->kind == IR_TYPE_FLOAT && !ir_type_to_elem(t, &et) && ptort_type_bits(et) >= 16) {
		rt = rt_type_names[et];
		snprintf(val, sizeof val, "%s", x ? x : "");
	}
	if (!rt) {
		err(e, func, "result #%u has type '%s': ptoc run prints results of integer, index, "
		    "i1, f32, f16 and bf16 types only", i, tn);
		return 0;
	}
	if (x) {
		pf(e, "\tptort_print_value(ptoc_c, \"result #%u %s \", %s, %s);\n", i, tn, rt, val);
	}
	return 1;
}

unsigned emit_main(ir_ctx *ctx, ir_op *module, ir_op *func, const struct target *t,
		   ptoc_write_fn out, void *user)
{
	em e;
	ir_block *b = func->regions[0].first;
	unsigned n = b ? b->num_args : 0, i, nout, nshape = 0;
	const char *name;
	const ir_type *ft;
	memset(&e, 0, sizeof e);
	e.ctx = ctx;
	e.t = t;
	e.out = out;
	e.user = user;
	if (check_func_name(&e, func, &name))
		return e.errors;
	emit_header(&e, module, "a harness running the kernel");
	pf(&e, "#include <stdint.h>\n\n#include \"ptort.h\"\n\n");
	ft = fn_type(func);
	nout = ft ? ft->u.fn.nout : 0;
	for (i = 0; i < nout; i++)
		if (!result_print(&e, func, i, ft->u.fn.out[i], NULL))
			return finish(&e, module);
	pf(&e, "ptort_ctx *%s_ctx_create(void);\n", name);
	if (emit_ret_type(&e, func, name, 1))
		return finish(&e, module);
	pf(&e, "%s(", name);
	if (emit_params(&e, func))
		return e.errors;
	pf(&e, ");\n\n/* ptort_main's call of the kernel%s */\n"
	   "static void ptoc_call(ptort_ctx *ptoc_c, void *const ptoc_b[], const uint64_t ptoc_e[], "
	   "const int64_t ptoc_s[])\n{\n\t(void)ptoc_b;\n\t(void)ptoc_e;\n\t(void)ptoc_s;\n\t",
	   nout ? ", then its results printed (docs/runtime.md \"Results\")" : "");
	if (nout == 1)
		pf(&e, "const %s ptoc_r = ", ctype(ft->u.fn.out[0]));
	else if (nout)
		pf(&e, "const %s_results ptoc_r = ", name);
	pf(&e, "%s(ptoc_c", name);
	for (i = 0; i < n; i++) {
		if (b->args[i]->type->kind == IR_TYPE_PTR)
			pf(&e, ", ptoc_b[%u], ptoc_e[%u]", i, i);
		else
			pf(&e, ", ptoc_s[%u]", i);
	}
	pf(&e, ");\n");
	for (i = 0; i < nout; i++) {
		char x[32];
		if (nout == 1)
			snprintf(x, sizeof x, "ptoc_r");
		else
			snprintf(x, sizeof x, "ptoc_r.r%u", i);
		result_print(&e, func, i, ft->u.fn.out[i], x);
	}
	pf(&e, "}\n\n");
	for (i = 0; i < n; i++) { /* the GM buffers' shapes as arrays (.npy files) */
		uint64_t sh[8];
		unsigned r = 0, d;
		if (b->args[i]->type->kind == IR_TYPE_PTR)
			r = emit_arg_shape(b->args[i], arg_elems(b->args[i]), sh, 8);
		if (r && !nshape++)
			pf(&e, "/* the shapes of the GM buffers as arrays (.npy files) */\n");
		if (r)
			pf(&e, "static const uint64_t ptoc_shape%u[%u] = {", i, r);
		for (d = 0; d < r; d++)
			pf(&e, "%s%lluu", d ? ", " : "", (unsigned long long)sh[d]);
		if (r)
			pf(&e, "};\n");
	}
	if (nshape)
		pf(&e, "\n");
	if (n) {
		pf(&e, "/* per argument: name, element bits (0: scalar), GM elements (0: dynamic or "
		   "scalar), where it is declared, element type and shape (.npy files) */\n"
		   "static const ptort_main_arg ptoc_args[%u] = {\n", n);
		for (i = 0; i < n && !e.errors; i++) {
			unsigned bits = 0, rank = 0;
			int fscalar = 0;
			uint64_t elems = 0, sh[8];
			ptort_type et = PTORT_U8;
			if (b->args[i]->type->kind == IR_TYPE_PTR) {
				if (ir_type_to_elem(b->args[i]->type->u.ptr.elem, &et)) {
					err(&e, func, "argument %u: GM element type without a runtime type", i);
					break;
				}
				bits = ptort_type_bits(et);
				elems = arg_elems(b->args[i]);
				rank = emit_arg_shape(b->args[i], elems, sh, 8);
			} else if (!ir_type_to_elem(b->args[i]->type, &et) && ptort_type_is_float(et)) {
				fscalar = 1; /* --arg takes a number of the type (harness.c) */
			}
			pf(&e, "\t{.name = \"%s\", .bits = %u, .elems = %lluu, .file = ",
			   e.names[b->args[i]->vmark - 1], bits, (unsigned long long)elems);
			if (b->args[i]->loc.file)
				put_cstr(&e, b->args[i]->loc.file);
			else
				pf(&e, "0");
			pf(&e, ", .line = %u, .col = %u", b->args[i]->loc.line, b->args[i]->loc.col);
			if (bits || fscalar)
				pf(&e, ", .type = %s", rt_type_names[et]);
			if (fscalar)
				pf(&e, ", .is_float = 1");
			if (rank)
				pf(&e, ", .rank = %u, .shape = ptoc_shape%u", rank, i);
			pf(&e, "},\n");
		}
		pf(&e, "};\n\n");
	}
	pf(&e, "static const ptort_main_desc ptoc_desc = {.nargs = %uu, .args = %s, "
	   ".ctx_create = %s_ctx_create, .call = ptoc_call%s};\n\n"
	   "int main(int argc, char **argv)\n{\n\treturn ptort_main(&ptoc_desc, argc, argv);\n}\n", n, n ? "ptoc_args" : "0", name,
	   emit_is_mixed(func) ? ", .flags = PTORT_MAIN_CLUSTER" : "");
	names_reset(&e);
	free(e.names);
	free(e.vals);
	free(e.used);
	return finish(&e, module);
}
