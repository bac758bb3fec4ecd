// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-configure="vector-bits=512 remarks=1" -verify-diagnostics | FileCheck %s
// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-configure="vector-bits=256" 2>/dev/null | FileCheck %s --check-prefix=AVX2
// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-configure="vector-bits=512 block-bytes=65536" 2>/dev/null | FileCheck %s --check-prefix=SMALL
// RUN: not plaidml-opt %s -split-input-file -plaidml-cpu-configure="block-bytes=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: plaidml-cpu-configure: block-bytes must be at least 1, not 0
// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-configure="vector-bits=256 chunk-bytes=0" 2>/dev/null | FileCheck %s --check-prefix=NOCHUNK
// RUN: not plaidml-opt %s -split-input-file -plaidml-cpu-configure="chunk-bytes=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: plaidml-cpu-configure: chunk-bytes must be at least 0, not -1

// The schedules plaidml-cpu-configure chooses for the reduction nests of
// the ABI form, and why it leaves the others alone.

// A 512x512x512 matmul: 14 rows x 2 vectors of 16 lanes (28 accumulators
// of AVX-512's 32 registers), the right-hand side packed in blocks of
// panels; with AVX2 (16 registers): 12 accumulators of 8 lanes. Blocks
// hold 256 KiB of packed data by default (4 panels of 512 x 32 floats, also
// the most that leave 4 blocks for threads); with block-bytes=65536, one
// 64 KiB panel.
// SMALL-LABEL: func.func @matmul
// SMALL: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14, vectors = 2, panels_per_block = 1, pack = true
// CHECK-LABEL: func.func @matmul
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14, vectors = 2, panels_per_block = 4, pack = true, unroll_inner = false>
// AVX2-LABEL: func.func @matmul
// AVX2: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = {{[0-9]+}}, {{.*}}pack = true
func.func @matmul(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: 14 x 2 vectors of 16, 4 panels per block, packed}}
  affine.parallel (%m, %n) = (0, 0) to (512, 512) {
    %r = affine.for %k = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<512x512xf32>
      %y = affine.load %b[%k, %n] : memref<512x512xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<512x512xf32>
  }
  return
}

// -----

// A depthwise convolution: the input is read per row and vector, so both
// vectors of the 32 channels share one panel; the 3-tap window loop is
// unrolled so that neighbouring rows share their loads.
// CHECK-LABEL: func.func @depthwise
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<{{.*}}rows = 14, vectors = 2, {{.*}}unroll_inner = true>
func.func @depthwise(%i: memref<1x30x30x32xf32>, %k: memref<3x3x32xf32>, %o: memref<1x28x28x32xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: 14 x 2 vectors of 16, 1 panels per block, packed, inner reduction loop unrolled}}
  affine.parallel (%n, %h, %w, %c) = (0, 0, 0, 0) to (1, 28, 28, 32) {
    %r = affine.for %kh = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
      %s = affine.for %kw = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
        %x = affine.load %i[%n, %h + %kh, %w + %kw, %c] : memref<1x30x30x32xf32>
        %y = affine.load %k[%kh, %kw, %c] : memref<3x3x32xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %a1, %p : f32
        affine.yield %t : f32
      }
      affine.yield %s : f32
    }
    affine.store %r, %o[%n, %h, %w, %c] : memref<1x28x28x32xf32>
  }
  return
}

// -----

// An NCHW convolution whose padding copy for the next convolution was fused
// into it: the store writes at (h + 1, w + 1) of the padded buffer. The
// offsets move the stores only; the vector dimension is still w.
// CHECK-LABEL: func.func @padded_store
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16,
func.func @padded_store(%i: memref<1x8x32x32xf32>, %k: memref<8x8xf32>, %o: memref<1x8x34x34xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: }}
  affine.parallel (%n, %c, %h, %w) = (0, 0, 0, 0) to (1, 8, 32, 32) {
    %r = affine.for %ci = 0 to 8 iter_args(%a = %zero) -> (f32) {
      %x = affine.load %i[%n, %ci, %h, %w] : memref<1x8x32x32xf32>
      %y = affine.load %k[%c, %ci] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %a, %p : f32
      affine.yield %t : f32
    }
    affine.store %r, %o[%n, %c, %h + 1, %w + 1] : memref<1x8x34x34xf32>
  }
  return
}

// -----

