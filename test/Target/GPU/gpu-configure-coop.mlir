// The cooperative-matrix tile plaidml-gpu-configure chooses for f16
// matrix products on a target that lists CooperativeMatrixKHR, the
// 16x16x16 f16 -> f32 shape and 32-invocation subgroups, and why it
// chooses none elsewhere.
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure=remarks=1 \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure=coop-matrix=0 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF-NOT: plaidml.gpu.coop_tile

// 32 x 16 workgroups of 128x256: B's memory follows N, so the wide tile
// along N, 64x64 per subgroup (M = 4000 is not a multiple of 128: A cannot
// be staged 8 halves at a time, which the 128x128 tile of 4 subgroups
// needs, @quad).
// CHECK-LABEL: func.func @large
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 256, 32, 64, 64, 1>}
// OFF-LABEL:   func.func @large
// OFF:         plaidml.gpu.staged_tile = array<i64: 128, 128, 8, 8, 8>
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @large(%a: memref<4000x64xf16>, %b: memref<64x4096xf16>, %c: memref<4000x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x256x32, 64x64 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 4000 x 4096 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (4000, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4000x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x4096xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4000x4096xf32>
  }
  return
}
}

// -----

// A transposed A (its memory follows M) and a transposed B (K): 256 wide
// along M.
// CHECK-LABEL: func.func @transposed
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 256, 128, 32, 64, 64, 1>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @transposed(%a: memref<64x4000xf16>, %b: memref<4096x64xf16>, %c: memref<4000x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 256x128x32, 64x64 per subgroup}}
  affine.parallel (%m, %n) = (0, 0) to (4000, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%k, %m] : memref<64x4000xf16>
      %y = affine.load %b[%n, %k] : memref<4096x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4000x4096xf32>
  }
  return
}
}

// -----

// Both factors' memory follows K: 128x128 with 64 steps of K.
// CHECK-LABEL: func.func @along_k
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 64, 32, 64, 1>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @along_k(%a: memref<4000x64xf16>, %b: memref<4096x64xf16>, %c: memref<4000x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x64, 32x64 per subgroup}}
  affine.parallel (%m, %n) = (0, 0) to (4000, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4000x64xf16>
      %y = affine.load %b[%n, %k] : memref<4096x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4000x4096xf32>
  }
  return
}
}

// -----

// Tiles of 128x128x32 divide both factors, whose memory follows the staged
// chunks (B along N, A along K): 4 subgroups of 64x64 (128 invocations),
// two workgroups per multiprocessor, where the grid keeps 90% of 264
// workgroups (2048 x 2048: 256); not at 1024 x 1024 (64).
// CHECK-LABEL: func.func @quad
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 1>}
// CHECK-LABEL: func.func @quad_2048
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 1>}
// CHECK-LABEL: func.func @quad_1024
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
// Not where both factors' memory follows K (A B^T): 128x128x64, 32x64.
// CHECK-LABEL: func.func @quad_along_k
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 64, 32, 64, 1>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @quad(%a: memref<4096x64xf16>, %b: memref<64x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x32, 64x64 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 4096 x 4096 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x4096xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
func.func @quad_2048(%a: memref<2048x64xf16>, %b: memref<64x2048xf16>, %c: memref<2048x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x32, 64x64 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 2048 x 2048 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (2048, 2048) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<2048x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x2048xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<2048x2048xf32>
  }
  return
}
func.func @quad_1024(%a: memref<1024x64xf16>, %b: memref<64x1024xf16>, %c: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 1024 x 1024 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (1024, 1024) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1024x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x1024xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<1024x1024xf32>
  }
  return
}
func.func @quad_along_k(%a: memref<4096x64xf16>, %b: memref<4096x64xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x64, 32x64 per subgroup}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%n, %k] : memref<4096x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
}

// -----

