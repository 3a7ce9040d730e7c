/* mem_internal.h: the runtime's private view of the execution model, shared by
 * mem.c (contexts, error reporting, footprint checks, element access), vec*.c
 * (vector conversions), dma*.c (GM <-> on-chip copies) and tmov.c. Never installed. */
#ifndef PTORT_MEM_INTERNAL_H
#define PTORT_MEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ptort.h"

struct ptort_ctx {
	uint8_t *mem[PTORT_MEM_COUNT];
	uint32_t cap[PTORT_MEM_COUNT];
	unsigned long nerr;
	char err[256];
	ptort_print_fn print; /* ptort_tprint's sink; NULL: standard output */
	void *print_user;
	const char *err_file; /* ptort_ctx_locate of the first error */
	uint32_t err_line, err_col;
};

/* mem.c */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
void ptort_report(ptort_ctx *ctx, const char *fmt, ...);
/* 0 when [start, start + len) lies inside memory `mem`, else reports
 * "<op>: <what> range [a, b) exceeds <MEM> capacity c" and returns -1. */
int ptort_check_range(ptort_ctx *ctx, const char *op, const char *what, unsigned mem,
		      uint64_t start, uint64_t len);
/* Validates a tile descriptor (memory, ptort_layout_check, valid region) and
 * its footprint rows*cols*bits/8 at addr. 0 or -1 (reported). */
int ptort_check_tile(ptort_ctx *ctx, const char *op, const char *what, const ptort_tile *t);
/* Element of `bits` bits (4..64) at bit position `pos` of `p`, zero extended. */
uint64_t ptort_ld(const uint8_t *p, uint64_t pos, unsigned bits);
void ptort_st(uint8_t *p, uint64_t pos, unsigned bits, uint64_t v);
/* Converts n contiguous elements (byte-aligned starts): ptort_cvt_run when the
 * pointers suit its kernels, else element by element. The pair is already checked. */
void ptort_conv_n(ptort_type from, ptort_type to, const uint8_t *src, uint8_t *dst, size_t n,
		  ptort_rmode rm, int sat);
/* ReLU on one element pattern of type t: negatives (not NaN) -> +0. */
uint64_t ptort_relu1(ptort_type t, uint64_t x);
/* Whether [a, a+la) and [b, b+lb) intersect. */
int ptort_overlap(uint64_t a, uint64_t la, uint64_t b, uint64_t lb);

#endif
