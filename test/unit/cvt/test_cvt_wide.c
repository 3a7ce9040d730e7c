/* test_cvt_wide.c: 32- and 64-bit sources (f32, i32, ui32, i64, ui64) to every
 * destination type: ptort_cvt_run and ptort_cvt1 against the reference on
 *   - boundary sets: every power of two +-2 ulp, zeros, subnormals, max/min, infs, NaN
 *     payloads, integer-type limits; for each <= 16-bit float destination every value
 *     and every rounding tie (midpoint of neighbours, and the overflow midpoint above
 *     the max) +-3 ulp, both signs; for integer sources 2^e +- 2^s (+-1), 2^e + 3*2^s,
 *     the limits of every integer type +-2;
 *     in every legal mode and both saturation settings;
 *   - `count` random patterns per pair (cycling through the legal modes and sat
 *     settings batch by batch), half uniform bits, half biased to interesting ranges;
 *     ptort_cvt1 on every 16th random pattern (it is the slow single-element entry).
 * Usage: test_cvt_wide <src-type> [count] [stride]  (env PTOC_CVT_RANDOM overrides count;
 * stride > 1 keeps every stride-th boundary pattern, for the sanitizer build) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvttest.h"

static uint64_t *set;
static size_t nset, capset;

static void add(uint64_t v)
{
	if (nset == capset) {
		capset = capset ? capset * 2 : 1 << 16;
		set = realloc(set, capset * sizeof *set);
		if (!set)
			exit(2);
	}
	set[nset++] = v;
}

static uint32_t f2b(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* f32 pattern of x and its neighbours +-k ulp (same sign, no wrap), both signs */
static void add_f32(uint32_t b, int k)
{
	b &= 0x7FFFFFFFu;
	for (int d = -k; d <= k; d++) {
		int64_t c = (int64_t)b + d;
		if (c < 0 || c > 0x7F800000)
			continue;
		add((uint64_t)c);
		add((uint64_t)c | 0x80000000u);
	}
}

static void add_double(double x, int k)
{
	float f = (float)x;
	if ((double)f == x && isfinite(f))
		add_f32(f2b(f), k);
}

static double val(ref_val v)
{
	return ldexp((double)v.sig, v.exp);
}

