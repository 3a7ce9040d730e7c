/* mmref.c: the slow exact mmad reference (see mmref.h). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "runtime/src/cvt_internal.h" /* from the project root: the bench includes this file too */
#include "mmref.h"

/* REQUIRE() vanishes under NDEBUG (the default build): this one does not. */
#define REQUIRE(c)                                                                   \
	do {                                                                         \
		if (!(c)) {                                                          \
			fprintf(stderr, "%s:%d: reference invariant failed: %s\n", __FILE__, \
				__LINE__, #c);                                       \
			abort();                                                     \
		}                                                                    \
	} while (0)

#define LIMBS 12   /* 768 bits */
#define LSB_EXP (-400) /* weight of bit 0 */

enum { C_ZERO, C_FIN, C_INF, C_NAN };

typedef struct {
	uint64_t w[LIMBS];
} big;

static void big_set(big *b, uint64_t sig, int ex)
{
	int pos = ex - LSB_EXP, limb, sh;
	memset(b, 0, sizeof *b);
	REQUIRE(pos >= 0 && pos + 64 <= LIMBS * 64);
	limb = pos / 64, sh = pos % 64;
	b->w[limb] |= sig << sh;
	if (sh)
		b->w[limb + 1] |= sig >> (64 - sh);
}

static int big_cmp(const big *x, const big *y)
{
	int i;
	for (i = LIMBS - 1; i >= 0; i--)
		if (x->w[i] != y->w[i])
			return x->w[i] < y->w[i] ? -1 : 1;
	return 0;
}

static void big_add(big *x, const big *y) /* x += y */
{
	uint64_t c = 0;
	int i;
	for (i = 0; i < LIMBS; i++) {
		uint64_t s = x->w[i] + y->w[i], c1 = s < x->w[i];
		uint64_t s2 = s + c;
		c = c1 | (s2 < s);
		x->w[i] = s2;
	}
	REQUIRE(!c);
}

static void big_sub(big *x, const big *y) /* x -= y, x >= y */
{
	uint64_t br = 0;
	int i;
	for (i = 0; i < LIMBS; i++) {
		uint64_t d = x->w[i] - y->w[i], b1 = x->w[i] < y->w[i];
		uint64_t d2 = d - br;
		br = b1 | (d < br);
		x->w[i] = d2;
	}
	REQUIRE(!br);
}

static int big_bit(const big *x, int i)
{
	return (int)(x->w[i / 64] >> (i % 64)) & 1;
}

static int big_top(const big *x) /* index of the highest set bit, -1 if zero */
{
	int l, b;
	for (l = LIMBS - 1; l >= 0; l--)
		if (x->w[l])
			for (b = 63; b >= 0; b--)
				if ((x->w[l] >> b) & 1)
					return l * 64 + b;
	return -1;
}

static int big_any_below(const big *x, int pos) /* any set bit of index < pos */
{
	int l;
	if (pos <= 0)
		return 0;
	for (l = 0; l < pos / 64; l++)
		if (x->w[l])
			return 1;
	return pos % 64 && (x->w[pos / 64] & ((1ull << (pos % 64)) - 1)) != 0;
}

/* (-1)^sign * x rounded to f32, RNE, gradual underflow, overflow to inf. */
static uint32_t big_round_f32(const big *x, int sign)
{
	uint32_t s = sign ? 0x80000000u : 0;
	int t = big_top(x), e, q, i, rbit, sticky = 0, tb;
	uint64_t K = 0;
	if (t < 0)
		return s;
	e = t + LSB_EXP; /* value in [2^e, 2^(e+1)) */
	if (e >= 128)
		return s | 0x7F800000u;
	q = (e - 23 > -149 ? e - 23 : -149) - LSB_EXP; /* bit index of the ulp */
	for (i = t; i >= q; i--)
		K = K << 1 | (uint64_t)big_bit(x, i);
	rbit = q >= 1 ? big_bit(x, q - 1) : 0;
	sticky = big_any_below(x, q - 1);
	if (rbit && (sticky || (K & 1)))
		K++;
	if (!K)
		return s; /* rounded to zero: keeps the sign of the exact sum */
	q += LSB_EXP; /* now the exponent of K's unit */
	for (tb = 63; !((K >> tb) & 1); tb--)
		;
	while (tb > 23) { /* the carry: K = 2^24 exactly */
		REQUIRE(!(K & 1));
		K >>= 1, q++, tb--;
	}
	if (tb + q > 127)
		return s | 0x7F800000u;
	if (tb + q < -126) { /* subnormal */
		REQUIRE(q == -149);
		return s | (uint32_t)K;
	}
	return s | (uint32_t)(tb + q + 127) << 23 | (uint32_t)((K << (23 - tb)) & 0x7FFFFF);
}

uint32_t ref_add_round(uint32_t acc, int cls, int sx, uint64_t sig, int ex)
{
	struct ptort_val va;
	big x, y;
	int sa;
	ptort_decode(PTORT_F32, acc, &va);
	sa = va.sign;
	if (va.cls == VAL_NAN || cls == C_NAN)
		return 0x7FC00000u;
	if (va.cls == VAL_INF && cls == C_INF)
		return sa == sx ? acc : 0x7FC00000u;
	if (va.cls == VAL_INF)
		return acc;
	if (cls == C_INF)
		return (sx ? 0x80000000u : 0) | 0x7F800000u;
	if (va.cls == VAL_ZERO && cls == C_ZERO)
		return (sa && sx) ? 0x80000000u : 0; /* RNE: -0 only for -0 + -0 */
	if (va.cls == VAL_ZERO)
		memset(&x, 0, sizeof x);
	else
		big_set(&x, va.sig, va.exp);
	if (cls == C_ZERO)
		memset(&y, 0, sizeof y);
	else
		big_set(&y, sig, ex);
	if (va.cls == VAL_ZERO)
		sa = sx;
	if (cls == C_ZERO)
		sx = sa;
	if (sa == sx) {
		big_add(&x, &y);
		return big_round_f32(&x, sa);
	}
	switch (big_cmp(&x, &y)) {
	case 0:
		return 0; /* exact cancellation: +0 in RNE */
	case 1:
		big_sub(&x, &y);
		return big_round_f32(&x, sa);
	default:
		big_sub(&y, &x);
		return big_round_f32(&y, sx);
	}
}

static uint64_t get_elem(uint8_t *const mem[], const ptort_tile *t, uint32_t r, uint32_t c)
{
	unsigned bits = ptort_type_bits((ptort_type)t->type);
	uint64_t e = ptort_tile_offset(t, r, c), v = 0, i;
	const uint8_t *p = mem[t->mem] + t->addr;
	if (bits == 4)
		return (p[e / 2] >> (4 * (e % 2))) & 0xF;
	for (i = 0; i < bits / 8; i++)
		v |= (uint64_t)p[e * (bits / 8) + i] << (8 * i);
	return v;
}

static void put_elem32(uint8_t *const mem[], const ptort_tile *t, uint32_t r, uint32_t c,
		       uint32_t v)
{
	uint64_t e = ptort_tile_offset(t, r, c), i;
	uint8_t *p = mem[t->mem] + t->addr;
	for (i = 0; i < 4; i++)
		p[e * 4 + i] = (uint8_t)(v >> (8 * i));
}

static uint32_t ref_int(uint8_t *const mem[], const ptort_tile *a, const ptort_tile *b,
			uint32_t i, uint32_t j, uint32_t k, uint32_t init)
{
	int64_t s = (int32_t)init;
	uint32_t q;
	for (q = 0; q < k; q++)
		s += (int64_t)(int8_t)get_elem(mem, a, i, q) * (int8_t)get_elem(mem, b, q, j);
	return (uint32_t)((uint64_t)s & 0xFFFFFFFFu);
}

static uint32_t ref_float(uint8_t *const mem[], const ptort_tile *a, const ptort_tile *sa,
			  const ptort_tile *b, const ptort_tile *sb, uint32_t i, uint32_t j,
			  uint32_t k, uint32_t acc)
{
	uint32_t q;
	for (q = 0; q < k; q++) {
		struct ptort_val x, y;
		int cls, sgn = 0, ex = 0, nanscale = 0;
		uint64_t sig = 0;
		ptort_decode((ptort_type)a->type, get_elem(mem, a, i, q), &x);
		ptort_decode((ptort_type)b->type, get_elem(mem, b, q, j), &y);
		if (sa) {
			uint64_t ea = get_elem(mem, sa, i, q / 32), eb = get_elem(mem, sb, q / 32, j);
			nanscale = ea == 0xFF || eb == 0xFF;
			ex = (int)ea - 127 + (int)eb - 127;
		}
		if (nanscale || x.cls == VAL_NAN || y.cls == VAL_NAN ||
		    (x.cls == VAL_INF && y.cls == VAL_ZERO) || (x.cls == VAL_ZERO && y.cls == VAL_INF)) {
			cls = C_NAN;
		} else {
			sgn = x.sign ^ y.sign;
			if (x.cls == VAL_INF || y.cls == VAL_INF) {
				cls = C_INF;
			} else if (x.cls == VAL_ZERO || y.cls == VAL_ZERO) {
				cls = C_ZERO;
			} else {
				cls = C_FIN;
				REQUIRE(x.sig < (1ull << 32) && y.sig < (1ull << 32));
				sig = x.sig * y.sig;
				ex += x.exp + y.exp;
			}
		}
		acc = ref_add_round(acc, cls, sgn, sig, ex);
	}
	return acc;
}

void ref_mmad(uint8_t *const mem[PTORT_MEM_COUNT], const ptort_tile *c, const ptort_tile *a,
	      const ptort_tile *a_scale, const ptort_tile *b, const ptort_tile *b_scale,
	      uint32_t m, uint32_t k, uint32_t n, int init, const ptort_tile *it)
{
	uint32_t i, j;
	int is_int = c->type == PTORT_I32;
	/* read every init value first (it may alias c) */
	uint32_t *vals = calloc((size_t)m * n, sizeof *vals);
	REQUIRE(vals);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			uint32_t v0 = 0;
			if (init == PTORT_MMAD_INIT_BIAS)
				v0 = (uint32_t)get_elem(mem, it, 0, j);
			else if (init == PTORT_MMAD_INIT_C)
				v0 = (uint32_t)get_elem(mem, it, i, j);
			vals[(size_t)i * n + j] = v0;
		}
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			uint32_t v0 = vals[(size_t)i * n + j];
			vals[(size_t)i * n + j] = is_int ? ref_int(mem, a, b, i, j, k, v0)
							 : ref_float(mem, a, a_scale, b, b_scale, i, j, k, v0);
		}
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			put_elem32(mem, c, i, j, vals[(size_t)i * n + j]);
	free(vals);
}
