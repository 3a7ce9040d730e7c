/* test_launch.c: many blocks (ptort.h section 7). Kernels written here run through
 * ptort_launch_run on 1, 2 and 7 threads:
 *   - a copy kernel (block b adds b to its 64-element slice): the GM bytes are equal
 *     for every thread count and to dst[i] = src[i] + i/64 computed here; every block
 *     starts with zeroed on-chip memory although the previous block on its worker
 *     left it poisoned (through ptort_mem_base, and through instructions only: the
 *     kernel stores UB to GM before it fills UB); ptort_block_num is the block count;
 *   - random blocks of DMA loads and stores over one byte buffer, against a byte map
 *     built here (which blocks read and write each byte): a race is reported exactly
 *     when two blocks write a byte or one reads a byte another writes, at the lowest
 *     such byte, naming two blocks that do conflict over the whole reported range;
 *   - the lowest failing block's error and location, whatever the thread count;
 *   - tprint text in block order;
 *   - the context's block fields, the thread count rule, bad launches. */
#include <stdlib.h>

#include "rtexec_ref.h"

static const uint32_t caps[PTORT_MEM_COUNT] = {4096, 1024, 0, 0, 0, 0, 0};

static ptort_ctx *mk_ctx(void)
{
	return ptort_ctx_create(caps);
}

/* ---- the copy kernel ----------------------------------------------------------------- */

#define NB 32
#define SLICE 64

typedef struct copy_k {
	uint32_t *src, *dst;
	int zero_ok[NB];
	int64_t num[NB];
} copy_k;

/* a 1-D u32 GM view of n elements: [1, n] with a partition [0, off] + [1, len] */
static void view1(ptort_gm_view *g, ptort_type ty, void *gm, int64_t n, int64_t off, int64_t len)
{
	const int64_t sh[2] = {1, n}, st[2] = {n, 1}, o[2] = {0, off}, sz[2] = {1, len};
	ptort_view v = ptort_view_tensor(gm, (uint64_t)n, 2, sh, st);
	ptort_view p = ptort_view_part(&v, o, sz);
	ptort_gm_view_init(g, ty, &p);
}

static void copy_run(ptort_ctx *ctx, void *user)
{
	copy_k *k = user;
	uint32_t b = (uint32_t)ptort_block_idx(ctx), i;
	uint8_t *ub = ptort_mem_base(ctx, PTORT_MEM_UB), *l1 = ptort_mem_base(ctx, PTORT_MEM_L1);
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_U32, 0, 0, 256, 1, SLICE, 1, SLICE, 512);
	ptort_gm_view g;
	uint32_t x;
	int zero = 1;
	for (i = 0; i < 4096; i++)
		zero &= ub[i] == 0;
	for (i = 0; i < 1024; i++)
		zero &= l1[i] == 0;
	k->zero_ok[b] = zero;
	k->num[b] = ptort_block_num(ctx);
	view1(&g, PTORT_U32, k->src, NB * SLICE, (int64_t)b * SLICE, SLICE);
	ptort_dma_load(ctx, k->src, &g, &t);
	ptort_ctx_locate(ctx, "copy.pto", 1, 1);
	for (i = 0; i < SLICE; i++) {
		memcpy(&x, ub + 256 + 4 * i, 4);
		x += b;
		memcpy(ub + 256 + 4 * i, &x, 4);
	}
	view1(&g, PTORT_U32, k->dst, NB * SLICE, (int64_t)b * SLICE, SLICE);
	ptort_dma_store(ctx, k->dst, &g, &t, PTORT_NO_CVT, 0);
	ptort_ctx_locate(ctx, "copy.pto", 2, 1);
	memset(ub, 0xA5, 4096); /* what a block leaves must not reach the next one */
	memset(l1, 0x5A, 1024);
}

static void test_copy(void)
{
	static const uint32_t threads[3] = {1, 2, 7};
	uint32_t src[NB * SLICE], want[NB * SLICE], got[3][NB * SLICE];
	unsigned t, i;
	for (i = 0; i < NB * SLICE; i++) {
		src[i] = (uint32_t)rnd();
		want[i] = src[i] + i / SLICE;
	}
	for (t = 0; t < 3; t++) {
		copy_k k;
		ptort_launch l;
		ptort_launch_report rep;
		memset(&k, 0, sizeof k);
		memset(got[t], 0, sizeof got[t]);
		k.src = src, k.dst = got[t];
		memset(&l, 0, sizeof l);
		l.blocks = NB, l.threads = threads[t], l.ctx_create = mk_ctx, l.run = copy_run;
		l.user = &k;
		CHECK(ptort_launch_run(&l, &rep) == PTORT_LAUNCH_OK, "T=%u: status %d %s", threads[t],
		      (int)rep.status, rep.message);
		CHECK(rep.threads == threads[t], "T=%u: %u threads used", threads[t], rep.threads);
		CHECK(!memcmp(got[t], want, sizeof want), "T=%u: GM differs from the reference",
		      threads[t]);
		for (i = 0; i < NB; i++) {
			CHECK(k.zero_ok[i], "T=%u: block %u started with non-zero on-chip memory",
			      threads[t], i);
			CHECK(k.num[i] == NB, "T=%u: block %u saw block_num %lld", threads[t], i,
			      (long long)k.num[i]);
		}
	}
	CHECK(!memcmp(got[0], got[1], sizeof got[0]) && !memcmp(got[0], got[2], sizeof got[0]));
}

