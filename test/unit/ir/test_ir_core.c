/* test_ir_core.c: unit tests of the IR core through the builder API: arena
 * alignment and zeroing, interning, type and attribute uniquing, dictionary sorting
 * and duplicates, use lists, the pre-order walk, diagnostics and the error cap; the op
 * and instruction tables (ops.def, insns.def) and the lists the runtime shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/ir.h"

static const ir_loc noloc = {NULL, 0, 0};

static void test_arena(void)
{
	ir_ctx *ctx = ptoc_context_create();
	size_t i, j;
	for (i = 1; i < 3000; i += 7) {
		unsigned char *p = ir_alloc(ctx, i);
		CHECK(((uintptr_t)p & 15) == 0);
		for (j = 0; j < i; j++)
			if (p[j])
				break;
		CHECK(j == i);
		memset(p, 0xab, i);
	}
	/* a big allocation gets its own chunk */
	{
		char *big = ir_alloc(ctx, 10u << 20);
		CHECK(big && ((uintptr_t)big & 15) == 0 && big[(10u << 20) - 1] == 0);
	}
	{
		char *s = ir_strndup(ctx, "abc\0def", 7);
		CHECK(!memcmp(s, "abc\0def", 8));
	}
	ptoc_context_destroy(ctx);
}

static void test_intern(void)
{
	ir_ctx *ctx = ptoc_context_create();
	char buf[32];
	const char *a = ir_intern(ctx, "pto.tcvt", 8), *b;
	int i;
	strcpy(buf, "pto.tcvtXYZ");
	b = ir_intern(ctx, buf, 8);
	CHECK(a == b && !strcmp(a, "pto.tcvt"));
	CHECK(ir_intern(ctx, "pto.tcv", 7) != a);
	CHECK(ir_intern(ctx, "", 0) == ir_intern(ctx, "x", 0));
	/* many strings: the table grows and keeps every one */
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "s%d", i);
		ir_intern(ctx, buf, strlen(buf));
	}
	for (i = 0; i < 5000; i += 97) {
		const char *p;
		snprintf(buf, sizeof buf, "s%d", i);
		p = ir_intern(ctx, buf, strlen(buf));
		CHECK(!strcmp(p, buf) && p == ir_intern(ctx, buf, strlen(buf)));
	}
	ptoc_context_destroy(ctx);
}

static const ir_type *tb(ir_ctx *ctx, ir_mem mem, const ir_type *elem, int64_t r, int64_t c,
			 int64_t vr, int64_t vc)
{
	ir_type k;
	memset(&k, 0, sizeof k);
	k.kind = IR_TYPE_TILE_BUF;
	k.u.tb.mem = mem;
	k.u.tb.elem = elem;
	k.u.tb.rows = r;
	k.u.tb.cols = c;
	k.u.tb.v_row = vr;
	k.u.tb.v_col = vc;
	k.u.tb.fractal = 512;
	return ir_type_tile_buf(ctx, &k);
}

