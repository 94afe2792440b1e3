/*
 * test_stablehlo.c - unit tests of the StableHLO custom syntax: pretty
 * input prints back unchanged, generic input prints in the pretty form,
 * print -> parse -> print is stable, malformed syntax fails at line:col.
 */
#include "tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A module holding one function @f of the given signature and body lines. */
static char *
wrap(const char *args, const char *results, const char *body)
{
	size_t n = strlen(args) + strlen(results) + strlen(body) + 128;
	char *s = malloc(n);
	snprintf(s, n, "module {\n  func.func @f(%s) -> %s {\n%s  }\n}\n", args, results, body);
	return s;
}

/* Round-trips text; the output must equal `want` and round-trip to itself. */
static int
prints_as(const char *text, const char *want)
{
	char *out = test_roundtrip(text);
	if (!out) {
		fprintf(stderr, "\n  diags: %s", test_diags());
		return 0;
	}
	int ok = strcmp(out, want) == 0;
	if (!ok)
		fprintf(stderr, "\n  got:\n%s  want:\n%s", out, want);
	char *again = test_roundtrip(out);
	if (!again || strcmp(again, out) != 0) {
		fprintf(stderr, "\n  unstable:\n%s", again ? again : test_diags());
		ok = 0;
	}
	free(again);
	free(out);
	return ok;
}

/* The function body `body` prints back unchanged. */
static int
stable(const char *args, const char *results, const char *body)
{
	char *s = wrap(args, results, body);
	int ok = prints_as(s, s);
	free(s);
	return ok;
}

/* Generic-form body `generic` prints as the pretty body `pretty`. */
static int
generic_as(const char *args, const char *results, const char *generic, const char *pretty)
{
	char *in = wrap(args, results, generic);
	char *want = wrap(args, results, pretty);
	int ok = prints_as(in, want);
	free(in);
	free(want);
	return ok;
}

/* Parsing fails with `msg` reported at `where` ("t.mlir:L:C:"). */
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

#define T2 "tensor<2xf32>"

static void
test_same(void)
{
	CU_ASSERT(stable("%arg0: " T2, T2,
	                 "    %0 = stablehlo.add %arg0, %arg0 : " T2 "\n"
	                 "    %1 = stablehlo.convert %0 : (" T2 ") -> tensor<2xi32>\n"
	                 "    %2 = stablehlo.clamp %arg0, %0, %arg0 : " T2 "\n"
	                 "    %3 = stablehlo.is_finite %2 : (" T2 ") -> tensor<2xi1>\n"
	                 "    %4 = stablehlo.reverse %2, dims = [0] : " T2 "\n"
	                 "    %5 = stablehlo.reduce_precision %4, format = e5m10 : " T2 "\n"
	                 "    %6 = stablehlo.negate %5 {a = 1 : i32} : " T2 "\n"
	                 "    %7 = stablehlo.after_all : !stablehlo.token\n"
	                 "    return %6 : " T2 "\n"));
	/* a bare type means every operand has it */
	CU_ASSERT(generic_as("%arg0: " T2, T2,
	                     "    %0 = \"stablehlo.multiply\"(%arg0, %arg0) : (" T2 ", " T2 ") -> " T2 "\n"
	                     "    %1 = \"stablehlo.reverse\"(%0) <{dimensions = array<i64: 0>}> : (" T2 ") -> " T2 "\n"
	                     "    return %1 : " T2 "\n",
	                     "    %0 = stablehlo.multiply %arg0, %arg0 : " T2 "\n"
	                     "    %1 = stablehlo.reverse %0, dims = [0] : " T2 "\n"
	                     "    return %1 : " T2 "\n"));
	/* operand types differ: functional type */
	CU_ASSERT(generic_as("%arg0: tensor<f32>, %arg1: " T2, T2,
	                     "    %0 = \"stablehlo.clamp\"(%arg0, %arg1, %arg0) : (tensor<f32>, " T2 ", tensor<f32>) -> " T2 "\n"
	                     "    return %0 : " T2 "\n",
	                     "    %0 = stablehlo.clamp %arg0, %arg1, %arg0 : (tensor<f32>, " T2 ", tensor<f32>) -> " T2 "\n"
	                     "    return %0 : " T2 "\n"));
}

