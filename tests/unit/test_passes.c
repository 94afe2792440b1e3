/*
 * test_passes.c - unit tests of the import passes and the export steps
 * (spec/import-passes.md): each test runs passes on a small module, checks
 * that the result verifies, and looks for lines of the printed output.
 */
#include "tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESH "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"

/*
 * Runs the passes (flags without '-', space-separated) on text; returns
 * the printed module (malloc'd), or NULL when a pass fails, the output
 * does not verify, or the input does not parse.  Diagnostics stay in
 * test_diags().
 */
static char *
run(const char *text, const char *passes)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	char *out = NULL;
	char list[256], err[256];
	snprintf(list, sizeof list, "%s", passes);
	int rc = m ? 0 : -1;
	for (char *save = NULL, *p = strtok_r(list, " ", &save); p && !rc;
	     p = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(p, '=');
		if (eq)
			*eq++ = 0;
		rc = sl_pass_run(m, p, eq, err, sizeof err);
		if (!rc)
			rc = sl_module_verify(m);
	}
	if (!rc)
		out = test_print(m);
	sl_module_free(m);
	sl_context_free(ctx);
	return out;
}

/* Number of occurrences of needle in hay. */
static int
count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Whether hay holds both a and b, the first a before the first b. */
static bool
in_order(const char *hay, const char *a, const char *b)
{
	const char *pa = hay ? strstr(hay, a) : NULL;
	const char *pb = hay ? strstr(hay, b) : NULL;
	return pa && pb && pa < pb;
}

static void
expect(const char *out, const char *needle, int times)
{
	int n = out ? count(out, needle) : -1;
	if (n != times)
		fprintf(stderr, "\n--- want %d x %s\n--- got\n%s%s", times, needle,
		        out ? out : "(null)\n", test_diags());
	CU_ASSERT_EQUAL(n, times);
}

static void
test_constant_splitter(void)
{
	char *out = run(
		"func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {\n"
		"  %0 = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>\n"
		"  %1 = stablehlo.negate %0 : tensor<8xf32>\n"
		"  %2 = stablehlo.add %1, %arg0 : tensor<8xf32>\n"
		"  %3 = stablehlo.multiply %1, %2 : tensor<8xf32>\n"
		"  %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8xf32>\n"
		"  %5 = stablehlo.add %4, %3 : tensor<8xf32>\n"
		"  %6 = stablehlo.add %4, %5 : tensor<8xf32>\n"
		"  return %5, %6 : tensor<8xf32>, tensor<8xf32>\n}\n",
		"sdy-constant-or-scalar-splitter");
	expect(out, "stablehlo.constant", 0);
	expect(out, "sdy.constant", 2);
	expect(out, "stablehlo.negate", 2);
	expect(out, "stablehlo.broadcast_in_dim %arg1", 2);
	free(out);
}

static void
test_constant_splitter_call_clones(void)
{
	char *out = run(
		"func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {\n"
		"  %0 = call @foo() : () -> tensor<8xf32>\n"
		"  %1 = stablehlo.abs %0 : tensor<8xf32>\n"
		"  %2 = stablehlo.abs %0 : tensor<8xf32>\n"
		"  return %1, %2 : tensor<8xf32>, tensor<8xf32>\n}\n"
		"func.func private @foo() -> tensor<8xf32> {\n"
		"  %0 = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-constant-or-scalar-splitter");
	expect(out, "call @foo_0()", 1);
	expect(out, "call @foo_1()", 1);
	expect(out, "sdy.original_func_name = \"foo\"", 2);
	free(out);
}

static void
test_flatten_call_graph_names(void)
{
	char *out = run(
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  %1 = call @foo(%0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %1 : tensor<8xf32>\n}\n"
		"func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n"
		"func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n}\n",
		"sdy-flatten-call-graph");
	/* The nested clone is inserted first, so it takes the lower counter. */
	expect(out, "func.func private @bar_0(", 1);
	expect(out, "func.func private @foo_1(", 1);
	expect(out, "call @bar_0(", 1);
	expect(out, "call @foo_1(", 1);
	free(out);
}

static void
test_call_graph_errors(void)
{
	char *out = run(
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n"
		"func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-flatten-call-graph");
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:6:3: error: recursive call to @foo"));
	free(out);
	out = run(
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @missing(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-import-func-calls");
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(),
		"t.mlir:2:3: error: 'func.call' op 'missing' does not reference a valid function"));
	free(out);
}

static void
test_import_func_calls(void)
{
	char *out = run(MESH
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"b\"}]>]>, x = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n"
		"func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}) -> tensor<8xf32> {\n"
		"  %0 = stablehlo.abs %arg0 : tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-import-func-calls");
	expect(out, "sdy.named_computation<\"foo\">(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] "
	       "out_shardings=[<@mesh, [{\"b\"}]>]", 1);
	expect(out, "sdy.data_flow_edge", 2);
	expect(out, "{x = 1 : i64}", 1);
	expect(out, "func.func private @foo", 0);
	free(out);
}

