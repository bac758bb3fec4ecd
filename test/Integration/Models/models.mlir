// Realistic Tile programs run by check_models.py (see models.test) on the
// reference interpreter and the CPU, and compared with NumPy. Contractions
// carry no bounds: tile-compute-bounds derives them from the accesses and
// constraints. Inputs are arg0, arg1, ... in argument order.

// 1. Batched matmul: C[b, m, n] = +(A[b, m, k] * B[b, k, n]).
func.func @batched_matmul(%a: tensor<3x4x5xf32>, %b: tensor<3x5x6xf32>) -> tensor<3x4x6xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["b", "m", "n", "k"],
         sink = affine_map<(b, m, n, k) -> (b, m, n)>,
         srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<3x4x5xf32>, tensor<3x5x6xf32> -> tensor<3x4x6xf32>
  return %c : tensor<3x4x6xf32>
}

// 2. conv2d NHWC/HWIO, "valid", stride 2, dilation 2:
// O[n, x, y, co] = +(I[n, 2x + 2i, 2y + 2j, ci] * K[i, j, ci, co]).
// The dilated kernel spans 5 pixels: (11 - 5) / 2 + 1 = 4 outputs per axis.
func.func @conv2d_valid_strided(%i: tensor<1x11x11x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, 2 * x + 2 * i, 2 * y + 2 * j, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>]}
       : tensor<f32>, tensor<1x11x11x3xf32>, tensor<3x3x3x4xf32> -> tensor<1x4x4x4xf32>
  return %o : tensor<1x4x4x4xf32>
}

// 3a. conv2d "same" (3x3 kernel, pad 1 each side): the padding is implicit,
// reads outside I are not valid points.
func.func @conv2d_same(%i: tensor<2x7x7x3xf32>, %k: tensor<3x3x3x5xf32>) -> tensor<2x7x7x5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x + i - 1, y + j - 1, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>]}
       : tensor<f32>, tensor<2x7x7x3xf32>, tensor<3x3x3x5xf32> -> tensor<2x7x7x5xf32>
  return %o : tensor<2x7x7x5xf32>
}

// 3b. conv2d "same" with an even 4x4 kernel (TensorFlow pads 1 before and 2
// after), the padding window spelled out as explicit constraints
// (0 <= x + i - 1 <= 6, 0 <= y + j - 1 <= 5, 0 <= i, j <= 3).
func.func @conv2d_same_cons(%i: tensor<1x7x6x2xf32>, %k: tensor<4x4x2x3xf32>) -> tensor<1x7x6x3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x + i - 1, y + j - 1, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>],
         cons = affine_set<(n, x, y, co, i, j, ci) :
                  (x + i - 1 >= 0, 7 - x - i >= 0, y + j - 1 >= 0, 6 - y - j >= 0,
                   i >= 0, 3 - i >= 0, j >= 0, 3 - j >= 0)>}
       : tensor<f32>, tensor<1x7x6x2xf32>, tensor<4x4x2x3xf32> -> tensor<1x7x6x3xf32>
  return %o : tensor<1x7x6x3xf32>
}

// 4. Depthwise 3x3 "same" conv (channel multiplier 1), bias, relu.
func.func @depthwise_bias_relu(%i: tensor<1x8x8x6xf32>, %k: tensor<3x3x6xf32>, %bias: tensor<6xf32>) -> tensor<1x8x8x6xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, x + i - 1, y + j - 1, c)>,
                 affine_map<(n, x, y, c, i, j) -> (i, j, c)>]}
       : tensor<f32>, tensor<1x8x8x6xf32>, tensor<3x3x6xf32> -> tensor<1x8x8x6xf32>
  %b = tile.add %o, %bias : tensor<1x8x8x6xf32>, tensor<6xf32> -> tensor<1x8x8x6xf32>
  %r = tile.relu %b : tensor<1x8x8x6xf32>
  return %r : tensor<1x8x8x6xf32>
}

// 5a. Max pool 2x2, stride 2, on a 9x9 input (the last row/column is
// dropped: the output has 4 positions).
func.func @max_pool(%i: tensor<2x9x9x3xf32>) -> tensor<2x4x4x3xf32> {
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %lowest, %i {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, 2 * x + i, 2 * y + j, c)>],
         cons = affine_set<(n, x, y, c, i, j) : (i >= 0, 1 - i >= 0, j >= 0, 1 - j >= 0)>}
       : tensor<f32>, tensor<2x9x9x3xf32> -> tensor<2x4x4x3xf32>
  return %o : tensor<2x4x4x3xf32>
}

// 5b. Average pool 2x2, stride 2: window sum, then divide by 4.
func.func @avg_pool(%i: tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %s = tile.contract add, none, %zero, %i {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, 2 * x + i, 2 * y + j, c)>],
         cons = affine_set<(n, x, y, c, i, j) : (i >= 0, 1 - i >= 0, j >= 0, 1 - j >= 0)>}
       : tensor<f32>, tensor<2x8x8x3xf32> -> tensor<2x4x4x3xf32>
  %four = tile.constant dense<4.0> : tensor<f32>
  %o = tile.div %s, %four : tensor<2x4x4x3xf32>, tensor<f32> -> tensor<2x4x4x3xf32>
  return %o : tensor<2x4x4x3xf32>
}

