/* test_third_target.c: a target is one table. A test-only target "t3", written here
 * as one `struct target` and nothing else, is handed to the verifier, the passes
 * and the emitter, which must obey it where it differs from a2a3: the tmov memory
 * pairs and whether they may reshape, the mmad type triples, the m/k/n range, the
 * vector ops' element types and compare modes, the tcvt pairs, the memory capacities
 * and alignment, the memory sizes the emitted C states. Every expectation follows from the t3 table below (and a2a3's documented
 * values for the contrast), not from the code under test. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "codegen/emit.h"
#include "ir/ir.h"
#include "passes/pass.h"

/* ---- the third target ---------------------------------------------------- */

static const ptoc_cvt_rule t3_cvt[] = {
	/* only f32 -> f16 (every mode but ODD, saturation honoured, default OFF) */
	{PTORT_F32, PTORT_F16, PTOC_RMODES_5, PTOC_CVT_ROUNDING, PTOC_SAT_HONOURED, PTORT_SAT_OFF},
};

static const ptoc_mmad_types t3_mmad[] = {
	{PTORT_F16, PTORT_F16, PTORT_F32, 0}, /* f16 only: no f32 x f32, no i8 */
};

static const ptoc_tmov_pair t3_tmov[] = {
	{PTOC_LOC_VEC, PTOC_LOC_VEC, 1},  /* may reshape (a2a3: may not) */
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, 0}, /* no mat -> right (a2a3 has it) */
	{PTOC_LOC_VEC, PTOC_LOC_MAT, 0},  /* a2a3 has not */
};

static const char *const t3_aliases[] = {"third", NULL};

/* vector ops: tadd takes f16 only (a2a3: f16, f32 and 16/32-bit integers), every
 * other op nothing; tcmp of i32 is not limited to eq/ne (a2a3's is) */
static uint32_t t3_vec[IR_OP_V_END - IR_OP_V_FIRST];

static const struct target t3 = {
	.id = PTOC_TARGET_COUNT, /* not a public target */
	.name = "t3",
	.aliases = t3_aliases,
	.cvt = t3_cvt,
	.ncvt = 1,
	.mem = {
		[PTOC_LOC_VEC] = {"VB", 4096, 64, 1024}, /* 4 KiB, 64-byte alignment, 1 KiB reserved */
		[PTOC_LOC_MAT] = {"M1", 8192, 32, 0},
		[PTOC_LOC_LEFT] = {"LA", 4096, 512, 0},
		[PTOC_LOC_RIGHT] = {"LB", 4096, 512, 0},
		[PTOC_LOC_ACC] = {"LC", 8192, 512, 0},
		[PTOC_LOC_BIAS] = {"BT", 1024, 32, 0},
		[PTOC_LOC_SCALING] = {"FB", 1024, 32, 0},
	},
	.vec = {256, 32, 255, 255, 255, 0},
	.cube = {
		.mnk_min = 1,
		.mnk_max = 32,
		.left = PTOC_LAYOUT_ZZ,
		.right = PTOC_LAYOUT_ZN,
		.acc = PTOC_LAYOUT_NZ,
		.left_fractal = 512,
		.right_fractal = 512,
		.acc_fractal = 1024,
		.types = t3_mmad,
		.ntypes = 1,
	},
	.tmov = t3_tmov,
	.ntmov = sizeof t3_tmov / sizeof t3_tmov[0],
	.title = "T3",
	.vec_types = t3_vec,
	.nvec = sizeof t3_vec / sizeof t3_vec[0],
	.vec_cmp_i32_eq_only = 0,
};

/* ---- running ptoc on a text ---------------------------------------------- */

static char diags[8192];

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	size_t n = strlen(diags);
	(void)user;
	snprintf(diags + n, sizeof diags - n, "%u: %s: %.*s\n", (unsigned)loc.line,
		 sev == PTOC_ERROR ? "error" : "note", (int)len, msg);
}

static int sink(void *user, const char *data, size_t len)
{
	char *out = user;
	size_t n = strlen(out);
	if (n + len >= 8192)
		return -1;
	memcpy(out + n, data, len);
	out[n + len] = 0;
	return 0;
}

/* Parses `src`, then runs `passes` (a pipeline, "" for none; the verifier first in
 * any case) for target t, then emit-c into `emitted` when not NULL. Returns the
 * errors reported; the diagnostics are in `diags`. */
static unsigned run(const char *src, const struct target *t, const char *passes, char *emitted)
{
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	unsigned errs;
	diags[0] = 0;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	m = ptoc_parse(ctx, src, strlen(src), "t.pto");
	if (m && !ir_verify(ctx, m->op, t) && *passes) {
		pipeline p;
		char msg[256];
		if (pipeline_parse(&p, passes, msg, sizeof msg) == 0)
			pipeline_run(ctx, m->op, &p, t, NULL, NULL);
		else
			CHECK_FAIL("pipeline '%s': %s", passes, msg);
	}
	if (m && emitted && !ptoc_context_error_count(ctx)) {
		emitted[0] = 0;
		emit_c(ctx, m->op, t, sink, emitted);
	}
	errs = ptoc_context_error_count(ctx);
	ptoc_context_destroy(ctx);
	return errs;
}

