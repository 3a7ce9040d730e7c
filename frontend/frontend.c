/* frontend.c: fe_parse and ptoc_parse. Chooses the form from the first significant
 * token (line-oriented PTO-AS when it is `.arg`, `.const`, a `%value` or an opcode of
 * no known dialect; MLIR text otherwise), runs the scanner and the grammar, and
 * returns the module: the file's single `module {...}` op, or an implicit module
 * around its top-level ops. A line-form file becomes one func.func named after the
 * file stem (non-identifier characters replaced by '_'; `kernel` for stdin) whose
 * arguments are the `.arg` directives, ended by an implicit `return`. */
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "parser.h"

typedef void *yyscan_t;
int fe_yylex_init_extra(fe_parser *extra, yyscan_t *scanner);
int fe_yylex_destroy(yyscan_t scanner);
int fe_yyparse(fe_parser *p, void *scanner);

static int is_id(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

/* 1 when the buffer is line-oriented PTO-AS */
static int detect_line_form(const char *s, size_t n)
{
	static const char *const dialects[] = {"pto.", "arith.", "scf.", "func.", "builtin.",
					       "memref.", "tensor.", "cf.", "math.", "vector.",
					       "affine.", "llvm.", "emitc.", "test."};
	size_t i = 0, j, k;
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
			i++;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (i < n && s[i] == '#' && (i + 1 >= n || !is_id(s[i + 1]) || s[i + 1] == '.')) {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		break;
	}
	if (i >= n)
		return 0;
	if (s[i] == '%' || s[i] == '.')
		return 1;
	if (!is_id(s[i]))
		return 0;
	for (j = i; j < n && is_id(s[j]); j++)
		;
	if ((j - i == 6 && !memcmp(s + i, "module", 6)) || (j - i == 6 && !memcmp(s + i, "return", 6)))
		return 0;
	for (k = 0; k < sizeof dialects / sizeof dialects[0]; k++) {
		size_t l = strlen(dialects[k]);
		if (j - i > l && !memcmp(s + i, dialects[k], l))
			return 0;
	}
	return 1;
}

static const char *stem(ir_ctx *ctx, const char *file)
{
	const char *b, *e;
	char buf[128];
	size_t n = 0;
	if (!file || !strcmp(file, "-") || !strcmp(file, "<stdin>") || !*file)
		return ir_intern(ctx, "kernel", 6);
	b = strrchr(file, '/');
	b = b ? b + 1 : file;
	e = strchr(b, '.');
	if (!e || e == b)
		e = b + strlen(b);
	for (; b < e && n < sizeof buf - 1; b++)
		buf[n++] = is_id(*b) && *b != '.' && *b != '$' ? *b : '_';
	if (!n || (buf[0] >= '0' && buf[0] <= '9'))
		return ir_intern(ctx, "kernel", 6);
	return ir_intern(ctx, buf, n);
}

static void free_parser(fe_parser *p)
{
	while (p->scope) {
		fe_scope *s = p->scope;
		p->scope = s->outer;
		free(s->tab);
		free(s->defs);
		free(s->region_marks);
		free(s);
	}
	free(p->uses.a);
	free(p->gm_args.a);
	free(p->types.a);
	free(p->attrs.a);
	free(p->named.a);
	free(p->pieces.a);
	free(p->defs.a);
	free(p->vals.a);
	free(p->iso.a);
	free(p->regions_done.a);
	free(p->regions.a);
	free(p->region_iso.a);
	free(p->blocks.a);
	fe_loc_free(p);
}

ptoc_module *fe_parse(ir_ctx *ctx, const char *buf, size_t len, const char *file,
		      unsigned first_line)
{
	fe_parser p;
	yyscan_t scanner;
	ir_region *top;
	ir_op *mod, *kernel = NULL;
	ptoc_module *m = NULL;
	unsigned errors0 = ptoc_context_error_count(ctx);
	int rc;
	static const char empty[1] = {0};

	if (!buf)
		buf = empty;
	if (len > (size_t)0x7fffffff) {
		ir_loc l = {file, 0, 0};
		ir_error(ctx, l, "input too large (more than 2 GiB)");
		return NULL;
	}
	memset(&p, 0, sizeof p);
	/* Scratch stacks start non-empty, so `st.a + k` is never an offset on a NULL
	 * pointer (UBSan; hit by generic ops such as `() -> ()` instructions) */
	fe_grow((void **)&p.uses.a, &p.uses.cap, sizeof *p.uses.a);
	fe_grow((void **)&p.types.a, &p.types.cap, sizeof *p.types.a);
	fe_grow((void **)&p.attrs.a, &p.attrs.cap, sizeof *p.attrs.a);
	fe_grow((void **)&p.named.a, &p.named.cap, sizeof *p.named.a);
	fe_grow((void **)&p.regions_done.a, &p.regions_done.cap, sizeof *p.regions_done.a);
	p.ctx = ctx;
	p.buf = buf;
	p.len = len;
	p.file = file ? ir_intern(ctx, file, strlen(file)) : NULL;
	p.line = first_line ? first_line : 1;
	p.line_mode = detect_line_form(buf, len);

	/* the implicit top-level module; unwrapped below when the file holds one module */
	mod = ir_op_create(ctx, "builtin.module", fe_loc_at(&p, 0), NULL, 0, NULL, 0, NULL, 1);
	p.next_isolated = 1;
	top = fe_region_begin(&p);
	if (p.line_mode) {
		const ir_type *fnt = ir_type_func(ctx, NULL, 0, NULL, 0);
		kernel = ir_op_create(ctx, "func.func", fe_loc_at(&p, 0), NULL, 0, NULL, 0, NULL, 1);
		ir_op_set_attr(ctx, kernel, "sym_name", ir_attr_string(ctx, stem(ctx, file), strlen(stem(ctx, file))));
		ir_op_set_attr(ctx, kernel, "function_type", ir_attr_type(ctx, fnt));
		fe_append(&p, kernel);
		p.kernel = kernel;
		p.pending_entry = ir_block_create(ctx, fe_loc_at(&p, 0));
		p.kernel_entry = p.pending_entry;
		p.next_isolated = 1;
		(void)fe_region_begin(&p);
	}

	if (fe_yylex_init_extra(&p, &scanner)) {
		free_parser(&p);
		return NULL;
	}
	rc = fe_yyparse(&p, scanner);
	fe_yylex_destroy(scanner);

	if (kernel) {
		ir_region *body = p.regions.n >= 2 ? p.regions.a[1] : NULL;
		ir_block *entry;
		const ir_type **in;
		unsigned i;
		(void)fe_region_end(&p);
		if (body) {
			kernel->regions[0].first = body->first;
			kernel->regions[0].last = body->last;
			for (entry = body->first; entry; entry = entry->next)
				entry->region = &kernel->regions[0];
		}
		entry = kernel->regions[0].first;
		if (entry) {
			ir_block_append_op(entry, ir_op_create(ctx, "func.return", fe_loc_at(&p, p.len),
							       NULL, 0, NULL, 0, NULL, 0));
			in = ir_xrealloc(NULL, (entry->num_args + 1) * sizeof *in);
			for (i = 0; i < entry->num_args; i++)
				in[i] = entry->args[i]->type;
			ir_op_set_attr(ctx, kernel, "function_type",
				       ir_attr_type(ctx, ir_type_func(ctx, in, entry->num_args, NULL, 0)));
			free(in);
		}
	}
	while (p.regions.n > 1)
		(void)fe_region_end(&p);
	top = p.regions.n ? fe_region_end(&p) : top;
	if (top) {
		mod->regions[0].first = top->first;
		mod->regions[0].last = top->last;
		{
			ir_block *b;
			for (b = top->first; b; b = b->next)
				b->region = &mod->regions[0];
		}
	}
	if (!mod->regions[0].first)
		ir_region_append_block(&mod->regions[0], ir_block_create(ctx, fe_loc_at(&p, 0)));
	if (!rc && !p.syntax_errors && ptoc_context_error_count(ctx) == errors0)
		(void)fe_loc_resolve(&p);
	free_parser(&p);
	if (rc || p.syntax_errors || ptoc_context_error_count(ctx) != errors0)
		return NULL;
	/* a file holding exactly one module op is that module */
	{
		ir_block *b = mod->regions[0].first;
		if (b && !b->next && b->first && b->first == b->last && b->first->code == IR_OP_MODULE) {
			ir_op *inner = b->first;
			ir_op_erase(inner);
			mod = inner;
		}
	}
	m = ir_alloc(ctx, sizeof *m);
	m->ctx = ctx;
	m->op = mod;
	return m;
}

ptoc_module *ptoc_parse(ptoc_context *ctx, const char *buf, size_t len, const char *filename)
{
	const char *name;
	if (!ctx)
		return NULL;
	name = ir_add_source(ctx, filename ? filename : "<input>", buf ? buf : "", buf ? len : 0);
	return fe_parse(ctx, buf, len, name, 1);
}

ptoc_module *ptoc_parse_part(ptoc_context *ctx, const char *buf, size_t len,
			     const char *filename, unsigned first_line)
{
	const char *name;
	if (!ctx)
		return NULL;
	filename = filename ? filename : "<input>";
	name = ir_intern(ctx, filename, strlen(filename));
	return fe_parse(ctx, buf, len, name, first_line ? first_line : 1);
}
