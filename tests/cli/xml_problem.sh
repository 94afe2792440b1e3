#!/bin/bash
# xml_problem.sh - the sharding problem in XML (shardlp-xml(5)): `shardlp
# export` writes every example as a <shardlp-problem> that validates
# against data/shardlp.xsd (with xmllint too, when installed), that reads
# back as the same program, and that solves and compares as the MLIR does;
# --rules adds each op's rule with its factors' kinds; bad documents get
# located errors: not well-formed, a schema violation, a DTD, a bad
# attribute text (at its line and column in the XML).
. "$(dirname "$0")/../setup.sh"

for f in "$data"/*.mlir; do
	b=$(basename "$f" .mlir)
	"$SHARDLP" export -o "$tmp/$b.xml" "$f"
	checks=$((checks + 1))
	if "$SHARDLP" print "$f" >"$tmp/$b.a" && "$SHARDLP" print "$tmp/$b.xml" >"$tmp/$b.b" &&
	   cmp -s "$tmp/$b.a" "$tmp/$b.b"; then
		pass "$b: MLIR -> XML -> MLIR prints the same program"
	else
		fail "$b: the XML reads back as another program"
	fi
done
run "$SHARDLP" export --validate "$tmp"/*.xml "$data/mesh-4x2.xml"
expect_rc 0 "every exported problem and the example mesh validate"
if command -v xmllint >/dev/null 2>&1; then
	run xmllint --noout --schema "$data/shardlp.xsd" "$tmp"/*.xml
	expect_rc 0 "xmllint --schema agrees"
fi

run "$SHARDLP" solve "$data/mlp.mlir"
cp "$tmp/out" "$tmp/solve.mlir"
run "$SHARDLP" solve "$tmp/mlp.xml"
expect_rc 0 "solve reads the XML"
checks=$((checks + 1))
if cmp -s "$tmp/out" "$tmp/solve.mlir"; then
	pass "MLIR -> XML -> solve gives the shardings of solving the MLIR"
else
	fail "solving the XML gives other shardings"
fi
run "$SHARDLP" solve --format xml -o "$tmp/report.xml" "$tmp/attention.xml"
run "$SHARDLP" export --validate "$tmp/report.xml"
expect_rc 0 "the solve report of an XML problem validates"
run "$SHARDLP" export --format mlir "$tmp/while.xml"
checks=$((checks + 1))
if cmp -s "$tmp/out" "$tmp/while.a"; then
	pass "export --format mlir turns the XML back into MLIR"
else
	fail "export --format mlir differs from print"
fi

run "$SHARDLP" export --rules -o "$tmp/rules.xml" "$data/attention.mlir"
expect_rc 0 "export --rules"
expect_grep "$tmp/rules.xml" '<factor name="[a-z_0-9]+" size="[0-9]+" kind="reduction"/>' "a dot's contracting factor is a reduction"
expect_grep "$tmp/rules.xml" '<dim closed="(true|false)"' "tensors' shardings, dims open or closed"
run "$SHARDLP" export --validate "$tmp/rules.xml"
expect_rc 0 "with the rules it validates"
run "$SHARDLP" verify "$tmp/rules.xml"
expect_rc 0 "and reads back"

# located errors
printf '<shardlp-problem version="1">\n <op name="x"\n</shardlp-problem>\n' >"$tmp/bad1.xml"
run "$SHARDLP" verify "$tmp/bad1.xml"
expect_rc 1 "XML that is not well-formed"
expect_grep "$tmp/err" '^[^:]*bad1\.xml:3:[0-9]+: error: ' "a located error"
printf '<shardlp-problem version="1">\n <op/>\n</shardlp-problem>\n' >"$tmp/bad2.xml"
run "$SHARDLP" verify "$tmp/bad2.xml"
expect_rc 1 "an <op> without its name"
expect_grep "$tmp/err" '^[^:]*bad2\.xml:2:[0-9]+: error: .*name' "a located schema error"
printf '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n<shardlp-problem version="1"/>\n' >"$tmp/bad3.xml"
run "$SHARDLP" verify "$tmp/bad3.xml"
expect_rc 1 "a document type declaration"
expect_grep "$tmp/err" 'bad3\.xml:2:1: error: a document type declaration' "is refused, located"
sed 's/array&lt;i64: 1&gt;/array\&lt;i64: 1 2\&gt;/' "$tmp/mlp.xml" >"$tmp/bad4.xml"
line=$(grep -n 'array&lt;i64: 1 2' "$tmp/bad4.xml" | head -1 | cut -d: -f1)
run "$SHARDLP" verify "$tmp/bad4.xml"
expect_rc 1 "a bad attribute text"
expect_grep "$tmp/err" "^[^:]*bad4\\.xml:$line:[0-9]+: error: expected" "located at its line in the XML"
printf '<shardlp-problem version="1">\n <op name="stablehlo.abs">\n  <operand value="v9"/>\n </op>\n</shardlp-problem>\n' >"$tmp/bad5.xml"
run "$SHARDLP" verify "$tmp/bad5.xml"
expect_rc 1 "an operand naming no value"
expect_grep "$tmp/err" 'bad5\.xml:2:[0-9]+: error: ' "located at its op"
run "$SHARDLP" export --format json "$data/mlp.mlir"
expect_rc 2 "--format json is a usage error"
finish
