// shardlp solve on data/attention.mlir, single-head self-attention; pins
// the optimal shardings the ILP finds.
// Checked: the same output as the build before the cost.c split
// (3e0c00a); the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_attention.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/attention.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   func.func @main(%arg0: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg1: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg3: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg4: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16x32xf32> {
//     %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     %2 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     %3 = stablehlo.dot_general %0, %1, batching_dims = [0] x [0], contracting_dims = [2] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x16xf32>
//     %cst_1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} dense<1.250000e-01> : tensor<8x16x16xf32>
//     %4 = stablehlo.multiply %3, %cst_1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x16xf32>
//     %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.maximum across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>} : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
//     %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
//     %7 = stablehlo.subtract %4, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x16xf32>
//     %8 = stablehlo.exponential %7 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x16xf32>
//     %9 = stablehlo.reduce(%8 init: %cst) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>} : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
//     %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
//     %11 = stablehlo.divide %8, %10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x16xf32>
//     %12 = stablehlo.dot_general %11, %2, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x16xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
//     %13 = stablehlo.dot_general %12, %arg4, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     return %13 : tensor<8x16x32xf32>
//   }
// }