static void test_types(void)
{
	ir_ctx *ctx = ptoc_context_create();
	const ir_type *f32 = ir_type_float(ctx, PTORT_F32), *f16 = ir_type_float(ctx, PTORT_F16);
	int64_t d1[2] = {16, 16}, d2[2] = {16, 16}, d3[2] = {16, IR_DYN};
	const ir_type *in[2], *out[1];
	ptort_type e;
	CHECK(f32 == ir_type_float(ctx, PTORT_F32) && f32 != f16);
	CHECK(ir_type_index(ctx) == ir_type_index(ctx) && ir_type_none(ctx) != ir_type_index(ctx));
	CHECK(ir_type_int(ctx, 8, IR_INT_UNSIGNED) == ir_type_elem(ctx, PTORT_U8));
	CHECK(ir_type_int(ctx, 8, IR_INT_SIGNLESS) != ir_type_int(ctx, 8, IR_INT_SIGNED));
	CHECK(ir_type_shaped(ctx, IR_TYPE_TILE, d1, 2, f32) ==
	      ir_type_shaped(ctx, IR_TYPE_TILE, d2, 2, f32));
	CHECK(ir_type_shaped(ctx, IR_TYPE_TILE, d1, 2, f32) !=
	      ir_type_shaped(ctx, IR_TYPE_PART_VIEW, d1, 2, f32));
	CHECK(ir_type_shaped(ctx, IR_TYPE_TILE, d1, 2, f32) !=
	      ir_type_shaped(ctx, IR_TYPE_TILE, d3, 2, f32));
	CHECK(ir_type_shaped(ctx, IR_TYPE_TILE, d1, 2, f32) !=
	      ir_type_shaped(ctx, IR_TYPE_TILE, d1, 2, f16));
	d1[0] = 99; /* the uniqued type keeps its own copy */
	CHECK(ir_type_shaped(ctx, IR_TYPE_TILE, d2, 2, f32)->u.shaped.dims[0] == 16);
	CHECK(tb(ctx, IR_MEM_VEC, f32, 16, 16, 16, 16) == tb(ctx, IR_MEM_VEC, f32, 16, 16, 16, 16));
	CHECK(tb(ctx, IR_MEM_VEC, f32, 16, 16, 16, 16) != tb(ctx, IR_MEM_MAT, f32, 16, 16, 16, 16));
	CHECK(tb(ctx, IR_MEM_VEC, f32, 16, 16, IR_DYN, 16) != tb(ctx, IR_MEM_VEC, f32, 16, 16, 16, 16));
	in[0] = f32;
	in[1] = f16;
	out[0] = f16;
	CHECK(ir_type_func(ctx, in, 2, out, 1) == ir_type_func(ctx, in, 2, out, 1));
	CHECK(ir_type_func(ctx, in, 2, out, 1) != ir_type_func(ctx, in, 1, out, 1));
	CHECK(ir_type_func(ctx, in, 2, out, 0) != ir_type_func(ctx, in, 2, out, 1));
	CHECK(ir_type_ptr(ctx, f32) == ir_type_ptr(ctx, f32) && ir_type_ptr(ctx, f32) != ir_type_ptr(ctx, f16));
	CHECK(ir_type_opaque(ctx, "!pto.event", 10) == ir_type_opaque(ctx, "!pto.eventX", 10));
	CHECK(ir_type_to_elem(ir_type_int(ctx, 8, IR_INT_SIGNED), &e) == 0 && e == PTORT_I8);
	CHECK(ir_type_to_elem(ir_type_int(ctx, 16, IR_INT_UNSIGNED), &e) == 0 && e == PTORT_U16);
	CHECK(ir_type_to_elem(ir_type_int(ctx, 1, IR_INT_SIGNLESS), &e) < 0);
	CHECK(ir_type_to_elem(ir_type_index(ctx), &e) < 0);
	CHECK(ir_type_to_elem(ir_type_float(ctx, IR_F64), &e) < 0);
	CHECK(ir_type_to_elem(ir_type_elem(ctx, PTORT_HIF8), &e) == 0 && e == PTORT_HIF8);
	{
		ir_mem m;
		CHECK(ir_mem_parse("acc", 3, &m) == 0 && m == IR_MEM_ACC);
		CHECK(ir_mem_parse("gm", 2, &m) < 0);
		CHECK(!strcmp(ir_mem_name(IR_MEM_SCALING), "scaling"));
	}
	ptoc_context_destroy(ctx);
}

static unsigned ndiags;
static char last_msg[256];
static ptoc_severity last_sev;

static void handler(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	(void)user;
	(void)loc;
	ndiags++;
	last_sev = sev;
	snprintf(last_msg, sizeof last_msg, "%.*s", (int)len, msg);
}

