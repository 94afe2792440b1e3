// -sdy-import-xla keeps what has no exact sdy form, with one warning each
// saying why: a tuple sharding on one value, a sharding of a value of
// dynamic shape, a tile assignment of the wrong rank, and xla.sdy custom
// calls whose operands or attributes do not fit.
func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{{replicated}, {replicated}}"},
                %arg1: tensor<?x8xf32> {mhlo.sharding = "{replicated}"},
                %arg2: tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"},
                %arg3: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg0) {mhlo.frontend_attributes = {xla.sdy.allowed_direction = "7 : i32"}} : (tensor<8xf32>) -> tensor<8xf32>
  %1:2 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%0, %arg3) {mhlo.sharding = "{{replicated}, {replicated}}"} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %1#0 : tensor<8xf32>
}

// FLAGS: -sdy-import-xla
// EXPECT:
// module {
//   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
//   func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{{replicated}, {replicated}}"}, %arg1: tensor<?x8xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>}) -> tensor<8xf32> {
//     %0 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg0) {mhlo.frontend_attributes = {xla.sdy.allowed_direction = "7 : i32"}} : (tensor<8xf32>) -> tensor<8xf32>
//     %1:2 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%0, %arg3) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
//     return %1#0 : tensor<8xf32>
//   }
// }

// EXPECT-STDERR:
// import_xla_kept.mlir:5:55: warning: mhlo.sharding kept: a tuple sharding on one value
// import_xla_kept.mlir:6:57: warning: mhlo.sharding kept: the value is no tensor of static shape
// import_xla_kept.mlir:7:55: warning: mhlo.sharding kept: its tile assignment does not match the rank
// import_xla_kept.mlir:9:3: warning: xla.sdy.PropagationBarrier without one operand and a direction; kept
// import_xla_kept.mlir:10:3: warning: xla.sdy.FuncResultSharding without one operand and one sharding; kept
