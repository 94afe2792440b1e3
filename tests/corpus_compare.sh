#!/bin/bash
# corpus_compare.sh - where issue 15's first "Done when" line stands: runs
# `shardlp compare` on every program of ../shared/corpus (with
# --mesh data=2,model=4, which a program that has its own mesh ignores,
# and -split-input-file where the file has '// -----' lines) and sorts
# the outcomes into categories, largest first:
#   result (ilp STATUS[, greedy STATUS])
#                         every chunk answered: the ILP's statuses, and
#                         those of greedy strategies that were not ok
#   nothing to shard      no mesh axes to shard over
#   error: MESSAGE        the first error, location stripped, numbers as N
#   exit N, no error line (a crash or a time-out, with the exit status)
# Not in `make check` (it takes minutes).  Run from the build directory:
#   tests/corpus_compare.sh [-v] [-j JOBS] [-t SECONDS] [CORPUS]
#   tests/corpus_compare.sh -T
# -v lists the files of each category; -j runs JOBS compares at once
# (default 2); -t is the ILP's time limit (default 10).  The table goes to
# stdout; the per-file lines (FILE<TAB>CATEGORY) stay in
# ${TMPDIR:-/tmp}/corpus_compare.tsv for comparing two runs.
# -T instead times the issue's third line: compare --mesh data=2,model=4
# --time-limit 60 on a 10k-op unsharded transformer (shardlp gen
# transformer --layers 278, its mesh and shardings removed).
set -eu
LC_ALL=C
export LC_ALL

top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
SHARDLP=${SHARDLP:-./shardlp}
verbose=0
jobs=2
tlim=10
big=0
while getopts vj:t:T o; do
	case $o in
	v) verbose=1 ;;
	T) big=1 ;;
	j) jobs=$OPTARG ;;
	t) tlim=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
corpus=${1:-${SHARDLP_CORPUS:-$top_srcdir/../shared/corpus}}
[ -x "$SHARDLP" ] || { echo "corpus_compare.sh: no $SHARDLP (run from the build directory)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "corpus_compare.sh: no corpus at $corpus" >&2; exit 2; }
SHARDLP=$(cd "$(dirname "$SHARDLP")" && pwd)/$(basename "$SHARDLP")
out=${TMPDIR:-/tmp}/corpus_compare.tsv
export SHARDLP tlim

if [ "$big" -eq 1 ]; then
	t=$(mktemp -d "${TMPDIR:-/tmp}/corpus_compare.XXXXXX")
	trap 'rm -rf "$t"' EXIT
	"$SHARDLP" gen transformer --layers 278 |
		sed -E -e '/sdy\.mesh/d' -e 's/ \{sdy\.sharding = #sdy\.sharding<@mesh, \[[^]]*\]>\}//g' \
		>"$t/tx.mlir"
	echo "$(grep -c 'stablehlo\.' "$t/tx.mlir") ops, $(grep -c 'sdy\.' "$t/tx.mlir") sdy annotations"
	s0=$(date +%s.%N)
	"$SHARDLP" compare --csv --time-limit 60 --mesh data=2,model=4 "$t/tx.mlir" | cut -d, -f2-4
	echo "compare: $(echo "$(date +%s.%N) - $s0" | bc) s"
	exit 0
fi

# classify FILE: prints FILE<TAB>CATEGORY
classify() {
	f=$1
	split=
	grep -q '^// -----' "$f" && split=--split-input-file
	t=$(mktemp -d "${TMPDIR:-/tmp}/corpus_compare.XXXXXX")
	set +e
	timeout $((tlim * 6 + 60)) "$SHARDLP" compare --csv --time-limit "$tlim" \
		--mesh data=2,model=4 $split "$f" >"$t/out" 2>"$t/err"
	rc=$?
	set -e
	if [ "$rc" -eq 0 ]; then
		# the ILP rows' statuses; the worst names the category
		st=$(awk -F, 'NR > 1 && $2 == "ilp" { print $3 }' "$t/out" | sort -u |
			awk '{ s = s (s ? "+" : "") $0 } END { print s }')
		# a greedy strategy that gives no score is worth knowing too
		gs=$(awk -F, 'NR > 1 && $2 != "ilp" && $3 != "ok" { print $3 }' "$t/out" |
			sort -u | awk '{ s = s (s ? "+" : "") $0 } END { print s }')
		cat="result (ilp ${st:-none}${gs:+, greedy $gs})"
	elif grep -q 'nothing to shard' "$t/err"; then
		cat="nothing to shard"
	elif grep -q 'error: ' "$t/err"; then
		cat="error: $(grep -m1 'error: ' "$t/err" | sed -e 's/^.*error: //' \
			-e 's/[0-9][0-9]*/N/g')"
	else
		cat="exit $rc, no error line"
	fi
	printf '%s\t%s\n' "$f" "$cat"
	rm -rf "$t"
}
export -f classify

find "$corpus" -name '*.mlir' | sort |
	xargs -P "$jobs" -I{} bash -c 'classify "$1"' _ {} | sort >"$out"

echo "$(wc -l <"$out") files of $corpus"
cut -f2 "$out" | sort | uniq -c | sort -k1,1nr -k2
if [ "$verbose" -eq 1 ]; then
	cut -f2 "$out" | sort -u | while IFS= read -r c; do
		echo "== $c"
		awk -F'\t' -v c="$c" '$2 == c { print "  " $1 }' "$out"
	done
fi
