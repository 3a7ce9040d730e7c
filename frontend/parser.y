/* parser.y: the .pto grammar (bison, pure, reentrant).
 *
 * Two entry forms chosen by the first token (fe_parse decides): MLIR text (PTOAS
 * modules, tile SSA, generic op form) and line-oriented PTO-AS. Ops in custom form are
 * read as a head (operands, words, `key = ...`, ins/outs groups, attribute dicts,
 * bracket arguments) and a tail (`: types [-> types] [to type]`); build.c interprets
 * those pieces per op. Ops with regions (module, func.func, scf.for, scf.if and every
 * generic op) have their own rules. Values are resolved as soon as they are read;
 * statements are resynchronised on errors (`error` before the next op, `}` or newline).
 */
%define api.pure full
%define api.prefix {fe_yy}
%define parse.error custom
%define parse.lac full
%param {fe_parser *p} {void *scanner}

%code requires {
#include "frontend/frontend.h"
typedef struct fe_mark { unsigned u, t, pc, a, n, d; } fe_mark;
}

%code provides {
int fe_yylex(FE_YYSTYPE *lval, void *scanner);
}

%code {
#include <stdio.h>
#include <string.h>

#define YYMAXDEPTH 100000

static int fe_yylex_wrap(FE_YYSTYPE *lval, fe_parser *p, void *scanner)
{
	if (!p->started) {
		p->started = 1;
		return p->line_mode ? MODE_LINE : MODE_MLIR;
	}
	if (p->aborted)
		return 0;
	return fe_yylex(lval, scanner);
}
#define fe_yylex(l, p, s) fe_yylex_wrap(l, p, s)

static void fe_yyerror(fe_parser *p, void *scanner, const char *msg)
{
	(void)scanner;
	if (!p->aborted && !fe_unknown_op_error(p))
		ir_error(p->ctx, p->last_loc, "%s", msg);
	p->syntax_errors++;
}

static fe_mark mark(fe_parser *p)
{
	fe_mark m;
	m.u = p->uses.n;
	m.t = p->types.n;
	m.pc = p->pieces.n;
	m.a = p->attrs.n;
	m.n = p->named.n;
	m.d = p->defs.n;
	return m;
}

static void unwind(fe_parser *p, fe_mark m)
{
	if (p->uses.n > m.u) p->uses.n = m.u;
	if (p->types.n > m.t) p->types.n = m.t;
	if (p->pieces.n > m.pc) p->pieces.n = m.pc;
	if (p->attrs.n > m.a) p->attrs.n = m.a;
	if (p->named.n > m.n) p->named.n = m.n;
	if (p->defs.n > m.d) p->defs.n = m.d;
}

static void piece(fe_parser *p, int kind, ir_loc loc, unsigned v0, unsigned t0,
		  const ir_attr *attr, fe_tok key)
{
	fe_piece pc;
	memset(&pc, 0, sizeof pc);
	pc.kind = kind;
	pc.loc = loc;
	pc.v0 = v0;
	pc.vn = p->uses.n - v0;
	pc.t0 = t0;
	pc.tn = p->types.n - t0;
	pc.attr = attr;
	pc.key = key;
	FE_PUSH(p, p->pieces, pc);
}

static const fe_tok notok;

static const ir_type *fn_type(fe_parser *p, unsigned in0, unsigned out0)
{
	const ir_type *t = ir_type_func(p->ctx, p->types.a + in0, out0 - in0,
					p->types.a + out0, p->types.n - out0);
	p->types.n = in0;
	return t;
}

static const ir_attr *array_attr(fe_parser *p, unsigned a0)
{
	const ir_attr *a = ir_attr_array(p->ctx, p->attrs.a + a0, p->attrs.n - a0);
	p->attrs.n = a0;
	return a;
}

static void named(fe_parser *p, fe_tok key, const ir_attr *v)
{
	ir_named_attr na;
	if (key.len && key.s[0] == '"') {
		const ir_attr *s = fe_string_attr(p, key);
		na.name = ir_intern(p->ctx, s ? s->u.str.s : "", s ? s->u.str.len : 0);
	} else {
		na.name = ir_intern(p->ctx, key.s, key.len);
	}
	na.value = v ? v : ir_attr_unit(p->ctx);
	FE_PUSH(p, p->named, na);
}

static const ir_attr *typed_int(fe_parser *p, fe_tok t, const ir_type *ty)
{
	int64_t v;
	if (fe_int_literal(p, t, 0, &v))
		return NULL;
	if (ty && ty->kind == IR_TYPE_FLOAT)
		return fe_float_bits(p, (uint64_t)v, ty); /* 0x7FC00000 : f32 */
	return ir_attr_int(p->ctx, v, ty);
}

static const ir_attr *typed_float(fe_parser *p, fe_tok t, const ir_type *ty)
{
	double v;
	if (fe_float_literal(p, t, 0, &v))
		return NULL;
	if (!ty)
		p->lit_tok = t; /* rounded once when the type is known (fe_float_typed) */
	return ty ? fe_float_typed(p, t, v, ty) : ir_attr_float(p->ctx, v, ty);
}

static const ir_attr *ins_dict(fe_parser *p, unsigned a0)
{
	const ir_attr *d = p->attrs.n > a0 ? p->attrs.a[p->attrs.n - 1] : NULL;
	p->attrs.n = a0;
	return d;
}
}

