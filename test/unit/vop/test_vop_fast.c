/* test_vop_fast.c: the array kernels (ptort_vop_run) give ptort_vop1's bits at every
 * instruction-set level the machine has (0 element kernels, 1 portable loops, 2 AVX2):
 * every op on f32, f16, bf16 and the integers, in the three operand modes (tile/tile,
 * tile/scalar, scalar/tile), on every 16-bit input (unary) and boundary plus random
 * inputs, odd lengths, unaligned buffers and in place. ptort_vop1 itself is held to
 * MPFR by test_vop_num. Argument: random inputs per case in thousands (default 64). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_internal.h"
#include "ptort.h"
#include "vop_internal.h"

static uint64_t rng = 0xD1B54A32D192ED03ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t get(const uint8_t *p, unsigned eb, size_t i)
{
	uint64_t v = 0;
	memcpy(&v, p + i * eb, eb);
	return v;
}

static void put(uint8_t *p, unsigned eb, size_t i, uint64_t v)
{
	memcpy(p + i * eb, &v, eb);
}

static const uint32_t edge32[] = {
	0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 1,
	0x80000001u, 0x007FFFFFu, 0x00800000u, 0x3F800000u, 0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
	0x42B17217u, 0x42B17218u, 0xC2AEAC50u, 0xC2CFF1B4u, 0xC2CFF1B5u, 0xC2C80000u, 0x42C80000u,
	0x42C80001u, 0xC2F00000u, 0xC2F00001u, 0x20000000u, 0x1F800000u, 0x9F800000u, 0x33000000u,
	0x3F3504F3u, 0x3FB504F3u, 0x4B000000u, 0x00000002u};

/* a value of type t: an edge, uniform bits, or (floats) a moderate value */
static uint64_t sample(ptort_type t, unsigned k)
{
	uint64_t r = next();
	unsigned b = ptort_type_bits(t);
	uint64_t m = b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
	switch (k % 4) {
	case 0:
		if (t == PTORT_F32)
			return edge32[(r >> 8) % (sizeof edge32 / sizeof edge32[0])];
		return r & m & 0x80FF;
	case 1:
		if (t == PTORT_F32) /* |x| in [2^-30, 2^9) */
			return (r & 0x807FFFFFu) | (uint32_t)(97 + (r >> 40) % 39) << 23;
		if (t == PTORT_F16)
			return (r & 0x83FF) | ((r >> 20) % 31) << 10;
		return r & m;
	default:
		return r & m;
	}
}

static const ptort_type types[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I8, PTORT_I16,
				   PTORT_I32, PTORT_I64, PTORT_U8, PTORT_U16, PTORT_U32};
#define NT (sizeof types / sizeof types[0])

static uint8_t *A, *B, *D, *W;

/* one run of n elements from A/B into D at offsets (bytes), against ptort_vop1 */
static void one(ptort_vop op, ptort_type t, int mode, size_t n, unsigned off, int inplace,
		int level)
{
	unsigned eb = ptort_type_bits(t) / 8;
	uint64_t s = sample(t, (unsigned)next());
	size_t i;
	uint8_t *a = A + off, *b = B + off, *d = inplace ? a : D + off;
	for (i = 0; i < n; i++) {
		uint64_t x = get(a, eb, i), y = mode ? s : get(b, eb, i);
		put(W, eb, i, mode == 2 ? ptort_vop1(op, t, y, x) : ptort_vop1(op, t, x, y));
	}
	ptort_vop_force_level(level);
	ptort_vop_run(op, t, d, a, ptort_vop_arity(op) == 2 && !mode ? b : NULL,
		      ptort_vop_arity(op) == 2 && mode ? &s : NULL, mode == 2, n);
	ptort_vop_force_level(-1);
	check_count(1);
	for (i = 0; i < n; i++)
		if (get(d, eb, i) != get(W, eb, i)) {
			if (check_failed()) {
				uint64_t x = inplace ? get(W, eb, i) : get(a, eb, i);
				printf("FAIL level %d %s %s mode %d n %zu off %u%s: element %zu "
				       "(a 0x%llx, b 0x%llx, s 0x%llx) = 0x%llx, vop1 0x%llx\n",
				       level, ptort_type_name(t), ptort_vop_name(op), mode, n, off,
				       inplace ? " in place" : "", i, (unsigned long long)x,
				       (unsigned long long)get(b, eb, i), (unsigned long long)s,
				       (unsigned long long)get(d, eb, i),
				       (unsigned long long)get(W, eb, i));
			}
			break;
		}
}

static void fill(ptort_type t, size_t n)
{
	unsigned eb = ptort_type_bits(t) / 8;
	size_t i;
	unsigned k = (unsigned)next();
	for (i = 0; i < n + 8; i++) {
		put(A, eb, i, sample(t, k + (unsigned)i));
		put(B, eb, i, sample(t, k + 3 * (unsigned)i));
	}
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	int maxlevel = (ptort_cpu_features() & PTORT_CPU_AVX2) ? 2 : 1, level;
	unsigned ti, op, k;
	size_t cap = 1 << 17;
	A = malloc(cap * 8 + 64), B = malloc(cap * 8 + 64), D = malloc(cap * 8 + 64), W = malloc(cap * 8 + 64);
	if (!A || !B || !D || !W)
		return 1;
	if (!ptort_vop_host_fp_ok())
		printf("vop_fast: note: host float arithmetic is not IEEE nearest here; levels 1-2 "
		       "fall back to level 0\n");
	if (maxlevel < 2)
		printf("vop_fast: note: no AVX2 on this machine; level 2 not exercised\n");
	for (level = 0; level <= maxlevel; level++) {
		for (ti = 0; ti < NT; ti++) {
			ptort_type t = types[ti];
			unsigned eb = ptort_type_bits(t) / 8;
			for (op = 0; op < PTORT_VOP_COUNT; op++) {
				int mode, ar = ptort_vop_arity((ptort_vop)op);
				if (!ptort_vop_check((ptort_vop)op, t))
					continue;
				/* every 16-bit input of the unary ops, in one run */
				if (eb == 2 && ar == 1) {
					size_t i;
					for (i = 0; i < 65536; i++)
						put(A, 2, i, i);
					one((ptort_vop)op, t, 0, 65536, 0, 0, level);
				}
				for (mode = 0; mode < (ar == 2 ? 3 : 1); mode++)
					for (k = 0; k < 6; k++) {
						/* lengths: short, odd, long; unaligned offsets */
						size_t n = k < 2 ? 1 + next() % 9 : k < 4 ? 100 + next() % 157
										     : scale * 16;
						fill(t, n);
						one((ptort_vop)op, t, mode, n, (unsigned)(k & 1) * (unsigned)(1 + next() % 7),
						    k == 3, level);
					}
			}
		}
	}
	/* f32 exp: dense in its whole range (the AVX2 lanes and their scalar fallbacks) */
	for (level = 0; level <= maxlevel; level++) {
		size_t i, n = scale * 1024;
		for (i = 0; i < n; i++) {
			uint64_t r = next();
			put(A, 4, i, (r & 0x807FFFFFu) | (uint32_t)(60 + (r >> 40) % 74) << 23);
		}
		one(PTORT_VOP_EXP, PTORT_F32, 0, n, 0, 0, level);
	}
	free(A), free(B), free(D), free(W);
	return check_report("vop_fast");
}
