/* cvt_dec.c: human-readable values <-> bit patterns (ptort_value_parse and
 * ptort_value_format). Decimal strings are converted exactly (big-integer arithmetic,
 * one RINT rounding to the type); printing gives the exact decimal value (positional
 * for exponents -6..20, scientific beyond). Used by `ptoc cvt --in-format/--out-format dec`. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cvt_internal.h"
#include "ptort.h"

/* ---- a small fixed-size big natural number ---------------------------- */

#define BN_LIMBS 200 /* 6400 bits: 10^800 times 2^64 fits */
#define MAX_DIGITS 400
#define MAX_EXP10 400

struct bn {
	uint32_t l[BN_LIMBS];
	int n; /* used limbs */
};

static void bn_set(struct bn *a, uint32_t v)
{
	a->l[0] = v;
	a->n = v ? 1 : 0;
}

static void bn_muladd(struct bn *a, uint32_t m, uint32_t add)
{
	uint64_t c = add;
	int i;
	for (i = 0; i < a->n; i++) {
		c += (uint64_t)a->l[i] * m;
		a->l[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c && a->n < BN_LIMBS)
		a->l[a->n++] = (uint32_t)c;
}

static int bn_bits(const struct bn *a)
{
	int b = 0;
	uint32_t top;
	if (!a->n)
		return 0;
	top = a->l[a->n - 1];
	while (top) {
		b++;
		top >>= 1;
	}
	return (a->n - 1) * 32 + b;
}

static void bn_shl(struct bn *a, int s)
{
	int w = s / 32, b = s % 32, i;
	if (!a->n || s <= 0)
		return;
	if (a->n + w + 1 > BN_LIMBS)
		return; /* cannot happen within MAX_DIGITS / MAX_EXP10 */
	a->l[a->n + w] = 0;
	for (i = a->n - 1; i >= 0; i--) {
		uint64_t x = (uint64_t)a->l[i] << b;
		a->l[i + w + 1] |= (uint32_t)(x >> 32);
		a->l[i + w] = (uint32_t)x;
	}
	for (i = 0; i < w; i++)
		a->l[i] = 0;
	a->n += w + 1;
	while (a->n && !a->l[a->n - 1])
		a->n--;
}

static int bn_cmp(const struct bn *a, const struct bn *b)
{
	int i;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

static void bn_sub(struct bn *a, const struct bn *b) /* a >= b */
{
	int64_t c = 0;
	int i;
	for (i = 0; i < a->n; i++) {
		c += (int64_t)a->l[i] - (i < b->n ? (int64_t)b->l[i] : 0);
		a->l[i] = (uint32_t)c;
		c = c < 0 ? -1 : 0;
	}
	while (a->n && !a->l[a->n - 1])
		a->n--;
}

/* ---- parsing ------------------------------------------------------------ */

static int ieq(const char *s, size_t len, const char *lit)
{
	size_t i;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!lit[i] || c != lit[i])
			return 0;
	}
	return lit[len] == 0;
}

/* Exact value num / den, rounded: sig has 63 significant bits plus a sticky bit. */
static void quotient(struct bn *num, struct bn *den, struct ptort_val *v)
{
	int k = bn_bits(num) - bn_bits(den), s = 62 - k, i;
	struct bn t;
	uint64_t q = 0;
	if (s > 0)
		bn_shl(num, s);
	else
		bn_shl(den, -s);
	/* now 2^61 <= num / den < 2^63 */
	for (i = 62; i >= 0; i--) {
		t = *den;
		bn_shl(&t, i);
		if (bn_cmp(num, &t) >= 0) {
			bn_sub(num, &t);
			q |= (uint64_t)1 << i;
		}
	}
	v->cls = VAL_FINITE;
	v->sig = (q << 1) | (num->n != 0);
	v->exp = -s - 1;
}

