#!/bin/bash
# Torture: thousands of mutants of the data/ programs (truncations, byte
# flips, duplicated and deleted lines, swapped brackets, huge numbers in
# shapes and sub-axes; tests/torture_mutate.c, fixed seed) through
# shardlp-opt -sdy-propagation-pipeline and shardlp verify (all of them,
# many per process) and propagate, solve and compare (a sample, one each);
# and mutants of data/mesh-4x2.xml through solve --mesh-xml.
# Fails on a signal, a sanitizer report, a time-out, or an exit status
# outside the documented ones (0, 1, 2; 3 for solve and compare: no
# solution in time).  Failing mutants are kept in $TORTURE_KEEP if set.
#
# Environment: TORTURE_COUNT (default 5000), TORTURE_SEED (default 16),
# TORTURE_SAMPLE (every Nth mutant also goes through propagate, solve and
# compare; default 25), TORTURE_JOBS (default 1: make -j2 check runs
# another test beside it, and solve.sh times its time limits).
. "$(dirname "$0")/../setup.sh"

count=${TORTURE_COUNT:-5000}
seed=${TORTURE_SEED:-16}
sample=${TORTURE_SAMPLE:-25}
jobs=${TORTURE_JOBS:-1}
per=100
mutate=$top_builddir/torture-mutate
if [ ! -x "$mutate" ]; then
	echo "error: $mutate not built" >&2
	exit 99
fi

# The programs themselves, not libtool's wrapper scripts (a shell each).
bindir=$(dirname "$SHARDLP")
if [ -x "$bindir/.libs/shardlp" ] && [ -x "$bindir/.libs/shardlp-opt" ]; then
	SHARDLP=$bindir/.libs/shardlp
	SHARDLP_OPT=$bindir/.libs/shardlp-opt
	LD_LIBRARY_PATH=$bindir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
# The sanitizers report, the exit status alone says nothing about them.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export ASAN_OPTIONS SHARDLP SHARDLP_OPT

m=$tmp/mutants
x=$tmp/xml
f=$tmp/failures
mkdir -p "$m" "$x" "$f"
start=$(date +%s)
"$mutate" "$seed" "$count" "$per" "$m" "$data"/*.mlir
nxml=$((count / sample))
"$mutate" "$seed" "$nxml" "$nxml" "$x" "$data/mesh-4x2.xml"

# check NAME OK-STATUSES CMD...: runs CMD under a time limit; records a
# failure in $f unless it exited with one of OK-STATUSES and said nothing
# a sanitizer says.
check() {
	_name=$1 _ok=$2
	shift 2
	_err=$(mktemp "$f/.err.XXXXXX")
	timeout -k 5 60 "$@" >/dev/null 2>"$_err"
	_rc=$?
	_why=
	case " $_ok " in
	*" $_rc "*) ;;
	*) _why="exit $_rc" ;;
	esac
	[ "$_rc" -eq 124 ] && _why="time-out"
	if grep -Eq 'runtime error:|AddressSanitizer|LeakSanitizer|SUMMARY: .*Sanitizer' "$_err"; then
		_why="${_why:+$_why, }sanitizer report"
	fi
	if [ -n "$_why" ]; then
		{
			echo "$_name: $_why: $*"
			grep -E -m 5 'runtime error:|Sanitizer|ERROR' "$_err"
		} >"$f/$(basename "$_name")"
	fi
	rm -f "$_err"
}

# xml I: solve with mutant I of the mesh description (3: a mutated HBM or
# memory budget may leave no feasible sharding, which is an answer)
xml() {
	_p=$(printf '%s/m%05d.mlir' "$x" "$1")
	check "x$1-solve" "0 1 3" "$SHARDLP" solve --time-limit 1 --mesh-xml "$_p" \
		"$data/mlp.mlir"
}

# batch B: mutants B*per .. B*per+per-1
batch() {
	_b=$1
	_first=$((10#$_b * per))
	check "b$_b-opt" "0 1" "$SHARDLP_OPT" -split-input-file \
		-sdy-propagation-pipeline "$m/b$_b.mlir"
	_files=
	for _i in $(seq "$_first" $((_first + per - 1))); do
		_p=$(printf '%s/m%05d.mlir' "$m" "$_i")
		[ -f "$_p" ] || continue
		_files="$_files $_p"
		if [ $((_i % sample)) -eq 0 ]; then
			check "m$_i-propagate" "0 1" "$SHARDLP" propagate "$_p"
			check "m$_i-solve" "0 1 3" "$SHARDLP" solve --time-limit 1 "$_p"
			check "m$_i-compare" "0 1 3" "$SHARDLP" compare --time-limit 1 "$_p"
		fi
	done
	# shellcheck disable=SC2086
	check "b$_b-verify" "0 1" "$SHARDLP" verify -q $_files
}
export -f check batch xml
export m x f per sample data

ls "$m" | sed -n 's/^b\([0-9]*\)\.mlir$/\1/p' | xargs -P "$jobs" -n 1 bash -c 'batch "$1"' _
seq 0 $((nxml - 1)) | xargs -P "$jobs" -n 1 bash -c 'xml "$1"' _

took=$(($(date +%s) - start))
nfail=$(find "$f" -type f ! -name '.err.*' | wc -l)
checks=$((checks + 1))
if [ "$nfail" -eq 0 ]; then
	pass "$count mutants and $nxml XML mutants (seed $seed) in $took s: no crash, no sanitizer report, no time-out"
else
	failures=$((failures + 1))
	echo "FAIL: $nfail runs failed on $count mutants (seed $seed, $took s):"
	find "$f" -type f ! -name '.err.*' | sort | head -20 | xargs cat
	if [ -n "${TORTURE_KEEP:-}" ]; then
		mkdir -p "$TORTURE_KEEP"
		cp -r "$m" "$f" "$TORTURE_KEEP"/
	fi
fi
finish
