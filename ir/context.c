/* context.c: the public context API (create/destroy, diagnostic handler, error
 * count). */
#include <stdlib.h>

#include "ir/ir.h"

ptoc_context *ptoc_context_create(void)
{
	ptoc_context *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	ctx->error_limit = PTOC_DEFAULT_ERROR_LIMIT;
	return ctx;
}

void ptoc_context_destroy(ptoc_context *ctx)
{
	if (!ctx)
		return;
	ir_diag_free(ctx);
	ir_arena_free(ctx);
	free(ctx);
}

void ptoc_context_set_diag_handler(ptoc_context *ctx, ptoc_diag_handler fn, void *user)
{
	ctx->diag_fn = fn;
	ctx->diag_user = user;
}

unsigned ptoc_context_error_count(const ptoc_context *ctx)
{
	return ctx->errors;
}

void ptoc_context_set_error_limit(ptoc_context *ctx, unsigned limit)
{
	ctx->error_limit = limit;
	ir_diag_reset_limit(ctx);
}

void ptoc_context_add_source(ptoc_context *ctx, const char *filename, const char *buf,
			     size_t len)
{
	ir_add_source_borrowed(ctx, filename, buf, len);
}
