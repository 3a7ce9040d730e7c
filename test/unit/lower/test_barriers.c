/* test_barriers.c: lower_pipe_barriers (passes/insn_fp.c), the barriers between the
 * steps of one tile op, on instructions written by hand: per pipe that does not
 * execute in program order on the target, a `pto.barrier <PIPE>` before each step that
 * touches bytes an earlier step of its pipe wrote (or writes bytes one read), none
 * between independent steps, steps of different pipes or on a pipe in order. The
 * expected barriers are read off the footprints by hand (docs/sync.md "Inside one
 * tile op"). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ir/ir.h"
#include "passes/lower.h"
#include "target/target.h"

#define TB(loc, dt, r, c, bl, sl, fr)                                                      \
	"!pto.tile_buf<loc=" loc ", dtype=" dt ", rows=" r ", cols=" c ", v_row=" r ", v_col=" \
	c ", blayout=" bl ", slayout=" sl ", fractal=" fr ", pad=0>"
#define LEFT TB("left", "f16", "16", "32", "col_major", "row_major", "512")
#define RIGHT TB("right", "f16", "32", "16", "row_major", "col_major", "512")
#define ACC TB("acc", "f32", "16", "16", "col_major", "row_major", "1024")
/* two mmads into one accumulator (the second reads and writes c): M orders them */
#define MMAD(c_addr, init)                                                                 \
	"    \"pto.i.mmad\"() {a = " LEFT ", a_addr = 0, b = " RIGHT ", b_addr = 0, c = " ACC   \
	", c_addr = " c_addr ", init = \"" init "\", k = 32, m = 16, n = 16} : () -> ()\n"
/* a vector add of 64 f32 lanes, once */
#define VADD(dst, s0, s1)                                                                  \
	"    \"pto.i.vbin\"() {dst = " dst ", dst_blk = 1, dst_rep = 8, mask_hi = 0, mask_lo = "  \
	"-1, mem = #pto.address_space<vec>, op = \"add\", repeat = 1, src0 = " s0 ", src0_blk " \
	"= 1, src0_rep = 8, src1 = " s1 ", src1_blk = 1, src1_rep = 8, type = f32} : () -> ()\n"

/* The pipes of the barriers lower_pipe_barriers puts into `body` for target id, as
 * "V,M," in order. */
static const char *barriers(const char *body, ptoc_target id)
{
	static char out[256], src[8192];
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	ir_op *f, *x;
	out[0] = 0;
	snprintf(src, sizeof src, "module {\n  func.func @k() {\n%s    return\n  }\n}\n", body);
	m = ptoc_parse(ctx, src, strlen(src), "t.pto");
	CHECK(m != NULL, "%s", src);
	if (m) {
		f = m->op->regions[0].first->first;
		lower_pipe_barriers(ctx, target_get(id), f->regions[0].first->first, NULL);
		for (x = f->regions[0].first->first; x; x = x->next)
			if (x->code == IR_OP_BARRIER) {
				const ir_attr *a = ir_op_get_attr(x, "pipe");
				strcat(out, a->u.pto.value + strlen("PIPE_"));
				strcat(out, ",");
			}
	}
	ptoc_context_destroy(ctx);
	return out;
}

static void expect(const char *body, ptoc_target id, const char *want)
{
	const char *got = barriers(body, id);
	CHECK(!strcmp(got, want), "%s: barriers \"%s\", expected \"%s\" in\n%s",
	      id == PTOC_TARGET_A5 ? "a5" : "a2a3", got, want, body);
}

int main(void)
{
	/* M does not execute in order on A2A3: the accumulating mmad waits; on A5 M does */
	expect(MMAD("0", "zero") MMAD("0", "c"), PTOC_TARGET_A2A3, "M,");
	expect(MMAD("0", "zero") MMAD("0", "c"), PTOC_TARGET_A5, "");
	/* two accumulators 1 KiB apart: independent */
	expect(MMAD("0", "zero") MMAD("1024", "zero"), PTOC_TARGET_A2A3, "");
	/* V: the second add reads the first's result (RAW), then one overwrites a source
	 * the second read (WAR); independent adds need nothing */
	expect(VADD("512", "0", "256") VADD("768", "512", "0"), PTOC_TARGET_A2A3, "V,");
	expect(VADD("512", "0", "256") VADD("768", "512", "0"), PTOC_TARGET_A5, "");
	expect(VADD("512", "0", "256") VADD("768", "1024", "1280") VADD("256", "1536", "1792"),
	       PTOC_TARGET_A2A3, "V,");
	expect(VADD("512", "0", "256") VADD("768", "1024", "1280"), PTOC_TARGET_A2A3, "");
	/* a barrier of the lowering's own orders what came before it on its pipe */
	expect(VADD("512", "0", "256") "    pto.barrier <PIPE_V>\n" VADD("768", "512", "0"),
	       PTOC_TARGET_A2A3, "V,");
	/* steps of different pipes are ordered by flags, not here */
	expect(VADD("0", "0", "256") MMAD("0", "zero"), PTOC_TARGET_A2A3, "");
	return check_report("test_lower_barriers");
}
