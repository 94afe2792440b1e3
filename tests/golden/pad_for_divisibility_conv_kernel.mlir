// -sdy-pad-for-divisibility on a convolution whose kernel spatial
// dimension (3 on 4 devices) would need padding: a larger window changes
// the output, so the op cannot be padded.  One located error, exit 1.
// FLAGS: -sdy-pad-for-divisibility
// EXIT: 1
// EXPECT-STDERR:
// pad_for_divisibility_conv_kernel.mlir:12:3: error: cannot pad 'stablehlo.convolution': a kernel spatial or grouped dimension has a non-divisible sharding
sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32> {
  %0 = sdy.all_slice [{"x"}, {}, {}, {}] %arg1 out_sharding=<@mesh, [{"x"}, {}, {}, {}]> : tensor<3x3x4x2xf32>
  %1 = stablehlo.convolution(%arg0, %0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32>
  return %1 : tensor<1x6x6x2xf32>
}
