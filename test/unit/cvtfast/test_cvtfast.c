/* test_cvtfast.c: every fast conversion kernel (at every instruction-set level the
 * machine has) gives the same bits as the generic decode-round-pack path: all 2^16
 * patterns of 16-bit sources, all 2^8 of 8-bit ones, all pairs of 4-bit ones, and for
 * 32/64-bit sources a boundary set plus random patterns (argument: millions of random
 * inputs, a decimal, default 1), half of them dense in the range of the small formats and with
 * their low bits cleared (exact values and rounding ties). Odd lengths and unaligned
 * offsets exercise the kernels' tails and the bounce buffers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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

static uint64_t get(const unsigned char *p, unsigned bits, size_t i)
{
	uint64_t v = 0;
	if (bits == 4)
		return (p[i / 2] >> ((i & 1) * 4)) & 0xF;
	memcpy(&v, p + i * (bits / 8), bits / 8); /* little-endian host */
	return v;
}

static void put(unsigned char *p, unsigned bits, size_t i, uint64_t v)
{
	if (bits == 4) {
		unsigned sh = (unsigned)(i & 1) * 4;
		p[i / 2] = (unsigned char)((p[i / 2] & ~(0xFu << sh)) | ((v & 0xF) << sh));
		return;
	}
	memcpy(p + i * (bits / 8), &v, bits / 8);
}

/* a random f32 between 2^-30 and 2^32, low bits cleared half of the time */
static uint32_t dense32(void)
{
	uint64_t r = next();
	uint32_t u = ((uint32_t)r & 0x807FFFFFu) | (uint32_t)(97 + (r >> 32) % 64) << 23;
	if (r & (1ull << 40))
		u &= ~((1u << (10 + (r >> 48) % 14)) - 1);
	return u;
}

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
		0x7FFFFFFFu, 0x80000001u, 0x7FFFFF80u, 0x00FFFFFFu, 0x01000001u, 0x5F000000u,
		/* e4m3fn max 448, 464 (tie to 480 = overflow), 480, 512 */
		0x43E00000u, 0x43E7FFFFu, 0x43E80000u, 0x43F00000u, 0x44000000u, 0xC3E80000u,
		/* e4m3fn smallest subnormal 2^-9, half of it, 1.5 of it */
		0x3B000000u, 0x3A800000u, 0x3A800001u, 0x3B400000u, 0xBA800000u,
		/* e5m2 max 57344, 61440 (tie), 2^16, smallest subnormal 2^-16 and half */
		0x47600000u, 0x47700000u, 0x476FFFFFu, 0x47800000u, 0x37800000u, 0x37000000u,
		/* hif8: 32768, 40960 (ROUND threshold), 2^-22, 2^-23, 1.5 * 2^-23, 2^-24 */
		0x47000000u, 0x47200000u, 0x471FFFFFu, 0x34800000u, 0x34000000u, 0x34400000u,
		0x33800000u, 0xB4000000u, 0x34400001u, 0x3FF00000u, 0x3F880000u, 0x41040000u,
		/* hif8 ties where no fraction bit is kept: 1.5 * 2^-21, 1.5 * 2^-20 */
		0x35400000u, 0xB5400000u, 0x35C00000u, 0x35C00001u,
		/* fp4: 6 (e2m1 max), 7 (tie), 1.75 (e1m2 max), 0.25 and 0.125 */
		0x40C00000u, 0x40E00000u, 0x3FE00000u, 0x3E800000u, 0x3E000000u, 0xC0E00000u};
	for (i = 0; i < n; i++) {
		uint64_t v;
		if ((b == 16 && n >= 65535) || (b == 8 && n >= 255) || b == 4)
			v = b == 4 ? (i / 2) >> ((i & 1) * 4) : i; /* every byte once */
		else if (i < sizeof edge32 / sizeof edge32[0] && b == 32)
			v = edge32[i];
		else if (i < 64 && b >= 32) /* small integers and their negatives */
			v = (i & 1) ? (uint64_t)0 - (i / 2) : i / 2;
		else if (b == 32 && t == PTORT_F32 && (i & 1))
			v = dense32();
		else
			v = next();
		put(buf, b, i, v);
	}
}

static size_t bytes_of(unsigned bits, size_t n)
{
	return (n * bits + 7) / 8;
}

