/* legality.h: target descriptions and conversion legality for embedders (libptoc).
 *
 * What each Ascend target (A2A3, A5) accepts, as data: the tcvt pairs with their
 * round modes and saturation rules, the on-chip memories, the vector and cube
 * limits (docs/semantics.md §3.2, §4, §5, §6). The queries answer "may `from -> to` with
 * this round mode be compiled for this target, and how": natively, as a chain of
 * conversions whose steps before the last are exact (a decomposition), or not at all
 * (with a reason naming the target, the pair, the mode and what would be legal).
 *
 * The compiler's passes and the `ptoc legality` command use these same functions.
 * Nothing here allocates; strings come back through a caller buffer or callback. */
#ifndef PTOC_LEGALITY_H
#define PTOC_LEGALITY_H

#include <stddef.h>
#include <stdint.h>

#include "ptoc/ptoc.h" /* PTOC_API */
#include "ptort.h" /* ptort_type, ptort_rmode, PTORT_SAT_ON/OFF */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Targets ----------------------------------------------------------- */

typedef enum ptoc_target {
	PTOC_TARGET_A2A3, /* Atlas A2/A3 training and inference parts ("a2a3", "a3", "a2") */
	PTOC_TARGET_A5,   /* Ascend 950 ("a5") */
	PTOC_TARGET_COUNT
} ptoc_target;

/* "a2a3" or "a5". */
PTOC_API const char *ptoc_target_name(ptoc_target t);
/* The one spelling rule for a target's name, on the command line and in a module's
 * `pto.target_arch`: "a2a3", "a3", "a2" (A2A3) or "a5" (A5), in any case ("A5" too).
 * `s` need not be NUL-terminated. Returns 0 and sets *out, or -1 when unknown. */
PTOC_API int ptoc_target_parse(const char *s, size_t len, ptoc_target *out);
/* The names ptoc_target_parse accepts, "a2a3, a3, a2, a5", for messages, into buf
 * (cap bytes, truncated, NUL-terminated when cap > 0); returns the full length. */
PTOC_API size_t ptoc_target_spellings(char *buf, size_t cap);

/* ---- The tcvt table ---------------------------------------------------- */

/* Bit of a round mode in a mode set. */
#define PTOC_RMODE_BIT(m) (1u << (unsigned)(m))
/* "5" of docs/semantics.md §4: RINT ROUND FLOOR CEIL TRUNC, plus NONE (resolved to RINT). */
#define PTOC_RMODES_5                                                                   \
	(PTOC_RMODE_BIT(PTORT_RINT) | PTOC_RMODE_BIT(PTORT_ROUND) |                     \
	 PTOC_RMODE_BIT(PTORT_FLOOR) | PTOC_RMODE_BIT(PTORT_CEIL) |                     \
	 PTOC_RMODE_BIT(PTORT_TRUNC) | PTOC_RMODE_BIT(PTORT_NONE))
#define PTOC_RMODES_ANY ((1u << PTORT_RMODE_COUNT) - 1u)

/* How a pair converts. */
typedef enum ptoc_cvt_kind {
	PTOC_CVT_ROUNDING, /* rounds with the round mode (the modes of `modes`) */
	PTOC_CVT_EXACT,    /* every value converts exactly: any mode, no effect */
	PTOC_CVT_SAT_ONLY, /* integer narrowing: any mode, no rounding, saturation only */
	PTOC_CVT_DEQ       /* A2A3 i32 -> f16 deq path: any mode, RINT applied */
} ptoc_cvt_kind;

/* What an explicit `sat_mode` does for a pair. */
typedef enum ptoc_sat_rule {
	PTOC_SAT_NA,       /* saturation cannot matter (f32 destination, exact pairs) */
	PTOC_SAT_HONOURED, /* an explicit ON or OFF is used */
	PTOC_SAT_FORCED_ON /* saturation is always ON; an explicit OFF is overridden */
} ptoc_sat_rule;

/* One legal (native) pair of a target. */
typedef struct ptoc_cvt_rule {
	ptort_type from, to;
	unsigned modes;     /* accepted round modes, PTOC_RMODE_BIT set */
	ptoc_cvt_kind kind;
	ptoc_sat_rule sat;
	int sat_default;    /* PTORT_SAT_ON / PTORT_SAT_OFF when sat_mode is absent */
} ptoc_cvt_rule;

