/* ir.h: ptoc's MLIR-style SSA IR (internal header; the table of contents of ir/).
 *
 * A context owns everything: an arena, interned strings, uniqued types and attributes
 * (compare by pointer), and the diagnostic sink. A module is a `builtin.module` op;
 * ops hold operands (with use lists), results, an attribute dictionary, regions and a
 * location. Blocks hold arguments and a doubly linked list of ops. Nothing is freed
 * piecemeal: destroying the context frees all of it.
 *
 * Levels: tile SSA (ops on !pto.tile values that return tiles), tile buffers in DPS form
 * (!pto.tile_buf, ins(...) outs(...)), and instructions (level 3, after placement and
 * repeat splitting). All levels share these structures and print in the syntax the
 * parser reads.
 */
#ifndef PTOC_IR_H
#define PTOC_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ptoc/legality.h" /* PTOC_LOC_LIST */
#include "ptoc/ptoc.h"
#include "ptort.h"
#include "ctx.h" /* struct ptoc_context (internal) */

typedef ptoc_location ir_loc;
typedef struct ptoc_context ir_ctx;
typedef struct ir_type ir_type;
typedef struct ir_attr ir_attr;
typedef struct ir_named_attr ir_named_attr;
typedef struct ir_value ir_value;
typedef struct ir_operand ir_operand;
typedef struct ir_op ir_op;
typedef struct ir_block ir_block;
typedef struct ir_region ir_region;

/* ---- arena.c: the context's memory and strings ------------------------ */

void *ir_alloc(ir_ctx *ctx, size_t size);   /* zeroed, 16-byte aligned, freed with ctx */
/* The IR's own memory (the arena's chunks, the printer's name tables, the parser's
 * tables while it builds IR) has no failure path: these abort with "ptoc: out of
 * memory" when malloc fails (ir_out_of_memory). Every other allocation checks and
 * reports (docs/architecture.md "Allocation failure"). */
void *ir_xcalloc(size_t n, size_t size);
void *ir_xrealloc(void *p, size_t size);
void ir_out_of_memory(void);
char *ir_strndup(ir_ctx *ctx, const char *s, size_t len);
/* A copy of the n elements of `size` bytes at p, with a zeroed one after them. */
void *ir_memdup(ir_ctx *ctx, const void *p, size_t n, size_t size);
/* Interned NUL-terminated copy: equal strings give the same pointer. */
const char *ir_intern(ir_ctx *ctx, const char *s, size_t len);

/* ---- diag.c: diagnostics --------------------------------------------- */

/* Registers a source buffer so diagnostics at its locations can show the line and a
 * caret. Returns the interned file name used in locations. The context keeps its own
 * copy of the buffer. */
const char *ir_add_source(ir_ctx *ctx, const char *filename, const char *buf, size_t len);
/* The same without a copy: `buf` must stay valid and unchanged until the context is
 * destroyed (the driver uses it for large inputs). */
const char *ir_add_source_borrowed(ir_ctx *ctx, const char *filename, const char *buf,
				   size_t len);
/* Reports through the context's handler; errors are counted. printf-style. */
void ir_emit(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *fmt, ...);
void ir_emitv(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *fmt, va_list ap);
/* ir_emitv with `prefix` before the message (the message cut at 1023 bytes). */
void ir_emitv_prefixed(ir_ctx *ctx, ptoc_severity sev, ir_loc loc, const char *prefix,
		       const char *fmt, va_list ap);
/* 1 when the registered source text at `loc` starts with `word`. */
int ir_loc_spells(ir_ctx *ctx, ir_loc loc, const char *word);
#define ir_error(ctx, loc, ...) ir_emit((ctx), PTOC_ERROR, (loc), __VA_ARGS__)
#define ir_warning(ctx, loc, ...) ir_emit((ctx), PTOC_WARNING, (loc), __VA_ARGS__)
#define ir_note(ctx, loc, ...) ir_emit((ctx), PTOC_NOTE, (loc), __VA_ARGS__)
#define ir_remark(ctx, loc, ...) ir_emit((ctx), PTOC_REMARK, (loc), __VA_ARGS__)

/* ---- type.c: uniqued types ------------------------------------------- */

typedef enum ir_type_kind {
	IR_TYPE_NONE,        /* `none` */
	IR_TYPE_INDEX,       /* `index` */
	IR_TYPE_INT,         /* i1, i4, i8, si8, ui8, ... */
	IR_TYPE_FLOAT,       /* f32, f16, bf16, f8E4M3FN, ..., and f64 */
	IR_TYPE_FUNC,        /* (T, ...) -> (T, ...) */
	IR_TYPE_PTR,         /* !pto.ptr<elem> */
	IR_TYPE_TENSOR_VIEW, /* !pto.tensor_view<?x?xf32> */
	IR_TYPE_PART_VIEW,   /* !pto.partition_tensor_view<32x32xf32> */
	IR_TYPE_TILE,        /* !pto.tile<16x16xf32> (level 1) */
	IR_TYPE_TILE_BUF,    /* !pto.tile_buf<loc=..., dtype=..., ...> (level 2) */
	IR_TYPE_OPAQUE,      /* any other type, kept as its text (`!pto.event`, `memref<...>`) */
} ir_type_kind;