static void
test_types_complex_select(void)
{
	CU_ASSERT(stable("%arg0: " T2 ", %arg1: tensor<2xi1>", T2,
	                 "    %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : " T2 ", tensor<2xi1>\n"
	                 "    %1 = stablehlo.select %0#1, %0#0, %arg0 : tensor<2xi1>, " T2 "\n"
	                 "    %2 = stablehlo.select %arg1, %1, %arg0 {x} : tensor<2xi1>, " T2 "\n"
	                 "    %3 = stablehlo.complex %1, %2 : tensor<2xcomplex<f32>>\n"
	                 "    %4 = stablehlo.real %3 : (tensor<2xcomplex<f32>>) -> " T2 "\n"
	                 "    return %4 : " T2 "\n"));
	CU_ASSERT(stable("%arg0: tensor<f32>, %arg1: tensor<i1>, %arg2: " T2, T2,
	                 "    %0 = stablehlo.select %arg1, %arg0, %arg2 : (tensor<i1>, tensor<f32>, " T2 ") -> " T2 "\n"
	                 "    return %0 : " T2 "\n"));
	CU_ASSERT(generic_as("%arg0: " T2, "tensor<2xcomplex<f32>>",
	                     "    %0 = \"stablehlo.complex\"(%arg0, %arg0) : (" T2 ", " T2 ") -> tensor<2xcomplex<f32>>\n"
	                     "    return %0 : tensor<2xcomplex<f32>>\n",
	                     "    %0 = stablehlo.complex %arg0, %arg0 : tensor<2xcomplex<f32>>\n"
	                     "    return %0 : tensor<2xcomplex<f32>>\n"));
}

static void
test_functional(void)
{
	CU_ASSERT(stable("%arg0: tensor<4x8xf32>, %arg1: tensor<i32>", "tensor<8x4xf32>",
	                 "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<2x4x8xf32>\n"
	                 "    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
	                 "    %2 = stablehlo.slice %arg0 [0:4, 1:8:2] : (tensor<4x8xf32>) -> tensor<4x4xf32>\n"
	                 "    %3 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, sizes = [1, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>\n"
	                 "    %4 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>\n"
	                 "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
	                 "    %5 = stablehlo.pad %arg0, %cst, low = [0, -1], high = [1, 0], interior = [0, 2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<5x21xf32>\n"
	                 "    %6 = stablehlo.reshape %1 : (tensor<8x4xf32>) -> tensor<32xf32>\n"
	                 "    %7 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<4x8xf32>) -> tensor<i32>\n"
	                 "    %8 = stablehlo.compare  LT, %arg0, %arg0,  FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>\n"
	                 "    %9 = stablehlo.compare  EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
	                 "    %10 = stablehlo.cholesky %2, lower = true : tensor<4x4xf32>\n"
	                 "    %11 = stablehlo.cholesky %2 : tensor<4x4xf32>\n"
	                 "    %12 = stablehlo.dot %1, %arg0 : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>\n"
	                 "    %13 = stablehlo.dot %1, %arg0, precision = [DEFAULT, HIGHEST] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>\n"
	                 "    %14 = stablehlo.dot_general %0, %0, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>\n"
	                 "    %15 = stablehlo.dot_general %1, %arg0, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>\n"
	                 "    %16 = stablehlo.fft %3, type =  RFFT, length = [2] : (tensor<1x2xf32>) -> tensor<1x2xcomplex<f32>>\n"
	                 "    %17 = stablehlo.bitcast_convert %arg1 : (tensor<i32>) -> tensor<f32>\n"
	                 "    %18 = stablehlo.dynamic_update_slice %arg0, %3, %arg1, %arg1 : (tensor<4x8xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>\n"
	                 "    return %1 : tensor<8x4xf32>\n"));
	CU_ASSERT(stable("%arg0: tensor<2xui64>", "tensor<2xui64>",
	                 "    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)\n"
	                 "    return %output_state : tensor<2xui64>\n"));
	CU_ASSERT(stable("%arg0: tuple<tensor<f32>, tensor<2xi32>>", "tensor<2xi32>",
	                 "    %0 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>\n"
	                 "    %1 = stablehlo.tuple %0, %0 {xla_shape = \"s\"} : tuple<tensor<2xi32>, tensor<2xi32>>\n"
	                 "    return %0 : tensor<2xi32>\n"));
}