/* The native pairs of a target, in the order of docs/semantics.md §4 (by source, then
 * destination as listed there). Borrowed, static. */
PTOC_API size_t ptoc_target_cvt_count(ptoc_target t);
PTOC_API const ptoc_cvt_rule *ptoc_target_cvt_get(ptoc_target t, size_t i);
/* The native rule of `from -> to`, or NULL. */
PTOC_API const ptoc_cvt_rule *ptoc_target_cvt_find(ptoc_target t, ptort_type from, ptort_type to);

/* ---- Conversion queries ------------------------------------------------ */

/* The `sat_mode` the user wrote. */
typedef enum ptoc_sat_request {
	PTOC_SAT_ABSENT,
	PTOC_SAT_REQ_ON,
	PTOC_SAT_REQ_OFF
} ptoc_sat_request;

typedef enum ptoc_cvt_verdict {
	PTOC_CVT_NATIVE,     /* one instruction */
	PTOC_CVT_DECOMPOSED, /* a chain: every step but the last exact */
	PTOC_CVT_ILLEGAL
} ptoc_cvt_verdict;

/* Longest chain (in steps) the decomposition search considers. */
#define PTOC_CVT_MAX_STEPS 8

/* Result flags. */
#define PTOC_CVT_F_DEQ 0x01u           /* the last step is A2A3's deq path (RINT, sat ON) */
#define PTOC_CVT_F_RMODE_IGNORED 0x02u /* deq path: the requested mode (not RINT/NONE) is
				          ignored; a warning */
#define PTOC_CVT_F_SAT_OVERRIDDEN 0x04u /* an explicit OFF was forced ON; a warning */
#define PTOC_CVT_F_EXACT 0x08u         /* the pair is exact for every value (proved with
				          ptort_cvt_is_exact): the mode has no effect */
#define PTOC_CVT_F_NO_SAT 0x10u        /* saturation cannot matter for the pair */
#define PTOC_CVT_F_BAD_MODE 0x20u      /* illegal only because of the round mode */

typedef struct ptoc_cvt_result {
	ptoc_cvt_verdict verdict;
	ptoc_target target;
	ptort_type from, to;     /* as asked */
	ptort_rmode requested;   /* as asked */
	ptoc_sat_request sat_requested;
	unsigned flags;          /* PTOC_CVT_F_* */
	/* The chain: chain[0] = from, ..., chain[nsteps] = to. nsteps is 1 for a native
	 * pair, >= 2 for a decomposition; for an illegal verdict it is the chain whose mode
	 * was refused (PTOC_CVT_F_BAD_MODE) or 0 when no chain exists. Steps before the
	 * last convert with PTORT_RINT and PTORT_SAT_OFF: they are exact, and saturation
	 * OFF keeps NaN and inf (ON would turn them into 0 and max). */
	unsigned nsteps;
	ptort_type chain[PTOC_CVT_MAX_STEPS + 1];
	/* For the last step (legal verdicts): the mode and saturation to execute with,
	 * ready for the runtime (ptort_cvt_*): NONE resolved to RINT, RINT for exact,
	 * saturation-only and deq steps; sat as PTORT_SAT_ON / PTORT_SAT_OFF (OFF for
	 * an exact pair, which keeps NaN and inf). */
	ptort_rmode rmode;
	int sat;
	/* The round modes this pair accepts on this target (PTOC_RMODE_BIT set): the
	 * last step's, every mode when the pair is exact, never HYBRID through a chain
	 * (it rounds by its own input's representation). And what an explicit sat_mode
	 * does for the pair (the last step's rule; PTOC_SAT_NA when the pair is exact;
	 * PTOC_SAT_FORCED_ON for a signed integer to a wider unsigned one). Set whenever
	 * a chain exists, also for a PTOC_CVT_F_BAD_MODE verdict. */
	unsigned modes;
	ptoc_sat_rule sat_rule;
	const ptoc_cvt_rule *last; /* the last step's rule; NULL when illegal w/o chain */
} ptoc_cvt_result;

/* Decides `from -> to` with round mode `rm` and sat request `sat` on target `t`.
 * Always fills *out; returns out->verdict. Never fails otherwise. */
