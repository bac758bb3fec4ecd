// RUN: plaidml-opt %s -plaidml-cpu-parallelize -split-input-file | FileCheck %s --check-prefix=ONE
// RUN: plaidml-opt %s -plaidml-cpu-parallelize=threads=2 -split-input-file | FileCheck %s --check-prefix=TWO
// RUN: plaidml-opt %s -plaidml-cpu-parallelize="threads=2 min-work=1" -split-input-file | FileCheck %s --check-prefix=ANY

// A 512x512 elementwise nest: 2^18 iterations of 4 operations.
// threads=1: a sequential nest with the same bounds. threads=2: it stays
// parallel over %i (512 iterations are enough for two threads) around a
// sequential loop over %j.

// ONE-LABEL: func.func @large
// ONE-NOT: affine.parallel
// ONE: affine.for %[[I:.*]] = 0 to 512 {
// ONE-NEXT: affine.for %[[J:.*]] = 0 to 512 step 2 {
// ONE-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
// ONE-NEXT: arith.addf %[[V]], %[[V]]
// ONE-NEXT: affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// ONE-NEXT: }
// ONE-NEXT: }
// ONE-NEXT: return

// TWO-LABEL: func.func @large
// TWO: affine.parallel (%[[I:.*]]) = (0) to (512) {
// TWO-NEXT: affine.for %[[J:.*]] = 0 to 512 step 2 {
// TWO-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
func.func @large(%a: memref<512x512xf32>, %o: memref<512x512xf32>) {
  affine.parallel (%i, %j) = (0, 0) to (512, 512) step (1, 2) {
    %v = affine.load %a[%i, %j] : memref<512x512xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %o[%i, %j] : memref<512x512xf32>
  }
  return
}

// -----

// 64 iterations of 4 operations: too little work for a thread team.

// TWO-LABEL: func.func @small
// TWO-NOT: affine.parallel
// TWO: affine.for %{{.*}} = 0 to 64 {

// ANY-LABEL: func.func @small
// ANY: affine.parallel (%{{.*}}) = (0) to (64) {
func.func @small(%a: memref<64xf32>, %o: memref<64xf32>) {
  affine.parallel (%i) = (0) to (64) {
    %v = affine.load %a[%i] : memref<64xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %o[%i] : memref<64xf32>
  }
  return
}

// -----

// A matmul nest (128x128 outer, a reduction loop of 128 inside) with a
// nested parallel loop: the outer one stays, the nested one becomes
// sequential. The reduction loop counts 128 times.

// TWO-LABEL: func.func @nested
// TWO: affine.parallel (%[[M:.*]]) = (0) to (128) {
// TWO-NEXT: affine.for %[[N:.*]] = 0 to 128 {
// TWO: affine.for %{{.*}} = 0 to 128 iter_args
// TWO: affine.for %[[X:.*]] = 0 to 4 {
// TWO-NOT: affine.parallel
// TWO: return
func.func @nested(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>, %D: memref<128x128x4xf32>) {
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %k = 0 to 128 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%m, %k] : memref<128x128xf32>
      %b = affine.load %B[%k, %n] : memref<128x128xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %C[%m, %n] : memref<128x128xf32>
    affine.parallel (%x) = (0) to (4) {
      affine.store %sum, %D[%m, %n, %x] : memref<128x128x4xf32>
    }
  }
  return
}

// -----

// One outer iteration cannot feed two threads: the outer loop becomes
// sequential and the large loop inside it takes the threads.

// TWO-LABEL: func.func @single_outer
// TWO: affine.for %{{.*}} = 0 to 1 {
// TWO-NEXT: affine.parallel (%{{.*}}) = (0) to (256) {
// TWO-NEXT: affine.for %{{.*}} = 0 to 256 {
func.func @single_outer(%a: memref<1x256x256xf32>, %o: memref<1x256x256xf32>) {
  affine.parallel (%b) = (0) to (1) {
    affine.parallel (%i, %j) = (0, 0) to (256, 256) {
      %v = affine.load %a[%b, %i, %j] : memref<1x256x256xf32>
      %w = math.exp %v : f32
      affine.store %w, %o[%b, %i, %j] : memref<1x256x256xf32>
    }
  }
  return
}

// -----

// Reductions of a sequential loop become iter_args from the identity,
// combined in the innermost loop.

// ONE-LABEL: func.func @reduction
// ONE: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// ONE-NEXT: %[[OUTER:.*]] = affine.for %[[I:.*]] = 0 to 4 iter_args(%[[A:.*]] = %[[ZERO]]) -> (f32) {
// ONE-NEXT: %[[INNER:.*]] = affine.for %[[J:.*]] = 0 to 8 iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// ONE-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
// ONE-NEXT: %[[S:.*]] = arith.addf %[[B]], %[[V]] : f32
// ONE-NEXT: affine.yield %[[S]] : f32
// ONE-NEXT: }
// ONE-NEXT: affine.yield %[[INNER]] : f32
// ONE-NEXT: }
// ONE-NEXT: affine.store %[[OUTER]], %{{.*}}[] : memref<f32>
func.func @reduction(%a: memref<4x8xf32>, %o: memref<f32>) {
  %r = affine.parallel (%i, %j) = (0, 0) to (4, 8) reduce ("addf") -> (f32) {
    %v = affine.load %a[%i, %j] : memref<4x8xf32>
    affine.yield %v : f32
  }
  affine.store %r, %o[] : memref<f32>
  return
}

