#!/bin/bash
# conformance-check.sh LIST TSV - holds a run of Shardy's conformance cases
# (TSV: run-conformance --tsv, one row per case: case, status, ...) against
# LIST, the ids of the cases that passed before (tests/conformance-pass.txt,
# one per line, sorted).  Every listed case must pass again: each one that
# does not is printed as "REGRESSED id (status)" and the exit status is 1.
# Cases that pass but are not listed are printed as "NEW PASS id", so the
# list can grow (add them to LIST).  Exit 2 when a file cannot be read.
set -u
list=$1
tsv=$2
for f in "$list" "$tsv"; do
	if [ ! -r "$f" ]; then
		echo "conformance-check: cannot read '$f'" >&2
		exit 2
	fi
done
awk -F'\t' '
	FNR == NR { if ($0 != "" && $0 !~ /^#/) { listed[$0] = 1; order[++nlisted] = $0 }; next }
	FNR == 1 && $1 == "case" { next }
	{ status[$1] = $2; run[++nrun] = $1 }
	END {
		regressed = 0; new = 0
		for (i = 1; i <= nlisted; i++) {
			c = order[i]
			s = (c in status) ? status[c] : "missing from the run"
			if (s != "pass") {
				printf "REGRESSED %s (%s)\n", c, s
				regressed++
			}
		}
		for (i = 1; i <= nrun; i++)
			if (status[run[i]] == "pass" && !(run[i] in listed)) {
				printf "NEW PASS %s (add it to the list)\n", run[i]
				new++
			}
		printf "conformance list: %d listed, %d still pass, %d regressed, %d newly pass\n",
		       nlisted, nlisted - regressed, regressed, new
		exit regressed > 0
	}' "$list" "$tsv"
