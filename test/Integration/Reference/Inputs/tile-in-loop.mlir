// A Tile op inside scf.for (run-errors.test): Tile programs have no control
// flow, and the message says where the op is.
func.func @in_loop(%a: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> (tensor<2xf32>) {
    %y = tile.exp %x : tensor<2xf32>
    scf.yield %y : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
