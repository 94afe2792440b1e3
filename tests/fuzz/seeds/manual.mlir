// A manual computation: each device along "x" holds an 8-row slice of the
// operand and multiplies it by the replicated weight; the body sees local
// shapes (32 / 4 = 8 rows).
sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @main(%arg0: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<16x16xf32>) -> tensor<32x16xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<8x16xf32>, %arg3: tensor<16x16xf32>) {
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.add %1, %arg2 : tensor<8x16xf32>
    sdy.return %2 : tensor<8x16xf32>
  } : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %3 = stablehlo.negate %0 : tensor<32x16xf32>
  return %3 : tensor<32x16xf32>
}
