/* test_dma.c: DMA (tload/tstore) and tmov against an independent model: element
 * (r, c) of the valid region goes to or from GM element sum (offset + i) * stride and
 * tile element ref_off(r, c) (the layout table of docs/semantics.md §6.1, re-derived in
 * rtexec_ref.h). Whole memories and GM buffers are compared, so everything outside
 * the valid region must be untouched. Conversions use ptort_cvt1 with RINT, sat ON. */
#include <stdlib.h>

#include "rtexec_ref.h"

static const ptort_type tile_types[] = {
	PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I8, PTORT_I32, PTORT_I4, PTORT_F4E2M1FN,
	PTORT_I64, PTORT_F8E4M3FN,
};
#define NTYPES (sizeof tile_types / sizeof tile_types[0])

static uint64_t tile_bytes(const ptort_tile *t)
{
	return (uint64_t)t->rows * t->cols * ptort_type_bits((ptort_type)t->type) / 8;
}

/* A random tile of type ty in mem: any layout, whole fractals, partial valid region. */
static ptort_tile rnd_tile(ptort_ctx *ctx, ptort_mem mem, ptort_type ty, int nd_only)
{
	unsigned bits = ptort_type_bits(ty);
	unsigned bl = nd_only ? 0 : rndn(2), sl = nd_only ? 0 : rndn(3);
	uint32_t fractal = bits == 32 && rndn(2) ? 1024 : 512, ri = 1, ci = 1, rows, cols;
	uint64_t bytes;
	uint32_t cap = ptort_mem_size(ctx, mem);
	if (sl) {
		uint32_t inner = fractal * 8 / (16 * bits);
		ri = sl == 1 ? 16 : inner;
		ci = sl == 1 ? inner : 16;
		rows = ri * (1 + rndn(3));
		cols = ci * (1 + rndn(3));
	} else {
		rows = 1 + rndn(40);
		cols = 2 * (1 + rndn(24));
	}
	bytes = (uint64_t)rows * cols * bits / 8;
	(void)bytes;
	return mk_tile(mem, ty, bl, sl, 32 * rndn((uint32_t)((cap - bytes) / 32)), rows, cols,
		       1 + rndn(rows), 1 + rndn(cols), fractal);
}

/* A random GM view around a vr x vc partition; returns the buffer size in elements. */
static uint64_t rnd_view(ptort_gm_view *v, ptort_type ty, uint32_t vr, uint32_t vc)
{
	uint32_t er = rndn(6), ec = rndn(6), pad = rndn(3) ? 0 : rndn(9);
	int dn = rndn(3) == 0;
	memset(v, 0, sizeof *v);
	v->type = (uint8_t)ty;
	v->shape[0] = 1, v->shape[1] = 1 + rndn(2), v->shape[2] = 1;
	v->shape[3] = vr + er, v->shape[4] = vc + ec;
	v->size[0] = v->size[1] = v->size[2] = 1;
	v->size[3] = vr, v->size[4] = vc;
	v->offset[1] = rndn(v->shape[1]);
	v->offset[3] = rndn(er + 1), v->offset[4] = rndn(ec + 1);
	if (dn) {
		v->stride[3] = 1, v->stride[4] = v->shape[3] + pad;
		v->stride[2] = v->stride[4] * v->shape[4];
	} else {
		v->stride[4] = 1, v->stride[3] = v->shape[4] + pad;
		v->stride[2] = v->stride[3] * v->shape[3];
	}
	v->stride[1] = v->stride[0] = v->stride[2];
	v->gm_elems = (uint64_t)v->stride[1] * v->shape[1];
	return v->gm_elems;
}

static uint64_t gm_index(const ptort_gm_view *v, uint32_t r, uint32_t c)
{
	int64_t i = 0;
	unsigned d;
	for (d = 0; d < PTORT_GM_RANK; d++)
		i += (int64_t)v->offset[d] * v->stride[d];
	return (uint64_t)(i + (int64_t)r * v->stride[3] + (int64_t)c * v->stride[4]);
}

