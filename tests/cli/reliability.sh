#!/bin/bash
# Regression tests of issue 16's defects B1-B11: values out of range are
# located errors (never a SIGFPE or a wrapped product), no wrong answer,
# hostile XML is refused, a solve stopped early is not called optimal.
# Output faults (B8, B9) are in faults.sh.
. "$(dirname "$0")/../setup.sh"

# prog NAME SHARDING [TYPE]: $tmp/NAME.mlir, one argument with SHARDING on
# a 4x2 mesh, then an add.
prog() {
	_t=${3:-tensor<8x8xf32>}
	cat >"$tmp/$1.mlir" <<X
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%arg0: $_t {sdy.sharding = #sdy.sharding<@mesh, $2>}) -> $_t {
  %0 = stablehlo.add %arg0, %arg0 : $_t
  return %0 : $_t
}
X
}

# bad_everywhere NAME ERE: every command that reads NAME exits 1 with a
# located error matching ERE, no signal, no sanitizer report.
bad_everywhere() {
	for cmd in verify print propagate rules solve compare; do
		run "$SHARDLP" $cmd "$tmp/$1.mlir"
		expect_rc 1 "$1: $cmd"
		expect_grep "$tmp/err" "^$tmp/$1\\.mlir:[0-9]+:[0-9]+: error: .*$2" \
			"$1: $cmd: located error"
	done
	run "$SHARDLP_OPT" -sdy-propagation-pipeline "$tmp/$1.mlir"
	expect_rc 1 "$1: shardlp-opt"
	expect_grep "$tmp/err" "error: .*$2" "$1: shardlp-opt: error"
}

# B1: pre-size x size wraps to 0: was a SIGFPE in the verifier
prog b1-subaxis-wraps '[{"x":(4611686018427387904)4}, {}]'
bad_everywhere b1-subaxis-wraps 'sub-axis next pre-size is out of range'

# B3: pre-size x size wraps to a divisor of 4: was accepted, "optimal"
prog b3-subaxis-wraps-divisor '[{"x":(9223372036854775807)2}, {}]'
bad_everywhere b3-subaxis-wraps-divisor 'sub-axis next pre-size is out of range'

# B2: a mesh whose device count wraps: was a SIGFPE in the cost model
cat >"$tmp/b2-mesh-wraps.mlir" <<'X'
sdy.mesh @mesh = <["x"=4294967296, "y"=4294967296]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
X
bad_everywhere b2-mesh-wraps 'total product of axis sizes is out of range'

# B4: an element count that wraps (the reshape then looked valid)
cat >"$tmp/b4-elements-wrap.mlir" <<'X'
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<4611686018427387904x4xf32>) -> tensor<4x4611686018427387904xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<4611686018427387904x4xf32>) -> tensor<4x4611686018427387904xf32>
  return %0 : tensor<4x4611686018427387904xf32>
}
X
bad_everywhere b4-elements-wrap 'number of elements of .* is out of range'

# the largest values that fit are still accepted
prog big-but-fits '[{}, {}]' 'tensor<4611686018427387903x2xf32>'
run "$SHARDLP" verify "$tmp/big-but-fits.mlir"
expect_rc 0 "largest element count that fits: verify"

# B5: rules of a module without ops
echo 'sdy.mesh @mesh = <["x"=4]>' >"$tmp/b5-empty.mlir"
run "$SHARDLP" rules "$tmp/b5-empty.mlir"
expect_rc 0 "b5: rules of an empty module"
expect_empty "$tmp/out" "b5: rules of an empty module print nothing"

# B6/B7: no DTD, so no entity expansion and no file read through one
{
	echo '<?xml version="1.0"?>'
	echo '<!DOCTYPE shardlp-mesh ['
	echo '<!ENTITY a0 "xxxxxxxxxx">'
	for i in 1 2 3 4 5 6 7 8 9; do
		printf '<!ENTITY a%d "' $i
		for j in 1 2 3 4 5 6 7 8 9 10; do printf '&a%d;' $((i - 1)); done
		echo '">'
	done
	echo ']>'
	echo '<shardlp-mesh name="mesh"><axis name="&a9;" size="4"/><axis name="y" size="2"/></shardlp-mesh>'
} >"$tmp/b6-laughs.xml"
cat >"$tmp/b6-external.xml" <<'X'
<?xml version="1.0"?>
<!DOCTYPE shardlp-mesh [ <!ENTITY e SYSTEM "file:///etc/passwd"> ]>
<shardlp-mesh name="mesh"><axis name="&e;" size="4"/><axis name="y" size="2"/></shardlp-mesh>
X
for x in b6-laughs b6-external; do
	run timeout 20 "$SHARDLP" solve --mesh-xml "$tmp/$x.xml" "$data/mlp.mlir"
	expect_rc 1 "$x: --mesh-xml refused"
	expect_grep "$tmp/err" "^$tmp/$x\\.xml:2:1: error: a document type declaration" \
		"$x: located error"
	checks=$((checks + 1))
	if [ "$(grep -c error: "$tmp/err")" -eq 1 ]; then
		pass "$x: one error"
	else
		fail "$x: $(grep -c error: "$tmp/err") errors, expected one"
	fi
