#!/bin/bash
# plot.sh - `shardlp plot` draws a batch summary as an SVG that parses:
# one point per program and greedy strategy, one curve per strategy, a
# bar of three parts per method; a file that is no summary gets a located
# error.
. "$(dirname "$0")/../setup.sh"

mkdir -p "$tmp/in"
cp "$data/mlp.mlir" "$data/while.mlir" "$data/attention.mlir" "$tmp/in/"
echo 'garbage' >"$tmp/in/bad.mlir"
"$SHARDLP" batch --out "$tmp/b" "$tmp/in" >/dev/null 2>&1 || :
run "$SHARDLP" plot -o "$tmp/p.svg" --title "three programs" "$tmp/b/summary.csv"
expect_rc 0 "plot a batch summary"
checks=$((checks + 1))
if python3 -c '
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
svg = d.documentElement
assert svg.tagName == "svg"
texts = [t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild]
for want in ("greedy against the optimum", "how far from the optimum", "three programs"):
    assert want in texts, want
# 3 programs answered by the ILP x 4 strategies; bad.mlir has no point
assert len(d.getElementsByTagName("circle")) == 12, len(d.getElementsByTagName("circle"))
assert len(d.getElementsByTagName("polyline")) == 4
assert any(t.startswith("step time by part, summed over 3 programs") for t in texts)
' "$tmp/p.svg"; then
	pass "the SVG parses: titles, 12 points, 4 curves, parts over 3 programs"
else
	fail "the SVG lacks what it should show"
fi
echo "a,b" >"$tmp/no.csv"
run "$SHARDLP" plot "$tmp/no.csv"
expect_rc 1 "a file that is no summary"
expect_grep "$tmp/err" 'no\.csv:1:1: error: not a summary' "a located error"
printf 'file,method,status,cost\nx,ilp\n' >"$tmp/short.csv"
run "$SHARDLP" plot "$tmp/short.csv"
expect_rc 1 "a row with too few fields"
expect_grep "$tmp/err" 'short\.csv:2:1: error: 2 fields, the header has 4' "the row is named"
# costs out of range or not numbers are left out, never drawn as nan/inf
printf 'file,chunk,method,status,cost\na,1,ilp,optimal,1e400\na,1,basic,ok,nan\nb,1,ilp,optimal,2\nb,1,basic,ok,3\n' >"$tmp/odd.csv"
run "$SHARDLP" plot -o "$tmp/odd.svg" "$tmp/odd.csv"
expect_rc 0 "a summary with costs out of range"
checks=$((checks + 1))
if grep -qi 'nan\|inf' "$tmp/odd.svg"; then
	fail "nan or inf written into the SVG"
else
	pass "no nan or inf in the SVG"
fi
run "$SHARDLP" plot
expect_rc 2 "no summary is a usage error"
finish
