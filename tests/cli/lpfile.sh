#!/bin/bash
# lpfile.sh - the model `solve --write-lp/--write-mps` writes: its columns
# and rows are named after the tensors, ops, options and mesh axes they
# stand for, and glpsol and CBC (when installed) solve it to the optimum
# shardlp reports.
. "$(dirname "$0")/../setup.sh"

run "$SHARDLP" solve --write-lp "$tmp/mlp.lp" --write-mps "$tmp/mlp.mps" -o "$tmp/mlp.solved.mlir" "$data/mlp.mlir"
expect_rc 0 "solve --write-lp --write-mps"
# the step time in seconds; the LP's objective is in microseconds
cost=$(sed -n 's/^shardlp: .*: optimal, step time \([0-9.e+-]*\) s .*/\1/p' "$tmp/err")
cost=$(awk -v c="$cost" 'BEGIN { if (c != "") printf "%.9g", c * 1e6 }')
expect_grep "$tmp/mlp.lp" 'objective_in_microseconds' "the LP file says the objective's unit"
# %arg0 (line 5) pinned [{"x"}, {}]: its one option
expect_grep "$tmp/mlp.lp" ' t0\.0_L5_d0\.x_d1\.r( |$)' "a tensor column names its line, option and the axes per dimension"
expect_grep "$tmp/mlp.lp" ' t3\.4_L8_d0\.x\.y_d1\.r( |$)' "two axes on one dimension are joined by '.'"
expect_grep "$tmp/mlp.lp" ' o[0-9]+\.[0-9]+_L[0-9]+_dot_general_f0\.[a-z.]+_f1\.[a-z.]+_f2\.[a-z.]+' "an op column names the op and each factor's axes"
expect_grep "$tmp/mlp.lp" '^ one_t3: ' "the one-hot row of a tensor is named after it"
checks=$((checks + 1))
if grep -qE '(^| )(r|z)_[0-9]+( |:|$)' "$tmp/mlp.lp"; then
	fail "anonymous r_N or z_N names are left"
else
	pass "no anonymous r_N/z_N names"
fi
expect_grep "$tmp/mlp.mps" '^ +t0\.0_L5_d0\.x_d1\.r ' "the MPS file has the same names"

same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 1e-6 * (a < 0 ? -a : a) + 1e-12) }'; }
if command -v glpsol >/dev/null 2>&1; then
	glpsol --lp "$tmp/mlp.lp" -o "$tmp/glpsol.out" >/dev/null 2>&1
	g=$(sed -n 's/^Objective: *step_time_us = \([0-9.e+-]*\).*/\1/p' "$tmp/glpsol.out")
	checks=$((checks + 1))
	if same "$cost" "$g"; then pass "glpsol solves the LP file to $g, shardlp's $cost"; else fail "glpsol: '$g', shardlp: $cost"; fi
else
	echo "glpsol not installed: not run"
fi
if command -v cbc >/dev/null 2>&1; then
	# CBC reads the LP file: its MPS reader takes a free-format line whose
	# fields happen to sit in fixed-format columns for a fixed one
	# (shardlp(1), BUGS)
	c=$(cbc "$tmp/mlp.lp" solve 2>&1 | sed -n 's/^Objective value: *\([0-9.e+-]*\).*/\1/p')
	checks=$((checks + 1))
	if same "$cost" "$c"; then pass "CBC solves the LP file to $c, shardlp's $cost"; else fail "CBC: '$c', shardlp: $cost"; fi
else
	echo "cbc not installed: not run"
fi
# the solution report: glpsol's layout, shardlp's objective, and the
# column chosen for %5 (the maximum, line 15) is the sharding the module
# prints for it
run "$SHARDLP" solve --solution-report "$tmp/mlp.rep" -o "$tmp/mlp.rep.mlir" "$data/mlp.mlir"
expect_rc 0 "solve --solution-report"
r=$(sed -n 's/^Objective: *step_time_us = \([0-9.e+-]*\) (MINimum)$/\1/p' "$tmp/mlp.rep")
checks=$((checks + 1))
if same "$cost" "$r"; then pass "the report's objective is shardlp's, $r us"; else fail "report: '$r', shardlp: $cost"; fi
expect_grep "$tmp/mlp.rep" '^Status: +INTEGER OPTIMAL$' "the report says the status in glpsol's words"
expect_grep "$tmp/mlp.rep" '^KKT.PE: max.abs.err = 0.00e\+00' "every row holds at the reported point"
checks=$((checks + 1))
if got=$(python3 - "$tmp/mlp.rep" "$tmp/mlp.rep.mlir" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
cols = lines.index(next(l for l in lines if l.startswith("   No. Column name")))
name, chosen = None, []
for l in lines[cols + 2:]:
    if not l.strip():
        break
    f = l.split()
    if len(f) == 2:			# a long name: its values on the next line
        name = f[1]
        continue
    if f[0].isdigit():
        name, f = f[1], f[2:]
    vals = [v for v in f if v != "*"]
    if re.match(r"t[0-9]+\.[0-9]+_L15_", name) and float(vals[0]) == 1:
        chosen.append(name)
mod = open(sys.argv[2]).read()
dims = re.search(r"%5 = stablehlo.maximum .*?sharding_per_value<\[<@mesh, \[(.*?)\]>\]>", mod).group(1)
want = "".join("_d%d.%s" % (i, ".".join(re.findall(r'"(\w+)"', d)) or "r")
               for i, d in enumerate(re.findall(r"\{[^}]*\}", dims)))
print("chose %s, the module has %s" % (chosen, want))
sys.exit(not (len(chosen) == 1 and chosen[0].endswith("_L15" + want)))
PY
); then
	pass "the report's answer for %5 is the module's sharding: $got"
else
	fail "the report's answer for %5: $got"
fi
finish
