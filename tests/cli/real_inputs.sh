#!/bin/bash
# Real programs in (issue 15): MHLO's pretty form, dense_resource
# constants, unknown custom calls and ops of unknown dialects, and tuples
# as frameworks write them all reach `shardlp compare --mesh` with an
# answer; each unknown op name is warned about once per run, not once per
# method or per op.
. "$(dirname "$0")/../setup.sh"

# every method answers on the file of $1: the ILP optimal, greedy ok
all_answer() {
	checks=$((checks + 1))
	if [ "$rc" -eq 0 ] && [ "$(grep -c ',ilp,optimal,' "$tmp/out")" -eq 1 ] &&
		[ "$(grep -c ',ok,' "$tmp/out")" -eq 4 ]; then
		pass "$1: the ILP and every greedy strategy answer"
	else
		fail "$1: exit $rc, not every method answers"
		cat "$tmp/out"
	fi
}

cat >"$tmp/mhlo.mlir" <<'MLIR'
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = mhlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = mhlo.constant dense_resource<__elided__> : tensor<8x4xf32>
  %2 = mhlo.add %0, %1 : tensor<8x4xf32>
  %3 = "mhlo.tanh"(%2) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}
MLIR
run "$SHARDLP" compare --csv --mesh data=2,model=4 "$tmp/mhlo.mlir"
all_answer "MHLO with a dense_resource constant"
checks=$((checks + 1))
if grep -q 'warning' "$tmp/err"; then
	fail "MHLO ops read as StableHLO's need no warning"
else
	pass "MHLO ops are known to the sharding rules (no warning)"
fi

cat >"$tmp/unknown.mlir" <<'MLIR'
func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @tt.foo(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.custom_call @tt.foo(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = "tt.bar"(%1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = "tt.bar"(%2) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = stablehlo.tanh %3 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
MLIR
run "$SHARDLP" compare --csv --mesh data=2,model=4 "$tmp/unknown.mlir"
all_answer "unknown custom calls and ops"
for w in 'custom call @tt\.foo is unknown' "op 'tt\\.bar' is unknown"; do
	checks=$((checks + 1))
	n=$(grep -c "warning: $w" "$tmp/err" || true)
	if [ "$n" -eq 1 ]; then
		pass "one warning for $w (two ops, five methods)"
	else
		fail "$n warnings for $w, expected 1"
	fi
done

# tuples as JAX's fallbacks write them: a tuple argument, a tuple result
# built from a custom call's tuple, get_tuple_element at the call site
cat >"$tmp/tuple.mlir" <<'MLIR'
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %0 = stablehlo.tuple %arg0 : tuple<tensor<8x8xf32>>
  %1 = call @lu(%0) : (tuple<tensor<8x8xf32>>) -> tuple<tensor<8x8xf32>, tensor<8xf32>>
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8x8xf32>
  %3 = stablehlo.get_tuple_element %1[1] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %2, %3 : tensor<8x8xf32>, tensor<8xf32>
}
func.func private @lu(%arg0: tuple<tensor<8x8xf32>>) -> tuple<tensor<8x8xf32>, tensor<8xf32>> {
  %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<8x8xf32>>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @LuDecomposition(%0) : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tensor<8xf32>>
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8x8xf32>
  %3 = stablehlo.get_tuple_element %1[1] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  %4 = stablehlo.tuple %2, %3 : tuple<tensor<8x8xf32>, tensor<8xf32>>
  return %4 : tuple<tensor<8x8xf32>, tensor<8xf32>>
}
MLIR
run "$SHARDLP" compare --csv --mesh data=2,model=4 "$tmp/tuple.mlir"
all_answer "tuple arguments and results"
run "$SHARDLP" solve -q --mesh data=2,model=4 -o "$tmp/tuple.solved.mlir" "$tmp/tuple.mlir"
expect_rc 0 "solve on tuples"
checks=$((checks + 1))
if grep -q 'tuple' "$tmp/tuple.solved.mlir"; then
	fail "the solved module still holds a tuple"
else
	pass "the solved module holds no tuple"
fi
run "$SHARDLP" verify -q "$tmp/tuple.solved.mlir"
expect_rc 0 "the solved module verifies"

finish
