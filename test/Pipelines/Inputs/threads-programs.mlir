// Programs for cpu-threads.test: `large` has enough work for a thread team
// (2^18 elements), `small` does not (16 elements; also alone in
// threads-small.mlir).
func.func @large(%x: tensor<512x512xf32>, %b: tensor<512xf32>) -> tensor<512x512xf32> {
  %0 = tile.add %x, %b : tensor<512x512xf32>, tensor<512xf32> -> tensor<512x512xf32>
  %1 = tile.relu %0 : tensor<512x512xf32>
  return %1 : tensor<512x512xf32>
}
func.func @small(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = tile.relu %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}
