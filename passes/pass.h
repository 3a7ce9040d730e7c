/* pass.h: the pass manager. A pass is a function over a module, registered by name in
 * the table of pass.c; a pipeline is a list of passes run in order, either the default
 * one (the passes of passes.h in their order, then verify again) or one the user names
 * with --pass-pipeline=a,b,c.
 *
 * Every pass states in its file's header comment what it requires (the IR level and
 * what earlier passes established) and what it preserves. Passes report problems
 * through the context's diagnostics and return the number of errors they reported;
 * the pipeline stops after the first pass that reports any. */
#ifndef PTOC_PASSES_PASS_H
#define PTOC_PASSES_PASS_H

#include "ir/ir.h"
#include "target/target.h"

/* What every pass may read: the resolved target and which remarks to emit. */
typedef struct pass_opts {
	const struct target *target; /* never NULL while a pipeline runs */
	const char *remarks;         /* -Rpass=: comma-separated pass names, "all", or NULL */
} pass_opts;

typedef unsigned (*pass_fn)(ir_ctx *ctx, ir_op *module, const pass_opts *o);

typedef struct pass_info {
	const char *name;    /* as written in --pass-pipeline and -Rpass */
	const char *summary; /* one line for --help-passes */
	pass_fn run;
} pass_info;

/* Emits a remark "[name] ..." at `loc` when remarks of pass `name` are enabled. */
void pass_remark(ir_ctx *ctx, const pass_opts *o, const char *name, ir_loc loc,
		 const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* The one place that decides a module's target: `chosen` (the command line's
 * --target/--pto-arch, looked up with target_lookup) when not NULL, else the
 * module's `pto.target_arch`, else TARGET_DEFAULT (a2a3). The attribute is checked
 * either way: a value that is not a string naming a target (target_lookup: a name or
 * alias in any case) is reported at the module's location and NULL is returned.
 * Everything downstream (ir_verify, pipeline_run, emit_c) receives the result. */
const struct target *target_resolve(ir_ctx *ctx, const ir_op *module,
				    const struct target *chosen);

/* The target of a public module handle: the one ptoc_module_set_target (api.c)
 * chose, else resolved now with target_resolve (no command-line choice). NULL after
 * reporting an error. */
const struct target *module_target(ptoc_module *m);

/* Runs pipeline `text` (pipeline_parse: NULL is the default) on a public module
 * for its target (module_target). 0, or -1 after reporting errors (a bad pipeline at
 * the module). The pass half of ptoc_module_compile and ptoc_module_run_passes. */
struct pipeline_run_opts;
int module_run_pipeline(ptoc_module *m, const char *text, const char *remarks,
			const struct pipeline_run_opts *ro);

#define PIPELINE_MAX 32
typedef struct pipeline {
	const pass_info *pass[PIPELINE_MAX];
	unsigned n;
} pipeline;

/* Parses "a,b,c" (spaces around names allowed; an empty text is an empty pipeline;
 * NULL is the default pipeline, ptoc_default_pipeline). Returns 0, or -1 with a
 * message in err. */
int pipeline_parse(pipeline *p, const char *text, char *err, size_t errcap);

typedef struct pipeline_run_opts {
	int verify_each;            /* run the structural verifier after every pass */
	ptoc_write_fn dump;         /* when set: print the IR after every pass (print-after-all) */
	void *dump_user;
	ptoc_print_form dump_form;
} pipeline_run_opts;

/* Runs the passes of `p` on `module` in order for target `t` (target_resolve).
 * Stops at the first pass (or verification) that reports an error; returns the
 * number of errors. */
unsigned pipeline_run(ir_ctx *ctx, ir_op *module, const pipeline *p, const struct target *t,
		      const char *remarks, const pipeline_run_opts *ro);

#endif
