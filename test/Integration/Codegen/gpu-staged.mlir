// The staged (workgroup-memory) schedule of matrix-product nests
// (plaidml-gpu-configure records plaidml.gpu.staged_tile,
// plaidml-gpu-stage-contraction builds the kernel) on vulkan:0 (lavapipe)
// and opencl:0 (PoCL, which takes the OpenCL C kernels), each entry against
// the reference interpreter on the same random inputs. The shapes reach
// each code path: both staging orders of each factor (A read along M, B
// along K), edges in M, N and K that the tiles do not divide, M made of two
// dimensions and a batch dimension, an initial value other than 0, a
// strided and padded convolution (the padding guard on the input, an
// implicit GEMM over a 3-deep reduction) with a fused bias and relu, f16
// inputs with f32 accumulation, batches large enough for the 128x128 and
// the 64x64 tiles (the others get 32x32), the 128x32 and 128x64 tiles of
// a narrow N, factors loaded 4 floats at a time through vector views
// (tiles that divide them; one a constant; not a diagonal), a row-major A
// loaded 2 steps at a time and transposed in registers, and the
// split-K schedule of a
// GEMV (the weights read along N) and of a matrix times a vector (the
// matrix read along K, the factors' roles swapped).
//
// The choices, as remarks:
// RUN: plaidml-opt %s -split-input-file -tile-compute-bounds \
// RUN:   -convert-tile-to-affine="border-fill=false split-guards=false" \
// RUN:   -plaidml-fuse-elementwise -plaidml-gpu-configure=remarks=1 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 67 x 45 x 33, batch 1
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 35 x 19 x 21, batch 3
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 49 x 20 x 27, batch 1
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 70 x 66 x 24, batch 1
// REMARK: staged tile 128x128x8, 8x8 outputs per invocation, over M x N x K = 129 x 130 x 9, batch 66
// REMARK: split-K tile: 8 outputs x 32 invocations each per workgroup, over M x N x K = 1 x 1000 x 300, batch 1
// REMARK: split-K tile: 8 outputs x 32 invocations each per workgroup, over M x N x K = 1 x 777 x 513, batch 1
// REMARK: staged tile 64x64x16, 4x4 outputs per invocation, over M x N x K = 130 x 260 x 5, batch 9
// REMARK: staged tile 128x32x16, 8x2 outputs per invocation, over M x N x K = 128 x 20 x 4, batch 264
// REMARK: staged tile 128x64x16, 8x4 outputs per invocation, over M x N x K = 128 x 50 x 4, batch 264
// REMARK: staged tile 64x64x16, 4x4 outputs per invocation, over M x N x K = 64 x 64 x 16, batch 132
// REMARK: staged tile 64x64x16, 4x4 outputs per invocation, over M x N x K = 8448 x 64 x 16, batch 1
// REMARK: staged tile 64x64x16, 4x4 outputs per invocation, over M x N x K = 8448 x 64 x 16, batch 1
// REMARK: staged tile 128x64x16, 8x4 outputs per invocation, over M x N x K = 33792 x 64 x 16, batch 1
// REMARK: staged tile 64x64x16, 4x4 outputs per invocation, over M x N x K = 8448 x 64 x 256, batch 1
//
// RUN: %if vulkan %{ rm -rf %t.vk && %python %S/compare_devices.py \
// RUN:   --plaidml-run plaidml-run --program %s --work-dir %t.vk \
// RUN:   --device vulkan:0 transposed batched conv_strided_padded half \
// RUN:   large_tile gemv matvec mid_tile narrow wide_t wide_const diagonal wide_k wide_k_long | FileCheck %s %}
// RUN: %if opencl %{ rm -rf %t.cl && %python %S/compare_devices.py \
// RUN:   --plaidml-run plaidml-run --program %s --work-dir %t.cl \
// RUN:   --device opencl:0 transposed batched conv_strided_padded half \
// RUN:   large_tile gemv matvec mid_tile narrow wide_t wide_const diagonal wide_k wide_k_long | FileCheck %s %}
// CHECK: PASS transposed
// CHECK: PASS batched
// CHECK: PASS conv_strided_padded
// CHECK: PASS half
// CHECK: PASS large_tile
// CHECK: PASS gemv
// CHECK: PASS matvec
// CHECK: PASS mid_tile
// CHECK: PASS narrow
// CHECK: PASS wide_t
// CHECK: PASS wide_const
// CHECK: PASS diagonal
// CHECK: PASS wide_k
// CHECK: PASS wide_k_long