// 6. Softmax over the last axis: the row max and row sum land in a 4x1
// tensor (sink column 0) so that they broadcast against 4x10.
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %m = tile.contract max, none, %lowest, %x {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r, 0)>, srcs = [affine_map<(r, c) -> (r, c)>]}
       : tensor<f32>, tensor<4x10xf32> -> tensor<4x1xf32>
  %d = tile.sub %x, %m : tensor<4x10xf32>, tensor<4x1xf32> -> tensor<4x10xf32>
  %e = tile.exp %d : tensor<4x10xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %s = tile.contract add, none, %zero, %e {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r, 0)>, srcs = [affine_map<(r, c) -> (r, c)>]}
       : tensor<f32>, tensor<4x10xf32> -> tensor<4x1xf32>
  %o = tile.div %e, %s : tensor<4x10xf32>, tensor<4x1xf32> -> tensor<4x10xf32>
  return %o : tensor<4x10xf32>
}

// 7. Dense layer: f16 inputs and weights accumulating in f32, f32 bias,
// sigmoid.
func.func @dense_f16(%x: tensor<8x64xf16>, %w: tensor<64x10xf16>, %bias: tensor<10xf32>) -> tensor<8x10xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %y = tile.contract add, mul, %zero, %x, %w {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<8x64xf16>, tensor<64x10xf16> -> tensor<8x10xf32>
  %b = tile.add %y, %bias : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %o = tile.sigmoid %b : tensor<8x10xf32>
  return %o : tensor<8x10xf32>
}

// 8. Integers: si32 matmul (products and sums wrap mod 2^32), ui8 row sums
// into ui32, signed and unsigned division and shr.
func.func @int_ops(%a: tensor<5x7xsi32>, %b: tensor<7x3xsi32>, %u: tensor<6x50xui8>,
                   %n: tensor<40xsi32>, %d: tensor<40xsi32>,
                   %un: tensor<40xui32>, %ud: tensor<40xui32>,
                   %sh: tensor<40xsi32>, %ush: tensor<40xui32>)
    -> (tensor<5x3xsi32>, tensor<6xui32>, tensor<40xsi32>, tensor<40xui32>, tensor<40xsi32>, tensor<40xui32>) {
  %zero = tile.constant dense<0> : tensor<si32>
  %mm = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
          sink = affine_map<(m, n, k) -> (m, n)>,
          srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
        : tensor<si32>, tensor<5x7xsi32>, tensor<7x3xsi32> -> tensor<5x3xsi32>
  %uzero = tile.constant dense<0> : tensor<ui32>
  %sum = tile.contract add, none, %uzero, %u {idxs = ["r", "c"],
           sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>]}
         : tensor<ui32>, tensor<6x50xui8> -> tensor<6xui32>
  %sdiv = tile.div %n, %d : tensor<40xsi32>
  %udiv = tile.div %un, %ud : tensor<40xui32>
  %sshr = tile.shr %n, %sh : tensor<40xsi32>
  %ushr = tile.shr %un, %ush : tensor<40xui32>
  return %mm, %sum, %sdiv, %udiv, %sshr, %ushr
    : tensor<5x3xsi32>, tensor<6xui32>, tensor<40xsi32>, tensor<40xui32>, tensor<40xsi32>, tensor<40xui32>
}

// 9. Layer norm over the last axis: mean and variance by contractions,
// (x - mean) / sqrt(var + eps) * gamma + beta.
func.func @layer_norm(%x: tensor<4x32xf32>, %gamma: tensor<32xf32>, %beta: tensor<32xf32>) -> tensor<4x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %n = tile.constant dense<32.0> : tensor<f32>
  %eps = tile.constant dense<1.0e-5> : tensor<f32>
  %s = tile.contract add, none, %zero, %x {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r, 0)>, srcs = [affine_map<(r, c) -> (r, c)>]}
       : tensor<f32>, tensor<4x32xf32> -> tensor<4x1xf32>
  %mean = tile.div %s, %n : tensor<4x1xf32>, tensor<f32> -> tensor<4x1xf32>
  %d = tile.sub %x, %mean : tensor<4x32xf32>, tensor<4x1xf32> -> tensor<4x32xf32>
  %ss = tile.contract add, mul, %zero, %d, %d {idxs = ["r", "c"],
          sink = affine_map<(r, c) -> (r, 0)>,
          srcs = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>]}
        : tensor<f32>, tensor<4x32xf32>, tensor<4x32xf32> -> tensor<4x1xf32>
  %var = tile.div %ss, %n : tensor<4x1xf32>, tensor<f32> -> tensor<4x1xf32>
  %ve = tile.add %var, %eps : tensor<4x1xf32>, tensor<f32> -> tensor<4x1xf32>
  %std = tile.sqrt %ve : tensor<4x1xf32>
  %norm = tile.div %d, %std : tensor<4x32xf32>, tensor<4x1xf32> -> tensor<4x32xf32>
  %scaled = tile.mul %norm, %gamma : tensor<4x32xf32>, tensor<32xf32> -> tensor<4x32xf32>
  %o = tile.add %scaled, %beta : tensor<4x32xf32>, tensor<32xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// 10a. Argmax along axis 1: the row max, then `cond` picks the column index
