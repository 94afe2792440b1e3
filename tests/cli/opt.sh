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
expect_same "$tmp/out" "$tmp/once.mlir" "stdin gives the same output"

run "$SHARDLP_OPT" "$tmp/once.mlir"
expect_rc 0 "shardlp-opt on its own output"
expect_same "$tmp/out" "$tmp/once.mlir" "print, parse, print is stable"

run "$SHARDLP_OPT" -o "$tmp/o.mlir" "$data/mlp.mlir"
expect_rc 0 "shardlp-opt -o FILE"
expect_empty "$tmp/out" "-o: nothing on stdout"
expect_same "$tmp/o.mlir" "$tmp/once.mlir" "-o FILE holds the output"

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
	expect_same "$tmp/out" "$tmp/plain.mlir" "--verify-each $p: same output"
done

# A module written after an import (a data-flow edge on a case's result,
# as Shardy's propagation tests write them) imported again: the import
# puts an edge on the edge, which does not verify (Shardy verifies after
# every pass), so the pipeline stops there with the verifier's error at
# the edge's place, not with a module whose case has lost its sharding;
# without a pipeline the module propagates as it is.
cat >"$tmp/edge.mlir" <<'MLIR'
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<i32>, %arg1: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg2: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<4xi64>
  }, {
    stablehlo.return %arg2 : tensor<4xi64>
  }) : (tensor<i32>) -> tensor<4xi64>
  %1 = sdy.data_flow_edge %0 : tensor<4xi64>
  return %1 : tensor<4xi64>
}
MLIR
for p in -sdy-import-pipeline -sdy-propagation-pipeline; do
	SHARDLP_VERIFY_EACH= run "$SHARDLP_OPT" "$p" "$tmp/edge.mlir"
	expect_rc 1 "$p on a module with data-flow edges"
	expect_grep "$tmp/err" "edge\.mlir:8:3: error: 'sdy\.data_flow_edge' op expected input" \
		"$p: the verifier's error at the edge"
	expect_grep "$tmp/err" "does not verify after step 'sdy-add-data-flow-edges'" \
		"$p: stopped after the step that broke it"
	expect_empty "$tmp/out" "$p: no module printed"
done
SHARDLP_VERIFY_EACH= run "$SHARDLP" propagate --pipeline -o "$tmp/edge.out" "$tmp/edge.mlir"
expect_rc 1 "shardlp propagate --pipeline on a module with data-flow edges"
checks=$((checks + 1))
if [ -e "$tmp/edge.out" ]; then
	fail "propagate --pipeline wrote an output after the error"
else
	pass "propagate --pipeline wrote no output after the error"
fi
SHARDLP_VERIFY_EACH= run "$SHARDLP_OPT" -sdy-basic-propagate "$tmp/edge.mlir"
expect_rc 0 "-sdy-basic-propagate on the same module"
expect_grep "$tmp/out" 'sdy\.data_flow_edge %0 sharding=<@mesh, \[\{"a", \?\}\]>' \
	"the edge takes the argument's sharding"

# The same with func data-flow edges (written after an import of the call
# graph with dedup-functions-fully): importing again leaves an edge on a
# named computation (Shardy's sdy-import-func-calls) or on a new func edge
# (sdy-add-func-data-flow-edges), and the pipeline stops there.  `solve`
# takes the module as imported and exports it as that import's export
# would: the func edges sunk, their sharding on the call's result.
cat >"$tmp/fedge.mlir" <<'MLIR'
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func private @f(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> attributes {sdy.original_func_name = "g"} {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}
func.func @main(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x2xi32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x2xi32>
  %1 = call @f(%0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %2 = sdy.func_data_flow_edge %1 : tensor<8x2xi32>
  return %2 : tensor<8x2xi32>
}
MLIR
for p in -sdy-propagation-pipeline '-sdy-propagation-pipeline=dedup-functions-fully=true'; do
	case $p in
	*dedup*) step=sdy-add-func-data-flow-edges ;;
	*) step=sdy-import-func-calls ;;
	esac
	SHARDLP_VERIFY_EACH= run "$SHARDLP_OPT" "$p" "$tmp/fedge.mlir"
	expect_rc 1 "$p on a module with func data-flow edges"
	expect_grep "$tmp/err" "fedge\.mlir:9:3: error: 'sdy\.func_data_flow_edge' op expected operand" \
		"$p: the verifier's error at the func edge"
	expect_grep "$tmp/err" "does not verify after step '$step'" \
		"$p: stopped after $step"
	expect_empty "$tmp/out" "$p: no module printed"
