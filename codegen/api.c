/* api.c: the public entry to the C emitter (ptoc_module_emit_c, ptoc.h). */
#include <string.h>

#include "codegen/emit.h"
#include "passes/pass.h"

int ptoc_module_emit_c(ptoc_module *m, const char *target, ptoc_write_fn out, void *user)
{
	ir_ctx *ctx = m->ctx;
	int saved = ctx->target, rc;
	ptoc_target t;
	if (ptoc_module_run_passes(m, NULL, target, NULL))
		return -1;
	if (target && !ptoc_target_parse(target, strlen(target), &t))
		ctx->target = t == PTOC_TARGET_A5 ? IR_TARGET_A5 : IR_TARGET_A2A3;
	rc = emit_c(ctx, m->op, pass_module_target(ctx, m->op), out, user) ? -1 : 0;
	ctx->target = saved;
	return rc;
}
