// RUN: plaidml-opt %s -tile-compute-bounds -split-input-file -verify-diagnostics -mlir-print-local-scope | FileCheck %s

// Idempotence: a second run, on the printed output, changes nothing.
// RUN: plaidml-opt %s -tile-compute-bounds -split-input-file 2>/dev/null > %t.once.mlir
// RUN: plaidml-opt %t.once.mlir -tile-compute-bounds -split-input-file 2>/dev/null > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Every access of a matrix multiplication spans its tensor: the box is the
// shapes and no constraint is left.
// CHECK-LABEL: func.func @matmul
// CHECK: tile.contract add, mul
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0, 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 3, 15, 7>
func.func @matmul(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: tile.contract assign, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 2, 4>
func.func @transpose(%I: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract assign, none, %zero, %I {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (j, i)>,
         srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f32>, tensor<3x5xf32> -> tensor<5x3xf32>
  return %O : tensor<5x3xf32>
}

// -----

// A[i, i] on a 4x6 matrix: the rows bound i, so the column check is implied.
// CHECK-LABEL: func.func @diagonal
// CHECK: tile.contract assign, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 3>
func.func @diagonal(%A: tensor<4x6xf32>) -> tensor<5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract assign, none, %zero, %A {idxs = ["i"],
         sink = affine_map<(i) -> (i)>,
         srcs = [affine_map<(i) -> (i, i)>]}
       : tensor<f32>, tensor<4x6xf32> -> tensor<5xf32>
  return %O : tensor<5xf32>
}

// -----

// A "valid" 2-D convolution, stride 2 and dilation 3 on the rows, stride 1
// and dilation 2 on the columns: the output extents are exactly the ones the
// input admits, so nothing is left to check.
// CHECK-LABEL: func.func @conv2d_strided_dilated
// CHECK: tile.contract add, mul
// CHECK-NOT: cons =
// CHECK-SAME: idxs = ["n", "x", "y", "kx", "ky", "ci", "co"]
// CHECK-SAME: lower_bounds = array<i64: 0, 0, 0, 0, 0, 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 0, 4, 7, 2, 2, 2, 7>
func.func @conv2d_strided_dilated(%I: tensor<1x16x12x3xf32>, %K: tensor<3x3x3x8xf32>) -> tensor<1x5x8x8xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {
         idxs = ["n", "x", "y", "kx", "ky", "ci", "co"],
         sink = affine_map<(n, x, y, kx, ky, ci, co) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, kx, ky, ci, co) -> (n, 2 * x + 3 * kx, y + 2 * ky, ci)>,
                 affine_map<(n, x, y, kx, ky, ci, co) -> (kx, ky, ci, co)>]}
       : tensor<f32>, tensor<1x16x12x3xf32>, tensor<3x3x3x8xf32> -> tensor<1x5x8x8xf32>
  return %O : tensor<1x5x8x8xf32>
}

// -----

// The same strided, dilated access with one output row too many: the last
// row would read past the input, so the upper input check stays.
// CHECK-LABEL: func.func @conv1d_overhanging
// CHECK: tile.contract add, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 * -2 - d1 * 3 + 15 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 5, 2>
func.func @conv1d_overhanging(%I: tensor<16xf32>, %K: tensor<3xf32>) -> tensor<6xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["x", "k"],
         sink = affine_map<(x, k) -> (x)>,
         srcs = [affine_map<(x, k) -> (2 * x + 3 * k)>, affine_map<(x, k) -> (k)>]}
       : tensor<f32>, tensor<16xf32>, tensor<3xf32> -> tensor<6xf32>
  return %O : tensor<6xf32>
}

// -----

