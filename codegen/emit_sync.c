/* emit_sync.c: what the generated C calls for each sync op (docs/semantics.md §8.7-§8.8,
 * docs/runtime.md "Sync calls"): set_flag, wait_flag and barrier and PTOAS's other
 * spellings of them (record_event, wait_event, barrier_sync, the _dyn forms) become
 * ptort_sync_set / _wait / _barrier with their pipes, so that the sync plan of the
 * device build reads in the C. emit_c.c prints the call; this file decides it. */
#include <stdio.h>
#include <string.h>

#include "codegen/emit.h"
#include "ir/pipe.h"

int emit_sync_of(const ir_op *op, emit_sync *s)
{
	const ir_attr *ev;
	int flag = 1;
	memset(s, 0, sizeof *s);
	s->event = -1;
	switch (op->code) {
	case IR_OP_SET_FLAG: case IR_OP_SET_FLAG_DYN:
		s->call = "ptort_sync_set";
		s->src = ir_attr_pipe(op, "src_pipe"), s->dst = ir_attr_pipe(op, "dst_pipe");
		break;
	case IR_OP_WAIT_FLAG: case IR_OP_WAIT_FLAG_DYN:
		s->call = "ptort_sync_wait";
		s->src = ir_attr_pipe(op, "src_pipe"), s->dst = ir_attr_pipe(op, "dst_pipe");
		break;
	case IR_OP_RECORD_EVENT:
		s->call = "ptort_sync_set";
		s->src = ir_attr_pipe(op, "src_op"), s->dst = ir_attr_pipe(op, "dst_op");
		break;
	case IR_OP_WAIT_EVENT:
		s->call = "ptort_sync_wait";
		s->src = ir_attr_pipe(op, "src_op"), s->dst = ir_attr_pipe(op, "dst_op");
		break;
	case IR_OP_BARRIER: case IR_OP_BARRIER_SYNC:
		s->call = "ptort_sync_barrier";
		s->src = s->dst = ir_attr_pipe(op, op->code == IR_OP_BARRIER ? "pipe" : "op_type");
		flag = 0;
		break;
	default:
		return -1; /* cross-core flags, buffer ids: a comment (§8.5) */
	}
	if (s->src < 0 || s->dst < 0)
		return -1;
	s->dyn = op->code == IR_OP_SET_FLAG_DYN || op->code == IR_OP_WAIT_FLAG_DYN;
	if (flag && !s->dyn) {
		ev = ir_op_get_attr(op, "event_id");
		if (!ev || ev->kind != IR_ATTR_PTO || sscanf(ev->u.pto.value, "EVENT_ID%d", &flag) != 1)
			return -1;
		s->event = flag;
	}
	if (s->src == s->dst && !strcmp(s->call, "ptort_sync_barrier"))
		snprintf(s->what, sizeof s->what, "pipe_barrier(%s)",
			 ptort_pipe_name((ptort_pipe)s->src));
	else if (s->dyn)
		snprintf(s->what, sizeof s->what, "%s(%s, %s, id)",
			 s->call[11] == 's' ? "set_flag" : "wait_flag",
			 ptort_pipe_name((ptort_pipe)s->src), ptort_pipe_name((ptort_pipe)s->dst));
	else
		snprintf(s->what, sizeof s->what, "%s(%s, %s, EVENT_ID%lld)",
			 s->call[11] == 's' ? "set_flag" : "wait_flag",
			 ptort_pipe_name((ptort_pipe)s->src), ptort_pipe_name((ptort_pipe)s->dst),
			 (long long)s->event);
	return 0;
}
