/* emit_c_out.c: the bottom of the C emitter (emit_c.c has the whole): the output
 * buffer, the C names of values and functions, the C form of constants and types, the
 * runtime's type spellings, source locations and files, and whether the C of a value's
 * uses reads it. It calls nothing of the other emit_c*.c files (docs/architecture.md
 * "Layers"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit_c_impl.h"

/* ---- output ----------------------------------------------------------------------- */

/* The result of an emitter: the errors reported, after reporting a failed work
 * allocation (docs/architecture.md "Allocation failure"); 1 for a write error, which
 * the writer's owner reports. */
static void flush(em *e);

unsigned em_finish(em *e, const ir_op *module)
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
void em_put(em *e, const char *s, size_t n)
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
void em_ps(em *e, const char *s)
{
	em_put(e, s, strlen(s));
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
void em_pu(em *e, uint64_t x)
{
	char b[24], *p = udigits(b + sizeof b, x);
	em_put(e, p, (size_t)(b + sizeof b - p));
}

/* A signed integer in decimal (as %lld). */
void em_pd(em *e, int64_t x)
{
	char b[24], *p = udigits(b + sizeof b, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
	if (x < 0)
		*--p = '-';
	em_put(e, p, (size_t)(b + sizeof b - p));
}

/* `a` then `b`, interned, as ir_str_cat into cap (<= 256) bytes. */
const char *em_intern2(em *e, size_t cap, const char *a, const char *b)
{
	char buf[256];
	ir_str_cat(buf, cap, a, b);
	return ir_intern(e->ctx, buf, strlen(buf));
}

void em_pf(em *e, const char *fmt, ...)
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
	em_put(e, p, (size_t)n);
	if (p != small)
		free(p);
}

void em_ind(em *e)
{
	int i;
	for (i = 0; i < e->indent; i++)
		em_put(e, "\t", 1);
}

void em_err(em *e, const ir_op *op, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ir_emitv_prefixed(e->ctx, PTOC_ERROR, op->loc, "emit-c: ", fmt, ap);
	va_end(ap);
	e->errors++;
}

/* `s` as a C string literal (quotes, backslashes and non-printing bytes escaped). */
void em_put_cstr(em *e, const char *s)
{
	em_put(e, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			char b[2] = {'\\', (char)c};
			em_put(e, b, 2);
		} else if (c < 0x20 || c >= 0x7f || c == '?') { /* '?': no trigraphs */
			em_pf(e, "\\%03o", c);
		} else {
			em_put(e, (const char *)&c, 1);
		}
	}
	em_put(e, "\"", 1);
}

void em_open_block(em *e)
{
	em_ind(e);
	em_pf(e, "{\n");
	e->indent++;
}

void em_close_block(em *e)
{
	e->indent--;
	em_ind(e);
	em_pf(e, "}\n");
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
int em_name_claim(em *e, const char *s)
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

void em_names_reset(em *e)
{
	unsigned i;
	for (i = 0; i < e->nvals; i++)
		e->vals[i]->vmark = 0;
	e->nvals = 0;
	if (e->used)
		memset(e->used, 0, e->capused * sizeof *e->used);
	e->nused = 0;
}

const char *em_set_name(em *e, ir_value *v, const char *s)
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
const char *em_name_value(em *e, ir_value *v)
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
	while (!em_name_claim(e, s)) {
		snprintf(buf, sizeof buf, "%s_%u", base, ++k);
		s = ir_intern(e->ctx, buf, strlen(buf));
	}
	return em_set_name(e, v, s);
}

int em_const_int(const ir_value *v, int64_t *out)
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
size_t em_lit(char *buf, int64_t x)
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
const char *em_vexpr(em *e, const ir_op *user, const ir_value *v)
{
	int64_t x;
	uint64_t bits;
	if (const_float(v, &bits)) {
		char buf[64];
		snprintf(buf, sizeof buf, "0x%llxull", (unsigned long long)bits);
		return ir_intern(e->ctx, buf, strlen(buf));
	}
	if (em_const_int(v, &x)) {
		char buf[64];
		return ir_intern(e->ctx, buf, em_lit(buf, x));
	}
	if (!v->vmark) {
		em_err(e, user, "operand defined by '%s' has no C value", v->def ? v->def->name : "?");
		return "0";
	}
	return e->names[v->vmark - 1];
}

/* The C type of a value of type `t` (a !pto.ptr is two variables: see em_ptr_elems);
 * NULL when the type has no C form. */
