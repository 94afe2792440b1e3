// shardlp solve on data/attention.mlir, single-head self-attention; pins
// the optimal shardings the ILP finds.
// Checked: the shardings of the build before solve ran the pipeline's
// import and export steps (3e0c00a), as shardlp-opt
// -sdy-propagation-pipeline prints that build's output (export closes the
// open dims, main's result takes its value's sharding); the output is a
// fixpoint of -sdy-propagation-pipeline; the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_attention.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/attention.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
//   func.func @main(%arg0: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg1: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg4: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>}) {
//     %0 = sdy.constant dense<0.000000e+00> : tensor<f32>
//     %1 = sdy.constant dense<0xFF800000> : tensor<f32>
//     %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     %3 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     %4 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     %5 = stablehlo.dot_general %2, %3, batching_dims = [0] x [0], contracting_dims = [2] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x16xf32>
//     %6 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} dense<1.250000e-01> : tensor<8x16x16xf32>
//     %7 = stablehlo.multiply %5, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x16xf32>
//     %8 = stablehlo.reduce(%7 init: %1) applies stablehlo.maximum across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
//     %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
//     %10 = stablehlo.subtract %7, %9 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x16xf32>
//     %11 = stablehlo.exponential %10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x16xf32>
//     %12 = stablehlo.reduce(%11 init: %0) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
//     %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
//     %14 = stablehlo.divide %11, %13 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x16xf32>
//     %15 = stablehlo.dot_general %14, %4, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16x16xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
//     %16 = stablehlo.dot_general %15, %arg4, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
//     return %16 : tensor<8x16x32xf32>
//   }
// }
