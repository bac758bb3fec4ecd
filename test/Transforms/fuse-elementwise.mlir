// RUN: plaidml-opt %s -plaidml-fuse-elementwise -split-input-file | FileCheck %s

// A matmul with a bias add and a relu (what convert-tile-to-affine makes of
// them) becomes one nest: the init, the reduction loop, the epilogue, and one
// store into the output argument. Both temporaries are gone.

// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME: (%[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<32x16xf32>, %[[BIAS:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<64x16xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[ZERO:.*]] = memref.get_global
// CHECK-NEXT: affine.parallel (%[[M:.*]], %[[N:.*]]) = (0, 0) to (64, 16) {
// CHECK-NEXT: %[[INIT:.*]] = affine.load %[[ZERO]][] : memref<f32>
// CHECK-NEXT: %[[SUM:.*]] = affine.for %[[K:.*]] = 0 to 32 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK: affine.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[BV:.*]] = affine.load %[[BIAS]][%[[N]]] : memref<16xf32>
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[SUM]], %[[BV]] : f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpf olt, %[[ADD]], %[[C0]] : f32
// CHECK-NEXT: %[[RELU:.*]] = arith.select %[[NEG]], %[[C0]], %[[ADD]] : f32
// CHECK-NEXT: affine.store %[[RELU]], %[[OUT]][%[[M]], %[[N]]] : memref<64x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
memref.global "private" constant @zero : memref<f32> = dense<0.000000e+00>
func.func @matmul_bias_relu(%A: memref<64x32xf32>, %B: memref<32x16xf32>, %bias: memref<16xf32>, %out: memref<64x16xf32>) attributes {plaidml.entry} {
  %zero = memref.get_global @zero : memref<f32>
  %T = memref.alloc() : memref<64x16xf32>
  affine.parallel (%m, %n) = (0, 0) to (64, 16) {
    %init = affine.load %zero[] : memref<f32>
    %sum = affine.for %k = 0 to 32 iter_args(%acc = %init) -> (f32) {
      %a = affine.load %A[%m, %k] : memref<64x32xf32>
      %b = affine.load %B[%k, %n] : memref<32x16xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %T[%m, %n] : memref<64x16xf32>
  }
  %T2 = memref.alloc() : memref<64x16xf32>
  affine.parallel (%i, %j) = (0, 0) to (64, 16) {
    %t = affine.load %T[%i, %j] : memref<64x16xf32>
    %b = affine.load %bias[%j] : memref<16xf32>
    %s = arith.addf %t, %b : f32
    affine.store %s, %T2[%i, %j] : memref<64x16xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (64, 16) {
    %t = affine.load %T2[%i, %j] : memref<64x16xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %neg = arith.cmpf olt, %t, %cst : f32
    %r = arith.select %neg, %cst, %t : f32
    affine.store %r, %out[%i, %j] : memref<64x16xf32>
  }
  memref.dealloc %T : memref<64x16xf32>
  memref.dealloc %T2 : memref<64x16xf32>
  return
}

// -----

// An elementwise chain of three ops becomes one nest without temporaries.

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: memref<1024xf32>, %[[Y:.*]]: memref<1024xf32>, %[[OUT:.*]]: memref<1024xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (1024) {
// CHECK-NEXT: %[[XV:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[YV:.*]] = affine.load %[[Y]][%[[I]]]
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[XV]], %[[YV]] : f32
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: arith.cmpf olt, %[[ADD]]
// CHECK-NEXT: %[[RELU:.*]] = arith.select
// CHECK-NEXT: %[[S:.*]] = affine.load %{{.*}}[] : memref<f32>
// CHECK-NEXT: %[[MUL:.*]] = arith.mulf %[[RELU]], %[[S]] : f32
// CHECK-NEXT: affine.store %[[MUL]], %[[OUT]][%[[I]]] : memref<1024xf32>
// CHECK-NEXT: }
// CHECK-NOT: affine.parallel
// CHECK-NOT: memref.dealloc
// CHECK: return
memref.global "private" constant @half : memref<f32> = dense<5.000000e-01>
func.func @chain(%x: memref<1024xf32>, %y: memref<1024xf32>, %out: memref<1024xf32>) attributes {plaidml.entry} {
  %half = memref.get_global @half : memref<f32>
  %T = memref.alloc() : memref<1024xf32>
  affine.parallel (%i) = (0) to (1024) {
    %a = affine.load %x[%i] : memref<1024xf32>
    %b = affine.load %y[%i] : memref<1024xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %T[%i] : memref<1024xf32>
  }
  %T2 = memref.alloc() : memref<1024xf32>
  affine.parallel (%i) = (0) to (1024) {
    %t = affine.load %T[%i] : memref<1024xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %neg = arith.cmpf olt, %t, %cst : f32
    %r = arith.select %neg, %cst, %t : f32
    affine.store %r, %T2[%i] : memref<1024xf32>
  }
  affine.parallel (%i) = (0) to (1024) {
    %t = affine.load %T2[%i] : memref<1024xf32>
    %h = affine.load %half[] : memref<f32>
    %m = arith.mulf %t, %h : f32
    affine.store %m, %out[%i] : memref<1024xf32>
  }
  memref.dealloc %T : memref<1024xf32>
  memref.dealloc %T2 : memref<1024xf32>
  return
}

// -----

// A transposing producer (it stores T[%j, %i]) feeds a consumer that reads
// T[%a, %b]: consumer %a is producer %j, %b is %i, and the bounds agree
// under that correspondence.

// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<8x4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 8) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[V]] : f32
// CHECK-NEXT: affine.store %[[N]], %[[OUT]][%[[J]], %[[I]]] : memref<8x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @transposed(%x: memref<4x8xf32>, %out: memref<8x4xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<8x4xf32>
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %v = affine.load %x[%i, %j] : memref<4x8xf32>
    affine.store %v, %T[%j, %i] : memref<8x4xf32>
  }
  affine.parallel (%a, %b) = (0, 0) to (8, 4) {
    %t = affine.load %T[%a, %b] : memref<8x4xf32>
    %n = arith.negf %t : f32
    affine.store %n, %out[%a, %b] : memref<8x4xf32>
  }
  memref.dealloc %T : memref<8x4xf32>
  return
}

