// Single-head self-attention: softmax(q k^T / 8) v, then an output
// projection.  The batch is pinned to "x" and the projections to "y".
sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @main(%arg0: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
                %arg1: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg2: tensor<32x32xf32>,
                %arg3: tensor<32x32xf32>,
                %arg4: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16x32xf32> {
  %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0] : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
  %3 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0] : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
  %4 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0] : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
  %5 = stablehlo.dot_general %2, %3, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x16xf32>
  %6 = stablehlo.constant dense<1.250000e-01> : tensor<8x16x16xf32>
  %7 = stablehlo.multiply %5, %6 : tensor<8x16x16xf32>
  %8 = stablehlo.reduce(%7 init: %1) applies stablehlo.maximum across dimensions = [2] : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
  %10 = stablehlo.subtract %7, %9 : tensor<8x16x16xf32>
  %11 = stablehlo.exponential %10 : tensor<8x16x16xf32>
  %12 = stablehlo.reduce(%11 init: %0) applies stablehlo.add across dimensions = [2] : (tensor<8x16x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16x16xf32>
  %14 = stablehlo.divide %11, %13 : tensor<8x16x16xf32>
  %15 = stablehlo.dot_general %14, %4, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x16x16xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %16 = stablehlo.dot_general %15, %arg4, contracting_dims = [2] x [0] : (tensor<8x16x32xf32>, tensor<32x32xf32>) -> tensor<8x16x32xf32>
  return %16 : tensor<8x16x32xf32>
}
