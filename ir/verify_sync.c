/* verify_sync.c: the verifier's rules on the sync ops (docs/semantics.md §8.8): event
 * ids in [0, 8), PIPE_ALL never a flag's end, the pipe pair a flag joins present on
 * the kernel's core kind (pto.kernel_kind) of the target, no barrier of PIPE_S, a
 * warning for a barrier of a pipe that executes in order, the event-id arrays. Called
 * by verify.c for each op of its pipe column SYNC and the event-id array ops; the
 * attribute kinds themselves are checked there (ops.def ATTR rows). */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/pipe.h"
#include "target/target.h"

static unsigned sync_error(ir_ctx *ctx, const ir_op *op, const char *fmt, const char *a,
			   const char *b, const char *c)
{
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a, b, c);
	ir_error(ctx, op->loc, "'%s' op %s", op->name, msg);
	return 1;
}

/* The func.func around `op`, or NULL. */
static const ir_op *enclosing_func(const ir_op *op)
{
	while (op && op->block && op->block->region) {
		op = op->block->region->parent;
		if (op && op->code == IR_OP_FUNC)
			return op;
	}
	return NULL;
}

static const char *core_name(int core)
{
	return core == IR_CORE_CUBE ? "cube" : core == IR_CORE_VECTOR ? "vector" : "any";
}

/* A #pto.pipe attribute `name` PTOAS spells but no core of ptoc's targets has
 * (PIPE_MTE4, PIPE_V2, ...): 1 after reporting it. */
static unsigned foreign_pipe(ir_ctx *ctx, const ir_op *op, const struct target *t,
			     const char *name)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_PTO || strcmp(a->u.pto.kind, "pipe") ||
	    ir_pipe_parse(a->u.pto.value) >= 0)
		return 0;
	return sync_error(ctx, op, "has no pipe %s on %s (pipes: PIPE_S, PIPE_V, PIPE_M, "
			  "PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, and PIPE_ALL for a barrier)%s",
			  a->u.pto.value, t->name, "");
}

/* A flag from `src` to `dst` (pipes; -1 unknown, reported by the attribute check). */
static unsigned check_pair(ir_ctx *ctx, const ir_op *op, const struct target *t, int src,
			   int dst)
{
	int core;
	char pairs[400];
	size_t n = 0;
	int a, b;
	if (src < 0 || dst < 0)
		return 0;
	if (src == PTORT_PIPE_ALL || dst == PTORT_PIPE_ALL)
		return sync_error(ctx, op, "cannot use PIPE_ALL as the %s pipe of a flag (a flag "
				  "joins two pipes; pto.barrier <PIPE_ALL> orders them all)%s%s",
				  src == PTORT_PIPE_ALL ? "source" : "destination", "", "");
	core = ir_func_core(enclosing_func(op));
	if (ir_pipe_pair_valid(t, core, src, dst))
		return 0;
	pairs[0] = 0;
	for (a = 0; a < PTORT_PIPE_COUNT; a++)
		for (b = 0; b < PTORT_PIPE_COUNT; b++)
			if (a == src && ir_pipe_pair_valid(t, core, a, b))
				n += (size_t)snprintf(pairs + n, n < sizeof pairs ? sizeof pairs - n : 0,
						      "%s%s", n ? ", " : "", ptort_pipe_name((ptort_pipe)b));
	{
		char what[128];
		snprintf(what, sizeof what, "%s -> %s", ptort_pipe_name((ptort_pipe)src),
			 ptort_pipe_name((ptort_pipe)dst));
		ir_error(ctx, op->loc, "'%s' op has no flag %s on a %s core of %s (pto.kernel_kind "
			 "%s); from %s it may signal: %s", op->name, what,
			 core == IR_CORE_ANY ? "vector or cube" : core_name(core), t->name,
			 core_name(core), ptort_pipe_name((ptort_pipe)src), n ? pairs : "no pipe");
	}
	return 1;
}

