// A contraction with no index at all (rank-0 sink and sources, as the
// gradient of a full reduction builds): one point, always valid. The
// reference interpreter crashed on it (an IntegerSet without constraints).
// RUN: plaidml-run %s --device reference --print | FileCheck %s
// RUN: plaidml-run %s --device cpu --print | FileCheck %s
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --print | FileCheck %s %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --print | FileCheck %s %}
// CHECK: result0: f32
// CHECK-NEXT: 3.5
// CHECK: result1: f32
// CHECK-NEXT: 6
func.func @main() -> (tensor<f32>, tensor<f32>) {
  %init = tile.constant dense<1.0> : tensor<f32>
  %x = tile.constant dense<2.5> : tensor<f32>
  %y = tile.constant dense<2.0> : tensor<f32>
  %sum = tile.contract add, none, %init, %x {sink = affine_map<() -> ()>, srcs = [affine_map<() -> ()>]}
       : tensor<f32>, tensor<f32> -> tensor<f32>
  %three = tile.constant dense<3.0> : tensor<f32>
  %prod = tile.contract mul, none, %three, %y {sink = affine_map<() -> ()>, srcs = [affine_map<() -> ()>]}
       : tensor<f32>, tensor<f32> -> tensor<f32>
  return %sum, %prod : tensor<f32>, tensor<f32>
}
