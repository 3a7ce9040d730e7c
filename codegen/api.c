/* api.c: the compile sequence of ptoc.h, written once (ptoc_module_compile): choose
 * the target, verify, run the pipeline, write the output. The driver (tools/), `ptoc
 * run` and ptoc_module_emit_c all go through it. */
#include "codegen/emit.h"
#include "passes/pass.h"

int ptoc_module_compile(ptoc_module *m, const ptoc_compile_opts *o, ptoc_write_fn out,
			void *user)
{
	const char *pipeline = o->pipeline;
	pipeline_run_opts ro = {0, NULL, NULL, PTOC_PRINT_CUSTOM};
	ir_op *f, *peer = NULL;
	if (o->target ? ptoc_module_set_target(m, o->target) : !module_target(m))
		return -1;
	if (ptoc_module_verify(m)) /* once: skipped when it verified clean already */
		return -1;
	if (!pipeline && (o->output == PTOC_OUTPUT_C || o->output == PTOC_OUTPUT_MAIN))
		pipeline = ptoc_default_pipeline();
	ro.verify_each = o->verify_each;
	ro.dump = o->dump;
	ro.dump_user = o->dump_user;
	ro.dump_form = o->dump_form | (o->print_locations ? PTOC_PRINT_LOCATIONS : 0);
	if (pipeline && module_run_pipeline(m, pipeline, o->remarks, &ro))
		return -1;
	switch (o->output) {
	case PTOC_OUTPUT_NONE:
		return 0;
	case PTOC_OUTPUT_IR:
	case PTOC_OUTPUT_GENERIC: {
		/* after a pipeline, each instruction's pipe as a comment (--emit=lowered) */
		ir_printer_opts po = {o->output == PTOC_OUTPUT_GENERIC, o->print_locations,
				      pipeline ? m->target : NULL};
		return ir_print_op(m->ctx, m->op, &po, out, user) ? -1 : 0;
	}
	case PTOC_OUTPUT_C:
		return emit_c(m->ctx, m->op, m->target, out, user) ? -1 : 0;
	case PTOC_OUTPUT_MAIN:
		f = emit_find_entry(m->ctx, m->op, o->entry, &peer);
		return f && !emit_main(m->ctx, m->op, f, peer, m->target, out, user) ? 0 : -1;
	}
	return -1;
}

int ptoc_module_emit_c(ptoc_module *m, const char *target, ptoc_write_fn out, void *user)
{
	ptoc_compile_opts o = {0};
	o.target = target;
	o.output = PTOC_OUTPUT_C;
	return ptoc_module_compile(m, &o, out, user);
}
