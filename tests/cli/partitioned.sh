#!/bin/bash
# partitioned.sh - an already partitioned program (its body inside one
# sdy.manual_computation over all axes, collectives written by hand) is
# answered with nothing to decide, and the collectives it writes are
# priced (issue 15; shardlp-cost(7), "The collectives priced").  Costs
# worked out by hand on the default cluster (100e9 B/s, 5 us per step):
#  - a stablehlo.all_reduce over dense groups of 4 of an 8x32xf32 (1,024
#    bytes per device): a reduce-scatter then an all-gather, 3 steps each
#    of 256 bytes, 6 x (5e-6 + 256 / 100e9) = 3.001536e-05 s, 1,536 bytes
#    sent, plus the dot's compute 8.448e-11 s;
#  - a stablehlo.all_gather over the axis "y" of 4, named by a
#    replica_group_mesh_axes, of an 8x16xf32 (512 bytes), with --axis
#    y=50G:2u: 3 x (2e-6 + 512 / 50e9) = 6.03072e-06 s, 1,536 bytes sent.
# Replica groups the cost model cannot read are located errors of the
# verifier (src/verify/verify_replica_groups.c), never collectives priced
# as moving nothing.
. "$(dirname "$0")/../setup.sh"

cat >"$tmp/ar.mlir" <<'MLIR'
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
    %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %2 = "stablehlo.all_reduce"(%1) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    sdy.return %2 : tensor<8x32xf32>
  } : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
MLIR
cat >"$tmp/ag.mlir" <<'MLIR'
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%a: tensor<8x16xf32>) {
    %1 = "stablehlo.all_gather"(%a) {all_gather_dim = 1 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<8x16xf32>) -> tensor<8x64xf32>
    sdy.return %1 : tensor<8x64xf32>
  } : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
MLIR

# method status cost comm all_reduce_n/bytes all_gather_n/bytes, per row
rows() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s %s %.6e %.6e %s %s %s %s\n", $c["method"], $c["status"],
		  $c["cost"], $c["comm_s"], $c["all_reduce_n"], $c["all_reduce_bytes"],
		  $c["all_gather_n"], $c["all_gather_bytes"] }' "$tmp/out" >"$tmp/rows"
}

run "$SHARDLP" compare --csv "$tmp/ar.mlir"
expect_rc 0 "compare on a partitioned program with an all-reduce"
rows
expect_grep "$tmp/rows" '^ilp optimal 3\.001544e-05 3\.001536e-05 1 1536 0 0$' "the ILP: the written all-reduce priced, 3.001536e-05 s"
checks=$((checks + 1))
if [ "$(grep -c ' 3\.001544e-05 3\.001536e-05 1 1536 0 0$' "$tmp/rows")" = 5 ]; then
	pass "every method prices it alike"
else
	fail "every method prices it alike: $(cat "$tmp/rows")"
fi

run "$SHARDLP" compare --csv --axis y=50G:2u "$tmp/ag.mlir"
expect_rc 0 "compare on a partitioned program with an all-gather over y"
rows
expect_grep "$tmp/rows" '^ilp optimal [0-9.e+-]* 6\.030720e-06 0 0 1 1536$' "the written all-gather over \"y\" on y's link, 6.03072e-06 s"

run "$SHARDLP" solve -o "$tmp/ar.solved.mlir" "$tmp/ar.mlir"
expect_rc 0 "solve the partitioned program"
expect_grep "$tmp/err" ': optimal, step time 3\.0015[0-9]*e-05 s' "solve reports the priced step time"
expect_grep "$tmp/ar.solved.mlir" 'stablehlo.all_reduce' "the written collective is kept"
# bad replica groups: the all-gather's groups replaced, "GROUPS|message"
while IFS='|' read -r groups msg; do
	awk -v g="$groups" '{ i = index($0, "replica_groups = #"); if (i) { j = index(substr($0, i), ", channel_handle"); $0 = substr($0, 1, i + 16) g substr($0, i + j - 1) } print }' \
		"$tmp/ag.mlir" >"$tmp/bad.mlir"
	run "$SHARDLP" compare "$tmp/bad.mlir"
	expect_rc 1 "compare refuses groups $groups"
	expect_grep "$tmp/err" "^[^ ]*bad\.mlir:4:5: error: 'stablehlo\.all_gather' op $msg" "located error: $msg"
done <<'BAD'
#stablehlo.replica_group_mesh_axes<mesh = @nomesh, axes = [#stablehlo.axis_ref<name = "y">]>|replica groups name mesh @nomesh, which is not declared
#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "z">]>|replica groups name axis "z", which is not in the mesh
#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "y">]>|replica groups name axis "y" more than once
dense<[0, 1, 2, 3]> : tensor<4xi64>|replica groups should be a rank 2 tensor
dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>|replica id 1 appears more than once
dense<[[0, -1], [1, 2]]> : tensor<2x2xi64>|replica id -1 is not a device id
dense<[[0.5, 1.5]]> : tensor<1x2xf32>|replica groups should be integers of at most 64 bits
dense<[[0, 99999999999999999999]]> : tensor<1x2xi64>|replica groups should be integers of at most 64 bits
BAD
finish