static void
test_lift_inlined_meshes(void)
{
	char *out = run(MESH
		"sdy.mesh @copy = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@copy, [{\"a\"}]>}) -> tensor<8xf32> {\n"
		"  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[\"x\"=4]>, [{\"x\"}]>]>} : tensor<8xf32>\n"
		"  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[5]>, []>]>} : tensor<8xf32>\n"
		"  return %1 : tensor<8xf32>\n}\n",
		"sdy-lift-inlined-meshes");
	expect(out, "sdy.mesh @copy", 0);
	expect(out, "#sdy.sharding<@mesh, [{\"a\"}]>", 1);
	expect(out, "sdy.mesh @mesh_0 = <[\"x\"=4]>", 1);
	expect(out, "sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>", 1);
	expect(out, "stablehlo.mesh = {axes = [{name = \"a\", size = 2 : i64}, {name = \"b\", size = 2 : i64}]}", 1);
	free(out);
}

static void
test_remove_size_one_axes(void)
{
	char *out = run(
		"sdy.mesh @mesh = <[\"a\"=1, \"b\"=2]>\n"
		"func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}p1, {\"a\", \"b\", ?}p2]>}) -> tensor<8x8xf32> {\n"
		"  return %arg0 : tensor<8x8xf32>\n}\n",
		"sdy-remove-size-one-axes");
	expect(out, "#sdy.sharding<@mesh, [{}, {\"b\", ?}p2]>", 1);
	free(out);
}

static void
test_manual_axes_cleanup(void)
{
	char *out = run(
		"sdy.mesh @mesh = <[\"c\"=2, \"a\"=2, \"b\"=2]>\n"
		"func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"c\", ?}]>] out_shardings=[<@mesh, [{\"c\", ?}]>] manual_axes={\"a\", \"c\"} (%arg1: tensor<4xf32>) {\n"
		"    sdy.return %arg1 : tensor<4xf32>\n"
		"  } : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-manual-axes-cleanup");
	expect(out, "in_shardings=[<@mesh, [{\"c\", ?}], replicated={\"a\"}>]", 1);
	expect(out, "manual_axes={\"c\", \"a\"}", 1);
	free(out);
}

static void
test_sharding_group_import(void)
{
	char *out = run(
		"func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) {\n"
		"  sdy.sharding_group %arg0 group_id = 567 : tensor<4xf32>\n"
		"  sdy.sharding_group %arg0 group_id = 23 : tensor<4xf32>\n"
		"  sdy.sharding_group %arg1 group_id = 23 : tensor<4xf32>\n"
		"  sdy.sharding_group %arg2 group_id = 9 : tensor<4xf32>\n"
		"  sdy.sharding_group %arg0 group_id = 23 : tensor<4xf32>\n"
		"  func.return\n}\n",
		"sdy-sharding-group-import");
	expect(out, "group_id=0", 2);
	expect(out, "sdy.sharding_group %arg0", 1);
	expect(out, "group_id=1", 1);
	free(out);
	out = run(MESH
		"func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={} (%arg1: tensor<8xf32>) {\n"
		"    sdy.sharding_group %arg1 group_id = 4 : tensor<8xf32>\n"
		"    sdy.return %arg1 : tensor<8xf32>\n"
		"  } : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  sdy.sharding_group %0 group_id = 4 : tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-sharding-group-import");
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:7:3: error: ShardingGroupOps values "
	                              "cannot cross ManualComputationOp boundaries for groupId: 4"));
}

static void
test_apply_sharding_constraints(void)
{
	char *out = run(MESH
		"func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
		"  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>\n"
		"  %1 = sdy.sharding_constraint %0 <@mesh, [{\"a\"}, {}]> : tensor<8x8xf32>\n"
		"  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {\"b\"}]> : tensor<8x8xf32>\n"
		"  %3 = stablehlo.add %0, %0 : tensor<8x8xf32>\n"
		"  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>\n}\n",
		"sdy-apply-sharding-constraints");
	expect(out, "%0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>}", 1);
	expect(out, "%3 = stablehlo.add %2, %2", 1);
	free(out);
}

static void
test_func_data_flow_edges(void)
{
	const char *text = MESH
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n"
		"func.func private @bar(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}) -> tensor<8xf32> {\n"
		"  %0 = stablehlo.abs %arg0 : tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n";
	char *out = run(text, "sdy-add-func-data-flow-edges");
	expect(out, "sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>}", 1);
	expect(out, "sdy.func_data_flow_edge %0", 1);
	free(out);
	out = run(text, "sdy-add-func-data-flow-edges sdy-sink-func-data-flow-edges");
	expect(out, "sdy.func_data_flow_edge", 0);
	expect(out, "stablehlo.abs %arg0", 1);
	free(out);
}

