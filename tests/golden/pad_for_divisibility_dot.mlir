// -sdy-pad-for-divisibility on stablehlo.dot (not among Shardy's cases):
// as a dot_general contracting the lhs's last dimension with the rhs's
// first; the slice feeding it reads one more row, the dot's padded result
// goes through the all-gather and is trimmed after it.
// FLAGS: -sdy-pad-for-divisibility
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=2]>
//   func.func @main(%arg0: tensor<6x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<32x16xf32>) -> tensor<5x16xf32> {
//     %0 = stablehlo.slice %arg0 [0:6, 0:32] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x32xf32>) -> tensor<6x32xf32>
//     %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x32xf32>, tensor<32x16xf32>) -> tensor<6x16xf32>
//     %2 = sdy.all_gather [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<6x16xf32>
//     %3 = stablehlo.slice %2 [0:5, 0:16] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<6x16xf32>) -> tensor<5x16xf32>
//     return %3 : tensor<5x16xf32>
//   }
// }

sdy.mesh @mesh = <["x"=2]>

func.func @main(%lhs: tensor<6x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %rhs: tensor<32x16xf32>) -> tensor<5x16xf32> {
  %0 = stablehlo.slice %lhs [0:5, 0:32] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x32xf32>) -> tensor<5x32xf32>
  %1 = stablehlo.dot %0, %rhs {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<5x32xf32>, tensor<32x16xf32>) -> tensor<5x16xf32>
  %2 = sdy.all_gather [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<5x16xf32>
  return %2 : tensor<5x16xf32>
}
