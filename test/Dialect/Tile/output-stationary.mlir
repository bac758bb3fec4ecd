// RUN: plaidml-opt %s -tile-output-stationary -split-input-file -mlir-print-local-scope | FileCheck %s

// The input gradient of a 1-D convolution, dI[x + k] += dO[x] * F[k]: with
// y = x + k in x's slot, the sink is the plain index, dO is read at y - k,
// y ranges over the whole output and the window check is left in cons.

// CHECK-LABEL: func.func @conv_input_gradient
// CHECK: tile.contract add, mul
// CHECK-SAME: cons = affine_set<(d0, d1) : (d0 - d1 >= 0, -d0 + d1 + 5 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0>
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0 - d1)>, affine_map<(d0, d1) -> (d1)>]
// CHECK-SAME: upper_bounds = array<i64: 7, 2>
func.func @conv_input_gradient(%dO: tensor<6xf32>, %F: tensor<3xf32>) -> tensor<8xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %dI = tile.contract add, mul, %zero, %dO, %F {idxs = ["x", "k"],
          sink = affine_map<(x, k) -> (x + k)>,
          srcs = [affine_map<(x, k) -> (x)>, affine_map<(x, k) -> (k)>],
          lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 5, 2>}
        : tensor<f32>, tensor<6xf32>, tensor<3xf32> -> tensor<8xf32>
  return %dI : tensor<8xf32>
}

// -----

// 2-D, NHWC, as the gradient builder writes it: both window results become
// plain indices, the batch and channel stay; constraints already on the op
// are rewritten over the new indices (here one that limits h).

// CHECK-LABEL: func.func @conv2d_input_gradient
// CHECK: tile.contract add, mul
// CHECK-SAME: cons = affine_set<(d0, d1, d2, d3, d4, d5, d6) : (-d1 + d4 + 2 >= 0, d1 - d4 >= 0, -d1 + d4 + 3 >= 0, d2 - d5 >= 0, -d2 + d5 + 3 >= 0)>
// CHECK-SAME: lower_bounds = array<i64: 0, 0, 0, 0, 0, 0, 0>
// CHECK-SAME: sink = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-SAME: srcs = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 - d4, d2 - d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d3, d6)>]
// CHECK-SAME: upper_bounds = array<i64: 1, 4, 5, 2, 2, 2, 4>
func.func @conv2d_input_gradient(%dO: tensor<2x4x4x5xf32>, %F: tensor<3x3x3x5xf32>) -> tensor<2x6x6x3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %dI = tile.contract add, mul, %zero, %dO, %F {idxs = ["n", "h", "w", "c", "kh", "kw", "o"],
          sink = affine_map<(n, h, w, c, kh, kw, o) -> (n, h + kh, w + kw, c)>,
          srcs = [affine_map<(n, h, w, c, kh, kw, o) -> (n, h, w, o)>,
                  affine_map<(n, h, w, c, kh, kw, o) -> (kh, kw, c, o)>],
          cons = affine_set<(n, h, w, c, kh, kw, o) : (2 - h >= 0)>,
          lower_bounds = array<i64: 0, 0, 0, 0, 0, 0, 0>,
          upper_bounds = array<i64: 1, 3, 3, 2, 2, 2, 4>}
        : tensor<f32>, tensor<2x4x4x5xf32>, tensor<3x3x3x5xf32> -> tensor<2x6x6x3xf32>
  return %dI : tensor<2x6x6x3xf32>
}

// -----

// A reduction into `h + 1` (a padded output) reduces per element too; the
// box of the new index implies the window check, so no cons is left.

// CHECK-LABEL: func.func @offset_sink
// CHECK: tile.contract max, none
// CHECK-NOT: cons
// CHECK-SAME: lower_bounds = array<i64: 1, 0>
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0)>
// CHECK-SAME: srcs = [affine_map<(d0, d1) -> (d0 - 1, d1)>]
// CHECK-SAME: upper_bounds = array<i64: 4, 2>
func.func @offset_sink(%x: tensor<4x3xf32>) -> tensor<6xf32> {
  %init = tile.constant dense<0.0> : tensor<f32>
  %m = tile.contract max, none, %init, %x {
         sink = affine_map<(h, c) -> (h + 1)>,
         srcs = [affine_map<(h, c) -> (h, c)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 2>}
       : tensor<f32>, tensor<4x3xf32> -> tensor<6xf32>
  return %m : tensor<6xf32>
}

// -----

// Left alone: a strided window (only the window index has coefficient 1,
// and its range is the narrower), an index shared by two sink results, an
// assignment (its order decides the result), a contraction without bounds.

// CHECK-LABEL: func.func @unchanged
// CHECK: sink = affine_map<(d0, d1) -> (d0 * 2 + d1)>
// CHECK: sink = affine_map<(d0, d1) -> (d0 + d1, d0)>
// CHECK: tile.contract assign
// CHECK-SAME: sink = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK: sink = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-NOT: lower_bounds
func.func @unchanged(%dO: tensor<4xf32>, %F: tensor<3xf32>, %m: tensor<4x3xf32>)
    -> (tensor<9xf32>, tensor<6x4xf32>, tensor<6xf32>, tensor<6xf32>) {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %strided = tile.contract add, mul, %zero, %dO, %F {
          sink = affine_map<(x, k) -> (2 * x + k)>,
          srcs = [affine_map<(x, k) -> (x)>, affine_map<(x, k) -> (k)>],
          lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 2>}
        : tensor<f32>, tensor<4xf32>, tensor<3xf32> -> tensor<9xf32>
  %shared = tile.contract add, none, %zero, %m {
          sink = affine_map<(x, k) -> (x + k, x)>,
          srcs = [affine_map<(x, k) -> (x, k)>],
          lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 2>}
        : tensor<f32>, tensor<4x3xf32> -> tensor<6x4xf32>
  %assign = tile.contract assign, none, %zero, %m {
          sink = affine_map<(x, k) -> (x + k)>,
          srcs = [affine_map<(x, k) -> (x, k)>],
          lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 2>}
        : tensor<f32>, tensor<4x3xf32> -> tensor<6xf32>
  %unbounded = tile.contract add, none, %zero, %m {
          sink = affine_map<(x, k) -> (x + k)>,
          srcs = [affine_map<(x, k) -> (x, k)>]}
        : tensor<f32>, tensor<4x3xf32> -> tensor<6xf32>
  return %strided, %shared, %assign, %unbounded : tensor<9xf32>, tensor<6x4xf32>, tensor<6xf32>, tensor<6xf32>
}