static unsigned check_barrier(ir_ctx *ctx, const ir_op *op, const struct target *t, int p)
{
	if (p < 0)
		return 0;
	if (p == PTORT_PIPE_ALL)
		return 0;
	if (p == PTORT_PIPE_S)
		return sync_error(ctx, op, "cannot take a barrier of PIPE_S: the scalar unit "
				  "executes in order (a pipe_barrier(PIPE_S) is a hardware error)%s%s%s",
				  "", "", "");
	if (!((t->vector_pipes | t->cube_pipes) >> p & 1))
		return sync_error(ctx, op, "has no pipe %s on %s%s", ptort_pipe_name((ptort_pipe)p),
				  t->name, "");
	if (!(t->barrier_pipes >> p & 1))
		ir_warning(ctx, op->loc, "'%s' op: %s executes in order on %s, so this barrier "
			   "orders nothing", op->name, ptort_pipe_name((ptort_pipe)p), t->name);
	return 0;
}

/* `!pto.eventid_array<N>`: N (>= 1), or 0 when the type is not one. */
static int64_t evarr_size(const ir_type *ty)
{
	long long n;
	char end;
	if (!ty || ty->kind != IR_TYPE_OPAQUE ||
	    sscanf(ty->u.opaque.text, "!pto.eventid_array<%lld%c", &n, &end) != 2 || end != '>' ||
	    n < 1)
		return 0;
	return n;
}

static unsigned check_evarr(ir_ctx *ctx, const ir_op *op)
{
	const ir_type *ty = op->code == IR_OP_DECLARE_EVENTID_ARRAY
				    ? (op->num_results ? op->results[0].type : NULL)
				    : (op->num_operands ? op->operands[0].value->type : NULL);
	int64_t n = evarr_size(ty), k;
	char buf[64];
	if (!n)
		return sync_error(ctx, op, "expects an event-id array of type "
				  "!pto.eventid_array<N> (N >= 1)%s%s%s", "", "", "");
	if (op->num_operands >= 2 && ir_value_const_int(op->operands[1].value, &k) && (k < 0 || k >= n)) {
		snprintf(buf, sizeof buf, "%lld", (long long)k);
		return sync_error(ctx, op, "index %s is outside the array's %s elements%s", buf,
				  ty->u.opaque.text, "");
	}
	if (op->num_operands == 3 && ir_value_const_int(op->operands[2].value, &k) &&
	    (k < 0 || k >= PTORT_EVENT_IDS)) {
		snprintf(buf, sizeof buf, "%lld", (long long)k);
		return sync_error(ctx, op, "stores event id %s, outside [0, 8)%s%s", buf, "", "");
	}
	return 0;
}

unsigned ir_verify_sync(ir_ctx *ctx, const ir_op *op, const struct target *t)
{
	int64_t k;
	char buf[32];
	unsigned bad = foreign_pipe(ctx, op, t, "src_pipe") + foreign_pipe(ctx, op, t, "dst_pipe") +
		       foreign_pipe(ctx, op, t, "pipe");
	if (bad)
		return bad;
	switch (op->code) {
	case IR_OP_SET_FLAG: case IR_OP_WAIT_FLAG:
	case IR_OP_RECORD_EVENT: case IR_OP_WAIT_EVENT: {
		int ev = op->code == IR_OP_SET_FLAG || op->code == IR_OP_WAIT_FLAG;
		return check_pair(ctx, op, t, ir_attr_pipe(op, ev ? "src_pipe" : "src_op"),
				  ir_attr_pipe(op, ev ? "dst_pipe" : "dst_op"));
	}
	case IR_OP_SET_FLAG_DYN: case IR_OP_WAIT_FLAG_DYN:
		if (op->num_operands == 1 && ir_value_const_int(op->operands[0].value, &k) &&
		    (k < 0 || k >= PTORT_EVENT_IDS)) {
			snprintf(buf, sizeof buf, "%lld", (long long)k);
			return sync_error(ctx, op, "has event id %s, outside [0, 8)%s%s", buf, "", "");
		}
		return check_pair(ctx, op, t, ir_attr_pipe(op, "src_pipe"),
				  ir_attr_pipe(op, "dst_pipe"));
	case IR_OP_BARRIER:
		return check_barrier(ctx, op, t, ir_attr_pipe(op, "pipe"));
	case IR_OP_BARRIER_SYNC:
		return check_barrier(ctx, op, t, ir_attr_pipe(op, "op_type"));
	case IR_OP_DECLARE_EVENTID_ARRAY: case IR_OP_EVENTID_ARRAY_GET:
	case IR_OP_EVENTID_ARRAY_SET:
		return check_evarr(ctx, op);
	default:
		return 0;
	}
}
