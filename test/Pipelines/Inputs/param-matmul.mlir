// A matmul whose right-hand side is a parameter (plaidml.param): 64 rows,
// so several row blocks read each packed panel and the code generator packs
// it, in the entry's preparation (cpu-prepare-compile.test).
func.func @f(%a: tensor<64x3xf32>, %b: tensor<3x32xf32> {plaidml.param}) -> tensor<64x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<64x3xf32>, tensor<3x32xf32> -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}
