// RUN: plaidml-opt %s | plaidml-opt | FileCheck %s
// RUN: plaidml-opt %s -mlir-print-op-generic | plaidml-opt | FileCheck %s

// Round trip of every Tile op in its custom and generic forms, over every
// element type class (i1, signed/unsigned/signless integers, f16, bf16, f32,
// f64) and rank-0 scalars.

// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[T2:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[SHIFT:.*]] = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-DAG: #[[SET:.*]] = affine_set<(d0, d1) : (d0 - d1 >= 0, -d0 + 3 >= 0)>

//===----------------------------------------------------------------------===//
// tile.contract
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @contract_aggregations
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[I:.*]]: tensor<f32>)
func.func @contract_aggregations(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>, %init: tensor<f32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: tile.contract assign, mul, %[[I]], %[[A]], %[[B]] {sink = #[[MN]], srcs = [#[[MK]], #[[KN]]]} : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %0 = tile.contract assign, mul, %init, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  // CHECK: tile.contract add, mul, %[[I]], %[[A]], %[[B]] {sink = #[[MN]], srcs = [#[[MK]], #[[KN]]]}
  %1 = tile.contract add, mul, %init, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  // CHECK: tile.contract mul, mul, %[[I]], %[[A]], %[[B]]
  %2 = tile.contract mul, mul, %init, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  // CHECK: tile.contract max, mul, %[[I]], %[[A]], %[[B]]
  %3 = tile.contract max, mul, %init, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  // CHECK: tile.contract min, mul, %[[I]], %[[A]], %[[B]]
  %4 = tile.contract min, mul, %init, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0, %1, %2, %3, %4 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @contract_combinations
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf16>, %[[B:.*]]: tensor<4x8xsi32>, %[[C:.*]]: tensor<4x8xf64>)
func.func @contract_combinations(%a: tensor<4x8xf16>, %b: tensor<4x8xsi32>, %c: tensor<4x8xf64>)
    -> (tensor<4xf32>, tensor<4x8xf16>, tensor<4x8xsi64>, tensor<8x4xf64>) {
  // CHECK-DAG: %[[F32:.*]] = tile.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-DAG: %[[F16:.*]] = tile.constant dense<0.000000e+00> : tensor<4x1xf16>
  // CHECK-DAG: %[[S64:.*]] = tile.constant dense<0> : tensor<si64>
  // CHECK-DAG: %[[F64:.*]] = tile.constant dense<-1.000000e+00> : tensor<8x4xf64>
  %f32 = tile.constant dense<0.0> : tensor<f32>
  %f16 = tile.constant dense<0.0> : tensor<4x1xf16>
  %s64 = tile.constant dense<0> : tensor<si64>
  %f64 = tile.constant dense<-1.0> : tensor<8x4xf64>
  // Accumulate f16 in f32.
  // CHECK: tile.contract add, none, %[[F32]], %[[A]] {sink = #[[ROW]], srcs = [#[[ID2]]]} : tensor<f32>, tensor<4x8xf16> -> tensor<4xf32>
  %0 = tile.contract add, none, %f32, %a {sink = affine_map<(i, j) -> (i)>,
         srcs = [affine_map<(i, j) -> (i, j)>]} : tensor<f32>, tensor<4x8xf16> -> tensor<4xf32>
  // CHECK: tile.contract max, add, %[[F16]], %[[A]], %[[A]] {sink = #[[ID2]], srcs = [#[[ID2]], #[[ID2]]]} : tensor<4x1xf16>, tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %1 = tile.contract max, add, %f16, %a, %a {sink = affine_map<(i, j) -> (i, j)>,
         srcs = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]}
       : tensor<4x1xf16>, tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK: tile.contract add, eq, %[[S64]], %[[B]], %[[B]] {sink = #[[ID2]], srcs = [#[[ID2]], #[[ID2]]]} : tensor<si64>, tensor<4x8xsi32>, tensor<4x8xsi32> -> tensor<4x8xsi64>
  %2 = tile.contract add, eq, %s64, %b, %b {sink = affine_map<(i, j) -> (i, j)>,
         srcs = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]}
       : tensor<si64>, tensor<4x8xsi32>, tensor<4x8xsi32> -> tensor<4x8xsi64>
  // CHECK: tile.contract assign, cond, %[[F64]], %[[B]], %[[B]], %[[C]] {sink = #[[T2]], srcs = [#[[ID2]], #[[ID2]], #[[ID2]]]} : tensor<8x4xf64>, tensor<4x8xsi32>, tensor<4x8xsi32>, tensor<4x8xf64> -> tensor<8x4xf64>
  %3 = tile.contract assign, cond, %f64, %b, %b, %c {sink = affine_map<(i, j) -> (j, i)>,
         srcs = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]}
       : tensor<8x4xf64>, tensor<4x8xsi32>, tensor<4x8xsi32>, tensor<4x8xf64> -> tensor<8x4xf64>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4x8xf16>, tensor<4x8xsi64>, tensor<8x4xf64>
}

