// An op of a dialect shardlp does not know, in its custom syntax: a
// located error (in the generic form it passes through).
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "tt.bar"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = tt.bar %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// EXIT: 1
// EXPECT:

// EXPECT-STDERR:
// unknown_dialect_custom.mlir:5:8: error: custom op 'tt.bar' is unknown
