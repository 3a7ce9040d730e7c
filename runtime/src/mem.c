/* mem.c: the runtime's memory model. A context owns one zero-filled byte array per
 * on-chip memory (capacities chosen by the compiler), records the first error an
 * instruction reports, and offers the checks and element accessors the instruction
 * executors (vec*.c, dma*.c, tmov.c) share. See ptort.h section 3. Below the
 * executors and the sync checks: the sync sanitizer, the adversarial schedule and the
 * cluster watch a context through the hooks they set in it (ctx->hook), never called
 * by name here (docs/architecture.md, "Layers"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvt_internal.h"
#include "mem_internal.h"
#include "ptort.h"

static const char *const mem_names[PTORT_MEM_COUNT] = {
#define MEM_NAME_(id) #id,
	PTORT_MEM_LIST(MEM_NAME_)
#undef MEM_NAME_
};

const char *ptort_mem_name(ptort_mem mem)
{
	return (unsigned)mem < PTORT_MEM_COUNT ? mem_names[mem] : "?";
}

const char *ptort_pipe_name(ptort_pipe p)
{
	static const char *const names[] = {
#define PTORT_PIPE_NAME_(id) "PIPE_" #id,
		PTORT_PIPE_LIST(PTORT_PIPE_NAME_)
#undef PTORT_PIPE_NAME_
		"PIPE_ALL"};
	return (unsigned)p <= PTORT_PIPE_ALL ? names[p] : "PIPE_?";
}

ptort_ctx *ptort_ctx_new(const uint32_t capacity[PTORT_MEM_COUNT])
{
	ptort_ctx *ctx = calloc(1, sizeof *ctx);
	unsigned m;
	if (!ctx)
		return NULL;
	ctx->block_num = ctx->sub_num = 1;
	for (m = 0; m < PTORT_MEM_COUNT; m++) {
		ctx->cap[m] = capacity ? capacity[m] : 0;
		/* at least one byte so that the base pointer is never NULL */
		ctx->mem[m] = calloc(ctx->cap[m] ? ctx->cap[m] : 1, 1);
		if (!ctx->mem[m]) {
			ptort_ctx_destroy(ctx);
			return NULL;
		}
	}
	return ctx;
}

void ptort_ctx_destroy(ptort_ctx *ctx)
{
	unsigned m;
	if (!ctx)
		return;
	for (m = 0; m < PTORT_MEM_COUNT; m++)
		free(ctx->mem[m]);
	free(ctx->rec);
	if (ctx->san)
		ctx->hook.san_free(ctx);
	if (ctx->sched)
		ctx->hook.sched_free(ctx);
	free(ctx);
}

uint8_t *ptort_mem_base(ptort_ctx *ctx, ptort_mem mem)
{
	if (!ctx || (unsigned)mem >= PTORT_MEM_COUNT)
		return NULL;
	ctx->dirty[mem] = ctx->cap[mem]; /* the caller may write anywhere */
	return ctx->mem[mem];
}

uint32_t ptort_mem_size(const ptort_ctx *ctx, ptort_mem mem)
{
	return ctx && (unsigned)mem < PTORT_MEM_COUNT ? ctx->cap[mem] : 0;
}

const char *ptort_ctx_error(const ptort_ctx *ctx)
{
	return ctx && ctx->nerr ? ctx->err : NULL;
}

unsigned long ptort_ctx_error_count(const ptort_ctx *ctx)
{
	return ctx ? ctx->nerr : 0;
}

void ptort_ctx_clear_error(ptort_ctx *ctx)
{
	if (!ctx)
		return;
	ctx->nerr = 0;
	ctx->err[0] = 0;
	ctx->err_file = NULL;
}

void ptort_ctx_set_block(ptort_ctx *ctx, uint32_t idx, uint32_t num)
{
	if (ctx && num && idx < num)
		ctx->block_idx = idx, ctx->block_num = num;
}

void ptort_ctx_set_subblock(ptort_ctx *ctx, uint32_t idx, uint32_t num)
{
	if (ctx && num && idx < num)
		ctx->sub_idx = idx, ctx->sub_num = num;
}

int64_t ptort_block_idx(const ptort_ctx *ctx)
{
	return ctx ? ctx->block_idx : 0;
}

int64_t ptort_block_num(const ptort_ctx *ctx)
{
	return ctx ? ctx->block_num : 1;
}

int64_t ptort_subblock_idx(const ptort_ctx *ctx)
{
	return ctx ? ctx->sub_idx : 0;
}

