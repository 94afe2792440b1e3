#!/bin/bash
# mhlo.sh - `--emit mhlo` writes StableHLO ops as their MHLO counterparts,
# and reading that back gives the module it came from: the same ops and
# shardings, printed as StableHLO (in the pretty form and with --generic,
# and with XLA's sharding encodings through import).  Bad forms are usage
# errors; malformed input keeps its located errors.
. "$(dirname "$0")/../setup.sh"

inputs="$top_srcdir/data/*.mlir $top_srcdir/tests/golden/mhlo_emit.mlir
	$top_srcdir/tests/golden/mhlo_print.mlir $top_srcdir/tests/golden/mhlo_emit_xla.mlir
	$top_srcdir/tests/golden/composite_propagate.mlir"

# round_trip NAME FILE READER EMIT...: READER FILE equals READER of the
# output of READER --emit EMIT... FILE.
round_trip() {
	_name=$1 _file=$2 _reader=$3
	shift 3
	checks=$((checks + 1))
	"$SHARDLP" "$_reader" "$_file" >"$tmp/want" 2>"$tmp/err" || {
		fail "$_name: $_reader $(basename "$_file")"
		return
	}
	if ! "$SHARDLP" "$_reader" "$@" "$_file" >"$tmp/mhlo.mlir" 2>"$tmp/err" ||
	   ! "$SHARDLP" "$_reader" "$tmp/mhlo.mlir" >"$tmp/got" 2>"$tmp/err"; then
		fail "$_name: $(basename "$_file") does not read back"
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		fail "$_name: $(basename "$_file") reads back changed"
		diff "$tmp/want" "$tmp/got" | head -n 10
	else
		pass "$_name: $(basename "$_file")"
	fi
}

for f in $inputs; do
	round_trip "--emit mhlo round trip" "$f" print --emit mhlo
	round_trip "--emit mhlo --generic round trip" "$f" print --emit mhlo --generic
	round_trip "--emit mhlo,xla round trip through import" "$f" import --emit mhlo,xla
done

run "$SHARDLP" print --emit mhlo "$top_srcdir/tests/golden/mhlo_emit.mlir"
expect_grep "$tmp/out" '= mhlo\.dot_general %arg0' "--emit mhlo prints mhlo.dot_general"
expect_grep "$tmp/out" '"stablehlo\.sort"' "a generic op with attributes of its own keeps its name"
run "$SHARDLP" print "$top_srcdir/tests/golden/mhlo_emit.mlir"
checks=$((checks + 1))
if grep -q 'mhlo\.dot_general' "$tmp/out"; then
	fail "without --emit, no op is printed as MHLO"
else
	pass "without --emit, no op is printed as MHLO"
fi

for cmd in print import propagate; do
	run "$SHARDLP" "$cmd" --emit hlo "$top_srcdir/data/mlp.mlir"
	expect_rc 2 "$cmd --emit hlo is a usage error"
	expect_grep "$tmp/err" "unknown --emit form 'hlo'" "$cmd names the bad form"
done

printf 'func.func @f(%%a: tensor<8xf32>) -> tensor<8xf32> {\n  %%0 = mhlo.add %%a, : tensor<8xf32>\n  return %%0 : tensor<8xf32>\n}\n' >"$tmp/bad.mlir"
run "$SHARDLP" print --emit mhlo "$tmp/bad.mlir"
expect_rc 1 "malformed MHLO input"
expect_grep "$tmp/err" '^.*bad\.mlir:2:[0-9]+: error: ' "malformed MHLO input gets a located error"
finish
