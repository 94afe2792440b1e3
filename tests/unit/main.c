/* main.c - registers every unit-test suite and runs them with CUnit. */
#include "tests.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char diagbuf[1 << 16];
static size_t diaglen;

static void
collect(void *ud, const sl_diag *d)
{
	const sl_context *ctx = ud;
	static const char *const kind[] = {"error", "warning", "remark", "note"};
	int n = snprintf(diagbuf + diaglen, sizeof diagbuf - diaglen, "%s:%u:%u: %s: %s\n",
	                 sl_sym_str(ctx, d->loc.file), d->loc.line, d->loc.col,
	                 kind[d->severity], d->message);
	if (n > 0 && diaglen + (size_t)n < sizeof diagbuf)
		diaglen += (size_t)n;
}

sl_module *
test_parse(sl_context *ctx, const char *text)
{
	diaglen = 0;
	diagbuf[0] = 0;
	sl_context_set_diag(ctx, collect, ctx);
	return sl_module_parse(ctx, "t.mlir", text, strlen(text));
}

const char *
test_diags(void)
{
	return diagbuf;
}

char *
test_print(const sl_module *m)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	sl_module_print(m, f, NULL);
	fclose(f);
	return p;
}

char *
test_roundtrip(const char *text)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	char *out = NULL;
	if (m && sl_module_verify(m) == 0)
		out = test_print(m);
	sl_module_free(m);
	sl_context_free(ctx);
	return out;
}

const char *
test_verify_diags(const char *text)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	if (m)
		sl_module_verify(m);
	sl_module_free(m);
	sl_context_free(ctx);
	return diagbuf;
}

int
main(void)
{
	CU_SuiteInfo suites[] = {
#define X(name) {#name, NULL, NULL, NULL, NULL, tests_##name},
		SUITES(X)
#undef X
		CU_SUITE_INFO_NULL,
	};
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 99;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		CU_cleanup_registry();
		return 99;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
