// An input of 2^50 bytes (allocation.mlir): more than any machine has, so
// --random-inputs must fail with a message on every device.
func.func @huge_input(%a: tensor<1048576x1048576x1024xsi8>) -> tensor<si8> {
  %zero = tile.constant dense<0> : tensor<si8>
  %s = tile.contract add, none, %zero, %a {idxs = ["i", "j", "k"],
         sink = affine_map<(i, j, k) -> ()>, srcs = [affine_map<(i, j, k) -> (i, j, k)>]}
       : tensor<si8>, tensor<1048576x1048576x1024xsi8> -> tensor<si8>
  return %s : tensor<si8>
}
