// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-gpu-register-tile

// A nest without a reduction loop cannot take a register tile.
func.func @copy(%a: memref<8xf32>) {
  // expected-error @+1 {{cannot apply plaidml.gpu.register_tile: no reduction loop}}
  affine.parallel (%i) = (0) to (8) {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %a[%i] : memref<8xf32>
  } {plaidml.gpu.register_tile = array<i64: 2>}
  return
}

// -----

// A store before the reduction (it would run once per copy, out of order).
func.func @store_first(%a: memref<8x8xf32>, %c: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.register_tile: the body has other nested regions or writes before the reduction}}
  affine.parallel (%m) = (0) to (8) {
    affine.store %zero, %c[%m] : memref<8xf32>
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<8x8xf32>
      %s = arith.addf %acc, %x : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m] : memref<8xf32>
  } {plaidml.gpu.register_tile = array<i64: 2>}
  return
}

// -----

// Not an outermost loop: only those become kernels.
func.func @nested(%a: memref<8x8xf32>, %c: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    // expected-error @+1 {{cannot apply plaidml.gpu.register_tile: not an outermost loop of the function}}
    affine.parallel (%m) = (0) to (8) {
      %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%m, %k] : memref<8x8xf32>
        %s = arith.addf %acc, %x : f32
        affine.yield %s : f32
      }
      affine.store %r, %c[%i, %m] : memref<8x8xf32>
    } {plaidml.gpu.register_tile = array<i64: 2>}
  }
  return
}

// -----

// The dialect's verifier: one factor per dimension.
func.func @count(%a: memref<8xf32>) {
  // expected-error @+1 {{'plaidml.gpu.register_tile' has 2 sizes for a loop of 1 dimensions}}
  affine.parallel (%i) = (0) to (8) {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %a[%i] : memref<8xf32>
  } {plaidml.gpu.register_tile = array<i64: 2, 2>}
  return
}
