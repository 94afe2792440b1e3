#!/bin/bash
# bench.sh - `make bench`: parse, verify and print speed on generated
# transformer programs of about 61k, 122k and 245k ops (1x, 2x, 4x).
#
# For each size: `shardlp verify` (parse + verify) and `shardlp-opt -o
# /dev/null` (parse + verify + print), best of $BENCH_REPS runs.  Rates use
# CPU time (user + sys) so that other load on the machine matters less;
# print time is the difference of the two.  Peak memory is the maximum RSS
# reported by /usr/bin/time -v.  Targets (issue 2): parse + verify >= 50
# MB/s, print >= 100 MB/s, peak RSS <= 6x the input, linear growth.
#
# Environment: SHARDLP, SHARDLP_OPT (default ./shardlp, ./shardlp-opt),
# BENCH_LAYERS (default "1700 3400 6800"), BENCH_REPS (default 3),
# BENCH_DIR (where inputs are kept; default a temporary directory).
set -eu
LC_ALL=C
export LC_ALL

SHARDLP=${SHARDLP:-./shardlp}
SHARDLP_OPT=${SHARDLP_OPT:-./shardlp-opt}
layers=${BENCH_LAYERS:-1700 3400 6800}
reps=${BENCH_REPS:-3}
TIME=/usr/bin/time

if [ ! -x "$TIME" ]; then
	echo "bench: $TIME not found (Debian package 'time'; ./bootstrap installs it)" >&2
	exit 1
fi
for p in "$SHARDLP" "$SHARDLP_OPT"; do
	[ -x "$p" ] || { echo "bench: $p not built" >&2; exit 1; }
done

if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-bench.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi

# measure CMD...: best of $reps runs; sets cpu (s), wall (s), rss (KB).
measure() {
	cpu= wall= rss=
	for _r in $(seq 1 "$reps"); do
		_t0=$(date +%s%N)
		if ! "$TIME" -v -o "$dir/time" "$@" >/dev/null 2>"$dir/err"; then
			echo "bench: failed: $*" >&2
			head -n 5 "$dir/err" >&2
			exit 1
		fi
		_t1=$(date +%s%N)
		_w=$(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
		_c=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.4f", s }' "$dir/time")
		_m=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time")
		if [ -z "$cpu" ] || awk -v a="$_c" -v b="$cpu" 'BEGIN { exit !(a < b) }'; then
			cpu=$_c
		fi
		if [ -z "$wall" ] || awk -v a="$_w" -v b="$wall" 'BEGIN { exit !(a < b) }'; then
			wall=$_w
		fi
		if [ -z "$rss" ] || [ "$_m" -gt "$rss" ]; then
			rss=$_m
		fi
	done
}

printf '%-7s %8s %7s | %8s %9s %10s | %8s %8s %9s | %8s %6s\n' \
	layers ops MB verify_s parse_MB/s ops/s opt_s print_s print_MB/s \
	rss_MB rss/in
first_v= first_o=
rm -f "$dir/times"
for n in $layers; do
	in=$dir/transformer-$n.mlir
	[ -s "$in" ] || "$SHARDLP" gen transformer --layers "$n" -o "$in"
	bytes=$(wc -c <"$in")
	ops=$(grep -c ' = stablehlo\.\| = sdy\.' "$in")
	"$SHARDLP_OPT" -o "$dir/out.mlir" "$in"
	outbytes=$(wc -c <"$dir/out.mlir")
	rm -f "$dir/out.mlir"

	measure "$SHARDLP" verify "$in"
	v_cpu=$cpu v_wall=$wall v_rss=$rss
	measure "$SHARDLP_OPT" -o /dev/null "$in"
	o_cpu=$cpu o_wall=$wall o_rss=$rss
	[ -n "$first_v" ] || { first_v=$v_cpu first_o=$o_cpu; }

	awk -v n="$n" -v ops="$ops" -v b="$bytes" -v ob="$outbytes" \
	    -v vc="$v_cpu" -v oc="$o_cpu" -v rss="$o_rss" -v vrss="$v_rss" '
	function rate(x, t) { return t > 0 ? x / t : 0 }
	BEGIN {
		mb = b / 1e6; pc = oc - vc; if (pc < 0.001) pc = 0.001
		if (vrss > rss) rss = vrss
		printf "%-7d %8d %7.1f | %8.3f %9.1f %10.0f | %8.3f %8.3f %9.1f | %8.1f %6.2f\n",
		    n, ops, mb, vc, rate(mb, vc), rate(ops, vc), oc, pc,
		    rate(ob / 1e6, pc), rss / 1024, rss * 1024 / b
	}'
	echo "$n $v_cpu $o_cpu $v_wall $o_wall" >>"$dir/times"
done

awk -v fv="$first_v" -v fo="$first_o" '
NR == 1 { n1 = $1 }
NR > 1 {
	printf "time ratio %dx/1x (%d/%d layers): verify %.2f, parse+verify+print %.2f\n",
	    $1 / n1, $1, n1, $2 / fv, $3 / fo
}' "$dir/times"
echo "targets: parse+verify >= 50 MB/s, print >= 100 MB/s, rss/in <= 6, ratios ~2 and ~4"
echo "(rates from CPU time, best of $reps runs)"
