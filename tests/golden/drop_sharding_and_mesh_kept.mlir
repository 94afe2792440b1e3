sdy.mesh @used = <["x"=2]>
sdy.mesh @unused = <["y"=2]>

func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@unused, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@unused, [{}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@used, [{"x"}]> : tensor<8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@unused, [{"y"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -sdy-drop-sharding-and-mesh removes every sdy.sharding attribute, of
// ops, arguments and results; a mesh that a sharding left in the module
// (here a sharding constraint's) still names stays.
// FLAGS: -sdy-drop-sharding-and-mesh
// EXPECT:
// module {
//   sdy.mesh @used = <["x"=2]>
//   func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = sdy.sharding_constraint %arg0 <@used, [{"x"}]> : tensor<8xf32>
//     %1 = stablehlo.abs %0 : tensor<8xf32>
//     return %1 : tensor<8xf32>
//   }
// }
