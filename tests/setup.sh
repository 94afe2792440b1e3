# setup.sh - sourced by every shell test (tests/cli, tests/golden,
# tests/man-lint.sh): strict mode, C locale, a temporary directory removed
# on exit, the program paths, and small assertion helpers.
#
# Program paths come from AM_TESTS_ENVIRONMENT (tests/local.mk); run by
# hand from the build directory, the defaults below find them there.
# A test counts failed checks and calls `finish` at its end: exit 1 when any
# check failed, else 0.

set -eu
LC_ALL=C
export LC_ALL

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && while [ ! -f configure.ac ] && [ "$PWD" != / ]; do cd ..; done && pwd)}
top_builddir=${top_builddir:-.}
SHARDLP=${SHARDLP:-$top_builddir/shardlp}
SHARDLP_OPT=${SHARDLP_OPT:-$top_builddir/shardlp-opt}
data=$top_srcdir/data

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardlp-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

failures=0
checks=0

# run CMD...: runs CMD, stdout in $tmp/out, stderr in $tmp/err, status in $rc.
run() {
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}

# run_in FILE CMD...: as run, with FILE on standard input.
run_in() {
	_in=$1
	shift
	set +e
	"$@" <"$_in" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}

fail() {
	failures=$((failures + 1))
	echo "FAIL: $*"
	if [ -s "$tmp/err" ]; then
		echo "  stderr:"
		sed -n '1,10s/^/    /p' "$tmp/err"
	fi
}

pass() {
	echo "ok: $*"
}

# expect_rc N WHAT: the last run exited with status N.
expect_rc() {
	checks=$((checks + 1))
	if [ "$rc" -eq "$1" ]; then
		pass "$2 (exit $1)"
	else
		fail "$2: exit $rc, expected $1"
	fi
}

# expect_grep FILE ERE WHAT: some line of FILE ($tmp/out, $tmp/err) matches.
expect_grep() {
	checks=$((checks + 1))
	if grep -Eq -e "$2" "$1"; then
		pass "$3"
	else
		fail "$3: no line of $(basename "$1") matches /$2/"
	fi
}

# expect_no_grep FILE ERE WHAT: no line of FILE matches.
expect_no_grep() {
	checks=$((checks + 1))
	if grep -Eq -e "$2" "$1"; then
		fail "$3: $(grep -E -m 1 -e "$2" "$1")"
	else
		pass "$3"
	fi
}

# expect_line FILE TEXT WHAT: FILE holds the line TEXT exactly.
expect_line() {
	checks=$((checks + 1))
	if grep -Fxq -e "$2" "$1"; then
		pass "$3"
	else
		fail "$3: no line of $(basename "$1") is '$2'"
	fi
}

# expect_empty FILE WHAT
expect_empty() {
	checks=$((checks + 1))
	if [ -s "$1" ]; then
		fail "$2: $(basename "$1") is not empty"
	else
		pass "$2"
	fi
}

expect_nonempty() {
	checks=$((checks + 1))
	if [ -s "$1" ]; then
		pass "$2"
	else
		fail "$2: $(basename "$1") is empty"
	fi
}

# expect_same FILE EXPECTED WHAT: FILE holds the same bytes as EXPECTED.
expect_same() {
	checks=$((checks + 1))
	if cmp -s "$1" "$2"; then
		pass "$3"
	else
		fail "$3: $(basename "$1") differs from $(basename "$2"): $(diff "$2" "$1" | head -5)"
	fi
}

# list_commands: the subcommands `shardlp --help` lists, one per line.  The
# help lists them after a line ending in "commands:", one per line,
# indented, name first; a blank or unindented line ends the list.
list_commands() {
	"$SHARDLP" --help | awk '
		tolower($0) ~ /commands:[ \t]*$/ { inlist = 1; next }
		inlist && /^[ \t]+[a-z][a-z0-9_-]*/ { print $1; next }
		inlist { inlist = 0 }'
}

finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
}

# The programs must exist; a missing one is a hard error (99), not a skip.
for _p in "$SHARDLP" "$SHARDLP_OPT"; do
	if [ ! -x "$_p" ]; then
		echo "error: $_p not built" >&2
		exit 99
	fi
done

# mask_timed CSV: a batch summary with the columns that vary between runs
# (seconds, peak_rss_kb) read "*", found by their header names.
mask_timed() {
	python3 -c '
import csv, sys
rows = csv.reader(open(sys.argv[1], newline=""))
head = next(rows)
print(",".join(head))
timed = [head.index("seconds"), head.index("peak_rss_kb")]
for r in rows:
    for k in timed:
        r[k] = "*"
    print(",".join(r))' "$1"
}
