/* verify.h: what the structural verifier's files share. verify.c walks the module
 * (counts, dominance, regions, terminators, type fields, attributes) and dispatches each
 * op to its family's file: verify_tile.c (tile and view ops), verify_vec.c (vector ops),
 * verify_cube.c (the tmatmul family), verify_arith.c, verify_func.c (func and scf),
 * verify_insn.c (level-3 instructions); all of them use verify_util.c's helpers, which
 * call none of theirs (no two files call each other). verify_sync.c, verify_mixed.c
 * and verify_move.h's files take the context instead of a vctx. */
#ifndef PTOC_IR_VERIFY_H
#define PTOC_IR_VERIFY_H

#include <stdint.h>
#include <string.h>

#include "ir/ir.h"

struct target;

typedef struct vctx {
	ir_ctx *ctx;
	unsigned errors;
	unsigned scope;   /* the visibility scope of the current isolated op */
	const struct target *t;
	unsigned depth;
} vctx;

/* An error at `op`, counted in v->errors. */
#define op_error(v, op, ...) ((v)->errors += ir_op_error((v)->ctx, (op), __VA_ARGS__))

/* ---- verify_util.c: messages and helpers on types ---- */

/* A note at `loc` (after an error of op_error). */
void op_note(vctx *v, ir_loc loc, const char *fmt, ...);
/* The printed form of a type (truncated), in one of four rotating buffers. */
const char *tstr(const ir_type *t);

static inline const ir_type *vtype(const ir_op *op, unsigned i)
{
	return i < op->num_operands && op->operands[i].value ? op->operands[i].value->type : NULL;
}

static inline int is_int_or_index(const ir_type *t)
{
	return t && (t->kind == IR_TYPE_INT || t->kind == IR_TYPE_INDEX);
}

static inline int is_i1(const ir_type *t)
{
	return t && t->kind == IR_TYPE_INT && t->u.i.bits == 1;
}

/* Shape and valid shape of a tile type (a level-1 tile's valid shape is its shape). */
typedef struct tinfo {
	const ir_type *t;
	const ir_type *elem;
	ir_mem mem;
	int64_t rows, cols, vr, vc;
	int buf; /* a tile_buf */
} tinfo;

/* Fills `ti` from a tile_buf or rank-2 tile type; -1 for any other type. */
int tile_info(const ir_type *t, tinfo *ti);
/* PTOAS's verifyTileBufCommon: a rank-2 tile whose static valid shape fits its shape. */
int check_tile_use(vctx *v, const ir_op *op, const ir_type *t, const char *role, tinfo *ti);

static inline int dyn(int64_t d)
{
	return d == IR_DYN || d < 0;
}

/* The destination of a tile op: the last operand (DPS) or the result (SSA). */
static inline const ir_type *dst_type(const ir_op *op)
{
	if (op->num_results == 1)
		return op->results[0].type;
	return vtype(op, op->num_operands - 1);
}

/* Number of `ins` operands of a tile op. */
static inline unsigned num_ins(const ir_op *op)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	return op->num_results == 1 ? op->num_operands : op->num_operands - (unsigned)d->num_outs;
}

static inline int is_scalar_type(const ir_type *t)
{
	return t && (t->kind == IR_TYPE_INT || t->kind == IR_TYPE_INDEX || t->kind == IR_TYPE_FLOAT);
}

/* ---- the op families; each reports at the op through op_error ---- */

/* verify_tile.c */
void verify_alloc_tile(vctx *v, const ir_op *op);
void verify_tassign(vctx *v, const ir_op *op);
void verify_transfer(vctx *v, const ir_op *op, int load);
void verify_tcvt(vctx *v, const ir_op *op);
void verify_tmov(vctx *v, const ir_op *op);
void verify_textract(vctx *v, const ir_op *op);
void verify_ptr_ops(vctx *v, const ir_op *op);
void verify_bitcast(vctx *v, const ir_op *op);
void verify_getset(vctx *v, const ir_op *op);
void verify_treshape(vctx *v, const ir_op *op);
void verify_set_validshape(vctx *v, const ir_op *op);
void verify_make_tensor_view(vctx *v, const ir_op *op);
void verify_partition_view(vctx *v, const ir_op *op);
/* verify_vec.c */
void verify_vec(vctx *v, const ir_op *op, const ir_vecdef *vd);
/* verify_cube.c */
void verify_matmul(vctx *v, const ir_op *op);
void verify_scale_addr(vctx *v, const ir_op *op);
/* verify_arith.c */
void verify_arith(vctx *v, const ir_op *op);
/* verify_func.c */
const char *sym_name(const ir_op *f);
void verify_func(vctx *v, const ir_op *op);
void verify_return(vctx *v, const ir_op *op);
void verify_call(vctx *v, const ir_op *op);
void verify_yield(vctx *v, const ir_op *op);
void verify_condition(vctx *v, const ir_op *op);
void verify_while(vctx *v, const ir_op *op);
void verify_for(vctx *v, const ir_op *op);
void verify_if(vctx *v, const ir_op *op);
/* verify_insn.c */
void verify_insn(vctx *v, const ir_op *op);

#endif
