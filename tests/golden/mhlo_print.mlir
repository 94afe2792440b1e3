// MHLO in its pretty form: an op whose StableHLO counterpart has the same
// syntax is read as that op (reduce's `applies mhlo.add` too); in the
// generic form only the elementwise ones are, others stay MHLO's.
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8xf32> {
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
  return %9 : tensor<8xf32>
}

// EXPECT:
// module {
//   func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8xf32> {
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
//     %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
//     %2 = stablehlo.maximum %0, %1 : tensor<8x4xf32>
//     %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
//     %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
//     %5 = stablehlo.compare  GT, %4, %4,  FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
//     %6 = stablehlo.select %5, %4, %4 : tensor<8xi1>, tensor<8xf32>
//     %7 = stablehlo.multiply %6, %6 : tensor<8xf32>
//     %8 = "mhlo.reverse"(%7) {dimensions = dense<0> : tensor<1xi64>} : (tensor<8xf32>) -> tensor<8xf32>
//     return %8 : tensor<8xf32>
//   }
// }
