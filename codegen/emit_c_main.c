/* emit_c_main.c: the `ptoc run` harness (emit_main) and emit_find_entry. See the file
 * comment of emit_c.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit_c_impl.h"

/* ---- the harness ------------------------------------------------------------------- */

ir_op *emit_find_entry(ir_ctx *ctx, ir_op *module, const char *entry, ir_op **peer)
{
	ir_op *f, *only = NULL, *marked = NULL, *cube = NULL;
	unsigned nf = 0, nm = 0;
	*peer = NULL;
	for (f = module->regions[0].first ? module->regions[0].first->first : NULL; f; f = f->next) {
		const char *n;
		if (f->code != IR_OP_FUNC)
			continue;
		n = em_func_name(f);
		if (entry && n && !strcmp(n, entry))
			return f;
		nf++;
		only = f;
		if (ir_op_get_attr(f, "pto.entry")) {
			nm++;
			marked = f;
		}
	}
	if (entry) {
		ir_error(ctx, module->loc, "no function named '%s' in the module", entry);
		return NULL;
	}
	if (nm == 1)
		return marked;
	if (nf == 1)
		return only;
	if (!nm && nf && (*peer = emit_cluster_pair(module, &cube))) {
		/* a cube and a vector function: one cluster (semantics.md §8.9); the kernel's
		 * arguments are the cube function's, or the vector one's when the cube takes none */
		const ir_block *bc = cube->regions[0].first, *bv = (*peer)->regions[0].first;
		if (!bc->num_args && bv->num_args) {
			f = *peer;
			*peer = cube;
			return f;
		}
		return cube;
	}
	ir_error(ctx, module->loc, "%s: choose the kernel with --entry NAME",
		 nf ? "several functions could be the entry" : "the module has no function");
	return NULL;
}

/* Elements of a ptr argument's GM buffer from its views' constant shapes and strides:
 * the largest element index + 1; 0 when some view is dynamic (or none exists). */
/* A view argument (a strided GM memref: frontend/memref.c) of a static shape: the
 * harness passes it a buffer of its own. [decision] The buffer is dense, row-major:
 * the memref's `?` strides and offset are the caller's to choose, and a dense buffer
 * is what `--in ARG=FILE` and a .npy file hold (docs/runtime.md). */
static int view_arg(const ir_value *arg)
{
	const ir_type *t = arg->type;
	unsigned d;
	if (t->kind != IR_TYPE_PART_VIEW || !t->u.shaped.rank || t->u.shaped.rank > 8)
		return 0;
	for (d = 0; d < t->u.shaped.rank; d++)
		if (t->u.shaped.dims[d] < 1)
			return 0;
	return 1;
}

static uint64_t view_elems(const ir_value *arg)
{
	uint64_t n = 1;
	unsigned d;
	for (d = 0; d < arg->type->u.shaped.rank; d++)
		n *= (uint64_t)arg->type->u.shaped.dims[d];
	return n;
}

/* The call's argument i: a buffer and its elements, the dense view of a buffer, or a
 * scalar. */
static void call_arg(em *e, const ir_value *arg, unsigned i)
{
	unsigned d, r;
	int64_t st = 1;
	if (arg->type->kind == IR_TYPE_PTR) {
		em_pf(e, ", ptoc_b[%u], ptoc_e[%u]", i, i);
		return;
	}
	if (!view_arg(arg)) {
		em_pf(e, ", ptoc_s[%u]", i);
		return;
	}
	r = arg->type->u.shaped.rank;
	em_pf(e, ", ptort_view_tensor(ptoc_b[%u], ptoc_e[%u], %u, (const int64_t[]){", i, i, r);
	for (d = 0; d < r; d++)
		em_pf(e, "%s%lld", d ? ", " : "", (long long)arg->type->u.shaped.dims[d]);
	em_pf(e, "}, (const int64_t[]){");
	for (d = 0; d < r; d++) {
		unsigned k;
		for (st = 1, k = d + 1; k < r; k++)
			st *= arg->type->u.shaped.dims[k];
		em_pf(e, "%s%lld", d ? ", " : "", (long long)st);
	}
	em_pf(e, "})");
}

