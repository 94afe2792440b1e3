#!/bin/bash
# compare_dot.sh - `shardlp compare --dot`: a Graphviz graph of the
# program with the ILP's shardings on its edges and, in red, the tensors
# that some greedy strategy shards otherwise (as many as compare's
# "differ" column counts at most); deterministic; one FILE only.
. "$(dirname "$0")/../setup.sh"

run "$SHARDLP" compare --dot "$tmp/mlp.dot" "$data/mlp.mlir"
expect_rc 0 "compare --dot"
expect_grep "$tmp/mlp.dot" '^digraph shardlp \{' "a Graphviz digraph"
expect_grep "$tmp/mlp.dot" '^  a0 -> n[0-9]+ \[label="<@mesh, \[\{\\"x\\"\}, \{\}\]>"\];' "an argument's edge carries its sharding"
expect_grep "$tmp/mlp.dot" 'ilp: .*\\nbasic: .*color=red' "a differing tensor in red, each method's sharding"
checks=$((checks + 1))
red=$(grep -c 'color=red' "$tmp/mlp.dot")
differ=$(awk '$1 == "basic" { print $NF }' "$tmp/out")
if [ "$red" -ge 1 ] && [ "$red" -le $((differ + 1)) ]; then
	pass "$red red edges for $differ differing tensors"
else
	fail "$red red edges, $differ differing tensors"
fi
run "$SHARDLP" compare --dot "$tmp/again.dot" "$data/mlp.mlir"
checks=$((checks + 1))
if cmp -s "$tmp/mlp.dot" "$tmp/again.dot"; then pass "the same graph twice"; else fail "the graph is not deterministic"; fi
if command -v dot >/dev/null 2>&1; then
	run dot -Tsvg -o "$tmp/mlp.svg" "$tmp/mlp.dot"
	expect_rc 0 "Graphviz reads it"
fi
run "$SHARDLP" compare --dot "$tmp/x.dot" "$data/mlp.mlir" "$data/while.mlir"
expect_rc 2 "--dot with two files is a usage error"
finish