static void test_attrs(void)
{
	ir_ctx *ctx = ptoc_context_create();
	const ir_type *i32 = ir_type_int(ctx, 32, IR_INT_SIGNLESS);
	ir_named_attr e[4];
	const ir_attr *d1, *d2, *arr[2];
	int64_t dv[3] = {1, 2, 3};
	ptort_rmode rm;
	ptoc_context_set_diag_handler(ctx, handler, NULL);
	CHECK(ir_attr_int(ctx, 5, i32) == ir_attr_int(ctx, 5, i32));
	CHECK(ir_attr_int(ctx, 5, i32) != ir_attr_int(ctx, 5, NULL));
	CHECK(ir_attr_float(ctx, 0.0, NULL) != ir_attr_float(ctx, -0.0, NULL));
	CHECK(ir_attr_string(ctx, "a\0b", 3) == ir_attr_string(ctx, "a\0b", 3));
	CHECK(ir_attr_string(ctx, "a\0b", 3) != ir_attr_string(ctx, "a\0c", 3));
	CHECK(ir_attr_string(ctx, "x", 1) != ir_attr_symbol(ctx, "x", 1));
	CHECK(ir_attr_unit(ctx) == ir_attr_unit(ctx));
	CHECK(ir_attr_bool(ctx, 7) == ir_attr_bool(ctx, 1));
	arr[0] = ir_attr_unit(ctx);
	arr[1] = ir_attr_int(ctx, 1, NULL);
	CHECK(ir_attr_array(ctx, arr, 2) == ir_attr_array(ctx, arr, 2));
	CHECK(ir_attr_dense(ctx, i32, dv, 3) == ir_attr_dense(ctx, i32, dv, 3));
	CHECK(ir_attr_dense(ctx, i32, dv, 3) != ir_attr_dense(ctx, i32, dv, 2));
	CHECK(ir_attr_pto(ctx, "round_mode", "RINT", IR_PTO_ANGLE) ==
	      ir_attr_pto(ctx, "round_mode", "RINT", IR_PTO_ANGLE));
	CHECK(ir_attr_pto(ctx, "round_mode", "RINT", IR_PTO_ANGLE) !=
	      ir_attr_pto(ctx, "round_mode", "RINT", IR_PTO_DOTTED));
	CHECK(ir_attr_rmode(ir_attr_pto(ctx, "round_mode", "CAST_ROUND", IR_PTO_ANGLE), &rm) == 0 &&
	      rm == PTORT_ROUND);
	CHECK(ir_attr_rmode(ir_attr_int(ctx, 3, i32), &rm) < 0);
	CHECK(ir_attr_satmode(ir_attr_pto(ctx, "saturation_mode", "OFF", IR_PTO_ANGLE)) == 0);
	CHECK(ir_attr_satmode(ir_attr_pto(ctx, "saturation_mode", "ON", IR_PTO_ANGLE)) == 1);

	/* dictionaries: sorted by name, independent of the order written */
	e[0].name = "zeta"; e[0].value = ir_attr_int(ctx, 1, NULL);
	e[1].name = "alpha"; e[1].value = ir_attr_int(ctx, 2, NULL);
	e[2].name = "mid"; e[2].value = ir_attr_unit(ctx);
	d1 = ir_attr_dict(ctx, e, 3, noloc);
	CHECK(d1->u.dict.n == 3 && !strcmp(d1->u.dict.entries[0].name, "alpha") &&
	      !strcmp(d1->u.dict.entries[2].name, "zeta"));
	e[3] = e[0]; e[0] = e[2]; e[2] = e[3];
	d2 = ir_attr_dict(ctx, e, 3, noloc);
	CHECK(d1 == d2 && ndiags == 0);
	CHECK(ir_dict_get(d1, "mid") == ir_attr_unit(ctx) && !ir_dict_get(d1, "nope"));
	/* a duplicate name: reported, the first entry kept */
	e[0].name = "k"; e[0].value = ir_attr_int(ctx, 1, NULL);
	e[1].name = "k"; e[1].value = ir_attr_int(ctx, 2, NULL);
	d2 = ir_attr_dict(ctx, e, 2, noloc);
	CHECK(d2->u.dict.n == 1 && ir_dict_get(d2, "k") == ir_attr_int(ctx, 1, NULL));
	CHECK(ndiags == 1 && last_sev == PTOC_ERROR && strstr(last_msg, "duplicate"));
	CHECK(ptoc_context_error_count(ctx) == 1);
	/* a large dictionary goes through the other sort */
	{
		ir_named_attr big[100];
		char names[100][8];
		int i;
		for (i = 0; i < 100; i++) {
			snprintf(names[i], sizeof names[i], "n%03d", (i * 37) % 100);
			big[i].name = names[i];
			big[i].value = ir_attr_int(ctx, i, NULL);
		}
		d2 = ir_attr_dict(ctx, big, 100, noloc);
		CHECK(d2->u.dict.n == 100);
		for (i = 1; i < 100; i++)
			CHECK(strcmp(d2->u.dict.entries[i - 1].name, d2->u.dict.entries[i].name) < 0);
	}
	ptoc_context_destroy(ctx);
}

static int count_op(ir_op *op, void *user)
{
	char *s = user;
	size_t n = strlen(s);
	s[n] = op->name[strlen(op->name) - 1];
	s[n + 1] = 0;
	return 0;
}

