#!/bin/bash
# megatron.sh - the physical cost model finds tensor parallelism where it
# pays (issue 14's golden case): a generated two-layer transformer,
# unsharded, on a data=2,model=4 mesh whose model axis is fast (NVLink-like:
# 450e9 bytes/s, 2 us) and data axis slow (25e9 bytes/s, 10 us), its batch
# of 2 pinned to data, and a memory budget (40 MB per device) that the
# replicated weights (100 MB) do not fit.  The optimum is Megatron-style:
# every layer's MLP column-parallel then row-parallel on model (W1 [{},
# {model}], W2 [{model}, {}]), the Q, K, V projections column-parallel, so
# that attention is split by heads.  The greedy strategies, with only the
# batch pin to start from, leave the weights replicated: faster, but over
# the budget, which the CSV flags.
. "$(dirname "$0")/../setup.sh"

"$SHARDLP" gen transformer --layers 2 --batch 2 --seq 512 --hidden 1024 --heads 8 \
	-o "$tmp/t.mlir"
sed -e 's/ {sdy\.sharding = #sdy\.sharding<@mesh, [^>]*>}//g' -e '/sdy\.mesh/d' \
	"$tmp/t.mlir" >"$tmp/u.mlir"
cat >"$tmp/cluster.xml" <<'XML'
<?xml version="1.0"?>
<shardlp-mesh name="mesh">
  <axis name="data" size="2"/>
  <axis name="model" size="4"/>
  <link axis="data" bandwidth="25e9" latency="10e-6"/>
  <link axis="model" bandwidth="450e9" latency="2e-6"/>
  <device flops="989e12" hbm="80e9" memory-budget="40e6"/>
</shardlp-mesh>
XML
opts=(--mesh data=2,model=4 --pin '0:0=data' --cluster "$tmp/cluster.xml")

run "$SHARDLP" solve "${opts[@]}" -o "$tmp/s.mlir" "$tmp/u.mlir"
expect_rc 0 "solve on the cluster with a 40 MB budget"
expect_grep "$tmp/err" ': optimal, ' "proven optimal"
# the shardings of main's arguments, one per line: %argN [dims]
python3 - "$tmp/s.mlir" >"$tmp/args" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
i = t.index("func.func @main")
sig = t[i:t.index("{\n", i)]
for m in re.finditer(r'(%arg\d+): tensor<[^>]*>(?: \{sdy\.sharding = #sdy\.sharding<@mesh, (\[[^>]*\])>\})?', sig):
    print(m.group(1), m.group(2) or "")
PY
# the generator's layer L (0, 1) holds %arg(1+7L) .. %arg(7+7L): norm
# scale, Q, K, V, output projection, W1, W2
for layer in 0 1; do
	b=$((1 + 7 * layer))
	for k in 1 2 3; do
		expect_grep "$tmp/args" "^%arg$((b + k)) \\[\\{\\}, \\{\"model\"\\}\\]$" \
			"layer $layer: projection $k is column-parallel (heads on model)"
	done
	expect_grep "$tmp/args" "^%arg$((b + 5)) \\[\\{\\}, \\{\"model\"\\}\\]$" \
		"layer $layer: the MLP's first weight is column-parallel"
	expect_grep "$tmp/args" "^%arg$((b + 6)) \\[\\{\"model\"\\}, \\{\\}\\]$" \
		"layer $layer: the MLP's second weight is row-parallel"
done
expect_grep "$tmp/err" 'peak memory [0-9.e+]* bytes' "the peak memory is reported"
peak=$(sed -n 's/.*peak memory \([0-9.e+]*\) bytes.*/\1/p' "$tmp/err")
checks=$((checks + 1))
if [ -n "$peak" ] && awk -v p="$peak" 'BEGIN { exit !(p <= 40e6) }'; then
	pass "the peak, $peak bytes, is within the budget"
else
	fail "the peak, '$peak' bytes, breaks the 40 MB budget"
fi

run "$SHARDLP" compare --csv "${opts[@]}" "$tmp/u.mlir"
expect_rc 0 "compare on the cluster"
checks=$((checks + 1))
# columns: 4 cost, 7 peak_mem_bytes, 8 over_budget
if awk -F, 'NR > 1 && $2 == "ilp" { ilp = $8 } NR > 1 && $2 != "ilp" && $3 == "ok" { n++; if ($8 != 1) bad = 1 }
            END { exit !(ilp == "0" && n == 4 && !bad) }' "$tmp/out"; then
	pass "each greedy strategy breaks the budget (flagged over_budget), the ILP keeps it"
else
	fail "over_budget is not 1 for every greedy strategy and 0 for the ILP: $(cat "$tmp/out")"
fi
finish
