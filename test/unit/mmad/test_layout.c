/* test_layout.c: tile layouts (docs/semantics.md §6.1) against the Mmad page's worked 4x4
 * examples with 2x2 fractals, the fractal boxes of the real tile types, and the
 * structural properties every layout must have (a bijection onto [0, R*C), offsets
 * of the form f(r) + g(c)). */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "check.h"
#include "ptort.h"


/* A memory order as the Mmad page writes it: position p of the buffer holds logical
 * element seq[p] = r * 4 + c of the 4x4 matrix. */
static void check_order(const char *what, unsigned bl, unsigned sl, const int seq[16])
{
	int p;
	for (p = 0; p < 16; p++) {
		uint32_t r = (uint32_t)seq[p] / 4, c = (uint32_t)seq[p] % 4;
		size_t off = ptort_layout_offset(4, 4, bl, sl, 2, 2, r, c);
		CHECK(off == (size_t)p, "%s: element %d (r%u c%u) at %zu, seed says %d", what,
		      seq[p], r, c, off, p);
	}
}

static void seed_examples(void)
{
	/* The Mmad page, first example (A2A3 orders): A ZZ, B ZN, C NZ. */
	static const int a_zz[16] = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
	static const int b_zn[16] = {0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15};
	static const int c_nz[16] = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};
	/* The Mmad page, second example (A5 orders): A NZ, B ZN, C NZ. */
	static const int a2_nz[16] = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};
	static const int b2_zn[16] = {0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15};
	static const int c2_nz[16] = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};

	check_order("seed ex1 A Zz", 0, 1, a_zz);
	check_order("seed ex1 B Zn", 0, 2, b_zn);
	check_order("seed ex1 C Nz", 1, 1, c_nz);
	check_order("seed ex2 A Nz", 1, 1, a2_nz);
	check_order("seed ex2 B Zn", 0, 2, b2_zn);
	check_order("seed ex2 C Nz", 1, 1, c2_nz);
}

