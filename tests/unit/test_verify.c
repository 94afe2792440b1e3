/* test_verify.c - unit tests of the verifier, one rule at a time. */
#include "tests.h"

#include <stdio.h>
#include <string.h>

#define MESH "sdy.mesh @mesh = <[\"a\"=2, \"b\"=4]>\n"

/* Checks that verifying `text` gives exactly the diagnostics `want`. */
static void
check(const char *text, const char *want)
{
	const char *got = test_verify_diags(text);

	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n--- input\n%s--- want\n%s--- got\n%s", text, want, got);
	CU_ASSERT_STRING_EQUAL(got, want);
}

/* An add on tensor<8x8xf32> whose result carries `spv`, after MESH. */
static void
check_add(const char *spv, const char *want)
{
	char text[2048];

	snprintf(text, sizeof text, MESH
	         "func.func @f(%%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
	         "  %%0 = stablehlo.add %%arg0, %%arg0 {sdy.sharding = "
	         "#sdy.sharding_per_value<[%s]>} : tensor<8x8xf32>\n"
	         "  return %%0 : tensor<8x8xf32>\n}\n", spv);
	check(text, want);
}

#define ADD_ERR(msg) "t.mlir:3:3: error: 'stablehlo.add' op result - " msg "\n"

static void
test_valid(void)
{
	check(MESH
	      "func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> tensor<8x8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\", ?}, {\"b\":(1)2}p1], replicated={\"b\":(2)2}>]>} : tensor<8x8xf32>\n"
	      "  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {\"b\"}]> : tensor<8x8xf32>\n"
	      "  return %1 : tensor<8x8xf32>\n}\n", "");
}

static void
test_sharding_basic(void)
{
	check_add("<@other, [{}, {}]>", ADD_ERR("unknown mesh: @other"));
	check_add("<@mesh, [{}]>", ADD_ERR("sharding doesn't match tensor rank: 1 != 2"));
	check_add("<@mesh, [{}, {\"c\"}]>", ADD_ERR("unknown axis name: \"c\""));
	check_add("<@mesh, [{\"a\"}, {\"a\"}]>", ADD_ERR("duplicate axis ref: \"a\""));
	check_add("<@mesh, [{}p2, {}]>",
	          ADD_ERR("dim 0 is empty and closed but has a priority"));
	check_add("<@mesh, [{}, {}], replicated={\"b\", \"a\"}>",
	          ADD_ERR("replicated axes are not ordered w.r.t. mesh"));
	check_add("<@mesh, [{}, {}], unreduced={\"b\", \"a\"}>",
	          ADD_ERR("unreduced axes are not ordered w.r.t. mesh"));
	check_add("<@mesh, [{}, {}], replicated={\"c\", \"a\"}>",
	          ADD_ERR("unknown axis name: \"c\""));
	check_add("<@mesh, [{\"a\"}, {}], unreduced={\"a\"}>",
	          ADD_ERR("duplicate axis ref: \"a\""));
	check_add("<@mesh, [{}, {}]>, <@mesh, [{}, {}]>",
	          "t.mlir:3:3: error: 'stablehlo.add' op result shardings don't "
	          "match number of values: 2 shardings vs 1 values\n");
}

static void
test_sharding_sub_axes(void)
{
	check_add("<@mesh, [{}, {\"b\":(1)2, \"b\":(2)2}]>",
	          ADD_ERR("two consecutive sub-axes can be merged: \"b\":(1)2, \"b\":(2)2"));
	check_add("<@mesh, [{\"b\"}, {\"b\":(1)2}]>",
	          ADD_ERR("both sub-axis and full-axis are used for axis name: \"b\""));
	check_add("<@mesh, [{}, {\"b\":(0)2}]>",
	          ADD_ERR("sub-axis pre-size must be at least 1: \"b\":(0)2"));
	check_add("<@mesh, [{}, {\"b\":(2)1}]>",
	          ADD_ERR("sub-axis sizes must be greater than 1: \"b\":(2)1"));
	check_add("<@mesh, [{}, {\"b\":(3)2}]>",
	          ADD_ERR("sub-axis next pre-size 6 doesn't divide the size of the "
	                  "full axis 4: \"b\":(3)2"));
	check_add("<@mesh, [{}, {\"b\":(1)4}]>",
	          ADD_ERR("sub-axis size is equal to the full axis size: \"b\":(1)4"));
	check_add("<mesh<[\"c\"=8]>, [{\"c\":(2)2}, {}], replicated={\"c\":(1)4}>",
	          ADD_ERR("overlapping sub-axes: \"c\":(1)4, \"c\":(2)2"));
}

