/* test_mmad.c: ptort_mmad / ptort_mmad_mx against the slow exact reference (mmref.c),
 * bit for bit over whole memories (so "outside m x n untouched" is checked too), for
 * every type triple, the tile layouts and fractal sizes, init from zero / bias / C_in
 * (in place, apart, overlapping), A overlapping C, random and adversarial values
 * (cancellation, overflow to inf, subnormal results, NaN and inf, int32 wrap, -0), the
 * shapes of the issue (a 4095 dimension included) and random ones (k over several
 * kernel blocks, m and n not multiples of the blocks, valid regions smaller than the
 * tiles), the Qwen3 decode chain (16 x 512 x 64 bf16 over 16 in-place accumulate
 * steps), MX scales at the edges of the kernels' exact range (overflowing and
 * subnormal scaled products) and beyond it, at every kernel level of the host
 * (portable fmaf, AVX2+FMA, AVX-512); plus hand-computed vectors for the reference's
 * rounding step, an independent check of the MX exact scale range, and the checks'
 * error reports. MMAD_TEST_QUICK=1 (the sanitizer run) keeps the smaller shapes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cvt_internal.h"
#include "mmad_internal.h"
#include "mmref.h"


static uint64_t seed = 0x243F6A8885A308D3ull;
static uint64_t rnd(void)
{
	uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
static uint32_t rndn(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

/* ---- the reference's rounding step on hand-computed values ---------------------- */

static void ref_vectors(void)
{
	static const struct {
		uint32_t acc;
		int cls, sx;
		uint64_t sig;
		int ex;
		uint32_t want;
	} v[] = {
		{0x3F800000, 1, 0, 1, -24, 0x3F800000},	 /* 1 + 2^-24: tie to even */
		{0x3F800000, 1, 0, 3, -25, 0x3F800001},	 /* 1 + 1.5 2^-24 */
		{0x3F800001, 1, 0, 1, -24, 0x3F800002},	 /* tie, odd -> up */
		{0x7F7FFFFF, 1, 0, 1, 103, 0x7F800000},	 /* max + half ulp -> inf */
		{0x7F7FFFFF, 1, 0, 1, 102, 0x7F7FFFFF},	 /* max + quarter ulp */
		{0xFF7FFFFF, 1, 1, 1, 103, 0xFF800000},	 /* -max - half ulp -> -inf */
		{0x00000000, 1, 0, 1, -150, 0x00000000}, /* half the min subnormal: to even 0 */
		{0x00000000, 1, 0, 3, -151, 0x00000001}, /* 0.75 min subnormal */
		{0x80000000, 1, 1, 1, -151, 0x80000000}, /* -0.25 min subnormal -> -0 */
		{0x00000001, 1, 1, 1, -149, 0x00000000}, /* exact cancellation -> +0 */
		{0x80000000, 0, 1, 0, 0, 0x80000000},	 /* -0 + -0 */
		{0x00000000, 0, 1, 0, 0, 0x00000000},	 /* +0 + -0 */
		{0x80000000, 0, 0, 0, 0, 0x00000000},	 /* -0 + +0 */
		{0x00800000, 1, 1, 1, -150, 0x00800000}, /* 2^-126 - 2^-150: tie to even */
		{0x00800000, 1, 1, 3, -151, 0x007FFFFF}, /* 2^-126 - 0.75 2^-149 */
		{0x7F800000, 2, 1, 0, 0, 0x7FC00000},	 /* inf - inf */
		{0x7F800000, 1, 1, 5, 3, 0x7F800000},	 /* inf + finite */
		{0x3F800000, 2, 1, 0, 0, 0xFF800000},	 /* finite + -inf */
		{0x7FA00000, 1, 0, 1, 0, 0x7FC00000},	 /* NaN acc */
		{0x3F800000, 3, 0, 0, 0, 0x7FC00000},	 /* NaN product */
		{0x3F800000, 1, 1, 1, 0, 0x00000000},	 /* 1 - 1 -> +0 */
		{0xBF800000, 1, 0, 1, 0, 0x00000000},	 /* -1 + 1 -> +0 */
		{0x3F800000, 1, 0, 1, -200, 0x3F800000}, /* 1 + 2^-200 */
		{0x00000001, 1, 0, 1, 100, 0x71800000},	 /* 2^-149 + 2^100 */
		{0x3F800000, 1, 1, (1ull << 30) - 1, -30, 0x30800000}, /* 1 - (1 - 2^-30) */
		{0x3F800000, 1, 0, (1ull << 48) - 1, -48, 0x40000000}, /* 1 + (1 - 2^-48) */
		{0x00000000, 1, 0, 0xFFFFFF, 104, 0x7F7FFFFF},	       /* max exactly */
		{0x00000000, 1, 1, 1, -298, 0x80000000},	       /* tiny f32 product */
	};
	size_t i;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint32_t got = ref_add_round(v[i].acc, v[i].cls, v[i].sx, v[i].sig, v[i].ex);
		CHECK(got == v[i].want, "ref vector %zu: 0x%08X, want 0x%08X", i, got, v[i].want);
	}
}

/* mmad_add_exact (the MX path's exact add-and-round) on doubles with many bits, where
 * rounding the double sum first would round twice, against the reference step. */
