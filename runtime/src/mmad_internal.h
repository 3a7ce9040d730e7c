/* mmad_internal.h: the runtime's private view of mmad. Never installed.
 *
 *   mmad.c          entry points, operand checks, the plan (which view of A, B and C
 *                   each call uses), the block loops, the exact MX fallback
 *   mmad_pack.c     operand preparation: A (the tile itself, or each k block decoded
 *                   into row-major rows), B panels, C views, decoders, MX scales
 *   mmad_level.c    the ISA level a call uses (above the three levels' files)
 *   mmad_kernel.c   the FP environment, the portable kernels (level 0)
 *   mmad_kbody.h    the kernel body and packing loops shared by the x86 levels
 *   mmad_avx2.c     AVX2+FMA vector operations, 8 x 8 transposes, decoders
 *   mmad_avx512.c   AVX-512 (F, BW, VL, DQ) vector operations, 16 x 16 transposes,
 *                   decoders
 *
 * Data flow of a float triple: A's valid region is read in place when it is f32 in a
 * z-layout (Nz, Zz) or ND, else decoded exactly to f32 per k block (every operand type
 * of a float triple is a subset of f32); B is decoded and transposed into panels of 16 columns
 * (row t of panel g = B(t, 16g .. 16g+15)); C is updated in place in its tile when
 * the layout allows (Nz with 16-column boxes, ND), else in a row-major buffer. The
 * kernels update every element with one correctly rounded fused multiply-add per k
 * step, in increasing k (= docs/semantics.md §6.3 exactly: the product of two f32 values
 * is exact inside a fused multiply-add). Integer (i8) operands go the same way as
 * int32 with wrapping sums. */
#ifndef PTORT_MMAD_INTERNAL_H
#define PTORT_MMAD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ptort.h"

#define MMAD_PANEL 16 /* B panel width = C column group = one Zn / acc box column */
#define MMAD_MR_MAX 8 /* the largest kernel block height of any level */

/* ---- the kernels' view of one block (mmad.c fills it, the kernels read it) -------- *
 * A(r, t) = a[r][(t / kblk) * kstride + t % kblk] for r < mr, t < k (t counts from the
 *           block's first k step, a multiple of kblk)
 * B(t, j) = b[(j / 16) * bgs + t * 16 + j % 16] for t < k, j < the kernel's width
 *           (panels are zero-padded past n: every lane computes, masked stores keep
 *           only j < nr)
 * C(r, j) = c[(j / 16) * cgs + r * ldc + j % 16] for r < mr, j < nr
 * The first k block of a call initialises the accumulators (init: load from cin, laid
 * out like c with ldin / cgsin; zero; or the row `row`, same for every r); the last
 * stores NaNs as the canonical 0x7FC00000 (canon). Element types: float for the f32
 * kernels, int32_t (wrapping) for the i32 ones, through void pointers. */
enum { MMAD_INIT_LOAD, MMAD_INIT_ZERO, MMAD_INIT_ROW };

struct mmad_kargs {
	const void *a[MMAD_MR_MAX];
	size_t kblk, kstride;
	const void *b;
	size_t bgs;
	void *c;
	size_t ldc, cgs;
	const void *cin;
	size_t ldin, cgsin;
	const void *row;
	uint32_t k, mr, nr;
	int init, canon;
};

typedef void (*mmad_kernel_fn)(const struct mmad_kargs *x);

/* f32 (float triples) or i32 (i8) bit patterns of one element type, decoded exactly;
 * tables are per thread and built on first use. */
struct mmad_dec {
	ptort_type t;
	const uint32_t *lut; /* 8- and 4-bit types */
};
/* How the vector levels decode the 8-bit types: i8 sign-extended, e5m2 as the top byte
 * of an f16, e4m3 by its fields, the others through the table. */
enum { MMAD_D8_I8, MMAD_D8_E5M2, MMAD_D8_E4M3, MMAD_D8_LUT };
static inline int mmad_d8_kind(ptort_type t)
{
	return t == PTORT_I8	     ? MMAD_D8_I8
	       : t == PTORT_F8E5M2   ? MMAD_D8_E5M2
	       : t == PTORT_F8E4M3FN ? MMAD_D8_E4M3
				     : MMAD_D8_LUT;
}

/* One instruction-set level: the kernels, their block shape, and the helpers the
 * packer uses (all exact: they move bits or decode exactly). */
struct mmad_isa {
	int level;
	uint32_t mr, nr; /* kernel block: mr rows (<= MMAD_MR_MAX), nr columns (a multiple
			    of 16) */
	mmad_kernel_fn f32, i32;
	/* A Zn box into panel rows: dst[t * 16 + c] = decode(src[c * ri + t]) for t < ri,
	 * c < 16, elements of type t (src need not be aligned); -1 when the level has no
	 * code for t or ri (the caller then decodes the box and calls it with f32) */
	int (*box)(ptort_type t, const void *src, unsigned ri, uint32_t *dst);
	/* 16- and 8-bit types (d) -> f32 / i32 bit patterns: rows of n elements, src rows
	 * ss elements apart (src need not be aligned), dst rows ds apart */
	void (*dec)(const struct mmad_dec *d, const void *src, size_t ss, size_t n,
		    size_t rows, uint32_t *dst, size_t ds);
};

