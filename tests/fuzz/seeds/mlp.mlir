// A two-layer MLP on a 4x2 mesh: the batch is pinned to "x", the hidden
// dimension of the first weight to "y"; propagation fills in the rest.
sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg2: tensor<256xf32>,
                %arg3: tensor<256x64xf32>,
                %arg4: tensor<64xf32>) -> tensor<32x64xf32> {
  %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
  %2 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<32x256xf32>
  %3 = stablehlo.add %1, %2 : tensor<32x256xf32>
  %4 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
  %5 = stablehlo.maximum %3, %4 : tensor<32x256xf32>
  %6 = stablehlo.dot_general %5, %arg3, contracting_dims = [1] x [0] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
  %7 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
  %8 = stablehlo.add %6, %7 : tensor<32x64xf32>
  return %8 : tensor<32x64xf32>
}
