/* layout.c: the address functions of tile layouts (docs/semantics.md §6.1).
 *
 * A tile of R x C elements is either unboxed (slayout none_box: ND = row-major,
 * DN = column-major) or made of inner boxes ("fractals") of Ri x Ci elements laid out
 * row-major (slayout row_major, "z") or column-major (slayout col_major, "n") inside,
 * the boxes themselves row-major (blayout row_major, "Z") or column-major (blayout
 * col_major, "N"). The box follows from the fractal size F (bytes) and the element
 * width: 16 rows x F/(16 s) columns for "z", F/(16 s) rows x 16 columns for "n"; the
 * element size s is counted in bits so that 4-bit types (s = 1/2) need no special case.
 * A one-row boxed tile (pto-isa allows Rows = 1 for any boxed layout: the GEMV vector)
 * has its boxes clipped to that row, so its elements lie in order.
 *
 * Every data movement (tload, tmov, tstore) and mmad addresses tiles through
 * ptort_tile_offset, so any layout can be moved to any other. Note that every
 * offset below is a sum f(r) + g(c): callers may tabulate rows and columns apart. */
#include "ptort.h"

size_t ptort_layout_offset(uint32_t rows, uint32_t cols, unsigned blayout, unsigned slayout,
			   uint32_t box_rows, uint32_t box_cols, uint32_t r, uint32_t c)
{
	size_t R = rows, C = cols, Ri = box_rows, Ci = box_cols;
	size_t br, bc, ir, ic, in;

	if (slayout == 0 || !Ri || !Ci) /* none_box (or no box: treated as unboxed) */
		return blayout == 0 ? (size_t)r * C + c : (size_t)c * R + r;
	br = r / Ri, ir = r % Ri;
	bc = c / Ci, ic = c % Ci;
	in = slayout == 1 ? ir * Ci + ic : ic * Ri + ir;
	if (blayout == 0) /* boxes row-major: a row of boxes holds C x Ri elements */
		return br * (C * Ri) + bc * (Ri * Ci) + in;
	/* boxes column-major: a column of boxes holds R x Ci elements */
	return bc * (R * Ci) + br * (Ri * Ci) + in;
}

int ptort_layout_box(ptort_type type, unsigned slayout, uint32_t fractal, uint32_t *box_rows,
		     uint32_t *box_cols)
{
	uint64_t fbits = (uint64_t)fractal * 8, unit, inner;
	unsigned bits;

	if ((unsigned)type >= PTORT_TYPE_COUNT || slayout > 2)
		return -1;
	if (slayout == 0) {
		*box_rows = *box_cols = 1;
		return 0;
	}
	bits = ptort_type_bits(type);
	unit = 16u * (uint64_t)bits; /* 16 elements of the fixed side */
	if (!fractal || fbits % unit)
		return -1;
	inner = fbits / unit;
	*box_rows = slayout == 1 ? 16 : (uint32_t)inner;
	*box_cols = slayout == 1 ? (uint32_t)inner : 16;
	return 0;
}

size_t ptort_tile_offset(const ptort_tile *t, uint32_t r, uint32_t c)
{
	uint32_t ri = 0, ci = 0;

	if (t->slayout && ptort_layout_box((ptort_type)t->type, t->slayout, t->fractal, &ri, &ci))
		ri = ci = 0; /* invalid box: addressed as unboxed (tiles are checked first) */
	if (t->rows == 1 && ri > 1)
		ri = 1; /* a one-row tile: boxes of one row */
	return ptort_layout_offset(t->rows, t->cols, t->blayout, t->slayout, ri, ci, r, c);
}

ptort_layout_status ptort_layout_check(ptort_type type, unsigned blayout, unsigned slayout,
				       uint32_t fractal, uint32_t rows, uint32_t cols)
{
	uint32_t ri, ci;

	if ((unsigned)type >= PTORT_TYPE_COUNT)
		return PTORT_LAYOUT_BAD_TYPE;
	if (blayout > 1 || slayout > 2)
		return PTORT_LAYOUT_BAD_CODE;
	if (!rows || !cols)
		return PTORT_LAYOUT_EMPTY;
	if (ptort_type_bits(type) == 4 && cols % 2)
		return PTORT_LAYOUT_ODD_NIBBLES;
	if (slayout == 0)
		return PTORT_LAYOUT_OK;
	if (ptort_layout_box(type, slayout, fractal, &ri, &ci))
		return PTORT_LAYOUT_BAD_FRACTAL;
	if ((rows % ri && rows != 1) || cols % ci)
		return PTORT_LAYOUT_PARTIAL_BOX;
	return PTORT_LAYOUT_OK;
}

const char *ptort_layout_status_text(ptort_layout_status s)
{
	switch (s) {
	case PTORT_LAYOUT_OK:
		return "ok";
	case PTORT_LAYOUT_BAD_TYPE:
		return "unknown element type";
	case PTORT_LAYOUT_BAD_CODE:
		return "unknown layout code";
	case PTORT_LAYOUT_EMPTY:
		return "empty shape";
	case PTORT_LAYOUT_ODD_NIBBLES:
		return "a tile of 4-bit elements needs an even column count";
	case PTORT_LAYOUT_BAD_FRACTAL:
		return "the fractal size is not a whole number of 16-element box lines";
	case PTORT_LAYOUT_PARTIAL_BOX:
		return "rows and columns must be multiples of the fractal box";
	}
	return "?";
}