static void
test_export_steps(void)
{
	char *out = run(MESH
		"func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
		"  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>\n"
		"  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{\"a\", ?}, {}], replicated={\"b\"}> : tensor<8x8xf32>\n"
		"  %2 = sdy.sharding_constraint %1 <@mesh, [{\"a\"}, {?}]> : tensor<8x8xf32>\n"
		"  sdy.sharding_group %2 group_id = 0 : tensor<8x8xf32>\n"
		"  return %2 : tensor<8x8xf32>\n}\n",
		"sdy-sink-data-flow-edges sdy-remove-sharding-groups "
		"sdy-sharding-constraint-to-reshard sdy-close-shardings");
	expect(out, "sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>, <@mesh, [{}, {}]>]>", 1);
	expect(out, "sdy.data_flow_edge", 0);
	expect(out, "sdy.sharding_group", 0);
	expect(out, "sdy.reshard %0#0 <@mesh, [{\"a\"}, {}]>", 1);
	free(out);
}

static void
test_update_non_divisible(void)
{
	char *out = run(
		"sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
		"func.func @main(%arg0: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>},\n"
		"    %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\", \"x\"}p1]>}) -> tensor<3xf32> {\n"
		"  %0 = stablehlo.constant dense<1.0> : tensor<3xf32>\n"
		"  return %0 : tensor<3xf32>\n}\n",
		"sdy-update-non-divisible-input-output-shardings");
	expect(out, "#sdy.sharding<@mesh, [{\"x\":(1)2}, {\"y\"}]>", 1);
	expect(out, "#sdy.sharding<@mesh, [{\"y\", \"x\":(1)2}]>", 1);
	free(out);
}

static void
test_pipeline_and_dce(void)
{
	char *out = run(MESH
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n}\n"
		"func.func private @dead(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n}\n",
		"sdy-import-pipeline=dedup-functions-fully=true");
	expect(out, "@dead", 0);
	expect(out, "sdy.mesh @mesh", 1);
	free(out);
	out = run(
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @a(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n"
		"func.func private @b(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n}\n"
		"func.func private @a(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  %0 = call @b(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
		"  return %0 : tensor<8xf32>\n}\n",
		"sdy-pre-order-funcs");
	CU_ASSERT_PTR_NOT_NULL(out);
	CU_ASSERT(in_order(out, "@a(%arg0: tensor<8xf32>) -> tensor<8xf32> {",
	                   "@b(%arg0: tensor<8xf32>) -> tensor<8xf32> {"));
	free(out);
}

/*
 * Sinking with the debug options: the edges' attributes become arrays on
 * the data-flow op, edges without one are skipped, and the block-argument
 * arrays are set (empty) even on an op without block-argument edges (A13).
 */
static void
test_sink_debug(void)
{
	const char *text = MESH
		"func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
		"  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>\n"
		"  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{\"a\", ?}, {?}]> {"
		"sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{\"a\" = operand-0 -> "
		"[result-0]}]}]>, sdy.sharding_origins = {a = \"input: 0\"}} : tensor<8x8xf32>\n"
		"  %2 = sdy.data_flow_edge %0#1 : tensor<8x8xf32>\n"
		"  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>\n}\n";
	char *out = run(text, "sdy-sink-data-flow-edges=sink-debug-sharding-origins=true,"
	                      "sink-debug-propagation-edge-sharding=true");
	expect(out, "{sdy.block_arg_propagation_edges = [], sdy.block_arg_sharding_origins = [], "
	            "sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-3 = [{\"a\" = "
	            "operand-0 -> [result-0]}]}]>], sdy.result_sharding_origins = [{a = "
	            "\"input: 0\"}], sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
	            "[{\"a\", ?}, {?}]>, <@mesh, [{?}, {?}]>]>} %arg0, %arg0", 1);
	expect(out, "sdy.data_flow_edge", 0);
	expect(out, "return %0#0, %0#1", 1);
	free(out);
	out = run(text, "sdy-sink-data-flow-edges");
	expect(out, "sdy.result_", 0);
	expect(out, "sdy.block_arg_", 0);
	expect(out, "sdy.propagation_edges", 0);
	free(out);
}

/*
 * With debug-propagation-edge-sharding, each constraint applied to its
 * input records a step, numbered after the largest one in the module.
 */
