/* mmref.h: the slow exact reference of mmad (docs/semantics.md §6.3), independent of the
 * runtime's kernels: a plain loop over logical elements addressed through
 * ptort_tile_offset, operands decoded with the numerics' ptort_decode into integer
 * significand x power of two, exact products in integers, and the sum of each step
 * formed exactly in a 768-bit fixed-point integer and rounded once to f32 (RNE) by
 * integer code. No host floating point at all. */
#ifndef MMREF_H
#define MMREF_H

#include <stdint.h>

#include "ptort.h"

/* Runs mmad (a_scale/b_scale NULL) or mmad.mx on the memories mem[] (indexed by
 * ptort_mem; tiles hold their addresses). The caller has validated everything. */
void ref_mmad(uint8_t *const mem[PTORT_MEM_COUNT], const ptort_tile *c, const ptort_tile *a,
	      const ptort_tile *a_scale, const ptort_tile *b, const ptort_tile *b_scale,
	      uint32_t m, uint32_t k, uint32_t n, int init, const ptort_tile *it);

/* One step on f32 bit patterns: round_f32(acc + x * 2^e) where x = (-1)^sx * sig * 2^ex
 * exactly (cls: 0 zero, 1 finite, 2 inf, 3 NaN). Exposed for the self-test. */
uint32_t ref_add_round(uint32_t acc, int cls, int sx, uint64_t sig, int ex);

#endif
