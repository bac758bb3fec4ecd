//===- conv.mlir - A "same" 3x3 convolution in the Tile dialect -----------===//
//
// O[n, x, y, co] += I[n, x + i - 1, y + j - 1, ci] * K[i, j, ci, co] over
// NHWC input and HWIO filter. The output is as large as the input: at the
// border the input access falls outside I, and those points are simply not
// valid (tile.contract semantics), which is the zero padding.
// tile-compute-bounds records the index box (x, y in [0, 7], i, j in [0, 2],
// ...) and keeps in `cons` only the border checks the box does not imply,
// such as 0 <= x + i - 1 <= 7. Try:
//   plaidml-opt examples/conv.mlir -tile-compute-bounds -canonicalize
//
//===----------------------------------------------------------------------===//

func.func @conv_same(%I: tensor<1x8x8x3xf32>,
                     %K: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {
         idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x + i - 1, y + j - 1, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>]}
       : tensor<f32>, tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32> -> tensor<1x8x8x16xf32>
  return %O : tensor<1x8x8x16xf32>
}
