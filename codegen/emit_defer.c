/* emit_defer.c: what emit-c writes for the adversarial schedule (ptort_sync.h,
 * docs/sync-check.md "The adversarial schedule"): which instructions a kernel hands
 * to ptort_sync_defer under it, and for each instruction kind deferred somewhere in
 * the module, three file-scope pieces built from its insns.def row alone:
 *
 *     typedef struct ptoc_K_args { ...the call's arguments... } ptoc_K_args;
 *     static void ptoc_K_run(ptort_ctx *ctx, const void *p);     makes the call
 *     static void ptoc_K_defer(ptort_ctx *ctx, ...the call's arguments...);
 *
 * (K: the call's name without `ptort_`). The arguments are kept by value: integer
 * fields as uint64_t (every one is an integer, enumerator or bit pattern that
 * converts back exactly), tile descriptors as ptort_tile (a flag says whether an
 * optional one was given), a DMA's GM pointer and its ptort_gm_view. emit_c.c writes,
 * at each deferred instruction, `if (ptoc_adv) ptoc_K_defer(ctx, ARGS); else
 * ptort_K(ctx, ARGS);`. */
#include <stdio.h>
#include <string.h>

#include "codegen/emit.h"
#include "ir/pipe.h"

int emit_deferred(const ir_op *op, const struct target *t)
{
	int p;
	if (!ir_insn_get(op->code) || op->num_results || op->code == IR_OP_I_TPRINT ||
	    op->code == IR_OP_I_TPUSH || op->code == IR_OP_I_TPOP)
		return 0; /* tprint prints in program order; FIFOs are cross-core (schedule.c) */
	p = ir_op_pipe(op, t);
	return p > PTORT_PIPE_S && p < PTORT_PIPE_COUNT;
}

typedef struct dscan {
	const struct target *t;
	unsigned char used[IR_OP_COUNT];
	int any;
} dscan;

static int scan_op(ir_op *op, void *user)
{
	dscan *d = user;
	if (emit_deferred(op, d->t)) {
		d->used[op->code] = 1;
		d->any = 1;
	}
	return 0;
}

int emit_func_defers(ir_op *func, const struct target *t)
{
	dscan d;
	memset(&d, 0, sizeof d);
	d.t = t;
	ir_walk(func, scan_op, &d);
	return d.any;
}

static void put_fmt(void (*put)(void *, const char *), void *user, const char *fmt,
		    const char *a, const char *b)
{
	char buf[256];
	snprintf(buf, sizeof buf, fmt, a, b);
	put(user, buf);
}

/* The pieces for one instruction kind. */
static void emit_kind(const ir_insndef *d, void (*put)(void *, const char *), void *user)
{
	const char *k = d->call + strlen("ptort_");
	unsigned i;
	put_fmt(put, user, "\n/* %s under the adversarial schedule: its arguments, kept until its "
		"pipe runs it */\ntypedef struct ptoc_%s_args {\n", d->call, k);
	if (d->fixed)
		put(user, "\tconst void *gm;\n\tptort_gm_view view;\n");
	for (i = 0; i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		if (f->kind != IR_IF_TILE) {
			put_fmt(put, user, "\tuint64_t %s;\n", f->name, "");
		} else {
			put_fmt(put, user, "\tptort_tile %s;\n", f->name, "");
			if (f->req != IR_IF_REQ)
				put_fmt(put, user, "\tint has_%s;\n", f->name, "");
		}
	}
	put_fmt(put, user, "} ptoc_%s_args;\n\n", k, "");
	/* the call */
	put_fmt(put, user, "static void ptoc_%s_run(ptort_ctx *ctx, const void *p)\n{\n", k, "");
	put_fmt(put, user, "\tconst ptoc_%s_args *ptoc_a = p;\n\t%s(ctx", k, d->call);
	if (d->fixed)
		put(user, ", (void *)ptoc_a->gm, &ptoc_a->view");
	for (i = 0; i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		if (f->kind != IR_IF_TILE)
			put_fmt(put, user, ", ptoc_a->%s", f->name, "");
		else if (f->req == IR_IF_REQ)
			put_fmt(put, user, ", &ptoc_a->%s", f->name, "");
		else
			put_fmt(put, user, ", ptoc_a->has_%s ? &ptoc_a->%s : 0", f->name, f->name);
	}
	put(user, ");\n}\n\n");
	/* the deferral */
	put_fmt(put, user, "static void ptoc_%s_defer(ptort_ctx *ctx", k, "");
	if (d->fixed)
		put(user, ", const void *gm, const ptort_gm_view *view");
	for (i = 0; i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		put_fmt(put, user, f->kind == IR_IF_TILE ? ", const ptort_tile *%s" : ", uint64_t %s",
			f->name, "");
	}
	put_fmt(put, user, ")\n{\n\tptoc_%s_args ptoc_a;\n\tmemset(&ptoc_a, 0, sizeof ptoc_a);\n",
		k, "");
	if (d->fixed)
		put(user, "\tptoc_a.gm = gm;\n\tptoc_a.view = *view;\n");
	for (i = 0; i < d->nfields; i++) {
		const ir_ifield *f = &d->fields[i];
		if (f->kind != IR_IF_TILE || f->req == IR_IF_REQ)
			put_fmt(put, user, f->kind == IR_IF_TILE ? "\tptoc_a.%s = *%s;\n" :
				"\tptoc_a.%s = %s;\n", f->name, f->name);
		else {
			char buf[256];
			snprintf(buf, sizeof buf, "\tif (%s)\n\t\tptoc_a.%s = *%s, ptoc_a.has_%s = 1;\n",
				 f->name, f->name, f->name, f->name);
			put(user, buf);
		}
	}
	put_fmt(put, user, "\tptort_sync_defer(ctx, ptoc_%s_run, &ptoc_a, sizeof ptoc_a);\n}\n", k,
		"");
}

void emit_defer_decls(ir_op *module, const struct target *t,
		      void (*put)(void *user, const char *s), void *user)
{
	dscan d;
	unsigned c;
	memset(&d, 0, sizeof d);
	d.t = t;
	ir_walk(module, scan_op, &d);
	for (c = 0; c < IR_OP_COUNT; c++)
		if (d.used[c])
			emit_kind(ir_insn_get((ir_opcode)c), put, user);
}
