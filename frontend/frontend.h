/* frontend.h: the .pto frontend (table of contents of frontend/).
 *
 * fe_parse reads any .pto form into a module: PTOAS/MLIR modules (custom and generic op
 * forms, tile SSA and DPS tile ops) and line-oriented PTO-AS kernels. The lexer
 * (lexer.l, flex, reentrant) and the grammar (parser.y, bison, pure) share the parser
 * state below; build.c turns the pieces of one statement into IR and keeps the value
 * scopes; typetext.c parses the bracketed type and attribute tokens (`!pto.tile_buf<..>`,
 * `#pto<round_mode RINT>`, `array<i32: 1, 2>`). Errors go through ir_error only.
 */
#ifndef PTOC_FRONTEND_H
#define PTOC_FRONTEND_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* Parses `buf` (any bytes, not NUL-terminated) named `file`; `first_line` is the line
 * number of buf[0]. Returns NULL when an error was reported. */
ptoc_module *fe_parse(ir_ctx *ctx, const char *buf, size_t len, const char *file,
		      unsigned first_line);

/* ---- internal ---------------------------------------------------------- */

#define FE_MAX_DEPTH 256 /* brackets, regions and nested types */

typedef struct fe_tok {
	const char *s; /* into the source buffer */
	uint32_t len;
	ir_loc loc;
} fe_tok;

/* One piece of a custom-form op statement, in source order. */
enum {
	FE_P_OPERAND,  /* %v (first or after a comma) */
	FE_P_WORD,     /* a bare word after the op name (cmpi predicate) */
	FE_P_INS,      /* ins(%a, %b {attrs} : T, T) */
	FE_P_OUTS,     /* outs(%c : T) */
	FE_P_KWLIST,   /* key = [%a, %b] */
	FE_P_KWVAL,    /* key = %a */
	FE_P_ATTRS,    /* {a = 1} */
	FE_P_PROPS,    /* <{a = 1}> */
	FE_P_COLON,    /* : T, T   or : (T, T) -> (T) (function type in `fn`) */
	FE_P_ARROW,    /* -> T  /  -> (T, T) */
	FE_P_TO,       /* to T */
	FE_P_BRACKET,  /* [<A>, <B>] : attrs */
	FE_P_ANGLE,    /* <A> (barrier) */
	FE_P_ATTR,     /* a lone attribute (#pto.pipe<PIPE_ALL>, literal) */
};

typedef struct fe_piece {
	int kind;
	fe_tok key;                /* KW*, WORD */
	unsigned v0, vn;           /* values: [v0, v0+vn) of the value stack */
	unsigned t0, tn;           /* types: [t0, t0+tn) of the type stack */
	const ir_attr *attr;       /* ATTRS/PROPS dict, INS inner dict, BRACKET array, ATTR */
	const ir_type *fn;         /* COLON: a function type written `(..) -> ..` */
	ir_loc loc;
} fe_piece;

typedef struct fe_use {
	ir_value *v;               /* NULL when undefined or poisoned */
	ir_loc loc;
	const char *name;          /* interned, for messages */
	uint32_t namelen;
} fe_use;

typedef struct fe_def {
	const char *name;          /* interned, without % */
	unsigned count;            /* %r:2 */
	ir_loc loc;
} fe_def;

/* Hash table of the values visible in the current isolated scope. */
typedef struct fe_sym {
	const char *name;          /* interned pointer: the key; NULL: free slot */
	ir_value *v;               /* NULL: poisoned (its op failed to parse) */
	ir_loc loc;                /* of the definition */
	int live;                  /* 0: left its region (slot kept for the name) */
} fe_sym;

typedef struct fe_scope {
	fe_sym *tab;
	unsigned cap, n;
	struct fe_scope *outer;    /* the enclosing isolated scope */
	const char **defs;         /* names defined, in order (for popping regions) */
	unsigned ndefs, capdefs;
	unsigned *region_marks;    /* ndefs at each open region */
	unsigned nmarks, capmarks;
} fe_scope;

#define FE_STACK(T) struct { T *a; unsigned n, cap; }

/* A function argument written as a GM memref (memref.c): the pointer argument `arg`
 * whose view, of type `view`, the name `name` stands for in the body. */
typedef struct fe_gm_arg {
	ir_value *arg;
	const ir_type *view;
	const char *name;          /* interned, without %; NULL: unnamed */
	ir_loc loc;
} fe_gm_arg;

typedef struct fe_locs fe_locs; /* loc.c */

