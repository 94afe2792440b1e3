// shardlp solve on data/mlp.mlir: the default example; pins the optimal
// shardings the ILP finds.
// Checked: the same output as the build before the cost.c split
// (3e0c00a); the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_mlp.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/mlp.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   func.func @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}, %arg3: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}, %arg4: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}) -> tensor<32x64xf32> {
//     %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
//     %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<256xf32>) -> tensor<32x256xf32>
//     %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<32x256xf32>
//     %3 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<f32>) -> tensor<32x256xf32>
//     %4 = stablehlo.maximum %2, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<32x256xf32>
//     %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
//     %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<64xf32>) -> tensor<32x64xf32>
//     %7 = stablehlo.add %5, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<32x64xf32>
//     return %7 : tensor<32x64xf32>
//   }
// }
