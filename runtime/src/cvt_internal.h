/* cvt_internal.h: the runtime's private view of the numeric formats and of the
 * decode -> round -> pack conversion core (shared by cvt*.c, never installed).
 *
 * Every element type is described as data (struct ptort_fmt); the generic path
 * decodes a bit pattern into an exact value (class, sign, integer significand x
 * power of two), rounds it on the destination's grid and packs it. Only integer
 * arithmetic is used. The fast paths (cvt_fast*.c) must give identical bits. */
#ifndef PTORT_CVT_INTERNAL_H
#define PTORT_CVT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ptort.h"

enum fmt_kind {
	FMT_IEEE, /* sign, exponent, mantissa, subnormals; specials per flags */
	FMT_HIF8, /* HiFloat8 tapered encoding */
	FMT_E8M0, /* 2^(E-127), 0xFF NaN, no zero, no sign */
	FMT_INT   /* two's complement or unsigned integer */
};

/* NaN encodings of an IEEE-like format. */
enum fmt_nan {
	NAN_NONE, /* no NaN (fp4, integers) */
	NAN_IEEE, /* all-ones exponent, nonzero mantissa */
	NAN_FN    /* only S.1111.111 (e4m3fn) */
};

struct ptort_fmt {
	enum fmt_kind kind;
	unsigned bits;	  /* storage width */
	unsigned ebits;	  /* exponent field width (IEEE) */
	unsigned mbits;	  /* stored mantissa bits (IEEE) */
	int bias;	  /* exponent bias */
	int emax;	  /* unbiased exponent of the largest finite value */
	uint32_t maxfrac; /* mantissa field of the largest finite value */
	int has_inf;
	enum fmt_nan nan;
	uint64_t qnan;	/* canonical quiet NaN pattern (0 if none) */
	int has_negzero;
	int is_signed;	/* integers; floats are signed except e8m0 */
};

const struct ptort_fmt *ptort_fmt_get(ptort_type t);

/* A decoded value: value = (-1)^sign * sig * 2^exp for VAL_FINITE (sig != 0). */
enum val_class { VAL_ZERO, VAL_FINITE, VAL_INF, VAL_NAN };
struct ptort_val {
	enum val_class cls;
	int sign;
	uint64_t sig;
	int exp;
};

void ptort_decode(ptort_type t, uint64_t bits, struct ptort_val *v);
/* Rounds a decoded value to an IEEE-like or HiF8 type with RINT and no saturation
 * (NaN and inf map as with saturation off). Returns -1 on overflow. */
int ptort_round_val(ptort_type to, const struct ptort_val *v, uint64_t *bits);
/* The generic (portable, reference-shaped) conversion of one element. The caller has
 * checked the pair and mode. */
uint64_t ptort_cvt1_generic(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm,
			    int sat);
/* Its core, for loops that decide once per run: sat_eff from ptort_cvt_effective_sat,
 * exact from ptort_cvt_is_exact. */
uint64_t ptort_cvt1_core(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm,
			 int sat_eff, int exact);
/* Saturation as it acts on the pair: none for an f32 destination and exact pairs. */
int ptort_cvt_effective_sat(ptort_type from, ptort_type to, int sat);

/* cvt_run.c: the portable loop over a run (what the fast kernels are tested against). */
void ptort_cvt_run_generic(ptort_type from, ptort_type to, const void *src, void *dst,
			   size_t n, ptort_rmode rm, int sat);

/* Fast contiguous kernels (cvt_run.c; the file map: cvt_fast_internal.h). Return 1
 * when they handled the run. */
int ptort_cvt_fast_run(ptort_type from, ptort_type to, const void *src, void *dst, size_t n,
		       ptort_rmode rm, int sat);

/* Caps the instruction set the fast kernels use (tests): 0 portable C, 1 AVX2,
 * 2 AVX2+F16C; -1 restores the best available. */
void ptort_cvt_fast_force_level(int level);

/* The 64 KiB lookup tables of conversions to hif8 (tests): 0 never, 1 always (built at
 * once), -1 restores the default (built once 2^22 elements went through the kernels). */
void ptort_cvt_fast_force_tables(int on);

#endif
