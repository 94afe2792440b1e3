// A loop that applies the same sharded layer ten times.  The carried
// activation is pinned on entry; a sharding constraint inside the body
// keeps the weight's layout.
sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @main(%arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<96x96xf32>) -> tensor<32x96xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant dense<1> : tensor<i32>
  %2 = stablehlo.constant dense<10> : tensor<i32>
  %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare  LT, %iterArg_0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<96x96xf32>
    %5 = stablehlo.dot_general %iterArg, %4, contracting_dims = [1] x [0] : (tensor<32x96xf32>, tensor<96x96xf32>) -> tensor<32x96xf32>
    %6 = stablehlo.tanh %5 : tensor<32x96xf32>
    %7 = stablehlo.add %iterArg_0, %1 : tensor<i32>
    stablehlo.return %6, %7 : tensor<32x96xf32>, tensor<i32>
  }
  return %3#0 : tensor<32x96xf32>
}
