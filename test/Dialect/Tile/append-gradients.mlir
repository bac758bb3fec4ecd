// RUN: plaidml-opt %s -tile-append-gradients -split-input-file -verify-diagnostics -mlir-print-local-scope | FileCheck %s

// The gradient of a matrix product summed to a scalar: the seed broadcast
// back over the product's shape, then the product with the roles of the
// output and the input accesses swapped (dA = dC * B^T, dB = A^T * dC), over
// the same index space.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>) -> (tensor<f32>, tensor<2x3xf32>, tensor<3x4xf32>)
// CHECK: %[[C:.*]] = tile.contract add, mul
// CHECK: %[[L:.*]] = tile.contract add, none, %{{.*}}, %[[C]]
// CHECK: %[[ONE:.*]] = tile.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[DC:.*]] = tile.contract add, none, %{{.*}}, %[[ONE]] {sink = affine_map<(d0, d1) -> (d0, d1)>, srcs = [affine_map<(d0, d1) -> ()>]} : tensor<f32>, tensor<f32> -> tensor<2x4xf32>
// CHECK: %[[DA:.*]] = tile.contract add, mul, %{{.*}}, %[[DC]], %[[B]] {idxs = ["m", "n", "k"], sink = affine_map<(d0, d1, d2) -> (d0, d2)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>]} : tensor<f32>, tensor<2x4xf32>, tensor<3x4xf32> -> tensor<2x3xf32>
// CHECK: %[[DB:.*]] = tile.contract add, mul, %{{.*}}, %[[DC]], %[[A]] {idxs = ["m", "n", "k"], sink = affine_map<(d0, d1, d2) -> (d2, d1)>, srcs = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>]} : tensor<f32>, tensor<2x4xf32>, tensor<2x3xf32> -> tensor<3x4xf32>
// CHECK: return %[[L]], %[[DA]], %[[DB]]
func.func @matmul(%A: tensor<2x3xf32>, %B: tensor<3x4xf32>) -> tensor<f32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %z, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %L = tile.contract add, none, %z, %C {sink = affine_map<(i, j) -> ()>,
         srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f32>, tensor<2x4xf32> -> tensor<f32>
  return %L : tensor<f32>
}

// -----

// Max pooling: the gradient goes to the input elements equal to the
// maximum they reached (a cond combination), with the constraint kept.
// CHECK-LABEL: func.func @maxpool
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
// CHECK: %[[P:.*]] = tile.contract max, none
// CHECK: %[[DP:.*]] = tile.contract add, none, %{{.*}}, %{{.*}} {sink = affine_map<(d0) -> (d0)>
// CHECK: %[[DX:.*]] = tile.contract add, cond, %{{.*}}, %[[X]], %[[P]], %[[DP]] {cons = affine_set<(d0, d1) : (-d1 + 1 >= 0)>, idxs = ["o", "w"], sink = affine_map<(d0, d1) -> (d0 * 2 + d1)>, srcs = [affine_map<(d0, d1) -> (d0 * 2 + d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>]} : tensor<f32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
// CHECK: return %{{.*}}, %[[DX]]
func.func @maxpool(%X: tensor<4xf32>) -> tensor<f32> {
  %m = tile.constant dense<0xFF800000> : tensor<f32>
  %z = tile.constant dense<0.0> : tensor<f32>
  %P = tile.contract max, none, %m, %X {idxs = ["o", "w"],
         sink = affine_map<(o, w) -> (o)>,
         srcs = [affine_map<(o, w) -> (o * 2 + w)>],
         cons = affine_set<(o, w) : (1 - w >= 0)>}
       : tensor<f32>, tensor<4xf32> -> tensor<2xf32>
  %L = tile.contract add, none, %z, %P {sink = affine_map<(i) -> ()>,
         srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<2xf32> -> tensor<f32>
  return %L : tensor<f32>
}

// -----

// Elementwise ops with broadcasting: only the argument marked tile.wrt is
// differentiated; the bias gradient is summed over the broadcast rows.
// CHECK-LABEL: func.func @bias
// CHECK-SAME: -> (tensor<f32>, tensor<3xf32>)
// CHECK: %[[E:.*]] = tile.exp
// CHECK: tile.contract add, none, %{{.*}}, %[[E]]
// CHECK: %[[DE:.*]] = tile.contract add, none
// CHECK: %[[DS:.*]] = tile.mul %[[DE]], %[[E]] : tensor<2x3xf32>
// CHECK: %[[DB:.*]] = tile.contract add, none, %{{.*}}, %[[DS]] {sink = affine_map<(d0, d1) -> (d1)>, srcs = [affine_map<(d0, d1) -> (d0, d1)>]} : tensor<f32>, tensor<2x3xf32> -> tensor<3xf32>
// CHECK: return %{{.*}}, %[[DB]] : tensor<f32>, tensor<3xf32>
func.func @bias(%x: tensor<2x3xf32>, %b: tensor<3xf32> {tile.wrt}) -> tensor<f32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %s = tile.add %x, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %e = tile.exp %s : tensor<2x3xf32>
  %L = tile.contract add, none, %z, %e {sink = affine_map<(i, j) -> ()>,
         srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f32>, tensor<2x3xf32> -> tensor<f32>
  return %L : tensor<f32>
}

// -----

// A path through an op with no gradient rule is an error naming it.
func.func @no_rule(%x: tensor<3x4xf32>, %y: tensor<4xf32>) -> tensor<3xf32> {
  %m = tile.constant dense<0xFF800000> : tensor<f32>
  // expected-error @+1 {{'tile.contract' op has no gradient: aggregation 'max' of combination 'mul'}}
  %r = tile.contract max, mul, %m, %x, %y {sink = affine_map<(i, j) -> (i)>,
         srcs = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>]}
       : tensor<f32>, tensor<3x4xf32>, tensor<4xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// The loss must be a float tensor.
func.func @int_loss(%x: tensor<3xf32>) -> tensor<3xsi32> {
  // expected-error @+1 {{the loss must be a float tensor}}
  %i = tile.cast %x : tensor<3xf32> -> tensor<3xsi32>
  return %i : tensor<3xsi32>
}

// -----

// Concatenation (assign with the other half as init): the init's gradient
// is the adjoint where no point writes. The mask of written elements has no
// input access, so it carries the dropped access's range check (d0 <= 1)
// as a constraint; without it the mask would cover 2..4 and more.
// CHECK-LABEL: func.func @concat
// CHECK: %[[W:.*]] = tile.contract assign, none, %{{.*}}, %{{.*}} {cons = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>, sink = affine_map<(d0) -> (d0 + 2)>, srcs = [affine_map<(d0) -> ()>]} : tensor<f32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[U:.*]] = tile.sub %{{.*}}, %[[W]]
// CHECK: tile.mul %{{.*}}, %[[U]]
func.func @concat(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<f32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %0 = tile.contract assign, none, %z, %a {sink = affine_map<(i) -> (i)>,
         srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<2xf32> -> tensor<4xf32>
  %1 = tile.contract assign, none, %0, %b {sink = affine_map<(i) -> (i + 2)>,
         srcs = [affine_map<(i) -> (i)>]} : tensor<4xf32>, tensor<2xf32> -> tensor<4xf32>
  %L = tile.contract add, none, %z, %1 {sink = affine_map<(i) -> ()>,
         srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return %L : tensor<f32>
}
