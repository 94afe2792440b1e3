#!/bin/bash
# shardlp import: converts the xla.sdy.* and mhlo.sharding encodings, writes
# the result atomically with -o, exits 1 with a located error on a
# malformed string and 2 on a usage mistake.
. "$(dirname "$0")/../setup.sh"

golden=$top_srcdir/tests/golden

run "$SHARDLP" import "$golden/import_xla_round_trip.mlir"
expect_rc 0 "import of a round-trip module"
expect_grep "$tmp/out" 'sdy\.mesh @mesh = <\["a"=2, "b"=4\]>' "import: the mesh of xla.sdy.meshes"
expect_grep "$tmp/out" 'sdy\.sharding_constraint' "import: @Sharding becomes a constraint"

run "$SHARDLP" import -o "$tmp/gspmd.mlir" "$golden/import_xla_gspmd.mlir"
expect_rc 0 "import -o FILE"
expect_grep "$tmp/gspmd.mlir" '_axis_0' "import -o: the GSPMD mesh in the file"
expect_grep "$tmp/err" ': warning: mhlo\.sharding kept: ' "import: a kept form is warned about"

run "$SHARDLP" verify "$tmp/gspmd.mlir"
expect_rc 0 "the imported module verifies"

echo 'keep me' >"$tmp/kept.mlir"
run "$SHARDLP" import -o "$tmp/kept.mlir" "$golden/import_xla_bad_string.mlir"
expect_rc 1 "import of a malformed string"
expect_grep "$tmp/err" 'import_xla_bad_string\.mlir:4:120: error: ' "import: the error points inside the string"
expect_grep "$tmp/kept.mlir" '^keep me$' "import: a failed run leaves -o FILE as it was"

# the round trip: import, export (-sdy-export-xla), import gives the same
# (Shardy's round trip keeps the shardings of arguments, results and
# custom calls, not those of other ops, as XLA does: import_xla_gspmd
# does not come back whole); a kept form of an argument stays kept
for c in import_xla_round_trip import_xla_export_gspmd import_xla_manual \
	import_xla_export import_xla_propagate import_xla_gspmd_exported import_xla_kept; do
	run "$SHARDLP_OPT" -sdy-import-xla "$golden/$c.mlir"
	cp "$tmp/out" "$tmp/once.mlir"
	run "$SHARDLP_OPT" -sdy-import-xla -sdy-export-xla -sdy-import-xla "$golden/$c.mlir"
	expect_rc 0 "$c: import, export, import"
	checks=$((checks + 1))
	if cmp -s "$tmp/once.mlir" "$tmp/out"; then
		pass "$c: the round trip gives the shardings of one import"
	else
		fail "$c: the round trip changes the module"
	fi
done
run "$SHARDLP_OPT" -sdy-export-xla "$golden/import_xla_export.mlir"
cp "$tmp/out" "$tmp/exported.mlir"
run "$SHARDLP" import "$tmp/exported.mlir"
cp "$tmp/out" "$tmp/again.mlir"
run "$SHARDLP" print "$golden/import_xla_export.mlir"
checks=$((checks + 1))
if cmp -s "$tmp/again.mlir" "$tmp/out"; then
	pass "export then import gives the sdy module back"
else
	fail "export then import changes the sdy module"
fi

run "$SHARDLP" import
expect_rc 2 "import without a file"
run "$SHARDLP" import --bogus "$golden/import_xla_gspmd.mlir"
expect_rc 2 "import with an unknown option"

# tuples where XLA flattens them: a function returning a custom call's
# tuple (as JAX exports its fallbacks), then compare answers with greedy
cat >"$tmp/tuple.mlir" <<'MLIR'
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %0 = call @eigh(%arg0) : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tensor<8xf32>>
  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8x8xf32>
  %2 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8xf32>
}
func.func private @eigh(%arg0: tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tensor<8xf32>> {
  %0 = stablehlo.custom_call @Eigh(%arg0) : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tensor<8xf32>>
  return %0 : tuple<tensor<8x8xf32>, tensor<8xf32>>
}
MLIR
run "$SHARDLP" import "$tmp/tuple.mlir"
expect_rc 0 "import of tuples"
expect_grep "$tmp/out" '%0:2 = call @eigh\(%arg0\) : \(tensor<8x8xf32>\) -> \(tensor<8x8xf32>, tensor<8xf32>\)' "import: the call's tuple result flattened"
expect_grep "$tmp/out" '^    return %0#0, %0#1 : ' "import: get_tuple_element of the call folded"
expect_grep "$tmp/out" 'custom_call @Eigh\(%arg0\) : \(tensor<8x8xf32>\) -> \(tensor<8x8xf32>, tensor<8xf32>\)' "import: the custom call's tuple result flattened"
run "$SHARDLP" compare --csv --mesh data=2,model=4 "$tmp/tuple.mlir"
expect_rc 0 "compare on a program with tuples"
checks=$((checks + 1))
if [ "$(grep -c ',\(optimal\|ok\),' "$tmp/out")" -eq 5 ]; then
	pass "compare: the ILP and every greedy strategy answer"
else
	fail "compare: not every method answers"
	cat "$tmp/out"
fi
finish
