/* target_a2a3.c: the A2A3 target (Atlas A2/A3) as data: docs/semantics.md §3.2 (saturation),
 * §4 (tcvt pairs and round modes), §5 (memories, vector limits), §6 (cube).
 *
 * Saturation on A2A3: absent sat_mode means OFF for f16->ui8, f16->i8, f32->i16,
 * f16->i16, i64->i32, i32->i16 and ON otherwise; an explicit sat_mode is honoured
 * only for those six pairs, every other pair that can saturate is forced ON. */
#include "target/target_rows.h"

static const ptoc_cvt_rule a2a3_cvt[] = {
	RND(F32, F16, M5ODD, FORCED, ON),
	RND(F32, F32, M5, NA, ON), /* rounds to an integral f32 */
	RND(F32, BF16, M5, FORCED, ON),
	RND(F32, I16, M5, HON, OFF),
	RND(F32, I32, M5, FORCED, ON),
	RND(F32, I64, M5, FORCED, ON),

	EXACT(F16, F32),
	RND(F16, I32, M5, FORCED, ON),
	RND(F16, I16, M5, HON, OFF),
	RND(F16, I8, M5, HON, OFF),
	RND(F16, U8, M5, HON, OFF),
	RND(F16, I4, M5, FORCED, ON),

	EXACT(BF16, F32),
	RND(BF16, I32, M5, FORCED, ON),

	RND(I16, F16, M5, FORCED, ON),
	EXACT(I16, F32),

	RND(I32, F32, M5, NA, ON),
	SATONLY(I32, I16, HON, OFF),
	EXACT(I32, I64),
	DEQ(I32, F16, FORCED),

	RND(I64, F32, M5, NA, ON),
	SATONLY(I64, I32, HON, OFF),

	EXACT(U8, F16),

	EXACT(I8, F16),

	EXACT(I4, F16),
};

static const ptoc_mmad_types a2a3_mmad[] = {
	{PTORT_I8, PTORT_I8, PTORT_I32, 0},
	{PTORT_F16, PTORT_F16, PTORT_F32, 0},
	{PTORT_BF16, PTORT_BF16, PTORT_F32, 0},
	{PTORT_F32, PTORT_F32, PTORT_F32, 0},
};

static const char *const a2a3_aliases[] = {"a3", "a2", NULL};
/* tmov: mat to the cube's inputs, vec to vec, acc out through the fixpipe; the shape
 * never changes. */
static const ptoc_tmov_pair a2a3_tmov[] = {
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_RIGHT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_BIAS, 0},
	{PTOC_LOC_MAT, PTOC_LOC_SCALING, 0},
	{PTOC_LOC_VEC, PTOC_LOC_VEC, 0},
	{PTOC_LOC_ACC, PTOC_LOC_MAT, 0},
	{PTOC_LOC_ACC, PTOC_LOC_VEC, 0},
};

/* textract: out of mat into the cube's inputs (pto-isa's A2A3 TEXTRACT); i8, f16,
 * bf16, f32 */
static const ptoc_tmov_pair a2a3_extract[] = {
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, 0},
	{PTOC_LOC_MAT, PTOC_LOC_RIGHT, 0},
};

/* The pipe of each move (docs/semantics.md §8.7): MTE1 out of mat into the cube's
 * inputs, FIX out of acc and into the fixpipe buffer, V inside vec. */
static const struct target_move a2a3_moves[] = {
	{PTOC_LOC_MAT, PTOC_LOC_LEFT, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_RIGHT, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_BIAS, PTORT_PIPE_MTE1},
	{PTOC_LOC_MAT, PTOC_LOC_SCALING, PTORT_PIPE_FIX},
	{PTOC_LOC_VEC, PTOC_LOC_VEC, PTORT_PIPE_V},
	{PTOC_LOC_ACC, PTOC_LOC_MAT, PTORT_PIPE_FIX},
	{PTOC_LOC_ACC, PTOC_LOC_VEC, PTORT_PIPE_FIX},
};