static void add_exact_vectors(void)
{
	int i;
	mmad_fenv fe;
	mmad_fenv_enter(&fe);
	{
		/* 1 + (2^-24 + 2^-76): above the midpoint -> 1 + 2^-23 (double rounding: 1) */
		double p = 1.0 / 16777216.0 + 1.0 / 16777216.0 / 4503599627370496.0;
		float r = mmad_add_exact(1.0f, p);
		uint32_t u;
		memcpy(&u, &r, 4);
		CHECK(u == 0x3F800001u, "add_exact 1 + 2^-24 + 2^-76: 0x%08X", u);
	}
	for (i = 0; i < 200000; i++) {
		uint64_t sig = (rnd() >> 11) | 1, pb;
		int ex = (int)rndn(120) - 60 - 52, sx = (int)rndn(2);
		uint32_t accb = rndn(4) ? (uint32_t)(0x3F800000u + rndn(0x1000000u)) ^ (rndn(2) << 31)
					: (uint32_t)rnd(), got;
		float acc, r;
		double p;
		struct ptort_val v;
		ptort_decode(PTORT_F32, accb, &v);
		if (v.cls == VAL_NAN || v.cls == VAL_INF)
			continue;
		sig |= 1ull << 52;
		if (v.cls == VAL_FINITE && rndn(2)) /* put p near acc's rounding point */
			ex = v.exp - 1 - 52 + (int)rndn(5) - 2;
		if (v.cls == VAL_FINITE && !rndn(3)) {
			/* p = half an ulp of acc, just above or below (2^52 +- 1) */
			static const uint64_t near_half[3] = {(1ull << 52) + 1, (1ull << 52) - 1,
							      (1ull << 53) - 1};
			sig = near_half[rndn(3)];
			ex = v.exp - 1 - 52 - (sig == (1ull << 53) - 1);
		}
		if (ex < -1000 || ex > 900)
			continue;
		p = ldexp((double)sig, ex); /* exact: sig < 2^53, normal range */
		if (sx)
			p = -p;
		memcpy(&pb, &p, 8);
		memcpy(&acc, &accb, 4);
		r = mmad_add_exact(acc, p);
		memcpy(&got, &r, 4);
		{
			uint32_t want = ref_add_round(accb, 1, sx, sig, ex);
			CHECK(got == want, "add_exact 0x%08X + 0x%016llX: 0x%08X, reference 0x%08X",
			      accb, (unsigned long long)pb, got, want);
		}
	}
	mmad_fenv_leave(&fe);
}

/* ---- value generation -------------------------------------------------------------- */

enum gen { G_RAND, G_NEAR1, G_WIDE, G_SPECIAL, G_TINY, G_BIG, G_NEGZERO, G_COUNT };
static const char *gen_name[G_COUNT] = {"rand", "near1", "wide", "special", "tiny", "big",
					"negzero"};

static ptort_rmode to_mode(ptort_type t)
{
	return ptort_cvt_check(PTORT_F32, t, PTORT_RINT) == PTORT_CVT_OK ? PTORT_RINT : PTORT_ROUND;
}

static uint32_t f32_with_exp(int e_lo, int e_hi) /* random sign and mantissa */
{
	uint32_t e = (uint32_t)(e_lo + (int)rndn((uint32_t)(e_hi - e_lo + 1)));
	return (uint32_t)(rnd() & 0x807FFFFFu) | e << 23;
}

static int cls_of(ptort_type t, uint64_t x)
{
	struct ptort_val v;
	ptort_decode(t, x, &v);
	return v.cls;
}

/* One element of type t (bits in the low bits). */
static uint64_t gen_val(ptort_type t, int g)
{
	unsigned bits = ptort_type_bits(t);
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, x;
	if (t == PTORT_I8 || t == PTORT_I32) {
		switch (g) {
		case G_BIG:
			x = rndn(2) ? 0x7F : 0x80;
			if (t == PTORT_I32)
				x = rndn(2) ? 0x7FFFFF00u + rndn(256) : 0x80000000u + rndn(256);
			return x;
		case G_NEAR1:
			return (uint64_t)(int64_t)((int)rndn(7) - 3) & mask;
		default:
			return rnd() & mask;
		}
	}
	switch (g) {
	case G_RAND:
		return rnd() & mask;
	case G_WIDE:
	case G_SPECIAL:
		if (g == G_SPECIAL && (t == PTORT_F4E2M1FN || t == PTORT_F4E1M2))
			g = G_WIDE; /* no inf or NaN in fp4 */
		do
			x = rnd() & mask;
		while (g == G_WIDE ? cls_of(t, x) >= VAL_INF : cls_of(t, x) < VAL_INF);
		if (g == G_SPECIAL && rndn(8)) /* mostly ordinary values */
			return gen_val(t, G_NEAR1);
		return x;
	case G_NEGZERO:
		return ptort_cvt1(PTORT_F32, t, rndn(4) ? 0x80000000u : f32_with_exp(120, 130),
				  to_mode(t), PTORT_SAT_ON);
	case G_TINY:
		return ptort_cvt1(PTORT_F32, t,
				  t == PTORT_F32 || t == PTORT_BF16 ? f32_with_exp(0, 40)
								     : f32_with_exp(100, 115),
				  to_mode(t), PTORT_SAT_ON);
	case G_BIG:
		return ptort_cvt1(PTORT_F32, t, f32_with_exp(200, 254), to_mode(t), PTORT_SAT_ON);
	default: /* G_NEAR1 */
		return ptort_cvt1(PTORT_F32, t, f32_with_exp(124, 130), to_mode(t), PTORT_SAT_ON);
	}
}