const char *em_ctype(const ir_type *t)
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
	case IR_TYPE_OPAQUE: /* tmrgsort's executed counts: four i16 in 64 bits (semantics.md §7.8b) */
		return !strcmp(t->u.opaque.text, "vector<4xi16>") ? "uint64_t" : NULL;
	default: return NULL;
	}
}

/* The C name of the element count of !pto.ptr value `v` (named NAME: NAME_elems). */
const char *em_ptr_elems(em *e, const ir_op *user, const ir_value *v)
{
	return em_intern2(e, 160, em_vexpr(e, user, v), "_elems");
}

/* Names `v` (em_vexpr); a !pto.ptr also claims NAME_elems. */
const char *em_name_any(em *e, ir_value *v)
{
	const char *n;
	char buf[180];
	unsigned k = 0;
	if (v->type->kind != IR_TYPE_PTR)
		return em_name_value(e, v);
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
		if (!em_name_claim(e, ns))
			continue;
		if (!em_name_claim(e, es))
			continue; /* ns stays claimed: harmless */
		n = em_set_name(e, v, ns);
		return n;
	}
}

const char *em_func_name(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "sym_name");
	return a && a->kind == IR_ATTR_STRING ? a->u.str.s : NULL;
}

int em_check_func_name(em *e, ir_op *f, const char **name)
{
	*name = em_func_name(f);
	if (!*name || !is_ident(*name) || strlen(*name) > 100) {
		em_err(e, f, "function name '%s' is not usable as a C identifier", *name ? *name : "");
		return -1;
	}
	return 0;
}

/* The arith ops (emit_arith): pure, left out when no op uses the result. */
int em_is_arith(ir_opcode code)
{
	switch (code) {
	case IR_OP_ADDI: case IR_OP_SUBI: case IR_OP_MULI: case IR_OP_DIVSI: case IR_OP_REMSI:
	case IR_OP_MINSI: case IR_OP_MAXSI: case IR_OP_ANDI: case IR_OP_ORI: case IR_OP_XORI:
	case IR_OP_CMPI: case IR_OP_SELECT: case IR_OP_INDEX_CAST:
	case IR_OP_SHLI: case IR_OP_SHRSI: case IR_OP_SHRUI: case IR_OP_DIVUI: case IR_OP_REMUI:
	case IR_OP_CEILDIVSI: case IR_OP_FLOORDIVSI: case IR_OP_CEILDIVUI: case IR_OP_MINUI:
	case IR_OP_MAXUI: case IR_OP_EXTSI: case IR_OP_EXTUI: case IR_OP_TRUNCI:
	case IR_OP_INDEX_CASTUI: case IR_OP_ADDF: case IR_OP_SUBF: case IR_OP_MULF: case IR_OP_DIVF:
	case IR_OP_MAXIMUMF: case IR_OP_MINIMUMF: case IR_OP_MAXNUMF: case IR_OP_MINNUMF:
	case IR_OP_NEGF: case IR_OP_CMPF: case IR_OP_SITOFP: case IR_OP_UITOFP: case IR_OP_FPTOSI:
	case IR_OP_FPTOUI: case IR_OP_EXTF: case IR_OP_TRUNCF: case IR_OP_BITCAST:
		return 1;
	default:
		return 0;
	}
}

/* Whether operand k of `o` is in `dyn` (after `fixed` operands) as a field of tile
 * `tile` (TILE_addr, TILE_v_row, TILE_v_col). */
static int dyn_tile_field(const ir_op *o, unsigned k, unsigned fixed, const char *tile)
{
	const ir_attr *d = ir_op_get_attr(o, "dyn"), *s;
	size_t n = strlen(tile);
	if (k < fixed || !d || d->kind != IR_ATTR_ARRAY || k - fixed >= d->u.array.n)
		return 0;
	s = d->u.array.elems[k - fixed];
	return s->kind == IR_ATTR_STRING && s->u.str.len > n && !memcmp(s->u.str.s, tile, n) &&
	       s->u.str.s[n] == '_';
}

static const char *push_pop_tile(const ir_op *o)
{
	return o->code == IR_OP_I_TPUSH ? "src" : "dst";
}

/* Whether mmad's `init` is not "zero" (so its bias tile is read). */
static int init_not_zero(const ir_op *o)
{
	const ir_attr *a = ir_op_get_attr(o, "init");
	return !a || a->kind != IR_ATTR_STRING || a->u.str.len != 4 || memcmp(a->u.str.s, "zero", 4);
}

