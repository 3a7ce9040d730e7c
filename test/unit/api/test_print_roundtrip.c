/* test_print_roundtrip.c: inputs the fuzzer (test/fuzz) found, kept as regressions in
 * every build: each parses, is verified (its errors are expected and ignored, as the
 * fuzz target does), and its prints in the custom, generic and generic-with-locations
 * forms each parse again and print identically. Under the sanitizer build
 * (make check-sanitize) the verifier's arithmetic on them is checked too. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ptoc/ptoc.h"

static const char *const inputs[] = {
	/* a SYNC attribute whose value is not one word: printed whole, since `<TL.X>`
	 * does not read back (custom print did not parse) */
	"func.func @f() {\n"
	"  pto.get_buf[#pto.pipe_event_type<TL.X>, 0]\n"
	"  pto.record_event[#pto.pipe_event_type<A$B>, <TVEC>, #pto.event<E.1>]\n"
	"  return\n"
	"}\n",
	/* i63's bounds (a signed shift by 63 in the verifier: UBSan) */
	"func.func @g() {\n"
	"  %a = \"arith.constant\"() {value = 9223372036854775807} : () -> i63\n"
	"  %b = \"arith.constant\"() {value = -9223372036854775807} : () -> si63\n"
	"  return\n"
	"}\n",
};

static void on_diag(void *user, ptoc_severity sev, ptoc_location loc, const char *msg,
		    size_t len)
{
	(void)user, (void)sev, (void)loc, (void)msg, (void)len;
}

static void round_trip(ptoc_module *m, ptoc_print_form form, unsigned k)
{
	ptoc_context *ctx2 = ptoc_context_create();
	ptoc_buf a = {0}, b = {0};
	ptoc_module *m2;
	CHECK(ptoc_module_print(m, form, ptoc_buf_write, &a) == 0, "input %u: print %d", k, form);
	ptoc_context_set_diag_handler(ctx2, on_diag, NULL);
	m2 = ptoc_parse(ctx2, a.data ? a.data : "", a.len, "print");
	CHECK(m2 && ptoc_context_error_count(ctx2) == 0, "input %u: form %d does not parse:\n%.*s", k,
	      form, (int)a.len, a.data ? a.data : "");
	if (m2) {
		CHECK(ptoc_module_print(m2, form, ptoc_buf_write, &b) == 0);
		CHECK(a.len == b.len && !memcmp(a.data, b.data, a.len),
		      "input %u: form %d prints differently the second time:\n%.*s\n---\n%.*s", k, form,
		      (int)a.len, a.data, (int)b.len, b.data ? b.data : "");
	}
	ptoc_buf_free(&a);
	ptoc_buf_free(&b);
	ptoc_context_destroy(ctx2);
}

int main(void)
{
	unsigned k;
	for (k = 0; k < sizeof inputs / sizeof inputs[0]; k++) {
		ptoc_context *ctx = ptoc_context_create();
		ptoc_module *m;
		ptoc_context_set_diag_handler(ctx, on_diag, NULL);
		m = ptoc_parse(ctx, inputs[k], strlen(inputs[k]), "regression");
		CHECK(m && ptoc_context_error_count(ctx) == 0, "input %u does not parse", k);
		if (m) {
			ptoc_module_verify(m);
			round_trip(m, PTOC_PRINT_CUSTOM, k);
			round_trip(m, PTOC_PRINT_GENERIC, k);
			round_trip(m, PTOC_PRINT_GENERIC | PTOC_PRINT_LOCATIONS, k);
		}
		ptoc_context_destroy(ctx);
	}
	return check_report("test_print_roundtrip");
}
