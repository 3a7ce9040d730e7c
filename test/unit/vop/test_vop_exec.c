/* test_vop_exec.c: the vector operation instructions (ptort.h 5.2, 5.3) against an
 * independent per-lane model of docs/semantics.md §7.4: lane addresses re-derived from
 * the formula, each repeat (A2A3) or register (A5) reading all its source lanes before
 * writing, ptort_vop1 / ptort_cmp1 per lane (those are tested by test_vop_num). Random
 * instructions over a 64 KiB memory (masks, strides 0.., broadcasts, overlapping and
 * in-place operands), the whole memory compared after each; then every reported error,
 * each leaving the memory untouched. Argument: number of random instructions per form
 * (default 20000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptort.h"
#include "vop_internal.h"

#define MEMSZ 65536u

static uint64_t rng = 0x853C49E6748FEA9Bull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}
static unsigned rnd(unsigned n)
{
	return (unsigned)(next() % n);
}

static uint64_t get(const uint8_t *m, uint64_t at, unsigned eb)
{
	uint64_t v = 0;
	memcpy(&v, m + at, eb);
	return v;
}
static void put(uint8_t *m, uint64_t at, unsigned eb, uint64_t v)
{
	memcpy(m + at, &v, eb);
}
static int bget(const uint8_t *m, uint64_t base, uint64_t i)
{
	return (m[base + i / 8] >> (i % 8)) & 1;
}
static void bput(uint8_t *m, uint64_t base, uint64_t i, int v)
{
	if (v)
		m[base + i / 8] |= (uint8_t)(1u << (i % 8));
	else
		m[base + i / 8] &= (uint8_t)~(1u << (i % 8));
}

static const ptort_type rtypes[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I16,
				    PTORT_I32, PTORT_U16, PTORT_U32};
static const ptort_type vtypes[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I16, PTORT_I32,
				    PTORT_U16, PTORT_U32, PTORT_I8,  PTORT_U8,	 PTORT_I64};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static ptort_vop pick_op(ptort_type t, int arity)
{
	for (;;) {
		ptort_vop op = (ptort_vop)rnd(PTORT_VOP_COUNT);
		if (ptort_vop_arity(op) == arity && ptort_vop_check(op, t))
			return op;
	}
}

/* identity of a reduction, derived here from the type's description */
static uint64_t ident(ptort_vop op, ptort_type t)
{
	unsigned b = ptort_type_bits(t);
	uint64_t sb = (uint64_t)1 << (b - 1), m = b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
	uint64_t inf = t == PTORT_F32 ? 0x7F800000u : t == PTORT_F16 ? 0x7C00u : 0x7F80u;
	if (op == PTORT_VOP_ADD)
		return 0;
	if (ptort_type_is_float(t))
		return op == PTORT_VOP_MAX ? inf | sb : inf;
	if (ptort_type_is_signed_int(t))
		return op == PTORT_VOP_MAX ? sb : m ^ sb;
	return op == PTORT_VOP_MAX ? 0 : m;
}

static uint64_t treered(ptort_vop op, ptort_type t, uint64_t *v, unsigned n)
{
	while (n > 1) {
		unsigned i;
		for (i = 0; i < n / 2; i++)
			v[i] = ptort_vop1(op, t, v[2 * i], v[2 * i + 1]);
		n /= 2;
	}
	return v[0];
}

static uint8_t *mem, *want;
static ptort_ctx *ctx;

static void fill(void)
{
	uint32_t i;
	for (i = 0; i < MEMSZ; i += 8) {
		uint64_t r = next();
		/* a third of the words hold moderate floats of each width */
		if ((r & 3) == 0)
			r = (r & 0x80FFFFFF80FFFFFFull) | 0x3E0000003E000000ull;
		memcpy(mem + i, &r, 8);
	}
}