/* Whether the C of some use of `v` reads its variable: every use but those of ops
 * emit-c leaves out (pure ops whose result no op uses) and of ops whose C does not name
 * that operand (a mixed op's numbers, a sync op's static event, a no-op). When unsure,
 * 0: the variable then gets a `(void)NAME;`, which costs nothing. */
int em_c_used(const ir_value *v)
{
	const ir_operand *u;
	for (u = v->uses; u; u = u->next_use) {
		const ir_op *o = u->owner;
		unsigned k = (unsigned)(u - o->operands);
		emit_sync s;
		switch (o->code) {
		case IR_OP_MAKE_TENSOR_VIEW: case IR_OP_PARTITION_VIEW: case IR_OP_GET_TENSOR_VIEW_DIM:
		case IR_OP_GET_BLOCK_IDX: case IR_OP_GET_SUBBLOCK_IDX: case IR_OP_GET_BLOCK_NUM:
		case IR_OP_GET_SUBBLOCK_NUM:
			if (o->num_results && o->results[0].uses)
				return 1;
			continue;
		case IR_OP_SCF_FOR: case IR_OP_SCF_IF: case IR_OP_SCF_WHILE: case IR_OP_SCF_YIELD:
		case IR_OP_SCF_CONDITION: case IR_OP_RETURN: case IR_OP_ADDPTR: case IR_OP_LOAD_SCALAR:
		case IR_OP_STORE_SCALAR: case IR_OP_EVENTID_ARRAY_GET: case IR_OP_EVENTID_ARRAY_SET:
			return 1;
		case IR_OP_I_TPUSH: case IR_OP_I_TPOP: /* the tile's dyn fields, not the split */
			if (dyn_tile_field(o, k, 0, push_pop_tile(o)))
				return 1;
			continue;
		case IR_OP_SET_FLAG_DYN: case IR_OP_WAIT_FLAG_DYN:
			if (k == 0 && !emit_sync_of(o, &s) && s.dyn)
				return 1;
			continue;
		case IR_OP_AIC_INITIALIZE_PIPE: case IR_OP_AIV_INITIALIZE_PIPE:
			if (k == 0 && o->num_operands == 3 && v->type->kind == IR_TYPE_PTR)
				return 1;
			continue;
		case IR_OP_INITIALIZE_L2G2L_PIPE:
			if (k == 0 && v->type->kind == IR_TYPE_PTR)
				return 1;
			continue;
		default:
			break;
		}
		if (ir_insn_get(o->code)) {
			/* every operand but the dyn fields of a bias tile mmad ignores (init zero) */
			if (!dyn_tile_field(o, k, ir_insn_get(o->code)->fixed, "bias") || init_not_zero(o))
				return 1;
			continue;
		}
		if (em_is_arith(o->code) && o->results[0].uses)
			return 1; /* emitted when used, and reads every operand */
	}
	return 0;
}

/* `(void)NAME;` (a !pto.ptr also `(void)NAME_elems;`) for a C variable no statement
 * reads (em_c_used), so that the C compiles without unused-variable warnings. */
void em_void(em *e, const ir_value *v)
{
	const char *n = e->names[v->vmark - 1];
	em_ind(e);
	if (v->type->kind == IR_TYPE_PTR)
		em_pf(e, "(void)%s; (void)%s_elems;\n", n, n);
	else
		em_pf(e, "(void)%s;\n", n);
}

/* ---- runtime spellings, functions, source locations ----------------------------- */

const char *const em_rt_type_names[PTORT_TYPE_COUNT] = {
#define RT_TYPE_NAME_(id, ...) "PTORT_" #id,
	PTORT_TYPE_LIST(RT_TYPE_NAME_)
#undef RT_TYPE_NAME_
};
/* The function type of func.func `f`, or NULL. */
const ir_type *em_fn_type(const ir_op *f)
{
	const ir_attr *a = ir_op_get_attr(f, "function_type");
	return a && a->kind == IR_ATTR_TYPE && a->u.type && a->u.type->kind == IR_TYPE_FUNC
		       ? a->u.type
		       : NULL;
}

/* Whether function type `ft` returns its one result as the C return value (else its
 * results are the fields of struct NAME_results). */
int em_ret_single(const ir_type *ft)
{
	return ft->u.fn.nout == 1 && ft->u.fn.out[0]->kind != IR_TYPE_PTR;
}

