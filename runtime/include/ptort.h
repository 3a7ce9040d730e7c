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
 *   3. on-chip memory model, vector instructions, DMA   (src/mem*.c, src/vec*.c, src/dma*.c,
 *                                     src/view.c)
 *   4. tile layouts and mmad          (src/layout.c, src/mmad*.c)
 *   5. vector operations              (src/vop*.c)
 *   6. the `ptoc run` harness         (src/harness.c)
 *   7. many blocks: launches and the GM race check   (src/launch.c)
 */
#ifndef PTORT_H
#define PTORT_H

#include <stddef.h>
#include <stdint.h>

/* PTORT_API marks the functions libptort.so exports (those declared here). The
 * runtime is compiled with hidden visibility and PTORT_BUILD defined, so its internal
 * functions stay inside; CTest boundary.exports compares the exported symbols with
 * this header's declarations. For generated code and other users the mark is empty. */
#ifndef PTORT_API
#if defined(PTORT_BUILD) && defined(__GNUC__)
#define PTORT_API __attribute__((visibility("default")))
#else
#define PTORT_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 1. Element types and round modes ================================= */

/* Every element type of docs/semantics.md §1, once: the enum below, the names (src/types.c),
 * the formats (src/cvt_format.c) and the compiler's C spellings come from this list.
 * Columns: X(ID, name, kind, bits, ebits, mbits, bias, emax, maxfrac, inf, nan, qnan,
 * negzero, signed): PTORT_<ID>, the canonical .pto spelling, then the format: kind
 * (IEEE, HIF8, E8M0, INT), storage bits, exponent and mantissa field widths, exponent
 * bias, largest finite exponent and its mantissa field, whether it has infinities, its
 * NaN encoding (NONE, IEEE: all-ones exponent, FN: only S.1111.111), the quiet NaN
 * pattern, whether it has -0, whether it is signed. The order is part of the ABI of
 * generated code: append only. */
/*        ID         name         kind  bits eb mb  bias emax maxfrac   inf nan   qnan         -0 signed */
#define PTORT_TYPE_LIST(X) \
	X(F32,       "f32",       IEEE, 32,  8, 23, 127, 127, 0x7FFFFF, 1,  IEEE, 0x7FC00000u, 1, 1) \
	X(F16,       "f16",       IEEE, 16,  5, 10, 15,  15,  0x3FF,    1,  IEEE, 0x7E00,      1, 1) \
	X(BF16,      "bf16",      IEEE, 16,  8, 7,  127, 127, 0x7F,     1,  IEEE, 0x7FC0,      1, 1) \
	X(F8E4M3FN,  "f8E4M3FN",  IEEE, 8,   4, 3,  7,   8,   6,        0,  FN,   0x7F,        1, 1) \
	X(F8E5M2,    "f8E5M2",    IEEE, 8,   5, 2,  15,  15,  3,        1,  IEEE, 0x7E,        1, 1) \
	X(HIF8,      "hif8",      HIF8, 8,   0, 0,  0,   15,  0,        1,  IEEE, 0x80,        0, 1) \
	X(F4E2M1FN,  "f4E2M1FN",  IEEE, 4,   2, 1,  1,   2,   1,        0,  NONE, 0,           1, 1) \
	X(F4E1M2,    "f4E1M2",    IEEE, 4,   1, 2,  1,   0,   3,        0,  NONE, 0,           1, 1) \
	X(F8E8M0FNU, "f8E8M0FNU", E8M0, 8,   8, 0,  127, 127, 0,        0,  IEEE, 0xFF,        0, 0) \
	X(I4,        "i4",        INT,  4,   0, 0,  0,   0,   0,        0,  NONE, 0,           0, 1) \
	X(I8,        "i8",        INT,  8,   0, 0,  0,   0,   0,        0,  NONE, 0,           0, 1) \
	X(I16,       "i16",       INT,  16,  0, 0,  0,   0,   0,        0,  NONE, 0,           0, 1) \
	X(I32,       "i32",       INT,  32,  0, 0,  0,   0,   0,        0,  NONE, 0,           0, 1) \
	X(I64,       "i64",       INT,  64,  0, 0,  0,   0,   0,        0,  NONE, 0,           0, 1) \
	X(U8,        "ui8",       INT,  8,   0, 0,  0,   0,   0,        0,  NONE, 0,           0, 0) \
	X(U16,       "ui16",      INT,  16,  0, 0,  0,   0,   0,        0,  NONE, 0,           0, 0) \
	X(U32,       "ui32",      INT,  32,  0, 0,  0,   0,   0,        0,  NONE, 0,           0, 0) \
	X(U64,       "ui64",      INT,  64,  0, 0,  0,   0,   0,        0,  NONE, 0,           0, 0)

typedef enum ptort_type {
#define PTORT_TYPE_ENUM_(id, ...) PTORT_##id,
	PTORT_TYPE_LIST(PTORT_TYPE_ENUM_)
#undef PTORT_TYPE_ENUM_
	PTORT_TYPE_COUNT
} ptort_type;

/* The round modes, once (enum, names in src/types.c, the compiler's C spellings):
 * X(ID) for PTORT_<ID>, named "<ID>". */
#define PTORT_RMODE_LIST(X) \
	X(RINT)   /* nearest, ties to even (CAST_RINT); the default */ \
	X(ROUND)  /* nearest, ties away from zero */ \
	X(FLOOR)  /* toward -inf */ \
	X(CEIL)   /* toward +inf */ \
	X(TRUNC)  /* toward zero */ \
	X(ODD)    /* von Neumann round to odd (f32 -> f16 only) */ \
	X(NONE)   /* RINT when the conversion can lose precision, else exact */ \
	X(HYBRID) /* HiFloat8 destination only: the 950 pseudocode's rounding */

typedef enum ptort_rmode {
#define PTORT_RMODE_ENUM_(id) PTORT_##id,
	PTORT_RMODE_LIST(PTORT_RMODE_ENUM_)
#undef PTORT_RMODE_ENUM_
	PTORT_RMODE_COUNT
} ptort_rmode;

#define PTORT_SAT_OFF 0
#define PTORT_SAT_ON 1

/* Storage width of one element in bits: 4, 8, 16, 32 or 64. */
PTORT_API unsigned ptort_type_bits(ptort_type t);
/* Canonical spelling as in .pto files ("f32", "f8E4M3FN", "ui8", ...). */
PTORT_API const char *ptort_type_name(ptort_type t);
/* Parses a spelling or alias of docs/semantics.md §1 (half, e4m3, hifloat8, int4b, si8, ...).
 * `s` need not be NUL-terminated. Returns 0 and sets *out, or -1 when unknown. */
PTORT_API int ptort_type_parse(const char *s, size_t len, ptort_type *out);
PTORT_API int ptort_type_is_float(ptort_type t); /* f32 .. e8m0 */
PTORT_API int ptort_type_is_signed_int(ptort_type t);

/* "RINT", "ROUND", ... */
PTORT_API const char *ptort_rmode_name(ptort_rmode m);
/* Accepts RINT ROUND FLOOR CEIL TRUNC ODD NONE HYBRID, each also with a CAST_ prefix,
 * in any letter case. Returns 0 and sets *out, or -1. */
PTORT_API int ptort_rmode_parse(const char *s, size_t len, ptort_rmode *out);

/* ==== 2. Conversions (docs/semantics.md §2-3) ================================ */

/* Why a conversion cannot be performed. */
typedef enum ptort_cvt_status {
	PTORT_CVT_OK = 0,
	PTORT_CVT_NO_PAIR = 1, /* docs/semantics.md §3 defines no conversion between the two types */
	PTORT_CVT_BAD_MODE = 2 /* the round mode is not allowed for this pair (ODD beyond
	                          f32->f16, HYBRID beyond ->hif8, ODD/HYBRID to integers) */
} ptort_cvt_status;

/* Whether the generic semantics (no target) define `from -> to` with `rm`. Defined:
 * every pair among the float types other than e8m0 and the integer types (in both
 * directions and between themselves, including same-type pairs), plus bf16 <-> e8m0. */
PTORT_API ptort_cvt_status ptort_cvt_check(ptort_type from, ptort_type to, ptort_rmode rm);

/* The saturation of `from -> to` when none is asked for (docs/semantics.md §3.2):
 * PTORT_SAT_OFF for f32 -> i16, f16 -> i16, f16 -> i8, f16 -> ui8, i32 -> i16 and
 * i64 -> i32, PTORT_SAT_ON for every other pair. */
PTORT_API int ptort_cvt_default_sat(ptort_type from, ptort_type to);

/* Whether every value of `from` is exactly representable in `to` (so the conversion
 * is exact in every round mode). Computed from the format descriptions. */
PTORT_API int ptort_cvt_is_exact(ptort_type from, ptort_type to);

/* Converts one element. `bits` holds the source pattern in its low bits (a 4-bit
 * element in bits 0-3); the result is the destination pattern in the low bits, zero
 * extended. `sat` is PTORT_SAT_ON or PTORT_SAT_OFF. An undefined pair or mode gives 0
 * (check first with ptort_cvt_check). */
PTORT_API uint64_t ptort_cvt1(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm, int sat);

/* Converts `n` contiguous elements: element i of `src` to element i of `dst`.
 * Buffers are raw bytes in the host's little-endian element layout; 4-bit types are
 * packed two per byte, element 2k in the low nibble of byte k. For 4-bit destinations
 * with odd `n`, the untouched high nibble of the last byte is preserved. Returns the
 * status of ptort_cvt_check (nothing is written unless PTORT_CVT_OK). */
PTORT_API ptort_cvt_status ptort_cvt_run(ptort_type from, ptort_type to, const void *src, void *dst,
			       size_t n, ptort_rmode rm, int sat);

/* Converts a rows x cols region. Element (r, c) of the source is element index
 * `src_off + r * src_stride + c` of `src` (indices counted in elements, so nibbles for
 * 4-bit types); likewise for `dst`. Elements of `dst` outside the region are left
 * unchanged, including the other nibble of a shared byte. */
PTORT_API ptort_cvt_status ptort_cvt_2d(ptort_type from, ptort_type to, const void *src, size_t src_off,
			      size_t src_stride, void *dst, size_t dst_off, size_t dst_stride,
			      size_t rows, size_t cols, ptort_rmode rm, int sat);

/* The A2A3 deq path: dst[i] = f16(RINT, saturation ON) of the exact product
 * src[i] * scale, where `scale` is an f16 bit pattern (0x3C00 = 1.0). */
