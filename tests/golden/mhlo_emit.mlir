// --emit mhlo: StableHLO ops printed as MHLO in the pretty form (reduce's
// `applies mhlo.add` too), which reads back as the same module; the
// generic op with attributes of its own (sort) keeps its StableHLO name.
// SHARDLP: print --emit mhlo
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x4xf32>) -> tensor<8xf32> {
  %0 = mhlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = mhlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = mhlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
  %3 = mhlo.maximum %0, %2 : tensor<8x4xf32>
  %4 = mhlo.transpose %3, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %5 = mhlo.reduce(%4 init: %1) applies mhlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %6 = mhlo.compare  GT, %5, %5,  FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %7 = mhlo.select %6, %5, %5 : tensor<8xi1>, tensor<8xf32>
  %8 = "mhlo.multiply"(%7, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %9 = "mhlo.reverse"(%8) {dimensions = dense<0> : tensor<1xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  %10 = "stablehlo.sort"(%9) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = mhlo.compare  LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    mhlo.return %c : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %10 : tensor<8xf32>
}

// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x4xf32>) -> tensor<8xf32> {
//     %0 = mhlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
//     %cst = mhlo.constant dense<0.000000e+00> : tensor<f32>
//     %1 = mhlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
//     %2 = mhlo.maximum %0, %1 : tensor<8x4xf32>
//     %3 = mhlo.transpose %2, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
//     %4 = mhlo.reduce(%3 init: %cst) applies mhlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
//     %5 = mhlo.compare  GT, %4, %4,  FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
//     %6 = mhlo.select %5, %4, %4 : tensor<8xi1>, tensor<8xf32>
//     %7 = mhlo.multiply %6, %6 : tensor<8xf32>
//     %8 = "mhlo.reverse"(%7) {dimensions = dense<0> : tensor<1xi64>} : (tensor<8xf32>) -> tensor<8xf32>
//     %9 = "stablehlo.sort"(%8) <{dimension = 0 : i64}> ({
//     ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
//       %10 = mhlo.compare  LT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
//       mhlo.return %10 : tensor<i1>
//     }) : (tensor<8xf32>) -> tensor<8xf32>
//     return %9 : tensor<8xf32>
//   }
// }
