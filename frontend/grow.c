/* grow.c: fe_grow, the growing arrays of the parser's state (FE_PUSH in frontend.h),
 * used by every file of the frontend; its own file below them. Memory comes from
 * ir_xrealloc (docs/architecture.md, "Allocation failure": the parser's tables are the
 * IR's own memory, fatal when it runs out). */
#include "frontend/frontend.h"

void fe_grow(void **a, unsigned *cap, size_t elem)
{
	unsigned n = *cap ? *cap * 2 : 16;
	*a = ir_xrealloc(*a, (size_t)n * elem); /* fatal when memory runs out */
	*cap = n;
}
