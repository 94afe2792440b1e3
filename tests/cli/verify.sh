#!/bin/bash
# shardlp verify: exit 0 on the valid examples, exit 1 and one located
# `file:line:col: error:` line on each kind of bad input.
. "$(dirname "$0")/../setup.sh"

for f in "$data"/*.mlir; do
	run "$SHARDLP" verify "$f"
	expect_rc 0 "verify $(basename "$f")"
	expect_empty "$tmp/err" "verify $(basename "$f"): nothing on stderr"
done

run "$SHARDLP" verify "$data/mlp.mlir" "$data/attention.mlir"
expect_rc 0 "verify of two files"

run_in "$data/mlp.mlir" "$SHARDLP" verify -
expect_rc 0 "verify - (standard input)"

run "$SHARDLP" verify "$tmp/no-such-file.mlir"
expect_rc 1 "verify of a missing file"
expect_grep "$tmp/err" 'no-such-file\.mlir' "missing file: names the file"

# bad NAME: writes $tmp/NAME.mlir from stdin, then check_bad NAME.
# check_bad NAME: verify of $tmp/NAME.mlir exits 1 with a located error
# naming that file.  (Not at the end of a pipeline: that is a subshell.)
bad() {
	cat >"$tmp/$1.mlir"
	check_bad "$1"
}

check_bad() {
	run "$SHARDLP" verify "$tmp/$1.mlir"
	expect_rc 1 "verify $1"
	expect_grep "$tmp/err" "^$tmp/$1\\.mlir:[0-9]+:[0-9]+: error: " \
		"verify $1: file:line:col: error: message"
}

head -c 400 "$data/mlp.mlir" >"$tmp/truncated.mlir"
check_bad truncated

bad unknown-op <<'X'
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.frobnicate %arg0 sideways : tensor<8xf32>
  return %0 : tensor<8xf32>
}
X

bad unbalanced-paren <<'X'
func.func @main(%arg0: tensor<8xf32> -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
X

bad unbalanced-brace <<'X'
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
X

bad unclosed-func <<'X'
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
X

bad unknown-mesh <<'X'
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nomesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
X

bad unknown-axis <<'X'
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"q"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
X

bad huge-dimension <<'X'
func.func @main(%arg0: tensor<99999999999999999999999999x8xf32>) -> tensor<99999999999999999999999999x8xf32> {
  return %arg0 : tensor<99999999999999999999999999x8xf32>
}
X

bad huge-axis <<'X'
sdy.mesh @mesh = <["x"=18446744073709551617]>
X

bad type-mismatch <<'X'
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
X

bad undefined-value <<'X'
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg7 : tensor<8xf32>
}
X

: >"$tmp/empty.mlir"
check_bad empty

# 100,000 open brackets: a located error, not a stack overflow.
{
	printf 'func.func @main(%%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
	printf '  %%0 = stablehlo.add %%arg0, %%arg0 {a = '
	head -c 100000 /dev/zero | tr '\0' '['
	printf '} : tensor<8xf32>\n  return %%0 : tensor<8xf32>\n}\n'
} >"$tmp/deep-nesting.mlir"
check_bad deep-nesting

# A 20 MB line: an unterminated string.
{
	printf 'func.func @main(%%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
	printf '  %%0 = stablehlo.add %%arg0, %%arg0 {a = "'
	head -c 20000000 /dev/zero | tr '\0' 'a'
	printf '\n'
} >"$tmp/long-line.mlir"
check_bad long-line

printf 'sdy.mesh @mesh = <["x"=4]>\000\n' >"$tmp/nul-byte.mlir"
check_bad nul-byte

finish
