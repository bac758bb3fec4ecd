// Tensors without elements (a zero dimension) on every device, as the
// reference interpreter computes them: an input only reduced over gives the
// contraction's init, a zero-size output is empty, an unused zero-size input
// changes nothing. The compiled backends used to refuse these programs
// ("plaidml-emit-cpu-entry-points runs on llvm.func", or on Vulkan a message
// blaming f32 loads).
// RUN: plaidml-run %s --device reference --entry zero_size --random-inputs --print | FileCheck %s
// RUN: plaidml-run %s --device cpu --entry zero_size --random-inputs --print | FileCheck %s
// RUN: plaidml-run %s --device cpu --threads 2 --entry zero_size --random-inputs --print | FileCheck %s
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry zero_size --random-inputs --print | FileCheck %s %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry zero_size --random-inputs --print | FileCheck %s %}

// CHECK: result0: 3x2xf32
// CHECK-NEXT: {{\[\[}}1.5, 1.5],
// CHECK-NEXT: {{ \[}}1.5, 1.5],
// CHECK-NEXT: {{ \[}}1.5, 1.5]]
// CHECK: result1: 3xf32
// CHECK-NEXT: [-inf, -inf, -inf]
// CHECK: result2: 0x3xf16
// CHECK-NEXT: []
// CHECK: result3: 3x0xf32
// CHECK-NEXT: []
// CHECK: result4: 3xsi32
// CHECK-NEXT: [0, 0, 0]
func.func @zero_size(%a: tensor<3x0xf32>, %b: tensor<0x2xf32>, %h: tensor<3x0xf16>,
                     %unused: tensor<0x7xsi8>, %n: tensor<3xsi32>)
    -> (tensor<3x2xf32>, tensor<3xf32>, tensor<0x3xf16>, tensor<3x0xf32>, tensor<3xsi32>) {
  %init = tile.constant dense<1.5> : tensor<f32>
  %mm = tile.contract add, mul, %init, %a, %b {idxs = ["m", "n", "k"],
          sink = affine_map<(m, n, k) -> (m, n)>,
          srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
        : tensor<f32>, tensor<3x0xf32>, tensor<0x2xf32> -> tensor<3x2xf32>
  %ninf = tile.constant dense<0xFF800000> : tensor<f32>
  %mx = tile.contract max, none, %ninf, %a {idxs = ["i", "j"],
          sink = affine_map<(i, j) -> (i)>, srcs = [affine_map<(i, j) -> (i, j)>]}
        : tensor<f32>, tensor<3x0xf32> -> tensor<3xf32>
  %hz = tile.constant dense<0.0> : tensor<f16>
  %t = tile.contract assign, none, %hz, %h {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (j, i)>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f16>, tensor<3x0xf16> -> tensor<0x3xf16>
  %e = tile.exp %a : tensor<3x0xf32>
  %zero = tile.constant dense<0> : tensor<3xsi32>
  %r = tile.mul %n, %zero : tensor<3xsi32>
  return %mm, %mx, %t, %e, %r : tensor<3x2xf32>, tensor<3xf32>, tensor<0x3xf16>, tensor<3x0xf32>, tensor<3xsi32>
}