int64_t ptort_subblock_num(const ptort_ctx *ctx)
{
	return ctx ? ctx->sub_num : 1;
}

void ptort_gm_note_(ptort_ctx *ctx, const void *p, size_t n, int write)
{
	uintptr_t lo = (uintptr_t)p;
	ptort_gm_rec *r;
	if (!n)
		return;
	if (ctx->nrec > ctx->located) {
		r = &ctx->rec[ctx->nrec - 1];
		if (r->hi == lo && r->write == (uint32_t)write) {
			r->hi = lo + n;
			return;
		}
	}
	if (ctx->nrec == ctx->caprec &&
	    ptort_grow(&ctx->rec, &ctx->caprec, 256, sizeof *ctx->rec, (size_t)-1)) {
		ctx->track_oom = 1;
		return;
	}
	r = &ctx->rec[ctx->nrec++];
	r->lo = lo;
	r->hi = lo + n;
	r->block = ctx->block_idx;
	r->write = (uint32_t)write;
	r->file = NULL;
	r->line = r->col = 0;
	r->core = 0;
	r->slot = 0;
	if (ctx->cl) {
		r->core = ctx->core == PTORT_CORE_CUBE ? 1 : 2 + (ctx->sub_idx & 1);
		memcpy(r->vc, ctx->vc, sizeof r->vc);
	}
}

void ptort_ctx_locate(ptort_ctx *ctx, const char *file, uint32_t line, uint32_t col)
{
	if (ctx && ctx->nrec > ctx->located) { /* the GM accesses of this instruction */
		size_t i;
		for (i = ctx->located; i < ctx->nrec; i++)
			ctx->rec[i].file = file, ctx->rec[i].line = line, ctx->rec[i].col = col;
		ctx->located = ctx->nrec;
	}
	if (ctx && ctx->san)
		ctx->hook.san_locate(ctx, file, line, col);
	if (ctx && ctx->sched)
		ctx->hook.sched_locate(ctx, file, line, col);
	if (!ctx || !ctx->nerr || ctx->err_file || !file)
		return;
	ctx->err_file = file;
	ctx->err_line = line;
	ctx->err_col = col;
}

const char *ptort_ctx_error_loc(const ptort_ctx *ctx, uint32_t *line, uint32_t *col)
{
	if (!ctx || !ctx->err_file)
		return NULL;
	*line = ctx->err_line;
	*col = ctx->err_col;
	return ctx->err_file;
}

int ptort_grow(void *pa, size_t *cap, size_t first, size_t size, size_t limit)
{
	size_t n = *cap ? *cap * 2 : first;
	void *a, *q;
	memcpy(&a, pa, sizeof a); /* the pointer, whatever it points to */
	q = n < limit && n < ((size_t)-1) / size ? realloc(a, n * size) : NULL;
	if (!q)
		return -1;
	memcpy(pa, &q, sizeof q);
	*cap = n;
	return 0;
}

