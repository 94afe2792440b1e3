#!/bin/bash
# composite.sh - a stablehlo.composite is sharded as a call of its
# decomposition function: `shardlp compare` gives every method the same
# cost, peak and collectives on a composite as on the same program written
# with func.call (here with a reshard at the boundary: the decomposition
# pins its argument on another axis), greedy propagation reaches the
# decomposition's body, and the output keeps the composite.
. "$(dirname "$0")/../setup.sh"

cat >"$tmp/composite.mlir" <<'MLIR'
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.composite "my.dense" %arg0, %arg1 {composite_attributes = {activation = "tanh"}, decomposition = @my.dense.impl, version = 1 : i32} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.negate %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
func.func private @my.dense.impl(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
MLIR
sed 's|stablehlo.composite "my.dense" %arg0, %arg1 {[^}]*}[^}]*}|call @my.dense.impl(%arg0, %arg1)|' \
	"$tmp/composite.mlir" >"$tmp/call.mlir"

# csv FILE: compare's rows without the file and seconds columns
csv() {
	"$SHARDLP" compare --csv "$1" 2>"$tmp/err" | cut -d, -f2- | sed 's/,[^,]*$//'
}
csv "$tmp/composite.mlir" >"$tmp/composite.csv"
csv "$tmp/call.mlir" >"$tmp/call.csv"
checks=$((checks + 1))
if [ "$(wc -l <"$tmp/composite.csv")" -eq 6 ] && cmp -s "$tmp/composite.csv" "$tmp/call.csv"; then
	pass "compare: a composite costs what the call of its decomposition costs"
else
	fail "compare: composite and call differ"
	diff "$tmp/call.csv" "$tmp/composite.csv"
fi
checks=$((checks + 1))
if grep -q 'unknown' "$tmp/err"; then
	fail "a composite with its decomposition needs no warning"
else
	pass "a composite with its decomposition needs no warning"
fi

run "$SHARDLP" propagate --pipeline "$tmp/composite.mlir"
expect_rc 0 "propagate --pipeline on a composite"
expect_grep "$tmp/out" 'stablehlo.composite "my.dense" .*decomposition = @my\.dense\.impl' \
	"propagate: the composite is kept"
expect_grep "$tmp/out" 'stablehlo.tanh %0 \{sdy.sharding = #sdy.sharding_per_value<\[<@mesh, \[\{\}, \{"y"\}\]>\]>\}' \
	"propagate: the decomposition's body is sharded (from its argument's pin)"
finish