static void
test_functional_generic(void)
{
	CU_ASSERT(generic_as("%arg0: tensor<4xf32>", "tensor<4x8xf32>",
	                     "    %0 = \"stablehlo.broadcast_in_dim\"(%arg0) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x8xf32>\n"
	                     "    %1 = \"stablehlo.compare\"(%arg0, %arg0) <{comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type TOTALORDER>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
	                     "    %2 = \"stablehlo.slice\"(%arg0) <{start_indices = array<i64: 1>, limit_indices = array<i64: 4>, strides = array<i64: 3>}> {y = 2 : i64} : (tensor<4xf32>) -> tensor<1xf32>\n"
	                     "    %3 = \"stablehlo.dot_general\"(%arg0, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision DEFAULT>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n"
	                     "    %4 = \"stablehlo.concatenate\"(%arg0, %arg0) <{dimension = 0 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>\n"
	                     "    %5 = \"stablehlo.iota\"() <{iota_dimension = 1 : i64}> : () -> tensor<2x3xi32>\n"
	                     "    %6 = \"stablehlo.transpose\"(%0) <{permutation = dense<[1, 0]> : tensor<2xi64>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
	                     "    return %0 : tensor<4x8xf32>\n",
	                     "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>\n"
	                     "    %1 = stablehlo.compare  GE, %arg0, %arg0,  TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
	                     "    %2 = stablehlo.slice %arg0 [1:4:3] {y = 2 : i64} : (tensor<4xf32>) -> tensor<1xf32>\n"
	                     "    %3 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] x [0], precision = [HIGH, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n"
	                     "    %4 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>\n"
	                     "    %5 = stablehlo.iota dim = 1 : tensor<2x3xi32>\n"
	                     "    %6 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
	                     "    return %0 : tensor<4x8xf32>\n"));
}

static void
test_props_match_generic(void)
{
	/* the pretty form stores what the generic form holds */
	sl_print_opts opts = {.generic = true};
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx,
		"func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
		"  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
		"  %1 = stablehlo.compare  LT, %a, %0,  FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>\n"
		"  %2 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<f32>>) -> tensor<f32>\n"
		"  return %0 : tensor<4x4xf32>\n}\n");
	CU_ASSERT_PTR_NULL(m);	/* %t is undefined */
	sl_module_free(m);
	m = test_parse(ctx,
		"func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
		"  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
		"  %1 = stablehlo.compare  LT, %a, %0,  FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>\n"
		"  %2 = stablehlo.dot_general %a, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4xf32>\n"
		"  %3 = stablehlo.custom_call @foo(%a) {has_side_effect = true, backend_config = \"\"} : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
		"  return %0 : tensor<4x4xf32>\n}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	sl_module_print(m, f, &opts);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "<{permutation = array<i64: 1, 0>}>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "<{compare_type = #stablehlo<comparison_type FLOAT>, "
	                                 "comparison_direction = #stablehlo<comparison_direction LT>}>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "<{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], "
	                                 "rhs_batching_dimensions = [1], lhs_contracting_dimensions = [1], "
	                                 "rhs_contracting_dimensions = [0]>}>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "<{backend_config = \"\", call_target_name = \"foo\", "
	                                 "has_side_effect = true}>"));
	free(p);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_constant_iota_custom_call(void)
{
	CU_ASSERT(stable("%arg0: tensor<1xf32>", "tensor<2xi8>",
	                 "    %c = stablehlo.constant dense<[-2, 0]> : tensor<2xi8>\n"
	                 "    %c_0 = stablehlo.constant {x.y = 1 : i32} dense<1> : tensor<2xi8>\n"
	                 "    %0 = stablehlo.iota dim = 0 : tensor<32xi32>\n"
	                 "    %1 = stablehlo.custom_call @target(%arg0) {has_side_effect = true} : (tensor<1xf32>) -> tensor<1xf32>\n"
	                 "    stablehlo.custom_call @check.expect_eq(%c, %c_0) : (tensor<2xi8>, tensor<2xi8>) -> ()\n"
	                 "    %2 = stablehlo.custom_call @\"odd name\"() {api_version = 2 : i32, backend_config = \"\"} : () -> tensor<1xf32>\n"
	                 "    %3 = stablehlo.composite \"my.op\" %arg0, %1 {composite_attributes = {k = 1 : i64}, decomposition = @f} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>\n"
	                 "    return %c : tensor<2xi8>\n"));
	/* default-valued inherent attributes are not printed */
	CU_ASSERT(generic_as("%arg0: tensor<1xf32>", "tensor<1xf32>",
	                     "    %0 = \"stablehlo.custom_call\"(%arg0) <{call_target_name = \"t\", has_side_effect = false, api_version = 1 : i32}> : (tensor<1xf32>) -> tensor<1xf32>\n"
	                     "    %1 = \"stablehlo.composite\"(%0) <{name = \"c\", decomposition = @f, version = 0 : i32}> : (tensor<1xf32>) -> tensor<1xf32>\n"
	                     "    return %1 : tensor<1xf32>\n",
	                     "    %0 = stablehlo.custom_call @t(%arg0) : (tensor<1xf32>) -> tensor<1xf32>\n"
	                     "    %1 = stablehlo.composite \"c\" %0 {decomposition = @f} : (tensor<1xf32>) -> tensor<1xf32>\n"
	                     "    return %1 : tensor<1xf32>\n"));
}

