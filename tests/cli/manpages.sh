#!/bin/bash
# manpages.sh - the man pages and --help say the same: every long option
# a command's --help lists is in shardlp.1 (as `Fl Fl name`) and every
# `Fl Fl name` of shardlp.1 is in some --help; likewise for shardlp-opt's
# options and shardlp-opt.1; and every command of the EXAMPLES sections
# runs and exits 0 (in a scratch folder beside a copy of data/, and the
# IOPDDL example instance when ../shared/iopddl is there).
. "$(dirname "$0")/../setup.sh"

man=$top_srcdir/man

# the long options of `shardlp CMD --help` (and of `shardlp --help`)
{
	"$SHARDLP" --help
	for c in $(list_commands); do
		[ "$c" = help ] || "$SHARDLP" "$c" --help
	done
} 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/help.opts"
grep -oE '^\.(It|Op|Fl).*' "$man/shardlp.1" | grep -oE 'Fl Fl [a-z][a-z0-9-]*' |
	sed 's/^Fl Fl /--/' | sort -u >"$tmp/man.opts"
checks=$((checks + 1))
missing=$(comm -23 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
if [ -z "$missing" ]; then
	pass "every option of shardlp's --help is in shardlp.1 ($(wc -l <"$tmp/help.opts"))"
else
	fail "in --help but not in shardlp.1: $missing"
fi
checks=$((checks + 1))
extra=$(comm -13 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
if [ -z "$extra" ]; then
	pass "every option of shardlp.1 is in some --help"
else
	fail "in shardlp.1 but in no --help: $extra"
fi

# shardlp-opt: its options (the lines of --help before the pass table) and
# its passes
"$SHARDLP_OPT" --help >"$tmp/opt.help"
sed -n '/^options:/,/^passes/p' "$tmp/opt.help" | grep -oE -- '(^|[ ,])--?[a-z][a-z0-9-]*' |
	sed -E 's/^[ ,]*//; s/^--?/-/' | sort -u >"$tmp/opt.opts"
sed -n '/^passes/,$p' "$tmp/opt.help" | grep -oE '^  -[a-z][a-z0-9-]*' | sed 's/^  //' |
	sort -u >"$tmp/opt.passes"
grep -oE '^\.(It|Op).*' "$man/shardlp-opt.1" | grep -oE 'Fl (Fl )?[a-z][a-z0-9-]*' |
	sed -E 's/^Fl (Fl )?/-/' | sort -u >"$tmp/optman.opts"
checks=$((checks + 1))
missing=$(comm -23 "$tmp/opt.opts" "$tmp/optman.opts" | tr '\n' ' ')
if [ -z "$missing" ]; then
	pass "every option of shardlp-opt --help is in shardlp-opt.1 ($(wc -l <"$tmp/opt.opts"))"
else
	fail "in shardlp-opt --help but not in shardlp-opt.1: $missing"
fi
checks=$((checks + 1))
# `-sdy-` stands for the pass table in the synopsis
extra=$(comm -23 "$tmp/optman.opts" <(sort -u "$tmp/opt.opts" "$tmp/opt.passes") |
	grep -vx -- '-sdy-' | tr '\n' ' ')
if [ -z "$extra" ]; then
	pass "every option of shardlp-opt.1 is an option or a pass of --help"
else
	fail "in shardlp-opt.1 but not in --help: $extra"
fi

# EXAMPLES: each `$ command` line, with shardlp and shardlp-opt this build's
mkdir -p "$tmp/ex/bin"
cp -r "$top_srcdir/data" "$tmp/ex/data"
ln -s "$SHARDLP" "$tmp/ex/bin/shardlp"
ln -s "$SHARDLP_OPT" "$tmp/ex/bin/shardlp-opt"
# the IOPDDL example instance, from ../shared beside the source tree
iopddl=${SHARDLP_IOPDDL:-$top_srcdir/../shared/iopddl}
[ -r "$iopddl/example.json" ] && ln -s "$iopddl/example.json" "$tmp/ex/example.json"
for page in shardlp.1 shardlp-opt.1; do
	awk '/^\.Sh EXAMPLES/ { on = 1; next } /^\.Sh / { on = 0 }
		on && /^\.Dl \$ / { sub(/^\.Dl \$ /, ""); print; next }
		on && /^\$ / { sub(/^\$ /, ""); print }' "$man/$page" >"$tmp/examples"
	n=0
	while IFS= read -r cmd; do
		n=$((n + 1))
		checks=$((checks + 1))
		# mdoc escapes in the literal text
		cmd=$(printf '%s' "$cmd" | sed -e 's/\\(dq/"/g' -e 's/\\-/-/g' -e 's/\\e/\\/g')
		if [[ $cmd == *example.json* ]] && [ ! -e "$tmp/ex/example.json" ]; then
			pass "$page example skipped (no ../shared/iopddl/example.json): $cmd"
			continue
		fi
		if (cd "$tmp/ex" && PATH="$tmp/ex/bin:$PATH" bash -c "$cmd") >"$tmp/out" 2>"$tmp/err"; then
			pass "$page example: $cmd"
		else
			fail "$page example exits non-zero: $cmd"
		fi
	done <"$tmp/examples"
	checks=$((checks + 1))
	if [ "$n" -gt 0 ]; then pass "$page has $n examples"; else fail "$page: no EXAMPLES commands found"; fi
done
finish
