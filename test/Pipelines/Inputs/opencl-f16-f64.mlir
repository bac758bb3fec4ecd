// Tile functions on f16 and f64, whose kernels need cl_khr_fp16 (unless f16
// is emulated) and cl_khr_fp64 (opencl-compile.test).
func.func @half(%A: tensor<16xf16>) -> tensor<16xf16> {
  %s = tile.add %A, %A : tensor<16xf16>, tensor<16xf16> -> tensor<16xf16>
  return %s : tensor<16xf16>
}

func.func @double(%A: tensor<16xf64>) -> tensor<16xf64> {
  %s = tile.mul %A, %A : tensor<16xf64>, tensor<16xf64> -> tensor<16xf64>
  return %s : tensor<16xf64>
}