// Few workgroups of 128x128: 64x64, 32x16 per subgroup; odd sizes.
// CHECK-LABEL: func.func @small
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @small(%a: memref<100x45xf16>, %b: memref<45x70xf16>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 100 x 70 x 45, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (100, 70) {
    %r = affine.for %k = 0 to 45 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x45xf16>
      %y = affine.load %b[%k, %n] : memref<45x70xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<100x70xf32>
  }
  return
}
}

// -----

// A device without the shape (lavapipe, PoCL) keeps the SIMT staged tile.
// CHECK-LABEL: func.func @no_shape
// CHECK:       } {plaidml.gpu.staged_tile = array<i64: 32, 32, 16, 2, 2>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "subgroup-size-32"]>} {
func.func @no_shape(%a: memref<100x45xf16>, %b: memref<45x70xf16>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no cooperative-matrix tile: the target does not list coopmat-16x16x16-f16-f32}}
  // expected-remark @+1 {{staged tile 32x32x16}}
  affine.parallel (%m, %n) = (0, 0) to (100, 70) {
    %r = affine.for %k = 0 to 45 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x45xf16>
      %y = affine.load %b[%k, %n] : memref<45x70xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<100x70xf32>
  }
  return
}
}

// -----

// Subgroups of another size: no cooperative-matrix tile.
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-64"]>} {
func.func @subgroup64(%a: memref<100x45xf16>, %b: memref<45x70xf16>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no cooperative-matrix tile: the target does not list subgroup-size-32}}
  // expected-remark @+1 {{staged tile 32x32x16}}
  affine.parallel (%m, %n) = (0, 0) to (100, 70) {
    %r = affine.for %k = 0 to 45 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x45xf16>
      %y = affine.load %b[%k, %n] : memref<45x70xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<100x70xf32>
  }
  return
}
}

// -----

// f32 factors: the SIMT staged tile, without a cooperative-matrix remark.
// CHECK-LABEL: func.func @single
// CHECK:       } {plaidml.gpu.staged_tile = array<i64: 32, 32, 16, 2, 2>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @single(%a: memref<100x45xf32>, %b: memref<45x70xf32>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{staged tile 32x32x16}}
  affine.parallel (%m, %n) = (0, 0) to (100, 70) {
    %r = affine.for %k = 0 to 45 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x45xf32>
      %y = affine.load %b[%k, %n] : memref<45x70xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<100x70xf32>
  }
  return
}
}

// -----

// A GEMV (M = 1): no cooperative-matrix tile (M below 16); split K.
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @gemv(%a: memref<1x512xf16>, %b: memref<512x300xf16>, %c: memref<1x300xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no cooperative-matrix tile: M or N is below 16}}
  // expected-remark @+1 {{split-K tile}}
  affine.parallel (%m, %n) = (0, 0) to (1, 300) {
    %r = affine.for %k = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1x512xf16>
      %y = affine.load %b[%k, %n] : memref<512x300xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<1x300xf32>
  }
  return
}
}

// -----

// N = 64 (a convolution's channels): no tile wider than N; with enough
// workgroups of 128 x 128 still none (N < 128): 64x64.
// CHECK-LABEL: func.func @narrow
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
module attributes {plaidml.target = #plaidml.target<device = vulkan, caps = ["CooperativeMatrixKHR", "coopmat-16x16x16-f16-f32", "subgroup-size-32"]>} {
func.func @narrow(%a: memref<65536x64xf16>, %b: memref<64x64xf16>, %c: memref<65536x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 64x64x32, 32x16 per subgroup}}
  affine.parallel (%m, %n) = (0, 0) to (65536, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<65536x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<65536x64xf32>
  }
  return
}
}

// -----

