// RUN: plaidml-opt %s -split-input-file -verify-diagnostics -plaidml-cpu-tile-contractions | FileCheck %s

// A 5x40 output with a bias + relu epilogue, scheduled as 2 rows x 1
// vector of 16 lanes, 1 panel per block, the right-hand side packed: two
// full row blocks and a remainder row per panel, vector FMAs on
// accumulators carried through the reduction loop, the epilogue on
// vectors (the bias a vector load, the relu a vector select), vector
// stores; columns 32..39 do not fill a vector and keep the scalar nest.

// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME: (%[[A:.*]]: memref<5x3xf32>, %[[B:.*]]: memref<3x40xf32>, %[[BIAS:.*]]: memref<40xf32>, %[[C:.*]]: memref<5x40xf32>)
// CHECK: affine.parallel (%[[BLK:.*]]) = (0) to (2) {
// CHECK-NEXT: %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x3x16xf32>
// CHECK-NEXT: affine.for %[[P:.*]] = 0 to min #{{.*}}(%[[BLK]]) {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[L:.*]] = 0 to 16 step 16 {
// CHECK-NEXT: %[[V:.*]] = affine.vector_load %[[B]][%[[K]], %[[BLK]] * 16 + %[[P]] * 16 + %[[L]]] : memref<3x40xf32>, vector<16xf32>
// CHECK-NEXT: affine.vector_store %[[V]], %[[PACK]][%[[P]], %[[K]], %[[L]]]
// Two blocks of two rows:
// CHECK: affine.for %[[RB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[Q:.*]] = 0 to min
// CHECK: %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK-NEXT: %[[R:.*]]:2 = affine.for %[[KK:.*]] = 0 to 3 iter_args(%[[A0:.*]] = %[[INIT]], %[[A1:.*]] = %[[INIT]]) -> (vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT: %[[X0:.*]] = affine.load %[[A]][%[[RB]] * 2, %[[KK]]]
// CHECK-NEXT: %[[X1:.*]] = affine.load %[[A]][%[[RB]] * 2 + 1, %[[KK]]]
// CHECK-NEXT: %[[Y:.*]] = affine.vector_load %[[PACK]][%[[Q]], %[[KK]], 0] : memref<1x3x16xf32>, vector<16xf32>
// CHECK-NEXT: %[[X0V:.*]] = vector.broadcast %[[X0]]
// CHECK-NEXT: %[[F0:.*]] = vector.fma %[[X0V]], %[[Y]], %[[A0]] : vector<16xf32>
// CHECK-NEXT: %[[X1V:.*]] = vector.broadcast %[[X1]]
// CHECK-NEXT: %[[F1:.*]] = vector.fma %[[X1V]], %[[Y]], %[[A1]] : vector<16xf32>
// CHECK-NEXT: affine.yield %[[F0]], %[[F1]]
// CHECK: affine.vector_load %[[BIAS]][%[[BLK]] * 16 + %[[Q]] * 16] : memref<40xf32>, vector<16xf32>
// CHECK: arith.addf %[[R]]#0, %{{.*}} : vector<16xf32>
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.select %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK: affine.vector_store %{{.*}}, %[[C]][%[[RB]] * 2, %[[BLK]] * 16 + %[[Q]] * 16]
// CHECK: affine.vector_store %{{.*}}, %[[C]][%[[RB]] * 2 + 1, %[[BLK]] * 16 + %[[Q]] * 16]
// The remainder row 4:
// CHECK: affine.load %[[A]][4, %{{.*}}]
// CHECK: affine.vector_store %{{.*}}, %[[C]][4, %[[BLK]] * 16 + %{{.*}} * 16]
// CHECK: memref.dealloc %[[PACK]]
// The columns that do not fill a vector: the original nest from 32.
// CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (0, 32) to (5, 40) {
// CHECK: arith.mulf %{{.*}} : f32
// CHECK-NOT: plaidml.cpu.schedule
func.func @matmul_bias_relu(%a: memref<5x3xf32>, %b: memref<3x40xf32>, %bias: memref<40xf32>, %c: memref<5x40xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (5, 40) {
    %r = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<5x3xf32>
      %y = affine.load %b[%k, %n] : memref<3x40xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    %bv = affine.load %bias[%n] : memref<40xf32>
    %t = arith.addf %r, %bv : f32
    %neg = arith.cmpf olt, %t, %zero : f32
    %relu = arith.select %neg, %zero, %t : f32
    affine.store %relu, %c[%m, %n] : memref<5x40xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 2, vectors = 1,
                             panels_per_block = 1, pack = true, unroll_inner = false>}
  return
}