PTORT_API void ptort_deq_i32_f16(const int32_t *src, uint16_t *dst, size_t n, uint16_t scale_f16);
PTORT_API uint16_t ptort_deq1_i32_f16(int32_t src, uint16_t scale_f16);

/* Human-readable values (used by `ptoc cvt --in-format/--out-format dec`).
 * ptort_value_parse reads a decimal or scientific number, inf/infinity, nan (any case,
 * optional sign; integers: an optional sign and decimal digits) and converts it
 * exactly to `t`'s bits with RINT (one rounding of the exact decimal value). Returns 0,
 * -1 when malformed, -2 when it does not fit `t` (integer out of range, finite value
 * beyond the largest finite value, inf/NaN the type lacks; e8m0: not a power of two).
 * ptort_value_format writes the exact value in decimal ("1.0", "0.099975586",
 * "-0.0", "5.9604644775390625e-08", "inf", "nan"; integers as is), NUL-terminated within
 * `cap`, and returns its length (snprintf-style). */
PTORT_API int ptort_value_parse(ptort_type t, const char *s, size_t len, uint64_t *bits);
PTORT_API size_t ptort_value_format(ptort_type t, uint64_t bits, char *buf, size_t cap);

/* ==== 3. On-chip memory model, vector instructions, DMA ================= */

/* The on-chip memories, one byte array each. GM is host memory (plain pointers).
 * X(ID) per memory, in the order of the dialect's loc= names (ptoc's PTOC_LOC_LIST). */
#define PTORT_MEM_LIST(X)                                                                \
	X(UB)      /* loc=vec */                                                         \
	X(L1)      /* loc=mat */                                                         \
	X(L0A)     /* loc=left */                                                        \
	X(L0B)     /* loc=right */                                                       \
	X(L0C)     /* loc=acc */                                                         \
	X(BIAS)    /* loc=bias */                                                        \
	X(SCALING) /* loc=scaling (fixpipe buffer) */

typedef enum ptort_mem {
#define PTORT_MEM_ID_(id) PTORT_MEM_##id,
	PTORT_MEM_LIST(PTORT_MEM_ID_)
#undef PTORT_MEM_ID_
	PTORT_MEM_COUNT
} ptort_mem;

/* The layout codes of a tile (docs/semantics.md §6.1): the block layout (how the
 * boxes are ordered) and the box layout (inside a box; none_box: unboxed). */
typedef enum ptort_blayout { PTORT_BLAYOUT_ROW_MAJOR, PTORT_BLAYOUT_COL_MAJOR } ptort_blayout;
typedef enum ptort_slayout {
	PTORT_SLAYOUT_NONE_BOX, PTORT_SLAYOUT_ROW_MAJOR, PTORT_SLAYOUT_COL_MAJOR
} ptort_slayout;

/* A tile as the instructions see it: where it lives and how (r, c) maps to an address.
 * Layout codes: blayout 0 row_major, 1 col_major; slayout 0 none_box, 1 row_major,
 * 2 col_major (ptort_blayout, ptort_slayout). */
typedef struct ptort_tile {
	uint8_t mem;      /* ptort_mem */
	uint8_t type;     /* ptort_type */
	uint8_t blayout;  /* ptort_blayout */
	uint8_t slayout;  /* ptort_slayout */
	uint32_t addr;    /* byte address inside `mem` */
	uint32_t rows, cols;     /* physical shape in elements */
	uint32_t v_rows, v_cols; /* valid region */
	uint32_t fractal;        /* fractal size in bytes (512, 1024, ...) */
} ptort_tile;

/* Runtime context: the memories and the first error an instruction reported. */
typedef struct ptort_ctx ptort_ctx;

/* ---- 3.1 Memory model ----------------------------------------------------
 *
 * A context owns one zero-filled byte array per on-chip memory, sized by the
 * compiler (the target's capacities: the runtime knows no target). Tiles are only
 * addresses: two tiles placed at overlapping addresses alias exactly as placed.
 *
 * Errors: an instruction whose operands are invalid (footprint leaving its memory or
 * the GM view, unknown type or memory, zero sizes, undefined conversion) does
 * NOTHING and the context records the error. Only the first error's message is kept
 * ("vconv: source range [0x2f000, 0x31000) exceeds UB capacity 0x30000"); later
 * instructions still execute (each checks its own operands), so the caller checks
 * ptort_ctx_error() once at the end. Nothing is ever printed, nothing aborts. */

/* Creates a context with capacity[m] bytes for each memory m (0 = memory absent;
 * every access to it is reported). Returns NULL when out of host memory. */
PTORT_API ptort_ctx *ptort_ctx_create(const uint32_t capacity[PTORT_MEM_COUNT]);
PTORT_API void ptort_ctx_destroy(ptort_ctx *ctx);
/* The byte array of `mem` (NULL for an unknown memory) and its size in bytes. */
PTORT_API uint8_t *ptort_mem_base(ptort_ctx *ctx, ptort_mem mem);
PTORT_API uint32_t ptort_mem_size(const ptort_ctx *ctx, ptort_mem mem);
/* "UB", "L1", "L0A", "L0B", "L0C", "BIAS", "SCALING" ("?" when unknown). */
PTORT_API const char *ptort_mem_name(ptort_mem mem);
/* The first error's message, or NULL when no instruction reported one. */
PTORT_API const char *ptort_ctx_error(const ptort_ctx *ctx);
/* How many instructions reported an error since creation or the last clear. */
PTORT_API unsigned long ptort_ctx_error_count(const ptort_ctx *ctx);
PTORT_API void ptort_ctx_clear_error(ptort_ctx *ctx);
/* Where the first error happened: generated code calls ptort_ctx_locate after each
 * instruction with the source location of its op (`file` must outlive the context: a
 * string literal). The first call made while an error is recorded and none is located
 * sets the location (until ptort_ctx_clear_error); every other call does nothing.
 * ptort_ctx_error_loc returns that file (NULL when unlocated) and sets *line, *col. */
PTORT_API void ptort_ctx_locate(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col);
PTORT_API const char *ptort_ctx_error_loc(const ptort_ctx *ctx, uint32_t *line, uint32_t *col);
/* The block a context runs (docs/runtime.md "Many blocks"): what pto.get_block_idx,
 * get_block_num, get_subblock_idx and get_subblock_num give in generated code. A new
 * context is block 0 of 1, subblock 0 of 1; ptort_launch (section 7) sets the block.
 * A setter ignores idx >= num and num 0. */
PTORT_API void ptort_ctx_set_block(ptort_ctx *ctx, uint32_t idx, uint32_t num);
PTORT_API void ptort_ctx_set_subblock(ptort_ctx *ctx, uint32_t idx, uint32_t num);
PTORT_API int64_t ptort_block_idx(const ptort_ctx *ctx);
PTORT_API int64_t ptort_block_num(const ptort_ctx *ctx);
PTORT_API int64_t ptort_subblock_idx(const ptort_ctx *ctx);
PTORT_API int64_t ptort_subblock_num(const ptort_ctx *ctx);

/* pto.trap (docs/semantics.md §8.5): reports the error "trap" (the generated code then
 * leaves the function). Returns -1. */
PTORT_API int ptort_trap(ptort_ctx *ctx);

/* Every instruction below returns 0 when it executed and -1 when it reported an
 * error (and did nothing). Addresses are byte addresses inside a memory. */

/* ---- 3.1a tprint (docs/runtime.md "tprint") --------------------------------------
 *
 * ptort_tprint writes tile src's valid region as text: a line `tile TYPE RxC` (the
 * type's .pto name, the valid rows and columns), then one line per valid row, its
 * elements separated by one space. Integers in decimal; floats in the fewest
 * significant digits (%g) that name every value of their type (f32 9, f16 5, bf16 4,
 * 8-bit and 4-bit floats 2-3), so each reads back to the same bits; "-0", "inf",
 * "-inf" and "nan" (any NaN) for the specials. The text goes to the context's print
 * sink: standard output, or the function set by ptort_ctx_set_print (called with
 * pieces of text; they are the whole output). A bad tile is reported and nothing is
 * written. */
typedef void (*ptort_print_fn)(void *user, const char *s, size_t n);
PTORT_API void ptort_ctx_set_print(ptort_ctx *ctx, ptort_print_fn fn, void *user);
PTORT_API int ptort_tprint(ptort_ctx *ctx, const ptort_tile *src);
/* ptort_print_value writes `prefix`, one value of `type` (its low bits in `bits`) as
 * tprint writes an element, and a newline to the print sink: `ptoc run`'s harness
 * prints an entry function's results with it ("result #0 i32 -5"). */
PTORT_API void ptort_print_value(ptort_ctx *ctx, const char *prefix, ptort_type type, uint64_t bits);

/* ---- 3.2 Vector conversion, A2A3 repeat form (docs/semantics.md §5.1) -----------
 *
 * W = the wider of the two element widths (bits), N = the narrower one. One repeat
 * processes L = 2048 / W lanes (64 for f32<->f16, 128 for f16<->i8 and f16<->i4, 32
 * for 64-bit types) as 8 blocks of L/8 lanes. An operand of element width B has
 * blocks of 32*B/W bytes: 32 B on the wider side, 16 B for f16 beside f32, 8 B for
 * i4 beside f16. Lane l = 8-block b = l / (L/8), element e = l % (L/8) of that block,
 * and sits at the byte address (in bits for 4-bit types)
 *
 *     addr + rep * rep_stride * 32  +  b * blk_stride * (32*B/W)  +  e * B/8
 *
 * i.e. the repeat stride counts 32-byte units on both sides, the block stride counts
 * that operand's own blocks (1 = blocks back to back on both sides; the vendor's
 * f32->f16 example has dst_rep 4, src_rep 8, block strides 1).
 * Mask: lane l (< 64) is selected by bit l of mask_lo, lane 64 + l by bit l of
 * mask_hi; with 64 or 32 lanes mask_hi is ignored (and bits >= 32 of mask_lo with
 * 32 lanes). Unselected destination lanes are left untouched. Each repeat reads all
 * its selected source lanes before writing its destination lanes, repeats run in
 * order (so exact in-place conversion works; other overlaps are defined but not the
 * hardware's). Each element converts exactly as ptort_cvt1(from, to, x, rm, sat).
 * Limits (repeat <= 255, strides <= 255, alignment) are the compiler's job: any
 * values execute. Reported: repeat 0, an empty mask, a pair or mode that
 * ptort_cvt_check rejects, both types 8 bits or narrower, a footprint (from the
 * first byte of the operand to the last byte of its last selected lane) leaving
 * `mem`. A contiguous full-mask instruction runs as one ptort_cvt_run. */