/* The vector ops' element types: the A2A3 column of vec_types.def. */
static const uint32_t a2a3_vec[] = {
#define VT(id) (1u << PTORT_##id)
#define VEC_OP(name, kind, vop, a2a3, a5) a2a3,
#include "target/vec_types.def"
#undef VEC_OP
#undef VT
};

const struct target target_a2a3 = {
	.id = PTOC_TARGET_A2A3,
	.name = "a2a3",
	.title = "A2/A3",
	.aliases = a2a3_aliases,
	.cvt = a2a3_cvt,
	.ncvt = sizeof a2a3_cvt / sizeof a2a3_cvt[0],
	.mem = {
		[PTOC_LOC_VEC] = {"UB", KIB(192), 32, KIB(8)},
		[PTOC_LOC_MAT] = {"L1", KIB(512), 32, 0},
		[PTOC_LOC_LEFT] = {"L0A", KIB(64), 512, 0},
		[PTOC_LOC_RIGHT] = {"L0B", KIB(64), 512, 0},
		[PTOC_LOC_ACC] = {"L0C", KIB(128), 512, 0},
		[PTOC_LOC_BIAS] = {"bias table", KIB(1), 32, 0},
		[PTOC_LOC_SCALING] = {"fixpipe buffer", KIB(2), 32, 0},
	},
	.vec = {
		.repeat_bytes = 256,
		.block_bytes = 32,
		.repeat_max = 255,
		.block_stride_max = 255,
		.repeat_stride_max = 255,
		.predicated = 0,
	},
	.cube = {
		.mnk_min = 1,
		.mnk_max = 4095,
		.left = PTOC_LAYOUT_ZZ,
		.right = PTOC_LAYOUT_ZN,
		.acc = PTOC_LAYOUT_NZ,
		.left_fractal = 512,
		.right_fractal = 512,
		.acc_fractal = 1024,
		.mx_k_multiple = 0,
		.layouts_required = 0,
		.left_blayout_any = 0,
		.types = a2a3_mmad,
		.ntypes = sizeof a2a3_mmad / sizeof a2a3_mmad[0],
	},
	.tmov = a2a3_tmov,
	.ntmov = sizeof a2a3_tmov / sizeof a2a3_tmov[0],
	.extract = a2a3_extract,
	.nextract = sizeof a2a3_extract / sizeof a2a3_extract[0],
	.extract_types = 1u << PTORT_I8 | 1u << PTORT_F16 | 1u << PTORT_BF16 | 1u << PTORT_F32,
	.vec_types = a2a3_vec,
	.nvec = sizeof a2a3_vec / sizeof a2a3_vec[0],
	.vec_cmp_i32_eq_only = 1,
	/* vector core: S V MTE2 MTE3; cube core: S M MTE1 MTE2 MTE3 FIX; only S in order */
	.vector_pipes = 1u << PTORT_PIPE_S | 1u << PTORT_PIPE_V | 1u << PTORT_PIPE_MTE2 |
			1u << PTORT_PIPE_MTE3,
	.cube_pipes = 1u << PTORT_PIPE_S | 1u << PTORT_PIPE_M | 1u << PTORT_PIPE_MTE1 |
		      1u << PTORT_PIPE_MTE2 | 1u << PTORT_PIPE_MTE3 | 1u << PTORT_PIPE_FIX,
	.inorder_pipes = 1u << PTORT_PIPE_S,
	.barrier_pipes = 1u << PTORT_PIPE_V | 1u << PTORT_PIPE_M | 1u << PTORT_PIPE_MTE1 |
			 1u << PTORT_PIPE_MTE2 | 1u << PTORT_PIPE_MTE3 | 1u << PTORT_PIPE_FIX,
	.moves = a2a3_moves,
	.nmoves = sizeof a2a3_moves / sizeof a2a3_moves[0],
};
