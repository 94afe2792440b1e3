#!/bin/bash
# Fault injection for every command that writes: a full disk (/dev/full),
# an output directory that cannot be written, an output that is one of the
# inputs, and SIGTERM while the output is being made.  Each must end in a
# non-zero exit with a message, the old file intact and no temporary left
# (issue 16, B8 and B9).
. "$(dirname "$0")/../setup.sh"

mlp=$data/mlp.mlir

# expect_failed_write WHAT: the last run exited 1 and said it could not write.
expect_failed_write() {
	expect_rc 1 "$1"
	expect_grep "$tmp/err" 'cannot write|write error|cannot open' "$1: says so"
}

# --- ENOSPC: standard output on a full disk -------------------------------
for args in "verify $mlp" "print $mlp" "propagate $mlp" "rules $mlp" \
	"solve $mlp" "solve --format xml $mlp" "compare $mlp" \
	"gen transformer --layers 1" "help solve" "--help" "--version"; do
	set +e
	# shellcheck disable=SC2086
	"$SHARDLP" $args >/dev/full 2>"$tmp/err"
	rc=$?
	set -e
	expect_failed_write "shardlp $args >/dev/full"
done
set +e
"$SHARDLP_OPT" -sdy-propagation-pipeline "$mlp" >/dev/full 2>"$tmp/err"
rc=$?
set -e
expect_failed_write "shardlp-opt >/dev/full"
for a in --help --version; do
	set +e
	"$SHARDLP_OPT" $a >/dev/full 2>"$tmp/err"
	rc=$?
	set -e
	expect_failed_write "shardlp-opt $a >/dev/full"
done

# --- ENOSPC: output files on a full disk -----------------------------------
for args in "print -o /dev/full $mlp" "propagate -o /dev/full $mlp" \
	"solve -o /dev/full $mlp" "solve --write-lp /dev/full -o - $mlp" \
	"solve --write-mps /dev/full -o - $mlp" "solve --log /dev/full -o - $mlp" \
	"gen transformer --layers 1 -o /dev/full"; do
	# shellcheck disable=SC2086
	run "$SHARDLP" $args
	expect_failed_write "shardlp $args"
done
run "$SHARDLP_OPT" -sdy-propagation-pipeline -o /dev/full "$mlp"
expect_failed_write "shardlp-opt -o /dev/full"

# a device is written in place, never replaced by a renamed file
run "$SHARDLP" solve -o /dev/null --write-lp /dev/null "$mlp"
expect_rc 0 "solve -o /dev/null"
checks=$((checks + 1))
if [ -c /dev/null ] && [ -c /dev/full ]; then
	pass "/dev/null and /dev/full are still devices"
else
	fail "a device was replaced by a file"
fi

# --- unwritable output directory: refused before any work ------------------
: >"$tmp/plain"
for args in "solve -o $tmp/plain/out.mlir" "solve --write-lp $tmp/plain/m.lp" \
	"solve --log $tmp/plain/log" "propagate -o $tmp/plain/out.mlir" \
	"solve -o $tmp/missing/out.mlir"; do
	# shellcheck disable=SC2086
	run "$SHARDLP" $args "$mlp"
	expect_failed_write "shardlp $args"
	checks=$((checks + 1))
	if grep -q 'optimal\|feasible' "$tmp/err"; then
		fail "shardlp $args: solved before finding the output unwritable"
	else
		pass "shardlp $args: refused before the work"
	fi
done
for args in "print -o $tmp/plain/out.mlir $mlp" "gen transformer -o $tmp/plain/t.mlir"; do
	# shellcheck disable=SC2086
	run "$SHARDLP" $args
	expect_failed_write "shardlp $args"
done
run "$SHARDLP_OPT" -sdy-propagation-pipeline -o "$tmp/plain/out.mlir" "$mlp"
expect_failed_write "shardlp-opt -o into a file"
run "$SHARDLP" propagate --dump-dir "$tmp/plain" "$mlp"
expect_rc 1 "propagate --dump-dir naming a file"
expect_grep "$tmp/err" "cannot write into '$tmp/plain'" "--dump-dir: says so"
run "$SHARDLP" propagate --dump-dir "$tmp/missing" "$mlp"
expect_rc 1 "propagate --dump-dir missing"
if [ "$(id -u)" -ne 0 ]; then
	# permissions bind only a user other than root
	mkdir "$tmp/ro"
	chmod 555 "$tmp/ro"
	run "$SHARDLP" solve -o "$tmp/ro/out.mlir" "$mlp"
	expect_failed_write "solve -o into a read-only directory"
	run "$SHARDLP" propagate --dump-dir "$tmp/ro" "$mlp"
	expect_rc 1 "propagate --dump-dir read-only"
	chmod 755 "$tmp/ro"
fi

