/* test_cvt_exhaustive.c: all 2^32 f32 inputs for f32 -> {f16, bf16, f8E4M3FN, f8E5M2,
 * hif8} in every mode legal for the pair on A5 (f16: RINT ROUND FLOOR CEIL TRUNC ODD;
 * bf16: the five; fp8: RINT; hif8: ROUND HYBRID) and both saturation settings,
 * ptort_cvt_run against the reference, on 2 threads. Opt-in: make check-exhaustive.
 * Usage: test_cvt_exhaustive [dest-type|all] [threads] [first-hi16 last-hi16]
 * (the last two restrict the sweep to inputs whose top 16 bits are in that range). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cvttest.h"

enum { CHUNK = 1 << 16 };

struct job {
	ptort_type to;
	ptort_rmode rm;
};

static struct job jobs[32];
static int njobs;
static uint32_t next_hi, last_hi, total;
static uint64_t nfail, ndone;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static double t0;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *worker(void *arg)
{
	uint32_t *src = malloc(CHUNK * 4);
	unsigned char *dst = malloc(CHUNK * 2);
	(void)arg;
	for (;;) {
		uint32_t hi;
		pthread_mutex_lock(&mu);
		hi = next_hi;
		if (hi > last_hi) {
			pthread_mutex_unlock(&mu);
			break;
		}
		next_hi++;
		pthread_mutex_unlock(&mu);
		for (uint32_t i = 0; i < CHUNK; i++)
			src[i] = hi << 16 | i;
		uint64_t bad = 0;
		for (int j = 0; j < njobs; j++)
			for (int sat = 0; sat < 2; sat++) {
				ptort_type to = jobs[j].to;
				ptort_cvt_run(PTORT_F32, to, src, dst, CHUNK, jobs[j].rm, sat);
				for (uint32_t i = 0; i < CHUNK; i++) {
					uint64_t g = tst_get(to, dst, i);
					uint64_t e = ref_cvt(PTORT_F32, to, src[i], jobs[j].rm, sat);
					if (g != e) {
						bad++;
						pthread_mutex_lock(&mu);
						if (nfail + bad <= 20)
							printf("FAIL f32->%s %s sat=%s in=0x%08X got=0x%llX "
							       "expected=0x%llX\n",
							       ref_type_name(to), ref_mode_name(jobs[j].rm),
							       sat ? "on" : "off", src[i], (unsigned long long)g,
							       (unsigned long long)e);
						pthread_mutex_unlock(&mu);
					}
				}
			}
		pthread_mutex_lock(&mu);
		nfail += bad;
		ndone++;
		if (ndone % 1024 == 0 || ndone == total) {
			printf("progress: %llu/%u chunks of 65536 inputs, %.0f s, %llu failures\n",
			       (unsigned long long)ndone, total, now() - t0, (unsigned long long)nfail);
			fflush(stdout);
		}
		pthread_mutex_unlock(&mu);
	}
	free(src);
	free(dst);
	return NULL;
}

static void add(ptort_type to, ptort_rmode rm) { jobs[njobs++] = (struct job){to, rm}; }

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	int nthreads = argc > 2 ? atoi(argv[2]) : 2;
	uint32_t first = argc > 4 ? (uint32_t)strtoul(argv[3], NULL, 0) : 0;
	last_hi = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 0xFFFF;
	next_hi = first;
	total = last_hi - first + 1;
	int all = !strcmp(which, "all");
	ref_init();
	if (all || !strcmp(which, "f16"))
		for (int m = PTORT_RINT; m <= PTORT_ODD; m++)
			add(PTORT_F16, (ptort_rmode)m);
	if (all || !strcmp(which, "bf16"))
		for (int m = PTORT_RINT; m <= PTORT_TRUNC; m++)
			add(PTORT_BF16, (ptort_rmode)m);
	if (all || !strcmp(which, "f8E4M3FN"))
		add(PTORT_F8E4M3FN, PTORT_RINT);
	if (all || !strcmp(which, "f8E5M2"))
		add(PTORT_F8E5M2, PTORT_RINT);
	if (all || !strcmp(which, "hif8")) {
		add(PTORT_HIF8, PTORT_ROUND);
		add(PTORT_HIF8, PTORT_HYBRID);
	}
	if (!njobs || nthreads < 1 || nthreads > 64 || first > last_hi || last_hi > 0xFFFF) {
		printf("usage: test_cvt_exhaustive [f16|bf16|f8E4M3FN|f8E5M2|hif8|all] [threads] "
		       "[first-hi16 last-hi16]\n");
		return 2;
	}
	printf("f32 -> %s: %d (destination, mode) jobs x 2 sat settings, inputs 0x%04X0000.."
	       "0x%04XFFFF, %d threads\n",
	       which, njobs, first, last_hi, nthreads);
	t0 = now();
	pthread_t th[64];
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	double dt = now() - t0;
	uint64_t inputs = (uint64_t)(last_hi - first + 1) * CHUNK;
	printf("cvt_exhaustive: %llu inputs x %d conversions checked, %llu failures, wall time %.1f s\n",
	       (unsigned long long)inputs, njobs * 2, (unsigned long long)nfail, dt);
	return nfail ? 1 : 0;
}
