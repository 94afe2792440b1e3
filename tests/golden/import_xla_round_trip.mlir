// -sdy-import-xla on Shardy's round-trip strings (as JAX exports them):
// meshes, argument and result shardings, the custom calls that keep a
// sharding, sharding rules, groups and barriers; mhlo.sharding beside
// them is dropped, and a round-tripped sharding on any other op too.
module @rt attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=4]>, mesh2 = #sdy.mesh<[\22c\22=8]>}"}, mhlo.num_partitions = 8 : i32} {
  func.func @main(%arg0: tensor<8x16xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22}p0, {}]>"}, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                  %arg1: tensor<8x16xf32> {jax.arg_info = "y", mhlo.frontend_attributes = {foo = "bar", xla.sdy.sharding = "#sdy.sharding<@mesh2, [{?}, {\22c\22}]>"}})
      -> (tensor<8x16xf32> {jax.result_info = "r"}, tensor<8x16xf32>) {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}, {}]>]>"}} : tensor<8x16xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22, \22b\22}, {}]>]>"}, mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.custom_call @foo(%1, %arg1) {mhlo.frontend_attributes = {xla.sdy.sharding_rule = "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}, custom>"}} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    stablehlo.custom_call @xla.sdy.ShardingGroup(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "3 : i64"}} : (tensor<8x16xf32>) -> ()
    %3 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%2) {mhlo.frontend_attributes = {xla.sdy.allowed_direction = "1 : i32"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%3) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %5 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg1) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh2, [{\22c\22}, {}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<8x16xf32>
    return %4, %5 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// FLAGS: -sdy-import-xla
// EXPECT:
// module @rt attributes {mhlo.num_partitions = 8 : i32} {
//   sdy.mesh @mesh = <["a"=2, "b"=4]>
//   sdy.mesh @mesh2 = <["c"=8]>
//   func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {}]>}, %arg1: tensor<8x16xf32> {jax.arg_info = "y", mhlo.frontend_attributes = {foo = "bar"}, sdy.sharding = #sdy.sharding<@mesh2, [{?}, {"c"}]>}) -> (tensor<8x16xf32> {jax.result_info = "r", sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{"c"}, {}]>}) {
//     %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
//     %1 = sdy.sharding_constraint %0 <@mesh, [{"a", "b"}, {}]> : tensor<8x16xf32>
//     %2 = stablehlo.custom_call @foo(%1, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//     sdy.sharding_group %2 group_id=3 : tensor<8x16xf32>
//     %3 = sdy.propagation_barrier %2 allowed_direction=FORWARD : tensor<8x16xf32>
//     %4 = sdy.sharding_constraint %arg1 <@mesh2, [{"c"}, {}]> : tensor<8x16xf32>
//     %5 = stablehlo.multiply %4, %4 : tensor<8x16xf32>
//     return %3, %4 : tensor<8x16xf32>, tensor<8x16xf32>
//   }
// }
