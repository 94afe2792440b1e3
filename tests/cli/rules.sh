#!/bin/bash
# shardlp rules: per-op rules in text, --explain, --summary, --conservative;
# bad input exits 1, usage errors exit 2.
. "$(dirname "$0")/../setup.sh"

cat >"$tmp/a.mlir" <<'MLIR'
func.func @f(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %c: tensor<4x3x256xf32>, %d: tensor<4x5x256xf32>) -> tensor<2x4x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.reshape %0 : (tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %2 = stablehlo.concatenate %c, %d, dim = 1 : (tensor<4x3x256xf32>, tensor<4x5x256xf32>) -> tensor<4x8x256xf32>
  %3 = stablehlo.constant dense<1.0> : tensor<f32>
  return %1 : tensor<2x4x16xf32>
}
MLIR

run "$SHARDLP" rules "$tmp/a.mlir"
expect_rc 0 "rules FILE"
expect_line "$tmp/out" "$tmp/a.mlir:2:3: stablehlo.dot_general #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>" "dot_general rule"
expect_line "$tmp/out" "$tmp/a.mlir:3:3: stablehlo.reshape #sdy.op_sharding_rule<([ij, k])->([i, j, k]) {i=2, j=4, k=16}>" "reshape rule"
expect_line "$tmp/out" "$tmp/a.mlir:4:3: stablehlo.concatenate #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=256} need_replication={j}>" "concatenate rule"
expect_line "$tmp/out" "$tmp/a.mlir:5:3: stablehlo.constant no rule" "constant has no rule"
expect_empty "$tmp/err" "rules FILE: nothing on stderr"

run "$SHARDLP" rules --conservative "$tmp/a.mlir"
expect_rc 0 "rules --conservative"
expect_grep "$tmp/out" 'concatenate #sdy\.op_sharding_rule<\(\[i, k, j\], \[i, l, j\]\)->\(\[i, m, j\]\) \{i=4, j=256, k=1, l=1, m=1\}>' "conservative concatenate"

run "$SHARDLP" rules --explain "$tmp/a.mlir"
expect_rc 0 "rules --explain"
expect_grep "$tmp/out" '^  k=32 +reduction +operand 0 dim 1, operand 1 dim 0$' "explain: contracting factor"
expect_grep "$tmp/out" '^  i=2 +pass-through +operand 0 dim 0 \(1 of 2\), result 0 dim 0$' "explain: split dim"

run "$SHARDLP" rules --summary "$tmp/a.mlir"
expect_rc 0 "rules --summary"
expect_line "$tmp/out" "$tmp/a.mlir: 4 ops, 3 with a rule, 1 without, 9 factors" "summary counts"

run_in "$tmp/a.mlir" "$SHARDLP" rules -
expect_rc 0 "rules - (standard input)"
expect_grep "$tmp/out" '^<stdin>:2:3: stablehlo\.dot_general' "stdin is named <stdin>"

cat >"$tmp/bad.mlir" <<'MLIR'
func.func @f(%a: tensor<4x6xf32>) -> tensor<25xf32> {
  %0 = "stablehlo.reshape"(%a) : (tensor<4x6xf32>) -> tensor<25xf32>
  return %0 : tensor<25xf32>
}
MLIR
run "$SHARDLP" rules "$tmp/bad.mlir"
expect_rc 1 "a reshape whose types contradict"
expect_grep "$tmp/err" "bad\.mlir:2:3: error: 'stablehlo\.reshape' op" "located error"

run "$SHARDLP" rules "$tmp/missing.mlir"
expect_rc 1 "missing file"

run "$SHARDLP" rules
expect_rc 2 "no FILE"
run "$SHARDLP" rules --bogus "$tmp/a.mlir"
expect_rc 2 "unknown option"
run "$SHARDLP" rules "$tmp/a.mlir" "$tmp/a.mlir"
expect_rc 2 "two files"
run "$SHARDLP" rules --explain --summary "$tmp/a.mlir"
expect_rc 2 "--explain with --summary"
# an empty file is a located error for rules and propagate, as for verify
: >"$tmp/empty.mlir"
for c in rules propagate; do
	run "$SHARDLP" $c "$tmp/empty.mlir"
	expect_rc 1 "$c on an empty file"
	expect_grep "$tmp/err" "empty\.mlir:1:1: error: empty input" "$c: empty file is located"
	expect_empty "$tmp/out" "$c: nothing on stdout for an empty file"
done

run "$SHARDLP" rules --help
expect_rc 0 "rules --help"
expect_grep "$tmp/out" '^usage: shardlp rules' "rules --help prints usage on stdout"

finish