static int stop_at_c(ir_op *op, void *user)
{
	(void)user;
	return !strcmp(op->name, "t.c") ? 7 : 0;
}

static void test_ops(void)
{
	ir_ctx *ctx = ptoc_context_create();
	const ir_type *f32 = ir_type_float(ctx, PTORT_F32), *idx = ir_type_index(ctx);
	ir_op *mod = ir_op_create(ctx, "builtin.module", noloc, NULL, 0, NULL, 0, NULL, 1);
	ir_block *mb = ir_block_create(ctx, noloc), *fb = ir_block_create(ctx, noloc), *b2;
	ir_op *fn, *c0, *c1, *add, *ret, *x;
	ir_value *arg, *ops[2];
	char order[32] = "";
	ir_region_append_block(&mod->regions[0], mb);
	CHECK(mod->code == IR_OP_MODULE && mod->attrs && mod->attrs->kind == IR_ATTR_DICT);
	fn = ir_op_create(ctx, "func.func", noloc, NULL, 0, NULL, 0, NULL, 1);
	ir_block_append_op(mb, fn);
	ir_region_append_block(&fn->regions[0], fb);
	arg = ir_block_add_arg(ctx, fb, f32, noloc);
	CHECK(arg->owner == fb && arg->index == 0 && !arg->def);
	c0 = ir_op_create(ctx, "arith.constant", noloc, NULL, 0, &idx, 1, NULL, 0);
	c1 = ir_op_create(ctx, "arith.constant", noloc, NULL, 0, &idx, 1, NULL, 0);
	ops[0] = &c0->results[0];
	ops[1] = &c0->results[0];
	add = ir_op_create(ctx, "arith.addi", noloc, ops, 2, &idx, 1, NULL, 0);
	ret = ir_op_create(ctx, "func.return", noloc, NULL, 0, NULL, 0, NULL, 0);
	ir_block_append_op(fb, c0);
	ir_block_append_op(fb, add);
	ir_block_append_op(fb, ret);
	ir_block_insert_before(add, c1);
	CHECK(fb->first == c0 && c0->next == c1 && c1->next == add && add->prev == c1 &&
	      fb->last == ret);
	CHECK(add->code == IR_OP_ADDI && ir_value_num_uses(&c0->results[0]) == 2);
	CHECK(c0->results[0].def == c0 && c0->results[0].type == idx);
	ir_op_set_operand(add, 1, &c1->results[0]);
	CHECK(ir_value_num_uses(&c0->results[0]) == 1 && ir_value_num_uses(&c1->results[0]) == 1);
	ir_value_replace_all_uses(&c0->results[0], &c1->results[0]);
	CHECK(ir_value_num_uses(&c0->results[0]) == 0 && ir_value_num_uses(&c1->results[0]) == 2);
	CHECK(add->operands[0].value == &c1->results[0]);
	ir_op_erase(c0);
	CHECK(fb->first == c1 && !c1->prev && !c0->block);
	/* unknown ops get IR_OP_UNKNOWN; the opcode lookup is by full name */
	x = ir_op_create(ctx, "foo.bar", noloc, NULL, 0, NULL, 0, NULL, 0);
	CHECK(x->code == IR_OP_UNKNOWN && ir_opcode_lookup("pto.tmatmul.acc", 15) == IR_OP_TMATMUL_ACC);
	CHECK(ir_opcode_lookup("pto.tmatmul.accX", 15) == IR_OP_TMATMUL_ACC);
	CHECK(ir_opcode_lookup("pto.tmatmul", 11) == IR_OP_TMATMUL);
	CHECK(ir_opcode_lookup("pto.tmat", 8) == IR_OP_UNKNOWN);
	CHECK(ir_opdef_get(IR_OP_TCVT)->num_outs == 1 && ir_opdef_get(IR_OP_UNKNOWN)->num_results == -1);
	CHECK(ir_opdef_get(IR_OP_FUNC)->flags & IR_OPF_ISOLATED);
	/* attributes on ops */
	ir_op_set_attr(ctx, x, "b", ir_attr_int(ctx, 2, NULL));
	ir_op_set_attr(ctx, x, "a", ir_attr_int(ctx, 1, NULL));
	ir_op_set_attr(ctx, x, "b", ir_attr_int(ctx, 3, NULL));
	CHECK(x->attrs->u.dict.n == 2 && ir_op_get_attr(x, "b") == ir_attr_int(ctx, 3, NULL));
	ir_op_remove_attr(ctx, x, "a");
	CHECK(x->attrs->u.dict.n == 1 && !ir_op_get_attr(x, "a"));
	/* walk: pre-order through regions, blocks and nested ops */
	b2 = ir_block_create(ctx, noloc);
	{
		ir_op *a = ir_op_create(ctx, "t.a", noloc, NULL, 0, NULL, 0, NULL, 2);
		ir_op *b = ir_op_create(ctx, "t.b", noloc, NULL, 0, NULL, 0, NULL, 0);
		ir_op *c = ir_op_create(ctx, "t.c", noloc, NULL, 0, NULL, 0, NULL, 0);
		ir_op *d = ir_op_create(ctx, "t.d", noloc, NULL, 0, NULL, 0, NULL, 0);
		ir_block *rb = ir_block_create(ctx, noloc), *rb2 = ir_block_create(ctx, noloc);
		ir_block_insert_before(ret, a);
		/* region 0 empty block then a block with b; region 1 with c */
		ir_region_append_block(&a->regions[0], b2);
		ir_region_append_block(&a->regions[0], rb);
		ir_block_append_op(rb, b);
		ir_region_append_block(&a->regions[1], rb2);
		ir_block_append_op(rb2, c);
		ir_block_append_op(mb, d);
	}
	CHECK(ir_walk(mod, count_op, order) == 0);
	/* module(e) func(c) c1(t) addi(i) a b c return(n) d */
	CHECK(!strcmp(order, "ectiabcnd"));
	if (strcmp(order, "ectiabcnd"))
		fprintf(stderr, "walk order: %s\n", order);
	order[0] = 0;
	CHECK(ir_walk(fn, count_op, order) == 0 && !strcmp(order, "ctiabcn"));
	CHECK(ir_walk(mod, stop_at_c, NULL) == 7);
	ptoc_context_destroy(ctx);
}

