/* test_cvtref_self.c: checks the slow reference itself, without the runtime:
 *   - decode/encode round trip of every code of every <= 16-bit float type;
 *   - (mode hif8-table) the HiF8 decode table against reference/hif8_values.md of
 *     the shared folder; SKIP when the file is absent;
 *   - HiF8 by the literal pseudocode vs by generic lattice rounding, in ROUND (they must
 *     agree: ties away at the first discarded bit) over all f16 and many f32 inputs;
 *   - golden values quoted by the references (ODD example, HiF8 ROUND/HYBRID tables);
 *   - f32 -> bf16 RINT against the classic integer formula on random inputs.
 * Usage: test_cvtref_self self [stride]    (stride divides the random counts)
 *        test_cvtref_self hif8-table SHARED-DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cvttest.h"

static int nrand = 4000000;

static double value(ref_val v)
{
	if (v.kind == RV_ZERO)
		return v.neg ? -0.0 : 0.0;
	if (v.kind == RV_INF)
		return v.neg ? -INFINITY : INFINITY;
	if (v.kind == RV_NAN)
		return NAN;
	return ldexp((double)v.sig, v.exp) * (v.neg ? -1 : 1);
}

static void round_trip(void)
{
	for (int t = 0; t < PTORT_TYPE_COUNT; t++) {
		unsigned b = ref_type_bits((ptort_type)t);
		if (b > 16 || t == PTORT_F8E8M0FNU)
			continue;
		for (uint64_t c = 0; c < (1ull << b); c++) {
			ref_val v = ref_decode((ptort_type)t, c);
			uint64_t r = ref_cvt((ptort_type)t, (ptort_type)t, c, PTORT_RINT, 0);
			if (v.kind == RV_NAN)
				CHECK(ref_is_nan((ptort_type)t, r), "%s 0x%llX NaN -> 0x%llX",
				       ref_type_name((ptort_type)t), (unsigned long long)c,
				       (unsigned long long)r);
			else
				CHECK(r == c, "%s round trip 0x%llX -> 0x%llX", ref_type_name((ptort_type)t),
				       (unsigned long long)c, (unsigned long long)r);
			/* every finite code goes to f32 and back */
			if (v.kind == RV_FIN && t != PTORT_F32) {
				uint64_t f = ref_cvt((ptort_type)t, PTORT_F32, c, PTORT_RINT, 0);
				float x;
				uint32_t fb = (uint32_t)f;
				memcpy(&x, &fb, 4);
				CHECK((double)x == value(v), "%s 0x%llX to f32", ref_type_name((ptort_type)t),
				       (unsigned long long)c);
			}
		}
	}
	/* counts of the HiF8 table: 253 finite, 1 NaN, 2 inf */
	int fin = 0, nan = 0, inf = 0;
	for (unsigned c = 0; c < 256; c++) {
		ref_val v = ref_decode(PTORT_HIF8, c);
		fin += v.kind == RV_FIN || v.kind == RV_ZERO;
		nan += v.kind == RV_NAN;
		inf += v.kind == RV_INF;
	}
	CHECK(fin == 253 && nan == 1 && inf == 2, "hif8 classes %d %d %d", fin, nan, inf);
}

/* Parses the table of hif8_values.md: rows "| 0x | cell | ... |". */
static int hif8_table(const char *shared)
{
	char path[4096], line[1024];
	snprintf(path, sizeof path, "%s/reference/hif8_values.md", shared);
	FILE *f = fopen(path, "r");
	int cells = 0;
	if (!f)
		return check_skip("cvt_ref_hif8_table", "%s not found", path);
	while (fgets(line, sizeof line, f)) {
		unsigned hi;
		if (sscanf(line, "| %1xx |", &hi) != 1)
			continue;
		char *p = strchr(line + 1, '|');
		for (unsigned lo = 0; lo < 16 && p; lo++) {
			char cell[64];
			double want;
			p++;
			if (sscanf(p, " %63[^ |]", cell) != 1)
				break;
			if (!strcmp(cell, "+Inf"))
				want = INFINITY;
			else if (!strcmp(cell, "0"))
				want = 0;
			else {
				double m = strtod(cell, NULL);
				char *q = strchr(cell, 'p');
				want = ldexp(m, q ? atoi(q + 1) : 0);
			}
			unsigned code = hi << 4 | lo;
			CHECK(value(ref_decode(PTORT_HIF8, code)) == want, "hif8 0x%02X = %s", code, cell);
			/* the negative half mirrors it except 0x80 (NaN) */
			if (code)
				CHECK(value(ref_decode(PTORT_HIF8, code | 0x80)) == -want,
				       "hif8 0x%02X = -%s", code | 0x80, cell);
			cells++;
			p = strchr(p, '|');
		}
	}
	fclose(f);
	CHECK(cells == 128, "hif8 table: %d cells", cells);
	printf("hif8_values.md: %d cells checked\n", cells);
	return check_report("cvt_ref_hif8_table");
}