// -----

// Negative: the nests have different bounds.

// CHECK-LABEL: func.func @different_bounds
// CHECK: memref.alloc
// CHECK: affine.parallel (%{{.*}}) = (0) to (8)
// CHECK: affine.store
// CHECK: affine.parallel (%{{.*}}) = (0) to (4)
// CHECK: affine.load
// CHECK: memref.dealloc
func.func @different_bounds(%x: memref<8xf32>, %out: memref<4xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<8xf32>
  affine.parallel (%i) = (0) to (8) {
    %v = affine.load %x[%i] : memref<8xf32>
    affine.store %v, %T[%i] : memref<8xf32>
  }
  affine.parallel (%i) = (0) to (4) {
    %t = affine.load %T[%i] : memref<8xf32>
    affine.store %t, %out[%i] : memref<4xf32>
  }
  memref.dealloc %T : memref<8xf32>
  return
}

// -----

// Negative: the consumer reads T with a broadcast (T[%j] in a 2-D nest), so
// one element feeds several consumer iterations.

// CHECK-LABEL: func.func @broadcast_read
// CHECK: memref.alloc
// CHECK: affine.parallel (%{{.*}}) = (0) to (16)
// CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 16)
// CHECK: memref.dealloc
func.func @broadcast_read(%x: memref<16xf32>, %y: memref<4x16xf32>, %out: memref<4x16xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%j) = (0) to (16) {
    %v = affine.load %x[%j] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %T[%j] : memref<16xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (4, 16) {
    %t = affine.load %T[%j] : memref<16xf32>
    %u = affine.load %y[%i, %j] : memref<4x16xf32>
    %s = arith.addf %t, %u : f32
    affine.store %s, %out[%i, %j] : memref<4x16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// T is read again after the consumer: the consumer is fused, but the store
// (and so the buffer) stays for the later reader, which reads T at other
// coordinates and is not fused.

// CHECK-LABEL: func.func @read_later
// CHECK-SAME: (%[[X:.*]]: memref<16xf32>, %[[O1:.*]]: memref<16xf32>, %[[O2:.*]]: memref<16xf32>)
// CHECK: %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: affine.parallel (%[[I:.*]]) = (0) to (16) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT: affine.store %[[E]], %[[T]][%[[I]]]
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[E]]
// CHECK-NEXT: affine.store %[[N]], %[[O1]][%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.parallel (%[[K:.*]]) = (0) to (16) {
// CHECK-NEXT: affine.load %[[T]][-%[[K]] + 15]
// CHECK: memref.dealloc %[[T]]
func.func @read_later(%x: memref<16xf32>, %o1: memref<16xf32>, %o2: memref<16xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %T[%i] : memref<16xf32>
  }
  affine.parallel (%i) = (0) to (16) {
    %t = affine.load %T[%i] : memref<16xf32>
    %n = arith.negf %t : f32
    affine.store %n, %o1[%i] : memref<16xf32>
  }
  affine.parallel (%k) = (0) to (16) {
    %t = affine.load %T[15 - %k] : memref<16xf32>
    affine.store %t, %o2[%k] : memref<16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// Negative: the producer reads the buffer the consumer writes. Fused, a
// consumer iteration could overwrite %acc[i'] before the producer reads it.

// CHECK-LABEL: func.func @producer_reads_consumer_output
// CHECK: memref.alloc
// CHECK: affine.parallel
// CHECK: affine.load %{{.*}}[-%{{.*}} + 15]
// CHECK: affine.parallel
// CHECK: memref.dealloc
func.func @producer_reads_consumer_output(%x: memref<16xf32>, %acc: memref<16xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    %w = affine.load %acc[15 - %i] : memref<16xf32>
    %s = arith.addf %v, %w : f32
    affine.store %s, %T[%i] : memref<16xf32>
  }
  affine.parallel (%i) = (0) to (16) {
    %t = affine.load %T[%i] : memref<16xf32>
    affine.store %t, %acc[%i] : memref<16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// Negative: another op writes T between the producer and the consumer, so
// the consumer does not read what the producer stored.

// CHECK-LABEL: func.func @written_between
// CHECK: memref.alloc
// CHECK: affine.parallel
// CHECK: affine.store
// CHECK: affine.store %{{.*}}, %{{.*}}[3]
// CHECK: affine.parallel
// CHECK: affine.load
// CHECK: memref.dealloc
func.func @written_between(%x: memref<16xf32>, %out: memref<16xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    affine.store %v, %T[%i] : memref<16xf32>
  }
  %c = arith.constant 1.0 : f32
  affine.store %c, %T[3] : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %t = affine.load %T[%i] : memref<16xf32>
    affine.store %t, %out[%i] : memref<16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// Negative: the consumer writes T too.

// CHECK-LABEL: func.func @consumer_writes_t
// CHECK: memref.alloc
// CHECK: affine.parallel
// CHECK: affine.parallel
// CHECK: memref.dealloc
func.func @consumer_writes_t(%x: memref<16xf32>, %out: memref<16xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    affine.store %v, %T[%i] : memref<16xf32>
  }
  affine.parallel (%i) = (0) to (16) {
    %t = affine.load %T[%i] : memref<16xf32>
    %n = arith.negf %t : f32
    affine.store %n, %T[%i] : memref<16xf32>
    affine.store %t, %out[%i] : memref<16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// Negative, outside an entry function: two distinct arguments may alias, so
// the consumer may write what the producer reads.

// CHECK-LABEL: func.func @not_an_entry
// CHECK: memref.alloc
// CHECK: affine.parallel
// CHECK: affine.parallel
// CHECK: memref.dealloc
func.func @not_an_entry(%x: memref<16xf32>, %out: memref<16xf32>) {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    affine.store %v, %T[%i] : memref<16xf32>
  }
  affine.parallel (%i) = (0) to (16) {
    %t = affine.load %T[%i] : memref<16xf32>
    affine.store %t, %out[%i] : memref<16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// Negative: an op with unknown effects sits between the nests.

// CHECK-LABEL: func.func @unknown_effects_between
// CHECK: affine.parallel
// CHECK: call @opaque
// CHECK: affine.parallel
func.func private @opaque()
func.func @unknown_effects_between(%x: memref<16xf32>, %out: memref<16xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    affine.store %v, %T[%i] : memref<16xf32>
  }
  func.call @opaque() : () -> ()
  affine.parallel (%i) = (0) to (16) {
    %t = affine.load %T[%i] : memref<16xf32>
    affine.store %t, %out[%i] : memref<16xf32>
  }
  memref.dealloc %T : memref<16xf32>
  return
}

// -----

// One producer value read twice by one consumer, and a second buffer of the
// fused nest (kept for a later reader) read by the next consumer together
// with the first: x -> e = exp(x) (kept), r = e * e, out = e + r.

// CHECK-LABEL: func.func @two_handed_over
// CHECK-SAME: (%[[X:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (16) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[E]], %[[E]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[E]], %[[R]]
// CHECK-NEXT: affine.store %[[S]], %[[OUT]][%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @two_handed_over(%x: memref<16xf32>, %out: memref<16xf32>) attributes {plaidml.entry} {
  %E = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %v = affine.load %x[%i] : memref<16xf32>
    %e = math.exp %v : f32
    affine.store %e, %E[%i] : memref<16xf32>
  }
  %R = memref.alloc() : memref<16xf32>
  affine.parallel (%i) = (0) to (16) {
    %a = affine.load %E[%i] : memref<16xf32>
    %b = affine.load %E[%i] : memref<16xf32>
    %r = arith.mulf %a, %b : f32
    affine.store %r, %R[%i] : memref<16xf32>
  }
  affine.parallel (%i) = (0) to (16) {
    %e = affine.load %E[%i] : memref<16xf32>
    %r = affine.load %R[%i] : memref<16xf32>
    %s = arith.addf %e, %r : f32
    affine.store %s, %out[%i] : memref<16xf32>
  }
  memref.dealloc %E : memref<16xf32>
  memref.dealloc %R : memref<16xf32>
  return
}

// -----

// An assign contraction fills T with its init first, then writes it: the
// consumer fuses into the second nest, and with no reader left, T, both
// stores and the fill nest go.

// CHECK-LABEL: func.func @filled_first
// CHECK-SAME: (%[[X:.*]]: memref<8x4xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 8) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[J]], %[[I]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT: affine.store %[[E]], %[[OUT]][%[[I]], %[[J]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
memref.global "private" constant @init : memref<f32> = dense<0.000000e+00>
func.func @filled_first(%x: memref<8x4xf32>, %out: memref<4x8xf32>) attributes {plaidml.entry} {
  %init = memref.get_global @init : memref<f32>
  %T = memref.alloc() : memref<4x8xf32>
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %z = affine.load %init[] : memref<f32>
    affine.store %z, %T[%i, %j] : memref<4x8xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %v = affine.load %x[%j, %i] : memref<8x4xf32>
    affine.store %v, %T[%i, %j] : memref<4x8xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %t = affine.load %T[%i, %j] : memref<4x8xf32>
    %e = math.exp %t : f32
    affine.store %e, %out[%i, %j] : memref<4x8xf32>
  }
  memref.dealloc %T : memref<4x8xf32>
  return
}

// -----

// A batch of one: the consumer reads the unit dimension at 0, which is the
// one value the producer's %n takes; the consumer's %b pairs with it.

// CHECK-LABEL: func.func @unit_dim
// CHECK-SAME: (%[[X:.*]]: memref<1x4xf32>, %[[OUT:.*]]: memref<1x4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.parallel (%[[N:.*]], %[[C:.*]]) = (0, 0) to (1, 4) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[N]], %[[C]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT: %[[R:.*]] = arith.negf %[[E]]
// CHECK-NEXT: affine.store %[[R]], %[[OUT]][%[[N]], %[[C]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @unit_dim(%x: memref<1x4xf32>, %out: memref<1x4xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<1x4xf32>
  affine.parallel (%n, %c) = (0, 0) to (1, 4) {
    %v = affine.load %x[%n, %c] : memref<1x4xf32>
    %e = math.exp %v : f32
    affine.store %e, %T[%n, %c] : memref<1x4xf32>
  }
  affine.parallel (%b, %c) = (0, 0) to (1, 4) {
    %t = affine.load %T[0, %c] : memref<1x4xf32>
    %r = arith.negf %t : f32
    affine.store %r, %out[%b, %c] : memref<1x4xf32>
  }
  memref.dealloc %T : memref<1x4xf32>
  return
}

