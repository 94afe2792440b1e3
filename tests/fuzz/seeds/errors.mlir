sdy.mesh @mesh = <["x"=4, "x"=2]>
func.func @main(%arg0: tensor<8x99999999999999999999xf32> {sdy.sharding = #sdy.sharding<@nomesh, [{"q"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
  %1 = stablehlo.reduce(%0 init: %0) applies stablehlo.add across dimensions = [7] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<8xf32>
