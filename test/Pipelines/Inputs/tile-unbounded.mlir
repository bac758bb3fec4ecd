// A Tile function whose index k is bounded by nothing: the CPU pipeline
// stops at tile-compute-bounds with the index's name and location.
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %r = tile.contract add, none, %zero, %a {idxs = ["i", "k"],
         sink = affine_map<(i, k) -> (i)>, srcs = [affine_map<(i, k) -> (i)>]}
       : tensor<f32>, tensor<2xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}
