/* cvttest.c: helpers shared by the cvt tests (see cvttest.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvttest.h"

uint64_t tst_checked, tst_failed;
static unsigned printed[PTORT_TYPE_COUNT][PTORT_TYPE_COUNT];

uint64_t tst_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

size_t tst_bytes(ptort_type t, size_t n)
{
	unsigned b = ref_type_bits(t);
	return b == 4 ? (n + 1) / 2 : n * (b / 8);
}

uint64_t tst_get(ptort_type t, const void *buf, size_t i)
{
	const unsigned char *p = buf;
	unsigned b = ref_type_bits(t);
	uint64_t v = 0;
	if (b == 4)
		return (uint64_t)(p[i / 2] >> (i % 2 * 4) & 0xF);
	for (unsigned k = 0; k < b / 8; k++)
		v |= (uint64_t)p[i * (b / 8) + k] << (8 * k);
	return v;
}

void tst_set(ptort_type t, void *buf, size_t i, uint64_t v)
{
	unsigned char *p = buf;
	unsigned b = ref_type_bits(t);
	if (b == 4) {
		unsigned sh = i % 2 * 4;
		p[i / 2] = (unsigned char)((p[i / 2] & ~(0xFu << sh)) | (v & 0xF) << sh);
		return;
	}
	for (unsigned k = 0; k < b / 8; k++)
		p[i * (b / 8) + k] = (unsigned char)(v >> (8 * k));
}

static void fail(ptort_type from, ptort_type to, ptort_rmode rm, int sat, const char *how,
		 uint64_t in, uint64_t got, uint64_t exp)
{
	tst_failed++;
	if (printed[from][to]++ >= TST_PRINT_LIMIT) {
		if (printed[from][to] == TST_PRINT_LIMIT + 1)
			printf("  (further %s->%s failures not printed)\n", ref_type_name(from),
			       ref_type_name(to));
		return;
	}
	printf("FAIL %s->%s %s sat=%s [%s] in=0x%llX got=0x%llX expected=0x%llX\n",
	       ref_type_name(from), ref_type_name(to), ref_mode_name(rm), sat ? "on" : "off", how,
	       (unsigned long long)in, (unsigned long long)got, (unsigned long long)exp);
}

uint64_t tst_check(ptort_type from, ptort_type to, ptort_rmode rm, int sat, const uint64_t *src,
		   size_t n, unsigned cvt1_every)
{
	uint64_t before = tst_failed;
	size_t sb = tst_bytes(from, n), db = tst_bytes(to, n);
	unsigned char *s = calloc(sb ? sb : 1, 1), *d = malloc(db + 1), *d0 = malloc(db + 1);
	ptort_cvt_status want = ref_check(from, to, rm), st;
	if (!s || !d || !d0) {
		printf("out of memory\n");
		exit(2);
	}
	for (size_t i = 0; i < n; i++)
		tst_set(from, s, i, src[i]);
	memset(d, 0xA5, db + 1);
	memcpy(d0, d, db + 1);
	st = ptort_cvt_check(from, to, rm);
	if (st != want)
		fail(from, to, rm, sat, "cvt_check status", 0, st, want);
	st = ptort_cvt_run(from, to, s, d, n, rm, sat);
	if (st != want)
		fail(from, to, rm, sat, "cvt_run status", 0, st, want);
	if (want != PTORT_CVT_OK) {
		if (memcmp(d, d0, db + 1))
			fail(from, to, rm, sat, "cvt_run wrote on an illegal pair", 0, 1, 0);
		for (size_t i = 0; i < n && cvt1_every; i += cvt1_every) {
			uint64_t g = ptort_cvt1(from, to, src[i], rm, sat);
			if (g)
				fail(from, to, rm, sat, "cvt1 illegal -> 0", src[i], g, 0);
		}
		tst_checked += n;
		goto out;
	}
	if (d[db] != 0xA5)
		fail(from, to, rm, sat, "cvt_run wrote past the end", 0, d[db], 0xA5);
	for (size_t i = 0; i < n; i++) {
		uint64_t e = ref_cvt(from, to, src[i], rm, sat), g = tst_get(to, d, i);
		if (g != e)
			fail(from, to, rm, sat, "cvt_run", src[i], g, e);
		if (cvt1_every && i % cvt1_every == 0) {
			g = ptort_cvt1(from, to, src[i], rm, sat);
			if (g != e)
				fail(from, to, rm, sat, "cvt1", src[i], g, e);
		}
	}
	tst_checked += n;
out:
	free(s);
	free(d);
	free(d0);
	return tst_failed - before;
}

uint64_t tst_random_count(const char *arg)
{
	const char *env = getenv("PTOC_CVT_RANDOM");
	if (env && *env)
		return strtoull(env, NULL, 0);
	return arg ? strtoull(arg, NULL, 0) : 1000000;
}
