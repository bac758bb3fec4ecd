// Elementwise and shape ops compiled through convert-tile-to-affine and
// upstream passes to LLVM, run by mlir-runner. Expected values are those the
// reference interpreter prints for the same functions: signed vs unsigned
// division, remainder and shifts, INT_MIN / -1 without a trap, saturating
// float-to-integer casts, integer pow, gather clamping, scatter dropping
// out-of-range indices, and the calling convention with inputs.
//
// RUN: plaidml-opt %s -convert-tile-to-affine \
// RUN:   | sed -e '/^module/d' -e '/^}$/d' | cat - %S/Inputs/elementwise-main.mlir \
// RUN:   | plaidml-opt -lower-affine -convert-scf-to-cf -convert-math-to-llvm \
// RUN:       -convert-math-to-libm -expand-strided-metadata -finalize-memref-to-llvm \
// RUN:       -convert-arith-to-llvm -convert-cf-to-llvm -convert-func-to-llvm \
// RUN:       -reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// CHECK-LABEL: ints
// CHECK: data =
// CHECK-NEXT: [-3, -3, -2147483648, 14, 0, 5]
// CHECK: data =
// CHECK-NEXT: [-1, 1, 0, 2, -1, 0]
// CHECK: data =
// CHECK-NEXT: [2147483644, 0, 0, 14, 1431655765, 5]
// CHECK: data =
// CHECK-NEXT: [-4, 1, -268435456, 6, -1, 5]
// CHECK: data =
// CHECK-NEXT: [2147483644, 1, 268435456, 6, 1, 5]
func.func @ints() -> (tensor<6xsi32>, tensor<6xsi32>, tensor<6xsi64>, tensor<6xsi32>, tensor<6xsi64>) {
  %a = tile.constant dense<[-7, 7, -2147483648, 100, -1, 5]> : tensor<6xsi32>
  %b = tile.constant dense<[2, -2, -1, 7, 3, 1]> : tensor<6xsi32>
  %q = tile.div %a, %b : tensor<6xsi32>
  %r = tile.mod %a, %b : tensor<6xsi32>
  // The same bits read as unsigned.
  %ua = tile.cast %a : tensor<6xsi32> -> tensor<6xui32>
  %ub = tile.cast %b : tensor<6xsi32> -> tensor<6xui32>
  %uq = tile.div %ua, %ub : tensor<6xui32>
  %sh = tile.constant dense<[1, 2, 3, 4, 31, 0]> : tensor<6xsi32>
  %s = tile.shr %a, %sh : tensor<6xsi32>
  %ush = tile.cast %sh : tensor<6xsi32> -> tensor<6xui32>
  %us = tile.shr %ua, %ush : tensor<6xui32>
  %uq64 = tile.cast %uq : tensor<6xui32> -> tensor<6xsi64>
  %us64 = tile.cast %us : tensor<6xui32> -> tensor<6xsi64>
  return %q, %r, %uq64, %s, %us64 : tensor<6xsi32>, tensor<6xsi32>, tensor<6xsi64>, tensor<6xsi32>, tensor<6xsi64>
}

// CHECK-LABEL: casts
// CHECK: data =
// CHECK-NEXT: [0, 2147483647, -2147483648, 2147483647, -2147483648, 0, 255, -128]
// CHECK: data =
// CHECK-NEXT: [0, 255, 0, 255, 0, 0, 255, 0]
// CHECK: data =
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]
func.func @casts() -> (tensor<8xsi32>, tensor<8xsi32>, tensor<8xsi32>) {
  %f = tile.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, 3.0e9, -3.0e9, -0.7, 255.9, -128.5]> : tensor<8xf32>
  %i = tile.cast %f : tensor<8xf32> -> tensor<8xsi32>
  %u = tile.cast %f : tensor<8xf32> -> tensor<8xui8>
  %u32 = tile.cast %u : tensor<8xui8> -> tensor<8xsi32>
  %b = tile.cast %f : tensor<8xf32> -> tensor<8xi1>
  %b32 = tile.cast %b : tensor<8xi1> -> tensor<8xsi32>
  return %i, %u32, %b32 : tensor<8xsi32>, tensor<8xsi32>, tensor<8xsi32>
}

// CHECK-LABEL: pow
// CHECK: data =
// CHECK-NEXT: [1024, -1, -1, 1, 1, 0]
func.func @pow() -> tensor<6xsi32> {
  %a = tile.constant dense<[2, -1, -1, 1, 3, 2]> : tensor<6xsi32>
  %b = tile.constant dense<[10, 3, -3, -5, 0, -1]> : tensor<6xsi32>
  %p = tile.pow %a, %b : tensor<6xsi32>
  return %p : tensor<6xsi32>
}

// CHECK-LABEL: gather_scatter
// CHECK: data =
// CHECK-NEXT: {{\[\[}}30, 31],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [0, 1]]
// CHECK: data =
// CHECK-NEXT: [0, 2, 0, 5]
func.func @gather_scatter() -> (tensor<3x2xf32>, tensor<4xf32>) {
  %table = tile.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0]]> : tensor<4x2xf32>
  %ids = tile.constant dense<[7, 1, -3]> : tensor<3xsi32>
  %g = tile.gather %table, %ids {axis = 0} : tensor<4x2xf32>, tensor<3xsi32> -> tensor<3x2xf32>
  %upd = tile.constant dense<[1.5, 0.5, 5.0, 100.0, 7.0]> : tensor<5xf32>
  %at = tile.constant dense<[1, 1, 3, 9, -1]> : tensor<5xsi8>
  %s = tile.scatter %upd, %at {axis = 0} : tensor<5xf32>, tensor<5xsi8> -> tensor<4xf32>
  return %g, %s : tensor<3x2xf32>, tensor<4xf32>
}

// A function with an input: the argument returned as is (copied into its
// output buffer) and a result computed straight into its buffer.
// CHECK-LABEL: with_input
// CHECK: data =
// CHECK-NEXT: [1, -2, 3]
// CHECK: data =
// CHECK-NEXT: [2, 0, 6]
func.func @with_input(%a: tensor<3xsi32>) -> (tensor<3xsi32>, tensor<3xsi32>) {
  %r = tile.relu %a : tensor<3xsi32>
  %d = tile.add %r, %r : tensor<3xsi32>
  return %a, %d : tensor<3xsi32>, tensor<3xsi32>
}
