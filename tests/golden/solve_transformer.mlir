// shardlp solve on data/transformer.mlir, a one-layer transformer block;
// pins the optimal shardings the ILP finds.
// Checked: the same output as the build before the cost.c split
// (3e0c00a); the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_transformer.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/transformer.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   func.func @main(%arg0: tensor<8x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}, %arg2: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}, %arg4: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}, %arg5: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg6: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg7: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16x64xf32> {
//     %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
//     %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x64xf32>
//     %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>} : (tensor<8x16x64xf32>, tensor<f32>) -> tensor<8x16xf32>
//     %cst_1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>} dense<1.562500e-02> : tensor<8x16xf32>
//     %2 = stablehlo.multiply %1, %cst_1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>} : tensor<8x16xf32>
//     %3 = stablehlo.rsqrt %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>} : tensor<8x16xf32>
//     %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x16xf32>) -> tensor<8x16x64xf32>
//     %5 = stablehlo.multiply %arg0, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x16x64xf32>
//     %6 = stablehlo.broadcast_in_dim %arg1, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<64xf32>) -> tensor<8x16x64xf32>
//     %7 = stablehlo.multiply %5, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x16x64xf32>
//     %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %9 = stablehlo.dot_general %7, %arg3, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %10 = stablehlo.dot_general %7, %arg4, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %11 = stablehlo.reshape %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}, {?}]>]>} : (tensor<8x16x64xf32>) -> tensor<8x16x4x16xf32>
//     %12 = stablehlo.transpose %11, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %13 = stablehlo.reshape %9 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}, {?}]>]>} : (tensor<8x16x64xf32>) -> tensor<8x16x4x16xf32>
//     %14 = stablehlo.transpose %13, dims = [0, 2, 3, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %15 = stablehlo.dot_general %12, %14, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x4x16x16xf32>, tensor<8x4x16x16xf32>) -> tensor<8x4x16x16xf32>
//     %16 = stablehlo.reduce(%15 init: %cst_0) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}]>]>} : (tensor<8x4x16x16xf32>, tensor<f32>) -> tensor<8x4x16xf32>
//     %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %18 = stablehlo.subtract %15, %17 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : tensor<8x4x16x16xf32>
//     %19 = stablehlo.exponential %18 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : tensor<8x4x16x16xf32>
//     %20 = stablehlo.reduce(%19 init: %cst) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}]>]>} : (tensor<8x4x16x16xf32>, tensor<f32>) -> tensor<8x4x16xf32>
//     %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %22 = stablehlo.divide %19, %21 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : tensor<8x4x16x16xf32>
//     %23 = stablehlo.reshape %10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}, {?}]>]>} : (tensor<8x16x64xf32>) -> tensor<8x16x4x16xf32>
//     %24 = stablehlo.transpose %23, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
//     %25 = stablehlo.dot_general %22, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}, {?}, {?}]>]>} : (tensor<8x4x16x16xf32>, tensor<8x4x16x16xf32>) -> tensor<8x4x16x16xf32>
//     %26 = stablehlo.transpose %25, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}, {?}]>]>} : (tensor<8x4x16x16xf32>) -> tensor<8x16x4x16xf32>
//     %27 = stablehlo.reshape %26 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x4x16xf32>) -> tensor<8x16x64xf32>
//     %28 = stablehlo.dot_general %27, %arg5, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x64xf32>, tensor<64x64xf32>) -> tensor<8x16x64xf32>
//     %29 = stablehlo.add %arg0, %28 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x64xf32>
//     %30 = stablehlo.dot_general %29, %arg6, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}]>]>} : (tensor<8x16x64xf32>, tensor<64x256xf32>) -> tensor<8x16x256xf32>
//     %31 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}]>]>} : (tensor<f32>) -> tensor<8x16x256xf32>
//     %32 = stablehlo.maximum %30, %31 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", ?}]>]>} : tensor<8x16x256xf32>
//     %33 = stablehlo.dot_general %32, %arg7, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : (tensor<8x16x256xf32>, tensor<256x64xf32>) -> tensor<8x16x64xf32>
//     %34 = stablehlo.add %29, %33 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}, {?}]>]>} : tensor<8x16x64xf32>
//     return %34 : tensor<8x16x64xf32>
//   }
// }
