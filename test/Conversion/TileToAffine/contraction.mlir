// RUN: plaidml-opt %s -convert-tile-to-affine -split-input-file | FileCheck %s
// RUN: plaidml-opt %s -convert-tile-to-affine="border-fill=false" -split-input-file | FileCheck %s --check-prefix=WHOLE
// RUN: plaidml-opt %s -convert-tile-to-affine="split-guards=false" -split-input-file | FileCheck %s --check-prefix=GUARDED

// Matrix multiplication: the sink dims (m, n) run in an outer affine.parallel
// whose body starts from the init, carries the sum through the reduction
// loop over k as an iter_arg and stores it once. The box covers the whole
// output, so there is no separate init fill.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[OUT:.*]]: memref<4x16xf32>)
// CHECK: %[[ZERO:.*]] = memref.get_global @{{.*}} : memref<f32>
// CHECK-NEXT: affine.parallel (%[[M:.*]], %[[N:.*]]) = (0, 0) to (4, 16) {
// CHECK-NEXT: %[[INIT:.*]] = affine.load %[[ZERO]][] : memref<f32>
// CHECK-NEXT: %[[RES:.*]] = affine.for %[[K:.*]] = 0 to 8 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT: %[[LHS:.*]] = affine.load %[[A]][%[[M]], %[[K]]] : memref<4x8xf32>
// CHECK-NEXT: %[[RHS:.*]] = affine.load %[[B]][%[[K]], %[[N]]] : memref<8x16xf32>
// CHECK-NEXT: %[[PROD:.*]] = arith.mulf %[[LHS]], %[[RHS]] : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[PROD]] : f32
// CHECK-NEXT: affine.yield %[[SUM]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: affine.store %[[RES]], %[[OUT]][%[[M]], %[[N]]] : memref<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @matmul(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>],
         lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 3, 15, 7>}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// -----

// A "same" 1-D convolution: the padding checks the box does not imply stay
// in `cons`. With split-guards (the default), the nest is split along x:
// the interior x = 1..2, where both checks hold for every k, has no guard;
// at each border value of x (0, 3, 4) they become bounds of k (1..2, 0..1,
// 0..0). Without, one nest whose aggregation an affine.if guards, yielding
// the partial sum unchanged at invalid points.

// CHECK-LABEL: func.func @same_conv
// CHECK-SAME: (%[[I:.*]]: memref<5xi32>, %[[K:.*]]: memref<3xi32>, %[[O:.*]]: memref<5xi32>)
// CHECK-NOT: affine.if
// CHECK: affine.parallel (%[[X0:.*]]) = (0) to (1) {
// CHECK-NEXT: %[[INIT0:.*]] = affine.load
// CHECK-NEXT: affine.for %[[W0:.*]] = 1 to 3 iter_args(%{{.*}} = %[[INIT0]]) -> (i32) {
// CHECK-NEXT: affine.load %[[I]][%[[X0]] + %[[W0]] - 1] : memref<5xi32>
// CHECK: affine.store %{{.*}}, %[[O]][%[[X0]]] : memref<5xi32>
// CHECK-NOT: affine.if
// CHECK: affine.parallel (%{{.*}}) = (1) to (3) {
// CHECK-NEXT: affine.load
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 iter_args
// CHECK-NOT: affine.if
// CHECK: affine.parallel (%{{.*}}) = (3) to (4) {
// CHECK-NEXT: affine.load
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 iter_args
// CHECK-NOT: affine.if
// CHECK: affine.parallel (%{{.*}}) = (4) to (5) {
// CHECK-NEXT: affine.load
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 iter_args
// CHECK-NOT: affine.if
// CHECK: return
// GUARDED: #[[SET:.*]] = affine_set<(d0, d1) : (d0 + d1 - 1 >= 0, -d0 - d1 + 4 >= 0)>
// GUARDED-LABEL: func.func @same_conv
// GUARDED-SAME: (%[[I:.*]]: memref<5xi32>, %[[K:.*]]: memref<3xi32>, %[[O:.*]]: memref<5xi32>)
// GUARDED: affine.parallel (%[[X:.*]]) = (0) to (5) {
// GUARDED-NEXT: %[[INIT:.*]] = affine.load
// GUARDED-NEXT: %[[RES:.*]] = affine.for %[[W:.*]] = 0 to 3 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (i32) {
// GUARDED-NEXT: %[[G:.*]] = affine.if #[[SET]](%[[X]], %[[W]]) -> i32 {
// GUARDED-NEXT: %[[IN:.*]] = affine.load %[[I]][%[[X]] + %[[W]] - 1] : memref<5xi32>
// GUARDED-NEXT: %[[KW:.*]] = affine.load %[[K]][%[[W]]] : memref<3xi32>
// GUARDED-NEXT: %[[P:.*]] = arith.muli %[[IN]], %[[KW]] : i32
// GUARDED-NEXT: %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// GUARDED-NEXT: affine.yield %[[S]] : i32
// GUARDED-NEXT: } else {
// GUARDED-NEXT: affine.yield %[[ACC]] : i32
// GUARDED-NEXT: }
// GUARDED-NEXT: affine.yield %[[G]] : i32
// GUARDED-NEXT: }
// GUARDED-NEXT: affine.store %[[RES]], %[[O]][%[[X]]] : memref<5xi32>
func.func @same_conv(%I: tensor<5xsi32>, %K: tensor<3xsi32>) -> tensor<5xsi32> {
  %zero = tile.constant dense<0> : tensor<si32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["x", "k"],
         sink = affine_map<(x, k) -> (x)>,
         srcs = [affine_map<(x, k) -> (x + k - 1)>, affine_map<(x, k) -> (k)>],
         cons = affine_set<(x, k) : (x + k - 1 >= 0, -x - k + 4 >= 0)>,
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 4, 2>}
       : tensor<si32>, tensor<5xsi32>, tensor<3xsi32> -> tensor<5xsi32>
  return %O : tensor<5xsi32>
}