PTORT_API int ptort_vconv(ptort_ctx *ctx, ptort_mem mem, uint32_t dst, uint32_t src,
		ptort_type from, ptort_type to, uint32_t repeat, uint16_t dst_blk,
		uint16_t src_blk, uint16_t dst_rep, uint16_t src_rep,
		uint64_t mask_hi, uint64_t mask_lo, ptort_rmode rmode, int sat_mode);

/* The deq form (A2A3 i32 -> f16): same geometry as ptort_vconv with from = i32,
 * to = f16 (64 lanes, mask_lo only); each lane is ptort_deq1_i32_f16(x, scale)
 * (exact product rounded once, RINT, saturation ON). scale 0x3C00 = 1.0. */
PTORT_API int ptort_vconv_deq(ptort_ctx *ctx, ptort_mem mem, uint32_t dst, uint32_t src,
		    uint32_t repeat, uint16_t dst_blk, uint16_t src_blk,
		    uint16_t dst_rep, uint16_t src_rep, uint64_t mask_hi,
		    uint64_t mask_lo, uint16_t scale);

/* ---- 3.3 Vector conversion, A5 vector-register form --------------------------
 *
 * Converts `count` contiguous elements: ceil(count / L) steps on 256-byte registers
 * (L = 2048 / W lanes as above), the last one predicated to the remaining elements.
 * Element i of the source (at src) goes to element i of the destination (at
 * dst); nothing beyond `count` elements is touched (for a 4-bit destination
 * with odd count, the other nibble of the last byte is kept). Each step reads its
 * source register before writing, steps run in order. Reported: count 0, an
 * undefined pair or mode, a footprint leaving `mem`. */
PTORT_API int ptort_vconv_v(ptort_ctx *ctx, ptort_mem mem, uint32_t dst, uint32_t src,
		  ptort_type from, ptort_type to, uint32_t count, ptort_rmode rmode, int sat_mode);

/* The per-row form: `rows` rows of `cols` elements; row r starts at
 * src + r * src_pitch and dst + r * dst_pitch (pitches in bytes). Rows are
 * processed in order, each exactly as ptort_vconv_v on that row. */
PTORT_API int ptort_vconv_v2d(ptort_ctx *ctx, ptort_mem mem, uint32_t dst, uint32_t src,
		    ptort_type from, ptort_type to, uint32_t rows, uint32_t cols,
		    uint32_t dst_pitch, uint32_t src_pitch, ptort_rmode rmode, int sat_mode);

/* ---- 3.4 DMA between GM and on-chip memories (docs/semantics.md §6.2) ------------
 *
 * A GM view: a tensor view (`make_tensor_view`: shape and strides, 5-D and
 * right-aligned, leading dims 1) and a partition of it (`partition_view`: offsets and
 * sizes). The partition's element (i0, .., i4) is GM element
 *     sum_d (offset[d] + i_d) * stride[d]
 * counted from the kernel argument's pointer (in nibbles for 4-bit types; negative
 * strides allowed). The partition is moved as a 2-D region: with partition sizes of
 * dims 0-2 all 1, (r, c) is (i3, i4); otherwise the outer dims flatten into tile rows
 * for a row-major tile (r runs over i0..i3, i3 fastest; c = i4) and into tile columns
 * for a col-major one (r = i3; c runs over i0, i1, i2, i4, i4 fastest), as pto-isa's
 * TLOAD/TSTORE do; a boxed (fractal) tile takes outer sizes 1 only. */
#define PTORT_GM_RANK 5
typedef struct ptort_gm_view {
	uint8_t type;                   /* ptort_type of the GM elements */
	uint32_t shape[PTORT_GM_RANK];  /* tensor view shape */
	int64_t stride[PTORT_GM_RANK];  /* tensor view strides, in elements */
	uint32_t offset[PTORT_GM_RANK]; /* partition offsets */
	uint32_t size[PTORT_GM_RANK];   /* partition sizes */
	uint64_t gm_elems;              /* elements the GM buffer holds; 0 = unchecked */
	uint8_t rank;                   /* the view's own rank (dims PTORT_GM_RANK - rank ..
					 * are its dims 0 ..), for messages; 0 = PTORT_GM_RANK */
} ptort_gm_view;

/* Convert/ReLU options of tstore and tmov. */
#define PTORT_NO_CVT (-1)

/* tload: for r < dst->v_rows, c < dst->v_cols, partition element (r, c) -> tile
 * element (r, c) at ptort_tile_offset(dst, r, c); the rest of the tile is untouched.
 * Bit patterns are copied: GM and tile types must have the same width. Reported:
 * a bad tile or view, a valid region larger than the partition's 2-D size (outer
 * dims flattened), a partition outside the tensor view or outside gm_elems, the tile
 * leaving its memory, outer partition sizes != 1 with a boxed tile. */
PTORT_API int ptort_dma_load(ptort_ctx *ctx, const void *gm, const ptort_gm_view *view,
		   const ptort_tile *dst);

/* tstore: for r < src->v_rows, c < src->v_cols, tile element (r, c) -> partition
 * element (r, c). convert_to = PTORT_NO_CVT copies bit patterns (same widths);
 * otherwise it is a ptort_type equal to view->type and every element converts as
 * ptort_cvt1(src type, convert_to, x, RINT, SAT_ON) (acc f32 -> f16/bf16). relu != 0
 * first replaces negative values by +0 (floats: sign set and not NaN, -0 included;
 * signed integers: < 0); NaN passes. */
PTORT_API int ptort_dma_store(ptort_ctx *ctx, void *gm, const ptort_gm_view *view, const ptort_tile *src,
		    int convert_to, int relu);

/* tload then vconv_v fused (the compiler's fuse-dma pass, docs/lowered.md): the
 * result is that of ptort_dma_load(gm, view, dst) followed by ptort_vconv_v(ctx,
 * dst->mem, cvt_dst, dst->addr, dst->type, to, count, rmode, sat_mode), errors
 * included, except that the bytes of the loaded tile `dst` are left unspecified: the
 * compiler calls it only when no instruction reads them afterwards. When both would
 * succeed, `dst` is a whole row-major ND tile of count elements (8 bits or wider) and
 * its bytes do not overlap the conversion's destination, the elements convert from GM
 * straight to cvt_dst. */
PTORT_API int ptort_dma_load_cvt(ptort_ctx *ctx, const void *gm, const ptort_gm_view *view,
		       const ptort_tile *dst, uint32_t cvt_dst, ptort_type to, uint32_t count,
		       ptort_rmode rmode, int sat_mode);

/* ---- 3.5 tmov between tiles (docs/semantics.md §6.2) ------------------------------
 *
 * For r < dst->v_rows, c < dst->v_cols: dst(r, c) = src(r, c), each through
 * ptort_tile_offset, so any layout moves to any layout in any memory. The region
 * must fit in src's physical shape. convert_to and relu as for ptort_dma_store
 * (PTORT_NO_CVT: same element widths). Overlapping tiles read the whole source
 * region before writing. */
PTORT_API int ptort_tmov(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, int convert_to,
	       int relu);
/* textract (docs/semantics.md §7.8): for r < dst->v_rows, c < dst->v_cols:
 * dst(r, c) = src(row + r, col + c), bit patterns (same element widths); the window
 * must fit in src's physical shape. ttrans: dst(r, c) = src(c, r) likewise (the
 * transposed window must fit). Any layouts, any memories; overlapping tiles read the
 * whole source first. */
PTORT_API int ptort_textract(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, uint32_t row,
		   uint32_t col);
/* tinsert (docs/semantics.md §7.8): for r < src->v_rows, c < src->v_cols:
 * dst(row + r, col + c) = src(r, c); the region must fit in dst's physical shape.
 * convert_to as for ptort_tmov (acc f32 -> f16/bf16, RINT, saturation ON; PTORT_NO_CVT:
 * same element widths, bit patterns). Any layouts, any memories; the source region is
 * read whole before anything is written. */
PTORT_API int ptort_tinsert(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, uint32_t row,
		  uint32_t col, int convert_to);
/* ---- 3.5b arg reductions (docs/semantics.md §7.6a) --------------------------------
 * col == 0: for each valid row r of src, dst(r, 0) = the column index of the row's max
 * (min != 0: min); col != 0: for each valid column c, dst(0, c) = the row index of the
 * column's max/min. The first of equal values wins; NaN never wins over an earlier
 * element, and a NaN first element stays. dst holds i32/ui32 indices. */
PTORT_API int ptort_targred(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, int64_t col,
		  int64_t min);

/* ---- 3.5d tgather, index form (docs/semantics.md §7.8a) ----------------------------
 * For each (i, j) of dst's valid region: dst(i, j) = element (k / cols, k % cols) of
 * src (through its layout), k = idx(i, j) read at (i, j) of the idx tile (i32/ui32,
 * or i16/ui16); an index outside [0, src rows * cols) gives 0 (pto-isa's CPU model).
 * src and dst have one element width. */
PTORT_API int ptort_tgather(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx,
		  const ptort_tile *dst);
/* The mask-pattern form: the elements (r, c) of src's valid region, row by row, whose
 * column c the pattern selects (1 P0101: c % 2 == 0; 2 P1010: c % 2 == 1; 3 P0001,
 * 4 P0010, 5 P0100, 6 P1000: c % 4 == 0, 1, 2, 3; 7 P1111: every c), written one after
 * another to dst's elements (n / cols, n % cols), n = 0, 1, ... (pto-isa's CPU model). */
PTORT_API int ptort_tgatherm(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
		  int64_t pattern);

/* ---- 3.5e tsort32, tmrgsort (docs/semantics.md §7.8b) --------------------------------
 * Both order 8-byte structures of (value, index): f32 (value, index bits), f16 (value,
 * 0, index low 16 bits, index high 16 bits); descending by value, NaN above every
 * number, -0 equal to +0. tsort32: each row r < src's valid rows, each block of 32
 * valid columns (the last may be shorter), the pairs (src(r, c), idx(r, c)) sorted
 * (equal values: smaller index, then earlier column first) into structures c of dst's
 * row r, those inside dst's valid columns written. src, dst f16 or f32; idx ui32. */
