// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-outline-nests | FileCheck %s

// Two nests of an entry function become two functions, in program order,
// after the entry. Each takes the values it uses from outside in the order
// of their first use (the workspace view %t, not the workspace); the
// constant is copied, not passed; the ops between the nests stay.

// CHECK-LABEL: func.func @two
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[O:.*]]: memref<8xf32>, %[[WS:.*]]: memref<64xi8>)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<64xi8> to memref<8xf32>
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT: call @two_nest0(%[[A]], %[[T]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: memref.copy %[[T]], %[[O]]
// CHECK-NEXT: call @two_nest1(%[[T]], %[[O]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: return

// CHECK: func.func private @two_nest0(%[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.0
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[V]], %[[C]]
// CHECK-NEXT: affine.store %[[M]], %[[Y]][%[[I]]]
// CHECK: return

// CHECK: func.func private @two_nest1(%[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK-NEXT: affine.parallel (%[[I:.*]]) = (0) to (8) {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: affine.store %[[V]], %[[Y]][%[[I]]]
// CHECK: return

// A function that is not an entry keeps its loops.
// CHECK-LABEL: func.func @helper
// CHECK-NEXT: arith.constant
// CHECK-NEXT: affine.for
func.func @two(%a: memref<8xf32>, %o: memref<8xf32>, %ws: memref<64xi8>)
    attributes {plaidml.entry} {
  %c0 = arith.constant 0 : index
  %t = memref.view %ws[%c0][] : memref<64xi8> to memref<8xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf32>
    %m = arith.mulf %v, %two : f32
    affine.store %m, %t[%i] : memref<8xf32>
  }
  memref.copy %t, %o : memref<8xf32> to memref<8xf32>
  affine.parallel (%i) = (0) to (8) {
    %v = affine.load %t[%i] : memref<8xf32>
    affine.store %v, %o[%i] : memref<8xf32>
  }
  return
}

func.func @helper(%a: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %z, %a[%i] : memref<8xf32>
  }
  return
}

// -----

// A nest that uses a memref the bare-pointer convention cannot pass (a
// dynamic offset) stays, and so does a loop with results; the next nest
// is numbered from 0 still, and a name already taken gets a suffix.

// CHECK-LABEL: func.func @kept
// CHECK: memref.subview
// CHECK-NEXT: affine.for
// CHECK: affine.for {{.*}} iter_args
// CHECK: call @[[NAME:kept_nest0_[0-9]+]](%{{.*}}) : (memref<16xf32>) -> ()
// CHECK: func.func private @[[NAME]](%{{.*}}: memref<16xf32>)
// CHECK-NEXT: arith.constant 0.0
// CHECK: func.func private @kept_nest0()
func.func @kept(%a: memref<16xf32>, %n: index, %o: memref<1xf32>)
    attributes {plaidml.entry} {
  %s = memref.subview %a[%n] [8] [1]
      : memref<16xf32> to memref<8xf32, strided<[1], offset: ?>>
  affine.for %i = 0 to 8 {
    %v = affine.load %s[%i] : memref<8xf32, strided<[1], offset: ?>>
    affine.store %v, %a[%i] : memref<16xf32>
  }
  %z = arith.constant 0.0 : f32
  %sum = affine.for %i = 0 to 16 iter_args(%acc = %z) -> f32 {
    %v = affine.load %a[%i] : memref<16xf32>
    %n2 = arith.addf %acc, %v : f32
    affine.yield %n2 : f32
  }
  affine.store %sum, %o[0] : memref<1xf32>
  affine.for %i = 0 to 16 {
    affine.store %z, %a[%i] : memref<16xf32>
  }
  return
}

func.func private @kept_nest0() {
  return
}
