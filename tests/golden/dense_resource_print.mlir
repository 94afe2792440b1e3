// dense_resource constants in the forms MLIR accepts: StableHLO's custom
// form (a handle as a name or a string, attributes before it) and the
// generic form, which prints in the custom form.
func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.constant dense_resource<__elided__> : tensor<8x16xf32>
  %1 = stablehlo.constant {foo = 1 : i32} dense_resource<"blob x"> : tensor<8x16xf32>
  %2 = "stablehlo.constant"() <{value = dense_resource<torch_tensor_1_f32> : tensor<8x16xf32>}> : () -> tensor<8x16xf32>
  %3 = stablehlo.add %0, %1 : tensor<8x16xf32>
  %4 = stablehlo.add %3, %2 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// EXPECT:
// module {
//   func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
//     %cst = stablehlo.constant dense_resource<__elided__> : tensor<8x16xf32>
//     %cst_0 = stablehlo.constant {foo = 1 : i32} dense_resource<"blob x"> : tensor<8x16xf32>
//     %cst_1 = stablehlo.constant dense_resource<torch_tensor_1_f32> : tensor<8x16xf32>
//     %0 = stablehlo.add %cst, %cst_0 : tensor<8x16xf32>
//     %1 = stablehlo.add %0, %cst_1 : tensor<8x16xf32>
//     return %1 : tensor<8x16xf32>
//   }
// }
