/* api.c: the public entry to the C emitter (ptoc_module_emit_c, ptoc.h). */
#include "codegen/emit.h"
#include "passes/pass.h"

int ptoc_module_emit_c(ptoc_module *m, const char *target, ptoc_write_fn out, void *user)
{
	if (ptoc_module_run_passes(m, NULL, target, NULL))
		return -1;
	return emit_c(m->ctx, m->op, m->target, out, user) ? -1 : 0;
}
