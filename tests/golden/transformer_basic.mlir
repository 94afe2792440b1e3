// Propagation on a generated two-layer transformer (shardlp gen transformer
// --layers 2 --mesh 2x2x2 --seed 3): the output of the propagation before
// its speed-ups (rule sharing, settled steps, quiet ops), kept exact.
// Checked: a snapshot of shardlp's own output, not of Shardy's: it pins
// the propagation across changes made for speed.  Agreement with Shardy
// is checked by its own propagation tests in ../shared/conformance.
// FLAGS: -sdy-basic-propagate
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
//   func.func @main(%arg0: tensor<8x128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg1: tensor<256xf32>, %arg2: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>}, %arg3: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", "z", ?}]>}, %arg4: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>}, %arg5: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z", ?}, {?}]>}, %arg6: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>}, %arg7: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}, {}]>}, %arg8: tensor<256xf32>, %arg9: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>}, %arg10: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", "z", ?}]>}, %arg11: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>}, %arg12: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z", ?}, {?}]>}, %arg13: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>}, %arg14: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}, {}]>}) -> (tensor<8x128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}, {?}]>}) {
//     %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
//     %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x128x256xf32>, tensor<f32>) -> tensor<8x128xf32>
//     %cst_1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} dense<3.906250e-03> : tensor<8x128xf32>
//     %2 = stablehlo.multiply %1, %cst_1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x128xf32>
//     %3 = stablehlo.rsqrt %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x128xf32>
//     %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x128xf32>) -> tensor<8x128x256xf32>
//     %5 = stablehlo.multiply %arg0, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %6 = stablehlo.broadcast_in_dim %arg1, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<256xf32>) -> tensor<8x128x256xf32>
//     %7 = stablehlo.multiply %5, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %9 = stablehlo.dot_general %7, %arg3, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %10 = stablehlo.dot_general %7, %arg4, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %11 = stablehlo.reshape %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
//     %12 = stablehlo.transpose %11, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
//     %13 = stablehlo.reshape %9 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
//     %14 = stablehlo.transpose %13, dims = [0, 2, 3, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x4x64x128xf32>
//     %15 = stablehlo.dot_general %12, %14, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128x64xf32>, tensor<8x4x64x128xf32>) -> tensor<8x4x128x128xf32>
//     %16 = stablehlo.reduce(%15 init: %cst_0) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
//     %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
//     %18 = stablehlo.subtract %15, %17 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : tensor<8x4x128x128xf32>
//     %19 = stablehlo.exponential %18 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : tensor<8x4x128x128xf32>
//     %20 = stablehlo.reduce(%19 init: %cst) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
//     %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
//     %22 = stablehlo.divide %19, %21 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : tensor<8x4x128x128xf32>
//     %23 = stablehlo.reshape %10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
//     %24 = stablehlo.transpose %23, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
//     %25 = stablehlo.dot_general %22, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128x128xf32>, tensor<8x4x128x64xf32>) -> tensor<8x4x128x64xf32>
//     %26 = stablehlo.transpose %25, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x4x128x64xf32>) -> tensor<8x128x4x64xf32>
//     %27 = stablehlo.reshape %26 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x128x256xf32>
//     %28 = stablehlo.dot_general %27, %arg5, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %29 = stablehlo.add %arg0, %28 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %30 = stablehlo.dot_general %29, %arg6, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x1024xf32>) -> tensor<8x128x1024xf32>
//     %31 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<f32>) -> tensor<8x128x1024xf32>
//     %32 = stablehlo.maximum %30, %31 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : tensor<8x128x1024xf32>
//     %33 = stablehlo.dot_general %32, %arg7, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x128x1024xf32>, tensor<1024x256xf32>) -> tensor<8x128x256xf32>
//     %34 = stablehlo.add %29, %33 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %35 = stablehlo.multiply %34, %34 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %36 = stablehlo.reduce(%35 init: %cst) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x128x256xf32>, tensor<f32>) -> tensor<8x128xf32>
//     %cst_2 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} dense<3.906250e-03> : tensor<8x128xf32>
//     %37 = stablehlo.multiply %36, %cst_2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x128xf32>
//     %38 = stablehlo.rsqrt %37 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x128xf32>
//     %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x128xf32>) -> tensor<8x128x256xf32>
//     %40 = stablehlo.multiply %34, %39 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %41 = stablehlo.broadcast_in_dim %arg8, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<256xf32>) -> tensor<8x128x256xf32>
//     %42 = stablehlo.multiply %40, %41 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %43 = stablehlo.dot_general %42, %arg9, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %44 = stablehlo.dot_general %42, %arg10, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %45 = stablehlo.dot_general %42, %arg11, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %46 = stablehlo.reshape %43 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
//     %47 = stablehlo.transpose %46, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
//     %48 = stablehlo.reshape %44 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
//     %49 = stablehlo.transpose %48, dims = [0, 2, 3, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x4x64x128xf32>
//     %50 = stablehlo.dot_general %47, %49, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128x64xf32>, tensor<8x4x64x128xf32>) -> tensor<8x4x128x128xf32>
//     %51 = stablehlo.reduce(%50 init: %cst_0) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
//     %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
//     %53 = stablehlo.subtract %50, %52 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : tensor<8x4x128x128xf32>
//     %54 = stablehlo.exponential %53 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : tensor<8x4x128x128xf32>
//     %55 = stablehlo.reduce(%54 init: %cst) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
//     %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
//     %57 = stablehlo.divide %54, %56 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : tensor<8x4x128x128xf32>
//     %58 = stablehlo.reshape %45 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
//     %59 = stablehlo.transpose %58, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
//     %60 = stablehlo.dot_general %57, %59, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", "z", ?}, {?}, {?}]>]>} : (tensor<8x4x128x128xf32>, tensor<8x4x128x64xf32>) -> tensor<8x4x128x64xf32>
//     %61 = stablehlo.transpose %60, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}, {?}]>]>} : (tensor<8x4x128x64xf32>) -> tensor<8x128x4x64xf32>
//     %62 = stablehlo.reshape %61 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x4x64xf32>) -> tensor<8x128x256xf32>
//     %63 = stablehlo.dot_general %62, %arg12, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
//     %64 = stablehlo.add %34, %63 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     %65 = stablehlo.dot_general %64, %arg13, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<8x128x256xf32>, tensor<256x1024xf32>) -> tensor<8x128x1024xf32>
//     %66 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : (tensor<f32>) -> tensor<8x128x1024xf32>
//     %67 = stablehlo.maximum %65, %66 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {"y", "z", ?}]>]>} : tensor<8x128x1024xf32>
//     %68 = stablehlo.dot_general %67, %arg14, contracting_dims = [2] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : (tensor<8x128x1024xf32>, tensor<1024x256xf32>) -> tensor<8x128x256xf32>
//     %69 = stablehlo.add %64, %68 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}, {?}]>]>} : tensor<8x128x256xf32>
//     return %69 : tensor<8x128x256xf32>
//   }
// }

