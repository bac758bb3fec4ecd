// The CPU code generator (plaidml-cpu-configure, plaidml-cpu-tile-contractions)
// on shapes that reach every code path: full register blocks, remainder
// rows, remainder vectors, columns that do not fill a vector, packed and
// unpacked operands, unrolled windows, epilogues, other parallel indices,
// f16 inputs. Each entry is checked against the reference interpreter on
// the same random inputs.
//
// RUN: rm -rf %t && %python %S/compare_devices.py --plaidml-run plaidml-run \
// RUN:   --program %s --work-dir %t matmul_bias_relu conv3x3 depthwise \
// RUN:   conv1d_along_vectors max_pool batched_matmul half_inputs tall_skinny tail_vectors \
// RUN:   conv_outer_rows batched_outer_rows | FileCheck %s
// CHECK: PASS matmul_bias_relu
// CHECK: PASS conv3x3
// CHECK: PASS depthwise
// CHECK: PASS conv1d_along_vectors
// CHECK: PASS max_pool
// CHECK: PASS batched_matmul
// CHECK: PASS half_inputs
// CHECK: PASS tall_skinny
// CHECK: PASS tail_vectors
// CHECK: PASS conv_outer_rows
// CHECK: PASS batched_outer_rows

// 37 rows (two blocks of 14 and 9), 70 columns (4 vectors and 6 columns).
func.func @matmul_bias_relu(%a: tensor<37x45xf32>, %b: tensor<45x70xf32>, %bias: tensor<70xf32>) -> tensor<37x70xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<37x45xf32>, tensor<45x70xf32> -> tensor<37x70xf32>
  %d = tile.add %c, %bias : tensor<37x70xf32>, tensor<70xf32> -> tensor<37x70xf32>
  %e = tile.relu %d : tensor<37x70xf32>
  return %e : tensor<37x70xf32>
}

// NHWC 3x3, 24 -> 40 channels (2 vectors and 8 columns), 18 wide rows.
func.func @conv3x3(%i: tensor<1x12x20x24xf32>, %k: tensor<3x3x24x40xf32>) -> tensor<1x10x18x40xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x12x20x24xf32>, tensor<3x3x24x40xf32> -> tensor<1x10x18x40xf32>
  return %o : tensor<1x10x18x40xf32>
}

// Depthwise 3x3 over 32 channels: the window loop is unrolled.
func.func @depthwise(%i: tensor<1x10x34x32xf32>, %k: tensor<3x3x32xf32>) -> tensor<1x8x32x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "c", "kh", "kw"],
         sink = affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>,
         srcs = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                 affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>]}
       : tensor<f32>, tensor<1x10x34x32xf32>, tensor<3x3x32xf32> -> tensor<1x8x32x32xf32>
  return %o : tensor<1x8x32x32xf32>
}

// A 1-D convolution whose window slides along the vector dimension.
func.func @conv1d_along_vectors(%i: tensor<55xf32>, %k: tensor<5xf32>) -> tensor<51xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["x", "t"],
         sink = affine_map<(x, t) -> (x)>,
         srcs = [affine_map<(x, t) -> (x + t)>, affine_map<(x, t) -> (t)>]}
       : tensor<f32>, tensor<55xf32>, tensor<5xf32> -> tensor<51xf32>
  return %o : tensor<51xf32>
}

// Max pooling 2x2 stride 2: a max aggregation (no FMA), strided rows.
func.func @max_pool(%i: tensor<1x8x20x48xf32>) -> tensor<1x4x10x48xf32> {
  %init = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %init, %i {idxs = ["n", "h", "w", "c", "kh", "kw"],
         sink = affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>,
         srcs = [affine_map<(n, h, w, c, kh, kw) -> (n, 2 * h + kh, 2 * w + kw, c)>],
         cons = affine_set<(n, h, w, c, kh, kw) : (kh >= 0, -kh + 1 >= 0, kw >= 0, -kw + 1 >= 0)>}
       : tensor<f32>, tensor<1x8x20x48xf32> -> tensor<1x4x10x48xf32>
  return %o : tensor<1x4x10x48xf32>
}

// Batched: the right-hand side depends on the batch index (not packed).
func.func @batched_matmul(%a: tensor<3x17x9xf32>, %b: tensor<3x9x33xf32>) -> tensor<3x17x33xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<3x17x9xf32>, tensor<3x9x33xf32> -> tensor<3x17x33xf32>
  return %c : tensor<3x17x33xf32>
}

// f16 inputs accumulated in f32.
func.func @half_inputs(%a: tensor<20x16xf16>, %b: tensor<16x48xf16>) -> tensor<20x48xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<20x16xf16>, tensor<16x48xf16> -> tensor<20x48xf32>
  return %c : tensor<20x48xf32>
}

// One row and many columns (a vector-matrix product), with a non-zero init.
func.func @tall_skinny(%a: tensor<1x300xf32>, %b: tensor<300x130xf32>) -> tensor<1x130xf32> {
  %one = tile.constant dense<1.5> : tensor<f32>
  %c = tile.contract add, mul, %one, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<1x300xf32>, tensor<300x130xf32> -> tensor<1x130xf32>
  return %c : tensor<1x130xf32>
}

// 5 vectors of columns: full panels and a narrower remainder panel.
func.func @tail_vectors(%a: tensor<30x7xf32>, %b: tensor<7x80xf32>) -> tensor<30x80xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<30x7xf32>, tensor<7x80xf32> -> tensor<30x80xf32>
  return %c : tensor<30x80xf32>
}

// A 7x7 map: register blocks of two whole rows (14 x 2 vectors, three
// blocks and one of the last row), with a residual epilogue read per row.
func.func @conv_outer_rows(%i: tensor<1x9x9x40xf32>, %k: tensor<3x3x40x64xf32>, %r: tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x9x9x40xf32>, tensor<3x3x40x64xf32> -> tensor<1x7x7x64xf32>
  %s = tile.add %o, %r : tensor<1x7x7x64xf32>, tensor<1x7x7x64xf32> -> tensor<1x7x7x64xf32>
  %e = tile.relu %s : tensor<1x7x7x64xf32>
  return %e : tensor<1x7x7x64xf32>
}

// Seven matrices of 4 rows times one matrix (a linear layer on a batch):
// blocks of three whole matrices (the batch is the outer row dimension:
// 12 x 2 vectors), the last one alone.
func.func @batched_outer_rows(%a: tensor<7x4x11xf32>, %b: tensor<11x32xf32>) -> tensor<7x4x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<7x4x11xf32>, tensor<11x32xf32> -> tensor<7x4x32xf32>
  return %c : tensor<7x4x32xf32>
}
