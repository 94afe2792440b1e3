// -sdy-pad-for-divisibility where the program leaves the cases' paths: a
// sharded constant is padded after it, a while loop and ops the pass does
// not pad (transpose, custom_call) get their operand sliced back to its
// type once (one slice for both), and inside the loop body an unsharded
// op of a padded operand is trimmed after it.
// FLAGS: -sdy-pad-for-divisibility
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=4]>
//   func.func @main(%arg0: tensor<7x8xf32>, %arg1: tensor<i32>) -> tensor<7x8xf32> {
//     %cst = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<1.000000e+00> : tensor<7x8xf32>
//     %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %0 = stablehlo.pad %cst, %cst_0, low = [0, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<7x8xf32>, tensor<f32>) -> tensor<8x8xf32>
//     %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//     %1 = stablehlo.pad %arg0, %cst_1, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<7x8xf32>, tensor<f32>) -> tensor<8x8xf32>
//     %2 = sdy.all_slice [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
//     %3 = stablehlo.add %2, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
//     %4 = stablehlo.slice %3 [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
//     %5:2 = stablehlo.while(%iterArg = %4, %iterArg_2 = %arg1) : tensor<7x8xf32>, tensor<i32>
//      cond {
//       %8 = stablehlo.compare  LT, %iterArg_2, %iterArg_2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
//       stablehlo.return %8 : tensor<i1>
//     } do {
//       %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//       %8 = stablehlo.pad %iterArg, %cst_3, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<7x8xf32>, tensor<f32>) -> tensor<8x8xf32>
//       %9 = stablehlo.tanh %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
//       %10 = stablehlo.negate %9 : tensor<8x8xf32>
//       %11 = stablehlo.slice %10 [0:7, 0:8] : (tensor<8x8xf32>) -> tensor<7x8xf32>
//       stablehlo.return %11, %iterArg_2 : tensor<7x8xf32>, tensor<i32>
//     }
//     %6 = stablehlo.transpose %4, dims = [1, 0] : (tensor<7x8xf32>) -> tensor<8x7xf32>
//     %7 = stablehlo.custom_call @foo(%4) : (tensor<7x8xf32>) -> tensor<7x8xf32>
//     return %5#0 : tensor<7x8xf32>
//   }
// }

sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<7x8xf32>, %arg1: tensor<i32>) -> tensor<7x8xf32> {
  %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<1.0> : tensor<7x8xf32>
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<7x8xf32>
  %1 = stablehlo.add %0, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<7x8xf32>
  %2:2 = stablehlo.while(%iterArg = %1, %iterArg_0 = %arg1) : tensor<7x8xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %t = stablehlo.tanh %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<7x8xf32>
    %u = stablehlo.negate %t : tensor<7x8xf32>
    stablehlo.return %u, %iterArg_0 : tensor<7x8xf32>, tensor<i32>
  }
  %3 = stablehlo.transpose %1, dims = [1, 0] : (tensor<7x8xf32>) -> tensor<8x7xf32>
  %5 = stablehlo.custom_call @foo(%1) : (tensor<7x8xf32>) -> tensor<7x8xf32>
  return %2#0 : tensor<7x8xf32>
}