static void f32_generic(void)
{
	static const uint32_t nans[] = {0x7FC00000u, 0x7F800001u, 0x7FBFFFFFu, 0x7FFFFFFFu,
					0xFFC00001u, 0xFF800001u, 0x7FC12345u, 0xFFFFFFFFu};
	for (unsigned i = 0; i < sizeof nans / sizeof nans[0]; i++)
		add(nans[i]);
	add(0x7F800000u);
	add(0xFF800000u);
	add_f32(0, 3); /* zeros and the smallest subnormals */
	add_f32(0x007FFFFFu, 3);
	add_f32(0x00800000u, 3);
	add_f32(0x7F7FFFFFu, 3);
	for (int e = -149; e <= 127; e++)
		add_double(ldexp(1, e), 2);
	for (int k = -40; k <= 40; k++) /* quarters: integer ties of every mode */
		add_double(k * 0.25, 1);
	for (int n = 1; n <= 64; n++) { /* limits of every integer width */
		add_double(ldexp(1, n), 2);
		add_double(ldexp(1, n) - 1, 2);
		add_double(ldexp(1, n) + 1, 2);
		add_double(ldexp(1, n) - 0.5, 1);
		add_double(ldexp(1, n) + 0.5, 1);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Every value and rounding tie of a <= 16-bit float destination. */
static void f32_dest(ptort_type to)
{
	unsigned b = ref_type_bits(to);
	size_t n = 0;
	double *v = malloc(sizeof(double) << b);
	if (!v)
		exit(2);
	for (uint64_t c = 0; c < (1ull << b); c++) {
		ref_val r = ref_decode(to, c);
		if (r.kind == RV_FIN && !r.neg)
			v[n++] = val(r);
	}
	qsort(v, n, sizeof *v, cmp);
	add_double(v[0] / 2, 3);
	for (size_t i = 0; i < n; i++) {
		add_double(v[i], 3);
		if (i + 1 < n)
			add_double((v[i] + v[i + 1]) / 2, 3);
	}
	/* the overflow midpoints above the max (candidate top-binade quanta) */
	double mx = v[n - 1], gap = n > 1 ? mx - v[n - 2] : mx;
	double q[] = {gap, 2 * gap, mx / 2, mx / 4};
	for (int i = 0; i < 4; i++) {
		add_double(mx + q[i] / 2, 3);
		add_double(mx + q[i], 3);
	}
	free(v);
}

static void int_set(ptort_type from)
{
	unsigned w = ref_type_bits(from);
	uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1;
	for (int e = 0; e < 64; e++) {
		uint64_t p = 1ull << e;
		for (int s = 0; s <= e; s++) {
			uint64_t q = 1ull << s;
			uint64_t c[] = {p + q, p - q, p + q + 1, p + q - 1, p - q + 1, p - q - 1,
					p + 3 * q, p + 3 * q + 1, p + 3 * q - 1, p + q / 2 * 3};
			for (int i = 0; i < 10; i++) {
				add(c[i] & m);
				add((0 - c[i]) & m);
			}
		}
		for (int d = -2; d <= 2; d++) {
			add((p + (uint64_t)(int64_t)d) & m);
			add((0 - p + (uint64_t)(int64_t)d) & m);
		}
	}
	for (int d = -3; d <= 3; d++)
		add((uint64_t)(int64_t)d & m);
}

static uint64_t rand_pattern(ptort_type from, uint64_t *st)
{
	uint64_t r = tst_rand(st), r2;
	if (from == PTORT_F32) {
		uint32_t x = (uint32_t)r;
		if (r >> 63) /* exponent 2^-27 .. 2^70 */
			x = (x & 0x807FFFFFu) | (uint32_t)(100 + (r >> 40) % 98) << 23;
		if ((r >> 62 & 1) && (r >> 61 & 1)) /* few low bits: ties */
			x &= ~(uint32_t)((r >> 32) & 0x3FFFF) | 0xFF800000u;
		return x;
	}
	r2 = tst_rand(st);
	uint64_t v = r2 >> (r % 64);
	if (r >> 63)
		v = 0 - v;
	return v & (ref_type_bits(from) >= 64 ? ~0ull : (1ull << ref_type_bits(from)) - 1);
}

int main(int argc, char **argv)
{
	ptort_type from;
	if (argc < 2 || ref_type_parse(argv[1], &from)) {
		printf("usage: test_cvt_wide <f32|i32|ui32|i64|ui64> [count]\n");
		return 2;
	}
	uint64_t count = tst_random_count(argc > 2 ? argv[2] : NULL), st = 0x1234 + from;
	ref_init();
	size_t nbound = 0, stride = argc > 3 ? (size_t)atoi(argv[3]) : 1;
	if (stride < 1)
		stride = 1;
	for (int to = 0; to < PTORT_TYPE_COUNT; to++) {
		nset = 0;
		if (from == PTORT_F32) {
			f32_generic();
			if (ref_type_bits((ptort_type)to) <= 16 && !ref_type_is_int((ptort_type)to) &&
			    to != PTORT_F8E8M0FNU)
				f32_dest((ptort_type)to);
		} else {
			int_set(from);
		}
		if (stride > 1) {
			size_t k = 0;
			for (size_t i = 0; i < nset; i += stride)
				set[k++] = set[i];
			nset = k;
		}
		int combos[2 * PTORT_RMODE_COUNT], nc = 0;
		for (int rm = 0; rm < PTORT_RMODE_COUNT; rm++) {
			if (ref_check(from, (ptort_type)to, (ptort_rmode)rm) != PTORT_CVT_OK) {
				/* illegal: statuses only, on a few elements */
				tst_check(from, (ptort_type)to, (ptort_rmode)rm, 0, set, 16, 1);
				continue;
			}
			for (int sat = 0; sat < 2; sat++) {
				tst_check(from, (ptort_type)to, (ptort_rmode)rm, sat, set, nset, 1);
				combos[nc++] = rm * 2 + sat;
			}
		}
		nbound += nset;
		if (!nc)
			continue;
		/* random: batches of 4096, one (mode, sat) per batch in turn */
		uint64_t done = 0;
		uint64_t batch[4096];
		for (int k = 0; done < count; k++) {
			size_t n = count - done < 4096 ? (size_t)(count - done) : 4096;
			for (size_t i = 0; i < n; i++)
				batch[i] = rand_pattern(from, &st);
			int c = combos[k % nc];
			tst_check(from, (ptort_type)to, (ptort_rmode)(c / 2), c % 2, batch, n, 16);
			done += n;
		}
	}
	printf("%s: %zu boundary patterns over all destinations, %llu random per pair\n",
	       ref_type_name(from), nbound, (unsigned long long)count);
	char name[64];
	snprintf(name, sizeof name, "cvt_wide %s", ref_type_name(from));
	free(set);
	return tst_report(name);
}
