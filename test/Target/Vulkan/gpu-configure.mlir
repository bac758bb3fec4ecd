// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure | FileCheck %s
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-gpu-configure="max-workgroup-size=64" \
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
