sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>},
                %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
  %2 = stablehlo.add %1, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// The worked example of spec/propagation.md section 5.4, where op
// priorities matter.  Checked by hand against that section: the result
// sharding reaches %2 first, the adds (multi-use operands) wait for level
// 1 and pass [{?}, {"x", ?}] back to %1 and %0, the dot at level 2 gives
// it to %b (factor j), and "x" from %a on factor i is dropped; %a stays
// as it was.  spec_5_4_basic.mlir is the same input under basic
// propagation, which ends elsewhere.
// FLAGS: -sdy-op-priority-propagate
// EXPECT:
// module {
//   sdy.mesh @m = <["x"=2, "y"=2]>
//   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) {
//     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
//     %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>} : tensor<8x8xf32>
//     %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>} : tensor<8x8xf32>
//     return %2 : tensor<8x8xf32>
//   }
// }