// "Same" padding: O[x] = +(I[x + i - 1] * K[i]). The box is the output and
// kernel; both range checks of the input access stay in cons.
// CHECK-LABEL: func.func @conv_same_padding
// CHECK: tile.contract add, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 + d1 - 1 >= 0, -d0 - d1 + 5 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 4, 2>
func.func @conv_same_padding(%I: tensor<5xf32>, %K: tensor<3xf32>) -> tensor<5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (x + i - 1)>, affine_map<(x, i) -> (i)>]}
       : tensor<f32>, tensor<5xf32>, tensor<3xf32> -> tensor<5xf32>
  return %O : tensor<5xf32>
}

// -----

// "Same" padding written as user constraints over an unpadded kernel index:
// the user constraints are kept (they are not implied) and the identical
// input checks are not repeated.
// CHECK-LABEL: func.func @conv_same_padding_cons
// CHECK: tile.contract add, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 + d1 - 1 >= 0, -d0 - d1 + 5 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 4, 2>
func.func @conv_same_padding_cons(%I: tensor<5xf32>, %K: tensor<3xf32>) -> tensor<5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (x + i - 1)>, affine_map<(x, i) -> (i)>],
         cons = affine_set<(x, i) : (x + i - 1 >= 0, 5 - x - i >= 0)>}
       : tensor<f32>, tensor<5xf32>, tensor<3xf32> -> tensor<5xf32>
  return %O : tensor<5xf32>
}

// -----

// 2-wide max pooling, stride 2: `i < 2` is the only bound of the window index,
// and the box implies it, so cons goes away.
// CHECK-LABEL: func.func @max_pool
// CHECK: tile.contract max, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 3, 1>
func.func @max_pool(%I: tensor<8xf32>) -> tensor<4xf32> {
  %ninf = tile.constant dense<0xFF800000> : tensor<f32>
  %O = tile.contract max, none, %ninf, %I {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (2 * x + i)>],
         cons = affine_set<(x, i) : (i - 0 >= 0, 1 - i >= 0)>}
       : tensor<f32>, tensor<8xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// Pooling over an odd input with ceil-mode output: the last window hangs
// over the edge, so the input check stays next to the dropped `i < 3`.
// CHECK-LABEL: func.func @max_pool_ceil_mode
// CHECK: tile.contract max, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 * -2 - d1 + 6 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 3, 2>
func.func @max_pool_ceil_mode(%I: tensor<7xf32>) -> tensor<4xf32> {
  %ninf = tile.constant dense<0xFF800000> : tensor<f32>
  %O = tile.contract max, none, %ninf, %I {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (2 * x + i)>],
         cons = affine_set<(x, i) : (i >= 0, 2 - i >= 0)>}
       : tensor<f32>, tensor<7xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// Cumulative sum O[i] = +(I[k]), i - k >= 0: the triangle's constraint is not
// implied by its bounding box.
// CHECK-LABEL: func.func @cumsum
// CHECK: tile.contract add, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - d1 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 4, 4>
func.func @cumsum(%I: tensor<5xf32>) -> tensor<5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["i", "k"],
         sink = affine_map<(i, k) -> (i)>,
         srcs = [affine_map<(i, k) -> (k)>],
         cons = affine_set<(i, k) : (i - k >= 0)>}
       : tensor<f32>, tensor<5xf32> -> tensor<5xf32>
  return %O : tensor<5xf32>
}

// -----

// Sum-pooling by index division: x floordiv 2 < 3 bounds x by 5, tighter than
// the input (8); every check is then implied.
// CHECK-LABEL: func.func @floordiv_sink
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 5>
func.func @floordiv_sink(%I: tensor<8xf32>) -> tensor<3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x floordiv 2)>,
         srcs = [affine_map<(x) -> (x)>]}
       : tensor<f32>, tensor<8xf32> -> tensor<3xf32>
  return %O : tensor<3xf32>
}

// -----

// A reshape by div/mod: the flat index covers both result dimensions.
// CHECK-LABEL: func.func @floordiv_mod_reshape
// CHECK: tile.contract assign, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 7>
func.func @floordiv_mod_reshape(%I: tensor<8xf32>) -> tensor<2x4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract assign, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x floordiv 4, x mod 4)>,
         srcs = [affine_map<(x) -> (x)>]}
       : tensor<f32>, tensor<8xf32> -> tensor<2x4xf32>
  return %O : tensor<2x4xf32>
}

