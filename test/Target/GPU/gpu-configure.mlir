// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure | FileCheck %s
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-attach-target="device=vulkan max-workgroup-size=64" -plaidml-gpu-configure \
// RUN:   | FileCheck %s --check-prefix=SMALL

// Innermost dimension first, powers of two, 256 invocations in all.
// CHECK-LABEL: func.func @elementwise
// CHECK: affine.parallel
// CHECK: } {plaidml.gpu.workgroup_size = array<i64: 2, 128>}
// SMALL-LABEL: func.func @elementwise
// SMALL: } {plaidml.gpu.workgroup_size = array<i64: 1, 64>}
func.func @elementwise(%a: memref<4x100xf32>) {
  affine.parallel (%i, %j) = (0, 0) to (4, 100) {
    %x = affine.load %a[%i, %j] : memref<4x100xf32>
    affine.store %x, %a[%i, %j] : memref<4x100xf32>
  }
  return
}

// -----

// At most three dimensions are mapped, the third one to at most 64; a size
// set by hand is kept.
// CHECK-LABEL: func.func @dims
// CHECK: } {plaidml.gpu.workgroup_size = array<i64: 1, 4, 8, 8>}
// CHECK: } {plaidml.gpu.workgroup_size = array<i64: 3, 5>}
// SMALL-LABEL: func.func @dims
// SMALL: } {plaidml.gpu.workgroup_size = array<i64: 1, 1, 8, 8>}
func.func @dims(%a: memref<2x100x8x8xf32>, %b: memref<6x10xf32>) {
  affine.parallel (%i, %j, %k, %l) = (0, 0, 0, 0) to (2, 100, 8, 8) {
    %x = affine.load %a[%i, %j, %k, %l] : memref<2x100x8x8xf32>
    affine.store %x, %a[%i, %j, %k, %l] : memref<2x100x8x8xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (6, 10) {
    %x = affine.load %b[%i, %j] : memref<6x10xf32>
    affine.store %x, %b[%i, %j] : memref<6x10xf32>
  } {plaidml.gpu.workgroup_size = array<i64: 3, 5>}
  return
}

// -----

// Sequential top-level code runs in one single-invocation loop per run
// between host operations; allocations, constants and the return stay.
// CHECK-LABEL: func.func @sequential
// CHECK-NEXT:    %[[C:.*]] = arith.constant
// CHECK-NEXT:    %[[T:.*]] = memref.alloc()
// CHECK-NEXT:    affine.parallel (%{{.*}}) = (0) to (1) {
// CHECK-NEXT:      affine.for
// CHECK:           affine.load %[[T]][0]
// CHECK-NEXT:      affine.store
// CHECK-NEXT:    } {plaidml.gpu.workgroup_size = array<i64: 1>}
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    return
func.func @sequential(%a: memref<4xf32>, %o: memref<f32>) {
  %c = arith.constant 2.0 : f32
  %t = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf32>
    %y = arith.mulf %x, %c : f32
    affine.store %y, %t[%i + %i] : memref<8xf32>
  }
  %v = affine.load %t[0] : memref<8xf32>
  affine.store %v, %o[] : memref<f32>
  memref.dealloc %t : memref<8xf32>
  return
}

// -----

// A parallel loop inside a mapped nest (a parallel reduction over k, 2-D
// with max) runs sequentially in the kernel: affine.for loops whose
// iter_args start at the reductions' identities.
// CHECK-LABEL: func.func @nested_reductions
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 2) {
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[SUM:.*]]:2 = affine.for %[[K:.*]] = 0 to 3 iter_args(%[[S:.*]] = %[[ZERO]], %[[M0:.*]] = %[[NEGINF]]) -> (f32, f32) {
// CHECK: %[[IN:.*]]:2 = affine.for %[[L:.*]] = 1 to 4 step 2 iter_args(%[[S2:.*]] = %[[S]], %[[M1:.*]] = %[[M0]]) -> (f32, f32) {
// CHECK: %[[X:.*]] = affine.load %{{.*}}[%[[I]], %[[K]]]
// CHECK: %[[ADD:.*]] = arith.addf %[[S2]], %[[X]] : f32
// CHECK: %[[MAX:.*]] = arith.maximumf %[[M1]], %[[X]] : f32
// CHECK: affine.yield %[[ADD]], %[[MAX]] : f32, f32
// CHECK: affine.yield %[[IN]]#0, %[[IN]]#1 : f32, f32
// CHECK: affine.store %[[SUM]]#0, %{{.*}}[%[[I]], %[[J]]]
// CHECK: affine.store %[[SUM]]#1, %{{.*}}[%[[I]], %[[J]]]
// CHECK: } {plaidml.gpu.workgroup_size = array<i64: 2, 2>}
func.func @nested_reductions(%a: memref<2x3xf32>, %s: memref<2x2xf32>, %m: memref<2x2xf32>) {
  affine.parallel (%i, %j) = (0, 0) to (2, 2) {
    %r:2 = affine.parallel (%k, %l) = (0, 1) to (3, 4) step (1, 2) reduce ("addf", "maximumf") -> (f32, f32) {
      %x = affine.load %a[%i, %k] : memref<2x3xf32>
      affine.yield %x, %x : f32, f32
    }
    affine.store %r#0, %s[%i, %j] : memref<2x2xf32>
    affine.store %r#1, %m[%i, %j] : memref<2x2xf32>
  }
  return
}

// -----

// Grids of at most 65535 workgroups per dimension: 65536 rows of 1024 would
// need 65536 workgroups in y with (1, 256); invocations move to the rows.
// CHECK-LABEL: func.func @tall
// CHECK: } {plaidml.gpu.workgroup_size = array<i64: 2, 128>}
// SMALL-LABEL: func.func @tall
// SMALL: } {plaidml.gpu.workgroup_size = array<i64: 2, 32>}
func.func @tall(%a: memref<65536x1024xf32>) {
  affine.parallel (%i, %j) = (0, 0) to (65536, 1024) {
    %x = affine.load %a[%i, %j] : memref<65536x1024xf32>
    affine.store %x, %a[%i, %j] : memref<65536x1024xf32>
  }
  return
}