static void hif8_agree(void)
{
	uint64_t st = 7;
	for (int sat = 0; sat < 2; sat++) {
		for (uint32_t x = 0; x < 0x10000; x++) {
			uint8_t a = ref_hif8_pseudo_f16((uint16_t)x, PTORT_ROUND, sat);
			uint8_t b = ref_hif8_lattice(ref_decode(PTORT_F16, x), PTORT_ROUND, sat);
			CHECK(a == b, "f16 0x%04X hif8 pseudo 0x%02X lattice 0x%02X sat %d", x, a, b, sat);
		}
		for (int i = 0; i < nrand; i++) {
			uint32_t r = (uint32_t)tst_rand(&st), x;
			if (i & 1) /* exponent in the HiF8 range, random mantissa */
				x = (r & 0x807FFFFFu) | (uint32_t)(127 - 26 + (int)((r >> 23) % 45)) << 23;
			else if (i & 2) /* few mantissa bits set: near ties and lattice points */
				x = (r & 0x80000000u) | ((uint32_t)(127 - 26 + (int)((r >> 8) % 45)) << 23) |
				    ((r & 0xF) << 19) | ((r >> 4 & 3) ? 0 : (r >> 6 & 0x7FFFF));
			else
				x = r;
			uint8_t a = ref_hif8_pseudo_f32(x, PTORT_ROUND, sat);
			uint8_t b = ref_hif8_lattice(ref_decode(PTORT_F32, x), PTORT_ROUND, sat);
			CHECK(a == b, "f32 0x%08X hif8 pseudo 0x%02X lattice 0x%02X sat %d", x, a, b, sat);
		}
	}
}

struct gold {
	ptort_type from, to;
	ptort_rmode rm;
	int sat;
	uint64_t in, out;
};

