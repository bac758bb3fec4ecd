//===- matmul.mlir - A dense layer in the Tile dialect --------------------===//
//
// relu(A x B + bias): one contraction (C[m, n] += A[m, k] * B[k, n], with no
// index ranges written: tile-compute-bounds infers m in [0, 3], n in [0, 15]
// and k in [0, 7] from the shapes) followed by two elementwise ops; the bias
// broadcasts along the rows. Try:
//   plaidml-opt examples/matmul.mlir -tile-compute-bounds -canonicalize
//
//===----------------------------------------------------------------------===//

func.func @dense(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>,
                 %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %D = tile.add %C, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %E = tile.relu %D : tensor<4x16xf32>
  return %E : tensor<4x16xf32>
}
