/* mmad_kbody.h: the register-blocked kernel body shared by the x86 levels, included
 * once by mmad_avx2.c and once by mmad_avx512.c with the level's vector operations:
 *
 *   KB_ATTR            function attribute (target ISA)
 *   KB_V, KB_W         vector type of 32-bit lanes, lanes per vector
 *   KB_NV, KB_MR       vectors per row of the block, rows of the block
 *   KB_M               column mask type; KB_MASK(c): lanes < c (c may be <= 0 or > W)
 *   KB_ZERO(), KB_LOAD(p), KB_STORE(p, v), KB_MLOAD(m, p), KB_MSTORE(m, p, v),
 *   KB_BCAST(p)        one 32-bit element of memory in every lane
 *   KB_FMA(a, b, c)    a * b + c, one rounding; KB_IMAC(a, b, c): the same modulo 2^32
 *   KB_CANON(v)        NaN lanes -> 0x7FC00000
 *   KB_NAME(x)         the level's names (x ## 2, x ## 5)
 *   KB_LD(p, kind)     W elements at p (f32, f16 or bf16: KB_LF32, KB_LF16, KB_LBF16)
 *                      as f32 bit patterns, exactly
 *   KB_LD8(p, kind, lut)  W 8-bit elements at p (kind MMAD_D8_I8, _E5M2, _E4M3) as
 *                      f32 / i32 bit patterns, exactly
 *   KB_LUT8(d, ...)    the decoder (arguments of mmad_isa.dec) of the other 8-bit types
 *   KB_TR(s, cs, kind, d)  the W x W block whose column c is W elements at s + c * cs
 *                      bytes into W rows of d (row stride 16 floats), decoded
 *   KB_LOWER           the mmad_isa of the level below (sizes it has no code for)
 *   KB_BOX16(s, ri, d, kind)  optional: a Zn box of 16-bit elements (ri a multiple of
 *                      16) into panel rows, replacing the W x W transposes
 *
 * It defines the level's kernels KB_NAME(f32) and KB_NAME(i32) (struct mmad_kargs in
 * mmad_internal.h: a block of mr rows x nr columns whose accumulators stay in
 * registers while k advances, one KB_FMA per element and k step, in increasing k), its
 * B box transpose KB_NAME(box) and its decoder of 16- and 8-bit types KB_NAME(dec). */

enum { KB_F32, KB_I32 };

/* Vector v covers columns v*W .. v*W+W-1: group (v*W)/16 of C and of the B panels. */
#define KB_COL(v, gs) (((v) * KB_W / 16) * (gs) + (v) * KB_W % 16)

static inline __attribute__((always_inline)) KB_ATTR void
KB_NAME(body)(const struct mmad_kargs *x, int kind, const uint32_t MR, const int NVA)
{
	KB_V acc[KB_MR][KB_NV], bv[KB_NV], av;
	KB_M mk[KB_NV];
	const float *p[KB_MR];
	size_t kblk = x->kblk < x->k ? x->kblk : x->k, off;
	uint32_t r, t, t0;
	int v;

#pragma GCC unroll 4
	for (v = 0; v < NVA; v++)
		mk[v] = KB_MASK((int)x->nr - v * KB_W);
#pragma GCC unroll 8
	for (r = 0; r < MR; r++) {
#pragma GCC unroll 4
		for (v = 0; v < NVA; v++) {
			if (x->init == MMAD_INIT_LOAD) {
				const float *ci = (const float *)x->cin + r * x->ldin + KB_COL(v, x->cgsin);
				acc[r][v] = x->nr >= (uint32_t)(v + 1) * KB_W ? KB_LOAD(ci)
									    : KB_MLOAD(mk[v], ci);
			} else if (x->init == MMAD_INIT_ROW) {
				acc[r][v] = KB_LOAD((const float *)x->row + v * KB_W);
			} else {
				acc[r][v] = KB_ZERO();
			}
		}
	}
	for (t0 = 0, off = 0; t0 < x->k; t0 += (uint32_t)kblk, off += x->kstride) {
		uint32_t len = x->k - t0 < kblk ? x->k - t0 : (uint32_t)kblk;
		const float *bt = (const float *)x->b + (size_t)t0 * 16;
#pragma GCC unroll 8
		for (r = 0; r < MR; r++)
			p[r] = (const float *)x->a[r] + off;
		for (t = 0; t < len; t++, bt += 16) {
#pragma GCC unroll 4
			for (v = 0; v < NVA; v++)
				bv[v] = KB_LOAD(bt + KB_COL(v, x->bgs));
#pragma GCC unroll 8
			for (r = 0; r < MR; r++) {
				av = KB_BCAST(p[r] + t);
#pragma GCC unroll 4
				for (v = 0; v < NVA; v++)
					acc[r][v] = kind == KB_F32 ? KB_FMA(av, bv[v], acc[r][v])
								   : KB_IMAC(av, bv[v], acc[r][v]);
			}
		}
	}
#pragma GCC unroll 8
	for (r = 0; r < MR; r++) {
#pragma GCC unroll 4
		for (v = 0; v < NVA; v++) {
			float *co = (float *)x->c + r * x->ldc + KB_COL(v, x->cgs);
			if (kind == KB_F32 && x->canon)
				acc[r][v] = KB_CANON(acc[r][v]);
			if (x->nr >= (uint32_t)(v + 1) * KB_W)
				KB_STORE(co, acc[r][v]);
			else
				KB_MSTORE(mk[v], co, acc[r][v]);
		}
	}
}

