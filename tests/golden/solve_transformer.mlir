// shardlp solve on data/transformer.mlir, a one-layer transformer block;
// pins the optimal shardings the ILP finds.
// Checked: the output is a fixpoint of shardlp-opt
// -sdy-propagation-pipeline; the solved module verifies (shardlp verify);
// its cost is the ILP row of compare_transformer.mlir, which the evaluator re-reads
// from this module and holds against the ILP objective (to 1e-6) before
// printing.  With memory a budget rather than a cost (shardlp-cost(7)),
// tensors whose sharding changes no step time are left replicated.
// SHARDLP: solve -q
// INPUT: data/transformer.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
//   func.func @main(%arg0: tensor<8x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg4: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg5: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg6: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg7: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>}) {
//     %0 = sdy.constant dense<0.000000e+00> : tensor<f32>
//     %1 = sdy.constant dense<0xFF800000> : tensor<f32>
//     %2 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : tensor<8x16x64xf32>
//     %3 = stablehlo.reduce(%2 init: %0) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16x64xf32>, tensor<f32>) -> tensor<8x16xf32>
//     %4 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<1.562500e-02> : tensor<8x16xf32>
//     %5 = stablehlo.multiply %3, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
//     %6 = stablehlo.rsqrt %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
//     %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16x64xf32>
//     %8 = stablehlo.multiply %arg0, %7 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : tensor<8x16x64xf32>
//     %9 = stablehlo.broadcast_in_dim %arg1, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<64xf32>) -> tensor<8x16x64xf32>
//     %10 = stablehlo.multiply %8, %9 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : tensor<8x16x64xf32>
//     %11 = stablehlo.dot_general %10, %arg2, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %12 = stablehlo.dot_general %10, %arg3, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %13 = stablehlo.dot_general %10, %arg4, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %14 = stablehlo.reshape %11 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}, {}]>]>} : (tensor<8x16x64xf32>) -> tensor<8x16x4x16xf32>
//     %15 = stablehlo.transpose %14, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %16 = stablehlo.reshape %12 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}, {}]>]>} : (tensor<8x16x64xf32>) -> tensor<8x16x4x16xf32>
//     %17 = stablehlo.transpose %16, dims = [0, 2, 3, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %18 = stablehlo.dot_general %15, %17, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x4x16x16xf32>, tensor<8x4x16x16xf32>) -> tensor<8x4x16x16xf32>
//     %19 = stablehlo.reduce(%18 init: %1) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}]>]>} : (tensor<8x4x16x16xf32>, tensor<f32>) -> tensor<8x4x16xf32>
//     %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %21 = stablehlo.subtract %18, %20 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : tensor<8x4x16x16xf32>
//     %22 = stablehlo.exponential %21 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : tensor<8x4x16x16xf32>
//     %23 = stablehlo.reduce(%22 init: %0) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}]>]>} : (tensor<8x4x16x16xf32>, tensor<f32>) -> tensor<8x4x16xf32>
//     %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %25 = stablehlo.divide %22, %24 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : tensor<8x4x16x16xf32>
//     %26 = stablehlo.reshape %13 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}, {}]>]>} : (tensor<8x16x64xf32>) -> tensor<8x16x4x16xf32>
//     %27 = stablehlo.transpose %26, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %28 = stablehlo.dot_general %25, %27, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x4x16x16xf32>, tensor<8x4x16x16xf32>) -> tensor<8x4x16x16xf32>
//     %29 = stablehlo.transpose %28, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}, {}]>]>} : (tensor<8x4x16x16xf32>) -> tensor<8x16x4x16xf32>
//     %30 = stablehlo.reshape %29 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x16x64xf32>
//     %31 = stablehlo.dot_general %30, %arg5, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %32 = stablehlo.add %arg0, %31 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : tensor<8x16x64xf32>
//     %33 = stablehlo.dot_general %32, %arg6, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<8x16x64xf32>, tensor<64x256xf32>) -> tensor<8x16x256xf32>
//     %34 = stablehlo.broadcast_in_dim %0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<f32>) -> tensor<8x16x256xf32>
//     %35 = stablehlo.maximum %33, %34 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : tensor<8x16x256xf32>
//     %36 = stablehlo.dot_general %35, %arg7, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<8x16x256xf32>, tensor<256x64xf32>) -> tensor<8x16x64xf32>
//     %37 = stablehlo.add %32, %36 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x64xf32>
//     return %37 : tensor<8x16x64xf32>
//   }
// }
