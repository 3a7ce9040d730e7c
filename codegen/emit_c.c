/* emit_c.c: the C emitter. Prints a lowered module (level 3, docs/lowered.md) as C99
 * calling libptort (runtime/include/ptort.h), and the `ptoc run` harness (emit_main).
 *
 * It decides nothing: every pto.i.* op becomes one runtime call with the fields the op
 * holds (attributes as literals, `dyn` fields as the C names of their operands), the
 * GM side of a DMA is built from the make_tensor_view / partition_view chain of its
 * operand, arith and scf become plain C, arith.constant values are written as
 * literals where they are used. Every instruction is preceded by a comment with its
 * source line; the C is written to be read (docs/lowered.md "How the C reads": numbers
 * named in comments, layouts by name, the source path once as ptoc_file, `(void)NAME;`
 * only for a variable no statement reads). Values in C (docs/semantics.md §8):
 *   index and integers: int64_t (i1: int);
 *   floats: their bit pattern in a uint64_t (the runtime's scalar form);
 *   !pto.ptr P: `void *P` and `uint64_t P_elems`, the elements its buffer holds (so
 *     the DMA reports accesses beyond the buffer);
 *   !pto.tensor_view and !pto.partition_tensor_view: a ptort_view value (ptort.h
 *     section 3.6: GM pointer and elements, shape, strides, offsets, sizes), so
 *     yielding a view from scf.if / scf.for is an assignment; a DMA takes the
 *     ptort_gm_view that ptort_gm_view_init builds from it.
 * Functions (docs/semantics.md §8.3): no result is `void`, one result (not a
 * !pto.ptr) the C return value, else `struct NAME_results` (r0, r1, ...); func.call
 * never reaches emit-c (the inline pass) and is refused when it does; the harness
 * prints the entry's results (result_print).
 * scf.for results and iter_args share one mutable variable per result; scf.if
 * results are variables assigned by the yields of the branch taken; scf.while is
 * `for (;;)` over its two regions (emit_while).
 *
 * Decisions where the IR is silent: get_block_idx / get_block_num / get_subblock_idx /
 * get_subblock_num read the context (ptort_block_idx(ctx), ...: block 0 of 1 unless
 * the runtime launches many blocks, ptort.h section 7); synchronisation ops are
 * comments; integer arithmetic wraps modulo 2^64 (narrower integer types are computed
 * in 64 bits).
 *
 * The harness (emit_main) is a table of the entry kernel's arguments (name, element
 * bits, GM elements from the constant shapes and strides of its make_tensor_views, 0
 * when dynamic), a trampoline calling the kernel and `return ptort_main(...)`: the
 * command line, the files and the run are the runtime's (ptort.h section 6).
 *
 * The emitter is five files sharing emit_c_impl.h, in layers: this one at the top (the
 * op dispatch, functions, emit_c), emit_c_main.c (the harness) beside it,
 * emit_c_insn.c (pto.i.* instructions, GM views, sync, pointer and mixed ops) and
 * emit_c_scalar.c (arith, scf, func.return) below, which reach the dispatch for the
 * blocks of their regions through em.block, and emit_c_out.c at the bottom (output,
 * C names, constants and types, runtime spellings, source locations). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit_c_impl.h"

/* ---- the op dispatch ------------------------------------------------------------- */

