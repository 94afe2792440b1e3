#!/bin/bash
# bench_rules.sh - `make bench`, second part: the cost of building the
# sharding rule of every op (src/rules) on a generated transformer of
# about 200,000 ops, relative to parsing it.
#
# bench-rules (tests/bench_rules.c) parses and verifies the file, then
# builds every op's rule $BENCH_REPS times and keeps the best; all times
# are CPU time measured inside that one process.  End to end,
# `shardlp-opt -sdy-populate-op-sharding-rules` is compared with plain
# `shardlp-opt` (the difference also prints every rule).  Target (issue 3):
# building rules costs a small fraction of parse time.
#
# Environment: SHARDLP, SHARDLP_OPT, BENCH_RULES (default ./shardlp,
# ./shardlp-opt, ./bench-rules), BENCH_RULES_LAYERS (default 5600, 36 ops
# a layer plus the ops of reduce bodies: about 220,000 ops), BENCH_REPS
# (default 3), BENCH_DIR (inputs kept there; default a temporary directory).
set -eu
LC_ALL=C
export LC_ALL

SHARDLP=${SHARDLP:-./shardlp}
SHARDLP_OPT=${SHARDLP_OPT:-./shardlp-opt}
BENCH_RULES=${BENCH_RULES:-./bench-rules}
layers=${BENCH_RULES_LAYERS:-5600}
reps=${BENCH_REPS:-3}
TIME=/usr/bin/time

if [ ! -x "$TIME" ]; then
	echo "bench_rules: $TIME not found (Debian package 'time')" >&2
	exit 1
fi
for p in "$SHARDLP" "$SHARDLP_OPT" "$BENCH_RULES"; do
	[ -x "$p" ] || { echo "bench_rules: $p not built" >&2; exit 1; }
done

if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-bench-rules.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi

# cpu CMD...: prints the best CPU time (s) of $reps runs of CMD.
cpu() {
	best=
	for _r in $(seq 1 "$reps"); do
		if ! "$TIME" -f '%U %S' -o "$dir/time" "$@" >/dev/null 2>"$dir/err"; then
			echo "bench_rules: failed: $*" >&2
			head -n 5 "$dir/err" >&2
			exit 1
		fi
		t=$(awk '{ printf "%.3f", $1 + $2 }' "$dir/time")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
	done
	echo "$best"
}

in=$dir/transformer-$layers.mlir
[ -s "$in" ] || "$SHARDLP" gen transformer --layers "$layers" -o "$in"
echo "input: $layers layers, $(wc -c <"$in") bytes"
"$BENCH_RULES" "$in" "$reps"

opt=$(cpu "$SHARDLP_OPT" -o /dev/null "$in")
pop=$(cpu "$SHARDLP_OPT" -sdy-populate-op-sharding-rules -o /dev/null "$in")
awk -v o="$opt" -v q="$pop" 'BEGIN {
	printf "shardlp-opt %.3f s; with -sdy-populate-op-sharding-rules %.3f s " \
	    "(build, attach and print every rule)\n", o, q
}'
echo "target: building rules is a small fraction of parse time (CPU time, best of $reps runs)"
