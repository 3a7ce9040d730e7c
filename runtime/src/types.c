/* types.c: element types and round modes: names, aliases, widths. */
#include <stddef.h>

#include "cvt_internal.h"
#include "ptort.h"

static const struct {
	const char *name;
	unsigned bits;
	unsigned char is_float, is_signed_int;
} type_info[PTORT_TYPE_COUNT] = {
#define TYPE_ROW_(id, name, kind, bits, eb, mb, bias, emax, maxfrac, inf, nan, qnan, nz, sgn) \
	[PTORT_##id] = {name, bits, FMT_##kind != FMT_INT, FMT_##kind == FMT_INT && sgn},
	PTORT_TYPE_LIST(TYPE_ROW_)
#undef TYPE_ROW_
};

/* The other accepted spellings (docs/semantics.md §1); the canonical names are type_info's. */
static const struct {
	const char *s;
	ptort_type t;
} aliases[] = {
	{"half", PTORT_F16},	      {"f8E4M3", PTORT_F8E4M3FN}, {"e4m3", PTORT_F8E4M3FN},
	{"e5m2", PTORT_F8E5M2},	      {"hifloat8", PTORT_HIF8},   {"e2m1", PTORT_F4E2M1FN},
	{"e1m2", PTORT_F4E1M2},	      {"e8m0", PTORT_F8E8M0FNU},  {"int4b", PTORT_I4},
	{"si4", PTORT_I4},	      {"si8", PTORT_I8},	  {"si16", PTORT_I16},
	{"si32", PTORT_I32},	      {"si64", PTORT_I64},
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
	for (i = 0; i < PTORT_TYPE_COUNT; i++)
		if (eq(s, len, type_info[i].name, 0)) {
			*out = (ptort_type)i;
			return 0;
		}
	for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (eq(s, len, aliases[i].s, 0)) {
			*out = aliases[i].t;
			return 0;
		}
	return -1;
}

int ptort_type_is_float(ptort_type t)
{
	return (unsigned)t < PTORT_TYPE_COUNT && type_info[t].is_float;
}

int ptort_type_is_signed_int(ptort_type t)
{
	return (unsigned)t < PTORT_TYPE_COUNT && type_info[t].is_signed_int;
}

static const char *const rmode_names[PTORT_RMODE_COUNT] = {
#define RMODE_NAME_(id) #id,
	PTORT_RMODE_LIST(RMODE_NAME_)
#undef RMODE_NAME_
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