static void emit_op(em *e, ir_op *op)
{
	if (em_is_arith(op->code)) {
		emit_arith(e, op);
		return;
	}
	if (emit_control(e, op))
		return;
	switch (op->code) {
	case IR_OP_CONSTANT: {
		const ir_attr *a = ir_op_get_attr(op, "value");
		uint64_t bits;
		if (op->results[0].type->kind == IR_TYPE_FLOAT) {
			if (ir_float_attr_bits(a, op->results[0].type, &bits))
				em_err(e, op, "float constants of type f64, f32, f16 and bf16 only");
		} else if (!a || (a->kind != IR_ATTR_INT && a->kind != IR_ATTR_BOOL) ||
			   !em_ctype(op->results[0].type)) {
			em_err(e, op, "only integer, index and float constants are supported");
		}
		return;
	}
	case IR_OP_GET_BLOCK_IDX: case IR_OP_GET_SUBBLOCK_IDX:
	case IR_OP_GET_BLOCK_NUM: case IR_OP_GET_SUBBLOCK_NUM:
		if (op->results[0].uses) {
			const char *ty = em_ctype(op->results[0].type);
			const char *n = em_name_value(e, &op->results[0]);
			const char *fn = op->code == IR_OP_GET_BLOCK_IDX ? "ptort_block_idx"
					 : op->code == IR_OP_GET_BLOCK_NUM ? "ptort_block_num"
					 : op->code == IR_OP_GET_SUBBLOCK_IDX ? "ptort_subblock_idx"
									       : "ptort_subblock_num";
			em_ind(e);
			em_pf(e, "const %s %s = (%s)%s(ctx); /* %s */\n", ty ? ty : "int64_t", n,
			   ty ? ty : "int64_t", fn, op->name);
		}
		return;
	case IR_OP_MAKE_TENSOR_VIEW: case IR_OP_PARTITION_VIEW:
		emit_view_op(e, op);
		return;
	case IR_OP_ADDPTR: case IR_OP_LOAD_SCALAR: case IR_OP_STORE_SCALAR:
	case IR_OP_GET_TENSOR_VIEW_DIM:
		emit_ptr_op(e, op);
		return;
	case IR_OP_BUILD_ASYNC_SESSION: case IR_OP_TPUT_ASYNC: case IR_OP_TGET_ASYNC:
	case IR_OP_WAIT_ASYNC_EVENT: case IR_OP_TEST_ASYNC_EVENT:
		emit_async_op(e, op);
		return;
	case IR_OP_SET_FLAG: case IR_OP_WAIT_FLAG: case IR_OP_BARRIER:
	case IR_OP_RECORD_EVENT: case IR_OP_WAIT_EVENT: case IR_OP_BARRIER_SYNC:
	case IR_OP_SET_FLAG_DYN: case IR_OP_WAIT_FLAG_DYN:
	case IR_OP_DECLARE_EVENTID_ARRAY: case IR_OP_EVENTID_ARRAY_GET: case IR_OP_EVENTID_ARRAY_SET:
		emit_sync_op(e, op);
		return;
	case IR_OP_GET_BUF: case IR_OP_RLS_BUF: case IR_OP_SET_FFTS: case IR_OP_TSYNC:
		em_ind(e);
		em_pf(e, "/* %s: no-op on the CPU */\n", op->name);
		return;
	case IR_OP_SYNC_SET: case IR_OP_SYNC_WAIT: case IR_OP_SECTION_CUBE: case IR_OP_SECTION_VECTOR:
	case IR_OP_RESERVE_BUFFER: case IR_OP_IMPORT_RESERVED_BUFFER: case IR_OP_AIC_INITIALIZE_PIPE:
	case IR_OP_AIV_INITIALIZE_PIPE: case IR_OP_INITIALIZE_L2L_PIPE: case IR_OP_INITIALIZE_L2G2L_PIPE:
	case IR_OP_TFREE_FROM_AIC: case IR_OP_TFREE_FROM_AIV: case IR_OP_TFREE: case IR_OP_I_TPUSH:
	case IR_OP_I_TPOP:
		emit_mixed_op(e, op);
		return;
	case IR_OP_TRAP:
		/* a located runtime error; the function stops here (docs/semantics.md §8.5) */
		em_ind(e);
		em_pf(e, "ptort_trap(ctx);");
		em_locate(e, op);
		em_pf(e, " ptort_sync_drain(ctx); return;\n");
		return;
	case IR_OP_CALL:
		em_err(e, op, "'func.call' reached emit-c: calls are inlined by the 'inline' pass "
		    "(the default pipeline's first; docs/semantics.md §8.3)");
		return;
	default:
		break;
	}
	if (!ir_insn_get(op->code)) {
		em_err(e, op, "'%s' is not lowered to level-3 instructions (emit-c needs the default "
		    "pipeline through split-repeats)", op->name);
		return;
	}
	em_loc_comment(e, op);
	emit_insn(e, op, ir_insn_get(op->code));
}

