// RUN: plaidml-opt %s | plaidml-opt | FileCheck %s
// RUN: plaidml-opt %s -mlir-print-op-generic | plaidml-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul
func.func @matmul(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // CHECK: %[[ZERO:.*]] = tile.constant dense<0.000000e+00> : tensor<f32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  // CHECK: tile.contract add, mul, %[[ZERO]], %{{.*}}, %{{.*}} {idxs = ["m", "n", "k"], sink = #{{.*}}, srcs = [#{{.*}}, #{{.*}}]} : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xsi32>) -> tensor<4x8xf32> {
  // CHECK: tile.add %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xsi32> -> tensor<4x8xf32>
  %0 = tile.add %a, %b : tensor<4x8xf32>, tensor<8xsi32> -> tensor<4x8xf32>
  // CHECK: tile.mul %{{.*}}, %{{.*}} : tensor<4x8xf32>
  %1 = tile.mul %0, %a : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
