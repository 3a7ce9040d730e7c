/* test_mlir_roundtrip.c: round trips through the MLIR bridge (libptoc_mlir), for every
 * file named on the command line, found by --corpus DIR PENDING (the PTOAS corpus minus
 * the files of corpus-pending.txt and the *invalid* ones; SKIP when DIR is missing) or
 * by --tree DIR [LEFT-OUT...] (every file under DIR that ptoc itself parses and
 * verifies, minus the *invalid* ones and the LEFT-OUT paths relative to DIR). For each
 * file, in two MLIR contexts (nothing registered, unregistered dialects allowed; func,
 * arith and scf registered):
 *
 *   A  ptoc parse -> ptoc_module_to_mlir -> mlirOperationVerify -> MLIR print (generic
 *      form) -> ptoc parse: printed as the first parse is
 *   B  ptoc --emit=generic text -> MLIR parse -> ptoc_module_from_mlir: printed as the
 *      first parse is
 *   C  ptoc_module_to_mlir -> ptoc_module_from_mlir without text: printed as the first
 *      parse is, value names included (they travel in the locations), and every op
 *      keeps its file:line:col
 *
 * "Printed as": ptoc's custom print; in A and B with SSA value names and block labels
 * cleared on both sides (MLIR's text does not keep value names: MLIR numbers them), so
 * the comparison covers everything else: op names, operands, results, regions,
 * attributes and types. The reference is ptoc's own parse and print of the file, not
 * the bridge. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "ir/ir.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "ptoc/mlir.h"

typedef struct buf {
	char *s;
	size_t n, cap;
} buf;

static int put(void *user, const char *d, size_t n)
{
	buf *b = user;
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	memcpy(b->s + b->n, d, n);
	b->n += n;
	b->s[b->n] = 0;
	return 0;
}

static void mput(MlirStringRef s, void *user)
{
	put(user, s.data, s.length);
}

static buf diags;
static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg, size_t len)
{
	char h[64];
	(void)user;
	(void)sev;
	snprintf(h, sizeof h, "%u:%u: ", (unsigned)loc.line, (unsigned)loc.col);
	put(&diags, loc.file ? loc.file : "?", strlen(loc.file ? loc.file : "?"));
	put(&diags, ":", 1);
	put(&diags, h, strlen(h));
	put(&diags, msg, len);
	put(&diags, "\n", 1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s) {
		s[n] = 0;
		*len = (size_t)n;
	}
	return s;
}


/* MLIR has no untyped literal: `1` is `1 : i64` and `2.5` is `2.5 : f64`, while ptoc
 * keeps whether the type was written. Both sides are compared with the type made
 * explicit, and f32 literals by their f32 value (docs/embedding.md). */
static const ir_attr *norm(ir_ctx *ctx, const ir_attr *a)
{
	unsigned i;
	switch (a->kind) {
	case IR_ATTR_INT:
		return a->u.i.type ? a : ir_attr_int(ctx, a->u.i.v, ir_type_int(ctx, 64, IR_INT_SIGNLESS));
	case IR_ATTR_FLOAT:
		/* `0.1767767 : f32` and MLIR's `0.176776707 : f32` are the same f32 value:
		 * ptoc keeps the literal's double, so compare the value of the type */
		if (a->u.f.type && a->u.f.type->kind == IR_TYPE_FLOAT && a->u.f.type->u.f.kind == PTORT_F32 &&
		    a->u.f.v == a->u.f.v)
			return ir_attr_float(ctx, (double)(float)a->u.f.v, a->u.f.type);
		return a->u.f.type ? a : ir_attr_float(ctx, a->u.f.v, ir_type_float(ctx, IR_F64));
	case IR_ATTR_ARRAY: {
		const ir_attr **v = ir_alloc(ctx, sizeof *v * (a->u.array.n + 1));
		for (i = 0; i < a->u.array.n; i++)
			v[i] = norm(ctx, a->u.array.elems[i]);
		return ir_attr_array(ctx, v, a->u.array.n);
	}
	case IR_ATTR_DICT: {
		ir_named_attr *e = ir_alloc(ctx, sizeof *e * (a->u.dict.n + 1));
		ir_loc none = {NULL, 0, 0};
		for (i = 0; i < a->u.dict.n; i++) {
			e[i].name = a->u.dict.entries[i].name;
			e[i].value = norm(ctx, a->u.dict.entries[i].value);
		}
		return ir_attr_dict(ctx, e, a->u.dict.n, none);
	}
	default:
		return a;
	}
}

