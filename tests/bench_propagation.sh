#!/bin/bash
# bench_propagation.sh - propagation speed (issue 5): the full
# sdy-propagation-pipeline (import passes, user-priority propagation,
# export steps) and the sdy-user-priority-propagate pass alone, on
# generated transformer-like programs of 12, 96 and 1000 layers (about 36
# ops a layer, weights as arguments, some pinned), plus 2000 layers to
# check that time grows linearly.
#
# `shardlp propagate --time` reports the CPU time of parsing and of the
# passes, measured inside one process; best of $BENCH_REPS runs.  Peak
# memory is the maximum RSS from /usr/bin/time -v.  Targets: >= 1,000,000
# ops/s of propagation, 2x layers -> <= 2.2x time.
#
# Environment: SHARDLP (default ./shardlp), BENCH_PROP_LAYERS (default
# "12 96 1000 2000"), BENCH_REPS (default 3), BENCH_DIR (inputs kept
# there; default a temporary directory).
set -eu
LC_ALL=C
export LC_ALL

SHARDLP=${SHARDLP:-./shardlp}
layers=${BENCH_PROP_LAYERS:-12 96 1000 2000}
reps=${BENCH_REPS:-3}
TIME=/usr/bin/time

[ -x "$SHARDLP" ] || { echo "bench_propagation: $SHARDLP not built" >&2; exit 1; }
if [ ! -x "$TIME" ]; then
	echo "bench_propagation: $TIME not found (Debian package 'time')" >&2
	exit 1
fi
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-bench-prop.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi

# run MODE FILE: best parse and pass CPU seconds and the peak RSS (KB)
# over $reps runs; sets parse, prop, rss.
run() {
	parse= prop= rss=
	for _r in $(seq 1 "$reps"); do
		if ! "$TIME" -v -o "$dir/time" "$SHARDLP" propagate $1 --time -o /dev/null "$2" \
		     2>"$dir/err"; then
			echo "bench_propagation: failed: $SHARDLP propagate $1 $2" >&2
			head -n 5 "$dir/err" >&2
			exit 1
		fi
		_p=$(awk '/^parse/ { print $2 }' "$dir/err")
		_q=$(awk '/^parse/ { print $5 }' "$dir/err")
		_m=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time")
		if [ -z "$prop" ] || awk -v a="$_q" -v b="$prop" 'BEGIN { exit !(a < b) }'; then
			prop=$_q
		fi
		if [ -z "$parse" ] || awk -v a="$_p" -v b="$parse" 'BEGIN { exit !(a < b) }'; then
			parse=$_p
		fi
		rss=$_m
	done
}

printf '%-9s %-8s %8s %10s %10s %12s %8s %9s\n' \
	mode layers ops parse_s prop_s ops_per_s ratio rss_MB
for mode in pipeline pass; do
	prev_t= prev_l=
	for l in $layers; do
		f=$dir/tf$l.mlir
		[ -s "$f" ] || "$SHARDLP" gen transformer --layers "$l" -o "$f"
		ops=$(grep -cE '^[[:space:]]+(%[^ ]+ = )?"?[a-z_]+\.[a-z_]+' "$f")
		if [ "$mode" = pipeline ]; then
			run --pipeline "$f"
		else
			run "" "$f"
		fi
		awk -v m="$mode" -v l="$l" -v n="$ops" -v p="$parse" -v q="$prop" -v r="$rss" \
		    'BEGIN { printf "%-9s %-8s %8d %10.4f %10.4f %12.0f %8.2f %9.1f\n",
		             m, l, n, p, q, (q > 0 ? n / q : 0), (p > 0 ? q / p : 0), r / 1024 }'
		if [ -n "$prev_t" ]; then
			awk -v a="$prev_t" -v b="$prop" -v la="$prev_l" -v lb="$l" \
			    'BEGIN { if (a > 0) printf "          %sx layers -> %.2fx time\n", lb / la, b / a }'
		fi
		prev_t=$prop
		prev_l=$l
	done
done