done
run "$SHARDLP" solve -q "$tmp/fedge.mlir"
expect_rc 0 "solve on a module with func data-flow edges"
expect_no_grep "$tmp/out" 'func_data_flow_edge' "solve's output sinks the func edges"
expect_grep "$tmp/out" '= call @f\(%0\) \{sdy\.sharding = #sdy\.sharding_per_value' \
	"the call's result takes the edge's sharding"
SHARDLP_VERIFY_EACH= run "$SHARDLP_OPT" -sdy-propagation-pipeline "$tmp/out"
expect_rc 0 "the pipeline runs on solve's output"

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

# The command-line forms of mlir-opt and sdy_opt (issue 18): -o=FILE and
# --o FILE; --pass-pipeline with nested anchors and per-pass options, as
# '=' or as the next argument, the same output as the flags; the
# IR-printing flags on stderr; -verify-diagnostics=only-expected; the
# accepted no-op flags; bad names and values refused with exit 2.
run "$SHARDLP_OPT" -sdy-add-data-flow-edges -sdy-basic-propagate "$data/while.mlir"
cp "$tmp/out" "$tmp/flags.out"
run "$SHARDLP_OPT" --pass-pipeline='builtin.module(sdy-add-data-flow-edges,func.func(sdy-basic-propagate))' "$data/while.mlir"
expect_rc 0 "--pass-pipeline=builtin.module(...,func.func(...))"
expect_same "$tmp/out" "$tmp/flags.out" "the pipeline runs the passes the flags run"
run "$SHARDLP_OPT" -pass-pipeline 'builtin.module(sdy-add-data-flow-edges, sdy-basic-propagate)' "$data/while.mlir"
expect_same "$tmp/out" "$tmp/flags.out" "-pass-pipeline PIPELINE (a separate argument, spaces)"
run "$SHARDLP_OPT" --pass-pipeline='builtin.module(sdy-basic-propagate{keep-sharding-rules=true})' "$data/mlp.mlir"
expect_grep "$tmp/out" 'sdy\.sharding_rule = #sdy\.op_sharding_rule' "per-pass options in braces reach the pass"
run "$SHARDLP_OPT" --pass-pipeline='builtin.module(sdy-nonexistent)' "$data/mlp.mlir"
expect_rc 2 "an unknown pass in the pipeline"
expect_grep "$tmp/err" "unknown pass 'sdy-nonexistent'" "the message names it"
run "$SHARDLP_OPT" --pass-pipeline='builtin.module(sdy-basic-propagate' "$data/mlp.mlir"
expect_rc 2 "a pipeline without its ')'"
run "$SHARDLP_OPT" '-sdy-basic-propagate=keep-sharding-rules=maybe' "$data/mlp.mlir"
expect_rc 2 "a bad pass option value"
expect_grep "$tmp/err" 'keep-sharding-rules' "the message names the option"
run "$SHARDLP_OPT" -o="$tmp/o1.mlir" "$data/mlp.mlir"
expect_rc 0 "-o=FILE"
run "$SHARDLP_OPT" --o "$tmp/o2.mlir" "$data/mlp.mlir"
expect_rc 0 "--o FILE"
checks=$((checks + 1))
if [ -s "$tmp/o1.mlir" ] && cmp -s "$tmp/o1.mlir" "$tmp/o2.mlir"; then pass "both write the module"; else fail "-o=FILE and --o FILE"; fi
run "$SHARDLP_OPT" --mlir-print-ir-after-all -sdy-close-shardings -sdy-basic-propagate "$data/mlp.mlir"
checks=$((checks + 1))
if [ "$(grep -c '^// -----// IR Dump After' "$tmp/err")" -eq 2 ] &&
   grep -q '^// -----// IR Dump After SdyBasicPropagate (sdy-basic-propagate) //----- //$' "$tmp/err"; then
	pass "--mlir-print-ir-after-all: one dump per pass, named as mlir-opt names them"
