/* cvt_fast_wide.c: the fast conversions' 64 KiB lookup tables to HiF8 (16-bit sources,
 * and HYBRID from f32), built by the kernels of cvt_fast.c once enough work went
 * through them (the file map: cvt_fast_internal.h). Above cvt_fast.c, which never
 * calls back here. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cvt_fast_kern.h"

#ifdef PTORT_X86 /* (which implies the atomics) */
/* Adds n to *count; returns the new value */
static size_t count_add(size_t *count, size_t n)
{
	return __atomic_add_fetch(count, n, __ATOMIC_RELAXED);
}
#endif

/* ---- 16-bit sources -> HiF8: 64 KiB lookup tables -------------------------- */

/* HiF8's rounding and encoding take ~60 vector instructions per 16 elements; a table of
 * every 16-bit pattern's result takes a load per element. So a run to hif8 from a
 * 16-bit source looks its results up, and one from a 32-bit source looks up its keys'
 * (see h8_round) in the bf16 table, or in HYBRID its h8_hyidx indices in hyb_table's
 * (HYBRID needs more of the f32 than a key keeps). A table
 * is built by the kernels (a run over all 65536 patterns, a few hundred microseconds
 * with its page faults) once WIDE_BUILD elements have gone through the kernels for its
 * (source, mode, saturation), which keeps the build a small part of the work: a program
 * that converts a tile once never pays for it. ptort_cvt_fast_force_tables overrides
 * that for the tests. AVX2 levels only: there the lookups go 16 to a vector store. */
#define WIDE_BUILD ((size_t)1 << 22)
static const ptort_type wide_src[] = {PTORT_BF16, PTORT_F16, PTORT_I16, PTORT_U16};
#define NWIDE (sizeof wide_src / sizeof wide_src[0])
static uint8_t *wide_tabs[NWIDE][PTORT_RMODE_COUNT][2];
static int wide_state[NWIDE][PTORT_RMODE_COUNT][2];
static size_t wide_work[NWIDE][PTORT_RMODE_COUNT][2];
static int forced_tables = -1;

void ptort_cvt_fast_force_tables(int on)
{
	forced_tables = on;
}

/* Whether a table whose runs are counted in *work is to be used (and built if need be)
 * for a run of n elements, which counts toward it: at an AVX2 level, unless the tests
 * said never, once WIDE_BUILD elements have gone through (at once when forced). */
static int table_due(size_t *work, size_t n)
{
#ifdef PTORT_X86
	if (ptort_cvtf_level() < 1 || forced_tables == 0)
		return 0;
	return forced_tables > 0 || count_add(work, n) >= WIDE_BUILD;
#else
	(void)work, (void)n;
	return 0;
#endif
}

static void wide_fill(const void *ctx)
{
	const struct tab_key *k = ctx;
	uint16_t *x = malloc(65536 * sizeof *x);
	uint8_t *t = malloc(65536);
	unsigned i;
	if (x && t) {
		for (i = 0; i < 65536; i++)
			x[i] = (uint16_t)i;
		if (ptort_cvtf_kernel_run(k->from, k->to, x, t, 65536, k->rm, k->sat, NULL)) {
			wide_tabs[k->i][k->rm][k->sat] = t;
			t = NULL;
		}
	}
	free(x);
	free(t); /* on failure the slot stays NULL: the kernels */
}

const uint8_t *ptort_cvtf_wide_table(ptort_type from, ptort_rmode rm, int sat, size_t n)
{
	struct tab_key key;
	unsigned i;
	for (i = 0; i < NWIDE && wide_src[i] != from; i++)
		;
	if (i == NWIDE || ptort_cvt_check(from, PTORT_HIF8, rm) != PTORT_CVT_OK)
		return NULL;
	key.i = i, key.from = from, key.to = PTORT_HIF8, key.rm = rm, key.sat = sat != 0;
	if (!table_due(&wide_work[i][rm][key.sat], n))
		return NULL;
	if (!ptort_cvtf_lazy_ready(&wide_state[i][rm][key.sat], wide_fill, &key))
		return NULL;
	return wide_tabs[i][rm][key.sat];
}

/* HYBRID from f32 (and the 32-bit integers, through f32): a table of 16384 results,
 * indexed by the sign, exponent and first 4 fraction bits of the f32 and whether it
 * rounds down (h8_hyidx: HiF8 keeps at most 3 fraction bits, and where it keeps 3,
 * HYBRID is ROUND, which looks at the fourth), for sat. An index's result is that of
 * an f32 with those bits and no others (it rounds up: the threshold is 0) or with the
 * low 14 bits set too (it rounds down: the fraction after the kept bits has a 0, bit
 * 18, where the threshold is all ones). 16 KiB stay in L1 beside the data. Built like
 * the wide tables, from the portable one-element kernel. */
#define HYB_ENTRIES 16384
static uint8_t hyb_tabs[2][HYB_ENTRIES];
static int hyb_state[2];
static size_t hyb_work[2];

static void hyb_fill(const void *ctx)
{
	const int sat = *(const int *)ctx;
	uint32_t x;
	for (x = 0; x < HYB_ENTRIES; x++) {
		uint32_t u = (x >> 1) << 19;
		if (x & 1 && (u & 0x7FFFFFFF) != 0x7F800000) /* (inf: NaNs have a fraction bit) */
			u |= 0x3FFF;
		hyb_tabs[sat][x] = (uint8_t)f32_hif8_one(u, 1, sat);
	}
}

const uint8_t *ptort_cvtf_hyb_table(int sat, size_t n)
{
	sat = sat != 0;
	if (!table_due(&hyb_work[sat], n))
		return NULL;
	return ptort_cvtf_lazy_ready(&hyb_state[sat], hyb_fill, &sat) ? hyb_tabs[sat] : NULL;
}

void ptort_cvtf_wide_run(const uint8_t *t, const uint16_t *s, uint8_t *d, size_t n)
{
	size_t i = 0;
#ifdef PTORT_X86
	i = ptort_cvtf_x86_wide_run(t, s, d, n);
#endif
	for (; i < n; i++)
		d[i] = t[s[i]];
}