static uint64_t ref_relu(ptort_type t, uint64_t x)
{
	switch (t) {
	case PTORT_F32:
		return (x & 0x80000000u) && (x & 0x7FFFFFFFu) <= 0x7F800000u ? 0 : x;
	case PTORT_I32:
		return (x & 0x80000000u) ? 0 : x;
	default:
		return x;
	}
}

static int mem_equal(ptort_ctx *ctx, ptort_mem m, const uint8_t *exp)
{
	return memcmp(ptort_mem_base(ctx, m), exp, ptort_mem_size(ctx, m)) == 0;
}

static void load_store_random(unsigned count)
{
	uint32_t caps[PTORT_MEM_COUNT] = {32 * 1024, 32 * 1024, 16 * 1024, 16 * 1024, 16 * 1024, 1024, 2048};
	ptort_ctx *ctx = ptort_ctx_create(caps);
	uint8_t *exp = malloc(32 * 1024);
	unsigned i;
	for (i = 0; i < count; i++) {
		ptort_type ty = tile_types[rndn(NTYPES)];
		ptort_mem mem = rndn(2) ? PTORT_MEM_UB : PTORT_MEM_L1;
		ptort_tile t = rnd_tile(ctx, mem, ty, rndn(3) == 0);
		unsigned bits = ptort_type_bits(ty);
		ptort_gm_view v;
		uint64_t n = rnd_view(&v, ty, t.v_rows, t.v_cols), gbytes = (n * bits + 7) / 8;
		uint8_t *gm = malloc(gbytes), *gexp = malloc(gbytes);
		uint8_t *mb = ptort_mem_base(ctx, mem);
		uint32_t r, c;
		int rc;
		/* load */
		rnd_fill(gm, gbytes);
		rnd_fill(mb, ptort_mem_size(ctx, mem));
		memcpy(exp, mb, ptort_mem_size(ctx, mem));
		for (r = 0; r < t.v_rows; r++)
			for (c = 0; c < t.v_cols; c++)
				ref_put(exp, (uint64_t)t.addr * 8 / bits + ref_off(&t, r, c), bits,
					ref_get(gm, gm_index(&v, r, c), bits));
		rc = ptort_dma_load(ctx, gm, &v, &t);
		CHECK(rc == 0 && mem_equal(ctx, mem, exp),
		      "load %s %ux%u valid %ux%u layout %u/%u F%u strides %lld/%lld: rc %d %s",
		      ptort_type_name(ty), t.rows, t.cols, t.v_rows, t.v_cols, t.blayout, t.slayout,
		      t.fractal, (long long)v.stride[3], (long long)v.stride[4], rc,
		      ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
		/* store (plain, or f32 -> f16/bf16 with or without ReLU) */
		{
			int cvt = PTORT_NO_CVT, relu = ty == PTORT_F32 || ty == PTORT_I32 ? (int)rndn(2) : 0;
			ptort_type gt = ty;
			unsigned gb = bits;
			uint8_t *g2, *g2exp;
			if (ty == PTORT_F32 && rndn(2)) {
				cvt = rndn(2) ? PTORT_F16 : PTORT_BF16;
				gt = (ptort_type)cvt, gb = 16;
			}
			v.type = (uint8_t)gt;
			gbytes = (n * gb + 7) / 8;
			g2 = malloc(gbytes), g2exp = malloc(gbytes);
			rnd_fill(mb, ptort_mem_size(ctx, mem));
			rnd_fill(g2, gbytes);
			memcpy(g2exp, g2, gbytes);
			for (r = 0; r < t.v_rows; r++)
				for (c = 0; c < t.v_cols; c++) {
					uint64_t x = ref_get(mb, (uint64_t)t.addr * 8 / bits + ref_off(&t, r, c),
							     bits);
					if (relu)
						x = ref_relu(ty, x);
					if (cvt != PTORT_NO_CVT)
						x = ptort_cvt1(ty, gt, x, PTORT_RINT, PTORT_SAT_ON);
					ref_put(g2exp, gm_index(&v, r, c), gb, x);
				}
			rc = ptort_dma_store(ctx, g2, &v, &t, cvt, relu);
			CHECK(rc == 0 && memcmp(g2, g2exp, gbytes) == 0,
			      "store %s->%s relu %d %ux%u valid %ux%u layout %u/%u: rc %d %s",
			      ptort_type_name(ty), ptort_type_name(gt), relu, t.rows, t.cols, t.v_rows,
			      t.v_cols, t.blayout, t.slayout, rc,
			      ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
			free(g2), free(g2exp);
		}
		free(gm), free(gexp);
		ptort_ctx_clear_error(ctx);
	}
	free(exp);
	ptort_ctx_destroy(ctx);
}

/* tmov between random tiles of random layouts and memories. */
static void tmov_random(unsigned count)
{
	uint32_t caps[PTORT_MEM_COUNT] = {32 * 1024, 32 * 1024, 16 * 1024, 16 * 1024, 16 * 1024, 1024, 2048};
	ptort_ctx *ctx = ptort_ctx_create(caps);
	uint8_t *exp = malloc(32 * 1024), *snap = malloc(32 * 1024);
	unsigned i, m;
	for (i = 0; i < count; i++) {
		ptort_type ty = tile_types[rndn(NTYPES)], dt = ty;
		ptort_mem sm = (ptort_mem)rndn(5), dm = (ptort_mem)rndn(5);
		ptort_tile s = rnd_tile(ctx, sm, ty, 0), d;
		int cvt = PTORT_NO_CVT, relu = 0;
		unsigned sb = ptort_type_bits(ty), db;
		uint32_t r, c;
		int rc;
		if (ty == PTORT_F32 && rndn(2)) {
			dt = rndn(2) ? PTORT_F16 : PTORT_BF16;
			cvt = (int)dt;
		}
		if (ty == PTORT_F32 || ty == PTORT_I32)
			relu = (int)rndn(2);
		db = ptort_type_bits(dt);
		d = rnd_tile(ctx, dm, dt, 0);
		if (d.v_rows > s.rows || d.v_cols > s.cols) {
			i--;
			continue;
		}
		if (rndn(6) == 0 && sm == dm) /* same place, maybe another layout */
			d.addr = s.addr + 32 * rndn(3);
		if (d.addr + tile_bytes(&d) > ptort_mem_size(ctx, dm))
			d.addr = 0;
		for (m = 0; m < 5; m++)
			rnd_fill(ptort_mem_base(ctx, (ptort_mem)m), ptort_mem_size(ctx, (ptort_mem)m));
		memcpy(snap, ptort_mem_base(ctx, sm), ptort_mem_size(ctx, sm));
		memcpy(exp, ptort_mem_base(ctx, dm), ptort_mem_size(ctx, dm));
		for (r = 0; r < d.v_rows; r++)
			for (c = 0; c < d.v_cols; c++) {
				uint64_t x = ref_get(snap, (uint64_t)s.addr * 8 / sb + ref_off(&s, r, c), sb);
				if (relu)
					x = ref_relu(ty, x);
				if (cvt != PTORT_NO_CVT)
					x = ptort_cvt1(ty, dt, x, PTORT_RINT, PTORT_SAT_ON);
				ref_put(exp, (uint64_t)d.addr * 8 / db + ref_off(&d, r, c), db, x);
			}
		rc = ptort_tmov(ctx, &s, &d, cvt, relu);
		CHECK(rc == 0 && mem_equal(ctx, dm, exp),
		      "tmov %s %s %ux%u %u/%u @%x -> %s %s %ux%u %u/%u @%x valid %ux%u relu %d: rc %d %s",
		      ptort_mem_name(sm), ptort_type_name(ty), s.rows, s.cols, s.blayout, s.slayout,
		      s.addr, ptort_mem_name(dm), ptort_type_name(dt), d.rows, d.cols, d.blayout,
		      d.slayout, d.addr, d.v_rows, d.v_cols, relu, rc,
		      ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
		ptort_ctx_clear_error(ctx);
	}
	free(exp), free(snap);
	ptort_ctx_destroy(ctx);
}

/* ND -> Nz (L1) -> Zn (L0B) -> DN (UB) -> ND (UB) gives back the valid region. */
static void round_trip(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	ptort_tile nd = mk_tile(PTORT_MEM_UB, PTORT_F16, 0, 0, 0, 48, 64, 45, 61, 512);
	ptort_tile nz = mk_tile(PTORT_MEM_L1, PTORT_F16, 1, 1, 0x2000, 48, 64, 45, 61, 512);
	ptort_tile zn = mk_tile(PTORT_MEM_L0B, PTORT_F16, 0, 2, 0x200, 48, 64, 45, 61, 512);
	ptort_tile dn = mk_tile(PTORT_MEM_UB, PTORT_F16, 1, 0, 0x4000, 48, 64, 45, 61, 512);
	ptort_tile back = mk_tile(PTORT_MEM_UB, PTORT_F16, 0, 0, 0x8000, 48, 64, 45, 61, 512);
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
	uint32_t r;
	rnd_fill(ub, 0x10000);
	CHECK(ptort_tmov(ctx, &nd, &nz, PTORT_NO_CVT, 0) == 0 &&
		      ptort_tmov(ctx, &nz, &zn, PTORT_NO_CVT, 0) == 0 &&
		      ptort_tmov(ctx, &zn, &dn, PTORT_NO_CVT, 0) == 0 &&
		      ptort_tmov(ctx, &dn, &back, PTORT_NO_CVT, 0) == 0,
	      "round trip: %s", ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
	for (r = 0; r < 45; r++)
		CHECK(memcmp(ub + 128 * r, ub + 0x8000 + 128 * r, 61 * 2) == 0, "row %u differs", r);
	ptort_ctx_destroy(ctx);
}

/* 4-bit elements: nibble order and preserved neighbours, checked by hand. */
static void nibbles(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	uint8_t gm[8] = {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F}; /* elements 1..15,0 */
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_I4, 0, 0, 0x40, 2, 4, 2, 3, 512);
	ptort_gm_view v;
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
	memset(&v, 0, sizeof v);
	v.type = PTORT_I4;
	v.shape[0] = v.shape[1] = v.shape[2] = 1, v.shape[3] = 2, v.shape[4] = 8;
	v.size[0] = v.size[1] = v.size[2] = 1, v.size[3] = 2, v.size[4] = 3;
	v.stride[3] = 8, v.stride[4] = 1, v.offset[4] = 1; /* odd nibble start */
	v.gm_elems = 16;
	memset(ub + 0x40, 0xEE, 4);
	CHECK(ptort_dma_load(ctx, gm, &v, &t) == 0, "i4 load");
	/* row 0 gets GM elements 2,3,4; row 1 gets 10,11,12; column 3 keeps 0xE */
	CHECK(ub[0x40] == 0x32 && ub[0x41] == 0xE4 && ub[0x42] == 0xBA && ub[0x43] == 0xEC,
	      "i4 tile bytes %02x %02x %02x %02x", ub[0x40], ub[0x41], ub[0x42], ub[0x43]);
	ptort_ctx_destroy(ctx);
}

/* Whole ND tiles from and to whole GM rows (the single-block path), f32 -> f16. */
static void whole_tile(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_F32, 0, 0, 0x1000, 24, 40, 24, 40, 512);
	ptort_gm_view v;
	uint32_t in[24 * 40], i;
	uint16_t out[24 * 40 + 8];
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
	memset(&v, 0, sizeof v);
	v.type = PTORT_F32;
	v.shape[0] = v.shape[1] = v.shape[2] = 1, v.shape[3] = 24, v.shape[4] = 40;
	v.size[0] = v.size[1] = v.size[2] = 1, v.size[3] = 24, v.size[4] = 40;
	v.stride[3] = 40, v.stride[4] = 1, v.gm_elems = 24 * 40;
	rnd_fill((uint8_t *)in, sizeof in);
	memset(out, 0x77, sizeof out);
	CHECK(ptort_dma_load(ctx, in, &v, &t) == 0 && !memcmp(ub + 0x1000, in, sizeof in) &&
		      ub[0xFFF] == 0 && ub[0x1000 + sizeof in] == 0,
	      "whole load");
	v.type = PTORT_F16;
	CHECK(ptort_dma_store(ctx, out, &v, &t, PTORT_F16, 0) == 0, "whole store");
	for (i = 0; i < 24 * 40; i++)
		CHECK(out[i] == ptort_cvt1(PTORT_F32, PTORT_F16, in[i], PTORT_RINT, PTORT_SAT_ON),
		      "element %u: %04x", i, out[i]);
	CHECK(out[24 * 40] == 0x7777, "beyond the view");
	ptort_ctx_destroy(ctx);
}

static void error_cases(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB), *before = malloc(0x30000);
	float gm[64 * 64];
	uint8_t gsnap[sizeof gm];
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_F32, 0, 0, 0x2f000, 32, 64, 32, 64, 512), u;
	ptort_gm_view v, w;
	const char *e;
	memset(&v, 0, sizeof v);
	v.type = PTORT_F32;
	v.shape[0] = v.shape[1] = v.shape[2] = 1, v.shape[3] = 64, v.shape[4] = 64;
	v.size[0] = v.size[1] = v.size[2] = 1, v.size[3] = 32, v.size[4] = 64;
	v.stride[0] = v.stride[1] = v.stride[2] = 4096, v.stride[3] = 64, v.stride[4] = 1;
	v.gm_elems = 64 * 64;
	rnd_fill((uint8_t *)gm, sizeof gm);
	memcpy(gsnap, gm, sizeof gm);
	rnd_fill(ub, 0x30000);
	memcpy(before, ub, 0x30000);
	CHECK(ptort_dma_load(ctx, gm, &v, &t) == -1, "tile beyond UB");
	e = ptort_ctx_error(ctx);
	CHECK(e && !strcmp(e, "dma_load: destination range [0x2f000, 0x31000) exceeds UB capacity "
			      "0x30000"),
	      "message: %s", e ? e : "-");
	t.addr = 0;
	w = v, w.offset[3] = 33;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "partition beyond the view");
	w = v, w.gm_elems = 64 * 31;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "beyond gm_elems");
	w = v, w.size[1] = 2, w.shape[1] = 2, u = t, u.slayout = 1;
	CHECK(ptort_dma_load(ctx, gm, &w, &u) == -1, "outer size with a boxed tile");
	w = v, w.type = PTORT_F16;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "width mismatch");
	w = v, w.size[4] = 20;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "valid region beyond the partition");
	w = v, w.stride[3] = -64;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "negative index");
	w = v, w.stride[3] = INT64_MAX;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "overflowing stride");
	w = v, w.type = 99;
	CHECK(ptort_dma_load(ctx, gm, &w, &t) == -1, "bad view type");
	CHECK(ptort_dma_load(ctx, NULL, &v, &t) == -1, "NULL gm");
	u = t, u.v_rows = 33;
	CHECK(ptort_dma_load(ctx, gm, &v, &u) == -1, "valid > rows");
	u = t, u.v_cols = 0;
	CHECK(ptort_dma_load(ctx, gm, &v, &u) == -1, "valid 0");
	u = t, u.slayout = 1, u.cols = 60, u.v_cols = 60;
	CHECK(ptort_dma_load(ctx, gm, &v, &u) == -1, "not whole fractals");
	u = t, u.type = 77;
	CHECK(ptort_dma_load(ctx, gm, &v, &u) == -1, "bad tile type");
	u = t, u.mem = 12;
	CHECK(ptort_dma_load(ctx, gm, &v, &u) == -1, "bad tile memory");
	u = t, u.type = PTORT_I4, u.rows = 4, u.cols = 3, u.v_rows = 3, u.v_cols = 3;
	CHECK(ptort_dma_load(ctx, gm, &v, &u) == -1, "odd nibble count");
	CHECK(memcmp(before, ub, 0x30000) == 0, "UB changed by a reported load");
	/* stores */
	CHECK(ptort_dma_store(ctx, gm, &v, &t, PTORT_F16, 0) == -1, "convert_to != view type");
	w = v, w.type = PTORT_F8E8M0FNU;
	CHECK(ptort_dma_store(ctx, gm, &w, &t, PTORT_F8E8M0FNU, 0) == -1, "undefined conversion");
	CHECK(ptort_dma_store(ctx, gm, &v, &t, 1000, 0) == -1, "bad convert_to");
	w = v, w.gm_elems = 100;
	CHECK(ptort_dma_store(ctx, gm, &w, &t, PTORT_NO_CVT, 0) == -1, "store beyond gm_elems");
	CHECK(memcmp(gsnap, gm, sizeof gm) == 0, "GM changed by a reported store");
	/* tmov */
	u = mk_tile(PTORT_MEM_L0A, PTORT_F32, 0, 1, 0, 64, 64, 64, 64, 512);
	CHECK(ptort_tmov(ctx, &t, &u, PTORT_NO_CVT, 0) == -1, "tmov region beyond source");
	u = mk_tile(PTORT_MEM_L0A, PTORT_F32, 0, 1, 0xFE00, 16, 16, 16, 16, 512);
	CHECK(ptort_tmov(ctx, &t, &u, PTORT_NO_CVT, 0) == -1, "tmov dst beyond L0A");
	u = mk_tile(PTORT_MEM_L0A, PTORT_F16, 0, 1, 0, 16, 16, 16, 16, 512);
	CHECK(ptort_tmov(ctx, &t, &u, PTORT_NO_CVT, 0) == -1, "tmov width");
	CHECK(ptort_tmov(ctx, &t, &u, PTORT_BF16, 0) == -1, "tmov convert_to != dst type");
	CHECK(ptort_ctx_error_count(ctx) == 24, "count %lu", ptort_ctx_error_count(ctx));
	e = ptort_ctx_error(ctx);
	CHECK(e && !strncmp(e, "dma_load: destination range", 27), "first kept: %s", e ? e : "-");
	free(before);
	ptort_ctx_destroy(ctx);
}

