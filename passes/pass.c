/* pass.c: the pass table, pipelines and their runner (see pass.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "passes/passes.h"

/* verify: the structural verifier (ir/verify.c) as a pass. Requires nothing,
 * changes nothing. */
unsigned pass_verify(ir_ctx *ctx, ir_op *module, const pass_opts *o)
{
	return ir_verify(ctx, module, o->target);
}

/* The passes of the default pipeline, in its order (passes.h lists the same): each
 * FIRST/NEXT(name, summary, entry point). A pass file adds its row here and its entry
 * point to passes.h; the table and the default pipeline's text are both made from
 * this list. */
#define DEFAULT_PASSES(FIRST, NEXT)                                                        \
	FIRST("inline", "replace every func.call by a copy of its callee's body (on-chip "  \
	      "memories are shared: callee tiles are placed with the caller's)", pass_inline) \
	NEXT("check-cube", "the target's cube rules: operand layouts (A5), addressable "      \
	     "fractal boxes, MX K granule, mmad type triples", pass_check_cube)               \
	NEXT("legalize-cvt", "check every tcvt against the target; resolve rmode and "        \
	     "saturation, the deq path and exact decompositions", pass_legalize_cvt)          \
	NEXT("bufferize", "tile SSA (level 1) to tile buffers in DPS form (level 2)",         \
	     pass_bufferize)                                                                  \
	NEXT("place-tiles", "give every tile buffer a byte address in its memory",            \
	     pass_place_tiles)                                                                \
	NEXT("insert-sync", "set_flag/wait_flag/barrier for every dependence between pipes "  \
	     "(functions without sync ops of their own)", pass_insert_sync)                    \
	NEXT("split-repeats", "lower tile ops to level-3 instructions within the target's "   \
	     "vector limits", pass_split_repeats)                                             \
	NEXT("fuse-dma", "fuse a tload with the whole-tile conversion that alone reads its "  \
	     "tile", pass_fuse_dma)

#define PASS_ROW(name, summary, fn) {name, summary, fn},
#define PASS_NAME_FIRST(name, summary, fn) name
#define PASS_NAME_NEXT(name, summary, fn) "," name

/* The registered passes: verify, then the default pipeline's; ended by a row with
 * name NULL. */
static const pass_info pass_table[] = {
	{"verify", "check the structure, types and per-target op rules", pass_verify},
	DEFAULT_PASSES(PASS_ROW, PASS_ROW)
	{NULL, NULL, NULL},
};

/* The default pipeline: every transforming and checking pass of the table in its order.
 * [decision] No `verify` in it: ptoc_module_compile verifies the input once before any
 * pass (docs/architecture.md "The compile sequence"); verifying between and after the
 * passes is the debugging switch --verify-each (as MLIR's -verify-each). */
static const char default_text[] = DEFAULT_PASSES(PASS_NAME_FIRST, PASS_NAME_NEXT);

const char *ptoc_default_pipeline(void)
{
	return default_text;
}

int ptoc_pipeline_check(const char *text, char *err, size_t errcap)
{
	pipeline p;
	return pipeline_parse(&p, text, err, errcap);
}

int ptoc_pass_info(size_t i, const char **name, const char **summary)
{
	if (i >= sizeof pass_table / sizeof pass_table[0] - 1)
		return -1;
	*name = pass_table[i].name;
	*summary = pass_table[i].summary;
	return 0;
}

/* The pass called `name` (len bytes), or NULL. */
static const pass_info *pass_lookup(const char *name, size_t len)
{
	const pass_info *p;
	for (p = pass_table; p->name; p++)
		if (strlen(p->name) == len && !memcmp(p->name, name, len))
			return p;
	return NULL;
}

