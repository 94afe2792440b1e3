#!/bin/bash
# bench_batch.sh - the overhead of `shardlp batch`, part of `make bench`:
# BENCH_BATCH_N (default 1000) tiny programs (one add on a 2x2 mesh, each
# with its own seed-free name) with -j 1 and -j 2, side by side in one
# run (the median of BENCH_BATCH_ROUNDS rounds): wall seconds, programs
# per second, and the -j 2 / -j 1 throughput ratio, with the file system
# the results were written to and the machine's load.  Targets (issue
# 19): >= 50 programs/s with -j 2, and a ratio >= 1.8 on an otherwise idle
# 2-core machine.
# Not part of `make check`.
set -u
LC_ALL=C
export LC_ALL
SHARDLP=${SHARDLP:-./shardlp}
n=${BENCH_BATCH_N:-1000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-bench-batch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -x "$SHARDLP" ] || { echo "bench_batch: $SHARDLP not built" >&2; exit 1; }

mkdir -p "$tmp/in"
for i in $(seq 1 "$n"); do
	cat >"$tmp/in/p$i.mlir" <<MLIR
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x$((i % 16 + 1))xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x$((i % 16 + 1))xf32>) -> tensor<8x$((i % 16 + 1))xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x$((i % 16 + 1))xf32>
  return %0 : tensor<8x$((i % 16 + 1))xf32>
}
MLIR
done

now() { date +%s.%N; }
# BENCH_BATCH_ROUNDS (default 5) rounds, -j 1 and -j 2 alternating, so
# that both meet the same load (the machine may be shared: its load
# average is printed); each reports its median time and range, and the
# ratio is that of the medians, with the range of the rounds' own ratios.
rounds=${BENCH_BATCH_ROUNDS:-5}
declare -A times rc rows
ratios=
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
for r in $(seq 1 "$rounds"); do
	for j in 1 2; do
		rm -rf "$tmp/out$j"
		t0=$(now)
		"$SHARDLP" batch -j "$j" --out "$tmp/out$j" "$tmp/in" >/dev/null 2>&1
		rc[$j]=$?
		t1=$(now)
		rows[$j]=$(($(wc -l <"$tmp/out$j/summary.csv") - 1))
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		times[$j]="${times[$j]:-} $s"
	done
	ratios="$ratios $(echo "${times[1]##* } ${times[2]##* }" | awk '{ printf "%.2f", $1 / $2 }')"
done
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
# median, min and max of a list of numbers
stats() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.2f %.2f %.2f", m, v[1], v[NR] }'; }
# the file system the results go to: each program's files are created
# there, and on a slow disk that work (journalled) bounds the gain of a
# second worker; `make bench` runs this on the disk of TMPDIR and on
# /dev/shm (memory) side by side
fs=$(df -PT "$tmp" 2>/dev/null | awk 'NR == 2 { print $2 }')
echo "results on ${fs:-?} (${TMPDIR:-/tmp}); load average ${load0:-?} before, ${load1:-?} after"
printf '%-6s %9s %10s %8s   (median of %d rounds, alternating)\n' jobs programs seconds prog/s "$rounds"
declare -A rate
for j in 1 2; do
	read -r med lo hi <<<"$(echo "${times[$j]}" | stats)"
	rate[$j]=$(awk -v n="$n" -v s="$med" 'BEGIN { printf "%.1f", n / s }')
	printf '%-6s %9d %10s %8s   (%s-%s s; exit %d, %d rows)\n' "-j $j" "$n" "$med" \
		"${rate[$j]}" "$lo" "$hi" "${rc[$j]}" "${rows[$j]}"
done
read -r med lo hi <<<"$(echo "$ratios" | stats)"
awk -v a="${rate[1]}" -v b="${rate[2]}" -v lo="$lo" -v hi="$hi" 'BEGIN {
	printf "throughput -j 2 / -j 1: %.2fx (rounds %.2f-%.2fx)\n", b / a, lo, hi }'