// -----

// ceildiv: x ceildiv 2 < 3 bounds x by 4.
// CHECK-LABEL: func.func @ceildiv_sink
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 4>
func.func @ceildiv_sink(%I: tensor<8xf32>) -> tensor<3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x ceildiv 2)>,
         srcs = [affine_map<(x) -> (x)>]}
       : tensor<f32>, tensor<8xf32> -> tensor<3xf32>
  return %O : tensor<3xf32>
}

// -----

// A floordiv whose range check is not implied keeps its local division.
// CHECK-LABEL: func.func @floordiv_kept
// CHECK: tile.contract add, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (-d1 - d0 floordiv 2 + 2 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 5, 2>
func.func @floordiv_kept(%I: tensor<6xf32>, %J: tensor<3xf32>) -> tensor<3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %J {idxs = ["x", "y"],
         sink = affine_map<(x, y) -> (x floordiv 2 + y)>,
         srcs = [affine_map<(x, y) -> (x)>, affine_map<(x, y) -> (y)>]}
       : tensor<f32>, tensor<6xf32>, tensor<3xf32> -> tensor<3xf32>
  return %O : tensor<3xf32>
}

// -----

// Exact over the integers, not a rational relaxation: x mod 3 == 0 and x >= 1
// put x in [1, 10] rationally but in [3, 9] over the integers.
// CHECK-LABEL: func.func @integer_tight_mod
// CHECK: tile.contract add, none
// CHECK-SAME: cons = affine_set<(d0) : (d0 mod 3 == 0)>
// CHECK-SAME: lower_bounds = array<i64: 3>
// CHECK-SAME: upper_bounds = array<i64: 9>
func.func @integer_tight_mod(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x)>,
         srcs = [affine_map<(x) -> (x)>],
         cons = affine_set<(x) : (x mod 3 == 0, x - 1 >= 0)>}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

// Equalities x == 2y + 1 and y == 1 pin both indices; the one-point box then
// implies both, and cons goes away.
// CHECK-LABEL: func.func @equalities_pinned
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 3, 1>
// CHECK-SAME: upper_bounds = array<i64: 3, 1>
func.func @equalities_pinned(%I: tensor<5xf32>) -> tensor<5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "y"],
         sink = affine_map<(x, y) -> (x)>,
         srcs = [affine_map<(x, y) -> (y)>],
         cons = affine_set<(x, y) : (x - 2 * y - 1 == 0, y - 1 == 0)>}
       : tensor<f32>, tensor<5xf32> -> tensor<5xf32>
  return %O : tensor<5xf32>
}

// -----

// x == 2y + 1 alone: x ranges over the odd values 1 and 3 (the rational
// relaxation would allow [0, 4]), and the equality stays.
// CHECK-LABEL: func.func @equality_kept
// CHECK: tile.contract add, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - d1 * 2 - 1 == 0)>
// CHECK-SAME: lower_bounds = array<i64: 1, 0>
// CHECK-SAME: upper_bounds = array<i64: 3, 1>
func.func @equality_kept(%I: tensor<5xf32>) -> tensor<5xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "y"],
         sink = affine_map<(x, y) -> (x)>,
         srcs = [affine_map<(x, y) -> (y)>],
         cons = affine_set<(x, y) : (x - 2 * y - 1 == 0)>}
       : tensor<f32>, tensor<5xf32> -> tensor<5xf32>
  return %O : tensor<5xf32>
}

// -----