static int parse_int(ptort_type t, const char *s, size_t len, uint64_t *bits)
{
	unsigned nb = ptort_type_bits(t);
	int neg = 0, sgn = ptort_type_is_signed_int(t);
	uint64_t v = 0, lim;
	size_t i = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (UINT64_MAX - 9) / 10)
			return -2;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	lim = sgn ? ((uint64_t)1 << (nb - 1)) - 1 + (uint64_t)neg
		  : (nb == 64 ? UINT64_MAX : ((uint64_t)1 << nb) - 1);
	if ((neg && !sgn && v) || v > lim)
		return -2;
	v = neg ? (uint64_t)0 - v : v;
	*bits = nb == 64 ? v : v & (((uint64_t)1 << nb) - 1);
	return 0;
}

int ptort_value_parse(ptort_type t, const char *s, size_t len, uint64_t *bits)
{
	const struct ptort_fmt *f = ptort_fmt_get(t);
	struct ptort_val v;
	struct bn num, den;
	int neg = 0, ndig = 0, sticky = 0, exp10 = 0, eneg = 0, seen = 0;
	long ex = 0;
	size_t i = 0;
	if (!f)
		return -1;
	if (f->kind == FMT_INT)
		return parse_int(t, s, len, bits);
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	v.sign = neg;
	v.sig = 0;
	v.exp = 0;
	if (ieq(s + i, len - i, "nan")) {
		if (f->nan == NAN_NONE)
			return -2;
		*bits = f->qnan;
		return 0;
	}
	if (ieq(s + i, len - i, "inf") || ieq(s + i, len - i, "infinity")) {
		if (!f->has_inf)
			return -2;
		v.cls = VAL_INF;
		return ptort_round_val(t, &v, bits) ? -2 : 0;
	}
	bn_set(&num, 0);
	bn_set(&den, 1);
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, seen = 1) {
		if (ndig == 0 && s[i] == '0')
			continue;
		if (ndig < MAX_DIGITS) {
			bn_muladd(&num, 10, (uint32_t)(s[i] - '0'));
			ndig++;
		} else {
			exp10++;
			sticky |= s[i] != '0';
		}
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, seen = 1) {
			if (ndig == 0 && s[i] == '0') {
				exp10--;
				continue;
			}
			if (ndig < MAX_DIGITS) {
				bn_muladd(&num, 10, (uint32_t)(s[i] - '0'));
				ndig++;
				exp10--;
			} else {
				sticky |= s[i] != '0';
			}
		}
	}
	if (!seen)
		return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		int any = 0;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = 1)
			if (ex < 100000)
				ex = ex * 10 + (s[i] - '0');
		if (!any)
			return -1;
	}
	if (i != len)
		return -1;
	if (f->kind == FMT_E8M0 && neg && ndig)
		return -2;
	if (ndig == 0) { /* zero */
		v.cls = VAL_ZERO;
		if (f->kind == FMT_E8M0)
			return -2;
		return ptort_round_val(t, &v, bits);
	}
	ex = (eneg ? -ex : ex) + exp10;
	if (ex + ndig > MAX_EXP10)
		return -2; /* far beyond every format's range */
	if (ex + ndig < -MAX_EXP10) {
		ex = -MAX_EXP10 - ndig; /* far below every format's smallest value: */
		sticky = 1;		/* keep it tiny and inexact */
	}
	if (sticky) { /* a nonzero digit beyond MAX_DIGITS: append a 1 */
		bn_muladd(&num, 10, 1);
		ex--;
	}
	for (; ex > 0; ex--)
		bn_muladd(&num, 10, 0);
	for (; ex < 0; ex++)
		bn_muladd(&den, 10, 0);
	quotient(&num, &den, &v);
	if (f->kind == FMT_E8M0) { /* exact powers of two only */
		uint64_t m = v.sig;
		int e = v.exp;
		while (!(m & 1)) {
			m >>= 1;
			e++;
		}
		if (m != 1 || e < -127 || e > 127)
			return -2;
		*bits = (uint64_t)(e + 127);
		return 0;
	}
	return ptort_round_val(t, &v, bits) ? -2 : 0;
}

