// A sharding that names an undeclared mesh: one located error, exit 1.
// EXIT: 1
// EXPECT-STDERR:
// diag_unknown_mesh.mlir:7:1: error: 'func.func' op arg 0 - unknown mesh: @nomesh
sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nomesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// Checked: the words are those Shardy's verifier gives for an unknown mesh
// (its own test, conformance case tensor_sharding_verification/008,
// expects "'func.func' op arg 0 - unknown mesh: @other_mesh"); the
// location is the function, as MLIR reports argument attributes.
