// Round trip of data/while.mlir: a while loop: nested regions are numbered after their parent.
// Checked: a reviewed snapshot of how MLIR prints the module (values
// renumbered in order, nested regions after their parent); run.sh also
// holds that printing the expected output again gives it back.
// INPUT: data/while.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   func.func @main(%arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<96x96xf32>) -> tensor<32x96xf32> {
//     %c = stablehlo.constant dense<0> : tensor<i32>
//     %c_0 = stablehlo.constant dense<1> : tensor<i32>
//     %c_1 = stablehlo.constant dense<10> : tensor<i32>
//     %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c) : tensor<32x96xf32>, tensor<i32>
//      cond {
//       %1 = stablehlo.compare  LT, %iterArg_2, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
//       stablehlo.return %1 : tensor<i1>
//     } do {
//       %1 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<96x96xf32>
//       %2 = stablehlo.dot_general %iterArg, %1, contracting_dims = [1] x [0] : (tensor<32x96xf32>, tensor<96x96xf32>) -> tensor<32x96xf32>
//       %3 = stablehlo.tanh %2 : tensor<32x96xf32>
//       %4 = stablehlo.add %iterArg_2, %c_0 : tensor<i32>
//       stablehlo.return %3, %4 : tensor<32x96xf32>, tensor<i32>
//     }
//     return %0#0 : tensor<32x96xf32>
//   }
// }
