// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-cpu-plan-workspace | FileCheck %s

// Three temporaries: %t0 dies when %t1 is made from it, so %t2 takes its
// bytes; %t1 is alive with both. Offsets are 64-byte aligned (the 100-byte
// %t0 rounds up to 128). The deallocations go; the workspace is the last
// argument and its size an attribute.

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[A:.*]]: memref<25xf32>, %[[O:.*]]: memref<25xf32>, %[[WS:.*]]: memref<256xi8>)
// CHECK-SAME: plaidml.workspace = 256 : i64
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T0:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<256xi8> to memref<25xf32>
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[T1:.*]] = memref.view %[[WS]][%[[C128]]][] : memref<256xi8> to memref<25xf32>
// CHECK: %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T2:.*]] = memref.view %[[WS]][%[[C0B]]][] : memref<256xi8> to memref<5x5xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @chain(%a: memref<25xf32>, %o: memref<25xf32>) attributes {plaidml.entry} {
  %t0 = memref.alloc() : memref<25xf32>
  memref.copy %a, %t0 : memref<25xf32> to memref<25xf32>
  %t1 = memref.alloc() : memref<25xf32>
  memref.copy %t0, %t1 : memref<25xf32> to memref<25xf32>
  %t2 = memref.alloc() : memref<5x5xf32>
  %v = memref.expand_shape %t1 [[0, 1]] output_shape [5, 5] : memref<25xf32> into memref<5x5xf32>
  memref.copy %v, %t2 : memref<5x5xf32> to memref<5x5xf32>
  %w = memref.collapse_shape %t2 [[0, 1]] : memref<5x5xf32> into memref<25xf32>
  memref.copy %w, %o : memref<25xf32> to memref<25xf32>
  memref.dealloc %t0 : memref<25xf32>
  memref.dealloc %t1 : memref<25xf32>
  memref.dealloc %t2 : memref<5x5xf32>
  return
}

// -----

// A use through a view keeps the temporary alive: %t0 is read (through
// %v) after %t1 is made, so they do not share bytes.

// CHECK-LABEL: func.func @view_keeps_alive
// CHECK-SAME: memref<128xi8>
// CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<128xi8> to memref<4xf32>
// CHECK: arith.constant 64 : index
func.func @view_keeps_alive(%a: memref<4xf32>, %o: memref<4xf32>) attributes {plaidml.entry} {
  %t0 = memref.alloc() : memref<4xf32>
  memref.copy %a, %t0 : memref<4xf32> to memref<4xf32>
  %v = memref.subview %t0[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>>
  %t1 = memref.alloc() : memref<4xf32>
  memref.copy %a, %t1 : memref<4xf32> to memref<4xf32>
  memref.copy %v, %o : memref<4xf32, strided<[1]>> to memref<4xf32>
  memref.copy %t1, %o : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Left alone: no temporaries; a function that is not an entry; an
// allocation nested in a loop (a packing buffer per iteration).

// CHECK-LABEL: func.func @no_temporaries
// CHECK-SAME: (%{{.*}}: memref<4xf32>)
// CHECK-NOT: plaidml.workspace
func.func @no_temporaries(%o: memref<4xf32>) attributes {plaidml.entry} {
  return
}

// CHECK-LABEL: func.func @not_entry
// CHECK: memref.alloc
func.func @not_entry() {
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return
}

// CHECK-LABEL: func.func @nested
// CHECK-NOT: plaidml.workspace
// CHECK: affine.for
// CHECK-NEXT: memref.alloc
func.func @nested(%o: memref<4xf32>) attributes {plaidml.entry} {
  affine.for %i = 0 to 4 {
    %t = memref.alloc() : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  return
}

// -----

// expected-error @+1 {{entry function @twice already has a workspace}}
func.func @twice(%o: memref<4xf32>) attributes {plaidml.entry, plaidml.workspace = 64 : i64} {
  return
}

// -----

// Argument attributes (plaidml.param) stay with their arguments; the
// workspace argument has none.
// CHECK-LABEL: func.func @with_arg_attrs
// CHECK-SAME: (%{{.*}}: memref<4xf32> {plaidml.param}, %{{.*}}: memref<4xf32>, %{{.*}}: memref<64xi8>)
func.func @with_arg_attrs(%a: memref<4xf32> {plaidml.param}, %o: memref<4xf32>) attributes {plaidml.entry} {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %a, %t : memref<4xf32> to memref<4xf32>
  memref.copy %t, %o : memref<4xf32> to memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return
}