static void goldens(void)
{
	static const struct gold g[] = {
		/* docs/semantics.md §2 and §3.5: ODD and the other modes on 123.23333 */
		{PTORT_F32, PTORT_F16, PTORT_ODD, 1, 0x42F67777, 0x57B3},
		{PTORT_F32, PTORT_F16, PTORT_RINT, 1, 0x42F67777, 0x57B4},
		{PTORT_F32, PTORT_F16, PTORT_ROUND, 1, 0x42F67777, 0x57B4},
		{PTORT_F32, PTORT_F16, PTORT_TRUNC, 1, 0x42F67777, 0x57B3},
		{PTORT_F32, PTORT_F16, PTORT_FLOOR, 1, 0x42F67777, 0x57B3},
		{PTORT_F32, PTORT_F16, PTORT_CEIL, 1, 0x42F67777, 0x57B4},
		{PTORT_F32, PTORT_F16, PTORT_ODD, 1, 0x3F001000, 0x3801},
		{PTORT_F32, PTORT_F16, PTORT_TRUNC, 1, 0x3F001000, 0x3800},
		/* IEEE overflow and underflow as F16C gives them (sat OFF, docs/semantics.md §3 step 2) */
		{PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0x477FF000, 0x7C00},
		{PTORT_F32, PTORT_F16, PTORT_FLOOR, 0, 0x477FF000, 0x7BFF},
		{PTORT_F32, PTORT_F16, PTORT_CEIL, 0, 0x477FF000, 0x7C00},
		{PTORT_F32, PTORT_F16, PTORT_TRUNC, 0, 0x477FF000, 0x7BFF},
		{PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0x33000001, 0x0001},
		{PTORT_F32, PTORT_F16, PTORT_FLOOR, 0, 0x33000001, 0x0000},
		{PTORT_F32, PTORT_F16, PTORT_CEIL, 0, 0x33000001, 0x0001},
		{PTORT_F32, PTORT_F16, PTORT_RINT, 0, 0x7FC00000, 0x7E00},
		{PTORT_F32, PTORT_F16, PTORT_RINT, 1, 0x7FC00000, 0x0000},
		{PTORT_F32, PTORT_F16, PTORT_RINT, 1, 0xFF800000, 0xFBFF},
		/* bf16 subnormals (AVX512-BF16 gets these wrong) */
		{PTORT_F32, PTORT_BF16, PTORT_RINT, 0, 0x00400000, 0x0040},
		{PTORT_F32, PTORT_BF16, PTORT_RINT, 0, 0x807FFFFF, 0x8080},
		{PTORT_F32, PTORT_BF16, PTORT_RINT, 0, 0x3F008000, 0x3F00},
		{PTORT_F32, PTORT_BF16, PTORT_RINT, 0, 0x3F018000, 0x3F02},
		/* HiF8 ROUND goldens (docs/semantics.md §3.3) */
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x3FE00000, 0x0E},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x41600000, 0x2E},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x3E99999A, 0x32},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0xBE99999A, 0xB2},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x3EAAAAAB, 0x33},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x42C80000, 0x4A},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x447A0000, 0x64},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x38000000, 0x7E},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x37C00000, 0x7E}, /* 1.5 * 2^-16 */
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x37B33333, 0x07}, /* 1.4 * 2^-16 */
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x34800000, 0x01},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x34000000, 0x01},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x33800000, 0x00},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x477FE000, 0x6F}, /* 65504 */
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 1, 0x477FE000, 0x6E},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x80000000, 0x00},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x7FC00000, 0x80},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 1, 0x7FC00000, 0x00},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0xFF800000, 0xEF},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 1, 0xFF800000, 0xEE},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x471FFF00, 0x6E}, /* 40959 */
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x47200000, 0x6F}, /* 40960 */
		/* HYBRID goldens (docs/semantics.md §3.3: from the vendor pseudocode, unverified on hardware) */
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x4255F0CF, 0x46},
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x44F53DAD, 0x65},
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x3CEF1C1B, 0x54},
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x39A13283, 0x78},
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x35D5EC4A, 0x03},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x39A13283, 0x79},
		{PTORT_F32, PTORT_HIF8, PTORT_ROUND, 0, 0x35D5EC4A, 0x04},
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x41800000, 0x41}, /* 16 -> 20 */
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x42C00000, 0x4B}, /* 96 -> 112 */
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x47000000, 0x6F}, /* 32768 -> inf */
		{PTORT_F32, PTORT_HIF8, PTORT_HYBRID, 0, 0x37800000, 0x7E}, /* 2^-16 */
		/* integer rules (docs/semantics.md §3) */
		{PTORT_F16, PTORT_U8, PTORT_RINT, 0, 0x5C04, 0x01},
		{PTORT_F16, PTORT_U8, PTORT_RINT, 1, 0x5C04, 0xFF},
		{PTORT_F16, PTORT_U8, PTORT_RINT, 1, 0xFC00, 0x00},
		{PTORT_F16, PTORT_U8, PTORT_RINT, 0, 0xFC00, 0x00},
		{PTORT_F32, PTORT_I32, PTORT_RINT, 0, 0xFF800000, 0x80000000},
		{PTORT_F32, PTORT_I64, PTORT_RINT, 0, 0x7F800000, 0x7FFFFFFFFFFFFFFF},
		{PTORT_F32, PTORT_I64, PTORT_TRUNC, 0, 0xDF000000, 0x8000000000000000},
		{PTORT_F32, PTORT_I64, PTORT_TRUNC, 0, 0x5F000000, 0x8000000000000000}, /* 2^63 wraps */
		{PTORT_F32, PTORT_I64, PTORT_TRUNC, 1, 0x5F000000, 0x7FFFFFFFFFFFFFFF},
		{PTORT_F32, PTORT_U8, PTORT_RINT, 0, 0xBF800000, 0xFF},
		{PTORT_F32, PTORT_U8, PTORT_RINT, 1, 0xBF800000, 0x00},
		{PTORT_I16, PTORT_U32, PTORT_RINT, 0, 0x8000, 0x0},
		{PTORT_I16, PTORT_U16, PTORT_RINT, 0, 0x8000, 0x8000},
		{PTORT_I16, PTORT_U16, PTORT_RINT, 1, 0x8000, 0x0},
		{PTORT_I64, PTORT_I32, PTORT_RINT, 0, 0x0000000080000000, 0x80000000},
		{PTORT_I64, PTORT_I4, PTORT_RINT, 0, 0x17, 0x7},
		{PTORT_I64, PTORT_I4, PTORT_RINT, 1, 0x17, 0x7},
		{PTORT_I64, PTORT_I4, PTORT_RINT, 1, 0xFFFFFFFFFFFFFFF0, 0x8},
		{PTORT_U64, PTORT_F32, PTORT_RINT, 0, 0xFFFFFFFFFFFFFFFF, 0x5F800000},
		{PTORT_U64, PTORT_F32, PTORT_TRUNC, 0, 0xFFFFFFFFFFFFFFFF, 0x5F7FFFFF},
		{PTORT_I32, PTORT_F16, PTORT_RINT, 1, 0x7FFFFFFF, 0x7BFF},
		{PTORT_I32, PTORT_F16, PTORT_RINT, 0, 0x7FFFFFFF, 0x7C00},
		{PTORT_I32, PTORT_F16, PTORT_RINT, 0, 0x80000000, 0xFC00},
		/* e4m3fn / e5m2 specials */
		{PTORT_F32, PTORT_F8E4M3FN, PTORT_RINT, 0, 0x43E80000, 0x7E}, /* 464: tie to even */
		{PTORT_F32, PTORT_F8E4M3FN, PTORT_RINT, 0, 0x43E80001, 0x7F},
		{PTORT_F32, PTORT_F8E4M3FN, PTORT_RINT, 1, 0x43E80001, 0x7E},
		{PTORT_F32, PTORT_F8E4M3FN, PTORT_RINT, 0, 0xFF800000, 0x7F},
		{PTORT_F32, PTORT_F8E5M2, PTORT_RINT, 0, 0x47700000, 0x7C}, /* 61440 */
		{PTORT_F32, PTORT_F8E5M2, PTORT_RINT, 0, 0x476FFFFF, 0x7B},
		{PTORT_F32, PTORT_F8E5M2, PTORT_RINT, 0, 0x80000000, 0x80},
		/* e8m0 (§3.1) */
		{PTORT_BF16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0x3FC0, 0x7F},
		{PTORT_BF16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0xC040, 0x80},
		{PTORT_BF16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0x0001, 0x00},
		{PTORT_BF16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0x8000, 0x00},
		{PTORT_BF16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0xFF80, 0xFE},
		{PTORT_F8E8M0FNU, PTORT_BF16, PTORT_RINT, 0, 0x00, 0x0040},
		{PTORT_F8E8M0FNU, PTORT_BF16, PTORT_RINT, 0, 0x7F, 0x3F80},
		{PTORT_F8E8M0FNU, PTORT_BF16, PTORT_RINT, 0, 0xFE, 0x7F00},
		/* f32 -> f32 rounds to integral */
		{PTORT_F32, PTORT_F32, PTORT_RINT, 0, 0x3FC00000, 0x40000000},
		{PTORT_F32, PTORT_F32, PTORT_RINT, 0, 0x40200000, 0x40000000},
		{PTORT_F32, PTORT_F32, PTORT_RINT, 0, 0xBE99999A, 0x80000000},
		{PTORT_F32, PTORT_F32, PTORT_CEIL, 0, 0xBE99999A, 0x80000000},
		{PTORT_F32, PTORT_F32, PTORT_FLOOR, 0, 0xBE99999A, 0xBF800000},
		{PTORT_F32, PTORT_F32, PTORT_CEIL, 0, 0x00000001, 0x3F800000},
		{PTORT_F32, PTORT_F32, PTORT_RINT, 0, 0x4B000001, 0x4B000001},
		{PTORT_F32, PTORT_F32, PTORT_RINT, 0, 0x4AFFFFFF, 0x4B000000},
		/* fp4 */
		{PTORT_BF16, PTORT_F4E2M1FN, PTORT_RINT, 0, 0xFF80, 0xF},
		{PTORT_BF16, PTORT_F4E2M1FN, PTORT_RINT, 1, 0x4100, 0x7},
		{PTORT_BF16, PTORT_F4E1M2, PTORT_RINT, 0, 0x3F00, 0x2},
		{PTORT_BF16, PTORT_F4E1M2, PTORT_RINT, 0, 0xBE00, 0x8}, /* -0.125: tie -> -0 */
		{PTORT_BF16, PTORT_F4E1M2, PTORT_RINT, 0, 0xBE80, 0x9},
		/* illegal pairs/modes give 0 */
		{PTORT_F16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0x3C00, 0},
		{PTORT_F32, PTORT_I32, PTORT_ODD, 0, 0x3F800000, 0},
		{PTORT_F32, PTORT_BF16, PTORT_HYBRID, 0, 0x3F800000, 0},
	};
	for (unsigned i = 0; i < sizeof g / sizeof g[0]; i++) {
		uint64_t r = ref_cvt(g[i].from, g[i].to, g[i].in, g[i].rm, g[i].sat);
		CHECK(r == g[i].out, "golden %s->%s %s sat %d 0x%llX: 0x%llX, want 0x%llX",
		       ref_type_name(g[i].from), ref_type_name(g[i].to), ref_mode_name(g[i].rm),
		       g[i].sat, (unsigned long long)g[i].in, (unsigned long long)r,
		       (unsigned long long)g[i].out);
	}
	printf("%u goldens checked\n", (unsigned)(sizeof g / sizeof g[0]));
}

