/* test_compile.c: the public API the ptoc driver is built on (include/ptoc only): the
 * text buffer, ptoc_module_compile with each output, the pass list and pipelines,
 * ptoc_parse_part's line numbers, ptoc_module_set_target and the spelling list. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ptoc/legality.h"
#include "ptoc/ptoc.h"

static char diags[4096];

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg,
		    size_t len)
{
	size_t n = strlen(diags);
	(void)user;
	snprintf(diags + n, sizeof diags - n, "%s:%u: %s: %.*s\n", loc.file ? loc.file : "?",
		 (unsigned)loc.line, sev == PTOC_ERROR ? "error" : "other", (int)len, msg);
}

static void test_buf(void)
{
	char small[8];
	ptoc_buf f, g = {0};
	ptoc_buf_fixed(&f, small, sizeof small);
	CHECK(f.len == 0 && small[0] == 0);
	CHECK(ptoc_buf_puts(&f, "abcd") == 0 && f.len == 4 && !strcmp(small, "abcd"));
	/* keeps cap - 1 bytes, counts everything, like snprintf */
	CHECK(ptoc_buf_puts(&f, "efghij") == 0 && f.len == 10 && !strcmp(small, "abcdefg"));
	CHECK(ptoc_buf_write(&f, "k", 1) == 0 && f.len == 11 && !strcmp(small, "abcdefg"));
	ptoc_buf_free(&f);
	CHECK(f.len == 0 && small[0] == 0 && f.data == small);
	{
		char one[1] = {'x'};
		ptoc_buf z;
		ptoc_buf_fixed(&z, one, 1);
		CHECK(ptoc_buf_puts(&z, "abc") == 0 && z.len == 3 && one[0] == 0);
	}
	/* growing: across several reallocations, NUL-terminated, bytes intact */
	{
		size_t i;
		int ok = 1;
		for (i = 0; i < 10000; i++) {
			char c = (char)('a' + i % 26);
			ok &= ptoc_buf_write(&g, &c, 1) == 0;
		}
		CHECK(ok && g.len == 10000 && g.data[10000] == 0 && g.cap > 10000);
		for (i = 0; i < 10000; i++)
			if (g.data[i] != (char)('a' + i % 26))
				break;
		CHECK(i == 10000, "byte %zu", i);
		CHECK(ptoc_buf_write(&g, "", 0) == 0 && g.len == 10000);
		CHECK(ptoc_buf_reserve(&g, 1u << 20) == 0 && g.cap > g.len + (1u << 20));
		ptoc_buf_free(&g);
		CHECK(g.data == NULL && g.len == 0 && g.cap == 0);
		CHECK(ptoc_buf_write(&g, "", 0) == 0 && g.data && g.data[0] == 0);
		ptoc_buf_free(&g);
	}
	/* a growing buffer refuses an impossible size instead of wrapping around */
	CHECK(ptoc_buf_reserve(&g, (size_t)-1) == -1 && g.oom);
	CHECK(ptoc_buf_write(&g, "x", 1) == -1);
	ptoc_buf_free(&g);
	CHECK(!g.oom && ptoc_buf_write(&g, "x", 1) == 0 && !strcmp(g.data, "x"));
	ptoc_buf_free(&g);
}