/* One instantiation per row count and vector count (the compiler keeps the
 * accumulators of each in registers). */
#define KB_CASE(KIND, NVA, R)                                                 \
	case R:                                                               \
		KB_NAME(body)(x, KIND, (R) <= KB_MR ? (R) : KB_MR, NVA);      \
		break;
#define KB_ROWS(KIND, NVA)                                             \
	switch (x->mr) {                                               \
		KB_CASE(KIND, NVA, 8)                                  \
		KB_CASE(KIND, NVA, 7)                                  \
		KB_CASE(KIND, NVA, 6)                                  \
		KB_CASE(KIND, NVA, 5)                                  \
		KB_CASE(KIND, NVA, 4)                                  \
		KB_CASE(KIND, NVA, 3)                                  \
		KB_CASE(KIND, NVA, 2)                                  \
	default:                                                       \
		KB_NAME(body)(x, KIND, 1, NVA);                        \
		break;                                                 \
	}

static inline __attribute__((always_inline)) KB_ATTR void KB_NAME(run)(const struct mmad_kargs *x,
								       int kind)
{
	/* as few vectors as the block's columns need (a missing B panel is never read) */
	if (x->nr > KB_W) {
		KB_ROWS(kind, KB_NV)
	} else {
		KB_ROWS(kind, 1)
	}
}

static KB_ATTR void KB_NAME(f32)(const struct mmad_kargs *x)
{
	KB_NAME(run)(x, KB_F32);
}

static KB_ATTR void KB_NAME(i32)(const struct mmad_kargs *x)
{
	KB_NAME(run)(x, KB_I32);
}

/* ---- packing ------------------------------------------------------------------------ */

static inline int KB_NAME(kind)(ptort_type t)
{
	return t == PTORT_F32 || t == PTORT_I32 ? KB_LF32
	       : t == PTORT_F16			 ? KB_LF16
	       : t == PTORT_BF16		 ? KB_LBF16
						 : -1;
}

/* The loops with the element kind a constant (one copy per kind). */
static inline __attribute__((always_inline)) KB_ATTR void
KB_NAME(boxk)(const uint8_t *s, unsigned ri, uint32_t *dst, const int kind)
{
	size_t es = kind == KB_LF32 ? 4 : 2, cs = ri * es;
	unsigned t, c;
#ifdef KB_BOX16
	if (kind != KB_LF32 && ri % 16 == 0) { /* the level's own 16-bit box code */
		KB_BOX16(s, ri, dst, kind);
		return;
	}
#endif
	for (t = 0; t < ri; t += KB_W)
		for (c = 0; c < 16; c += KB_W)
			KB_TR(s + c * cs + t * es, cs, kind, (float *)(void *)(dst + (size_t)t * 16 + c));
}

static KB_ATTR int KB_NAME(box)(ptort_type ty, const void *src, unsigned ri, uint32_t *dst)
{
	int kind = KB_NAME(kind)(ty);
	if (kind < 0 || ri % KB_W)
		return KB_LOWER.box(ty, src, ri, dst);
	if (kind == KB_LF32)
		KB_NAME(boxk)((const uint8_t *)src, ri, dst, KB_LF32);
	else if (kind == KB_LF16)
		KB_NAME(boxk)((const uint8_t *)src, ri, dst, KB_LF16);
	else
		KB_NAME(boxk)((const uint8_t *)src, ri, dst, KB_LBF16);
	return 0;
}

static inline __attribute__((always_inline)) KB_ATTR void
KB_NAME(deck)(const struct mmad_dec *d, const void *src, size_t ss, size_t n, size_t rows,
	      uint32_t *dst, size_t ds, const int bytes, const int kind)
{
	size_t r, i;
	for (r = 0; r < rows; r++) {
		const uint8_t *s = (const uint8_t *)src + r * ss * bytes;
		uint32_t *o = dst + r * ds;
		for (i = 0; i + KB_W <= n; i += KB_W)
			KB_STORE((float *)(void *)(o + i), bytes == 2 ? KB_LD(s + 2 * i, kind)
								  : KB_LD8(s + i, kind, d->lut));
		if (i < n)
			KB_LOWER.dec(d, s + bytes * i, 0, n - i, 1, o + i, 0);
	}
}

static KB_ATTR void KB_NAME(dec)(const struct mmad_dec *d, const void *src, size_t ss, size_t n,
				 size_t rows, uint32_t *dst, size_t ds)
{
	switch (d->t == PTORT_F16 ? -1 : d->t == PTORT_BF16 ? -2 : mmad_d8_kind(d->t)) {
	case -1:
		KB_NAME(deck)(d, src, ss, n, rows, dst, ds, 2, KB_LF16);
		break;
	case -2:
		KB_NAME(deck)(d, src, ss, n, rows, dst, ds, 2, KB_LBF16);
		break;
	case MMAD_D8_I8:
		KB_NAME(deck)(d, src, ss, n, rows, dst, ds, 1, MMAD_D8_I8);
		break;
	case MMAD_D8_E5M2:
		KB_NAME(deck)(d, src, ss, n, rows, dst, ds, 1, MMAD_D8_E5M2);
		break;
	case MMAD_D8_E4M3:
		KB_NAME(deck)(d, src, ss, n, rows, dst, ds, 1, MMAD_D8_E4M3);
		break;
	default:
		KB_LUT8(d, src, ss, n, rows, dst, ds);
		break;
	}
}

#undef KB_COL
#undef KB_CASE
#undef KB_ROWS
