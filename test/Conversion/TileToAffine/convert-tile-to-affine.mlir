// RUN: plaidml-opt %s -convert-tile-to-affine -split-input-file | FileCheck %s

// The calling convention of docs/ABI.md section 1: signless memref inputs,
// one trailing output buffer per result, no results, the original tensor
// types recorded as attributes. A returned op result is computed straight
// into its output buffer; intermediates are allocated and freed.

// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[A:.*]]: memref<2x3xi32>, %[[B:.*]]: memref<3xf32>, %[[OUT0:.*]]: memref<2x3xf32>, %[[OUT1:.*]]: memref<3xi1>)
// CHECK-SAME: attributes {plaidml.entry, plaidml.inputs = [tensor<2x3xsi32>, tensor<3xf32>], plaidml.outputs = [tensor<2x3xf32>, tensor<3xi1>]}
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK: affine.parallel
// CHECK: affine.store %{{.*}}, %[[TMP]]
// CHECK: affine.parallel
// CHECK: affine.load %[[TMP]]
// CHECK: affine.store %{{.*}}, %[[OUT0]]
// CHECK: affine.store %{{.*}}, %[[OUT1]][%{{.*}}] : memref<3xi1>
// CHECK-NOT: memref.copy
// CHECK: memref.dealloc %[[TMP]] : memref<2x3xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @f(%a: tensor<2x3xsi32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xi1>) {
  %t = tile.add %a, %b : tensor<2x3xsi32>, tensor<3xf32> -> tensor<2x3xf32>
  %r = tile.mul %t, %t : tensor<2x3xf32>
  %z = tile.constant dense<0.0> : tensor<f32>
  %c = tile.cmp gt, %b, %z : tensor<3xf32>, tensor<f32> -> tensor<3xi1>
  return %r, %c : tensor<2x3xf32>, tensor<3xi1>
}

// -----

// A returned argument is copied; a value returned twice is computed into its
// first output buffer and copied to the second; an output buffer may be read
// by later ops.

// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.*]]: memref<4xi8>, %[[OUT0:.*]]: memref<4xi8>, %[[OUT1:.*]]: memref<4xi8>, %[[OUT2:.*]]: memref<4xi8>, %[[OUT3:.*]]: memref<4xi8>)
// CHECK: affine.parallel
// CHECK: affine.store %{{.*}}, %[[OUT1]]
// CHECK: affine.parallel
// CHECK: affine.load %[[OUT1]]
// CHECK: affine.store %{{.*}}, %[[OUT3]]
// CHECK: memref.copy %[[A]], %[[OUT0]] : memref<4xi8> to memref<4xi8>
// CHECK-NEXT: memref.copy %[[OUT1]], %[[OUT2]] : memref<4xi8> to memref<4xi8>
// CHECK-NEXT: return
func.func @copies(%a: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>) {
  %n = tile.neg %a : tensor<4xui8>
  %m = tile.bit_not %n : tensor<4xui8>
  return %a, %n, %n, %m : tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>
}

// -----

// Copies of returned values go before the deallocations of intermediates.

// CHECK-LABEL: func.func @copy_before_dealloc
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<2xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}}
// CHECK-NEXT: memref.dealloc %[[TMP]]
// CHECK-NEXT: return
func.func @copy_before_dealloc(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %t = tile.exp %a : tensor<2xf32>
  %u = tile.log %t : tensor<2xf32>
  return %a, %u : tensor<2xf32>, tensor<2xf32>
}

// -----

// Private functions are lowered but are not entry points; argument
// attributes survive, with empty ones for the outputs. Functions already on
// memrefs are left alone.

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.*}}: memref<2xf32> {test.tag}, %{{.*}}: memref<2xf32>)
// CHECK-SAME: attributes {plaidml.inputs = [tensor<2xf32>], plaidml.outputs = [tensor<2xf32>]}
func.func private @helper(%a: tensor<2xf32> {test.tag}) -> tensor<2xf32> {
  %r = tile.sqrt %a : tensor<2xf32>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @already_lowered
// CHECK-SAME: (%{{.*}}: memref<2xf32>) -> i32 {
// CHECK-NEXT: arith.constant 0 : i32
func.func @already_lowered(%a: memref<2xf32>) -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
