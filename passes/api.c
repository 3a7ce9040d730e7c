/* api.c: the public entry points that need the module's target: choosing it
 * (ptoc_module_set_target), verification and the pass manager (ptoc.h). */
#include <string.h>

#include "passes/pass.h"

int ptoc_module_set_target(ptoc_module *m, const char *target)
{
	const struct target *chosen = NULL;
	if (target && !(chosen = target_lookup(target, strlen(target)))) {
		char names[128];
		target_spellings(names, sizeof names);
		ir_error(m->ctx, m->op->loc, "unknown target '%s' (%s)", target, names);
		return -1;
	}
	m->target = target_resolve(m->ctx, m->op, chosen);
	return m->target ? 0 : -1;
}

const struct target *module_target(ptoc_module *m)
{
	if (!m->target)
		ptoc_module_set_target(m, NULL);
	return m->target;
}

int ptoc_module_verify(ptoc_module *m)
{
	const struct target *t = module_target(m);
	return t && !ir_verify(m->ctx, m->op, t) ? 0 : -1;
}

int ptoc_module_run_passes(ptoc_module *m, const char *pipeline_text, const char *target,
			   const char *remarks)
{
	pipeline p;
	char msg[512];
	if (pipeline_text) {
		if (pipeline_parse(&p, pipeline_text, msg, sizeof msg)) {
			ir_error(m->ctx, m->op->loc, "%s", msg);
			return -1;
		}
	} else {
		pipeline_default(&p, NULL);
	}
	if (target ? ptoc_module_set_target(m, target) : !module_target(m))
		return -1;
	return pipeline_run(m->ctx, m->op, &p, m->target, remarks, NULL) ? -1 : 0;
}