PTOC_API ptoc_cvt_verdict ptoc_cvt_query(ptoc_target t, ptort_type from, ptort_type to, ptort_rmode rm,
				ptoc_sat_request sat, ptoc_cvt_result *out);

/* The reason of an illegal verdict, NUL-terminated into buf (cap bytes, truncated
 * when short; buf may be NULL when cap is 0). Returns the full length (without the
 * NUL), like snprintf. Empty for legal verdicts. Examples:
 *   "f16 -> f8E4M3FN is not supported on a2a3; legal destinations of f16: f32, i32,
 *    i16, i8, ui8, i4"
 *   "f32 -> bf16 with round mode ODD is not supported on a2a3; legal modes of
 *    f32 -> bf16: RINT, ROUND, FLOOR, CEIL, TRUNC, NONE" */
PTOC_API size_t ptoc_cvt_reason(const ptoc_cvt_result *r, char *buf, size_t cap);

/* The chain as text, "f16 -> f32 -> bf16" (same buffer contract). */
PTOC_API size_t ptoc_cvt_chain_str(const ptoc_cvt_result *r, char *buf, size_t cap);

/* Receives one complete message (not NUL-terminated necessarily: use len). */
typedef void (*ptoc_msg_fn)(void *user, const char *msg, size_t len);
/* Calls fn once per warning of a legal verdict (requested mode ignored by the deq
 * path; explicit saturation OFF overridden). Returns the number of warnings. */
PTOC_API unsigned ptoc_cvt_warnings(const ptoc_cvt_result *r, ptoc_msg_fn fn, void *user);

/* The one-line verdict `ptoc legality --rmode` prints for `from -> to` with `rm` and
 * `sat` on `t` (decided as ptoc_cvt_query), without a newline: "native",
 * "decomposed via f32: f16 -> f32 -> bf16" (every type between the ends, then the
 * chain) or "illegal: " and the reason of ptoc_cvt_reason. Same buffer contract as
 * ptoc_cvt_reason (returns the full length). */
PTOC_API size_t ptoc_cvt_verdict_str(ptoc_target t, ptort_type from, ptort_type to, ptort_rmode rm,
			    ptoc_sat_request sat, char *buf, size_t cap);

/* ---- Converting arrays ------------------------------------------------- */

/* Converts `n` contiguous elements of type `from` at `src` to `to` at `dst`, in
 * ptort_cvt_run's layout (little-endian elements, 4-bit types packed two per byte,
 * element 2k in the low nibble), as `ptoc cvt` converts one value, through the
 * runtime's fast paths:
 *   target NULL: the generic semantics with round mode `rm` and saturation `sat`
 *     (PTORT_SAT_ON, PTORT_SAT_OFF, or -1 for the pair's default,
 *     ptort_cvt_default_sat); an undefined pair or mode is an error;
 *   target given: that target's decision (ptoc_cvt_query; `sat` -1 is no request):
 *     an illegal pair or mode is an error; saturation as the target executes it; a
 *     decomposition runs its chain (RINT and saturation OFF before the last step); the
 *     A2A3 deq path converts with scale 1.0. Each warning of the verdict (round mode
 *     ignored, saturation OFF overridden) goes to `warn` (may be NULL).
 * n may be 0 (only the checks). src and dst must not overlap. Returns 0, or -1 with
 * the reason in err (errcap bytes, truncated, NUL-terminated when errcap > 0; the
 * texts of `ptoc cvt`'s errors, e.g. "no conversion from f32 to f8E8M0FNU") with
 * nothing written to dst. */
PTOC_API int ptoc_cvt_array(const ptoc_target *target, ptort_type from, ptort_type to, ptort_rmode rm,
		   int sat, const void *src, void *dst, size_t n, ptoc_msg_fn warn, void *user,
		   char *err, size_t errcap);

/* ---- On-chip memories and limits --------------------------------------- */

/* The on-chip memories, once: X(ID, spelling). The spelling is the `loc=` of a
 * tile_buf; the IR's address spaces (ir_mem) are this list after an "unspecified". */
