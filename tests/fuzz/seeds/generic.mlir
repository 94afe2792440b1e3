#loc1 = loc("x.py":3:7)
#sh = #sdy.sharding<@mesh, [{"a", ?}, {"b":(1)2}], replicated={"c"}>
module @m attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=4, "c"=1], device_ids=[0, 1, 2, 3, 4, 5, 6, 7]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sh}, %arg1: tensor<?x4xbf16>, %arg2: !stablehlo.token) -> (tensor<8x16xf32>, !stablehlo.token) {
    %0 = "stablehlo.add"(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32> loc(#loc1)
    %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x16xf32>
    %2 = sdy.reshard %1 <@mesh, [{}, {"a"}]> : tensor<8x16xf32>
    %3 = stablehlo.custom_call @foo(%2) {backend_config = "", sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = stablehlo.iota dim = 0 : tensor<8xi32>
    %5 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %6 = sdy.propagation_barrier %3 allowed_direction=BACKWARD : tensor<8x16xf32>
    sdy.sharding_group %6 group_id=3 : tensor<8x16xf32>
    %7:2 = sdy.named_computation<"f">(%6, %arg2) (%arg3: tensor<8x16xf32>, %arg4: !stablehlo.token) {
      sdy.return %arg3, %arg4 : tensor<8x16xf32>, !stablehlo.token
    } : (tensor<8x16xf32>, !stablehlo.token) -> (tensor<8x16xf32>, !stablehlo.token)
    %8 = sdy.all_gather [{}, {"b"}] %7#0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    return %8, %7#1 : tensor<8x16xf32>, !stablehlo.token loc(fused["a", "b"])
  } loc(callsite("f" at "g"))
}