// -----

// An unrolled window loop: the three taps are three copies of the body,
// each reading its window at its own offset along the vector dimension,
// with no loop left for them.
// CHECK-LABEL: func.func @window
// CHECK-NOT: iter_args
// CHECK: %[[X0:.*]] = affine.vector_load %{{.*}}[%[[H:.*]], %[[COL:.*]]] : memref<1x18xf32>, vector<16xf32>
// CHECK-NEXT: affine.load %{{.*}}[0] : memref<3xf32>
// CHECK: vector.fma %{{.*}}, %[[X0]], %{{.*}}
// CHECK: %[[X1:.*]] = affine.vector_load %{{.*}}[%[[H]], %[[COL]] + 1] : memref<1x18xf32>, vector<16xf32>
// CHECK-NEXT: affine.load %{{.*}}[1] : memref<3xf32>
// CHECK: vector.fma %{{.*}}, %[[X1]], %{{.*}}
// CHECK: %[[X2:.*]] = affine.vector_load %{{.*}}[%[[H]], %[[COL]] + 2] : memref<1x18xf32>, vector<16xf32>
// CHECK-NEXT: affine.load %{{.*}}[2] : memref<3xf32>
// CHECK: %[[S:.*]] = vector.fma %{{.*}}, %[[X2]], %{{.*}}
// CHECK: affine.vector_store %[[S]], %{{.*}}[%[[H]], %[[COL]]] : memref<1x16xf32>, vector<16xf32>
func.func @window(%i: memref<1x18xf32>, %k: memref<3xf32>, %o: memref<1x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w) = (0, 0) to (1, 16) {
    %r = affine.for %kw = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %i[%h, %w + %kw] : memref<1x18xf32>
      %y = affine.load %k[%kw] : memref<3xf32>
      %p = arith.mulf %y, %x : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %o[%h, %w] : memref<1x16xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 1, vectors = 1,
                             panels_per_block = 1, pack = false, unroll_inner = true>}
  return
}

// A malformed schedule is a verifier error (test/Dialect/PlaidML/invalid.mlir).

// -----

// A block of rows = 6 on a row dimension of 3: two whole rows of the outer
// dimension (h) per block. A 5 x 3 map: two blocks (h = 0, 2) in a loop,
// then the last row (h = 4) as a block of 3; row i of a block reads and
// writes (h + i / 3, i % 3).
// CHECK-LABEL: func.func @outer_rows
// CHECK: affine.for %[[B:.*]] = 0 to 2 {
// CHECK: affine.load %{{.*}}[%[[B]] * 2, 0, %[[K:.*]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[B]] * 2, 1, %[[K]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[B]] * 2, 2, %[[K]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[B]] * 2 + 1, 0, %[[K]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[B]] * 2 + 1, 1, %[[K]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[B]] * 2 + 1, 2, %[[K]]] : memref<5x3x4xf32>
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[%[[B]] * 2, 0, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[%[[B]] * 2 + 1, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK: affine.load %{{.*}}[4, 0, %[[K2:.*]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[4, 1, %[[K2]]] : memref<5x3x4xf32>
// CHECK-NEXT: affine.load %{{.*}}[4, 2, %[[K2]]] : memref<5x3x4xf32>
// CHECK-NOT: memref<5x3x4xf32>
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[4, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
func.func @outer_rows(%a: memref<5x3x4xf32>, %b: memref<4x16xf32>, %c: memref<5x3x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 16) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x16xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x16xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 6, vectors = 1,
                             panels_per_block = 1, pack = false, unroll_inner = false>}
  return
}

// -----

// More rows than the row dimension has that are not whole rows of it, or
// with no outer dimension that can take them, are errors.
func.func @partial_outer_rows(%a: memref<5x3x4xf32>, %b: memref<4x16xf32>, %c: memref<5x3x16xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{5 rows of a block exceed the row extent 3, and are not whole rows of it}}
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 16) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x16xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x16xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 5, vectors = 1,
                             panels_per_block = 1, pack = false, unroll_inner = false>}
  return
}

