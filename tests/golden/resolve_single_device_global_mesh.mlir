sdy.mesh @dev_1 = <[], device_ids=[1]>
sdy.mesh @b = <["y"=2, "z"=2]>
sdy.mesh @a = <["x"=4]>

func.func @main(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@a, [{}]>}) -> tensor<4xi32> {
  %0 = sdy.reshard %arg0 <@dev_1, []> : tensor<4xi32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@dev_1, []>]>} : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// Inferred rule of -sdy-resolve-single-device-sharding (see the pass
// file): the global mesh is the first sdy.mesh with axes, so the
// all-reduce runs over "y" and "z" of @b; the result keeps no reshard
// back, its user (the return) reads the all-reduce.
// FLAGS: -sdy-resolve-single-device-sharding
// EXPECT:
// module {
//   sdy.mesh @dev_1 = <[], device_ids=[1]>
//   sdy.mesh @b = <["y"=2, "z"=2]>
//   sdy.mesh @a = <["x"=4]>
//   func.func @main(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@a, [{}]>}) -> tensor<4xi32> {
//     %0 = stablehlo.partition_id : tensor<ui32>
//     %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
//     %c = stablehlo.constant dense<1> : tensor<i64>
//     %2 = stablehlo.compare  EQ, %1, %c : (tensor<i64>, tensor<i64>) -> tensor<i1>
//     %3 = "stablehlo.if"(%2) ({
//       %5 = stablehlo.negate %arg0 : tensor<4xi32>
//       stablehlo.return %5 : tensor<4xi32>
//     }, {
//       %c_0 = stablehlo.constant dense<0> : tensor<4xi32>
//       stablehlo.return %c_0 : tensor<4xi32>
//     }) : (tensor<i1>) -> tensor<4xi32>
//     %4 = sdy.all_reduce {"y", "z"} %3 out_sharding=<@b, [{}]> : tensor<4xi32>
//     return %4 : tensor<4xi32>
//   }
// }