const struct target *target_resolve(ir_ctx *ctx, const ir_op *module,
				    const struct target *chosen)
{
	const ir_attr *a = ir_op_get_attr(module, "pto.target_arch");
	const struct target *t = NULL;
	char names[128];
	if (a) {
		ptoc_target_spellings(names, sizeof names);
		if (a->kind != IR_ATTR_STRING) {
			ir_error(ctx, module->loc, "pto.target_arch must be a string naming a "
				 "target (%s)", names);
			return NULL;
		}
		t = target_lookup(a->u.str.s, a->u.str.len);
		if (!t) {
			char shown[68];
			size_t i, n = a->u.str.len > 64 ? 64 : a->u.str.len;
			for (i = 0; i < n; i++) /* control bytes and non-ASCII shown as '?' */
				shown[i] = a->u.str.s[i] >= ' ' && a->u.str.s[i] <= '~' ? a->u.str.s[i] : '?';
			memcpy(shown + n, a->u.str.len > n ? "..." : "", a->u.str.len > n ? 4 : 1);
			ir_error(ctx, module->loc, "unknown target '%s' in pto.target_arch (%s)",
				 shown, names);
			return NULL;
		}
	}
	/* PTOAS's A5 device specs name the target when pto.target_arch does not
	 * (docs/architecture.md "Who decides the target") */
	if (!a && (a = ir_op_get_attr(module, "pto.device-spec")) && a->kind == IR_ATTR_STRING &&
	    ((a->u.str.len >= 9 && !memcmp(a->u.str.s, "Ascend950", 9)) ||
	     (a->u.str.len >= 12 && !memcmp(a->u.str.s, "Ascend910_95", 12))))
		t = &target_a5;
	return chosen ? chosen : t ? t : TARGET_DEFAULT;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int pipeline_parse(pipeline *p, const char *text, char *err, size_t errcap)
{
	const char *s0 = text ? text : default_text, *s = s0;
	p->n = 0;
	while (is_space(*s))
		s++;
	if (!*s)
		return 0;
	for (;;) {
		const char *b, *e;
		const pass_info *pi;
		while (is_space(*s))
			s++;
		b = s;
		while (*s && *s != ',')
			s++;
		e = s;
		while (e > b && is_space(e[-1]))
			e--;
		if (e == b) {
			snprintf(err, errcap, "empty pass name in pipeline '%s'", s0);
			return -1;
		}
		pi = pass_lookup(b, (size_t)(e - b));
		if (!pi) {
			const pass_info *q;
			size_t off = (size_t)snprintf(err, errcap, "unknown pass '%.*s' (passes:",
						      (int)(e - b), b);
			for (q = pass_table; q->name && off < errcap; q++)
				off += (size_t)snprintf(err + off, errcap - off, " %s", q->name);
			if (off < errcap)
				snprintf(err + off, errcap - off, ")");
			return -1;
		}
		if (p->n == PIPELINE_MAX) {
			snprintf(err, errcap, "more than %d passes in a pipeline", PIPELINE_MAX);
			return -1;
		}
		p->pass[p->n++] = pi;
		if (!*s)
			return 0;
		s++;
	}
}

static int dump_after(ir_ctx *ctx, ir_op *module, const char *name, const struct target *t,
		      const pipeline_run_opts *ro)
{
	char head[128];
	ir_printer_opts po = {(ro->dump_form & ~PTOC_PRINT_LOCATIONS) == PTOC_PRINT_GENERIC,
			      (ro->dump_form & PTOC_PRINT_LOCATIONS) != 0, t};
	int n = snprintf(head, sizeof head, "// -----// IR Dump After %s //----- //\n", name);
	if (ro->dump(ro->dump_user, head, (size_t)n))
		return -1;
	return ir_print_op(ctx, module, &po, ro->dump, ro->dump_user);
}

unsigned pipeline_run(ir_ctx *ctx, ir_op *module, const pipeline *p, const struct target *t,
		      const char *remarks, const pipeline_run_opts *ro)
{
	pass_opts o;
	unsigned i, errs;
	o.target = t;
	o.remarks = remarks;
	for (i = 0; i < p->n; i++) {
		errs = p->pass[i]->run(ctx, module, &o);
		/* insert-sync's syncs are the target's (barriers where its pipes are not in
		 * order), as are the placed addresses: the module names it, so that its text
		 * reads back for the same target when its own attributes would choose another
		 * (docs/sync.md, "Which target") */
		if (!errs && p->pass[i]->run == pass_insert_sync && t &&
		    target_resolve(ctx, module, NULL) != t)
			ir_op_set_attr(ctx, module, "pto.target_arch",
				       ir_attr_string(ctx, t->name, strlen(t->name)));
		if (!errs && ro && ro->verify_each && p->pass[i]->run != pass_verify)
			errs = ir_verify(ctx, module, t);
		if (ro && ro->dump)
			dump_after(ctx, module, p->pass[i]->name, t, ro);
		if (errs)
			return errs;
	}
	return 0;
}