enum { IR_INT_SIGNLESS, IR_INT_SIGNED, IR_INT_UNSIGNED };
#define IR_F64 PTORT_TYPE_COUNT /* the float kind of f64 (not a runtime type) */
#define IR_DYN INT64_MIN        /* a `?` dimension */

/* Tile locations (`loc=` of tile_buf, address spaces): unspecified, then the on-chip
 * memories of PTOC_LOC_LIST (ptoc/legality.h) in its order, so that
 * m - IR_MEM_VEC is the ptoc_loc of m. Order fixed: tables index it. */
typedef enum ir_mem {
	IR_MEM_NONE, /* unspecified (level-1 tiles) */
#define IR_MEM_ID_(id, name) IR_MEM_##id,
	PTOC_LOC_LIST(IR_MEM_ID_)
#undef IR_MEM_ID_
	IR_MEM_COUNT
} ir_mem;
/* The layout codes of tile_buf (`blayout=`, `slayout=`; the runtime's ptort_tile codes),
 * once: X(ID, spelling). Order fixed: the code is the position. */
#define IR_BLAYOUT_LIST(X) X(ROW_MAJOR, "row_major") X(COL_MAJOR, "col_major")
#define IR_SLAYOUT_LIST(X) X(NONE_BOX, "none_box") X(ROW_MAJOR, "row_major") X(COL_MAJOR, "col_major")
enum {
#define IR_BLAYOUT_ENUM_(id, name) IR_BLAYOUT_##id,
	IR_BLAYOUT_LIST(IR_BLAYOUT_ENUM_)
#undef IR_BLAYOUT_ENUM_
	IR_BLAYOUT_COUNT
};
enum {
#define IR_SLAYOUT_ENUM_(id, name) IR_SLAYOUT_##id,
	IR_SLAYOUT_LIST(IR_SLAYOUT_ENUM_)
#undef IR_SLAYOUT_ENUM_
	IR_SLAYOUT_COUNT
};
extern const char *const ir_blayout_names[IR_BLAYOUT_COUNT]; /* "row_major", ... */
extern const char *const ir_slayout_names[IR_SLAYOUT_COUNT]; /* "none_box", ... */

struct ir_type {
	ir_type_kind kind;
	union {
		struct { unsigned bits, signedness; } i;           /* INT */
		struct { unsigned kind; } f;                       /* FLOAT: ptort_type or IR_F64 */
		struct { const ir_type *const *in, *const *out; unsigned nin, nout; } fn;
		struct { const ir_type *elem; } ptr;               /* PTR */
		struct { const int64_t *dims; unsigned rank; const ir_type *elem; } shaped;
		/* TENSOR_VIEW, PART_VIEW (any rank) and TILE (rank 2; mem may be IR_MEM_NONE) */
		struct {
			ir_mem mem;
			const ir_type *elem;
			int64_t rows, cols, v_row, v_col; /* v_row/v_col may be IR_DYN */
			unsigned blayout, slayout;
			int64_t fractal;                  /* as written; the verifier checks it */
			int64_t pad, compact;             /* pad 0-3, compact 0-2 as written */
		} tb;                                      /* TILE_BUF */
		struct { const char *text; } opaque;      /* full text including the leading ! */
	} u;
};

const ir_type *ir_type_none(ir_ctx *ctx);
const ir_type *ir_type_index(ir_ctx *ctx);
const ir_type *ir_type_int(ir_ctx *ctx, unsigned bits, unsigned signedness);
const ir_type *ir_type_float(ir_ctx *ctx, unsigned kind);
/* The scalar type of a runtime element type (ui8 -> unsigned i8, i4 -> signless i4, ...). */
const ir_type *ir_type_elem(ir_ctx *ctx, ptort_type t);
/* Whether MLIR (the tested major, 19: docs/embedding.md) has the float kind `kind` as a
 * builtin type. The others (hif8, f4E2M1FN, f4E1M2, f8E8M0FNU) are spelled `!pto.NAME`
 * where they stand alone in the generic form (a type, a type attribute, a function
 * type's part) and read back from that spelling; inside a pto type's body
 * (`dtype=hif8`) they keep their name. */
int ir_float_is_mlir_builtin(unsigned kind);
const ir_type *ir_type_func(ir_ctx *ctx, const ir_type *const *in, unsigned nin,
			    const ir_type *const *out, unsigned nout);
