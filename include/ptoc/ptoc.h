/* ptoc.h: the public C API of the ptoc compiler library (libptoc).
 *
 * Conventions: one prefix (ptoc_), opaque handles, ownership in names
 * (_create/_destroy own, _get borrows; a module belongs to the context that parsed
 * it and is freed with it), strings as pointer + length where the
 * length is not obvious, output through caller callbacks. The library never exits,
 * aborts or prints on bad input: it reports through the context's diagnostic
 * handler and returns failure (NULL or a non-zero status). */
#ifndef PTOC_PTOC_H
#define PTOC_PTOC_H

#include <stddef.h>
#include <stdint.h>

/* PTOC_API marks the functions the shared libraries export: those declared in the
 * headers of include/ptoc. The libraries are compiled with hidden visibility and
 * PTOC_BUILD defined, so nothing else leaves them; CTest boundary.exports compares
 * their exported symbols with these headers' declarations. For a user of the headers
 * the mark is empty. */
#ifndef PTOC_API
#if defined(PTOC_BUILD) && defined(__GNUC__)
#define PTOC_API __attribute__((visibility("default")))
#else
#define PTOC_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define PTOC_VERSION_STRING "0.1.0"

typedef struct ptoc_context ptoc_context;
typedef struct ptoc_module ptoc_module;

/* ---- Diagnostics ------------------------------------------------------- */

typedef enum ptoc_severity {
	PTOC_ERROR,
	PTOC_WARNING,
	PTOC_NOTE,
	PTOC_REMARK,
} ptoc_severity;

typedef struct ptoc_location {
	const char *file; /* borrowed from the context; NULL when unknown */
	uint32_t line;    /* 1-based; 0 when unknown */
	uint32_t col;     /* 1-based; 0 when unknown */
} ptoc_location;

/* Receives every diagnostic. `msg` is not NUL-terminated necessarily: use `len`. */
typedef void (*ptoc_diag_handler)(void *user, ptoc_severity sev, ptoc_location loc,
				  const char *msg, size_t len);

/* Output sink for printers and emitters; returns 0 on success. */
typedef int (*ptoc_write_fn)(void *user, const char *data, size_t len);

/* ---- Text buffer ------------------------------------------------------- */

/* The one in-memory text sink of the project. Two kinds:
 *   growing: zero-initialise (`ptoc_buf b = {0};`); the text is malloc'd, free it with
 *            ptoc_buf_free. When memory runs out, `oom` is set, the text written so
 *            far is kept, and this and every later write fails.
 *   fixed:   ptoc_buf_fixed over a caller's array; keeps what fits (NUL-terminated)
 *            and counts the rest in `len`, like snprintf; writes never fail.
 * `data` is NUL-terminated whenever it is not NULL. */
typedef struct ptoc_buf {
	char *data;
	size_t len;  /* bytes written (a fixed buffer keeps at most cap - 1 of them) */
	size_t cap;  /* bytes at data */
	int fixed;
	int oom;
} ptoc_buf;

PTOC_API void ptoc_buf_fixed(ptoc_buf *b, char *array, size_t cap);
/* A ptoc_write_fn: appends `len` bytes to the ptoc_buf `b`. 0, or -1 when out of memory. */
PTOC_API int ptoc_buf_write(void *b, const char *data, size_t len);
/* ptoc_buf_write of a NUL-terminated string. */
PTOC_API int ptoc_buf_puts(ptoc_buf *b, const char *s);
/* Makes room for `n` more bytes at once (growing buffers); 0, or -1 (oom set). */
PTOC_API int ptoc_buf_reserve(ptoc_buf *b, size_t n);
/* Empties the buffer, freeing a growing buffer's text. */
PTOC_API void ptoc_buf_free(ptoc_buf *b);

/* ---- Context ----------------------------------------------------------- */