// -----

// Negative: a constant index where the producer's variable takes several
// values reads one row for every consumer iteration.

// CHECK-LABEL: func.func @constant_row
// CHECK: memref.alloc
// CHECK: affine.parallel
// CHECK: affine.parallel
// CHECK: affine.load %{{.*}}[0, %{{.*}}]
func.func @constant_row(%x: memref<2x4xf32>, %out: memref<2x4xf32>) attributes {plaidml.entry} {
  %T = memref.alloc() : memref<2x4xf32>
  affine.parallel (%n, %c) = (0, 0) to (2, 4) {
    %v = affine.load %x[%n, %c] : memref<2x4xf32>
    affine.store %v, %T[%n, %c] : memref<2x4xf32>
  }
  affine.parallel (%b, %c) = (0, 0) to (2, 4) {
    %t = affine.load %T[0, %c] : memref<2x4xf32>
    affine.store %t, %out[%b, %c] : memref<2x4xf32>
  }
  memref.dealloc %T : memref<2x4xf32>
  return
}

// -----

// A residual add of two contractions: the add fuses into one contraction's
// nest, which then does not fuse with the other's (two reductions in one
// body would not be blocked on the CPU), so one result stays in memory.
// CHECK-LABEL: func.func @two_contractions
// CHECK:       %[[A:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:       affine.parallel
// CHECK:         affine.for
// CHECK:         affine.store %{{.*}}, %[[A]]
// CHECK:       affine.parallel
// CHECK:         %[[S:.*]] = affine.for
// CHECK:         %[[R:.*]] = affine.load %[[A]]
// CHECK:         arith.addf %[[S]], %[[R]]
// CHECK-NOT:   affine.parallel
func.func @two_contractions(%x: memref<4x16xf32>, %w: memref<16x8xf32>, %v: memref<16x8xf32>, %out: memref<4x8xf32>) attributes {plaidml.entry} {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<4x8xf32>
  %zero = arith.constant 0.0 : f32
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %s = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %p = affine.load %x[%i, %k] : memref<4x16xf32>
      %q = affine.load %w[%k, %j] : memref<16x8xf32>
      %m = arith.mulf %p, %q : f32
      %n = arith.addf %acc, %m : f32
      affine.yield %n : f32
    }
    affine.store %s, %a[%i, %j] : memref<4x8xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %s = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %p = affine.load %x[%i, %k] : memref<4x16xf32>
      %q = affine.load %v[%k, %j] : memref<16x8xf32>
      %m = arith.mulf %p, %q : f32
      %n = arith.addf %acc, %m : f32
      affine.yield %n : f32
    }
    affine.store %s, %b[%i, %j] : memref<4x8xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (4, 8) {
    %r = affine.load %a[%i, %j] : memref<4x8xf32>
    %t = affine.load %b[%i, %j] : memref<4x8xf32>
    %u = arith.addf %r, %t : f32
    affine.store %u, %out[%i, %j] : memref<4x8xf32>
  }
  memref.dealloc %a : memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32>
  return
}
