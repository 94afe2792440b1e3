/*
 * tests.h - the unit-test suites; each test_<module>.c exports one
 * CU_TestInfo array, registered in main.c.  Helpers shared by suites.
 */
#ifndef SL_TESTS_UNIT_TESTS_H
#define SL_TESTS_UNIT_TESTS_H

#include <CUnit/CUnit.h>

#include "shardlp.h"

#define SUITES(X) X(access) X(access_passes) X(api) X(axis) X(cost) X(explicit_reshard) X(gspmd) X(iopddl) X(lexer) X(options) X(parser) X(passes) X(pipeline) X(printer) X(propagation) X(reshard) X(rules) X(sdy) X(solver) X(stablehlo) X(stablehlo_attrs) X(util) X(verify) X(xml)
#define X(name) extern CU_TestInfo tests_##name[];
SUITES(X)
#undef X

/*
 * Parses `text` (name "t.mlir"), returns the module or NULL; diagnostics
 * are collected into a buffer readable with test_diags() until the next
 * call.  test_print returns the printed module (malloc'd).
 */
sl_module *test_parse(sl_context *ctx, const char *text);
const char *test_diags(void);
char *test_print(const sl_module *m);
/* Parse, verify and print; returns malloc'd output or NULL on error. */
char *test_roundtrip(const char *text);
/* Parse and verify; returns the collected diagnostics (static buffer),
 * "" when the module is valid. */
const char *test_verify_diags(const char *text);

#endif
