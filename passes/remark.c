/* remark.c: pass_remark (pass.h), the passes' optional remarks (-Rpass). Its own file
 * below the passes, which call it, and the pass runner (pass.c), which calls them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "passes/pass.h"

/* Whether remarks of pass `name` are enabled (-Rpass=name / all). */
static int pass_remarks_on(const pass_opts *o, const char *name)
{
	const char *s = o->remarks;
	size_t n = strlen(name);
	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if ((len == 3 && !memcmp(s, "all", 3)) || (len == n && !memcmp(s, name, n)))
			return 1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

void pass_remark(ir_ctx *ctx, const pass_opts *o, const char *name, ir_loc loc,
		 const char *fmt, ...)
{
	char pre[64];
	va_list ap;
	if (!pass_remarks_on(o, name))
		return;
	snprintf(pre, sizeof pre, "[%s] ", name);
	va_start(ap, fmt);
	ir_emitv_prefixed(ctx, PTOC_REMARK, loc, pre, fmt, ap);
	va_end(ap);
}
