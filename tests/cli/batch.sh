#!/bin/bash
# batch.sh - `shardlp batch`: one row per program, chunk and method, failed
# programs included with their located error; RFC 4180 quoting; JSON lines
# that parse; the same summary with -j 1 and -j 2; a batch stopped by
# SIGTERM exits 143 with the rows of what finished, and --resume completes
# it to the summary of an uninterrupted run; a worker killed costs only
# the program it was running.
. "$(dirname "$0")/../setup.sh"

in=$tmp/in
mkdir -p "$in/sub"
cp "$data/mlp.mlir" "$data/while.mlir" "$in/"
cp "$data/attention.mlir" "$in/sub/"
cp "$data/manual.mlir" "$in/with,comma.mlir"
echo 'func.func @main( {' >"$in/bad.mlir"
: >"$in/empty.mlir"
echo "not a program" >"$in/notes.txt"	# not *.mlir: not an input

run "$SHARDLP" batch -j 2 --json --out "$tmp/out1" "$in"
expect_rc 1 "a batch with failed programs exits 1"
expect_grep "$tmp/err" '^shardlp batch: 2 of 6 programs failed' "stderr says how many failed"
expect_line "$tmp/out1/summary.csv" "file,chunk,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds,peak_rss_kb,error" "the summary's fixed header"
checks=$((checks + 1))
rows=$(($(wc -l <"$tmp/out1/summary.csv") - 1))
if [ "$rows" -eq 30 ]; then
	pass "one row per program and method: 6 programs x 5 methods (the .txt skipped)"
else
	fail "$rows rows, expected 30"
fi
expect_grep "$tmp/out1/summary.csv" '^[^,]*/bad\.mlir,1,ilp,error,.*bad\.mlir:1:[0-9]+: ' "a bad program's rows carry its located error"
expect_grep "$tmp/out1/summary.csv" '^[^,]*/empty\.mlir,1,user-priority,error,' "an empty program has rows too"
expect_grep "$tmp/out1/summary.csv" '^"[^"]*/with,comma\.mlir",1,ilp,feasible,' "a file name with a comma is quoted (RFC 4180)"
expect_grep "$tmp/out1/summary.csv" '^[^,]*/sub/attention\.mlir,1,ilp,optimal,' "folders are searched recursively"
checks=$((checks + 1))
if python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
lines = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == len(lines) == 30
for r, j in zip(rows, lines):
    assert r["file"] == j["file"] and r["method"] == j["method"] and r["status"] == j["status"]
    assert (r["cost"] == "") == (j["cost"] is None)
' "$tmp/out1/summary.csv" "$tmp/out1/summary.jsonl"; then
	pass "the JSON lines parse and match the CSV row for row"
else
	fail "summary.jsonl does not match summary.csv"
fi
checks=$((checks + 1))
if [ -s "$(ls "$tmp"/out1/results/*mlp.mlir-*.mlir)" ] &&
   "$SHARDLP" verify -q "$(ls "$tmp"/out1/results/*mlp.mlir-*.mlir)"; then
	pass "the ILP's module of a program is written and verifies"
else
	fail "no verified results/ID.mlir for mlp.mlir"
fi

