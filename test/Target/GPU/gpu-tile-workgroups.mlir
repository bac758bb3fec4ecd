// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-tile-workgroups \
// RUN:   | FileCheck %s

// A grid loop over workgroups, a workgroup loop over invocations, and a guard
// on the dimension whose tile (16) does not divide its range (100).
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1 + 1)>
// CHECK-DAG:   #[[COL:.*]] = affine_map<(d0, d1) -> (d0 * 16 + d1)>
// CHECK-DAG:   #[[GUARD:.*]] = affine_set<(d0, d1) : (d0 * -16 - d1 + 99 >= 0)>
// CHECK-LABEL: func.func @tile
// CHECK:       affine.parallel (%[[BI:.*]], %[[BJ:.*]]) = (0, 0) to (2, 7) {
// CHECK-NEXT:    affine.parallel (%[[TI:.*]], %[[TJ:.*]]) = (0, 0) to (2, 16) {
// CHECK-NEXT:      affine.if #[[GUARD]](%[[BJ]], %[[TJ]]) {
// CHECK-NEXT:        %[[I:.*]] = affine.apply #[[ROW]](%[[BI]], %[[TI]])
// CHECK-NEXT:        %[[J:.*]] = affine.apply #[[COL]](%[[BJ]], %[[TJ]])
// CHECK-NEXT:        affine.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT:   plaidml.gpu.workgroup_size
func.func @tile(%a: memref<5x100xf32>) {
  affine.parallel (%i, %j) = (1, 0) to (5, 100) {
    %x = affine.load %a[%i, %j] : memref<5x100xf32>
    affine.store %x, %a[%i, %j] : memref<5x100xf32>
  } {plaidml.gpu.workgroup_size = array<i64: 2, 16>}
  return
}

// -----

// Loops without the attribute are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK-NEXT:      affine.load
func.func @untouched(%a: memref<8xf32>) {
  affine.parallel (%i) = (0) to (8) {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %a[%i] : memref<8xf32>
  }
  return
}

