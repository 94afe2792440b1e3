// GSPMD strings imported, then propagated by the pipeline.
func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
                %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// FLAGS: -sdy-import-xla -sdy-propagation-pipeline
// EXPECT:
// module {
//   sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2]> {stablehlo.mesh = {axes = [{name = "_axis_0", size = 4 : i64}, {name = "_axis_1", size = 2 : i64}]}}
//   func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_1"}]>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) {
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {"_axis_1"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
//     %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {"_axis_1"}]>]>} : tensor<8x32xf32>
//     return %1 : tensor<8x32xf32>
//   }
// }
