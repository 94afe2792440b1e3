// -sdy-import-xla on GSPMD's mhlo.sharding strings alone: one mesh
// @mesh whose axes split the device order where the shardings need it
// (iota, transposed iota, explicit iota list, last_tile_dim_replicate),
// maximal meshes, unknown as open, tuples on multi-result ops, @Sharding
// as a constraint; forms with no sdy equivalent are kept with a warning.
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
                %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"},
                %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}"},
                %arg3: tensor<8x8xf32> {mhlo.sharding = "{maximal device=3}"},
                %arg4: tensor<8x8xf32> {mhlo.sharding = "{unknown}"},
                %arg5: tensor<8x8xf32> {mhlo.sharding = "{manual}"},
                %arg6: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,16]<=[32] last_tile_dims={manual}}"},
                %arg7: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,2,1,3}"},
                %arg8: tensor<32xf32> {mhlo.sharding = "{devices=[32]0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31 metadata={op_name=\22x\22}}"})
    -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) {
  %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"} : tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[2,1,16]<=[32] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2:2 = stablehlo.custom_call @two(%1) {mhlo.sharding = "{{replicated}, {devices=[1,32]<=[32]}}"} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x32xf32>)
  return %2#0 : tensor<8x8xf32>
}

// FLAGS: -sdy-import-xla
// EXPECT:
// module {
//   sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
//   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_2"}]>}, %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}, %arg4: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg5: tensor<8x8xf32> {mhlo.sharding = "{manual}"}, %arg6: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,16]<=[32] last_tile_dims={manual}}"}, %arg7: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,2,1,3}"}, %arg8: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
//     %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_1", "_axis_0"}, {}]>]>} : tensor<8x8xf32>
//     %1 = sdy.sharding_constraint %0 <@mesh, [{"_axis_0"}, {}]> : tensor<8x8xf32>
//     %2:2 = stablehlo.custom_call @two(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {"_axis_0", "_axis_1", "_axis_2"}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x32xf32>)
//     return %2#0 : tensor<8x8xf32>
//   }
// }

// EXPECT-STDERR:
// import_xla_gspmd.mlir:11:57: warning: mhlo.sharding kept: manual axes exist only inside a manual computation
// import_xla_gspmd.mlir:12:57: warning: mhlo.sharding kept: manual axes exist only inside a manual computation
// import_xla_gspmd.mlir:13:57: warning: mhlo.sharding kept: its device order does not fit the mesh of the other shardings
