/* target_rows.h: shorthands for writing the rows of a target's tcvt table
 * (target_a2a3.c, target_a5.c). Only those two files include it. */
#ifndef PTOC_PASSES_TARGET_ROWS_H
#define PTOC_PASSES_TARGET_ROWS_H

#include "target/target.h"

#define M5 PTOC_RMODES_5
#define M5ODD (PTOC_RMODES_5 | PTOC_RMODE_BIT(PTORT_ODD))
/* fp8 destinations: RINT only (NONE resolves to RINT, so it is accepted too) */
#define MRINT (PTOC_RMODE_BIT(PTORT_RINT) | PTOC_RMODE_BIT(PTORT_NONE))
/* HiFloat8 destinations: ROUND and HYBRID */
#define MHIF8 (PTOC_RMODE_BIT(PTORT_ROUND) | PTOC_RMODE_BIT(PTORT_HYBRID))

#define ON PTORT_SAT_ON
#define OFF PTORT_SAT_OFF
#define HON PTOC_SAT_HONOURED
#define FORCED PTOC_SAT_FORCED_ON
#define NA PTOC_SAT_NA

/* a rounding pair: modes, what an explicit sat does, the default sat */
#define RND(f, t, m, rule, def) {PTORT_##f, PTORT_##t, (m), PTOC_CVT_ROUNDING, (rule), (def)}
/* an exact pair: any mode, saturation cannot matter */
#define EXACT(f, t) {PTORT_##f, PTORT_##t, PTOC_RMODES_ANY, PTOC_CVT_EXACT, NA, ON}
/* an integer narrowing: any mode, saturation only */
#define SATONLY(f, t, rule, def) {PTORT_##f, PTORT_##t, PTOC_RMODES_ANY, PTOC_CVT_SAT_ONLY, (rule), (def)}
/* the deq path: any mode (RINT applied), saturation ON */
#define DEQ(f, t, rule) {PTORT_##f, PTORT_##t, PTOC_RMODES_ANY, PTOC_CVT_DEQ, (rule), ON}

#define KIB(n) ((uint32_t)(n) * 1024u)

#endif
