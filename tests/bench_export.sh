#!/bin/bash
# bench_export.sh - `make bench`: the partitioner's export passes against
# propagation (issue 13).  On the generated 1,000-layer transformer
# (`shardlp gen transformer`), bench-export (tests/bench_export.c) times
# inside one process, in CPU seconds, best of several runs: user-priority
# propagation, -sdy-insert-explicit-reshards (full version) and
# -sdy-reshard-to-collectives, as `shardlp propagate --collectives` runs
# them.  Printed side by side, with the ratio of the two export passes to
# propagation; target: ratio <= 0.5.  Also what the passes made (reshards
# and all-reduces, then collectives), so that a ratio of passes that had
# nothing to do is not mistaken for one that had.
#
# Environment: SHARDLP (default ./shardlp), BENCH_EXPORT (default
# ./bench-export), BENCH_EXPORT_LAYERS (default 1000), BENCH_EXPORT_MESH
# (gen's --mesh, default 4x2), BENCH_REPS (default 5), BENCH_DIR (input
# kept there; default a temporary directory).
set -eu
LC_ALL=C
export LC_ALL

SHARDLP=${SHARDLP:-./shardlp}
BENCH_EXPORT=${BENCH_EXPORT:-./bench-export}
layers=${BENCH_EXPORT_LAYERS:-1000}
mesh=${BENCH_EXPORT_MESH:-4x2}
reps=${BENCH_REPS:-5}

for p in "$SHARDLP" "$BENCH_EXPORT"; do
	[ -x "$p" ] || { echo "bench_export: $p not built" >&2; exit 1; }
done
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-bench-export.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi

f=$dir/tf$layers-$mesh.mlir
[ -s "$f" ] || "$SHARDLP" gen transformer --layers "$layers" --mesh "$mesh" -o "$f"
if ! "$BENCH_EXPORT" "$f" "$reps" >"$dir/line" 2>"$dir/err"; then
	echo "bench_export: failed on $f" >&2
	head -n 5 "$dir/err" >&2
	exit 1
fi
awk -v layers="$layers" -v mesh="$mesh" '
{
	n = split($0, a, " ")
	for (i = 1; i <= n; i++) { split(a[i], p, "="); v[p[1]] = p[2] }
	x = v["xr"] + v["rtc"]
	printf "export passes, %d-layer transformer (%s, %d ops): propagation %.4f s, " \
	    "explicit reshards %.4f s + reshard-to-collectives %.4f s = %.4f s CPU; " \
	    "ratio %.3f (target <= 0.5)\n",
	    layers, mesh, v["ops"], v["prop"], v["xr"], v["rtc"], x,
	    (v["prop"] > 0 ? x / v["prop"] : 0)
	printf "  made: %d reshards, %d all-reduces, then %d collectives\n",
	    v["reshards"], v["all_reduces"], v["collectives"]
}' "$dir/line"
