// One function, so plaidml-run picks it without --entry (run-errors.test).
func.func @negate(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = tile.neg %a : tensor<2xf32>
  return %r : tensor<2xf32>
}
