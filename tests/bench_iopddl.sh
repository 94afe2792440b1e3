#!/bin/bash
# bench_iopddl.sh - the IOPDDL benchmark (issue 20), part of `make bench`:
# `shardlp iopddl bench` on the instances of ../shared/iopddl beside the
# source tree (or IOPDDL_DIR), the small ones (B, G: to be proven optimal)
# within BENCH_IOPDDL_SMALL seconds (default 30), the large ones (L, V: a
# good answer) within BENCH_IOPDDL_LARGE (default 300); then, side by
# side, CBC (bench-only dependency coinor-cbc, one thread) on the
# reference model that --write-mps exports, for the instances of
# BENCH_IOPDDL_CBC (default "B G"), within the small limit: its time, and
# whether its optimum agrees with shardlp's cost.
# The reference model is the tight formulation after shardlp's exact
# reductions and leaf folds, as CBC always got it (byte-identical MPS);
# shardlp itself solves it with the nodes of two edges in no memory row
# folded too (G: 48,036 columns and 9,944 rows instead of 65,658 and
# 12,710; B: 67,741 and 13,802 instead of 77,844 and 15,202), its LP
# started from a smaller one, and the Lagrangian search's answer.  CBC on
# that folded model (not measured here) takes about half its time on G.
# Instances: asplos-2025-iopddl-NAME.json.gz; BENCH_IOPDDL_ONLY (e.g. "B G")
# keeps some.  Not part of `make check`: minutes, on one core.
# Last measured (2026-11-27, load 4-7 on 2 cores, CPU seconds, mean of 3
# runs, CBC in the same runs): B optimal 6.5 s (CBC 12.3 s), G optimal
# 2.25 s (CBC 2.6 s).  Before (2026-11-26, load 3-7): B 5.5 s (CBC 9.0 s),
# G 2.5 s (CBC 2.2 s).
# Before the folds of nodes of two edges and the smaller LP: B 8.7 s,
# G 6.7 s.  Both are mostly GLPK's LP (B's is integral, G's has the
# optimum as its bound, which the Lagrangian search's answer meets).
set -u
LC_ALL=C
export LC_ALL
SHARDLP=${SHARDLP:-./shardlp}
srcdir=${srcdir:-.}
dir=${IOPDDL_DIR:-$srcdir/../shared/iopddl}
small_s=${BENCH_IOPDDL_SMALL:-30}
large_s=${BENCH_IOPDDL_LARGE:-300}
cbc_list=${BENCH_IOPDDL_CBC:-B G}
only=${BENCH_IOPDDL_ONLY:-B G L V}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-bench-iopddl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -x "$SHARDLP" ] || { echo "bench_iopddl: $SHARDLP not built" >&2; exit 1; }
if [ ! -d "$dir" ]; then
	echo "bench_iopddl: no $dir (IOPDDL_DIR): skipped"
	exit 0
fi
dir=$(cd "$dir" && pwd)

# The instances by size, each folder with BEST.tsv for the ratios.
mkdir -p "$tmp/small" "$tmp/large"
for d in small large; do
	[ -f "$dir/BEST.tsv" ] && ln -s "$dir/BEST.tsv" "$tmp/$d/BEST.tsv"
done
for name in $only; do
	f="$dir/asplos-2025-iopddl-$name.json.gz"
	[ -f "$f" ] || continue
	case $name in
	B|G) ln -s "$f" "$tmp/small/" ;;
	*) ln -s "$f" "$tmp/large/" ;;
	esac
done
for d in small large; do
	[ "$(ls "$tmp/$d" | grep -c json)" -gt 0 ] || continue
	s=$small_s
	[ $d = large ] && s=$large_s
	"$SHARDLP" iopddl bench --time-limit "$s" "$tmp/$d"
	echo
done

# CBC on the exported model (the local search's answer is not given to it)
command -v cbc >/dev/null 2>&1 || { echo "# cbc: not installed (coinor-cbc): skipped"; exit 0; }
printf '# cbc (one thread) on the reference model, limit %s s; wall and CPU (user) seconds\n' "$small_s"
printf '%-10s %14s %14s %8s %8s %8s %8s %s\n' instance shardlp_cost cbc_cost \
	shardlp_s cpu_s cbc_s cpu_s agree
for name in $cbc_list; do
	f="$dir/asplos-2025-iopddl-$name.json.gz"
	[ -f "$f" ] || continue
	/usr/bin/time -f '%e %U' -o "$tmp/$name.time" \
		"$SHARDLP" iopddl solve --time-limit "$small_s" -o "$tmp/$name.sol" "$f" 2>"$tmp/$name.err"
	cost=$(sed -n 's/.*, cost \([0-9]*\),.*/\1/p' "$tmp/$name.err")
	status=$(sed -n 's/^shardlp: [^ ]*: \([a-z]*\).*/\1/p' "$tmp/$name.err")
	"$SHARDLP" iopddl solve -q --local-search --write-mps "$tmp/$name.mps" -o /dev/null "$f"
	/usr/bin/time -f '%e %U' -o "$tmp/$name.ctime" \
		timeout "$((small_s * 4))" cbc "$tmp/$name.mps" threads 1 sec "$small_s" solve \
		>"$tmp/$name.cbc" 2>&1
	ccost=$(sed -n 's/^Objective value: *\([0-9.e+-]*\).*/\1/p' "$tmp/$name.cbc" | tail -1)
	cstat=$(grep -q '^Result - Optimal solution found' "$tmp/$name.cbc" && echo optimal || echo "not optimal")
	agree=$(awk -v a="${ccost:-nan}" -v b="${cost:-0}" 'BEGIN {
		d = a - b; if (d < 0) d = -d; print (d <= 0.5 ? "yes" : "no") }')
	read -r sw su <"$tmp/$name.time"
	read -r cw cu <"$tmp/$name.ctime"
	printf '%-10s %14s %14s %8s %8s %8s %8s %s (shardlp %s, cbc %s)\n' "$name" \
		"${cost:--}" "${ccost:--}" "$sw" "$su" "$cw" "$cu" "$agree" \
		"${status:-?}" "$cstat"
done
