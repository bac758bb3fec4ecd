// RUN: plaidml-opt %s -convert-tile-to-affine -split-input-file | FileCheck %s

// Constants become private constant memref.globals with signless element
// types, placed before the function that reads them.

// CHECK: memref.global "private" constant @[[SI:__plaidml_constant_[0-9]+]] : memref<3xi32> = dense<[-1, 0, 7]>
// CHECK: memref.global "private" constant @[[B:__plaidml_constant_[0-9]+]] : memref<2xi1> = dense<[true, false]>
// CHECK-LABEL: func.func @constants
// CHECK-SAME: (%[[OUT0:.*]]: memref<3xi32>, %[[OUT1:.*]]: memref<2xi1>)
// CHECK: %[[G0:.*]] = memref.get_global @[[SI]] : memref<3xi32>
// CHECK: %[[G1:.*]] = memref.get_global @[[B]] : memref<2xi1>
// CHECK: memref.copy %[[G0]], %[[OUT0]]
// CHECK: memref.copy %[[G1]], %[[OUT1]]
func.func @constants() -> (tensor<3xui32>, tensor<2xi1>) {
  %0 = tile.constant dense<[4294967295, 0, 7]> : tensor<3xui32>
  %1 = tile.constant dense<[true, false]> : tensor<2xi1>
  return %0, %1 : tensor<3xui32>, tensor<2xi1>
}

// -----

// Reshape copies, reading the source at the row-major delinearization of
// the result position.

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: memref<2x3xi16>, %[[OUT:.*]]: memref<3x2xi16>)
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 2) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][(%[[I]] * 2 + %[[J]]) floordiv 3, (%[[I]] * 2 + %[[J]]) mod 3] : memref<2x3xi16>
// CHECK-NEXT: affine.store %[[V]], %[[OUT]][%[[I]], %[[J]]] : memref<3x2xi16>
func.func @reshape(%x: tensor<2x3xsi16>) -> tensor<3x2xsi16> {
  %r = tile.reshape %x : tensor<2x3xsi16> -> tensor<3x2xsi16>
  return %r : tensor<3x2xsi16>
}

// CHECK-LABEL: func.func @reshape_to_scalar
// CHECK: %[[V:.*]] = affine.load %{{.*}}[0, 0] : memref<1x1xf32>
// CHECK-NEXT: affine.store %[[V]], %{{.*}}[] : memref<f32>
func.func @reshape_to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %r = tile.reshape %x : tensor<1x1xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Index stores the induction variable of its axis.

// CHECK-LABEL: func.func @index
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 4) {
// CHECK-NEXT: %[[C:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT: affine.store %[[C]], %{{.*}}[%[[I]], %[[J]]] : memref<2x4xi32>
// CHECK: affine.parallel (%[[K:.*]], %{{.*}}) = (0, 0) to (3, 2) {
// CHECK-NEXT: %[[L:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[L]] : i64 to f16
func.func @index() -> (tensor<2x4xui32>, tensor<3x2xf16>) {
  %0 = tile.index 1 : tensor<2x4xui32>
  %1 = tile.index 0 : tensor<3x2xf16>
  return %0, %1 : tensor<2x4xui32>, tensor<3x2xf16>
}

// -----

// Gather clamps the data-dependent index into range (after widening it by
// its signedness) and loads with memref.load.

// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.*]]: memref<4x3xf32>, %[[IDS:.*]]: memref<2x2xi32>, %[[OUT:.*]]: memref<4x2x2xf32>)
// CHECK: affine.parallel (%[[A:.*]], %[[B:.*]], %[[C:.*]]) = (0, 0, 0) to (4, 2, 2) {
// CHECK-NEXT: %[[RAW:.*]] = affine.load %[[IDS]][%[[B]], %[[C]]] : memref<2x2xi32>
// CHECK-NEXT: %[[W:.*]] = arith.extsi %[[RAW]] : i32 to i64
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[LAST:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[W]], %[[ZERO]] : i64
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[LO]], %[[LAST]] : i64
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[HI]] : i64 to index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[T]][%[[A]], %[[IDX]]] : memref<4x3xf32>
// CHECK-NEXT: affine.store %[[V]], %[[OUT]][%[[A]], %[[B]], %[[C]]] : memref<4x2x2xf32>
func.func @gather(%t: tensor<4x3xf32>, %ids: tensor<2x2xsi32>) -> tensor<4x2x2xf32> {
  %g = tile.gather %t, %ids {axis = 1} : tensor<4x3xf32>, tensor<2x2xsi32> -> tensor<4x2x2xf32>
  return %g : tensor<4x2x2xf32>
}

// CHECK-LABEL: func.func @gather_unsigned
// CHECK: arith.extui %{{.*}} : i8 to i64
func.func @gather_unsigned(%t: tensor<4x3xf32>, %ids: tensor<2xui8>) -> tensor<2x3xf32> {
  %g = tile.gather %t, %ids {axis = 0} : tensor<4x3xf32>, tensor<2xui8> -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}

// -----

// Scatter zero-fills, then adds every update whose index is in range, in a
// sequential nest (indices may repeat). Unsigned indices compare with ult,
// signed ones with sge 0 and slt.

// CHECK-LABEL: func.func @scatter
// CHECK-SAME: (%[[UPD:.*]]: memref<2x3xf32>, %[[IDS:.*]]: memref<2xi8>, %[[SIDS:.*]]: memref<2xi64>, %[[OUT:.*]]: memref<4x3xf32>, %[[OUT2:.*]]: memref<4x3xf32>)
// CHECK: affine.parallel (%[[Z0:.*]], %[[Z1:.*]]) = (0, 0) to (4, 3) {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: affine.store %[[ZERO]], %[[OUT]][%[[Z0]], %[[Z1]]]
// CHECK: affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// CHECK-NEXT: %[[RAW:.*]] = affine.load %[[IDS]][%[[I]]] : memref<2xi8>
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[RAW]] : i8 to i64
// CHECK-NEXT: %[[N:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[W]], %[[N]] : i64
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT: %[[U:.*]] = affine.load %[[UPD]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT: %[[CUR:.*]] = memref.load %[[OUT]][%[[IDX]], %[[J]]] : memref<4x3xf32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[CUR]], %[[U]] : f32
// CHECK-NEXT: memref.store %[[SUM]], %[[OUT]][%[[IDX]], %[[J]]] : memref<4x3xf32>
// CHECK: %[[SW:.*]] = affine.load %[[SIDS]]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[SW]], %{{.*}} : i64
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[SW]], %{{.*}} : i64
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[BOTH]] {
func.func @scatter(%upd: tensor<2x3xf32>, %ids: tensor<2xui8>, %sids: tensor<2xsi64>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %s = tile.scatter %upd, %ids {axis = 0} : tensor<2x3xf32>, tensor<2xui8> -> tensor<4x3xf32>
  %t = tile.scatter %upd, %sids {axis = 0} : tensor<2x3xf32>, tensor<2xsi64> -> tensor<4x3xf32>
  return %s, %t : tensor<4x3xf32>, tensor<4x3xf32>
}