# --- an input is never overwritten -----------------------------------------
cp "$mlp" "$tmp/in.mlir"
for args in "solve --write-lp IN" "solve --write-mps IN" "solve --log IN" \
	"solve -o IN" "propagate -o IN" "print -o IN"; do
	# shellcheck disable=SC2086
	run "$SHARDLP" ${args/IN/$tmp/in.mlir} "$tmp/in.mlir"
	expect_rc 1 "shardlp $args: refused"
	expect_grep "$tmp/err" 'it is an input file' "shardlp $args: says why"
	checks=$((checks + 1))
	if cmp -s "$mlp" "$tmp/in.mlir"; then
		pass "shardlp $args: input intact"
	else
		fail "shardlp $args: input overwritten"
		cp "$mlp" "$tmp/in.mlir"
	fi
done
cp "$data/mesh-4x2.xml" "$tmp/mesh.xml"
run "$SHARDLP" solve --mesh-xml "$tmp/mesh.xml" -o "$tmp/mesh.xml" "$mlp"
expect_rc 1 "solve -o its --mesh-xml: refused"
cmp -s "$data/mesh-4x2.xml" "$tmp/mesh.xml" && pass "--mesh-xml intact" || fail "--mesh-xml overwritten"
checks=$((checks + 1))
ln -s "$tmp/in.mlir" "$tmp/link.mlir"
run "$SHARDLP_OPT" -sdy-propagation-pipeline -o "$tmp/link.mlir" "$tmp/in.mlir"
expect_rc 1 "shardlp-opt -o a link to its input: refused"
cmp -s "$mlp" "$tmp/in.mlir" && pass "shardlp-opt: input intact" || fail "shardlp-opt: input overwritten"
checks=$((checks + 1))

# --- SIGTERM while working or writing: old file intact, no temporary -------
# no_stray DIR WHAT: DIR holds only old.mlir, old.log and big.mlir (no
# temporary left; a pattern such as old.* would hide old.mlir's own)
no_stray() {
	checks=$((checks + 1))
	_stray=$(find "$1" -type f ! -name old.mlir ! -name old.log ! -name big.mlir | head -3)
	if [ -z "$_stray" ]; then
		pass "$2: no temporary left"
	else
		fail "$2: left $_stray"
	fi
}

# intact FILE REF WHAT: FILE still holds "old", or all of REF
intact() {
	checks=$((checks + 1))
	if [ "$(cat "$1")" = old ] || { [ -n "$2" ] && cmp -s "$1" "$2"; }; then
		pass "$3: $(basename "$1") old or complete"
	else
		fail "$3: $(basename "$1") neither old nor complete"
	fi
}

w=$tmp/w
mkdir "$w"
"$SHARDLP" gen transformer --layers 24 -o "$w/big.mlir"
# a long solve: the log is open from the start, -o at the end
echo old >"$w/old.log"
echo old >"$w/old.mlir"
"$SHARDLP" solve --no-decompose --time-limit 60 --log "$w/old.log" \
	-o "$w/old.mlir" "$w/big.mlir" 2>/dev/null &
pid=$!
sleep 1
kill -TERM "$pid"
set +e
wait "$pid"
rc=$?
set -e
expect_rc 143 "solve killed by SIGTERM"
intact "$w/old.mlir" "" "solve, SIGTERM"
intact "$w/old.log" "" "solve, SIGTERM"
no_stray "$w" "solve, SIGTERM"

# printing a large program, killed at several moments
r=$tmp/ref
mkdir "$r"
"$SHARDLP" print "$w/big.mlir" >"$r/print"
"$SHARDLP" propagate "$w/big.mlir" >"$r/propagate"
"$SHARDLP_OPT" -sdy-propagation-pipeline "$w/big.mlir" >"$r/opt"
"$SHARDLP" gen transformer --layers 10000 -o "$r/gen"
for delay in 0.05 0.1 0.2 0.3 0.5; do
	for cmd in print propagate; do
		echo old >"$w/old.mlir"
		"$SHARDLP" $cmd -o "$w/old.mlir" "$w/big.mlir" 2>/dev/null &
		pid=$!
		sleep $delay
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" || true
		intact "$w/old.mlir" "$r/$cmd" "$cmd, SIGTERM after $delay s"
		no_stray "$w" "$cmd, SIGTERM after $delay s"
	done
	echo old >"$w/old.mlir"
	"$SHARDLP" gen transformer --layers 10000 -o "$w/old.mlir" &
	pid=$!
	sleep $delay
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || true
	intact "$w/old.mlir" "$r/gen" "gen, SIGTERM after $delay s"
	no_stray "$w" "gen, SIGTERM after $delay s"
	echo old >"$w/old.mlir"
	"$SHARDLP_OPT" -sdy-propagation-pipeline -o "$w/old.mlir" "$w/big.mlir" 2>/dev/null &
	pid=$!
	sleep $delay
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || true
	intact "$w/old.mlir" "$r/opt" "shardlp-opt, SIGTERM after $delay s"
	no_stray "$w" "shardlp-opt, SIGTERM after $delay s"
done

finish