int ptort_reserve(char **p, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 256;
	char *q;
	while (n < need)
		n *= 2;
	q = realloc(*p, n);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

uint64_t *ptort_vals(ptort_ctx *ctx, const char *op, size_t n)
{
	uint64_t *v = malloc((n + 1) * sizeof *v);
	if (!v)
		ptort_report(ctx, "%s: out of memory", op);
	return v;
}

void ptort_report(ptort_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	if (!ctx)
		return;
	if (ctx->nerr++ == 0) {
		va_start(ap, fmt);
		vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
		va_end(ap);
	}
}

int ptort_check_range(ptort_ctx *ctx, const char *op, const char *what, unsigned mem,
		      uint64_t start, uint64_t len)
{
	uint64_t cap;
	if (mem >= PTORT_MEM_COUNT) {
		ptort_report(ctx, "%s: %s in unknown memory %u", op, what, mem);
		return -1;
	}
	cap = ctx->cap[mem];
	if (start > cap || len > cap - start) {
		ptort_report(ctx, "%s: %s range [0x%llx, 0x%llx) exceeds %s capacity 0x%llx", op,
			     what, (unsigned long long)start, (unsigned long long)(start + len),
			     mem_names[mem], (unsigned long long)cap);
		return -1;
	}
	if (start + len > ctx->dirty[mem])
		ctx->dirty[mem] = (uint32_t)(start + len);
	if (ctx->san) /* a destination is written; "" is dma_load_cvt's converted tile */
		ctx->hook.san_note(ctx, mem, start, len, what[0] == 'd' || !what[0]);
	if (ctx->cl) /* a core of a cluster: the freed-slot check (cluster.c) */
		return ctx->hook.cl_access(ctx, op, mem, start, len, what[0] == 'd' || !what[0]);
	return 0;
}

int ptort_check_tile(ptort_ctx *ctx, const char *op, const char *what, const ptort_tile *t)
{
	ptort_layout_status ls;
	if (!t) {
		ptort_report(ctx, "%s: %s tile is NULL", op, what);
		return -1;
	}
	if (t->mem >= PTORT_MEM_COUNT) {
		ptort_report(ctx, "%s: %s tile in unknown memory %u", op, what, t->mem);
		return -1;
	}
	/* type, layout codes, shape, whole fractals (docs/semantics.md §6.1) */
	ls = ptort_layout_check((ptort_type)t->type, t->blayout, t->slayout, t->fractal, t->rows,
				t->cols);
	if (ls != PTORT_LAYOUT_OK) {
		ptort_report(ctx, "%s: %s tile (type %u, %ux%u, layout %u/%u, fractal %u): %s", op,
			     what, t->type, t->rows, t->cols, t->blayout, t->slayout, t->fractal,
			     ptort_layout_status_text(ls));
		return -1;
	}
	if (!t->v_rows || !t->v_cols || t->v_rows > t->rows || t->v_cols > t->cols) {
		ptort_report(ctx, "%s: %s tile has shape %ux%u with valid region %ux%u", op, what,
			     t->rows, t->cols, t->v_rows, t->v_cols);
		return -1;
	}
	return ptort_check_range(ctx, op, what, t->mem, t->addr,
				 (uint64_t)t->rows * t->cols * ptort_type_bits((ptort_type)t->type) / 8);
}

uint64_t ptort_ld(const uint8_t *p, uint64_t pos, unsigned bits)
{
	const uint8_t *b = p + (pos >> 3);
	switch (bits) {
	case 4:
		return (*b >> (pos & 4)) & 0xF;
	case 8:
		return *b;
	case 16: {
		uint16_t v;
		memcpy(&v, b, 2);
		return v;
	}
	case 32: {
		uint32_t v;
		memcpy(&v, b, 4);
		return v;
	}
	default: {
		uint64_t v;
		memcpy(&v, b, 8);
		return v;
	}
	}
}

void ptort_st(uint8_t *p, uint64_t pos, unsigned bits, uint64_t v)
{
	uint8_t *b = p + (pos >> 3);
	switch (bits) {
	case 4: {
		unsigned sh = (unsigned)(pos & 4);
		*b = (uint8_t)((*b & ~(0xFu << sh)) | ((v & 0xFu) << sh));
		return;
	}
	case 8:
		*b = (uint8_t)v;
		return;
	case 16: {
		uint16_t x = (uint16_t)v;
		memcpy(b, &x, 2);
		return;
	}
	case 32: {
		uint32_t x = (uint32_t)v;
		memcpy(b, &x, 4);
		return;
	}
	default:
		memcpy(b, &v, 8);
		return;
	}
}

void ptort_conv_n(ptort_type from, ptort_type to, const uint8_t *src, uint8_t *dst, size_t n,
		  ptort_rmode rm, int sat)
{
	unsigned fb = ptort_type_bits(from), tb = ptort_type_bits(to);
	size_t i;
	/* the kernels read and write through typed pointers: natural alignment only */
	if (((uintptr_t)src % (fb < 8 ? 1 : fb / 8)) == 0 &&
	    ((uintptr_t)dst % (tb < 8 ? 1 : tb / 8)) == 0) {
		ptort_cvt_run(from, to, src, dst, n, rm, sat);
		return;
	}
	for (i = 0; i < n; i++)
		ptort_st(dst, (uint64_t)i * tb, tb,
			 ptort_cvt1(from, to, ptort_ld(src, (uint64_t)i * fb, fb), rm, sat));
}

uint64_t ptort_relu1(ptort_type t, uint64_t x)
{
	struct ptort_val v;
	unsigned bits = ptort_type_bits(t);
	if (ptort_type_is_float(t)) {
		ptort_decode(t, x, &v);
		return (v.cls != VAL_NAN && v.sign) ? 0 : x;
	}
	if (ptort_type_is_signed_int(t) && ((x >> (bits - 1)) & 1))
		return 0;
	return x;
}

int ptort_overlap(uint64_t a, uint64_t la, uint64_t b, uint64_t lb)
{
	return la && lb && a < b + lb && b < a + la;
}

int ptort_trap(ptort_ctx *ctx)
{
	ptort_report(ctx, "trap: the kernel executed pto.trap");
	return -1;
}
