/* test_api.c: an embedder's use of libptoc through include/ptoc only: parse, verify,
 * run passes (named and default pipelines, unknown pass or target), print, and the
 * diagnostics that reach the handler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptoc/ptoc.h"

static char last_diag[512];
static unsigned ndiags;

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg,
		    size_t len)
{
	(void)user;
	(void)sev;
	(void)loc;
	snprintf(last_diag, sizeof last_diag, "%.*s", (int)len, msg);
	ndiags++;
}

static int sink(void *user, const char *data, size_t len)
{
	size_t *n = user;
	(void)data;
	*n += len;
	return 0;
}

static const char kernel[] =
	"module {\n"
	"  func.func @k(%a: !pto.ptr<f32>) {\n"
	"    return\n"
	"  }\n"
	"}\n";

int main(void)
{
	ptoc_context *ctx = ptoc_context_create();
	ptoc_module *m;
	size_t printed = 0;
	CHECK(ctx != NULL);
	ptoc_context_set_diag_handler(ctx, on_diag, NULL);
	m = ptoc_parse(ctx, kernel, strlen(kernel), "k.pto");
	CHECK(m != NULL);
	if (!m)
		return 1;
	CHECK(ptoc_module_verify(m) == 0);
	CHECK(ptoc_module_run_passes(m, "verify", NULL, NULL) == 0);
	CHECK(ptoc_module_run_passes(m, "verify", "a5", NULL) == 0);
	CHECK(ndiags == 0);

	CHECK(ptoc_module_run_passes(m, "verify,no-such-pass", NULL, NULL) == -1);
	CHECK(strstr(last_diag, "unknown pass 'no-such-pass'") != NULL);
	CHECK(ptoc_module_run_passes(m, "verify", "a9", NULL) == -1);
	CHECK(strstr(last_diag, "unknown target 'a9'") != NULL);
	CHECK(ndiags == 2);

	CHECK(ptoc_module_print(m, PTOC_PRINT_CUSTOM, sink, &printed) == 0);
	CHECK(printed > 0);

	/* bad input: a diagnostic and NULL, never a crash */
	ndiags = 0;
	m = ptoc_parse(ctx, "func.func @x( {", 15, "bad.pto");
	CHECK(m == NULL);
	CHECK(ndiags >= 1);
	ptoc_context_destroy(ctx);
	return check_report("test_api");
}
