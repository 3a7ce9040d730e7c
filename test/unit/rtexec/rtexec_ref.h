/* rtexec_ref.h: what the execution-model tests share (besides test/unit/check.h): a
 * deterministic random generator, and an independent model of the tile layouts of
 * docs/semantics.md §6.1 (written from the table, not from runtime/src/layout.c). */
#ifndef RTEXEC_REF_H
#define RTEXEC_REF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ptort.h"

static uint64_t rt_seed = 0x9E3779B97F4A7C15ull;
static inline uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rt_seed += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
static inline uint32_t rndn(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}
static inline void rnd_fill(uint8_t *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

/* Element offset of (r, c) in a rows x cols tile (docs/semantics.md §6.1). */
static inline size_t ref_off(const ptort_tile *t, uint32_t r, uint32_t c)
{
	size_t R = t->rows, C = t->cols, bits = ptort_type_bits((ptort_type)t->type);
	size_t inner = (size_t)t->fractal * 8 / (16 * bits), Ri, Ci, br, bc, ir, ic, in;
	if (t->slayout == 0)
		return t->blayout == 0 ? r * C + c : c * R + r;
	Ri = t->slayout == 1 ? 16 : inner;
	Ci = t->slayout == 1 ? inner : 16;
	br = r / Ri, bc = c / Ci, ir = r % Ri, ic = c % Ci;
	in = t->slayout == 1 ? ir * Ci + ic : ic * Ri + ir;
	if (t->blayout == 0)
		return br * (C * Ri) + bc * (Ri * Ci) + in;
	return bc * (R * Ci) + br * (Ri * Ci) + in;
}

/* Element i (bits wide) of a byte array, little-endian, nibbles low first. */
static inline uint64_t ref_get(const uint8_t *p, uint64_t i, unsigned bits)
{
	uint64_t v = 0;
	unsigned k;
	if (bits == 4)
		return (p[i / 2] >> (4 * (i % 2))) & 0xF;
	for (k = 0; k < bits / 8; k++)
		v |= (uint64_t)p[i * (bits / 8) + k] << (8 * k);
	return v;
}
static inline void ref_put(uint8_t *p, uint64_t i, unsigned bits, uint64_t v)
{
	unsigned k;
	if (bits == 4) {
		unsigned sh = 4 * (unsigned)(i % 2);
		p[i / 2] = (uint8_t)((p[i / 2] & ~(0xF << sh)) | ((v & 0xF) << sh));
		return;
	}
	for (k = 0; k < bits / 8; k++)
		p[i * (bits / 8) + k] = (uint8_t)(v >> (8 * k));
}

static inline ptort_tile mk_tile(ptort_mem mem, ptort_type ty, unsigned bl, unsigned sl, uint32_t addr,
			  uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc, uint32_t fractal)
{
	ptort_tile t;
	memset(&t, 0, sizeof t);
	t.mem = (uint8_t)mem, t.type = (uint8_t)ty, t.blayout = (uint8_t)bl, t.slayout = (uint8_t)sl;
	t.addr = addr, t.rows = rows, t.cols = cols, t.v_rows = vr, t.v_cols = vc;
	t.fractal = fractal;
	return t;
}

static const uint32_t a2a3_caps[PTORT_MEM_COUNT] = {
	192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 2048,
};

#endif
