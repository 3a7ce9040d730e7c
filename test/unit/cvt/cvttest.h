/* cvttest.h: helpers shared by the cvt tests: packing of element buffers, a
 * deterministic random generator, and the fast-vs-reference batch comparison that
 * prints failures in hex (from, to, mode, sat, input, got, expected). */
#ifndef CVTTEST_H
#define CVTTEST_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "cvtref.h"

/* splitmix64 */
uint64_t tst_rand(uint64_t *state);

/* Element i of a packed buffer of `t` (4-bit: nibble i, low nibble first). */
uint64_t tst_get(ptort_type t, const void *buf, size_t i);
void tst_set(ptort_type t, void *buf, size_t i, uint64_t v);
size_t tst_bytes(ptort_type t, size_t n);

/* Failures printed per (from, to) pair before going quiet. */
#define TST_PRINT_LIMIT 4

/* Compares ptort_cvt_run over `n` source patterns and ptort_cvt1 on every
 * `cvt1_every`-th of them (0: none) against ref_cvt, and the statuses against
 * ref_check. Returns the number of mismatches; prints the first few per pair. */
uint64_t tst_check(ptort_type from, ptort_type to, ptort_rmode rm, int sat, const uint64_t *src,
		   size_t n, unsigned cvt1_every);

/* Total elements compared by tst_check so far, and failures. */
extern uint64_t tst_checked, tst_failed;

/* Adds the comparisons of tst_check to the caller's check.h counts (its failures are
 * already printed), prints "name: N checks, F failed" and returns the exit status. */
static inline int tst_report(const char *name)
{
	check_count(tst_checked);
	check_fail_count(tst_failed);
	return check_report(name);
}

/* Random-pattern count: argv value, overridden by env PTOC_CVT_RANDOM when set. */
uint64_t tst_random_count(const char *arg);

#endif
