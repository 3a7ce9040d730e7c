/* fuzz_frontend.c: libFuzzer entry point for the frontend. Every input is parsed,
 * verified and printed in the custom and the generic form, and in the generic form with
 * locations; each print is parsed again and must print identically (the printer writes
 * what the parser reads). Any crash,
 * sanitizer report or round-trip difference is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptoc/ptoc.h"

static void fail(const char *what, const ptoc_buf *a, const ptoc_buf *b)
{
	fprintf(stderr, "fuzz: %s\n--- first print ---\n%.*s\n--- second print ---\n%.*s\n", what,
		(int)a->len, a->data ? a->data : "", b ? (int)b->len : 0, b && b->data ? b->data : "");
	abort();
}

/* Prints `m` in `form`, re-parses the print, prints again and compares. */
static void round_trip(ptoc_module *m, ptoc_print_form form)
{
	ptoc_context *ctx2;
	ptoc_module *m2;
	ptoc_buf a = {0}, b = {0};
	if (ptoc_module_print(m, form, ptoc_buf_write, &a))
		goto done;
	ctx2 = ptoc_context_create();
	m2 = ptoc_parse(ctx2, a.data ? a.data : "", a.len, "print");
	if (!m2)
		fail(form == PTOC_PRINT_CUSTOM ? "custom print does not parse"
					       : "generic print does not parse", &a, NULL);
	if (ptoc_module_print(m2, form, ptoc_buf_write, &b) == 0 &&
	    (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len))))
		fail("second print differs", &a, &b);
	ptoc_context_destroy(ctx2);
done:
	ptoc_buf_free(&a);
	ptoc_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ptoc_context *ctx = ptoc_context_create();
	const char *buf = (const char *)data;
	ptoc_module *m;
	m = ptoc_parse(ctx, buf, size, "fuzz");
	if (m && ptoc_context_error_count(ctx) == 0) {
		ptoc_module_verify(m);
		round_trip(m, PTOC_PRINT_CUSTOM);
		round_trip(m, PTOC_PRINT_GENERIC);
		round_trip(m, PTOC_PRINT_GENERIC | PTOC_PRINT_LOCATIONS);
	}
	ptoc_context_destroy(ctx);
	return 0;
}