// -----

func.func @no_outer_rows(%a: memref<5x3x4xf32>, %b: memref<5x4x16xf32>, %c: memref<5x3x16xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{6 rows of a block exceed the row extent 3, and no outer row dimension can take them}}
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 16) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%h, %k, %n] : memref<5x4x16xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x16xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 6, vectors = 1,
                             panels_per_block = 1, pack = false, unroll_inner = false>}
  return
}

// -----

// Cache blocks and the other parallel indices (h, the rows of a map; w is
// the row dimension of the register blocks). Where nothing is packed per
// block (no packing, or a parameter packed once for the function), h joins
// the parallel loop beside the blocks, so that threads share rows and not
// only 2 (or 3, or 5) blocks; where a block packs its own panels, the loop
// stays over the blocks and h is a nested parallel loop after the packing
// (plaidml-cpu-parallelize makes it sequential when the blocks run on
// threads).

// 80 columns, 2 vectors per panel: 2 blocks of one panel, then a
// remainder vector (columns 64..79) whose loop over h is parallel too.
// CHECK-LABEL: func.func @blocks_unpacked
// CHECK: affine.parallel (%[[BLK:.*]], %[[H:.*]]) = (0, 0) to (2, 5) {
// CHECK-NOT: memref.alloc
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[%[[H]], %{{.*}} * 3, %[[BLK]] * 32 + %{{.*}} * 32] : memref<5x3x80xf32>, vector<16xf32>
// CHECK: affine.parallel (%[[H2:.*]]) = (0) to (5) {
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[%[[H2]], %{{.*}} * 3, 64] : memref<5x3x80xf32>, vector<16xf32>
func.func @blocks_unpacked(%a: memref<5x3x4xf32>, %b: memref<4x80xf32>, %c: memref<5x3x80xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 80) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x80xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x80xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 3, vectors = 2,
                             panels_per_block = 1, pack = false, unroll_inner = false>}
  return
}

// 64 columns, one vector per panel, 2 panels per block: 2 blocks.
// CHECK-LABEL: func.func @blocks_packed_per_block
// CHECK: affine.parallel (%[[BLK:.*]]) = (0) to (2) {
// CHECK-NEXT: %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x16xf32>
// CHECK: affine.parallel (%[[H:.*]]) = (0) to (5) {
// CHECK: affine.vector_load %[[PACK]]
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[%[[H]], %{{.*}} * 3, %[[BLK]] * 32 + %{{.*}} * 16] : memref<5x3x64xf32>, vector<16xf32>
// CHECK: memref.dealloc %[[PACK]]
func.func @blocks_packed_per_block(%a: memref<5x3x4xf32>, %b: memref<4x64xf32>, %c: memref<5x3x64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 64) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x64xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 3, vectors = 1,
                             panels_per_block = 2, pack = true, unroll_inner = false>}
  return
}

// CHECK-LABEL: func.func @blocks_packed_param
// CHECK: %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64, plaidml.cpu.prepared} : memref<4x4x16xf32>
// CHECK: affine.parallel (%[[BLK:.*]], %[[H:.*]]) = (0, 0) to (2, 5) {
// CHECK-NOT: memref.alloc
// CHECK: affine.vector_load %[[PACK]]
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[%[[H]], %{{.*}} * 3, %[[BLK]] * 32 + %{{.*}} * 16] : memref<5x3x64xf32>, vector<16xf32>
func.func @blocks_packed_param(%a: memref<5x3x4xf32>, %b: memref<4x64xf32> {plaidml.param}, %c: memref<5x3x64xf32>)
    attributes {plaidml.entry} {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 64) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x64xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 3, vectors = 1,
                             panels_per_block = 2, pack = true, unroll_inner = false>}
  return
}

// -----

