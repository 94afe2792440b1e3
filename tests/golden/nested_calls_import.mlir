sdy.mesh @mesh = <["x"=2]>
func.func private @g(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @g(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8xf32>
  %2 = call @g(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// Calls nested in a function called twice: the callee's body is moved into
// a named computation for the first call and cloned for the others, and
// every call result is redirected (in one walk at the end).
// Checked: a reviewed snapshot; the pass passes 10 of Shardy's 13
// import_func_calls cases in ../shared/conformance.
// FLAGS: -sdy-import-func-calls
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=2]>
//   func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
//     %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {
//       %5 = sdy.data_flow_edge %arg1 : tensor<8xf32>
//       %6 = sdy.named_computation<"g">(%5) (%arg2: tensor<8xf32>) {
//         %11 = sdy.data_flow_edge %arg2 : tensor<8xf32>
//         %12 = stablehlo.multiply %11, %11 : tensor<8xf32>
//         sdy.return %12 : tensor<8xf32>
//       } : (tensor<8xf32>) -> tensor<8xf32>
//       %7 = sdy.data_flow_edge %6 : tensor<8xf32>
//       %8 = stablehlo.add %7, %7 : tensor<8xf32>
//       %9 = sdy.named_computation<"g">(%8) (%arg2: tensor<8xf32>) {
//         %11 = sdy.data_flow_edge %arg2 : tensor<8xf32>
//         %12 = stablehlo.multiply %11, %11 : tensor<8xf32>
//         sdy.return %12 : tensor<8xf32>
//       } : (tensor<8xf32>) -> tensor<8xf32>
//       %10 = sdy.data_flow_edge %9 : tensor<8xf32>
//       sdy.return %10 : tensor<8xf32>
//     } : (tensor<8xf32>) -> tensor<8xf32>
//     %1 = sdy.data_flow_edge %0 : tensor<8xf32>
//     %2 = sdy.named_computation<"f">(%1) (%arg1: tensor<8xf32>) {
//       %5 = sdy.data_flow_edge %arg1 : tensor<8xf32>
//       %6 = sdy.named_computation<"g">(%5) (%arg2: tensor<8xf32>) {
//         %11 = sdy.data_flow_edge %arg2 : tensor<8xf32>
//         %12 = stablehlo.multiply %11, %11 : tensor<8xf32>
//         sdy.return %12 : tensor<8xf32>
//       } : (tensor<8xf32>) -> tensor<8xf32>
//       %7 = sdy.data_flow_edge %6 : tensor<8xf32>
//       %8 = stablehlo.add %7, %7 : tensor<8xf32>
//       %9 = sdy.named_computation<"g">(%8) (%arg2: tensor<8xf32>) {
//         %11 = sdy.data_flow_edge %arg2 : tensor<8xf32>
//         %12 = stablehlo.multiply %11, %11 : tensor<8xf32>
//         sdy.return %12 : tensor<8xf32>
//       } : (tensor<8xf32>) -> tensor<8xf32>
//       %10 = sdy.data_flow_edge %9 : tensor<8xf32>
//       sdy.return %10 : tensor<8xf32>
//     } : (tensor<8xf32>) -> tensor<8xf32>
//     %3 = sdy.data_flow_edge %2 : tensor<8xf32>
//     %4 = stablehlo.add %1, %3 : tensor<8xf32>
//     return %4 : tensor<8xf32>
//   }
// }

// EXPECT-STDERR:
// nested_calls_import.mlir:9:3: warning: function @g has multiple call ops, we need to clone the function body for each call