const ir_type *ir_type_ptr(ir_ctx *ctx, const ir_type *elem);
const ir_type *ir_type_shaped(ir_ctx *ctx, ir_type_kind kind, const int64_t *dims,
			      unsigned rank, const ir_type *elem);
/* `tb` is a TILE_BUF type built on the stack; returns the uniqued copy. */
const ir_type *ir_type_tile_buf(ir_ctx *ctx, const ir_type *tb);
const ir_type *ir_type_opaque(ir_ctx *ctx, const char *text, size_t len);
/* The runtime element type of a scalar type; -1 when it has none (index, i1, f64). */
int ir_type_to_elem(const ir_type *t, ptort_type *out);
int ir_type_is_tile(const ir_type *t); /* TILE or TILE_BUF */
const char *ir_mem_name(ir_mem m);     /* "vec", "mat", ... */
int ir_mem_parse(const char *s, size_t len, ir_mem *out);

/* ---- attr.c: uniqued attributes -------------------------------------- */

typedef enum ir_attr_kind {
	IR_ATTR_UNIT,   /* a name without value: {pto.entry} */
	IR_ATTR_BOOL,   /* true / false */
	IR_ATTR_INT,    /* 42 : i64 (type NULL = the default i64 of a bare literal) */
	IR_ATTR_FLOAT,  /* 1.5 : f32 (type NULL = f64) */
	IR_ATTR_STRING, /* "text" (value unescaped, may contain NUL: use len) */
	IR_ATTR_TYPE,   /* a type used as an attribute */
	IR_ATTR_ARRAY,  /* [a, b] */
	IR_ATTR_DENSE,  /* array<i32: 1, 2> */
	IR_ATTR_DICT,   /* {a = 1, b} entries sorted by name, names unique */
	IR_ATTR_SYMBOL, /* @name */
	IR_ATTR_PTO,    /* #pto<round_mode RINT> (style ANGLE) or #pto.round_mode<RINT> (DOTTED) */
	IR_ATTR_OPAQUE, /* any other #dialect<...> / #dialect.name<...>, kept as text */
} ir_attr_kind;

enum { IR_PTO_ANGLE, IR_PTO_DOTTED };

struct ir_named_attr {
	const char *name; /* interned */
	const ir_attr *value;
};

struct ir_attr {
	ir_attr_kind kind;
	union {
		struct { int64_t v; const ir_type *type; } i;      /* BOOL (v 0/1), INT */
		struct { double v; const ir_type *type; } f;       /* FLOAT */
		struct { const char *s; size_t len; } str;         /* STRING, SYMBOL */
		const ir_type *type;                               /* TYPE */
		struct { const ir_attr *const *elems; unsigned n; } array;
		struct { const ir_type *elem; const int64_t *v; unsigned n; } dense;
		struct { const ir_named_attr *entries; unsigned n; } dict;
		struct { const char *kind, *value; unsigned style; } pto; /* interned, as written */
		struct { const char *text; } opaque;               /* full text including # */
	} u;
};

const ir_attr *ir_attr_unit(ir_ctx *ctx);
const ir_attr *ir_attr_bool(ir_ctx *ctx, int v);
const ir_attr *ir_attr_int(ir_ctx *ctx, int64_t v, const ir_type *type);
const ir_attr *ir_attr_float(ir_ctx *ctx, double v, const ir_type *type);
/* A float attribute of `type` (f64, f32, f16, bf16) from the type's bit pattern, exact
 * for every pattern (NaN payloads, signalling NaNs included); other types keep the
 * integer. ir_float_attr_bits is the inverse: the bit pattern of `type` that attribute
 * `a` (a FLOAT attribute, or an INT holding bits) denotes, the double rounded once to
 * nearest even; -1 when `type` is not one of these. */
const ir_attr *ir_attr_float_bits(ir_ctx *ctx, uint64_t bits, const ir_type *type);
int ir_float_attr_bits(const ir_attr *a, const ir_type *type, uint64_t *bits);
const ir_attr *ir_attr_string(ir_ctx *ctx, const char *s, size_t len);
const ir_attr *ir_attr_symbol(ir_ctx *ctx, const char *s, size_t len);
const ir_attr *ir_attr_type(ir_ctx *ctx, const ir_type *t);
const ir_attr *ir_attr_array(ir_ctx *ctx, const ir_attr *const *elems, unsigned n);
const ir_attr *ir_attr_dense(ir_ctx *ctx, const ir_type *elem, const int64_t *v, unsigned n);
/* Sorts by name; a duplicate name is reported at `loc` and the later entry dropped. */
const ir_attr *ir_attr_dict(ir_ctx *ctx, const ir_named_attr *entries, unsigned n, ir_loc loc);
const ir_attr *ir_attr_pto(ir_ctx *ctx, const char *kind, const char *value, unsigned style);
const ir_attr *ir_attr_opaque(ir_ctx *ctx, const char *text, size_t len);
/* `a` with `fn` applied to every attribute inside it that is neither an array nor a
 * dictionary (arrays and dictionaries are rebuilt around the results; an unchanged
 * tree comes back as `a` itself, uniqued). */
