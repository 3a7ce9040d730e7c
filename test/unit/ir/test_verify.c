/* test_verify.c: the verifier on IR built through the builder API, for rules the
 * parser cannot produce (use before def, values crossing an isolated op, tile_buf
 * fields out of range, detached values) and for "every error is reported". */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ir/ir.h"
#include "passes/pass.h"

static char log_buf[8192];

static void handler(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	size_t n = strlen(log_buf);
	(void)user;
	snprintf(log_buf + n, sizeof log_buf - n, "%u:%s: %.*s\n", (unsigned)loc.line,
		 sev == PTOC_ERROR ? "error" : sev == PTOC_NOTE ? "note" : "other", (int)len, msg);
}

static ir_loc at(unsigned line)
{
	ir_loc l;
	l.file = "t.pto";
	l.line = line;
	l.col = 1;
	return l;
}

typedef struct kit {
	ir_ctx *ctx;
	ir_op *mod, *fn;
	ir_block *body;
} kit;

/* module { func.func @f() { <body> } } with an empty body; returns appended later. */
static void kit_init(kit *k)
{
	ir_named_attr e[2];
	ir_block *mb;
	k->ctx = ptoc_context_create();
	ptoc_context_set_diag_handler(k->ctx, handler, NULL);
	log_buf[0] = 0;
	k->mod = ir_op_create(k->ctx, "builtin.module", at(1), NULL, 0, NULL, 0, NULL, 1);
	mb = ir_block_create(k->ctx, at(1));
	ir_region_append_block(&k->mod->regions[0], mb);
	e[0].name = "sym_name";
	e[0].value = ir_attr_string(k->ctx, "f", 1);
	e[1].name = "function_type";
	e[1].value = ir_attr_type(k->ctx, ir_type_func(k->ctx, NULL, 0, NULL, 0));
	k->fn = ir_op_create(k->ctx, "func.func", at(2), NULL, 0, NULL, 0,
			     ir_attr_dict(k->ctx, e, 2, at(2)), 1);
	ir_block_append_op(mb, k->fn);
	k->body = ir_block_create(k->ctx, at(2));
	ir_region_append_block(&k->fn->regions[0], k->body);
}

static ir_op *constant(kit *k, unsigned line, int64_t v)
{
	ir_named_attr e;
	const ir_type *idx = ir_type_index(k->ctx);
	e.name = "value";
	e.value = ir_attr_int(k->ctx, v, idx);
	return ir_op_create(k->ctx, "arith.constant", at(line), NULL, 0, &idx, 1,
			    ir_attr_dict(k->ctx, &e, 1, at(line)), 0);
}

static ir_op *ret(kit *k, unsigned line)
{
	return ir_op_create(k->ctx, "func.return", at(line), NULL, 0, NULL, 0, NULL, 0);
}

static void test_valid(void)
{
	kit k;
	ir_op *c;
	ir_value *ops[2];
	const ir_type *idx;
	kit_init(&k);
	idx = ir_type_index(k.ctx);
	c = constant(&k, 3, 1);
	ir_block_append_op(k.body, c);
	ops[0] = ops[1] = &c->results[0];
	ir_block_append_op(k.body, ir_op_create(k.ctx, "arith.addi", at(4), ops, 2, &idx, 1, NULL, 0));
	ir_block_append_op(k.body, ret(&k, 5));
	CHECK(ir_verify(k.ctx, k.mod, TARGET_DEFAULT) == 0 && log_buf[0] == 0);
	/* verifying twice gives the same answer (marks are cleared) */
	CHECK(ir_verify(k.ctx, k.mod, TARGET_DEFAULT) == 0);
	ptoc_context_destroy(k.ctx);
}

static void test_use_before_def(void)
{
	kit k;
	ir_op *c, *add;
	ir_value *ops[2];
	const ir_type *idx;
	kit_init(&k);
	idx = ir_type_index(k.ctx);
	c = constant(&k, 4, 1);
	ops[0] = ops[1] = &c->results[0];
	add = ir_op_create(k.ctx, "arith.addi", at(3), ops, 2, &idx, 1, NULL, 0);
	ir_block_append_op(k.body, add);
	ir_block_append_op(k.body, c);
	ir_block_append_op(k.body, ret(&k, 5));
	CHECK(ir_verify(k.ctx, k.mod, TARGET_DEFAULT) == 2);
	CHECK(strstr(log_buf, "3:error: 'arith.addi' op operand #0 does not dominate this use\n"
			      "4:note: operand defined here\n"
			      "3:error: 'arith.addi' op operand #1 does not dominate this use\n"));
	ptoc_context_destroy(k.ctx);
}