PTORT_API int ptort_tsort32(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx,
		  const ptort_tile *dst);
/* tmrgsort on one-row tiles. block_len != 0 (one list, src1..3 NULL): each group of 4
 * blocks of block_len elements of src0's valid columns (a multiple of 4 * block_len,
 * block_len a multiple of 64) is merged into the same columns of dst. block_len == 0:
 * the 2 to 4 sorted lists src0..src3 (NULL after the last; each src's valid columns
 * hold its structures) merged into dst until its valid columns are full or every
 * list is used, equal values taken from the earlier list first; exhausted != 0 stops
 * as soon as one list is used up. The counts of structures taken from each list are
 * not returned. */
PTORT_API int ptort_tmrgsort(ptort_ctx *ctx, const ptort_tile *src0, const ptort_tile *src1,
		  const ptort_tile *src2, const ptort_tile *src3, const ptort_tile *dst,
		  int64_t block_len, int64_t exhausted);

/* ---- 3.5f thistogram (docs/semantics.md §7.8c) -------------------------------------
 * For each valid row r of src (16-bit elements): counts of one byte of its valid
 * elements in 256 bins, written cumulatively (dst(r, b) = the count of bins 0..b) to
 * dst's elements (r, 0..255), ui32. msb != 0: the high byte of every element; msb == 0:
 * the low byte of the elements whose high byte equals idx(r, 0) (8-bit). */
PTORT_API int ptort_thistogram(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx,
		  const ptort_tile *dst, int64_t msb);

/* ---- 3.5g tconcat (docs/semantics.md §7.8d) -----------------------------------------
 * For each of dst's valid rows r (src0's and src1's valid rows, the same count): dst's
 * elements (r, 0 .. c0) are src0's valid row r and (r, c0 .. c0 + c1) src1's, c0 and c1
 * the sources' valid columns (c0 + c1 <= dst's columns). One element type. */
PTORT_API int ptort_tconcat(ptort_ctx *ctx, const ptort_tile *src0, const ptort_tile *src1,
		  const ptort_tile *dst);

/* ---- 3.5h tgather's compare form, trandom, tpack (docs/semantics.md §7.8a, §7.8e, §7.8f)
 * ptort_tgatherc: for each valid row r of src, the flat indices offset + r * cols + c
 * (cols: src's tile columns) of the valid elements src(r, c) for which
 * ptort_cmp1(cmp, type, src(r, c), k) holds (cmp eq or gt; k the bits of a value of
 * src's type), in column order, into dst's row r from column 0 (the rest of the row
 * left as it was), as 32-bit integers; their count into cdst's storage element r.
 * ptort_trandom: the counter-based generator over dst's valid region (i32 or ui32,
 * row-major): for each row and each block of 256 columns, lane l = 0..63 runs `rounds`
 * (7 or 10) rounds on the 128-bit counter (counter0..3, counter0 the low word) plus l,
 * keyed by key0/key1 (the low 32 bits of each argument count), and its four result
 * words go to columns block + w * 64 + l, w = 0..3; the counter then advances by
 * dst's columns / 4 for each block.
 * ptort_tpack: each element of src's valid region, its low (dst's width) bits, into
 * dst at the same (r, c); src 4 bytes and dst 2 or 1, or src 2 and dst 1. */
PTORT_API int ptort_tgatherc(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
		  const ptort_tile *cdst, uint64_t k, int64_t cmp, int64_t offset);
PTORT_API int ptort_trandom(ptort_ctx *ctx, const ptort_tile *dst, int64_t key0, int64_t key1,
		  int64_t counter0, int64_t counter1, int64_t counter2, int64_t counter3, int64_t rounds);
PTORT_API int ptort_tpack(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst);
/* ---- 3.5i tquant, tdequant (docs/semantics.md §7.8g) --------------------------------
 * Over src's valid region (dst's valid region the same), row r taking its parameters
 * from element (r, 0) of `scale` and of `offset`:
 * tquant: f32 src to i8 dst (offset NULL) or ui8 dst (with an f32 offset): the product
 * x * scale rounded to f32 (RINT), plus offset rounded to f32, then f32 -> i32 (RINT,
 * saturating), i32 -> f16 (RINT, saturating) and f16 -> i8 / ui8 (RINT, saturating), each
 * step ptort_cvt1.
 * tdequant: i8 or i16 src to f32 dst: f32(x) - offset rounded to f32 (RINT), times
 * scale rounded to f32 (RINT); scale and offset f32. */
PTORT_API int ptort_tquant(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale,
		  const ptort_tile *offset, const ptort_tile *dst);
PTORT_API int ptort_tdequant(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale,
		  const ptort_tile *offset, const ptort_tile *dst);

/* ---- 3.5j the fixpipe's quantization (docs/semantics.md §6.2a) ----------------------
 * textract_fp (insert 0): for r < dst->v_rows, c < dst->v_cols, dst(r, c) =
 * Q_c(src(row + r, col + c)); tinsert_fp (insert 1): for r < src->v_rows, c <
 * src->v_cols, dst(row + r, col + c) = Q_c(src(r, c)). Q_c is the quantization of
 * ptort_fixpipe_q with the 64-bit little-endian word at byte fp->addr + 8c of fp's
 * memory (the fp tile's own shape and type are not used). src: f32 or i32 (acc); dst:
 * i8 or ui8, or f16 from i32. */
PTORT_API int ptort_tmovfp(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *fp,
		  const ptort_tile *dst, uint32_t row, uint32_t col, int64_t insert);
/* One element through the fixpipe's quantization with the word `q`: a (f32 or i32
 * bits, `from`) is converted to f32 (RINT) and multiplied by the f32 whose bits are
 * q's bits 13-31 (the low 13 bits zero), rounded to f32 (RINT). To `to` = I8 or U8:
 * that product to an integer (RINT, NaN 0), clamped to [-256, 255], plus the 9-bit
 * two's complement offset in q's bits 37-45, clamped to [-128, 127] when q's bit 46 is
 * set, else to [0, 255]; the low 8 bits. To F16 or BF16: the product converted (RINT,
 * saturating). */
PTORT_API uint64_t ptort_fixpipe_q(ptort_type from, ptort_type to, uint64_t a, uint64_t q);

/* ---- 3.5k tmov and tstore out of acc through the fixpipe (docs/semantics.md §6.2b) ---
 * Each element a of src's valid region becomes F(a): quant 0 the plain move (the same
 * bits; f32 -> f16/bf16 as ptort_cvt1 RINT, saturation on; i32 -> f16 as quant 1 with
 * the word 0x3F800000, a scale of 1.0), ReLU (ptort_relu1) before the conversion;
 * quant 1 ptort_fixpipe_q with `word` for every column; quant 2 with the word at byte
 * fp->addr + 8c of fp's memory for column c (as ptort_tmovfp). With quant 1 or 2 and
 * relu, the quantized result is clamped below at 0 (a negative 8-bit result, possible
 * only when the word's bit 46 is set, becomes 0; a float as ptort_relu1).
 * ptort_tmovq: into dst at the same (r, c); mode 0 (single_mode_vec0) writes when the
 * context is vector core 0 (ptort_subblock_idx; a context outside a cluster is), 1
 * (vec1) when it is core 1, 2 (dual_mode_split_m) core k's half of the rows, src rows
 * k*R/2 .. (k+1)*R/2-1 to dst rows 0 .. R/2-1, 3 (dual_mode_split_n) likewise with the
 * columns. ptort_dma_store_q: to the GM view as ptort_dma_store, the view's type the
 * destination type; atomic 1 adds F(a) to the GM element (floats as ptort_vop1's add,
 * integers modulo 2^bits) instead of overwriting it. */
PTORT_API int ptort_tmovq(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *fp, const ptort_tile *dst,
		  int64_t word, int64_t quant, int64_t mode, int relu);
PTORT_API int ptort_dma_store_q(ptort_ctx *ctx, void *gm, const ptort_gm_view *view, const ptort_tile *src,
		  const ptort_tile *fp, int64_t word, int64_t quant, int relu, int64_t atomic);

/* ---- 3.5c a run-time scalar operand (docs/semantics.md §7.3) -----------------------
 * The scalar operand `value` of a vector op, of type `from` as the generated code holds
 * it (an integer of N bits in its low N bits, any higher bits ignored; a float as its
 * bit pattern), converted to the element type `to` as a tcvt with RINT and saturation
 * off (ptort_cvt1 from the integer's 64-bit value, signed or unsigned by its type):
 * the bits the vector instruction's scalar operand takes, zero-extended. */
PTORT_API uint64_t ptort_scvt(ptort_ctx *ctx, ptort_type from, ptort_type to, uint64_t value);

/* ---- 3.5a one element of a tile: tgetval, tsetval (docs/semantics.md §7.9) ---------
 *
 * Element `offset` of the tile's storage: the element whose bits start offset * bits
 * bits after the tile's first byte, whatever the layout; 0 <= offset < rows * cols.
 * ptort_getval returns it (a signed integer sign-extended to 64 bits, an unsigned one
 * zero-extended, a float as its bit pattern), 0 after reporting a bad tile or offset;
 * ptort_setval stores the low bits of `value` there (-1 and nothing written when
 * reported). */
PTORT_API uint64_t ptort_getval(ptort_ctx *ctx, const ptort_tile *src, int64_t offset);
PTORT_API int ptort_setval(ptort_ctx *ctx, const ptort_tile *dst, int64_t offset, uint64_t value);
PTORT_API int ptort_ttrans(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst);

/* ---- 3.6 GM views as C values (docs/semantics.md §8, src/view.c) ----------------
 *
 * Generated code carries each make_tensor_view / partition_view as a ptort_view
 * value: the tensor (GM pointer, elements its buffer holds, shape, strides) and the
 * window a partition takes of it (offsets, sizes), dims 0 .. rank-1 as written, rank
 * 1 to PTORT_GM_RANK. A DMA takes the ptort_gm_view that ptort_gm_view_init builds. */
typedef struct ptort_view {
	void *gm;
	uint64_t elems;
	unsigned rank;
	int64_t shape[PTORT_GM_RANK], stride[PTORT_GM_RANK];
	int64_t off[PTORT_GM_RANK], size[PTORT_GM_RANK];
} ptort_view;

/* The whole tensor: offsets 0, sizes = shape. Another rank gives rank 0, a view
 * every DMA reports (see ptort_gm_view_init). */
