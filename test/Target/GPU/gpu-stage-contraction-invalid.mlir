// A staged tile the nest or the kernel cannot take is an error naming why.
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-stage-contraction \
// RUN:   -verify-diagnostics

func.func @wrong_count(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'affine.parallel' op 'plaidml.gpu.staged_tile' must be an array<i64: TM, TN, TK, RM, RN> on an affine.parallel}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16>}
  return
}

// -----

func.func @not_256(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.staged_tile: the tile must have 256 invocations, each copying whole shares of both staged tiles}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16, 8, 8>}
  return
}

// -----

func.func @not_a_product(%a: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.staged_tile: the reduction is not a floating-point sum of products}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf32>
      %s = arith.addf %acc, %x : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16, 4, 4>}
  return
}

// -----

func.func @coop_f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: the factors are not f16 values summed in f32}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// 64 x 32 per subgroup: 2 subgroups.
func.func @coop_subgroups(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: the tile must have 8 or 4 subgroups of 32 invocations, each copying whole chunks of 4 elements of both staged tiles}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 64, 32, 1>}
  return
}

// -----

func.func @coop_both(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.split_k: the nest has more than one of a staged, a split-K and a cooperative-matrix tile}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>, plaidml.gpu.split_k = array<i64: 8, 32>}
  return
}

// -----

// 32 x 16 elements of A are 512: half a chunk of 4 per invocation.
func.func @coop_chunks(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: the tile must have 8 or 4 subgroups of 32 invocations, each copying whole chunks of 4 elements of both staged tiles}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 32, 256, 16, 32, 32, 1>}
  return
}

// -----

// Workgroup memory counted as the kernel allocates it: A 256 rows of 64 + 8
// halves, B 64 rows of 256 + 8 halves, and 8 KiB of scratch (64x64 is not
// a whole tile, so the sums go through the epilogue).
func.func @coop_memory(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: the tile needs 78848 bytes of workgroup memory, more than 48 KiB}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 256, 256, 64, 128, 64, 1>}
  return
}

// -----

// Stages are 1 to 4.
func.func @coop_stages(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: the stages must be 1 (the next step through registers) to 4 (asynchronous copies into the others)}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 5>}
  return
}

// -----

// Several stages copy asynchronously: only on an OpenCL target with
// nv-ptx-cp-async (here a Vulkan one).
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @coop_async_vulkan(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: several stages need asynchronous copies: an opencl target with nv-ptx-cp-async}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 2>}
  return
}
}

// -----

// ... and both factors copied 8 halves at a time: M = 100 is not a
// multiple of the tile.
module attributes {plaidml.target = #plaidml.target<device = opencl, exts = ["nv-ptx-wmma", "nv-ptx-cp-async"]>} {
func.func @coop_async_edge(%a: memref<100x64xf16>, %b: memref<64x64xf16>, %c: memref<100x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: asynchronous copies need both factors copied 8 halves at a time, and the first is not a plain load of a row-major f16 buffer in whole tiles and steps whose innermost index the chunks follow}}
  affine.parallel (%m, %n) = (0, 0) to (100, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<100x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 2>}
  return
}
}

// -----

// Both stages must fit: 2 stages of A (128 rows of 64 + 8 halves) and B (64
// rows of 128 + 8 halves); the sums go straight to %c, so no scratch.
module attributes {plaidml.target = #plaidml.target<device = opencl, exts = ["nv-ptx-wmma", "nv-ptx-cp-async"]>} {
func.func @coop_async_memory(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot apply plaidml.gpu.coop_tile: the tile needs 71680 bytes of workgroup memory, more than 48 KiB}}
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 128 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x128xf16>
      %y = affine.load %b[%k, %n] : memref<128x128xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.coop_tile = array<i64: 128, 128, 64, 32, 64, 2>}
  return
}
}
