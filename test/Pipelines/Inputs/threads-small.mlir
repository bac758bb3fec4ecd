// cpu-threads.test: a program without a loop worth a thread team.
func.func @small(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = tile.relu %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}