static void
test_apply_constraints_edges(void)
{
	char *out = run(MESH
		"func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
		"  %0 = stablehlo.abs %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-4 = "
		"[{\"a\" = operand-0 -> [result-0]}]}]>} : tensor<8x8xf32>\n"
		"  %1 = sdy.sharding_constraint %0 <@mesh, [{\"b\"}, {\"a\"}]> : tensor<8x8xf32>\n"
		"  %2 = sdy.sharding_constraint %arg1 <@mesh, [{}, {\"b\"}]> : tensor<8x8xf32>\n"
		"  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>\n}\n",
		"sdy-apply-sharding-constraints=debug-propagation-edge-sharding=true");
	expect(out, "sdy.sharding_constraint %0 <@mesh, [{\"b\"}, {\"a\"}]> {sdy.propagation_edges = "
	            "#sdy.propagation_edges<[{step-5 = [{\"a\" = result-0 -> [operand-0]}, "
	            "{\"b\" = result-0 -> [operand-0]}]}]>}", 1);
	expect(out, "sdy.sharding_constraint %arg1 <@mesh, [{}, {\"b\"}]> {sdy.propagation_edges = "
	            "#sdy.propagation_edges<[{step-6 = [{\"b\" = result-0 -> [operand-0]}]}]>}", 1);
	free(out);
	out = run(MESH
		"func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
		"  %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"b\"}, {}]> : tensor<8x8xf32>\n"
		"  return %0 : tensor<8x8xf32>\n}\n",
		"sdy-apply-sharding-constraints");
	expect(out, "propagation_edges", 0);
	expect(out, "%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"b\"}, {}]>}", 1);
	free(out);
}

/*
 * The pipelines skip passes whose ops are absent; a lone function before
 * a mesh is still moved to the end, a private unused function still dies.
 */
static void
test_pipeline_skips(void)
{
	char *out = run(
		"func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n}\n"
		"func.func private @dead(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
		"  return %arg0 : tensor<8xf32>\n}\n"
		"sdy.mesh @mesh = <[\"a\"=2]>\n",
		"sdy-propagation-pipeline");
	expect(out, "@dead", 0);
	CU_ASSERT(in_order(out, "sdy.mesh @mesh", "func.func @main"));
	free(out);
}

/*
 * -sdy-verify-unreduced-axes with several operands: their unreduced axes
 * are gathered before the transition to the result is checked, and the
 * pass changes nothing.
 */
static void
test_verify_unreduced_operands(void)
{
	static const char head[] =
		"sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
		"func.func @f(%%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={\"x\"}>},\n"
		"            %%arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={\"y\"}>}) -> tensor<8xf32> {\n"
		"  %%0 = stablehlo.add %%arg0, %%arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=%s>]>} : tensor<8xf32>\n"
		"  %%1 = sdy.reshard %%0 <@mesh, [{}]> : tensor<8xf32>\n"
		"  return %%1 : tensor<8xf32>\n}\n";
	char text[1024];
	snprintf(text, sizeof text, head, "{\"x\", \"y\"}");
	char *out = run(text, "sdy-verify-unreduced-axes");
	CU_ASSERT_PTR_NOT_NULL(out);
	CU_ASSERT_STRING_EQUAL(test_diags(), "");
	free(out);
	snprintf(text, sizeof text, head, "{\"x\"}");
	CU_ASSERT_PTR_NULL(run(text, "sdy-verify-unreduced-axes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:4:3: error: 'stablehlo.add' op "
	                              "dropped unreduced axis 'y' without a blessed operation"));
	snprintf(text, sizeof text, head, "max{\"x\", \"y\"}");
	CU_ASSERT_PTR_NULL(run(text, "sdy-verify-unreduced-axes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "cannot change the reduction operator "
	                              "of kept unreduced axes from sum to max."));
}

CU_TestInfo tests_passes[] = {
	{"constant splitter", test_constant_splitter},
	{"constant splitter clones calls", test_constant_splitter_call_clones},
	{"flatten call graph names", test_flatten_call_graph_names},
	{"call graph errors", test_call_graph_errors},
	{"import func calls", test_import_func_calls},
	{"lift inlined meshes", test_lift_inlined_meshes},
	{"remove size one axes", test_remove_size_one_axes},
	{"manual axes cleanup", test_manual_axes_cleanup},
	{"sharding group import", test_sharding_group_import},
	{"apply sharding constraints", test_apply_sharding_constraints},
	{"func data flow edges", test_func_data_flow_edges},
	{"export steps", test_export_steps},
	{"update non-divisible", test_update_non_divisible},
	{"import pipeline and dce", test_pipeline_and_dce},
	{"sink data-flow edges: debug arrays", test_sink_debug},
	{"apply sharding constraints: debug edges", test_apply_constraints_edges},
	{"pipeline skips passes without work", test_pipeline_skips},
	{"verify unreduced axes: several operands", test_verify_unreduced_operands},
	CU_TEST_INFO_NULL,
};
