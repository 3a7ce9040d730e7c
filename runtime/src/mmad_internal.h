/* mmad_internal.h: the runtime's private view of mmad (shared by mmad.c, the entry
 * points, checks, packing and the MX path, and mmad_kernel.c, the register-blocked
 * f32 and i32 kernels). Never installed.
 *
 * Data flow: the valid regions of A and B are decoded ("packed") from their tile
 * layouts into panels of f32 (every operand type of a float triple is a subset of
 * f32) or i32; C's valid region is read from its init source into a row-major m x n
 * buffer; the kernel updates every element with one correctly rounded fused
 * multiply-add per k step, in increasing k (= SEMANTICS.md §6.3 exactly, because the
 * product of two f32 values is exact inside a fused multiply-add); the buffer is
 * then stored into c_out. */
#ifndef PTORT_MMAD_INTERNAL_H
#define PTORT_MMAD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Panel shapes: A is packed in panels of MMAD_MR rows (A_p[q * MR + r]), B in
 * panels of MMAD_NR columns (B_p[q * NR + c]); rows/columns past m/n are zero. */
#define MMAD_MR 6
#define MMAD_NR 16

/* mmad_kernel.c */
/* c[i * ldc + j] = fma(a(i, q), b(q, j), c) for q = 0..k-1 in order, i < m, j < n.
 * ap/bp are packed panels as above. The caller has set the FP environment to
 * round-to-nearest without flush-to-zero (mmad_fenv_*). */
void mmad_kernel_f32(const float *ap, const float *bp, float *c, size_t ldc, uint32_t m,
		     uint32_t k, uint32_t n);
/* The same on i32 with wrapping sums (c is modulo 2^32). */
void mmad_kernel_i32(const int32_t *ap, const int32_t *bp, uint32_t *c, size_t ldc,
		     uint32_t m, uint32_t k, uint32_t n);
/* Caps the instruction set the f32 kernel uses (tests): 0 portable C (fmaf), 1 AVX2+FMA;
 * -1 restores the best available. */
void ptort_mmad_force_level(int level);
int mmad_level(void);

/* mmad.c */
/* round_f32_RNE(acc + p) for an f32 acc and an exact double p (one rounding: TwoSum,
 * round-to-odd at 53 bits, then RNE to 24 bits). Needs the FP environment of
 * mmad_fenv_enter. */
float mmad_add_exact(float acc, double p);

/* Saves the FP environment and sets round-to-nearest, no DAZ/FTZ; restores it. */
typedef struct mmad_fenv {
	unsigned long saved;
	int changed;
} mmad_fenv;
void mmad_fenv_enter(mmad_fenv *e);
void mmad_fenv_leave(const mmad_fenv *e);

#endif
