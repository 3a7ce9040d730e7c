/* emit_c_impl.h: the C emitter's shared state and helpers (private to emit_c*.c).
 * The emitter writes through an `em`: the output buffer, the C names of values and
 * the module's source files; every helper reports through em_err and writes nothing
 * after the first error. */
#ifndef PTOC_CODEGEN_EMIT_C_IMPL_H
#define PTOC_CODEGEN_EMIT_C_IMPL_H

#include "codegen/emit.h"
#include "passes/pass.h"

#define EM_BUF 16384

#define EM_FILES 16

typedef struct em {
	ir_ctx *ctx;
	const struct target *t;
	ptoc_write_fn out;
	void *user;
	int werr;
	int oom;           /* a work allocation failed (also sets werr) */
	unsigned errors;
	/* C names of values: id = vmark - 1 */
	const char **names;
	ir_value **vals;
	unsigned nvals, capvals;
	const char **used; /* open-addressed set of interned names used in this function */
	unsigned capused, nused;
	int indent;
	/* the output, passed to `out` in pieces of up to EM_BUF bytes (flush) */
	size_t nbuf;
	char buf[EM_BUF];
	const ir_op *func;  /* the function being emitted */
	const char *fname;  /* its C name */
	/* the source files of the module's locations (interned), each written once as
	 * `static const char ptoc_file[]` (ptoc_file_K for the K-th after the first) and
	 * named by it (em_put_src) */
	const char *files[EM_FILES];
	unsigned nfiles;
	/* emits the ops of a block: emit_c.c's op dispatch, set by emit_c; the scf ops and
	 * the mixed ops' sections (emit_c_scalar.c, emit_c_insn.c) reach the dispatch above
	 * them through it, so that no two files call each other (docs/architecture.md "Layers") */
	void (*block)(struct em *e, ir_block *b);
} em;

/* emit_c_out.c (the bottom: calls none of the others): output, C names of values and
 * functions, constants and types, runtime spellings, source locations and files */
unsigned em_finish(em *e, const ir_op *module);
void em_put(em *e, const char *s, size_t n);
void em_ps(em *e, const char *s);
void em_pu(em *e, uint64_t x);
void em_pd(em *e, int64_t x);
const char *em_intern2(em *e, size_t cap, const char *a, const char *b);
void em_pf(em *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void em_ind(em *e);
void em_err(em *e, const ir_op *op, const char *fmt, ...);
void em_put_cstr(em *e, const char *s);
void em_open_block(em *e);
void em_close_block(em *e);
int em_name_claim(em *e, const char *s);
void em_names_reset(em *e);
const char *em_set_name(em *e, ir_value *v, const char *s);
const char *em_name_value(em *e, ir_value *v);
int em_const_int(const ir_value *v, int64_t *out);
size_t em_lit(char *buf, int64_t x);
const char *em_vexpr(em *e, const ir_op *user, const ir_value *v);
const char *em_ctype(const ir_type *t);
const char *em_ptr_elems(em *e, const ir_op *user, const ir_value *v);
const char *em_name_any(em *e, ir_value *v);
const char *em_func_name(const ir_op *f);
int em_check_func_name(em *e, ir_op *f, const char **name);
int em_is_arith(ir_opcode code);
int em_c_used(const ir_value *v);
void em_void(em *e, const ir_value *v);
extern const char *const em_rt_type_names[PTORT_TYPE_COUNT];
const ir_type *em_fn_type(const ir_op *f);
int em_ret_single(const ir_type *ft);
void em_loc_comment(em *e, const ir_op *op);
void em_put_src(em *e, const char *file);
void em_put_files(em *e);
int em_collect_file(ir_op *op, void *user);
void em_locate(em *e, const ir_op *op);

/* emit_c_insn.c: instructions, views, sync, pointer and mixed ops */
void emit_view_op(em *e, ir_op *op);
int em_canon_narrow(em *e, const ir_type *t, const char *var);
void emit_insn(em *e, const ir_op *op, const ir_insndef *d);
void emit_sync_op(em *e, ir_op *op);
void emit_ptr_op(em *e, ir_op *op);
void emit_mixed_op(em *e, ir_op *op);
void emit_async_op(em *e, ir_op *op);

/* emit_c_scalar.c: arith, scf and func.return */
void emit_arith(em *e, ir_op *op);
/* scf.for, scf.if, scf.yield, scf.while, scf.condition and func.return: emits op and
 * returns 1; 0 (nothing emitted) for any other op. */
int emit_control(em *e, ir_op *op);

/* emit_c.c (the top): the op dispatch, functions, emit_c */
int emit_params(em *e, ir_op *f);
int emit_ret_type(em *e, ir_op *f, const char *name, int decl);
void emit_header(em *e, ir_op *module, const char *what);

#endif