static void
test_sharding_types(void)
{
	check(MESH "func.func @f(%arg0: !stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> !stablehlo.token {\n"
	      "  return %arg0 : !stablehlo.token\n}\n",
	      "t.mlir:2:1: error: 'func.func' op arg 0 - non-shaped tensors can only "
	      "have a sharding with rank 0 and no replicated or unreduced axes. "
	      "type: '!stablehlo.token', sharding: #sdy.sharding<@mesh, [{}]>\n");
	check(MESH "func.func @f(%arg0: tensor<*xf32> {sdy.sharding = #sdy.sharding<@mesh, []>}) -> tensor<*xf32> {\n"
	      "  return %arg0 : tensor<*xf32>\n}\n",
	      "t.mlir:2:1: error: 'func.func' op arg 0 - only ranked tensors can "
	      "have a sharding. type: 'tensor<*xf32>'\n");
	check(MESH "func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"z\"}]>}) {\n"
	      "  return %arg0 : tensor<8xf32>\n}\n",
	      "t.mlir:2:1: error: 'func.func' op result 0 - unknown axis name: \"z\"\n");
	check("sdy.mesh @max = <[], device_ids=[0]>\n"
	      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
	      "  stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@max, [{}]>]>} : (tensor<8xf32>) -> ()\n"
	      "  return %arg0 : tensor<8xf32>\n}\n",
	      "t.mlir:3:3: error: 'stablehlo.custom_call' op result 0 - a maximal "
	      "sharding can only have a sharding with rank 0 and no replicated or "
	      "unreduced axes.\n");
	check(MESH "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{}]>} : tensor<8xf32>\n"
	      "  return %0 : tensor<8xf32>\n}\n",
	      "t.mlir:3:3: error: 'stablehlo.add' op should have a sharding "
	      "attribute of type TensorShardingPerValueAttr\n");
}

