#!/bin/bash
# batch_scale.sh - issue 19's batch at scale: the examples of data/ plus
# 200 generated programs (transformer, mlp, attention and dag, 50 seeds
# each) with -j 2: it completes with exit 0, the summary has one row per
# program and method (5 each) and none in error, every ILP row is
# optimal or feasible, and no greedy method beats the ILP (every greedy
# row's ratio, its cost over the ILP's, is at least 1).
. "$(dirname "$0")/../setup.sh"

in=$tmp/in
mkdir -p "$in/gen"
cp "$data"/*.mlir "$in/"
n=$(ls "$in"/*.mlir | wc -l)
for kind in transformer mlp attention dag; do
	for seed in $(seq 1 50); do
		layers=1
		[ "$kind" = dag ] && layers=$((8 + seed % 9))
		"$SHARDLP" gen "$kind" --layers "$layers" --seed "$seed" \
			-o "$in/gen/$kind-$seed.mlir"
	done
done
n=$((n + 200))

# --mesh gives data/unsharded.mlir a mesh; the others keep their own
run "$SHARDLP" batch -j 2 --mesh data=2,model=4 --out "$tmp/b" "$in"
expect_rc 0 "a batch of $n programs with -j 2"
checks=$((checks + 1))
if python3 - "$tmp/b/summary.csv" "$n" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
n = int(sys.argv[2])
files = {r["file"] for r in rows}
bad = [r for r in rows if r["status"] == "error"]
ilp = [r for r in rows if r["method"] == "ilp"]
unanswered = [r for r in ilp if r["status"] not in ("optimal", "feasible")]
greedy = [r for r in rows if r["method"] != "ilp"]
rated = [r for r in greedy if r["ratio"]]
worse = [r for r in rated if float(r["ratio"]) < 1 - 1e-6]
print("%d rows, %d programs, %d errors, %d ILP rows unanswered, %d of %d greedy rows "
      "rated, %d below the ILP" % (len(rows), len(files), len(bad), len(unanswered),
                                   len(rated), len(greedy), len(worse)))
for r in (bad + unanswered + worse)[:5]:
    print("  ", r["file"], r["method"], r["status"], r["ratio"], r["error"])
sys.exit(not (len(rows) == 5 * n and len(files) == n and not bad and not unanswered and
              len(rated) >= 0.9 * len(greedy) and not worse))
PY
then
	pass "one row per program and method, none in error, the ILP never above greedy"
else
	fail "the summary of the batch at scale"
fi
finish
