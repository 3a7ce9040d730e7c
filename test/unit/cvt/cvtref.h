/* cvtref.h: the slow, exact reference of the conversion semantics (docs/semantics.md §2-3)
 * used by the cvt tests. Written from the spec only: it shares no code with
 * runtime/src. Values are decoded into sign, integer significand and power-of-two
 * exponent, rounded with integer arithmetic, and encoded again. */
#ifndef CVTREF_H
#define CVTREF_H

#include <stdint.h>

#include "ptort.h"

enum { RV_ZERO, RV_FIN, RV_INF, RV_NAN };

/* An exactly decoded element: (-1)^neg * sig * 2^exp when kind == RV_FIN (sig > 0). */
typedef struct ref_val {
	int kind;
	int neg;
	uint64_t sig;
	int exp;
} ref_val;

/* Fills the exactness cache; call once before using the reference from threads. */
void ref_init(void);

/* Type names and widths (our own table, independent of the runtime's). */
const char *ref_type_name(ptort_type t);
int ref_type_parse(const char *s, ptort_type *out);
unsigned ref_type_bits(ptort_type t);
int ref_type_is_int(ptort_type t);
const char *ref_mode_name(ptort_rmode m);
int ref_mode_parse(const char *s, ptort_rmode *out);

/* Decoding and encoding. */
ref_val ref_decode(ptort_type t, uint64_t bits);
/* Whether `bits` decodes to a NaN of `t`. */
int ref_is_nan(ptort_type t, uint64_t bits);

/* Legality and exactness (docs/semantics.md §2-3, ptort.h §2). */
ptort_cvt_status ref_check(ptort_type from, ptort_type to, ptort_rmode rm);
int ref_is_exact(ptort_type from, ptort_type to);
/* The saturation default of docs/semantics.md §3.2 (no target rules). */
int ref_default_sat(ptort_type from, ptort_type to);

/* The expected destination pattern; 0 for an illegal pair or mode. */
uint64_t ref_cvt(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm, int sat);
/* The deq path: f16(RINT, sat ON) of the exact product src * scale. */
uint16_t ref_deq(int32_t src, uint16_t scale_f16);

/* Self-test hooks: HiF8 by the literal 950 pseudocode (f32 or f16 source), and HiF8
 * by generic rounding onto the HiF8 value lattice (any finite/special value). */
uint8_t ref_hif8_pseudo_f32(uint32_t x, ptort_rmode rm, int sat);
uint8_t ref_hif8_pseudo_f16(uint16_t x, ptort_rmode rm, int sat);
uint8_t ref_hif8_lattice(ref_val v, ptort_rmode rm, int sat);

#endif
