// Two composites of one decomposition with different shardings: the call
// graph is flattened as for calls, so each gets its own copy (@gelu_0);
// a composite whose decomposition is not in the module stays a composite,
// unknown to the sharding rules (one warning).
// FLAGS: -sdy-propagation-pipeline
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.composite "my.gelu" %arg0 {decomposition = @gelu} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.composite "my.gelu" %arg1 {decomposition = @gelu} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.composite "my.missing" %1 {decomposition = @nowhere} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func private @gelu(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
//   func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x16xf32>) {
//     %0 = stablehlo.composite "my.gelu" %arg0 {decomposition = @gelu, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
//     %1 = stablehlo.composite "my.gelu" %arg1 {decomposition = @gelu_0, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
//     %2 = stablehlo.composite "my.missing" %1 {decomposition = @nowhere} : (tensor<8x16xf32>) -> tensor<8x16xf32>
//     return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
//   }
//   func.func private @gelu(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
//     %0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
//     return %0 : tensor<8x16xf32>
//   }
//   func.func private @gelu_0(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
//     %0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
//     return %0 : tensor<8x16xf32>
//   }
// }

// EXPECT-STDERR:
// composite_shared.mlir:10:3: warning: op 'stablehlo.composite' is unknown to SDY sharding rule registry
