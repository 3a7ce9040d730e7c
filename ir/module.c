/* module.c: the public module entry points other than parsing (frontend/) and
 * those that need the target (passes/api.c): destroy, print. A module lives in its context's arena. */
#include "ir/ir.h"

void ptoc_module_destroy(ptoc_module *m)
{
	/* The module lives in its context's arena; the context frees it. */
	(void)m;
}

static int print_module(ptoc_module *m, ptoc_print_form form, ptoc_write_fn out, void *user)
{
	ir_printer_opts o = {0, 0};
	o.generic = form == PTOC_PRINT_GENERIC;
	return ir_print_op(m->ctx, m->op, &o, out, user);
}

int ptoc_module_print(ptoc_module *m, ptoc_print_form form, ptoc_write_fn out, void *user)
{
	return print_module(m, form, out, user);
}