%union {
	fe_tok tok;
	const ir_type *type;
	const ir_attr *attr;
	ir_region *region;
	ir_op *op;
	unsigned n;
	fe_mark mark;
}

%token <tok> T_DEF "definition" T_USE "value" T_CARET "block label" T_SYMBOL "symbol"
%token <tok> T_OPNAME "op name" T_ID "identifier" T_TYPE "type" T_ATTR "attribute"
%token <tok> T_INT "integer" T_FLOAT "float" T_STRING "string"
%token <tok> T_ARROW "'->'" T_PROPS_OPEN "'<{'" T_PROPS_CLOSE "'}>'" T_NL "newline"
%token <tok> T_DOT_ARG "'.arg'" T_DOT_CONST "'.const'" T_LOC "location"
%token <tok> T_LOC_DEF "location alias" T_KEYC "'key:'"
%token <tok> KW_MODULE "'module'" KW_FUNC "'func.func'" KW_FOR "'scf.for'" KW_IF "'scf.if'"
%token <tok> KW_WHILE "'scf.while'"
%token <tok> KW_SECTION "'pto.section.cube'"
%token <tok> KW_ELSE "'else'" KW_INS "'ins'" KW_OUTS "'outs'" KW_TO "'to'" KW_STEP "'step'"
%token <tok> KW_ITER_ARGS "'iter_args'" KW_ATTRIBUTES "'attributes'" KW_TRUE "'true'"
%token <tok> KW_FALSE "'false'" KW_PRIVATE "visibility" KW_UNIT "'unit'"
%token <tok> '(' ')' '[' ']' '{' '}' '<' '>' '=' ',' ':' '?' '*' '+' ';'
%token T_ABORT "invalid input" MODE_MLIR MODE_LINE
/* `outs` alone (tgetval's `outs : R`) yields to `outs(` */
%precedence OUTS_BARE
%precedence '('

%type <type> type nonfn_type
%type <attr> attr_value attr_dict attr_dict_opt literal hliteral props props_opt module_attrs
%type <region> region region_begin else_opt func_body
%type <n> defs_opt def_list uses_opt use_list types_opt type_list generic_regions region_list
%type <n> arrow_types arrow_opt iter_opt
%type <mark> op_mark ins_mark
%type <tok> attr_key opname line_opname sym_opt vis_opt arg_name


%%

start
	: MODE_MLIR ops
	| MODE_LINE line_stmts
	;

/* ---- MLIR form ---------------------------------------------------------- */

ops
	: %empty
	| ops op
	| ops op T_LOC { if (p->last_op) fe_loc_ref(p, &p->last_op->loc, $3); }
	| ops T_LOC_DEF '=' T_LOC { fe_loc_alias(p, $2, $4); }
	| ops block_label
	| ops error { fe_recover(p); }
	;

op
	: custom_op
	| generic_op
	| module_op
	| func_op
	| for_op
	| if_op
	| while_op
	| section_op
	;