static void compare(const char *what, unsigned long k)
{
	size_t i;
	check_count(1);
	if (memcmp(mem, want, MEMSZ)) {
		for (i = 0; i < MEMSZ && mem[i] == want[i]; i++)
			;
		if (check_failed())
			printf("FAIL %s #%lu: byte 0x%zx is 0x%02x, model 0x%02x (%s)\n", what, k, i,
			       mem[i], want[i], ptort_ctx_error(ctx) ? ptort_ctx_error(ctx) : "");
	}
	if (ptort_ctx_error(ctx)) {
		CHECK_FAIL("%s #%lu: unexpected error %s", what, k, ptort_ctx_error(ctx));
		ptort_ctx_clear_error(ctx);
	}
}

/* ---- A2A3 ---- */

struct ro {
	uint32_t addr;
	uint16_t blk, rep;
};

static uint64_t laddr(struct ro o, unsigned lanes, unsigned eb, uint32_t r, unsigned l)
{
	return o.addr + (uint64_t)r * o.rep * 32 + (uint64_t)(l / (lanes / 8)) * o.blk * 32 +
	       (uint64_t)(l % (lanes / 8)) * eb;
}

static struct ro rand_ro(unsigned eb)
{
	struct ro o;
	o.addr = rnd(24576 / eb) * eb;
	o.blk = (uint16_t)(rnd(4) ? 1 : rnd(4));
	o.rep = (uint16_t)(rnd(3) ? 8 : rnd(17));
	return o;
}