// C = A^T B^T + 1.5: A is K x M (staged along M), B is N x K (along K).
func.func @transposed(%A: tensor<33x67xf32>, %B: tensor<45x33xf32>) -> tensor<67x45xf32> {
  %init = tile.constant dense<1.5> : tensor<f32>
  %C = tile.contract add, mul, %init, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>]}
       : tensor<f32>, tensor<33x67xf32>, tensor<45x33xf32> -> tensor<67x45xf32>
  return %C : tensor<67x45xf32>
}

// -----

// M is (i, j), 5 x 7; b is a batch dimension both factors read.
func.func @batched(%A: tensor<3x5x7x21xf32>, %B: tensor<3x21x19xf32>) -> tensor<3x5x7x19xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["b", "i", "j", "n", "k"],
         sink = affine_map<(b, i, j, n, k) -> (b, i, j, n)>,
         srcs = [affine_map<(b, i, j, n, k) -> (b, i, j, k)>, affine_map<(b, i, j, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<3x5x7x21xf32>, tensor<3x21x19xf32> -> tensor<3x5x7x19xf32>
  return %C : tensor<3x5x7x19xf32>
}

// -----

// 3x3, stride 2, padding 1: 13x13 -> 7x7, then bias and relu.
func.func @conv_strided_padded(%I: tensor<1x13x13x3xf32>, %K: tensor<3x3x3x20xf32>, %bias: tensor<20xf32>) -> tensor<1x7x7x20xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["n", "x", "y", "f", "i", "j", "c"],
         sink = affine_map<(n, x, y, f, i, j, c) -> (n, x, y, f)>,
         srcs = [affine_map<(n, x, y, f, i, j, c) -> (n, 2 * x + i - 1, 2 * y + j - 1, c)>,
                 affine_map<(n, x, y, f, i, j, c) -> (i, j, c, f)>]}
       : tensor<f32>, tensor<1x13x13x3xf32>, tensor<3x3x3x20xf32> -> tensor<1x7x7x20xf32>
  %S = tile.add %O, %bias : tensor<1x7x7x20xf32>, tensor<20xf32> -> tensor<1x7x7x20xf32>
  %R = tile.relu %S : tensor<1x7x7x20xf32>
  return %R : tensor<1x7x7x20xf32>
}

// -----

func.func @half(%A: tensor<70x24xf16>, %B: tensor<24x66xf16>) -> tensor<70x66xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<70x24xf16>, tensor<24x66xf16> -> tensor<70x66xf32>
  return %C : tensor<70x66xf32>
}

// -----

// 66 x 2 x 2 = 264 workgroups of 128x128 (min-staged-workgroups).
func.func @large_tile(%A: tensor<66x129x9xf32>, %B: tensor<66x9x130xf32>) -> tensor<66x129x130xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<66x129x9xf32>, tensor<66x9x130xf32> -> tensor<66x129x130xf32>
  return %C : tensor<66x129x130xf32>
}

// -----

// Split K: one row (M = 1), 8 outputs x 32 invocations per workgroup,
// neighbours along the weights' rows; 300 is not a multiple of the 32 x 4
// products an iteration takes; a bias follows.
func.func @gemv(%x: tensor<1x300xf32>, %W: tensor<300x1000xf32>, %bias: tensor<1000xf32>) -> tensor<1x1000xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %y = tile.contract add, mul, %zero, %x, %W {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<1x300xf32>, tensor<300x1000xf32> -> tensor<1x1000xf32>
  %s = tile.add %y, %bias : tensor<1x1000xf32>, tensor<1000xf32> -> tensor<1x1000xf32>
  return %s : tensor<1x1000xf32>
}

// -----

// A matrix times a vector: the matrix is the factor with dimensions of its
// own (N = 777, not a multiple of 8), read along K: neighbouring
// invocations split K.
func.func @matvec(%A: tensor<777x513xf32>, %v: tensor<513xf32>) -> tensor<777xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %y = tile.contract add, mul, %zero, %A, %v {idxs = ["n", "k"],
         sink = affine_map<(n, k) -> (n)>,
         srcs = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (k)>]}
       : tensor<f32>, tensor<777x513xf32>, tensor<513xf32> -> tensor<777xf32>
  return %y : tensor<777xf32>
}

