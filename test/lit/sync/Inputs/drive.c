/* drive.c (sync/model.test): feeds a synthetic run to the sync sanitizer through the
 * runtime's public API and prints its findings. Input, one event a line:
 *   I PIPE RLO WLO   an instruction of pipe PIPE (S V M MTE1 MTE2 MTE3 FIX) copying the
 *                    32 bytes at UB address RLO to UB address WLO (ptort_tmov)
 *   S SRC DST E / W SRC DST E   set_flag / wait_flag
 *   B PIPE           pipe_barrier (PIPE may be ALL)
 *   O MASK           the in-order pipes (bit p = ptort_pipe p), before the first event
 * Event k (from 1) is located at gen:k:1.
 * `drive adv` (sync/schedule.test) runs the events under the adversarial schedule
 * instead of checking them: each instruction goes through ptort_sync_defer. It prints
 * `ran K...` (the instructions' event numbers in the order they ran), `ub X...` (the
 * first 256 bytes of UB in hex, filled with bytes 1, 2, 3, ... before the run) and
 * `error LINE MESSAGE` when the run reported one. `drive ub` prints the same `ub` line after
 * the run in program order, with the sanitizer's findings. */
#include <stdio.h>
#include <string.h>

#include "ptort.h"

static int pipe_of(const char *s)
{
	static const char *const n[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
	int i;
	for (i = 0; i < 8; i++)
		if (!strcmp(s, n[i]))
			return i;
	return -1;
}

/* an instruction under the adversarial schedule: its tiles and its event number */
typedef struct mv {
	ptort_tile s, d;
	unsigned line;
} mv;
static unsigned ran[4096], nran;

static void run_mv(ptort_ctx *ctx, const void *p)
{
	const mv *m = p;
	ptort_tmov(ctx, &m->s, &m->d, PTORT_NO_CVT, 0);
	if (nran < 4096)
		ran[nran++] = m->line;
}

static void out(void *u, const char *s, size_t n)
{
	(void)u;
	fwrite(s, 1, n, stdout);
}

int main(int argc, char **argv)
{
	static const uint32_t cap[PTORT_MEM_COUNT] = {65536, 0, 0, 0, 0, 0, 0};
	ptort_ctx *ctx = ptort_ctx_create(cap);
	ptort_sync_findings *f = ptort_sync_findings_create();
	char k[8], a[8], b[8];
	unsigned line = 0, x, y;
	int adv = argc > 1 && !strcmp(argv[1], "adv"), ub = adv || (argc > 1 && !strcmp(argv[1], "ub"));
	if (!ctx || !f || (adv ? ptort_sync_schedule(ctx, 1) : ptort_sync_check(ctx, 1)))
		return 2;
	if (ub) {
		uint8_t *m = ptort_mem_base(ctx, PTORT_MEM_UB);
		for (x = 0; x < 256; x++)
			m[x] = (uint8_t)(x + 1);
	}
	while (scanf("%7s", k) == 1) {
		if (!strcmp(k, "O")) {
			if (scanf("%u", &x) != 1)
				return 2;
			ptort_sync_target(ctx, x);
			continue;
		}
		line++;
		if (!strcmp(k, "I")) {
			ptort_tile s = {PTORT_MEM_UB, PTORT_F32, 0, 0, 0, 1, 8, 1, 8, 512}, d = s;
			if (scanf("%7s %u %u", a, &x, &y) != 3)
				return 2;
			s.addr = x, d.addr = y;
			if (adv) {
				mv m;
				memset(&m, 0, sizeof m);
				m.s = s, m.d = d, m.line = line;
				ptort_sync_defer(ctx, run_mv, &m, sizeof m);
			} else {
				ptort_tmov(ctx, &s, &d, PTORT_NO_CVT, 0);
			}
			ptort_ctx_locate(ctx, "gen", line, 1);
			ptort_sync_op(ctx, (ptort_pipe)pipe_of(a));
		} else if (!strcmp(k, "B")) {
			if (scanf("%7s", a) != 1)
				return 2;
			ptort_sync_barrier(ctx, (ptort_pipe)pipe_of(a), "gen", line, 1);
		} else {
			if (scanf("%7s %7s %u", a, b, &x) != 3)
				return 2;
			if (!strcmp(k, "S"))
				ptort_sync_set(ctx, (ptort_pipe)pipe_of(a), (ptort_pipe)pipe_of(b), x, "gen",
					       line, 1);
			else
				ptort_sync_wait(ctx, (ptort_pipe)pipe_of(a), (ptort_pipe)pipe_of(b), x,
						"gen", line, 1);
		}
	}
	if (adv) {
		ptort_sync_drain(ctx);
		printf("ran");
		for (x = 0; x < nran; x++)
			printf(" %u", ran[x]);
		printf("\n");
	}
	if (ub) {
		const uint8_t *m = ptort_mem_base(ctx, PTORT_MEM_UB);
		printf("ub ");
		for (x = 0; x < 256; x++)
			printf("%02x", m[x]);
		printf("\n");
	}
	if (adv && ptort_ctx_error(ctx)) {
		uint32_t l = 0, c = 0;
		ptort_ctx_error_loc(ctx, &l, &c);
		printf("error %u %s\n", (unsigned)l, ptort_ctx_error(ctx));
	}
	ptort_sync_finish(ctx, f);
	ptort_sync_findings_write(f, out, NULL);
	ptort_sync_findings_destroy(f);
	ptort_ctx_destroy(ctx);
	return 0;
}
