/* typetext.c: the insides of bracketed tokens and literals. The lexer returns
 * `!pto.tile_buf<...>`, `#pto<round_mode RINT>`, `array<i32: 1, 2>` and the like as one
 * token; this file parses their bodies with a small cursor (PTOAS's keyed and compact
 * tile_buf forms, tile/ptr/view shapes) and turns integer, float and string literals
 * into values, reporting at the exact column inside the token. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

/* ---- scalar types ------------------------------------------------------------- */

static int all_digits(const char *s, size_t n)
{
	size_t i;
	if (!n || n > 7)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static unsigned to_uint(const char *s, size_t n)
{
	unsigned v = 0;
	size_t i;
	for (i = 0; i < n; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	return v;
}

static int eqn(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

const ir_type *fe_scalar_type(ir_ctx *ctx, const char *s, size_t n)
{
	static const char *const mlir_only[] = {
		"f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E3M4", "tf32", "f80", "f128", "f6E2M3FN",
		"f6E3M2FN",
	};
	ptort_type t;
	unsigned k;
	if (!n)
		return NULL;
	switch (s[0]) {
	case 'i':
		if (eqn(s, n, "index"))
			return ir_type_index(ctx);
		if (all_digits(s + 1, n - 1) && to_uint(s + 1, n - 1) >= 1 && to_uint(s + 1, n - 1) <= 65535)
			return ir_type_int(ctx, to_uint(s + 1, n - 1), IR_INT_SIGNLESS);
		break;
	case 's':
		if (n > 2 && s[1] == 'i' && all_digits(s + 2, n - 2) && to_uint(s + 2, n - 2) >= 1 &&
		    to_uint(s + 2, n - 2) <= 65535)
			return ir_type_int(ctx, to_uint(s + 2, n - 2), IR_INT_SIGNED);
		break;
	case 'u':
		if (n > 2 && s[1] == 'i' && all_digits(s + 2, n - 2) && to_uint(s + 2, n - 2) >= 1 &&
		    to_uint(s + 2, n - 2) <= 65535)
			return ir_type_int(ctx, to_uint(s + 2, n - 2), IR_INT_UNSIGNED);
		break;
	case 'n':
		if (eqn(s, n, "none"))
			return ir_type_none(ctx);
		return NULL;
	case 'f':
		if (eqn(s, n, "f64"))
			return ir_type_float(ctx, IR_F64);
		break;
	default:
		break;
	}
	if (s[0] != 'f' && s[0] != 'b' && s[0] != 'e' && s[0] != 'h' && s[0] != 'i')
		return NULL;
	if (!ptort_type_parse(s, n, &t))
		return ir_type_elem(ctx, t);
	for (k = 0; k < sizeof mlir_only / sizeof mlir_only[0]; k++)
		if (eqn(s, n, mlir_only[k]))
			return ir_type_opaque(ctx, s, n);
	return NULL;
}

/* ---- a cursor over the body of a bracketed token ---------------------------------- */

typedef struct cur {
	fe_parser *p;
	fe_tok t;
	const char *s, *e; /* position, end of the body (before the final '>') */
	int failed;
} cur;

static ir_loc loc_at(cur *c, const char *at)
{
	ir_loc l = c->t.loc;
	const char *q;
	for (q = c->t.s; q < at && q < c->t.s + c->t.len; q++) {
		if (*q == '\n') {
			l.line++;
			l.col = 1;
		} else {
			l.col++;
		}
	}
	return l;
}

static void cerr(cur *c, const char *msg, const char *arg, size_t alen)
{
	if (c->failed)
		return;
	c->failed = 1;
	if (arg)
		ir_error(c->p->ctx, loc_at(c, c->s), "%s%.*s", msg, (int)alen, arg);
	else
		ir_error(c->p->ctx, loc_at(c, c->s), "%s", msg);
}

static void ws(cur *c)
{
	while (c->s < c->e && (*c->s == ' ' || *c->s == '\t' || *c->s == '\n' || *c->s == '\r'))
		c->s++;
}

static int peek(cur *c, char ch)
{
	ws(c);
	return c->s < c->e && *c->s == ch;
}

static int eat(cur *c, char ch)
{
	if (peek(c, ch)) {
		c->s++;
		return 1;
	}
	return 0;
}

static int expect(cur *c, char ch)
{
	char m[16] = "expected ' '";
	if (eat(c, ch))
		return 1;
	m[10] = ch;
	cerr(c, m, NULL, 0);
	return 0;
}

static int isidc(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '.' || ch == '$';
}

/* an identifier or a quoted string (quotes stripped) */
static int word(cur *c, const char **w, size_t *n)
{
	ws(c);
	if (c->s < c->e && *c->s == '"') {
		const char *q = c->s + 1;
		while (q < c->e && *q != '"')
			q++;
		if (q >= c->e) {
			cerr(c, "unterminated string", NULL, 0);
			return 0;
		}
		*w = c->s + 1;
		*n = (size_t)(q - c->s - 1);
		c->s = q + 1;
		return 1;
	}
	*w = c->s;
	while (c->s < c->e && isidc(*c->s) && !(c->s > *w && 0))
		c->s++;
	*n = (size_t)(c->s - *w);
	if (!*n) {
		cerr(c, "expected a name", NULL, 0);
		return 0;
	}
	return 1;
}

/* an integer; `?` gives IR_DYN when allowed */
static int integer(cur *c, int64_t *v, int dyn_ok)
{
	int neg = 0;
	uint64_t x = 0;
	const char *st;
	ws(c);
	if (dyn_ok && c->s < c->e && *c->s == '?') {
		c->s++;
		*v = IR_DYN;
		return 1;
	}
	if (c->s < c->e && *c->s == '-') {
		neg = 1;
		c->s++;
	}
	st = c->s;
	while (c->s < c->e && *c->s >= '0' && *c->s <= '9') {
		if (x > (uint64_t)INT64_MAX / 10) {
			c->s = st;
			cerr(c, "integer too large", NULL, 0);
			return 0;
		}
		x = x * 10 + (uint64_t)(*c->s - '0');
		c->s++;
	}
	if (c->s == st) {
		cerr(c, "expected integer value", NULL, 0);
		return 0;
	}
	if (x > (uint64_t)INT64_MAX) {
		c->s = st;
		cerr(c, "integer too large", NULL, 0);
		return 0;
	}
	*v = neg ? -(int64_t)x : (int64_t)x;
	return 1;
}

static const ir_type *sub_type(cur *c);

/* the text of a nested type: up to a ',' or '>' at depth 0 */
static const ir_type *sub_type(cur *c)
{
	const char *st, *q;
	int depth = 0;
	fe_tok t;
	const ir_type *ty;
	ws(c);
	st = c->s;
	for (q = st; q < c->e; q++) {
		if (*q == '<' || *q == '(' || *q == '[' || *q == '{')
			depth++;
		else if ((*q == '>' || *q == ')' || *q == ']' || *q == '}') && depth > 0)
			depth--;
		else if (depth == 0 && (*q == ',' || *q == '>' || *q == ' ' || *q == '\n' || *q == '\t'))
			break;
		if (*q == '-' && q + 1 < c->e && q[1] == '>')
			q++;
	}
	if (q == st) {
		cerr(c, "expected a type", NULL, 0);
		return NULL;
	}
	t.s = st;
	t.len = (uint32_t)(q - st);
	t.loc = loc_at(c, st);
	c->s = q;
	ty = fe_type_text(c->p, t);
	if (!ty)
		c->failed = 1;
	return ty;
}

/* `16x16xf32` / `?x?xf32`: dims then the element type */
static int shape(cur *c, int64_t *dims, unsigned *rank, unsigned max, const ir_type **elem)
{
	*rank = 0;
	ws(c);
	while (c->s < c->e && ((*c->s >= '0' && *c->s <= '9') || *c->s == '?')) {
		int64_t d;
		if (*c->s == '?') {
			c->s++;
			d = IR_DYN;
		} else if (!integer(c, &d, 0)) {
			return 0;
		}
		if (*rank == max) {
			cerr(c, "too many dimensions", NULL, 0);
			return 0;
		}
		dims[(*rank)++] = d;
		if (c->s >= c->e || *c->s != 'x') {
			cerr(c, "expected 'x' in shape", NULL, 0);
			return 0;
		}
		c->s++;
	}
	*elem = sub_type(c);
	return *elem != NULL;
}

/* ---- !pto.tile_buf<...> ----------------------------------------------------------- */

/* Reads a word (*w, *len; *at is where it began) and finds it in names[0, n): its index,
 * n when it is not there, -1 after reporting when there is no word. */
static int lookup_word(cur *c, const char *const *names, unsigned n, const char **w,
		       size_t *len, const char **at)
{
	unsigned k;
	ws(c);
	*at = c->s;
	if (!word(c, w, len))
		return -1;
	for (k = 0; k < n; k++)
		if (eqn(*w, *len, names[k]))
			break;
	return (int)k;
}

static int enum_val(cur *c, const char *const *names, unsigned n, const char *what)
{
	const char *w, *at;
	size_t len;
	int k = lookup_word(c, names, n, &w, &len, &at);
	if (k < 0 || (unsigned)k < n)
		return k;
	c->s = at;
	cerr(c, what, w, len);
	return -1;
}

static int loc_val(cur *c, ir_mem *m)
{
	const char *w, *at;
	size_t len;
	ws(c);
	at = c->s;
	if (!word(c, &w, &len))
		return 0;
	if (ir_mem_parse(w, len, m)) {
		c->s = at;
		cerr(c, "unknown loc: ", w, len);
		return 0;
	}
	return 1;
}

static int key(cur *c, const char *want)
{
	const char *w, *at;
	size_t n;
	char m[64];
	ws(c);
	at = c->s;
	if (!word(c, &w, &n) || !eqn(w, n, want)) {
		c->s = at;
		c->failed = 0;
		snprintf(m, sizeof m, "expected '%s'", want);
		cerr(c, m, NULL, 0);
		return 0;
	}
	return expect(c, '=');
}

/* The keyed form `loc=.., dtype=.., rows=.., cols=.., v_row=.., v_col=.., blayout=..,
 * slayout=.., fractal=.., pad=..[, compact=..]`. PTOAS prints the keys in that order;
 * older PTOAS samples write them in others (blayout before v_row). [decision] `loc`
 * comes first (it tells the keyed form from the compact one), the other keys in any
 * order, each once; all but `compact` are required, as in PTOAS. */
enum { TK_DTYPE, TK_ROWS, TK_COLS, TK_VROW, TK_VCOL, TK_BLAYOUT, TK_SLAYOUT, TK_FRACTAL, TK_PAD,
       TK_COMPACT, TK_COUNT };

static const char *const tb_keys[TK_COUNT] = {"dtype", "rows", "cols", "v_row", "v_col",
					      "blayout", "slayout", "fractal", "pad", "compact"};

static int keyed_value(cur *c, unsigned k, ir_type *tb)
{
	int e;
	switch (k) {
	case TK_DTYPE:
		return (tb->u.tb.elem = sub_type(c)) != NULL;
	case TK_ROWS:
		return integer(c, &tb->u.tb.rows, 0);
	case TK_COLS:
		return integer(c, &tb->u.tb.cols, 0);
	case TK_VROW:
		return integer(c, &tb->u.tb.v_row, 1);
	case TK_VCOL:
		return integer(c, &tb->u.tb.v_col, 1);
	case TK_BLAYOUT:
		if ((e = enum_val(c, ir_blayout_names, IR_BLAYOUT_COUNT, "unknown blayout: ")) < 0)
			return 0;
		tb->u.tb.blayout = (unsigned)e;
		return 1;
	case TK_SLAYOUT:
		if ((e = enum_val(c, ir_slayout_names, IR_SLAYOUT_COUNT, "unknown slayout: ")) < 0)
			return 0;
		tb->u.tb.slayout = (unsigned)e;
		return 1;
	case TK_FRACTAL:
		return integer(c, &tb->u.tb.fractal, 0);
	case TK_PAD:
		return integer(c, &tb->u.tb.pad, 0);
	default:
		return integer(c, &tb->u.tb.compact, 0);
	}
}

/* `KEY =` with KEY one of keys[0..nkeys), not seen before in this type (the bit of
 * *seen): its index, or -1 after reporting (`what` names the syntax in messages). */
static int next_key(cur *c, const char *const *keys, unsigned nkeys, unsigned *seen,
		    const char *what)
{
	const char *w, *at;
	size_t n;
	unsigned k;
	char m[96];
	int kk = lookup_word(c, keys, nkeys, &w, &n, &at);
	if (kk < 0)
		return -1;
	k = (unsigned)kk;
	c->s = at;
	if (k == nkeys) {
		snprintf(m, sizeof m, "unknown key in %s: ", what);
		cerr(c, m, w, n);
		return -1;
	}
	if (*seen & (1u << k)) {
		snprintf(m, sizeof m, "duplicate '%s' in %s", keys[k], what);
		cerr(c, m, NULL, 0);
		return -1;
	}
	c->s = w + n;
	*seen |= 1u << k;
	return expect(c, '=') ? (int)k : -1;
}

static const ir_type *tile_buf_keyed(cur *c)
{
	ir_type tb;
	unsigned seen = 0, k;
	memset(&tb, 0, sizeof tb);
	tb.kind = IR_TYPE_TILE_BUF;
	tb.u.tb.compact = 0;
	if (!key(c, "loc") || !loc_val(c, &tb.u.tb.mem))
		return NULL;
	while (eat(c, ',')) {
		const char *at;
		int kk = next_key(c, tb_keys, TK_COUNT, &seen, "tile_buf");
		if (kk < 0)
			return NULL;
		k = (unsigned)kk;
		ws(c);
		at = c->s;
		if (!keyed_value(c, k, &tb))
			return NULL;
		if ((k == TK_ROWS && tb.u.tb.rows < 0) || (k == TK_COLS && tb.u.tb.cols < 0)) {
			c->s = at;
			cerr(c, "rows/cols must be non-negative", NULL, 0);
			return NULL;
		}
		if (k == TK_VROW || k == TK_VCOL) {
			int64_t *v = k == TK_VROW ? &tb.u.tb.v_row : &tb.u.tb.v_col;
			if (*v == -1)
				*v = IR_DYN;
			if (*v < 0 && *v != IR_DYN) {
				c->s = at;
				cerr(c, "v_row/v_col must be non-negative, '?' or -1", NULL, 0);
				return NULL;
			}
		}
	}
	ws(c);
	if (c->s != c->e) {
		cerr(c, "expected ',' or '>'", NULL, 0);
		return NULL;
	}
	for (k = 0; k < TK_COMPACT; k++)
		if (!(seen & (1u << k))) {
			char m[64];
			snprintf(m, sizeof m, "expected '%s' in tile_buf", tb_keys[k]);
			cerr(c, m, NULL, 0);
			return NULL;
		}
	return ir_type_tile_buf(c->p->ctx, &tb);
}

static const ir_type *tile_buf_compact(cur *c)
{
	ir_type tb;
	int64_t dims[8];
	unsigned rank;
	unsigned seen = 0;
	const char *at;
	memset(&tb, 0, sizeof tb);
	tb.kind = IR_TYPE_TILE_BUF;
	if (!loc_val(c, &tb.u.tb.mem) || !expect(c, ','))
		return NULL;
	ws(c);
	at = c->s;
	if (!shape(c, dims, &rank, 8, &tb.u.tb.elem))
		return NULL;
	if (rank != 2) {
		c->s = at;
		cerr(c, "tile_buf compact syntax expects exactly two shape dims", NULL, 0);
		return NULL;
	}
	tb.u.tb.rows = dims[0];
	tb.u.tb.cols = dims[1];
	tb.u.tb.v_row = dims[0];
	tb.u.tb.v_col = dims[1];
	tb.u.tb.blayout = IR_BLAYOUT_ROW_MAJOR;
	tb.u.tb.slayout = IR_SLAYOUT_NONE_BOX;
	tb.u.tb.fractal = 512;
	while (eat(c, ',')) {
		static const char *const keys[] = {"valid", "blayout", "slayout", "fractal", "pad", "compact"};
		int e, k = next_key(c, keys, 6, &seen, "tile_buf compact syntax");
		if (k < 0)
			return NULL;
		switch (k) {
		case 0:
			if (!integer(c, &tb.u.tb.v_row, 1))
				return NULL;
			if (c->s >= c->e || *c->s != 'x') {
				cerr(c, "expected 'x' in valid=RxC", NULL, 0);
				return NULL;
			}
			c->s++;
			if (!integer(c, &tb.u.tb.v_col, 1))
				return NULL;
			break;
		case 1:
			if ((e = enum_val(c, ir_blayout_names, IR_BLAYOUT_COUNT, "unknown blayout: ")) < 0)
				return NULL;
			tb.u.tb.blayout = (unsigned)e;
			break;
		case 2:
			if ((e = enum_val(c, ir_slayout_names, IR_SLAYOUT_COUNT, "unknown slayout: ")) < 0)
				return NULL;
			tb.u.tb.slayout = (unsigned)e;
			break;
		case 3:
			if (!integer(c, &tb.u.tb.fractal, 0))
				return NULL;
			break;
		case 4:
			if (!integer(c, &tb.u.tb.pad, 0))
				return NULL;
			break;
		default:
			if (!integer(c, &tb.u.tb.compact, 0))
				return NULL;
			break;
		}
	}
	ws(c);
	if (c->s != c->e) {
		cerr(c, "expected ',' or '>'", NULL, 0);
		return NULL;
	}
	return ir_type_tile_buf(c->p->ctx, &tb);
}

static const ir_type *tile_buf_shape_first(cur *c);

static const ir_type *tile_buf_body(cur *c)
{
	const char *q;
	/* keyed when the first word is followed by '=' */
	ws(c);
	for (q = c->s; q < c->e && isidc(*q); q++)
		;
	while (q < c->e && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
		q++;
	if (q < c->e && *q == '=')
		return tile_buf_keyed(c);
	if (c->s < c->e && *c->s >= '0' && *c->s <= '9')
		return tile_buf_shape_first(c);
	return tile_buf_compact(c);
}

/* ---- memref<RxCxT, #pto.address_space<X>> ------------------------------------------- */

static const ir_type not_a_tile;

/* `memref<AxBxT, #pto.address_space<gm>>`: the partition view of that shape when it is
 * static, of rank 1 to 5 and nothing follows the address space; remembered as the
 * last GM memref read (fe_func_arg). `closed`: the address space's '>' is read (or
 * there is none: `memref<AxBxT>`, which PTOAS takes for GM, see memref_tile_buf). */
static const ir_type *memref_gm_view(cur *c, const int64_t *dims, unsigned rank,
				     const ir_type *elem, int closed, int strided)
{
	const ir_type *t;
	unsigned i;
	if (!closed && !expect(c, '>'))
		return NULL;
	ws(c);
	if (c->s != c->e || rank < 1 || rank > 5)
		return &not_a_tile;
	for (i = 0; i < rank; i++)
		if (dims[i] < 1)
			return &not_a_tile;
	t = ir_type_shaped(c->p->ctx, IR_TYPE_PART_VIEW, dims, rank, elem);
	c->p->gm_memref = strided ? NULL : t;
	return t;
}

/* `strided<[...], offset: ...>` after the shape (a reinterpret_cast's result type,
 * memref.c): skipped to its closing '>'; returns 1 when there was one. [decision] The
 * view it describes is built from the cast's operands, so the layout's numbers are not
 * read; a function argument of such a type is not a pointer (fe_memref_arg). */
static int strided_layout(cur *c)
{
	int depth = 0;
	ws(c);
	if ((size_t)(c->e - c->s) < 8 || memcmp(c->s, "strided<", 8))
		return 0;
	for (; c->s < c->e; c->s++) {
		if (*c->s == '<')
			depth++;
		else if (*c->s == '>' && --depth == 0) {
			c->s++;
			return 1;
		}
	}
	return 0;
}

/* The older form of a tile buffer: a static memref of rank 2 or more in an on-chip
 * address space is the tile_buf the compact form `<X, RxCxT>` gives (row_major,
 * none_box, fractal 512, no pad: PTOAS's default tile configuration, which is what a
 * memref.alloc without a tile configuration gets there), R the product of all dims but
 * the last (the rows a row-major tile holds them in), C the last. A static memref of
 * rank 1 to 5 in `gm` without a layout is the partition view of that shape
 * (docs/ops.md "Older PTOAS spellings"; fe_memref_arg turns such a function argument into a
 * pointer and its view). [decision] So is a static memref of rank 1 to 5 in no address
 * space (`memref<256xi64>`): PTOAS gives a function's memref arguments without one the
 * GM address space (its InferPTOMemScope), and a value keeps the type of the argument it
 * comes from wherever it is written; an allocation of one is refused as before (its
 * type is no tile). [decision] Any other memref (a layout, a dynamic dim, rank 6 or
 * more) is kept as an opaque type: `&not_a_tile`; an op that needs a tile or a view
 * reports it there. */
static const ir_type *memref_tile_buf(cur *c, int tile_only)
{
	ir_type tb;
	int64_t dims[8];
	unsigned rank, i;
	const char *w, *at;
	size_t n;
	int strided = 0;
	static const char sp[] = "#pto.address_space<";
	memset(&tb, 0, sizeof tb);
	tb.kind = IR_TYPE_TILE_BUF;
	ws(c);
	if (c->s >= c->e || *c->s < '0' || *c->s > '9')
		return &not_a_tile;
	if (!shape(c, dims, &rank, 8, &tb.u.tb.elem))
		return NULL;
	if (!eat(c, ',')) /* no address space: a GM argument's (see above) */
		return tile_only ? &not_a_tile : memref_gm_view(c, dims, rank, tb.u.tb.elem, 1, 0);
	if (strided_layout(c)) {
		/* in the shape-first tile_buf: a pto.subset's window (PTOAS's Subset sample);
		 * [decision] its numbers are not read: the window's pitch is its source's
		 * (docs/semantics.md §7.8), which the subset op says, and the type is the
		 * RxC tile_buf the subset derives */
		strided = 1;
		if (!eat(c, ','))
			return tile_only ? &not_a_tile
					 : memref_gm_view(c, dims, rank, tb.u.tb.elem, 1, 1);
	}
	ws(c);
	if ((size_t)(c->e - c->s) < sizeof sp || memcmp(c->s, sp, sizeof sp - 1))
		return &not_a_tile;
	c->s += sizeof sp - 1;
	ws(c);
	at = c->s;
	if (!word(c, &w, &n))
		return NULL;
	if (ir_mem_parse(w, n, &tb.u.tb.mem)) {
		if (eqn(w, n, "gm") && !tile_only)
			return memref_gm_view(c, dims, rank, tb.u.tb.elem, 0, strided);
		if (eqn(w, n, "gm") || strided)
			return &not_a_tile;
		if (eqn(w, n, "zero"))
			return &not_a_tile;
		c->s = at;
		cerr(c, "unknown address space: ", w, n);
		return NULL;
	}
	if (!expect(c, '>'))
		return NULL;
	ws(c);
	if (c->s != c->e || rank < 2 || (tile_only && rank != 2))
		return &not_a_tile;
	tb.u.tb.rows = 1;
	for (i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return &not_a_tile;
		if (i + 1 < rank)
			tb.u.tb.rows *= dims[i];
	}
	tb.u.tb.v_row = tb.u.tb.rows;
	tb.u.tb.cols = tb.u.tb.v_col = dims[rank - 1];
	tb.u.tb.blayout = IR_BLAYOUT_ROW_MAJOR;
	tb.u.tb.slayout = IR_SLAYOUT_NONE_BOX;
	tb.u.tb.fractal = 512;
	/* the cube's operand memories: the layout of their role (pto-isa's TileLeft,
	 * TileRight, TileAcc; A5 requires it, A2A3 takes any: check_cube.c) */
	if (tb.u.tb.mem == IR_MEM_LEFT || tb.u.tb.mem == IR_MEM_ACC) {
		tb.u.tb.blayout = IR_BLAYOUT_COL_MAJOR;
		tb.u.tb.slayout = IR_SLAYOUT_ROW_MAJOR;
		if (tb.u.tb.mem == IR_MEM_ACC)
			tb.u.tb.fractal = 1024;
	} else if (tb.u.tb.mem == IR_MEM_RIGHT) {
		tb.u.tb.slayout = IR_SLAYOUT_COL_MAJOR;
	}
	return ir_type_tile_buf(c->p->ctx, &tb);
}

/* The shape-first form `!pto.tile_buf<RxCxT, #pto.address_space<X>>` (PTOAS's Subset
 * sample): the memref spelling inside tile_buf, the same tile as memref<RxCxT, X>;
 * rank 2 and an on-chip X only (tile_only). A `strided<[...], offset: [...]>` between
 * the shape and the space (a subset's window) is skipped. */
static const ir_type *tile_buf_shape_first(cur *c)
{
	const char *at = c->s;
	const ir_type *t = memref_tile_buf(c, 1);
	if (t != &not_a_tile)
		return t;
	c->s = at;
	cerr(c, "tile_buf shape-first syntax expects 'RxCxT, [strided<...>,] "
		"#pto.address_space<loc>' with two static dims and an on-chip loc", NULL, 0);
	return NULL;
}

/* ---- types --------------------------------------------------------------------------- */

static int prefix(fe_tok t, const char *pre, cur *c)
{
	size_t n = strlen(pre);
	if (t.len < n + 1 || memcmp(t.s, pre, n) || t.s[t.len - 1] != '>')
		return 0;
	c->s = t.s + n;
	c->e = t.s + t.len - 1;
	return 1;
}

/* The rest of a shaped type's text (its closing '>' already cut off): a shape, then the end. */
static const ir_type *shaped_rest(ir_ctx *ctx, cur *c, ir_type_kind kind)
{
	int64_t dims[16];
	unsigned rank;
	const ir_type *elem;
	if (!shape(c, dims, &rank, 16, &elem))
		return NULL;
	ws(c);
	if (c->s != c->e) {
		cerr(c, "expected '>'", NULL, 0);
		return NULL;
	}
	return ir_type_shaped(ctx, kind, dims, rank, elem);
}

const ir_type *fe_type_text(fe_parser *p, fe_tok t)
{
	cur c;
	const ir_type *ty;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.t = t;
	p->gm_memref = NULL;
	if (!t.len)
		return NULL;
	if (prefix(t, "<", &c)) { /* the prefix left off: lexer.l */
		const char *a = c.s, *b = c.e;
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if ((ty = fe_scalar_type(p->ctx, a, (size_t)(b - a))))
			return ir_type_ptr(p->ctx, ty); /* `<f32>`: a !pto.ptr */
		return tile_buf_body(&c);
	}
	if (prefix(t, "memref<", &c) && (ty = memref_tile_buf(&c, 0)) != NULL)
		return ty != &not_a_tile ? ty : ir_type_opaque(p->ctx, t.s, t.len);
	if (c.failed)
		return NULL;
	if (t.s[0] != '!') {
		if ((ty = fe_scalar_type(p->ctx, t.s, t.len)))
			return ty;
		if (memchr(t.s, '<', t.len))
			return ir_type_opaque(p->ctx, t.s, t.len);
		ir_error(p->ctx, t.loc, "unknown type '%.*s'", (int)(t.len > 64 ? 64 : t.len), t.s);
		return NULL;
	}
	if (prefix(t, "!pto.tile_buf<", &c))
		return tile_buf_body(&c);
	if (prefix(t, "!pto.tile<", &c)) {
		ws(&c);
		if (c.s < c.e && !(*c.s >= '0' && *c.s <= '9') && *c.s != '?')
			return ir_type_opaque(p->ctx, t.s, t.len); /* keyed variants: kept as text */
		/* any rank: the verifier requires two static dims */
		return shaped_rest(p->ctx, &c, IR_TYPE_TILE);
	}
	if (prefix(t, "!pto.ptr<", &c)) {
		const ir_type *elem = sub_type(&c);
		if (!elem)
			return NULL;
		ws(&c);
		if (c.s != c.e) {
			cerr(&c, "!pto.ptr no longer accepts address space; use !pto.ptr<elem>", NULL, 0);
			return NULL;
		}
		return ir_type_ptr(p->ctx, elem);
	}
	/* `!pto.tile_view` is the older name of the partition view (PTOAS parses it so) */
	if (prefix(t, "!pto.tensor_view<", &c) || prefix(t, "!pto.partition_tensor_view<", &c) ||
	    prefix(t, "!pto.tile_view<", &c))
		return shaped_rest(p->ctx, &c,
				   t.s[6] == 'e' ? IR_TYPE_TENSOR_VIEW : IR_TYPE_PART_VIEW);
	/* `!pto.hif8`: the generic form's spelling of an element type MLIR lacks (ir.h) */
	if (t.len > 5 && !memcmp(t.s, "!pto.", 5)) {
		ptort_type e;
		if (!ptort_type_parse(t.s + 5, t.len - 5, &e) && ptort_type_is_float(e) &&
		    !ir_float_is_mlir_builtin((unsigned)e))
			return ir_type_elem(p->ctx, e);
	}
	return ir_type_opaque(p->ctx, t.s, t.len);
}

/* ---- attributes ------------------------------------------------------------------------ */

static const char *trim(const char *s, const char *e, size_t *n)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	*n = (size_t)(e - s);
	return s;
}

const ir_attr *fe_attr_text(fe_parser *p, fe_tok t)
{
	size_t vn0;
	cur c;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.t = t;
	if (prefix(t, "#pto<", &c)) {
		/* #pto<round_mode RINT> */
		const char *w, *v;
		size_t wn, vn;
		ws(&c);
		w = c.s;
		while (c.s < c.e && isidc(*c.s))
			c.s++;
		wn = (size_t)(c.s - w);
		v = trim(c.s, c.e, &vn);
		if (!wn) {
			cerr(&c, "expected an attribute kind in '#pto<kind value>'", NULL, 0);
			return NULL;
		}
		return ir_attr_pto(p->ctx, ir_intern(p->ctx, w, wn), ir_intern(p->ctx, v, vn), IR_PTO_ANGLE);
	}
	if (prefix(t, "<", &c)) { /* `<vec>`: an address space, its prefix left off (lexer.l) */
		const char *v = trim(c.s, c.e, &vn0);
		return ir_attr_pto(p->ctx, ir_intern(p->ctx, "address_space", 13),
				   ir_intern(p->ctx, v, vn0), IR_PTO_DOTTED);
	}
	if (t.len > 5 && !memcmp(t.s, "#pto.", 5) && t.s[t.len - 1] == '>') {
		const char *lt = memchr(t.s, '<', t.len), *v;
		size_t vn;
		v = trim(lt + 1, t.s + t.len - 1, &vn);
		return ir_attr_pto(p->ctx, ir_intern(p->ctx, t.s + 5, (size_t)(lt - t.s - 5)),
				   ir_intern(p->ctx, v, vn), IR_PTO_DOTTED);
	}
	if (prefix(t, "array<", &c)) {
		const ir_type *elem = NULL;
		int64_t buf[64], *vals = buf;
		unsigned n = 0, cap = 64;
		const ir_attr *a;
		const char *q;
		ws(&c);
		for (q = c.s; q < c.e && isidc(*q); q++)
			;
		elem = fe_scalar_type(p->ctx, c.s, (size_t)(q - c.s));
		if (!elem || elem->kind != IR_TYPE_INT)
			return ir_attr_opaque(p->ctx, t.s, t.len);
		c.s = q;
		if (eat(&c, ':')) {
			do {
				int64_t v;
				ws(&c);
				if (c.s < c.e && (*c.s == 't' || *c.s == 'f')) {
					const char *w;
					size_t wn;
					word(&c, &w, &wn);
					v = eqn(w, wn, "true");
				} else if (!integer(&c, &v, 0)) {
					break;
				}
				if (n == cap) {
					int64_t *nv = ir_xrealloc(NULL, sizeof *nv * cap * 2);
					memcpy(nv, vals, sizeof *nv * n);
					if (vals != buf)
						free(vals);
					vals = nv;
					cap *= 2;
				}
				vals[n++] = v;
			} while (eat(&c, ','));
		}
		ws(&c);
		if (!c.failed && c.s != c.e)
			cerr(&c, "expected ',' or '>'", NULL, 0);
		a = c.failed ? NULL : ir_attr_dense(p->ctx, elem, vals, n);
		if (vals != buf)
			free(vals);
		return a;
	}
	return ir_attr_opaque(p->ctx, t.s, t.len);
}

/* `dense<[1, 2]> : tensor<2xi32>`, `#foo.bar<...> : i32`: an attribute kept as text with
 * its type (the bridge imports such attributes as MLIR prints them). */
const ir_attr *fe_attr_typed(fe_parser *p, fe_tok t, const ir_type *ty)
{
	const ir_attr *a = fe_attr_text(p, t);
	ptoc_buf b = {0};
	if (!a || !ty)
		return NULL;
	if (a->kind != IR_ATTR_OPAQUE) {
		ir_error(p->ctx, t.loc, "'%.*s' takes no type", (int)t.len, t.s);
		return NULL;
	}
	ptoc_buf_write(&b, t.s, t.len);
	ptoc_buf_write(&b, " : ", 3);
	ir_print_type(ty, NULL, ptoc_buf_write, &b);
	if (b.oom)
		ir_out_of_memory(); /* as for the IR itself */
	a = ir_attr_opaque(p->ctx, b.data, b.len);
	ptoc_buf_free(&b);
	return a;
}

/* ---- literals ------------------------------------------------------------------------------ */

int fe_int_literal(fe_parser *p, fe_tok t, int neg, int64_t *out)
{
	const char *s = t.s, *e = t.s + t.len;
	uint64_t x = 0;
	if (s < e && *s == '-') {
		neg = !neg;
		s++;
	}
	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (s += 2; s < e; s++) {
			unsigned d = *s <= '9' ? (unsigned)(*s - '0') : (unsigned)((*s | 0x20) - 'a' + 10);
			if (x >> 60) {
				ir_error(p->ctx, t.loc, "integer literal out of range: '%.*s'",
					 (int)(t.len > 40 ? 40 : t.len), t.s);
				return -1;
			}
			x = x << 4 | d;
		}
		/* hex: a 64-bit pattern */
		if (neg)
			x = 0 - x;
		memcpy(out, &x, sizeof *out);
		return 0;
	}
	for (; s < e; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (x > ((uint64_t)INT64_MAX + 1 - d) / 10) {
			ir_error(p->ctx, t.loc, "integer literal out of range for a 64-bit integer: '%.*s'",
				 (int)(t.len > 40 ? 40 : t.len), t.s);
			return -1;
		}
		x = x * 10 + d;
	}
	if (!neg && x > (uint64_t)INT64_MAX) {
		ir_error(p->ctx, t.loc, "integer literal out of range for a 64-bit integer: '%.*s'",
			 (int)(t.len > 40 ? 40 : t.len), t.s);
		return -1;
	}
	*out = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

int fe_float_literal(fe_parser *p, fe_tok t, int neg, double *out)
{
	char buf[128], *end;
	double v;
	if (t.len >= sizeof buf) {
		ir_error(p->ctx, t.loc, "floating point literal too long");
		return -1;
	}
	memcpy(buf, t.s, t.len);
	buf[t.len] = 0;
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + t.len) {
		ir_error(p->ctx, t.loc, "invalid floating point literal");
		return -1;
	}
	*out = neg ? -v : v;
	return 0;
}

const ir_attr *fe_string_attr(fe_parser *p, fe_tok t)
{
	/* "..." with MLIR escapes: \n \t \" \\ and \XX hex */
	char small[256] = {0}, *buf = small;
	size_t n = 0, i;
	const ir_attr *a;
	if (t.len < 2)
		return NULL;
	if (t.len > sizeof small) {
		buf = ir_xrealloc(NULL, t.len);
	}
	for (i = 1; i + 1 < t.len; i++) {
		char ch = t.s[i];
		if (ch == '\\' && i + 2 < t.len) {
			char d = t.s[++i];
			if (d == 'n') ch = '\n';
			else if (d == 't') ch = '\t';
			else if (d == '"' || d == '\\') ch = d;
			else if (i + 2 < t.len && isxdigit((unsigned char)d) &&
				 isxdigit((unsigned char)t.s[i + 1])) {
				int hi = d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10;
				char d2 = t.s[++i];
				int lo = d2 <= '9' ? d2 - '0' : (d2 | 0x20) - 'a' + 10;
				ch = (char)(hi << 4 | lo);
			} else {
				ir_loc l = t.loc;
				l.col += (uint32_t)i;
				ir_error(p->ctx, l, "unknown escape in string literal");
				if (buf != small)
					free(buf);
				return NULL;
			}
		}
		buf[n++] = ch;
	}
	a = ir_attr_string(p->ctx, buf, n);
	if (buf != small)
		free(buf);
	return a;
}

const ir_attr *fe_symbol_attr(fe_parser *p, fe_tok t)
{
	fe_tok s = t;
	const ir_attr *a;
	if (t.len > 1 && t.s[1] == '"') {
		s.s++;
		s.len--;
		a = fe_string_attr(p, s);
		return a ? ir_attr_symbol(p->ctx, a->u.str.s, a->u.str.len) : ir_attr_symbol(p->ctx, "", 0);
	}
	return ir_attr_symbol(p->ctx, t.s + 1, t.len - 1);
}

/* ---- whole strings (the MLIR bridge) ------------------------------------------------------- */

/* A parser with no source (ctx only) and the token `s` at `loc`. */
static fe_tok whole_string(fe_parser *p, ir_ctx *ctx, const char *s, size_t len, ir_loc loc)
{
	fe_tok t;
	memset(p, 0, sizeof *p);
	p->ctx = ctx;
	t.s = s;
	t.len = (uint32_t)len;
	t.loc = loc;
	return t;
}

const ir_type *fe_type_string(ir_ctx *ctx, const char *s, size_t len, ir_loc loc)
{
	fe_parser p;
	fe_tok t = whole_string(&p, ctx, s, len, loc);
	return fe_type_text(&p, t);
}

const ir_attr *fe_attr_string(ir_ctx *ctx, const char *s, size_t len, ir_loc loc)
{
	fe_parser p;
	fe_tok t = whole_string(&p, ctx, s, len, loc);
	return fe_attr_text(&p, t);
}