static void
test_manual_computation(void)
{
	check("sdy.mesh @mesh = <[\"a\"=2]>\n"
	      "func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {\n"
	      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}, {}]>] out_shardings=[<@mesh, [{\"a\"}, {}]>] manual_axes={\"a\"} (%arg1: tensor<16x32xf32>) {\n"
	      "    sdy.return %arg1 : tensor<16x32xf32>\n"
	      "  } : (tensor<16x32xf32>) -> tensor<16x32xf32>\n"
	      "  return %0 : tensor<16x32xf32>\n}\n",
	      "t.mlir:3:3: error: 'sdy.manual_computation' op operand shape, "
	      "corresponding sharding, and region operand shape at index 0 must "
	      "match. Expected local shape 'tensor<8x32xf32>', actual local shape "
	      "'tensor<16x32xf32>'\n");
	check("sdy.mesh @mesh = <[\"a\"=2]>\n"
	      "func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {\n"
	      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"q\"} (%arg1: tensor<16x32xf32>) {\n"
	      "    sdy.return %arg1 : tensor<16x32xf32>\n"
	      "  } : (tensor<16x32xf32>) -> tensor<16x32xf32>\n"
	      "  return %0 : tensor<16x32xf32>\n}\n",
	      "t.mlir:3:3: error: 'sdy.manual_computation' op unknown manual axis: \"q\"\n");
	check("sdy.mesh @mesh = <[\"a\"=2]>\n"
	      "func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {\n"
	      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<16x32xf32>) {\n"
	      "    %1 = stablehlo.add %arg0, %arg1 : tensor<16x32xf32>\n"
	      "    sdy.return %1 : tensor<16x32xf32>\n"
	      "  } : (tensor<16x32xf32>) -> tensor<16x32xf32>\n"
	      "  return %0 : tensor<16x32xf32>\n}\n",
	      "t.mlir:4:5: error: 'stablehlo.add' op using value defined outside "
	      "the region\n"
	      "t.mlir:3:3: note: required by region isolation constraints\n");
	check("sdy.mesh @mesh = <[\"a\"=2]>\n"
	      "func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {\n"
	      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}, {}]>] out_shardings=[<@mesh, [{\"a\"}, {}]>] manual_axes={\"a\"} (%arg1: tensor<8x32xf32>) {\n"
	      "    %1 = sdy.reshard %arg1 <@mesh, [{}, {}], replicated={\"a\"}> : tensor<8x32xf32>\n"
	      "    sdy.return %1 : tensor<8x32xf32>\n"
	      "  } : (tensor<16x32xf32>) -> tensor<16x32xf32>\n"
	      "  return %0 : tensor<16x32xf32>\n}\n",
	      "t.mlir:4:5: error: 'sdy.reshard' op operates on axis \"a\" which is "
	      "already bound by a parent sdy.manual_computation op\n"
	      "t.mlir:3:3: note: parent bounding this axis as manual\n");
}

static void
test_sdy_ops(void)
{
	check("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
	      "  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>\n"
	      "  return %0 : tensor<8xf32>\n}\n",
	      "t.mlir:2:3: error: 'sdy.propagation_barrier' op cannot specify "
	      "`BOTH` as the direction. Not blocking propagation direction makes "
	      "the op redundant.\n");
	check("func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {\n"
	      "  %0 = sdy.data_flow_edge %arg0 : tensor<8xf32>\n"
	      "  return %arg0, %0 : tensor<8xf32>, tensor<8xf32>\n}\n",
	      "t.mlir:2:3: error: 'sdy.data_flow_edge' op expected input of "
	      "sdy.data_flow_edge to have a single user\n");
	check("func.func @f(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
	      "  %0 = sdy.func_data_flow_edge %arg0 : tensor<?xf32>\n"
	      "  return %0 : tensor<?xf32>\n}\n",
	      "t.mlir:2:3: error: 'sdy.func_data_flow_edge' op expected "
	      "sdy.func_data_flow_edge to have a static-shaped result. type: "
	      "'tensor<?xf32>'\n");
	check("func.func @f(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {\n"
	      "  %0 = sdy.named_computation<\"g\">(%arg0) (%arg1: tensor<4x2xi32>) {\n"
	      "    %1 = stablehlo.custom_call @foo(%arg1) : (tensor<4x2xi32>) -> tensor<8x2xi32>\n"
	      "    sdy.return %1 : tensor<8x2xi32>\n"
	      "  } : (tensor<8x2xi32>) -> tensor<8x2xi32>\n"
	      "  return %0 : tensor<8x2xi32>\n}\n",
	      "t.mlir:2:3: error: expected the type of the 0'th block argument to "
	      "match the type of the corresponding operand: 'tensor<4x2xi32>' vs "
	      "'tensor<8x2xi32>'\n");
	check("func.func @f() {\n  return\n}\n"
	      "func.func @f() {\n  return\n}\n",
	      "t.mlir:4:1: error: redefinition of symbol named 'f'\n"
	      "t.mlir:1:1: note: see existing symbol definition here\n");
}

#define COLL_FUNC(in, op) \
	"sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n" \
	"func.func @f(%arg0: tensor<16x8xf32>" in ") -> tensor<16x8xf32> {\n" \
	"  %0 = " op " :  tensor<16x8xf32>\n" \
	"  return %0 : tensor<16x8xf32>\n}\n"
#define IN(s) " {sdy.sharding = #sdy.sharding<@mesh, " s ">}"

static void
test_collectives(void)
{
	check(COLL_FUNC("", "sdy.all_gather [{}, {\"x\"}] %arg0 out_sharding=<@mesh, [{}, {}]>"),
	      "t.mlir:3:3: error: 'sdy.all_gather' op collective on operand "
	      "without sharding\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.all_gather [{}, {\"x\", \"y\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {}]>"),
	      "t.mlir:3:3: error: 'sdy.all_gather' op can't apply gathering axis "
	      "\"y\" to operand sharding on dimension 1\n");
	check(COLL_FUNC(IN("[{\"y\"}, {}]"),
	                "sdy.all_slice [{}, {\"x\", \"z\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {\"x\"}]>"),
	      "t.mlir:3:3: error: 'sdy.all_slice' op result sharding doesn't match "
	      "expected sharding [\"x\", \"z\"] on dimension 1\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.all_to_all [{\"x\"}: 1->0] %arg0 out_sharding=<@mesh, [{\"y\", \"x\"}, {}]>"),
	      "");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.all_to_all [{\"x\"}: 1->1] %arg0 out_sharding=<@mesh, [{\"y\", \"x\"}, {}]>"),
	      "t.mlir:3:3: error: 'sdy.all_to_all' op overlapping source/target "
	      "dimensions in all-to-all params: 1\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"x\"}, {\"y\", \"z\"}]>"),
	      "t.mlir:3:3: error: 'sdy.collective_permute' op sharded size of "
	      "result doesn't match operand on dimension 1: 4 != 2\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.all_reduce {\"y\"} %arg0 out_sharding=<@mesh, [{\"y\"}, {\"x\"}]>"),
	      "t.mlir:3:3: error: 'sdy.all_reduce' op reduction axis \"y\" overlaps "
	      "with operand dimension sharding or replicated axes\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.all_reduce {} %arg0 out_sharding=<@mesh, [{\"y\"}, {\"x\"}], unreduced={\"z\"}>"),
	      "t.mlir:3:3: error: 'sdy.all_reduce' op cannot add new unreduced "
	      "axis 'z'.\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}], unreduced={\"z\"}"),
	                "sdy.all_reduce {\"z\"} %arg0 out_sharding=<@mesh, [{\"y\"}, {\"x\"}]>"),
	      "");
	check(COLL_FUNC(IN("[{\"y\"}, {}]"),
	                "sdy.replicated_to_unreduced {\"z\", \"x\"} %arg0 out_sharding=<@mesh, [{\"y\"}, {}], unreduced={\"x\", \"z\"}>"),
	      "t.mlir:3:3: error: 'sdy.replicated_to_unreduced' op r2u axes are "
	      "not ordered w.r.t. mesh\n");
	check(COLL_FUNC(IN("[{\"y\"}, {\"x\"}]"),
	                "sdy.sharded_to_unreduced [{}, {\"x\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {}]>"),
	      "t.mlir:3:3: error: 'sdy.sharded_to_unreduced' op out_unreduced_axes "
	      "should be in_unreduced_axes + sharded_to_unreduced_axes\n");
}