else
	fail "--mlir-print-ir-after-all dumps"
fi
run "$SHARDLP_OPT" --mlir-print-ir-after-change -sdy-close-shardings -sdy-basic-propagate "$data/mlp.mlir"
checks=$((checks + 1))
if [ "$(grep -c '^// -----// IR Dump After' "$tmp/err")" -eq 1 ]; then
	pass "--mlir-print-ir-after-change: only the pass that changed the module"
else
	fail "--mlir-print-ir-after-change dumped $(grep -c 'IR Dump' "$tmp/err") times"
fi
run "$SHARDLP_OPT" -mlir-print-ir-before-all -sdy-basic-propagate "$data/mlp.mlir"
expect_grep "$tmp/err" '^// -----// IR Dump Before SdyBasicPropagate' "--mlir-print-ir-before-all"
run "$SHARDLP_OPT" --mlir-disable-threading -allow-unregistered-dialect --mlir-print-op-generic "$data/mlp.mlir"
expect_rc 0 "--mlir-disable-threading and -allow-unregistered-dialect are accepted"
expect_grep "$tmp/out" '"stablehlo\.' "--mlir-print-op-generic prints generic ops"
cat >"$tmp/diag.mlir" <<'MLIR'
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @bar(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
MLIR
run "$SHARDLP_OPT" -sdy-basic-propagate -verify-diagnostics "$tmp/diag.mlir"
expect_rc 1 "-verify-diagnostics: an unexpected warning fails"
run "$SHARDLP_OPT" -sdy-basic-propagate -verify-diagnostics=only-expected "$tmp/diag.mlir"
expect_rc 0 "-verify-diagnostics=only-expected: unexpected diagnostics are not errors"
run "$SHARDLP_OPT" -verify-diagnostics=sometimes "$tmp/diag.mlir"
expect_rc 2 "-verify-diagnostics=sometimes is refused"
run "$SHARDLP_OPT" --no-such-flag "$data/mlp.mlir"
expect_rc 2 "an unknown option"
expect_grep "$tmp/err" "unknown option '--no-such-flag'" "the message names it"

# -inline: nested calls inlined, the private callees erased, a recursive
# call kept
cat >"$tmp/calls.mlir" <<'MLIR'
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @outer(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @self(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @inner(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @inner(%y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %y, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @self(%z: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @self(%z) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
MLIR
run "$SHARDLP_OPT" -inline "$tmp/calls.mlir"
expect_rc 0 "-inline"
checks=$((checks + 1))
if grep -q 'stablehlo.multiply %arg0, %arg0' "$tmp/out" && grep -q 'stablehlo.add %0, %arg0' "$tmp/out" &&
   ! grep -q '@outer\|@inner' "$tmp/out"; then
	pass "nested calls are inlined in main and the private callees erased"
else
	fail "-inline output: $(tr '\n' ' ' <"$tmp/out" | cut -c1-300)"
fi
expect_grep "$tmp/out" 'call @self' "a recursive function is not inlined into itself"

# -cse: equal side-effect-free ops merged (operands in the same order,
# equal attributes), an op with side effects (custom call) kept twice
cat >"$tmp/cse.mlir" <<'MLIR'
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.add %a, %b : tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  %3 = stablehlo.add %b, %a : tensor<4xf32>
  %4 = stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = stablehlo.add %4, %5 : tensor<4xf32>
  %7 = stablehlo.add %6, %3 : tensor<4xf32>
  return %2, %7 : tensor<4xf32>, tensor<4xf32>
}
MLIR
run "$SHARDLP_OPT" -cse "$tmp/cse.mlir"
expect_rc 0 "-cse"
expect_grep "$tmp/out" 'stablehlo\.multiply %0, %0' "two equal adds become one"
checks=$((checks + 1))
if [ "$(grep -c 'custom_call @foo' "$tmp/out")" -eq 2 ] && [ "$(grep -c 'stablehlo.add' "$tmp/out")" -eq 4 ]; then
	pass "the custom calls and the add with swapped operands stay"
else
	fail "-cse merged too much or too little"
fi

# -canonicalize on StableHLO ops, as MLIR's canonicalizer does: dead
# side-effect-free ops erased, equal constants made one, and constants
# moved to the front of the function's entry block (those not already
# there end up in the reverse of their program order), from nested
# regions too
cat >"$tmp/canon.mlir" <<'MLIR'
func.func @main(%a: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %1 = stablehlo.add %0, %c1 : tensor<4xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %2 = stablehlo.add %1, %c2 : tensor<4xf32>
  %c3 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %3 = stablehlo.add %2, %c3 : tensor<4xf32>
  %dead = stablehlo.multiply %a, %a : tensor<4xf32>
  %4:2 = stablehlo.while(%i = %n, %x = %3) : tensor<i32>, tensor<4xf32>
  cond {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %p = stablehlo.compare GT, %i, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %o = stablehlo.constant dense<1.0> : tensor<4xf32>
    %y = stablehlo.add %x, %o : tensor<4xf32>
    stablehlo.return %i, %y : tensor<i32>, tensor<4xf32>
  }
  return %4#1 : tensor<4xf32>
}
MLIR
run "$SHARDLP_OPT" -canonicalize "$tmp/canon.mlir"
expect_rc 0 "-canonicalize on StableHLO ops"
checks=$((checks + 1))
got=$(sed -n '/func.func @main/,/^    %0 = stablehlo.add %arg0, %arg0/p' "$tmp/out" | sed 1d | tr -s ' ' | tr '\n' '|')
want=' %c = stablehlo.constant dense<0> : tensor<i32>| %cst = stablehlo.constant dense<2.000000e+00> : tensor<4xf32>| %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>| %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>|'
if [ "$got" = "$want" ]; then
	pass "constants one per value, at the front, the moved ones in reverse order"
else
	fail "constants: '$got'"
fi
expect_grep "$tmp/out" 'stablehlo\.add %2, %cst_0 ' "a duplicate constant's uses go to the first"
expect_grep "$tmp/out" 'stablehlo\.add %iterArg_1, %cst_0 ' "a constant of a loop body is the function's"
checks=$((checks + 1))
if grep -q 'multiply' "$tmp/out"; then fail "a dead op is left"; else pass "a dead op is erased"; fi

# A module dump between user priorities does not change what propagates:
# the dump renumbers the values the pass indexed (sli_prop_dump).
cat >"$tmp/prio.mlir" <<'MLIR'
sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>
func.func @f(%a: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}p4]>},
             %b: tensor<16x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<16x4xf32>
  %1 = stablehlo.subtract %0, %c {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"z", ?}p1]>]>} : tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}
MLIR
run "$SHARDLP_OPT" -sdy-user-priority-propagate "$tmp/prio.mlir"
expect_rc 0 "user priorities"
cp "$tmp/out" "$tmp/prio-plain.mlir"
mkdir -p "$tmp/dumps"
run "$SHARDLP_OPT" -sdy-user-priority-propagate="module-dump-directory=$tmp/dumps" "$tmp/prio.mlir"
expect_rc 0 "user priorities with module dumps"
expect_nonempty "$tmp/dumps/00.propagation_after_user_priority_0.mlir" "a dump after priority 0"
expect_same "$tmp/out" "$tmp/prio-plain.mlir" "the dumps change nothing propagated"

finish
