/* api.c: the public entry points that need the module's target: choosing it
 * (ptoc_module_set_target), verification and the pass manager (ptoc.h); the whole
 * sequence with the emitters is ptoc_module_compile (codegen/api.c). */
#include <string.h>

#include "passes/pass.h"

int ptoc_module_set_target(ptoc_module *m, const char *target)
{
	const struct target *chosen = NULL;
	if (target && !(chosen = target_lookup(target, strlen(target)))) {
		char names[128];
		ptoc_target_spellings(names, sizeof names);
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
	if (!t)
		return -1;
	if (m->verified == t) /* unchanged since it verified clean for this target */
		return 0;
	if (ir_verify(m->ctx, m->op, t))
		return -1;
	m->verified = t;
	return 0;
}

int module_run_pipeline(ptoc_module *m, const char *text, const char *remarks,
			const pipeline_run_opts *ro)
{
	pipeline p;
	char msg[512];
	const struct target *t = module_target(m);
	if (!t)
		return -1;
	if (pipeline_parse(&p, text, msg, sizeof msg)) {
		ir_error(m->ctx, m->op->loc, "%s", msg);
		return -1;
	}
	if (p.n)
		m->verified = NULL; /* the passes may change it */
	return pipeline_run(m->ctx, m->op, &p, t, remarks, ro) ? -1 : 0;
}

int ptoc_module_run_passes(ptoc_module *m, const char *pipeline_text, const char *target,
			   const char *remarks)
{
	if (target && ptoc_module_set_target(m, target))
		return -1;
	return module_run_pipeline(m, pipeline_text, remarks, NULL);
}