PTOC_API ptoc_context *ptoc_context_create(void);
PTOC_API void ptoc_context_destroy(ptoc_context *ctx);
/* Without a handler, diagnostics are counted but dropped. */
PTOC_API void ptoc_context_set_diag_handler(ptoc_context *ctx, ptoc_diag_handler fn, void *user);
/* Number of errors reported through this context so far. */
PTOC_API unsigned ptoc_context_error_count(const ptoc_context *ctx);
/* At most `limit` errors reach the handler (default PTOC_DEFAULT_ERROR_LIMIT; 0: no
 * limit) from now on; then one "too many errors emitted, stopping now" and the rest
 * (with their notes) are dropped, though still counted. */
#define PTOC_DEFAULT_ERROR_LIMIT 50
PTOC_API void ptoc_context_set_error_limit(ptoc_context *ctx, unsigned limit);
/* Registers the text of file `filename` without copying it (it must stay valid until
 * ptoc_context_destroy), so that diagnostics anywhere in it show their source line;
 * for parsing parts of one text with ptoc_parse_part. */
PTOC_API void ptoc_context_add_source(ptoc_context *ctx, const char *filename, const char *buf,
			     size_t len);
/* Renders a diagnostic the way the driver prints it: "file:line:col: error: msg",
 * the source line and a caret, when the context knows the source buffer. */
PTOC_API int ptoc_context_render_diag(ptoc_context *ctx, ptoc_severity sev, ptoc_location loc,
			     const char *msg, size_t len, ptoc_write_fn out, void *user);

/* ---- Parsing, verification, printing ---------------------------------- */

/* Parses any .pto form (PTOAS module, tile SSA, line-oriented PTO-AS, generic op
 * form). `filename` is used for locations and copied. Returns NULL after reporting
 * errors. The buffer need not be NUL-terminated and may hold any bytes. The module
 * lives in the context's memory: it stays valid until ptoc_context_destroy, which
 * frees it (there is no per-module free). */
PTOC_API ptoc_module *ptoc_parse(ptoc_context *ctx, const char *buf, size_t len, const char *filename);
/* As ptoc_parse for a part of a larger text whose first byte is on line `first_line`
 * of `filename`; the text is not registered (ptoc_context_add_source does that for the
 * whole file, once). */
PTOC_API ptoc_module *ptoc_parse_part(ptoc_context *ctx, const char *buf, size_t len,
			     const char *filename, unsigned first_line);

/* ---- The target --------------------------------------------------------- */

/* Chooses the target `m` is compiled for, used by every later ptoc_module_verify,
 * ptoc_module_run_passes and ptoc_module_emit_c: `target` when not NULL, else the
 * module's `pto.target_arch` attribute, else "a2a3". A name is "a2a3", "a3", "a2"
 * or "a5" in any case (as ptoc_target_parse, legality.h). A `pto.target_arch` that
 * is not such a name is an error even when `target` is given. Returns 0, or -1 after
 * reporting the error at the module's location. Without a call, the first of those
 * functions chooses as with `target` NULL. */
PTOC_API int ptoc_module_set_target(ptoc_module *m, const char *target);

/* Structural verification, with the rules of the module's target (tmov pairs, tmatmul
 * element types, m/k/n range); reports every error found. Returns 0 when valid. A
 * module that verified clean for its target is not verified again until passes run on
 * it (ptoc_module_run_passes, ptoc_module_compile), so verifying before
 * ptoc_module_emit_c costs nothing twice. */
PTOC_API int ptoc_module_verify(ptoc_module *m);

typedef enum ptoc_print_form {
	PTOC_PRINT_CUSTOM,  /* the syntax the parser reads, round-trips byte-identically */
	PTOC_PRINT_GENERIC, /* MLIR generic op form, accepted by mlir-opt */
	/* or-ed into either form: every op and block argument followed by its location,
	 * `loc("file":line:col)`, as mlir-opt --mlir-print-debuginfo (the parser reads them
	 * back, so a round trip keeps the positions of the first source) */
	PTOC_PRINT_LOCATIONS = 0x100
} ptoc_print_form;

PTOC_API int ptoc_module_print(ptoc_module *m, ptoc_print_form form, ptoc_write_fn out, void *user);

/* ---- Passes ----------------------------------------------------------- */

