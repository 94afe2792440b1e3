// Golden case for -sdy-explicit-gather-scatter-batching (spec/import-passes.md
// section 2.5): the slice path, select/clamp peeling, variadic scatter,
// dead-op erasure and a non-matching iota.
// Checked: by hand against that section when the pass was written, then
// kept as a reviewed snapshot; the pass also passes Shardy's own test of
// it (conformance case explicit_gather_scatter_batching/000).
// FLAGS: -sdy-explicit-gather-scatter-batching

// Slices when the indices are not a concatenate with one input per component.
func.func @iota_indices_middle(%operand: tensor<4x8x16xf32>) -> tensor<4x1xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x3xi32>
  %result = "stablehlo.gather"(%operand, %iota) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0, 2], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1, 1>
  } : (tensor<4x8x16xf32>, tensor<4x3xi32>) -> tensor<4x1xf32>
  return %result : tensor<4x1xf32>
}

func.func @wide_concat_input(%operand: tensor<4x8x16xf32>, %other: tensor<4x2xi32>) -> (tensor<4x1xf32>, tensor<4x3xi32>) {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %iota, %other, dim = 1 : (tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4x3xi32>
  %result = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1, 2], index_vector_dim = 1>,
    indices_are_sorted = true,
    slice_sizes = array<i64: 1, 1, 1>
  } : (tensor<4x8x16xf32>, tensor<4x3xi32>) -> tensor<4x1xf32>
  return %result, %indices : tensor<4x1xf32>, tensor<4x3xi32>
}

// Select (false branch iota) and clamp are looked through; dead ops go.
func.func @select_clamp(%operand: tensor<4x8xf32>, %pred: tensor<4x1xi1>, %x: tensor<4x1xi32>, %lo: tensor<i32>, %hi: tensor<i32>, %other: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %sel = stablehlo.select %pred, %x, %iota : tensor<4x1xi1>, tensor<4x1xi32>
  %clamped = stablehlo.clamp %lo, %sel, %hi : (tensor<i32>, tensor<4x1xi32>, tensor<i32>) -> tensor<4x1xi32>
  %indices = stablehlo.concatenate %other, %clamped, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %dead = stablehlo.add %x, %x : tensor<4x1xi32>
  %result = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1>,
    mhlo.sharding = "{replicated}"
  } : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %result : tensor<4x1xf32>
}

// A variadic scatter: the indices are operand 2 of 5.
func.func @scatter_two_inputs(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %offset: tensor<4x1xi32>, %ua: tensor<4xf32>, %ub: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %iota, %offset, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %r:2 = "stablehlo.scatter"(%a, %b, %indices, %ua, %ub) <{
    scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>
  }> ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %y0: tensor<f32>, %y1: tensor<f32>):
    stablehlo.return %y0, %y1 : tensor<f32>, tensor<f32>
  }) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x2xi32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// The iota runs along dimension 1: no rewrite.
func.func @iota_wrong_dim(%operand: tensor<4x8xf32>, %offset: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %iota = stablehlo.iota dim = 1 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %iota, %offset, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %result = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1>
  } : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %result : tensor<4x1xf32>
}

// EXPECT:
// module {
//   func.func @iota_indices_middle(%arg0: tensor<4x8x16xf32>) -> tensor<4x1xf32> {
//     %0 = stablehlo.iota dim = 0 : tensor<4x3xi32>
//     %1 = stablehlo.slice %0 [0:4, 0:1] : (tensor<4x3xi32>) -> tensor<4x1xi32>
//     %2 = stablehlo.slice %0 [0:4, 2:3] : (tensor<4x3xi32>) -> tensor<4x1xi32>
//     %3 = stablehlo.concatenate %1, %2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
//     %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x16xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
//     return %4 : tensor<4x1xf32>
//   }
//   func.func @wide_concat_input(%arg0: tensor<4x8x16xf32>, %arg1: tensor<4x2xi32>) -> (tensor<4x1xf32>, tensor<4x3xi32>) {
//     %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
//     %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4x3xi32>
//     %2 = stablehlo.slice %1 [0:4, 1:3] : (tensor<4x3xi32>) -> tensor<4x2xi32>
//     %3 = "stablehlo.gather"(%arg0, %2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x16xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
//     return %3, %1 : tensor<4x1xf32>, tensor<4x3xi32>
//   }
//   func.func @select_clamp(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi1>, %arg2: tensor<4x1xi32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<4x1xi32>) -> tensor<4x1xf32> {
//     %0 = "stablehlo.gather"(%arg0, %arg5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> {mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4x1xf32>
//     return %0 : tensor<4x1xf32>
//   }
//   func.func @scatter_two_inputs(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x1xi32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
//     %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
//     ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<f32>, %arg8: tensor<f32>):
//       stablehlo.return %arg7, %arg8 : tensor<f32>, tensor<f32>
//     }) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
//     return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
//   }
//   func.func @iota_wrong_dim(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x1xf32> {
//     %0 = stablehlo.iota dim = 1 : tensor<4x1xi32>
//     %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
//     %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
//     return %2 : tensor<4x1xf32>
//   }
// }