static int sink(void *user, const char *data, size_t len)
{
	char *out = user;
	size_t n = strlen(out);
	if (n + len < 4096) {
		memcpy(out + n, data, len);
		out[n + len] = 0;
	}
	return 0;
}

static void test_diag(void)
{
	ir_ctx *ctx = ptoc_context_create();
	const char src[] = "line one\n\tab x\r\nlast";
	const char *file = ir_add_source(ctx, "f.pto", src, sizeof src - 1);
	ir_loc loc;
	char out[4096] = "";
	int i;
	ptoc_context_set_diag_handler(ctx, handler, NULL);
	loc.file = file;
	loc.line = 2;
	loc.col = 5;
	ptoc_context_render_diag(ctx, PTOC_ERROR, loc, "bad", 3, sink, out);
	CHECK(!strcmp(out, "f.pto:2:5: error: bad\n\tab x\n\t   ^\n"));
	out[0] = 0;
	loc.line = 3;
	loc.col = 1;
	ptoc_context_render_diag(ctx, PTOC_NOTE, loc, "here", 4, sink, out);
	CHECK(!strcmp(out, "f.pto:3:1: note: here\nlast\n^\n"));
	out[0] = 0;
	loc.line = 9; /* past the end: no excerpt */
	ptoc_context_render_diag(ctx, PTOC_WARNING, loc, "w", 1, sink, out);
	CHECK(!strcmp(out, "f.pto:9:1: warning: w\n"));
	/* printf formatting, long messages */
	ir_error(ctx, loc, "value %d of %s", 42, "x");
	CHECK(!strcmp(last_msg, "value 42 of x"));
	{
		char longs[2000];
		memset(longs, 'x', sizeof longs - 1);
		longs[sizeof longs - 1] = 0;
		ir_remark(ctx, loc, "%s", longs);
		CHECK(last_sev == PTOC_REMARK && strlen(last_msg) == 255);
	}
	/* the error cap: 50 errors, then one "too many errors" and nothing more */
	ptoc_context_set_error_limit(ctx, 50);
	ndiags = 0;
	for (i = 0; i < 80; i++) {
		ir_error(ctx, loc, "e%d", i);
		ir_note(ctx, loc, "n%d", i);
	}
	CHECK(ndiags == 101 && strstr(last_msg, "too many errors"));
	CHECK(ptoc_context_error_count(ctx) == 1 + 80);
	ptoc_context_set_error_limit(ctx, 0);
	ndiags = 0;
	for (i = 0; i < 80; i++)
		ir_error(ctx, loc, "e%d", i);
	CHECK(ndiags == 80);
	/* no handler: counted, not delivered */
	ptoc_context_set_diag_handler(ctx, NULL, NULL);
	ir_error(ctx, loc, "quiet");
	CHECK(ptoc_context_error_count(ctx) == 1 + 80 + 80 + 1);
	ptoc_context_destroy(ctx);
	ptoc_context_destroy(NULL);
}

