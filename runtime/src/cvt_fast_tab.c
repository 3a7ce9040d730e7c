/* cvt_fast_tab.c: the fast conversions' small lookup tables (the file map:
 * cvt_fast_internal.h). Where a result depends on few source bits, a table of every
 * result replaces the rounding: conversions from 8- and 4-bit sources, built from the
 * generic path (the 64 KiB tables to HiF8, which the kernels build, are
 * cvt_fast_wide.c's). Tables are built on first use, by one thread, without locks; a
 * thread that finds one being built takes the kernels meanwhile. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cvt_fast_internal.h"

/* Tables built on first use (cvt_fast_internal.h); compilers without the atomics get
 * no tables. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
int ptort_cvtf_lazy_ready(int *state, void (*fill)(const void *), const void *ctx)
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
int ptort_cvtf_lazy_ready(int *state, void (*fill)(const void *), const void *ctx)
{
	(void)state, (void)fill, (void)ctx;
	return 0;
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
	if (!ptort_cvtf_lazy_ready(&tab_state[i][to][rm][key.sat], small_fill, &key))
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
