/* api.c: the public entry to the pass manager (ptoc_module_run_passes, ptoc.h). */
#include <string.h>

#include "passes/pass.h"

int ptoc_module_run_passes(ptoc_module *m, const char *pipeline_text, const char *target,
			   const char *remarks)
{
	ir_ctx *ctx = m->ctx;
	pipeline p;
	char msg[512];
	int saved = ctx->target;
	unsigned errs;
	if (pipeline_text) {
		if (pipeline_parse(&p, pipeline_text, msg, sizeof msg)) {
			ir_error(ctx, m->op->loc, "%s", msg);
			return -1;
		}
	} else {
		pipeline_default(&p, NULL);
	}
	if (target) {
		ptoc_target t;
		if (ptoc_target_parse(target, strlen(target), &t)) {
			ir_error(ctx, m->op->loc, "unknown target '%s' (a2a3, a5)", target);
			return -1;
		}
		ctx->target = t == PTOC_TARGET_A5 ? IR_TARGET_A5 : IR_TARGET_A2A3;
	}
	errs = pipeline_run(ctx, m->op, &p, remarks, NULL);
	ctx->target = saved;
	return errs ? -1 : 0;
}
