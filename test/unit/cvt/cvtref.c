/* cvtref.c: the slow reference of docs/semantics.md §2-3, written from the spec and the 950
 * Cast pseudocode only (never from runtime/src).
 *
 * Every conversion: decode the source into an exact value (sign, integer significand,
 * power-of-two exponent, or NaN/inf/zero); round it onto the destination's lattice of
 * representable values with integer arithmetic (the lattice of binade e is the set of
 * multiples of 2^quantum(e)); apply the overflow, inf, NaN and zero rules; encode.
 * HiF8 under ROUND and HYBRID follows the 950 pseudocode literally instead.
 *
 * Decisions where the spec is silent (documented in the test README comments):
 *   - HiF8 from a source other than f32/f16: the source is first converted to f32
 *     (exact for every such source except integers >= 2^24, which overflow anyway).
 *   - HiF8 under RINT/FLOOR/CEIL/TRUNC (no pseudocode): ordinary rounding onto the
 *     HiF8 lattice (precision 3/2/1 bits by binade, denormal binades hold powers of
 *     two, [0, 2^-22) has quantum 2^-22), "even" = even multiple of the quantum.
 *   - e4m3fn "NaN where inf would be" is the canonical NaN 0x7F for both signs.
 *   - Exactness counts the sign of zero: e2m1 -> hif8 is not exact (no -0).
 *   - Every NaN result is the destination's canonical quiet NaN (§3 step 4), f32 -> f32
 *     included ("NaN/inf pass" read as: they stay NaN/inf, unrounded).
 *   - Exact conversions and the f32 destination ignore saturation (§3.2), so a NaN
 *     stays NaN there even with sat ON.
 */
#include <string.h>

#include "cvtref.h"

/* ---- type table ---------------------------------------------------------- */

enum { SP_INT, SP_IEEE, SP_FN, SP_NONE, SP_HIF8, SP_E8M0 };

static const struct tinfo {
	const char *name;
	unsigned bits;
	int special;
	int ebits, mbits, bias; /* float formats; for ints: signed in `bias` */
	uint64_t qnan;
} T[PTORT_TYPE_COUNT] = {
	[PTORT_F32] = {"f32", 32, SP_IEEE, 8, 23, 127, 0x7FC00000u},
	[PTORT_F16] = {"f16", 16, SP_IEEE, 5, 10, 15, 0x7E00},
	[PTORT_BF16] = {"bf16", 16, SP_IEEE, 8, 7, 127, 0x7FC0},
	[PTORT_F8E4M3FN] = {"f8E4M3FN", 8, SP_FN, 4, 3, 7, 0x7F},
	[PTORT_F8E5M2] = {"f8E5M2", 8, SP_IEEE, 5, 2, 15, 0x7E},
	[PTORT_HIF8] = {"hif8", 8, SP_HIF8, 0, 0, 0, 0x80},
	[PTORT_F4E2M1FN] = {"f4E2M1FN", 4, SP_NONE, 2, 1, 1, 0},
	[PTORT_F4E1M2] = {"f4E1M2", 4, SP_NONE, 1, 2, 1, 0},
	[PTORT_F8E8M0FNU] = {"f8E8M0FNU", 8, SP_E8M0, 8, 0, 127, 0xFF},
	[PTORT_I4] = {"i4", 4, SP_INT, 0, 0, 1, 0},
	[PTORT_I8] = {"i8", 8, SP_INT, 0, 0, 1, 0},
	[PTORT_I16] = {"i16", 16, SP_INT, 0, 0, 1, 0},
	[PTORT_I32] = {"i32", 32, SP_INT, 0, 0, 1, 0},
	[PTORT_I64] = {"i64", 64, SP_INT, 0, 0, 1, 0},
	[PTORT_U8] = {"ui8", 8, SP_INT, 0, 0, 0, 0},
	[PTORT_U16] = {"ui16", 16, SP_INT, 0, 0, 0, 0},
	[PTORT_U32] = {"ui32", 32, SP_INT, 0, 0, 0, 0},
	[PTORT_U64] = {"ui64", 64, SP_INT, 0, 0, 0, 0},
};