/* A 10 MB line: the excerpt shows a window around the column, not the whole line. */
static void test_long_line(void)
{
	ir_ctx *ctx = ptoc_context_create();
	size_t n = 10u << 20;
	char *buf = malloc(n), *out = calloc(1, 4096);
	ir_loc loc;
	memset(buf, 'a', n);
	buf[5000000] = '\001';
	loc.file = ir_add_source(ctx, "big.pto", buf, n);
	loc.line = 1;
	loc.col = 5000001;
	ptoc_context_render_diag(ctx, PTOC_ERROR, loc, "m", 1, sink, out);
	CHECK(strlen(out) < 600 && strstr(out, "?") && strstr(out, "^\n"));
	free(buf);
	free(out);
	ptoc_context_destroy(ctx);
}

/* The op table's derived counts and roles against the ops' syntax (PTOAS's operand
 * lists), and the instruction table against the ops it defines. */
static void test_tables(void)
{
	static const struct {
		ir_opcode code;
		int min, max, outs;
		ir_form form;
	} want[] = {
		{IR_OP_TCVT, 1, 3, 1, IR_FORM_TILE_INS_ATTRS}, /* src [tmp] | dst */
		{IR_OP_TLOAD, 1, 2, 1, IR_FORM_TILE},
		{IR_OP_TPRINT, 1, 1, 0, IR_FORM_TILE},        /* DPS without outs */
		{IR_OP_TMATMUL_MX_BIAS, 5, 6, 1, IR_FORM_TILE},
		{IR_OP_ALLOC_TILE, 0, 3, -1, IR_FORM_KWOPS},
		{IR_OP_MAKE_TENSOR_VIEW, 1, -1, -1, IR_FORM_VIEW},
		{IR_OP_SCF_FOR, 3, -1, -1, IR_FORM_FOR},
		{IR_OP_SELECT, 3, 3, -1, IR_FORM_ARITH},
		{IR_OP_RETURN, 0, -1, -1, IR_FORM_TERM},
		{IR_OP_I_DMA_STORE, 1, -1, -1, IR_FORM_NONE}, /* view, then dyn */
		{IR_OP_I_VCONV, 0, -1, -1, IR_FORM_NONE},
	};
	ir_matmul_roles r;
	unsigned i, k;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const ir_opdef *d = ir_opdef_get(want[i].code);
		CHECK(d->min_operands == want[i].min && d->max_operands == want[i].max &&
		      d->num_outs == want[i].outs && d->form == want[i].form);
	}
	/* roles: names and kinds; the matmul positions and memories come from them */
	CHECK(ir_opdef_role(IR_OP_TCVT, "tmp") == 1 && ir_opdef_role(IR_OP_TCVT, "dst") == 2);
	CHECK(ir_opdef_get(IR_OP_TCVT)->roles[1].use == IR_ROLE_OPT);
	CHECK(ir_opdef_role(IR_OP_TCVT, "lhs") == -1);
	CHECK(ir_opdef_lead(ir_opdef_get(IR_OP_SELECT), IR_KIND_I1) == 1);
	CHECK(ir_opdef_lead(ir_opdef_get(IR_OP_ADDI), IR_KIND_I1) == 0);
	CHECK(!ir_matmul_roles_of(IR_OP_TMATMUL_MX_ACC, &r) && r.acc == 0 && r.a == 1 &&
	      r.a_scale == 2 && r.b == 3 && r.b_scale == 4 && r.bias == -1 && r.mx);
	CHECK(!ir_matmul_roles_of(IR_OP_TMATMUL_BIAS, &r) && r.acc == -1 && r.a == 0 &&
	      r.b == 1 && r.bias == 2 && !r.mx);
	CHECK(ir_matmul_roles_of(IR_OP_TMOV, &r) == -1);
	CHECK(ir_kind_mem((ir_kind)ir_opdef_get(IR_OP_TMATMUL_MX)->roles[1].kind) == IR_MEM_SCALING);
	CHECK(ir_kind_mem(IR_KIND_TILE) == IR_MEM_NONE);
	CHECK(ir_opdef_get(IR_OP_TCVT)->num_attrs == 3 &&
	      !strcmp(ir_opdef_get(IR_OP_TCVT)->attrs[0].name, "rmode"));
	/* every op: names unique and found again; roles within the counts */
	for (i = 0; i < IR_OP_COUNT; i++) {
		const ir_opdef *d = ir_opdef_get((ir_opcode)i);
		CHECK(ir_opcode_lookup(d->name, strlen(d->name)) == (ir_opcode)i);
		CHECK(d->max_operands < 0 || d->num_roles == (unsigned)d->max_operands);
		CHECK(d->form < IR_FORM_COUNT);
	}
	/* instructions: one per I_* op, named alike, `fixed` its minimum operand count */
	for (i = 0; i < IR_OP_COUNT; i++) {
		const ir_opdef *d = ir_opdef_get((ir_opcode)i);
		const ir_insndef *in = ir_insn_get((ir_opcode)i);
		CHECK(!(d->flags & IR_OPF_LEVEL3) == !in);
		if (!in)
			continue;
		CHECK(!strcmp(in->name, d->name) && (int)in->fixed == d->min_operands);
		CHECK(!strncmp(in->call, "ptort_", 6) && in->nfields > 0);
		for (k = 0; k < in->nfields; k++) {
			const ir_ifield *f = &in->fields[k];
			CHECK(ir_insn_field(in, f->name) == f);
			CHECK((f->kind == IR_IF_TILE) == (f->cvar != NULL));
		}
	}
	CHECK(ir_insn_get(IR_OP_TCVT) == NULL && ir_insn_get(IR_OP_UNKNOWN) == NULL);
	CHECK(ir_insn_field(ir_insn_get(IR_OP_I_MMAD_MX), "a_scale")->kind == IR_IF_TILE);
	CHECK(ir_insn_field(ir_insn_get(IR_OP_I_MMAD), "a_scale") == NULL);
	CHECK(ir_insn_field(ir_insn_get(IR_OP_I_MMAD), "bias")->req == IR_IF_INIT_REQ);
	/* the lists shared with the runtime: element types (each maps to an IR type and
	 * back; ui4 has none), layouts, cmpi predicates */
	{
		ir_ctx *ctx = ptoc_context_create();
		ptort_type t, e;
		for (t = (ptort_type)0; t < PTORT_TYPE_COUNT; t = (ptort_type)(t + 1))
			CHECK(ir_type_to_elem(ir_type_elem(ctx, t), &e) == 0 && e == t);
		CHECK(ir_type_elem(ctx, PTORT_I4) == ir_type_int(ctx, 4, IR_INT_SIGNLESS));
		CHECK(ir_type_elem(ctx, PTORT_U64) == ir_type_int(ctx, 64, IR_INT_UNSIGNED));
		CHECK(ir_type_to_elem(ir_type_int(ctx, 4, IR_INT_UNSIGNED), &e) < 0);
		CHECK(ir_type_to_elem(ir_type_int(ctx, 32, IR_INT_SIGNED), &e) == 0 && e == PTORT_I32);
		ptoc_context_destroy(ctx);
	}
	CHECK(!strcmp(ptort_type_name(PTORT_F8E8M0FNU), "f8E8M0FNU") &&
	      ptort_type_is_float(PTORT_F8E8M0FNU) && !ptort_type_is_signed_int(PTORT_U64) &&
	      ptort_type_is_signed_int(PTORT_I4) && ptort_type_bits(PTORT_F4E1M2) == 4);
	CHECK(!strcmp(ptort_rmode_name(PTORT_HYBRID), "HYBRID"));
	CHECK(!strcmp(ir_blayout_names[IR_BLAYOUT_COL_MAJOR], "col_major") &&
	      !strcmp(ir_slayout_names[IR_SLAYOUT_NONE_BOX], "none_box"));
	CHECK(!strcmp(ir_cmpi_pred_names[6], "ult"));
}

int main(void)
{
	test_arena();
	test_intern();
	test_types();
	test_attrs();
	test_ops();
	test_diag();
	test_long_line();
	test_tables();
	return check_report("test_ir_core");
}