// Redundant user constraints (and the duplicate) are dropped; i + j >= 4
// raises the lower bound of j to 1 but still cuts the box, so it is kept once.
// CHECK-LABEL: func.func @redundant_and_kept
// CHECK: tile.contract add, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 + d1 - 4 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 1>
// CHECK-SAME: upper_bounds = array<i64: 3, 5>
func.func @redundant_and_kept(%I: tensor<4x6xf32>) -> tensor<4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (i)>,
         srcs = [affine_map<(i, j) -> (i, j)>],
         cons = affine_set<(i, j) : (10 - i >= 0, i + j - 4 >= 0, j + 7 >= 0, i + j - 4 >= 0)>}
       : tensor<f32>, tensor<4x6xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// An op the pass already processed: its recorded bounds count as
// constraints (they hold `i < 2`, which cons no longer carries), so a
// re-run leaves it as is.
// CHECK-LABEL: func.func @already_bounded
// CHECK: tile.contract max, none
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 * -2 - d1 + 6 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: 3, 1>
func.func @already_bounded(%I: tensor<7xf32>) -> tensor<4xf32> {
  %ninf = tile.constant dense<0xFF800000> : tensor<f32>
  %O = tile.contract max, none, %ninf, %I {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (2 * x + i)>],
         cons = affine_set<(x, i) : (-2 * x - i + 6 >= 0)>,
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 1>}
       : tensor<f32>, tensor<7xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// Hand-written bounds looser than the accesses are tightened.
// CHECK-LABEL: func.func @loose_bounds
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 3>
func.func @loose_bounds(%I: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["i"],
         sink = affine_map<(i) -> (i)>,
         srcs = [affine_map<(i) -> (i)>],
         lower_bounds = array<i64: -10>, upper_bounds = array<i64: 10>}
       : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// Constant sink results are checked once against their extents (and hold).
// CHECK-LABEL: func.func @constant_sink
// CHECK: tile.contract assign, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 3>
func.func @constant_sink(%I: tensor<6xf32>) -> tensor<2x4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract assign, none, %zero, %I {idxs = ["i"],
         sink = affine_map<(i) -> (1, i)>,
         srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<6xf32> -> tensor<2x4xf32>
  return %O : tensor<2x4xf32>
}

// -----

// A full reduction into a rank-0 result.
// CHECK-LABEL: func.func @scalar_sum
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: 4>
func.func @scalar_sum(%I: tensor<5xf32>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["i"],
         sink = affine_map<(i) -> ()>,
         srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<5xf32> -> tensor<f32>
  return %O : tensor<f32>
}

// -----

// No index at all: the bounds are empty arrays.
// CHECK-LABEL: func.func @no_index
// CHECK: tile.contract assign, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64>
// CHECK-SAME: upper_bounds = array<i64>
func.func @no_index(%I: tensor<f32>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract assign, none, %zero, %I {
         sink = affine_map<() -> ()>, srcs = [affine_map<() -> ()>]}
       : tensor<f32>, tensor<f32> -> tensor<f32>
  return %O : tensor<f32>
}

// -----

// No valid point: the input access is always past the end. Every index gets
// the empty interval [0, -1] and nothing remains to check.
// CHECK-LABEL: func.func @empty_out_of_range
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: -1, -1>
func.func @empty_out_of_range(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-warning @+1 {{contraction has no valid index point; its result is its init}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "k"],
         sink = affine_map<(x, k) -> (x)>,
         srcs = [affine_map<(x, k) -> (x + k + 20)>],
         cons = affine_set<(x, k) : (k >= 0)>}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

// Contradictory constraints, each satisfiable alone, also empty the box.
// CHECK-LABEL: func.func @empty_contradiction
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: -1>
func.func @empty_contradiction(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-warning @+1 {{contraction has no valid index point}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x)>,
         srcs = [affine_map<(x) -> (x)>],
         cons = affine_set<(x) : (x - 6 >= 0, 4 - x >= 0)>}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

// Rationally feasible (x = 1/2) but without an integer point.
// CHECK-LABEL: func.func @empty_over_integers
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: -1>
func.func @empty_over_integers(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-warning @+1 {{contraction has no valid index point}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x)>,
         srcs = [affine_map<(x) -> (x)>],
         cons = affine_set<(x) : (2 * x - 1 == 0)>}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

