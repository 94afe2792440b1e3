#!/bin/bash
# Auto-sharding: --mesh gives an unsharded program a mesh (solve, compare,
# propagate), --pin pins dimensions of main's arguments, --replace-mesh
# replaces a program's own mesh; bad specs are errors naming the fault;
# a warning repeated by each method of compare is printed once.
. "$(dirname "$0")/../setup.sh"

# a two-layer MLP with no mesh and no sharding
cat >"$tmp/mlp.mlir" <<'MLIR'
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x128xf32>, %v: tensor<128x64xf32>) -> tensor<16x64xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x128xf32>) -> tensor<16x128xf32>
  %1 = stablehlo.tanh %0 : tensor<16x128xf32>
  %2 = stablehlo.dot_general %1, %v, contracting_dims = [1] x [0] : (tensor<16x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
  return %2 : tensor<16x64xf32>
}
MLIR

run "$SHARDLP" compare --csv "$tmp/mlp.mlir"
checks=$((checks + 1))
if [ "$rc" -ne 0 ] && grep -q 'nothing to shard over (--mesh AXIS=SIZE,... gives the program one)' "$tmp/err"; then
	pass "without --mesh an unsharded program has nothing to shard over (exit $rc)"
else
	fail "without --mesh: exit $rc"
fi

run "$SHARDLP" compare --csv --mesh data=2,model=4 "$tmp/mlp.mlir"
expect_rc 0 "compare --mesh data=2,model=4 on an unsharded program"
expect_grep "$tmp/err" 'note: no value carries a sharding' "a note says greedy has nothing to start from"
checks=$((checks + 1))
if awk -F, 'NR > 1 && $2 == "ilp" { ilp = $4; st = $3 } NR > 1 && $2 != "ilp" { g[$2] = $4 }
	END { n = 0; for (k in g) { n++; if (!(ilp < g[k])) exit 1 }; exit !(n == 4 && st == "optimal") }' "$tmp/out"; then
	pass "the ILP shards what greedy leaves replicated: optimal, below every greedy cost"
else
	fail "ILP not optimal or not below the replicated greedy costs"
	cat "$tmp/out"
fi

run "$SHARDLP" solve -q --mesh data=2,model=4 -o "$tmp/mlp.solved.mlir" "$tmp/mlp.mlir"
expect_rc 0 "solve --mesh"
expect_grep "$tmp/mlp.solved.mlir" '^  sdy\.mesh @mesh = <\["data"=2, "model"=4\]>' "the mesh is added as sdy.mesh @mesh"
expect_grep "$tmp/mlp.solved.mlir" 'sharding<@mesh, \[[^]]*"(data|model)"' "the ILP shards some tensor over the new mesh"
run "$SHARDLP" verify -q "$tmp/mlp.solved.mlir"
expect_rc 0 "the solved module verifies"

# --pin: dimension 0 of every argument on "data"; %w's 64 and %v's 128
# divide by 2 as well, so all three are pinned
run "$SHARDLP" propagate --mesh data=2,model=4 --pin '*:0=data' "$tmp/mlp.mlir"
expect_rc 0 "propagate --mesh --pin"
expect_grep "$tmp/out" '%arg0: tensor<16x64xf32> \{sdy\.sharding = #sdy\.sharding<@mesh, \[\{"data"\}, \{\?\}\]>\}' "the pin is a closed dim, the others open"
expect_grep "$tmp/out" 'stablehlo\.tanh .*\[\{"data", \?\}, \{\?\}\]' "greedy propagates the pin"
checks=$((checks + 1))
if grep -q 'no value carries a sharding' "$tmp/err"; then
	fail "the no-sharding note with a pin"
else
	pass "no no-sharding note once something is pinned"
fi
run "$SHARDLP" compare --csv --mesh data=2,model=4 --pin '0:0=data' "$tmp/mlp.mlir"
expect_rc 0 "compare --pin"