static void bf16_formula(void)
{
	uint64_t st = 99;
	for (int i = 0; i < nrand; i++) {
		uint32_t x = (uint32_t)tst_rand(&st);
		if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFF))
			continue; /* NaN */
		if (i & 1) /* ties and near-ties */
			x = (x & 0xFFFF0000u) | (i & 2 ? 0x8000u : 0x7FFFu + (x >> 3 & 2));
		uint32_t want = (x + 0x7FFFu + (x >> 16 & 1)) >> 16;
		uint64_t r = ref_cvt(PTORT_F32, PTORT_BF16, x, PTORT_RINT, 0);
		CHECK(r == want, "f32 0x%08X -> bf16 0x%04llX, formula 0x%04X", x, (unsigned long long)r,
		       want);
	}
}

static void exactness(void)
{
	CHECK(ref_is_exact(PTORT_F16, PTORT_F32), "f16->f32 exact");
	CHECK(ref_is_exact(PTORT_HIF8, PTORT_F16), "hif8->f16 exact");
	CHECK(ref_is_exact(PTORT_F8E4M3FN, PTORT_BF16), "e4m3->bf16 exact");
	CHECK(ref_is_exact(PTORT_F8E8M0FNU, PTORT_BF16), "e8m0->bf16 exact");
	CHECK(ref_is_exact(PTORT_I16, PTORT_F32), "i16->f32 exact");
	CHECK(ref_is_exact(PTORT_I32, PTORT_I64), "i32->i64 exact");
	CHECK(ref_is_exact(PTORT_U32, PTORT_I64), "ui32->i64 exact");
	CHECK(!ref_is_exact(PTORT_I16, PTORT_U32), "i16->ui32 not exact");
	CHECK(!ref_is_exact(PTORT_F16, PTORT_BF16), "f16->bf16 not exact");
	CHECK(!ref_is_exact(PTORT_I32, PTORT_F32), "i32->f32 not exact");
	CHECK(!ref_is_exact(PTORT_BF16, PTORT_F8E8M0FNU), "bf16->e8m0 not exact");
	CHECK(!ref_is_exact(PTORT_F8E4M3FN, PTORT_HIF8), "e4m3->hif8 not exact");
	CHECK(!ref_is_exact(PTORT_F4E2M1FN, PTORT_HIF8), "e2m1->hif8 not exact (-0)");
	CHECK(ref_is_exact(PTORT_HIF8, PTORT_HIF8), "hif8->hif8 exact");
}

int main(int argc, char **argv)
{
	ref_init();
	if (argc > 2 && !strcmp(argv[1], "hif8-table"))
		return hif8_table(argv[2]);
	if (argc < 2 || strcmp(argv[1], "self")) {
		printf("usage: test_cvtref_self self [stride] | hif8-table SHARED-DIR\n");
		return 2;
	}
	if (argc > 2 && atoi(argv[2]) > 1)
		nrand /= atoi(argv[2]);
	round_trip();
	hif8_agree();
	goldens();
	bf16_formula();
	exactness();
	return check_report("reference self-test");
}
