// shardlp solve on data/while.mlir: a while loop; pins the optimal
// shardings the ILP finds.
// Checked: the same output as the build before the cost.c split
// (3e0c00a); the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_while.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/while.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   func.func @main(%arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<96x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}) -> tensor<32x96xf32> {
//     %c = stablehlo.constant dense<0> : tensor<i32>
//     %c_0 = stablehlo.constant dense<1> : tensor<i32>
//     %c_1 = stablehlo.constant dense<10> : tensor<i32>
//     %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c) : tensor<32x96xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>, <@mesh, []>]>}
//      cond {
//       %1 = stablehlo.compare  LT, %iterArg_2, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
//       stablehlo.return %1 : tensor<i1>
//     } do {
//       %1 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<96x96xf32>
//       %2 = stablehlo.dot_general %iterArg, %1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<32x96xf32>, tensor<96x96xf32>) -> tensor<32x96xf32>
//       %3 = stablehlo.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<32x96xf32>
//       %4 = stablehlo.add %iterArg_2, %c_0 : tensor<i32>
//       stablehlo.return %3, %4 : tensor<32x96xf32>, tensor<i32>
//     }
//     return %0#0 : tensor<32x96xf32>
//   }
// }
