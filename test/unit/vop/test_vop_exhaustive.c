/* test_vop_exhaustive.c (make check-exhaustive; not in CI): two sweeps that the unit
 * tests sample.
 *
 * 1. Every f32 input (2^32) of exp, ln, sqrt, rsqrt and recip through ptort_vop_run
 *    (the machine's best kernel level) against an independent oracle: the host's
 *    long double (x87, 64-bit significand) expl / logl / sqrtl / 1/sqrtl / 1/x, rounded
 *    to f32 by the host, accepted when the long double value is farther than 2^-52 of
 *    itself from every f32 rounding boundary (glibc's long double functions are
 *    accurate to a few of their units, 2^-63), else MPFR decides.
 * 2. Every pair (2^32) of f16 and of bf16 operands of add, sub, mul, div through
 *    ptort_vop_run (which computes them in f32 and rounds once more) against the exact
 *    integer reference ptort_vop1_ref, which test_vop_num holds to MPFR: the check
 *    that the double rounding never changes a result.
 *
 * Arguments: [-j THREADS] [-s STRIDE] [unary|binary] (default: 1 thread, every block,
 * both; -s S takes every S-th block of 2^16 inputs, a sample). The whole run
 * takes about 35 minutes on one core of the CI machine. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptort.h"
#include "vop_internal.h"

#ifndef PTOC_HAVE_MPFR
int main(void)
{
	return check_skip("vop_exhaustive", "MPFR not available (libmpfr-dev)");
}
#else
#include <mpfr.h>

#include "vop_ref.h"

#if !defined(__x86_64__) && !defined(__i386__)
#error "the f32 oracle needs x87 long double"
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long n_checks, n_failed, n_mpfr;

static void report_fail(const char *what, ptort_vop op, ptort_type t, uint64_t a, uint64_t b,
			uint64_t got, uint64_t want)
{
	pthread_mutex_lock(&lock);
	n_failed++;
	if (n_failed <= 40)
		printf("FAIL %s %s %s(0x%llx, 0x%llx) = 0x%llx, want 0x%llx\n", what, ptort_type_name(t),
		       ptort_vop_name(op), (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)got, (unsigned long long)want);
	pthread_mutex_unlock(&lock);
}

/* the f32 bits of the correctly rounded op(x), from a long double estimate */
static uint32_t oracle(ptort_vop op, uint32_t xb, unsigned long long *mpfr_calls)
{
	float x, f, nb;
	long double v, mid;
	uint32_t u;
	memcpy(&x, &xb, 4);
	switch (op) {
	case PTORT_VOP_EXP: v = expl((long double)x); break;
	case PTORT_VOP_LN: v = logl((long double)x); break;
	case PTORT_VOP_SQRT: v = sqrtl((long double)x); break;
	case PTORT_VOP_RSQRT: v = 1.0L / sqrtl((long double)x); break;
	default: v = 1.0L / (long double)x; break;
	}
	if (isnan(v))
		return 0x7FC00000u;
	f = (float)v;
	if ((long double)f != v && !isinf(v)) {
		if (isinf(f))
			mid = copysignl(0x1.fffffep127L + 0x1p103L, v); /* the overflow threshold */
		else {
			nb = nextafterf(f, v > (long double)f ? INFINITY : -INFINITY);
			mid = ((long double)f + (long double)nb) / 2;
			if (isinf(nb))
				mid = copysignl(0x1.fffffep127L + 0x1p103L, v);
		}
		if (fabsl(v - mid) <= fabsl(v) * 0x1p-52L) {
			(*mpfr_calls)++;
			return (uint32_t)mref(op, PTORT_F32, xb, 0);
		}
	}
	memcpy(&u, &f, 4);
	return u;
}

struct job {
	int part; /* 0 unary f32, 1 binary 16-bit */
	unsigned id, nthreads;
};

static unsigned stride = 1; /* -s S: every S-th block of 2^16 only (a quick sample) */

#define BLK 65536u

