/* cvt_array.c: conversions of whole arrays as `ptoc cvt` converts one value
 * (include/ptoc/legality.h, "Converting arrays"): the generic semantics through the
 * runtime's fast paths (ptort_cvt_run), or a target's decision (ptoc_cvt_query) run step
 * by step. The one-line verdict text of `ptoc legality --rmode` is here too. Both are
 * what bindings in other languages call (python/ptoc). */
#include <stdio.h>
#include <string.h>

#include "ptoc/legality.h"
#include "ptoc/ptoc.h" /* ptoc_buf */

/* Elements per step of a chain: even (4-bit elements start on a byte), small enough
 * for the intermediate arrays to stay in the L1/L2 caches. */
#define CHUNK 4096

static int fail(char *err, size_t cap, const char *text)
{
	if (cap)
		snprintf(err, cap, "%s", text);
	return -1;
}

/* A chain or the deq path, CHUNK elements at a time through aligned scratch arrays. */
static void run_plan(const ptoc_cvt_result *p, const unsigned char *src, unsigned char *dst,
		     size_t n)
{
	uint64_t a[CHUNK], b[CHUNK]; /* CHUNK elements of up to 64 bits */
	unsigned fb = ptort_type_bits(p->from), tb = ptort_type_bits(p->to);
	size_t off;
	for (off = 0; off < n; off += CHUNK) {
		size_t m = n - off < CHUNK ? n - off : CHUNK;
		const void *in = src + off * fb / 8;
		void *bufs[2] = {a, b};
		unsigned k, last = p->nsteps - 1;
		for (k = 0; k < last; k++) {
			ptort_cvt_run(p->chain[k], p->chain[k + 1], in, bufs[k & 1], m, PTORT_RINT,
				      PTORT_SAT_OFF);
			in = bufs[k & 1];
		}
		if (p->flags & PTOC_CVT_F_DEQ) { /* i32 -> f16 with scale 1.0 */
			int32_t *x = bufs[last & 1];
			uint16_t *y = bufs[(last + 1) & 1];
			if (in != (const void *)x)
				memcpy(x, in, m * 4);
			ptort_deq_i32_f16(x, y, m, 0x3C00);
			memcpy(dst + off * 2, y, m * 2);
		} else {
			ptort_cvt_run(p->chain[last], p->to, in, dst + off * tb / 8, m, p->rmode, p->sat);
		}
	}
}

int ptoc_cvt_array(const ptoc_target *target, ptort_type from, ptort_type to, ptort_rmode rm,
		   int sat, const void *src, void *dst, size_t n, ptoc_msg_fn warn, void *user,
		   char *err, size_t errcap)
{
	char text[1024];
	ptoc_cvt_result p;
	if ((unsigned)from >= PTORT_TYPE_COUNT || (unsigned)to >= PTORT_TYPE_COUNT ||
	    (unsigned)rm >= PTORT_RMODE_COUNT || sat < -1 || sat > 1)
		return fail(err, errcap, "invalid argument");
	if (!target) {
		switch (ptort_cvt_check(from, to, rm)) {
		case PTORT_CVT_OK:
			break;
		case PTORT_CVT_NO_PAIR:
			snprintf(text, sizeof text, "no conversion from %s to %s", ptort_type_name(from),
				 ptort_type_name(to));
			return fail(err, errcap, text);
		default:
			snprintf(text, sizeof text, "round mode %s is not allowed for %s -> %s (ODD: f32 "
				 "-> f16 only; HYBRID: hif8 destinations only; neither to integers)",
				 ptort_rmode_name(rm), ptort_type_name(from), ptort_type_name(to));
			return fail(err, errcap, text);
		}
		if (n)
			ptort_cvt_run(from, to, src, dst, n, rm,
				      sat < 0 ? ptort_cvt_default_sat(from, to) : sat);
		return 0;
	}
	if ((unsigned)*target >= PTOC_TARGET_COUNT)
		return fail(err, errcap, "invalid argument");
	if (ptoc_cvt_query(*target, from, to, rm,
			   sat < 0 ? PTOC_SAT_ABSENT : sat ? PTOC_SAT_REQ_ON : PTOC_SAT_REQ_OFF,
			   &p) == PTOC_CVT_ILLEGAL) {
		ptoc_cvt_reason(&p, text, sizeof text);
		return fail(err, errcap, text);
	}
	if (warn)
		ptoc_cvt_warnings(&p, warn, user);
	if (!n)
		return 0;
	if (p.nsteps == 1 && !(p.flags & PTOC_CVT_F_DEQ))
		ptort_cvt_run(from, to, src, dst, n, p.rmode, p.sat);
	else
		run_plan(&p, src, dst, n);
	return 0;
}

size_t ptoc_cvt_verdict_str(ptoc_target t, ptort_type from, ptort_type to, ptort_rmode rm,
			    ptoc_sat_request sat, char *buf, size_t cap)
{
	ptoc_cvt_result r;
	char text[1024];
	ptoc_buf b;
	unsigned i;
	ptoc_buf_fixed(&b, buf, cap);
	switch (ptoc_cvt_query(t, from, to, rm, sat, &r)) {
	case PTOC_CVT_NATIVE:
		ptoc_buf_puts(&b, "native");
		break;
	case PTOC_CVT_DECOMPOSED:
		ptoc_buf_puts(&b, "decomposed via ");
		for (i = 1; i < r.nsteps; i++) {
			if (i > 1)
				ptoc_buf_puts(&b, ", ");
			ptoc_buf_puts(&b, ptort_type_name(r.chain[i]));
		}
		ptoc_cvt_chain_str(&r, text, sizeof text);
		ptoc_buf_puts(&b, ": ");
		ptoc_buf_puts(&b, text);
		break;
	default:
		ptoc_cvt_reason(&r, text, sizeof text);
		ptoc_buf_puts(&b, "illegal: ");
		ptoc_buf_puts(&b, text);
		break;
	}
	return b.len;
}