PTORT_API ptort_view ptort_view_tensor(void *gm, uint64_t elems, unsigned rank, const int64_t shape[],
			     const int64_t stride[]);
/* A partition of `src`: offsets add up (modulo 2^64), sizes replace. */
PTORT_API ptort_view ptort_view_part(const ptort_view *src, const int64_t off[], const int64_t size[]);
/* ---- 3.7 pointers and scalars in GM (docs/semantics.md §8.6, src/view.c) -------------
 *
 * A GM pointer travels with `elems`, the elements of `type` its buffer holds from it
 * (0: unknown, unchecked). ptort_addptr returns p + off elements and sets *out_elems
 * to elems - off; an offset outside [0, elems] (when elems != 0) or not a whole byte
 * (4-bit types) is reported and p, elems are returned unchanged. ptort_load_scalar
 * returns element off (signed integers sign-extended, unsigned zero-extended, floats
 * as bits; 0 when reported), ptort_store_scalar writes the low bits of v there; off
 * must lie in [0, elems). Both count as GM accesses for the race check of a launch.
 * ptort_view_dim is dim `dim` of v's shape (0 and reported outside [0, rank)). */
PTORT_API void *ptort_addptr(ptort_ctx *ctx, void *p, uint64_t elems, int64_t off, ptort_type type,
		   uint64_t *out_elems);
PTORT_API uint64_t ptort_load_scalar(ptort_ctx *ctx, const void *p, uint64_t elems, int64_t off,
			   ptort_type type);
PTORT_API int ptort_store_scalar(ptort_ctx *ctx, void *p, uint64_t elems, int64_t off, ptort_type type,
		       uint64_t v);
PTORT_API int64_t ptort_view_dim(ptort_ctx *ctx, const ptort_view *v, int64_t dim);
/* ---- 3.8 async GM copies (docs/semantics.md §8.10, src/async.c) ---------------------
 *
 * ptort_gm_copy copies the elements of `src`'s partition into `dst`'s, in row-major
 * order of each (the counts must match; elements of whole bytes), and returns 1, the
 * id of a completed event; 0 after reporting a mismatch or an element outside its
 * buffer (nothing copied). Both count as GM accesses for the race check. */
PTORT_API int64_t ptort_gm_copy(ptort_ctx *ctx, const ptort_view *dst, const ptort_view *src,
				ptort_type type);

/* The DMA's view of `v` for GM elements of `type`: dims right-aligned to
 * PTORT_GM_RANK, the leading ones of shape and size 1 (stride and offset 0). A rank
 * outside 1..PTORT_GM_RANK, or a shape, offset or size outside [0, 2^32), gives the
 * last dim size 0, which the DMA reports. */
PTORT_API void ptort_gm_view_init(ptort_gm_view *g, ptort_type type, const ptort_view *v);

/* ==== 4. Tile layouts and mmad ========================================== */

/* ---- 4.1 Layouts (docs/semantics.md §6.1) ----------------------------------------
 *
 * Layout codes as in ptort_tile: blayout 0 row_major ("Z"), 1 col_major ("N");
 * slayout 0 none_box, 1 row_major ("z"), 2 col_major ("n"). ND = (0, 0),
 * DN = (1, 0), Zz = (0, 1), Nz = (1, 1), Zn = (0, 2), Nn = (1, 2).
 * Every offset is an element index from the tile's first element (nibbles for 4-bit
 * types) and has the form f(r) + g(c). */

/* Element index of (r, c) in a rows x cols tile with an explicit box_rows x box_cols
 * inner box (ignored for none_box; a zero box dimension also means unboxed). */
PTORT_API size_t ptort_layout_offset(uint32_t rows, uint32_t cols, unsigned blayout, unsigned slayout,
			   uint32_t box_rows, uint32_t box_cols, uint32_t r, uint32_t c);

/* The inner box of `slayout` for elements of `type` in `fractal`-byte fractals:
 * slayout 1: 16 x F*8/(16*bits); slayout 2: F*8/(16*bits) x 16; slayout 0: 1 x 1.
 * Returns 0, or -1 when the type/slayout is unknown or F*8 is not a positive multiple
 * of 16*bits. (f16 F=512: 16x16; f32 F=1024: 16x16; i8 F=512: 16x32 / 32x16;
 * fp4 F=512: 16x64; e8m0 F=32: 16x2 / 2x16.) */
PTORT_API int ptort_layout_box(ptort_type type, unsigned slayout, uint32_t fractal, uint32_t *box_rows,
		     uint32_t *box_cols);

/* Element index (from the tile's first element) of element (r, c) of `t` under its
 * layout. Every data movement and mmad goes through this. A boxed tile whose box is
 * invalid is addressed as unboxed (check tiles first with ptort_layout_check); a
 * one-row boxed tile has boxes of one row (its elements in order). */
PTORT_API size_t ptort_tile_offset(const ptort_tile *t, uint32_t r, uint32_t c);

/* Whether a tile shape is addressable: known codes, nonzero shape, an even column count
 * for 4-bit types, and for boxed layouts a valid box that divides cols and, unless the
 * tile has one row, rows. */
typedef enum ptort_layout_status {
	PTORT_LAYOUT_OK = 0,
	PTORT_LAYOUT_BAD_TYPE,
	PTORT_LAYOUT_BAD_CODE,
	PTORT_LAYOUT_EMPTY,
	PTORT_LAYOUT_ODD_NIBBLES,
	PTORT_LAYOUT_BAD_FRACTAL,
	PTORT_LAYOUT_PARTIAL_BOX
} ptort_layout_status;
PTORT_API ptort_layout_status ptort_layout_check(ptort_type type, unsigned blayout, unsigned slayout,
				       uint32_t fractal, uint32_t rows, uint32_t cols);
/* A short English reason ("rows and columns must be multiples of the fractal box"). */
PTORT_API const char *ptort_layout_status_text(ptort_layout_status s);

/* ---- 4.2 mmad (docs/semantics.md §6.3) ---------------------------------------------
 *
 * For i < m, j < n (logical elements through ptort_tile_offset):
 *     acc = init(i, j)      zero: +0 | bias: bias(0, j) | C_in: c_in(i, j)
 *     for q = 0 .. k-1:  acc = round_f32_RINT(acc + a(i, q) * b(q, j))
 *     c_out(i, j) = acc
 * with the product exact and one IEEE rounding per step (gradual underflow, overflow
 * to inf, NaN/inf by IEEE rules; every NaN result is stored as 0x7FC00000). Integer
 * triple: exact products, sum modulo 2^32. Elements of c_out outside m x n are left
 * unchanged. c_in may be c_out itself (in-place accumulation) or any other tile: all
 * inputs are read before c_out is written.
 * Type triples (a, b -> c): (i8, i8 -> i32), (f16, f16 -> f32), (bf16, bf16 -> f32),
 * (f32, f32 -> f32), (f8E4M3FN|f8E5M2, f8E4M3FN|f8E5M2 -> f32), (hif8, hif8 -> f32).
 * The bias / c_in tile has c_out's type; bias is read from its row 0.
 * Checked (reported through the context, nothing written): tiles (memory, type,
 * shape, layout, footprint), m, k, n in [1, 4095], m <= a.rows and c.rows (and
 * c_in.rows), k <= a.cols and b.rows, n <= b.cols and c.cols (and bias/c_in cols),
 * the type triple, init. The runtime knows no target: location and layout rules of a
 * target are the compiler's job. Returns 0, or -1 when reported. */
/* The call's tiles: c is c_out; `bias` is the bias tile or c_in (by init), NULL for
 * zero. */
#define PTORT_MMAD_INIT_ZERO 0
#define PTORT_MMAD_INIT_BIAS 1
#define PTORT_MMAD_INIT_C 2
PTORT_API int ptort_mmad(ptort_ctx *ctx, const ptort_tile *c, const ptort_tile *a,
	       const ptort_tile *b, uint32_t m, uint32_t k, uint32_t n, int init,
	       const ptort_tile *bias);

/* MX (A5 tmatmul.mx*): as ptort_mmad with each product scaled,
 *     a(i, q) * 2^(sa(i, q/32) - 127) * b(q, j) * 2^(sb(q/32, j) - 127),
 * the scaled product exact before the one rounding of each step. a_scale is the
 * logical [m][ceil(k/32)] and b_scale the [ceil(k/32)][n] e8m0 tile (any layout; an
 * e8m0 of 0xFF makes the scaled product NaN). Operands: both fp8 (f8E4M3FN|f8E5M2)
 * or both fp4 (f4E2M1FN|f4E1M2); c_out and bias/c_in f32. k need not be a multiple
 * of 64 here (the compiler enforces the target's rule). */
PTORT_API int ptort_mmad_mx(ptort_ctx *ctx, const ptort_tile *c, const ptort_tile *a,
		  const ptort_tile *a_scale, const ptort_tile *b, const ptort_tile *b_scale,
		  uint32_t m, uint32_t k, uint32_t n, int init, const ptort_tile *bias);

/* ==== 5. Vector operations: elementwise, compare/select, reductions ========
 *
 * Semantics: docs/semantics.md §7 (rules), docs/vector.md (how they are computed).
 * Element kernels (src/vop_num.c): float ops on f32/f16/bf16 round the exact result
 * once to nearest-even with gradual underflow, overflow to inf, and every NaN they
 * produce is the type's canonical quiet NaN; exp/ln/sqrt/rsqrt/recip/div are
 * correctly rounded. Integer ops wrap (two's complement). The instructions (src/vop.c)
 * mirror the two targets' forms: the A2A3 repeat form (5.2) and the A5 register
 * form (5.3); every one applies ptort_vop1 / ptort_cmp1 per element. */

/* The element operations, once: X(ID, name, arity). PTORT_VOP_<ID>; order is ABI. */
#define PTORT_VOP_LIST(X) \
	X(ADD, "add", 2) X(SUB, "sub", 2) X(MUL, "mul", 2) X(DIV, "div", 2) \
	X(MAX, "max", 2) X(MIN, "min", 2) X(AND, "and", 2) X(OR, "or", 2) \
	X(XOR, "xor", 2) X(SHL, "shl", 2) X(SHR, "shr", 2) \
	X(EXP, "exp", 1) X(LN, "ln", 1) X(SQRT, "sqrt", 1) X(RSQRT, "rsqrt", 1) \
	X(RECIP, "recip", 1) X(ABS, "abs", 1) X(NEG, "neg", 1) X(RELU, "relu", 1) \
	X(NOT, "not", 1) X(MOV, "mov", 1) X(FMOD, "fmod", 2) X(REM, "rem", 2) \
	X(PRELU, "prelu", 2) X(EXPDIF, "expdif", 2)

