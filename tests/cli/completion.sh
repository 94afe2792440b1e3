#!/bin/bash
# completion.sh - the bash completion (completion/shardlp) offers the
# commands, each command's options and shardlp-opt's options and passes,
# as the programs' --help lists them.
. "$(dirname "$0")/../setup.sh"

bin=$tmp/bin
mkdir -p "$bin"
ln -s "$SHARDLP" "$bin/shardlp"
ln -s "$SHARDLP_OPT" "$bin/shardlp-opt"

# complete WORD...: the completions of the last word, one per line
complete_words() {
	PATH="$bin:$PATH" bash -c '
		. "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		case $1 in
		shardlp-opt) _shardlp_opt ;;
		*) _shardlp ;;
		esac
		printf "%s\n" "${COMPREPLY[@]}"' _ "$top_srcdir/completion/shardlp" "$@"
}

# expect_completion WANT WHAT WORD...: WANT is among the completions
expect_completion() {
	want=$1 what=$2
	shift 2
	checks=$((checks + 1))
	if complete_words "$@" | grep -Fxq -- "$want"; then
		pass "$what"
	else
		fail "$what: '$want' not offered for '$*'"
	fi
}

expect_completion compare "the commands" shardlp comp
expect_completion --time-limit "an option of solve" shardlp solve --time-l
expect_completion --split-input-file "an option of compare" shardlp compare --spl
expect_completion --mesh "an auto-sharding option of propagate" shardlp propagate --me
expect_completion -sdy-basic-propagate "a pass of shardlp-opt" shardlp-opt -sdy-basic
expect_completion --pass-pipeline "an option of shardlp-opt with two dashes" shardlp-opt --pass-p
checks=$((checks + 1))
if complete_words shardlp solve --csv | grep -q .; then
	fail "solve has no --csv, yet it is offered"
else
	pass "an option of another command is not offered"
fi
finish
