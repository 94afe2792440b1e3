// -sdy-import-xla on Shardy's round trip of manual computations: a call of
// @xla.sdy.manual_computation_body between @xla.sdy.GlobalToLocalShape and
// @xla.sdy.LocalToGlobalShape becomes an sdy.manual_computation with the
// body inlined (shardings and axes on the call, or on the custom calls);
// the body function goes when no call is left.  A body call without its
// shape custom calls is kept with a warning.
module @mc attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=4]>}"}} {
  func.func @main(%arg0: tensor<16x32xf32>, %arg1: tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
    %0:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0, %arg1) : (tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>)
    %1 = call @xla.sdy.manual_computation_body(%0#0, %0#1) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>, <@mesh, [{}, {\22b\22}], replicated={\22a\22}>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22, \22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) : (tensor<16x8xf32>) -> tensor<16x32xf32>
    %3 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%2) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<16x32xf32>) -> tensor<8x32xf32>
    %4 = call @xla.sdy.manual_computation_body_1(%3) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%4) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}} : (tensor<8x32xf32>) -> tensor<16x32xf32>
    %6 = call @xla.sdy.manual_computation_body_2(%arg0) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %5, %6 : tensor<16x32xf32>, tensor<16x32xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<16x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @xla.sdy.manual_computation_body_1(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
  func.func @xla.sdy.manual_computation_body_2(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
    return %arg0 : tensor<16x32xf32>
  }
}

// FLAGS: -sdy-import-xla
// EXPECT:
// module @mc {
//   sdy.mesh @mesh = <["a"=2, "b"=4]>
//   func.func @main(%arg0: tensor<16x32xf32>, %arg1: tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
//     %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}, {"b"}]>, <@mesh, [{}, {"b"}], replicated={"a"}>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"a", "b"} (%arg2: tensor<16x8xf32>, %arg3: tensor<16x8xf32>) {
//       %3 = stablehlo.add %arg2, %arg3 : tensor<16x8xf32>
//       sdy.return %3 : tensor<16x8xf32>
//     } : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
//     %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<8x32xf32>) {
//       %3 = stablehlo.multiply %arg2, %arg2 : tensor<8x32xf32>
//       sdy.return %3 : tensor<8x32xf32>
//     } : (tensor<16x32xf32>) -> tensor<16x32xf32>
//     %2 = call @xla.sdy.manual_computation_body_2(%arg0) : (tensor<16x32xf32>) -> tensor<16x32xf32>
//     return %1, %2 : tensor<16x32xf32>, tensor<16x32xf32>
//   }
//   func.func @xla.sdy.manual_computation_body_2(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
//     return %arg0 : tensor<16x32xf32>
//   }
// }

// EXPECT-STDERR:
// import_xla_manual.mlir:15:5: warning: call of a manual computation body without its shape custom calls; kept
