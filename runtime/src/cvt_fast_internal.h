/* cvt_fast_internal.h: how the fast conversion kernels' files fit together (never
 * installed). One job a file:
 *
 *   cvt_run.c        the entry points over buffers (ptort_cvt_run, ptort_cvt_2d) and
 *                    the fast path's (ptort_cvt_fast_run: a wide table, else the
 *                    kernels; unaligned buffers in aligned blocks)
 *   cvt_fast_wide.c  the 64 KiB tables to HiF8 (16-bit sources, HYBRID from f32),
 *                    built by the kernels
 *   cvt_fast.c       the kernels' entry (ptort_cvtf_kernel_run): pairs -> kernels,
 *                    chains through an exact f32 step in blocks, and the portable
 *                    instantiation of the kernels
 *   cvt_fast_tab.c   the tables of 8/4-bit sources, built from the generic path
 *   cvt_fast_level.c the ISA level in use
 *   cvt_fast_kern.h  the portable kernel bodies (branch-free loops over bit patterns)
 *                    and run_kernel, compiled once per ISA by the files that include it
 *   cvt_fast_x86.c   the x86-64 kernels (AVX2, F16C) and the AVX2 instantiation
 *
 * Each file calls only the files listed after it and cvt.c (the generic path), never
 * one before it (docs/architecture.md, "Layers").
 *
 * Every kernel gives exactly the bits of the generic path (cvt.c); test/unit/cvtfast
 * compares them at every ISA level (ptort_cvt_fast_force_level). */
#ifndef PTORT_CVT_FAST_INTERNAL_H
#define PTORT_CVT_FAST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cvt_internal.h"
#include "ptort.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
#define PTORT_X86 1
#endif

/* ---- the kernel table: one entry point per kernel, compiled per ISA ------- */

enum kid {
	K_F32_F16, K_F32_BF16, K_F16_F32, K_BF16_F32,
	K_F32_I32, K_F32_U32, K_F32_I16, K_F32_U16, K_F32_I8, K_F32_U8,
	K_I32_F32, K_U32_F32, K_I16_F32, K_U16_F32, K_I8_F32, K_U8_F32,
	K_F32_E4M3, K_F32_E5M2, K_F32_E2M1, K_F32_E1M2, K_F32_HIF8, K_F16_HIF8,
	K_F32_HIF8D, K_F32_F32, K_BF16_E8M0, K_F32_I4,
	K_INTINT
};

struct kargs {
	const void *s;
	void *d;
	size_t n;
	int rm, sat;
	int st; /* the source as an ST_ kind (fused kernels only; else ST_F32) */
	const uint8_t *tab; /* HiF8 kernels: the bf16 -> hif8 table for keys (hyb_table's
			     * in HYBRID), or NULL */
	/* int -> int */
	int sbits, ssigned, dbits, neg0;
	int64_t lo, hi;
};

/* What a kernel reading f32 can read instead, converted on the fly: exactly (16-bit
 * types), or for 32-bit integers rounded to f32 to odd (ahead of one more rounding) or
 * to nearest even (ahead of the HiF8 pseudocode, which the semantics feed with f32), or
 * clamped to [-2^16, 2^16], which is exact in f32, for destinations whose finite
 * values lie below 2^16 (fp8, fp4, hif8): every value from 2^16 on overflows there
 * alike, in every mode, as it does rounded to f32 first. */
enum { ST_F32, ST_F16, ST_BF16, ST_I16, ST_U16, ST_I32, ST_U32, ST_I32N, ST_U32N, ST_I32C, ST_U32C };

/* ---- cvt_fast_level.c ----------------------------------------------------- */

/* The ISA level the kernels use: the machine's (0 portable, 1 AVX2, 2 AVX2+F16C),
 * capped by ptort_cvt_fast_force_level; 0 where there is no x86 code. */
int ptort_cvtf_level(void);

/* ---- cvt_fast.c ---------------------------------------------------------- */

/* from -> to with the kernels (no lookup table of whole results); tab: the bf16 ->
 * hif8 table for keys, or NULL. Returns 0 when no kernel converts the pair, before
 * anything is written. */
int ptort_cvtf_kernel_run(ptort_type from, ptort_type to, const void *src, void *dst,
			  size_t n, ptort_rmode rm, int sat, const uint8_t *tab);

/* ---- cvt_fast_tab.c ------------------------------------------------------- */

/* lazy_ready: 1 when the table behind `state` (0 empty, 1 being built, 2 ready) can be
 * read, building it with fill(ctx) if this thread comes first; 0 while another thread
 * builds it (the caller then takes a path without the table), and always 0 where the
 * compiler has no atomics. */
int ptort_cvtf_lazy_ready(int *state, void (*fill)(const void *), const void *ctx);
/* the key of a table being built: its index, the pair, the mode and saturation */
struct tab_key {
	unsigned i;
	ptort_type from, to;
	ptort_rmode rm;
	int sat;
};

/* The table of every result of a conversion from an 8- or 4-bit source (the listed
 * ones) to a destination of 4 to 32 bits; NULL when there is none (or it is being
 * built by another thread). */
const uint32_t *ptort_cvtf_small_table(ptort_type from, ptort_type to, ptort_rmode rm,
				       int sat);
/* n elements of sbits-bit codes (8, or 4 two per byte, low nibble first) through table
 * t into dst's elements of dbits bits (SIMD where the level has it) */
void ptort_cvtf_table_run(const uint32_t *t, unsigned sbits, unsigned dbits,
			  const unsigned char *s, void *dst, size_t n);
/* ---- cvt_fast_wide.c ------------------------------------------------------ */

/* The 64 KiB from -> hif8 table (from a 16-bit type) for mode rm (NONE mapped to
 * RINT) and sat, for a run of n elements, which counts toward building it; NULL when
 * there is none yet or another thread is building it. */
const uint8_t *ptort_cvtf_wide_table(ptort_type from, ptort_rmode rm, int sat, size_t n);
/* HYBRID f32 -> hif8: the table of h8_hyidx indices' results (cvt_fast_x86.c), as
 * ptort_cvtf_wide_table */
const uint8_t *ptort_cvtf_hyb_table(int sat, size_t n);
/* n 16-bit codes through a 64 KiB table t into bytes */
void ptort_cvtf_wide_run(const uint8_t *t, const uint16_t *s, uint8_t *d, size_t n);

/* ---- cvt_fast_x86.c (x86-64 with GCC or Clang only) ----------------------- */

#ifdef PTORT_X86
/* The machine's level: 0 portable, 1 AVX2, 2 AVX2+F16C */
int ptort_cvtf_x86_level(void);
/* Kernel k at level lv >= 1 (the F16C kernels only while MXCSR has DAZ/FTZ clear);
 * returns 0 when the kernel does not exist. */
int ptort_cvtf_x86_run(enum kid k, const struct kargs *a, int lv);
/* k reading its source as a->st (not f32) in one pass at level lv, where a kernel
 * can; 0 when not (the caller then chains through f32 blocks). */
int ptort_cvtf_x86_fused(enum kid k, const struct kargs *a, int lv);
/* ptort_cvtf_table_run's vector part at level lv >= 1: whole rounds from element 0 on;
 * returns how many elements it converted */
size_t ptort_cvtf_x86_table(const uint32_t *t, unsigned sbits, unsigned dbits,
			    const unsigned char *s, void *dst, size_t n);
/* ptort_cvtf_wide_run's vector part (AVX2): returns how many elements it converted */
size_t ptort_cvtf_x86_wide_run(const uint8_t *t, const uint16_t *s, uint8_t *d, size_t n);
#endif

#endif