/* A value used inside a nested func.func (isolated) defined outside it. */
static void test_isolation(void)
{
	kit k;
	ir_op *c, *inner, *add;
	ir_block *ib;
	ir_value *ops[2];
	const ir_type *idx;
	ir_named_attr e[2];
	kit_init(&k);
	idx = ir_type_index(k.ctx);
	c = constant(&k, 3, 1);
	ir_block_append_op(k.body, c);
	e[0].name = "sym_name";
	e[0].value = ir_attr_string(k.ctx, "g", 1);
	e[1].name = "function_type";
	e[1].value = ir_attr_type(k.ctx, ir_type_func(k.ctx, NULL, 0, NULL, 0));
	inner = ir_op_create(k.ctx, "func.func", at(4), NULL, 0, NULL, 0,
			     ir_attr_dict(k.ctx, e, 2, at(4)), 1);
	ib = ir_block_create(k.ctx, at(4));
	ir_region_append_block(&inner->regions[0], ib);
	ops[0] = ops[1] = &c->results[0];
	add = ir_op_create(k.ctx, "arith.addi", at(5), ops, 2, &idx, 1, NULL, 0);
	ir_block_append_op(ib, add);
	ir_block_append_op(ib, ret(&k, 6));
	ir_block_append_op(k.body, inner);
	ir_block_append_op(k.body, ret(&k, 7));
	CHECK(ir_verify(k.ctx, k.mod, TARGET_DEFAULT) == 2);
	CHECK(strstr(log_buf, "5:error: 'arith.addi' op using value defined outside the region\n"
			      "3:note: required by region isolation constraints\n"));
	ptoc_context_destroy(k.ctx);
}

static const ir_type *tbuf(ir_ctx *ctx, int64_t fractal, int64_t pad, int64_t compact,
			   unsigned bl, unsigned sl, int64_t rows, int64_t vrow, ir_mem mem)
{
	ir_type t;
	memset(&t, 0, sizeof t);
	t.kind = IR_TYPE_TILE_BUF;
	t.u.tb.mem = mem;
	t.u.tb.elem = ir_type_float(ctx, PTORT_F32);
	t.u.tb.rows = rows;
	t.u.tb.cols = 16;
	t.u.tb.v_row = vrow;
	t.u.tb.v_col = 16;
	t.u.tb.fractal = fractal;
	t.u.tb.pad = pad;
	t.u.tb.compact = compact;
	t.u.tb.blayout = bl;
	t.u.tb.slayout = sl;
	return ir_type_tile_buf(ctx, &t);
}

/* Every bad alloc_tile is reported, each at its own line. */
static void test_tile_buf_fields(void)
{
	kit k;
	static const char *const want[] = {
		"10:error: 'pto.alloc_tile' op result #0: fractal must be one of 16, 32, 512, 1024 (got 64)",
		"11:error: 'pto.alloc_tile' op result #0: unknown pad: 4",
		"12:error: 'pto.alloc_tile' op result #0: unknown compact: 3",
		"13:error: 'pto.alloc_tile' op result #0: unknown blayout: 2",
		"14:error: 'pto.alloc_tile' op result #0: unknown slayout: 3",
		"15:error: 'pto.alloc_tile' op result #0: rows/cols must be non-negative",
		"16:error: 'pto.alloc_tile' op result #0: v_row/v_col must be non-negative or ?",
		"17:error: 'pto.alloc_tile' op result #0: tile_buf loc must be one of vec, mat, left, right, acc, bias, scaling",
		"18:error: 'pto.alloc_tile' op result #0: unknown pad: -1",
	};
	const ir_type *t[9];
	unsigned i;
	kit_init(&k);
	t[0] = tbuf(k.ctx, 64, 0, 0, 0, 0, 16, 16, IR_MEM_VEC);
	t[1] = tbuf(k.ctx, 512, 4, 0, 0, 0, 16, 16, IR_MEM_VEC);
	t[2] = tbuf(k.ctx, 512, 0, 3, 0, 0, 16, 16, IR_MEM_VEC);
	t[3] = tbuf(k.ctx, 512, 0, 0, 2, 0, 16, 16, IR_MEM_VEC);
	t[4] = tbuf(k.ctx, 512, 0, 0, 0, 3, 16, 16, IR_MEM_VEC);
	t[5] = tbuf(k.ctx, 512, 0, 0, 0, 0, -1, 16, IR_MEM_VEC);
	t[6] = tbuf(k.ctx, 512, 0, 0, 0, 0, 16, -2, IR_MEM_VEC);
	t[7] = tbuf(k.ctx, 512, 0, 0, 0, 0, 16, 16, IR_MEM_NONE);
	t[8] = tbuf(k.ctx, 16, -1, 0, 0, 0, 16, 16, IR_MEM_VEC);
	for (i = 0; i < 9; i++)
		ir_block_append_op(k.body, ir_op_create(k.ctx, "pto.alloc_tile", at(10 + i), NULL, 0,
							&t[i], 1, NULL, 0));
	ir_block_append_op(k.body, ret(&k, 20));
	CHECK(ir_verify(k.ctx, k.mod, TARGET_DEFAULT) == 9);
	for (i = 0; i < 9; i++)
		CHECK(strstr(log_buf, want[i]) != NULL, "missing: %s", want[i]);
	/* and a valid one, with each allowed fractal */
	{
		kit k2;
		int64_t fr[4] = {16, 32, 512, 1024};
		kit_init(&k2);
		for (i = 0; i < 4; i++) {
			const ir_type *ty = tbuf(k2.ctx, fr[i], 3, 2, 1, 2, 16, 16, IR_MEM_ACC);
			ir_block_append_op(k2.body, ir_op_create(k2.ctx, "pto.alloc_tile", at(3), NULL, 0,
								 &ty, 1, NULL, 0));
		}
		ir_block_append_op(k2.body, ret(&k2, 9));
		CHECK(ir_verify(k2.ctx, k2.mod, TARGET_DEFAULT) == 0);
		ptoc_context_destroy(k2.ctx);
	}
	ptoc_context_destroy(k.ctx);
}

