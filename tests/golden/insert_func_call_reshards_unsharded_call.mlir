sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>) {
  %0:2 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>)
  %1 = call @qux(%arg0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0#0, %1 : tensor<8x2xi32>, tensor<8x2xi32>
}

func.func private @baz(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  return %arg0, %arg0 : tensor<8x2xi32>, tensor<8x2xi32>
}

func.func private @qux(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0 : tensor<8x2xi32>
}

// Inferred rules of -sdy-insert-func-call-reshards (see the pass file):
// a call result with a sharding different from its callee's takes the
// callee's and is resharded back right after the call; one equal to it
// is left; a call without shardings takes the callee's, without a
// reshard.
// FLAGS: -sdy-insert-func-call-reshards
// EXPECT:
// module {
//   sdy.mesh @mesh = <["x"=2, "y"=2]>
//   func.func @main(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>) {
//     %0:2 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>)
//     %1 = sdy.reshard %0#0 <@mesh, [{"y"}, {}]> : tensor<8x2xi32>
//     %2 = call @qux(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
//     return %1, %2 : tensor<8x2xi32>, tensor<8x2xi32>
//   }
//   func.func private @baz(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
//     return %arg0, %arg0 : tensor<8x2xi32>, tensor<8x2xi32>
//   }
//   func.func private @qux(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
//     return %arg0 : tensor<8x2xi32>
//   }
// }
