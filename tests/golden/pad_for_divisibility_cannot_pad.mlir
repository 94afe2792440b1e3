// -sdy-pad-for-divisibility on an op it cannot pad: a reshape whose result
// (18 elements on 4 devices) needs padding, which no padded operand can
// give.  One located error at the op, exit 1, nothing printed.
// FLAGS: -sdy-pad-for-divisibility
// EXIT: 1
// EXPECT-STDERR:
// pad_for_divisibility_cannot_pad.mlir:13:3: error: cannot pad 'stablehlo.reshape': result #0 has a non-divisible sharding
sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<6x3xf32>) -> tensor<18xf32> {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x3xf32>
  %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x3xf32>
  %2 = stablehlo.reshape %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<6x3xf32>) -> tensor<18xf32>
  return %2 : tensor<18xf32>
}
