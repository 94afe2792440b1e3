#!/bin/bash
# bench_propagation.sh - `make bench`: propagation speed (issue 5).  The
# full sdy-propagation-pipeline (import passes, user-priority propagation,
# export steps) and the sdy-user-priority-propagate pass alone, on
# generated transformer-like programs (`shardlp gen transformer`: about
# 36 ops a layer, weights as arguments, some pinned by users) of 12, 96
# and 1000 layers, then 2000 and 4000 to show how time grows.
#
# `shardlp propagate --time` reports the CPU time of parsing and of the
# passes (printing excluded), measured inside one process; best of
# $BENCH_REPS runs, so that other load on the machine matters less.  Peak
# memory is the largest maximum RSS reported by /usr/bin/time -v.
# Columns: ops (op lines of the input), parse and propagate seconds,
# ops/s of propagation, propagate/parse ratio, peak RSS.  Between two
# sizes: the time ratio, and that ratio per doubling of the size
# ((t2/t1)^(1/log2(l2/l1)); 2.0 is linear).
# Targets: >= 1,000,000 ops/s of propagation, 2x layers -> <= 2.2x time.
#
# Then chains of 4000, 8000 and 16000 function calls through the pipeline.
#
# Measured (21 interleaved rounds, median and best, on one core of a
# shared 2-core VM with a 32 MB L3, where single runs vary by +-30%):
# pipeline 12 / 96 / 1000 / 2000 layers 1.05M / 1.41M / 1.00M / 1.19M
# ops/s median, 1.38M / 2.10M / 1.76M / 1.46M best, 1.73x / 2.11x time per
# doubling (best); the pass alone 1.35M / 1.71M / 1.65M / 1.60M median,
# 1.85x / 2.02x / 2.06x per doubling (median).  Instructions grow exactly
# linearly (callgrind: 165M at 1000 layers, 331M at 2000, 660M at 4000;
# 431M at 1000 layers before this round of work); time follows the
# caches: the module (30 MB at 1000 layers) outgrows the L3 past 1000
# layers, and the op and value arenas (ir.h) keep walks of the ops
# streaming rather than missing on every op (before them, 1000 to 2000
# layers took 3x the time).

# Environment: SHARDLP (default ./shardlp), BENCH_PROP_LAYERS (default
# "12 96 1000 2000 4000"), BENCH_PROP_CALLS (default "4000 8000 16000"),
# BENCH_REPS (default 7), BENCH_DIR (inputs kept there; default a
# temporary directory), BENCH_BASELINE (an older shardlp binary: each row
# then also shows its propagate time, measured in the same rounds, and the
# new/baseline time ratio; `make bench BENCH_BASELINE=../old/shardlp`).
set -eu
LC_ALL=C
export LC_ALL

SHARDLP=${SHARDLP:-./shardlp}
layers=${BENCH_PROP_LAYERS:-12 96 1000 2000 4000}
reps=${BENCH_REPS:-7}
TIME=/usr/bin/time

[ -x "$SHARDLP" ] || { echo "bench_propagation: $SHARDLP not built" >&2; exit 1; }
baseline=${BENCH_BASELINE:-}
if [ -n "$baseline" ] && [ ! -x "$baseline" ]; then
	echo "bench_propagation: BENCH_BASELINE=$baseline is not an executable" >&2
	exit 1
fi
basecols=
[ -z "$baseline" ] || basecols=$(printf ' %9s %8s %8s' base_prop_s new/base base_MB)
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

# less A B: whether A < B (decimal numbers)
less() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

# run FILE OPTION...: best parse and pass CPU seconds and the largest peak
# RSS (KB) over $reps runs; sets parse, prop, rss.  With BENCH_BASELINE,
# each round runs the baseline right after this build, so that load on the
# machine falls on both alike; sets bparse, bprop, brss for the baseline.
run() {
	_f=$1
	shift
	parse= prop= rss=0 bparse= bprop= brss=0
	for _r in $(seq 1 "$reps"); do
		run1 "$SHARDLP" "$_f" "$@"
		best parse prop rss
		if [ -n "$baseline" ]; then
			run1 "$baseline" "$_f" "$@"
			best bparse bprop brss
		fi
	done
}

# run1 BIN FILE OPTION...: one run; sets _p, _q (seconds), _m (KB).
run1() {
	_bin=$1 _in=$2
	shift 2
	if ! "$TIME" -v -o "$dir/time" "$_bin" propagate "$@" --time -o /dev/null "$_in" \
	     2>"$dir/err"; then
		echo "bench_propagation: failed: $_bin propagate $* $_in" >&2
		head -n 5 "$dir/err" >&2
		exit 1
	fi
	_p=$(awk '/^parse/ { print $2 }' "$dir/err")
	_q=$(awk '/^parse/ { print $5 }' "$dir/err")
	_m=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time")
}