/* pto.section.cube { ... } / pto.section.vector { ... } (frontend/mixed.c) */
section_op
	: KW_SECTION region { p->last_op = NULL; fe_section_end(p, $1, $2); }
	;

block_label
	: T_CARET { fe_block_label_begin(p, $1); } block_args_opt ':'
		{ fe_block_label_end(p); }
	;

block_args_opt
	: %empty
	| '(' ')'
	| '(' block_arg_list ')'
	;

block_arg_list
	: block_arg
	| block_arg_list ',' block_arg
	;

block_arg
	: arg_name ':' type { fe_func_arg(p, $1, $3, NULL); } loc_opt
	;

/* an argument's location, as MLIR prints it after the type (and attributes) */
loc_opt
	: %empty
	| T_LOC { fe_arg_loc(p, $1); }
	;

arg_name
	: T_USE
	| T_DEF
	;

/* custom form: head items, then `: types [-> types] [to type]` */
custom_op
	: defs_opt opname op_mark head tail
		{
			ir_op *op;
			p->last_op = NULL;
			op = fe_build_custom(p, $2, $3.pc, $1, $3.u, $3.t);
			if (op)
				fe_append(p, op);
			else
				fe_poison_defs(p, $1);
			unwind(p, $3);
			p->defs.n = $1;
		}
	;

opname
	: T_OPNAME { fe_custom_name(p, $1); $$ = $1; }
	;

op_mark
	: %empty { $$ = mark(p); }
	;

defs_opt
	: %empty { $$ = p->defs.n; }
	| def_list '=' { $$ = $1; }
	;

def_list
	: def { $$ = p->defs.n - 1; }
	| def_list ',' def { $$ = $1; }
	;

def
	: T_DEF
		{
			fe_def d;
			d.name = ir_intern(p->ctx, $1.s + 1, $1.len - 1);
			d.count = 1;
			d.loc = $1.loc;
			FE_PUSH(p, p->defs, d);
		}
	| T_DEF ':' T_INT
		{
			fe_def d;
			int64_t n = 0;
			d.name = ir_intern(p->ctx, $1.s + 1, $1.len - 1);
			if (fe_int_literal(p, $3, 0, &n) || n < 1 || n > 65536) {
				ir_error(p->ctx, $3.loc, "expected a result count between 1 and 65536");
				n = 0;
			}
			d.count = (unsigned)n;
			d.loc = $1.loc;
			FE_PUSH(p, p->defs, d);
		}
	;

head
	: %empty
	| head hitem
	;

hitem
	: use { piece(p, FE_P_OPERAND, p->uses.a[p->uses.n - 1].loc, p->uses.n - 1, p->types.n, NULL, notok); }
	| ','
	| T_ID { piece(p, FE_P_WORD, $1.loc, p->uses.n, p->types.n, NULL, $1); }
	| T_ID '=' '[' ins_mark kw_list_opt ']'
		{ piece(p, FE_P_KWLIST, $1.loc, $4.u, $4.t, NULL, $1); }
	| T_ID '=' ins_mark use
		{ piece(p, FE_P_KWVAL, $1.loc, $3.u, $3.t, NULL, $1); }
	| T_KEYC ':' '[' ins_mark kw_list_opt ']'
		{ piece(p, FE_P_KWLIST, $1.loc, $4.u, $4.t, NULL, $1); }
	| KW_TO { piece(p, FE_P_WORD, $1.loc, p->uses.n, p->types.n, NULL, $1); }
	| KW_INS '(' ins_mark ins_seq ')'
		{ piece(p, FE_P_INS, $1.loc, $3.u, $3.t, ins_dict(p, $3.a), notok); }
	| KW_OUTS '(' ins_mark ins_seq ')'
		{ piece(p, FE_P_OUTS, $1.loc, $3.u, $3.t, ins_dict(p, $3.a), notok); }
	| KW_OUTS %prec OUTS_BARE
		{ piece(p, FE_P_OUTS, $1.loc, p->uses.n, p->types.n, NULL, notok); }
	| attr_dict { piece(p, FE_P_ATTRS, p->last_loc, p->uses.n, p->types.n, $1, notok); }
	| props { piece(p, FE_P_PROPS, p->last_loc, p->uses.n, p->types.n, $1, notok); }
	| '[' ins_mark bracket_list ']'
		{ piece(p, FE_P_BRACKET, $1.loc, $2.u, $2.t, array_attr(p, $2.a), notok); }
	| '<' T_ID '>'
		{ piece(p, FE_P_ANGLE, $2.loc, p->uses.n, p->types.n, ir_attr_string(p->ctx, $2.s, $2.len), $2); }
	| hliteral { piece(p, FE_P_ATTR, p->last_loc, p->uses.n, p->types.n, $1, p->lit_tok); p->lit_tok = notok; }
	| T_SYMBOL { piece(p, FE_P_ATTR, $1.loc, p->uses.n, p->types.n, fe_symbol_attr(p, $1), notok); }
	| '(' ins_mark paren_body ')'
		{ piece(p, FE_P_KWLIST, $1.loc, $2.u, $2.t, p->attrs.n > $2.a ? array_attr(p, $2.a) : NULL, $1); }
	;

