#!/bin/bash
# export_corpus.sh - Shardy's export pipeline on real programs (issue 13):
#
#   - every program of ../shared/corpus that -sdy-propagation-pipeline
#     takes (exit 0) goes through -sdy-export-pipeline, plain and with
#     enable-insert-explicit-collectives; each run exits 0 and its output
#     verifies (shardlp-opt reads it back with no pass);
#   - every case of ../shared/conformance/cases that -sdy-export-pipeline
#     accepts (exit 0, plain and with collectives) gives an output that
#     verifies.
#
# A part whose folder is missing is skipped; with neither, the test is
# (77).  Prints how many programs propagated and were exported, and how
# many cases were accepted.
. "$(dirname "$0")/../setup.sh"

corpus=${SHARDLP_CORPUS:-$top_srcdir/../shared/corpus}
cases=${SHARDLP_CASES:-$top_srcdir/../shared/conformance/cases}
if [ ! -d "$corpus" ] && [ ! -d "$cases" ]; then
	echo "skip: no corpus at $corpus, no cases at $cases"
	exit 77
fi

export_flags=(
	"-sdy-export-pipeline"
	"-sdy-export-pipeline=enable-insert-explicit-collectives=true"
)

# split_of FILE: the flag that splits FILE into its modules, if it has several
split_of() {
	if grep -q '^// -----' "$1"; then
		echo -split-input-file
	fi
}

# verified WHAT: $tmp/out (an output) reads back and verifies, else a failure
verified() {
	cp "$tmp/out" "$tmp/exported.mlir"
	run "$SHARDLP_OPT" $split "$tmp/exported.mlir"
	checks=$((checks + 1))
	if [ "$rc" -ne 0 ]; then
		fail "$1: the output does not verify: $(head -n 1 "$tmp/err")"
	fi
}

programs=0
propagated=0
if [ -d "$corpus" ]; then
	for f in "$corpus"/*/*.mlir; do
		programs=$((programs + 1))
		split=$(split_of "$f")
		run "$SHARDLP_OPT" $split -sdy-propagation-pipeline "$f"
		[ "$rc" -eq 0 ] || continue
		propagated=$((propagated + 1))
		cp "$tmp/out" "$tmp/propagated.mlir"
		for flag in "${export_flags[@]}"; do
			run "$SHARDLP_OPT" $split "$flag" "$tmp/propagated.mlir"
			checks=$((checks + 1))
			if [ "$rc" -ne 0 ]; then
				fail "$f: $flag exits $rc: $(head -n 1 "$tmp/err")"
				continue
			fi
			verified "$f: $flag"
		done
	done
	echo "corpus: $propagated of $programs programs propagate; each exported twice"
fi

ncases=0
accepted=0
if [ -d "$cases" ]; then
	for f in "$cases"/*/*.mlir; do
		ncases=$((ncases + 1))
		split=$(split_of "$f")
		for flag in "${export_flags[@]}"; do
			run "$SHARDLP_OPT" $split "$flag" "$f"
			[ "$rc" -eq 0 ] || continue
			accepted=$((accepted + 1))
			verified "$f: $flag"
		done
	done
	echo "cases: $accepted runs of $((2 * ncases)) accepted (2 per case)"
fi
finish
