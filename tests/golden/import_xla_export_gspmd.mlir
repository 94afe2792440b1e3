// The round trip: GSPMD strings imported, exported as Shardy's round-trip
// strings (-sdy-export-xla) and imported again give the shardings the
// first import gave (tests/cli/import.sh compares the two).  Op shardings
// other than those of the custom calls that keep one do not survive, as in
// Shardy's round trip.
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
                %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"},
                %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}"},
                %arg3: tensor<8x8xf32> {mhlo.sharding = "{maximal device=3}"},
                %arg4: tensor<8x8xf32> {mhlo.sharding = "{unknown}"})
    -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"}, tensor<8x32xf32> {mhlo.sharding = "{devices=[1,32]<=[32]}"}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[2,1,16]<=[32] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2:2 = stablehlo.custom_call @two(%1) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x32xf32>)
  %3 = stablehlo.custom_call @foo(%2#0, %arg4) {mhlo.frontend_attributes = {xla.sdy.sharding_rule = "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>"}} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3, %2#1 : tensor<8x8xf32>, tensor<8x32xf32>
}

// FLAGS: -sdy-import-xla -sdy-export-xla -sdy-import-xla
// EXPECT:
// module {
//   sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
//   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_2"}]>}, %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}, %arg4: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0", "_axis_1", "_axis_2"}]>}) {
//     %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
//     %1 = sdy.sharding_constraint %0 <@mesh, [{"_axis_0"}, {}]> : tensor<8x8xf32>
//     %2:2 = stablehlo.custom_call @two(%1) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x32xf32>)
//     %3 = stablehlo.custom_call @foo(%2#0, %arg4) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
//     return %3, %2#1 : tensor<8x8xf32>, tensor<8x32xf32>
//   }
// }