// -----

// Bounds that do not start at zero become affine.parallel / affine.for
// bounds; the output elements outside the box keep the init, so they are
// filled first: with border-fill (the default) only those, one nest per
// side; without, the whole output.

// CHECK-LABEL: func.func @shifted_bounds
// CHECK: affine.parallel (%{{.*}}) = (0) to (1) {
// CHECK: affine.store
// CHECK: affine.parallel (%{{.*}}) = (3) to (4) {
// CHECK: affine.store
// CHECK: affine.parallel (%{{.*}}) = (1) to (3) {
// WHOLE-LABEL: func.func @shifted_bounds
// WHOLE: affine.parallel (%{{.*}}) = (0) to (4) {
// WHOLE: affine.store
// WHOLE-NEXT: }
// WHOLE-NEXT: affine.parallel (%{{.*}}) = (1) to (3) {
// CHECK-NEXT: affine.load
// CHECK-NEXT: affine.for %{{.*}} = 2 to 5 iter_args
func.func @shifted_bounds(%I: tensor<8xf32>) -> tensor<4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, none, %zero, %I {
         sink = affine_map<(x, k) -> (x)>, srcs = [affine_map<(x, k) -> (x + k)>],
         lower_bounds = array<i64: 1, 2>, upper_bounds = array<i64: 2, 4>}
       : tensor<f32>, tensor<8xf32> -> tensor<4xf32>
  return %O : tensor<4xf32>
}

// -----

// A sink that is not a projected permutation: each result that is an index
// alone or an index plus a constant makes that index parallel (distinct
// values write distinct elements), once per index; the other indices are
// sequential affine.for loops inside.