# best PARSE PROP RSS: keeps the smaller times and the larger RSS of the
# last run in the three named variables.
best() {
	if [ -z "${!2}" ] || less "$_q" "${!2}"; then
		printf -v "$2" %s "$_q"
	fi
	if [ -z "${!1}" ] || less "$_p" "${!1}"; then
		printf -v "$1" %s "$_p"
	fi
	if less "${!3}" "$_m"; then
		printf -v "$3" %s "$_m"
	fi
}

# vs: the baseline columns (propagate seconds, new/baseline time ratio,
# peak RSS), empty without BENCH_BASELINE.
vs() {
	[ -n "$baseline" ] || return 0
	awk -v q="$prop" -v b="$bprop" -v r="$brss" \
	    'BEGIN { printf " %9.4f %7.2fx %8.1f", b, (b > 0 ? q / b : 0), r / 1024 }'
}

# growth T1 T2 N1 N2 WHAT: the time ratio between two sizes, and per doubling.
growth() {
	awk -v a="$1" -v b="$2" -v na="$3" -v nb="$4" -v what="$5" \
	    'BEGIN { if (a > 0 && b > 0) {
	                 d = log(nb / na) / log(2)
	                 printf "%16s %gx %s -> %.2fx time (%.2fx per doubling)\n",
	                        "", nb / na, what, b / a, exp(log(b / a) / d)
	             } }'
}

printf '%-9s %6s %8s %9s %9s %11s %7s %8s%s\n' \
	mode layers ops parse_s prop_s ops_per_s prop/pa rss_MB "$basecols"
for mode in pipeline pass; do
	prev_t= prev_l=
	for l in $layers; do
		f=$dir/tf$l.mlir
		[ -s "$f" ] || "$SHARDLP" gen transformer --layers "$l" -o "$f"
		ops=$(grep -cE '^[[:space:]]+(%[^ ]+ = )?"?[a-z_]+\.[a-z_]+' "$f")
		if [ "$mode" = pipeline ]; then
			run "$f" --pipeline
		else
			run "$f"
		fi
		awk -v m="$mode" -v l="$l" -v n="$ops" -v p="$parse" -v q="$prop" -v r="$rss" \
		    'BEGIN { printf "%-9s %6s %8d %9.4f %9.4f %11.0f %7.2f %8.1f",
		             m, l, n, p, q, (q > 0 ? n / q : 0), (p > 0 ? q / p : 0), r / 1024 }'
		vs
		echo
		[ -z "$prev_t" ] || growth "$prev_t" "$prop" "$prev_l" "$l" layers
		prev_t=$prop
		prev_l=$l
	done
done

# Call graphs: a chain of N functions, each called once from @main, through
# the whole pipeline (import-func-calls turns each call into a named
# computation).  Time must stay linear in the number of calls.
calls=${BENCH_PROP_CALLS:-4000 8000 16000}
printf '\n%-9s %6s %9s %9s %8s%s\n' mode calls parse_s pipe_s rss_MB "$basecols"
prev_t= prev_n=
for n in $calls; do
	f=$dir/calls$n.mlir
	[ -s "$f" ] || awk -v n="$n" 'BEGIN {
		print "sdy.mesh @mesh = <[\"x\"=2]>"
		for (i = 0; i < n; i++) {
			printf "func.func private @f%d(%%a: tensor<8xf32>) -> tensor<8xf32> {\n", i
			print "  %0 = stablehlo.add %a, %a : tensor<8xf32>"
			print "  return %0 : tensor<8xf32>"
			print "}"
		}
		print "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<8xf32> {"
		prev = "%arg0"
		for (i = 0; i < n; i++) {
			printf "  %%%d = call @f%d(%s) : (tensor<8xf32>) -> tensor<8xf32>\n", i, i, prev
			prev = "%" i
		}
		printf "  return %s : tensor<8xf32>\n}\n", prev
	}' >"$f"
	run "$f" --pipeline
	awk -v n="$n" -v p="$parse" -v q="$prop" -v r="$rss" \
	    'BEGIN { printf "%-9s %6d %9.4f %9.4f %8.1f", "calls", n, p, q, r / 1024 }'
	vs
	echo
	[ -z "$prev_t" ] || growth "$prev_t" "$prop" "$prev_n" "$n" calls
	prev_t=$prop
	prev_n=$n
done