typedef const ir_attr *(*ir_attr_leaf_fn)(ir_ctx *ctx, const ir_attr *leaf, void *user);
const ir_attr *ir_attr_map(ir_ctx *ctx, const ir_attr *a, ir_attr_leaf_fn fn, void *user);
/* Lookup in a DICT attribute; NULL when absent. */
const ir_attr *ir_dict_get(const ir_attr *dict, const char *name);
/* The round mode of a round_mode attribute (either spelling, CAST_ prefix); -1 if not one. */
int ir_attr_rmode(const ir_attr *a, ptort_rmode *out);
/* 1 ON, 0 OFF for a saturation_mode attribute; -1 if not one. */
int ir_attr_satmode(const ir_attr *a);
/* The ptort_cmp of a #pto<cmp lt> attribute; -1 if not one. */
int ir_attr_cmp(const ir_attr *a);

/* ---- op.c: ops, values, blocks, regions ------------------------------ */

/* The op table: ops.def defines every op once (see the comment there). */
typedef enum ir_opcode {
#define OP(id, name, ...) IR_OP_##id,
#include "ops.def"
#undef OP
	IR_OP_COUNT,
	IR_OP_UNKNOWN = IR_OP_COUNT, /* an op not in the table (accepted in generic form) */
	/* the vector ops: row i of target/vec_types.def is IR_OP_V_FIRST + i */
	IR_OP_V_FIRST = IR_OP_TGET_SCALE_ADDR + 1,
	IR_OP_V_END = IR_OP_SET_VALIDSHAPE
} ir_opcode;

struct ir_value {
	const ir_type *type;
	ir_op *def;          /* defining op, or NULL for a block argument */
	ir_block *owner;     /* the block of a block argument */
	const char *name;    /* interned name hint without '%' (from the source), or NULL */
	ir_operand *uses;    /* singly linked through ir_operand.next_use */
	ir_loc loc;
	unsigned index;      /* result number or argument number */
	unsigned vmark;      /* scratch for verify.c (visibility scope); 0 otherwise */
};

struct ir_operand {
	ir_value *value;
	ir_op *owner;
	ir_operand *next_use;
};

struct ir_op {
	ir_opcode code;
	unsigned num_operands;
	unsigned num_results;
	unsigned num_regions;
	const char *name;      /* interned full name: "pto.tcvt", "func.func", ... */
	ir_operand *operands;
	ir_value *results;
	const ir_attr *attrs;  /* a DICT attribute, never NULL */
	ir_region *regions;
	ir_block *block;       /* containing block */
	ir_op *prev, *next;
	ir_loc loc;
};

struct ir_block {
	ir_value **args;
	unsigned num_args, cap_args;
	ir_op *first, *last;
	ir_region *region;     /* containing region */
	ir_block *next;        /* next block of the region */
	const char *label;     /* interned ^label from the source, or NULL */
	ir_loc loc;
};

struct ir_region {
	ir_block *first, *last;
	ir_op *parent;
};

/* Creates a detached op: the operand values are referenced (use lists updated), the
 * results are created with `result_types`, `attrs` may be NULL (empty dict), and
 * `num_regions` empty regions are attached. `name` need not be interned. The opcode is
 * looked up from the name (IR_OP_UNKNOWN when absent). */
ir_op *ir_op_create(ir_ctx *ctx, const char *name, ir_loc loc, ir_value *const *operands,
		    unsigned num_operands, const ir_type *const *result_types,
		    unsigned num_results, const ir_attr *attrs, unsigned num_regions);
/* An error at `op`: "'NAME' op MESSAGE" (printf-style). Returns 1, so that checks can
 * count their errors with `n += ir_op_error(...)`. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
unsigned ir_op_error(ir_ctx *ctx, const ir_op *op, const char *fmt, ...);
void ir_op_set_attr(ir_ctx *ctx, ir_op *op, const char *name, const ir_attr *value);
/* Sets (or, for a NULL value, removes) several attributes at once: one new dictionary. */
void ir_op_set_attrs(ir_ctx *ctx, ir_op *op, const ir_named_attr *set, unsigned n);
void ir_op_remove_attr(ir_ctx *ctx, ir_op *op, const char *name);
const ir_attr *ir_op_get_attr(const ir_op *op, const char *name);
/* The memory of a level-3 instruction's `mem` field (#pto.address_space<...>) as an
 * ir_mem, or -1 when the field is absent or names no memory. */