static void rep_random(unsigned long n)
{
	unsigned long k;
	for (k = 0; k < n; k++) {
		ptort_type t = rtypes[rnd(NELEM(rtypes))];
		unsigned eb = ptort_type_bits(t) / 8, lanes = 256 / eb, l, i;
		uint32_t repeat = 1 + rnd(rnd(4) ? 8 : 40), r;
		uint64_t mh = next(), ml = next(), sc = next() & ((uint64_t)-1 >> (64 - 8 * eb));
		int kind = (int)rnd(9), sfirst = (int)rnd(2);
		struct ro d = rand_ro(eb), a = rand_ro(eb), b = rand_ro(eb);
		uint32_t bits = rnd(MEMSZ - 32768) + 24576;
		ptort_vop op = PTORT_VOP_ADD;
		ptort_cmp cmp = (ptort_cmp)rnd(PTORT_CMP_COUNT);
		uint32_t group = 2;
		int sel[128];
		uint64_t va[128], vb[128];
		switch (rnd(4)) { /* masks: full, prefix, random */
		case 0: mh = ml = UINT64_MAX; break;
		case 1: {
			unsigned p = 1 + rnd(lanes);
			ml = p >= 64 ? UINT64_MAX : ((uint64_t)1 << p) - 1;
			mh = p > 64 ? (p >= 128 ? UINT64_MAX : ((uint64_t)1 << (p - 64)) - 1) : 0;
			break;
		}
		default: break;
		}
		if (lanes == 64)
			mh = next(); /* ignored */
		if (!(ml & (lanes == 64 ? UINT64_MAX : UINT64_MAX)) && !(lanes > 64 && mh))
			ml = 1;
		if (rnd(4) == 0)
			a = d; /* in place */
		for (l = 0; l < lanes; l++)
			sel[l] = (int)(((l < 64 ? ml : mh) >> (l & 63)) & 1);
		fill();
		memcpy(want, mem, MEMSZ);
		for (r = 0; r < repeat; r++) {
			/* read the repeat's selected source lanes, then write */
			for (l = 0; l < lanes; l++)
				if (sel[l]) {
					va[l] = get(want, laddr(a, lanes, eb, r, l), eb);
					vb[l] = get(want, laddr(b, lanes, eb, r, l), eb);
				}
			switch (kind) {
			case 0: case 1: /* binary */
				if (r == 0)
					op = pick_op(t, 2);
				for (l = 0; l < lanes; l++)
					if (sel[l])
						put(want, laddr(d, lanes, eb, r, l), eb,
						    ptort_vop1(op, t, va[l], vb[l]));
				break;
			case 2: /* scalar */
				if (r == 0)
					op = pick_op(t, 2);
				for (l = 0; l < lanes; l++)
					if (sel[l])
						put(want, laddr(d, lanes, eb, r, l), eb,
						    sfirst ? ptort_vop1(op, t, sc, va[l])
							   : ptort_vop1(op, t, va[l], sc));
				break;
			case 3: /* unary */
				if (r == 0)
					op = pick_op(t, 1);
				for (l = 0; l < lanes; l++)
					if (sel[l])
						put(want, laddr(d, lanes, eb, r, l), eb, ptort_vop1(op, t, va[l], 0));
				break;
			case 4: /* dup */
				for (l = 0; l < lanes; l++)
					if (sel[l])
						put(want, laddr(d, lanes, eb, r, l), eb, sc);
				break;
			case 5: /* compare (tensor or scalar) */
				for (l = 0; l < lanes; l++)
					if (sel[l])
						bput(want, bits, (uint64_t)r * lanes + l,
						     ptort_cmp1(cmp, t, va[l], sfirst ? sc : vb[l]));
				break;
			case 6: { /* select (tensor or scalar) */
				int s[128];
				for (l = 0; l < lanes; l++)
					s[l] = sel[l] ? bget(want, bits, (uint64_t)r * lanes + l) : 0;
				for (l = 0; l < lanes; l++)
					if (sel[l])
						put(want, laddr(d, lanes, eb, r, l), eb,
						    s[l] ? va[l] : sfirst ? sc : vb[l]);
				break;
			}
			default: { /* reductions */
				uint64_t res[64], v[128];
				int any[64];
				unsigned ng, g;
				if (r == 0) {
					static const ptort_vop rops[] = {PTORT_VOP_ADD, PTORT_VOP_MAX,
									 PTORT_VOP_MIN};
					op = rops[rnd(3)];
					group = 2u << rnd(6);
					if (group > lanes)
						group = lanes;
					if (kind == 8)
						group = lanes / (rnd(2) ? 1 : 8);
					d.rep = (uint16_t)rnd(5);
				}
				ng = lanes / group;
				for (g = 0; g < ng; g++) {
					any[g] = 0;
					for (i = 0; i < group; i++) {
						l = g * group + i;
						v[i] = sel[l] ? va[l] : ident(op, t);
						any[g] |= sel[l];
					}
					res[g] = treered(op, t, v, group);
				}
				for (g = 0; g < ng; g++)
					if (any[g])
						put(want, d.addr + ((uint64_t)r * d.rep * ng + g) * eb, eb, res[g]);
				break;
			}
			}
		}
		switch (kind) {
		case 0: case 1:
			ptort_vbin(ctx, PTORT_MEM_UB, op, t, d.addr, a.addr, b.addr, repeat, d.blk, a.blk,
				   b.blk, d.rep, a.rep, b.rep, mh, ml);
			break;
		case 2:
			ptort_vbins(ctx, PTORT_MEM_UB, op, t, d.addr, a.addr, sc,
				    sfirst ? PTORT_V_SCALAR_FIRST : 0, repeat, d.blk, a.blk, d.rep, a.rep,
				    mh, ml);
			break;
		case 3:
			ptort_vun(ctx, PTORT_MEM_UB, op, t, d.addr, a.addr, repeat, d.blk, a.blk, d.rep,
				  a.rep, mh, ml);
			break;
		case 4:
			ptort_vdup(ctx, PTORT_MEM_UB, t, d.addr, sc, repeat, d.blk, d.rep, mh, ml);
			break;
		case 5:
			if (sfirst)
				ptort_vcmps(ctx, PTORT_MEM_UB, cmp, t, bits, a.addr, sc, repeat, a.blk, a.rep,
					    mh, ml);
			else
				ptort_vcmp(ctx, PTORT_MEM_UB, cmp, t, bits, a.addr, b.addr, repeat, a.blk,
					   b.blk, a.rep, b.rep, mh, ml);
			break;
		case 6:
			if (sfirst)
				ptort_vsels(ctx, PTORT_MEM_UB, t, d.addr, bits, a.addr, sc, repeat, d.blk,
					    a.blk, d.rep, a.rep, mh, ml);
			else
				ptort_vsel(ctx, PTORT_MEM_UB, t, d.addr, bits, a.addr, b.addr, repeat, d.blk,
					   a.blk, b.blk, d.rep, a.rep, b.rep, mh, ml);
			break;
		default:
			ptort_vred(ctx, PTORT_MEM_UB, op, t, group, d.addr, a.addr, repeat, d.rep, a.blk,
				   a.rep, mh, ml);
			break;
		}
		compare("repeat form", k);
	}
}

