sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<4x8xf32>
    sdy.sharding_group %1 group_id = 7 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  sdy.sharding_group %0 group_id = 7 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A sharding group whose values sit on both sides of a manual computation.
// Checked: the words are Shardy's own (conformance case
// sharding_group_constraints/001 expects them for its group 90210).
// FLAGS: -sdy-sharding-group-import
// EXIT: 1
// EXPECT-STDERR:
// sharding_group_import_cross_manual.mlir:9:3: error: ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: 7