checks=$((checks + 1))
if grep -q 'bad\.mlir:1:[0-9]*: error' "$tmp"/out1/results/*bad.mlir-*.log &&
   ! ls "$tmp"/out1/results/*mlp.mlir-*.log >/dev/null 2>&1 &&
   [ -z "$(find "$tmp/out1/results" -name '.worker*' -o -name '*~')" ]; then
	pass "a failed program's diagnostics in ID.log; none for a quiet one, no scratch left"
else
	fail "results/ID.log: missing for bad.mlir, present for mlp.mlir, or a scratch left"
fi

checks=$((checks + 1))
xml=$(ls "$tmp"/out1/results/*mlp.mlir-*.xml)
if "$SHARDLP" export --validate "$tmp"/out1/results/*.xml 2>"$tmp/err" &&
   grep -q '<result-of method="ilp" status="optimal" cost=' "$xml" &&
   "$SHARDLP" verify -q "$xml"; then
	pass "each program's XML result validates, has each method's result and reads back"
else
	fail "results/ID.xml"
fi

run "$SHARDLP" batch -j 1 --out "$tmp/out2" "$in"
checks=$((checks + 1))
if diff <(mask_timed "$tmp/out1/summary.csv") <(mask_timed "$tmp/out2/summary.csv") >"$tmp/diff"; then
	pass "-j 1 gives the summary of -j 2"
else
	fail "-j 1 and -j 2 summaries differ: $(head -3 "$tmp/diff")"
fi
checks=$((checks + 1))
if ls "$tmp"/out2/results/*.jsonl >/dev/null 2>&1 || [ -e "$tmp/out2/summary.jsonl" ]; then
	fail "JSON lines written without --json"
else
	pass "no JSON lines without --json"
fi

# stopped halfway, then resumed
mkdir -p "$tmp/gen"
for i in $(seq 1 16); do
	"$SHARDLP" gen transformer --layers 2 --seed "$i" -o "$tmp/gen/t$i.mlir"
done
run "$SHARDLP" batch -j 2 --out "$tmp/full" "$tmp/gen"
expect_rc 0 "a batch of 16 generated programs"
"$SHARDLP" batch -j 2 --out "$tmp/cut" "$tmp/gen" >/dev/null 2>&1 &
pid=$!
# stop it once the first program is done (its rows in the journal)
for _ in $(seq 1 100); do
	[ -s "$tmp/cut/journal" ] && break
	sleep 0.1
done
kill -TERM "$pid"
set +e
wait "$pid"
rc=$?
set -e
expect_rc 143 "SIGTERM stops the batch with 143"
checks=$((checks + 1))
done_rows=$(($(wc -l <"$tmp/cut/summary.csv") - 1))
if [ "$done_rows" -ge 5 ] && [ "$done_rows" -lt 80 ]; then
	pass "the summary holds what finished ($done_rows rows)"
else
	fail "after SIGTERM the summary has $done_rows rows"
fi
# a record cut short, as when the batch is killed while appending it:
# dropped, and its program redone
printf 'gen_t9.mlir-0123456789abcdef 1 999 0\ngen/t9.mlir,1,ilp' >>"$tmp/cut/journal"
run "$SHARDLP" batch -j 2 --resume --out "$tmp/cut" "$tmp/gen"
expect_rc 0 "--resume completes it"
checks=$((checks + 1))
if diff <(mask_timed "$tmp/full/summary.csv") <(mask_timed "$tmp/cut/summary.csv") >/dev/null; then
	pass "the resumed summary is the uninterrupted one"
else
	fail "the resumed summary differs from the uninterrupted one"
fi
checks=$((checks + 1))
if ! grep -q '^gen_t9.mlir-0123456789abcdef ' "$tmp/cut/journal" &&
   [ "$(grep -c '^[^,]* [0-9]* [0-9]* [0-9]*$' "$tmp/cut/journal")" -ge 16 ]; then
	pass "the journal: the cut record gone, a record per program"
else
	fail "the journal after --resume: $(grep -c '' "$tmp/cut/journal") lines"
fi
# nothing to redo: --resume runs no program (the journal unchanged)
cp "$tmp/cut/journal" "$tmp/journal.before"
run "$SHARDLP" batch -j 2 --resume --out "$tmp/cut" "$tmp/gen"
expect_rc 0 "--resume of a complete batch"
checks=$((checks + 1))
if cmp -s "$tmp/journal.before" "$tmp/cut/journal" &&
   diff <(mask_timed "$tmp/full/summary.csv") <(mask_timed "$tmp/cut/summary.csv") >/dev/null; then
	pass "--resume of a complete batch redoes nothing and gives the same summary"
else
	fail "--resume of a complete batch ran programs again or changed the summary"
fi
# other options: --resume redoes every program
run "$SHARDLP" batch -j 2 --resume --methods ilp --out "$tmp/cut" "$tmp/gen"
checks=$((checks + 1))
if [ "$(($(wc -l <"$tmp/cut/summary.csv") - 1))" -eq 16 ] &&
   [ "$(grep -c '^[^,]* [0-9]* [0-9]* [0-9]*$' "$tmp/cut/journal")" -eq 16 ]; then
	pass "--resume with other options redoes every program (the journal emptied first)"
else
	fail "--resume with other options: $(wc -l <"$tmp/cut/summary.csv") lines"
fi
# a worker killed: its program gets error rows saying so, the other
# programs of the batch complete (a new worker takes them)
if command -v pgrep >/dev/null 2>&1; then
	"$SHARDLP" batch -j 2 --out "$tmp/killed" "$tmp/gen" >/dev/null 2>&1 &
	pid=$!
	worker=
	for _ in $(seq 1 100); do
		worker=$(pgrep -P "$pid" | head -1)
		[ -n "$worker" ] && break
		sleep 0.05
	done
	[ -z "$worker" ] || kill -KILL "$worker" 2>/dev/null || true
	set +e
	wait "$pid"
	rc=$?
	set -e
	checks=$((checks + 1))
	rows=$(($(wc -l <"$tmp/killed/summary.csv") - 1))
	died=$(grep -c ',error,.*the worker died of signal 9' "$tmp/killed/summary.csv" || true)
	if [ -z "$worker" ] || { [ "$rc" -eq 1 ] && [ "$rows" -eq 80 ] && [ "$died" -eq 5 ]; } ||
	   { [ "$rc" -eq 0 ] && [ "$rows" -eq 80 ]; }; then
		pass "a killed worker costs one program ($died error rows of $rows, exit $rc)"
	else
		fail "after a worker was killed: exit $rc, $rows rows, $died saying so"
	fi
fi

# beyond one machine: four slices run by GNU parallel, merged, give the
# summary of one run (rows sorted the same way)
run "$SHARDLP" batch --shard 1/4 --out "$tmp/one" "$tmp/gen"
checks=$((checks + 1))
if [ "$(($(wc -l <"$tmp/one/summary.csv") - 1))" -eq 20 ]; then
	pass "--shard 1/4 runs a quarter of the 16 programs"
else
	fail "--shard 1/4: $(wc -l <"$tmp/one/summary.csv") lines"
fi
if command -v parallel >/dev/null 2>&1; then
	parallel -j 2 "$SHARDLP" batch --shard {}/4 --out "$tmp/slice{}" "$tmp/gen" ::: 0 1 2 3 \
		>/dev/null 2>&1
	run "$SHARDLP" batch --merge --out "$tmp/merged" "$tmp"/slice*/summary.csv
	expect_rc 0 "--merge of the slices"
	checks=$((checks + 1))
	if diff <(mask_timed "$tmp/full/summary.csv" | sort) <(mask_timed "$tmp/merged/summary.csv" | sort) >/dev/null &&
	   [ "$(head -1 "$tmp/merged/summary.csv")" = "$(head -1 "$tmp/full/summary.csv")" ]; then
		pass "4 slices over GNU parallel merge to the summary of one run"
	else
		fail "the merged slices differ from one run"
	fi
