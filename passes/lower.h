/* lower.h: what the level-3 lowering passes share (docs/lowered.md).
 *
 * split-repeats (split_repeats.c) lowers the vector and DMA tile ops and calls
 * lower_cube_op (lower_cube.c) for tmov, the tmatmul family and transfers of tiles
 * outside vec/mat. Both find a tile's descriptor and address with lower_tile_of and
 * build pto.i.* instructions with the builder below (lower.c), which checks what it
 * builds against the instruction table (ir/insns.def).
 *
 * vc_split is the pure splitting of a tile conversion into instructions of the
 * target's vector unit; the pass and the unit test (test/unit/lower) both use it. */
#ifndef PTOC_PASSES_LOWER_H
#define PTOC_PASSES_LOWER_H

#include "passes/pass.h"

/* ---- lower.c: tiles ------------------------------------------------------------ */

/* A tile operand resolved to its alloc_tile / tassign. */
typedef struct lower_tile {
	const ir_type *type;  /* the !pto.tile_buf */
	int64_t addr;         /* byte address when addr_v is NULL */
	ir_value *addr_v;     /* the address as an SSA value when not a constant */
	ir_value *v_row, *v_col; /* the valid_row / valid_col values of a `?` dim (of the
				  * last pto.set_validshape before the user, if any) */
} lower_tile;

/* Resolves tile value `v` used by `user`. Reports an error at the user and returns -1
 * when the tile has no address (place-tiles did not run) or is not an alloc_tile /
 * tassign result. */
int lower_tile_of(ir_ctx *ctx, const ir_op *user, ir_value *v, lower_tile *out);
/* lower_tile_of of `op`'s operand #i; reports a missing operand and returns -1. */
int lower_tile_at(ir_ctx *ctx, const ir_op *op, unsigned i, lower_tile *out);
/* Reports `op` and returns 1 when it still has results (tile SSA form, level 1). */
int lower_refuse_level1(ir_ctx *ctx, const ir_op *op);

/* Whether `v` is a !pto.tile_buf carried by structured control flow: an scf.for /
 * scf.if result or an scf.for iteration argument. lower_tile_of resolves it to a tile
 * whose address is `v` itself. */
int lower_is_scf_tile(const ir_value *v);

/* After every tile op is lowered: the tile_buf values entering scf slots (scf.for
 * inits, scf.yield operands) become their i64 addresses and the slots (results,
 * iteration arguments) i64, so a carried tile is its address in the generated C.
 * Returns the number of errors reported (a dynamic valid shape in a slot). */
unsigned lower_scf_tiles(ir_ctx *ctx, ir_op *module);

/* ---- lower.c: building an instruction ---------------------------------------------- */

#define LI_MAX_ATTRS 40
#define LI_MAX_DYN 12

typedef struct lower_insn {
	const ir_insndef *def;  /* the instruction (insns.def) */
	int overflow;           /* more fields than the arrays hold */
	ir_named_attr attrs[LI_MAX_ATTRS];
	unsigned nattrs;
	ir_value *ops[LI_MAX_DYN + 1];
	unsigned nops;          /* fixed operands first (li_operand), then the dyn ones */
	const ir_attr *dyn[LI_MAX_DYN];
	unsigned ndyn;
	const ir_type *result;  /* the result's type (pto.i.getval), else NULL */
} lower_insn;

/* Starts instruction `code` (an IR_OP_I_* of insns.def). */
void li_init(lower_insn *li, ir_opcode code);
void li_attr(ir_ctx *ctx, lower_insn *li, const char *name, const ir_attr *a);
void li_int(ir_ctx *ctx, lower_insn *li, const char *name, int64_t v);
void li_operand(lower_insn *li, ir_value *v);      /* a fixed operand (the DMA view) */
void li_dyn(ir_ctx *ctx, lower_insn *li, const char *name, ir_value *v);
/* An integer operand: li_int of its constant, else li_dyn of the value. */
void li_int_or_dyn(ir_ctx *ctx, lower_insn *li, const char *name, ir_value *v);
/* `NAME = <tile_buf>`, `NAME_addr`, and NAME_v_row / NAME_v_col for `?` dims. */
void li_tile(ir_ctx *ctx, lower_insn *li, const char *name, const lower_tile *t);
/* Address field `name` = t's base + off: an attribute, or a dyn operand (an
 * arith.addi inserted before `before` when the base is dynamic and off != 0). */
