// RUN: plaidml-opt %s -convert-tile-to-affine -split-input-file | FileCheck %s

// argsort: one parallel nest over the operand; each element counts, along
// its line, the elements before it (a key strictly first, or a tie at a
// lower position) and stores its own position at that rank.

// CHECK-LABEL: func.func @argsort
// CHECK-SAME: (%[[X:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<2x3xi32>)
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) {
// CHECK: %[[SELF:.*]] = affine.load %[[X]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK: %[[RANK:.*]] = affine.for %[[K:.*]] = 0 to 3 iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK: %[[OTHER:.*]] = affine.load %[[X]][%[[I]], %[[K]]] : memref<2x3xf32>
// CHECK: arith.cmpf olt, %[[OTHER]], %[[SELF]]
// CHECK: arith.cmpf une
// CHECK: arith.cmpi ult, %[[K]], %[[J]]
// CHECK: %[[STEP:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: %[[NEXT:.*]] = arith.addi %[[ACC]], %[[STEP]] : i32
// CHECK: affine.yield %[[NEXT]] : i32
// CHECK: %[[AT:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[POS:.*]] = arith.index_castui %[[J]] : index to i32
// CHECK: memref.store %[[POS]], %[[OUT]][%[[I]], %[[AT]]] : memref<2x3xi32>
func.func @argsort(%x: tensor<2x3xf32>) -> tensor<2x3xsi32> {
  %0 = tile.argsort asc, %x {axis = 1} : tensor<2x3xf32> -> tensor<2x3xsi32>
  return %0 : tensor<2x3xsi32>
}

// -----

// Unsigned keys compare unsigned; descending swaps the operands of the key
// comparison.

// CHECK-LABEL: func.func @argsort_desc_unsigned
// CHECK: affine.for
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// CHECK: memref.store
func.func @argsort_desc_unsigned(%x: tensor<4xui8>) -> tensor<4xsi32> {
  %0 = tile.argsort desc, %x {axis = 0} : tensor<4xui8> -> tensor<4xsi32>
  return %0 : tensor<4xsi32>
}

// -----

// prng: each value element computes its Philox block from the state (32-bit
// integer arithmetic only) and keeps its word; a nest over the six state
// words writes the advanced counter.

// CHECK-LABEL: func.func @prng
// CHECK-SAME: (%[[S:.*]]: memref<6xi32>, %[[V:.*]]: memref<2x3xf32>, %[[N:.*]]: memref<6xi32>)
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) {
// CHECK: affine.load %[[S]][0] : memref<6xi32>
// CHECK: affine.load %[[S]][5] : memref<6xi32>
// CHECK: affine.apply
// CHECK: arith.index_castui %{{.*}} : index to i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK-NOT: i64
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf
// CHECK: affine.store %{{.*}}, %[[V]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK: affine.parallel (%[[K:.*]]) = (0) to (6) {
// CHECK: affine.store %{{.*}}, %[[N]][%[[K]]] : memref<6xi32>
func.func @prng(%s: tensor<6xui32>) -> (tensor<2x3xf32>, tensor<6xui32>) {
  %v, %n = tile.prng %s : tensor<6xui32> -> tensor<2x3xf32>
  return %v, %n : tensor<2x3xf32>, tensor<6xui32>
}