else
	echo "GNU parallel not installed: the slices over parallel not tested"
fi
echo "file,method" >"$tmp/notsummary.csv"
run "$SHARDLP" batch --merge --out "$tmp/m2" "$tmp/notsummary.csv"
expect_rc 1 "--merge of a file that is no summary"
expect_grep "$tmp/err" 'notsummary\.csv:1:1: error: not a batch summary' "a located error"
: >"$tmp/empty.csv"
run "$SHARDLP" batch --merge --out "$tmp/m3" "$tmp/empty.csv"
expect_rc 1 "--merge of an empty file"
expect_grep "$tmp/err" 'empty\.csv:1:1: error: not a batch summary \(empty\)' "a located error"
run "$SHARDLP" batch --shard 4/4 "$in"
expect_rc 2 "--shard 4/4 is a usage error"
# --methods: only the rows asked for, failures included
run "$SHARDLP" batch --methods ilp,basic --out "$tmp/m" "$in"
checks=$((checks + 1))
if [ "$(($(wc -l <"$tmp/m/summary.csv") - 1))" -eq 12 ] &&
   ! grep -q ',aggressive,\|,op-priority,\|,user-priority,' "$tmp/m/summary.csv"; then
	pass "--methods ilp,basic: 2 rows for each of the 6 programs"
else
	fail "--methods ilp,basic: $(($(wc -l <"$tmp/m/summary.csv") - 1)) rows"
fi
run "$SHARDLP" batch --methods nope "$in"
expect_rc 2 "--methods with an unknown method"
expect_grep "$tmp/err" "unknown method 'nope'" "the message names it"
run "$SHARDLP" batch -j 0 "$in"
expect_rc 2 "-j 0 is a usage error"
finish