static void emit_block(em *e, ir_block *b)
{
	ir_op *op;
	for (op = b->first; op && !e->errors && !e->werr; op = op->next)
		emit_op(e, op);
}

/* ---- functions ----------------------------------------------------------------------- */

/* Names the arguments and prints "ptort_ctx *ctx, void *a, uint64_t a_elems, ...". */
int emit_params(em *e, ir_op *f)
{
	ir_block *b = f->regions[0].first;
	unsigned i;
	em_ps(e, "ptort_ctx *ctx");
	for (i = 0; b && i < b->num_args; i++) {
		ir_value *v = b->args[i];
		const char *n, *ty = em_ctype(v->type);
		if (!ty) {
			em_err(e, f, "argument %u: unsupported type (!pto.ptr, views, integers, index and "
			    "floats only)", i);
			return -1;
		}
		n = em_name_any(e, v);
		if (v->type->kind == IR_TYPE_PTR) {
			em_ps(e, ", void *");
			em_ps(e, n);
			em_ps(e, ", uint64_t ");
			em_ps(e, n);
			em_ps(e, "_elems");
		} else {
			em_put(e, ", ", 2);
			em_ps(e, ty);
			em_put(e, " ", 1);
			em_ps(e, n);
		}
	}
	return 0;
}

/* Prints the C return type of function `f` (named `name`) and a space; with `decl`,
 * first the typedef of struct NAME_results when it has one (several results or a
 * !pto.ptr: docs/semantics.md §8.3). */
int emit_ret_type(em *e, ir_op *f, const char *name, int decl)
{
	const ir_type *ft = em_fn_type(f);
	unsigned i;
	if (!ft || !ft->u.fn.nout) {
		em_pf(e, "void ");
		return 0;
	}
	for (i = 0; i < ft->u.fn.nout; i++)
		if (!em_ctype(ft->u.fn.out[i])) {
			em_err(e, f, "result %u: unsupported type (!pto.ptr, views, integers, index and "
			    "floats only; tiles are returned only to callers, which inline the call)", i);
			return -1;
		}
	if (em_ret_single(ft)) {
		em_pf(e, "%s ", em_ctype(ft->u.fn.out[0]));
		return 0;
	}
	if (decl) {
		em_pf(e, "typedef struct %s_results {\n", name);
		for (i = 0; i < ft->u.fn.nout; i++) {
			if (ft->u.fn.out[i]->kind == IR_TYPE_PTR)
				em_pf(e, "\tvoid *r%u;\n\tuint64_t r%u_elems;\n", i, i);
			else
				em_pf(e, "\t%s r%u;\n", em_ctype(ft->u.fn.out[i]), i);
		}
		em_pf(e, "} %s_results;\n\n", name);
	}
	em_pf(e, "%s_results ", name);
	return 0;
}