static int keep_names;

static int clear_names(ir_op *op, void *user)
{
	unsigned i, r;
	ir_ctx *ctx = user;
	op->attrs = norm(ctx, op->attrs);
	if (keep_names)
		return 0;
	for (i = 0; i < op->num_results; i++)
		op->results[i].name = NULL;
	for (r = 0; r < op->num_regions; r++) {
		ir_block *b;
		for (b = op->regions[r].first; b; b = b->next) {
			b->label = NULL;
			for (i = 0; i < b->num_args; i++)
				b->args[i]->name = NULL;
		}
	}
	return 0;
}

/* ptoc's custom print without value names, literals typed. */
static char *print_anon(ptoc_module *m, int names)
{
	buf b = {0};
	keep_names = names;
	ir_walk(m->op, clear_names, m->ctx);
	ptoc_module_print(m, PTOC_PRINT_CUSTOM, put, &b);
	return b.s ? b.s : calloc(1, 1);
}

typedef struct ops {
	ir_op **a;
	unsigned n, cap;
} ops;
static int collect(ir_op *op, void *user)
{
	ops *o = user;
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->a = realloc(o->a, sizeof *o->a * o->cap);
		if (!o->a)
			abort();
	}
	o->a[o->n++] = op;
	return 0;
}

/* Same op count and, op by op, the same location. */
static int same_locs(ptoc_module *a, ptoc_module *b, const char *what)
{
	ops x = {0}, y = {0};
	unsigned i;
	int ok = 1;
	ir_walk(a->op, collect, &x);
	ir_walk(b->op, collect, &y);
	if (x.n != y.n) {
		CHECK_FAIL("%s: %u ops, %u after the bridge", what, x.n, y.n);
		ok = 0;
	}
	for (i = 0; ok && i < x.n; i++) {
		ir_loc l = x.a[i]->loc, k = y.a[i]->loc;
		int same = l.line == k.line && l.col == k.col &&
			   (l.file && k.file ? !strcmp(l.file, k.file) : l.file == k.file);
		if (!same) {
			CHECK_FAIL("%s: %s at %s:%u:%u comes back at %s:%u:%u", what, x.a[i]->name,
				   l.file ? l.file : "?", (unsigned)l.line, (unsigned)l.col,
				   k.file ? k.file : "?", (unsigned)k.line, (unsigned)k.col);
			ok = 0;
		}
	}
	check_count(x.n);
	free(x.a);
	free(y.a);
	return ok;
}

/* A registered arith dialect materialises its default flags, and MLIR's generic print
 * shows them (`overflowFlags = #arith.overflow<none>`); ptoc's parser reads them as
 * written. The bridge's import leaves them out (mlir/import.c), so does this. */
static int drop_default_flags(ir_op *op, void *user)
{
	static const char *const flags[][2] = {
		{"overflowFlags", "#arith.overflow<none>"},
		{"fastmath", "#arith.fastmath<none>"},
	};
	unsigned i;

	if (strncmp(op->name, "arith.", 6))
		return 0;
	for (i = 0; i < 2; i++) {
		const ir_attr *a = ir_op_get_attr(op, flags[i][0]);
		buf b = {0};
		if (!a)
			continue;
		ir_print_attr(a, NULL, put, &b);
		if (b.s && !strcmp(b.s, flags[i][1]))
			ir_op_remove_attr(user, op, flags[i][0]);
		free(b.s);
	}
	return 0;
}

static void diff_fail(const char *what, const char *path, const char *want, const char *got)
{
	size_t i = 0, line = 1;
	while (want[i] && want[i] == got[i]) {
		if (want[i] == '\n')
			line++;
		i++;
	}
	CHECK_FAIL("%s: %s: prints differ from line %zu:\n  want: %.120s\n  got:  %.120s", what, path,
		   line, want + i - (i > 40 ? 40 : i), got + i - (i > 40 ? 40 : i));
}