int ir_op_mem_field(const ir_op *op);
void ir_op_set_operand(ir_op *op, unsigned i, ir_value *v);
/* Unlinks from its block; the op must have no uses left. Its memory stays in the arena. */
void ir_op_erase(ir_op *op);
void ir_value_replace_all_uses(ir_value *from, ir_value *to);
unsigned ir_value_num_uses(const ir_value *v);
/* Whether `v` (may be NULL) is defined by an arith.constant with an integer value;
 * stores the value in *out when so. */
int ir_value_const_int(const ir_value *v, int64_t *out);

ir_block *ir_block_create(ir_ctx *ctx, ir_loc loc);
ir_value *ir_block_add_arg(ir_ctx *ctx, ir_block *b, const ir_type *type, ir_loc loc);
void ir_region_append_block(ir_region *r, ir_block *b);
void ir_block_append_op(ir_block *b, ir_op *op);
void ir_block_insert_before(ir_op *before, ir_op *op);
/* Walks ops in pre-order (an op, then the ops nested in its regions); stops and
 * returns non-zero when `fn` does. */
int ir_walk(ir_op *root, int (*fn)(ir_op *op, void *user), void *user);
/* `a` then `b` into buf (cap >= 1 bytes), truncated and NUL-terminated as snprintf's
 * "%s%s" would; returns buf. For names built on hot paths without formatting. */
char *ir_str_cat(char *buf, size_t cap, const char *a, const char *b);
/* The ops under `root` (itself included) that `keep` accepts (NULL: all), in ir_walk's
 * order, as a malloc'd array (the caller frees l->a); -1 when out of memory (nothing
 * to free then). */
typedef struct ir_op_list {
	ir_op **a;
	size_t n, cap;
} ir_op_list;
int ir_op_list_collect(ir_op *root, int (*keep)(const ir_op *op), ir_op_list *l);

/* The op table (ops.def), queried by opcode.
 *
 * Syntax forms: each op's custom syntax is one of these; frontend/build.c has one
 * parse routine and ir/print.c one print routine per form, so what prints parses.
 * An op whose operands, types or attributes do not fit its form prints in the generic
 * form (`"name"(%a) {attrs} : (T) -> (R)`), which every op accepts. */
typedef enum ir_form {
	IR_FORM_NONE,    /* no custom form: generic only (the pto.i.* instructions) */
	IR_FORM_MODULE,  /* module @name attributes {...} { ... } */
	IR_FORM_FUNC,    /* func.func private @f(%a: T) -> R attributes {...} { ... } */
	IR_FORM_FOR,     /* %r = scf.for %i = %lb to %ub step %s iter_args(%x = %v) -> (T) {} */
	IR_FORM_IF,      /* %r = scf.if %c -> (T) { ... } else { ... } */
	IR_FORM_WHILE,   /* %r = scf.while (%a = %x) : (T) -> (R) { ... } do { ^bb0(%b: R): ... } */
	IR_FORM_COND,    /* scf.condition(%c) %a, %b : T, U */
	IR_FORM_TERM,    /* return %a, %b : T, T   (scf.yield likewise) */
	IR_FORM_CALL,    /* %r = func.call @f(%a) : (T) -> (R) */
	IR_FORM_CONST,   /* %c = arith.constant 42 : i32   (true / false: i1) */
	IR_FORM_ARITH,   /* %r = arith.addi %a, %b : T   (I1 operands first, untyped: select) */
	IR_FORM_CMPI,    /* %r = arith.cmpi slt, %a, %b : T */
	IR_FORM_CAST,    /* %r = arith.index_cast %a : T to R */
	IR_FORM_VIEW,    /* %v = op %src, KW = [%a, ...], KW = [%b, ...] {attrs} : R
			  * (KW: the names of the two VAR operands) */
	IR_FORM_VIEW_FROM, /* the same with `: S -> R` (the source's type too) */
	IR_FORM_KWOPS,   /* %t = op KW = %a KW = %b {attrs} : R (KW: the OPT operands) */
	IR_FORM_TASSIGN, /* %r = pto.tassign %t, %a {attrs} : T -> R  or  ... : T, A */
	IR_FORM_FLAG,    /* pto.set_flag[<PIPE_A>, <PIPE_B>, <EVENT_ID0>] */
	IR_FORM_BARRIER, /* pto.barrier <PIPE_ALL> */
	IR_FORM_EVARR,   /* %a = pto.declare_eventid_array -> !pto.eventid_array<N>,
			  * %e = pto.eventid_array_get %a[%i] : T, pto.eventid_array_set %a[%i], %v : T */
	IR_FORM_GETVAL,  /* %v = op ins(%t, %i : T, index) outs : R   (tgetval) */
	IR_FORM_PTRACC,  /* %v = op %p[%i] : P -> T (load_scalar); op %v, %p[%i] : P, T (store) */
	IR_FORM_SYNC,    /* op[<A>, <B>, ...] {attrs}: the bracket's entries are the row's ATTRs
			  * in order; or op <A>, N (the first two ATTRs) */
	IR_FORM_QUERY,   /* %b = pto.get_block_idx [: T]   (i64 when omitted) */
	IR_FORM_TILE,    /* DPS: op ins(%a, %b : T, U) outs(%d : D) {attrs}
			  * SSA: %d = op %a, %b {attrs} : (T, U) -> D */
	IR_FORM_TILE_INS_ATTRS, /* the same with the DPS attributes inside ins: ins(%a {attrs} : T) */
	IR_FORM_LEAD,    /* op %t, %a, %b {attrs} : T   (only the first operand typed, the
			  * others index: set_validshape) */
	IR_FORM_SECTION, /* pto.section.cube { ... }: one region, no operands (frontend/mixed.c) */
	IR_FORM_PIPE,    /* %r = op(%a, %b : T, U) {attrs} -> R, or (key = %a : T, ...): the
			  * cross-core ops (frontend/mixed.c) */
	IR_FORM_SUBSET,  /* %r = pto.subset %t[%i, %j] sizes [R, C] {attrs} : T   (the result type
			  * derived from T: frontend/subset.c) */
	IR_FORM_COUNT
} ir_form;

