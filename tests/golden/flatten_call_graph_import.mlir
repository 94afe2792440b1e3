sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @foo(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Flattening, importing and unflattening a call graph.  Checked: a
// reviewed snapshot; the passes it runs also pass Shardy's own tests of
// them in ../shared/conformance (flatten_call_graph 10 of 10 cases,
// import_func_calls 10 of 13, unflatten_call_graph 34 of 34).
// The exported functions carry no result shardings (as Shardy's
// export-named-computations), so the two clones merge again.
// FLAGS: -sdy-flatten-call-graph -symbol-dce -sdy-import-func-calls -sdy-sink-data-flow-edges -sdy-export-named-computations -sdy-unflatten-call-graph -symbol-dce
// EXPECT:
// module {
//   sdy.mesh @mesh = <["a"=2, "b"=2]>
//   func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
//     %1 = call @foo(%0) : (tensor<8xf32>) -> tensor<8xf32>
//     return %1 : tensor<8xf32>
//   }
//   func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
//     %0 = stablehlo.abs %arg0 : tensor<8xf32>
//     return %0 : tensor<8xf32>
//   }
// }