/* vbrcb, separately: no mask */
static void brcb_random(unsigned long n)
{
	unsigned long k;
	for (k = 0; k < n; k++) {
		ptort_type t = rnd(2) ? PTORT_F32 : PTORT_F16;
		unsigned eb = ptort_type_bits(t) / 8, b, i;
		uint32_t repeat = 1 + rnd(12), r, dst = rnd(20000 / 32) * 32, src = rnd(20000 / eb) * eb;
		uint16_t blk = (uint16_t)rnd(3), rep = (uint16_t)(rnd(2) ? 8 : rnd(12));
		fill();
		memcpy(want, mem, MEMSZ);
		for (r = 0; r < repeat; r++) {
			uint64_t e[8];
			for (b = 0; b < 8; b++)
				e[b] = get(want, src + ((uint64_t)r * 8 + b) * eb, eb);
			for (b = 0; b < 8; b++)
				for (i = 0; i < 32 / eb; i++)
					put(want, dst + (uint64_t)r * rep * 32 + (uint64_t)b * blk * 32 + i * eb,
					    eb, e[b]);
		}
		ptort_vbrcb(ctx, PTORT_MEM_UB, t, dst, src, repeat, blk, rep);
		compare("vbrcb", k);
	}
}

/* ---- A5 ---- */

