#!/bin/bash
# man-lint.sh - the manual pages (man/*.[1-9]) are clean mdoc, and
# shardlp.1 documents every command `shardlp --help` lists.  Without mandoc
# and groff the lint part is skipped (77) unless the command check fails.
. "$(dirname "$0")/setup.sh"

man=$top_srcdir/man
pages=$(ls "$man"/*.[1-9])
linted=0

MANDOC=${MANDOC:-$(command -v mandoc || :)}
if [ -n "$MANDOC" ] && [ -x "$MANDOC" ]; then
	for p in $pages; do
		checks=$((checks + 1))
		# -W warning: plain -T lint also fails on style notes.
		if "$MANDOC" -T lint -W warning "$p" >"$tmp/lint" 2>&1 && [ ! -s "$tmp/lint" ]; then
			pass "mandoc -T lint $(basename "$p")"
		else
			cp "$tmp/lint" "$tmp/err"
			fail "mandoc -T lint $(basename "$p")"
		fi
	done
	linted=1
elif command -v groff >/dev/null 2>&1; then
	for p in $pages; do
		checks=$((checks + 1))
		# groff exits 0 on warnings: any stderr output is a failure.
		groff -mandoc -ww -z "$p" 2>"$tmp/lint" || echo "groff failed" >>"$tmp/lint"
		if [ -s "$tmp/lint" ]; then
			cp "$tmp/lint" "$tmp/err"
			fail "groff -ww $(basename "$p")"
		else
			pass "groff -ww $(basename "$p")"
		fi
	done
	linted=1
fi

cmds=$(list_commands)
checks=$((checks + 1))
if [ -n "$cmds" ]; then
	pass "shardlp --help lists commands"
else
	fail "no commands found in shardlp --help"
fi
sed -n '/^\.Sh SYNOPSIS/,/^\.Sh [^S]/p' "$man/shardlp.1" >"$tmp/synopsis"
for c in $cmds; do
	# Each command has its SYNOPSIS entry (`.Cm name`) and its entry in
	# the command list (`.It Cm name`).
	checks=$((checks + 1))
	if grep -Eq "^\\.Cm $c( |\$)" "$tmp/synopsis"; then
		pass "shardlp.1's SYNOPSIS has '$c'"
	else
		fail "shardlp.1's SYNOPSIS lacks command '$c' (no '.Cm $c' line)"
	fi
	checks=$((checks + 1))
	if grep -Eq "^\\.It Cm $c( |\$)" "$man/shardlp.1"; then
		pass "shardlp.1 describes '$c'"
	else
		fail "shardlp.1 does not describe command '$c' (no '.It Cm $c' line)"
	fi
done

if [ "$linted" -eq 0 ]; then
	echo "neither mandoc nor groff found: man pages not linted"
	[ "$failures" -eq 0 ] && exit 77
fi
finish