// -----

// 9 x 3 x 5 = 135 workgroups of 64x64 (half of min-staged-workgroups).
func.func @mid_tile(%A: tensor<9x130x5xf32>, %B: tensor<9x5x260xf32>) -> tensor<9x130x260xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<9x130x5xf32>, tensor<9x5x260xf32> -> tensor<9x130x260xf32>
  return %C : tensor<9x130x260xf32>
}

// -----

// Narrow N with 264 workgroups of 128 rows: 128x32 (N = 20) and 128x64
// (N = 50) tiles, neither dividing N.
func.func @narrow(%A: tensor<264x128x4xf32>, %B: tensor<264x4x20xf32>, %C: tensor<264x4x50xf32>) -> (tensor<264x128x20xf32>, tensor<264x128x50xf32>) {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %X = tile.contract add, mul, %zero, %A, %B {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<264x128x4xf32>, tensor<264x4x20xf32> -> tensor<264x128x20xf32>
  %Y = tile.contract add, mul, %zero, %A, %C {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<264x128x4xf32>, tensor<264x4x50xf32> -> tensor<264x128x50xf32>
  return %X, %Y : tensor<264x128x20xf32>, tensor<264x128x50xf32>
}

// -----

// Tiles and steps that divide both factors, whose memory follows M (A
// stored K x M) and N: each group of 4 rows one vector<4xf32> load through
// a view of the buffer (64x64 tiles, 4x4 per invocation).
func.func @wide_t(%A: tensor<132x16x64xf32>, %B: tensor<132x16x64xf32>) -> tensor<132x64x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<132x16x64xf32>, tensor<132x16x64xf32> -> tensor<132x64x64xf32>
  return %C : tensor<132x64x64xf32>
}

// -----

// The same view of a constant (weights): the host copies it to the device
// through the view. Its values differ from column to column, so a view
// read at the wrong index would show.
func.func @wide_const(%A: tensor<8448x16xf32>) -> tensor<8448x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %W = tile.constant dense<
    [[-0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750],
    [-0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250],
    [0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125],
    [0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500],
    [-0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500],
    [0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125],
    [0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250],
    [0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625],
    [-0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375],
    [0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000],
    [0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375],
    [-0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750],
    [-0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250],
    [0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125],
    [0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500],
    [-0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500, 0.000, 0.500, -0.375, 0.125, 0.625, -0.250, 0.250, 0.750, -0.125, 0.375, -0.500]]> : tensor<16x64xf32>
  %C = tile.contract add, mul, %zero, %A, %W {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<8448x16xf32>, tensor<16x64xf32> -> tensor<8448x64xf32>
  return %C : tensor<8448x64xf32>
}

// -----

// B read along a diagonal (B[k, n, n]): no view (4 adjacent n are not 4
// adjacent elements), the same tile as wide_const.
func.func @diagonal(%A: tensor<8448x16xf32>, %B: tensor<16x64x64xf32>) -> tensor<8448x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n, n)>]}
       : tensor<f32>, tensor<8448x16xf32>, tensor<16x64x64xf32> -> tensor<8448x64xf32>
  return %C : tensor<8448x64xf32>
}

// -----

// A row-major (its memory follows K) in 128x64 tiles stepping 16 along K:
// each invocation loads 4 rows of 2 adjacent steps, one vector<2xf32>
// load per row through a view of A, and transposes them in registers into
// the staged tile; B through its vector<4xf32> view.
func.func @wide_k(%A: tensor<33792x16xf32>, %B: tensor<16x64xf32>) -> tensor<33792x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<33792x16xf32>, tensor<16x64xf32> -> tensor<33792x64xf32>
  return %C : tensor<33792x64xf32>
}

// -----

// A long reduction (K = 256): OpenCL targets stage vectors only from
// K >= 256 (shorter ones keep scalar tiles), so opencl:0 runs the vector
// views of both factors here too, with fused multiply-adds.
func.func @wide_k_long(%A: tensor<8448x256xf32>, %B: tensor<256x64xf32>) -> tensor<8448x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<8448x256xf32>, tensor<256x64xf32> -> tensor<8448x64xf32>
  return %C : tensor<8448x64xf32>
}