static void test_passes(void)
{
	const char *name, *summary;
	char err[256], names[64];
	size_t i, n = 0;
	for (i = 0; !ptoc_pass_info(i, &name, &summary); i++)
		n++;
	CHECK(n == 9, "%zu passes", n);
	CHECK(!ptoc_pass_info(0, &name, &summary) && !strcmp(name, "verify") && *summary);
	CHECK(!ptoc_pass_info(1, &name, &summary) && !strcmp(name, "inline"));
	CHECK(!ptoc_pass_info(6, &name, &summary) && !strcmp(name, "insert-sync"));
	CHECK(!ptoc_pass_info(7, &name, &summary) && !strcmp(name, "split-repeats"));
	CHECK(!ptoc_pass_info(8, &name, &summary) && !strcmp(name, "fuse-dma"));
	CHECK(ptoc_pass_info(9, &name, &summary) == -1);
	CHECK(!strcmp(ptoc_default_pipeline(), "inline,check-cube,legalize-cvt,bufferize,"
		      "place-tiles,insert-sync,split-repeats,fuse-dma"));
	CHECK(ptoc_pipeline_check(ptoc_default_pipeline(), err, sizeof err) == 0);
	CHECK(ptoc_pipeline_check("", err, sizeof err) == 0);
	CHECK(ptoc_pipeline_check("verify,nope", err, sizeof err) == -1 &&
	      strstr(err, "unknown pass 'nope'"), "%s", err);
	CHECK(ptoc_target_spellings(names, sizeof names) == 16 &&
	      !strcmp(names, "a2a3, a3, a2, a5"), "%s", names);
}

static const char kernel[] =
	"module attributes {pto.target_arch = \"A5\"} {\n"
	"  func.func @k(%a: !pto.ptr<f32>) {\n"
	"    return\n"
	"  }\n"
	"}\n";

/* ptoc_module_compile on a fresh parse of `text` with output `out`. */
static int compile(const char *text, const char *target, ptoc_output out, ptoc_buf *b)
{
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	ptoc_compile_opts o = {0};
	int rc = -1;
	diags[0] = 0;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	m = ptoc_parse(ctx, text, strlen(text), "k.pto");
	o.target = target;
	o.output = out;
	if (m)
		rc = ptoc_module_compile(m, &o, ptoc_buf_write, b);
	ptoc_context_destroy(ctx);
	return rc;
}

static void test_compile(void)
{
	ptoc_buf b = {0};
	CHECK(compile(kernel, NULL, PTOC_OUTPUT_C, &b) == 0 && strstr(b.data, "for target a5.") &&
	      strstr(b.data, "void k(ptort_ctx *ctx"), "%s", diags);
	ptoc_buf_free(&b);
	CHECK(compile(kernel, "a2", PTOC_OUTPUT_C, &b) == 0 && strstr(b.data, "for target a2a3."));
	ptoc_buf_free(&b);
	CHECK(compile(kernel, NULL, PTOC_OUTPUT_MAIN, &b) == 0 && strstr(b.data, "main("));
	ptoc_buf_free(&b);
	CHECK(compile(kernel, NULL, PTOC_OUTPUT_IR, &b) == 0 &&
	      strstr(b.data, "pto.target_arch = \"A5\"") && strstr(b.data, "func.func @k"));
	ptoc_buf_free(&b);
	CHECK(compile(kernel, NULL, PTOC_OUTPUT_GENERIC, &b) == 0 &&
	      strstr(b.data, "\"func.func\"()"), "%s", b.data ? b.data : "");
	ptoc_buf_free(&b);
	CHECK(compile(kernel, NULL, PTOC_OUTPUT_NONE, &b) == 0 && b.len == 0);
	CHECK(compile(kernel, "a9", PTOC_OUTPUT_C, &b) == -1 && b.len == 0 &&
	      strstr(diags, "k.pto:1: error: unknown target 'a9' (a2a3, a3, a2, a5)"), "%s", diags);
	ptoc_buf_free(&b);
}

static void test_parse_part(void)
{
	static const char text[] = "// -----\n\nfunc.func @k() {\n  %x = arith.nope\n}\n";
	const char *part = strchr(text, '\n') + 1; /* from line 2 */
	ptoc_context *ctx = ptoc_context_create();
	diags[0] = 0;
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	ptoc_context_add_source(ctx, "whole.pto", text, strlen(text));
	CHECK(ptoc_parse_part(ctx, part, strlen(part), "whole.pto", 2) == NULL);
	CHECK(strstr(diags, "whole.pto:4: error:"), "%s", diags);
	ptoc_context_destroy(ctx);
}

int main(void)
{
	test_buf();
	test_passes();
	test_compile();
	test_parse_part();
	return check_report("test_compile");
}