/* `(...)` in an op's head: values, optionally typed (`(%t : T)`, `(%a, %p : T, P)`) or
 * keyed (`(c2v_consumer_buf = %b : i32, ...)`, the keys as strings in the piece's
 * attribute); only the cross-core ops take types or keys (frontend/mixed.c) */
paren_body
	: %empty
	| paren_items
	| paren_keyed
	;

/* `%a, %b : T, U` and `%a : T, %b : U` alike: the i-th value takes the i-th type */
paren_items
	: paren_item
	| paren_items ',' paren_item
	;

paren_item
	: use
	| use ':' type { FE_PUSH(p, p->types, $3); }
	| type { FE_PUSH(p, p->types, $1); }
	;

paren_keyed
	: paren_key
	| paren_keyed ',' paren_key
	;

paren_key
	: T_ID '=' { FE_PUSH(p, p->attrs, ir_attr_string(p->ctx, $1.s, $1.len)); } use ':' type
		{ FE_PUSH(p, p->types, $6); }
	;

/* a keyword list (`sizes = [%a, 32]`): values, or integer literals, which become
 * `arith.constant N : index` ops placed before the op (fe_index_const) */
kw_list_opt
	: %empty
	| kw_list
	;

kw_list
	: kw_elem
	| kw_list ',' kw_elem
	;

kw_elem
	: use
	| T_INT { fe_use u = fe_index_const(p, $1); FE_PUSH(p, p->uses, u); }
	;

/* the type-annotated groups of ins(...)/outs(...): uses, an optional dict, `:` types;
 * both `%a, %b : A, B` and `%a : A, %b : B` pair the i-th use with the i-th type */
ins_mark
	: %empty { $$ = mark(p); }
	;

ins_seq
	: %empty
	| ins_seq ins_elem
	;

ins_elem
	: use
	| type { FE_PUSH(p, p->types, $1); }
	| ','
	| ':'
	| attr_dict { FE_PUSH(p, p->attrs, $1); }
	;

bracket_list
	: bracket_elem
	| bracket_list ',' bracket_elem
	;

bracket_elem
	: '<' T_ID '>' { FE_PUSH(p, p->attrs, ir_attr_string(p->ctx, $2.s, $2.len)); }
	| use
	| literal { FE_PUSH(p, p->attrs, $1); }
	;

tail
	: %empty
	| T_ARROW arrow_types { piece(p, FE_P_ARROW, $1.loc, p->uses.n, $2, NULL, notok); }
	| ':' type_list { piece(p, FE_P_COLON, $1.loc, p->uses.n, $2, NULL, notok); } arrow_opt to_opt
	/* `-> T` alone: pto.declare_eventid_array */
	| T_ARROW arrow_types { piece(p, FE_P_ARROW, $1.loc, p->uses.n, $2, NULL, notok); }
	;

arrow_opt
	: %empty { $$ = 0; }
	| T_ARROW arrow_types { piece(p, FE_P_ARROW, $1.loc, p->uses.n, $2, NULL, notok); $$ = 1; }
	;

to_opt
	: %empty
	| KW_TO type { unsigned t0 = p->types.n; FE_PUSH(p, p->types, $2); piece(p, FE_P_TO, $1.loc, p->uses.n, t0, NULL, notok); }
	;