typedef struct fe_parser {
	ir_ctx *ctx;
	const char *buf;
	size_t len;
	const char *file;          /* interned */
	/* lexer position */
	size_t off;                /* offset of the next byte the lexer consumes */
	size_t fed;                /* bytes of buf handed to flex so far (YY_INPUT) */
	size_t tok_off;            /* offset of the last token */
	uint32_t line;
	size_t line_start;
	int line_mode;             /* line-oriented PTO-AS: newlines are tokens */
	int started;               /* the mode token was returned */
	int depth;                 /* bracket nesting */
	int aborted;               /* stop: fatal lexical error reported */
	size_t def_until;          /* %-tokens before this offset are definitions */
	size_t use_until;          /* ... and before this one uses */
	size_t bal_start;          /* the bracketed token being scanned */
	int bal_kind, bal_depth;
	ir_loc bal_loc;
	ir_loc last_loc;           /* of the last token returned (syntax errors) */
	fe_tok lit_tok;            /* the float literal of the op head being read */
	int last_kind;
	ir_block *pending_entry;   /* entry block with arguments for the next region */
	unsigned errors_at_start;
	int syntax_errors;
	/* scratch stacks */
	FE_STACK(fe_use) uses;
	FE_STACK(const ir_type *) types;
	FE_STACK(const ir_attr *) attrs;
	FE_STACK(ir_named_attr) named;
	FE_STACK(fe_piece) pieces;
	FE_STACK(fe_def) defs;
	FE_STACK(ir_value *) vals;
	FE_STACK(int) iso;                 /* generic ops being parsed: isolated? */
	FE_STACK(ir_region *) regions_done; /* regions of generic ops, in order */
	FE_STACK(ir_region *) regions;     /* regions being parsed */
	FE_STACK(int) region_iso;          /* ... and whether each is isolated */
	int next_isolated;                 /* the next region opens an isolated scope */
	ir_block *arg_block;               /* block receiving parsed arguments */
	/* values */
	fe_scope *scope;
	/* the block ops are appended to; a stack through the regions being parsed */
	FE_STACK(ir_block *) blocks;       /* current block per region (NULL: none yet) */
	/* line form */
	ir_op *kernel;             /* the func.func of a line-form file */
	ir_block *kernel_entry;
	const char *stem;
	ir_op *top;                /* builtin.module being filled */
	int implicit_module;
	unsigned ntop;             /* top-level ops seen */
	ir_op *first_top;
	/* locations written in the text (loc.c) */
	fe_locs *locs;
	ir_op *last_op;            /* the op the next `loc(...)` belongs to, or NULL */
	const ir_type *gm_memref;  /* the type fe_type_text read last, when a GM memref */
	FE_STACK(fe_gm_arg) gm_args; /* of the function being read (memref.c) */
	fe_tok unknown_op;         /* the name of the custom op being read when ptoc does not
				    * know it (len 0: none): a syntax error in its operands
				    * is reported as the unknown op */
} fe_parser;

#define FE_PUSH(p, st, x)                                                              \
	do {                                                                           \
		if ((st).n == (st).cap)                                                \
			fe_grow((void **)&(st).a, &(st).cap, sizeof *(st).a);          \
		(st).a[(st).n++] = (x);                                                \
	} while (0)

/* grow.c: doubles *cap (16 at first) and reallocates *a to it */
void fe_grow(void **a, unsigned *cap, size_t elem);

/* lexer.l */
ir_loc fe_loc_at(fe_parser *p, size_t off);

/* scope.c: values and scopes, the block being filled */
void fe_scope_push(fe_parser *p);
void fe_scope_pop(fe_parser *p);
void fe_region_enter(fe_parser *p);
void fe_region_leave(fe_parser *p);
int fe_define(fe_parser *p, const char *name, ir_value *v, ir_loc loc);
fe_use fe_lookup(fe_parser *p, fe_tok t);
void fe_poison_defs(fe_parser *p, unsigned def0);
/* build.c: an integer literal where a keyword list wants an index value: appends
 * `arith.constant N : index` to the current block and returns its use. */
fe_use fe_index_const(fe_parser *p, fe_tok t);
void fe_recover(fe_parser *p);
/* build_forms.c: before a custom op's operands: remembers `name` when it names no op
 * ptoc knows. */
void fe_custom_name(fe_parser *p, fe_tok name);
/* In a syntax error: reports "custom op 'X' is unknown" at the op being read instead,
 * when it is one ptoc does not know (its syntax can be anything). Returns 1 if so. */
int fe_unknown_op_error(fe_parser *p);
int fe_name_isolated(fe_parser *p, fe_tok name);
/* build.c: regions, blocks, ops with regions */
ir_region *fe_region_begin(fe_parser *p);
ir_region *fe_region_end(fe_parser *p);
void fe_block_label_begin(fe_parser *p, fe_tok label);
void fe_block_label_end(fe_parser *p);
void fe_module_end(fe_parser *p, ir_loc loc, fe_tok sym, const ir_attr *attrs, ir_region *r);
void fe_func_begin(fe_parser *p);
void fe_func_arg(fe_parser *p, fe_tok name, const ir_type *t, const ir_attr *attrs);
void fe_func_end(fe_parser *p, fe_tok vis, fe_tok sym, unsigned res0, const ir_attr *attrs,
		 ir_region *body, ir_loc loc);
void fe_for_begin(fe_parser *p, fe_tok iv, unsigned use0, unsigned idef0, unsigned itype0);
void fe_for_end(fe_parser *p, unsigned def0, unsigned ndefs, unsigned use0, unsigned itype0,
		ir_region *body, ir_loc loc);
void fe_if_end(fe_parser *p, unsigned def0, unsigned use0, unsigned type0, ir_region *then_r,
	       ir_region *else_r, ir_loc loc);