/* Layouts the Mmad page does not draw, from the §6.1 table by hand. */
static void table_examples(void)
{
	static const int nd[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	static const int dn[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
	static const int nn[16] = {0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15};
	check_order("ND", 0, 0, nd);
	check_order("DN", 1, 0, dn);
	check_order("Nn", 1, 2, nn);
	/* a non-square box: 6x4 tile, Zz with 2x4 boxes is plain row-major */
	{
		uint32_t r, c;
		for (r = 0; r < 6; r++)
			for (c = 0; c < 4; c++)
				CHECK(ptort_layout_offset(6, 4, 0, 1, 2, 4, r, c) == r * 4 + c,
				      "Zz 2x4 box in 6x4 at (%u,%u)", r, c);
	}
}

static void boxes(void)
{
	static const struct {
		ptort_type t;
		unsigned sl;
		uint32_t f, ri, ci;
	} v[] = {
		{PTORT_F16, 1, 512, 16, 16},	  {PTORT_F16, 2, 512, 16, 16},
		{PTORT_F32, 1, 512, 16, 8},	  {PTORT_F32, 2, 512, 8, 16},
		{PTORT_F32, 1, 1024, 16, 16},	  {PTORT_I32, 1, 1024, 16, 16},
		{PTORT_I8, 1, 512, 16, 32},	  {PTORT_I8, 2, 512, 32, 16},
		{PTORT_F8E4M3FN, 2, 512, 32, 16}, {PTORT_HIF8, 1, 512, 16, 32},
		{PTORT_F4E2M1FN, 1, 512, 16, 64}, {PTORT_F4E1M2, 2, 512, 64, 16},
		{PTORT_F8E8M0FNU, 1, 32, 16, 2},  {PTORT_F8E8M0FNU, 2, 32, 2, 16},
		{PTORT_BF16, 0, 0, 1, 1},
	};
	size_t i;
	uint32_t ri, ci;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		ri = ci = 0;
		CHECK(ptort_layout_box(v[i].t, v[i].sl, v[i].f, &ri, &ci) == 0 && ri == v[i].ri &&
			      ci == v[i].ci,
		      "box %s sl%u F%u: %ux%u, want %ux%u", ptort_type_name(v[i].t), v[i].sl,
		      v[i].f, ri, ci, v[i].ri, v[i].ci);
	}
	CHECK(ptort_layout_box(PTORT_F32, 1, 0, &ri, &ci) == -1, "F=0");
	CHECK(ptort_layout_box(PTORT_F32, 1, 100, &ri, &ci) == -1, "F=100 f32");
	CHECK(ptort_layout_box(PTORT_F32, 3, 512, &ri, &ci) == -1, "slayout 3");
	CHECK(ptort_layout_box(PTORT_TYPE_COUNT, 1, 512, &ri, &ci) == -1, "bad type");

	CHECK(ptort_layout_check(PTORT_F16, 1, 1, 512, 32, 48) == PTORT_LAYOUT_OK, "Nz f16 ok");
	CHECK(ptort_layout_check(PTORT_F16, 1, 1, 512, 30, 48) == PTORT_LAYOUT_PARTIAL_BOX,
	      "Nz f16 30 rows");
	CHECK(ptort_layout_check(PTORT_I8, 0, 2, 512, 32, 24) == PTORT_LAYOUT_PARTIAL_BOX,
	      "Zn i8 24 cols");
	/* one row: any boxed layout (pto-isa's GEMV vector), its boxes clipped to the row */
	CHECK(ptort_layout_check(PTORT_F8E4M3FN, 1, 1, 512, 1, 128) == PTORT_LAYOUT_OK, "Nz 1 row");
	CHECK(ptort_layout_check(PTORT_F16, 0, 2, 512, 1, 64) == PTORT_LAYOUT_OK, "Zn 1 row");
	CHECK(ptort_layout_check(PTORT_F16, 0, 1, 512, 1, 40) == PTORT_LAYOUT_PARTIAL_BOX,
	      "Zz 1 row, 40 cols");
	{
		static const unsigned codes[][2] = {{0, 1}, {1, 1}, {0, 2}, {1, 2}};
		unsigned j, c;
		for (j = 0; j < 4; j++) {
			ptort_tile t;
			memset(&t, 0, sizeof t);
			t.type = PTORT_F16, t.rows = 1, t.cols = 64, t.fractal = 512;
			t.blayout = codes[j][0], t.slayout = codes[j][1];
			for (c = 0; c < 64; c++)
				CHECK(ptort_tile_offset(&t, 0, c) == c, "1x64 bl%u sl%u col %u",
				      codes[j][0], codes[j][1], c);
		}
	}
	CHECK(ptort_layout_check(PTORT_F16, 0, 0, 0, 30, 7) == PTORT_LAYOUT_OK, "ND any");
	CHECK(ptort_layout_check(PTORT_I4, 0, 0, 0, 3, 7) == PTORT_LAYOUT_ODD_NIBBLES, "i4 odd");
	CHECK(ptort_layout_check(PTORT_F16, 2, 0, 0, 3, 8) == PTORT_LAYOUT_BAD_CODE, "bl 2");
	CHECK(ptort_layout_check(PTORT_F16, 0, 1, 100, 16, 16) == PTORT_LAYOUT_BAD_FRACTAL,
	      "F 100");
	CHECK(ptort_layout_check(PTORT_F16, 0, 0, 0, 0, 16) == PTORT_LAYOUT_EMPTY, "empty");
	CHECK(strcmp(ptort_layout_status_text(PTORT_LAYOUT_OK), "ok") == 0, "text");
}

/* Every layout is a bijection onto [0, R*C) and separable: off(r,c) = off(r,0) + off(0,c). */
static void structure(void)
{
	static const struct {
		ptort_type t;
		uint32_t f, rows, cols;
	} v[] = {
		{PTORT_F16, 512, 32, 48},  {PTORT_F32, 1024, 48, 32}, {PTORT_I8, 512, 64, 64},
		{PTORT_F4E2M1FN, 512, 64, 128}, {PTORT_F8E8M0FNU, 32, 16, 16},
		{PTORT_F32, 512, 16, 16},
	};
	size_t i;
	unsigned bl, sl;
	unsigned char *seen;
	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		for (bl = 0; bl < 2; bl++)
			for (sl = 0; sl < 3; sl++) {
				ptort_tile t;
				uint32_t r, c;
				size_t n = (size_t)v[i].rows * v[i].cols;
				memset(&t, 0, sizeof t);
				t.type = (uint8_t)v[i].t, t.blayout = (uint8_t)bl, t.slayout = (uint8_t)sl;
				t.rows = t.v_rows = v[i].rows, t.cols = t.v_cols = v[i].cols;
				t.fractal = v[i].f;
				if (ptort_layout_check(v[i].t, bl, sl, v[i].f, v[i].rows, v[i].cols)) {
					CHECK(0, "shape %zu bl%u sl%u rejected", i, bl, sl);
					continue;
				}
				seen = calloc(n, 1);
				if (!seen)
					abort();
				for (r = 0; r < t.rows; r++)
					for (c = 0; c < t.cols; c++) {
						size_t o = ptort_tile_offset(&t, r, c);
						if (o >= n || seen[o]) {
							CHECK(0, "shape %zu bl%u sl%u: (%u,%u) -> %zu", i, bl, sl, r, c, o);
							continue;
						}
						seen[o] = 1;
						CHECK(o == ptort_tile_offset(&t, r, 0) + ptort_tile_offset(&t, 0, c),
						      "not separable at %zu bl%u sl%u (%u,%u)", i, bl, sl, r, c);
					}
				free(seen);
			}
}

int main(void)
{
	seed_examples();
	table_examples();
	boxes();
	structure();
	return check_report("test_layout");
}
