// RUN: plaidml-opt %s -tile-compute-bounds -split-input-file -verify-diagnostics

// k appears only in a constraint that bounds it from below.
func.func @unbounded_above(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{index 'k' is unbounded above; bound it with a tensor access or a constraint}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "k"],
         sink = affine_map<(x, k) -> (x)>,
         srcs = [affine_map<(x, k) -> (x)>],
         cons = affine_set<(x, k) : (k - x >= 0)>}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

func.func @unbounded_below(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{index 'k' is unbounded below}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "k"],
         sink = affine_map<(x, k) -> (x)>,
         srcs = [affine_map<(x, k) -> (x)>],
         cons = affine_set<(x, k) : (x - k >= 0)>}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

// An index no access or constraint mentions; unnamed, so it is called d1.
func.func @unused_index(%I: tensor<11xf32>) -> tensor<11xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{index 'd1' is unbounded below and above}}
  %O = tile.contract add, none, %zero, %I {
         sink = affine_map<(x, k) -> (x)>,
         srcs = [affine_map<(x, k) -> (x)>]}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %O : tensor<11xf32>
}

// -----

// Only the difference x - k is bounded: each index alone is not, and each
// gets its own error.
func.func @unbounded_difference(%I: tensor<11xf32>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+2 {{index 'x' is unbounded below and above}}
  // expected-error @+1 {{index 'k' is unbounded below and above}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "k"],
         sink = affine_map<(x, k) -> ()>,
         srcs = [affine_map<(x, k) -> (x - k)>]}
       : tensor<f32>, tensor<11xf32> -> tensor<f32>
  return %O : tensor<f32>
}

// -----

// A floordiv in a constraint does not bound its index from above on its own.
func.func @unbounded_through_floordiv(%I: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{index 'j' is unbounded above}}
  %O = tile.contract add, none, %zero, %I {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (i)>,
         srcs = [affine_map<(i, j) -> (i)>],
         cons = affine_set<(i, j) : (j floordiv 2 - i >= 0)>}
       : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// x floordiv 4 < 2^62 lets x reach 2^64 - 1, past int64.
func.func @bound_too_large(%I: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{index 'x' ranges over [0, 18446744073709551615], which does not fit in 64 bits}}
  %O = tile.contract add, none, %zero, %I {idxs = ["x", "y"],
         sink = affine_map<(x, y) -> (x floordiv 4)>,
         srcs = [affine_map<(x, y) -> (y)>]}
       : tensor<f32>, tensor<4611686018427387904xf32> -> tensor<4611686018427387904xf32>
  return %O : tensor<4611686018427387904xf32>
}

// -----

// One bad contraction does not stop the others from being diagnosed.
func.func @two_bad(%I: tensor<11xf32>) -> (tensor<11xf32>, tensor<11xf32>) {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{index 'a' is unbounded}}
  %A = tile.contract add, none, %zero, %I {idxs = ["x", "a"],
         sink = affine_map<(x, a) -> (x)>, srcs = [affine_map<(x, a) -> (x)>]}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  // expected-error @+1 {{index 'b' is unbounded}}
  %B = tile.contract add, none, %zero, %I {idxs = ["x", "b"],
         sink = affine_map<(x, b) -> (x)>, srcs = [affine_map<(x, b) -> (x)>]}
       : tensor<f32>, tensor<11xf32> -> tensor<11xf32>
  return %A, %B : tensor<11xf32>, tensor<11xf32>
}
