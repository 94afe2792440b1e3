// -flatten-tuples then -sdy-import-xla: a GSPMD tuple sharding on a tuple
// argument or result is spread over its elements (a sharding that is no
// tuple holds for each); attributes that fit no element are dropped with
// a warning.
func.func @main(%arg0: tuple<tensor<8x8xf32>, tensor<8xf32>> {mhlo.sharding = "{{devices=[2,1]<=[2]}, {replicated}}"}, %arg1: tensor<8xf32>) -> (tuple<tensor<8xf32>, tensor<8xf32>> {mhlo.sharding = "{devices=[2]<=[2]}"}) {
  %0 = call @g(%arg0) : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<8xf32>
  %2 = stablehlo.tuple %1, %1 : tuple<tensor<8xf32>, tensor<8xf32>>
  return %2 : tuple<tensor<8xf32>, tensor<8xf32>>
}
func.func private @g(%arg0: tuple<tensor<8x8xf32>, tensor<8xf32>> {mhlo.sharding = "{{replicated}}", jax.x = 1}) -> tensor<8xf32> {
  %0 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// FLAGS: -flatten-tuples -sdy-import-xla
// EXPECT:
// module {
//   sdy.mesh @mesh = <["_axis_0"=2]>
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}) {
//     %0 = call @g(%arg0, %arg1) : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
//     %1 = stablehlo.add %0, %arg2 : tensor<8xf32>
//     return %1, %1 : tensor<8xf32>, tensor<8xf32>
//   }
//   func.func private @g(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
//     return %arg1 : tensor<8xf32>
//   }
// }

// EXPECT-STDERR:
// flatten_tuples_shardings.mlir:11:22: warning: the attributes of tuple argument 0 are dropped: its elements become arguments