static void
test_convolution(void)
{
	CU_ASSERT(stable("%arg0: tensor<1x16x2xf32>, %arg1: tensor<3x2x2xf32>", "tensor<1x33x2xf32>",
	                 "    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x2xf32>, tensor<3x2x2xf32>) -> tensor<1x33x2xf32>\n"
	                 "    %1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[1, 2]], rhs_dilate = [1], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x16x2xf32>, tensor<3x2x2xf32>) -> tensor<1x17x2xf32>\n"
	                 "    return %0 : tensor<1x33x2xf32>\n"));
	CU_ASSERT(generic_as("%arg0: tensor<2x3x10xf32>, %arg1: tensor<3x3x5xf32>", "tensor<2x3x6xf32>",
	                     "    %0 = \"stablehlo.convolution\"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 1 : i64, window_strides = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>}> : (tensor<2x3x10xf32>, tensor<3x3x5xf32>) -> tensor<2x3x6xf32>\n"
	                     "    return %0 : tensor<2x3x6xf32>\n",
	                     "    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x10xf32>, tensor<3x3x5xf32>) -> tensor<2x3x6xf32>\n"
	                     "    return %0 : tensor<2x3x6xf32>\n"));
}

static void
test_reduce(void)
{
	CU_ASSERT(stable("%arg0: tensor<4x8xf32>, %arg1: tensor<f32>", "tensor<4xf32>",
	                 "    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
	                 "    return %0 : tensor<4xf32>\n"));
	/* a body that is not a single commutative op keeps the region form */
	CU_ASSERT(stable("%arg0: tensor<15xf32>, %arg1: tensor<15xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>", "tensor<i32>",
	                 "    %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [0] : (tensor<15xf32>, tensor<15xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
	                 "     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {\n"
	                 "      %1 = stablehlo.compare  GT, %arg4, %arg6,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
	                 "      %2 = stablehlo.select %1, %arg4, %arg6 : tensor<i1>, tensor<f32>\n"
	                 "      %3 = stablehlo.select %1, %arg5, %arg7 : tensor<i1>, tensor<i32>\n"
	                 "      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>\n"
	                 "    }\n"
	                 "    return %0#1 : tensor<i32>\n"));
	CU_ASSERT(generic_as("%arg0: tensor<4x8xf32>, %arg1: tensor<f32>", "tensor<4xf32>",
	                     "    %0 = \"stablehlo.reduce\"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({\n"
	                     "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
	                     "      %m = \"stablehlo.maximum\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
	                     "      \"stablehlo.return\"(%m) : (tensor<f32>) -> ()\n"
	                     "    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
	                     "    return %0 : tensor<4xf32>\n",
	                     "    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
	                     "    return %0 : tensor<4xf32>\n"));
	/* operands swapped in the body: not eligible for the compact form */
	CU_ASSERT(generic_as("%arg0: tensor<4xf32>, %arg1: tensor<f32>", "tensor<f32>",
	                     "    %0 = \"stablehlo.reduce\"(%arg0, %arg1) <{dimensions = array<i64: 0>}> ({\n"
	                     "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
	                     "      %m = \"stablehlo.add\"(%b, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
	                     "      \"stablehlo.return\"(%m) : (tensor<f32>) -> ()\n"
	                     "    }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
	                     "    return %0 : tensor<f32>\n",
	                     "    %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
	                     "     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {\n"
	                     "      %1 = stablehlo.add %arg3, %arg2 : tensor<f32>\n"
	                     "      stablehlo.return %1 : tensor<f32>\n"
	                     "    }\n"
	                     "    return %0 : tensor<f32>\n"));
}