/* The same through instructions only (no ptort_mem_base): block b stores all of UB to
 * its 4 KiB of GM first, then fills UB with 0xA5A5A5A5 by vector_dup; every stored
 * byte must be zero. */
static void dirty_run(ptort_ctx *ctx, void *user)
{
	uint32_t b = (uint32_t)ptort_block_idx(ctx);
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_U32, 0, 0, 0, 16, 64, 16, 64, 512);
	ptort_gm_view g;
	view1(&g, PTORT_U32, user, NB * 1024, (int64_t)b * 1024, 1024);
	g.shape[3] = NB * 16, g.shape[4] = 64, g.stride[3] = 64, g.stride[4] = 1;
	g.offset[3] = b * 16, g.offset[4] = 0, g.size[3] = 16, g.size[4] = 64;
	ptort_dma_store(ctx, user, &g, &t, PTORT_NO_CVT, 0);
	ptort_vdup(ctx, PTORT_MEM_UB, PTORT_I32, 0, 0xA5A5A5A5u, 16, 1, 8, 0, ~0ull);
}

static void test_dirty(void)
{
	static uint32_t gm[NB * 1024];
	unsigned t, i;
	for (t = 1; t <= 2; t++) {
		ptort_launch l;
		ptort_launch_report rep;
		int clean = 1;
		memset(gm, 0x11, sizeof gm);
		memset(&l, 0, sizeof l);
		l.blocks = NB, l.threads = t, l.ctx_create = mk_ctx, l.run = dirty_run, l.user = gm;
		CHECK(ptort_launch_run(&l, &rep) == PTORT_LAUNCH_OK, "%s", rep.message);
		for (i = 0; i < NB * 1024; i++)
			clean &= gm[i] == 0;
		CHECK(clean, "T=%u: a block saw what the previous one left in UB", t);
	}
}

/* ---- random accesses against a byte map ------------------------------------------------ */

#define GM 2048
#define MAXB 6
#define MAXS 4

typedef struct seg {
	int write;
	uint32_t off, len;
} seg;

typedef struct seg_k {
	uint8_t *gm;
	unsigned nseg[MAXB];
	seg s[MAXB][MAXS];
} seg_k;

static void seg_run(ptort_ctx *ctx, void *user)
{
	seg_k *k = user;
	uint32_t b = (uint32_t)ptort_block_idx(ctx);
	unsigned i;
	for (i = 0; i < k->nseg[b]; i++) {
		const seg *s = &k->s[b][i];
		ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_U8, 0, 0, 0, 1, 256, 1, s->len, 512);
		ptort_gm_view g;
		view1(&g, PTORT_U8, k->gm, GM, s->off, s->len);
		if (s->write)
			ptort_dma_store(ctx, k->gm, &g, &t, PTORT_NO_CVT, 0);
		else
			ptort_dma_load(ctx, k->gm, &g, &t);
		ptort_ctx_locate(ctx, "seg.pto", b + 1, i + 1);
	}
}

/* Bit masks of the blocks reading and writing each byte. */
static void seg_map(const seg_k *k, unsigned nb, unsigned rd[GM], unsigned wr[GM])
{
	unsigned b, i, j;
	memset(rd, 0, GM * sizeof *rd);
	memset(wr, 0, GM * sizeof *wr);
	for (b = 0; b < nb; b++)
		for (i = 0; i < k->nseg[b]; i++)
			for (j = 0; j < k->s[b][i].len; j++)
				(k->s[b][i].write ? wr : rd)[k->s[b][i].off + j] |= 1u << b;
}

/* Whether byte x races: two writers, or a writer and another block reading. */
static int racy(unsigned r, unsigned w)
{
	unsigned others;
	if (!w)
		return 0;
	if (w & (w - 1))
		return 1;
	others = r & ~w;
	return others != 0;
}

