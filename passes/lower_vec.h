/* lower_vec.h: what the vector ops' lowering files share, bottom-up (each calls only
 * the ones before it): lower_vec_insn.c (errors, scalars, one instruction, the repeat
 * form's splitting, the UB scratch), lower_vec_red.c (reductions, row helpers, tpart,
 * tfillpad), lower_vec_steps.c (conversions inside an op, trowprod, the two-step ops,
 * tci, ttri), lower_vec.c (the elementwise ops and lower_vec_op). */
#ifndef PTOC_PASSES_LOWER_VEC_H
#define PTOC_PASSES_LOWER_VEC_H

#include "passes/lower.h"

typedef struct vl {
	ir_ctx *ctx;
	ir_op *op;
	const pass_opts *o;
	const ir_vecdef *vd;
	ptort_type et;      /* the element type of the data (U16 for paired bytes) */
	uint32_t w;         /* its bits */
	ptort_type scalar_et; /* the type a scalar converts to (the tile's) */
	int pair8;          /* 8-bit bitwise op on the repeat form: byte pairs as 16 bits */
	ir_value *sdyn;     /* a run-time scalar (its bits of scalar_et), else NULL: the
			     * scalar field of every instruction that takes the op's scalar */
	unsigned errors;
	/* the valid region of the destination: static, or dynamic values */
	uint32_t rows, cols;
	ir_value *rows_v, *cols_v;
} vl;

#define VS_MAX 4

/* Operand i of a split: its tile, byte offset, row pitch, bytes it advances per
 * repeat within a run (256 for data, L/8 for a bit array, 0 for a broadcast block)
 * and its block stride (1, or 0 for a broadcast block). */
typedef struct vs_opnd {
	const lower_tile *t;
	const char *name;     /* the address field */
	const char *blk, *rep; /* its stride fields (NULL: none) */
	uint32_t off, pitch, per_rep, blk_stride;
} vs_opnd;

typedef struct vs {
	vl *v;
	ir_opcode code;
	int vop; /* the element op field, -1: none */
	int has_cmp;
	uint64_t scalar;
	int has_scalar;
	unsigned flags;
	int has_flags;
	unsigned n;
	vs_opnd o[VS_MAX];
	int per_row; /* one run per row */
} vs;

typedef struct vops {
	lower_tile t[6];   /* the op's tile operands by position (DPS) */
	int is_tile[6];
	unsigned nin;
	lower_tile *dst;
} vops;

/* ---- lower_vec_insn.c: one instruction ---- */

/* An error at the op being lowered, counted in v->errors. */
void vl_err(vl *v, const char *fmt, const char *a);
/* The most repeats one repeat-form instruction takes (the target's limit). */
uint32_t repeat_limit(const vl *v);
/* Row pitch of a tile in bytes: its physical columns. */
uint32_t tile_pitch(const lower_tile *t);
uint64_t from_f32(ptort_type et, uint32_t b);
int scalar_bits(vl *v, ir_value *s, uint64_t *out);
void li_scalar(vl *v, lower_insn *li, uint64_t sc);
void vl_start(vl *v, lower_insn *li, ir_opcode code, int vop);
void vl_common(vl *v, lower_insn *li, ir_opcode code, int with_op);
int vl_emit(vl *v, lower_insn *li);
void li_rc(vl *v, lower_insn *li, uint32_t rows, uint32_t cols, int dyn);
/* The register form (rows and columns as operands) for this op on this target. */
int reg_form(const vl *v);
void lane_mask(uint32_t m, uint32_t lanes, uint64_t *hi, uint64_t *lo);

/* ---- lower_vec_insn.c: the repeat form's splitting ---- */

int vs_split(vs *s, uint32_t rows, uint32_t cols);
void vs_init(vs *s, vl *v, ir_opcode code, int with_op);
void vs_add(vs *s, const lower_tile *t, const char *name, const char *blk, const char *rep,
	    uint32_t off, uint32_t pitch);
/* The UB scratch at the top of UB: its address, its size in *bytes. */
int64_t ub_scratch(vl *v, uint32_t *bytes);

/* ---- lower_vec_red.c ---- */

int vbin3(vl *v, const lower_tile *dt, uint32_t doff, const lower_tile *at, uint32_t aoff,
	  const lower_tile *bt, uint32_t boff, uint32_t repeat, uint32_t drep, uint32_t arep,
	  uint32_t brep, uint32_t m);
int bin_rows_op(vl *v, int vop, const lower_tile *d, uint32_t doff, uint32_t dp,
		const lower_tile *a, uint32_t aoff, uint32_t ap, const lower_tile *b,
		uint32_t boff, uint32_t bp, uint32_t rows);
int bin_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, const lower_tile *a,
	     uint32_t aoff, uint32_t ap, const lower_tile *b, uint32_t boff, uint32_t bp,
	     uint32_t rows);
int bins_rows(vl *v, int vop, const lower_tile *d, uint32_t doff, uint32_t dp,
	      const lower_tile *a, uint32_t aoff, uint32_t ap, uint64_t sc, uint32_t rows);
int dup_rows(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp, uint64_t sc,
	     uint32_t rows);
int copy_rows_p(vl *v, const lower_tile *d, uint32_t doff, uint32_t dp,
		const lower_tile *a, uint32_t aoff, uint32_t ap, uint32_t rows);
int lower_rowred(vl *v, vops *p);
int lower_colred(vl *v, vops *p);
int lower_part(vl *v, vops *p);
int lower_pad_inplace(vl *v, vops *p);
int lower_pad(vl *v, vops *p);

/* ---- lower_vec_steps.c ---- */

int lower_rowprod(vl *v, vops *p);
int lower_ter(vl *v, vops *p);
int lower_axpy(vl *v, vops *p);
int lower_seq(vl *v, vops *p);
int lower_tri(vl *v, vops *p);

#endif