void fe_while_begin(fe_parser *p, unsigned idef0, unsigned use0, const ir_type *fn, ir_loc loc);
void fe_while_end(fe_parser *p, unsigned def0, unsigned ndefs, unsigned use0, const ir_type *fn,
		  ir_region *before, fe_tok word, ir_region *after, ir_loc loc);
void fe_line_arg(fe_parser *p, fe_tok name, const ir_type *t);
void fe_line_const(fe_parser *p, fe_tok name, const ir_attr *value, const ir_type *t);
/* build.c: what build_forms.c shares */
int tok_is(fe_tok t, const char *s);
unsigned defs_since(const fe_parser *p, unsigned def0);
const ir_type *legacy_view_rank(fe_parser *p, const ir_type *t, unsigned nshape);
int use_type(fe_parser *p, const fe_use *u, const ir_type *t);
int uses_ok(fe_parser *p, unsigned use0, unsigned n);
unsigned count_defs(fe_parser *p, unsigned def0, unsigned ndefs);
int define_results(fe_parser *p, ir_op *op, unsigned def0, unsigned ndefs);
/* build_forms.c and build.c: statements */
ir_op *fe_build_custom(fe_parser *p, fe_tok opname, unsigned piece0, unsigned def0,
		       unsigned use0, unsigned type0);
ir_op *fe_build_generic(fe_parser *p, fe_tok opname, unsigned use0, unsigned nuses,
			const ir_attr *props, const ir_attr *attrs, const ir_type *fn,
			unsigned nregions, unsigned def0, ir_loc loc);
void fe_append(fe_parser *p, ir_op *op);
/* memref.c: a function argument written `memref<AxBxT, #pto.address_space<gm>>` is a
 * `!pto.ptr<T>` argument, and its name the view of its whole shape built at the top
 * of the body. fe_memref_arg returns 1 when it added the argument (t a GM memref). */
int fe_memref_arg(fe_parser *p, ir_block *b, fe_tok name, const ir_type *t);
void fe_memref_views(fe_parser *p);
/* `memref.reinterpret_cast` (memref.c): the view it makes (the last op, not appended) */
ir_op *fe_memref_cast(fe_parser *p, fe_tok opname, unsigned piece0);
/* mixed.c: pto.section.* and the custom form of the cross-core ops (IR_FORM_PIPE) */
void fe_section_end(fe_parser *p, fe_tok kw, ir_region *r);
ir_op *fe_build_pipe(fe_parser *p, fe_tok opname, const char *name, unsigned piece0,
		     unsigned def0);
/* subset.c: the custom form of pto.subset (IR_FORM_SUBSET) */
ir_op *fe_build_subset(fe_parser *p, fe_tok opname, const char *name, unsigned piece0,
		       unsigned def0);
/* build_forms.c: `0x7FC00000 : f32`: the float attribute of a bit pattern (f64, f32,
 * f16, bf16) */
const ir_attr *fe_float_bits(fe_parser *p, uint64_t bits, const ir_type *t);
const ir_attr *fe_float_typed(fe_parser *p, fe_tok tok, double dv, const ir_type *t);
const ir_attr *fe_dict(fe_parser *p, unsigned named0, ir_loc loc);

/* loc.c: `loc(...)` tokens and `#name = loc(...)` aliases; fe_loc_resolve (after the
 * parse) sets every ir_loc handed to fe_loc_ref: 0, or -1 after reporting errors. */
void fe_loc_ref(fe_parser *p, ir_loc *at, fe_tok loc);
void fe_loc_alias(fe_parser *p, fe_tok name, fe_tok body);
void fe_arg_loc(fe_parser *p, fe_tok loc); /* of the argument just added */
int fe_loc_resolve(fe_parser *p);
void fe_loc_free(fe_parser *p);

/* typetext.c: bracketed tokens and literals */
const ir_type *fe_type_text(fe_parser *p, fe_tok t);  /* !x.y<..>, memref<..>, scalar names */
const ir_type *fe_scalar_type(ir_ctx *ctx, const char *s, size_t len);
const ir_attr *fe_attr_text(fe_parser *p, fe_tok t);  /* #x<..>, array<..>, dense<..> */
const ir_attr *fe_attr_typed(fe_parser *p, fe_tok t, const ir_type *ty); /* dense<..> : T */
int fe_int_literal(fe_parser *p, fe_tok t, int neg, int64_t *out);
int fe_float_literal(fe_parser *p, fe_tok t, int neg, double *out);
const ir_attr *fe_string_attr(fe_parser *p, fe_tok t);
const ir_attr *fe_symbol_attr(fe_parser *p, fe_tok t); /* @name or @"name" */
/* The same for one type or bracketed attribute given as a whole string (the MLIR
 * bridge, mlir/, reads the spelling MLIR prints of types and dialect attributes);
 * errors are reported at `loc`. */
const ir_type *fe_type_string(ir_ctx *ctx, const char *s, size_t len, ir_loc loc);
const ir_attr *fe_attr_string(ir_ctx *ctx, const char *s, size_t len, ir_loc loc);

#endif