static void reg_random(unsigned long n)
{
	unsigned long k;
	for (k = 0; k < n; k++) {
		ptort_type t = vtypes[rnd(NELEM(vtypes))];
		unsigned eb = ptort_type_bits(t) / 8, lanes = 256 / eb;
		uint32_t rows = 1 + rnd(6), cols = 1 + rnd(rnd(3) ? 300 : 1200 / eb), r, c;
		uint32_t d = rnd(16384 / eb) * eb, a = rnd(16384 / eb) * eb, b = rnd(16384 / eb) * eb;
		uint32_t pd = cols * eb + rnd(3) * 32, pa = pd, pb = rnd(2) ? pd : rnd(4) * eb;
		uint32_t bits = 40000 + rnd(4000), pbits = (cols + 7) / 8 + rnd(8);
		uint64_t sc = next() & ((uint64_t)-1 >> (64 - 8 * eb));
		int kind = (int)rnd(8), sfirst = (int)rnd(2);
		unsigned flags = 0;
		ptort_vop op = PTORT_VOP_ADD;
		ptort_cmp cmp = (ptort_cmp)rnd(PTORT_CMP_COUNT);
		uint64_t x[256], y[256];
		if (rnd(4) == 0)
			a = d; /* in place */
		if (rnd(3) == 0)
			pa = rnd(3) * eb + cols * eb;
		if (kind <= 1 && rnd(3) == 0) {
			static const unsigned fl[] = {PTORT_V_BRC1, PTORT_V_BRC0, PTORT_V_BLK1};
			flags = fl[rnd(3)];
		}
		if (kind <= 2 || kind == 3)
			op = pick_op(t, kind == 3 ? 1 : 2);
		if (kind == 7) {
			static const ptort_vop rops[] = {PTORT_VOP_ADD, PTORT_VOP_MAX, PTORT_VOP_MIN};
			op = rops[rnd(3)];
			pd = rnd(3) * eb + (rnd(2) ? eb : 0);
		}
		fill();
		memcpy(want, mem, MEMSZ);
		for (r = 0; r < rows; r++) {
			uint64_t acc = ident(op, t);
			for (c = 0; c < cols; c += lanes) {
				unsigned nn = cols - c < lanes ? cols - c : lanes, i;
				int s[256];
				for (i = 0; i < nn; i++) { /* load the register */
					x[i] = get(want, (flags & PTORT_V_BRC0) ? a + (uint64_t)r * pa
										: a + (uint64_t)r * pa + (uint64_t)(c + i) * eb,
						   eb);
					/* BLK1: element (c + i) mod 32/eb of the row's 32-byte block */
					y[i] = get(want, (flags & PTORT_V_BRC1) ? b + (uint64_t)r * pb
							 : (flags & PTORT_V_BLK1)
								 ? b + (uint64_t)r * pb + (uint64_t)((c + i) % (32 / eb)) * eb
								 : b + (uint64_t)r * pb + (uint64_t)(c + i) * eb,
						   eb);
				}
				for (i = 0; i < nn; i++) /* a select reads its mask bits first */
					s[i] = kind == 6 && bget(want, bits + (uint64_t)r * pbits, c + i);
				for (i = 0; i < nn; i++) {
					uint64_t at = d + (uint64_t)r * pd + (uint64_t)(c + i) * eb;
					switch (kind) {
					case 0: case 1: put(want, at, eb, ptort_vop1(op, t, x[i], y[i])); break;
					case 2:
						put(want, at, eb, sfirst ? ptort_vop1(op, t, sc, x[i]) : ptort_vop1(op, t, x[i], sc));
						break;
					case 3: put(want, at, eb, ptort_vop1(op, t, x[i], 0)); break;
					case 4: put(want, at, eb, sc); break;
					case 5:
						bput(want, bits + (uint64_t)r * pbits, c + i,
						     ptort_cmp1(cmp, t, x[i], sfirst ? sc : y[i]));
						break;
					case 6:
						put(want, at, eb, s[i] ? x[i] : sfirst ? sc : y[i]);
						break;
					default: break;
					}
				}
				if (kind == 7) {
					uint64_t v[256];
					for (i = 0; i < lanes; i++)
						v[i] = i < nn ? x[i] : ident(op, t);
					acc = ptort_vop1(op, t, acc, treered(op, t, v, lanes));
				}
			}
			if (kind == 7)
				put(want, d + (uint64_t)r * pd, eb, acc);
		}
		switch (kind) {
		case 0: case 1:
			ptort_vbin_v(ctx, PTORT_MEM_UB, op, t, d, a, b, rows, cols, pd, pa, pb, flags);
			break;
		case 2:
			ptort_vbins_v(ctx, PTORT_MEM_UB, op, t, d, a, sc, sfirst ? PTORT_V_SCALAR_FIRST : 0,
				      rows, cols, pd, pa);
			break;
		case 3: ptort_vun_v(ctx, PTORT_MEM_UB, op, t, d, a, rows, cols, pd, pa); break;
		case 4: ptort_vdup_v(ctx, PTORT_MEM_UB, t, d, sc, rows, cols, pd); break;
		case 5:
			if (sfirst)
				ptort_vcmps_v(ctx, PTORT_MEM_UB, cmp, t, bits, a, sc, rows, cols, pbits, pa);
			else
				ptort_vcmp_v(ctx, PTORT_MEM_UB, cmp, t, bits, a, b, rows, cols, pbits, pa, pb);
			break;
		case 6:
			if (sfirst)
				ptort_vsels_v(ctx, PTORT_MEM_UB, t, d, bits, a, sc, rows, cols, pd, pbits, pa);
			else
				ptort_vsel_v(ctx, PTORT_MEM_UB, t, d, bits, a, b, rows, cols, pd, pbits, pa, pb);
			break;
		default: ptort_vred_v(ctx, PTORT_MEM_UB, op, t, d, a, rows, cols, pd, pa); break;
		}
		compare("register form", k);
	}
}