// CHECK-LABEL: func.func @diagonal_sink
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (3) {
// CHECK-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[I]]] : memref<3xi32>
// CHECK-NEXT: affine.store %[[V]], %{{.*}}[%[[I]], %[[I]]] : memref<3x3xi32>
func.func @diagonal_sink(%x: tensor<3xsi32>) -> tensor<3x3xsi32> {
  %zero = tile.constant dense<0> : tensor<si32>
  %d = tile.contract assign, none, %zero, %x {
         sink = affine_map<(i) -> (i, i)>, srcs = [affine_map<(i) -> (i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 2>}
       : tensor<si32>, tensor<3xsi32> -> tensor<3x3xsi32>
  return %d : tensor<3x3xsi32>
}

// CHECK-LABEL: func.func @constant_in_sink
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (3) {
// CHECK: affine.store %{{.*}}, %{{.*}}[0, %[[I]]] : memref<2x3xf32>
func.func @constant_in_sink(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %d = tile.contract add, none, %zero, %x {
         sink = affine_map<(i) -> (0, i)>, srcs = [affine_map<(i) -> (i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 2>}
       : tensor<f32>, tensor<3xf32> -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// Padding: `O[h + 1, w + 2] = I[h, w]` writes distinct elements for
// distinct (h, w), so both are parallel after the init fill of the border
// (rows 0 and 4, then columns 0-1 and 5-6 of rows 1-3).

// CHECK-LABEL: func.func @pad_sink
// CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (1, 7) {
// CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (4, 0) to (5, 7) {
// CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (1, 0) to (4, 2) {
// CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (1, 5) to (4, 7) {
// CHECK: affine.parallel (%[[H:.*]], %[[W:.*]]) = (0, 0) to (3, 3) {
// WHOLE-LABEL: func.func @pad_sink
// WHOLE: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (5, 7) {
// WHOLE: affine.store
// WHOLE-NEXT: }
// WHOLE-NEXT: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (3, 3) {
// CHECK-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[H]], %[[W]]] : memref<3x3xf32>
// CHECK-NEXT: affine.store %[[V]], %{{.*}}[%[[H]] + 1, %[[W]] + 2] : memref<5x7xf32>
func.func @pad_sink(%x: tensor<3x3xf32>) -> tensor<5x7xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %p = tile.contract assign, none, %zero, %x {
         sink = affine_map<(h, w) -> (h + 1, w + 2)>,
         srcs = [affine_map<(h, w) -> (h, w)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 2>}
       : tensor<f32>, tensor<3x3xf32> -> tensor<5x7xf32>
  return %p : tensor<5x7xf32>
}

// A windowed sum `O[i + k] += I[i, k]`: two points write one element, so
// nothing is parallel and the read-modify-write runs in order.

// CHECK-LABEL: func.func @window_sink
// CHECK-NOT: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (3, 2)
// CHECK: affine.for %[[I:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 2 {
// CHECK-NEXT: %[[OLD:.*]] = affine.load %{{.*}}[%[[I]] + %[[K]]] : memref<4xf32>
func.func @window_sink(%x: tensor<3x2xf32>) -> tensor<4xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %w = tile.contract add, none, %zero, %x {
         sink = affine_map<(i, k) -> (i + k)>,
         srcs = [affine_map<(i, k) -> (i, k)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 2, 1>}
       : tensor<f32>, tensor<3x2xf32> -> tensor<4xf32>
  return %w : tensor<4xf32>
}

// A depthwise convolution's output channel `g + c` with `c` of range 1 is
// `g`: the sink is a permutation again and the nest reduces in registers.
// A result that is a unit index alone (the batch `n`) stays.

// CHECK-LABEL: func.func @unit_index_sink
// CHECK: affine.parallel (%[[N:.*]], %[[X:.*]], %[[G:.*]]) = (0, 0, 0) to (1, 4, 8) {
// CHECK: affine.for %{{.*}} = 0 to 1 iter_args
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 iter_args
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[N]], %[[X]], %[[G]]] : memref<1x4x8xf32>
func.func @unit_index_sink(%I: tensor<1x6x8xf32>, %F: tensor<3x8x1xf32>) -> tensor<1x4x8xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %F {idxs = ["n", "x", "g", "c", "k"],
         sink = affine_map<(n, x, g, c, k) -> (n, x, g + c)>,
         srcs = [affine_map<(n, x, g, c, k) -> (n, x + k, g + c)>,
                 affine_map<(n, x, g, c, k) -> (k, g, c)>],
         lower_bounds = array<i64: 0, 0, 0, 0, 0>, upper_bounds = array<i64: 0, 3, 7, 0, 2>}
       : tensor<f32>, tensor<1x6x8xf32>, tensor<3x8x1xf32> -> tensor<1x4x8xf32>
  return %O : tensor<1x4x8xf32>
}

// A full reduction to a scalar has no parallel dims.

// CHECK-LABEL: func.func @sum_all
// CHECK: %[[INIT:.*]] = affine.load %{{.*}}[] : memref<f64>
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 iter_args(%[[A:.*]] = %[[INIT]]) -> (f64) {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 iter_args(%[[B:.*]] = %[[A]]) -> (f64) {
// CHECK: arith.addf %[[B]]
// CHECK: affine.store %{{.*}}, %{{.*}}[] : memref<f64>
func.func @sum_all(%x: tensor<2x3xf64>) -> tensor<f64> {
  %zero = tile.constant dense<0.0> : tensor<f64>
  %s = tile.contract add, none, %zero, %x {
         sink = affine_map<(r, c) -> ()>, srcs = [affine_map<(r, c) -> (r, c)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>}
       : tensor<f64>, tensor<2x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// An empty box (no valid point): only the init is written.

// CHECK-LABEL: func.func @empty_box
// CHECK: affine.parallel (%{{.*}}) = (0) to (3) {
// CHECK-NEXT: affine.load
// CHECK-NEXT: affine.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @empty_box(%x: tensor<3xf32>) -> tensor<3xf32> {
  %one = tile.constant dense<1.0> : tensor<f32>
  %e = tile.contract mul, none, %one, %x {
         sink = affine_map<(i) -> (i)>, srcs = [affine_map<(i) -> (i)>],
         cons = affine_set<(i) : (i - 5 >= 0)>,
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: -1>}
       : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
  return %e : tensor<3xf32>
}

// -----

// Aggregations: mul, max and min follow the element type (NaN-propagating
// float max/min, signed or unsigned integer max/min); assign only stores.

// CHECK-LABEL: func.func @aggregations
// CHECK: affine.for %{{.*}} = 0 to 3 iter_args(%[[A0:.*]] = %{{.*}}) -> (f32)
// CHECK-NEXT: affine.load
// CHECK-NEXT: arith.mulf %[[A0]], %{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i16
// CHECK: arith.minui %{{.*}}, %{{.*}} : i16
// CHECK: %[[V:.*]] = affine.load %{{.*}}[%[[R:.*]], %[[C:.*]]] : memref<2x3xi16>
// CHECK-NEXT: affine.store %[[V]], %{{.*}}[%[[C]], %[[R]]] : memref<3x2xi16>
func.func @aggregations(%x: tensor<2x3xf32>, %y: tensor<2x3xsi16>, %u: tensor<2x3xui16>)
    -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xsi16>, tensor<2xui16>, tensor<3x2xsi16>) {
  %one = tile.constant dense<1.0> : tensor<f32>
  %i0 = tile.constant dense<0> : tensor<si16>
  %u0 = tile.constant dense<65535> : tensor<ui16>
  %mul = tile.contract mul, none, %one, %x {sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>],
           lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>} : tensor<f32>, tensor<2x3xf32> -> tensor<2xf32>
  %max = tile.contract max, none, %one, %x {sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>],
           lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>} : tensor<f32>, tensor<2x3xf32> -> tensor<2xf32>
  %min = tile.contract min, none, %one, %x {sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>],
           lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>} : tensor<f32>, tensor<2x3xf32> -> tensor<2xf32>
  %smax = tile.contract max, none, %i0, %y {sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>],
           lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>} : tensor<si16>, tensor<2x3xsi16> -> tensor<2xsi16>
  %umin = tile.contract min, none, %u0, %u {sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>],
           lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>} : tensor<ui16>, tensor<2x3xui16> -> tensor<2xui16>
  %t = tile.contract assign, none, %i0, %y {sink = affine_map<(r, c) -> (c, r)>, srcs = [affine_map<(r, c) -> (r, c)>],
           lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>} : tensor<si16>, tensor<2x3xsi16> -> tensor<3x2xsi16>
  return %mul, %max, %min, %smax, %umin, %t : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xsi16>, tensor<2xui16>, tensor<3x2xsi16>
}

// -----

// add and mul combine in the result type: each input converts by its own
// signedness (si8 sign-extends, ui8 zero-extends), so nothing wraps in i8.

// CHECK-LABEL: func.func @combo_add_promoted
// CHECK: %[[L:.*]] = affine.load %{{.*}} : memref<4xi8>
// CHECK-NEXT: %[[R:.*]] = affine.load %{{.*}} : memref<4xi8>
// CHECK-NEXT: %[[LW:.*]] = arith.extsi %[[L]] : i8 to i32
// CHECK-NEXT: %[[RW:.*]] = arith.extui %[[R]] : i8 to i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[LW]], %[[RW]] : i32
// CHECK: arith.addi %{{.*}}, %[[S]] : i32
func.func @combo_add_promoted(%a: tensor<4xsi8>, %b: tensor<4xui8>) -> tensor<si32> {
  %zero = tile.constant dense<0> : tensor<si32>
  %s = tile.contract add, add, %zero, %a, %b {sink = affine_map<(i) -> ()>,
         srcs = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>}
       : tensor<si32>, tensor<4xsi8>, tensor<4xui8> -> tensor<si32>
  return %s : tensor<si32>
}

// f16 inputs extended to f32, multiplied and accumulated there (the
// products are exact).

// CHECK-LABEL: func.func @combo_mul_f16_to_f32
// CHECK: %[[A:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[B:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK: arith.addf %{{.*}}, %[[P]] : f32
func.func @combo_mul_f16_to_f32(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<f32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %s = tile.contract add, mul, %zero, %a, %b {sink = affine_map<(i) -> ()>,
         srcs = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
         lower_bounds = array<i64: 0>, upper_bounds = array<i64: 3>}
       : tensor<f32>, tensor<4xf16>, tensor<4xf16> -> tensor<f32>
  return %s : tensor<f32>
}

// eq yields i1 (ordered float compare), extended to the result type.

// CHECK-LABEL: func.func @combo_eq
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[EQ]] : i1 to i32
// CHECK: arith.addi %{{.*}}, %[[W]] : i32
func.func @combo_eq(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2xsi32> {
  %zero = tile.constant dense<0> : tensor<si32>
  %n = tile.contract add, eq, %zero, %a, %b {sink = affine_map<(r, c) -> (r)>,
         srcs = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>}
       : tensor<si32>, tensor<2x3xf32>, tensor<3xf32> -> tensor<2xsi32>
  return %n : tensor<2xsi32>
}

// cond: a == b ? c : 0, in c's type (argmax).

// CHECK-LABEL: func.func @combo_cond
// CHECK: %[[A:.*]] = affine.load %{{.*}} : memref<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = affine.load %{{.*}} : memref<2xf32>
// CHECK-NEXT: %[[C:.*]] = affine.load %{{.*}} : memref<2x3xi32>
// CHECK-NEXT: %[[EQ:.*]] = arith.cmpf oeq, %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[EQ]], %[[C]], %[[ZERO]] : i32
// CHECK: arith.maxsi %{{.*}}, %[[SEL]] : i32
func.func @combo_cond(%x: tensor<2x3xf32>, %m: tensor<2xf32>, %idx: tensor<2x3xsi32>) -> tensor<2xsi32> {
  %zero = tile.constant dense<0> : tensor<si32>
  %a = tile.contract max, cond, %zero, %x, %m, %idx {sink = affine_map<(r, c) -> (r)>,
         srcs = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>],
         lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 2>}
       : tensor<si32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xsi32> -> tensor<2xsi32>
  return %a : tensor<2xsi32>
}

// -----

// The init broadcasts like NumPy: a size-1 dim reads index 0, a missing
// leading dim is dropped from the access.

// CHECK-LABEL: func.func @broadcast_init
// CHECK-SAME: (%[[X:.*]]: memref<2x3xf32>, %[[INIT:.*]]: memref<3x1xf32>, %[[OUT:.*]]: memref<2x3x4xf32>)
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]], %[[K:.*]]) = (0, 0, 0) to (2, 3, 4) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[INIT]][%[[J]], 0] : memref<3x1xf32>
// CHECK-NEXT: %[[E:.*]] = affine.load %[[X]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[E]] : f32
// CHECK-NEXT: affine.store %[[S]], %[[OUT]][%[[I]], %[[J]], %[[K]]]
func.func @broadcast_init(%x: tensor<2x3xf32>, %init: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %o = tile.contract add, none, %init, %x {sink = affine_map<(i, j, k) -> (i, j, k)>,
         srcs = [affine_map<(i, j, k) -> (i, j)>],
         lower_bounds = array<i64: 0, 0, 0>, upper_bounds = array<i64: 1, 2, 3>}
       : tensor<3x1xf32>, tensor<2x3xf32> -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}
