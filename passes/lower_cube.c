/* lower_cube.c: the cube side of level-3 lowering (lower.h): tmov, the tmatmul family
 * and transfers of tiles outside vec/mat. A placeholder that reports them as not yet
 * supported; the matmul lowering replaces this file. */
#include "passes/lower.h"

unsigned lower_cube_op(ir_ctx *ctx, ir_op *op, const pass_opts *o)
{
	(void)o;
	ir_error(ctx, op->loc, "'%s' split-repeats: lowering of this op is not supported yet",
		 op->name);
	return 1;
}
