// Programs large enough for their loops to run on two OpenMP threads
// (plaidml-cpu-parallelize keeps loops of about 2^15 operations or more):
// the CPU with --threads 2 computes exactly what it computes on one thread
// (every output element is still computed by one thread, in the same
// order), and both agree with the reference interpreter.
// RUN: rm -rf %t && mkdir -p %t
// RUN: plaidml-run %s --device reference --entry matmul_bias_relu --random-inputs=1 --output-dir %t/ref/matmul
// RUN: plaidml-run %s --device cpu --entry matmul_bias_relu --random-inputs=1 --output-dir %t/one/matmul
// RUN: plaidml-run %s --device cpu --threads 2 --entry matmul_bias_relu --random-inputs=1 --output-dir %t/two/matmul
// RUN: plaidml-run %s --device reference --entry conv_relu --random-inputs=2 --output-dir %t/ref/conv
// RUN: plaidml-run %s --device cpu --entry conv_relu --random-inputs=2 --output-dir %t/one/conv
// RUN: plaidml-run %s --device cpu --threads 2 --entry conv_relu --random-inputs=2 --output-dir %t/two/conv
// RUN: plaidml-run %s --device reference --entry chain --random-inputs=3 --output-dir %t/ref/chain
// RUN: plaidml-run %s --device cpu --entry chain --random-inputs=3 --output-dir %t/one/chain
// RUN: plaidml-run %s --device cpu --threads 2 --entry chain --random-inputs=3 --output-dir %t/two/chain
// RUN: plaidml-run %s --device reference --entry transpose_sum --random-inputs=4 --output-dir %t/ref/transpose
// RUN: plaidml-run %s --device cpu --entry transpose_sum --random-inputs=4 --output-dir %t/one/transpose
// RUN: plaidml-run %s --device cpu --threads 2 --entry transpose_sum --random-inputs=4 --output-dir %t/two/transpose
// RUN: %python -c "import numpy as np, sys; [np.testing.assert_allclose(np.load('%t/one/' + n), np.load('%t/ref/' + n), rtol=1e-5, atol=1e-5) for n in sys.argv[1:]]" matmul/result0.npy conv/result0.npy chain/result0.npy transpose/result0.npy
// RUN: cmp %t/one/matmul/result0.npy %t/two/matmul/result0.npy
// RUN: cmp %t/one/conv/result0.npy %t/two/conv/result0.npy
// RUN: cmp %t/one/chain/result0.npy %t/two/chain/result0.npy
// RUN: cmp %t/one/transpose/result0.npy %t/two/transpose/result0.npy

// A matmul with a bias and a relu: one fused nest of 96x160 iterations.
func.func @matmul_bias_relu(%A: tensor<96x128xf32>, %B: tensor<128x160xf32>, %bias: tensor<160xf32>) -> tensor<96x160xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<96x128xf32>, tensor<128x160xf32> -> tensor<96x160xf32>
  %1 = tile.add %C, %bias : tensor<96x160xf32>, tensor<160xf32> -> tensor<96x160xf32>
  %2 = tile.relu %1 : tensor<96x160xf32>
  return %2 : tensor<96x160xf32>
}

// A 3x3 NHWC convolution (valid padding) with a relu.
func.func @conv_relu(%I: tensor<1x18x18x8xf32>, %K: tensor<3x3x8x16xf32>) -> tensor<1x16x16x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x + i, y + j, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>]}
       : tensor<f32>, tensor<1x18x18x8xf32>, tensor<3x3x8x16xf32> -> tensor<1x16x16x16xf32>
  %1 = tile.relu %O : tensor<1x16x16x16xf32>
  return %1 : tensor<1x16x16x16xf32>
}

// Bias, relu and scale on 256x256 elements: one nest.
func.func @chain(%x: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<256x256xf32> {
  %s = tile.constant dense<0.5> : tensor<f32>
  %0 = tile.add %x, %b : tensor<256x256xf32>, tensor<256xf32> -> tensor<256x256xf32>
  %1 = tile.relu %0 : tensor<256x256xf32>
  %2 = tile.mul %1, %s : tensor<256x256xf32>, tensor<f32> -> tensor<256x256xf32>
  return %2 : tensor<256x256xf32>
}

// A transposing contraction feeding an elementwise op at permuted indices.
func.func @transpose_sum(%x: tensor<192x256xf32>, %y: tensor<256x192xf32>) -> tensor<256x192xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %t = tile.contract assign, none, %zero, %x {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (j, i)>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f32>, tensor<192x256xf32> -> tensor<256x192xf32>
  %0 = tile.add %t, %y : tensor<256x192xf32>
  %1 = tile.exp %0 : tensor<256x192xf32>
  return %1 : tensor<256x192xf32>
}
