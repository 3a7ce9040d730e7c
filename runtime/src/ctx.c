/* ctx.c: ptort_ctx_create (ptort.h section 3): a context of mem.c with what the
 * environment turns on, the sync sanitizer (PTORT_SYNC_CHECK=1, sanitize.c) and the
 * adversarial schedule (PTORT_SYNC_SCHEDULE=adversarial, schedule.c). Above both: mem.c
 * calls neither (docs/architecture.md, "Layers"). */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"
#include "ptort.h"

ptort_ctx *ptort_ctx_create(const uint32_t capacity[PTORT_MEM_COUNT])
{
	ptort_ctx *ctx = ptort_ctx_new(capacity);
	const char *sc;
	if (!ctx)
		return NULL;
	/* PTORT_SYNC_CHECK=1: the sync sanitizer (ptort_sync.h) */
	sc = getenv("PTORT_SYNC_CHECK");
	if (sc && !strcmp(sc, "1") && ptort_sync_check(ctx, 1)) {
		ptort_ctx_destroy(ctx);
		return NULL;
	}
	/* PTORT_SYNC_SCHEDULE=adversarial: the adversarial schedule (schedule.c) */
	sc = getenv("PTORT_SYNC_SCHEDULE");
	if (sc && !strcmp(sc, "adversarial") && ptort_sync_schedule(ctx, 1)) {
		ptort_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}