/* The comment before an instruction: NAME:LINE and the op's name, NAME the file's
 * last component (its whole path is written once, at ptoc_file). */
void em_loc_comment(em *e, const ir_op *op)
{
	const char *f = op->loc.file ? op->loc.file : "?", *p;
	if (strrchr(f, '/') && strrchr(f, '/')[1])
		f = strrchr(f, '/') + 1;
	em_ind(e);
	em_put(e, "/* ", 3);
	for (p = f; *p; p++) /* never close the comment early */
		em_put(e, p[0] == '*' && p[1] == '/' ? "*_" : p, p[0] == '*' && p[1] == '/' ? 2 : 1);
	em_put(e, ":", 1);
	em_pu(e, op->loc.line);
	em_put(e, ": ", 2);
	em_ps(e, op->name);
	em_put(e, " */\n", 4);
}

/* A source file for ptort_ctx_locate: `ptoc_file` (ptoc_file_K) when the file is one
 * of the module's first EM_FILES, else its path as a literal. */
void em_put_src(em *e, const char *file)
{
	unsigned k;
	for (k = 0; k < e->nfiles; k++)
		if (e->files[k] == file) {
			if (k)
				em_pf(e, "ptoc_file_%u", k);
			else
				em_ps(e, "ptoc_file");
			return;
		}
	em_put_cstr(e, file);
}

/* `static const char ptoc_file[] = "PATH";` for each collected file. */
void em_put_files(em *e)
{
	unsigned k;
	for (k = 0; k < e->nfiles; k++) {
		em_ps(e, "static const char ");
		em_put_src(e, e->files[k]);
		em_ps(e, "[] = ");
		em_put_cstr(e, e->files[k]);
		em_ps(e, ";\n");
	}
}

/* Whether the C of `op` names its source file (a level-3 instruction, pto.trap, the
 * sync, pointer and mixed ops that call the runtime). */
static int names_file(const ir_op *op)
{
	emit_sync s;
	if (ir_insn_get(op->code))
		return 1;
	switch (op->code) {
	case IR_OP_TRAP: case IR_OP_ADDPTR: case IR_OP_LOAD_SCALAR: case IR_OP_STORE_SCALAR:
	case IR_OP_EVENTID_ARRAY_GET: case IR_OP_EVENTID_ARRAY_SET:
	case IR_OP_SYNC_SET: case IR_OP_SYNC_WAIT: case IR_OP_TFREE_FROM_AIC:
	case IR_OP_TFREE_FROM_AIV: case IR_OP_TFREE: case IR_OP_I_TPUSH: case IR_OP_I_TPOP:
	case IR_OP_AIC_INITIALIZE_PIPE: case IR_OP_AIV_INITIALIZE_PIPE:
	case IR_OP_INITIALIZE_L2L_PIPE: case IR_OP_INITIALIZE_L2G2L_PIPE:
	case IR_OP_TPUT_ASYNC: case IR_OP_TGET_ASYNC:
		return 1;
	case IR_OP_GET_TENSOR_VIEW_DIM:
		return op->results[0].uses != NULL;
	case IR_OP_SET_FLAG: case IR_OP_WAIT_FLAG: case IR_OP_BARRIER: case IR_OP_RECORD_EVENT:
	case IR_OP_WAIT_EVENT: case IR_OP_BARRIER_SYNC: case IR_OP_SET_FLAG_DYN:
	case IR_OP_WAIT_FLAG_DYN:
		return !emit_sync_of(op, &s);
	default:
		return 0;
	}
}

/* The files of the ops whose C names them (names_file), so that each ptoc_file is
 * used (an unused static array is a warning). */
int em_collect_file(ir_op *op, void *user)
{
	em *e = user;
	unsigned k;
	if (!op->loc.file || !names_file(op))
		return 0;
	for (k = 0; k < e->nfiles; k++)
		if (e->files[k] == op->loc.file)
			return 0;
	if (e->nfiles < EM_FILES)
		e->files[e->nfiles++] = op->loc.file;
	return 0;
}

/* ` ptort_ctx_locate(ctx, FILE, LINE, COL);` after a runtime call of `op` (nothing
 * without a location) */
void em_locate(em *e, const ir_op *op)
{
	if (op->loc.file) {
		em_pf(e, " ptort_ctx_locate(ctx, ");
		em_put_src(e, op->loc.file);
		em_pf(e, ", %u, %u);", op->loc.line, op->loc.col);
	}
}
