/* test_vconv.c: the vector conversion instructions against an independent model.
 * The model walks repeats and lanes with plain loops (docs/semantics.md §5.1 and ptort.h
 * 3.2: lane l = block l/(L/8), element l%(L/8); repeat stride in 32-byte units, block
 * stride in the operand's own block size) and converts each element with ptort_cvt1
 * (or ptort_deq1_i32_f16). The whole memory is compared after each instruction, so
 * unselected lanes and everything around the operands must be untouched. */
#include <stdlib.h>

#include "rtexec_ref.h"

struct vcase {
	ptort_type from, to;
	uint32_t dst, src, repeat;
	uint16_t dbs, sbs, drs, srs;
	uint64_t mh, ml;
	ptort_rmode rm;
	int sat, deq;
	uint16_t scale;
};

static unsigned wider(const struct vcase *k)
{
	unsigned a = ptort_type_bits(k->from), b = ptort_type_bits(k->to);
	return a > b ? a : b;
}

/* bit position of lane l of repeat rep of an operand */
static uint64_t mpos(uint32_t addr, unsigned eb, unsigned W, unsigned rep, unsigned rs,
		     unsigned bs, unsigned l)
{
	unsigned per = 256 / W; /* lanes per block */
	uint64_t blkbits = 256u * eb / W;
	return (uint64_t)addr * 8 + (uint64_t)rep * rs * 256 + (uint64_t)(l / per) * bs * blkbits +
	       (uint64_t)(l % per) * eb;
}

static void model_vconv(uint8_t *m, const struct vcase *k)
{
	unsigned fb = ptort_type_bits(k->from), tb = ptort_type_bits(k->to), W = wider(k);
	unsigned L = 2048 / W, rep, l;
	uint64_t vals[128];
	for (rep = 0; rep < k->repeat; rep++) {
		int on[128];
		for (l = 0; l < L; l++) {
			on[l] = l < 64 ? (int)((k->ml >> l) & 1) : (int)((k->mh >> (l - 64)) & 1);
			if (on[l])
				vals[l] = ref_get(m, mpos(k->src, fb, W, rep, k->srs, k->sbs, l) / fb, fb);
		}
		for (l = 0; l < L; l++) {
			uint64_t y;
			if (!on[l])
				continue;
			y = k->deq ? ptort_deq1_i32_f16((int32_t)(uint32_t)vals[l], k->scale)
				   : ptort_cvt1(k->from, k->to, vals[l], k->rm, k->sat);
			ref_put(m, mpos(k->dst, tb, W, rep, k->drs, k->dbs, l) / tb, tb, y);
		}
	}
}

static int run_vconv(ptort_ctx *ctx, const struct vcase *k)
{
	if (k->deq)
		return ptort_vconv_deq(ctx, PTORT_MEM_UB, k->dst, k->src, k->repeat, k->dbs, k->sbs,
				       k->drs, k->srs, k->mh, k->ml, k->scale);
	return ptort_vconv(ctx, PTORT_MEM_UB, k->dst, k->src, k->from, k->to, k->repeat, k->dbs,
			   k->sbs, k->drs, k->srs, k->mh, k->ml, k->rm, k->sat);
}

/* Runs one case on random memory and compares the whole UB with the model. */
static void check_case(ptort_ctx *ctx, const struct vcase *k, const char *what)
{
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
	uint32_t n = ptort_mem_size(ctx, PTORT_MEM_UB);
	uint8_t *exp = malloc(n);
	uint32_t i;
	int rc;
	rnd_fill(ub, n);
	memcpy(exp, ub, n);
	model_vconv(exp, k);
	rc = run_vconv(ctx, k);
	CHECK(rc == 0 && !ptort_ctx_error(ctx), "%s: rc %d error %s", what, rc,
	      ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "-");
	for (i = 0; i < n && ub[i] == exp[i]; i++)
		;
	CHECK(i == n,
	      "%s: %s->%s rep %u strides %u/%u %u/%u mask %016llx:%016llx: byte 0x%x is %02x, "
	      "model %02x",
	      what, ptort_type_name(k->from), ptort_type_name(k->to), k->repeat, k->dbs, k->sbs,
	      k->drs, k->srs, (unsigned long long)k->mh, (unsigned long long)k->ml, i,
	      i < n ? ub[i] : 0, i < n ? exp[i] : 0);
	free(exp);
	ptort_ctx_clear_error(ctx);
}

