/* cvt_fast.c: fast conversions of contiguous runs: which kernel converts a pair and
 * the portable instantiation of the kernels (the file map: cvt_fast_internal.h).
 *
 * Every kernel gives exactly the bits of the generic decode-round-pack path (cvt.c);
 * test/unit/cvtfast compares them on all 2^16 and many random 2^32 inputs. On x86-64
 * the kernels also exist for AVX2 and F16C (cvt_fast_x86.c), chosen at run time
 * (cpuid, cpu.c) and only while MXCSR has DAZ/FTZ clear. Conversions from 8- and 4-bit
 * sources and to HiF8 from 16-bit ones look their results up (cvt_fast_tab.c). Pairs
 * without a kernel of their own are chained through an exact intermediate (f16/bf16/
 * i8/i16 -> f32, ...), in blocks, so the one rounding happens in the last step. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cvt_fast_kern.h"

static int run_portable(enum kid k, const struct kargs *a)
{
	return run_kernel(k, a);
}

static int dispatch(enum kid k, const struct kargs *a)
{
#ifdef PTORT_X86
	int lv = ptort_cvtf_level();
	if (lv >= 1)
		return ptort_cvtf_x86_run(k, a, lv);
#endif
	return run_portable(k, a);
}

/* k reading its source as a->st (not f32) in one pass, where a kernel can; 0 when not
 * (the caller then chains through f32 blocks). */
static int fused(enum kid k, const struct kargs *a)
{
#ifdef PTORT_X86
	return ptort_cvtf_x86_fused(k, a, ptort_cvtf_level());
#else
	(void)k, (void)a;
	return 0;
#endif
}

/* ---- pairs -> kernels, with exact first steps --------------------------- */

/* The first step of a chain through f32: exact for 8/16-bit sources; 32-bit integers
 * are rounded to odd, which keeps the correctly rounded result of any later rounding
 * to at most 22 significant bits (f32 has 24) in every mode. */
static int to_f32_kernel(ptort_type t, enum kid *k)
{
	switch (t) {
	case PTORT_F16: *k = K_F16_F32; return 1;
	case PTORT_BF16: *k = K_BF16_F32; return 1;
	case PTORT_I16: *k = K_I16_F32; return 1;
	case PTORT_U16: *k = K_U16_F32; return 1;
	case PTORT_I8: *k = K_I8_F32; return 1;
	case PTORT_U8: *k = K_U8_F32; return 1;
	case PTORT_I32: *k = K_I32_F32; return 1;
	case PTORT_U32: *k = K_U32_F32; return 1;
	default: return 0;
	}
}

/* The f32 -> t kernel for round mode rm (NONE already mapped to RINT). */
static int from_f32_kernel(ptort_type t, ptort_rmode rm, enum kid *k)
{
	switch (t) {
	case PTORT_F32: *k = K_F32_F32; return rm != PTORT_ODD && rm != PTORT_HYBRID;
	case PTORT_F16: *k = K_F32_F16; return 1;
	case PTORT_BF16: *k = K_F32_BF16; return 1;
	case PTORT_I32: *k = K_F32_I32; return 1;
	case PTORT_U32: *k = K_F32_U32; return 1;
	case PTORT_I16: *k = K_F32_I16; return 1;
	case PTORT_U16: *k = K_F32_U16; return 1;
	case PTORT_I8: *k = K_F32_I8; return 1;
	case PTORT_U8: *k = K_F32_U8; return 1;
	case PTORT_I4: *k = K_F32_I4; return 1;
	case PTORT_F8E4M3FN: *k = K_F32_E4M3; return 1;
	case PTORT_F8E5M2: *k = K_F32_E5M2; return 1;
	case PTORT_F4E2M1FN: *k = K_F32_E2M1; return 1;
	case PTORT_F4E1M2: *k = K_F32_E1M2; return 1;
	case PTORT_HIF8:
		*k = rm == PTORT_ROUND || rm == PTORT_HYBRID ? K_F32_HIF8 : K_F32_HIF8D;
		return rm != PTORT_ODD;
	default: return 0;
	}
}

static int int_kind(ptort_type t, int *bits, int *sgn)
{
	switch (t) {
	case PTORT_I8: *bits = 8, *sgn = 1; return 1;
	case PTORT_I16: *bits = 16, *sgn = 1; return 1;
	case PTORT_I32: *bits = 32, *sgn = 1; return 1;
	case PTORT_I64: *bits = 64, *sgn = 1; return 1;
	case PTORT_U8: *bits = 8, *sgn = 0; return 1;
	case PTORT_U16: *bits = 16, *sgn = 0; return 1;
	case PTORT_U32: *bits = 32, *sgn = 0; return 1;
	default: return 0;
	}
}

