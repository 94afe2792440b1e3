#!/bin/bash
# corpus.sh - every program of ../shared/corpus (JAX exports, StableHLO
# testdata, a Shardy consumer's tests) parses, verifies and round-trips:
# print, parse, print gives the same text.  Skipped (77) without the corpus.
. "$(dirname "$0")/setup.sh"

corpus=${SHARDLP_CORPUS:-$top_srcdir/../shared/corpus}
if [ ! -d "$corpus" ]; then
	echo "skip: no corpus at $corpus"
	exit 77
fi

n=0
for f in "$corpus"/*/*.mlir; do
	n=$((n + 1))
	split=
	if grep -q '^// -----' "$f"; then
		split=-split-input-file
	fi
	run "$SHARDLP_OPT" $split "$f"
	if [ "$rc" -ne 0 ]; then
		checks=$((checks + 1))
		fail "$f: parse or verify (exit $rc)"
		continue
	fi
	cp "$tmp/out" "$tmp/first.mlir"
	run "$SHARDLP_OPT" $split "$tmp/first.mlir"
	checks=$((checks + 1))
	if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/first.mlir"; then
		fail "$f: print-parse-print is not stable"
	fi
done
echo "$n corpus files"
checks=$((checks + 1))
[ "$n" -gt 600 ] || fail "expected more than 600 corpus files, found $n"
finish