use
	: T_USE { fe_use u = fe_lookup(p, $1); FE_PUSH(p, p->uses, u); }
	;

uses_opt
	: %empty { $$ = p->uses.n; }
	| use_list
	;

use_list
	: use { $$ = p->uses.n - 1; }
	| use_list ',' use { $$ = $1; }
	;

/* generic form: "name"(%a, %b) <{props}> ({regions}) {attrs} : (T, T) -> (T) */
generic_op
	: defs_opt T_STRING generic_iso '(' uses_opt ')' props_opt generic_regions attr_dict_opt ':' type
		{
			ir_op *op;
			p->last_op = NULL;
			op = fe_build_generic(p, $2, $5, p->uses.n - $5, $7, $9, $11, $8,
						     $1, $2.loc);
			if (op)
				fe_append(p, op);
			else
				fe_poison_defs(p, $1);
			p->iso.n--;
			p->uses.n = $5;
			p->defs.n = $1;
		}
	;

generic_iso
	: %empty { FE_PUSH(p, p->iso, fe_name_isolated(p, $<tok>0)); }
	;

props_opt
	: %empty { $$ = NULL; }
	| props
	;

props
	: T_PROPS_OPEN named_list_opt T_PROPS_CLOSE { $$ = fe_dict(p, $<n>2, $1.loc); }
	;

generic_regions
	: %empty { $$ = 0; }
	| '(' region_list ')' { $$ = $2; }
	;

region_list
	: region_pre region { FE_PUSH(p, p->regions_done, $2); $$ = 1; }
	| region_list ',' region_pre region { FE_PUSH(p, p->regions_done, $4); $$ = $1 + 1; }
	;

region_pre
	: %empty { p->next_isolated = p->iso.a[p->iso.n - 1]; }
	;

region
	: '{' region_begin ops '}' { $$ = fe_region_end(p); (void)$2; }
	;

region_begin
	: %empty { $$ = fe_region_begin(p); }
	;

/* module [@name] [attributes {...}] { ... } */
module_op
	: KW_MODULE sym_opt module_attrs { p->next_isolated = 1; } region
		{ p->last_op = NULL; fe_module_end(p, $1.loc, $2, $3, $5); }
	;

sym_opt
	: %empty { $$ = notok; }
	| T_SYMBOL
	;

module_attrs
	: %empty { $$ = NULL; }
	| KW_ATTRIBUTES attr_dict { $$ = $2; }
	;

/* func.func [private] @f(%a: T, ...) [-> (T)] [attributes {...}] [{ body }] */
func_op
	: KW_FUNC vis_opt T_SYMBOL { fe_func_begin(p); } '(' func_args_opt ')'
	  func_results module_attrs func_body
		{
			p->last_op = NULL;
			fe_func_end(p, $2, $3, $<n>8, $9, $10, $1.loc);
			p->types.n = $<n>8;
		}
	;

vis_opt
	: %empty { $$ = notok; }
	| KW_PRIVATE
	;

func_args_opt
	: %empty
	| func_arg_list
	;

func_arg_list
	: func_arg
	| func_arg_list ',' func_arg
	;

func_arg
	: arg_name ':' type attr_dict_opt { fe_func_arg(p, $1, $3, $4); } loc_opt
	| type attr_dict_opt { fe_func_arg(p, notok, $1, $2); } loc_opt
	;

func_results
	: %empty { $<n>$ = p->types.n; }
	| T_ARROW arrow_types { $<n>$ = $2; }
	;

func_body
	: %empty { $$ = NULL; p->pending_entry = NULL; p->next_isolated = 0; }
	| region
	;

/* scf.for %i = %lb to %ub step %s [iter_args(%a = %x, ...) -> (T, ...)] { ... } */
for_op
	: defs_opt KW_FOR T_DEF '=' ins_mark use KW_TO use KW_STEP use ins_mark iter_opt
		{ fe_for_begin(p, $3, $5.u, $11.d, $12); }
	  region
		{
			p->last_op = NULL;
			fe_for_end(p, $1, $11.d - $1, $5.u, $12, $14, $2.loc);
			p->uses.n = $5.u;
			p->types.n = $12;
			p->defs.n = $1;
		}
	;

