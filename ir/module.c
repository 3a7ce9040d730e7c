/* module.c: the public module entry points other than parsing (frontend/) and
 * those that need the target (passes/api.c): printing. A module lives in its
 * context's arena and is freed with it. */
#include "ir/ir.h"

int ptoc_module_print(ptoc_module *m, ptoc_print_form form, ptoc_write_fn out, void *user)
{
	ir_printer_opts o = {0};
	o.generic = (form & ~PTOC_PRINT_LOCATIONS) == PTOC_PRINT_GENERIC;
	o.locs = (form & PTOC_PRINT_LOCATIONS) != 0;
	return ir_print_op(m->ctx, m->op, &o, out, user);
}
