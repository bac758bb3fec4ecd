// The staged tile plaidml-gpu-configure chooses for matrix-product nests,
// and its remarks (what was chosen, or why no staged tile).
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure=remarks=1 \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-configure=staged=0 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF-NOT: plaidml.gpu.staged_tile
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-gpu-configure=min-staged-workgroups=4 \
// RUN:   | FileCheck %s --check-prefix=LARGE
// LARGE-LABEL: func.func @matmul
// LARGE: plaidml.gpu.staged_tile = array<i64: 128, 128, 8, 8, 8>
// LARGE-LABEL: func.func @long_k
// LARGE: plaidml.gpu.staged_tile = array<i64: 128, 128, 16, 8, 8>

// Fewer than 264 workgroups of 128x128 and 132 of 64x64: 32x32 tiles. No
// workgroup size: the staged kernel has its own.
// CHECK-LABEL: func.func @matmul
// CHECK:       } {plaidml.gpu.staged_tile = array<i64: 32, 32, 16, 2, 2>}
func.func @matmul(%a: memref<256x32xf32>, %b: memref<32x300xf32>, %c: memref<256x300xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 256 x 300 x 32, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (256, 300) {
    %r = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<256x32xf32>
      %y = affine.load %b[%k, %n] : memref<32x300xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<256x300xf32>
  }
  return
}

// -----

// A reduction of 1024 or more takes steps of 16 (8 above) in 128x128 tiles.
// CHECK-LABEL: func.func @long_k
// CHECK:       } {plaidml.gpu.staged_tile = array<i64: 32, 32, 16, 2, 2>}
func.func @long_k(%a: memref<256x1024xf32>, %b: memref<1024x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{staged tile 32x32x16}}
  affine.parallel (%m, %n) = (0, 0) to (256, 256) {
    %r = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<256x1024xf32>
      %y = affine.load %b[%k, %n] : memref<1024x256xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<256x256xf32>
  }
  return
}

// -----

// 240 workgroups of 128x128, at least 90 % of 264: 128x128 tiles.
// CHECK-LABEL: func.func @almost_full
// CHECK:       } {plaidml.gpu.staged_tile = array<i64: 128, 128, 8, 8, 8>}
func.func @almost_full(%a: memref<2048x64xf32>, %b: memref<64x1920xf32>, %c: memref<2048x1920xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{staged tile 128x128x8}}
  affine.parallel (%m, %n) = (0, 0) to (2048, 1920) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<2048x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x1920xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<2048x1920xf32>
  }
  return
}

// -----

// A GEMV with a short reduction keeps the register tile.
// CHECK-LABEL: func.func @gemv
// CHECK-NOT:   plaidml.gpu.staged_tile
// CHECK:       plaidml.gpu.register_tile
func.func @gemv(%a: memref<1x64xf32>, %b: memref<64x65536xf32>, %c: memref<1x65536xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no staged tile: M or N is below 16; no split-K tile: K is below 256, too short to split}}
  // expected-remark @+1 {{register tile 1x4 (4 outputs per invocation), workgroup 1x256 over 1x16384}}
  affine.parallel (%m, %n) = (0, 0) to (1, 65536) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x65536xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<1x65536xf32>
  }
  return
}

// -----