iter_opt
	: %empty { $$ = p->types.n; }
	| KW_ITER_ARGS '(' iter_list ')' T_ARROW arrow_types { $$ = $6; }
	;

iter_list
	: iter_arg
	| iter_list ',' iter_arg
	;

iter_arg
	: T_DEF '=' use
		{
			fe_def d;
			d.name = ir_intern(p->ctx, $1.s + 1, $1.len - 1);
			d.count = 1;
			d.loc = $1.loc;
			FE_PUSH(p, p->defs, d);
		}
	;

/* scf.if %c [-> (T, ...)] { ... } [else { ... }] */
if_op
	: defs_opt KW_IF ins_mark use arrow_opt_types region else_opt
		{
			p->last_op = NULL;
			fe_if_end(p, $1, $3.u, $<n>5, $6, $7, $2.loc);
			p->uses.n = $3.u;
			p->types.n = $<n>5;
			p->defs.n = $1;
		}
	;

arrow_opt_types
	: %empty { $<n>$ = p->types.n; }
	| T_ARROW arrow_types { $<n>$ = $2; }
	;

else_opt
	: %empty { $$ = NULL; }
	| KW_ELSE region { $$ = $2; }
	;

/* scf.while [(%a = %x, ...)] : (T, ...) -> (R, ...) { before } do { ^bb0(%b: R, ...): after }
 * (`do` is an identifier here, checked by fe_while_end) */
while_op
	: defs_opt KW_WHILE ins_mark while_inits ':' type
		{ fe_while_begin(p, $3.d, $3.u, $6, $2.loc); }
	  region T_ID region
		{
			p->last_op = NULL;
			fe_while_end(p, $1, $3.d - $1, $3.u, $6, $8, $9, $10, $2.loc);
			p->uses.n = $3.u;
			p->types.n = $3.t;
			p->defs.n = $1;
		}
	;

while_inits
	: %empty
	| '(' ')'
	| '(' iter_list ')'
	;

/* ---- types ---------------------------------------------------------------- */

type
	: nonfn_type
	| '(' types_opt ')' T_ARROW arrow_types { $$ = fn_type(p, $2, $5); }
	;

nonfn_type
	: T_TYPE { $$ = fe_type_text(p, $1); if (!$$) $$ = ir_type_none(p->ctx); }
	;

types_opt
	: %empty { $$ = p->types.n; }
	| type_list
	;

type_list
	: type { $$ = p->types.n; FE_PUSH(p, p->types, $1); }
	| type_list ',' type { $$ = $1; FE_PUSH(p, p->types, $3); }
	;

/* results of a function type or `->`: one type or a parenthesised list (pushed) */
arrow_types
	: nonfn_type { $$ = p->types.n; FE_PUSH(p, p->types, $1); }
	| '(' types_opt ')' { $$ = $2; }
	;

/* ---- attributes ------------------------------------------------------------ */

attr_dict_opt
	: %empty { $$ = NULL; }
	| attr_dict
	;

attr_dict
	: '{' named_list_opt '}' { $$ = fe_dict(p, $<n>2, $1.loc); }
	;

named_list_opt
	: %empty { $<n>$ = p->named.n; }
	| named_list { $<n>$ = $<n>1; }
	;

named_list
	: named_attr { $<n>$ = p->named.n - 1; }
	| named_list ',' named_attr { $<n>$ = $<n>1; }
	;

named_attr
	: attr_key { named(p, $1, NULL); }
	| attr_key '=' attr_value { named(p, $1, $3); }
	;

attr_key
	: T_ID | T_OPNAME | T_STRING | T_TYPE | KW_INS | KW_OUTS | KW_TO | KW_STEP | KW_ELSE
	| KW_MODULE | KW_ATTRIBUTES | KW_UNIT | KW_PRIVATE | KW_ITER_ARGS
	;

