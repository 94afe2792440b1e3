#!/bin/bash
# shardlp gen: generated programs verify; usage errors exit 2.
. "$(dirname "$0")/../setup.sh"

set -o pipefail
"$SHARDLP" gen transformer --layers 2 >"$tmp/t2.mlir" 2>"$tmp/err" && rc=0 || rc=$?
expect_rc 0 "gen transformer --layers 2"
run_in "$tmp/t2.mlir" "$SHARDLP" verify -
expect_rc 0 "gen transformer --layers 2 | shardlp verify -"
expect_grep "$tmp/t2.mlir" 'sdy\.sharding = #sdy\.sharding<@mesh' "some weights are pinned"
expect_grep "$tmp/t2.mlir" 'applies stablehlo\.add across dimensions' "reduce in custom syntax"

checks=$((checks + 1))
n=$(grep -c ' = stablehlo\.' "$tmp/t2.mlir")
if [ "$n" -ge 60 ] && [ "$n" -le 80 ]; then
	pass "about 30 ops per layer ($n for 2 layers)"
else
	fail "$n ops for 2 layers"
fi

run "$SHARDLP" gen transformer --layers 3 --hidden 64 --seq 16 --batch 4 --mesh 2x2x2 --seed 7 -o "$tmp/t3.mlir"
expect_rc 0 "gen with every option and -o"
expect_empty "$tmp/out" "gen -o: nothing on stdout"
run "$SHARDLP" verify "$tmp/t3.mlir"
expect_rc 0 "the 2x2x2 program verifies"
expect_grep "$tmp/t3.mlir" '"z"=2' "2x2x2 mesh"

run "$SHARDLP" gen transformer --layers 3 --hidden 64 --seq 16 --batch 4 --mesh 2x2x2 --seed 7
checks=$((checks + 1))
if cmp -s "$tmp/out" "$tmp/t3.mlir"; then
	pass "same options, same program"
else
	fail "gen is not deterministic"
fi

# the other models, deterministic, verifying, and as XML problems
for m in mlp attention dag; do
	run "$SHARDLP" gen "$m" --layers 5 --seed 3 -o "$tmp/$m.mlir"
	expect_rc 0 "gen $m"
	run "$SHARDLP" verify "$tmp/$m.mlir"
	expect_rc 0 "gen $m verifies"
	run "$SHARDLP" gen "$m" --layers 5 --seed 3
	checks=$((checks + 1))
	if cmp -s "$tmp/out" "$tmp/$m.mlir"; then pass "gen $m: same seed, same program"; else fail "gen $m is not deterministic"; fi
	run "$SHARDLP" gen "$m" --layers 5 --seed 3 --format xml -o "$tmp/$m.xml"
	run "$SHARDLP" export --validate "$tmp/$m.xml"
	expect_rc 0 "gen $m --format xml validates"
	checks=$((checks + 1))
	if cmp -s <("$SHARDLP" print "$tmp/$m.xml") <("$SHARDLP" print "$tmp/$m.mlir"); then
		pass "gen $m: the XML is the MLIR's program"
	else
		fail "gen $m: the XML and the MLIR differ"
	fi
done
expect_grep "$tmp/dag.mlir" '^// shardlp gen dag --layers 5 ' "dag: its options in a comment"
run "$SHARDLP" gen dag --layers 40 --seed 9
checks=$((checks + 1))
if [ "$(grep -c ' = stablehlo\.' "$tmp/out")" -eq 40 ]; then pass "dag: --layers ops"; else fail "dag --layers 40: $(grep -c ' = stablehlo' "$tmp/out") ops"; fi
# --pins: the same program, only its pinned weights differ; none pins
# only the input, all every projection, so that the layers are alike
for p in all none; do
	run "$SHARDLP" gen transformer --layers 3 --pins "$p"
	expect_rc 0 "gen transformer --pins $p"
	cp "$tmp/out" "$tmp/p-$p.mlir"
	run_in "$tmp/p-$p.mlir" "$SHARDLP" verify -
	expect_rc 0 "gen --pins $p | shardlp verify -"
	checks=$((checks + 1))
	if diff <(sed 's/ {sdy\.sharding = [^>]*>}//; 1d' "$tmp/p-$p.mlir") \
	        <("$SHARDLP" gen transformer --layers 3 | sed 's/ {sdy\.sharding = [^>]*>}//; 1d') >/dev/null; then
		pass "--pins $p: the same ops as seeded"
	else
		fail "--pins $p changes more than the pins"
	fi
done
checks=$((checks + 1))
n=$(grep -c 'sdy\.sharding = ' "$tmp/p-none.mlir")
[ "$n" -eq 1 ] && pass "--pins none: only the input pinned" || fail "--pins none: $n pinned"
checks=$((checks + 1))
n=$(grep -c 'sdy\.sharding = ' "$tmp/p-all.mlir")
[ "$n" -eq 19 ] && pass "--pins all: input and 6 weights a layer" || fail "--pins all: $n pinned"
run "$SHARDLP" gen transformer --pins some
expect_rc 2 "gen --pins some"
run "$SHARDLP" gen mlp --format json
expect_rc 2 "gen --format json"

run "$SHARDLP" gen --help
expect_rc 0 "gen --help"
expect_grep "$tmp/out" 'usage: shardlp gen transformer' "gen --help: usage on stdout"

for args in "" "foo" "transformer --layers 0" "transformer --layers x" \
	    "transformer --layers" "transformer --mesh 3x3" "transformer --hidden 10" \
	    "transformer --bogus" "transformer extra"; do
	# shellcheck disable=SC2086
	run "$SHARDLP" gen $args
	expect_rc 2 "gen $args"
	expect_grep "$tmp/err" '^usage: shardlp gen' "gen $args: usage on stderr"
done

finish