typedef enum ptort_vop {
#define PTORT_VOP_ENUM_(id, name, arity) PTORT_VOP_##id,
	PTORT_VOP_LIST(PTORT_VOP_ENUM_)
#undef PTORT_VOP_ENUM_
	PTORT_VOP_COUNT
} ptort_vop;

/* Compare predicates (PTOAS cmpMode): X(ID, name). */
#define PTORT_CMP_LIST(X) X(EQ, "eq") X(NE, "ne") X(LT, "lt") X(LE, "le") X(GT, "gt") X(GE, "ge")

typedef enum ptort_cmp {
#define PTORT_CMP_ENUM_(id, name) PTORT_CMP_##id,
	PTORT_CMP_LIST(PTORT_CMP_ENUM_)
#undef PTORT_CMP_ENUM_
	PTORT_CMP_COUNT
} ptort_cmp;

/* ---- 5.1 Elements -------------------------------------------------------------
 *
 * Types: ADD SUB MUL DIV MAX MIN RECIP ABS NEG RELU FMOD REM on f32, f16, bf16 and the
 * 8..64-bit integers; EXP LN SQRT RSQRT PRELU EXPDIF on the three floats; AND OR XOR NOT SHL
 * SHR on the integers; MOV on every type of 8 bits or more. ptort_vop_check says whether (op, t)
 * is defined (the generic semantics; a target's legality is the compiler's).
 * ptort_vop1 computes one element: operands and result are bit patterns in the low
 * bits (zero extended); `b` is ignored by unary ops; an undefined pair gives 0.
 * Floats: max/min return NaN when either operand is NaN and order -0 < +0; abs/neg
 * only change the sign bit (NaN included); relu is max(x, +0) with NaN passed
 * unchanged; mov copies; fmod(a, b) is a - trunc(a/b)*b, exact, with a's sign (NaN
 * for b = 0 or a infinite); rem(a, b) is a - floor(a/b)*b: fmod, then b added once
 * (rounded) when the two signs differ, a zero taking b's sign; prelu(a, b) is a when
 * a > 0, else a*b rounded; expdif(a, b) is exp(a - b) with the difference rounded
 * first (two roundings: trowexpandexpdif). Integers: add/sub/mul/neg/abs wrap; div truncates, x/0 is
 * all ones (-1 signed, max unsigned) and MIN/-1 is MIN; recip is 1/x by that rule;
 * fmod is the truncated remainder (sign of a), rem the floored one (sign of b), both
 * a when b = 0 and 0 for MIN and -1;
 * shl/shr take `b` as an unsigned amount, shr is arithmetic on signed and logical on
 * unsigned types, amounts >= the width give 0 (or -1 for a negative signed shr).
 * ptort_cmp1 returns 1/0: IEEE comparisons (NaN unordered: only NE holds; -0 == +0),
 * integers by their signedness. */
PTORT_API const char *ptort_vop_name(ptort_vop op);
PTORT_API int ptort_vop_arity(ptort_vop op);
PTORT_API const char *ptort_cmp_name(ptort_cmp c);
PTORT_API int ptort_vop_check(ptort_vop op, ptort_type t);
PTORT_API uint64_t ptort_vop1(ptort_vop op, ptort_type t, uint64_t a, uint64_t b);
PTORT_API int ptort_cmp1(ptort_cmp c, ptort_type t, uint64_t a, uint64_t b);

/* ---- 5.2 A2A3 repeat form (docs/semantics.md §7.4) ------------------------------
 *
 * The geometry of 3.2 with one element width W (16 or 32 bits) on every data operand:
 * a repeat is L = 2048 / W lanes (128 for 16-bit, 64 for 32-bit types) in 8 blocks of
 * 32 bytes; lane l of repeat r of an operand is at the byte address
 *
 *     addr + r * rep_stride * 32 + (l / (L/8)) * blk_stride * 32 + (l % (L/8)) * W/8
 *
 * (rep_stride 8 and blk_stride 1: repeats back to back; blk_stride 0 repeats one block,
 * rep_stride 0 one repeat). Lane l < 64 is selected by bit l of mask_lo, 64 + l by bit
 * l of mask_hi (mask_hi is ignored with 64 lanes). Only selected lanes compute and
 * only selected destination lanes are written. Repeats run in order; each reads all
 * its selected source lanes before it writes: an in-place operation works, any other
 * overlap is deterministic. Every lane computes ptort_vop1(op, type, a, b) (a = src0,
 * b = src1 or the scalar, swapped by PTORT_V_SCALAR_FIRST). Predicate bit arrays
 * (compare results, select masks) hold lane l of repeat r at bit r*L + l counted from
 * their address, least significant bit of each byte first; a compare writes only the
 * bits of selected lanes. Limits (repeat and strides <= 255, alignment) are the
 * compiler's: any values execute. Reported (nothing done, error recorded): unknown
 * memory/type/op, an op not defined on the type (ptort_vop_check), W other than 16
 * or 32, repeat 0, an empty mask, a footprint (up to the last byte of the furthest
 * selected lane) leaving `mem`. Every call returns 0, or -1 when it reported. */
#define PTORT_V_SCALAR_FIRST 1u /* scalar forms: the scalar is the first operand */
#define PTORT_V_BRC0 2u		/* A5 forms: src0 gives one element per row, broadcast */
#define PTORT_V_BRC1 4u		/* A5 forms: src1 gives one element per row, broadcast */
#define PTORT_V_BLK1 8u		/* A5 forms: src1 gives one 32-byte block per row, repeated */

/* vadd, vmul, vmax, vand, ... : dst = op(src0, src1) */
PTORT_API int ptort_vbin(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
	       uint32_t src0, uint32_t src1, uint32_t repeat, uint16_t dst_blk, uint16_t src0_blk,
	       uint16_t src1_blk, uint16_t dst_rep, uint16_t src0_rep, uint16_t src1_rep,
	       uint64_t mask_hi, uint64_t mask_lo);
/* vadds, vmuls, vmaxs, vshls, ... : dst = op(src, scalar), or op(scalar, src) with
 * PTORT_V_SCALAR_FIRST in flags. `scalar` is a bit pattern of `type` (the compiler
 * converts a scalar of another type first). */
PTORT_API int ptort_vbins(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		uint32_t src, uint64_t scalar, unsigned flags, uint32_t repeat, uint16_t dst_blk,
		uint16_t src_blk, uint16_t dst_rep, uint16_t src_rep, uint64_t mask_hi,
		uint64_t mask_lo);
/* vexp, vln, vsqrt, vrsqrt, vrec, vabs, vneg, vrelu, vnot, vmov: dst = op(src) */
PTORT_API int ptort_vun(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
	      uint32_t src, uint32_t repeat, uint16_t dst_blk, uint16_t src_blk, uint16_t dst_rep,
	      uint16_t src_rep, uint64_t mask_hi, uint64_t mask_lo);
/* vector_dup: every selected lane of dst = scalar */
PTORT_API int ptort_vdup(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint64_t scalar,
	       uint32_t repeat, uint16_t dst_blk, uint16_t dst_rep, uint64_t mask_hi,
	       uint64_t mask_lo);
/* vbrcb: repeat r reads the 8 elements at src + r * 8 * W/8 and fills block b of the
 * destination repeat (dst + r*dst_rep*32 + b*dst_blk*32, 32 bytes) with element b.
 * No mask. */
PTORT_API int ptort_vbrcb(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t src,
		uint32_t repeat, uint16_t dst_blk, uint16_t dst_rep);
/* vcmpv / vcmpvs: bit r*L + l of the array at dst_bits = cmp(src0, src1) or
 * cmp(src, scalar), 1 when it holds */
PTORT_API int ptort_vcmp(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type, uint32_t dst_bits,
	       uint32_t src0, uint32_t src1, uint32_t repeat, uint16_t src0_blk, uint16_t src1_blk,
	       uint16_t src0_rep, uint16_t src1_rep, uint64_t mask_hi, uint64_t mask_lo);
PTORT_API int ptort_vcmps(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type, uint32_t dst_bits,
		uint32_t src, uint64_t scalar, uint32_t repeat, uint16_t src_blk, uint16_t src_rep,
		uint64_t mask_hi, uint64_t mask_lo);
/* vsel: dst = bit r*L + l of sel_bits ? src0 : src1 (vsels: src1 is the scalar) */
PTORT_API int ptort_vsel(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t sel_bits,
	       uint32_t src0, uint32_t src1, uint32_t repeat, uint16_t dst_blk, uint16_t src0_blk,
	       uint16_t src1_blk, uint16_t dst_rep, uint16_t src0_rep, uint16_t src1_rep,
	       uint64_t mask_hi, uint64_t mask_lo);
PTORT_API int ptort_vsels(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t sel_bits,
		uint32_t src, uint64_t scalar, uint32_t repeat, uint16_t dst_blk, uint16_t src_blk,
		uint16_t dst_rep, uint16_t src_rep, uint64_t mask_hi, uint64_t mask_lo);
/* vcadd/vcmax/vcmin (group = L), vcgadd/vcgmax/vcgmin (group = L/8, one result per
 * block), vcpadd (group = 2): op is ADD, MAX or MIN; each group of `group` consecutive
 * lanes (a power of two, 2 <= group <= L) reduces to one value by the pairwise tree
 * (level k combines results 2i and 2i+1 of level k-1, one rounding per step), lanes
 * not selected taking the identity (+0 for ADD, -inf / the type's minimum for MAX,
 * +inf / maximum for MIN). Repeat r writes its L/group results contiguously at
 * dst + (r * dst_rep * L/group) * W/8 (dst_rep counts per-repeat result lengths); a
 * group with no selected lane writes nothing. */
PTORT_API int ptort_vred(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t group,
	       uint32_t dst, uint32_t src, uint32_t repeat, uint16_t dst_rep, uint16_t src_blk,
	       uint16_t src_rep, uint64_t mask_hi, uint64_t mask_lo);