/* A missing terminator and an unknown op with a region: the unknown op is accepted. */
static void test_terminator(void)
{
	kit k;
	ir_op *u;
	kit_init(&k);
	u = ir_op_create(k.ctx, "test.anything", at(3), NULL, 0, NULL, 0, NULL, 1);
	ir_region_append_block(&u->regions[0], ir_block_create(k.ctx, at(3)));
	ir_block_append_op(k.body, u);
	CHECK(ir_verify(k.ctx, k.mod, TARGET_DEFAULT) == 1);
	CHECK(strstr(log_buf, "3:error: 'func.func' op expects its body to end with 'func.return'"));
	ptoc_context_destroy(k.ctx);
}

/* The target decides the tmatmul element triples: fp8 is A5 only. */
static void test_target(void)
{
	kit k;
	ir_type t;
	const ir_type *a, *b, *c;
	ir_op *oa, *ob, *oc;
	ir_value *ops[3];
	kit_init(&k);
	memset(&t, 0, sizeof t);
	t.kind = IR_TYPE_TILE_BUF;
	t.u.tb.fractal = 512;
	t.u.tb.elem = ir_type_float(k.ctx, PTORT_F8E4M3FN);
	t.u.tb.rows = t.u.tb.cols = t.u.tb.v_row = t.u.tb.v_col = 16;
	t.u.tb.mem = IR_MEM_LEFT;
	a = ir_type_tile_buf(k.ctx, &t);
	t.u.tb.mem = IR_MEM_RIGHT;
	b = ir_type_tile_buf(k.ctx, &t);
	t.u.tb.mem = IR_MEM_ACC;
	t.u.tb.elem = ir_type_float(k.ctx, PTORT_F32);
	c = ir_type_tile_buf(k.ctx, &t);
	oa = ir_op_create(k.ctx, "pto.alloc_tile", at(3), NULL, 0, &a, 1, NULL, 0);
	ob = ir_op_create(k.ctx, "pto.alloc_tile", at(4), NULL, 0, &b, 1, NULL, 0);
	oc = ir_op_create(k.ctx, "pto.alloc_tile", at(5), NULL, 0, &c, 1, NULL, 0);
	ir_block_append_op(k.body, oa);
	ir_block_append_op(k.body, ob);
	ir_block_append_op(k.body, oc);
	ops[0] = &oa->results[0];
	ops[1] = &ob->results[0];
	ops[2] = &oc->results[0];
	ir_block_append_op(k.body, ir_op_create(k.ctx, "pto.tmatmul", at(6), ops, 3, NULL, 0, NULL, 0));
	ir_block_append_op(k.body, ret(&k, 7));
	CHECK(ir_verify(k.ctx, k.mod, &target_a2a3) == 1 && strstr(log_buf, "6:error: 'pto.tmatmul' op expects (dst, lhs, rhs)"));
	CHECK(ir_verify(k.ctx, k.mod, &target_a5) == 0);
	/* the attribute, in any case, through the one resolver */
	CHECK(target_resolve(k.ctx, k.mod, NULL) == &target_a2a3);
	ir_op_set_attr(k.ctx, k.mod, "pto.target_arch", ir_attr_string(k.ctx, "A5", 2));
	CHECK(target_resolve(k.ctx, k.mod, NULL) == &target_a5);
	CHECK(ir_verify(k.ctx, k.mod, target_resolve(k.ctx, k.mod, NULL)) == 0);
	CHECK(target_resolve(k.ctx, k.mod, &target_a2a3) == &target_a2a3);
	ir_op_set_attr(k.ctx, k.mod, "pto.target_arch", ir_attr_string(k.ctx, "a2a3", 4));
	CHECK(ir_verify(k.ctx, k.mod, target_resolve(k.ctx, k.mod, NULL)) == 1);
	log_buf[0] = 0;
	ir_op_set_attr(k.ctx, k.mod, "pto.target_arch", ir_attr_string(k.ctx, "a55", 3));
	CHECK(target_resolve(k.ctx, k.mod, &target_a5) == NULL &&
	      strstr(log_buf, "error: unknown target 'a55' in pto.target_arch (a2a3, a3, a2, a5)"));
	ptoc_context_destroy(k.ctx);
}

int main(void)
{
	test_valid();
	test_use_before_def();
	test_isolation();
	test_tile_buf_fields();
	test_terminator();
	test_target();
	if (check_failures())
		fprintf(stderr, "%s", log_buf);
	return check_report("test_ir_verify");
}