void li_addr(ir_ctx *ctx, lower_insn *li, const char *name, const lower_tile *t, uint32_t off,
	     ir_op *before);
/* `mem = #pto.address_space<vec>` */
void li_mem(ir_ctx *ctx, lower_insn *li, ir_mem m);
/* Creates the instruction with the collected fields and inserts it before `before`.
 * Every field must be one of the instruction's and every required one present
 * (insns.def); otherwise an internal error is reported at `before` and NULL returned. */
ir_op *li_emit(ir_ctx *ctx, lower_insn *li, ir_op *before);

/* ---- insn_fp.c -------------------------------------------------------------------- */

/* Inserts `pto.barrier <PIPE>` before each instruction among first .. stop (exclusive;
 * one tile op's lowering) that reads or writes bytes an earlier one of its pipe since
 * that pipe's last barrier wrote, or writes bytes it read, when the pipe does not
 * execute in program order on t and its pipe_barrier orders it (on A2A3 every pipe
 * but S, on A5 MTE2 and MTE3). Returns the number inserted. */
unsigned lower_pipe_barriers(ir_ctx *ctx, const struct target *t, ir_op *first, ir_op *stop);

/* ---- lower_vec.c ------------------------------------------------------------------- */

/* Lowers vector op `op` (ir_vecdef_get) or pto.set_validshape to instructions inserted
 * before it, WITHOUT erasing it. Returns the number of errors reported. */
unsigned lower_vec_op(ir_ctx *ctx, ir_op *op, const pass_opts *o);

/* Whether lowering `op` on target `t` may use the UB scratch (the reserved top of UB:
 * the repeat form's trowexpand*, A5's trowprod and tcolprod, taddc/tsubc/taddsc/tsubsc,
 * taxpy). place-tiles reserves the scratch in a function only when one of its ops
 * does (docs/placement.md). */
int lower_vec_uses_ub_scratch(const ir_op *op, const struct target *t);

/* ---- lower_scalar.c ----------------------------------------------------------------- */

/* The run-time scalar `s` of tile-scalar op `op` as the bits of element type `et`
 * (docs/semantics.md §7.3: as a tcvt with RINT, saturation off): `s` itself when its
 * bits are those (the same type; an integer to one no wider), else the result of a
 * pto.i.scvt inserted before `op`. NULL after a located error (a type without a
 * conversion: i1, f64, ...). */
ir_value *lower_rt_scalar(ir_ctx *ctx, ir_op *op, ir_value *s, ptort_type et);

/* ---- lower_cube.c ------------------------------------------------------------------ */

/* The cube-side hook (lower_cube.c): lowers `op` (tmov, tmatmul*, tload/tstore of a
 * tile outside vec/mat) to instructions inserted before it, WITHOUT erasing it.
 * Returns the number of errors reported. */
unsigned lower_cube_op(ir_ctx *ctx, ir_op *op, const pass_opts *o);

/* ---- lower_fixpipe.c ---------------------------------------------------------------- */

/* Whether tmov or tstore `op` (level 2) takes the fixpipe's stages (docs/semantics.md
 * §6.2b): a pre-quant operand, accToVecMode other than vec0, reluPreMode normal_relu,
 * atomic_add, or an acc i32 -> f16 store; lower_fixpipe lowers it as lower_cube_op
 * does (pto.i.tmovq, pto.i.dma_store_q). */
int lower_fixpipe_wants(const ir_op *op);
unsigned lower_fixpipe(ir_ctx *ctx, ir_op *op);

/* ---- lower_irregular.c ------------------------------------------------------------- */

/* Lowers tsort32, tmrgsort, thistogram, tconcat, tquant, tdequant, textract_fp and
 * tinsert_fp (called by lower_cube_op) like lower_cube_op does, and hands any other op
 * (trandom, tpack) to lower_gen_op after refusing the tile SSA form. */
