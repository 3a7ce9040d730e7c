/* scvt.c: a run-time scalar operand converted to a vector op's element type
 * (docs/semantics.md §7.3), the run-time twin of the compile-time conversion of an
 * arith.constant scalar (passes/lower_vec.c): an integer's value (its low N bits, signed
 * or unsigned by its type) converted from 64 bits, a float from its own type, both as
 * a tcvt with RINT and saturation off; and ttri with a run-time diagonal. */
#include <stdint.h>

#include "insn_entry.h"
#include "ptort.h"

uint64_t ptort_scvt(ptort_ctx *ctx, ptort_type from, ptort_type to, uint64_t value)
{
	unsigned n;
	(void)ctx;
	if ((unsigned)from >= PTORT_TYPE_COUNT || (unsigned)to >= PTORT_TYPE_COUNT)
		return 0;
	if (ptort_type_is_float(from)) {
		n = ptort_type_bits(from);
		value &= n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
		return from == to ? value : ptort_cvt1(from, to, value, PTORT_RINT, PTORT_SAT_OFF);
	}
	n = ptort_type_bits(from);
	if (n < 64) {
		uint64_t m = ((uint64_t)1 << n) - 1, u = value & m;
		value = ptort_type_is_signed_int(from) && (u >> (n - 1) & 1) ? u | ~m : u;
	}
	return ptort_cvt1(ptort_type_is_signed_int(from) ? PTORT_I64 : PTORT_U64, to, value,
			  PTORT_RINT, PTORT_SAT_OFF);
}

/* ttri with a diagonal known only at run time: each row in at most two fills, the
 * columns left of the split and those right of it (as the compile-time lowering of a
 * constant diagonal does, passes/lower_vec.c). */
int ptort_vtri_v_now(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint64_t one,
		 uint32_t rows, uint32_t cols, uint32_t dst_pitch, int64_t diag, int64_t upper)
{
	uint32_t i, split, eb = ptort_type_bits(type) / 8;
	uint64_t lo = upper ? 0 : one, hi = upper ? one : 0;
	for (i = 0; i < rows; i++) {
		/* columns [0, split) get lo: split = i + diag (+ 1 for lower), clamped */
		int64_t b = diag > INT64_MAX / 2 ? INT64_MAX / 2 : diag < -(INT64_MAX / 2)
			    ? -(INT64_MAX / 2) : diag;
		b += (int64_t)i + (upper ? 0 : 1);
		split = b < 0 ? 0 : b > (int64_t)cols ? cols : (uint32_t)b;
		if (split && ptort_vdup_v_now(ctx, mem, type, dst + i * dst_pitch, lo, 1, split, dst_pitch))
			return -1;
		if (split < cols && ptort_vdup_v_now(ctx, mem, type, dst + i * dst_pitch + split * eb, hi, 1,
						     cols - split, dst_pitch))
			return -1;
	}
	return 0;
}