/* m codes of one byte each (low nibble) -> m nibbles from dst's element 0 on; an odd last
 * element keeps its byte's high nibble. */
static void pack_nibbles(const uint8_t *b, size_t m, unsigned char *d)
{
	size_t j;
	for (j = 0; j < m / 2; j++)
		d[j] = (unsigned char)((b[2 * j] & 15) | (b[2 * j + 1] << 4));
	if (m & 1)
		d[m / 2] = (unsigned char)((d[m / 2] & 0xF0) | (b[m - 1] & 15));
}

/* i4 results of run(k, a), which writes one per byte: a block at a time into a buffer,
 * then paired into d (a->s has sbytes per element; d starts at an even element).
 * Returns 0 when run does not convert, which it finds on the first block, before
 * anything is written. */
static int i4_blocks(int (*run)(enum kid, const struct kargs *), enum kid k, const struct kargs *a,
		     size_t sbytes, void *d)
{
	uint8_t b[1024];
	struct kargs c = *a;
	size_t done;
	for (done = 0; done < a->n; done += sizeof b) {
		c.s = (const unsigned char *)a->s + done * sbytes;
		c.d = b;
		c.n = a->n - done < sizeof b ? a->n - done : sizeof b;
		if (!run(k, &c))
			return 0;
		pack_nibbles(b, c.n, (unsigned char *)d + done / 2);
	}
	return 1;
}

/* The last (rounding) step from an f32 block: kernel k over m elements into dst from
 * element `at` on. A 4-bit destination (at even) takes element pairs; an odd last
 * element goes through the generic path, keeping its byte's high nibble. i4 results
 * come one per byte and are paired here. */
static void last_step(enum kid k, const struct kargs *a, const uint32_t *s, void *dst,
		      ptort_type to, size_t at, size_t m)
{
	struct kargs c = *a;
	c.s = s;
	c.n = m;
	if (ptort_type_bits(to) != 4) {
		c.d = (unsigned char *)dst + at * (ptort_type_bits(to) / 8);
		dispatch(k, &c);
		return;
	}
	if (k == K_F32_I4) {
		i4_blocks(dispatch, k, &c, 4, (unsigned char *)dst + at / 2);
		return;
	}
	c.d = (unsigned char *)dst + at / 2;
	c.n = m / 2;
	dispatch(k, &c);
	if (m & 1) {
		unsigned char *p = (unsigned char *)c.d + m / 2;
		uint64_t v = ptort_cvt1_generic(PTORT_F32, to, s[m - 1], (ptort_rmode)a->rm, a->sat);
		*p = (unsigned char)((*p & 0xF0) | (v & 0xF));
	}
}

#define BLOCK 1024

/* from -> to in one pass of k2 reading the source directly (see fused); rm1 the
 * rounding of 32-bit integers to f32. A 4-bit destination's odd last element goes
 * through the generic path. */
static int fused_step(ptort_type from, ptort_type to, enum kid k2, const struct kargs *a,
		      int rm1)
{
	struct kargs c = *a;
	const int below16 = to == PTORT_F8E4M3FN || to == PTORT_F8E5M2 || to == PTORT_HIF8 ||
			    to == PTORT_F4E2M1FN || to == PTORT_F4E1M2;
	switch (from) {
	case PTORT_F16: c.st = ST_F16; break;
	case PTORT_BF16: c.st = ST_BF16; break;
	case PTORT_I16: c.st = ST_I16; break;
	case PTORT_U16: c.st = ST_U16; break;
	case PTORT_I32: c.st = below16 ? ST_I32C : rm1 == PTORT_ODD ? ST_I32 : ST_I32N; break;
	case PTORT_U32: c.st = below16 ? ST_U32C : rm1 == PTORT_ODD ? ST_U32 : ST_U32N; break;
	default: return 0;
	}
	if (k2 == K_F32_F16)
		return 0;
	if (k2 == K_F32_I4)
		return i4_blocks(fused, k2, &c, ptort_type_bits(from) / 8, a->d);
	if (ptort_type_bits(to) == 4) {
		size_t n = a->n;
		c.n = n / 2;
		if (!fused(k2, &c))
			return 0;
		if (n & 1) {
			unsigned char *p = (unsigned char *)a->d + n / 2;
			uint64_t x = 0, v;
			memcpy(&x, (const unsigned char *)a->s + (n - 1) * (ptort_type_bits(from) / 8),
			       ptort_type_bits(from) / 8);
			v = ptort_cvt1_generic(from, to, x, (ptort_rmode)a->rm, a->sat);
			*p = (unsigned char)((*p & 0xF0) | (v & 0xF));
		}
		return 1;
	}
	return fused(k2, &c);
}

