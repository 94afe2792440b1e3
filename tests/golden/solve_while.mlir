// shardlp solve on data/while.mlir: a while loop; pins the optimal
// shardings the ILP finds.
// Checked: the shardings of the build before solve ran the pipeline's
// import and export steps (3e0c00a), as shardlp-opt
// -sdy-propagation-pipeline prints that build's output (export closes the
// open dims, main's result takes its value's sharding); the output is a
// fixpoint of -sdy-propagation-pipeline; the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_while.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/while.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
//   func.func @main(%arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<96x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
//     %0 = sdy.constant dense<0> : tensor<i32>
//     %1 = sdy.constant dense<1> : tensor<i32>
//     %2 = sdy.constant dense<10> : tensor<i32>
//     %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, []>]>}
//      cond {
//       %4 = stablehlo.compare  LT, %iterArg_0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
//       stablehlo.return %4 : tensor<i1>
//     } do {
//       %4 = sdy.reshard %arg1 <@mesh, [{}, {"y"}]> : tensor<96x96xf32>
//       %5 = stablehlo.dot_general %iterArg, %4, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<32x96xf32>, tensor<96x96xf32>) -> tensor<32x96xf32>
//       %6 = stablehlo.tanh %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<32x96xf32>
//       %7 = stablehlo.add %iterArg_0, %1 : tensor<i32>
//       stablehlo.return %6, %7 : tensor<32x96xf32>, tensor<i32>
//     }
//     return %3#0 : tensor<32x96xf32>
//   }
// }
