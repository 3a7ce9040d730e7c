/* tprint.c: ptort_tprint, a tile's valid region as text (docs/runtime.md "tprint"),
 * written to the context's print sink (standard output unless ptort_ctx_set_print
 * chose another). The only runtime function that writes text, by request of the
 * kernel (pto.tprint); errors are still only recorded. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cvt_internal.h"
#include "mem_internal.h"

void ptort_ctx_set_print(ptort_ctx *ctx, ptort_print_fn fn, void *user)
{
	if (ctx) {
		ctx->print = fn;
		ctx->print_user = user;
	}
}

static void out(ptort_ctx *ctx, const char *s, size_t n)
{
	if (ctx->print)
		ctx->print(ctx->print_user, s, n);
	else
		fwrite(s, 1, n, stdout);
}

/* Significant decimal digits that name every value of a float format uniquely:
 * ceil(p * log10(2)) + 1 for p significand bits (HiFloat8: at most 4). */
static int float_digits(const struct ptort_fmt *f)
{
	unsigned p = f->kind == FMT_HIF8 ? 4 : f->kind == FMT_E8M0 ? 1 : f->mbits + 1;
	return (int)ceil(p * 0.30102999566398120) + 1;
}

/* One element as text into buf (at least 48 bytes). */
static void elem_text(ptort_type type, uint64_t bits, char *buf, size_t cap)
{
	const struct ptort_fmt *f = ptort_fmt_get(type);
	struct ptort_val v;
	if (f->kind == FMT_INT) {
		if (f->is_signed) {
			uint64_t sign = (uint64_t)1 << (f->bits - 1);
			int64_t x = (int64_t)((bits ^ sign) - sign); /* sign extension */
			snprintf(buf, cap, "%lld", (long long)x);
		} else {
			snprintf(buf, cap, "%llu", (unsigned long long)bits);
		}
		return;
	}
	ptort_decode(type, bits, &v);
	switch (v.cls) {
	case VAL_NAN: snprintf(buf, cap, "nan"); return;
	case VAL_INF: snprintf(buf, cap, v.sign ? "-inf" : "inf"); return;
	case VAL_ZERO: snprintf(buf, cap, v.sign ? "-0" : "0"); return;
	case VAL_FINITE: break;
	}
	/* sig * 2^exp is exact in a double for every runtime float type */
	snprintf(buf, cap, "%.*g", float_digits(f), (v.sign ? -1.0 : 1.0) * ldexp((double)v.sig, v.exp));
}

int ptort_tprint(ptort_ctx *ctx, const ptort_tile *t)
{
	const uint8_t *base;
	unsigned bits;
	uint32_t r, c;
	char buf[96];
	if (!ctx)
		return -1;
	if (ctx->sched) /* the adversarial schedule: prints in program order, after what can run */
		ptort_sched_flush(ctx);
	if (ptort_check_tile(ctx, "tprint", "tile", t))
		return -1;
	base = ptort_mem_base(ctx, (ptort_mem)t->mem) + t->addr;
	bits = ptort_type_bits((ptort_type)t->type);
	snprintf(buf, sizeof buf, "tile %s %ux%u\n", ptort_type_name((ptort_type)t->type),
		 (unsigned)t->v_rows, (unsigned)t->v_cols);
	out(ctx, buf, strlen(buf));
	for (r = 0; r < t->v_rows; r++) {
		for (c = 0; c < t->v_cols; c++) {
			uint64_t e = ptort_ld(base, (uint64_t)ptort_tile_offset(t, r, c) * bits, bits);
			if (c)
				out(ctx, " ", 1);
			elem_text((ptort_type)t->type, e, buf, sizeof buf);
			out(ctx, buf, strlen(buf));
		}
		out(ctx, "\n", 1);
	}
	return 0;
}

void ptort_print_value(ptort_ctx *ctx, const char *prefix, ptort_type type, uint64_t bits)
{
	char buf[96];
	unsigned w;
	if (!ctx || (unsigned)type >= PTORT_TYPE_COUNT)
		return;
	w = ptort_type_bits(type);
	if (w < 64)
		bits &= ((uint64_t)1 << w) - 1;
	if (prefix)
		out(ctx, prefix, strlen(prefix));
	elem_text(type, bits, buf, sizeof buf);
	out(ctx, buf, strlen(buf));
	out(ctx, "\n", 1);
}