static void
test_while(void)
{
	CU_ASSERT(stable("%arg0: tensor<i64>, %arg1: tensor<4xf32>", "tensor<4xf32>",
	                 "    %c = stablehlo.constant dense<1> : tensor<i64>\n"
	                 "    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i64>, tensor<4xf32>\n"
	                 "     cond {\n"
	                 "      %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
	                 "      stablehlo.return %1 : tensor<i1>\n"
	                 "    } do {\n"
	                 "      %1 = stablehlo.add %iterArg, %c : tensor<i64>\n"
	                 "      stablehlo.return %1, %iterArg_0 : tensor<i64>, tensor<4xf32>\n"
	                 "    }\n"
	                 "    return %0#1 : tensor<4xf32>\n"));
	CU_ASSERT(stable("%arg0: tensor<i1>", "tensor<i1>",
	                 "    %0 = stablehlo.while(%iterArg = %arg0) : tensor<i1> attributes {w = 1 : i32}\n"
	                 "     cond {\n"
	                 "      stablehlo.return %iterArg : tensor<i1>\n"
	                 "    } do {\n"
	                 "      stablehlo.return %iterArg : tensor<i1>\n"
	                 "    }\n"
	                 "    return %0 : tensor<i1>\n"));
}

static void
test_errors(void)
{
	const char *pre = "func.func @f(%a: tensor<2xf32>, %i: tensor<i32>) {\n";
	char buf[1024];
#define BODY(line) (snprintf(buf, sizeof buf, "%s%s\n  return\n}\n", pre, line), buf)
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.add %a, %a : tensor<3xf32>"),
	                     "t.mlir:2:31:", "expects different type than prior uses"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.transpose %a dims = [0] : (tensor<2xf32>) -> tensor<2xf32>"),
	                     "t.mlir:2:31:", "expected ','"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.slice %a [0:2:] : (tensor<2xf32>) -> tensor<2xf32>"),
	                     "t.mlir:2:32:", "expected integer"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.reduce_precision %a, format = e5x2 : tensor<2xf32>"),
	                     "t.mlir:2:48:", "expected exponent mantissa in format e#m#"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.complex %a, %a : tensor<2xf32>"),
	                     "t.mlir:2:35:", "expected tensor with complex element type"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.select %i, %a, %a : tensor<i32>"),
	                     "t.mlir:2:38:", "expected functional type or list of two types"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.reduce(%a init: %i) applies stablehlo.subtract across dimensions = [0] : (tensor<2xf32>, tensor<i32>) -> tensor<f32>"),
	                     "t.mlir:2:46:", "commutative binary-op"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, i]->[b, 0, f], window = {} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"),
	                     "t.mlir:2:69:", "duplicate dimension 'i'"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [1]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"),
	                     "t.mlir:2:101:", "expected '['"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.tuple %a : tensor<2xf32>"),
	                     "t.mlir:2:29:", "expected tuple type"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2xf32>) -> tensor<4xf32>"),
	                     "t.mlir:2:48:", "2 operands present, but expected 1"));
	CU_ASSERT(fails_with(BODY("  %0 = stablehlo.while(%x = %a) : tensor<2xf32>\n   cond {\n    stablehlo.return %x : tensor<2xf32>\n  } od {\n  }"),
	                     "t.mlir:5:5:", "expected 'do'"));
#undef BODY
}

CU_TestInfo tests_stablehlo[] = {
	{"SameOperandsAndResultType ops", test_same},
	{"return, barrier, complex, select", test_types_complex_select},
	{"functional ops, pretty form", test_functional},
	{"functional ops, generic to pretty", test_functional_generic},
	{"pretty form fills generic props", test_props_match_generic},
	{"constant, iota, custom_call, composite", test_constant_iota_custom_call},
	{"convolution", test_convolution},
	{"reduce: compact and region forms", test_reduce},
	{"while", test_while},
	{"malformed pretty syntax", test_errors},
	CU_TEST_INFO_NULL,
};
