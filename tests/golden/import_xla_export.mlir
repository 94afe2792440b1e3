// -sdy-export-xla: an sdy module written as Shardy's round-trip strings:
// meshes in xla.sdy.meshes, argument shardings and rules in frontend
// attributes, result shardings on @xla.sdy.FuncResultSharding calls,
// constraints, groups and barriers as their custom calls.
sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @mesh2 = <["c"=8]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {}]>},
                %arg1: tensor<8x16xf32> {jax.arg_info = "y", mhlo.frontend_attributes = {foo = "bar"}, sdy.sharding = #sdy.sharding<@mesh2, [{?}, {"c"}]>})
    -> (tensor<8x16xf32> {jax.result_info = "r", sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<8x16xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a", "b"}, {}]> : tensor<8x16xf32>
  %1 = stablehlo.custom_call @foo(%0, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  sdy.sharding_group %1 group_id=3 : tensor<8x16xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=BACKWARD : tensor<8x16xf32>
  return %2, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// FLAGS: -sdy-export-xla
// EXPECT:
// module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=4]>, mesh2 = #sdy.mesh<[\22c\22=8]>}"}} {
//   func.func @main(%arg0: tensor<8x16xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22}p0, {}]>"}, mhlo.sharding = "{devices=[2,1,4]<=[2,4] last_tile_dim_replicate}"}, %arg1: tensor<8x16xf32> {jax.arg_info = "y", mhlo.frontend_attributes = {foo = "bar", xla.sdy.sharding = "#sdy.sharding<@mesh2, [{?}, {\22c\22}]>"}, mhlo.sharding = "{devices=[1,8]<=[8]}"}) -> (tensor<8x16xf32> {jax.result_info = "r", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<8x16xf32>) {
//     %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22, \22b\22}, {}]>]>"}, mhlo.sharding = "{devices=[8,1]<=[2,4]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
//     %1 = stablehlo.custom_call @foo(%0, %arg1) {mhlo.frontend_attributes = {xla.sdy.sharding_rule = "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}, custom>"}} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//     stablehlo.custom_call @xla.sdy.ShardingGroup(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "3 : i64"}} : (tensor<8x16xf32>) -> ()
//     %2 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.allowed_direction = "2 : i32"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
//     %3 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
//     return %3, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
//   }
// }