done
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$tmp/huge.xml"
run "$SHARDLP" solve --mesh-xml "$tmp/huge.xml" "$data/mlp.mlir"
expect_rc 1 "an XML description over the size cap"
expect_grep "$tmp/err" 'too large for an XML description' "size cap: message"

# an infinite figure is a usage error, not a solver failure later
for w in inf -inf nan 1e999 0; do
	run "$SHARDLP" solve --flops "$w" "$data/mlp.mlir"
	expect_rc 2 "solve --flops $w"
	expect_grep "$tmp/err" "invalid number" "--flops $w: says why"
done
# every command reads a time limit the same way: finite, not negative
for w in inf nan 1e999 -1 2x; do
	for cmd in solve compare batch "iopddl solve"; do
		run "$SHARDLP" $cmd --time-limit "$w" "$data/mlp.mlir"
		expect_rc 2 "$cmd --time-limit $w"
		expect_grep "$tmp/err" "invalid number" "$cmd --time-limit $w: says why"
	done
done
for w in inf x=inf x=-1 x=1G:nan x=0 x=1G:1e999; do
	run "$SHARDLP" solve --axis "$w" "$data/mlp.mlir"
	expect_rc 2 "solve --axis $w"
	expect_grep "$tmp/err" "--axis wants" "--axis $w: says why"
done
# the cost weights of old are gone, and say so
run "$SHARDLP" solve --comm-weight 2 "$data/mlp.mlir"
expect_rc 2 "solve --comm-weight: a usage error"
expect_grep "$tmp/err" "weights are gone" "--comm-weight: says what replaced it"

# B10: a solve stopped by --gap is optimal only with no gap left
"$SHARDLP" gen transformer --layers 8 -o "$tmp/t8.mlir"
run "$SHARDLP" solve --gap 0.5 -o /dev/null "$tmp/t8.mlir"
expect_rc 0 "b10: solve --gap 0.5"
checks=$((checks + 1))
if grep -q ': optimal, .* gap [1-9]' "$tmp/err" || grep -q ': optimal, .* gap 0\.0*[1-9]' "$tmp/err"; then
	fail "b10: a positive gap labelled optimal: $(head -c 160 "$tmp/err")"
else
	pass "b10: no positive gap labelled optimal"
fi

# B11: the time limit holds with parsing, greedy runs and model building
# included: the solver stops itself, and a watchdog ends a run 5 s past
# its limit (exit 3, saying so, the old output intact)
"$SHARDLP" gen transformer --layers 1000 -o "$tmp/t1000.mlir"
echo old >"$tmp/t1000.out"
for cmd in solve compare; do
	start=$(date +%s)
	run timeout 60 "$SHARDLP" $cmd --no-decompose --time-limit 0.001 \
		$([ $cmd = solve ] && echo "-o $tmp/t1000.out") "$tmp/t1000.mlir"
	took=$(($(date +%s) - start))
	checks=$((checks + 1))
	if [ "$took" -le 8 ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; }; then
		pass "b11: $cmd --time-limit 0.001 returned after ${took} s (exit $rc)"
	else
		fail "b11: $cmd --time-limit 0.001 took ${took} s (exit $rc)"
	fi
	if [ "$rc" -eq 3 ]; then
		expect_grep "$tmp/err" 'stopped: the time limit of 0.001 s was exceeded' \
			"b11: $cmd: the watchdog says why"
	fi
done
checks=$((checks + 1))
if [ "$(cat "$tmp/t1000.out")" = old ] || tail -n 1 "$tmp/t1000.out" | grep -q '^}'; then
	pass "b11: the output is old or complete"
else
	fail "b11: the output is truncated"
fi
ls "$tmp" | grep -q 't1000\.out\.' && fail "b11: a temporary was left" || pass "b11: no temporary left"
checks=$((checks + 1))

finish
