/* fuzz_frontend.c: libFuzzer entry point for the frontend. Every input is parsed,
 * verified and printed in the custom and the generic form; each print is parsed again
 * and must print identically (the printer writes what the parser reads). Any crash,
 * sanitizer report or round-trip difference is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "ir/ir.h"

typedef struct out {
	char *p;
	size_t n, cap;
} out;

static int put(void *user, const char *data, size_t len)
{
	out *o = user;
	if (o->n + len + 1 > o->cap) {
		size_t cap = (o->n + len + 1) * 2;
		char *p = realloc(o->p, cap);
		if (!p)
			return -1;
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->n, data, len);
	o->n += len;
	return 0;
}

static void fail(const char *what, const out *a, const out *b)
{
	fprintf(stderr, "fuzz: %s\n--- first print ---\n%.*s\n--- second print ---\n%.*s\n", what,
		(int)a->n, a->p, b ? (int)b->n : 0, b ? b->p : "");
	abort();
}

/* Prints `m` in `form`, re-parses the print, prints again and compares. */
static void round_trip(ptoc_module *m, ptoc_print_form form)
{
	ptoc_context *ctx2;
	ptoc_module *m2;
	out a = {NULL, 0, 0}, b = {NULL, 0, 0};
	if (ptoc_module_print(m, form, put, &a))
		goto done;
	ctx2 = ptoc_context_create();
	ir_add_source(ctx2, "print", a.p ? a.p : "", a.n);
	m2 = fe_parse(ctx2, a.p ? a.p : "", a.n, "print", 1);
	if (!m2)
		fail(form == PTOC_PRINT_GENERIC ? "generic print does not parse"
						: "custom print does not parse", &a, NULL);
	if (ptoc_module_print(m2, form, put, &b) == 0 &&
	    (a.n != b.n || memcmp(a.p, b.p, a.n)))
		fail("second print differs", &a, &b);
	ptoc_context_destroy(ctx2);
done:
	free(a.p);
	free(b.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ptoc_context *ctx = ptoc_context_create();
	const char *buf = (const char *)data;
	ptoc_module *m;
	ir_add_source(ctx, "fuzz", buf, size);
	m = fe_parse(ctx, buf, size, "fuzz", 1);
	if (m && ptoc_context_error_count(ctx) == 0) {
		ptoc_module_verify(m);
		round_trip(m, PTOC_PRINT_CUSTOM);
		round_trip(m, PTOC_PRINT_GENERIC);
	}
	ptoc_context_destroy(ctx);
	return 0;
}