static struct vcase mk(ptort_type from, ptort_type to, uint32_t dst, uint32_t src,
		       uint32_t repeat, uint16_t dbs, uint16_t sbs, uint16_t drs, uint16_t srs,
		       uint64_t mh, uint64_t ml)
{
	struct vcase k;
	memset(&k, 0, sizeof k);
	k.from = from, k.to = to, k.dst = dst, k.src = src, k.repeat = repeat;
	k.dbs = dbs, k.sbs = sbs, k.drs = drs, k.srs = srs, k.mh = mh, k.ml = ml;
	k.rm = PTORT_RINT, k.sat = PTORT_SAT_ON;
	return k;
}

static const ptort_type pairs[][2] = {
	{PTORT_F32, PTORT_F16},  {PTORT_F16, PTORT_F32}, {PTORT_F32, PTORT_BF16},
	{PTORT_BF16, PTORT_F32}, {PTORT_F32, PTORT_F32}, {PTORT_F32, PTORT_I32},
	{PTORT_F32, PTORT_I16},  {PTORT_F32, PTORT_I64}, {PTORT_I64, PTORT_F32},
	{PTORT_I64, PTORT_I32},  {PTORT_I32, PTORT_I64}, {PTORT_F16, PTORT_I8},
	{PTORT_F16, PTORT_U8},   {PTORT_F16, PTORT_I32}, {PTORT_F16, PTORT_I16},
	{PTORT_F16, PTORT_I4},   {PTORT_I4, PTORT_F16},  {PTORT_I16, PTORT_F16},
	{PTORT_I32, PTORT_F32},  {PTORT_I32, PTORT_I16}, {PTORT_U8, PTORT_F16},
	{PTORT_I8, PTORT_F16},   {PTORT_BF16, PTORT_I32},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

static uint64_t rnd_mask(unsigned L, uint64_t *mh)
{
	unsigned n;
	uint64_t lo, hi;
	switch (rndn(5)) {
	case 0: /* full */
		lo = hi = UINT64_MAX;
		break;
	case 1: /* prefix (the tail of a row) */
		n = 1 + rndn(L);
		lo = n >= 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
		hi = n >= 128 ? UINT64_MAX : n > 64 ? ((uint64_t)1 << (n - 64)) - 1 : 0;
		break;
	case 2: /* one lane */
		n = rndn(L);
		lo = n < 64 ? (uint64_t)1 << n : 0;
		hi = n >= 64 ? (uint64_t)1 << (n - 64) : 0;
		break;
	default:
		lo = rnd(), hi = rnd();
	}
	if (L < 64)
		lo &= ((uint64_t)1 << L) - 1;
	if (L <= 64)
		hi = rnd(); /* must be ignored */
	if (!(lo | (L > 64 ? hi : 0)))
		lo = 1;
	*mh = hi;
	return lo;
}

/* Random geometry in a 48 KiB UB: source in [0, 20K), destination in [24K, 48K),
 * sometimes the same address (in place) or overlapping. */
static void random_cases(unsigned count)
{
	uint32_t caps[PTORT_MEM_COUNT] = {48 * 1024, 0, 0, 0, 0, 0, 0};
	ptort_ctx *ctx = ptort_ctx_create(caps);
	unsigned i;
	for (i = 0; i < count; i++) {
		const ptort_type *p = pairs[rndn(NPAIRS)];
		struct vcase k = mk(p[0], p[1], 0, 0, 1, 1, 1, 0, 0, 0, 0);
		unsigned fb = ptort_type_bits(k.from), tb = ptort_type_bits(k.to), W = wider(&k);
		unsigned L = 2048 / W, ab = (fb > tb ? fb : tb) / 8;
		uint64_t sext, dext;
		int contig = rndn(3) == 0;
		k.rm = (ptort_rmode)rndn(PTORT_HYBRID);
		if (ptort_cvt_check(k.from, k.to, k.rm) != PTORT_CVT_OK)
			k.rm = PTORT_RINT;
		k.sat = (int)rndn(2);
		k.repeat = 1 + rndn(rndn(4) ? 12 : 60);
		k.sbs = contig ? 1 : (uint16_t)rndn(5);
		k.dbs = contig ? 1 : (uint16_t)rndn(5);
		k.srs = contig ? (uint16_t)(8 * fb / W) : (uint16_t)rndn(20);
		k.drs = contig ? (uint16_t)(8 * tb / W) : (uint16_t)rndn(20);
		k.ml = rnd_mask(L, &k.mh);
		if (contig && rndn(2))
			k.ml = k.mh = UINT64_MAX;
		/* extents (generous) */
		sext = (uint64_t)(k.repeat - 1) * k.srs * 32 + 8ull * (k.sbs + 1) * 32;
		dext = (uint64_t)(k.repeat - 1) * k.drs * 32 + 8ull * (k.dbs + 1) * 32;
		if (sext > 20 * 1024 || dext > 24 * 1024) {
			i--;
			continue;
		}
		k.src = (uint32_t)(rndn((uint32_t)(20 * 1024 - sext) / ab) * ab);
		k.dst = 24 * 1024 + (uint32_t)(rndn((uint32_t)(24 * 1024 - dext) / ab) * ab);
		if (rndn(8) == 0 && dext <= 20 * 1024)
			k.dst = rndn(4) ? k.src : (uint32_t)(k.src + 32 * rndn(4)); /* overlap */
		check_case(ctx, &k, "random");
	}
	ptort_ctx_destroy(ctx);
}

static void fixed_cases(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
	struct vcase k;
	unsigned i;

	/* full contiguous f32 -> f16: one repeat, eight, the maximum of 255 */
	k = mk(PTORT_F32, PTORT_F16, 0x10000, 0, 1, 1, 1, 4, 8, 0, UINT64_MAX);
	check_case(ctx, &k, "full 1");
	k.repeat = 8;
	check_case(ctx, &k, "full 8");
	k.repeat = 255;
	check_case(ctx, &k, "full 255");
	/* the vendor's vec_conv example (docs/semantics.md §5.1): f16 -> i32, mask 64,
	 * 2 repeats, rep strides 8 / 4 */
	k = mk(PTORT_F16, PTORT_I32, 0x8000, 0, 2, 1, 1, 8, 4, 0, UINT64_MAX);
	k.rm = PTORT_ROUND;
	check_case(ctx, &k, "vec_conv example");
	/* 128 lanes with mask_hi: f16 -> i8 */
	k = mk(PTORT_F16, PTORT_I8, 0x8000, 0, 3, 1, 1, 4, 8, 0xF0F0F0F0F0F0F0F0ull, 0x3);
	check_case(ctx, &k, "f16->i8 mask_hi");
	/* single element */
	k = mk(PTORT_F32, PTORT_F16, 0x8000, 0x20, 1, 1, 1, 4, 8, 0, 1);
	check_case(ctx, &k, "single");
	/* per-row tail: 5 rows of 37 valid f32 columns in 256-column tiles */
	k = mk(PTORT_F32, PTORT_BF16, 0x8000, 0, 5, 1, 1, 16, 32, 0, ((uint64_t)1 << 37) - 1);
	check_case(ctx, &k, "row tails");
	/* maximum strides */
	k = mk(PTORT_F32, PTORT_F16, 0x10000, 0, 3, 255, 255, 255, 255, 0, UINT64_MAX);
	check_case(ctx, &k, "max strides");
	/* in place, exact overlap */
	k = mk(PTORT_F32, PTORT_F16, 0x400, 0x400, 16, 1, 1, 4, 8, 0, UINT64_MAX);
	check_case(ctx, &k, "in place");
	/* deq form */
	for (i = 0; i < 6; i++) {
		static const uint16_t scales[] = {0x3C00, 0x1400, 0x5640, 0xBC00, 0x0001, 0x7C00};
		k = mk(PTORT_I32, PTORT_F16, 0x9000, 0x100, 1 + i, 1, 1, 4, 8, 0,
		       i & 1 ? 0x00FF00FF00FF00FFull : UINT64_MAX);
		k.deq = 1, k.scale = scales[i];
		check_case(ctx, &k, "deq");
	}

	/* masked lanes untouched, checked directly: pattern 0xA5 stays */
	memset(ub, 0xA5, 0x1000);
	{
		float one = 1.0f;
		for (i = 0; i < 64; i++)
			memcpy(ub + 0x800 + 4 * i, &one, 4);
	}
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0x800, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8, 0,
			  0x5555555555555555ull, PTORT_RINT, 1) == 0,
	      "alternate mask");
	for (i = 0; i < 64; i++) {
		uint16_t h;
		memcpy(&h, ub + 2 * i, 2);
		CHECK(h == (i % 2 ? 0xA5A5 : 0x3C00), "lane %u is %04x", i, h);
	}
	ptort_ctx_destroy(ctx);
}

