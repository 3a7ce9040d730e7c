/* verify_util.c: the verifier's messages and helpers on types, which verify.c and
 * every op family's file use (verify.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"

/* ---- messages ------------------------------------------------------------ */

void op_note(vctx *v, ir_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ir_emitv(v->ctx, PTOC_NOTE, loc, fmt, ap);
	va_end(ap);
}

/* The printed form of a type (truncated), in one of four rotating buffers. */
const char *tstr(const ir_type *t)
{
	static char bufs[4][256];
	static unsigned k;
	return ir_type_str(t, bufs[k++ % 4], sizeof bufs[0]);
}

/* ---- small helpers on types ------------------------------------------------ */

/* Shape and valid shape of a tile type (a level-1 tile's valid shape is its shape). */
int tile_info(const ir_type *t, tinfo *ti)
{
	memset(ti, 0, sizeof *ti);
	ti->t = t;
	if (!t)
		return -1;
	if (t->kind == IR_TYPE_TILE_BUF) {
		ti->elem = t->u.tb.elem;
		ti->mem = t->u.tb.mem;
		ti->rows = t->u.tb.rows;
		ti->cols = t->u.tb.cols;
		ti->vr = t->u.tb.v_row;
		ti->vc = t->u.tb.v_col;
		ti->buf = 1;
		return 0;
	}
	if (t->kind == IR_TYPE_TILE && t->u.shaped.rank == 2) {
		ti->elem = t->u.shaped.elem;
		ti->mem = IR_MEM_NONE;
		ti->rows = ti->vr = t->u.shaped.dims[0];
		ti->cols = ti->vc = t->u.shaped.dims[1];
		return 0;
	}
	return -1;
}

/* PTOAS's verifyTileBufCommon: a rank-2 tile whose static valid shape fits its shape. */
int check_tile_use(vctx *v, const ir_op *op, const ir_type *t, const char *role, tinfo *ti)
{
	if (tile_info(t, ti)) {
		op_error(v, op, "expects %s to be a rank-2 tile_buf, but got '%s'", role, tstr(t));
		return -1;
	}
	if (!dyn(ti->vr) && ti->vr > ti->rows) {
		op_error(v, op, "expects %s to satisfy valid_shape[0] <= shape[0]", role);
		return -1;
	}
	if (!dyn(ti->vc) && ti->vc > ti->cols) {
		op_error(v, op, "expects %s to satisfy valid_shape[1] <= shape[1]", role);
		return -1;
	}
	return 0;
}
