/* target_a5.c: the A5 target (Ascend 950) as data: docs/semantics.md §3.2 (saturation),
 * §4 (tcvt pairs and round modes), §5 (memories, vector limits), §6 (cube).
 *
 * Saturation on A5: absent sat_mode means OFF for f16->ui8, f16->i8, f32->i16,
 * f16->i16, i64->i32, i32->i16 and ON otherwise; an explicit sat_mode is honoured
 * for every pair that has one. i16->ui32 has saturation only (negatives -> 0), so
 * it is forced ON; fp4 destinations have no sat mode (always +-max). */
#include "target/target_rows.h"

static const ptoc_cvt_rule a5_cvt[] = {
	RND(F32, F32, M5, NA, ON), /* rounds to an integral f32 */
	RND(F32, F16, M5ODD, HON, ON),
	RND(F32, BF16, M5, HON, ON),
	RND(F32, I16, M5, HON, OFF),
	RND(F32, I32, M5, HON, ON),
	RND(F32, I64, M5, HON, ON),
	RND(F32, F8E4M3FN, MRINT, HON, ON),
	RND(F32, F8E5M2, MRINT, HON, ON),
	RND(F32, HIF8, MHIF8, HON, ON),

	EXACT(F16, F32),
	RND(F16, I32, M5, HON, ON),
	RND(F16, I16, M5, HON, OFF),
	RND(F16, I8, M5, HON, OFF),
	RND(F16, U8, M5, HON, OFF),
	RND(F16, HIF8, MHIF8, HON, ON),

	EXACT(BF16, F32),
	RND(BF16, I32, M5, HON, ON),
	RND(BF16, F16, M5, HON, ON),
	RND(BF16, F4E1M2, M5, NA, ON),
	RND(BF16, F4E2M1FN, M5, NA, ON),

	SATONLY(I16, U8, HON, ON),
	RND(I16, F16, M5, HON, ON),
	EXACT(I16, F32),
	SATONLY(I16, U32, FORCED, ON),
	EXACT(I16, I32),

	RND(I32, F32, M5, NA, ON),
	SATONLY(I32, I16, HON, OFF),
	SATONLY(I32, U16, HON, ON),
	EXACT(I32, I64),
	SATONLY(I32, U8, HON, ON),

	RND(I64, F32, M5, NA, ON),
	SATONLY(I64, I32, HON, OFF),

	EXACT(U8, F16),
	EXACT(U8, U16),

	EXACT(I8, F16),
	EXACT(I8, I16),
	EXACT(I8, I32),

	SATONLY(U32, U8, HON, ON),
	SATONLY(U32, U16, HON, ON),
	SATONLY(U32, I16, HON, ON),

	EXACT(F8E4M3FN, F32),
	EXACT(F8E5M2, F32),
	EXACT(HIF8, F32),

	EXACT(F4E1M2, BF16),
	EXACT(F4E2M1FN, BF16),
};

static const ptoc_mmad_types a5_mmad[] = {
	{PTORT_I8, PTORT_I8, PTORT_I32, 0},
	{PTORT_F16, PTORT_F16, PTORT_F32, 0},
	{PTORT_BF16, PTORT_BF16, PTORT_F32, 0},
	{PTORT_F32, PTORT_F32, PTORT_F32, 0},
	{PTORT_F8E4M3FN, PTORT_F8E4M3FN, PTORT_F32, 0},
	{PTORT_F8E4M3FN, PTORT_F8E5M2, PTORT_F32, 0},
	{PTORT_F8E5M2, PTORT_F8E4M3FN, PTORT_F32, 0},
	{PTORT_F8E5M2, PTORT_F8E5M2, PTORT_F32, 0},
	{PTORT_HIF8, PTORT_HIF8, PTORT_F32, 0},
	{PTORT_F8E4M3FN, PTORT_F8E4M3FN, PTORT_F32, 1},
	{PTORT_F8E4M3FN, PTORT_F8E5M2, PTORT_F32, 1},
	{PTORT_F8E5M2, PTORT_F8E4M3FN, PTORT_F32, 1},
	{PTORT_F8E5M2, PTORT_F8E5M2, PTORT_F32, 1},
	{PTORT_F4E2M1FN, PTORT_F4E2M1FN, PTORT_F32, 1},
	{PTORT_F4E2M1FN, PTORT_F4E1M2, PTORT_F32, 1},
	{PTORT_F4E1M2, PTORT_F4E2M1FN, PTORT_F32, 1},
	{PTORT_F4E1M2, PTORT_F4E1M2, PTORT_F32, 1},
};

/* tmov: as A2A3, plus mat to mat and vec to mat; moves out of vec and acc may take a
 * sub-tile (the shapes may differ), moves out of mat may not. */
static const ptoc_tmov_pair a5_tmov[] = {
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_RIGHT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_BIAS, 0},
	{PTOC_LOC_MAT, PTOC_LOC_SCALING, 0},
	{PTOC_LOC_MAT, PTOC_LOC_MAT, 0},
	{PTOC_LOC_VEC, PTOC_LOC_VEC, 1},
	{PTOC_LOC_VEC, PTOC_LOC_MAT, 1},
	{PTOC_LOC_ACC, PTOC_LOC_MAT, 1},
	{PTOC_LOC_ACC, PTOC_LOC_VEC, 1},
};

