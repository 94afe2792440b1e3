// -flatten-tuples: tuple results of custom calls and functions, and tuple
// arguments of functions, become their elements (nested tuples too) and
// their calls follow; get_tuple_element of a tuple folds; a declaration
// taking a tuple, and a tuple a loop carries, are left alone.
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = call @f(%arg0) : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tuple<tensor<8xf32>, tensor<8xf32>>>
  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8x8xf32>, tuple<tensor<8xf32>, tensor<8xf32>>>) -> tensor<8x8xf32>
  %2 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<8x8xf32>, tuple<tensor<8xf32>, tensor<8xf32>>>) -> tuple<tensor<8xf32>, tensor<8xf32>>
  %3 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %4 = stablehlo.tuple %3, %3 : tuple<tensor<8xf32>, tensor<8xf32>>
  %5 = call @g(%4) : (tuple<tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %1, %3, %5 : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%arg0: tensor<8x8xf32>) -> (tuple<tensor<8x8xf32>, tuple<tensor<8xf32>, tensor<8xf32>>> {jax.result_info = "r"}) {
  %0 = stablehlo.custom_call @Eigh(%arg0) : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tensor<8xf32>>
  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %2 = stablehlo.tuple %1, %1 : tuple<tensor<8xf32>, tensor<8xf32>>
  %3 = stablehlo.tuple %arg0, %2 : tuple<tensor<8x8xf32>, tuple<tensor<8xf32>, tensor<8xf32>>>
  return %3 : tuple<tensor<8x8xf32>, tuple<tensor<8xf32>, tensor<8xf32>>>
}
func.func private @g(%arg0: tuple<tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32> {
  %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @decl(tuple<tensor<8xf32>>) -> tensor<8xf32>
func.func @loop(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.tuple %arg0 : tuple<tensor<8xf32>>
  %1 = stablehlo.while(%iterArg = %0) : tuple<tensor<8xf32>>
    cond {
    %c = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg : tuple<tensor<8xf32>>
  }
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<8xf32>>) -> tensor<8xf32>
  %3 = call @decl(%1) : (tuple<tensor<8xf32>>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// FLAGS: -flatten-tuples
// EXPECT:
// module {
//   func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) {
//     %0:3 = call @f(%arg0) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>)
//     %1 = call @g(%0#2, %0#2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
//     return %0#0, %0#2, %1 : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>
//   }
//   func.func private @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) {
//     %0:2 = stablehlo.custom_call @Eigh(%arg0) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>)
//     return %arg0, %0#1, %0#1 : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>
//   }
//   func.func private @g(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
//     return %arg0 : tensor<8xf32>
//   }
//   func.func private @decl(tuple<tensor<8xf32>>) -> tensor<8xf32>
//   func.func @loop(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = stablehlo.tuple %arg0 : tuple<tensor<8xf32>>
//     %1 = stablehlo.while(%iterArg = %0) : tuple<tensor<8xf32>>
//      cond {
//       %c = stablehlo.constant dense<false> : tensor<i1>
//       stablehlo.return %c : tensor<i1>
//     } do {
//       stablehlo.return %iterArg : tuple<tensor<8xf32>>
//     }
//     %2 = call @decl(%1) : (tuple<tensor<8xf32>>) -> tensor<8xf32>
//     return %2 : tensor<8xf32>
//   }
// }

// EXPECT-STDERR:
// flatten_tuples.mlir:14:1: warning: the attributes of tuple result 0 are dropped: its elements become results