/* Operand kinds (the role lists of ops.def). The TILE_<MEM> kinds are tiles in that
 * memory once bufferized (tile_buf loc=...). */
typedef enum ir_kind {
	IR_KIND_ANY,
	IR_KIND_INT,          /* an integer or index */
	IR_KIND_I1,
	IR_KIND_SCALAR,       /* an integer or float scalar (a scalar operand of a tile op) */
	IR_KIND_FLOAT,        /* a float scalar (the float ops of arith) */
	IR_KIND_PTR,          /* !pto.ptr */
	IR_KIND_VIEW,         /* !pto.tensor_view / !pto.partition_tensor_view */
	IR_KIND_TILE,         /* !pto.tile / !pto.tile_buf, any memory */
	IR_KIND_TILE_LEFT,
	IR_KIND_TILE_RIGHT,
	IR_KIND_TILE_ACC,
	IR_KIND_TILE_BIAS,
	IR_KIND_TILE_SCALING,
	IR_KIND_COUNT
} ir_kind;
/* The memory of a TILE_<MEM> kind; IR_MEM_NONE for the others. */
ir_mem ir_kind_mem(ir_kind k);

enum { IR_ROLE_IN, IR_ROLE_OPT, IR_ROLE_VAR, IR_ROLE_OUT };
typedef struct ir_role {
	const char *name;    /* "src", "lhs", "shape", ... */
	unsigned char use;   /* IR_ROLE_IN, _OPT, _VAR, _OUT */
	unsigned char kind;  /* ir_kind */
} ir_role;
typedef struct ir_attrdef {
	const char *name;
	unsigned char kind;  /* ir_ifield_kind (IR_IF_RMODE, IR_IF_SAT, ...) */
	unsigned char req;   /* IR_IF_REQ or IR_IF_OPT */
} ir_attrdef;

typedef struct ir_opdef {
	const char *name;
	unsigned flags;      /* IR_OPF_* */
	int min_operands;    /* -1: any */
	int max_operands;    /* -1: any */
	int num_outs;        /* DPS ops: how many trailing operands are outs; -1 otherwise */
	int num_results;     /* -1: any */
	int num_regions;     /* -1: any */
	ir_form form;        /* the custom syntax */
	const ir_role *roles;    /* the operands in order (OUTs last) */
	unsigned num_roles;
	const ir_attrdef *attrs; /* the attributes checked by kind */
	unsigned num_attrs;
} ir_opdef;
enum {
	IR_OPF_TILE = 1u << 0,       /* a tile op (has SSA and DPS forms) */
	IR_OPF_TERMINATOR = 1u << 1,
	IR_OPF_PURE = 1u << 2,
	IR_OPF_ISOLATED = 1u << 3,   /* values from outside are not visible (func.func, module) */
	IR_OPF_MATMUL = 1u << 4,     /* the tmatmul family */
	IR_OPF_LEVEL3 = 1u << 5,     /* an instruction of level 3 */
	IR_OPF_VEC = 1u << 6,        /* a vector op (a row of target/vec_types.def) */
};
/* The pipe column of ops.def (IR_OPF_PIPE(rule) in the flags; a row without one runs on
 * the scalar unit) and of insns.def: a pipe, or how the op's memories and the target
 * decide it (docs/semantics.md §8.7). ir_op_pipe (pipe.c) resolves it. */
