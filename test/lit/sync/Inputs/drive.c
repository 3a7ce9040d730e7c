/* drive.c (sync/model.test): feeds a synthetic run to the sync sanitizer through the
 * runtime's public API and prints its findings. Input, one event a line:
 *   I PIPE RLO WLO   an instruction of pipe PIPE (S V M MTE1 MTE2 MTE3 FIX) copying the
 *                    32 bytes at UB address RLO to UB address WLO (ptort_tmov)
 *   S SRC DST E / W SRC DST E   set_flag / wait_flag
 *   B PIPE           pipe_barrier (PIPE may be ALL)
 *   O MASK           the in-order pipes (bit p = ptort_pipe p), before the first event
 * Event k (from 1) is located at gen:k:1. */
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

static void out(void *u, const char *s, size_t n)
{
	(void)u;
	fwrite(s, 1, n, stdout);
}

int main(void)
{
	static const uint32_t cap[PTORT_MEM_COUNT] = {65536, 0, 0, 0, 0, 0, 0};
	ptort_ctx *ctx = ptort_ctx_create(cap);
	ptort_sync_findings *f = ptort_sync_findings_create();
	char k[8], a[8], b[8];
	unsigned line = 0, x, y;
	if (!ctx || !f || ptort_sync_check(ctx, 1))
		return 2;
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
			ptort_tmov(ctx, &s, &d, PTORT_NO_CVT, 0);
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
	ptort_sync_finish(ctx, f);
	ptort_sync_findings_write(f, out, NULL);
	ptort_sync_findings_destroy(f);
	ptort_ctx_destroy(ctx);
	return 0;
}