unsigned lower_irregular_op(ir_ctx *ctx, ir_op *op);

/* ---- lower_gen.c -------------------------------------------------------------------- */

/* Lowers tgather's compare form, trandom and tpack, of the tile buffer form (level 2;
 * called by lower_cube_op and lower_irregular_op, which refuse level 1 first). */
unsigned lower_gen_op(ir_ctx *ctx, ir_op *op);

/* ---- mixed.c: mixed cube/vector kernels (docs/semantics.md §8.9) ------------------ */
/* Run by `inline` before it inlines: calls of cube / vector functions into sections of
 * their kind, the FIFO depths of each pipe init as attributes c2v_depth / v2c_depth,
 * each tpop_from_aic / _aiv result an alloc_tile before the pop. Returns the errors. */
unsigned mixed_prepare(ir_ctx *ctx, ir_op *module);
/* split-repeats: a tpush (any form) to pto.i.tpush of its tile, a tpop to pto.i.tpop of
 * the tile it writes, inserted before `op`, WITHOUT erasing it. Returns the errors. */
unsigned lower_mixed_op(ir_ctx *ctx, ir_op *op);

/* ---- vc_split.c: the splitting of a vector conversion -------------------------------- */

/* A conversion of the v_row x v_col region of row-major tiles; addresses are byte
 * offsets from each tile's base. */
typedef struct vc_geom {
	ptort_type from, to;
	uint32_t src_cols, dst_cols; /* physical columns (the row pitch in elements) */
	uint32_t v_row, v_col;       /* the destination's valid region, both >= 1 */
} vc_geom;

enum { VC_REPEAT, VC_V, VC_V2D };

/* One instruction: VC_REPEAT = ptort_vconv / ptort_vconv_deq, VC_V = ptort_vconv_v,
 * VC_V2D = ptort_vconv_v2d. dst/src are byte offsets from the tile bases. */
typedef struct vc_insn {
	int kind;
	uint32_t dst, src;
	uint32_t repeat;
	uint32_t dst_blk, src_blk, dst_rep, src_rep;
	uint64_t mask_hi, mask_lo;
	uint32_t count;                         /* VC_V */
	uint32_t rows, cols, dst_pitch, src_pitch; /* VC_V2D */
} vc_insn;

typedef int (*vc_emit_fn)(void *user, const vc_insn *in);

/* The most repeats, and the largest repeat stride (in 32-byte units), one repeat-form
 * instruction takes: the target's limit, or, where the target gives none (0), the
 * instruction's own 8-bit fields, 255 (docs/semantics.md §5.1; the verifier holds every
 * pto.i.* repeat to [1, 255] and stride to [0, 255]). **[decision]** 0 never means
 * unbounded here: vc_split and the vector ops read these two, nothing else. */
static inline uint32_t vec_repeat_max(const ptoc_vec_limits *l)
{
	return l->repeat_max ? l->repeat_max : 255;
}

static inline uint32_t vec_repeat_stride_max(const ptoc_vec_limits *l)
{
	return l->repeat_stride_max ? l->repeat_stride_max : 255;
}

/* The bytes of n elements of `bits` bits. */
static inline uint32_t vc_nbytes(uint32_t n, uint32_t bits)
{
	return (uint32_t)((uint64_t)n * bits / 8);
}

enum {
	VC_OK = 0,
	VC_ERR_NARROW,   /* repeat form: both types 8 bits or narrower */
	VC_ERR_STRIDE,   /* repeat form: an operand's repeat is not a whole number of blocks */
	VC_ERR_EMIT      /* the callback returned non-zero */
};

/* Splits the conversion into instructions of a unit with limits `lim` (predicated:
 * A5 register form; else the A2A3 repeat form), calling `emit` for each in order.
 * Returns VC_OK or a VC_ERR_* code. */
int vc_split(const ptoc_vec_limits *lim, const vc_geom *g, vc_emit_fn emit, void *user);

#endif