enum {
	IR_PR_S,     /* the scalar unit (control flow, scalars, tgetval, tsetval, aliases) */
	IR_PR_V,     /* the vector unit */
	IR_PR_M,     /* the cube */
	IR_PR_MTE2,  /* GM to an on-chip memory */
	IR_PR_VEC,   /* V; MTE2 when the tile written is in mat (texpands, tfillpad on L1) */
	IR_PR_MOVE,  /* on-chip to on-chip: the target's row for (src, dst) memories */
	IR_PR_STORE, /* on-chip to GM: FIX out of acc, else MTE3 */
	IR_PR_SYNC,  /* a sync op: the queue its attributes name */
	IR_PR_COUNT
};
#define IR_OPF_PIPE(rule) ((unsigned)IR_PR_##rule << 8)
#define IR_OPF_PIPE_RULE(flags) ((flags) >> 8 & 15u)
const ir_opdef *ir_opdef_get(ir_opcode code);
/* The position of role `name` in `code`'s role list, or -1. For roles before any OPT
 * or VAR this is the operand position (in DPS form; the same in SSA form for INs). */
int ir_opdef_role(ir_opcode code, const char *name);
/* How many roles of `d` from the first are of kind `k` (ARITH: select's I1 condition,
 * which the form's `: T` does not type). */
unsigned ir_opdef_lead(const ir_opdef *d, ir_kind k);
/* How many trailing operands of DPS op `op` are its outs: the row's count, except
 * tmrgsort's one-list form (src, blockLen; dst), whose executed counts are absent. */
unsigned ir_op_num_outs(const ir_op *op);

/* The vector ops (target/vec_types.def): how each uses its operands, the element
 * operation it computes and the element types each target's vector unit takes. */
/* IR_VK_BIN, ... in the order of vec_kinds.def, which describes each */
#include "vec_kinds.def"
#define IR_VK_ENUM_(kind, form, doc, operands, attrs) IR_VK_##kind,
typedef enum ir_vkind {
	IR_VK_ROWS(IR_VK_ENUM_)
} ir_vkind;
#undef IR_VK_ENUM_
typedef struct ir_vecdef {
	const char *name;      /* "tadd" */
	ir_vkind kind;
	ptort_vop vop;         /* the element operation (MOV: copies, compares, selects) */
} ir_vecdef;            /* the element types per target: struct target's vec_types */
/* The row of vector op `code`, NULL for other ops. */
const ir_vecdef *ir_vecdef_get(ir_opcode code);

/* The predicates of arith.cmpi, by their `predicate` value: "eq", "ne", "slt", "sle",
 * "sgt", "sge", "ult", "ule", "ugt", "uge". */
enum { IR_CMPI_PRED_COUNT = 10 };
extern const char *const ir_cmpi_pred_names[IR_CMPI_PRED_COUNT];
enum { IR_CMPF_PRED_COUNT = 16 }; /* MLIR's order: false oeq ogt oge olt ole one ord ueq ... true */
extern const char *const ir_cmpf_pred_names[IR_CMPF_PRED_COUNT];

/* The level-3 instruction table (insns.def): each pto.i.* op's fields, in the order of
 * the runtime call it mirrors. Shared by the builder (passes/lower.h), the verifier and
 * emit-c. */
typedef enum ir_ifield_kind {
	IR_IF_MEM,     /* #pto.address_space<...> (not none) */
	IR_IF_ADDR,    /* byte address, pitch or element index, [0, 2^32) */
	IR_IF_ETYPE,   /* an element type (type attribute of a runtime type) */
	IR_IF_RMODE,   /* #pto<round_mode ...> */
	IR_IF_SAT,     /* #pto<saturation_mode ON|OFF> */
	IR_IF_REPEAT,  /* repeat count, [1, 255] */
	IR_IF_STRIDE,  /* block or repeat stride, [0, 255] */
	IR_IF_MASK,    /* 64 lanes as an i64 */
	IR_IF_COUNT,   /* element, row or column count, [1, 2^32) */
	IR_IF_F16BITS, /* an f16 bit pattern, [0, 0xFFFF] */
	IR_IF_MNK,     /* an mmad m, k or n, [1, 4095] */
	IR_IF_INIT,    /* "zero", "bias" or "c" */
	IR_IF_UNIT,    /* a flag: present (unit) or absent */
	IR_IF_TILE,    /* NAME (tile_buf type), NAME_addr, NAME_v_row/v_col when `?` */
	IR_IF_VOP,     /* an element operation: a string, a name of PTORT_VOP_LIST ("add") */
	IR_IF_CMP,     /* a compare predicate: #pto<cmp lt> (PTORT_CMP_LIST) */
	IR_IF_SCALAR,  /* a bit pattern of the element type, as an i64 */
	IR_IF_FLAGS,   /* PTORT_V_* flags, [0, 15] */
	IR_IF_BOOL,    /* true / false (an op attribute: tcolsum's isBinary) */
	/* op attributes of the synchronisation ops (docs/semantics.md §8.5) */
	IR_IF_SYNCOP,  /* #pto.pipe_event_type<TLOAD> (or the legacy #pto.sync_op_type<...>) */
	IR_IF_EVENT,   /* #pto.event<EVENT_ID0> ... EVENT_ID7 */
	IR_IF_PIPE,    /* #pto.pipe<PIPE_V> */
	IR_IF_INT      /* an integer */
} ir_ifield_kind;
enum { IR_IF_REQ, IR_IF_OPT, IR_IF_INIT_REQ /* required unless init = "zero" */ };
/* The #pto attribute kind a synchronisation field of kind `k` holds, written `<X>` in
 * the SYNC form (pipe_event_type, event, pipe), or NULL for another kind. */
