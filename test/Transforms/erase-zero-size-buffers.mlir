// RUN: plaidml-opt %s -plaidml-erase-zero-size-buffers -split-input-file | FileCheck %s

// An elementwise nest over a 3x0 tensor runs no iteration: it goes, and both
// arguments become memref<0xf32> (what the bare-pointer convention accepts).

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%{{.*}}: memref<0xf32>, %{{.*}}: memref<0xf32>)
// CHECK-NEXT: return
func.func @elementwise(%a: memref<3x0xf32>, %o: memref<3x0xf32>) attributes {plaidml.entry} {
  affine.parallel (%i, %j) = (0, 0) to (3, 0) {
    %x = affine.load %a[%i, %j] : memref<3x0xf32>
    %e = math.exp %x : f32
    affine.store %e, %o[%i, %j] : memref<3x0xf32>
  }
  return
}

// -----

// A zero-trip affine.for inside a nest that runs: the loop goes, its result
// is its init; the nest stays. The used argument of size 3 keeps its type.

// CHECK-LABEL: func.func @reduction
// CHECK-SAME: (%{{.*}}: memref<0xf32>, %[[OUT:.*]]: memref<3xf32>)
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NEXT: affine.parallel (%[[I:.*]]) = (0) to (3) {
// CHECK-NEXT: affine.store %[[ZERO]], %[[OUT]][%[[I]]] : memref<3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @reduction(%a: memref<3x0xf32>, %o: memref<3xf32>) attributes {plaidml.entry} {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%i) = (0) to (3) {
    %s = affine.for %j = 0 to 0 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %j] : memref<3x0xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %s, %o[%i] : memref<3xf32>
  }
  return
}

// -----

// A reducing affine.parallel that runs no iteration gives its reduction's
// identity (0 for addf, -inf for maximumf).

// CHECK-LABEL: func.func @parallel_reduction
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT: affine.parallel
// CHECK: return %[[ZERO]], %[[NINF]] : f32, f32
func.func @parallel_reduction(%a: memref<0xf32>) -> (f32, f32) {
  %s, %m = affine.parallel (%i) = (0) to (0) reduce ("addf", "maximumf") -> (f32, f32) {
    %x = affine.load %a[%i] : memref<0xf32>
    affine.yield %x, %x : f32, f32
  }
  return %s, %m : f32, f32
}

// -----

// A zero-size temporary, written by a nest that runs no iteration, copied and
// deallocated: all of it goes.

// CHECK-LABEL: func.func @temporary
// CHECK-SAME: (%{{.*}}: memref<0xf16>, %{{.*}}: memref<0xf16>)
// CHECK-NOT: memref.
// CHECK: return
func.func @temporary(%a: memref<0x4xf16>, %o: memref<0x4xf16>) attributes {plaidml.entry} {
  %t = memref.alloc() : memref<0x4xf16>
  affine.parallel (%i, %j) = (0, 0) to (0, 4) {
    %x = affine.load %a[%i, %j] : memref<0x4xf16>
    affine.store %x, %t[%i, %j] : memref<0x4xf16>
  }
  memref.copy %t, %o : memref<0x4xf16> to memref<0x4xf16>
  memref.dealloc %t : memref<0x4xf16>
  return
}

// -----

// Loops with a non-zero or non-constant trip count stay; a zero-size
// argument still used keeps its type (the lowering reports it).

// CHECK-LABEL: func.func @kept
// CHECK-SAME: (%{{.*}}: memref<3x0xf32>, %{{.*}}: index)
// CHECK: memref.dim
// CHECK: affine.for
// CHECK: affine.for
func.func @kept(%a: memref<3x0xf32>, %n: index) -> index {
  %c1 = arith.constant 1 : index
  %d = memref.dim %a, %c1 : memref<3x0xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to %n {
    }
  }
  return %d : index
}