/* Scale generators beside the value generators: near the top / bottom of the range
 * where the scaled operands stay exact (set per case from mx_range). */
static int scale_lo = -1, scale_hi = -1;

static uint64_t gen_scale(int g)
{
	if (scale_hi >= 0) /* [hi - 24, hi], one in 64 just above */
		return (uint64_t)(rndn(64) ? scale_hi - (int)rndn(25) : scale_hi + 1);
	if (scale_lo >= 0)
		return (uint64_t)(scale_lo + (int)rndn(25));
	if (g == G_RAND)
		return rnd() & 0xFF;
	if (g == G_SPECIAL && !rndn(16))
		return 0xFF;
	if (g == G_BIG)
		return 200 + rndn(55);
	if (g == G_TINY)
		return rndn(40);
	return 117 + rndn(21);
}

/* ---- tiles -------------------------------------------------------------------------- */

/* Layout choices (blayout, slayout) and fractal sizes. */
static const unsigned lay[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}};
static const char *lay_name[6] = {"ND", "DN", "Zz", "Nz", "Zn", "Nn"};

static uint32_t round_up(uint32_t v, uint32_t b)
{
	return (v + b - 1) / b * b;
}

/* A tile holding at least rows x cols in layout li, at *addr (advanced). */
static ptort_tile mk(ptort_mem mem, ptort_type t, int li, uint32_t fractal, uint32_t rows,
		     uint32_t cols, uint32_t *addr, int extra)
{
	ptort_tile x;
	uint32_t ri = 1, ci = 1, bytes;
	memset(&x, 0, sizeof x);
	x.mem = (uint8_t)mem, x.type = (uint8_t)t;
	x.blayout = (uint8_t)lay[li][0], x.slayout = (uint8_t)lay[li][1];
	x.fractal = x.slayout ? fractal : 0;
	if (x.slayout && ptort_layout_box(t, x.slayout, fractal, &ri, &ci))
		abort();
	if (ptort_type_bits(t) == 4 && ci < 2)
		ci = 2;
	x.rows = round_up(rows + (extra ? rndn(3) : 0), ri);
	x.cols = round_up(cols + (extra ? rndn(3) : 0), ci);
	x.v_rows = rows, x.v_cols = cols;
	x.addr = *addr;
	bytes = (uint32_t)(((uint64_t)x.rows * x.cols * ptort_type_bits(t) + 7) / 8);
	*addr = round_up(*addr + bytes, 512);
	return x;
}

static void put_elem(ptort_ctx *ctx, const ptort_tile *t, uint32_t r, uint32_t c, uint64_t v)
{
	unsigned bits = ptort_type_bits((ptort_type)t->type), i;
	uint8_t *p = ptort_mem_base(ctx, (ptort_mem)t->mem) + t->addr;
	uint64_t e = ptort_tile_offset(t, r, c);
	if (bits == 4) {
		unsigned sh = 4 * (unsigned)(e % 2);
		p[e / 2] = (uint8_t)((p[e / 2] & ~(0xFu << sh)) | ((v & 0xF) << sh));
		return;
	}
	for (i = 0; i < bits / 8; i++)
		p[e * (bits / 8) + i] = (uint8_t)(v >> (8 * i));
}

static void fill(ptort_ctx *ctx, const ptort_tile *t, uint32_t rows, uint32_t cols, int g,
		 int scale)
{
	uint32_t r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			put_elem(ctx, t, r, c,
				 scale ? gen_scale(g) : gen_val((ptort_type)t->type, g));
}

/* ---- one case ------------------------------------------------------------------------ */

struct mcase {
	ptort_type ta, tb;
	uint32_t m, k, n;
	int init; /* 0 zero, 1 bias, 2 C_in apart, 3 C_in = C (in place) */
	int mx;
	int g;
	int alias; /* 1: an f32 A in L0C overlapping C; 2: C_in overlapping C, shifted */
};

/* A fractal size for a tile of type t: the usual one most of the time, else one that
 * gives other box shapes (4- or 32-row boxes, 8- or 32-column acc boxes). */
static uint32_t pick_fractal(uint32_t usual)
{
	static const uint32_t f[] = {256, 512, 1024, 2048};
	return rndn(3) ? usual : f[rndn(4)];
}

static int ncases;

