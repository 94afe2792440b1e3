// shardlp solve on data/manual.mlir: a manual computation; pins the optimal
// shardings the ILP finds.
// Checked: the shardings of the build before solve ran the pipeline's
// import and export steps (3e0c00a), as shardlp-opt
// -sdy-propagation-pipeline prints that build's output (export closes the
// open dims, main's result takes its value's sharding); the output is a
// fixpoint of -sdy-propagation-pipeline; the solved module verifies (shardlp verify); its cost is
// the ILP row of compare_manual.mlir, which the evaluator re-reads from
// this module and holds against the ILP objective (to 1e-6) before
// printing.
// SHARDLP: solve -q
// INPUT: data/manual.mlir
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
//   func.func @main(%arg0: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
//     %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<8x16xf32>, %arg3: tensor<16x16xf32>) {
//       %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
//       %3 = stablehlo.add %2, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x16xf32>
//       sdy.return %3 : tensor<8x16xf32>
//     } : (tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
//     %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<32x16xf32>
//     return %1 : tensor<32x16xf32>
//   }
// }
