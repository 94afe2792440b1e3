// MHLO's own syntax where StableHLO's differs, and an op of a dialect
// shardlp does not know in custom syntax: located errors.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = mhlo.reverse %arg0, dims = 0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// EXIT: 1
// EXPECT:

// EXPECT-STDERR:
// mhlo_bad.mlir:4:35: error: expected '['