// -----

// Bounds with min/max and symbols carry over unchanged.

// ONE: #[[UB:.*]] = affine_map<(d0) -> (d0 + 32, 100)>
// ONE-LABEL: func.func @min_bounds
// ONE: affine.for %[[T:.*]] = 0 to 100 step 32 {
// ONE-NEXT: affine.for %[[I:.*]] = #{{.*}}(%[[T]]) to min #[[UB]](%[[T]]) {
func.func @min_bounds(%a: memref<100xf32>) {
  affine.parallel (%t) = (0) to (100) step (32) {
    affine.parallel (%i) = (%t) to (min(%t + 32, 100)) {
      %v = affine.load %a[%i] : memref<100xf32>
      %w = arith.negf %v : f32
      affine.store %w, %a[%i] : memref<100xf32>
    }
  }
  return
}

// -----

// Outer dimensions too short for 4 iterations per thread stay parallel
// together with the next one (2 x 3 = 6 < 8, 2 x 3 x 64 >= 8); a loop with
// reductions stays whole.

// TWO-LABEL: func.func @short_outer
// TWO: affine.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (2, 3, 64) {
// TWO-NEXT: affine.for %{{.*}} = 0 to 256 {
// TWO-LABEL: func.func @parallel_reduction
// TWO: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (512, 512) reduce ("addf") -> (f32) {
func.func @short_outer(%a: memref<2x3x64x256xf32>) {
  affine.parallel (%b, %c, %i, %j) = (0, 0, 0, 0) to (2, 3, 64, 256) {
    %v = affine.load %a[%b, %c, %i, %j] : memref<2x3x64x256xf32>
    %w = arith.negf %v : f32
    affine.store %w, %a[%b, %c, %i, %j] : memref<2x3x64x256xf32>
  }
  return
}
func.func @parallel_reduction(%a: memref<512x512xf32>, %o: memref<f32>) {
  %r = affine.parallel (%i, %j) = (0, 0) to (512, 512) reduce ("addf") -> (f32) {
    %v = affine.load %a[%i, %j] : memref<512x512xf32>
    affine.yield %v : f32
  }
  affine.store %r, %o[] : memref<f32>
  return
}

// -----

// Iterations that two threads cannot split evenly: 9 cache blocks (5 and 4
// per thread) are enough iterations, but with the 56 rows of each block
// they split evenly (9 x 56 = 504), so two dimensions stay parallel; the
// innermost stays a loop. 8 blocks split evenly by themselves.

// TWO-LABEL: func.func @uneven
// TWO: affine.parallel (%[[B:.*]], %[[H:.*]]) = (0, 0) to (9, 56) {
// TWO-NEXT: affine.for %[[W:.*]] = 0 to 64 {
// TWO-LABEL: func.func @even
// TWO: affine.parallel (%[[B:.*]]) = (0) to (8) {
// TWO-NEXT: affine.for %{{.*}} = 0 to 56 {
// TWO-NEXT: affine.for %{{.*}} = 0 to 64 {

// ONE-LABEL: func.func @uneven
// ONE-NOT: affine.parallel
// ONE: affine.for %{{.*}} = 0 to 9 {
// ONE-NEXT: affine.for %{{.*}} = 0 to 56 {
// ONE-NEXT: affine.for %{{.*}} = 0 to 64 {
func.func @uneven(%a: memref<9x56x64xf32>, %o: memref<9x56x64xf32>) {
  affine.parallel (%b, %h, %w) = (0, 0, 0) to (9, 56, 64) {
    %v = affine.load %a[%b, %h, %w] : memref<9x56x64xf32>
    %x = arith.addf %v, %v : f32
    affine.store %x, %o[%b, %h, %w] : memref<9x56x64xf32>
  }
  return
}
func.func @even(%a: memref<8x56x64xf32>, %o: memref<8x56x64xf32>) {
  affine.parallel (%b, %h, %w) = (0, 0, 0) to (8, 56, 64) {
    %v = affine.load %a[%b, %h, %w] : memref<8x56x64xf32>
    %x = arith.addf %v, %v : f32
    affine.store %x, %o[%b, %h, %w] : memref<8x56x64xf32>
  }
  return
}

// -----

// No outer dimension short of the innermost splits 7 x 7 evenly: the
// evenest of them (7 x 7 = 49: 25 and 24) rather than 7 (4 and 3).

// TWO-LABEL: func.func @odd
// TWO: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (7, 7) {
// TWO-NEXT: affine.for %{{.*}} = 0 to 320 {
func.func @odd(%a: memref<7x7x320xf32>, %o: memref<7x7x320xf32>) {
  affine.parallel (%h, %w, %c) = (0, 0, 0) to (7, 7, 320) {
    %v = affine.load %a[%h, %w, %c] : memref<7x7x320xf32>
    %x = arith.addf %v, %v : f32
    affine.store %x, %o[%h, %w, %c] : memref<7x7x320xf32>
  }
  return
}