/* ---- reported errors: the message, and nothing written ---- */

static void expect_error(int ret, const char *frag)
{
	const char *e = ptort_ctx_error(ctx);
	CHECK(ret == -1 && e && strstr(e, frag), "expected an error with '%s', got %d '%s'", frag, ret,
	      e ? e : "(none)");
	CHECK(!memcmp(mem, want, MEMSZ), "'%s': memory changed", frag);
	ptort_ctx_clear_error(ctx);
}

static void errors(void)
{
	fill();
	memcpy(want, mem, MEMSZ);
	expect_error(ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 0, 0, 0, 0, 1, 1, 1, 8, 8, 8,
				~0ull, ~0ull),
		     "vadd: repeat count is 0");
	expect_error(ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 0, 0, 0, 1, 1, 1, 1, 8, 8, 8,
				~0ull, 0),
		     "the mask selects no lane");
	expect_error(ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, MEMSZ - 128, 0, 0, 1, 1, 1,
				1, 8, 8, 8, 0, ~0ull),
		     "vadd: destination range [0xff80, 0x10080) exceeds UB capacity 0x10000");
	/* a masked tail may end exactly at the end of the memory */
	CHECK(ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, MEMSZ - 128, 0, 0, 1, 1, 1, 1, 8, 8,
			 8, 0, 0xFFFFFFFFull) == 0 && !ptort_ctx_error(ctx));
	fill();
	memcpy(want, mem, MEMSZ);
	expect_error(ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 0, MEMSZ - 4, 0, 1, 1, 1, 1,
				8, 8, 8, 0, 3),
		     "vadd: source range");
	expect_error(ptort_vbin(ctx, PTORT_MEM_UB, PTORT_VOP_EXP, PTORT_F32, 0, 0, 0, 1, 1, 1, 1, 8, 8, 8,
				0, 1),
		     "exp is not an operation of this instruction");
	expect_error(ptort_vun(ctx, PTORT_MEM_UB, PTORT_VOP_EXP, PTORT_I32, 0, 0, 1, 1, 1, 8, 8, 0, 1),
		     "vexp: exp is not defined on i32");
	expect_error(ptort_vun(ctx, PTORT_MEM_UB, PTORT_VOP_NOT, PTORT_U8, 0, 0, 1, 1, 1, 8, 8, 0, 1),
		     "vnot: the repeat form takes 16- or 32-bit elements, not ui8");
	expect_error(ptort_vun(ctx, (ptort_mem)9, PTORT_VOP_NOT, PTORT_U16, 0, 0, 1, 1, 1, 8, 8, 0, 1),
		     "unknown memory 9");
	expect_error(ptort_vun(ctx, PTORT_MEM_UB, PTORT_VOP_NOT, (ptort_type)99, 0, 0, 1, 1, 1, 8, 8, 0, 1),
		     "unknown element type 99");
	expect_error(ptort_vun(ctx, PTORT_MEM_UB, (ptort_vop)77, PTORT_U16, 0, 0, 1, 1, 1, 8, 8, 0, 1),
		     "unknown operation 77");
	expect_error(ptort_vcmp(ctx, PTORT_MEM_UB, (ptort_cmp)9, PTORT_F32, 0, 0, 0, 1, 1, 1, 8, 8, 0, 1),
		     "vcmp: unknown compare mode 9");
	expect_error(ptort_vcmp(ctx, PTORT_MEM_UB, PTORT_CMP_EQ, PTORT_F32, MEMSZ, 0, 0, 1, 1, 1, 8, 8, 0,
				1),
		     "vcmp: destination range");
	expect_error(ptort_vsel(ctx, PTORT_MEM_UB, PTORT_F16, 0, MEMSZ - 1, 0, 0, 2, 1, 1, 1, 8, 8, 8, 0,
				1),
		     "vsel: select mask range");
	expect_error(ptort_vred(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 3, 0, 0, 1, 1, 1, 8, 0, 1),
		     "vcadd: group 3 is not a power of two in [2, 64]");
	expect_error(ptort_vred(ctx, PTORT_MEM_UB, PTORT_VOP_MUL, PTORT_F32, 64, 0, 0, 1, 1, 1, 8, 0, 1),
		     "mul is not an operation of this instruction");
	expect_error(ptort_vred(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 64, MEMSZ - 4, 0, 2, 1, 1, 8,
				0, 1),
		     "vcadd: destination range");
	expect_error(ptort_vbrcb(ctx, PTORT_MEM_UB, PTORT_F32, 0, 0, 0, 1, 8), "vbrcb: repeat count is 0");
	expect_error(ptort_vbrcb(ctx, PTORT_MEM_UB, PTORT_F32, MEMSZ - 32, 0, 2, 1, 8),
		     "vbrcb: destination range");
	expect_error(ptort_vbrcb(ctx, PTORT_MEM_UB, PTORT_I8, 0, 0, 1, 1, 8),
		     "vbrcb: the repeat form takes 16- or 32-bit elements");
	expect_error(ptort_vbin_v(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 0, 0, 0, 0, 4, 16, 16, 16, 0),
		     "vadd_v: empty region 0x4");
	expect_error(ptort_vbin_v(ctx, PTORT_MEM_UB, PTORT_VOP_ADD, PTORT_F32, 0, 0, MEMSZ - 4, 2, 2, 8, 8,
				  8, PTORT_V_BRC1),
		     "vadd_v: source range");
	expect_error(ptort_vred_v(ctx, PTORT_MEM_UB, PTORT_VOP_MAX, PTORT_F32, MEMSZ - 2, 0, 1, 4, 4, 16),
		     "vcmax_v: destination range");
	expect_error(ptort_vsels_v(ctx, PTORT_MEM_UB, PTORT_I4, 0, 0, 0, 0, 1, 4, 4, 4, 4),
		     "vsels_v: not defined on i4");
	expect_error(ptort_vcmps_v(ctx, PTORT_MEM_UB, PTORT_CMP_LT, PTORT_F32, MEMSZ - 1, 0, 0, 1, 9, 2, 36),
		     "vcmps_v: destination range");
	CHECK(ptort_ctx_error_count(ctx) == 0);
}

/* every (op, type) of target/vec_types.def is defined by the runtime */
static void legality_table(void)
{
	unsigned rows = 0, t;
#define VT(id) (1u << PTORT_##id)
#define VEC_OP(name, kind, vop, a2a3, a5)                                                   \
	rows++;                                                                             \
	for (t = 0; t < PTORT_TYPE_COUNT; t++)                                             \
		if (((a2a3) | (a5)) >> t & 1)                                               \
			CHECK(ptort_vop_check(PTORT_VOP_##vop, (ptort_type)t),             \
			      "vec_types.def: %s on %s", #name, ptort_type_name((ptort_type)t));
#include "vec_types.def"
#undef VEC_OP
#undef VT
	CHECK(rows == 81, "vec_types.def has %u rows", rows);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	uint32_t cap[PTORT_MEM_COUNT] = {MEMSZ};
	ctx = ptort_ctx_create(cap);
	want = malloc(MEMSZ);
	if (!ctx || !want)
		return 1;
	mem = ptort_mem_base(ctx, PTORT_MEM_UB);
	rep_random(n);
	brcb_random(n / 10);
	reg_random(n);
	errors();
	legality_table();
	ptort_ctx_destroy(ctx);
	free(want);
	return check_report("vop_exec");
}