// Remainder vectors (80 columns: 3 panels of 3 vectors of 8, then one
// vector) are packed like the full panels: a parameter's remainder panel
// once for the function (its own prepared buffer, one panel of 8 columns
// from column 72), and its blocks take as many rows as keep the full
// block's 9 accumulators (9 rows of 1 vector, then the 3 rows left).
// CHECK-LABEL: func.func @remainder_packed_param
// CHECK-SAME: (%[[A:.*]]: memref<5x12x4xf32>, %[[B:.*]]: memref<4x80xf32> {plaidml.param}, %[[C:.*]]: memref<5x12x80xf32>)
// CHECK: %[[TAIL:.*]] = memref.alloc() {alignment = 64 : i64, plaidml.cpu.prepared} : memref<1x4x8xf32>
// CHECK: affine.for %[[TP:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[TK:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[TL:.*]] = 0 to 8 step 8 {
// CHECK-NEXT: %[[TV:.*]] = affine.vector_load %[[B]][%[[TK]], %[[TP]] * 8 + %[[TL]] + 72]
// CHECK-NEXT: affine.vector_store %[[TV]], %[[TAIL]][%[[TP]], %[[TK]], %[[TL]]]
// CHECK: } {plaidml.cpu.prepare}
// CHECK: %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64, plaidml.cpu.prepared} : memref<3x4x24xf32>
// CHECK: } {plaidml.cpu.prepare}
// CHECK: affine.vector_load %[[PACK]]
// The remainder panel: rows 0..8 of each h, then rows 9..11.
// CHECK: affine.parallel (%[[H:.*]]) = (0) to (5) {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 1 {
// CHECK: affine.for %[[K:.*]] = 0 to 4 iter_args
// CHECK-COUNT-9: affine.load %[[A]]
// CHECK-NEXT: affine.vector_load %[[TAIL]][0, %[[K]], 0] : memref<1x4x8xf32>, vector<8xf32>
// CHECK-NOT: affine.vector_load %[[B]]
// CHECK: affine.vector_store %{{.*}}, %[[C]][%[[H]], %[[R]] * 9 + 8, 72]
// CHECK: affine.for %[[K2:.*]] = 0 to 4 iter_args
// CHECK-COUNT-3: affine.load %[[A]]
// CHECK-NEXT: affine.vector_load %[[TAIL]][0, %[[K2]], 0]
// CHECK: affine.vector_store %{{.*}}, %[[C]][%[[H]], 11, 72]
// CHECK-DAG: memref.dealloc %[[PACK]]
// CHECK-DAG: memref.dealloc %[[TAIL]]
func.func @remainder_packed_param(%a: memref<5x12x4xf32>, %b: memref<4x80xf32> {plaidml.param}, %c: memref<5x12x80xf32>)
    attributes {plaidml.entry} {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 12, 80) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x12x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x80xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x12x80xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 3, vectors = 3,
                             panels_per_block = 1, pack = true, unroll_inner = false>}
  return
}

// Not a parameter: the remainder panel (columns 24..39, 2 vectors) is
// copied on every call, before its loop over h, and freed after it; its
// blocks keep 3 rows (3 x 3 accumulators would be 4.5 rows of 2 vectors,
// more than the 3 rows there are).
// CHECK-LABEL: func.func @remainder_packed_per_call
// CHECK-SAME: (%[[A:.*]]: memref<5x3x4xf32>, %[[B:.*]]: memref<4x40xf32>, %[[C:.*]]: memref<5x3x40xf32>)
// CHECK: memref.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: %[[TAIL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
// CHECK: affine.vector_load %[[B]][%{{.*}}, %{{.*}} * 16 + %{{.*}} + 24]
// CHECK: affine.parallel (%[[H:.*]]) = (0) to (5) {
// CHECK: affine.for %[[K:.*]] = 0 to 4 iter_args
// CHECK-COUNT-3: affine.load %[[A]]
// CHECK-NEXT: affine.vector_load %[[TAIL]][0, %[[K]], 0]
// CHECK-NEXT: affine.vector_load %[[TAIL]][0, %[[K]], 8]
// CHECK: affine.vector_store %{{.*}}, %[[C]][%[[H]], %{{.*}} * 3 + 2, 32]
// CHECK: memref.dealloc %[[TAIL]]
func.func @remainder_packed_per_call(%a: memref<5x3x4xf32>, %b: memref<4x40xf32>, %c: memref<5x3x40xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 40) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x40xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x40xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 2, vectors = 3,
                             panels_per_block = 1, pack = true, unroll_inner = false>}
  return
}

// -----