/* ---- A5 register form ---------------------------------------------------- */

static void model_v(uint8_t *m, ptort_type from, ptort_type to, uint32_t dst, uint32_t src,
		    uint32_t count, ptort_rmode rm, int sat)
{
	unsigned fb = ptort_type_bits(from), tb = ptort_type_bits(to);
	unsigned L = 2048 / (fb > tb ? fb : tb), i, j;
	uint64_t reg[256];
	for (i = 0; i < count; i += L) { /* one register per step */
		unsigned n = count - i < L ? count - i : L;
		for (j = 0; j < n; j++)
			reg[j] = ref_get(m, (uint64_t)src * 8 / fb + i + j, fb);
		for (j = 0; j < n; j++)
			ref_put(m, (uint64_t)dst * 8 / tb + i + j, tb,
				ptort_cvt1(from, to, reg[j], rm, sat));
	}
}

static void a5_cases(void)
{
	static const uint32_t counts[] = {1, 2, 3, 63, 64, 65, 127, 128, 129, 255, 257, 1001};
	static const ptort_type vp[][2] = {
		{PTORT_F32, PTORT_F16},        {PTORT_F16, PTORT_F32},
		{PTORT_BF16, PTORT_F4E2M1FN},  {PTORT_F4E1M2, PTORT_BF16},
		{PTORT_F32, PTORT_F8E4M3FN},   {PTORT_HIF8, PTORT_F32},
		{PTORT_I32, PTORT_U8},         {PTORT_F32, PTORT_HIF8},
	};
	uint32_t caps[PTORT_MEM_COUNT] = {256 * 1024, 0, 0, 0, 0, 0, 0};
	ptort_ctx *ctx = ptort_ctx_create(caps);
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB), *exp = malloc(64 * 1024);
	unsigned p, c, r;
	for (p = 0; p < sizeof vp / sizeof vp[0]; p++)
		for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
			ptort_type from = vp[p][0], to = vp[p][1];
			ptort_rmode rm = to == PTORT_HIF8 ? PTORT_HYBRID : PTORT_RINT;
			uint32_t src = 0x100, dst = 0x6000;
			int rc, variant;
			for (variant = 0; variant < 3; variant++) {
				uint32_t s = src, d = dst;
				if (variant == 1) /* in place */
					d = s;
				if (variant == 2) /* overlapping, shifted by 64 bytes */
					d = s + 64;
				rnd_fill(ub, 64 * 1024);
				memcpy(exp, ub, 64 * 1024);
				model_v(exp, from, to, d, s, counts[c], rm, 0);
				rc = ptort_vconv_v(ctx, PTORT_MEM_UB, d, s, from, to, counts[c], rm, 0);
				CHECK(rc == 0 && memcmp(ub, exp, 64 * 1024) == 0,
				      "vconv_v %s->%s count %u variant %d", ptort_type_name(from),
				      ptort_type_name(to), counts[c], variant);
			}
		}
	/* 2-D: 7 rows of 37 columns, pitches 256 and 160 bytes */
	rnd_fill(ub, 64 * 1024);
	memcpy(exp, ub, 64 * 1024);
	for (r = 0; r < 7; r++)
		model_v(exp, PTORT_F32, PTORT_F16, 0x4000 + 160 * r, 0x100 + 256 * r, 37, PTORT_CEIL,
			1);
	CHECK(ptort_vconv_v2d(ctx, PTORT_MEM_UB, 0x4000, 0x100, PTORT_F32, PTORT_F16, 7, 37, 160,
			      256, PTORT_CEIL, 1) == 0 &&
		      memcmp(ub, exp, 64 * 1024) == 0,
	      "vconv_v2d");
	/* errors */
	CHECK(ptort_vconv_v(ctx, PTORT_MEM_UB, 0, 0x3FF00, PTORT_F32, PTORT_F16, 128, PTORT_RINT,
			    1) == -1,
	      "vconv_v overflow");
	CHECK(ptort_ctx_error(ctx) &&
		      !strcmp(ptort_ctx_error(ctx),
			      "vconv_v: source range [0x3ff00, 0x40100) exceeds UB capacity 0x40000"),
	      "message: %s", ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "-");
	CHECK(ptort_vconv_v(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_F16, 0, PTORT_RINT, 1) == -1,
	      "count 0");
	CHECK(ptort_vconv_v2d(ctx, PTORT_MEM_UB, 0, 0x1000, PTORT_F32, PTORT_F16, 0xFFFFFFFFu, 4,
			      0xFFFFFFFFu, 0, PTORT_RINT, 1) == -1,
	      "huge pitch");
	CHECK(ptort_ctx_error_count(ctx) == 3, "error count %lu", ptort_ctx_error_count(ctx));
	free(exp);
	ptort_ctx_destroy(ctx);
}