/* ---- 5.3 A5 register form (docs/semantics.md §7.4) ---------------------------------
 *
 * `rows` rows of `cols` contiguous elements; row r of an operand starts at
 * addr + r * pitch (bytes). Each row is processed in 256-byte registers (L = 2048 / W
 * lanes for elements of W bits, W in 8..64), the last one predicated to what remains;
 * nothing beyond `cols` elements of a row is written. Rows and registers run in
 * order, each register read before its results are written. PTORT_V_BRC0/1: that
 * source holds one element per row (at addr + r * pitch), broadcast to every column
 * (trowexpand*; a pitch of 0 repeats one row: tcolexpand*). PTORT_V_BLK1: src1 holds
 * one 32-byte block of E = 32 / (W/8) elements per row (at addr + r * pitch), column c
 * taking its element c mod E (the register load's block mode: trowexpand* with a block
 * per row). Predicate bits: column c
 * of row r is bit c of the bytes at dst_bits/sel_bits + r * bits_pitch. Reported:
 * as in 5.2, with rows or cols 0 instead of repeat 0 and no width limit. */
PTORT_API int ptort_vbin_v(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		 uint32_t src0, uint32_t src1, uint32_t rows, uint32_t cols, uint32_t dst_pitch,
		 uint32_t src0_pitch, uint32_t src1_pitch, unsigned flags);
PTORT_API int ptort_vbins_v(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		  uint32_t src, uint64_t scalar, unsigned flags, uint32_t rows, uint32_t cols,
		  uint32_t dst_pitch, uint32_t src_pitch);
PTORT_API int ptort_vun_v(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		uint32_t src, uint32_t rows, uint32_t cols, uint32_t dst_pitch, uint32_t src_pitch);
PTORT_API int ptort_vdup_v(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint64_t scalar,
		 uint32_t rows, uint32_t cols, uint32_t dst_pitch);
/* vtri_v: ttri with a run-time diagonal: row i of the rows x cols region at dst is
 * `one` (bits of type) in the columns j <= i + diag (upper != 0: j >= i + diag) and 0
 * elsewhere; one vdup_v per part of a row (docs/semantics.md §7.3) */
PTORT_API int ptort_vtri_v(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint64_t one,
		 uint32_t rows, uint32_t cols, uint32_t dst_pitch, int64_t diag, int64_t upper);
PTORT_API int ptort_vcmp_v(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type, uint32_t dst_bits,
		 uint32_t src0, uint32_t src1, uint32_t rows, uint32_t cols, uint32_t bits_pitch,
		 uint32_t src0_pitch, uint32_t src1_pitch);
PTORT_API int ptort_vcmps_v(ptort_ctx *ctx, ptort_mem mem, ptort_cmp cmp, ptort_type type,
		  uint32_t dst_bits, uint32_t src, uint64_t scalar, uint32_t rows, uint32_t cols,
		  uint32_t bits_pitch, uint32_t src_pitch);
PTORT_API int ptort_vsel_v(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst, uint32_t sel_bits,
		 uint32_t src0, uint32_t src1, uint32_t rows, uint32_t cols, uint32_t dst_pitch,
		 uint32_t bits_pitch, uint32_t src0_pitch, uint32_t src1_pitch);
PTORT_API int ptort_vsels_v(ptort_ctx *ctx, ptort_mem mem, ptort_type type, uint32_t dst,
		  uint32_t sel_bits, uint32_t src, uint64_t scalar, uint32_t rows, uint32_t cols,
		  uint32_t dst_pitch, uint32_t bits_pitch, uint32_t src_pitch);
/* Row reduction (A5 TROWSUM/TROWMAX/TROWMIN: vcadd/vcmax/vcmin then vadd/vmax/vmin
 * into an accumulator): for each row, acc = identity (+0 / -inf / +inf, integer
 * min/max); for each register of the row in order, acc = op(acc, the pairwise tree of
 * its L lanes, lanes beyond the row taking the identity); dst + r * dst_pitch = acc. */
PTORT_API int ptort_vred_v(ptort_ctx *ctx, ptort_mem mem, ptort_vop op, ptort_type type, uint32_t dst,
		 uint32_t src, uint32_t rows, uint32_t cols, uint32_t dst_pitch, uint32_t src_pitch);

/* ==== 6. The `ptoc run` harness (src/harness.c) ================================
 *
 * The program `ptoc run` builds (and `ptoc --emit=main` writes) is a table of the
 * kernel's arguments, a trampoline calling the kernel, and `return ptort_main(...)`.
 * ptort_main parses PROG [--in ARG=FILE]... [--out ARG=FILE]... [--arg ARG=VALUE]...
 * (ARG: an argument's name without %, or its position from 0), loads the GM buffers,
 * runs the kernel once in a fresh context and writes the --out buffers. It is the
 * one runtime function that prints (to stderr; the program name is $PTOC_RUN_PROG,
 * else argv[0]). Input files are copied at most once (a regular file that is only an
 * input is mapped privately); an --in file must have exactly the buffer's size (any
 * size for a dynamic buffer, in whole elements); a runtime error is reported at the
 * location ptort_ctx_locate recorded; outputs are written only after an error-free
 * run, all or none. Returns the exit status: 0, 1 (bad input file, runtime error,
 * out of memory), 2 (usage). --blocks N and --threads T are counts from 1 to the
 * limits below (the one definition: `ptoc run` checks its options against them).
 *
 * A FILE ending in `.npy` is a NumPy array file (docs/runtime.md "NumPy files"): an
 * --in array must have the dtype of the buffer's element type (float32, float16,
 * int8..int64, uint8..uint64; the types NumPy lacks as the unsigned integers of their
 * storage width holding bit patterns: bf16 as uint16, the 8-bit formats as uint8, the
 * 4-bit ones one per uint8 in its low 4 bits) and the argument's shape (dimensions of
 * size 1 aside; C or Fortran order); an --out array is written with them, in C order. */
typedef struct ptort_main_arg {
	const char *name; /* without % */
	unsigned bits;    /* GM element bits; 0: a scalar (integer) argument */
	uint64_t elems;   /* GM elements from the views' static shapes; 0: dynamic */
	const char *file; /* where the argument is declared (NULL: unknown); messages */
	unsigned line, col; /* about its file are FILE:LINE:COL: error: ... */
	/* For .npy files: the GM element type (used when ptort_type_bits(type) == bits;
	 * else .npy files are refused for the argument) and the shape of the buffer as an
	 * array, shape[0] outermost: rank dimensions whose product is elems, or rank 0 for
	 * one dimension of elems elements (any shape when elems is 0). */
	ptort_type type;
	unsigned rank;
	const uint64_t *shape;
	/* A scalar of a float type (f32, f16, bf16; its type in `type`): its --arg VALUE is
	 * a decimal number rounded once to the type (RINT) or a bit pattern 0x...; the
	 * kernel takes the bits. 0 for every other argument. */
	int is_float;
} ptort_main_arg;

typedef struct ptort_main_desc {
	unsigned nargs;
	const ptort_main_arg *args; /* nargs entries */
	ptort_ctx *(*ctx_create)(void);
	/* calls the kernel: buf[i] and elems[i] for a GM argument, scalar[i] otherwise */
	void (*call)(ptort_ctx *ctx, void *const buf[], const uint64_t elems[],
		     const int64_t scalar[]);
	unsigned flags; /* PTORT_MAIN_CLUSTER: a mixed kernel, each block a cluster */
} ptort_main_desc;
#define PTORT_MAIN_CLUSTER 1u

#define PTORT_MAX_BLOCKS (1u << 20)
#define PTORT_MAX_THREADS 4096u
PTORT_API int ptort_main(const ptort_main_desc *d, int argc, char **argv);
/* The count of a --blocks or --threads option (the harness's and `ptoc run`'s): s as a
 * decimal count from 1 to max, digits only; 0 when s is NULL or empty, not all digits,
 * 0 or above max. */
PTORT_API uint32_t ptort_count_parse(const char *s, uint32_t max);

/* ==== 7. Many blocks: launches and the GM race check (src/launch.c) ================
 *
 * ptort_launch runs a kernel for blocks 0 .. blocks-1, as the NPU runs one kernel on
 * many AI cores: each block in a context of its own (private on-chip memories, all
 * zero when the block starts, whatever ran before on that worker), all sharing GM.
 * `threads` worker threads (0: the online CPUs; never more than `blocks`) take the
 * blocks in increasing order; each worker creates one context with ctx_create and
 * runs its blocks in it, calling run(ctx, user) with ptort_block_idx(ctx) = the block
 * and ptort_block_num(ctx) = blocks. With one thread the blocks run in the calling
 * thread. Text that tprint writes goes to the print sink (NULL: standard output)
 * block after block, in block order, whatever the thread count.
 *
 * Race check (unless PTORT_LAUNCH_NO_RACE_CHECK, and only with more than one block):
 * every GM byte a DMA instruction reads or writes is recorded per block, exactly, as
 * byte intervals; after the run, two blocks that both write a byte, or one writing a
 * byte another reads, are a race (PTORT_LAUNCH_RACE), the NPU not ordering blocks.
 * Without a race, every block reads only bytes no other block writes, so the result
 * does not depend on the thread count or the order the blocks ran in.
 *
 * Returns the status, also in rep (which may be NULL): PTORT_LAUNCH_OK;
 * PTORT_LAUNCH_ERROR: some block's instructions reported an error: rep->block is the
 * lowest such block, with its first message and location (the blocks above a failed
 * one may not run); PTORT_LAUNCH_RACE: rep->lo, rep->hi the host address range of the
 * first (lowest) racing bytes, rep->acc[0] and rep->acc[1] the two accesses (block,
 * write or read, the location of the instruction; acc[0] writes, acc[1] is the other
 * block); PTORT_LAUNCH_NOMEM: out of host memory (contexts, access records, text);
 * PTORT_LAUNCH_BAD: blocks 0, no ctx_create or run, or a thread could not start. */
#define PTORT_LAUNCH_NO_RACE_CHECK 1u
/* each block a cluster of a cube core and two vector cores (section 10) */
#define PTORT_LAUNCH_CLUSTER 2u

typedef struct ptort_launch {
	uint32_t blocks;  /* >= 1 */
	uint32_t threads; /* 0: the online CPUs; capped at blocks */
	unsigned flags;   /* PTORT_LAUNCH_NO_RACE_CHECK */
	ptort_ctx *(*ctx_create)(void);
	void (*run)(ptort_ctx *ctx, void *user);
	void *user;
	ptort_print_fn print; /* tprint text; NULL: standard output */
	void *print_user;
} ptort_launch;

