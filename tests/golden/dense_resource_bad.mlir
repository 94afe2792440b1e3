// A dense_resource constant without its type: a located error.
func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.constant dense_resource<__elided__>
  return %0 : tensor<2xf32>
}

// EXIT: 1
// EXPECT:

// EXPECT-STDERR:
// dense_resource_bad.mlir:4:3: error: expected ':' and the type of the resource
