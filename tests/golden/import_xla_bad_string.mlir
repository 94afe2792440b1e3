// A malformed round-trip string: the error points inside the string, at
// the byte as written (each \22 is three columns).
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}"}} {
  func.func @main(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22 \22b\22}]>"}}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}

// FLAGS: -sdy-import-xla
// EXIT: 1
// EXPECT:

// EXPECT-STDERR:
// import_xla_bad_string.mlir:4:120: error: expected ','
// import_xla_bad_string.mlir:4:120: error: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
