#!/bin/bash
# "-" is standard input or output for every file argument (and never a
# file named "-"), outputs to files are complete or absent, and `solve`
# and `compare` take glpsol's option names (--tmlim, --mipgap, --wlp,
# --wmps, --log) with the same effect as their long forms.
. "$(dirname "$0")/../setup.sh"

mkdir "$tmp/cwd"
cd "$tmp/cwd"
in=$data/attention.mlir

# no_dash WHAT: the command did not create a file named "-" (nor leave a
# temporary) in the working directory.
no_dash() {
	checks=$((checks + 1))
	if [ -e ./- ]; then
		fail "$1 created a file named '-'"
		rm -f ./-
	elif [ -n "$(ls -A)" ]; then
		fail "$1 left files: $(ls -A | tr '\n' ' ')"
		rm -f ./*
	else
		pass "$1 created no file"
	fi
}

# alias_same WHAT FILE1 FILE2: the two files are equal.
alias_same() {
	checks=$((checks + 1))
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1: outputs differ"
	fi
}

# -o - writes the module on stdout
"$SHARDLP" print -o "$tmp/ref.mlir" "$in"
run "$SHARDLP" print -o - "$in"
expect_rc 0 "print -o -"
expect_grep "$tmp/out" '^module' "print -o - prints the module on stdout"
no_dash "print -o -"
alias_same "print -o - prints what -o FILE writes" "$tmp/out" "$tmp/ref.mlir"
run_in "$in" "$SHARDLP" print -
expect_rc 0 "print - reads stdin"
alias_same "print - prints what print FILE prints" "$tmp/out" "$tmp/ref.mlir"

run "$SHARDLP" propagate -o - "$in"
expect_rc 0 "propagate -o -"
expect_grep "$tmp/out" '^module' "propagate -o - prints the module on stdout"
no_dash "propagate -o -"

run "$SHARDLP" solve -q -o - "$in"
expect_rc 0 "solve -o -"
expect_grep "$tmp/out" 'sdy\.sharding_per_value' "solve -o - prints the solved module"
no_dash "solve -o -"
cp "$tmp/out" "$tmp/solved.mlir"
run_in "$in" "$SHARDLP" solve -q --output=- -
expect_rc 0 "solve --output=- -"
alias_same "solve from stdin gives the same module" "$tmp/out" "$tmp/solved.mlir"

run "$SHARDLP" solve -q --write-lp - -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --write-lp -"
expect_grep "$tmp/out" '^Minimize' "the LP model on stdout"
no_dash "solve --write-lp -"
run "$SHARDLP" solve -q --write-mps - -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --write-mps -"
expect_grep "$tmp/out" '^ROWS' "the MPS model on stdout"
no_dash "solve --write-mps -"

run "$SHARDLP" gen transformer -o -
expect_rc 0 "gen -o -"
expect_grep "$tmp/out" '^module' "gen -o - prints the module"
no_dash "gen -o -"

run "$SHARDLP_OPT" -o - "$in"
expect_rc 0 "shardlp-opt -o -"
expect_grep "$tmp/out" '^module' "shardlp-opt -o - prints the module"
no_dash "shardlp-opt -o -"

# a file output is whole or absent: no temporary is left beside it
run "$SHARDLP" solve -q --write-lp lp -o out.mlir "$in"
expect_rc 0 "solve to files"
checks=$((checks + 1))
if [ "$(ls -A | tr '\n' ' ')" = "lp out.mlir " ]; then
	pass "only the named files are written"
else
	fail "files written: $(ls -A | tr '\n' ' ')"
fi
rm -f ./*
# replaced by rename (a new inode), with the mode fopen gives
echo old >out.mlir
i0=$(ls -i out.mlir | awk '{ print $1 }')
(umask 022 && "$SHARDLP" gen transformer -o out.mlir)
checks=$((checks + 1))
if [ "$(ls -i out.mlir | awk '{ print $1 }')" != "$i0" ] &&
	[ "$(stat -c %a out.mlir)" = 644 ] && grep -q '^module' out.mlir; then
	pass "gen -o FILE replaces FILE by a rename"
else
	fail "gen -o FILE: same inode, wrong mode or content"
fi
rm -f ./*

# an input of "-" is stdin, --mesh-xml's too
run_in "$data/mesh-4x2.xml" "$SHARDLP" solve -q --mesh-xml - -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --mesh-xml - reads stdin"

# glpsol's names give the same result as the long forms
"$SHARDLP" solve -q --time-limit 60 -o "$tmp/a.mlir" "$in"
run "$SHARDLP" solve -q --tmlim 60 -o "$tmp/b.mlir" "$in"
expect_rc 0 "solve --tmlim"
alias_same "--tmlim = --time-limit" "$tmp/a.mlir" "$tmp/b.mlir"
"$SHARDLP" solve -q --gap 0.5 -o "$tmp/a.mlir" "$in"
run "$SHARDLP" solve -q --mipgap 0.5 -o "$tmp/b.mlir" "$in"
expect_rc 0 "solve --mipgap"
alias_same "--mipgap = --gap" "$tmp/a.mlir" "$tmp/b.mlir"
"$SHARDLP" solve -q --write-lp "$tmp/a.lp" -o "$tmp/s.mlir" "$in"
run "$SHARDLP" solve -q --wlp "$tmp/b.lp" -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --wlp"
alias_same "--wlp = --write-lp" "$tmp/a.lp" "$tmp/b.lp"
"$SHARDLP" solve -q --write-mps "$tmp/a.mps" -o "$tmp/s.mlir" "$in"
run "$SHARDLP" solve -q --wmps "$tmp/b.mps" -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --wmps"
alias_same "--wmps = --write-mps" "$tmp/a.mps" "$tmp/b.mps"
"$SHARDLP" solve -q --verbose -o "$tmp/s.mlir" "$in" 2>"$tmp/a.log"
run "$SHARDLP" solve -q --log "$tmp/b.log" -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --log FILE"
expect_empty "$tmp/err" "--log FILE writes no log on stderr"
expect_nonempty "$tmp/b.log" "--log FILE writes the log"
alias_same "--log FILE holds what --verbose prints" "$tmp/a.log" "$tmp/b.log"
run "$SHARDLP" solve -q --log - -o "$tmp/s.mlir" "$in"
expect_rc 0 "solve --log -"
alias_same "--log - prints the log on stdout" "$tmp/a.log" "$tmp/out"
no_dash "solve --log -"

# compare has --time-limit only; the seconds column is left out
"$SHARDLP" compare --csv --time-limit 60 "$in" | cut -d, -f1-9 >"$tmp/a.csv"
run "$SHARDLP" compare --csv --tmlim 60 "$in"
expect_rc 0 "compare --tmlim"
cut -d, -f1-9 "$tmp/out" >"$tmp/b.csv"
alias_same "compare --tmlim = --time-limit" "$tmp/a.csv" "$tmp/b.csv"

finish