# a pin that cannot hold: warned, not applied
run "$SHARDLP" propagate --mesh data=2,model=4 --pin '0:5=data' "$tmp/mlp.mlir"
expect_rc 0 "a pin on a dimension an argument lacks is not an error"
expect_grep "$tmp/err" 'mlp\.mlir:1:[0-9]+: warning: --pin 0:5=data: argument 0 not pinned: it has no such dimension' "a located warning says why"
run "$SHARDLP" propagate --mesh data=3 --pin '0:0=data' "$tmp/mlp.mlir"
expect_grep "$tmp/err" 'not pinned: the dimension does not divide' "16 does not divide by 3: not pinned"

# bad specs: exit 1 and a message naming the fault
for bad in 'x=0:needs a size' 'x=2,x=2:named twice' '2x4:expected an axis name' 'x=2;y=2:expected'; do
	spec=${bad%%:*} why=${bad#*:}
	run "$SHARDLP" solve -q --mesh "$spec" "$tmp/mlp.mlir"
	expect_rc 1 "--mesh '$spec' is refused"
	expect_grep "$tmp/err" "--mesh: mesh '$spec': .*$why" "--mesh '$spec': $why"
done
run "$SHARDLP" compare --mesh data=2 --pin '0:0=nope' "$tmp/mlp.mlir"
expect_rc 1 "a pin on an axis the mesh lacks is refused"
expect_grep "$tmp/err" "'nope' is not an axis of the mesh" "the message names the axis"
run "$SHARDLP" propagate --pin '0:0=x' "$tmp/mlp.mlir"
expect_rc 1 "--pin without a mesh is refused"
run "$SHARDLP" propagate --replace-mesh "$tmp/mlp.mlir"
expect_rc 1 "--replace-mesh without --mesh is refused"

# a program with its own mesh keeps it: one warning (not one per method),
# and the same costs as without --mesh
run "$SHARDLP" compare --csv "$data/mlp.mlir"
cp "$tmp/out" "$tmp/own.csv"
run "$SHARDLP" compare --csv --mesh a=8 "$data/mlp.mlir"
expect_rc 0 "compare --mesh on a program with a mesh"
checks=$((checks + 1))
n=$(grep -c 'warning: the module has its own mesh @mesh: --mesh a=8 not applied' "$tmp/err" || :)
if [ "$n" -eq 1 ]; then
	pass "the program's own mesh is kept, with one warning"
else
	fail "$n warnings about the program's own mesh, expected 1"
fi
checks=$((checks + 1))
if diff <(cut -d, -f1-9 "$tmp/own.csv") <(cut -d, -f1-9 "$tmp/out") >/dev/null; then
	pass "the costs are those without --mesh"
else
	fail "--mesh changed the costs of a program with its own mesh"
fi

# --replace-mesh: the same axis names, other sizes, work; axes the
# shardings name but the new mesh lacks fail verification
run "$SHARDLP" solve -q --mesh x=2,y=2 --replace-mesh "$data/mlp.mlir"
expect_rc 0 "--replace-mesh with the axes the program uses"
expect_grep "$tmp/out" 'sdy\.mesh @mesh = <\["x"=2, "y"=2\]>' "the mesh is replaced"
run "$SHARDLP" solve -q --mesh a=8 --replace-mesh "$data/mlp.mlir"
expect_rc 1 "--replace-mesh without the axes the shardings name"
expect_grep "$tmp/err" 'mlp\.mlir:[0-9]+:[0-9]+: error: .*"x"' "the verifier names the axis"

# the warnings of the methods on one program are printed once
cat >"$tmp/cc.mlir" <<'MLIR'
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
MLIR
run "$SHARDLP" compare "$tmp/cc.mlir"
expect_rc 0 "compare with an unknown custom call"
checks=$((checks + 1))
n=$(grep -c 'warning: custom call @foo is unknown' "$tmp/err" || :)
if [ "$n" -eq 1 ]; then
	pass "its warning is printed once, not once per method"
else
	fail "the unknown custom call warned $n times"
fi
finish