static void run_case(const struct mcase *cs)
{
	ptort_type tc = cs->ta == PTORT_I8 ? PTORT_I32 : PTORT_F32;
	uint32_t addr[PTORT_MEM_COUNT] = {0}, cap[PTORT_MEM_COUNT];
	ptort_tile a, b, c, it, sa, sb;
	const ptort_tile *itp = NULL;
	uint8_t *snap[PTORT_MEM_COUNT], *mem0[PTORT_MEM_COUNT];
	ptort_ctx *ctx;
	int la, lb, lc, level, mi, init;
	uint32_t kb = (cs->k + 31) / 32;

	ncases++;
	/* layouts: the usual ones (A Zz/Nz, B Zn, C Nz) half of the time, else any */
	la = rndn(2) ? (rndn(2) ? 2 : 3) : (int)rndn(6);
	lb = rndn(2) ? 4 : (int)rndn(6);
	lc = rndn(2) ? 3 : (int)rndn(6);
	a = mk(PTORT_MEM_L0A, cs->ta, la, pick_fractal(512), cs->m, cs->k, &addr[PTORT_MEM_L0A], 1);
	b = mk(PTORT_MEM_L0B, cs->tb, lb, pick_fractal(512), cs->k, cs->n, &addr[PTORT_MEM_L0B], 1);
	c = mk(PTORT_MEM_L0C, tc, lc, pick_fractal(1024), cs->m, cs->n, &addr[PTORT_MEM_L0C], 1);
	memset(&it, 0, sizeof it);
	init = cs->init == 3 ? PTORT_MMAD_INIT_C : cs->init;
	if (cs->init == 1) {
		it = mk(PTORT_MEM_BIAS, tc, 0, 0, 1, cs->n, &addr[PTORT_MEM_BIAS], 1);
		itp = &it;
	} else if (cs->init == 2) {
		it = mk(PTORT_MEM_L0C, tc, (int)rndn(6), pick_fractal(1024), cs->m, cs->n,
			&addr[PTORT_MEM_L0C], 1);
		itp = &it;
	} else if (cs->init == 3) {
		itp = &c;
	}
	if (cs->alias == 1) { /* A (f32) over C's bytes, from C's start or 64 bytes in */
		uint32_t end;
		a.mem = PTORT_MEM_L0C;
		a.addr = c.addr + 64 * rndn(2);
		end = a.addr + a.rows * a.cols * 4;
		if (end > addr[PTORT_MEM_L0C])
			addr[PTORT_MEM_L0C] = end;
	} else if (cs->alias == 2 && itp == &it) {
		/* C_in = C's layout a row (ND or Nz) before or after C: a kernel block writing
		 * C before a later block reads its C_in would see new values */
		uint32_t sh = 4 * (rndn(2) ? c.cols : 16), bytes = c.rows * c.cols * 4;
		c.addr = addr[PTORT_MEM_L0C] + sh;
		it = c;
		it.addr = rndn(2) ? c.addr - sh : c.addr + sh;
		addr[PTORT_MEM_L0C] = c.addr + sh + bytes;
	}
	if (cs->mx) {
		sa = mk(PTORT_MEM_SCALING, PTORT_F8E8M0FNU, rndn(2) ? 2 : 0, 32, cs->m, kb,
			&addr[PTORT_MEM_SCALING], 0);
		sb = mk(PTORT_MEM_SCALING, PTORT_F8E8M0FNU, rndn(2) ? 5 : 0, 32, kb, cs->n,
			&addr[PTORT_MEM_SCALING], 0);
	}
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		cap[mi] = addr[mi] + 512;
	ctx = ptort_ctx_create(cap);
	if (!ctx)
		abort();
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
		uint32_t i;
		mem0[mi] = malloc(cap[mi]);
		snap[mi] = malloc(cap[mi]);
		if (!mem0[mi] || !snap[mi])
			abort();
		for (i = 0; i < cap[mi]; i++) /* garbage everywhere, NaNs included */
			ptort_mem_base(ctx, (ptort_mem)mi)[i] = (uint8_t)rnd();
	}
	if (itp)
		fill(ctx, itp, cs->init == 1 ? 1 : cs->m, cs->n,
		     cs->g == G_NEGZERO ? G_NEGZERO : (int)rndn(G_COUNT), 0);
	fill(ctx, &a, cs->m, cs->k, cs->g, 0); /* after C_in: A may share C's bytes */
	fill(ctx, &b, cs->k, cs->n, cs->g, 0);
	if (cs->mx) {
		fill(ctx, &sa, cs->m, kb, cs->g, 1);
		fill(ctx, &sb, kb, cs->n, cs->g, 1);
	}
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
		memcpy(mem0[mi], ptort_mem_base(ctx, (ptort_mem)mi), cap[mi]);
		memcpy(snap[mi], mem0[mi], cap[mi]);
	}
	ref_mmad(snap, &c, &a, cs->mx ? &sa : NULL, &b, cs->mx ? &sb : NULL, cs->m, cs->k, cs->n,
		 init, itp);
	for (level = 0; level <= mmad_best_level(); level++) {
		int rc;
		ptort_mmad_force_level(level);
		for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
			memcpy(ptort_mem_base(ctx, (ptort_mem)mi), mem0[mi], cap[mi]);
		rc = cs->mx ? ptort_mmad_mx(ctx, &c, &a, &sa, &b, &sb, cs->m, cs->k, cs->n, init, itp)
			    : ptort_mmad(ctx, &c, &a, &b, cs->m, cs->k, cs->n, init, itp);
		CHECK(rc == 0, "%s%s x %s %ux%ux%u: rc %d (%s)", cs->mx ? "mx " : "",
		      ptort_type_name(cs->ta), ptort_type_name(cs->tb), cs->m, cs->k, cs->n, rc,
		      ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
		for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
			const uint8_t *got = ptort_mem_base(ctx, (ptort_mem)mi);
			uint32_t i;
			for (i = 0; i < cap[mi] && got[i] == snap[mi][i]; i++)
				;
			if (i < cap[mi]) {
				uint32_t w = i / 4 * 4, gw = 0, sw = 0;
				if (w + 4 <= cap[mi]) {
					memcpy(&gw, got + w, 4);
					memcpy(&sw, snap[mi] + w, 4);
				}
				CHECK(0,
				      "%s%s x %s %ux%ux%u init %d gen %s alias %d level %d layouts A %s/%u "
				      "B %s/%u C %s/%u: %s byte 0x%x differs (word 0x%08X, reference 0x%08X)",
				      cs->mx ? "mx " : "", ptort_type_name(cs->ta),
				      ptort_type_name(cs->tb), cs->m, cs->k, cs->n, cs->init,
				      gen_name[cs->g], cs->alias, level, lay_name[la], a.fractal,
				      lay_name[lb], b.fractal, lay_name[lc], c.fractal,
				      ptort_mem_name((ptort_mem)mi), i, gw, sw);
				break;
			}
		}
	}
	ptort_mmad_force_level(-1);
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
		free(mem0[mi]);
		free(snap[mi]);
	}
	ptort_ctx_destroy(ctx);
}

