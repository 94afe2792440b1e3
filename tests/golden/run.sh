#!/bin/bash
# run.sh - golden tests: each tests/golden/*.mlir is one case (names
# starting with `_` are manual-only and skipped unless named on the command
# line).  A case is MLIR input followed by comment blocks:
#
#   // FLAGS: -sdy-basic-propagate     shardlp-opt flags (default: none)
#   // SHARDLP: compare --csv          run `shardlp compare --csv` instead
#                                      of shardlp-opt; wall-clock fields
#                                      (the last CSV column, XML seconds=)
#                                      read "*"
#   // INPUT: data/mlp.mlir            input relative to the source tree
#                                      (default: the case file itself)
#   // EXIT: 1                         expected exit status (default 0)
#   // EXPECT:                         expected stdout, each line
#   // module {                        prefixed by "// " (or "//" alone
#   // ...                             for an empty line); the block ends
#   //                                 at the first line not starting
#   // EXPECT-STDERR:                  with "//"; stderr likewise, with
#   // case.mlir:3:5: error: ...       paths relative to the input's folder
#
# shardlp-opt runs in the input's folder on its base name, so diagnostics
# read `case.mlir:L:C: error: ...`.  Only the diagnostic lines of stderr
# are compared: source and caret lines and MLIR's "see current operation"
# notes are dropped.  With no FLAGS and exit 0, printing the
# expected output again must give it back (print, parse, print is stable).
. "$(dirname "$0")/../setup.sh"

golden=$top_srcdir/tests/golden

# block FILE MARKER: the lines of the MARKER block of FILE, unprefixed.
block() {
	awk -v m="// $2:" '
		$0 == m { on = 1; found = 1; next }
		on && /^\/\/ / { print substr($0, 4); next }
		on && /^\/\/$/ { print ""; next }
		{ on = 0 }
		END { exit !found }' "$1"
}

# directive FILE NAME: the value of `// NAME: value`, or empty.
directive() {
	sed -n "s|^// $2: *||p" "$1" | head -n 1
}

# opt DIR FILE FLAGS...: runs shardlp-opt in DIR; output in $tmp/out, $tmp/err.
opt() {
	_dir=$1 _file=$2
	shift 2
	set +e
	(cd "$_dir" && "$SHARDLP_OPT" "$@" "$_file") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}

# shardlp DIR FILE ARGS...: runs shardlp ARGS FILE as opt runs shardlp-opt,
# the wall-clock fields of its output masked.
shardlp() {
	_dir=$1 _file=$2
	shift 2
	set +e
	(cd "$_dir" && "$SHARDLP" "$@" "$_file") 2>"$tmp/err" |
		sed -E -e '/^([^,]*,){9,}[^,]*$/s/,[0-9][0-9.e+-]*$/,*/' -e 's/ seconds="[^"]*"/ seconds="*"/' >"$tmp/out"
	rc=${PIPESTATUS[0]}
	set -e
}

check_case() {
	case_file=$1
	name=$(basename "$case_file" .mlir)
	flags=$(directive "$case_file" FLAGS)
	sub=$(directive "$case_file" SHARDLP)
	input=$(directive "$case_file" INPUT)
	want_rc=$(directive "$case_file" EXIT)
	want_rc=${want_rc:-0}
	[ -n "$input" ] && input=$top_srcdir/$input || input=$case_file
	block "$case_file" EXPECT >"$tmp/want.out" || : >"$tmp/want.out"
	has_err=0
	block "$case_file" EXPECT-STDERR >"$tmp/want.err" && has_err=1

	# shellcheck disable=SC2086
	if [ -n "$sub" ]; then
		shardlp "$(dirname "$input")" "$(basename "$input")" $sub
	else
		opt "$(dirname "$input")" "$(basename "$input")" $flags
	fi
	checks=$((checks + 1))
	if [ "$rc" -ne "$want_rc" ]; then
		fail "$name: exit $rc, expected $want_rc"
		return
	fi
	if ! diff -u "$tmp/want.out" "$tmp/out" >"$tmp/diff"; then
		fail "$name: stdout differs"
		sed 's/^/    /' "$tmp/diff" | head -n 40
		return
	fi
	grep -E '^[^ ]*:[0-9]+(:[0-9]+)?: (error|warning|remark|note): ' "$tmp/err" |
		grep -v ': note: see current operation' >"$tmp/diags" || :
	if [ "$has_err" -eq 1 ] && ! diff -u "$tmp/want.err" "$tmp/diags" >"$tmp/diff"; then
		fail "$name: stderr differs"
		sed 's/^/    /' "$tmp/diff" | head -n 40
		return
	fi
	if [ -z "$flags" ] && [ -z "$sub" ] && [ "$want_rc" -eq 0 ]; then
		cp "$tmp/want.out" "$tmp/again.mlir"
		opt "$tmp" again.mlir
		if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/want.out"; then
			fail "$name: printing the expected output again changes it"
			diff -u "$tmp/want.out" "$tmp/out" | sed 's/^/    /' | head -n 20
			return
		fi
	fi
	pass "$name"
}

if [ $# -gt 0 ]; then
	for f in "$@"; do
		check_case "$f"
	done
else
	for f in "$golden"/*.mlir; do
		case $(basename "$f") in
		_*) continue ;;
		esac
		check_case "$f"
	done
fi
finish