// CHECK-LABEL: func.func @contract_attributes
// CHECK-SAME: (%[[X:.*]]: tensor<8xbf16>, %[[I:.*]]: tensor<bf16>)
func.func @contract_attributes(%x: tensor<8xbf16>, %init: tensor<bf16>) -> tensor<4x4xbf16> {
  // CHECK: tile.contract add, none, %[[I]], %[[X]] {cons = #[[SET]], idxs = ["i", "k"], lower_bounds = array<i64: 0, 0>, sink = #[[ID2]], srcs = [#[[SHIFT]]], upper_bounds = array<i64: 3, 3>} : tensor<bf16>, tensor<8xbf16> -> tensor<4x4xbf16>
  %0 = tile.contract add, none, %init, %x {
         cons = affine_set<(i, k) : (i - k >= 0, 3 - i >= 0)>,
         idxs = ["i", "k"], lower_bounds = array<i64: 0, 0>,
         sink = affine_map<(i, k) -> (i, k)>, srcs = [affine_map<(i, k) -> (i + k)>],
         upper_bounds = array<i64: 3, 3>} : tensor<bf16>, tensor<8xbf16> -> tensor<4x4xbf16>
  return %0 : tensor<4x4xbf16>
}

//===----------------------------------------------------------------------===//
// Constants and casts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xi1>, tensor<3xsi8>, tensor<ui16>, tensor<2x2xi32>, tensor<si64>,
                           tensor<2xf16>, tensor<bf16>, tensor<f32>, tensor<2xf64>, tensor<0xf32>) {
  // CHECK: tile.constant dense<[true, false]> : tensor<2xi1>
  %0 = tile.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: tile.constant dense<[-128, 0, 127]> : tensor<3xsi8>
  %1 = tile.constant dense<[-128, 0, 127]> : tensor<3xsi8>
  // CHECK: tile.constant dense<65535> : tensor<ui16>
  %2 = tile.constant dense<65535> : tensor<ui16>
  // CHECK: tile.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
  %3 = tile.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK: tile.constant dense<-9223372036854775808> : tensor<si64>
  %4 = tile.constant dense<-9223372036854775808> : tensor<si64>
  // CHECK: tile.constant dense<[1.500000e+00, 0xFC00]> : tensor<2xf16>
  %5 = tile.constant dense<[1.5, 0xFC00]> : tensor<2xf16>
  // CHECK: tile.constant dense<2.500000e-01> : tensor<bf16>
  %6 = tile.constant dense<0.25> : tensor<bf16>
  // CHECK: tile.constant dense<0x7FC00000> : tensor<f32>
  %7 = tile.constant dense<0x7FC00000> : tensor<f32>
  // CHECK: tile.constant dense<[1.000000e-300, 1.000000e+300]> : tensor<2xf64>
  %8 = tile.constant dense<[1.0e-300, 1.0e300]> : tensor<2xf64>
  // CHECK: tile.constant dense<> : tensor<0xf32>
  %9 = tile.constant dense<> : tensor<0xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<2xi1>, tensor<3xsi8>, tensor<ui16>, tensor<2x2xi32>, tensor<si64>,
                                                  tensor<2xf16>, tensor<bf16>, tensor<f32>, tensor<2xf64>, tensor<0xf32>
}

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<i1>)
func.func @casts(%x: tensor<4xf32>, %b: tensor<i1>) -> (tensor<4xsi32>, tensor<4xi1>, tensor<4xbf16>, tensor<f64>, tensor<4xui16>) {
  // CHECK: %[[S:.*]] = tile.cast %[[X]] : tensor<4xf32> -> tensor<4xsi32>
  %0 = tile.cast %x : tensor<4xf32> -> tensor<4xsi32>
  // CHECK: tile.cast %[[X]] : tensor<4xf32> -> tensor<4xi1>
  %1 = tile.cast %x : tensor<4xf32> -> tensor<4xi1>
  // CHECK: tile.cast %[[X]] : tensor<4xf32> -> tensor<4xbf16>
  %2 = tile.cast %x : tensor<4xf32> -> tensor<4xbf16>
  // CHECK: tile.cast %[[B]] : tensor<i1> -> tensor<f64>
  %3 = tile.cast %b : tensor<i1> -> tensor<f64>
  // CHECK: tile.cast %[[S]] : tensor<4xsi32> -> tensor<4xui16>
  %4 = tile.cast %0 : tensor<4xsi32> -> tensor<4xui16>
  return %0, %1, %2, %3, %4 : tensor<4xsi32>, tensor<4xi1>, tensor<4xbf16>, tensor<f64>, tensor<4xui16>
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[F:.*]]: tensor<2x3xf32>, %[[H:.*]]: tensor<f16>, %[[I:.*]]: tensor<5xsi8>, %[[U:.*]]: tensor<ui16>, %[[B:.*]]: tensor<3xi1>)
func.func @unary(%f: tensor<2x3xf32>, %h: tensor<f16>, %i: tensor<5xsi8>, %u: tensor<ui16>, %b: tensor<3xi1>) {
  // CHECK: tile.neg %[[I]] : tensor<5xsi8>
  %0 = tile.neg %i : tensor<5xsi8>
  // CHECK: tile.abs %[[F]] : tensor<2x3xf32>
  %1 = tile.abs %f : tensor<2x3xf32>
  // CHECK: tile.relu %[[U]] : tensor<ui16>
  %2 = tile.relu %u : tensor<ui16>
  // CHECK: tile.exp %[[H]] : tensor<f16>
  %3 = tile.exp %h : tensor<f16>
  // CHECK: tile.log %[[F]] : tensor<2x3xf32>
  %4 = tile.log %f : tensor<2x3xf32>
  // CHECK: tile.sqrt %[[F]] : tensor<2x3xf32>
  %5 = tile.sqrt %f : tensor<2x3xf32>
  // CHECK: tile.tanh %[[F]] : tensor<2x3xf32>
  %6 = tile.tanh %f : tensor<2x3xf32>
  // CHECK: tile.sin %[[H]] : tensor<f16>
  %7 = tile.sin %h : tensor<f16>
  // CHECK: tile.cos %[[H]] : tensor<f16>
  %8 = tile.cos %h : tensor<f16>
  // CHECK: tile.floor %[[F]] : tensor<2x3xf32>
  %9 = tile.floor %f : tensor<2x3xf32>
  // CHECK: tile.ceil %[[F]] : tensor<2x3xf32>
  %10 = tile.ceil %f : tensor<2x3xf32>
  // CHECK: tile.round %[[F]] : tensor<2x3xf32>
  %11 = tile.round %f : tensor<2x3xf32>
  // CHECK: tile.erf %[[F]] : tensor<2x3xf32>
  %12 = tile.erf %f : tensor<2x3xf32>
  // CHECK: tile.sigmoid %[[F]] : tensor<2x3xf32>
  %13 = tile.sigmoid %f : tensor<2x3xf32>
  // CHECK: tile.bit_not %[[I]] : tensor<5xsi8>
  %14 = tile.bit_not %i : tensor<5xsi8>
  // CHECK: tile.bit_not %[[B]] : tensor<3xi1>
  %15 = tile.bit_not %b : tensor<3xi1>
  // CHECK: tile.logical_not %[[F]] : tensor<2x3xf32> -> tensor<2x3xi1>
  %16 = tile.logical_not %f : tensor<2x3xf32> -> tensor<2x3xi1>
  // CHECK: tile.logical_not %[[B]] : tensor<3xi1> -> tensor<3xi1>
  %17 = tile.logical_not %b : tensor<3xi1> -> tensor<3xi1>
  return
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @arithmetic
// CHECK-SAME: (%[[F:.*]]: tensor<4x8xf32>, %[[S:.*]]: tensor<8xsi32>, %[[D:.*]]: tensor<f64>, %[[U:.*]]: tensor<4x1xui16>)
func.func @arithmetic(%f: tensor<4x8xf32>, %s: tensor<8xsi32>, %d: tensor<f64>, %u: tensor<4x1xui16>) {
  // CHECK: tile.add %[[F]], %[[S]] : tensor<4x8xf32>, tensor<8xsi32> -> tensor<4x8xf32>
  %0 = tile.add %f, %s : tensor<4x8xf32>, tensor<8xsi32> -> tensor<4x8xf32>
  // CHECK: tile.sub %[[F]], %[[D]] : tensor<4x8xf32>, tensor<f64> -> tensor<4x8xf64>
  %1 = tile.sub %f, %d : tensor<4x8xf32>, tensor<f64> -> tensor<4x8xf64>
  // CHECK: tile.mul %[[F]], %[[F]] : tensor<4x8xf32>
  %2 = tile.mul %f, %f : tensor<4x8xf32>
  // CHECK: tile.div %[[S]], %[[U]] : tensor<8xsi32>, tensor<4x1xui16> -> tensor<4x8xsi32>
  %3 = tile.div %s, %u : tensor<8xsi32>, tensor<4x1xui16> -> tensor<4x8xsi32>
  // CHECK: tile.mod %[[S]], %[[S]] : tensor<8xsi32>
  %4 = tile.mod %s, %s : tensor<8xsi32>
  // CHECK: tile.pow %[[D]], %[[D]] : tensor<f64>
  %5 = tile.pow %d, %d : tensor<f64>
  // CHECK: tile.max %[[U]], %[[U]] : tensor<4x1xui16>
  %6 = tile.max %u, %u : tensor<4x1xui16>
  // CHECK: tile.min %[[U]], %[[F]] : tensor<4x1xui16>, tensor<4x8xf32> -> tensor<4x8xf32>
  %7 = tile.min %u, %f : tensor<4x1xui16>, tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @bitwise
// CHECK-SAME: (%[[A:.*]]: tensor<3xsi64>, %[[B:.*]]: tensor<ui16>, %[[C:.*]]: tensor<3xi32>, %[[P:.*]]: tensor<3xi1>)
func.func @bitwise(%a: tensor<3xsi64>, %b: tensor<ui16>, %c: tensor<3xi32>, %p: tensor<3xi1>) {
  // CHECK: tile.bit_and %[[A]], %[[B]] : tensor<3xsi64>, tensor<ui16> -> tensor<3xsi64>
  %0 = tile.bit_and %a, %b : tensor<3xsi64>, tensor<ui16> -> tensor<3xsi64>
  // CHECK: tile.bit_or %[[C]], %[[C]] : tensor<3xi32>
  %1 = tile.bit_or %c, %c : tensor<3xi32>
  // CHECK: tile.bit_xor %[[P]], %[[P]] : tensor<3xi1>
  %2 = tile.bit_xor %p, %p : tensor<3xi1>
  // CHECK: tile.shl %[[C]], %[[B]] : tensor<3xi32>, tensor<ui16> -> tensor<3xi32>
  %3 = tile.shl %c, %b : tensor<3xi32>, tensor<ui16> -> tensor<3xi32>
  // CHECK: tile.shr %[[B]], %[[B]] : tensor<ui16>
  %4 = tile.shr %b, %b : tensor<ui16>
  return
}

// CHECK-LABEL: func.func @logical
// CHECK-SAME: (%[[P:.*]]: tensor<3xi1>, %[[F:.*]]: tensor<2x3xbf16>, %[[S:.*]]: tensor<si8>)
func.func @logical(%p: tensor<3xi1>, %f: tensor<2x3xbf16>, %s: tensor<si8>) {
  // CHECK: tile.logical_and %[[P]], %[[P]] : tensor<3xi1>
  %0 = tile.logical_and %p, %p : tensor<3xi1>
  // CHECK: tile.logical_or %[[F]], %[[P]] : tensor<2x3xbf16>, tensor<3xi1> -> tensor<2x3xi1>
  %1 = tile.logical_or %f, %p : tensor<2x3xbf16>, tensor<3xi1> -> tensor<2x3xi1>
  // CHECK: tile.logical_xor %[[S]], %[[S]] : tensor<si8>, tensor<si8> -> tensor<i1>
  %2 = tile.logical_xor %s, %s : tensor<si8>, tensor<si8> -> tensor<i1>
  return
}

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<f32>, %[[I:.*]]: tensor<4xsi64>, %[[U:.*]]: tensor<ui16>)
func.func @compare(%a: tensor<4xf32>, %b: tensor<f32>, %i: tensor<4xsi64>, %u: tensor<ui16>) {
  // CHECK: tile.cmp eq, %[[A]], %[[B]] : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %0 = tile.cmp eq, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  // CHECK: tile.cmp ne, %[[A]], %[[A]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %1 = tile.cmp ne, %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  // CHECK: tile.cmp lt, %[[I]], %[[U]] : tensor<4xsi64>, tensor<ui16> -> tensor<4xi1>
  %2 = tile.cmp lt, %i, %u : tensor<4xsi64>, tensor<ui16> -> tensor<4xi1>
  // CHECK: tile.cmp le, %[[U]], %[[U]] : tensor<ui16>, tensor<ui16> -> tensor<i1>
  %3 = tile.cmp le, %u, %u : tensor<ui16>, tensor<ui16> -> tensor<i1>
  // CHECK: tile.cmp gt, %[[I]], %[[A]] : tensor<4xsi64>, tensor<4xf32> -> tensor<4xi1>
  %4 = tile.cmp gt, %i, %a : tensor<4xsi64>, tensor<4xf32> -> tensor<4xi1>
  // CHECK: tile.cmp ge, %[[B]], %[[B]] : tensor<f32>, tensor<f32> -> tensor<i1>
  %5 = tile.cmp ge, %b, %b : tensor<f32>, tensor<f32> -> tensor<i1>
  return
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<2x4xf16>, %[[B:.*]]: tensor<bf16>, %[[I:.*]]: tensor<4xsi8>)
func.func @select(%c: tensor<4xi1>, %a: tensor<2x4xf16>, %b: tensor<bf16>, %i: tensor<4xsi8>) {
  // f16 with bf16 promotes to f32.
  // CHECK: tile.select %[[C]], %[[A]], %[[B]] : tensor<4xi1>, tensor<2x4xf16>, tensor<bf16> -> tensor<2x4xf32>
  %0 = tile.select %c, %a, %b : tensor<4xi1>, tensor<2x4xf16>, tensor<bf16> -> tensor<2x4xf32>
  // A non-i1 condition is tested against zero.
  // CHECK: tile.select %[[I]], %[[C]], %[[C]] : tensor<4xsi8>, tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %1 = tile.select %i, %c, %c : tensor<4xsi8>, tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<si64>, %[[IDS:.*]]: tensor<5xui16>, %[[T:.*]]: tensor<10x2xi32>)
func.func @shapes(%x: tensor<2x3xf32>, %s: tensor<si64>, %ids: tensor<5xui16>, %t: tensor<10x2xi32>) {
  // CHECK: tile.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  // CHECK: tile.reshape %[[S]] : tensor<si64> -> tensor<1x1xsi64>
  %1 = tile.reshape %s : tensor<si64> -> tensor<1x1xsi64>
  // CHECK: tile.index 0 : tensor<3x4xsi32>
  %2 = tile.index 0 : tensor<3x4xsi32>
  // CHECK: tile.index 1 : tensor<3x4xf16>
  %3 = tile.index 1 : tensor<3x4xf16>
  // CHECK: tile.index 0 : tensor<255xui8>
  %4 = tile.index 0 : tensor<255xui8>
  // An explicit default axis is not printed.
  // CHECK: %[[G:.*]] = tile.gather %[[T]], %[[IDS]] : tensor<10x2xi32>, tensor<5xui16> -> tensor<5x2xi32>
  %5 = tile.gather %t, %ids {axis = 0} : tensor<10x2xi32>, tensor<5xui16> -> tensor<5x2xi32>
  // CHECK: tile.gather %[[X]], %[[IDS]] {axis = 1 : i64} : tensor<2x3xf32>, tensor<5xui16> -> tensor<2x5xf32>
  %6 = tile.gather %x, %ids {axis = 1} : tensor<2x3xf32>, tensor<5xui16> -> tensor<2x5xf32>
  // Without an axis, gather uses axis 0.
  // CHECK: tile.gather %[[T]], %[[S]] : tensor<10x2xi32>, tensor<si64> -> tensor<2xi32>
  %7 = tile.gather %t, %s : tensor<10x2xi32>, tensor<si64> -> tensor<2xi32>
  // CHECK: tile.scatter %[[G]], %[[IDS]] : tensor<5x2xi32>, tensor<5xui16> -> tensor<10x2xi32>
  %8 = tile.scatter %5, %ids : tensor<5x2xi32>, tensor<5xui16> -> tensor<10x2xi32>
  // CHECK: tile.scatter %[[X]], %[[S]] {axis = 1 : i64} : tensor<2x3xf32>, tensor<si64> -> tensor<2x7x3xf32>
  %9 = tile.scatter %x, %s {axis = 1} : tensor<2x3xf32>, tensor<si64> -> tensor<2x7x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Element type classes
//===----------------------------------------------------------------------===//

// Every element type through one elementwise op, with rank-0 operands.
// CHECK-LABEL: func.func @element_types
func.func @element_types(%i1: tensor<i1>, %si8: tensor<si8>, %ui16: tensor<ui16>, %i32: tensor<i32>,
                         %si64: tensor<si64>, %f16: tensor<f16>, %bf16: tensor<bf16>, %f32: tensor<f32>,
                         %f64: tensor<f64>, %ui8: tensor<ui8>, %i64: tensor<i64>) {
  // CHECK: tile.logical_and %{{.*}}, %{{.*}} : tensor<i1>
  %0 = tile.logical_and %i1, %i1 : tensor<i1>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<si8>
  %1 = tile.add %si8, %si8 : tensor<si8>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<ui16>
  %2 = tile.add %ui16, %ui16 : tensor<ui16>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<i32>
  %3 = tile.add %i32, %i32 : tensor<i32>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<si64>
  %4 = tile.add %si64, %si64 : tensor<si64>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<f16>
  %5 = tile.add %f16, %f16 : tensor<f16>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<bf16>
  %6 = tile.add %bf16, %bf16 : tensor<bf16>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<f32>
  %7 = tile.add %f32, %f32 : tensor<f32>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<f64>
  %8 = tile.add %f64, %f64 : tensor<f64>
  // Promotion: bool < integers by width, unsigned above signed of one width,
  // integers < f16/bf16 < f32 < f64.
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<i1>, tensor<si8> -> tensor<si8>
  %9 = tile.add %i1, %si8 : tensor<i1>, tensor<si8> -> tensor<si8>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<si8>, tensor<ui8> -> tensor<ui8>
  %10 = tile.add %si8, %ui8 : tensor<si8>, tensor<ui8> -> tensor<ui8>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<ui16>, tensor<i32> -> tensor<i32>
  %11 = tile.add %ui16, %i32 : tensor<ui16>, tensor<i32> -> tensor<i32>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<si64>, tensor<i64> -> tensor<si64>
  %12 = tile.add %si64, %i64 : tensor<si64>, tensor<i64> -> tensor<si64>
  // Signless with signed gives signed, in either order.
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<i64>, tensor<si64> -> tensor<si64>
  %16 = tile.add %i64, %si64 : tensor<i64>, tensor<si64> -> tensor<si64>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<si64>, tensor<f16> -> tensor<f16>
  %13 = tile.add %si64, %f16 : tensor<si64>, tensor<f16> -> tensor<f16>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<f16>, tensor<bf16> -> tensor<f32>
  %14 = tile.add %f16, %bf16 : tensor<f16>, tensor<bf16> -> tensor<f32>
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<f32>, tensor<f64> -> tensor<f64>
  %15 = tile.add %f32, %f64 : tensor<f32>, tensor<f64> -> tensor<f64>
  return
}

//===----------------------------------------------------------------------===//
// tile.argsort, tile.prng
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @sort_and_random
func.func @sort_and_random(%x: tensor<2x3xf32>, %i: tensor<5xui8>,
                           %b: tensor<4x1xi1>, %s: tensor<6xui32>,
                           %t: tensor<6xsi32>)
    -> (tensor<2x3xsi32>, tensor<5xi32>, tensor<4x1xsi32>, tensor<2x3xf32>,
        tensor<6xui32>, tensor<f16>, tensor<6xsi32>, tensor<7xui32>) {
  // CHECK: tile.argsort asc, %{{.*}} {axis = 1 : i64} : tensor<2x3xf32> -> tensor<2x3xsi32>
  %0 = tile.argsort asc, %x {axis = 1} : tensor<2x3xf32> -> tensor<2x3xsi32>
  // CHECK: tile.argsort desc, %{{.*}} {axis = 0 : i64} : tensor<5xui8> -> tensor<5xi32>
  %1 = tile.argsort desc, %i {axis = 0} : tensor<5xui8> -> tensor<5xi32>
  // CHECK: tile.argsort asc, %{{.*}} {axis = 0 : i64} : tensor<4x1xi1> -> tensor<4x1xsi32>
  %2 = tile.argsort asc, %b {axis = 0} : tensor<4x1xi1> -> tensor<4x1xsi32>
  // CHECK: %[[V:.*]], %[[N:.*]] = tile.prng %{{.*}} : tensor<6xui32> -> tensor<2x3xf32>
  %v, %n = tile.prng %s : tensor<6xui32> -> tensor<2x3xf32>
  // Rank-0 values, a signed state.
  // CHECK: tile.prng %{{.*}} : tensor<6xsi32> -> tensor<f16>
  %h, %m = tile.prng %t : tensor<6xsi32> -> tensor<f16>
  // Raw words.
  // CHECK: tile.prng %{{.*}} : tensor<6xui32> -> tensor<7xui32>
  %w, %k = tile.prng %n : tensor<6xui32> -> tensor<7xui32>
  return %0, %1, %2, %v, %n, %h, %m, %w : tensor<2x3xsi32>, tensor<5xi32>, tensor<4x1xsi32>, tensor<2x3xf32>, tensor<6xui32>, tensor<f16>, tensor<6xsi32>, tensor<7xui32>
}