/* ---- MX: the scales that keep scaled operands exact ---------------------------------- */

/* Computed here with host doubles, independently of the runtime: the scales s in
 * [lo, hi] for which v * 2^(s - 127) is a finite f32 exactly, for every finite value v
 * of t (ldexp is exact in double for these exponents). */
static void mx_range(ptort_type t, int *lo, int *hi)
{
	unsigned bits = ptort_type_bits(t), x;
	int sc, first = -1, last = -1;
	for (sc = 0; sc < 255; sc++) {
		int ok = 1;
		for (x = 0; x < (1u << bits) && ok; x++) {
			struct ptort_val v;
			double d;
			float f;
			ptort_decode(t, x, &v);
			if (v.cls != VAL_FINITE)
				continue;
			d = ldexp((double)v.sig, v.exp + sc - 127);
			f = (float)d;
			ok = isfinite(f) && (double)f == d;
		}
		if (ok && first < 0)
			first = sc;
		if (ok)
			last = sc;
	}
	*lo = first, *hi = last;
}

static void mx_range_check(void)
{
	static const ptort_type ts[] = {PTORT_F8E4M3FN, PTORT_F8E5M2, PTORT_F4E2M1FN, PTORT_F4E1M2};
	size_t i;
	for (i = 0; i < sizeof ts / sizeof ts[0]; i++) {
		int lo, hi, rlo, rhi;
		mx_range(ts[i], &lo, &hi);
		mmad_mx_range(ts[i], &rlo, &rhi);
		CHECK(lo == rlo && hi == rhi, "MX exact scale range of %s: runtime [%d, %d], test [%d, %d]",
		      ptort_type_name(ts[i]), rlo, rhi, lo, hi);
	}
}

/* ---- the Qwen3 decode chain: 16 x 512 x 64 bf16, 16 in-place accumulate steps ----------- */