// Narrow vector dimensions take narrower vectors (one vector step costs
// about one scalar step): 14 columns are 3 vectors of 4 and 2 scalars
// (16 lanes cannot hold one vector), 56 columns 7 vectors of 8 (not 3 of
// 16 and 8 scalars); 64 columns keep 16 lanes.
// CHECK-LABEL: func.func @narrow
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 4,
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8,
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16,
func.func @narrow(%a: memref<64x8xf32>, %b: memref<8x64xf32>, %c: memref<64x14xf32>, %d: memref<64x56xf32>, %e: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{vectors of 4}}
  affine.parallel (%i, %j) = (0, 0) to (64, 14) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<64x8xf32>
      %y = affine.load %b[%k, %j] : memref<8x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%i, %j] : memref<64x14xf32>
  }
  // expected-remark @+1 {{vectors of 8}}
  affine.parallel (%i, %j) = (0, 0) to (64, 56) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<64x8xf32>
      %y = affine.load %b[%k, %j] : memref<8x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %d[%i, %j] : memref<64x56xf32>
  }
  // expected-remark @+1 {{vectors of 16}}
  affine.parallel (%i, %j) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<64x8xf32>
      %y = affine.load %b[%k, %j] : memref<8x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %e[%i, %j] : memref<64x64xf32>
  }
  return
}

// -----

// Nests it leaves alone, each with the reason.
// CHECK-LABEL: func.func @unscheduled
// CHECK-NOT: plaidml.cpu.schedule
func.func @unscheduled(%a: memref<8x8xf32>, %b: memref<8x8xi32>, %c: memref<8x4xf32>, %d: memref<8x8xi32>, %e: memref<8x8xf32>, %mask: memref<8x8xi1>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  // expected-remark @+1 {{no CPU schedule: it has no reduction loop}}
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    %x = affine.load %a[%i, %j] : memref<8x8xf32>
    affine.store %x, %e[%i, %j] : memref<8x8xf32>
  }
  // A window with no point (a border nest of split-guards whose guards
  // fail everywhere): the nest stores its init.
  // expected-remark @+1 {{no CPU schedule: a reduction loop runs no iteration}}
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    %r = affine.for %k = 3 to 3 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<8x8xf32>
      %s = arith.addf %acc, %x : f32
      affine.yield %s : f32
    }
    affine.store %r, %e[%i, %j] : memref<8x8xf32>
  }
  // expected-remark @+1 {{no CPU schedule: it accumulates in i32, not f32 or f64}}
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %izero) -> (i32) {
      %x = affine.load %b[%i, %k] : memref<8x8xi32>
      %s = arith.addi %acc, %x : i32
      affine.yield %s : i32
    }
    affine.store %r, %d[%i, %j] : memref<8x8xi32>
  }
  // expected-remark @+1 {{no CPU schedule: the vector dimension has 3 elements, fewer than one vector of 4}}
  affine.parallel (%i, %j) = (0, 0) to (8, 3) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %k] : memref<8x8xf32>
      %s = arith.addf %acc, %x : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%i, %j] : memref<8x4xf32>
  }
  // expected-remark @+1 {{no CPU schedule: a load reads across the vector dimension}}
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%j, %k] : memref<8x8xf32>
      %s = arith.addf %acc, %x : f32
      affine.yield %s : f32
    }
    affine.store %r, %e[%i, %j] : memref<8x8xf32>
  }
  // A mask of i1 along the vector dimension: one byte per element in
  // memory, one bit per lane in a vector (a causal attention mask; was a
  // wrong result with vectors of 8 or 4 lanes).
  // expected-remark @+1 {{no CPU schedule: a load reads i1 elements along the vector dimension}}
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %m = affine.load %mask[%k, %j] : memref<8x8xi1>
      %x = affine.load %a[%i, %k] : memref<8x8xf32>
      %y = arith.select %m, %x, %zero : f32
      %s = arith.addf %acc, %y : f32
      affine.yield %s : f32
    }
    affine.store %r, %e[%i, %j] : memref<8x8xf32>
  }
  return
}

// -----

