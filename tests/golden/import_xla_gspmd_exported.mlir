// The mhlo.sharding strings -sdy-export-xla writes beside the round-trip
// strings for import_xla_export_gspmd.mlir, read alone: the same shardings
// as the first import of that case.
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[2,4,4]T(2,0,1)}"}, %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,16]<=[2,4,4] last_tile_dim_replicate}"}, %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,4,2]<=[2,4,4]T(1,2,0) last_tile_dim_replicate}"}, %arg3: tensor<8x8xf32> {mhlo.sharding = "{maximal device=3}"}) -> (tensor<8x32xf32> {mhlo.sharding = "{devices=[1,32]<=[2,4,4]}"}) {
  %0 = stablehlo.constant dense<0.0> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// FLAGS: -sdy-import-xla
// EXPECT:
// module {
//   sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
//   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_2"}]>}, %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0", "_axis_1", "_axis_2"}]>}) {
//     %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x32xf32>
//     return %cst : tensor<8x32xf32>
//   }
// }
