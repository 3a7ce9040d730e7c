/* test_cvt_api.c: the buffer entry points and the deq path against the reference:
 *   - ptort_cvt_2d with random offsets, strides and shapes, 4-bit types on either side:
 *     the whole destination buffer is compared, so untouched elements (and the other
 *     nibble of a shared byte) must keep their bytes;
 *   - ptort_cvt_run with odd n for 4-bit destinations (the high nibble of the last byte
 *     is preserved) and 4-bit sources, n = 0, nothing written past the end;
 *   - illegal pairs: status returned, nothing written;
 *   - ptort_deq1_i32_f16 / ptort_deq_i32_f16 for every f16 scale (every stride-th with
 *     an argument, for the sanitizer build) on a set of i32 values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvttest.h"

static uint64_t st = 42;

static void fail2d(const char *what, ptort_type from, ptort_type to, ptort_rmode rm, int sat,
		   size_t idx, uint64_t got, uint64_t want)
{
	if (check_failed())
		printf("FAIL %s %s->%s %s sat=%d element %zu got=0x%llX expected=0x%llX\n", what,
		       ref_type_name(from), ref_type_name(to), ref_mode_name(rm), sat, idx,
		       (unsigned long long)got, (unsigned long long)want);
}

static ptort_rmode legal_mode(ptort_type from, ptort_type to)
{
	for (;;) {
		ptort_rmode rm = (ptort_rmode)(tst_rand(&st) % PTORT_RMODE_COUNT);
		if (ref_check(from, to, rm) == PTORT_CVT_OK)
			return rm;
	}
}

static void one_2d(ptort_type from, ptort_type to)
{
	size_t rows = 1 + tst_rand(&st) % 6, cols = 1 + tst_rand(&st) % 9;
	size_t so = tst_rand(&st) % 5, ss = cols + tst_rand(&st) % 4;
	size_t dof = tst_rand(&st) % 5, ds = cols + tst_rand(&st) % 4;
	size_t sn = so + (rows - 1) * ss + cols, dn = dof + (rows - 1) * ds + cols + 3;
	size_t sb = tst_bytes(from, sn), db = tst_bytes(to, dn);
	unsigned char *s = malloc(sb), *d = malloc(db), *want = malloc(db);
	ptort_rmode rm = legal_mode(from, to);
	int sat = (int)(tst_rand(&st) & 1);
	for (size_t i = 0; i < sb; i++)
		s[i] = (unsigned char)tst_rand(&st);
	for (size_t i = 0; i < db; i++)
		d[i] = want[i] = (unsigned char)tst_rand(&st);
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++) {
			uint64_t x = tst_get(from, s, so + r * ss + c);
			tst_set(to, want, dof + r * ds + c, ref_cvt(from, to, x, rm, sat));
		}
	ptort_cvt_status rc = ptort_cvt_2d(from, to, s, so, ss, d, dof, ds, rows, cols, rm, sat);
	if (rc != PTORT_CVT_OK)
		fail2d("cvt_2d status", from, to, rm, sat, 0, rc, 0);
	for (size_t i = 0; i < dn; i++) {
		uint64_t g = tst_get(to, d, i), w = tst_get(to, want, i);
		if (g != w)
			fail2d("cvt_2d", from, to, rm, sat, i, g, w);
	}
	if (ref_type_bits(to) == 4 && dn % 2 && (d[db - 1] >> 4) != (want[db - 1] >> 4))
		fail2d("cvt_2d trailing nibble", from, to, rm, sat, dn, d[db - 1] >> 4, want[db - 1] >> 4);
	check_count(1);
	free(s);
	free(d);
	free(want);
}

static void one_run(ptort_type from, ptort_type to, size_t n)
{
	size_t sb = tst_bytes(from, n) + 1, db = tst_bytes(to, n) + 2;
	unsigned char *s = malloc(sb), *d = malloc(db), *want = malloc(db);
	ptort_rmode rm = legal_mode(from, to);
	int sat = (int)(tst_rand(&st) & 1);
	for (size_t i = 0; i < sb; i++)
		s[i] = (unsigned char)tst_rand(&st);
	for (size_t i = 0; i < db; i++)
		d[i] = want[i] = (unsigned char)tst_rand(&st);
	for (size_t i = 0; i < n; i++)
		tst_set(to, want, i, ref_cvt(from, to, tst_get(from, s, i), rm, sat));
	if (ptort_cvt_run(from, to, s, d, n, rm, sat) != PTORT_CVT_OK)
		fail2d("cvt_run status", from, to, rm, sat, n, 1, 0);
	if (memcmp(d, want, db)) {
		size_t i = 0;
		while (d[i] == want[i])
			i++;
		fail2d("cvt_run (n odd/small) byte", from, to, rm, sat, i, d[i], want[i]);
	}
	check_count(1);
	free(s);
	free(d);
	free(want);
}

static void illegal(void)
{
	unsigned char s[16] = {1, 2, 3}, d[16], d0[16];
	memset(d, 0x5A, sizeof d);
	memcpy(d0, d, sizeof d);
	if (ptort_cvt_2d(PTORT_F16, PTORT_F8E8M0FNU, s, 0, 2, d, 0, 2, 2, 2, PTORT_RINT, 0) !=
	    PTORT_CVT_NO_PAIR)
		fail2d("cvt_2d status of an undefined pair", PTORT_F16, PTORT_F8E8M0FNU, PTORT_RINT, 0,
		       0, 0, PTORT_CVT_NO_PAIR);
	if (ptort_cvt_2d(PTORT_F32, PTORT_I32, s, 0, 1, d, 0, 1, 2, 1, PTORT_ODD, 0) !=
	    PTORT_CVT_BAD_MODE)
		fail2d("cvt_2d status of a bad mode", PTORT_F32, PTORT_I32, PTORT_ODD, 0, 0, 0,
		       PTORT_CVT_BAD_MODE);
	if (memcmp(d, d0, sizeof d))
		fail2d("cvt_2d wrote on an illegal call", PTORT_F16, PTORT_F8E8M0FNU, PTORT_RINT, 0, 0, 1,
		       0);
	check_count(3);
}

static void deq(uint32_t stride)
{
	static const int32_t base[] = {0, 1, -1, 2, -2, 3, 7, 2047, 2048, 2049, 4097, 65504, 65519,
				       65520, 65535, 1 << 20, (1 << 20) + 1, 0x7FFFFFFF,
				       -0x7FFFFFFF - 1, -65520, -65504, 123456789, -987654321};
	enum { NV = sizeof base / sizeof base[0] + 40 };
	int32_t v[NV];
	uint16_t out[NV];
	for (int i = 0; i < NV; i++)
		v[i] = i < (int)(sizeof base / sizeof base[0]) ? base[i]
								 : (int32_t)(tst_rand(&st) >> (33 + i % 31));
	for (uint32_t sc = 0; sc < 0x10000; sc += stride) {
		ptort_deq_i32_f16(v, out, NV, (uint16_t)sc);
		for (int i = 0; i < NV; i++) {
			uint16_t w = ref_deq(v[i], (uint16_t)sc), g1 = ptort_deq1_i32_f16(v[i], (uint16_t)sc);
			if (out[i] != w || g1 != w) {
				if (check_failed())
					printf("FAIL deq i32 0x%08X scale 0x%04X: deq 0x%04X deq1 0x%04X "
					       "expected 0x%04X\n",
					       (uint32_t)v[i], sc, out[i], g1, w);
			}
			check_count(1);
		}
	}
}

int main(int argc, char **argv)
{
	uint32_t stride = argc > 1 ? (uint32_t)atoi(argv[1]) : 1;
	static const ptort_type types[] = {PTORT_F32,      PTORT_F16,    PTORT_BF16, PTORT_F8E4M3FN,
					   PTORT_HIF8,     PTORT_F4E2M1FN, PTORT_F4E1M2, PTORT_I4,
					   PTORT_I8,       PTORT_I16,    PTORT_U8,   PTORT_I64};
	enum { NT = sizeof types / sizeof types[0] };
	ref_init();
	for (int a = 0; a < NT; a++)
		for (int b = 0; b < NT; b++) {
			if (ref_check(types[a], types[b], PTORT_RINT) != PTORT_CVT_OK)
				continue;
			for (int k = 0; k < 40; k++)
				one_2d(types[a], types[b]);
			for (size_t n = 0; n < 12; n++)
				one_run(types[a], types[b], n);
		}
	for (int k = 0; k < 20; k++) { /* bf16 <-> e8m0 */
		one_2d(PTORT_BF16, PTORT_F8E8M0FNU);
		one_2d(PTORT_F8E8M0FNU, PTORT_BF16);
	}
	illegal();
	deq(stride < 1 ? 1 : stride);
	return check_report("cvt_api");
}
