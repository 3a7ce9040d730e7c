/* target.h: the target descriptions (one data table per target) and the legality
 * queries over them, for the passes and the driver.
 *
 * A target is data: `struct target` below, one instance per target file
 * (target_a2a3.c, target_a5.c). Nothing else in the compiler may know a target:
 * passes ask these queries (or the public ptoc_* functions of
 * include/ptoc/legality.h, which wrap them) and never test a target's name.
 *
 * The queries take a `const struct target *` so that tests can run them on a
 * hand-made table; the public API takes a ptoc_target and looks the table up. */
#ifndef PTOC_PASSES_TARGET_H
#define PTOC_PASSES_TARGET_H

#include <stddef.h>

#include "ptoc/legality.h"

struct target {
	ptoc_target id;
	const char *name;
	const ptoc_cvt_rule *cvt; /* native tcvt pairs, docs/semantics.md §4 order */
	size_t ncvt;
	ptoc_mem_info mem[PTOC_LOC_COUNT];
	ptoc_vec_limits vec;
	ptoc_cube_limits cube;
};

/* target_a2a3.c, target_a5.c */
extern const struct target target_a2a3;
extern const struct target target_a5;

/* legality.c */
/* The table of a target id; NULL when out of range. */
const struct target *target_get(ptoc_target id);
/* The native rule of `from -> to`, or NULL. */
const ptoc_cvt_rule *target_find_cvt(const struct target *t, ptort_type from, ptort_type to);
/* The decomposition of a pair without a native rule: the shortest chain of native
 * steps from `from` to `to` whose steps before the last are exact for every value
 * (proved with ptort_cvt_is_exact), the last step any native rule. Ties between
 * chains of the same length go to the chain whose intermediate types come first in
 * ptort_type order (so f32 is preferred). Fills chain[0..*nsteps]; returns 0, or -1
 * when there is none (or from == to). Independent of the round mode. */
int target_cvt_chain(const struct target *t, ptort_type from, ptort_type to,
		     ptort_type chain[PTOC_CVT_MAX_STEPS + 1], unsigned *nsteps);
/* ptoc_cvt_query on a table. */
ptoc_cvt_verdict target_cvt_query(const struct target *t, ptort_type from, ptort_type to,
				  ptort_rmode rm, ptoc_sat_request sat, ptoc_cvt_result *out);
/* Reason / warnings of a result computed on table `t`. */
size_t target_cvt_reason(const struct target *t, const ptoc_cvt_result *r, char *buf,
			 size_t cap);
unsigned target_cvt_warnings(const struct target *t, const ptoc_cvt_result *r,
			     ptoc_msg_fn fn, void *user);

#endif
