// propagate --emit mhlo,xla: the propagated shardings as XLA reads them
// (frontend attributes and mhlo.sharding) on MHLO ops.
// SHARDLP: propagate --emit mhlo,xla
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x4xf32> {
  %0 = mhlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = mhlo.tanh %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// EXPECT:
// module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=4]>}"}} {
//   func.func @main(%arg0: tensor<8x16xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,4]<=[2,4] last_tile_dim_replicate}"}, %arg1: tensor<16x4xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {\22y\22}]>"}, mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x4xf32> {mhlo.sharding = "{devices=[2,4]<=[2,4]}"}) {
//     %0 = mhlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22, ?}, {\22y\22, ?}]>]>"}, mhlo.sharding = "{devices=[2,4]<=[2,4]}"} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
//     %1 = mhlo.tanh %0 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22, ?}, {\22y\22, ?}]>]>"}, mhlo.sharding = "{devices=[2,4]<=[2,4]}"} : tensor<8x4xf32>
//     %2 = mhlo.custom_call @xla.sdy.FuncResultSharding(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22, ?}, {\22y\22, ?}]>]>"}} : (tensor<8x4xf32>) -> tensor<8x4xf32>
//     return %2 : tensor<8x4xf32>
//   }
// }