/* ---- printing ----------------------------------------------------------- */

static size_t put(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (cap)
		snprintf(buf, cap, "%s", s);
	return n;
}

/* Exact decimal digits of a nonzero finite value sig * 2^exp: writes the digits
 * (no leading or trailing zeros) to d and returns k such that value = D * 10^-k. */
static int exact_digits(uint64_t sig, int exp, char *d, size_t cap)
{
	struct bn a;
	char rev[1200];
	size_t n = 0, i;
	int k = 0;
	a.l[0] = (uint32_t)sig;
	a.l[1] = (uint32_t)(sig >> 32);
	a.n = a.l[1] ? 2 : 1;
	if (exp >= 0) {
		bn_shl(&a, exp);
	} else {
		for (k = 0; k < -exp; k++)
			bn_muladd(&a, 5, 0);
	}
	while (a.n && n < sizeof rev) { /* divide by 10 until zero */
		uint64_t r = 0;
		int j;
		for (j = a.n - 1; j >= 0; j--) {
			uint64_t cur = (r << 32) | a.l[j];
			a.l[j] = (uint32_t)(cur / 10);
			r = cur % 10;
		}
		while (a.n && !a.l[a.n - 1])
			a.n--;
		rev[n++] = (char)('0' + r);
	}
	i = 0;
	while (i < n && rev[i] == '0') { /* trailing zeros of the number */
		i++;
		k--;
	}
	{
		size_t m = 0;
		while (n > i && m + 1 < cap)
			d[m++] = rev[--n];
		d[m] = 0;
	}
	return k;
}

size_t ptort_value_format(ptort_type t, uint64_t bits, char *buf, size_t cap)
{
	const struct ptort_fmt *f = ptort_fmt_get(t);
	struct ptort_val v;
	char tmp[64];
	if (!f)
		return put(buf, cap, "?");
	ptort_decode(t, bits, &v);
	if (f->kind == FMT_INT) {
		if (v.sign)
			snprintf(tmp, sizeof tmp, "-%llu", (unsigned long long)v.sig);
		else
			snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v.sig);
		return put(buf, cap, tmp);
	}
	switch (v.cls) {
	case VAL_NAN:
		return put(buf, cap, "nan");
	case VAL_INF:
		return put(buf, cap, v.sign ? "-inf" : "inf");
	case VAL_ZERO:
		return put(buf, cap, v.sign ? "-0.0" : "0.0");
	default:
		break;
	}
	{
		char d[1100], out[1200];
		int k = exact_digits(v.sig, v.exp, d, sizeof d), len = (int)strlen(d);
		int x = len - 1 - k; /* scientific exponent */
		size_t o = 0;
		int j;
		if (v.sign)
			out[o++] = '-';
		if (x > -7 && x < 21) {
			if (k <= 0) {
				memcpy(out + o, d, (size_t)len), o += (size_t)len;
				for (j = 0; j < -k; j++)
					out[o++] = '0';
				memcpy(out + o, ".0", 2), o += 2;
			} else if (len > k) {
				memcpy(out + o, d, (size_t)(len - k)), o += (size_t)(len - k);
				out[o++] = '.';
				memcpy(out + o, d + len - k, (size_t)k), o += (size_t)k;
			} else {
				out[o++] = '0', out[o++] = '.';
				for (j = 0; j < k - len; j++)
					out[o++] = '0';
				memcpy(out + o, d, (size_t)len), o += (size_t)len;
			}
			out[o] = 0;
		} else {
			out[o++] = d[0];
			if (len > 1) {
				out[o++] = '.';
				memcpy(out + o, d + 1, (size_t)len - 1), o += (size_t)len - 1;
			}
			snprintf(out + o, sizeof out - o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
		}
		return put(buf, cap, out);
	}
}