// NVIDIA's OpenCL on compute capability 8.0 or later (nv-ptx-wmma and
// nv-ptx-cp-async): where the tile copies both factors 8 halves at a time,
// stages copied asynchronously. A B whose 128x256 tiles still number 264
// workgroups (the default min-staged-workgroups): 128x256x16 in 3 stages
// of 8 subgroups of 64x64 (43 776 bytes staged). Fewer (2048^2: 128): two
// stages of 128x128x32 in 8 subgroups of 64x32 (2 x 18944 bytes staged; 4
// subgroups of 64x64 with one stage); A B^T keeps 32x64 per subgroup with
// steps halved to 32 (128x128x64 twice would need 71 680 bytes). M = 4000
// is not a multiple of 128: A is staged 4 halves at a time, one stage.
// Without nv-ptx-cp-async (@one_stage), one stage.
// CHECK-LABEL: func.func @three_stages
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 256, 16, 64, 64, 3>}
// CHECK-LABEL: func.func @two_stages
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 32, 2>}
// CHECK-LABEL: func.func @two_stages_along_k
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 32, 64, 2>}
// CHECK-LABEL: func.func @two_stages_edge
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 256, 32, 64, 64, 1>}
module attributes {plaidml.target = #plaidml.target<device = opencl, exts = ["cl_khr_fp64", "nv-ptx-wmma", "nv-ptx-cp-async"]>} {
func.func @three_stages(%a: memref<4096x64xf16>, %b: memref<64x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x256x16, 64x64 per subgroup (16x16x16 f16 -> f32), 3 stages copied asynchronously, over M x N x K = 4096 x 4096 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x4096xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
func.func @two_stages(%a: memref<2048x64xf16>, %b: memref<64x2048xf16>, %c: memref<2048x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x32, 64x32 per subgroup (16x16x16 f16 -> f32), 2 stages copied asynchronously, over M x N x K = 2048 x 2048 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (2048, 2048) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<2048x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x2048xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<2048x2048xf32>
  }
  return
}
func.func @two_stages_along_k(%a: memref<4096x64xf16>, %b: memref<4096x64xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x32, 32x64 per subgroup (16x16x16 f16 -> f32), 2 stages copied asynchronously}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%n, %k] : memref<4096x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
func.func @two_stages_edge(%a: memref<4000x64xf16>, %b: memref<64x4096xf16>, %c: memref<4000x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x256x32, 64x64 per subgroup (16x16x16 f16 -> f32), 1 stage}}
  affine.parallel (%m, %n) = (0, 0) to (4000, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4000x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x4096xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4000x4096xf32>
  }
  return
}
}

// -----

// CHECK-LABEL: func.func @one_stage
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 1>}
module attributes {plaidml.target = #plaidml.target<device = opencl, exts = ["cl_khr_fp64", "nv-ptx-wmma"]>} {
func.func @one_stage(%a: memref<4096x64xf16>, %b: memref<64x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 128x128x32, 64x64 per subgroup (16x16x16 f16 -> f32), 1 stage}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x4096xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
}

// -----

// Emulated (emulate-nv-ptx: the PTX printed as portable OpenCL C, whole
// matrices in every invocation): 64x64 tiles whatever the size, so that
// the emulation's private memory stays within a CPU driver's stack; A B in
// 3 stages of 16 (4 subgroups of 32x32), as large A B products get on the
// GPU, whatever the workgroup count, so that both kernel forms run on
// PoCL; other layouts 2 stages of 32 (32x16 per subgroup).
// CHECK-LABEL: func.func @emulated
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 64, 64, 16, 32, 32, 3>}
// CHECK-LABEL: func.func @emulated_bt
// CHECK:       } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 2>}
module attributes {plaidml.target = #plaidml.target<device = opencl, exts = ["nv-ptx-wmma", "nv-ptx-cp-async", "emulate-nv-ptx"]>} {
func.func @emulated(%a: memref<4096x64xf16>, %b: memref<64x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 64x64x16, 32x32 per subgroup (16x16x16 f16 -> f32), 3 stages copied asynchronously, over M x N x K = 4096 x 4096 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x4096xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
func.func @emulated_bt(%a: memref<4096x64xf16>, %b: memref<4096x64xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 2 stages copied asynchronously, over M x N x K = 4096 x 4096 x 64, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (4096, 4096) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<4096x64xf16>
      %y = affine.load %b[%n, %k] : memref<4096x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<4096x4096xf32>
  }
  return
}
}
