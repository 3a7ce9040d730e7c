/* types.c: element types and round modes: names, aliases, widths. */
#include <stddef.h>

#include "ptort.h"

static const struct {
	const char *name;
	unsigned bits;
} type_info[PTORT_TYPE_COUNT] = {
	[PTORT_F32] = {"f32", 32},
	[PTORT_F16] = {"f16", 16},
	[PTORT_BF16] = {"bf16", 16},
	[PTORT_F8E4M3FN] = {"f8E4M3FN", 8},
	[PTORT_F8E5M2] = {"f8E5M2", 8},
	[PTORT_HIF8] = {"hif8", 8},
	[PTORT_F4E2M1FN] = {"f4E2M1FN", 4},
	[PTORT_F4E1M2] = {"f4E1M2", 4},
	[PTORT_F8E8M0FNU] = {"f8E8M0FNU", 8},
	[PTORT_I4] = {"i4", 4},
	[PTORT_I8] = {"i8", 8},
	[PTORT_I16] = {"i16", 16},
	[PTORT_I32] = {"i32", 32},
	[PTORT_I64] = {"i64", 64},
	[PTORT_U8] = {"ui8", 8},
	[PTORT_U16] = {"ui16", 16},
	[PTORT_U32] = {"ui32", 32},
	[PTORT_U64] = {"ui64", 64},
};

/* Every accepted spelling, canonical names included (docs/semantics.md §1). */
static const struct {
	const char *s;
	ptort_type t;
} aliases[] = {
	{"f32", PTORT_F32},	    {"f16", PTORT_F16},	      {"half", PTORT_F16},
	{"bf16", PTORT_BF16},	    {"f8E4M3FN", PTORT_F8E4M3FN}, {"f8E4M3", PTORT_F8E4M3FN},
	{"e4m3", PTORT_F8E4M3FN}, {"f8E5M2", PTORT_F8E5M2},   {"e5m2", PTORT_F8E5M2},
	{"hif8", PTORT_HIF8},	    {"hifloat8", PTORT_HIF8},     {"f4E2M1FN", PTORT_F4E2M1FN},
	{"e2m1", PTORT_F4E2M1FN}, {"f4E1M2", PTORT_F4E1M2},   {"e1m2", PTORT_F4E1M2},
	{"f8E8M0FNU", PTORT_F8E8M0FNU}, {"e8m0", PTORT_F8E8M0FNU}, {"i4", PTORT_I4},
	{"int4b", PTORT_I4},	    {"si4", PTORT_I4},	      {"i8", PTORT_I8},
	{"si8", PTORT_I8},	    {"i16", PTORT_I16},	      {"si16", PTORT_I16},
	{"i32", PTORT_I32},	    {"si32", PTORT_I32},	      {"i64", PTORT_I64},
	{"si64", PTORT_I64},	    {"ui8", PTORT_U8},	      {"ui16", PTORT_U16},
	{"ui32", PTORT_U32},	    {"ui64", PTORT_U64},
};

unsigned ptort_type_bits(ptort_type t)
{
	return (unsigned)t < PTORT_TYPE_COUNT ? type_info[t].bits : 0;
}

const char *ptort_type_name(ptort_type t)
{
	return (unsigned)t < PTORT_TYPE_COUNT ? type_info[t].name : "?";
}

static int eq(const char *s, size_t len, const char *lit, int fold)
{
	size_t i;
	for (i = 0; i < len; i++) {
		char a = s[i], b = lit[i];
		if (!b)
			return 0;
		if (fold) {
			if (a >= 'a' && a <= 'z')
				a = (char)(a - 'a' + 'A');
			if (b >= 'a' && b <= 'z')
				b = (char)(b - 'a' + 'A');
		}
		if (a != b)
			return 0;
	}
	return lit[len] == 0;
}

int ptort_type_parse(const char *s, size_t len, ptort_type *out)
{
	size_t i;
	for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (eq(s, len, aliases[i].s, 0)) {
			*out = aliases[i].t;
			return 0;
		}
	return -1;
}

int ptort_type_is_float(ptort_type t)
{
	return t <= PTORT_F8E8M0FNU;
}

int ptort_type_is_signed_int(ptort_type t)
{
	return t >= PTORT_I4 && t <= PTORT_I64;
}

static const char *const rmode_names[PTORT_RMODE_COUNT] = {
	"RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "NONE", "HYBRID",
};

const char *ptort_rmode_name(ptort_rmode m)
{
	return (unsigned)m < PTORT_RMODE_COUNT ? rmode_names[m] : "?";
}

int ptort_rmode_parse(const char *s, size_t len, ptort_rmode *out)
{
	int i;
	if (len > 5 && eq(s, 5, "CAST_", 1)) {
		s += 5;
		len -= 5;
	}
	for (i = 0; i < PTORT_RMODE_COUNT; i++)
		if (eq(s, len, rmode_names[i], 1)) {
			*out = (ptort_rmode)i;
			return 0;
		}
	return -1;
}
