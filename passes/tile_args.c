/* tile_args.c: a kernel's tile arguments (docs/semantics.md §8.3, place-tiles' first
 * step). After `inline` a function whose signature carries a tile was never called
 * (inline removes the ones it copied), so it is a kernel of its own, and nothing
 * outside a kernel can hand it an on-chip buffer. [decision] Each !pto.tile_buf
 * argument is the kernel's own tile: a `pto.alloc_tile` of its type at the top of the
 * body takes its uses and the argument leaves the signature, so place-tiles places it
 * like any other tile, its content at entry that of a fresh tile (the runtime's
 * memories start zeroed, docs/runtime.md), and the C kernel, `ptoc run` and the
 * reference see the kernel without it (PTOAS's Subset sample passes its workspace so).
 *
 * Requires: a func.func with a body. Produces: no !pto.tile_buf argument. */
#include <string.h>

#include "passes/tiles.h"

void tile_args_to_allocs(ir_ctx *ctx, ir_op *fn)
{
	const ir_attr *a = ir_op_get_attr(fn, "function_type");
	const ir_type *ft, *in[64];
	ir_block *b = fn->num_regions ? fn->regions[0].first : NULL;
	unsigned i, k = 0, n = 0;
	if (!b || !a || a->kind != IR_ATTR_TYPE || !(ft = a->u.type) || ft->kind != IR_TYPE_FUNC ||
	    ft->u.fn.nin != b->num_args || b->num_args > 64)
		return;
	for (i = 0; i < b->num_args; i++)
		n += b->args[i]->type->kind == IR_TYPE_TILE_BUF;
	if (!n)
		return;
	for (i = 0; i < b->num_args; i++) {
		ir_value *arg = b->args[i];
		if (arg->type->kind == IR_TYPE_TILE_BUF) {
			const ir_type *t = arg->type;
			ir_op *alloc = ir_op_create(ctx, "pto.alloc_tile", arg->loc, NULL, 0, &t, 1,
						    NULL, 0);
			if (b->first)
				ir_block_insert_before(b->first, alloc);
			else
				ir_block_append_op(b, alloc);
			alloc->results[0].name = arg->name;
			ir_value_replace_all_uses(arg, &alloc->results[0]);
			continue;
		}
		arg->index = k;
		in[k] = ft->u.fn.in[i];
		b->args[k++] = arg;
	}
	b->num_args = k;
	ir_op_set_attr(ctx, fn, "function_type",
		       ir_attr_type(ctx, ir_type_func(ctx, in, k, ft->u.fn.out, ft->u.fn.nout)));
}
