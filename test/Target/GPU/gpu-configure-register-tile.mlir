// The register tile plaidml-gpu-configure chooses and records, and its
// remarks (what was chosen, or why no register tile).
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-gpu-configure="min-invocations=16 remarks=1 staged=0" \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: not plaidml-opt %s -split-input-file \
// RUN:   -plaidml-gpu-configure="max-register-tile=0 staged=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: max-register-tile, min-invocations, max-accumulators and max-reduction-loops must be at least 1
// The defaults (16384 invocations) leave these small nests untiled.
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure=staged=0 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-LABEL: func.func @chosen
// DEFAULT-NOT: plaidml.gpu.register_tile
// DEFAULT-LABEL: func.func @odd

// A matmul: 4x4 along the two innermost dimensions (each has a load that
// does not depend on it), the workgroup chosen for the 16x16 left; an
// elementwise nest gets a workgroup only.
// CHECK-LABEL: func.func @chosen
// CHECK:       } {plaidml.gpu.register_tile = array<i64: 4, 4>, plaidml.gpu.workgroup_size = array<i64: 16, 16>}
// CHECK:       } {plaidml.gpu.workgroup_size = array<i64: 4, 64>}
func.func @chosen(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{register tile 4x4 (16 outputs per invocation), workgroup 16x16 over 16x16}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x32xf32>
      %y = affine.load %b[%k, %n] : memref<32x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  }
  // expected-remark @+2 {{no register tile: no reduction loop}}
  // expected-remark @+1 {{workgroup 4x64 over 64x64}}
  affine.parallel (%i, %j) = (0, 0) to (64, 64) {
    %x = affine.load %c[%i, %j] : memref<64x64xf32>
    affine.store %x, %c[%i, %j] : memref<64x64xf32>
  }
  return
}

// -----

// Sizes the factors do not divide (37x53x29 with a bias and relu epilogue):
// 4 along each (at most an eighth of the range per copy); a GEMV-like 1x53
// nest halved while fewer than 16 iterations would remain. A hand-set tile
// is kept, the workgroup chosen for it.
// CHECK-LABEL: func.func @odd
// CHECK:       } {plaidml.gpu.register_tile = array<i64: 4, 4>, plaidml.gpu.workgroup_size = array<i64: 16, 16>}
// CHECK:       } {plaidml.gpu.register_tile = array<i64: 1, 2>, plaidml.gpu.workgroup_size = array<i64: 1, 32>}
// CHECK:       } {plaidml.gpu.register_tile = array<i64: 2, 1>, plaidml.gpu.workgroup_size = array<i64: 32, 8>}
func.func @odd(%a: memref<37x29xf32>, %b: memref<29x53xf32>, %c: memref<37x53xf32>, %v: memref<29xf32>, %w: memref<5x7xf32>, %bias: memref<53xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{register tile 4x4 (16 outputs per invocation), workgroup 16x16 over 10x14}}
  affine.parallel (%m, %n) = (0, 0) to (37, 53) {
    %r = affine.for %k = 0 to 29 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<37x29xf32>
      %y = affine.load %b[%k, %n] : memref<29x53xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    %bn = affine.load %bias[%n] : memref<53xf32>
    %sum = arith.addf %r, %bn : f32
    %relu = arith.maximumf %sum, %zero : f32
    affine.store %relu, %c[%m, %n] : memref<37x53xf32>
  }
  // A GEMV-like 1x53 nest: 2 along n leaves 27 >= 16 iterations.
  // expected-remark @+1 {{register tile 1x2 (2 outputs per invocation), workgroup 1x32 over 1x27}}
  affine.parallel (%m, %n) = (0, 0) to (1, 53) {
    %r = affine.for %k = 0 to 29 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %v[%k] : memref<29xf32>
      %y = affine.load %b[%k, %n] : memref<29x53xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<37x53xf32>
  }
  // expected-remark @+1 {{register tile 2x1 (2 outputs per invocation), workgroup 32x8 over 19x5}}
  affine.parallel (%m, %n) = (0, 0) to (37, 5) {
    %r = affine.for %k = 0 to 7 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<37x29xf32>
      %y = affine.load %w[%n, %k] : memref<5x7xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<37x53xf32>
  } {plaidml.gpu.register_tile = array<i64: 2, 1>}
  return
}

// -----

// Why not: too few iterations; every load depends on the channels (a
// pooling nest: a block would save no load).
func.func @none(%a: memref<8x8xf32>, %vec: memref<8xf32>, %c: memref<8xf32>, %in: memref<64x128xf32>, %out: memref<32x128xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no register tile: too few iterations (8) to leave 16 after a block}}
  // expected-remark @+1 {{workgroup 8 over 8}}
  affine.parallel (%m) = (0) to (8) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<8x8xf32>
      %y = affine.load %vec[%k] : memref<8xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m] : memref<8xf32>
  }
  %low = arith.constant 0xFF800000 : f32
  // expected-remark @+2 {{no register tile: every load depends on dimension 1: a block would save no load}}
  // expected-remark @+1 {{workgroup 2x128 over 32x128}}
  affine.parallel (%x, %ch) = (0, 0) to (32, 128) {
    %r = affine.for %i = 0 to 2 iter_args(%acc = %low) -> (f32) {
      %v = affine.load %in[%x * 2 + %i, %ch] : memref<64x128xf32>
      %m = arith.maximumf %acc, %v : f32
      affine.yield %m : f32
    }
    affine.store %r, %out[%x, %ch] : memref<32x128xf32>
  }
  return
}

// -----

// A window: two reduction loops of more than one iteration (at most one
// by default, max-reduction-loops).
func.func @window(%in: memref<66x66xf32>, %k: memref<3x3x64xf32>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no register tile: 2 reduction loops of more than one iteration (a window): at most 1}}
  // expected-remark @+1 {{workgroup 4x64 over 64x64}}
  affine.parallel (%x, %f) = (0, 0) to (64, 64) {
    %r = affine.for %i = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %q = affine.for %j = 0 to 3 iter_args(%acc2 = %acc) -> (f32) {
        %v = affine.load %in[%x + %i, %j] : memref<66x66xf32>
        %w = affine.load %k[%i, %j, %f] : memref<3x3x64xf32>
        %p = arith.mulf %v, %w : f32
        %s = arith.addf %acc2, %p : f32
        affine.yield %s : f32
      }
      affine.yield %q : f32
    }
    affine.store %r, %out[%x, %f] : memref<64x64xf32>
  }
  return
}