/* textract: mat into left, right and scaling, acc and vec into mat, vec into vec
 * between ND tiles (pto-isa's A5 TEXTRACT; the ND rule is PTOAS's, ir/verify.c); its
 * element types below */
static const ptoc_tmov_pair a5_extract[] = {
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_RIGHT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_SCALING, 0},
	{PTOC_LOC_ACC, PTOC_LOC_MAT, 0},
	{PTOC_LOC_VEC, PTOC_LOC_MAT, 0},
	{PTOC_LOC_VEC, PTOC_LOC_VEC, 0},
};

/* The pipe of each move (docs/semantics.md §8.7): as A2A3, but MTE1 into the
 * scaling buffer (the MX scales) and inside mat, FIX from vec into mat. */
static const struct target_move a5_moves[] = {
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_RIGHT, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_BIAS, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_SCALING, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_MAT, PTORT_PIPE_MTE1},
	{PTOC_LOC_VEC, PTOC_LOC_VEC, PTORT_PIPE_V},
	{PTOC_LOC_VEC, PTOC_LOC_MAT, PTORT_PIPE_FIX},
	{PTOC_LOC_ACC, PTOC_LOC_MAT, PTORT_PIPE_FIX},
	{PTOC_LOC_ACC, PTOC_LOC_VEC, PTORT_PIPE_FIX},
};

/* The vector ops' element types: the A5 column of vec_types.def. */
static const uint32_t a5_vec[] = {
#define VT(id) (1u << PTORT_##id)
#define VEC_OP(name, kind, vop, a2a3, a5) a5,
#include "target/vec_types.def"
#undef VEC_OP
#undef VT
};

const struct target target_a5 = {
	.id = PTOC_TARGET_A5,
	.name = "a5",
	.title = "A5",
	.cvt = a5_cvt,
	.ncvt = sizeof a5_cvt / sizeof a5_cvt[0],
	.mem = {
		[PTOC_LOC_VEC] = {"UB", KIB(256), 32, KIB(8)},
		[PTOC_LOC_MAT] = {"L1", KIB(512), 32, 0},
		[PTOC_LOC_LEFT] = {"L0A", KIB(64), 512, 0},
		[PTOC_LOC_RIGHT] = {"L0B", KIB(64), 512, 0},
		[PTOC_LOC_ACC] = {"L0C", KIB(256), 512, 0},
		[PTOC_LOC_BIAS] = {"bias table", KIB(4), 32, 0},
		/* also the MX scale tiles: L0A's and L0B's scale buffers, 4 KiB each, in the
		 * one loc=scaling PTOAS has (docs/semantics.md §5 [decision]) */
		[PTOC_LOC_SCALING] = {"fixpipe buffer", KIB(8), 32, 0},
	},
	.vec = {
		.repeat_bytes = 256,
		.block_bytes = 32,
		.repeat_max = 0,
		.block_stride_max = 0,
		.repeat_stride_max = 0,
		.predicated = 1,
	},
	.cube = {
		.mnk_min = 1,
		.mnk_max = 4095,
		.left = PTOC_LAYOUT_NZ,
		.right = PTOC_LAYOUT_ZN,
		.acc = PTOC_LAYOUT_NZ,
		.left_fractal = 512,
		.right_fractal = 512,
		.acc_fractal = 1024,
		.mx_k_multiple = 64,
		.layouts_required = 1,
		.left_blayout_any = 1,
		.types = a5_mmad,
		.ntypes = sizeof a5_mmad / sizeof a5_mmad[0],
	},
	.tmov = a5_tmov,
	.ntmov = sizeof a5_tmov / sizeof a5_tmov[0],
	.extract = a5_extract,
	.nextract = sizeof a5_extract / sizeof a5_extract[0],
	.extract_types = 1u << PTORT_I8 | 1u << PTORT_HIF8 | 1u << PTORT_F8E5M2 |
			 1u << PTORT_F8E4M3FN | 1u << PTORT_F16 | 1u << PTORT_BF16 | 1u << PTORT_F32 |
			 1u << PTORT_F4E2M1FN | 1u << PTORT_F4E1M2 | 1u << PTORT_F8E8M0FNU,
	.vec_types = a5_vec,
	.nvec = sizeof a5_vec / sizeof a5_vec[0],
	.vec_cmp_i32_eq_only = 0,
	/* vector core: S V MTE2 MTE3; cube core: S M MTE1 MTE2 FIX (no MTE3); S, V, M,
	 * MTE1 and FIX in order, so only the MTE2 and MTE3 barriers order anything */
	.vector_pipes = 1u << PTORT_PIPE_S | 1u << PTORT_PIPE_V | 1u << PTORT_PIPE_MTE2 |
			1u << PTORT_PIPE_MTE3,
	.cube_pipes = 1u << PTORT_PIPE_S | 1u << PTORT_PIPE_M | 1u << PTORT_PIPE_MTE1 |
		      1u << PTORT_PIPE_MTE2 | 1u << PTORT_PIPE_FIX,
	.inorder_pipes = 1u << PTORT_PIPE_S | 1u << PTORT_PIPE_V | 1u << PTORT_PIPE_M |
			 1u << PTORT_PIPE_MTE1 | 1u << PTORT_PIPE_FIX,
	.barrier_pipes = 1u << PTORT_PIPE_MTE2 | 1u << PTORT_PIPE_MTE3,
	.moves = a5_moves,
	.nmoves = sizeof a5_moves / sizeof a5_moves[0],
};
