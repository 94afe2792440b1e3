#!/bin/bash
# Help, version and command dispatch of shardlp and shardlp-opt.
. "$(dirname "$0")/../setup.sh"

run "$SHARDLP" --help
expect_rc 0 "shardlp --help"
expect_grep "$tmp/out" '^[[:space:]]+verify' "--help lists verify"
expect_grep "$tmp/out" '^[[:space:]]+print' "--help lists print"
expect_grep "$tmp/out" '^[[:space:]]+gen' "--help lists gen"
expect_empty "$tmp/err" "--help writes nothing on stderr"

run "$SHARDLP" -h
expect_rc 0 "shardlp -h"

run "$SHARDLP" --version
expect_rc 0 "shardlp --version"
expect_grep "$tmp/out" '[0-9]+\.[0-9]+\.[0-9]+' "--version prints a version"

run "$SHARDLP" help verify
expect_rc 0 "shardlp help verify"
expect_grep "$tmp/out" 'verify' "help verify describes verify"

run "$SHARDLP" help x
expect_rc 2 "shardlp help x"
expect_line "$tmp/err" "shardlp: unknown command 'x'" "help x: message"

run "$SHARDLP" x
expect_rc 2 "shardlp x"
expect_line "$tmp/err" "shardlp: unknown command 'x'" "unknown command message"

run "$SHARDLP"
expect_rc 2 "shardlp without a command"
expect_nonempty "$tmp/err" "shardlp without a command: usage on stderr"

run "$SHARDLP" --no-such-option
expect_rc 2 "shardlp --no-such-option"

# Every command's own --help goes to stdout with status 0.
cmds=$(list_commands)
checks=$((checks + 1))
if [ -n "$cmds" ]; then
	pass "commands found in --help: $(echo $cmds)"
else
	fail "no commands found in shardlp --help"
fi
for c in $cmds; do
	[ "$c" = help ] && continue
	run "$SHARDLP" "$c" --help
	expect_rc 0 "shardlp $c --help"
	expect_nonempty "$tmp/out" "shardlp $c --help prints usage"
done

run "$SHARDLP_OPT" --help
expect_rc 0 "shardlp-opt --help"
expect_grep "$tmp/out" 'split-input-file' "shardlp-opt --help lists -split-input-file"
expect_grep "$tmp/out" 'verify-diagnostics' "shardlp-opt --help lists -verify-diagnostics"

run "$SHARDLP_OPT" --version
expect_rc 0 "shardlp-opt --version"

finish
