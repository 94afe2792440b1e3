/* test_printer.c - unit tests of the MLIR writer: naming, sorting, escapes. */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "ir/access.h"

static void
test_numbering(void)
{
	/* nested regions continue the parent's numbers; siblings restart */
	const char *in =
		"func.func @f(%a: i32, %b: i32) -> i32 {\n"
		"  %x = \"x.a\"() : () -> i32\n"
		"  %y = \"x.r\"(%a) ({\n"
		"  ^bb0(%p: i32):\n"
		"    %z = \"x.b\"(%p) : (i32) -> i32\n"
		"    \"x.t\"(%z) : (i32) -> ()\n"
		"  }, {\n"
		"  ^bb0(%q: i32):\n"
		"    %w = \"x.b\"(%q, %x) : (i32, i32) -> i32\n"
		"    \"x.t\"(%w) : (i32) -> ()\n"
		"  }) : (i32) -> i32\n"
		"  return %y : i32\n"
		"}\n"
		"func.func @g(%a: i32) -> i32 {\n"
		"  return %a : i32\n"
		"}\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "^bb0(%arg2: i32):\n      %2 = \"x.b\"(%arg2)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "^bb0(%arg2: i32):\n      %2 = \"x.b\"(%arg2, %0)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "func.func @g(%arg0: i32)"));
	free(out);
}

static void
test_sorted_dict_and_escapes(void)
{
	const char *in = "\"x.y\"() {zz = 1 : i32, \"a b\" = \"q\\\"\\n\\\\\", b = true} : () -> ()\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{\"a b\" = \"q\\22\\0A\\\\\", b = true, zz = 1 : i32}"));
	free(out);
}

static void
test_stable(void)
{
	const char *in =
		"module {\n"
		"  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
		"    %0 = \"x.y\"(%arg0) <{a = array<i64: 1, 2>, b = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> "
		"{c = [@s, 1.500000e+00 : f32, -2 : i8, unit, #x.attr<\"->\">]} : (tensor<4xf32>) -> tensor<4xf32>\n"
		"    return %0 : tensor<4xf32>\n"
		"  }\n"
		"}\n";
	char *out = test_roundtrip(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_STRING_EQUAL(out, in);
	char *again = test_roundtrip(out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	CU_ASSERT_STRING_EQUAL(again, out);
	free(out);
	free(again);
}

/* Cloning a function maps nested block arguments and results; replacing
 * uses through a map rewires every operand below the root. */
static void
test_clone_and_replace(void)
{
	const char *in =
		"func.func @f(%a: i32) -> i32 {\n"
		"  %0 = \"x.r\"(%a) ({\n"
		"  ^bb0(%p: i32):\n"
		"    %1 = \"x.b\"(%p, %a) : (i32, i32) -> i32\n"
		"    \"x.t\"(%1) : (i32) -> ()\n"
		"  }) : (i32) -> i32\n"
		"  %2 = \"x.c\"(%0, %a) : (i32, i32) -> i32\n"
		"  return %2 : i32\n"
		"}\n";
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_op *f = m->top->regions[0].first->first;
	sli_vmap map;
	sli_vmap_init(&map);
	sl_op *g = sli_op_clone(m, f, &map);
	sli_op_append(m->top->regions[0].first, g);
	sl_op *r = f->regions[0].first->first;
	CU_ASSERT_PTR_EQUAL(sli_vmap_get(&map, &r->results[0]), &g->regions[0].first->first->results[0]);
	/* the clone's inner op uses the clone's arguments, not the original's */
	sl_op *inner = g->regions[0].first->first->regions[0].first->first;
	CU_ASSERT_PTR_EQUAL(inner->operands[1], &g->regions[0].first->args[0]);
	sli_uses uses;
	sli_uses_compute(&uses, f);
	size_t n;
	sli_uses_of(&uses, &f->regions[0].first->args[0], &n);
	CU_ASSERT_EQUAL(n, 3);
	sli_uses_fini(&uses);
	/* rewire uses of %a in f to the result of x.r, except x.r itself */
	sli_replace_uses_except(f, &f->regions[0].first->args[0], &r->results[0], r);
	char *out = test_print(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%2 = \"x.b\"(%arg1, %0)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%1 = \"x.c\"(%0, %0)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%1 = \"x.c\"(%0, %arg0)"));
	free(out);
	sli_vmap_fini(&map);
	sl_module_free(m);
	sl_context_free(ctx);
}

/* f32 and f64 literals print as MLIR prints them: %.6e when exact. */
static void
test_float_literals(void)
{
	char *out = test_roundtrip("\"x.y\"() {a = 1.5 : f32, b = -0.1 : f64, c = 0.123456789 : f64, "
	                           "d = 0x7FC00000 : f32, e = 2.0 : bf16} : () -> ()\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{a = 1.500000e+00 : f32, b = -1.000000e-01 : f64, "
	                                   "c = 0.123456789 : f64, d = 0x7FC00000 : f32, e = 2.000000e+00 : bf16}"));
	free(out);
}

/* The generic form of func.func spells argument attributes as arg_attrs,
 * and reading it back puts them on the arguments again. */
static void
test_generic_func(void)
{
	const char *in = "func.func @f(%a: i32 {x.y = 1 : i32}, %b: i32) -> i32 {\n"
	                 "  return %a : i32\n}\n";
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	sl_print_opts po = {.generic = true};
	sl_module_print(m, f, &po);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "\"func.func\"() <{arg_attrs = [{x.y = 1 : i32}, {}], "
	                                 "function_type = (i32, i32) -> i32, sym_name = \"f\"}> ({"));
	char *back = test_roundtrip(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT_PTR_NOT_NULL(strstr(back, "func.func @f(%arg0: i32 {x.y = 1 : i32}, %arg1: i32) -> i32 {"));
	free(back);
	free(p);
	sl_module_free(m);
	sl_context_free(ctx);
}

/* dense<...> bodies as MLIR prints them: canonical floats, ", ", splats. */
static void
test_dense_bodies(void)
{
	char *out = test_roundtrip("\"x.y\"() {a = dense<[1.0,1.0]> : tensor<2xf32>, "
	                           "b = dense<[[1,2],[3,4]]> : tensor<2x2xi32>, "
	                           "c = dense<\"0x0000803F\"> : tensor<1xf32>, "
	                           "d = dense<[(1.0, 2.0)]> : tensor<1xcomplex<f64>>, "
	                           "e = dense<0.1> : tensor<bf16>} : () -> ()\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "a = dense<1.000000e+00> : tensor<2xf32>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "c = dense<\"0x0000803F\"> : tensor<1xf32>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "d = dense<(1.000000e+00, 2.000000e+00)> : tensor<1xcomplex<f64>>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "e = dense<1.000977e-01> : tensor<bf16>"));
	free(out);
}

CU_TestInfo tests_printer[] = {
	{"dense bodies", test_dense_bodies},
	{"generic func.func", test_generic_func},
	{"float literals", test_float_literals},
	{"clone and replace uses", test_clone_and_replace},
	{"value numbering", test_numbering},
	{"sorted dictionaries and escapes", test_sorted_dict_and_escapes},
	{"print-parse-print is stable", test_stable},
	CU_TEST_INFO_NULL,
};