static unsigned files_done;

static void one_file(const char *path, int registered)
{
	const char *mode = registered ? "registered" : "unregistered";
	ptoc_context *ctx = ptoc_context_create();
	MlirContext mctx = mlirContextCreate();
	ptoc_module *m1, *m2, *m3, *m4;
	char *src, *p1, *p1n, *p;
	size_t len;
	buf t = {0}, g = {0};
	MlirModule mm, mg;
	char what[600];
	diags.n = 0;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	mlirContextSetAllowUnregisteredDialects(mctx, true);
	if (registered) {
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), mctx);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), mctx);
		mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), mctx);
	}
	src = slurp(path, &len);
	CHECK(src != NULL, "cannot read %s", path);
	if (!src)
		goto out;
	m1 = ptoc_parse(ctx, src, len, path);
	free(src);
	CHECK(m1 && !ptoc_module_verify(m1), "%s does not parse: %s", path, diags.s ? diags.s : "");
	if (!m1 || ptoc_context_error_count(ctx))
		goto out;
	ptoc_module_print(m1, PTOC_PRINT_GENERIC, put, &g);
	p1n = print_anon(m1, 1);

	/* A: to MLIR, verify, MLIR's generic text, back through ptoc's parser */
	snprintf(what, sizeof what, "A (%s)", mode);
	mm = ptoc_module_to_mlir(m1, mctx);
	p1 = print_anon(m1, 0); /* names cleared only now: the export carries them */
	CHECK(!mlirModuleIsNull(mm), "%s: %s: export failed: %s", what, path, diags.s ? diags.s : "");
	if (!mlirModuleIsNull(mm)) {
		MlirOpPrintingFlags fl = mlirOpPrintingFlagsCreate();
		CHECK(mlirOperationVerify(mlirModuleGetOperation(mm)),
		      "%s: %s: mlirOperationVerify fails", what, path);
		mlirOpPrintingFlagsPrintGenericOpForm(fl);
		mlirOperationPrintWithFlags(mlirModuleGetOperation(mm), fl, mput, &t);
		mlirOpPrintingFlagsDestroy(fl);
		m2 = ptoc_parse(ctx, t.s, t.n, "mlir-print");
		CHECK(m2 != NULL, "%s: %s: MLIR's print does not parse: %s", what, path, diags.s ? diags.s : "");
		if (m2 && registered)
			ir_walk(m2->op, drop_default_flags, m2->ctx);
		if (m2) {
			p = print_anon(m2, 0);
			if (strcmp(p1, p))
				diff_fail(what, path, p1, p);
			check_count(1);
			free(p);
		}
		/* C: back without text, locations kept */
		snprintf(what, sizeof what, "C (%s)", mode);
		m4 = ptoc_module_from_mlir(ctx, mlirModuleGetOperation(mm));
		CHECK(m4 != NULL, "%s: %s: import failed: %s", what, path, diags.s ? diags.s : "");
		if (m4) {
			p = print_anon(m4, 1);
			if (strcmp(p1n, p))
				diff_fail(what, path, p1n, p);
			check_count(1);
			free(p);
			same_locs(m1, m4, what);
		}
		mlirModuleDestroy(mm);
	}

	/* B: MLIR parses ptoc's generic form; the bridge imports it */
	snprintf(what, sizeof what, "B (%s)", mode);
	mg = mlirModuleCreateParse(mctx, mlirStringRefCreate(g.s, g.n));
	CHECK(!mlirModuleIsNull(mg), "%s: %s: MLIR does not parse ptoc's generic form", what, path);
	if (!mlirModuleIsNull(mg)) {
		m3 = ptoc_module_from_mlir(ctx, mlirModuleGetOperation(mg));
		CHECK(m3 != NULL, "%s: %s: import failed: %s", what, path, diags.s ? diags.s : "");
		if (m3) {
			p = print_anon(m3, 0);
			if (strcmp(p1, p))
				diff_fail(what, path, p1, p);
			check_count(1);
			free(p);
		}
		mlirModuleDestroy(mg);
	}
	free(p1);
	free(p1n);
	files_done++;