// Without a valid point there is nothing for an index to be unbounded over:
// the unused index k gets the empty interval, not an error.
// CHECK-LABEL: func.func @empty_with_unused_index
// CHECK: tile.contract add, none
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: upper_bounds = array<i64: -1, -1>
func.func @empty_with_unused_index(%I: tensor<0xf32>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-warning @+1 {{contraction has no valid index point}}
  %O = tile.contract add, none, %zero, %I {idxs = ["i", "k"],
         sink = affine_map<(i, k) -> ()>,
         srcs = [affine_map<(i, k) -> (i)>]}
       : tensor<f32>, tensor<0xf32> -> tensor<f32>
  return %O : tensor<f32>
}

// -----

// A zero-extent input has no valid point either.
// CHECK-LABEL: func.func @empty_zero_extent
// CHECK: tile.contract add, none
// CHECK-NOT: cons =
// CHECK-SAME: lower_bounds = array<i64: 0>
// CHECK-SAME: upper_bounds = array<i64: -1>
func.func @empty_zero_extent(%I: tensor<0xf32>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-warning @+1 {{contraction has no valid index point}}
  %O = tile.contract add, none, %zero, %I {idxs = ["i"],
         sink = affine_map<(i) -> ()>,
         srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<0xf32> -> tensor<f32>
  return %O : tensor<f32>
}

// -----

// Without an index an empty box cannot be written, so the failing constant
// check stays in cons: the lowering's guard skips the single point.
// CHECK-LABEL: func.func @empty_no_index
// CHECK: tile.contract assign, none
// CHECK-SAME: cons = affine_set<() : (-1 >= 0)>
// CHECK-SAME: lower_bounds = array<i64>
// CHECK-SAME: upper_bounds = array<i64>
func.func @empty_no_index(%I: tensor<2xf32>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-warning @+1 {{contraction has no valid index point}}
  %O = tile.contract assign, none, %zero, %I {
         sink = affine_map<() -> ()>, srcs = [affine_map<() -> (2)>]}
       : tensor<f32>, tensor<2xf32> -> tensor<f32>
  return %O : tensor<f32>
}

// -----

// 2^40 elements: all arithmetic is exact; the mod constraint moves the upper
// bound to the last x = 2 (mod 7) below 2^40.
// CHECK-LABEL: func.func @huge
// CHECK: tile.contract add, none
// CHECK-SAME: cons = affine_set<(d0) : (d0 mod 7 - 2 == 0)>
// CHECK-SAME: lower_bounds = array<i64: 2>
// CHECK-SAME: upper_bounds = array<i64: 1099511627769>
func.func @huge(%I: tensor<1099511627776xf32>) -> tensor<366503875926xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {idxs = ["x"],
         sink = affine_map<(x) -> (x floordiv 3)>,
         srcs = [affine_map<(x) -> (x)>],
         cons = affine_set<(x) : (x mod 7 - 2 == 0)>}
       : tensor<f32>, tensor<1099511627776xf32> -> tensor<366503875926xf32>
  return %O : tensor<366503875926xf32>
}

// -----

// Every contraction in the function gets its bounds.
// CHECK-LABEL: func.func @two_contractions
// CHECK: tile.contract add, none
// CHECK-SAME: upper_bounds = array<i64: 3>
// CHECK: tile.contract add, none
// CHECK-SAME: upper_bounds = array<i64: 5>
func.func @two_contractions(%I: tensor<4xf32>, %J: tensor<6xf32>) -> (tensor<f32>, tensor<f32>) {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %A = tile.contract add, none, %zero, %I {
         sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<4xf32> -> tensor<f32>
  %B = tile.contract add, none, %zero, %J {
         sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<6xf32> -> tensor<f32>
  return %A, %B : tensor<f32>, tensor<f32>
}