static uint64_t arg_elems(const ir_value *arg)
{
	const ir_operand *u;
	uint64_t best = 0;
	for (u = arg->uses; u; u = u->next_use) {
		const ir_op *m = u->owner;
		unsigned rank, d;
		uint64_t last = 0;
		int64_t off;
		if ((m->code == IR_OP_ADDPTR || m->code == IR_OP_LOAD_SCALAR ||
		     m->code == IR_OP_STORE_SCALAR) && u == &m->operands[0]) {
			/* a constant offset: the elements from there (an addptr's own uses), else
			 * unknown (docs/semantics.md §8.6) */
			uint64_t sub = 1;
			if (!em_const_int(m->operands[1].value, &off) || off < 0 || off > (1LL << 40))
				return 0;
			if (m->code == IR_OP_ADDPTR && !(sub = arg_elems(&m->results[0])))
				return 0;
			if ((uint64_t)off + sub > best)
				best = (uint64_t)off + sub;
			continue;
		}
		if (m->code != IR_OP_MAKE_TENSOR_VIEW || u != &m->operands[0])
			continue;
		rank = m->results[0].type->u.shaped.rank;
		if (m->num_operands != 1 + 2 * rank)
			return 0;
		for (d = 0; d < rank; d++) {
			int64_t sh, st;
			if (!em_const_int(m->operands[1 + d].value, &sh) ||
			    !em_const_int(m->operands[1 + rank + d].value, &st) || sh < 0 || st < 0 ||
			    sh > (1LL << 32) || st > (1LL << 32))
				return 0;
			if (sh == 0)
				return 0;
			last += (uint64_t)(sh - 1) * (uint64_t)st;
		}
		if (last + 1 > best)
			best = last + 1;
	}
	return best;
}

/* Result #i (type t, C expression x) of the entry as ptort_print_value's call
 * (docs/runtime.md "Results"): "result #I TYPE VALUE", integers sign-extended from
 * their width (unsigned types zero-extended, i1 0 or 1), index as i64, f32/f16/bf16
 * as tprint writes them. With x NULL, only checks that the type prints (else reports
 * and returns 0). */
static int result_print(em *e, const ir_op *func, unsigned i, const ir_type *t, const char *x)
{
	char tn[96];
	const char *rt = NULL;
	char val[160];
	ptort_type et;
	ir_type_str(t, tn, sizeof tn);
	if (t->kind == IR_TYPE_INDEX || (t->kind == IR_TYPE_INT && t->u.i.bits == 64)) {
		rt = t->kind == IR_TYPE_INT && t->u.i.signedness == IR_INT_UNSIGNED ? "PTORT_U64" : "PTORT_I64";
		snprintf(val, sizeof val, "(uint64_t)%s", x ? x : "");
	} else if (t->kind == IR_TYPE_INT && t->u.i.bits == 1) {
		rt = "PTORT_U8";
		snprintf(val, sizeof val, "(uint64_t)(%s != 0)", x ? x : "");
	} else if (t->kind == IR_TYPE_INT && t->u.i.bits < 64) {
		unsigned sh = 64 - t->u.i.bits;
		if (t->u.i.signedness == IR_INT_UNSIGNED) {
			rt = "PTORT_U64";
			snprintf(val, sizeof val, "((uint64_t)%s << %u >> %u)", x ? x : "", sh, sh);
		} else {
			rt = "PTORT_I64";
			snprintf(val, sizeof val, "(uint64_t)((int64_t)((uint64_t)%s << %u) >> %u)",
				 x ? x : "", sh, sh);
		}
	} else if (t->kind == IR_TYPE_FLOAT && !ir_type_to_elem(t, &et) && ptort_type_bits(et) >= 16) {
		rt = em_rt_type_names[et];
		snprintf(val, sizeof val, "%s", x ? x : "");
	}
	if (!rt) {
		em_err(e, func, "result #%u has type '%s': ptoc run prints results of integer, index, "
		    "i1, f32, f16 and bf16 types only", i, tn);
		return 0;
	}
	if (x) {
		em_pf(e, "\tptort_print_value(ptoc_c, \"result #%u %s \", %s, %s);\n", i, tn, rt, val);
	}
	return 1;
}