#define PTOC_LOC_LIST(X)                                                                 \
	X(VEC, "vec")         /* UB */                                                     \
	X(MAT, "mat")         /* L1 */                                                     \
	X(LEFT, "left")       /* L0A */                                                    \
	X(RIGHT, "right")     /* L0B */                                                    \
	X(ACC, "acc")         /* L0C */                                                    \
	X(BIAS, "bias")       /* bias table */                                             \
	X(SCALING, "scaling") /* fixpipe buffer */

typedef enum ptoc_loc {
#define PTOC_LOC_ID_(id, name) PTOC_LOC_##id,
	PTOC_LOC_LIST(PTOC_LOC_ID_)
#undef PTOC_LOC_ID_
	PTOC_LOC_COUNT
} ptoc_loc;

/* "vec", "mat", "left", "right", "acc", "bias", "scaling". */
PTOC_API const char *ptoc_loc_name(ptoc_loc l);
PTOC_API int ptoc_loc_parse(const char *s, size_t len, ptoc_loc *out);

typedef struct ptoc_mem_info {
	const char *memory;    /* "UB", "L1", ... */
	uint32_t capacity;     /* bytes */
	uint32_t align;        /* alignment of a tile's address, bytes */
	uint32_t reserved_top; /* bytes at the top kept for compiler scratch (never
				  used by automatic placement) */
} ptoc_mem_info;

PTOC_API const ptoc_mem_info *ptoc_target_mem(ptoc_target t, ptoc_loc l);

typedef struct ptoc_vec_limits {
	uint32_t repeat_bytes;      /* bytes per repeat / vector register: 256 */
	uint32_t block_bytes;       /* 32; strides count in blocks */
	uint32_t repeat_max;        /* largest repeat count; 0 = none of the target's own
				       (the repeat form's 8-bit field, 255, applies) */
	uint32_t block_stride_max;  /* 0 = no limit */
	uint32_t repeat_stride_max; /* 0 = none of the target's own (255, as repeat_max) */
	int predicated;             /* 1: element-count predicates (A5); 0: lane masks */
} ptoc_vec_limits;

PTOC_API const ptoc_vec_limits *ptoc_target_vec(ptoc_target t);

/* A tmov the target can do: from memory `src` to `dst`, and whether the shapes may
 * differ (a sub-tile move; else source and destination have the same shape). */
typedef struct ptoc_tmov_pair {
	ptoc_loc src, dst;
	int reshape;
} ptoc_tmov_pair;

/* The tmov memory pairs of a target (docs/semantics.md §6.2). Borrowed, static. */
PTOC_API size_t ptoc_target_tmov_count(ptoc_target t);
PTOC_API const ptoc_tmov_pair *ptoc_target_tmov_get(ptoc_target t, size_t i);

/* Tile layouts of docs/semantics.md §6.1 (blayout/slayout). */
typedef enum ptoc_layout {
	PTOC_LAYOUT_ND, PTOC_LAYOUT_DN, PTOC_LAYOUT_ZZ,
	PTOC_LAYOUT_NZ, PTOC_LAYOUT_ZN, PTOC_LAYOUT_NN
} ptoc_layout;
PTOC_API const char *ptoc_layout_name(ptoc_layout l); /* "ND", "DN", "Zz", "Nz", "Zn", "Nn" */

/* An mmad operand type triple (A x B -> C); `mx`: the MX form with e8m0 scales. */
typedef struct ptoc_mmad_types {
	ptort_type a, b, c;
	int mx;
} ptoc_mmad_types;

typedef struct ptoc_cube_limits {
	uint32_t mnk_min, mnk_max;   /* m, k, n in [1, 4095] */
	ptoc_layout left, right, acc; /* required layouts of A, B, C */
	uint32_t left_fractal, right_fractal, acc_fractal; /* fractal bytes */
	uint32_t mx_k_multiple;      /* K multiple for MX (0: no MX) */
	int layouts_required;        /* tmatmul operands must be in left/right/acc layouts */
	int left_blayout_any;        /* ... except A's blayout (PTOAS rewrites it on A5) */
	const ptoc_mmad_types *types;
	size_t ntypes;
} ptoc_cube_limits;

PTOC_API const ptoc_cube_limits *ptoc_target_cube(ptoc_target t);

#ifdef __cplusplus
}
#endif
#endif
