sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>},
                %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
  %2 = stablehlo.add %1, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// The input of spec/propagation.md section 5.4 without op priorities, the
// counterpart of spec_5_4_op_priority.mlir.  Checked by hand against that
// section's last paragraph: the dot, visited first, gives its result
// [{"x", ?}, {?}] (factor i from %a), %1 takes it forward, and %2 keeps
// the function result's [{?}, {"x", ?}], so the adds disagree on dim 0
// and %b gets nothing.
// FLAGS: -sdy-basic-propagate
// EXPECT:
// module {
//   sdy.mesh @m = <["x"=2, "y"=2]>
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) {
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
//     %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>} : tensor<8x8xf32>
//     %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>} : tensor<8x8xf32>
//     return %2 : tensor<8x8xf32>
//   }
// }