unsigned emit_main(ir_ctx *ctx, ir_op *module, ir_op *func, ir_op *peer,
		   const struct target *t, ptoc_write_fn out, void *user)
{
	em e;
	ir_block *b = func->regions[0].first;
	unsigned n = b ? b->num_args : 0, i, nout, nshape = 0, nptr = 0;
	const char *name;
	const ir_type *ft;
	memset(&e, 0, sizeof e);
	e.ctx = ctx;
	e.t = t;
	e.out = out;
	e.user = user;
	if (em_check_func_name(&e, func, &name))
		return e.errors;
	emit_header(&e, module, "a harness running the kernel");
	em_pf(&e, "#include <stdint.h>\n\n#include \"ptort.h\"\n\n");
	ft = em_fn_type(func);
	nout = ft ? ft->u.fn.nout : 0;
	for (i = 0; i < nout; i++)
		if (!result_print(&e, func, i, ft->u.fn.out[i], NULL))
			return em_finish(&e, module);
	em_pf(&e, "ptort_ctx *%s_ctx_create(void);\n", name);
	if (emit_ret_type(&e, func, name, 1))
		return em_finish(&e, module);
	em_pf(&e, "%s(", name);
	if (emit_params(&e, func))
		return e.errors;
	if (peer) { /* the other function of the cluster: the same arguments, or none */
		const char *pn;
		if (em_check_func_name(&e, peer, &pn))
			return e.errors;
		em_pf(&e, ");\nvoid %s(", pn);
		if (emit_params(&e, peer))
			return e.errors;
	}
	em_pf(&e, ");\n\n/* ptort_main's call of the kernel%s */\n"
	   "static void ptoc_call(ptort_ctx *ptoc_c, void *const ptoc_b[], const uint64_t ptoc_e[], "
	   "const int64_t ptoc_s[])\n{\n",
	   nout ? ", then its results printed (docs/runtime.md \"Results\")" : "");
	for (i = 0; i < n; i++) /* which of the arrays the call reads */
		nptr += b->args[i]->type->kind == IR_TYPE_PTR || view_arg(b->args[i]);
	if (!nptr)
		em_pf(&e, "\t(void)ptoc_b;\n\t(void)ptoc_e;\n");
	if (nptr == n)
		em_pf(&e, "\t(void)ptoc_s;\n");
	em_pf(&e, "\t");
	if (nout == 1)
		em_pf(&e, "const %s ptoc_r = ", em_ctype(ft->u.fn.out[0]));
	else if (nout)
		em_pf(&e, "const %s_results ptoc_r = ", name);
	em_pf(&e, "%s(ptoc_c", name);
	for (i = 0; i < n; i++)
		call_arg(&e, b->args[i], i);
	em_pf(&e, ");\n");
	if (peer) {
		const char *pn;
		em_check_func_name(&e, peer, &pn);
		em_pf(&e, "\t%s(ptoc_c", pn);
		for (i = 0; peer->regions[0].first && i < peer->regions[0].first->num_args; i++)
			call_arg(&e, b->args[i], i);
		em_pf(&e, ");\n");
	}
	for (i = 0; i < nout; i++) {
		char x[32];
		if (nout == 1)
			snprintf(x, sizeof x, "ptoc_r");
		else
			snprintf(x, sizeof x, "ptoc_r.r%u", i);
		result_print(&e, func, i, ft->u.fn.out[i], x);
	}
	em_pf(&e, "}\n\n");
	for (i = 0; i < n; i++) { /* the GM buffers' shapes as arrays (.npy files) */
		uint64_t sh[8];
		unsigned r = 0, d;
		if (b->args[i]->type->kind == IR_TYPE_PTR)
			r = emit_arg_shape(b->args[i], arg_elems(b->args[i]), sh, 8);
		else if (view_arg(b->args[i]))
			for (r = b->args[i]->type->u.shaped.rank, d = 0; d < r; d++)
				sh[d] = (uint64_t)b->args[i]->type->u.shaped.dims[d];
		if (r && !nshape++)
			em_pf(&e, "/* the shapes of the GM buffers as arrays (.npy files) */\n");
		if (r)
			em_pf(&e, "static const uint64_t ptoc_shape%u[%u] = {", i, r);
		for (d = 0; d < r; d++)
			em_pf(&e, "%s%lluu", d ? ", " : "", (unsigned long long)sh[d]);
		if (r)
			em_pf(&e, "};\n");
	}
	if (nshape)
		em_pf(&e, "\n");
	for (i = 0; i < n; i++) /* the files the arguments are declared in, once each */
		if (b->args[i]->loc.file && e.nfiles < EM_FILES) {
			unsigned k = 0;
			while (k < e.nfiles && e.files[k] != b->args[i]->loc.file)
				k++;
			if (k == e.nfiles)
				e.files[e.nfiles++] = b->args[i]->loc.file;
		}
	em_put_files(&e);
	if (e.nfiles)
		em_pf(&e, "\n");
	if (n) {
		em_pf(&e, "/* per argument: name, element bits (0: scalar), GM elements (0: dynamic or "
		   "scalar), where it is declared, element type and shape (.npy files) */\n"
		   "static const ptort_main_arg ptoc_args[%u] = {\n", n);
		for (i = 0; i < n && !e.errors; i++) {
			unsigned bits = 0, rank = 0, k;
			int fscalar = 0;
			uint64_t elems = 0, sh[8];
			ptort_type et = PTORT_U8;
			if (b->args[i]->type->kind == IR_TYPE_PTR) {
				if (ir_type_to_elem(b->args[i]->type->u.ptr.elem, &et)) {
					em_err(&e, func, "argument %u: GM element type without a runtime type", i);
					break;
				}
				bits = ptort_type_bits(et);
				elems = arg_elems(b->args[i]);
				rank = emit_arg_shape(b->args[i], elems, sh, 8);
			} else if (view_arg(b->args[i])) {
				if (ir_type_to_elem(b->args[i]->type->u.shaped.elem, &et)) {
					em_err(&e, func, "argument %u: GM element type without a runtime type", i);
					break;
				}
				bits = ptort_type_bits(et);
				elems = view_elems(b->args[i]);
				for (rank = b->args[i]->type->u.shaped.rank, k = 0; k < rank; k++)
					sh[k] = (uint64_t)b->args[i]->type->u.shaped.dims[k];
			} else if (!ir_type_to_elem(b->args[i]->type, &et) && ptort_type_is_float(et)) {
				fscalar = 1; /* --arg takes a number of the type (harness.c) */
			}
			em_pf(&e, "\t{.name = \"%s\", .bits = %u, .elems = %lluu, .file = ",
			   e.names[b->args[i]->vmark - 1], bits, (unsigned long long)elems);
			if (b->args[i]->loc.file)
				em_put_src(&e, b->args[i]->loc.file);
			else
				em_pf(&e, "0");
			em_pf(&e, ", .line = %u, .col = %u", b->args[i]->loc.line, b->args[i]->loc.col);
			if (bits || fscalar)
				em_pf(&e, ", .type = %s", em_rt_type_names[et]);
			if (fscalar)
				em_pf(&e, ", .is_float = 1");
			if (rank)
				em_pf(&e, ", .rank = %u, .shape = ptoc_shape%u", rank, i);
			em_pf(&e, "},\n");
		}
		em_pf(&e, "};\n\n");
	}
	em_pf(&e, "static const ptort_main_desc ptoc_desc = {.nargs = %uu, .args = %s, "
	   ".ctx_create = %s_ctx_create, .call = ptoc_call%s};\n\n"
	   "int main(int argc, char **argv)\n{\n\treturn ptort_main(&ptoc_desc, argc, argv);\n}\n", n, n ? "ptoc_args" : "0", name,
	   emit_is_mixed(func) || (peer && emit_is_mixed(peer)) ? ", .flags = PTORT_MAIN_CLUSTER" : "");
	em_names_reset(&e);
	free(e.names);
	free(e.vals);
	free(e.used);
	return em_finish(&e, module);
}
