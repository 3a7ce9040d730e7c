/* print.h: what the printer's files share: the buffered output, the printer's state
 * and the pieces print_forms.c (the custom forms, ir_print_op) takes from print.c. */
#ifndef PTOC_IR_PRINT_H
#define PTOC_IR_PRINT_H

#include <stdint.h>
#include <string.h>

#include "ir/ir.h"

/* ---- buffered output -------------------------------------------------------- */

typedef struct wr {
	ptoc_write_fn out;
	void *user;
	int err;
	int mlir; /* element types MLIR lacks as `!pto.NAME` (generic form, outside pto types) */
	size_t n;
	char buf[1 << 16];
} wr;

static inline void flush(wr *w)
{
	if (w->n && !w->err)
		w->err = w->out(w->user, w->buf, w->n);
	w->n = 0;
}

static inline void put(wr *w, const char *s, size_t n)
{
	if (n > sizeof w->buf - w->n) {
		flush(w);
		if (n > sizeof w->buf) {
			if (!w->err)
				w->err = w->out(w->user, s, n);
			return;
		}
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

static inline void puts_(wr *w, const char *s)
{
	put(w, s, strlen(s));
}

static inline void putc_(wr *w, char c)
{
	if (w->n == sizeof w->buf)
		flush(w);
	w->buf[w->n++] = c;
}

static inline void put_i64(wr *w, int64_t v)
{
	char b[24];
	int n = 0;
	uint64_t x = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		b[n++] = (char)('0' + x % 10);
	while ((x /= 10));
	if (v < 0)
		putc_(w, '-');
	while (n)
		putc_(w, b[--n]);
}

static inline void put_u(wr *w, uint64_t x)
{
	put_i64(w, (int64_t)(x > INT64_MAX ? 0 : x));
}

typedef struct nslot { const char *name; int live; } nslot;
typedef struct vslot { const ir_value *v; const char *name; } vslot;

typedef struct nscope {
	nslot *tab;
	unsigned cap, n;
	const char **defs;
	unsigned ndefs, capdefs;
	unsigned *marks;
	unsigned nmarks, capmarks;
	unsigned next_num, next_arg;
	unsigned vmark;  /* pr.vlog's length when the scope began */
	struct nscope *outer;
} nscope;

typedef struct pr {
	wr w;
	ir_ctx *ctx;
	int generic;
	int locs;      /* locations after ops and block arguments */
	const struct target *target; /* `// PIPE_X` after each instruction (NULL: none) */
	nscope *scope;
	vslot *vals;
	unsigned vcap, vn;
	/* the values named, in order: a scope's are dropped from `vals` when it ends, so
	 * the table holds one function's values, not the module's (docs/performance.md) */
	const ir_value **vlog;
	unsigned vlogn, vlogcap;
	unsigned ind;  /* the indentation of the op being printed (the region forms) */
	char tmp[256];
	/* the custom form of an op (print_forms.c; 0: none, print the generic form) */
	int (*custom)(struct pr *p, const ir_op *op, unsigned ind);
} pr;

/* ---- print.c: types and attributes ---- */

/* 1 when s[0..n) prints bare (an identifier), else it needs quotes */
int bare_id(const char *s, size_t n);
void pr_string(wr *w, const char *s, size_t n);
void pr_float(wr *w, double v, const ir_type *t);
void pr_attr(wr *w, const ir_attr *a);
void pr_type(wr *w, const ir_type *t);
void pr_fn_results(wr *w, const ir_type *const *out, unsigned n);

/* ---- print.c: names ---- */

const char *name_value(pr *p, const ir_value *v, int is_arg);
void pr_value(pr *p, const ir_value *v);
void region_enter(pr *p);
void region_leave(pr *p);
void scope_push(pr *p);
void scope_pop(pr *p);

/* ---- print.c: ops ---- */

void pr_values(pr *p, const ir_operand *ops, unsigned n);
void pr_types_of(pr *p, const ir_operand *ops, unsigned n);
void pr_results(pr *p, const ir_op *op);
void pr_block_args(pr *p, const ir_block *b, int with_types);
void pr_region(pr *p, const ir_region *r, unsigned ind, int entry_args_shown,
	       int elide_yield, int isolated);
void pr_extra_attrs(pr *p, const ir_op *op, const char *const *skip, unsigned nskip,
		    const char *prefix);
unsigned nattrs(const ir_op *op);
int same_types(const ir_op *op, unsigned from, const ir_type *t);
const int64_t *segments(const ir_op *op, unsigned n);
extern const char *const seg_skip[];
void pr_list(pr *p, const ir_operand *ops, unsigned n);

/* One op at indentation `ind`: its custom form (p->custom) or the generic form, its
 * location, a newline. */
void pr_op(pr *p, const ir_op *op, unsigned ind);

#endif
