// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-tile-contractions \
// RUN:   | FileCheck %s --check-prefix=PACK
// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-tile-contractions \
// RUN:   -plaidml-cpu-split-prepare | FileCheck %s --check-prefix=SPLIT
// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-tile-contractions \
// RUN:   -plaidml-cpu-split-prepare -plaidml-cpu-plan-workspace \
// RUN:   | FileCheck %s --check-prefix=WS

// The matmul of cpu-tile-contractions.mlir with a 3x40 right-hand side that
// is a parameter (plaidml.param): two cache blocks of one 16-column panel.
// Packed per block on every call before, it is now packed whole (both
// panels: 2x3x16) at the top of the function, by a copy nest marked
// plaidml.cpu.prepare into a buffer marked plaidml.cpu.prepared, freed
// before the return; block %blk reads panel %blk + %q of it. The left-hand
// side, not a parameter, is not packed.

// PACK-LABEL: func.func @matmul
// PACK-SAME: (%[[A:.*]]: memref<5x3xf32>, %[[B:.*]]: memref<3x40xf32> {plaidml.param}, %[[C:.*]]: memref<5x40xf32>)
// PACK-NEXT: %[[PBUF:.*]] = memref.alloc() {alignment = 64 : i64, plaidml.cpu.prepared} : memref<2x3x16xf32>
// PACK-NEXT: affine.for %[[P:.*]] = 0 to 2 {
// PACK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// PACK-NEXT: affine.for %[[L:.*]] = 0 to 16 step 16 {
// PACK-NEXT: %[[V:.*]] = affine.vector_load %[[B]][%[[K]], %[[P]] * 16 + %[[L]]] : memref<3x40xf32>, vector<16xf32>
// PACK-NEXT: affine.vector_store %[[V]], %[[PBUF]][%[[P]], %[[K]], %[[L]]]
// PACK: } {plaidml.cpu.prepare}
// PACK: affine.parallel (%[[BLK:.*]]) = (0) to (2) {
// PACK-NOT: memref.alloc
// PACK: affine.for %[[Q:.*]] = 0 to min
// PACK: affine.vector_load %[[PBUF]][%[[BLK]] + %[[Q]], %{{.*}}, 0] : memref<2x3x16xf32>, vector<16xf32>
// PACK: affine.vector_store
// PACK-NOT: memref.dealloc %[[PBUF]]
// PACK: affine.parallel (%{{.*}}, %{{.*}}) = (0, 32) to (5, 40) {
// PACK: memref.dealloc %[[PBUF]]
// PACK-NEXT: return

// The split: @matmul takes the prepared buffer (2x3x16 floats, 384 bytes)
// as a new last argument and reads a view of it; the copy is in
// @matmul_prepare, which takes the inputs and that buffer.

// SPLIT-LABEL: func.func private @matmul_prepare
// SPLIT-SAME: (%[[A:.*]]: memref<5x3xf32>, %[[B:.*]]: memref<3x40xf32>, %[[BUF:.*]]: memref<384xi8>)
// SPLIT-NEXT: %[[C0:.*]] = arith.constant 0 : index
// SPLIT-NEXT: %[[PBUF:.*]] = memref.view %[[BUF]][%[[C0]]][] : memref<384xi8> to memref<2x3x16xf32>
// SPLIT-NEXT: affine.for %{{.*}} = 0 to 2 {
// SPLIT: affine.vector_load %[[B]]
// SPLIT: affine.vector_store %{{.*}}, %[[PBUF]]
// SPLIT-NOT: plaidml.cpu.prepare
// SPLIT: return
// SPLIT-LABEL: func.func @matmul
// SPLIT-SAME: (%{{.*}}: memref<5x3xf32>, %{{.*}}: memref<3x40xf32> {plaidml.param}, %{{.*}}: memref<5x40xf32>, %[[BUF2:.*]]: memref<384xi8>)
// SPLIT-SAME: plaidml.prepare = @matmul_prepare
// SPLIT-SAME: plaidml.prepare_inputs = array<i64: 1>
// SPLIT-SAME: plaidml.prepared = 384 : i64
// SPLIT-NEXT: %[[C0B:.*]] = arith.constant 0 : index
// SPLIT-NEXT: %[[VIEW:.*]] = memref.view %[[BUF2]][%[[C0B]]][] : memref<384xi8> to memref<2x3x16xf32>
// SPLIT-NEXT: arith.constant
// SPLIT-NEXT: affine.parallel
// SPLIT-NOT: plaidml.cpu.prepare
// SPLIT: affine.vector_load %[[VIEW]]
// SPLIT-NOT: memref.dealloc
// SPLIT: return

// The workspace (none here: no other temporaries) would follow; the
// prepared buffer is not a temporary.
// WS-LABEL: func.func @matmul
// WS-SAME: memref<384xi8>)
// WS-NOT: plaidml.workspace
func.func @matmul(%a: memref<5x3xf32>, %b: memref<3x40xf32> {plaidml.param}, %c: memref<5x40xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<5x3xf32>, tensor<3x40xf32>],
                plaidml.outputs = [tensor<5x40xf32>]} {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (5, 40) {
    %r = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<5x3xf32>
      %y = affine.load %b[%k, %n] : memref<3x40xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<5x40xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 2, vectors = 1,
                             panels_per_block = 1, pack = true, unroll_inner = false>}
  return
}

// -----

// Without plaidml.param the right-hand side is packed per block on every
// call, as before, and the split pass has nothing to move.

// PACK-LABEL: func.func @not_a_parameter
// PACK-NOT: plaidml.cpu.prepare
// PACK: affine.parallel (%{{.*}}) = (0) to (2) {
// PACK-NEXT: memref.alloc() {alignment = 64 : i64} : memref<1x3x16xf32>
// SPLIT-LABEL: func.func @not_a_parameter
// SPLIT-SAME: (%{{.*}}: memref<5x3xf32>, %{{.*}}: memref<3x40xf32>, %{{.*}}: memref<5x40xf32>)
// SPLIT-NOT: plaidml.prepare
// SPLIT: affine.parallel
func.func @not_a_parameter(%a: memref<5x3xf32>, %b: memref<3x40xf32>, %c: memref<5x40xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<5x3xf32>, tensor<3x40xf32>],
                plaidml.outputs = [tensor<5x40xf32>]} {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (5, 40) {
    %r = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<5x3xf32>
      %y = affine.load %b[%k, %n] : memref<3x40xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<5x40xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 2, vectors = 1,
                             panels_per_block = 1, pack = true, unroll_inner = false>}
  return
}

// -----

// Only an entry function gets a preparation: elsewhere a parameter is
// packed per block on every call.

// PACK-LABEL: func.func @not_an_entry
// PACK-NOT: plaidml.cpu.prepare
// PACK: affine.parallel (%{{.*}}) = (0) to (2) {
// PACK-NEXT: memref.alloc() {alignment = 64 : i64} : memref<1x3x16xf32>
// SPLIT-LABEL: func.func @not_an_entry
// SPLIT-NOT: plaidml.prepare
func.func @not_an_entry(%a: memref<5x3xf32>, %b: memref<3x40xf32> {plaidml.param}, %c: memref<5x40xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (5, 40) {
    %r = affine.for %k = 0 to 3 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<5x3xf32>
      %y = affine.load %b[%k, %n] : memref<3x40xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<5x40xf32>
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 2, vectors = 1,
                             panels_per_block = 1, pack = true, unroll_inner = false>}
  return
}