static void qwen3_chain(int quick)
{
	enum { M = 16, K = 512, N = 64 };
	int steps = quick ? 3 : 16, st, level, mi, g;
	uint32_t addr[PTORT_MEM_COUNT] = {0}, cap[PTORT_MEM_COUNT] = {0};
	ptort_tile a, b, c;
	ptort_ctx *ctx;
	uint8_t *ref[PTORT_MEM_COUNT], *abytes, *bbytes, *cref;
	size_t asz, bsz, csz;

	a = mk(PTORT_MEM_L0A, PTORT_BF16, 3, 512, M, K, &addr[PTORT_MEM_L0A], 0); /* Nz */
	b = mk(PTORT_MEM_L0B, PTORT_BF16, 4, 512, K, N, &addr[PTORT_MEM_L0B], 0); /* Zn */
	c = mk(PTORT_MEM_L0C, PTORT_F32, 3, 1024, M, N, &addr[PTORT_MEM_L0C], 0); /* Nz */
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		cap[mi] = addr[mi] + 512;
	asz = cap[PTORT_MEM_L0A], bsz = cap[PTORT_MEM_L0B], csz = cap[PTORT_MEM_L0C];
	ctx = ptort_ctx_create(cap);
	abytes = malloc((size_t)steps * asz);
	bbytes = malloc((size_t)steps * bsz);
	cref = malloc((size_t)steps * csz);
	if (!ctx || !abytes || !bbytes || !cref)
		abort();
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++) {
		ref[mi] = calloc(cap[mi], 1);
		if (!ref[mi])
			abort();
	}
	/* the steps' operands (mostly ordinary values, one step of specials) and the
	 * reference chain */
	for (st = 0; st < steps; st++) {
		g = st == 5 ? G_SPECIAL : st == 9 ? G_TINY : G_NEAR1;
		fill(ctx, &a, M, K, g, 0);
		fill(ctx, &b, K, N, g, 0);
		memcpy(abytes + st * asz, ptort_mem_base(ctx, PTORT_MEM_L0A), asz);
		memcpy(bbytes + st * bsz, ptort_mem_base(ctx, PTORT_MEM_L0B), bsz);
		memcpy(ref[PTORT_MEM_L0A], abytes + st * asz, asz);
		memcpy(ref[PTORT_MEM_L0B], bbytes + st * bsz, bsz);
		ref_mmad(ref, &c, &a, NULL, &b, NULL, M, K, N,
			 st ? PTORT_MMAD_INIT_C : PTORT_MMAD_INIT_ZERO, st ? &c : NULL);
		memcpy(cref + st * csz, ref[PTORT_MEM_L0C], csz);
	}
	for (level = 0; level <= mmad_best_level(); level++) {
		ptort_mmad_force_level(level);
		memset(ptort_mem_base(ctx, PTORT_MEM_L0C), 0, csz);
		for (st = 0; st < steps; st++) {
			int rc;
			memcpy(ptort_mem_base(ctx, PTORT_MEM_L0A), abytes + st * asz, asz);
			memcpy(ptort_mem_base(ctx, PTORT_MEM_L0B), bbytes + st * bsz, bsz);
			rc = ptort_mmad(ctx, &c, &a, &b, M, K, N,
					st ? PTORT_MMAD_INIT_C : PTORT_MMAD_INIT_ZERO, st ? &c : NULL);
			CHECK(rc == 0 && memcmp(ptort_mem_base(ctx, PTORT_MEM_L0C), cref + st * csz,
						csz) == 0,
			      "Qwen3 chain 16x512x64 bf16: step %d at level %d differs", st, level);
		}
	}
	ptort_mmad_force_level(-1);
	ncases += steps;
	for (mi = 0; mi < PTORT_MEM_COUNT; mi++)
		free(ref[mi]);
	free(abytes), free(bbytes), free(cref);
	ptort_ctx_destroy(ctx);
}

/* ---- the sweep ------------------------------------------------------------------------ */

static const ptort_type pairs[][2] = {
	{PTORT_I8, PTORT_I8},		  {PTORT_F16, PTORT_F16},
	{PTORT_BF16, PTORT_BF16},	  {PTORT_F32, PTORT_F32},
	{PTORT_F8E4M3FN, PTORT_F8E4M3FN}, {PTORT_F8E4M3FN, PTORT_F8E5M2},
	{PTORT_F8E5M2, PTORT_F8E4M3FN},	  {PTORT_F8E5M2, PTORT_F8E5M2},
	{PTORT_HIF8, PTORT_HIF8},
};
static const ptort_type mx_pairs[][2] = {
	{PTORT_F8E4M3FN, PTORT_F8E4M3FN}, {PTORT_F8E5M2, PTORT_F8E4M3FN},
	{PTORT_F8E5M2, PTORT_F8E5M2},	  {PTORT_F4E2M1FN, PTORT_F4E2M1FN},
	{PTORT_F4E1M2, PTORT_F4E2M1FN},	  {PTORT_F4E1M2, PTORT_F4E1M2},
};

