// A 65536x256 elementwise kernel: one workgroup row per tensor row would be
// 65536 workgroups in y, one more than Vulkan guarantees (lavapipe's limit);
// plaidml-gpu-configure moves invocations to the rows instead. The result is
// the largest element (a sum of 16M halves hits a separate, older bug of
// lavapipe's single-invocation reduction: 32513.5 already at 32768x256).
// RUN: plaidml-run %s --device reference --print | FileCheck %s
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --print | FileCheck %s %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --print | FileCheck %s %}
// CHECK: result0: f32
// CHECK-NEXT: 0.5
func.func @main() -> tensor<f32> {
  %one = tile.constant dense<1.0> : tensor<f32>
  %x = tile.constant dense<0.0> : tensor<65536x256xf32>
  %y = tile.add %x, %one : tensor<65536x256xf32>, tensor<f32> -> tensor<65536x256xf32>
  %half = tile.constant dense<0.5> : tensor<f32>
  %z = tile.mul %y, %half : tensor<65536x256xf32>, tensor<f32> -> tensor<65536x256xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %s = tile.contract max, none, %zero, %z {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> ()>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f32>, tensor<65536x256xf32> -> tensor<f32>
  return %s : tensor<f32>
}