static const char *const MODES[PTORT_RMODE_COUNT] = {"RINT", "ROUND", "FLOOR", "CEIL",
						     "TRUNC", "ODD", "NONE", "HYBRID"};

const char *ref_type_name(ptort_type t) { return T[t].name; }
unsigned ref_type_bits(ptort_type t) { return T[t].bits; }
int ref_type_is_int(ptort_type t) { return T[t].special == SP_INT; }
const char *ref_mode_name(ptort_rmode m) { return MODES[m]; }

int ref_type_parse(const char *s, ptort_type *out)
{
	for (int t = 0; t < PTORT_TYPE_COUNT; t++)
		if (!strcmp(s, T[t].name)) {
			*out = (ptort_type)t;
			return 0;
		}
	return -1;
}

int ref_mode_parse(const char *s, ptort_rmode *out)
{
	for (int m = 0; m < PTORT_RMODE_COUNT; m++)
		if (!strcmp(s, MODES[m])) {
			*out = (ptort_rmode)m;
			return 0;
		}
	return -1;
}

static uint64_t mask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

static int bitlen(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* ---- decoding ------------------------------------------------------------ */

static ref_val fin(int neg, uint64_t sig, int exp)
{
	ref_val v = {RV_FIN, neg, sig, exp};
	if (!sig)
		v.kind = RV_ZERO;
	return v;
}

static ref_val special(int kind, int neg)
{
	ref_val v = {kind, neg, 0, 0};
	return v;
}

/* HiF8, from the code table of docs/semantics.md §3.3. */
static ref_val decode_hif8(unsigned b)
{
	int neg = b >> 7, low = b & 0x7F, es, mag, m, mb;
	if (b == 0x80)
		return special(RV_NAN, 0);
	if (low == 0x6F)
		return special(RV_INF, neg);
	if (low >> 3 == 0) /* denormal: 2^(M-23); M = 0 is the zero */
		return low ? fin(neg, 1, low - 23) : special(RV_ZERO, 0);
	if (low >> 3 == 1) { /* D = 0001: exponent 0 */
		es = 0, mag = 0, m = low & 7, mb = 3;
	} else if (low >> 4 == 1) { /* D = 001: |E| = 1 */
		es = low >> 3 & 1, mag = 1, m = low & 7, mb = 3;
	} else if (low >> 5 == 1) { /* D = 01: |E| = 2 + e1 */
		es = low >> 4 & 1, mag = 2 + (low >> 3 & 1), m = low & 7, mb = 3;
	} else if (low >> 5 == 2) { /* D = 10: |E| = 4 + e2 */
		es = low >> 4 & 1, mag = 4 + (low >> 2 & 3), m = low & 3, mb = 2;
	} else { /* D = 11: |E| = 8 + e3 */
		es = low >> 4 & 1, mag = 8 + (low >> 1 & 7), m = low & 1, mb = 1;
	}
	return fin(neg, (1u << mb) + (unsigned)m, (es ? -mag : mag) - mb);
}

ref_val ref_decode(ptort_type t, uint64_t bits)
{
	const struct tinfo *f = &T[t];
	bits &= mask(f->bits);
	if (f->special == SP_INT) {
		int neg = f->bias && (bits >> (f->bits - 1) & 1);
		uint64_t mag = neg ? ((~bits & mask(f->bits)) + 1) : bits;
		/* i64 minimum: ~bits + 1 wraps to 0 in 64 bits; its magnitude is 2^63 */
		if (neg && f->bits == 64 && bits == (1ull << 63))
			mag = 1ull << 63;
		return fin(neg, mag, 0);
	}
	if (f->special == SP_HIF8)
		return decode_hif8((unsigned)bits);
	if (f->special == SP_E8M0)
		return bits == 0xFF ? special(RV_NAN, 0) : fin(0, 1, (int)bits - 127);
	int neg = (int)(bits >> (f->ebits + f->mbits) & 1);
	uint64_t E = bits >> f->mbits & mask((unsigned)f->ebits), M = bits & mask((unsigned)f->mbits);
	uint64_t emax = mask((unsigned)f->ebits);
	if (f->special == SP_IEEE && E == emax)
		return special(M ? RV_NAN : RV_INF, neg);
	if (f->special == SP_FN && E == emax && M == mask((unsigned)f->mbits))
		return special(RV_NAN, neg);
	if (E == 0)
		return M ? fin(neg, M, 1 - f->bias - f->mbits) : special(RV_ZERO, neg);
	return fin(neg, M | 1ull << f->mbits, (int)E - f->bias - f->mbits);
}

int ref_is_nan(ptort_type t, uint64_t bits) { return ref_decode(t, bits).kind == RV_NAN; }

/* ---- legality ------------------------------------------------------------- */

ptort_cvt_status ref_check(ptort_type from, ptort_type to, ptort_rmode rm)
{
	int e8 = (from == PTORT_F8E8M0FNU) + (to == PTORT_F8E8M0FNU);
	if (e8 == 2 || (e8 == 1 && from != PTORT_BF16 && to != PTORT_BF16))
		return PTORT_CVT_NO_PAIR;
	if (rm == PTORT_ODD && !(from == PTORT_F32 && to == PTORT_F16))
		return PTORT_CVT_BAD_MODE;
	if (rm == PTORT_HYBRID && to != PTORT_HIF8)
		return PTORT_CVT_BAD_MODE;
	if ((unsigned)rm >= PTORT_RMODE_COUNT)
		return PTORT_CVT_BAD_MODE;
	return PTORT_CVT_OK;
}

int ref_default_sat(ptort_type from, ptort_type to)
{
	static const ptort_type off[][2] = {
		{PTORT_F16, PTORT_U8},  {PTORT_F16, PTORT_I8},  {PTORT_F32, PTORT_I16},
		{PTORT_F16, PTORT_I16}, {PTORT_I64, PTORT_I32}, {PTORT_I32, PTORT_I16},
	};
	for (unsigned i = 0; i < sizeof off / sizeof off[0]; i++)
		if (off[i][0] == from && off[i][1] == to)
			return PTORT_SAT_OFF;
	return PTORT_SAT_ON;
}

/* ---- the lattice of a float destination ----------------------------------- */

/* Quantum exponent of the destination's lattice in binade e (2^e <= |v| < 2^(e+1)),
 * with an unbounded exponent above the top. */
static int quantum(ptort_type to, int e)
{
	const struct tinfo *f = &T[to];
	if (f->special == SP_HIF8) {
		int a = e < 0 ? -e : e;
		if (e < -22)
			return -22;
		if (e <= -16)
			return e;
		if (e > 15 || a >= 8)
			return e - 1;
		return e - (a >= 4 ? 2 : 3);
	}
	int emin = 1 - f->bias;
	return (e < emin ? emin : e) - f->mbits;
}

/* Largest finite value as sig * 2^exp. */
static void maxfin(ptort_type to, uint64_t *sig, int *exp)
{
	const struct tinfo *f = &T[to];
	int emax = (int)mask((unsigned)f->ebits);
	switch (f->special) {
	case SP_HIF8:
		*sig = 1, *exp = 15;
		return;
	case SP_IEEE:
		*sig = mask((unsigned)f->mbits + 1), *exp = emax - 1 - f->bias - f->mbits;
		return;
	case SP_FN:
		*sig = mask((unsigned)f->mbits + 1) - 1, *exp = emax - f->bias - f->mbits;
		return;
	default: /* SP_NONE */
		*sig = mask((unsigned)f->mbits + 1), *exp = emax - f->bias - f->mbits;
		return;
	}
}

/* Compares a = sa * 2^ea with b = sb * 2^eb (both significands > 0). */
static int cmpval(uint64_t sa, int ea, uint64_t sb, int eb)
{
	int la = ea + bitlen(sa), lb = eb + bitlen(sb);
	if (la != lb)
		return la < lb ? -1 : 1;
	/* same binade: |ea - eb| < 64 and the aligned values have equal bit lengths */
	if (ea >= eb)
		sa <<= ea - eb;
	else
		sb <<= eb - ea;
	return sa < sb ? -1 : sa > sb;
}

/* Rounds sig * 2^exp (magnitude; `neg` is its sign) to an integer multiple N of 2^q
 * with mode rm; returns N. Requires N to fit in 64 bits. *inexact is set. */
static uint64_t round_q(uint64_t sig, int exp, int q, int neg, ptort_rmode rm, int *inexact)
{
	if (exp >= q) {
		*inexact = 0;
		return sig << (exp - q);
	}
	int sh = q - exp;
	uint64_t keep = sh >= 64 ? 0 : sig >> sh;
	uint64_t rem = sh >= 64 ? sig : sig & mask((unsigned)sh);
	int above, tie; /* rem compared with half a quantum, 2^(sh-1) */
	if (sh - 1 >= 64) {
		above = 0, tie = 0;
	} else {
		uint64_t half = 1ull << (sh - 1);
		above = rem > half, tie = rem == half;
	}
	int inc = 0;
	*inexact = rem != 0;
	switch (rm) {
	case PTORT_RINT:
	case PTORT_NONE:
		inc = above || (tie && (keep & 1));
		break;
	case PTORT_ROUND:
		inc = above || tie;
		break;
	case PTORT_FLOOR:
		inc = neg && rem;
		break;
	case PTORT_CEIL:
		inc = !neg && rem;
		break;
	case PTORT_ODD:
		if (rem)
			keep |= 1;
		break;
	default: /* TRUNC */
		break;
	}
	return keep + (uint64_t)inc;
}

/* N * 2^s as an exact 64-bit integer (s may be negative only when exact). */
static uint64_t shx(uint64_t n, int s) { return s >= 0 ? n << s : n >> -s; }

/* Encodes the finite lattice value (-1)^neg * n * 2^q (n > 0, <= max) of `to`. */
static uint64_t encode(ptort_type to, int neg, uint64_t n, int q)
{
	const struct tinfo *f = &T[to];
	int e = q + bitlen(n) - 1;
	if (f->special == SP_HIF8) {
		int a = e < 0 ? -e : e, mb, low;
		if (e <= -16)
			return (uint64_t)(neg << 7 | (e + 23));
		mb = a >= 8 ? 1 : a >= 4 ? 2 : 3;
		int m = (int)(shx(n, q - (e - mb)) - (1u << mb)), es = e < 0;
		if (a == 0)
			low = 0x08 | m;
		else if (a == 1)
			low = 0x10 | es << 3 | m;
		else if (a <= 3)
			low = 0x20 | es << 4 | (a - 2) << 3 | m;
		else if (a <= 7)
			low = 0x40 | es << 4 | (a - 4) << 2 | m;
		else
			low = 0x60 | es << 4 | (a - 8) << 1 | m;
		return (uint64_t)(neg << 7 | low);
	}
	int emin = 1 - f->bias;
	uint64_t E, M;
	if (e < emin) {
		E = 0;
		M = shx(n, q - (emin - f->mbits));
	} else {
		E = (uint64_t)(e + f->bias);
		M = shx(n, q - (e - f->mbits)) - (1ull << f->mbits);
	}
	return (uint64_t)neg << (f->ebits + f->mbits) | E << f->mbits | M;
}

static uint64_t enc_zero(ptort_type to, int neg)
{
	if (to == PTORT_HIF8 || !neg)
		return 0;
	return 1ull << (T[to].bits - 1);
}

static uint64_t enc_max(ptort_type to, int neg)
{
	uint64_t s;
	int e;
	maxfin(to, &s, &e);
	return encode(to, neg, s, e);
}

/* "inf" of the destination when not saturating (e4m3fn: NaN; fp4: max). */
static uint64_t enc_inf(ptort_type to, int neg)
{
	switch (T[to].special) {
	case SP_IEEE:
		return (uint64_t)neg << (T[to].bits - 1) | mask((unsigned)T[to].ebits) << T[to].mbits;
	case SP_FN: /* the canonical NaN, the only e4m3fn NaN the spec names */
		return 0x7F;
	case SP_HIF8:
		return neg ? 0xEF : 0x6F;
	default:
		return enc_max(to, neg);
	}
}

/* ---- exactness ------------------------------------------------------------ */

static int representable(ptort_type to, ref_val v)
{
	const struct tinfo *f = &T[to];
	if (v.kind == RV_NAN)
		return f->special != SP_INT && f->special != SP_NONE;
	if (v.kind == RV_INF)
		return f->special == SP_IEEE || f->special == SP_HIF8;
	if (v.kind == RV_ZERO) /* -0 needs a -0 (HiF8 has none) */
		return to != PTORT_F8E8M0FNU && !(v.neg && to == PTORT_HIF8);
	if (f->special == SP_INT) {
		if (v.exp < 0 && (v.sig & mask((unsigned)-v.exp)))
			return 0;
		if (v.exp + bitlen(v.sig) > 64)
			return 0;
		uint64_t n = v.exp >= 0 ? v.sig << v.exp : v.sig >> -v.exp;
		unsigned w = f->bits - (f->bias ? 1 : 0);
		if (v.neg)
			return f->bias && n <= (1ull << w);
		return w >= 64 || n <= mask(w);
	}
	if (f->special == SP_E8M0) /* powers of two 2^-127 .. 2^127 */
		return !v.neg && (v.sig & (v.sig - 1)) == 0 &&
		       v.exp + bitlen(v.sig) - 1 >= -127 && v.exp + bitlen(v.sig) - 1 <= 127;
	int e = v.exp + bitlen(v.sig) - 1, q = quantum(to, e), inexact;
	uint64_t ms;
	int me;
	round_q(v.sig, v.exp, q, v.neg, PTORT_TRUNC, &inexact);
	if (inexact)
		return 0;
	maxfin(to, &ms, &me);
	return cmpval(v.sig, v.exp, ms, me) <= 0;
}

static int is_exact_slow(ptort_type from, ptort_type to)
{
	if (T[from].bits <= 16) { /* from the formats alone, defined pair or not */
		for (uint64_t b = 0; b <= mask(T[from].bits); b++)
			if (!representable(to, ref_decode(from, b)))
				return 0;
		return 1;
	}
	if (from == PTORT_F32)
		return to == PTORT_F32;
	/* 32/64-bit integers: the two extremes decide for integer destinations; no float
	 * destination holds every 25-bit integer */
	if (T[to].special != SP_INT)
		return 0;
	uint64_t lo = T[from].bias ? 1ull << (T[from].bits - 1) : 0, hi = mask(T[from].bits - (T[from].bias ? 1 : 0));
	return representable(to, ref_decode(from, lo)) && representable(to, ref_decode(from, hi));
}

static signed char exact_cache[PTORT_TYPE_COUNT][PTORT_TYPE_COUNT];

void ref_init(void)
{
	for (int a = 0; a < PTORT_TYPE_COUNT; a++)
		for (int b = 0; b < PTORT_TYPE_COUNT; b++)
			exact_cache[a][b] = (signed char)(1 + is_exact_slow((ptort_type)a, (ptort_type)b));
}

int ref_is_exact(ptort_type from, ptort_type to)
{
	if (!exact_cache[from][to]) /* call ref_init() before starting threads */
		exact_cache[from][to] = (signed char)(1 + is_exact_slow(from, to));
	return exact_cache[from][to] - 1;
}

/* ---- HiF8: the 950 pseudocode, literally ----------------------------------- */

/* {sign, Ev, M} to a code, "following the HiF encoding rule"; Ev in [-22, 16]. For
 * Ev <= -16 the value is the power of two 2^Ev (denormal code Ev + 23). */
static uint8_t hif8_pack(int neg, int ev, unsigned m)
{
	if (ev >= 16)
		return neg ? 0xEF : 0x6F;
	if (ev <= -16)
		return (uint8_t)(neg << 7 | (ev + 23));
	int a = ev < 0 ? -ev : ev, mb = a >= 8 ? 1 : a >= 4 ? 2 : 3;
	return (uint8_t)encode(PTORT_HIF8, neg, (1u << mb) + m, ev - mb);
}

static uint8_t hif8_sat(uint8_t c, int sat)
{
	if (!sat)
		return c;
	if (c == 0x80)
		return 0;
	if ((c & 0x7F) == 0x6F)
		return c & 0x80 ? 0xEE : 0x6E;
	return c;
}

/* Common body: ev = unbiased exponent, man = mantissa of `mw` bits, thr = threshold,
 * tw = width of frac (14 for f32, 2 for f16). */
static uint8_t hif8_body(int neg, int ev, uint32_t man, int mw, uint32_t thr, int tw,
			 ptort_rmode rm)
{
	int hyb = rm == PTORT_HYBRID, a = ev < 0 ? -ev : ev;
	uint32_t M, ta, frac;
	if (ev > 15)
		return neg ? 0xEF : 0x6F;
	if (ev < -23)
		return 0;
	if (ev == -23) {
		uint32_t lead = 1u << (tw - 1) | man >> (mw - (tw - 1)); /* {1, man[top tw-1 bits]} */
		if (!hyb || lead >= thr)
			return (uint8_t)(neg << 7 | 1);
		return 0;
	}
	int mb, top; /* mantissa bits kept, index of TA */
	if (ev <= -16)
		mb = 0;
	else
		mb = a >= 8 ? 1 : a >= 4 ? 2 : 3;
	top = mw - 1 - mb; /* TA bit index */
	M = mb ? man >> (mw - mb) : 0;
	ta = man >> top & 1;
	frac = man >> (top + 1 - tw) & ((1u << tw) - 1); /* tw bits starting at TA */
	int up;
	if (ev >= -15 && a <= 3)
		up = ta;
	else
		up = hyb ? frac >= thr : ta;
	if (ev <= -16) /* denormal target: round up to 2^(Ev+1) */
		return hif8_pack(neg, up ? ev + 1 : ev, 0);
	if (up) {
		M++;
		if (M >> mb) {
			M = 0;
			ev++;
		}
	}
	return hif8_pack(neg, ev, M);
}

uint8_t ref_hif8_pseudo_f32(uint32_t x, ptort_rmode rm, int sat)
{
	int neg = x >> 31, ev = (int)(x >> 23 & 0xFF) - 127;
	uint32_t man = x & 0x7FFFFF, thr = man & 0x3FFF;
	if (ev == 128)
		return hif8_sat(man ? 0x80 : (neg ? 0xEF : 0x6F), sat);
	return hif8_sat(hif8_body(neg, ev, man, 23, thr, 14, rm), sat);
}

uint8_t ref_hif8_pseudo_f16(uint16_t x, ptort_rmode rm, int sat)
{
	int neg = x >> 15, ev = (int)(x >> 10 & 0x1F) - 15;
	uint32_t man = x & 0x3FF;
	if (ev == 16)
		return hif8_sat(man ? 0x80 : (neg ? 0xEF : 0x6F), sat);
	if (ev == -15) { /* zero or subnormal: normalise first [decision] */
		if (!man)
			return 0;
		int p = bitlen(man) - 1;
		ev = p - 24;
		man = (man << (10 - p)) & 0x3FF;
	}
	uint32_t thr = (man & 1) << 1 | 1;
	return hif8_sat(hif8_body(neg, ev, man, 10, thr, 2, rm), sat);
}

/* ---- the generic float destination --------------------------------------- */

/* Rounds a finite nonzero value onto the lattice of `to`; applies overflow rules. */
static uint64_t to_float(ptort_type to, ref_val v, ptort_rmode rm, int sat)
{
	int e = v.exp + bitlen(v.sig) - 1, q = quantum(to, e), inexact;
	uint64_t n = round_q(v.sig, v.exp, q, v.neg, rm, &inexact), ms;
	int me;
	if (n == 0)
		return enc_zero(to, v.neg);
	maxfin(to, &ms, &me);
	if (cmpval(n, q, ms, me) > 0) {
		if (sat || T[to].special == SP_NONE)
			return enc_max(to, v.neg);
		switch (rm) {
		case PTORT_TRUNC:
		case PTORT_ODD:
			return enc_max(to, v.neg);
		case PTORT_FLOOR:
			return v.neg ? enc_inf(to, 1) : enc_max(to, 0);
		case PTORT_CEIL:
			return v.neg ? enc_max(to, 1) : enc_inf(to, 0);
		default:
			return enc_inf(to, v.neg);
		}
	}
	return encode(to, v.neg, n, q);
}

uint8_t ref_hif8_lattice(ref_val v, ptort_rmode rm, int sat)
{
	switch (v.kind) {
	case RV_NAN:
		return sat ? 0 : 0x80;
	case RV_INF:
		return (uint8_t)(sat ? enc_max(PTORT_HIF8, v.neg) : enc_inf(PTORT_HIF8, v.neg));
	case RV_ZERO:
		return 0;
	}
	return (uint8_t)to_float(PTORT_HIF8, v, rm, sat);
}

/* f32 bits of a value, truncating (exact for every value the callers pass except
 * integers >= 2^24, whose exponent alone decides their HiF8 result). */
static uint32_t f32_bits_trunc(ref_val v)
{
	switch (v.kind) {
	case RV_NAN:
		return 0x7FC00000u;
	case RV_INF:
		return (uint32_t)v.neg << 31 | 0x7F800000u;
	case RV_ZERO:
		return (uint32_t)v.neg << 31;
	}
	return (uint32_t)to_float(PTORT_F32, v, PTORT_TRUNC, 0);
}

/* Integer destination: NaN -> 0, inf -> max/min, round, clamp or wrap. */
static uint64_t to_int(ptort_type from, ptort_type to, ref_val v, ptort_rmode rm, int sat)
{
	const struct tinfo *f = &T[to];
	unsigned w = f->bits - (f->bias ? 1 : 0); /* magnitude bits of max */
	uint64_t maxv = mask(w), minmag = f->bias ? 1ull << w : 0, n, lo;
	uint64_t minbits = f->bias ? (1ull << w) : 0; /* min as an n-bit pattern */
	int big, inexact;
	if (v.kind == RV_NAN)
		return 0;
	if (v.kind == RV_INF)
		return v.neg ? minbits : maxv;
	if (v.kind == RV_ZERO)
		return 0;
	/* a signed source to a wider unsigned destination: saturation only */
	if (T[from].special == SP_INT && T[from].bias && !f->bias && f->bits > T[from].bits)
		sat = 1;
	if (v.exp >= 0) {
		big = v.exp + bitlen(v.sig) > 64;
		lo = v.exp >= 64 ? 0 : v.sig << v.exp;
		n = lo;
	} else {
		n = round_q(v.sig, v.exp, 0, v.neg, rm, &inexact);
		big = 0;
		lo = n;
	}
	if (n == 0 && !big)
		return 0;
	int inrange = !big && (v.neg ? (f->bias && n <= minmag) : n <= maxv);
	if (!inrange && sat)
		return v.neg ? minbits : maxv;
	return (v.neg ? (0 - lo) : lo) & mask(f->bits);
}

uint64_t ref_cvt(ptort_type from, ptort_type to, uint64_t bits, ptort_rmode rm, int sat)
{
	if (ref_check(from, to, rm) != PTORT_CVT_OK)
		return 0;
	bits &= mask(T[from].bits);
	ref_val v = ref_decode(from, bits);
	if (rm == PTORT_NONE)
		rm = PTORT_RINT; /* NONE = RINT when lossy; exact pairs ignore the mode */
	if (T[to].special == SP_INT)
		return to_int(from, to, v, rm, sat);
	if (to == PTORT_F8E8M0FNU) { /* §3.1: the bf16 exponent field */
		if (v.kind == RV_NAN)
			return 0xFF;
		if (v.kind == RV_INF)
			return 0xFE;
		return bits >> 7 & 0xFF;
	}
	if (from == PTORT_F32 && to == PTORT_F32) { /* §3 step 6: round to integral */
		if (v.kind == RV_NAN)
			return T[PTORT_F32].qnan;
		if (v.kind != RV_FIN)
			return bits;
		int e = v.exp + bitlen(v.sig) - 1, q = e - 23 > 0 ? e - 23 : 0, inexact;
		uint64_t n = round_q(v.sig, v.exp, q, v.neg, rm, &inexact);
		return n ? encode(PTORT_F32, v.neg, n, q) : enc_zero(PTORT_F32, v.neg);
	}
	if (to == PTORT_F32 || ref_is_exact(from, to))
		sat = 0; /* §3.2: saturation cannot matter here */
	if (ref_is_exact(from, to)) {
		switch (v.kind) {
		case RV_NAN:
			return T[to].qnan;
		case RV_INF:
			return enc_inf(to, v.neg);
		case RV_ZERO:
			return enc_zero(to, v.neg);
		}
		int e = v.exp + bitlen(v.sig) - 1, q = quantum(to, e), inexact;
		return encode(to, v.neg, round_q(v.sig, v.exp, q, v.neg, PTORT_TRUNC, &inexact), q);
	}
	if (to == PTORT_HIF8 && (rm == PTORT_ROUND || rm == PTORT_HYBRID)) {
		if (from == PTORT_F16)
			return ref_hif8_pseudo_f16((uint16_t)bits, rm, sat);
		return ref_hif8_pseudo_f32(f32_bits_trunc(v), rm, sat);
	}
	switch (v.kind) {
	case RV_NAN:
		if (T[to].special == SP_NONE || sat)
			return 0;
		return T[to].qnan;
	case RV_INF:
		if (sat || T[to].special == SP_NONE)
			return enc_max(to, v.neg);
		return enc_inf(to, v.neg);
	case RV_ZERO:
		return enc_zero(to, v.neg);
	}
	return to_float(to, v, rm, sat);
}

uint16_t ref_deq(int32_t src, uint16_t scale_f16)
{
	ref_val a = ref_decode(PTORT_I32, (uint32_t)src), b = ref_decode(PTORT_F16, scale_f16), p;
	p.neg = a.neg ^ b.neg;
	p.sig = 0, p.exp = 0;
	if (b.kind == RV_NAN || (b.kind == RV_INF && a.kind == RV_ZERO))
		p.kind = RV_NAN;
	else if (b.kind == RV_INF)
		p.kind = RV_INF;
	else if (a.kind == RV_ZERO || b.kind == RV_ZERO)
		p.kind = RV_ZERO;
	else
		p = fin(p.neg, a.sig * b.sig, a.exp + b.exp); /* < 2^42: exact */
	switch (p.kind) {
	case RV_NAN:
		return 0;
	case RV_INF:
		return (uint16_t)enc_max(PTORT_F16, p.neg);
	case RV_ZERO:
		return (uint16_t)enc_zero(PTORT_F16, p.neg);
	}
	return (uint16_t)to_float(PTORT_F16, p, PTORT_RINT, 1);
}