int ptort_cvtf_kernel_run(ptort_type from, ptort_type to, const void *src, void *dst,
			  size_t n, ptort_rmode rm, int sat, const uint8_t *tab)
{
	struct kargs a;
	enum kid k1, k2;
	int sb = 0, ss = 0, db = 0, ds = 0;
	const uint32_t *t;
	memset(&a, 0, sizeof a);
	a.s = src, a.d = dst, a.n = n, a.tab = tab;
	a.rm = rm == PTORT_NONE ? PTORT_RINT : (int)rm;
	a.sat = sat != 0;
	if (ptort_cvt_check(from, to, rm) != PTORT_CVT_OK)
		return 0;
	/* conversions from 8- and 4-bit codes */
	if ((t = ptort_cvtf_small_table(from, to, rm, sat)) != NULL) {
		ptort_cvtf_table_run(t, ptort_type_bits(from), ptort_type_bits(to), src, dst, n);
		return 1;
	}
	/* integer -> integer (i4: one byte per element, then paired) */
	if (int_kind(from, &sb, &ss) && (int_kind(to, &db, &ds) || to == PTORT_I4) && db <= 32) {
		const struct ptort_fmt *f = ptort_fmt_get(to);
		if (sb == 64 && !ss)
			return 0;
		if (to == PTORT_I4)
			db = 4, ds = 1;
		a.sbits = sb, a.ssigned = ss, a.dbits = db < 8 ? 8 : db;
		a.hi = f->is_signed ? (int64_t)((1ull << (db - 1)) - 1) : (int64_t)((1ull << db) - 1);
		a.lo = f->is_signed ? -(int64_t)(1ull << (db - 1)) : 0;
		a.neg0 = ss && !ds && db > sb;
		if (db == 4) {
			uint8_t b[1024];
			size_t done;
			if (sb == 8)
				return 0;
			for (done = 0; done < n; done += sizeof b) {
				struct kargs c = a;
				c.s = (const unsigned char *)src + done * (sb / 8);
				c.d = b;
				c.n = n - done < sizeof b ? n - done : sizeof b;
				if (!dispatch(K_INTINT, &c))
					return 0; /* decided by the pair: nothing written yet */
				pack_nibbles(b, c.n, (unsigned char *)dst + done / 2);
			}
			return 1;
		}
		return dispatch(K_INTINT, &a);
	}
	if (from == PTORT_BF16 && to == PTORT_F8E8M0FNU)
		return dispatch(K_BF16_E8M0, &a);
	/* f16 -> hif8 has its own HYBRID threshold (from the f16 bits) */
	if (from == PTORT_F16 && to == PTORT_HIF8 && (rm == PTORT_ROUND || rm == PTORT_HYBRID))
		return dispatch(K_F16_HIF8, &a);
	/* f32 source */
	if (from == PTORT_F32 && from_f32_kernel(to, (ptort_rmode)a.rm, &k2)) {
		if (ptort_cvt_is_exact(from, to) || to == PTORT_F32)
			a.sat = 0;
		last_step(k2, &a, src, dst, to, 0, n);
		return 1;
	}
	if ((from == PTORT_I32 || from == PTORT_U32) && to == PTORT_F32)
		return dispatch(from == PTORT_I32 ? K_I32_F32 : K_U32_F32, &a);
	/* a first step to f32, then (maybe) one rounding step */
	if (to_f32_kernel(from, &k1)) {
		uint32_t tmp[BLOCK];
		size_t done;
		struct kargs b = a;
		if (to == PTORT_F32)
			return dispatch(k1, &a);
		if (!from_f32_kernel(to, (ptort_rmode)a.rm, &k2))
			return 0;
		/* saturation has no effect on exact pairs (docs/semantics.md §3.2) */
		if (ptort_cvt_is_exact(from, to))
			a.sat = 0;
		/* 32-bit integers: to odd, except before the HiF8 pseudocode, which the
		 * semantics feed with the value rounded to f32 (RINT) */
		b.rm = k2 == K_F32_HIF8 ? PTORT_RINT : PTORT_ODD;
		if (fused_step(from, to, k2, &a, b.rm))
			return 1;
		for (done = 0; done < n; done += BLOCK) {
			size_t m = n - done < BLOCK ? n - done : BLOCK;
			b.s = (const unsigned char *)src + done * (ptort_type_bits(from) / 8);
			b.d = tmp;
			b.n = m;
			dispatch(k1, &b);
			last_step(k2, &a, tmp, dst, to, done, m);
		}
		return 1;
	}
	return 0;
}
