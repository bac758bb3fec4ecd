// f16 factors summed in f32 (opencl-compile.test): cooperative-matrix
// kernels where the OpenCL target has nv-ptx-wmma.
func.func @matmul(%A: tensor<64x64xf16>, %B: tensor<64x64xf16>) -> tensor<64x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  return %O : tensor<64x64xf32>
}
