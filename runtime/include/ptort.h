/* ptort.h: the public C99 header of the ptoc runtime (libptort).
 *
 * Generated code includes this one header. The runtime knows nothing of the IR or of
 * target legality: the compiler resolves every target rule (effective round mode,
 * saturation, deq path) into explicit arguments. Floats travel as bit patterns in
 * integers, never as host floats. Round mode and saturation are always arguments.
 *
 * Sections (each owned by one part of the runtime):
 *   1. element types, round modes     (src/types.c)
 *   2. conversions                    (src/cvt*.c)
 *   3. on-chip memory model, vector instructions, DMA   (src/mem*.c, src/vec*.c, src/dma*.c)
 *   4. tile layouts and mmad          (src/layout.c, src/mmad*.c)
 */
#ifndef PTORT_H
#define PTORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 1. Element types and round modes ================================= */

/* Every element type of SEMANTICS.md §1. The order is part of the ABI of generated
 * code: append only. */
typedef enum ptort_type {
	PTORT_F32,
	PTORT_F16,
	PTORT_BF16,
	PTORT_F8E4M3FN,
	PTORT_F8E5M2,
	PTORT_HIF8,
	PTORT_F4E2M1FN,
	PTORT_F4E1M2,
	PTORT_F8E8M0FNU,
	PTORT_I4,
	PTORT_I8,
	PTORT_I16,
	PTORT_I32,
	PTORT_I64,
	PTORT_U8,
	PTORT_U16,
	PTORT_U32,
	PTORT_U64,
	PTORT_TYPE_COUNT
} ptort_type;

typedef enum ptort_rmode {
	PTORT_RINT,   /* nearest, ties to even (CAST_RINT); the default */
	PTORT_ROUND,  /* nearest, ties away from zero */
	PTORT_FLOOR,  /* toward -inf */
	PTORT_CEIL,   /* toward +inf */
	PTORT_TRUNC,  /* toward zero */
	PTORT_ODD,    /* von Neumann round to odd (f32 -> f16 only) */
	PTORT_NONE,   /* RINT when the conversion can lose precision, else exact */
	PTORT_HYBRID, /* HiFloat8 destination only: the 950 pseudocode's rounding */
	PTORT_RMODE_COUNT
} ptort_rmode;

#define PTORT_SAT_OFF 0
#define PTORT_SAT_ON 1

/* Storage width of one element in bits: 4, 8, 16, 32 or 64. */
unsigned ptort_type_bits(ptort_type t);
/* Canonical spelling as in .pto files ("f32", "f8E4M3FN", "ui8", ...). */
const char *ptort_type_name(ptort_type t);
/* Parses a spelling or alias of SEMANTICS.md §1 (half, e4m3, hifloat8, int4b, si8, ...).
 * `s` need not be NUL-terminated. Returns 0 and sets *out, or -1 when unknown. */
int ptort_type_parse(const char *s, size_t len, ptort_type *out);
int ptort_type_is_float(ptort_type t); /* f32 .. e8m0 */
int ptort_type_is_signed_int(ptort_type t);

/* "RINT", "ROUND", ... */
const char *ptort_rmode_name(ptort_rmode m);
/* Accepts RINT ROUND FLOOR CEIL TRUNC ODD NONE HYBRID, each also with a CAST_ prefix,
 * in any letter case. Returns 0 and sets *out, or -1. */
int ptort_rmode_parse(const char *s, size_t len, ptort_rmode *out);

/* ==== 2. Conversions (SEMANTICS.md §2-3) ================================ */

/* Why a conversion cannot be performed. */
typedef enum ptort_cvt_status {
	PTORT_CVT_OK = 0,
	PTORT_CVT_NO_PAIR = 1, /* SEMANTICS.md §3 defines no conversion between the two types */
	PTORT_CVT_BAD_MODE = 2 /* the round mode is not allowed for this pair (ODD beyond
	                          f32->f16, HYBRID beyond ->hif8, ODD/HYBRID to integers) */
} ptort_cvt_status;

/* Whether the generic semantics (no target) define `from -> to` with `rm`. Defined:
 * every pair among the float types other than e8m0 and the integer types (in both
 * directions and between themselves, including same-type pairs), plus bf16 <-> e8m0. */
ptort_cvt_status ptort_cvt_check(ptort_type from, ptort_type to, ptort_rmode rm);

/* Whether every value of `from` is exactly representable in `to` (so the conversion
 * is exact in every round mode). Computed from the format descriptions. */
int ptort_cvt_is_exact(ptort_type from, ptort_type to);

/* Converts one element. `bits` holds the source pattern in its low bits (a 4-bit
 * element in bits 0-3); the result is the destination pattern in the low bits, zero
 * extended. `sat` is PTORT_SAT_ON or PTORT_SAT_OFF. An undefined pair or mode gives 0
 * (check first with ptort_cvt_check). */