// where the element equals it (max over ties: the last such column).
func.func @argmax(%x: tensor<5x7xf32>) -> tensor<5xsi32> {
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %m = tile.contract max, none, %lowest, %x {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>]}
       : tensor<f32>, tensor<5x7xf32> -> tensor<5xf32>
  %idx = tile.index 1 : tensor<5x7xsi32>
  %zero = tile.constant dense<0> : tensor<si32>
  %a = tile.contract max, cond, %zero, %x, %m, %idx {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r)>,
         srcs = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>,
                 affine_map<(r, c) -> (r, c)>]}
       : tensor<si32>, tensor<5x7xf32>, tensor<5xf32>, tensor<5x7xsi32> -> tensor<5xsi32>
  return %a : tensor<5xsi32>
}

// 10b. Embedding lookup: rows of a 20x8 table picked by 3x5 token ids.
func.func @embedding(%table: tensor<20x8xf32>, %ids: tensor<3x5xsi32>) -> tensor<3x5x8xf32> {
  %g = tile.gather %table, %ids {axis = 0} : tensor<20x8xf32>, tensor<3x5xsi32> -> tensor<3x5x8xf32>
  return %g : tensor<3x5x8xf32>
}

// 10c. Cumulative sum along axis 1: O[r, i] = +(X[r, k]) for k <= i.
func.func @cumsum(%x: tensor<4x9xf32>) -> tensor<4x9xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, none, %zero, %x {idxs = ["r", "i", "k"],
         sink = affine_map<(r, i, k) -> (r, i)>, srcs = [affine_map<(r, i, k) -> (r, k)>],
         cons = affine_set<(r, i, k) : (i - k >= 0)>}
       : tensor<f32>, tensor<4x9xf32> -> tensor<4x9xf32>
  return %o : tensor<4x9xf32>
}

// 11a. Transposed conv ("valid", stride 2): the sink is strided and several
// points add into the same output element:
// O[n, 2x + i, 2y + j, co] = +(I[n, x, y, ci] * K[i, j, co, ci]);
// (4 - 1) * 2 + 3 = 9 outputs per axis.
func.func @conv2d_transpose(%i: tensor<1x4x4x2xf32>, %k: tensor<3x3x3x2xf32>) -> tensor<1x9x9x3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, 2 * x + i, 2 * y + j, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, co, ci)>]}
       : tensor<f32>, tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32> -> tensor<1x9x9x3xf32>
  return %o : tensor<1x9x9x3xf32>
}

// 11b. Max pool 3x3, stride 2, "same" (pad 1): 7 -> 4 positions per axis;
// the window needs its constraints, the padding is implicit.
func.func @max_pool_same(%i: tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32> {
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %lowest, %i {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, 2 * x + i - 1, 2 * y + j - 1, c)>],
         cons = affine_set<(n, x, y, c, i, j) : (i >= 0, 2 - i >= 0, j >= 0, 2 - j >= 0)>}
       : tensor<f32>, tensor<1x7x7x2xf32> -> tensor<1x4x4x2xf32>
  return %o : tensor<1x4x4x2xf32>
}

// 11c. Nearest-neighbour 2x upsampling: O[n, x, y, c] = I[n, x floordiv 2,
// y floordiv 2, c], each output element assigned once.
func.func @upsample_nearest(%i: tensor<1x3x4x2xf32>) -> tensor<1x6x8x2xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract assign, none, %zero, %i {idxs = ["n", "x", "y", "c"],
         sink = affine_map<(n, x, y, c) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c) -> (n, x floordiv 2, y floordiv 2, c)>]}
       : tensor<f32>, tensor<1x3x4x2xf32> -> tensor<1x6x8x2xf32>
  return %o : tensor<1x6x8x2xf32>
}

// 11d. Quantized-style matmul: si8 inputs into an si32 result. `mul`
// widens its inputs to the result type first (tile.contract), so the
// products never wrap in si8.
func.func @int8_matmul(%a: tensor<4x9xsi8>, %b: tensor<9x3xsi8>) -> tensor<4x3xsi32> {
  %zero = tile.constant dense<0> : tensor<si32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<si32>, tensor<4x9xsi8>, tensor<9x3xsi8> -> tensor<4x3xsi32>
  return %c : tensor<4x3xsi32>
}