/* Runs passes on a verified module: `pipeline` is a comma-separated list of pass names
 * as for `ptoc --pass-pipeline=` (NULL: the default pipeline); `target`, when not
 * NULL, is first passed to ptoc_module_set_target (NULL: the module's target as
 * chosen before); `remarks` as for -Rpass= (NULL: none). Problems are reported
 * through the context's handler. Returns 0 on success, -1 after reporting errors (an
 * unknown pass or target is reported at the module's location). */
PTOC_API int ptoc_module_run_passes(ptoc_module *m, const char *pipeline, const char *target,
			   const char *remarks);

/* The default pipeline in --pass-pipeline syntax ("check-cube,...,fuse-dma"; no
 * `verify`: the module is verified before it, and after every pass only with
 * ptoc_compile_opts.verify_each / --verify-each). */
PTOC_API const char *ptoc_default_pipeline(void);
/* Checks a pipeline's text: 0, or -1 with the reason in err (errcap bytes, truncated). */
PTOC_API int ptoc_pipeline_check(const char *pipeline, char *err, size_t errcap);
/* The i-th registered pass, in default-pipeline order: its name and a one-line summary.
 * Returns 0, or -1 when i is past the last. */
PTOC_API int ptoc_pass_info(size_t i, const char **name, const char **summary);

/* ---- C code generation (emit-c) ---------------------------------------- */

/* Compiles a verified module to C99 that links the runtime (libptort, ptort.h): runs
 * the default pipeline for `target` (as ptoc_module_run_passes; the module is lowered
 * in place) and writes, for every function NAME, `ptort_ctx *NAME_ctx_create(void)`
 * (a context with the target's memory capacities) and
 * `void NAME(ptort_ctx *ctx, ...)` where each !pto.ptr argument P passes
 * `void *P, uint64_t P_elems` and each integer or index argument an int64_t; check
 * ptort_ctx_error(ctx) after a call. Returns 0, or -1 after reporting errors (or when
 * `out` fails); after a failure `out` may have received a partial text, so buffer it. */
PTOC_API int ptoc_module_emit_c(ptoc_module *m, const char *target, ptoc_write_fn out, void *user);

/* ---- The whole sequence ------------------------------------------------- */

typedef enum ptoc_output {
	PTOC_OUTPUT_NONE,    /* verify and run the passes only */
	PTOC_OUTPUT_IR,      /* the module after the passes, in the parser's syntax */
	PTOC_OUTPUT_GENERIC, /* the same in MLIR's generic op form */
	PTOC_OUTPUT_C,       /* the kernels as C (as ptoc_module_emit_c) */
	PTOC_OUTPUT_MAIN     /* a harness with main() for the entry kernel (`ptoc run`) */
} ptoc_output;

typedef struct ptoc_compile_opts {
	const char *target;    /* as ptoc_module_set_target (NULL: the module's) */
	const char *pipeline;  /* pass names; NULL: ptoc_default_pipeline() for C and MAIN,
				  no passes for the other outputs */
	const char *remarks;   /* as -Rpass= (NULL: none) */
	int verify_each;       /* verify after every pass */
	ptoc_write_fn dump;    /* when set: the IR after every pass (print-after-all) */
	void *dump_user;
	ptoc_print_form dump_form;
	ptoc_output output;
	const char *entry;     /* PTOC_OUTPUT_MAIN: the kernel (NULL: the function marked
				  pto.entry, else the only one) */
	int print_locations;   /* PTOC_OUTPUT_IR/GENERIC and dumps: with PTOC_PRINT_LOCATIONS */
} ptoc_compile_opts;

/* What `ptoc` does with each parsed module, written once: choose the target, verify,
 * run the pipeline, write the output through `out`. Returns 0, or -1 after reporting
 * errors or when `out` failed (then `out` may have a partial text: buffer it). */
PTOC_API int ptoc_module_compile(ptoc_module *m, const ptoc_compile_opts *o, ptoc_write_fn out,
			void *user);

#ifdef __cplusplus
}
#endif
#endif