static void emit_func(em *e, ir_op *f)
{
	const char *name;
	ir_block *b = f->regions[0].first;
	unsigned i;
	if (em_check_func_name(e, f, &name))
		return;
	em_names_reset(e);
	em_name_claim(e, ir_intern(e->ctx, name, strlen(name)));
	{
		char rn[128];
		snprintf(rn, sizeof rn, "%s_results", name);
		em_name_claim(e, ir_intern(e->ctx, rn, strlen(rn)));
	}
	em_ps(e, "\nptort_ctx *");
	em_ps(e, name);
	em_ps(e, "_ctx_create(void)\n{\n\treturn ptort_ctx_create(ptoc_capacities);\n}\n\n");
	e->func = f;
	e->fname = name;
	if (emit_ret_type(e, f, name, 1))
		return;
	em_ps(e, name);
	em_put(e, "(", 1);
	if (emit_params(e, f))
		return;
	em_ps(e, ")\n{\n");
	e->indent = 1;
	em_ind(e);
	/* the pipes that execute in program order, for the sync sanitizer and the
	 * adversarial schedule (under it the instruction calls queue themselves) */
	em_pf(e, "ptort_sync_target(ctx, 0x%xu);\n", e->t ? e->t->inorder_pipes : 1u);
	for (i = 0; b && i < b->num_args; i++) {
		/* an argument of N < 64 bits is reduced to them (docs/semantics.md §8.4), which
		 * reads it; else one no statement reads (a pointer's _elems goes with it) */
		if (!em_canon_narrow(e, b->args[i]->type, e->names[b->args[i]->vmark - 1]) &&
		    !em_c_used(b->args[i]))
			em_void(e, b->args[i]);
	}
	if (emit_core_of(f) && !(em_fn_type(f) && em_fn_type(f)->u.fn.nout)) {
		/* a cube or vector function runs on its core only (docs/semantics.md §8.9) */
		em_ind(e);
		em_pf(e, "if (!ptort_core_in(ctx, %s, %d))\n", emit_core_of(f) == 1 ? "PTORT_CORE_CUBE"
		   : "PTORT_CORE_VECTOR", emit_core_of(f) == 2 && emit_vector_only0(f));
		em_ind(e);
		em_pf(e, "\treturn;\n");
	}
	if (b)
		emit_block(e, b);
	e->indent = 0;
	em_ps(e, "}\n");
	em_names_reset(e);
}

void emit_header(em *e, ir_op *module, const char *what)
{
	unsigned l;
	em_pf(e, "/* Generated by ptoc %s: %s for target %s. Do not edit.\n", PTOC_VERSION_STRING, what,
	   e->t->name);
	em_pf(e, " * Memories (bytes):");
	for (l = 0; l < PTOC_LOC_COUNT; l++)
		em_pf(e, " %s %u%s", e->t->mem[l].memory ? e->t->mem[l].memory : "?", e->t->mem[l].capacity,
		   l + 1 < PTOC_LOC_COUNT ? "," : "");
	em_pf(e, "\n * (the runtime's memories have these sizes; placement keeps off the top %u bytes "
	   "of UB in kernels that use it as scratch).\n * Build: cc -std=c99 -I<ptoc>/runtime/include FILE.c libptort.a -lm */\n",
	   e->t->mem[PTOC_LOC_VEC].reserved_top);
	(void)module;
}

unsigned emit_c(ir_ctx *ctx, ir_op *module, const struct target *t, ptoc_write_fn out,
		void *user)
{
	em e;
	ir_op *f;
	unsigned l;
	memset(&e, 0, sizeof e);
	e.ctx = ctx;
	e.t = t;
	e.out = out;
	e.user = user;
	e.block = emit_block;
	emit_header(&e, module, "kernels");
	em_pf(&e, "#include <stdint.h>\n#include <string.h>\n\n#include \"ptort.h\"\n\n");
	em_pf(&e, "static const uint32_t ptoc_capacities[PTORT_MEM_COUNT] = {");
	for (l = 0; l < PTOC_LOC_COUNT && l < PTORT_MEM_COUNT; l++)
		em_pf(&e, "%s%uu", l ? ", " : "", t->mem[l].capacity);
	em_pf(&e, "};\n");
	ir_walk(module, em_collect_file, &e);
	em_put_files(&e);
	for (f = module->regions[0].first ? module->regions[0].first->first : NULL; f && !e.errors;
	     f = f->next) {
		if (f->code == IR_OP_FUNC)
			emit_func(&e, f);
		else
			em_err(&e, f, "'%s' at module level is not supported by emit-c", f->name);
	}
	free(e.names);
	free(e.vals);
	free(e.used);
	return em_finish(&e, module);
}
