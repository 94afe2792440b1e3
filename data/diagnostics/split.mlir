// Two test cases in one file, as Shardy's tests are written: each chunk
// between '// -----' lines is a module of its own, and each diagnostic
// is expected by an expected-* comment on or near its line.
//   shardlp-opt -split-input-file -verify-diagnostics data/diagnostics/split.mlir

sdy.mesh @mesh = <["x"=2]>
func.func @fine(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error@+1 {{unknown axis name: "y"}}
func.func @bad_axis(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