/* The fixpipe's executors (ptort.h 3.5k) refuse what the verifier does not let
 * through, each with its message and nothing written. */
static void fixpipe_error_one(int which, const char *want)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	ptort_tile acc = mk_tile(PTORT_MEM_L0C, PTORT_F32, 0, 0, 0, 16, 16, 16, 16, 512);
	ptort_tile ub = mk_tile(PTORT_MEM_UB, PTORT_F16, 0, 0, 0, 16, 16, 16, 16, 512);
	ptort_tile small = mk_tile(PTORT_MEM_UB, PTORT_F32, 0, 0, 0, 8, 16, 8, 16, 512);
	ptort_tile ubf = mk_tile(PTORT_MEM_UB, PTORT_F32, 0, 0, 0, 16, 16, 16, 16, 512);
	ptort_tile ub8 = mk_tile(PTORT_MEM_UB, PTORT_I8, 0, 0, 0, 16, 16, 16, 16, 512);
	ptort_gm_view v;
	float gm[16 * 16];
	const char *e;
	int rc;
	memset(&v, 0, sizeof v);
	memset(gm, 0, sizeof gm);
	v.type = PTORT_F32;
	v.shape[0] = v.shape[1] = v.shape[2] = 1, v.shape[3] = 16, v.shape[4] = 16;
	v.size[0] = v.size[1] = v.size[2] = 1, v.size[3] = 16, v.size[4] = 16;
	v.stride[3] = 16, v.stride[4] = 1;
	v.gm_elems = 16 * 16;
	rc = which == 0   ? ptort_tmovq(ctx, &acc, NULL, &ub, 0, 2, 0, 0)
	     : which == 1 ? ptort_tmovq(ctx, &acc, NULL, &small, 0, 0, 0, 0)
	     : which == 2 ? ptort_tmovq(ctx, &acc, NULL, &ub8, 0, 2, 0, 0)
			  : ptort_dma_store_q(ctx, gm, &v, &ubf, NULL, 0x3F800000, 1, 0, 0);
	e = ptort_ctx_error(ctx);
	CHECK(rc == -1 && e && !strcmp(e, want), "fixpipe error %d: %s", which, e ? e : "-");
	ptort_ctx_destroy(ctx);
}