// A reduction in chunks of 4 of the innermost loop (ci, 8 iterations):
// the packed filter is chunk-major (panel, chunk, kh, ci in chunk, lane),
// the partial sums live in a scratch buffer shaped like the parallel
// indices, and each block's panel gets three parts: the initial values
// stored, the chunks (each over every h and row block), then the bias and
// relu of the sums and the store. The blocks alone are parallel.
// CHECK-LABEL: func.func @chunked
// CHECK-SAME: (%[[A:.*]]: memref<3x6x8xf32>, %[[B:.*]]: memref<2x8x32xf32> {plaidml.param}, %[[BIAS:.*]]: memref<32xf32>, %[[C:.*]]: memref<2x5x32xf32>)
// CHECK: %[[PACK:.*]] = memref.alloc() {alignment = 64 : i64, plaidml.cpu.prepared} : memref<2x2x2x4x16xf32>
// CHECK: affine.for %[[CP:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CKH:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CCI:.*]] = 0 to 8 {
// CHECK-NEXT: affine.for %[[CL:.*]] = 0 to 16 step 8 {
// CHECK-NEXT: %[[CV:.*]] = affine.vector_load %[[B]][%[[CKH]], %[[CCI]], %[[CP]] * 16 + %[[CL]]]
// CHECK-NEXT: affine.vector_store %[[CV]], %[[PACK]][%[[CP]], %[[CCI]] floordiv 4, %[[CKH]], %[[CCI]] mod 4, %[[CL]]]
// CHECK: %[[SCRATCH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x5x32xf32>
// CHECK-NEXT: affine.parallel (%[[BLK:.*]]) = (0) to (2) {
// CHECK-NEXT: affine.for %[[P:.*]] = 0 to min #{{.*}}(%[[BLK]]) {
// The initial values:
// CHECK-NEXT: affine.parallel (%[[H0:.*]]) = (0) to (2) {
// CHECK-NEXT: affine.for %[[RB0:.*]] = 0 to 1 {
// CHECK-NEXT: %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK-NEXT: affine.vector_store %[[INIT]], %[[SCRATCH]][%[[H0]], %[[RB0]] * 3, %[[BLK]] * 16 + %[[P]] * 16]
// The chunks:
// CHECK: affine.for %[[CH:.*]] = 0 to 2 {
// CHECK-NEXT: affine.parallel (%[[H:.*]]) = (0) to (2) {
// CHECK-NEXT: affine.for %[[RB:.*]] = 0 to 1 {
// CHECK-NEXT: %[[S0:.*]] = affine.vector_load %[[SCRATCH]][%[[H]], %[[RB]] * 3, %[[BLK]] * 16 + %[[P]] * 16] : memref<2x5x32xf32>, vector<8xf32>
// CHECK: %[[R:.*]]:6 = affine.for %[[KH:.*]] = 0 to 2 iter_args(%{{.*}} = %[[S0]],
// CHECK-NEXT: affine.for %[[T:.*]] = 0 to 4 iter_args(
// CHECK-NEXT: affine.load %[[A]][%[[H]] + %[[KH]], %[[RB]] * 3, %[[CH]] * 4 + %[[T]]]
// CHECK: affine.vector_load %[[PACK]][%[[BLK]] + %[[P]], %[[CH]], %[[KH]], %[[T]], 0] : memref<2x2x2x4x16xf32>, vector<8xf32>
// CHECK: vector.fma
// CHECK: affine.vector_store %[[R]]#0, %[[SCRATCH]][%[[H]], %[[RB]] * 3, %[[BLK]] * 16 + %[[P]] * 16]
// The remainder rows 3 and 4 of the chunk:
// CHECK: affine.vector_store %{{.*}}, %[[SCRATCH]][%[[H]], 4, %[[BLK]] * 16 + %[[P]] * 16 + 8]
// The epilogue:
// CHECK: affine.parallel (%[[H2:.*]]) = (0) to (2) {
// CHECK-NEXT: affine.for %[[RB2:.*]] = 0 to 1 {
// CHECK-NEXT: %[[F0:.*]] = affine.vector_load %[[SCRATCH]][%[[H2]], %[[RB2]] * 3, %[[BLK]] * 16 + %[[P]] * 16]
// CHECK: %[[BV:.*]] = affine.vector_load %[[BIAS]][%[[BLK]] * 16 + %[[P]] * 16]
// CHECK: arith.addf %[[F0]], %[[BV]] : vector<8xf32>
// CHECK: arith.select
// CHECK: affine.vector_store %{{.*}}, %[[C]][%[[H2]], %[[RB2]] * 3, %[[BLK]] * 16 + %[[P]] * 16]
// CHECK: memref.dealloc %[[SCRATCH]]
// CHECK-NOT: plaidml.cpu.schedule
func.func @chunked(%a: memref<3x6x8xf32>, %b: memref<2x8x32xf32> {plaidml.param}, %bias: memref<32xf32>, %c: memref<2x5x32xf32>)
    attributes {plaidml.entry} {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (2, 5, 32) {
    %r = affine.for %kh = 0 to 2 iter_args(%acc0 = %zero) -> (f32) {
      %r1 = affine.for %ci = 0 to 8 iter_args(%acc = %acc0) -> (f32) {
        %x = affine.load %a[%h + %kh, %w, %ci] : memref<3x6x8xf32>
        %y = affine.load %b[%kh, %ci, %n] : memref<2x8x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.yield %r1 : f32
    }
    %bv = affine.load %bias[%n] : memref<32xf32>
    %t = arith.addf %r, %bv : f32
    %neg = arith.cmpf olt, %t, %zero : f32
    %relu = arith.select %neg, %zero, %t : f32
    affine.store %relu, %c[%h, %w, %n] : memref<2x5x32xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 3, vectors = 2,
                             panels_per_block = 1, pack = true, unroll_inner = false,
                             reduction_chunk = 4>}
  return
}

// -----

func.func @chunk_not_dividing(%a: memref<5x8xf32>, %b: memref<8x16xf32>, %c: memref<5x16xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{a reduction chunk of 3 iterations does not divide the innermost reduction loop's 8}}
  affine.parallel (%m, %n) = (0, 0) to (5, 16) {
    %r = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<5x8xf32>
      %y = affine.load %b[%k, %n] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<5x16xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 1, vectors = 1,
                             panels_per_block = 1, pack = true, unroll_inner = false,
                             reduction_chunk = 3>}
  return
}

// -----

// Chunks (of 2 of the 4 k) with blocks of two whole rows of h: the partial
// sums of row i of a block are at scratch[h + i / 3, i % 3], like its
// output; the last h (4) is a block of its own.
// CHECK-LABEL: func.func @chunked_outer_rows
// CHECK: %[[SCRATCH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5x3x16xf32>
// The initial values, the last block's last:
// CHECK: affine.vector_store %{{.*}}, %[[SCRATCH]][4, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK-NEXT: affine.for %[[CH:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[B:.*]] = 0 to 2 {
// CHECK: affine.vector_load %[[SCRATCH]][%[[B]] * 2 + 1, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK: affine.for %[[T:.*]] = 0 to 2 iter_args(
// CHECK-NEXT: affine.load %{{.*}}[%[[B]] * 2, 0, %[[CH]] * 2 + %[[T]]] : memref<5x3x4xf32>
// CHECK: affine.load %{{.*}}[%[[B]] * 2 + 1, 2, %[[CH]] * 2 + %[[T]]] : memref<5x3x4xf32>
// CHECK: affine.vector_store %{{.*}}, %[[SCRATCH]][%[[B]] * 2 + 1, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK: affine.vector_store %{{.*}}, %[[SCRATCH]][4, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK: affine.vector_store %{{.*}}, %{{.*}}[4, 2, %{{.*}}] : memref<5x3x16xf32>, vector<16xf32>
// CHECK: memref.dealloc %[[SCRATCH]]
func.func @chunked_outer_rows(%a: memref<5x3x4xf32>, %b: memref<4x16xf32>, %c: memref<5x3x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%h, %w, %n) = (0, 0, 0) to (5, 3, 16) {
    %r = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%h, %w, %k] : memref<5x3x4xf32>
      %y = affine.load %b[%k, %n] : memref<4x16xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%h, %w, %n] : memref<5x3x16xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 6, vectors = 1,
                             panels_per_block = 1, pack = false, unroll_inner = false,
                             reduction_chunk = 2>}
  return
}