static void
test_unreduced_transitions(void)
{
	check("sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
	      "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{\"x\"}>}) -> tensor<8xf32> {\n"
	      "  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>\n"
	      "  %1 = sdy.reshard %0 <@mesh, [{}], unreduced={\"x\"}> : tensor<8xf32>\n"
	      "  return %1 : tensor<8xf32>\n}\n",
	      "t.mlir:4:3: error: 'sdy.reshard' op cannot change the reduction "
	      "operator of kept unreduced axes from max to sum.\n");
	check("sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
	      "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={\"x\"}>}) -> tensor<8xf32> {\n"
	      "  %1 = sdy.sharding_constraint %arg0 <@mesh, [{}], unreduced={\"y\"}> : tensor<8xf32>\n"
	      "  return %1 : tensor<8xf32>\n}\n",
	      "");
}

static void
test_sharding_rule(void)
{
	check("func.func @f(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=8, k=4}>} : tensor<2x8xf32>\n"
	      "  return %0 : tensor<2x8xf32>\n}\n",
	      "t.mlir:2:3: error: 'stablehlo.add' op has factor k=4 that isn't used "
	      "in operand and result mappings\n");
	check("func.func @f(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, i]) {i=2, j=8}>} : tensor<2x8xf32>\n"
	      "  return %0 : tensor<2x8xf32>\n}\n",
	      "t.mlir:2:3: error: 'stablehlo.add' op result - cannot reuse factors "
	      "for the same tensor value\n");
	check("func.func @f(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=8} reduction={i} permutation={i}>} : tensor<2x8xf32>\n"
	      "  return %0 : tensor<2x8xf32>\n}\n",
	      "t.mlir:2:3: error: 'stablehlo.add' op a factor can only be in one of "
	      "the reduction, need replication, or permutation factor sets\n");
	check("func.func @f(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=8} blocked_propagation={j, i}>} : tensor<2x8xf32>\n"
	      "  return %0 : tensor<2x8xf32>\n}\n",
	      "t.mlir:2:3: error: 'stablehlo.add' op indices of special factors "
	      "must be sorted\n");
}

static void
test_propagation_edges(void)
{
	check("sdy.mesh @mesh = <[\"x\"=4]>\n"
	      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{\"x\" = result-0 -> [operand-0, operand-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>} : tensor<8xf32>\n"
	      "  return %0 : tensor<8xf32>\n}\n",
	      "t.mlir:3:3: error: 'stablehlo.add' op propagation edges have "
	      "duplicate targets for step index: 1 and axis: x\n");
	check("sdy.mesh @mesh = <[\"x\"=4]>\n"
	      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
	      "  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{\"x\" = result-0 -> [operand-2]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>} : tensor<8xf32>\n"
	      "  return %0 : tensor<8xf32>\n}\n",
	      "t.mlir:3:3: error: 'stablehlo.add' op expected a value ref to have "
	      "an operand index in range [0, 2), got: 2\n");
}

CU_TestInfo tests_verify[] = {
	{"valid module", test_valid},
	{"tensor sharding checks", test_sharding_basic},
	{"sub-axis checks", test_sharding_sub_axes},
	{"shardings against types", test_sharding_types},
	{"manual computation", test_manual_computation},
	{"other sdy ops", test_sdy_ops},
	{"collectives", test_collectives},
	{"unreduced transitions", test_unreduced_transitions},
	{"sharding rules", test_sharding_rule},
	{"propagation edges", test_propagation_edges},
	CU_TEST_INFO_NULL,
};
