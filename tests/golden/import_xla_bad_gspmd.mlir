// A malformed mhlo.sharding string: a located error inside the string.
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dims={bogus}}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// FLAGS: -sdy-import-xla
// EXIT: 1
// EXPECT:

// EXPECT-STDERR:
// import_xla_bad_gspmd.mlir:2:94: error: expected 'manual' or 'replicated' in last_tile_dims