/* ---- errors: reported, nothing done --------------------------------------- */

static void error_cases(void)
{
	ptort_ctx *ctx = ptort_ctx_create(a2a3_caps);
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB);
	uint8_t *before = malloc(0x30000);
	const char *e;
	rnd_fill(ub, 0x30000);
	memcpy(before, ub, 0x30000);
	CHECK(ptort_mem_size(ctx, PTORT_MEM_UB) == 0x30000, "UB size");
	CHECK(ptort_ctx_error(ctx) == NULL, "no error yet");
	/* the source leaves UB: 32 repeats of 256 B from 0x2f000 */
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0x2f000, PTORT_F32, PTORT_F16, 32, 1, 1, 4, 8, 0,
			  UINT64_MAX, PTORT_RINT, 1) == -1,
	      "overflow not reported");
	e = ptort_ctx_error(ctx);
	CHECK(e && !strcmp(e, "vconv: source range [0x2f000, 0x31000) exceeds UB capacity 0x30000"),
	      "message: %s", e ? e : "-");
	/* the destination leaves UB by one byte; the last lane decides */
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0x30000 - 127, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8,
			  0, UINT64_MAX, PTORT_RINT, 1) == -1,
	      "dst overflow");
	/* ... but a masked tail may end exactly at the end */
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0x30000 - 2, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8,
			  0, 1, PTORT_RINT, 1) == 0,
	      "tail at the end");
	memcpy(before, ub, 0x30000);
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_F16, 0, 1, 1, 4, 8, 0,
			  UINT64_MAX, PTORT_RINT, 1) == -1,
	      "repeat 0");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8,
			  UINT64_MAX, 0, PTORT_RINT, 1) == -1,
	      "empty mask (mask_hi ignored with 64 lanes)");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_F8E8M0FNU, 1, 1, 1, 4, 8, 0,
			  1, PTORT_RINT, 1) == -1,
	      "undefined pair");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_BF16, 1, 1, 1, 4, 8, 0, 1,
			  PTORT_ODD, 1) == -1,
	      "bad mode");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, (ptort_type)200, PTORT_F16, 1, 1, 1, 4, 8, 0,
			  1, PTORT_RINT, 1) == -1,
	      "bad type");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8, 0, 1,
			  (ptort_rmode)77, 1) == -1,
	      "bad rmode");
	CHECK(ptort_vconv(ctx, (ptort_mem)9, 0, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8, 0, 1,
			  PTORT_RINT, 1) == -1,
	      "bad memory");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_I8, PTORT_U8, 1, 1, 1, 4, 8, 0, 1,
			  PTORT_RINT, 1) == -1,
	      "8-bit pair");
	CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0xFFFFFF00u, 0, PTORT_F32, PTORT_F16, 0xFFFFFFFFu,
			  0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, UINT64_MAX, UINT64_MAX, PTORT_RINT,
			  1) == -1,
	      "huge everything");
	CHECK(ptort_vconv_deq(ctx, PTORT_MEM_UB, 0x2fff0, 0, 1, 1, 1, 4, 8, 0, UINT64_MAX,
			      0x3C00) == -1,
	      "deq overflow");
	CHECK(memcmp(before, ub, 0x30000) == 0, "memory changed by a reported instruction");
	/* the first message is kept */
	e = ptort_ctx_error(ctx);
	CHECK(e && !strncmp(e, "vconv: source range [0x2f000,", 29), "first kept: %s", e ? e : "-");
	CHECK(ptort_ctx_error_count(ctx) == 12, "count %lu", ptort_ctx_error_count(ctx));
	ptort_ctx_clear_error(ctx);
	CHECK(!ptort_ctx_error(ctx) && !ptort_ctx_error_count(ctx), "clear");
	/* a memory of capacity 0 */
	CHECK(ptort_vconv(ctx, PTORT_MEM_BIAS, 0, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8, 0, 1,
			  PTORT_RINT, 1) == 0,
	      "bias is 1 KiB here");
	ptort_ctx_destroy(ctx);
	{
		uint32_t zero[PTORT_MEM_COUNT] = {0, 0, 0, 0, 0, 0, 0};
		ctx = ptort_ctx_create(zero);
		CHECK(ctx && ptort_mem_base(ctx, PTORT_MEM_UB) != NULL, "empty ctx");
		CHECK(ptort_vconv(ctx, PTORT_MEM_UB, 0, 0, PTORT_F32, PTORT_F16, 1, 1, 1, 4, 8, 0, 1,
				  PTORT_RINT, 1) == -1,
		      "zero capacity");
		ptort_ctx_destroy(ctx);
	}
	ptort_ctx_destroy(NULL);
	CHECK(ptort_mem_base(NULL, PTORT_MEM_UB) == NULL && ptort_mem_size(NULL, PTORT_MEM_UB) == 0,
	      "NULL ctx");
	CHECK(!strcmp(ptort_mem_name(PTORT_MEM_L0C), "L0C") &&
		      !strcmp(ptort_mem_name((ptort_mem)42), "?"),
	      "names");
	free(before);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1500;
	fixed_cases();
	random_cases(n);
	a5_cases();
	error_cases();
	return check_report("test_vconv");
}
