/* arg_shape.c: the shape of a kernel's GM buffer as an array, for the harness's .npy
 * files (emit_main; docs/runtime.md "NumPy files"). */
#include <string.h>

#include "codegen/emit.h"

unsigned emit_arg_shape(const ir_value *arg, uint64_t elems, uint64_t *shape, unsigned max)
{
	const ir_operand *u;
	unsigned rank = 0, d;
	if (!elems)
		return 0;
	for (u = arg->uses; u; u = u->next_use) {
		const ir_op *m = u->owner;
		unsigned r;
		uint64_t dims[16], want = 1;
		if (m->code != IR_OP_MAKE_TENSOR_VIEW || u != &m->operands[0])
			return 0; /* addptr, scalar loads and stores: no one shape */
		r = m->results[0].type->u.shaped.rank;
		if (r == 0 || r > max || r > 16 || m->num_operands != 1 + 2 * r)
			return 0;
		for (d = r; d-- > 0;) {
			int64_t sh, st;
			if (!ir_value_const_int(m->operands[1 + d].value, &sh) ||
			    !ir_value_const_int(m->operands[1 + r + d].value, &st) || sh <= 0)
				return 0;
			if (sh > 1 && (uint64_t)st != want) /* not row-major compact */
				return 0;
			dims[d] = (uint64_t)sh;
			want *= (uint64_t)sh;
		}
		if (want != elems || (rank && (rank != r || memcmp(shape, dims, r * sizeof *dims))))
			return 0;
		rank = r;
		memcpy(shape, dims, r * sizeof *dims);
	}
	return rank;
}
