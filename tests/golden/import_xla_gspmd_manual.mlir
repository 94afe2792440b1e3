// -sdy-import-xla on JAX's shard_map in GSPMD's form: @Sharding and
// @SPMDFullToShardShape around each operand of a body call, @Sharding
// {manual} and @SPMDShardToFullShape around each result, become an
// sdy.manual_computation over every axis of the mesh.  Manual forms
// outside that pattern are kept with a warning.
module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
  func.func public @main(%arg0: tensor<16x4xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) -> (tensor<16x4xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<16x4xf32>) -> tensor<2x4xf32>
    %2 = call @shmap_body(%1) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<2x4xf32>) -> tensor<16x4xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
    return %4 : tensor<16x4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
}

// FLAGS: -sdy-import-xla
// EXPECT:
// module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
//   sdy.mesh @mesh = <["_axis_0"=8]>
//   func.func public @main(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) {
//     %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}, {}]>] out_shardings=[<@mesh, [{"_axis_0"}, {}]>] manual_axes={"_axis_0"} (%arg1: tensor<2x4xf32>) {
//       %2 = stablehlo.negate %arg1 : tensor<2x4xf32>
//       sdy.return %2 : tensor<2x4xf32>
//     } : (tensor<16x4xf32>) -> tensor<16x4xf32>
//     %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{manual}"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
//     return %0 : tensor<16x4xf32>
//   }
// }

// EXPECT-STDERR:
// import_xla_gspmd_manual.mlir:13:63: warning: mhlo.sharding kept: a manual form outside the pattern of a manual computation
