// A Tile-form function (tensors): plaidml-compile runs the full CPU pipeline.
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