// shardlp gen transformer --layers 2 --hidden 256 --seq 128 --batch 8 --heads 4 --mesh 2x2x2 --seed 3
module {
  sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
  func.func @main(%arg0: tensor<8x128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
      %arg1: tensor<256xf32>,
      %arg2: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>},
      %arg3: tensor<256x256xf32>,
      %arg4: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>},
      %arg5: tensor<256x256xf32>,
      %arg6: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>},
      %arg7: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}, {}]>},
      %arg8: tensor<256xf32>,
      %arg9: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>},
      %arg10: tensor<256x256xf32>,
      %arg11: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>},
      %arg12: tensor<256x256xf32>,
      %arg13: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "z"}]>},
      %arg14: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}, {}]>}) -> tensor<8x128x256xf32> {
    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<8x128x256xf32>
    %3 = stablehlo.reduce(%2 init: %0) applies stablehlo.add across dimensions = [2] : (tensor<8x128x256xf32>, tensor<f32>) -> tensor<8x128xf32>
    %4 = stablehlo.constant dense<3.906250e-03> : tensor<8x128xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<8x128xf32>
    %6 = stablehlo.rsqrt %5 : tensor<8x128xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x256xf32>
    %8 = stablehlo.multiply %arg0, %7 : tensor<8x128x256xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<256xf32>) -> tensor<8x128x256xf32>
    %10 = stablehlo.multiply %8, %9 : tensor<8x128x256xf32>
    %11 = stablehlo.dot_general %10, %arg2, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %12 = stablehlo.dot_general %10, %arg3, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %13 = stablehlo.dot_general %10, %arg4, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %14 = stablehlo.reshape %11 : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
    %15 = stablehlo.transpose %14, dims = [0, 2, 1, 3] : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
    %16 = stablehlo.reshape %12 : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
    %17 = stablehlo.transpose %16, dims = [0, 2, 3, 1] : (tensor<8x128x4x64xf32>) -> tensor<8x4x64x128xf32>
    %18 = stablehlo.dot_general %15, %17, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<8x4x128x64xf32>, tensor<8x4x64x128xf32>) -> tensor<8x4x128x128xf32>
    %19 = stablehlo.reduce(%18 init: %1) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
    %21 = stablehlo.subtract %18, %20 : tensor<8x4x128x128xf32>
    %22 = stablehlo.exponential %21 : tensor<8x4x128x128xf32>
    %23 = stablehlo.reduce(%22 init: %0) applies stablehlo.add across dimensions = [3] : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
    %25 = stablehlo.divide %22, %24 : tensor<8x4x128x128xf32>
    %26 = stablehlo.reshape %13 : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
    %27 = stablehlo.transpose %26, dims = [0, 2, 1, 3] : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
    %28 = stablehlo.dot_general %25, %27, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<8x4x128x128xf32>, tensor<8x4x128x64xf32>) -> tensor<8x4x128x64xf32>
    %29 = stablehlo.transpose %28, dims = [0, 2, 1, 3] : (tensor<8x4x128x64xf32>) -> tensor<8x128x4x64xf32>
    %30 = stablehlo.reshape %29 : (tensor<8x128x4x64xf32>) -> tensor<8x128x256xf32>
    %31 = stablehlo.dot_general %30, %arg5, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %32 = stablehlo.add %arg0, %31 : tensor<8x128x256xf32>
    %33 = stablehlo.dot_general %32, %arg6, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x1024xf32>) -> tensor<8x128x1024xf32>
    %34 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x128x1024xf32>
    %35 = stablehlo.maximum %33, %34 : tensor<8x128x1024xf32>
    %36 = stablehlo.dot_general %35, %arg7, contracting_dims = [2] x [0] : (tensor<8x128x1024xf32>, tensor<1024x256xf32>) -> tensor<8x128x256xf32>
    %37 = stablehlo.add %32, %36 : tensor<8x128x256xf32>
    %38 = stablehlo.multiply %37, %37 : tensor<8x128x256xf32>
    %39 = stablehlo.reduce(%38 init: %0) applies stablehlo.add across dimensions = [2] : (tensor<8x128x256xf32>, tensor<f32>) -> tensor<8x128xf32>
    %40 = stablehlo.constant dense<3.906250e-03> : tensor<8x128xf32>
    %41 = stablehlo.multiply %39, %40 : tensor<8x128xf32>
    %42 = stablehlo.rsqrt %41 : tensor<8x128xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x256xf32>
    %44 = stablehlo.multiply %37, %43 : tensor<8x128x256xf32>
    %45 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<256xf32>) -> tensor<8x128x256xf32>
    %46 = stablehlo.multiply %44, %45 : tensor<8x128x256xf32>
    %47 = stablehlo.dot_general %46, %arg9, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %48 = stablehlo.dot_general %46, %arg10, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %49 = stablehlo.dot_general %46, %arg11, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %50 = stablehlo.reshape %47 : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
    %51 = stablehlo.transpose %50, dims = [0, 2, 1, 3] : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
    %52 = stablehlo.reshape %48 : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
    %53 = stablehlo.transpose %52, dims = [0, 2, 3, 1] : (tensor<8x128x4x64xf32>) -> tensor<8x4x64x128xf32>
    %54 = stablehlo.dot_general %51, %53, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<8x4x128x64xf32>, tensor<8x4x64x128xf32>) -> tensor<8x4x128x128xf32>
    %55 = stablehlo.reduce(%54 init: %1) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
    %57 = stablehlo.subtract %54, %56 : tensor<8x4x128x128xf32>
    %58 = stablehlo.exponential %57 : tensor<8x4x128x128xf32>
    %59 = stablehlo.reduce(%58 init: %0) applies stablehlo.add across dimensions = [3] : (tensor<8x4x128x128xf32>, tensor<f32>) -> tensor<8x4x128xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2] : (tensor<8x4x128xf32>) -> tensor<8x4x128x128xf32>
    %61 = stablehlo.divide %58, %60 : tensor<8x4x128x128xf32>
    %62 = stablehlo.reshape %49 : (tensor<8x128x256xf32>) -> tensor<8x128x4x64xf32>
    %63 = stablehlo.transpose %62, dims = [0, 2, 1, 3] : (tensor<8x128x4x64xf32>) -> tensor<8x4x128x64xf32>
    %64 = stablehlo.dot_general %61, %63, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<8x4x128x128xf32>, tensor<8x4x128x64xf32>) -> tensor<8x4x128x64xf32>
    %65 = stablehlo.transpose %64, dims = [0, 2, 1, 3] : (tensor<8x4x128x64xf32>) -> tensor<8x128x4x64xf32>
    %66 = stablehlo.reshape %65 : (tensor<8x128x4x64xf32>) -> tensor<8x128x256xf32>
    %67 = stablehlo.dot_general %66, %arg12, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x256xf32>) -> tensor<8x128x256xf32>
    %68 = stablehlo.add %37, %67 : tensor<8x128x256xf32>
    %69 = stablehlo.dot_general %68, %arg13, contracting_dims = [2] x [0] : (tensor<8x128x256xf32>, tensor<256x1024xf32>) -> tensor<8x128x1024xf32>
    %70 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x128x1024xf32>
    %71 = stablehlo.maximum %69, %70 : tensor<8x128x1024xf32>
    %72 = stablehlo.dot_general %71, %arg14, contracting_dims = [2] x [0] : (tensor<8x128x1024xf32>, tensor<1024x256xf32>) -> tensor<8x128x256xf32>
    %73 = stablehlo.add %68, %72 : tensor<8x128x256xf32>
    return %73 : tensor<8x128x256xf32>
  }
}