out:
	free(t.s);
	free(g.s);
	mlirContextDestroy(mctx);
	ptoc_context_destroy(ctx);
}

/* The corpus: every *.pto under dir, minus *invalid* and the pending list. */
static char **pending;
static unsigned npending;

static int is_pending(const char *rel)
{
	unsigned i;
	for (i = 0; i < npending; i++)
		if (!strcmp(pending[i], rel))
			return 1;
	return 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *dupstr(const char *s)
{
	char *d = malloc(strlen(s) + 1);
	if (!d)
		abort();
	return strcpy(d, s);
}

static void walk(const char *root, const char *rel, char ***list, unsigned *n)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		char r[4096], full[8192];
		struct stat st;
		size_t k = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", root, r);
		if (stat(full, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(root, r, list, n);
		} else if (k > 4 && !strcmp(e->d_name + k - 4, ".pto") && !strstr(e->d_name, "invalid") &&
			   !is_pending(r)) {
			*list = realloc(*list, sizeof **list * (*n + 1));
			(*list)[(*n)++] = dupstr(full);
		}
	}
	closedir(d);
}

/* Whether ptoc parses and verifies the file (the tests of errors do not). */
static int ptoc_accepts(const char *path)
{
	ptoc_context *ctx = ptoc_context_create();
	size_t len;
	char *src = slurp(path, &len);
	ptoc_module *m = src ? ptoc_parse(ctx, src, len, path) : NULL;
	int ok = m && !ptoc_module_verify(m) && !ptoc_context_error_count(ctx);
	free(src);
	ptoc_context_destroy(ctx);
	return ok;
}

int main(int argc, char **argv)
{
	int i;
	if (argc >= 4 && !strcmp(argv[1], "--corpus")) {
		char **list = NULL, *pl, *line;
		unsigned n = 0, k;
		size_t len;
		struct stat st;
		if (stat(argv[2], &st) || !S_ISDIR(st.st_mode))
			return check_skip("test_mlir_roundtrip", "no PTOAS corpus at %s", argv[2]);
		if (!(pl = slurp(argv[3], &len)))
			return check_skip("test_mlir_roundtrip", "cannot read %s", argv[3]);
		for (line = strtok(pl, "\n"); line; line = strtok(NULL, "\n"))
			if (line[0] != '#' && line[0]) {
				pending = realloc(pending, sizeof *pending * (npending + 1));
				pending[npending++] = line;
			}
		walk(argv[2], "", &list, &n);
		qsort(list, n, sizeof *list, cmpstr);
		CHECK(n > 30, "only %u corpus files", n);
		for (k = 0; k < n; k++) {
			one_file(list[k], 0);
			one_file(list[k], 1);
			free(list[k]);
		}
		free(list);
		free(pending);
		free(pl);
	} else if (argc >= 3 && !strcmp(argv[1], "--tree")) {
		/* every .pto under DIR that ptoc itself parses and verifies, minus the files
		 * named after DIR (paths relative to DIR) */
		char **list = NULL;
		unsigned n = 0, k, rejected = 0;
		for (i = 3; i < argc; i++) {
			pending = realloc(pending, sizeof *pending * (npending + 1));
			pending[npending++] = argv[i];
		}
		walk(argv[2], "", &list, &n);
		qsort(list, n, sizeof *list, cmpstr);
		for (k = 0; k < n; k++) {
			if (ptoc_accepts(list[k])) {
				one_file(list[k], 0);
				one_file(list[k], 1);
			} else {
				rejected++;
			}
			free(list[k]);
		}
		CHECK(n - rejected > 20, "only %u of the %u files under %s are round-trip inputs", n - rejected,
		      n, argv[2]);
		printf("test_mlir_roundtrip: %u files under %s that ptoc itself rejects left out\n", rejected,
		       argv[2]);
		free(list);
		free(pending);
	} else {
		for (i = 1; i < argc; i++) {
			one_file(argv[i], 0);
			one_file(argv[i], 1);
		}
	}
	printf("test_mlir_roundtrip: %u file round trips (A, B, C in two contexts each)\n", files_done);
	free(diags.s);
	return check_report("test_mlir_roundtrip");
}
