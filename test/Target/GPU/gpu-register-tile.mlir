// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-register-tile \
// RUN:   | FileCheck %s

// A 2x2 block per iteration of a matmul nest (factors set by hand): the
// ranges halve, the copies' indices are b and b + 4 (strided), and one
// reduction loop carries the four accumulators. Loads are per copy until
// CSE merges the identical ones.
// CHECK-DAG:   #[[PLUS4:.*]] = affine_map<(d0) -> (d0 + 4)>
// CHECK-LABEL: func.func @matmul
// CHECK:       affine.parallel (%[[M:.*]], %[[N:.*]]) = (0, 0) to (4, 4) {
// CHECK:         affine.apply #[[PLUS4]](%[[N]])
// CHECK:         affine.apply #[[PLUS4]](%[[M]])
// CHECK:         %[[R:.*]]:4 = affine.for %[[K:.*]] = 0 to 16 iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK-COUNT-4:   affine.load %arg0[%{{.*}}, %[[K]]]
// CHECK-COUNT-4:   affine.load %arg1[%[[K]], %{{.*}}]
// CHECK-COUNT-4:   arith.mulf
// CHECK:           affine.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
// CHECK:         }
// CHECK-COUNT-4: affine.store %[[R]]#{{[0-3]}}, %arg2
// CHECK:       } {plaidml.gpu.workgroup_size = array<i64: 4, 2>}
// CHECK-NOT:   plaidml.gpu.register_tile
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x8xf32>, %c: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (8, 8) {
    %r = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<8x16xf32>
      %y = affine.load %b[%k, %n] : memref<16x8xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<8x8xf32>
  } {plaidml.gpu.register_tile = array<i64: 2, 2>,
     plaidml.gpu.workgroup_size = array<i64: 4, 2>}
  return
}

// -----

// A factor that does not divide the range (4 into 10: stride 3, copies at
// b, b + 3, b + 6, b + 9): the last copy's index wraps mod 10 (a valid
// address; it computes a duplicate) and its store is guarded by the unwrapped
// index; a fused epilogue (the relu) is copied with the store.
// A two-deep chain (a windowed reduction) is jammed level by level.
// CHECK-DAG:   #[[WRAP:.*]] = affine_map<(d0) -> ((d0 + 9) mod 10)>
// CHECK-DAG:   #[[GUARD:.*]] = affine_set<(d0) : (-d0 >= 0)>
// CHECK-LABEL: func.func @remainder
// CHECK:       affine.parallel (%[[X:.*]]) = (0) to (3) {
// CHECK:         %[[X3:.*]] = affine.apply #[[WRAP]](%[[X]])
// CHECK:         affine.for %{{.*}} = 0 to 3 iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK:           affine.for %{{.*}} = 0 to 2 iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK:         affine.if #[[GUARD]](%[[X]]) {
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      affine.store %{{.*}}, %arg1[%[[X3]]]
func.func @remainder(%in: memref<14xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%x) = (0) to (10) {
    %r = affine.for %i = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %q = affine.for %j = 0 to 2 iter_args(%acc2 = %acc) -> (f32) {
        %v = affine.load %in[%x + %i + %j] : memref<14xf32>
        %s = arith.addf %acc2, %v : f32
        affine.yield %s : f32
      }
      affine.yield %q : f32
    }
    %relu = arith.maximumf %r, %zero : f32
    affine.store %relu, %out[%x] : memref<10xf32>
  } {plaidml.gpu.register_tile = array<i64: 4>}
  return
}

// -----

// All ones: the attribute goes, the loop stays.
// CHECK-LABEL: func.func @ones
// CHECK:       affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK-NOT:   plaidml.gpu.register_tile
func.func @ones(%a: memref<8x8xf32>, %c: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m) = (0) to (8) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<8x8xf32>
      %s = arith.addf %acc, %x : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m] : memref<8xf32>
  } {plaidml.gpu.register_tile = array<i64: 1>}
  return
}
