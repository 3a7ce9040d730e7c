/* test_cvtfast.c: every fast conversion kernel (at every instruction-set level the
 * machine has) gives the same bits as the generic decode-round-pack path: all 2^16
 * patterns of 16-bit sources, all 2^8 of 8-bit ones, and for 32/64-bit sources a
 * boundary set plus random patterns (argument: millions of random inputs, default 1).
 * Odd lengths and unaligned offsets exercise the kernels' tails. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvt_internal.h"
#include "ptort.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int failures;

static void fill(ptort_type t, unsigned char *buf, size_t n)
{
	unsigned b = ptort_type_bits(t);
	size_t i;
	static const uint32_t edge32[] = {
		0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu,
		0x00000001u, 0x807FFFFFu, 0x477FE000u, 0x477FEFFFu, 0x477FF000u, 0x477FF001u,
		0xC77FF000u, 0x47800000u, 0x33000000u, 0x33000001u, 0xB3000000u, 0x32FFFFFFu,
		0x387FE000u, 0x387FF000u, 0x4F000000u, 0x4F800000u, 0xCF000000u, 0xCF000001u,
		0x4EFFFFFFu, 0x3F000000u, 0xBF000000u, 0x3FC00000u, 0x7F7FFFFFu, 0x7F7F8000u,
		0x7F7F7FFFu, 0x46FFFE00u, 0x47000000u, 0xC7000080u, 0x437F8000u, 0x43800000u,
		0x7FFFFFFFu, 0x80000001u, 0x7FFFFF80u, 0x00FFFFFFu, 0x01000001u, 0x5F000000u};
	for (i = 0; i < n; i++) {
		uint64_t v;
		if (b == 16 && n == 65536)
			v = i;
		else if (b == 8 && n == 256)
			v = i;
		else if (i < sizeof edge32 / sizeof edge32[0] && b == 32)
			v = edge32[i];
		else if (i < 64 && b >= 32) /* small integers and their negatives */
			v = (i & 1) ? (uint64_t)0 - (i / 2) : i / 2;
		else
			v = next();
		switch (b) {
		case 8: buf[i] = (unsigned char)v; break;
		case 16: { uint16_t x = (uint16_t)v; memcpy(buf + 2 * i, &x, 2); break; }
		case 32: { uint32_t x = (uint32_t)v; memcpy(buf + 4 * i, &x, 4); break; }
		default: memcpy(buf + 8 * i, &v, 8); break;
		}
	}
}

static void check_pair(ptort_type f, ptort_type t, size_t n, int levels)
{
	unsigned fb = ptort_type_bits(f) / 8, tb = ptort_type_bits(t) / 8;
	unsigned char *src = malloc(n * fb + 16), *a = malloc(n * tb + 16), *b = malloc(n * tb + 16);
	int rm, sat, lv;
	fill(f, src + 1, n); /* odd address: unaligned on purpose */
	for (rm = 0; rm < PTORT_RMODE_COUNT; rm++) {
		if (ptort_cvt_check(f, t, (ptort_rmode)rm) != PTORT_CVT_OK)
			continue;
		for (sat = 0; sat < 2; sat++) {
			ptort_cvt_run_generic(f, t, src + 1, b, n, (ptort_rmode)rm, sat);
			for (lv = 0; lv <= levels; lv++) {
				size_t i;
				ptort_cvt_fast_force_level(lv);
				memset(a, 0xA5, n * tb);
				if (!ptort_cvt_fast_run(f, t, src + 1, a, n, (ptort_rmode)rm, sat))
					break; /* no fast kernel for this pair/mode: nothing to compare */
				for (i = 0; i < n * tb; i += tb)
					if (memcmp(a + i, b + i, tb)) {
						uint64_t x = 0, ga = 0, gb = 0;
						memcpy(&x, src + 1 + (i / tb) * fb, fb);
						memcpy(&ga, a + i, tb);
						memcpy(&gb, b + i, tb);
						if (failures++ < 30)
							printf("FAIL %s->%s %s sat=%d level=%d in=0x%llX fast=0x%llX generic=0x%llX\n",
							       ptort_type_name(f), ptort_type_name(t),
							       ptort_rmode_name((ptort_rmode)rm), sat, lv,
							       (unsigned long long)x, (unsigned long long)ga,
							       (unsigned long long)gb);
						break;
					}
			}
		}
	}
	ptort_cvt_fast_force_level(-1);
	free(src), free(a), free(b);
}

int main(int argc, char **argv)
{
	static const ptort_type types[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I8, PTORT_I16,
					   PTORT_I32, PTORT_I64, PTORT_U8, PTORT_U16, PTORT_U32,
					   PTORT_U64};
	size_t nt = sizeof types / sizeof types[0], i, j;
	size_t nrand = (argc > 1 ? (size_t)atoi(argv[1]) : 1) * 1000000 + 7;
	for (i = 0; i < nt; i++)
		for (j = 0; j < nt; j++) {
			unsigned b = ptort_type_bits(types[i]);
			size_t n = b == 16 ? 65536 : b == 8 ? 256 : nrand / (types[i] == PTORT_F32 ? 1 : 4);
			check_pair(types[i], types[j], n, 2);
		}
	printf("%s (%d failures)\n", failures ? "FAIL" : "ok", failures);
	return failures != 0;
}