static int has(const char *needle)
{
	return strstr(diags, needle) != NULL;
}

/* ---- the rules ----------------------------------------------------------- */

static void test_tmov(void)
{
	static const char mat_right[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<mat, 16x16xf16>\n"
		"  %b = pto.alloc_tile : !pto.tile_buf<right, 16x16xf16>\n"
		"  pto.tmov ins(%a : !pto.tile_buf<mat, 16x16xf16>) outs(%b : !pto.tile_buf<right, 16x16xf16>)\n"
		"  return\n}\n";
	static const char vec_reshape[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>\n"
		"  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x32xf16, valid=16x16>\n"
		"  pto.tmov ins(%a : !pto.tile_buf<vec, 16x16xf16>) outs(%b : !pto.tile_buf<vec, 16x32xf16, valid=16x16>)\n"
		"  return\n}\n";
	static const char vec_mat[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>\n"
		"  %b = pto.alloc_tile : !pto.tile_buf<mat, 16x16xf16>\n"
		"  pto.tmov ins(%a : !pto.tile_buf<vec, 16x16xf16>) outs(%b : !pto.tile_buf<mat, 16x16xf16>)\n"
		"  return\n}\n";
	CHECK(run(mat_right, &target_a2a3, "", NULL) == 0, "a2a3 mat -> right: %s", diags);
	CHECK(run(mat_right, &t3, "", NULL) == 1 &&
	      has("4: error: 'pto.tmov' op expects a supported tmov address-space pair for this "
		  "target (got mat -> right)"), "t3 mat -> right: %s", diags);
	CHECK(run(vec_reshape, &target_a2a3, "", NULL) == 1 &&
	      has("expects src and dst to have the same shape"), "a2a3 vec reshape: %s", diags);
	CHECK(run(vec_reshape, &t3, "", NULL) == 0, "t3 vec reshape: %s", diags);
	CHECK(run(vec_mat, &target_a2a3, "", NULL) == 1, "a2a3 vec -> mat: %s", diags);
	CHECK(run(vec_mat, &t3, "", NULL) == 0, "t3 vec -> mat: %s", diags);
}

static void test_matmul(void)
{
	static const char f32[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<left, 16x16xf32>\n"
		"  %b = pto.alloc_tile : !pto.tile_buf<right, 16x16xf32>\n"
		"  %c = pto.alloc_tile : !pto.tile_buf<acc, 16x16xf32>\n"
		"  pto.tmatmul ins(%a, %b : !pto.tile_buf<left, 16x16xf32>, !pto.tile_buf<right, 16x16xf32>) outs(%c : !pto.tile_buf<acc, 16x16xf32>)\n"
		"  return\n}\n";
	static const char big[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<left, 16x64xf16>\n"
		"  %b = pto.alloc_tile : !pto.tile_buf<right, 64x16xf16>\n"
		"  %c = pto.alloc_tile : !pto.tile_buf<acc, 16x16xf32>\n"
		"  pto.tmatmul ins(%a, %b : !pto.tile_buf<left, 16x64xf16>, !pto.tile_buf<right, 64x16xf16>) outs(%c : !pto.tile_buf<acc, 16x16xf32>)\n"
		"  return\n}\n";
	CHECK(run(f32, &target_a2a3, "", NULL) == 0, "a2a3 f32 mmad: %s", diags);
	CHECK(run(f32, &t3, "", NULL) == 1 &&
	      has("5: error: 'pto.tmatmul' op expects (dst, lhs, rhs) element types to match one "
		  "of (f32, f16, f16)\n"), "t3 f32 mmad: %s", diags);
	CHECK(run(f32, &t3, "check-cube", NULL) == 1, "t3 f32 mmad, check-cube: %s", diags);
	CHECK(run(big, &target_a2a3, "", NULL) == 0, "a2a3 k = 64: %s", diags);
	CHECK(run(big, &t3, "", NULL) == 1 &&
	      has("'pto.tmatmul' op expects m, k, and n valid sizes to be in [1, 32]"),
	      "t3 k = 64: %s", diags);
}

static void test_vector(void)
{
	static const char add_f32[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>\n"
		"  pto.tadd ins(%a, %a : !pto.tile_buf<vec, 16x64xf32>, !pto.tile_buf<vec, 16x64xf32>) outs(%a : !pto.tile_buf<vec, 16x64xf32>)\n"
		"  return\n}\n";
	static const char add_f16[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf16>\n"
		"  pto.tadd ins(%a, %a : !pto.tile_buf<vec, 16x64xf16>, !pto.tile_buf<vec, 16x64xf16>) outs(%a : !pto.tile_buf<vec, 16x64xf16>)\n"
		"  return\n}\n";
	static const char cmp_i32[] =
		"func.func @k() {\n"
		"  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x64xi32>\n"
		"  %m = pto.alloc_tile : !pto.tile_buf<vec, 16x8xui8>\n"
		"  pto.tcmp ins(%a, %a {cmpMode = #pto<cmp gt>} : !pto.tile_buf<vec, 16x64xi32>, !pto.tile_buf<vec, 16x64xi32>) outs(%m : !pto.tile_buf<vec, 16x8xui8>)\n"
		"  return\n}\n";
	t3_vec[IR_OP_V_tadd - IR_OP_V_FIRST] = 1u << PTORT_F16;
	t3_vec[IR_OP_V_tcmp - IR_OP_V_FIRST] = 1u << PTORT_I32;
	CHECK(run(add_f32, &target_a2a3, "", NULL) == 0, "a2a3 tadd f32: %s", diags);
	CHECK(run(add_f32, &t3, "", NULL) >= 1 &&
	      has("'pto.tadd' op expects T3 tadd element type to be one of f16, but got 'f32'"),
	      "t3 tadd f32: %s", diags);
	CHECK(run(add_f16, &t3, "", NULL) == 0, "t3 tadd f16: %s", diags);
	CHECK(run(cmp_i32, &target_a2a3, "", NULL) == 1 &&
	      has("expects cmpMode eq or ne for i32 on A2/A3"), "a2a3 tcmp i32 gt: %s", diags);
	CHECK(run(cmp_i32, &t3, "", NULL) == 0, "t3 tcmp i32 gt: %s", diags);
}

static void test_cvt(void)
{
	static const char f16_f32[] =
		"func.func @k(%h: !pto.tile<16x16xf16>) {\n"
		"  %a = pto.tcvt %h : !pto.tile<16x16xf16> -> !pto.tile<16x16xf32>\n"
		"  return\n}\n";
	static const char f32_f16[] =
		"func.func @k(%h: !pto.tile<16x16xf32>) {\n"
		"  %a = pto.tcvt %h : !pto.tile<16x16xf32> -> !pto.tile<16x16xf16>\n"
		"  return\n}\n";
	CHECK(run(f16_f32, &target_a2a3, "legalize-cvt", NULL) == 0, "a2a3 f16 -> f32: %s", diags);
	CHECK(run(f16_f32, &t3, "legalize-cvt", NULL) == 1 &&
	      has("f16 -> f32 with round mode NONE is not supported on t3"), "t3 f16 -> f32: %s", diags);
	CHECK(run(f32_f16, &t3, "legalize-cvt", NULL) == 0, "t3 f32 -> f16: %s", diags);
}

static void test_memories(void)
{
	static const char aligned32[] =
		"func.func @k() {\n"
		"  %c = arith.constant 32 : i64\n"
		"  %t = pto.alloc_tile addr = %c : !pto.tile_buf<vec, 8x8xf32>\n"
		"  return\n}\n";
	/* 4 KiB fits t3's UB (its 1024 reserved bytes bind only a kernel with an op using
	 * the UB scratch, and t3's vector unit takes no op); one more element does not */
	static const char fit[] =
		"func.func @k() {\n"
		"  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xui8>\n"
		"  return\n}\n";
	static const char over[] =
		"func.func @k() {\n"
		"  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x4097xui8>\n"
		"  return\n}\n";
	static const char empty[] = "func.func @k() {\n  return\n}\n";
	char out[8192];
	CHECK(run(aligned32, &target_a2a3, "place-tiles", NULL) == 0, "a2a3 addr 32: %s", diags);
	CHECK(run(aligned32, &t3, "place-tiles", NULL) == 1 &&
	      has("manual address 32 is misaligned: tiles in VB (vec) must be at multiples of 64 "
		  "bytes on target t3"), "t3 addr 32: %s", diags);
	CHECK(run(fit, &t3, "place-tiles", NULL) == 0, "t3 4096 bytes: %s", diags);
	CHECK(run(over, &t3, "place-tiles", NULL) == 1 &&
	      has("cannot place a 4097-byte tile in VB of target t3: 4096 bytes available (4096 "
		  "capacity, 0 reserved)"), "t3 4097 bytes: %s", diags);
	CHECK(run(empty, &t3, "", out) == 0 && strstr(out, "for target t3.") &&
	      strstr(out, "Memories (bytes): VB 4096, M1 8192, LA 4096, LB 4096, LC 8192, BT 1024, FB 1024"),
	      "t3 emit-c header: %s%.300s", diags, out);
}

static void test_lookup(void)
{
	char names[128];
	CHECK(target_lookup("A5", 2) == &target_a5);
	CHECK(target_lookup("a3", 2) == &target_a2a3);
	CHECK(target_lookup("t3", 2) == NULL, "t3 is not in target_list");
	CHECK(ptoc_target_spellings(names, sizeof names) == strlen("a2a3, a3, a2, a5") &&
	      !strcmp(names, "a2a3, a3, a2, a5"), "%s", names);
	CHECK(ptoc_target_spellings(names, 5) == strlen("a2a3, a3, a2, a5") && !strcmp(names, "a2a3"));
}

int main(void)
{
	test_tmov();
	test_matmul();
	test_vector();
	test_cvt();
	test_memories();
	test_lookup();
	return check_report("test_third_target");
}