// A 7 x 7 map (ResNet-50's last stage): rows of 7 leave a block of 7 x 4;
// two whole rows of the outer dimension make 14 x 2, which reads half as
// many vectors of the packed filter per multiply-add (the same model cost:
// the larger block and the fewer vectors are chosen). Not where something
// is read per outer row but not per row (a per-h scale), where a window
// slides with the row (a depthwise convolution), or where the rows are
// already wide enough (14).
// CHECK-LABEL: func.func @outer_rows
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14, vectors = 2, panels_per_block = 2, pack = true, unroll_inner = false>
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 7,
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 7,
// CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14, vectors = 2,
func.func @outer_rows(%i: memref<1x7x7x512xf32>, %w: memref<512x256xf32>, %o: memref<1x7x7x256xf32>,
                      %hs: memref<7xf32>, %dw: memref<1x9x9x256xf32>, %k: memref<3x3x256xf32>,
                      %i14: memref<1x14x14x512xf32>, %o14: memref<1x14x14x256xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: 14 (2 outer rows of 7) x 2 vectors of 16, 2 panels per block, packed}}
  affine.parallel (%n, %h, %x, %c) = (0, 0, 0, 0) to (1, 7, 7, 256) {
    %r = affine.for %ci = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %i[%n, %h, %x, %ci] : memref<1x7x7x512xf32>
      %b = affine.load %w[%ci, %c] : memref<512x256xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %o[%n, %h, %x, %c] : memref<1x7x7x256xf32>
  }
  // expected-remark @+1 {{CPU schedule: 7 x 4 vectors of 16}}
  affine.parallel (%n, %h, %x, %c) = (0, 0, 0, 0) to (1, 7, 7, 256) {
    %r = affine.for %ci = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %i[%n, %h, %x, %ci] : memref<1x7x7x512xf32>
      %b = affine.load %w[%ci, %c] : memref<512x256xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    %scale = affine.load %hs[%h] : memref<7xf32>
    %t = arith.mulf %r, %scale : f32
    affine.store %t, %o[%n, %h, %x, %c] : memref<1x7x7x256xf32>
  }
  // expected-remark @+1 {{CPU schedule: 7 x 4 vectors of 16, 1 panels per block, packed, inner reduction loop unrolled}}
  affine.parallel (%n, %h, %x, %c) = (0, 0, 0, 0) to (1, 7, 7, 256) {
    %r = affine.for %kh = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %r2 = affine.for %kw = 0 to 3 iter_args(%acc2 = %acc) -> (f32) {
        %a = affine.load %dw[%n, %h + %kh, %x + %kw, %c] : memref<1x9x9x256xf32>
        %b = affine.load %k[%kh, %kw, %c] : memref<3x3x256xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc2, %p : f32
        affine.yield %s : f32
      }
      affine.yield %r2 : f32
    }
    affine.store %r, %o[%n, %h, %x, %c] : memref<1x7x7x256xf32>
  }
  // expected-remark @+1 {{CPU schedule: 14 x 2 vectors of 16, 2 panels per block, packed}}
  affine.parallel (%n, %h, %x, %c) = (0, 0, 0, 0) to (1, 14, 14, 256) {
    %r = affine.for %ci = 0 to 512 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %i14[%n, %h, %x, %ci] : memref<1x14x14x512xf32>
      %b = affine.load %w[%ci, %c] : memref<512x256xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %o14[%n, %h, %x, %c] : memref<1x14x14x256xf32>
  }
  return
}

// -----

// A 1x1 convolution on a 7 x 7 map to 16 channels. With AVX2 (16
// registers, 8 lanes: 2 vectors), each accumulator's FMAs wait for the one
// before (about 4 cycles), so a block of fewer than 8 accumulators leaves
// the FMA units idle: rows of 7 as 4 + 3 rows x 2 vectors (8 and 6
// accumulators) rather than 5 + 2 (10 and 4, the remainder at half
// speed). With AVX-512, one vector: blocks of whole rows (14 = 2 x 7).
// CHECK-LABEL: func.func @short_rows
// AVX2-LABEL: func.func @short_rows
// AVX2: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 4, vectors = 2,
func.func @short_rows(%i: memref<1x7x7x64xf32>, %k: memref<64x16xf32>, %o: memref<1x7x7x16xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule:}}
  affine.parallel (%n, %h, %w, %c) = (0, 0, 0, 0) to (1, 7, 7, 16) {
    %r = affine.for %ci = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %i[%n, %h, %w, %ci] : memref<1x7x7x64xf32>
      %y = affine.load %k[%ci, %c] : memref<64x16xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %o[%n, %h, %w, %c] : memref<1x7x7x16xf32>
  }
  return
}

// -----

// With AVX2, 4 vectors of operand and a broadcast leave 11 of the 16
// registers: 2 rows x 4 vectors at most. 12 rows of 4 vectors would cost
// least in 3 x 4 blocks (7 loads per 12 FMAs), 17 registers; the 6 x 2
// blocks are next (8 loads per 12 FMAs, 2 panels).
// AVX2-LABEL: func.func @wide_columns
// AVX2: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 6, vectors = 2,
func.func @wide_columns(%a: memref<12x256xf32>, %b: memref<256x32xf32>, %c: memref<12x32xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule:}}
  affine.parallel (%m, %n) = (0, 0) to (12, 32) {
    %r = affine.for %k = 0 to 256 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<12x256xf32>
      %y = affine.load %b[%k, %n] : memref<256x32xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<12x32xf32>
  }
  return
}

// -----