attr_value
	: literal
	| T_INT ':' type { $$ = typed_int(p, $1, $3); }
	| T_FLOAT ':' type { $$ = typed_float(p, $1, $3); }
	| KW_TRUE ':' type { $$ = ir_attr_bool(p->ctx, 1); }
	| KW_FALSE ':' type { $$ = ir_attr_bool(p->ctx, 0); }
	| T_ATTR ':' type { $$ = fe_attr_typed(p, $1, $3); }
	| KW_UNIT { $$ = ir_attr_unit(p->ctx); }
	| T_SYMBOL { $$ = fe_symbol_attr(p, $1); }
	| '[' ins_attr_mark attr_list_opt ']' { $$ = array_attr(p, $<n>2); }
	| attr_dict
	| type { $$ = ir_attr_type(p->ctx, $1); }
	;

ins_attr_mark
	: %empty { $<n>$ = p->attrs.n; }
	;

attr_list_opt
	: %empty
	| attr_list
	;

attr_list
	: attr_value { FE_PUSH(p, p->attrs, $1 ? $1 : ir_attr_unit(p->ctx)); }
	| attr_list ',' attr_value { FE_PUSH(p, p->attrs, $3 ? $3 : ir_attr_unit(p->ctx)); }
	;

/* a literal in an op's head: not a string, which would start a generic op */
hliteral
	: T_INT { $$ = typed_int(p, $1, NULL); }
	| T_FLOAT { $$ = typed_float(p, $1, NULL); }
	| KW_TRUE { $$ = ir_attr_bool(p->ctx, 1); }
	| KW_FALSE { $$ = ir_attr_bool(p->ctx, 0); }
	| T_ATTR { $$ = fe_attr_text(p, $1); }
	;

literal
	: T_INT { $$ = typed_int(p, $1, NULL); }
	| T_FLOAT { $$ = typed_float(p, $1, NULL); }
	| KW_TRUE { $$ = ir_attr_bool(p->ctx, 1); }
	| KW_FALSE { $$ = ir_attr_bool(p->ctx, 0); }
	| T_STRING { $$ = fe_string_attr(p, $1); }
	| T_ATTR { $$ = fe_attr_text(p, $1); }
	;

/* ---- line-oriented PTO-AS ---------------------------------------------------- */

line_stmts
	: %empty
	| line_stmts line_stmt
	;

line_stmt
	: T_NL
	| line_op T_NL
	| T_DOT_ARG arg_name ':' type T_NL { fe_line_arg(p, $2, $4); }
	| T_DOT_CONST T_DEF '=' literal ':' type T_NL { fe_line_const(p, $2, $4, $6); }
	| error T_NL { yyerrok; fe_recover(p); }
	;

line_op
	: defs_opt line_opname op_mark head tail
		{
			ir_op *op;
			p->last_op = NULL;
			op = fe_build_custom(p, $2, $3.pc, $1, $3.u, $3.t);
			if (op)
				fe_append(p, op);
			else
				fe_poison_defs(p, $1);
			unwind(p, $3);
			p->defs.n = $1;
		}
	;

line_opname
	: T_OPNAME
	| T_ID
	;

%%

static int report_syntax(const yypcontext_t *ctx, fe_parser *p)
{
	yysymbol_kind_t exp[6];
	int n = yypcontext_expected_tokens(ctx, exp, 6);
	yysymbol_kind_t got = yypcontext_token(ctx);
	char msg[512];
	size_t len = 0;
	int i;
	p->syntax_errors++;
	if (p->aborted || fe_unknown_op_error(p))
		return 0;
	if (n > 0 && n <= 5) {
		len += (size_t)snprintf(msg + len, sizeof msg - len, "expected ");
		for (i = 0; i < n; i++)
			len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s",
						i == 0 ? "" : i == n - 1 ? " or " : ", ",
						yysymbol_name(exp[i]));
		if (got == YYSYMBOL_YYEOF)
			snprintf(msg + len, sizeof msg - len, " before end of input");
	} else if (got == YYSYMBOL_YYEOF) {
		snprintf(msg, sizeof msg, "unexpected end of input");
	} else {
		snprintf(msg, sizeof msg, "unexpected %s", yysymbol_name(got));
	}
	ir_error(p->ctx, p->last_loc, "%s", msg);
	return 0;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, fe_parser *p, void *scanner)
{
	(void)scanner;
	return report_syntax(ctx, p);
}
