// A two-layer MLP as XLA writes it after GSPMD sharding annotation: the
// shardings are mhlo.sharding strings, and there is no sdy.mesh.
// `shardlp import` turns them into sdy (a mesh derived from the device
// assignments); propagate, solve and compare do so by themselves.
module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
                         %arg1: tensor<64x256xf32> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"},
                         %arg2: tensor<256x64xf32>) -> (tensor<32x64xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
    %1 = stablehlo.tanh %0 : tensor<32x256xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
    return %2 : tensor<32x64xf32>
  }
}
