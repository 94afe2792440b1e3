#!/bin/bash
# shardlp-opt: input from a file or stdin, -o, -split-input-file, unknown
# pass flags, -verify-each.
. "$(dirname "$0")/../setup.sh"

run "$SHARDLP_OPT" "$data/mlp.mlir"
expect_rc 0 "shardlp-opt mlp.mlir"
expect_grep "$tmp/out" 'sdy\.mesh @mesh = <\["x"=4, "y"=2\]>' "prints the mesh"
expect_grep "$tmp/out" 'stablehlo\.dot_general' "prints the ops"
expect_empty "$tmp/err" "nothing on stderr"
cp "$tmp/out" "$tmp/once.mlir"

run_in "$data/mlp.mlir" "$SHARDLP_OPT"
expect_rc 0 "shardlp-opt < mlp.mlir"
checks=$((checks + 1))
if cmp -s "$tmp/out" "$tmp/once.mlir"; then
	pass "stdin gives the same output"
else
	fail "stdin output differs from file output"
fi

run "$SHARDLP_OPT" "$tmp/once.mlir"
expect_rc 0 "shardlp-opt on its own output"
checks=$((checks + 1))
if cmp -s "$tmp/out" "$tmp/once.mlir"; then
	pass "print, parse, print is stable"
else
	fail "print, parse, print differs: $(diff "$tmp/once.mlir" "$tmp/out" | head -5)"
fi

run "$SHARDLP_OPT" -o "$tmp/o.mlir" "$data/mlp.mlir"
expect_rc 0 "shardlp-opt -o FILE"
expect_empty "$tmp/out" "-o: nothing on stdout"
checks=$((checks + 1))
if cmp -s "$tmp/o.mlir" "$tmp/once.mlir"; then
	pass "-o FILE holds the output"
else
	fail "-o FILE differs from stdout output"
fi

run "$SHARDLP_OPT" -sdy-no-such-pass "$data/mlp.mlir"
expect_rc 2 "unknown pass flag"
expect_grep "$tmp/err" 'sdy-no-such-pass' "unknown pass flag: names the flag"

run "$SHARDLP_OPT" --no-such-option "$data/mlp.mlir"
expect_rc 2 "unknown option"

run "$SHARDLP_OPT" -sdy-basic-propagate=no-such-key=1 "$data/mlp.mlir"
expect_rc 2 "unknown pass option"
expect_line "$tmp/err" "shardlp-opt: unknown option 'no-such-key' for pass 'sdy-basic-propagate'" "unknown pass option: names it"
run "$SHARDLP_OPT" -sdy-basic-propagate=conservative-propagation=maybe "$data/mlp.mlir"
expect_rc 2 "bad pass option value"
expect_line "$tmp/err" "shardlp-opt: invalid value 'maybe' for option 'conservative-propagation' of pass 'sdy-basic-propagate' (expected true or false)" "bad value: names it"

run "$SHARDLP_OPT" "$tmp/no-such-file.mlir"
expect_rc 1 "missing input file"

cat >"$tmp/two.mlir" <<'X'
sdy.mesh @first = <["a"=2]>
// -----
sdy.mesh @second = <["b"=4]>
X
run "$SHARDLP_OPT" -split-input-file "$tmp/two.mlir"
expect_rc 0 "-split-input-file on two chunks"
expect_line "$tmp/out" "// -----" "outputs joined by // -----"
checks=$((checks + 1))
if [ "$(grep -c '^// -----$' "$tmp/out")" -eq 1 ] &&
   [ "$(grep -n 'sdy.mesh @first' "$tmp/out" | cut -d: -f1)" -lt "$(grep -n '^// -----$' "$tmp/out" | cut -d: -f1)" ] &&
   [ "$(grep -n 'sdy.mesh @second' "$tmp/out" | cut -d: -f1)" -gt "$(grep -n '^// -----$' "$tmp/out" | cut -d: -f1)" ]; then
	pass "one separator, chunks in order"
else
	fail "split output: $(tr '\n' '|' <"$tmp/out")"
fi

# A bad chunk reports its line in the whole file and does not stop the
# other chunks.
cat >"$tmp/badchunk.mlir" <<'X'
sdy.mesh @first = <["a"=2]>
// -----
sdy.mesh @second = <["b"=4
// -----
sdy.mesh @third = <["c"=8]>
X
run "$SHARDLP_OPT" -split-input-file "$tmp/badchunk.mlir"
expect_rc 1 "-split-input-file with a bad chunk"
expect_grep "$tmp/err" "^$tmp/badchunk\\.mlir:[34]:[0-9]+: error: " "error located in the whole file"
expect_grep "$tmp/out" 'sdy\.mesh @third' "later chunks still printed"

cat >"$tmp/diag.mlir" <<'X'
sdy.mesh @mesh = <["x"=4]>
// expected-error@+1 {{}}
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nomesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
X
run "$SHARDLP_OPT" -verify-diagnostics "$tmp/diag.mlir"
expect_rc 0 "-verify-diagnostics with the expected error"

run "$SHARDLP_OPT" -verify-diagnostics "$data/mlp.mlir"
expect_rc 0 "-verify-diagnostics on a valid file"

# -verify-each verifies after every step of a pipeline; the output is
# the same as without it.
for p in -sdy-import-pipeline -sdy-propagation-pipeline; do
	SHARDLP_VERIFY_EACH= run "$SHARDLP_OPT" "$p" "$data/transformer.mlir"
	cp "$tmp/out" "$tmp/plain.mlir"
	SHARDLP_VERIFY_EACH= run "$SHARDLP_OPT" --verify-each "$p" "$data/transformer.mlir"
	expect_rc 0 "--verify-each $p"
	checks=$((checks + 1))
	if cmp -s "$tmp/out" "$tmp/plain.mlir"; then
		pass "--verify-each $p: same output"
	else
		fail "--verify-each $p: output differs"
	fi
done

# Inside a manual computation, a body argument's sharding is its
# in_sharding without the manual axes (Shardy's getSharding): a collective
# on a manual axis the in_sharding lists as replicated verifies, and the
# import steps, which add such replicated axes, keep the module valid.
cat >"$tmp/mc.mlir" <<'MLIR'
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}], replicated={"a"}>] out_shardings=[<@mesh, [{}], replicated={"a"}>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    %1 = sdy.all_reduce {"a"} %arg1 out_sharding=<@mesh, [{}]> : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
MLIR
run "$SHARDLP_OPT" "$tmp/mc.mlir"
expect_rc 0 "all_reduce on a manual axis replicated in the in_sharding verifies"
expect_grep "$tmp/out" 'sdy\.all_reduce \{"a"\} %arg1' "the collective is kept"
SHARDLP_VERIFY_EACH=1 run "$SHARDLP_OPT" -sdy-propagation-pipeline "$tmp/mc.mlir"
expect_rc 0 "verify-each through the pipeline on a manual computation"

finish
