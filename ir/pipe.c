/* pipe.c: the pipe each op issues to (docs/semantics.md §8.7) from the pipe column of
 * ops.def / insns.def and the target's move rows, and the pipe pairs a flag may
 * join on each core kind (§8.8). Data and lookups; the rules on sync ops are
 * verify_sync.c's. */
#include <string.h>

#include "ir/ir.h"
#include "ir/pipe.h"
#include "target/target.h"

int ir_pipe_parse(const char *s)
{
	int p;
	if (!s)
		return -1;
	if (!strcmp(s, "PIPE_ALL"))
		return PTORT_PIPE_ALL;
	for (p = 0; p < PTORT_PIPE_COUNT; p++)
		if (!strcmp(s, ptort_pipe_name((ptort_pipe)p)))
			return p;
	return -1;
}

/* PTOAS's pipe_event_type values and the pipe each stands for (record_event,
 * wait_event, barrier_sync). */
static const struct {
	const char *name;
	unsigned char pipe;
} syncop_pipes[] = {
	{"TLOAD", PTORT_PIPE_MTE2},     {"TSTORE_ACC", PTORT_PIPE_FIX},
	{"TSTORE_VEC", PTORT_PIPE_MTE3}, {"TMOV_M2L", PTORT_PIPE_MTE1},
	{"TMOV_M2S", PTORT_PIPE_FIX},   {"TMOV_M2B", PTORT_PIPE_MTE1},
	{"TMOV_M2V", PTORT_PIPE_V},     {"TMOV_V2M", PTORT_PIPE_FIX},
	{"TMATMUL", PTORT_PIPE_M},      {"TVEC", PTORT_PIPE_V},
	{"TVECWAIT_EVENT", PTORT_PIPE_V},
};

int ir_syncop_pipe(const char *s)
{
	size_t i;
	for (i = 0; s && i < sizeof syncop_pipes / sizeof syncop_pipes[0]; i++)
		if (!strcmp(s, syncop_pipes[i].name))
			return syncop_pipes[i].pipe;
	return -1;
}

int ir_attr_pipe(const ir_op *op, const char *name)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	if (!a || a->kind != IR_ATTR_PTO || !a->u.pto.value)
		return -1;
	if (!strcmp(a->u.pto.kind, "pipe"))
		return ir_pipe_parse(a->u.pto.value);
	if (!strcmp(a->u.pto.kind, "pipe_event_type") || !strcmp(a->u.pto.kind, "sync_op_type"))
		return ir_syncop_pipe(a->u.pto.value);
	return -1;
}

int ir_move_pipe(const struct target *t, ir_mem src, ir_mem dst)
{
	size_t i;
	if (src == IR_MEM_NONE || dst == IR_MEM_NONE)
		return -1;
	for (i = 0; i < t->nmoves; i++)
		if (t->moves[i].src == src - IR_MEM_VEC && t->moves[i].dst == dst - IR_MEM_VEC)
			return t->moves[i].pipe;
	return -1;
}

/* The memory of a tile type (IR_MEM_NONE when it is not one or has none yet). */
static ir_mem type_mem(const ir_type *ty)
{
	return ty && (ty->kind == IR_TYPE_TILE_BUF || ty->kind == IR_TYPE_TILE) ? ty->u.tb.mem
										 : IR_MEM_NONE;
}

/* The memory of instruction field `name`: a tile (its type attribute) or `mem`. */
static ir_mem field_mem(const ir_op *op, const char *name)
{
	const ir_attr *a = ir_op_get_attr(op, name);
	ir_mem m;
	if (!a)
		return IR_MEM_NONE;
	if (a->kind == IR_ATTR_TYPE)
		return type_mem(a->u.type);
	if (a->kind == IR_ATTR_PTO && a->u.pto.value &&
	    !ir_mem_parse(a->u.pto.value, strlen(a->u.pto.value), &m))
		return m;
	return IR_MEM_NONE;
}

/* The memories an op reads from and writes to: its first operand and its destination
 * (the last operand in DPS form, else its result); for an instruction its src/dst
 * tile fields (`mem` for the vector instructions). */
static void op_mems(const ir_op *op, ir_mem *src, ir_mem *dst)
{
	const ir_opdef *d = ir_opdef_get(op->code);
	*src = *dst = IR_MEM_NONE;
	if (d->flags & IR_OPF_LEVEL3) {
		*src = field_mem(op, "src");
		*dst = field_mem(op, op->code == IR_OP_I_DMA_STORE || op->code == IR_OP_I_DMA_STORE_Q ||
					     op->code == IR_OP_I_TPUSH ? "src"
								       : "dst");
		if (*dst == IR_MEM_NONE)
			*dst = *src = field_mem(op, "mem");
		return;
	}
	if (op->num_operands)
		*src = type_mem(op->operands[0].value->type);
	if (op->num_results)
		*dst = type_mem(op->results[0].type);
	else if (op->num_operands)
		*dst = type_mem(op->operands[op->num_operands - 1].value->type);
}