static void test_random(void)
{
	static const uint32_t threads[3] = {1, 2, 7};
	static uint8_t gm[GM];
	static unsigned rd[GM], wr[GM];
	unsigned trial, nrace = 0, nclean = 0;
	for (trial = 0; trial < 400; trial++) {
		seg_k k;
		unsigned nb = 2 + rndn(MAXB - 1), b, i, t, x;
		int lowest = -1;
		memset(&k, 0, sizeof k);
		k.gm = gm;
		for (b = 0; b < nb; b++) {
			k.nseg[b] = 1 + rndn(MAXS);
			for (i = 0; i < k.nseg[b]; i++) {
				k.s[b][i].write = (int)rndn(2);
				k.s[b][i].len = 1 + rndn(trial % 2 ? 256 : 24);
				k.s[b][i].off = rndn(GM - k.s[b][i].len + 1);
			}
		}
		seg_map(&k, nb, rd, wr);
		for (x = 0; x < GM && lowest < 0; x++)
			if (racy(rd[x], wr[x]))
				lowest = (int)x;
		lowest >= 0 ? nrace++ : nclean++;
		for (t = 0; t < 3; t++) {
			ptort_launch l;
			ptort_launch_report rep;
			ptort_launch_status st;
			memset(&l, 0, sizeof l);
			l.blocks = nb, l.threads = threads[t], l.ctx_create = mk_ctx, l.run = seg_run;
			l.user = &k;
			st = ptort_launch_run(&l, &rep);
			if (lowest < 0) {
				CHECK(st == PTORT_LAUNCH_OK, "trial %u T=%u: status %d, no race in the map",
				      trial, threads[t], (int)st);
				continue;
			}
			CHECK(st == PTORT_LAUNCH_RACE, "trial %u T=%u: status %d, race at byte %d", trial,
			      threads[t], (int)st, lowest);
			if (st != PTORT_LAUNCH_RACE)
				continue;
			CHECK(rep.lo == (uintptr_t)gm + (unsigned)lowest,
			      "trial %u: reported from byte %lld, the lowest racing byte is %d", trial,
			      (long long)(rep.lo - (uintptr_t)gm), lowest);
			CHECK(rep.hi > rep.lo && rep.hi <= (uintptr_t)gm + GM);
			CHECK(rep.acc[0].write && rep.acc[0].block != rep.acc[1].block &&
			      rep.acc[0].block < nb && rep.acc[1].block < nb);
			/* every reported byte: acc[0] writes it, acc[1] touches it as said */
			for (x = (unsigned)(rep.lo - (uintptr_t)gm);
			     x < (unsigned)(rep.hi - (uintptr_t)gm) && x < GM; x++) {
				unsigned m0 = 1u << rep.acc[0].block, m1 = 1u << rep.acc[1].block;
				if (!(wr[x] & m0) || !((rep.acc[1].write ? wr[x] : rd[x]) & m1)) {
					CHECK_FAIL("trial %u: byte %u is not accessed as reported", trial, x);
					break;
				}
			}
			CHECK(rep.acc[0].file && !strcmp(rep.acc[0].file, "seg.pto") &&
			      rep.acc[0].line == rep.acc[0].block + 1 &&
			      k.s[rep.acc[0].block][rep.acc[0].col - 1].write,
			      "trial %u: the writer's location", trial);
			CHECK(rep.acc[1].file && rep.acc[1].line == rep.acc[1].block + 1 &&
			      k.s[rep.acc[1].block][rep.acc[1].col - 1].write == rep.acc[1].write,
			      "trial %u: the other access's location", trial);
		}
	}
	CHECK(nrace > 50 && nclean > 50, "%u racy and %u clean trials", nrace, nclean);
	/* the same racy accesses unchecked */
	{
		seg_k k;
		ptort_launch l;
		memset(&k, 0, sizeof k);
		k.gm = gm;
		k.nseg[0] = k.nseg[1] = 1;
		k.s[0][0].write = k.s[1][0].write = 1;
		k.s[0][0].len = k.s[1][0].len = 8;
		memset(&l, 0, sizeof l);
		l.blocks = 2, l.threads = 1, l.ctx_create = mk_ctx, l.run = seg_run, l.user = &k;
		CHECK(ptort_launch_run(&l, NULL) == PTORT_LAUNCH_RACE);
		l.flags = PTORT_LAUNCH_NO_RACE_CHECK;
		CHECK(ptort_launch_run(&l, NULL) == PTORT_LAUNCH_OK);
		/* adjacent bytes do not race */
		k.s[1][0].off = 8;
		l.flags = 0;
		CHECK(ptort_launch_run(&l, NULL) == PTORT_LAUNCH_OK);
	}
}

/* ---- errors, text, contexts ------------------------------------------------------------ */

