/* test_parser.c - unit tests of the MLIR reader (core syntax). */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

/* Parses text and returns 1 when it fails with `msg` at line:col. */
static int
fails_with(const char *text, const char *where, const char *msg)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	int ok = !m && strstr(test_diags(), where) && strstr(test_diags(), msg);
	if (!ok)
		fprintf(stderr, "\n  diags: %s", test_diags());
	sl_module_free(m);
	sl_context_free(ctx);
	return ok;
}

static void
test_generic_ops(void)
{
	const char *in =
		"func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
		"  %0:2 = \"x.pair\"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
		"  %1 = \"x.use\"(%0#1, %0#0) <{p = 1 : i32}> {z = \"s\", a} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
		"  return %1 : tensor<4xf32>\n"
		"}\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%0:2 = \"x.pair\"(%arg0)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"x.use\"(%0#1, %0#0) <{p = 1 : i32}> {a, z = \"s\"}"));
	free(out);
}

static void
test_errors(void)
{
	CU_ASSERT(fails_with("func.func @f() {\n  %0 = \"x.y\"(%1) : (i32) -> i32\n}",
	                     "t.mlir:2:14:", "use of undeclared SSA value name"));
	CU_ASSERT(fails_with("func.func @f(%a: i32) {\n  %0 = \"x.y\"(%a) : (i32) -> i32\n"
	                     "  %0 = \"x.y\"(%a) : (i32) -> i32\n}",
	                     "t.mlir:3:3:", "redefinition of SSA value '%0'"));
	CU_ASSERT(fails_with("func.func @f(%a: tensor<99999999999999999999xf32>) {\n}",
	                     "t.mlir:1:25:", "dimension size is too large"));
	CU_ASSERT(fails_with("func.func @f() {\n  %0 = \"x.y\"() : () -> i32\n",
	                     "t.mlir:3:1:", "expected '}' to end region"));
	CU_ASSERT(fails_with("func.func @f() {\n  %0 = foo.bar : i32\n}",
	                     "t.mlir:2:8:", "custom op 'foo.bar' is unknown"));
	CU_ASSERT(fails_with("func.func @f(%a: i32) {\n  %0 = \"x.y\"(%a) : (f32) -> i32\n}",
	                     "t.mlir:2:20:", "expects different type than prior uses"));
	CU_ASSERT(fails_with("#a = #b\n", "t.mlir:1:6:", "undefined symbol alias id 'b'"));
	CU_ASSERT(fails_with("func.func @f() {\n  %0:2 = \"x.y\"() : () -> i32\n}",
	                     "t.mlir:2:3:", "operation defines 1 results but was provided 2 to bind"));
	CU_ASSERT(fails_with("\"x.y\"() {a = [1, 2} : () -> ()", "t.mlir:1:", "expected ']'"));
}

static void
test_deep_nesting(void)
{
	/* 10000 nested arrays: an error, not a stack overflow */
	size_t n = 10000;
	char *s = malloc(2 * n + 64);
	strcpy(s, "\"x.y\"() {a = ");
	size_t k = strlen(s);
	memset(s + k, '[', n);
	memset(s + k + n, ']', n);
	strcpy(s + k + 2 * n, "} : () -> ()");
	CU_ASSERT(fails_with(s, "t.mlir:1:", "nesting is deeper than"));
	free(s);
}

static void
test_aliases_and_locations(void)
{
	const char *in =
		"#s = #sdy.sharding<@mesh, [{\"a\"}]>\n"
		"!t = tensor<8xf32>\n"
		"module @m attributes {x.y = 1 : i32} {\n"
		"  sdy.mesh @mesh = <[\"a\"=2]>\n"
		"  func.func @f(%a: !t {sdy.sharding = #s} loc(\"a\")) -> !t {\n"
		"    return %a : !t loc(#loc1)\n"
		"  } loc(#loc1)\n"
		"} loc(#loc1)\n"
		"#loc1 = loc(\"file.py\":3:4)\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "module @m attributes {x.y = 1 : i32} {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}"));
	CU_ASSERT_PTR_NULL(strstr(out, "loc("));
	free(out);
}

static void
test_declarations_and_results(void)
{
	const char *in =
		"func.func private @d(tensor<4xf32> {x.a}, tensor<2xi32>) -> (tensor<4xf32> {x.b = 1 : i64})\n"
		"func.func public @g() -> (i32, i32) {\n"
		"  %0 = \"x.c\"() : () -> i32\n"
		"  return %0, %0 : i32, i32\n"
		"}\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "func.func private @d(tensor<4xf32> {x.a}, tensor<2xi32>) -> (tensor<4xf32> {x.b = 1 : i64})\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "func.func public @g() -> (i32, i32) {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "return %0, %0 : i32, i32"));
	free(out);
}

static void
test_types(void)
{
	const char *in =
		"func.func @f(%a: tensor<?x4xf32>, %b: tensor<*xi8>, %c: tuple<tensor<f32>, !stablehlo.token>,"
		" %d: tensor<2xcomplex<f64>>, %e: tensor<4xf32, #x.enc<1>>, %f: !x.opaque<\"a>b\">) {\n"
		"  return\n"
		"}\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg0: tensor<?x4xf32>, %arg1: tensor<*xi8>, "
	                                   "%arg2: tuple<tensor<f32>, !stablehlo.token>, "
	                                   "%arg3: tensor<2xcomplex<f64>>, %arg4: tensor<4xf32, #x.enc<1>>, "
	                                   "%arg5: !x.opaque<\"a>b\">"));
	free(out);
}

CU_TestInfo tests_parser[] = {
	{"generic ops", test_generic_ops},
	{"located errors", test_errors},
	{"deep nesting", test_deep_nesting},
	{"aliases and locations", test_aliases_and_locations},
	{"declarations and results", test_declarations_and_results},
	{"types", test_types},
	CU_TEST_INFO_NULL,
};