static void fixpipe_errors(void)
{
	fixpipe_error_one(0, "tmov: the fixpipe does not move f32 to f16 (quant 2, mode 0)");
	fixpipe_error_one(1, "tmov: the 16x16 region leaves the 8x16 destination");
	fixpipe_error_one(2, "tmov: no fp tile");
	fixpipe_error_one(3, "dma_store_q: the fixpipe does not store a non-acc f32 to f32 (quant 1)");
}

/* ptort_dma_load_cvt (the fused tload + vconv_v) against the two instructions it
 * replaces, run on a twin context with the same memory: the same return value, error
 * count and first message, and the same bytes everywhere except the loaded tile's
 * own bytes outside the conversion's destination (which the fused form leaves
 * unspecified). Mostly whole ND tiles in range (the direct path), also partial
 * regions, other counts, overlapping or out-of-range destinations and bad views (the
 * literal fallback). At least a quarter of the cases must take the direct path (seen
 * as the loaded tile's bytes left as they were). */
static void load_cvt_random(unsigned count)
{
	static const ptort_type from_types[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I32,
						PTORT_I8, PTORT_I16, PTORT_U8};
	static const ptort_type to_types[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I32,
					      PTORT_I8, PTORT_I16, PTORT_F8E4M3FN, PTORT_HIF8,
					      PTORT_I4, PTORT_U8};
	uint32_t caps[PTORT_MEM_COUNT] = {32 * 1024, 32 * 1024, 16 * 1024, 16 * 1024, 16 * 1024, 1024, 2048};
	ptort_ctx *a = ptort_ctx_create(caps), *b = ptort_ctx_create(caps);
	uint32_t cap = caps[PTORT_MEM_UB];
	unsigned i, direct = 0, done = 0;
	for (i = 0; i < count; i++) {
		ptort_type ft = from_types[rndn(sizeof from_types / sizeof from_types[0])];
		ptort_type tt = to_types[rndn(sizeof to_types / sizeof to_types[0])];
		ptort_rmode rm = (ptort_rmode)rndn(PTORT_RMODE_COUNT);
		int sat = (int)rndn(2), whole = rndn(5) != 0, ra, rb;
		unsigned fb = ptort_type_bits(ft), tb = ptort_type_bits(tt);
		ptort_tile t;
		ptort_gm_view v;
		uint64_t n, gbytes, t1lo, t1hi, t2lo, t2hi, j;
		uint32_t cnt, dst;
		uint8_t *gm, *ma = ptort_mem_base(a, PTORT_MEM_UB), *mb = ptort_mem_base(b, PTORT_MEM_UB);
		const char *ea, *eb;
		if (ptort_cvt_check(ft, tt, rm) != PTORT_CVT_OK && rndn(8))
			continue; /* mostly defined pairs */
		t = rnd_tile(a, PTORT_MEM_UB, ft, 1);
		if (whole)
			t.v_rows = t.rows, t.v_cols = t.cols;
		cnt = rndn(6) ? t.rows * t.cols : 1 + rndn(t.rows * t.cols + 8);
		n = rnd_view(&v, ft, t.v_rows, t.v_cols);
		if (!rndn(12))
			v.offset[3] += v.shape[3]; /* outside the tensor view */
		gbytes = (n * fb + 7) / 8;
		gm = malloc(gbytes);
		rnd_fill(gm, gbytes);
		t1lo = t.addr, t1hi = t.addr + (uint64_t)t.rows * t.cols * fb / 8;
		dst = 32 * rndn(cap / 32);
		if (rndn(4)) { /* mostly a destination beside the source */
			uint64_t need = ((uint64_t)cnt * tb + 7) / 8;
			if (t1hi + need <= cap && (rndn(2) || t1lo < need))
				dst = (uint32_t)((t1hi + 31) / 32 * 32);
			else if (t1lo >= need)
				dst = (uint32_t)((t1lo - need) / 32 * 32);
		}
		t2lo = dst, t2hi = dst + ((uint64_t)cnt * tb + 7) / 8;
		rnd_fill(ma, cap);
		memcpy(mb, ma, cap);
		ptort_ctx_clear_error(a);
		ptort_ctx_clear_error(b);
		ra = ptort_dma_load(a, gm, &v, &t);
		ra = ptort_vconv_v(a, PTORT_MEM_UB, dst, t.addr, ft, tt, cnt, rm, sat) | ra;
		rb = ptort_dma_load_cvt(b, gm, &v, &t, dst, tt, cnt, rm, sat);
		ea = ptort_ctx_error(a), eb = ptort_ctx_error(b);
		CHECK(ra == rb && ptort_ctx_error_count(a) == ptort_ctx_error_count(b) &&
			      (ea ? eb && !strcmp(ea, eb) : !eb),
		      "load_cvt %s -> %s: rc %d/%d errors %lu/%lu '%s' / '%s'", ptort_type_name(ft),
		      ptort_type_name(tt), ra, rb, ptort_ctx_error_count(a),
		      ptort_ctx_error_count(b), ea ? ea : "", eb ? eb : "");
		for (j = 0; j < cap; j++)
			if (ma[j] != mb[j] && !(j >= t1lo && j < t1hi && !(j >= t2lo && j < t2hi)))
				break;
		CHECK(j == cap, "load_cvt %s -> %s %s %ux%u valid %ux%u count %u dst 0x%x: byte 0x%llx "
				"differs (%02x, fused %02x)",
		      ptort_type_name(ft), ptort_type_name(tt), ptort_rmode_name(rm), t.rows, t.cols,
		      t.v_rows, t.v_cols, cnt, dst, (unsigned long long)j, j < cap ? ma[j] : 0,
		      j < cap ? mb[j] : 0);
		done++;
		/* the direct path leaves the source tile as it was (random bytes), which
		 * differ from the loaded ones but for a chance equality */
		if (!ra && (t1lo >= t2hi || t1hi <= t2lo) && memcmp(mb + t1lo, ma + t1lo, t1hi - t1lo))
			direct++;
		free(gm);
	}
	CHECK(done > count / 2, "only %u of %u cases ran", done, count);
	CHECK(direct >= done / 4, "direct path taken in %u of %u cases", direct, done);
	ptort_ctx_destroy(a);
	ptort_ctx_destroy(b);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1500;
	nibbles();
	whole_tile();
	round_trip();
	load_store_random(n);
	tmov_random(n);
	load_cvt_random(n);
	error_cases();
	fixpipe_errors();
	return check_report("test_dma");
}