uint64_t ptort_cvt1(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm, int sat);

/* Converts `n` contiguous elements: element i of `src` to element i of `dst`.
 * Buffers are raw bytes in the host's little-endian element layout; 4-bit types are
 * packed two per byte, element 2k in the low nibble of byte k. For 4-bit destinations
 * with odd `n`, the untouched high nibble of the last byte is preserved. Returns the
 * status of ptort_cvt_check (nothing is written unless PTORT_CVT_OK). */
ptort_cvt_status ptort_cvt_run(ptort_type from, ptort_type to, const void *src, void *dst,
			       size_t n, ptort_rmode rm, int sat);

/* Converts a rows x cols region. Element (r, c) of the source is element index
 * `src_off + r * src_stride + c` of `src` (indices counted in elements, so nibbles for
 * 4-bit types); likewise for `dst`. Elements of `dst` outside the region are left
 * unchanged, including the other nibble of a shared byte. */
ptort_cvt_status ptort_cvt_2d(ptort_type from, ptort_type to, const void *src, size_t src_off,
			      size_t src_stride, void *dst, size_t dst_off, size_t dst_stride,
			      size_t rows, size_t cols, ptort_rmode rm, int sat);

/* The A2A3 deq path: dst[i] = f16(RINT, saturation ON) of the exact product
 * src[i] * scale, where `scale` is an f16 bit pattern (0x3C00 = 1.0). */
void ptort_deq_i32_f16(const int32_t *src, uint16_t *dst, size_t n, uint16_t scale_f16);
uint16_t ptort_deq1_i32_f16(int32_t src, uint16_t scale_f16);

/* Human-readable values (used by `ptoc cvt --in-format/--out-format dec`).
 * ptort_value_parse reads a decimal or scientific number, inf/infinity, nan (any case,
 * optional sign; integers: an optional sign and decimal digits) and converts it
 * exactly to `t`'s bits with RINT (one rounding of the exact decimal value). Returns 0,
 * -1 when malformed, -2 when it does not fit `t` (integer out of range, finite value
 * beyond the largest finite value, inf/NaN the type lacks; e8m0: not a power of two).
 * ptort_value_format writes the exact value in decimal ("1.0", "0.099975586",
 * "-0.0", "5.9604644775390625e-08", "inf", "nan"; integers as is), NUL-terminated within
 * `cap`, and returns its length (snprintf-style). */
int ptort_value_parse(ptort_type t, const char *s, size_t len, uint64_t *bits);
size_t ptort_value_format(ptort_type t, uint64_t bits, char *buf, size_t cap);

/* ==== 3. On-chip memory model, vector instructions, DMA ================= */

/* The on-chip memories, one byte array each. GM is host memory (plain pointers). */
typedef enum ptort_mem {
	PTORT_MEM_UB,      /* loc=vec */
	PTORT_MEM_L1,      /* loc=mat */
	PTORT_MEM_L0A,     /* loc=left */
	PTORT_MEM_L0B,     /* loc=right */
	PTORT_MEM_L0C,     /* loc=acc */
	PTORT_MEM_BIAS,    /* loc=bias */
	PTORT_MEM_SCALING, /* loc=scaling (fixpipe buffer) */
	PTORT_MEM_COUNT
} ptort_mem;

/* A tile as the instructions see it: where it lives and how (r, c) maps to an address.
 * Layout codes: blayout 0 row_major, 1 col_major; slayout 0 none_box, 1 row_major,
 * 2 col_major (SEMANTICS.md §6.1). */
typedef struct ptort_tile {
	uint8_t mem;      /* ptort_mem */
	uint8_t type;     /* ptort_type */
	uint8_t blayout;
	uint8_t slayout;
	uint32_t addr;    /* byte address inside `mem` */
	uint32_t rows, cols;     /* physical shape in elements */
	uint32_t v_rows, v_cols; /* valid region */
	uint32_t fractal;        /* fractal size in bytes (512, 1024, ...) */
} ptort_tile;

/* Runtime context: the memories and the first error an instruction reported. */
typedef struct ptort_ctx ptort_ctx;

/* (declarations of the memory model, vector conversion, DMA and tmov instructions
 *  follow; owned by src/mem*.c, src/vec*.c, src/dma*.c) */

/* ==== 4. Tile layouts and mmad ========================================== */

/* Element index (from the tile's first element) of element (r, c) of `t` under its
 * layout (SEMANTICS.md §6.1). Every data movement and mmad goes through this. */
size_t ptort_tile_offset(const ptort_tile *t, uint32_t r, uint32_t c);

/* (declarations of mmad follow; owned by src/layout.c, src/mmad*.c) */

#ifdef __cplusplus
}
#endif
#endif