/* mmad_level.c */
/* The level in use: the best of the host capped by ptort_mmad_force_level. */
const struct mmad_isa *mmad_isa_get(void);
/* Caps the instruction set (tests, bench): 0 portable C (fmaf), 1 AVX2+FMA,
 * 2 AVX-512; -1 restores the best available. */
void ptort_mmad_force_level(int level);
int mmad_level(void);
int mmad_best_level(void);
/* mmad_kernel.c: the portable level */
extern const struct mmad_isa mmad_isa_c;

/* mmad_avx2.c, mmad_avx512.c (x86 hosts with GCC or Clang only) */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define MMAD_X86 1
extern const struct mmad_isa mmad_isa_avx2, mmad_isa_avx512;
#else
#define MMAD_X86 0
#endif

/* mmad_pack.c */
/* Element index structure of a tile region read in place or decoded:
 * element (i, q) at (i / rblk) * rstride + (i % rblk) * lda + (q / kblk) * kstride
 * + q % kblk. */
struct mmad_aview {
	const void *base; /* f32 / i32 values */
	size_t rblk, rstride, lda, kblk, kstride;
};
void mmad_dec_init(struct mmad_dec *d, ptort_type t);
/* dst[r * ds + u] = decode(element e0 + r * ss + u) of the tile bytes at base, for
 * u < n, r < rows */
void mmad_decode_2d(const struct mmad_isa *isa, const struct mmad_dec *d, const uint8_t *base,
		    size_t e0, size_t ss, size_t n, size_t rows, uint32_t *dst, size_t ds);
/* The index structure of tile t when it is an in-place-readable form (ND, Zz, Nz),
 * else -1. */
int mmad_zview(const ptort_tile *t, struct mmad_aview *v);
/* The k steps of a block: kc rounded down to a whole number of A's box columns (at
 * least one). */
uint32_t mmad_kc(const ptort_tile *a, uint32_t kc);
/* Bytes of scratch mmad_prep_a needs for k blocks of kc steps of an m x k x n call
 * (0: A is read in place: f32 in a z-layout or ND, when its short runs are not read
 * more than once). */
size_t mmad_prep_a_bytes(const struct mmad_isa *isa, const ptort_tile *a, uint32_t m,
			 uint32_t kc, uint32_t n);
/* A's columns q0 .. q0+kc-1 (q0 a multiple of the k block) as f32/i32 values: in place
 * (buf NULL; v is then the tile's whole structure) or decoded into buf as row-major
 * rows ld elements apart (mmad_a_ld of the k block). -1 when out of host memory. */
int mmad_prep_a(const struct mmad_isa *isa, const uint8_t *tbase, const ptort_tile *a,
		const struct mmad_dec *d, uint32_t m, uint32_t q0, uint32_t kc, uint32_t *buf,
		size_t ld, struct mmad_aview *v);
/* The row stride of decoded A rows of k elements (64-byte multiples). */
size_t mmad_a_ld(uint32_t k);
/* Rows of the B panels: k rounded up to the box height of B's layout. */
uint32_t mmad_b_rows(const ptort_tile *b, uint32_t k);
/* B's k x n region into panels (panel g at out + g * rows * 16, rows = mmad_b_rows),
 * columns past n zero. -1 when out of host memory. */
int mmad_prep_b(const struct mmad_isa *isa, const uint8_t *tbase, const ptort_tile *b,
		const struct mmad_dec *d, uint32_t k, uint32_t n, uint32_t *out);
/* MX: multiplies the values of A's decoded rows (columns q0 ..) / the B panels by the
 * block scales 2^(s - 127) (NaN for s = 0xFF); exact for scales in mmad_mx_range. */
void mmad_scale_a(uint32_t *buf, size_t ld, const uint8_t *sc, uint32_t m, uint32_t q0,
		  uint32_t kc, uint32_t kb);
void mmad_scale_b(uint32_t *panels, uint32_t rows, const uint8_t *sc, uint32_t k, uint32_t n,
		  uint32_t kb);
/* The scales s in [lo, hi] keep v * 2^(s - 127) an exact finite f32 for every value v
 * of type t (the NaN scale 0xFF makes NaN, which is exact too). */
void mmad_mx_range(ptort_type t, int *lo, int *hi);
/* A C tile as a kernel view (Nz with 16-column boxes, ND): 0, else -1. */
int mmad_cview(const ptort_tile *t, size_t *ld, size_t *cgs);

/* mmad.c */
/* round_f32_RNE(acc + p) for an f32 acc and an exact double p (one rounding: TwoSum,
 * round-to-odd at 53 bits, then RNE to 24 bits). Needs the FP environment of
 * mmad_fenv_enter. */
float mmad_add_exact(float acc, double p);

/* How many ptort_mmad_mx calls of this thread went through the kernels (every scale
 * in mmad_mx_range) and through the exact step-by-step path (tests). */
void mmad_mx_counts(unsigned long *fast, unsigned long *exact);

/* Saves the FP environment and sets round-to-nearest, no DAZ/FTZ; restores it. */
typedef struct mmad_fenv {
	unsigned long saved;
	int changed;
} mmad_fenv;
void mmad_fenv_enter(mmad_fenv *e);
void mmad_fenv_leave(const mmad_fenv *e);

#endif
