// shardlp solve on data/mlp.mlir: the default example; pins the optimal
// shardings the ILP finds.
// Checked: the output is a fixpoint of shardlp-opt
// -sdy-propagation-pipeline; the solved module verifies (shardlp verify);
// its cost is the ILP row of compare_mlp.mlir, which the evaluator re-reads
// from this module and holds against the ILP objective (to 1e-6) before
// printing.  With memory a budget rather than a cost (shardlp-cost(7)),
// tensors whose sharding changes no step time are left replicated.
// SHARDLP: solve -q
// INPUT: data/mlp.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
//   func.func @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg4: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) {
//     %0 = sdy.constant dense<0.000000e+00> : tensor<f32>
//     %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
//     %2 = stablehlo.broadcast_in_dim %arg2, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<256xf32>) -> tensor<32x256xf32>
//     %3 = stablehlo.add %1, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<32x256xf32>
//     %4 = stablehlo.broadcast_in_dim %0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<f32>) -> tensor<32x256xf32>
//     %5 = stablehlo.maximum %3, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<32x256xf32>
//     %6 = stablehlo.dot_general %5, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
//     %7 = stablehlo.broadcast_in_dim %arg4, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<64xf32>) -> tensor<32x64xf32>
//     %8 = stablehlo.add %6, %7 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<32x64xf32>
//     return %8 : tensor<32x64xf32>
//   }
// }