// A GEMV with K = 512 splits it: 8 outputs x 32 invocations per workgroup,
// whether the weights follow N or K.
// CHECK-LABEL: func.func @split
// CHECK:       } {plaidml.gpu.split_k = array<i64: 8, 32>}
// CHECK:       } {plaidml.gpu.split_k = array<i64: 8, 32>}
func.func @split(%a: memref<1x512xf32>, %b: memref<512x4096xf32>, %bt: memref<4096x512xf32>, %c: memref<1x4096xf32>, %d: memref<1x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{split-K tile: 8 outputs x 32 invocations each per workgroup, over M x N x K = 1 x 4096 x 512, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (1, 4096) {
    %r = affine.for %k = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1x512xf32>
      %y = affine.load %b[%k, %n] : memref<512x4096xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<1x4096xf32>
  }
  // expected-remark @+1 {{split-K tile: 8 outputs x 32 invocations each per workgroup, over M x N x K = 1 x 4096 x 512, batch 1}}
  affine.parallel (%m, %n) = (0, 0) to (1, 4096) {
    %r = affine.for %k = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1x512xf32>
      %y = affine.load %bt[%n, %k] : memref<4096x512xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %d[%m, %n] : memref<1x4096xf32>
  }
  return
}

// -----

// A depthwise window: no parallel dimension is read by the filter alone,
// so the input is the second factor (N = 32 x 32) and M is 1, the channels
// a batch; the 3 x 3 reduction is too short to split.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT:   plaidml.gpu.staged_tile
func.func @depthwise(%i: memref<34x34x32xf32>, %w: memref<3x3x32xf32>, %o: memref<32x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+3 {{no staged tile: M or N is below 16; no split-K tile: K is below 256, too short to split}}
  // expected-remark @+2 {{no register tile}}
  // expected-remark @+1 {{workgroup}}
  affine.parallel (%x, %y, %c) = (0, 0, 0) to (32, 32, 32) {
    %r = affine.for %kh = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
      %r2 = affine.for %kw = 0 to 3 iter_args(%acc = %a0) -> (f32) {
        %v = affine.load %i[%x + %kh, %y + %kw, %c] : memref<34x34x32xf32>
        %k = affine.load %w[%kh, %kw, %c] : memref<3x3x32xf32>
        %p = arith.mulf %v, %k : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.yield %r2 : f32
    }
    affine.store %r, %o[%x, %y, %c] : memref<32x32x32xf32>
  }
  return
}

// -----

// A max reduction is not a sum of products.
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT:   plaidml.gpu.staged_tile
func.func @max_pool(%i: memref<64x64xf32>, %o: memref<64x32xf32>) {
  %low = arith.constant -3.0e38 : f32
  // expected-remark @+3 {{no staged tile: the reduction is not a floating-point sum of products}}
  // expected-remark @+2 {{no register tile}}
  // expected-remark @+1 {{workgroup}}
  affine.parallel (%r, %c) = (0, 0) to (64, 32) {
    %m = affine.for %k = 0 to 2 iter_args(%acc = %low) -> (f32) {
      %v = affine.load %i[%r, %c * 2 + %k] : memref<64x64xf32>
      %x = arith.maximumf %acc, %v : f32
      affine.yield %x : f32
    }
    affine.store %m, %o[%r, %c] : memref<64x32xf32>
  }
  return
}

// -----

// A device whose workgroups hold fewer than 256 invocations.
// CHECK-LABEL: func.func @small_device
// CHECK-NOT:   plaidml.gpu.staged_tile
module attributes {plaidml.target = #plaidml.target<device = vulkan, cpu = "x86-64", max_workgroup_size = 128>} {
func.func @small_device(%a: memref<256x32xf32>, %b: memref<32x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+2 {{no staged tile: the device's workgroups hold fewer than 256 invocations}}
  // expected-remark @+1 {{register tile}}
  affine.parallel (%m, %n) = (0, 0) to (256, 256) {
    %r = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<256x32xf32>
      %y = affine.load %b[%k, %n] : memref<32x256xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<256x256xf32>
  }
  return
}
}

// -----

// A factor that reads the buffer the nest writes.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT:   plaidml.gpu.staged_tile
func.func @in_place(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+3 {{no staged tile: a factor reads the buffer the nest writes}}
  // expected-remark @+2 {{no register tile}}
  // expected-remark @+1 {{workgroup 4x64 over 64x64}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %a[%m, %n] : memref<64x64xf32>
  }
  return
}

// -----

// A guard that keeps the second factor's load in bounds (b[i + j] with
// i + j < 4): the staged kernel would read that factor unguarded.
// CHECK-LABEL: func.func @guarded_second_factor
// CHECK-NOT:   plaidml.gpu.staged_tile
#diag = affine_set<(m, n, i, j) : (-i - j + 3 >= 0)>
func.func @guarded_second_factor(%a: memref<64x4x4xf32>, %b: memref<4x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+3 {{no staged tile: the reduction's guard may protect the second factor's loads}}
  // expected-remark @+2 {{register tile}}
  // expected-remark @+1 {{workgroup}}
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %i = 0 to 4 iter_args(%a0 = %zero) -> (f32) {
      %r2 = affine.for %j = 0 to 4 iter_args(%acc = %a0) -> (f32) {
        %g = affine.if #diag(%m, %n, %i, %j) -> f32 {
          %x = affine.load %a[%m, %i, %j] : memref<64x4x4xf32>
          %y = affine.load %b[%i + %j, %n] : memref<4x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          affine.yield %s : f32
        } else {
          affine.yield %acc : f32
        }
        affine.yield %g : f32
      }
      affine.yield %r2 : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  }
  return
}