typedef enum ptort_launch_status {
	PTORT_LAUNCH_OK = 0,
	PTORT_LAUNCH_ERROR = 1,
	PTORT_LAUNCH_RACE = 2,
	PTORT_LAUNCH_NOMEM = 3,
	PTORT_LAUNCH_BAD = 4
} ptort_launch_status;

typedef struct ptort_gm_access {
	uint32_t block;
	int write;        /* 1 write, 0 read */
	const char *file; /* of the instruction (ptort_ctx_locate); NULL: unknown */
	uint32_t line, col;
} ptort_gm_access;

typedef struct ptort_launch_report {
	ptort_launch_status status;
	uint32_t threads;   /* the worker threads used */
	/* PTORT_LAUNCH_ERROR */
	uint32_t block;
	char message[256];
	const char *file;   /* ptort_ctx_error_loc of that block; NULL: unlocated */
	uint32_t line, col;
	/* PTORT_LAUNCH_RACE */
	uintptr_t lo, hi;   /* host addresses [lo, hi) */
	ptort_gm_access acc[2];
	/* PTORT_LAUNCH_ERROR of a cluster: lines "FILE:LINE:COL: note: ..." (or "note: ...")
	 * saying what each core of a deadlocked cluster waits for; "" otherwise */
	char notes[1024];
} ptort_launch_report;

/* The worker threads ptort_launch uses for `threads` (0: the online CPUs) and
 * `blocks`: at least 1, at most blocks. */
PTORT_API uint32_t ptort_launch_threads(uint32_t threads, uint32_t blocks);
PTORT_API ptort_launch_status ptort_launch_run(const ptort_launch *l, ptort_launch_report *rep);

/* ==== 8. Scalar integer arithmetic of generated code (docs/semantics.md §8.4) =========
 *
 * The C that ptoc emits keeps an integer of N bits (N < 64) sign-extended in an int64_t
 * (i1: 0 or 1 in an int) and computes in 64 bits; these helpers give the operations C
 * leaves undefined or implementation-defined their defined results: ptort_sext
 * reduces x modulo 2^N and sign-extends it (1 <= bits <= 64); division by zero gives
 * all ones (-1; the largest unsigned value), a remainder by zero the dividend, MIN / -1
 * wraps to MIN (remainder 0), as the vector units' integer division does (§7.2);
 * ptort_sar shifts right arithmetically by s < 64. */
static inline int64_t ptort_sext(uint64_t x, unsigned bits)
{
	uint64_t sign = (uint64_t)1 << (bits - 1);
	if (bits < 64)
		x &= (sign << 1) - 1;
	return (int64_t)((x ^ sign) - sign);
}

static inline int64_t ptort_sar(int64_t a, unsigned s)
{
	return a < 0 ? ~(~a >> s) : a >> s;
}

static inline int64_t ptort_sdiv(int64_t a, int64_t b)
{
	if (b == 0)
		return -1;
	if (b == -1)
		return (int64_t)(0 - (uint64_t)a);
	return a / b;
}

static inline int64_t ptort_srem(int64_t a, int64_t b)
{
	if (b == 0)
		return a;
	if (b == -1)
		return 0;
	return a % b;
}

static inline uint64_t ptort_udiv(uint64_t a, uint64_t b)
{
	return b ? a / b : ~(uint64_t)0;
}

static inline uint64_t ptort_urem(uint64_t a, uint64_t b)
{
	return b ? a % b : a;
}

/* rounded toward -infinity / +infinity */
static inline int64_t ptort_sfloordiv(int64_t a, int64_t b)
{
	int64_t q = ptort_sdiv(a, b), r = ptort_srem(a, b);
	return b != 0 && r != 0 && ((r < 0) != (b < 0)) ? q - 1 : q;
}

static inline int64_t ptort_sceildiv(int64_t a, int64_t b)
{
	int64_t q = ptort_sdiv(a, b), r = ptort_srem(a, b);
	return b != 0 && r != 0 && ((r < 0) == (b < 0)) ? q + 1 : q;
}

static inline uint64_t ptort_uceildiv(uint64_t a, uint64_t b)
{
	return b ? a / b + (a % b != 0) : ~(uint64_t)0;
}

/* Float scalars (f32, f16, bf16 bit patterns) for arith's float ops: maxnumf/minnumf
 * return the other operand when one is NaN (-0 < +0 otherwise, as max/min), and
 * ptort_cmpf evaluates arith.cmpf predicate `pred` (MLIR's numbering: 0 false, 1 oeq,
 * 2 ogt, 3 oge, 4 olt, 5 ole, 6 one, 7 ord, 8 ueq, 9 ugt, 10 uge, 11 ult, 12 ule,
 * 13 une, 14 uno, 15 true). Defined in src/vop.c with ptort_vop1. */
PTORT_API uint64_t ptort_fnum(ptort_vop op, ptort_type t, uint64_t a, uint64_t b);
PTORT_API int ptort_cmpf(unsigned pred, ptort_type t, uint64_t a, uint64_t b);

/* ==== 9. Pipes, flags and barriers: ptort_sync.h ==================================== */
#include "ptort_sync.h"

/* ==== 10. Clusters: mixed cube/vector kernels (src/cluster.c) =======================
 *
 * docs/semantics.md §8.9, docs/runtime.md "Clusters". A launch with PTORT_LAUNCH_CLUSTER
 * runs each block as a cluster of three contexts: the cube core (AIC) and two vector
 * cores (AIV 0 and 1), each with its own on-chip memories, all running the same kernel
 * function; ptort_core_in tells the code of `pto.section.cube` / `.vector` where it runs.
 * The three cores run as coroutines of one worker thread, switched only where a core
 * blocks (a FIFO push without a free slot, a pop without data, a cross-core wait
 * without its flag), in the fixed order AIC, AIV0, AIV1: a cluster's run, its text
 * and its errors do not depend on the thread count. When every unfinished core is
 * blocked, the cluster stops with a deadlock error that lists what each waits for.
 * The FIFO calls report an error and return -1 outside a cluster, the flag calls
 * do nothing there (a kernel with flags but no section runs on one core). `file` is a
 * string literal naming the op's source (or NULL), for the deadlock report. */
#define PTORT_CORE_CUBE 1
#define PTORT_CORE_VECTOR 2
/* 1 when the context runs the code of a section of kind `core` (PTORT_CORE_*): the
 * cube core for CUBE, each vector core for VECTOR (only vector core 0 when only0: a
 * section whose FIFO ops all use split 0). Outside a cluster: 1. */
PTORT_API int ptort_core_in(const ptort_ctx *ctx, int core, int only0);
/* aic_initialize_pipe / aiv_initialize_pipe / initialize_l2l_pipe / _l2g2l_pipe: the
 * FIFOs of directions dir_mask (1 cube to vector, 2 vector to cube, 3 both), slots of
 * slot_size bytes, c2v_depth and v2c_depth slots. gm (gm_bytes long) non-NULL: the
 * slots of those directions live in that GM buffer (A2A3), in pto-isa's layout (one
 * ring per direction from the buffer's start, the vector-to-cube ring after the
 * cube-to-vector one when dir_mask is 3; no offset per cluster; docs/semantics.md
 * §8.9); NULL: in the cluster (A5, the consumer's memory). The first init of a
 * cluster sets the FIFOs; a later one must agree. */
PTORT_API int ptort_pipe_init(ptort_ctx *ctx, unsigned dir_mask, uint32_t slot_size,
			      uint32_t c2v_depth, uint32_t v2c_depth, void *gm, uint64_t gm_bytes,
			      const char *file, uint32_t line, uint32_t col);
/* tpush: on the cube core, src's valid region to the vector cores (split 0: all of it
 * to vector core 0; 1: the upper rows to vector core 0, the lower to 1; 2: the left
 * columns to 0, the right to 1); on a vector core, its tile as its part of the tile
 * the cube pops. Waits for a free slot of every receiving core. tpop: the oldest
 * filled slot(s) into dst's valid region (whose shape must be the part's, or the two
 * parts joined on the cube), waiting for data. tfree releases the oldest popped
 * slot(s). The elements move by value, (r, c) to (r, c), through each tile's layout;
 * the two tiles' element types must have one width. The _at forms are what generated
 * code calls (the location names the op in a deadlock report). */
PTORT_API int ptort_tpush(ptort_ctx *ctx, const ptort_tile *src, uint32_t split);
PTORT_API int ptort_tpop(ptort_ctx *ctx, const ptort_tile *dst, uint32_t split);
PTORT_API int ptort_tpush_at(ptort_ctx *ctx, const ptort_tile *src, uint32_t split, const char *file,
			     uint32_t line, uint32_t col);
PTORT_API int ptort_tpop_at(ptort_ctx *ctx, const ptort_tile *dst, uint32_t split, const char *file,
			    uint32_t line, uint32_t col);
PTORT_API int ptort_tfree(ptort_ctx *ctx, uint32_t split, const char *file, uint32_t line,
			  uint32_t col);
/* Cross-core flags (sync.set / sync.wait) with the target's semantics: a5 0 (A2A3, FFTS
 * mode 2): ids 0-15; a set on the cube counts the flag up on both vector cores, a set
 * on a vector core counts its own flag on the cube, whose wait needs both; a5 1: ids
 * 0-31; the cube's set of id e reaches vector core e / 16 (flag e % 16), a vector
 * core's set of id e the cube's flag e. A wait blocks until its flag counts at least
 * one and takes one; a count past 15 is an error. */
PTORT_API int ptort_xsync_set(ptort_ctx *ctx, int a5, int64_t id, const char *file, uint32_t line,
			      uint32_t col);
PTORT_API int ptort_xsync_wait(ptort_ctx *ctx, int a5, int64_t id, const char *file,
			       uint32_t line, uint32_t col);
/* The wait of an A5 kernel, which stalls only `pipe` of the core (the intra-block wait;
 * PTORT_PIPE_S or PTORT_PIPE_ALL: the whole core, as ptort_xsync_wait): the core still
 * blocks at it, but for the cross-core race check only the accesses of that pipe after
 * it (and of the pipes ordered after that one by the core's own flags and barriers)
 * are ordered after the set it takes. */
PTORT_API int ptort_xsync_wait_on(ptort_ctx *ctx, int a5, ptort_pipe pipe, int64_t id,
				  const char *file, uint32_t line, uint32_t col);

#ifdef __cplusplus
}
#endif
#endif