// A 3x3 convolution of 512 channels on a 7x7 map: a filter panel is 4608
// reduction points long (442 KiB for 3 vectors of 8), larger than a cache
// block, and each row block would read it from the L2 cache. The
// reduction runs in chunks of the channel loop whose slice of a panel
// fits chunk-bytes (16 KiB: 9 x 16 points of 3 x 8 floats with AVX2, 9 x
// 8 of 2 x 16 with AVX-512), which lets the block be 4 x 3 vectors rather
// than 7 x 1 (a vector load for every 7 FMAs, not 3 for 12); without
// chunks (chunk-bytes=0), with AVX2's cost of loads, the same block in
// one piece, each row block reading its panel from the L2 cache (7 x 1
// blocks, whose panel fits, need 8 loads per 7 FMAs).
// CHECK-LABEL: func.func @conv_chunks
// CHECK: reduction_chunk = 8>
// AVX2-LABEL: func.func @conv_chunks
// AVX2: #plaidml.cpu_schedule<lanes = 8, rows = 4, vectors = 3, panels_per_block = 1, pack = true, unroll_inner = false, reduction_chunk = 16>
// NOCHUNK-LABEL: func.func @conv_chunks
// NOCHUNK: #plaidml.cpu_schedule<lanes = 8, rows = 4, vectors = 3, panels_per_block = 1, pack = true, unroll_inner = false>}
func.func @conv_chunks(%i: memref<1x9x9x512xf32>, %k: memref<3x3x512x64xf32>, %o: memref<1x7x7x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: 14 (2 outer rows of 7) x 2 vectors of 16, 1 panels per block, packed, reduction in chunks of 8}}
  affine.parallel (%n, %h, %w, %c) = (0, 0, 0, 0) to (1, 7, 7, 64) {
    %r = affine.for %kh = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
      %r1 = affine.for %kw = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
        %r2 = affine.for %ci = 0 to 512 iter_args(%a2 = %a1) -> (f32) {
          %x = affine.load %i[%n, %h + %kh, %w + %kw, %ci] : memref<1x9x9x512xf32>
          %y = affine.load %k[%kh, %kw, %ci, %c] : memref<3x3x512x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %a2, %p : f32
          affine.yield %s : f32
        }
        affine.yield %r2 : f32
      }
      affine.yield %r1 : f32
    }
    affine.store %r, %o[%n, %h, %w, %c] : memref<1x7x7x64xf32>
  }
  return
}

// -----

// A GEMV reads each panel once (one row): no chunks, however long.
// CHECK-LABEL: func.func @gemv_no_chunks
// CHECK-NOT: reduction_chunk
// AVX2-LABEL: func.func @gemv_no_chunks
// AVX2-NOT: reduction_chunk
func.func @gemv_no_chunks(%a: memref<1x4608xf32>, %b: memref<4608x64xf32>, %c: memref<1x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: 1 x 4 vectors of 16, 1 panels per block}}
  affine.parallel (%m, %n) = (0, 0) to (1, 64) {
    %r = affine.for %k = 0 to 4608 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1x4608xf32>
      %y = affine.load %b[%k, %n] : memref<4608x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<1x64xf32>
  }
  return
}

// -----

// A schedule already on the nest (written by hand) is kept as it is, with
// any vector width.
// CHECK-LABEL: func.func @kept
// CHECK: #plaidml.cpu_schedule<lanes = 8, rows = 3, vectors = 1, panels_per_block = 2, pack = false, unroll_inner = false>
// AVX2-LABEL: func.func @kept
// AVX2: #plaidml.cpu_schedule<lanes = 8, rows = 3, vectors = 1, panels_per_block = 2, pack = false, unroll_inner = false>
func.func @kept(%a: memref<12x64xf32>, %b: memref<64x32xf32>, %c: memref<12x32xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule kept: #plaidml.cpu_schedule<lanes = 8, rows = 3, vectors = 1, panels_per_block = 2, pack = false, unroll_inner = false>}}
  affine.parallel (%m, %n) = (0, 0) to (12, 32) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<12x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x32xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<12x32xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 3, vectors = 1,
                             panels_per_block = 2, pack = false, unroll_inner = false>}
  return
}

// -----

// One row reads each panel once, so a GEMV's matrix is not packed per
// call (@gemv_no_chunks above); a parameter's panels are packed once for
// all calls, which pays for one reader too: the panels are contiguous
// instead of 4 vectors per row of the matrix, rows 4 KiB apart.
// CHECK-LABEL: func.func @gemv_param
// CHECK: #plaidml.cpu_schedule<lanes = 16, rows = 1, vectors = 4, panels_per_block = 1, pack = true, unroll_inner = false>
// AVX2-LABEL: func.func @gemv_param
// AVX2: pack = true
func.func @gemv_param(%a: memref<1x2048xf32>, %b: memref<2048x1000xf32> {plaidml.param}, %c: memref<1x1000xf32>)
    attributes {plaidml.entry} {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{CPU schedule: 1 x 4 vectors of 16, 1 panels per block, packed}}
  affine.parallel (%m, %n) = (0, 0) to (1, 1000) {
    %r = affine.for %k = 0 to 2048 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<1x2048xf32>
      %y = affine.load %b[%k, %n] : memref<2048x1000xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<1x1000xf32>
  }
  return
}
