/* cvt_fast_tab.c: the fast conversions' lookup tables (the file map:
 * cvt_fast_internal.h). Where a result depends on few source bits, a table of every
 * result replaces the rounding: conversions from 8- and 4-bit sources (built from the
 * generic path), 16-bit sources -> HiF8 and HYBRID f32 -> HiF8 (built by the kernels
 * once enough work went through them). Tables are built on first use, by one thread,
 * without locks; a thread that finds one being built takes the kernels meanwhile. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cvt_fast_kern.h"

/* Tables built on first use (from the generic path). lazy_ready returns 1 when the
 * table behind `state` (0 empty, 1 being built, 2 ready) can be read, building it with
 * fill(ctx) if this thread comes first; 0 while another thread builds it (the caller then
 * takes a path without the table). Compilers without the atomics get no tables. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
static int lazy_ready(int *state, void (*fill)(const void *), const void *ctx)
{
	int st = __atomic_load_n(state, __ATOMIC_ACQUIRE), empty = 0;
	if (st == 2)
		return 1;
	if (st != 0 || !__atomic_compare_exchange_n(state, &empty, 1, 0, __ATOMIC_ACQ_REL,
						    __ATOMIC_ACQUIRE))
		return 0;
	fill(ctx);
	__atomic_store_n(state, 2, __ATOMIC_RELEASE);
	return 1;
}
#else
static int lazy_ready(int *state, void (*fill)(const void *), const void *ctx)
{
	(void)state, (void)fill, (void)ctx;
	return 0;
}
#endif

#ifdef PTORT_X86 /* (which implies the atomics) */
/* Adds n to *count; returns the new value */
static size_t count_add(size_t *count, size_t n)
{
	return __atomic_add_fetch(count, n, __ATOMIC_RELAXED);
}
#endif

/* ---- conversions from 8- and 4-bit sources: lookup tables ----------------- */

/* A result depends on the source code alone (given the mode and saturation), so each
 * (source, destination, mode, saturation) gets a table of every code's result, built
 * on first use from the generic path; exact pairs share one table for all modes. */
static const ptort_type tab_src[] = {PTORT_F8E4M3FN, PTORT_F8E5M2, PTORT_HIF8, PTORT_F8E8M0FNU,
				     PTORT_F4E2M1FN, PTORT_F4E1M2, PTORT_I4};
#define NTAB (sizeof tab_src / sizeof tab_src[0])
static uint32_t *tabs[NTAB][PTORT_TYPE_COUNT][PTORT_RMODE_COUNT][2];
static int tab_state[NTAB][PTORT_TYPE_COUNT][PTORT_RMODE_COUNT][2];
struct tab_key {
	unsigned i;
	ptort_type from, to;
	ptort_rmode rm;
	int sat;
};

static void small_fill(const void *ctx)
{
	const struct tab_key *k = ctx;
	unsigned x, count = ptort_type_bits(k->from) == 4 ? 16 : 256;
	uint32_t *t = calloc(256, sizeof *t);
	if (!t)
		return; /* the slot stays NULL: the generic path */
	for (x = 0; x < count; x++)
		t[x] = (uint32_t)ptort_cvt1_generic(k->from, k->to, x, k->rm, k->sat);
	tabs[k->i][k->to][k->rm][k->sat] = t;
}

const uint32_t *ptort_cvtf_small_table(ptort_type from, ptort_type to, ptort_rmode rm, int sat)
{
	struct tab_key key;
	unsigned i, tb = ptort_type_bits(to);
	for (i = 0; i < NTAB && tab_src[i] != from; i++)
		;
	if (i == NTAB || tb > 32 || ptort_cvt_check(from, to, rm) != PTORT_CVT_OK)
		return NULL;
	if (ptort_cvt_is_exact(from, to) || rm == PTORT_NONE)
		rm = PTORT_RINT;
	if (ptort_cvt_is_exact(from, to))
		sat = 0;
	key.i = i, key.from = from, key.to = to, key.rm = rm, key.sat = sat != 0;
	if (!lazy_ready(&tab_state[i][to][rm][key.sat], small_fill, &key))
		return NULL;
	return tabs[i][to][rm][key.sat];
}

/* n elements of 8-bit codes (or 4-bit ones, two per byte, low nibble first) through
 * table t into dst elements of DT */
#define TABLE_RUN(DT)                                                                           \
	do {                                                                                    \
		DT *d = dst;                                                                    \
		if (sbits == 8) {                                                               \
			for (i = 0; i < n; i++)                                                 \
				d[i] = (DT)t[s[i]];                                             \
		} else {                                                                        \
			for (i = 0; i + 1 < n; i += 2) {                                        \
				d[i] = (DT)t[s[i / 2] & 15];                                    \
				d[i + 1] = (DT)t[s[i / 2] >> 4];                                \
			}                                                                       \
			if (n & 1)                                                              \
				d[n - 1] = (DT)t[s[n / 2] & 15];                                \
		}                                                                               \
	} while (0)

static void table_run(const uint32_t *t, unsigned sbits, unsigned dbits, const unsigned char *s,
		      void *dst, size_t n)
{
	size_t i;
	if (dbits == 4) { /* pairs of codes into bytes; an odd last one keeps its high nibble */
		unsigned char *d = dst;
		for (i = 0; i + 1 < n; i += 2) {
			unsigned x = sbits == 8 ? s[i] : s[i / 2] & 15, y = sbits == 8 ? s[i + 1] : s[i / 2] >> 4;
			d[i / 2] = (unsigned char)((t[x] & 15) | (t[y] & 15) << 4);
		}
		if (n & 1)
			d[n / 2] = (unsigned char)((d[n / 2] & 0xF0) |
						   (t[sbits == 8 ? s[n - 1] : s[n / 2] & 15] & 15));
	} else if (dbits == 8)
		TABLE_RUN(uint8_t);
	else if (dbits == 16)
		TABLE_RUN(uint16_t);
	else
		TABLE_RUN(uint32_t);
}

void ptort_cvtf_table_run(const uint32_t *t, unsigned sbits, unsigned dbits,
			  const unsigned char *s, void *dst, size_t n)
{
	size_t done = 0;
#ifdef PTORT_X86
	if (ptort_cvtf_level() >= 1)
		done = ptort_cvtf_x86_table(t, sbits, dbits, s, dst, n);
#endif
	table_run(t, sbits, dbits, s + done / (8 / sbits), (unsigned char *)dst + done * (dbits / 8),
		  n - done);
}

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
	if (!lazy_ready(&wide_state[i][rm][key.sat], wide_fill, &key))
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
	return lazy_ready(&hyb_state[sat], hyb_fill, &sat) ? hyb_tabs[sat] : NULL;
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
