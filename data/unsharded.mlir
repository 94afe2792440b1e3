// The two-layer MLP of mlp.mlir as a framework writes it before any
// sharding: no mesh, no sharding.  Give it one on the command line:
//   shardlp compare --mesh data=2,model=4 --pin '*:0=data' data/unsharded.mlir
// (--pin shards the batch dimension of the input on "data"; the ILP
// decides the rest).
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x64xf32>, %arg1: tensor<64x256xf32>,
                         %arg2: tensor<256xf32>, %arg3: tensor<256x64xf32>,
                         %arg4: tensor<64xf32>) -> (tensor<32x64xf32> {jax.result_info = ""}) {
    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<32x256xf32>
    %3 = stablehlo.add %1, %2 : tensor<32x256xf32>
    %4 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %5 = stablehlo.maximum %3, %4 : tensor<32x256xf32>
    %6 = stablehlo.dot_general %5, %arg3, contracting_dims = [1] x [0] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
    %7 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %8 = stablehlo.add %6, %7 : tensor<32x64xf32>
    return %8 : tensor<32x64xf32>
  }
}
