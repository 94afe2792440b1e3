// Round trip of data/manual.mlir: a manual computation: body values numbered after the parent's.
// Checked: a reviewed snapshot of how MLIR prints the module (values
// renumbered in order, nested regions after their parent); run.sh also
// holds that printing the expected output again gives it back.
// INPUT: data/manual.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   func.func @main(%arg0: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x16xf32>) -> tensor<32x16xf32> {
//     %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<8x16xf32>, %arg3: tensor<16x16xf32>) {
//       %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
//       %3 = stablehlo.add %2, %arg2 : tensor<8x16xf32>
//       sdy.return %3 : tensor<8x16xf32>
//     } : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
//     %1 = stablehlo.negate %0 : tensor<32x16xf32>
//     return %1 : tensor<32x16xf32>
//   }
// }