static void check_run(ptort_type f, ptort_type t, const unsigned char *src, size_t n, int levels)
{
	unsigned fb = ptort_type_bits(f), tb = ptort_type_bits(t);
	size_t nb = bytes_of(tb, n);
	unsigned char *a = malloc(nb + 16), *b = malloc(nb + 16);
	int rm, sat, lv;
	for (rm = 0; rm < PTORT_RMODE_COUNT; rm++) {
		if (ptort_cvt_check(f, t, (ptort_rmode)rm) != PTORT_CVT_OK)
			continue;
		for (sat = 0; sat < 2; sat++) {
			/* no fast kernel for this pair and mode: nothing to compare */
			if (!ptort_cvt_fast_run(f, t, src, a, n, (ptort_rmode)rm, sat))
				continue;
			memset(b, 0xA5, nb);
			ptort_cvt_run_generic(f, t, src, b, n, (ptort_rmode)rm, sat);
			/* each level without and (hif8 results, SIMD levels) with the tables */
			for (lv = 0; lv <= 2 * levels + 1; lv++) {
				size_t i;
				if (lv % 2 && (t != PTORT_HIF8 || lv / 2 == 0))
					continue;
				ptort_cvt_fast_force_level(lv / 2);
				ptort_cvt_fast_force_tables(lv % 2);
				check_count(1);
				memset(a, 0xA5, nb);
				if (!ptort_cvt_fast_run(f, t, src, a, n, (ptort_rmode)rm, sat)) {
					if (check_failed())
						printf("FAIL %s->%s %s: no kernel at level %d%s\n",
						       ptort_type_name(f), ptort_type_name(t),
						       ptort_rmode_name((ptort_rmode)rm), lv / 2,
						       lv % 2 ? " (tables)" : "");
					continue;
				}
				if (!memcmp(a, b, nb))
					continue;
				for (i = 0; i < n && get(a, tb, i) == get(b, tb, i); i++)
					;
				if (check_failed())
					printf("FAIL %s->%s %s sat=%d level=%d%s n=%zu in=0x%llX fast=0x%llX generic=0x%llX%s\n",
					       ptort_type_name(f), ptort_type_name(t),
					       ptort_rmode_name((ptort_rmode)rm), sat, lv / 2,
					       lv % 2 ? " (tables)" : "", n,
					       (unsigned long long)(i < n ? get(src, fb, i) : 0),
					       (unsigned long long)(i < n ? get(a, tb, i) : 0),
					       (unsigned long long)(i < n ? get(b, tb, i) : 0),
					       i < n ? "" : " (a byte beyond the last element)");
			}
		}
	}
	ptort_cvt_fast_force_level(-1);
	ptort_cvt_fast_force_tables(-1);
	free(a), free(b);
}

static void check_pair(ptort_type f, ptort_type t, size_t n, int levels)
{
	unsigned fb = ptort_type_bits(f);
	unsigned char *src = malloc(bytes_of(fb, n) + 16);
	fill(f, src + 1, n); /* odd address: unaligned on purpose */
	check_run(f, t, src + 1, n, levels);
	if (fb >= 8) {
		memmove(src, src + 1, bytes_of(fb, n));
		check_run(f, t, src, n < 4099 ? n : 4099, levels); /* malloc's alignment */
	}
	if (ptort_type_bits(t) == 4 || fb == 4)
		check_run(f, t, src, n - 1, levels); /* an odd count of nibbles */
	free(src);
}

int main(int argc, char **argv)
{
	static const ptort_type types[] = {
		PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I8, PTORT_I16, PTORT_I32, PTORT_I64,
		PTORT_U8, PTORT_U16, PTORT_U32, PTORT_U64, PTORT_F8E4M3FN, PTORT_F8E5M2,
		PTORT_HIF8, PTORT_F8E8M0FNU, PTORT_F4E2M1FN, PTORT_F4E1M2, PTORT_I4};
	size_t nt = sizeof types / sizeof types[0], i, j;
	size_t nrand = (size_t)((argc > 1 ? atof(argv[1]) : 1.0) * 1e6) + 7;
	for (i = 0; i < nt; i++)
		for (j = 0; j < nt; j++) {
			unsigned b = ptort_type_bits(types[i]);
			size_t n = b == 16 ? 65536 : b == 8 ? 256 : b == 4 ? 512
				 : nrand / (types[i] == PTORT_F32 ? 1 : 4);
			check_pair(types[i], types[j], n, 2);
		}
	return check_report("cvtfast");
}
