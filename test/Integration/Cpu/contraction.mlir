// Contractions compiled through convert-tile-to-affine and upstream passes to
// LLVM, run by mlir-runner; the expected values are those the reference
// interpreter prints for the same functions (plaidml-run --device reference).
// tile-compute-bounds is written out by hand (lower_bounds, upper_bounds and
// the constraints the box does not imply) until that pass lands.
//
// RUN: plaidml-opt %s -convert-tile-to-affine \
// RUN:   | sed -e '/^module/d' -e '/^}$/d' | cat - %S/Inputs/contraction-main.mlir \
// RUN:   | plaidml-opt -lower-affine -convert-scf-to-cf -convert-math-to-llvm \
// RUN:       -convert-math-to-libm -expand-strided-metadata -finalize-memref-to-llvm \
// RUN:       -convert-arith-to-llvm -convert-cf-to-llvm -convert-func-to-llvm \
// RUN:       -reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// CHECK-LABEL: matmul
// CHECK: data =
// CHECK-NEXT: {{\[\[}}4, 5],
// CHECK-NEXT: [10, 11]]
func.func @matmul() -> tensor<2x2xf32> {
  %a = tile.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tile.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>],
         lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 1, 2>}
       : tensor<f32>, tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

// A "same" convolution: the padding checks stay in `cons` (affine.if).
// CHECK-LABEL: same_conv
// CHECK: data =
// CHECK-NEXT: [210, 321, 432, 43]
func.func @same_conv() -> tensor<4xsi32> {
  %i = tile.constant dense<[1, 2, 3, 4]> : tensor<4xsi32>
  %k = tile.constant dense<[1, 10, 100]> : tensor<3xsi32>
  %zero = tile.constant dense<0> : tensor<si32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (x + i - 1)>, affine_map<(x, i) -> (i)>],
         cons = affine_set<(x, i) : (x + i - 1 >= 0, -x - i + 4 >= 0)>,
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 2>}
       : tensor<si32>, tensor<4xsi32>, tensor<3xsi32> -> tensor<4xsi32>
  return %o : tensor<4xsi32>
}

// Cumulative sum over a triangular index space.
// CHECK-LABEL: cumsum
// CHECK: data =
// CHECK-NEXT: [1, 3, 6, 10, 15]
func.func @cumsum() -> tensor<5xsi64> {
  %i = tile.constant dense<[1, 2, 3, 4, 5]> : tensor<5xsi64>
  %zero = tile.constant dense<0> : tensor<si64>
  %o = tile.contract add, none, %zero, %i {idxs = ["i", "k"],
         sink = affine_map<(i, k) -> (i)>, srcs = [affine_map<(i, k) -> (k)>],
         cons = affine_set<(i, k) : (i - k >= 0)>,
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 4, 4>}
       : tensor<si64>, tensor<5xsi64> -> tensor<5xsi64>
  return %o : tensor<5xsi64>
}

// Argmax: max, then `cond` picks the index where the element equals it.
// A NaN row keeps max NaN (maximumf propagates) and matches nowhere; a tie
// keeps the larger index.
// CHECK-LABEL: argmax
// CHECK: data =
// CHECK-NEXT: [nan, 8, 9]
// CHECK: data =
// CHECK-NEXT: [0, 0, 2]
func.func @argmax() -> (tensor<3xf32>, tensor<3xsi32>) {
  %x = tile.constant dense<[[1.0, 0x7FC00000, 9.0], [8.0, 2.0, 3.0], [-1.0, 9.0, 9.0]]> : tensor<3x3xf32>
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %m = tile.contract max, none, %lowest, %x {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>}
       : tensor<f32>, tensor<3x3xf32> -> tensor<3xf32>
  %idx = tile.index 1 : tensor<3x3xsi32>
  %zero = tile.constant dense<0> : tensor<si32>
  %a = tile.contract max, cond, %zero, %x, %m, %idx {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r)>,
         srcs = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>,
                 affine_map<(r, c) -> (r, c)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>}
       : tensor<si32>, tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xsi32> -> tensor<3xsi32>
  return %m, %a : tensor<3xf32>, tensor<3xsi32>
}

// A non-projected sink (diagonal write), f16 inputs accumulated in f32, and
// a wrapping si8 product.
// CHECK-LABEL: mixed
// CHECK: data =
// CHECK-NEXT: {{\[\[}}1, 7, 7],
// CHECK-NEXT: [7, 5, 7],
// CHECK-NEXT: [7, 7, 9]]
// CHECK: data =
// CHECK-NEXT: [2049]
// CHECK: data =
// CHECK-NEXT: [-46]
func.func @mixed() -> (tensor<3x3xf64>, tensor<f32>, tensor<si32>) {
  %x = tile.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf64>
  %seven = tile.constant dense<7.0> : tensor<f64>
  %d = tile.contract assign, none, %seven, %x {idxs = ["i"],
         sink = affine_map<(i) -> (i, i)>, srcs = [affine_map<(i) -> (i, i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 2>}
       : tensor<f64>, tensor<3x3xf64> -> tensor<3x3xf64>
  %h = tile.constant dense<[2048.0, 1.0]> : tensor<2xf16>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %s = tile.contract add, none, %zero, %h {idxs = ["i"],
         sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 1>}
       : tensor<f32>, tensor<2xf16> -> tensor<f32>
  %p8 = tile.constant dense<[2, 3, 5, 7]> : tensor<4xsi8>
  %one = tile.constant dense<1> : tensor<si8>
  %p = tile.contract mul, none, %one, %p8 {idxs = ["i"],
         sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>}
       : tensor<si8>, tensor<4xsi8> -> tensor<si8>
  %p32 = tile.cast %p : tensor<si8> -> tensor<si32>
  return %d, %s, %p32 : tensor<3x3xf64>, tensor<f32>, tensor<si32>
}
