/* mm_check.c: inputs and the independent check of end-to-end matmul tests
 * (test/lit/matmul/run.test, test/e2e/matmul.py).
 *
 *   mm_check gen TYPE COUNT SEED FILE
 *       COUNT elements of TYPE: mostly values of moderate range with both signs (so
 *       sums cancel), some zeros, subnormals, extremes, infinities and NaNs (floats),
 *       all bit patterns (integers, e8m0 scales in a small range).
 *   mm_check check ATYPE BTYPE OUTTYPE M K N INIT A B INITFILE OUT [ASCALE BSCALE]
 *       Computes C = mmad(A, B) with the slow exact reference of test/unit/mmad
 *       (mmref.c: integer arithmetic only, no host floating point) from dense row-major
 *       A (MxK), B (KxN), INITFILE (INIT "zero": '-', "bias": 1xN, "c": MxN of the
 *       accumulator type), MX scales ASCALE (M x ceil(K/32)) and BSCALE (ceil(K/32) x N)
 *       when given, converts it to OUTTYPE as a store from acc does (RINT, saturation
 *       ON) and compares OUT (dense MxN of OUTTYPE) bit for bit. Exit 0 when equal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmref.h"
#include "ptort.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

static int parse_type(const char *s, ptort_type *t)
{
	if (ptort_type_parse(s, strlen(s), t)) {
		fprintf(stderr, "mm_check: unknown type '%s'\n", s);
		return -1;
	}
	return 0;
}

static size_t bytes_of(ptort_type t, size_t n)
{
	return (n * ptort_type_bits(t) + 7) / 8;
}

static void put(uint8_t *p, ptort_type t, size_t i, uint64_t v)
{
	unsigned b = ptort_type_bits(t);
	if (b == 4) {
		p[i / 2] = (uint8_t)(i % 2 ? (p[i / 2] & 0x0F) | (v << 4) : (p[i / 2] & 0xF0) | (v & 15));
		return;
	}
	memcpy(p + i * (b / 8), &v, b / 8); /* little-endian host */
}

static uint64_t get(const uint8_t *p, ptort_type t, size_t i)
{
	unsigned b = ptort_type_bits(t);
	uint64_t v = 0;
	if (b == 4)
		return (p[i / 2] >> (i % 2 * 4)) & 15;
	memcpy(&v, p + i * (b / 8), b / 8);
	return v;
}

static uint64_t gen_one(ptort_type t)
{
	uint64_t r = next();
	unsigned pick = (unsigned)(r % 1000);
	uint32_t f;
	if (!ptort_type_is_float(t) || t == PTORT_F8E8M0FNU) {
		if (t == PTORT_F8E8M0FNU) /* scales 2^-8 .. 2^7 */
			return 119 + (r >> 16) % 16;
		return r >> 8;
	}
	if (pick < 20)
		f = 0;
	else if (pick < 30)
		f = 0x80000000u;
	else if (pick < 35)
		f = 0x7F800000u | (uint32_t)((r >> 40) & 1) << 31; /* +-inf */
	else if (pick < 37)
		f = 0x7FC00000u;
	else if (pick < 47)
		f = (uint32_t)(r >> 20) & 0x807FFFFFu; /* an f32 subnormal */
	else if (pick < 60)
		f = 0x7F7FFFFFu | (uint32_t)((r >> 40) & 1) << 31; /* +-max: saturates */
	else /* sign, exponent 2^-7 .. 2^8, any significand */
		f = (uint32_t)(r >> 63) << 31 | (uint32_t)(120 + (r >> 32) % 16) << 23 |
		    ((uint32_t)r & 0x7FFFFFu);
	if (t == PTORT_F32)
		return f;
	return ptort_cvt1(PTORT_F32, t, f, t == PTORT_HIF8 ? PTORT_ROUND : PTORT_RINT, 1);
}

static int cmd_gen(int argc, char **argv)
{
	ptort_type t;
	size_t n, i;
	uint8_t *p;
	FILE *f;
	if (argc != 6 || parse_type(argv[2], &t))
		return 2;
	n = strtoul(argv[3], NULL, 10);
	rng ^= strtoull(argv[4], NULL, 10) * 0x9E3779B97F4A7C15ull;
	next();
	p = calloc(1, bytes_of(t, n) + 1);
	for (i = 0; i < n; i++)
		put(p, t, i, gen_one(t));
	f = fopen(argv[5], "wb");
	if (!f || fwrite(p, 1, bytes_of(t, n), f) != bytes_of(t, n) || fclose(f)) {
		fprintf(stderr, "mm_check: cannot write %s\n", argv[5]);
		return 1;
	}
	free(p);
	return 0;
}

