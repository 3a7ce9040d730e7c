/* target.h: the target descriptions (one data table per target), the one function
 * that decides which target a module is compiled for, and the legality queries over
 * the tables.
 *
 * A target is data: `struct target` below, one instance per target file
 * (target_a2a3.c, target_a5.c), listed once in target_list (legality.c). Nothing
 * else in the compiler may know a target: the verifier (ir/verify.c), every pass and
 * the emitter receive the resolved `const struct target *` (target_resolve) and read
 * its fields or ask these queries; none tests a target's name or id. A third target
 * is one more table (its file, its extern below, its row of target_list and, when
 * public, a ptoc_target value); test/unit/target/test_third_target.c runs the
 * verifier, the passes and the emitter on a table written only in the test.
 *
 * The queries take a `const struct target *` so that tests can run them on a
 * hand-made table; the public API takes a ptoc_target and looks the table up. This
 * header is data and queries only (no IR), so ir/verify.c may read it. */
#ifndef PTOC_TARGET_TARGET_H
#define PTOC_TARGET_TARGET_H

#include <stddef.h>

#include "ptoc/legality.h"

struct target {
	ptoc_target id;
	const char *name;          /* as printed; also accepted by target_lookup */
	const char *title;         /* in prose messages: "A2/A3", "A5" */
	const char *const *aliases; /* other names target_lookup accepts, NULL-ended */
	const ptoc_cvt_rule *cvt; /* native tcvt pairs, docs/semantics.md §4 order */
	size_t ncvt;
	ptoc_mem_info mem[PTOC_LOC_COUNT];
	ptoc_vec_limits vec;
	ptoc_cube_limits cube;     /* m/k/n range, layouts, mmad type triples */
	const ptoc_tmov_pair *tmov; /* the tmov memory pairs */
	size_t ntmov;
	/* textract (docs/semantics.md §7.8): its memory pairs (reshape unused) and the
	 * element types it takes (bit t: ptort_type t) */
	const ptoc_tmov_pair *extract;
	size_t nextract;
	uint32_t extract_types;
	/* The element types of each vector op, by row of vec_types.def (bit t: ptort_type
	 * t is taken; a row past nvec takes nothing), and whether tcmp of i32 has only
	 * eq and ne (docs/semantics.md §7.7). */
	const uint32_t *vec_types;
	size_t nvec;
	int vec_cmp_i32_eq_only;
	/* Pipes (docs/semantics.md §8.7-§8.8), bit p: ptort_pipe p. The pipes of a vector
	 * and of a cube core; those that execute in program order (a later instruction
	 * of the pipe never overtakes an earlier one); those whose pipe_barrier orders
	 * something. The pipe of each move between on-chip memories (tmov, textract):
	 * the rows of `moves`. */
	unsigned vector_pipes, cube_pipes, inorder_pipes, barrier_pipes;
	const struct target_move *moves;
	size_t nmoves;
};

/* The pipe a move from on-chip memory `src` to `dst` issues to (ptoc_loc, ptoc_loc,
 * ptort_pipe). */
struct target_move {
	unsigned char src, dst, pipe;
};

/* target_a2a3.c, target_a5.c */
extern const struct target target_a2a3;
extern const struct target target_a5;

/* legality.c */
/* The default target (a2a3) when neither the command line nor the module names one. */
#define TARGET_DEFAULT (&target_a2a3)
/* The table of a target id; NULL when out of range. */
const struct target *target_get(ptoc_target id);
/* The spelling rule (docs/targets.md): `s` (len bytes) is a target's name or one of
 * its aliases, compared without case ("a2a3", "a3", "a2", "A5", ...). NULL when it
 * names no target. */
const struct target *target_lookup(const char *s, size_t len);
/* The names target_lookup accepts: ptoc_target_spellings (legality.h). */
/* The tmov row of `src -> dst`, or NULL when the target cannot move between those
 * memories. */
const ptoc_tmov_pair *target_find_tmov(const struct target *t, ptoc_loc src, ptoc_loc dst);
/* Whether textract may move from `src` to `dst` on the target. */
int target_has_extract(const struct target *t, ptoc_loc src, ptoc_loc dst);
/* The element types (bit t: ptort_type t) vector op `row` of vec_types.def takes. */
uint32_t target_vec_types(const struct target *t, size_t row);
/* Whether the target's mmad takes A x B -> C (mx: the MX form). */
int target_has_mmad(const struct target *t, ptort_type a, ptort_type b, ptort_type c, int mx);
/* ptoc_cvt_query on a table: a native rule, else the decomposition (legality.c,
 * target_cvt_chain). */
ptoc_cvt_verdict target_cvt_query(const struct target *t, ptort_type from, ptort_type to,
				  ptort_rmode rm, ptoc_sat_request sat, ptoc_cvt_result *out);
/* Reason / warnings of a result computed on table `t`. */
size_t target_cvt_reason(const struct target *t, const ptoc_cvt_result *r, char *buf,
			 size_t cap);
unsigned target_cvt_warnings(const struct target *t, const ptoc_cvt_result *r,
			     ptoc_msg_fn fn, void *user);

#endif
