/* layout_stub.c: stands in for runtime/src/layout.c (owned by the matmul part) until
 * it exists, so that the execution-model tests link. Uses the tests' own model. */
#include "rtexec_ref.h"

size_t ptort_tile_offset(const ptort_tile *t, uint32_t r, uint32_t c)
{
	return ref_off(t, r, c);
}
