// Dimensions of 2^32: 2^64 elements, more than the runtime takes
// (cpu-compile-errors.test).
func.func @wide(%a: tensor<4294967296x4294967296xsi8>) -> tensor<si8> {
  %zero = tile.constant dense<0> : tensor<si8>
  %s = tile.contract add, none, %zero, %a {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> ()>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<si8>, tensor<4294967296x4294967296xsi8> -> tensor<si8>
  return %s : tensor<si8>
}