static inline const char *ir_sync_kind(unsigned k)
{
	return k == IR_IF_SYNCOP ? "pipe_event_type" : k == IR_IF_EVENT ? "event"
	       : k == IR_IF_PIPE ? "pipe" : NULL;
}
typedef struct ir_ifield {
	const char *name;
	unsigned char kind;  /* ir_ifield_kind */
	unsigned char req;   /* IR_IF_REQ, IR_IF_OPT, IR_IF_INIT_REQ */
	const char *cvar;    /* TILE: the C variable emit-c declares for it */
} ir_ifield;
typedef struct ir_insndef {
	const char *name;        /* "pto.i.vconv" */
	const char *call;        /* "ptort_vconv" */
	unsigned fixed;          /* operands before the `dyn` ones */
	const ir_ifield *fields; /* in the runtime call's argument order */
	unsigned nfields;
} ir_insndef;
/* The instruction `code` is, or NULL when it is not a level-3 instruction. */
const ir_insndef *ir_insn_get(ir_opcode code);
/* The field `name` of `d` (TILE fields by their NAME only), or NULL. */
const ir_ifield *ir_insn_field(const ir_insndef *d, const char *name);

/* The operand positions of a tmatmul-family op (DPS form; the destination is the last
 * operand): acc_in, lhs, lhs scale, rhs, rhs scale, bias, -1 when the form has none,
 * and whether it is an MX form. Returns 0, or -1 when `code` is not a tmatmul. */
typedef struct ir_matmul_roles {
	int acc, a, a_scale, b, b_scale, bias;
	int mx;
	int gemv; /* the tgemv family: m = 1, k and n from rhs's valid shape */
} ir_matmul_roles;
int ir_matmul_roles_of(ir_opcode code, ir_matmul_roles *r);
ir_opcode ir_opcode_lookup(const char *name, size_t len);
/* The same for a name from ir_intern, cached beside the string: O(1) after its first op. */
ir_opcode ir_opcode_interned(const char *interned);

/* ---- module.c: the module --------------------------------------------- */

struct target; /* target/target.h */

struct ptoc_module {
	ir_ctx *ctx;
	ir_op *op; /* builtin.module with one region of one block */
	const struct target *target; /* resolved by target_resolve on first use; NULL before */
	const struct target *verified; /* the target it last verified clean for; NULL when
					* not verified since parsing or the last pass */
};

/* ---- verify.c: the structural verifier -------------------------------- */

/* Reports every error found (not only the first). Returns the number of errors.
 * The per-target rules (tmov pairs, tmatmul type triples, m/k/n range) come from
 * `t`, the module's resolved target (target_resolve, passes/pass.h); never NULL. */
unsigned ir_verify(ir_ctx *ctx, ir_op *root, const struct target *t);
/* verify_mixed.c: the mixed cube/vector ops' module-wide rules; the error count */
unsigned ir_verify_mixed(ir_ctx *ctx, const ir_op *module, const struct target *t);

/* ---- print.c: the printers (custom form and MLIR generic form) -------- */

typedef struct ir_printer_opts {
	int generic;          /* MLIR generic op form for every op */
	int locs;             /* ` loc("file":line:col)` after each op and block argument */
	const struct target *target; /* `// PIPE_X` after each pto.i.* instruction, its pipe
				      * on this target (docs/lowered.md); NULL: none */
} ir_printer_opts;
/* Writes through `out`; returns 0 on success, the writer's error otherwise. */
int ir_print_op(ir_ctx *ctx, const ir_op *op, const ir_printer_opts *opts,
		ptoc_write_fn out, void *user);
/* One type or attribute as the printers write it (opts NULL: the custom form; generic:
 * MLIR's spelling, from which the MLIR bridge re-creates it). */
int ir_print_type(const ir_type *t, const ir_printer_opts *opts, ptoc_write_fn out, void *user);
int ir_print_attr(const ir_attr *a, const ir_printer_opts *opts, ptoc_write_fn out, void *user);
/* The printed form of `t` in buf (cap bytes, truncated; "<null>" for NULL): buf. */
const char *ir_type_str(const ir_type *t, char *buf, size_t cap);

/* ---- frontend (frontend/frontend.h): parse any .pto form into a module ---- */
ptoc_module *ptoc_parse(ptoc_context *ctx, const char *buf, size_t len, const char *filename);

#endif