/* Reads exactly `bytes` from `path` into mem at 0. */
static int load(const char *path, uint8_t *mem, size_t bytes)
{
	FILE *f = fopen(path, "rb");
	size_t got;
	if (!f) {
		fprintf(stderr, "mm_check: cannot open %s\n", path);
		return -1;
	}
	got = fread(mem, 1, bytes, f);
	if (got != bytes || fgetc(f) != EOF) {
		fprintf(stderr, "mm_check: %s: expected %zu bytes\n", path, bytes);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static ptort_tile nd(ptort_mem mem, ptort_type t, uint32_t rows, uint32_t cols)
{
	ptort_tile x;
	memset(&x, 0, sizeof x);
	x.mem = (uint8_t)mem;
	x.type = (uint8_t)t;
	x.rows = x.v_rows = rows;
	x.cols = x.v_cols = cols;
	x.fractal = 512;
	return x;
}

static int cmd_check(int argc, char **argv)
{
	ptort_type ta, tb, to, tc;
	uint32_t m, k, n, ks;
	int init, mx = argc == 15;
	uint8_t *mem[PTORT_MEM_COUNT] = {0}, *out;
	ptort_tile a, b, c, it, as, bs;
	size_t i, bad = 0;
	unsigned j;
	if ((argc != 13 && argc != 15) || parse_type(argv[2], &ta) || parse_type(argv[3], &tb) ||
	    parse_type(argv[4], &to))
		return 2;
	m = (uint32_t)strtoul(argv[5], NULL, 10);
	k = (uint32_t)strtoul(argv[6], NULL, 10);
	n = (uint32_t)strtoul(argv[7], NULL, 10);
	ks = (k + 31) / 32;
	init = !strcmp(argv[8], "zero") ? PTORT_MMAD_INIT_ZERO
	       : !strcmp(argv[8], "bias") ? PTORT_MMAD_INIT_BIAS
	       : !strcmp(argv[8], "c")    ? PTORT_MMAD_INIT_C
					  : -1;
	if (init < 0 || !m || !k || !n)
		return 2;
	tc = ta == PTORT_I8 ? PTORT_I32 : PTORT_F32;
	for (j = 0; j < PTORT_MEM_COUNT; j++)
		mem[j] = calloc(1, (size_t)4 * 4096 * 4096 / 16 + 64);
	out = calloc(1, bytes_of(to, (size_t)m * n) + 1);
	a = nd(PTORT_MEM_UB, ta, m, k);
	b = nd(PTORT_MEM_L1, tb, k, n);
	c = nd(PTORT_MEM_L0C, tc, m, n);
	it = nd(PTORT_MEM_BIAS, tc, init == PTORT_MMAD_INIT_BIAS ? 1 : m, n);
	as = nd(PTORT_MEM_L0A, PTORT_F8E8M0FNU, m, ks);
	bs = nd(PTORT_MEM_L0B, PTORT_F8E8M0FNU, ks, n);
	if (load(argv[9], mem[PTORT_MEM_UB], bytes_of(ta, (size_t)m * k)) ||
	    load(argv[10], mem[PTORT_MEM_L1], bytes_of(tb, (size_t)k * n)) ||
	    (init != PTORT_MMAD_INIT_ZERO &&
	     load(argv[11], mem[PTORT_MEM_BIAS], (size_t)4 * it.rows * n)) ||
	    load(argv[12], out, bytes_of(to, (size_t)m * n)) ||
	    (mx && (load(argv[13], mem[PTORT_MEM_L0A], (size_t)m * ks) ||
		    load(argv[14], mem[PTORT_MEM_L0B], (size_t)ks * n))))
		return 1;
	ref_mmad(mem, &c, &a, mx ? &as : NULL, &b, mx ? &bs : NULL, m, k, n, init,
		 init == PTORT_MMAD_INIT_ZERO ? NULL : &it);
	for (i = 0; i < (size_t)m * n; i++) {
		uint64_t r = get(mem[PTORT_MEM_L0C], tc, i), g = get(out, to, i);
		if (to != tc)
			r = ptort_cvt1(tc, to, r, PTORT_RINT, 1);
		if (r != g && bad++ < 5)
			fprintf(stderr, "mm_check: C[%zu][%zu] = 0x%llx, reference 0x%llx\n",
				i / n, i % n, (unsigned long long)g, (unsigned long long)r);
	}
	for (j = 0; j < PTORT_MEM_COUNT; j++)
		free(mem[j]);
	free(out);
	printf("mm_check: %s.%s -> %s %ux%ux%u init %s%s: %zu of %zu elements differ\n", argv[2],
	       argv[3], argv[4], m, k, n, argv[8], mx ? " mx" : "", bad, (size_t)m * n);
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return cmd_gen(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return cmd_check(argc, argv);
	fputs("usage: mm_check gen TYPE COUNT SEED FILE\n"
	      "       mm_check check ATYPE BTYPE OUTTYPE M K N zero|bias|c A B INIT|- OUT [AS BS]\n",
	      stderr);
	return 2;
}