static void sweep(int quick)
{
	static const uint32_t shapes[][3] = {
		{1, 1, 1},     {16, 16, 16},   {5, 75, 11},	 {31, 120, 58}, {1, 256, 64},
		{16, 32, 16},  {65, 90, 89},   {16, 512, 64}, {9, 257, 47},  {33, 300, 65},
		{2, 4095, 3},  {4095, 2, 1},   {1, 3, 4095},
	};
	size_t nshape = quick ? 6 : sizeof shapes / sizeof shapes[0], p, s;
	int g, i;
	struct mcase cs;
	/* every pair x shape x init once (generator cycling) */
	for (p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
		for (s = 0; s < nshape; s++) {
			memset(&cs, 0, sizeof cs);
			cs.ta = pairs[p][0], cs.tb = pairs[p][1];
			cs.m = shapes[s][0], cs.k = shapes[s][1], cs.n = shapes[s][2];
			cs.init = (int)((p + s) % 4);
			cs.g = (int)((p * 3 + s) % G_COUNT);
			run_case(&cs);
		}
	/* every pair x generator x init on small random shapes */
	for (p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
		for (g = 0; g < G_COUNT; g++) {
			memset(&cs, 0, sizeof cs);
			cs.ta = pairs[p][0], cs.tb = pairs[p][1];
			cs.m = 1 + rndn(20), cs.k = 1 + rndn(40), cs.n = 1 + rndn(20);
			cs.init = (int)rndn(4);
			cs.g = g;
			run_case(&cs);
		}
	/* every pair on random shapes: k over several kernel blocks (256 steps), m and n
	 * off the kernels' 4/6/8-row and 16/32-column blocks */
	for (p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
		for (i = 0; i < (quick ? 1 : 3); i++) {
			memset(&cs, 0, sizeof cs);
			cs.ta = pairs[p][0], cs.tb = pairs[p][1];
			cs.m = 1 + rndn(40), cs.k = 1 + rndn(quick ? 300 : 700), cs.n = 1 + rndn(70);
			cs.init = (int)rndn(4);
			cs.g = (int)rndn(G_COUNT);
			run_case(&cs);
		}
	/* overlapping operands: an f32 A over C's bytes; C_in over C, shifted */
	for (i = 0; i < 8; i++) {
		memset(&cs, 0, sizeof cs);
		cs.ta = cs.tb = i < 4 ? PTORT_F32 : pairs[rndn(sizeof pairs / sizeof pairs[0])][0];
		cs.tb = cs.ta == PTORT_F8E4M3FN ? PTORT_F8E5M2 : cs.ta;
		cs.m = 1 + rndn(30), cs.k = 1 + rndn(300), cs.n = 1 + rndn(40);
		cs.alias = i < 4 ? 1 : 2;
		cs.init = i < 4 ? (int)rndn(4) : 2;
		cs.g = (int)rndn(G_COUNT);
		run_case(&cs);
	}
	/* MX: k in multiples of 32 (and a ragged one), every generator */
	for (p = 0; p < sizeof mx_pairs / sizeof mx_pairs[0]; p++)
		for (g = 0; g < G_COUNT; g++) {
			memset(&cs, 0, sizeof cs);
			cs.ta = mx_pairs[p][0], cs.tb = mx_pairs[p][1];
			/* k: ragged, several blocks of 32, and over the 256-step k block (ragged
			 * too) */
			cs.m = 1 + rndn(17), cs.n = 1 + rndn(17);
			cs.k = g == 0 ? 40 : g == 1 ? 320 : g == 2 ? 300 : 64 * (1 + rndn(3));
			cs.init = (int)rndn(4);
			cs.mx = 1;
			cs.g = g;
			run_case(&cs);
		}
	/* MX: scales at the top of the exact range (scaled products overflow f32; a few
	 * calls get a scale just above it and take the exact path) and at the bottom
	 * (subnormal and vanishing scaled products) */
	for (p = 0; p < sizeof mx_pairs / sizeof mx_pairs[0]; p++)
		for (i = 0; i < 4; i++) {
			int lo, hi, lo2, hi2;
			memset(&cs, 0, sizeof cs);
			cs.ta = mx_pairs[p][0], cs.tb = mx_pairs[p][1];
			cs.m = 1 + rndn(17), cs.k = 32 * (1 + rndn(4)), cs.n = 1 + rndn(20);
			cs.init = (int)rndn(4);
			cs.mx = 1;
			cs.g = i % 2 ? G_NEAR1 : G_WIDE;
			mx_range(cs.ta, &lo, &hi);
			mx_range(cs.tb, &lo2, &hi2);
			if (i < 2)
				scale_hi = hi < hi2 ? hi : hi2;
			else
				scale_lo = lo > lo2 ? lo : lo2;
			run_case(&cs);
			scale_hi = scale_lo = -1;
		}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	{
		/* the caller's FP environment must not matter: FTZ+DAZ and round toward zero */
		unsigned csr = __builtin_ia32_stmxcsr();
		__builtin_ia32_ldmxcsr(csr | 0x8040u | 0x6000u);
		memset(&cs, 0, sizeof cs);
		cs.ta = cs.tb = PTORT_F32, cs.g = G_TINY, cs.m = 7, cs.k = 33, cs.n = 19;
		run_case(&cs);
		cs.ta = cs.tb = PTORT_F8E5M2, cs.mx = 1, cs.k = 64, cs.g = G_NEAR1, cs.init = 2;
		run_case(&cs);
		CHECK(__builtin_ia32_stmxcsr() == (csr | 0x8040u | 0x6000u), "MXCSR not restored");
		__builtin_ia32_ldmxcsr(csr);
	}
#endif
	if (!quick) {
		memset(&cs, 0, sizeof cs);
		cs.ta = cs.tb = PTORT_F8E4M3FN, cs.mx = 1, cs.g = G_NEAR1;
		cs.m = 31, cs.k = 128, cs.n = 58, cs.init = 1;
		run_case(&cs);
	}
}

/* ---- reported errors: nothing written, the first message kept ----------------------- */

static void expect_error(ptort_ctx *ctx, int rc, const char *what, const char *sub)
{
	const char *e = ptort_ctx_error(ctx);
	CHECK(rc == -1, "%s: rc %d", what, rc);
	CHECK(e && strstr(e, sub), "%s: message '%s', want '%s'", what, e ? e : "(none)", sub);
	ptort_ctx_clear_error(ctx);
}

static void errors(void)
{
	static const uint32_t cap[PTORT_MEM_COUNT] = {4096, 4096, 4096, 4096, 4096, 1024, 1024};
	ptort_ctx *ctx = ptort_ctx_create(cap);
	ptort_tile a, b, c, bias, sa, sb;
	uint32_t ad[PTORT_MEM_COUNT] = {0};
	uint8_t before[4096];
	if (!ctx)
		abort();
	a = mk(PTORT_MEM_L0A, PTORT_F16, 3, 512, 16, 16, &ad[PTORT_MEM_L0A], 0);
	b = mk(PTORT_MEM_L0B, PTORT_F16, 4, 512, 16, 16, &ad[PTORT_MEM_L0B], 0);
	c = mk(PTORT_MEM_L0C, PTORT_F32, 3, 1024, 16, 16, &ad[PTORT_MEM_L0C], 0);
	bias = mk(PTORT_MEM_BIAS, PTORT_F32, 0, 0, 1, 16, &ad[PTORT_MEM_BIAS], 0);
	memset(ptort_mem_base(ctx, PTORT_MEM_L0C), 0x5A, 4096);
	memcpy(before, ptort_mem_base(ctx, PTORT_MEM_L0C), 4096);
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 0, 16, 16, 0, NULL), "m 0", "m = 0 outside [1, 4095]");
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 17, 16, 0, NULL), "k 17", "left tile 16x16 is smaller");
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 4096, 0, NULL), "n 4096", "n = 4096");
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, 7, NULL), "init 7", "unknown init 7");
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, PTORT_MMAD_INIT_BIAS, NULL),
		     "no bias", "bias tile is NULL");
	bias.type = PTORT_F16;
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, PTORT_MMAD_INIT_BIAS, &bias),
		     "bias f16", "bias type f16 differs from the destination's f32");
	bias.type = PTORT_F32;
	b.type = PTORT_BF16;
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, 0, NULL), "f16 x bf16",
		     "no matrix multiply f16 x bf16 -> f32");
	b.type = PTORT_F16;
	c.type = PTORT_I32;
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, 0, NULL), "f16 -> i32",
		     "no matrix multiply f16 x f16 -> i32");
	c.type = PTORT_F32;
	c.addr = 4096 - 512;
	expect_error(ctx, ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, 0, NULL), "C outside L0C",
		     "exceeds L0C capacity");
	c.addr = 0;
	CHECK(memcmp(before, ptort_mem_base(ctx, PTORT_MEM_L0C), 4096) == 0,
	      "a rejected mmad wrote L0C");
	CHECK(ptort_mmad(ctx, &c, &a, &b, 16, 16, 16, 0, NULL) == 0 && !ptort_ctx_error(ctx),
	      "valid call rejected: %s", ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
	memcpy(before, ptort_mem_base(ctx, PTORT_MEM_L0C), 4096);
	sa = mk(PTORT_MEM_SCALING, PTORT_F8E8M0FNU, 0, 0, 16, 1, &ad[PTORT_MEM_SCALING], 0);
	sb = mk(PTORT_MEM_SCALING, PTORT_F8E8M0FNU, 0, 0, 1, 16, &ad[PTORT_MEM_SCALING], 0);
	expect_error(ctx, ptort_mmad_mx(ctx, &c, &a, &sa, &b, &sb, 16, 16, 16, 0, NULL), "mx f16",
		     "no scaled matrix multiply f16 x f16 -> f32");
	a = mk(PTORT_MEM_L0A, PTORT_F8E4M3FN, 3, 512, 16, 32, &ad[PTORT_MEM_L0A], 0);
	b = mk(PTORT_MEM_L0B, PTORT_F8E5M2, 4, 512, 32, 16, &ad[PTORT_MEM_L0B], 0);
	sb.type = PTORT_F8E5M2;
	expect_error(ctx, ptort_mmad_mx(ctx, &c, &a, &sa, &b, &sb, 16, 32, 16, 0, NULL), "mx scale",
		     "scale tiles must be f8E8M0FNU");
	sb.type = PTORT_F8E8M0FNU;
	expect_error(ctx, ptort_mmad_mx(ctx, &c, &a, &sa, &b, &sb, 16, 64, 16, 0, NULL), "mx k 64",
		     "left tile 16x32 is smaller");
	b.type = PTORT_F4E2M1FN, b.slayout = 0;
	expect_error(ctx, ptort_mmad_mx(ctx, &c, &a, &sa, &b, &sb, 16, 32, 16, 0, NULL), "mx fp8 x fp4",
		     "no scaled matrix multiply f8E4M3FN x f4E2M1FN");
	b.type = PTORT_F8E5M2, b.slayout = 2;
	CHECK(memcmp(before, ptort_mem_base(ctx, PTORT_MEM_L0C), 4096) == 0,
	      "a rejected mmad.mx wrote L0C");
	CHECK(ptort_mmad_mx(ctx, &c, &a, &sa, &b, &sb, 16, 32, 16, 0, NULL) == 0 &&
		      !ptort_ctx_error(ctx),
	      "valid mx call rejected: %s", ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
	(void)bias;
	ptort_ctx_destroy(ctx);
}

int main(void)
{
	const char *q = getenv("MMAD_TEST_QUICK");
	unsigned long fast, exact;
	ref_vectors();
	add_exact_vectors();
	errors();
	mx_range_check();
	sweep(q && *q == '1');
	qwen3_chain(q && *q == '1');
	/* both MX paths ran (the kernels, and the exact one for out-of-range scales) */
	mmad_mx_counts(&fast, &exact);
	CHECK(fast > 0 && exact > 0, "MX paths: %lu calls through the kernels, %lu exact", fast, exact);
	printf("test_mmad: %d cases, kernel level %d\n", ncases, mmad_level());
	return check_report("test_mmad");
}
