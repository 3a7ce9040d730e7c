/* cvt_run.c: conversions of buffers, the top of the conversion files (the file map:
 * cvt_fast_internal.h): ptort_cvt_run and ptort_cvt_2d take the fast path where it
 * converts the pair (ptort_cvt_fast_run: a 64 KiB table to HiF8, else the kernels),
 * else the generic element loop of cvt.c. Semantics: docs/semantics.md §2-3. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cvt_fast_internal.h"

/* ---- the fast path ------------------------------------------------------ */

#define BLOCK 1024

static int fast_run_aligned(ptort_type from, ptort_type to, const void *src, void *dst,
			    size_t n, ptort_rmode rm, int sat);

/* The kernels read and write through typed pointers, so a buffer that is not aligned
 * to its element size goes through aligned blocks (memcpy in and out); with a 4-bit
 * side that is left to the generic path. */
int ptort_cvt_fast_run(ptort_type from, ptort_type to, const void *src, void *dst, size_t n,
		       ptort_rmode rm, int sat)
{
	unsigned sbits = ptort_type_bits(from), dbits = ptort_type_bits(to);
	uint64_t sbuf[BLOCK], dbuf[BLOCK];
	size_t done;
	if (n == 0 || ((uintptr_t)src % ((sbits + 7) / 8) == 0 && (uintptr_t)dst % ((dbits + 7) / 8) == 0))
		return fast_run_aligned(from, to, src, dst, n, rm, sat);
	if (sbits < 8 || dbits < 8)
		return 0;
	for (done = 0; done < n; done += BLOCK) {
		size_t m = n - done < BLOCK ? n - done : BLOCK;
		memcpy(sbuf, (const unsigned char *)src + done * (sbits / 8), m * (sbits / 8));
		if (!fast_run_aligned(from, to, sbuf, dbuf, m, rm, sat))
			return 0; /* decided by the pair alone: nothing was written yet */
		memcpy((unsigned char *)dst + done * (dbits / 8), dbuf, m * (dbits / 8));
	}
	return 1;
}

static int fast_run_aligned(ptort_type from, ptort_type to, const void *src, void *dst,
			    size_t n, ptort_rmode rm, int sat)
{
	const uint8_t *t = NULL;
	ptort_rmode r = rm == PTORT_NONE ? PTORT_RINT : rm;
	if (to == PTORT_HIF8 && ptort_type_bits(from) == 16 && (t = ptort_cvtf_wide_table(from, r, sat, n))) {
		ptort_cvtf_wide_run(t, src, dst, n);
		return 1;
	}
	if (to == PTORT_HIF8 && (from == PTORT_F32 || from == PTORT_I32 || from == PTORT_U32) &&
	    r != PTORT_ODD)
		t = r == PTORT_HYBRID ? ptort_cvtf_hyb_table(sat, n) : ptort_cvtf_wide_table(PTORT_BF16, r, sat, n);
	return ptort_cvtf_kernel_run(from, to, src, dst, n, rm, sat, t);
}

/* ---- buffers ------------------------------------------------------------ */

static uint64_t load_elem(const unsigned char *p, unsigned bits, size_t i)
{
	switch (bits) {
	case 4:
		return (p[i / 2] >> ((i & 1) * 4)) & 0xF;
	case 8:
		return p[i];
	case 16: {
		uint16_t x;
		memcpy(&x, p + 2 * i, 2);
		return x;
	}
	case 32: {
		uint32_t x;
		memcpy(&x, p + 4 * i, 4);
		return x;
	}
	default: {
		uint64_t x;
		memcpy(&x, p + 8 * i, 8);
		return x;
	}
	}
}

static void store_elem(unsigned char *p, unsigned bits, size_t i, uint64_t v)
{
	switch (bits) {
	case 4: {
		unsigned sh = (unsigned)(i & 1) * 4;
		p[i / 2] = (unsigned char)((p[i / 2] & ~(0xFu << sh)) | ((v & 0xF) << sh));
		return;
	}
	case 8:
		p[i] = (unsigned char)v;
		return;
	case 16: {
		uint16_t x = (uint16_t)v;
		memcpy(p + 2 * i, &x, 2);
		return;
	}
	case 32: {
		uint32_t x = (uint32_t)v;
		memcpy(p + 4 * i, &x, 4);
		return;
	}
	default:
		memcpy(p + 8 * i, &v, 8);
		return;
	}
}

/* The portable loop over a run; also what the fast paths are tested against. */
void ptort_cvt_run_generic(ptort_type from, ptort_type to, const void *src, void *dst,
			   size_t n, ptort_rmode rm, int sat)
{
	unsigned fb = ptort_type_bits(from), tb = ptort_type_bits(to);
	int se = ptort_cvt_effective_sat(from, to, sat), ex = ptort_cvt_is_exact(from, to);
	size_t i;
	for (i = 0; i < n; i++)
		store_elem(dst, tb, i, ptort_cvt1_core(from, to, load_elem(src, fb, i), rm, se, ex));
}

ptort_cvt_status ptort_cvt_run(ptort_type from, ptort_type to, const void *src, void *dst,
			       size_t n, ptort_rmode rm, int sat)
{
	ptort_cvt_status st = ptort_cvt_check(from, to, rm);
	if (st != PTORT_CVT_OK)
		return st;
	if (!ptort_cvt_fast_run(from, to, src, dst, n, rm, sat))
		ptort_cvt_run_generic(from, to, src, dst, n, rm, sat);
	return PTORT_CVT_OK;
}

ptort_cvt_status ptort_cvt_2d(ptort_type from, ptort_type to, const void *src, size_t src_off,
			      size_t src_stride, void *dst, size_t dst_off, size_t dst_stride,
			      size_t rows, size_t cols, ptort_rmode rm, int sat)
{
	unsigned fb = ptort_type_bits(from), tb = ptort_type_bits(to);
	ptort_cvt_status st = ptort_cvt_check(from, to, rm);
	size_t r, c;
	int se, ex;
	if (st != PTORT_CVT_OK)
		return st;
	se = ptort_cvt_effective_sat(from, to, sat);
	ex = ptort_cvt_is_exact(from, to);
	for (r = 0; r < rows; r++) {
		size_t si = src_off + r * src_stride, di = dst_off + r * dst_stride;
		/* whole-byte rows go through the fast kernels */
		if (fb >= 8 && tb >= 8) {
			const unsigned char *s = (const unsigned char *)src + si * (fb / 8);
			unsigned char *d = (unsigned char *)dst + di * (tb / 8);
			if (ptort_cvt_fast_run(from, to, s, d, cols, rm, sat))
				continue;
		}
		for (c = 0; c < cols; c++)
			store_elem(dst, tb, di + c,
				   ptort_cvt1_core(from, to, load_elem(src, fb, si + c), rm, se, ex));
	}
	return PTORT_CVT_OK;
}