static void err_run(ptort_ctx *ctx, void *user)
{
	uint32_t b = (uint32_t)ptort_block_idx(ctx);
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_U32, 0, 0, 0, 1, 64, 1, 64, 512);
	(void)user;
	if (b == 5 || b == 9 || b == 30)
		t.addr = 4096; /* beyond UB */
	ptort_vdup(ctx, PTORT_MEM_UB, PTORT_I32, t.addr, b, 1, 1, 8, 0, ~0ull);
	ptort_ctx_locate(ctx, "err.pto", b, 7);
}

static void print_run(ptort_ctx *ctx, void *user)
{
	uint32_t b = (uint32_t)ptort_block_idx(ctx);
	ptort_tile t = mk_tile(PTORT_MEM_UB, PTORT_I32, 0, 0, 0, 1, 8, 1, 3, 512);
	(void)user;
	ptort_vdup(ctx, PTORT_MEM_UB, PTORT_I32, 0, b, 1, 1, 8, 0, 0xFF);
	ptort_tprint(ctx, &t);
}

typedef struct text {
	char s[8192];
	size_t n;
} text;

static void sink(void *user, const char *s, size_t n)
{
	text *t = user;
	if (t->n + n < sizeof t->s) {
		memcpy(t->s + t->n, s, n);
		t->n += n;
	}
}

static void test_errors_text(void)
{
	static const uint32_t threads[3] = {1, 2, 7};
	char want[8192];
	size_t wn = 0;
	unsigned t, b;
	for (b = 0; b < NB; b++)
		wn += (size_t)snprintf(want + wn, sizeof want - wn, "tile i32 1x3\n%u %u %u\n", b, b, b);
	for (t = 0; t < 3; t++) {
		ptort_launch l;
		ptort_launch_report rep;
		text out;
		memset(&l, 0, sizeof l);
		l.blocks = NB, l.threads = threads[t], l.ctx_create = mk_ctx, l.run = err_run;
		CHECK(ptort_launch_run(&l, &rep) == PTORT_LAUNCH_ERROR && rep.block == 5 &&
		      rep.file && !strcmp(rep.file, "err.pto") && rep.line == 5 && rep.col == 7 &&
		      strstr(rep.message, "exceeds UB capacity"),
		      "T=%u: status %d block %u at %s:%u: %s", threads[t], (int)rep.status, rep.block,
		      rep.file ? rep.file : "?", rep.line, rep.message);
		out.n = 0;
		l.run = print_run;
		l.print = sink;
		l.print_user = &out;
		CHECK(ptort_launch_run(&l, &rep) == PTORT_LAUNCH_OK);
		CHECK(out.n == wn && !memcmp(out.s, want, wn), "T=%u: tprint text out of order",
		      threads[t]);
	}
}

static void test_ctx(void)
{
	ptort_ctx *c = mk_ctx();
	ptort_launch l;
	ptort_launch_report rep;
	uint32_t n;
	CHECK(c != NULL);
	CHECK(ptort_block_idx(c) == 0 && ptort_block_num(c) == 1);
	CHECK(ptort_subblock_idx(c) == 0 && ptort_subblock_num(c) == 1);
	ptort_ctx_set_block(c, 3, 8);
	ptort_ctx_set_subblock(c, 1, 2);
	CHECK(ptort_block_idx(c) == 3 && ptort_block_num(c) == 8);
	CHECK(ptort_subblock_idx(c) == 1 && ptort_subblock_num(c) == 2);
	ptort_ctx_set_block(c, 8, 8); /* ignored */
	ptort_ctx_set_block(c, 0, 0);
	CHECK(ptort_block_idx(c) == 3 && ptort_block_num(c) == 8);
	ptort_ctx_destroy(c);
	CHECK(ptort_block_idx(NULL) == 0 && ptort_block_num(NULL) == 1);
	CHECK(ptort_launch_threads(7, 3) == 3 && ptort_launch_threads(2, 32) == 2);
	CHECK(ptort_launch_threads(1, 1) == 1 && ptort_launch_threads(100000, 100000) == 4096);
	n = ptort_launch_threads(0, 5);
	CHECK(n >= 1 && n <= 5);
	memset(&l, 0, sizeof l);
	l.ctx_create = mk_ctx, l.run = print_run;
	CHECK(ptort_launch_run(&l, &rep) == PTORT_LAUNCH_BAD && rep.status == PTORT_LAUNCH_BAD);
	CHECK(ptort_launch_run(NULL, &rep) == PTORT_LAUNCH_BAD);
	l.blocks = 1, l.run = NULL;
	CHECK(ptort_launch_run(&l, NULL) == PTORT_LAUNCH_BAD);
}

int main(void)
{
	test_ctx();
	test_copy();
	test_dirty();
	test_random();
	test_errors_text();
	return check_report("rtexec_launch");
}