static void *work(void *p)
{
	const struct job *j = p;
	uint32_t *in = malloc(BLK * 4), *out = malloc(BLK * 4);
	uint16_t *b16 = malloc(BLK * 2), *o16 = malloc(BLK * 2);
	unsigned long long checks = 0, mpfr_calls = 0;
	static const ptort_vop unary[] = {PTORT_VOP_EXP, PTORT_VOP_LN, PTORT_VOP_SQRT, PTORT_VOP_RSQRT,
					  PTORT_VOP_RECIP};
	static const ptort_vop binary[] = {PTORT_VOP_ADD, PTORT_VOP_SUB, PTORT_VOP_MUL, PTORT_VOP_DIV};
	unsigned k, hi, i;
	if (!in || !out || !b16 || !o16)
		exit(1);
	if (j->part == 0) {
		for (k = 0; k < 5; k++)
			for (hi = j->id * stride; hi < 65536; hi += j->nthreads * stride) {
				for (i = 0; i < BLK; i++)
					in[i] = hi << 16 | i;
				ptort_vop_run(unary[k], PTORT_F32, out, in, NULL, NULL, 0, BLK);
				for (i = 0; i < BLK; i++) {
					uint32_t want = oracle(unary[k], in[i], &mpfr_calls);
					if (out[i] != want)
						report_fail("run", unary[k], PTORT_F32, in[i], 0, out[i], want);
				}
				checks += BLK;
			}
	} else {
		for (i = 0; i < BLK; i++)
			b16[i] = (uint16_t)i;
		for (k = 0; k < 8; k++) {
			ptort_type t = k < 4 ? PTORT_F16 : PTORT_BF16;
			ptort_vop op = binary[k % 4];
			for (hi = j->id * stride; hi < 65536; hi += j->nthreads * stride) {
				uint64_t a = hi;
				ptort_vop_run(op, t, o16, b16, NULL, &a, 1, BLK); /* op(a, b) for every b */
				for (i = 0; i < BLK; i++) {
					uint64_t want = ptort_vop1_ref(op, t, a, i);
					if (o16[i] != want)
						report_fail("run", op, t, a, i, o16[i], want);
				}
				checks += BLK;
			}
		}
	}
	pthread_mutex_lock(&lock);
	n_checks += checks, n_mpfr += mpfr_calls;
	pthread_mutex_unlock(&lock);
	free(in), free(out), free(b16), free(o16);
	return NULL;
}

static void run_part(int part, unsigned nthreads)
{
	pthread_t th[64];
	struct job jobs[64];
	unsigned i;
	for (i = 0; i < nthreads; i++) {
		jobs[i].part = part, jobs[i].id = i, jobs[i].nthreads = nthreads;
		if (pthread_create(&th[i], NULL, work, &jobs[i]))
			exit(1);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
}

int main(int argc, char **argv)
{
	unsigned nthreads = 1;
	int i, unary = 1, binary = 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") && i + 1 < argc)
			nthreads = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			stride = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "unary"))
			binary = 0;
		else if (!strcmp(argv[i], "binary"))
			unary = 0;
	}
	if (nthreads < 1 || nthreads > 64)
		nthreads = 1;
	if (stride < 1)
		stride = 1;
	if (!ptort_vop_host_fp_ok())
		return check_skip("vop_exhaustive", "host float arithmetic is not IEEE nearest");
	if (unary) {
		run_part(0, nthreads);
		printf("vop_exhaustive: f32 exp ln sqrt rsqrt recip: %s; %llu undecided by "
		       "long double, decided by MPFR\n", stride > 1 ? "a sample" : "every input", n_mpfr);
	}
	if (binary) {
		run_part(1, nthreads);
		printf("vop_exhaustive: f16, bf16 add sub mul div: %s\n", stride > 1 ? "a sample" : "every pair");
	}
	check_count(n_checks);
	check_fail_count(n_failed);
	return check_report("vop_exhaustive");
}
#endif