int ir_op_pipe(const ir_op *op, const struct target *t)
{
	unsigned rule = IR_OPF_PIPE_RULE(ir_opdef_get(op->code)->flags);
	ir_mem src, dst;
	switch (rule) {
	case IR_PR_S: return PTORT_PIPE_S;
	case IR_PR_V: return PTORT_PIPE_V;
	case IR_PR_M: return PTORT_PIPE_M;
	case IR_PR_MTE2: return PTORT_PIPE_MTE2;
	case IR_PR_VEC:
		op_mems(op, &src, &dst);
		return dst == IR_MEM_MAT ? PTORT_PIPE_MTE2 : PTORT_PIPE_V;
	case IR_PR_MOVE:
		op_mems(op, &src, &dst);
		return t ? ir_move_pipe(t, src, dst) : -1;
	case IR_PR_STORE:
		op_mems(op, &src, &dst);
		return src == IR_MEM_NONE ? -1 : src == IR_MEM_ACC ? PTORT_PIPE_FIX : PTORT_PIPE_MTE3;
	case IR_PR_SYNC:
		switch (op->code) {
		case IR_OP_SET_FLAG: case IR_OP_SET_FLAG_DYN: return ir_attr_pipe(op, "src_pipe");
		case IR_OP_WAIT_FLAG: case IR_OP_WAIT_FLAG_DYN: return ir_attr_pipe(op, "dst_pipe");
		case IR_OP_RECORD_EVENT: return ir_attr_pipe(op, "src_op");
		case IR_OP_WAIT_EVENT: return ir_attr_pipe(op, "dst_op");
		case IR_OP_BARRIER: return ir_attr_pipe(op, "pipe");
		case IR_OP_BARRIER_SYNC: return ir_attr_pipe(op, "op_type");
		default: return -1;
		}
	}
	return -1;
}

const char *ir_pipe_rule_name(unsigned rule)
{
	static const char *const names[IR_PR_COUNT] = {"S", "V", "M", "MTE2", "VEC", "MOVE",
						       "STORE", "SYNC"};
	return rule < IR_PR_COUNT ? names[rule] : "?";
}

/* The flag pairs (src, dst) of each core kind: the hardware's event list, before the
 * target's core pipes filter it (docs/semantics.md §8.8). */
#define P_(a, b) {PTORT_PIPE_##a, PTORT_PIPE_##b}
static const unsigned char vector_pairs[][2] = {
	P_(MTE2, V), P_(V, MTE2), P_(MTE3, V), P_(V, MTE3), P_(V, V), P_(MTE3, MTE2),
	P_(MTE2, MTE3), P_(S, V), P_(V, S), P_(S, MTE2), P_(MTE2, S), P_(S, MTE3), P_(MTE3, S),
};
static const unsigned char cube_pairs[][2] = {
	P_(MTE2, MTE1), P_(MTE1, MTE2), P_(MTE1, M), P_(M, MTE1), P_(MTE3, MTE1), P_(MTE1, MTE3),
	P_(MTE2, M), P_(M, MTE2), P_(M, FIX), P_(FIX, M), P_(MTE3, MTE2), P_(MTE2, MTE3),
	P_(S, MTE2), P_(MTE2, S), P_(S, MTE3), P_(MTE3, S), P_(MTE2, FIX), P_(FIX, MTE2),
	P_(FIX, S), P_(M, S), P_(FIX, MTE3), P_(MTE1, FIX), P_(FIX, MTE1), P_(FIX, FIX),
};
#undef P_

int ir_pipe_pair_valid(const struct target *t, int core, int src, int dst)
{
	size_t i, n = core == IR_CORE_CUBE ? sizeof cube_pairs / sizeof cube_pairs[0]
					   : sizeof vector_pairs / sizeof vector_pairs[0];
	const unsigned char(*pairs)[2] = core == IR_CORE_CUBE ? cube_pairs : vector_pairs;
	unsigned have = core == IR_CORE_CUBE ? t->cube_pipes : t->vector_pipes;
	if (core == IR_CORE_ANY)
		return ir_pipe_pair_valid(t, IR_CORE_VECTOR, src, dst) ||
		       ir_pipe_pair_valid(t, IR_CORE_CUBE, src, dst);
	if (src < 0 || dst < 0 || src >= PTORT_PIPE_COUNT || dst >= PTORT_PIPE_COUNT ||
	    !(have >> src & 1) || !(have >> dst & 1))
		return 0;
	for (i = 0; i < n; i++)
		if (pairs[i][0] == src && pairs[i][1] == dst)
			return 1;
	return 0;
}

int ir_func_core(const ir_op *func)
{
	const ir_attr *a = func ? ir_op_get_attr(func, "pto.kernel_kind") : NULL;
	const char *v = NULL;
	if (!a)
		return IR_CORE_ANY;
	if (a->kind == IR_ATTR_PTO)
		v = a->u.pto.value;
	else if (a->kind == IR_ATTR_OPAQUE)
		v = a->u.opaque.text;
	else if (a->kind == IR_ATTR_STRING)
		v = a->u.str.s;
	if (v && strstr(v, "cube"))
		return IR_CORE_CUBE;
	if (v && strstr(v, "vector"))
		return IR_CORE_VECTOR;
	return IR_CORE_ANY;
}
