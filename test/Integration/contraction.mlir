// Contractions on every device (the reference interpreter and the CPU, also
// compiled for two threads),
// checked against values worked out by hand.
// RUN: plaidml-run %s --device reference --entry matmul --print | FileCheck %s --check-prefix=MATMUL
// RUN: plaidml-run %s --device cpu --entry matmul --print | FileCheck %s --check-prefix=MATMUL
// RUN: plaidml-run %s --device cpu --threads 2 --entry matmul --print | FileCheck %s --check-prefix=MATMUL
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry matmul --print | FileCheck %s --check-prefix=MATMUL %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry matmul --print | FileCheck %s --check-prefix=MATMUL %}
// RUN: plaidml-run %s --device reference --entry same_conv --print | FileCheck %s --check-prefix=CONV
// RUN: plaidml-run %s --device cpu --entry same_conv --print | FileCheck %s --check-prefix=CONV
// RUN: plaidml-run %s --device cpu --threads 2 --entry same_conv --print | FileCheck %s --check-prefix=CONV
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry same_conv --print | FileCheck %s --check-prefix=CONV %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry same_conv --print | FileCheck %s --check-prefix=CONV %}
// RUN: plaidml-run %s --device reference --entry max_pool --print | FileCheck %s --check-prefix=POOL
// RUN: plaidml-run %s --device cpu --entry max_pool --print | FileCheck %s --check-prefix=POOL
// RUN: plaidml-run %s --device cpu --threads 2 --entry max_pool --print | FileCheck %s --check-prefix=POOL
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry max_pool --print | FileCheck %s --check-prefix=POOL %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry max_pool --print | FileCheck %s --check-prefix=POOL %}
// RUN: plaidml-run %s --device reference --entry cumsum --print | FileCheck %s --check-prefix=CUMSUM
// RUN: plaidml-run %s --device cpu --entry cumsum --print | FileCheck %s --check-prefix=CUMSUM
// RUN: plaidml-run %s --device cpu --threads 2 --entry cumsum --print | FileCheck %s --check-prefix=CUMSUM
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry cumsum --print | FileCheck %s --check-prefix=CUMSUM %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry cumsum --print | FileCheck %s --check-prefix=CUMSUM %}
// RUN: plaidml-run %s --device reference --entry argmax --print | FileCheck %s --check-prefix=ARGMAX
// RUN: plaidml-run %s --device cpu --entry argmax --print | FileCheck %s --check-prefix=ARGMAX
// RUN: plaidml-run %s --device cpu --threads 2 --entry argmax --print | FileCheck %s --check-prefix=ARGMAX
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry argmax --print | FileCheck %s --check-prefix=ARGMAX %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry argmax --print | FileCheck %s --check-prefix=ARGMAX %}
// RUN: plaidml-run %s --device reference --entry transpose --print | FileCheck %s --check-prefix=TRANSPOSE
// RUN: plaidml-run %s --device cpu --entry transpose --print | FileCheck %s --check-prefix=TRANSPOSE
// RUN: plaidml-run %s --device cpu --threads 2 --entry transpose --print | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry transpose --print | FileCheck %s --check-prefix=TRANSPOSE %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry transpose --print | FileCheck %s --check-prefix=TRANSPOSE %}
// RUN: plaidml-run %s --device reference --entry diagonal --print | FileCheck %s --check-prefix=DIAG
// RUN: plaidml-run %s --device cpu --entry diagonal --print | FileCheck %s --check-prefix=DIAG
// RUN: plaidml-run %s --device cpu --threads 2 --entry diagonal --print | FileCheck %s --check-prefix=DIAG
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry diagonal --print | FileCheck %s --check-prefix=DIAG %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry diagonal --print | FileCheck %s --check-prefix=DIAG %}
// RUN: plaidml-run %s --device reference --entry strided --print | FileCheck %s --check-prefix=STRIDED
// RUN: plaidml-run %s --device cpu --entry strided --print | FileCheck %s --check-prefix=STRIDED
// RUN: plaidml-run %s --device cpu --threads 2 --entry strided --print | FileCheck %s --check-prefix=STRIDED
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry strided --print | FileCheck %s --check-prefix=STRIDED %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry strided --print | FileCheck %s --check-prefix=STRIDED %}
// RUN: plaidml-run %s --device reference --entry mixed --print | FileCheck %s --check-prefix=MIXED
// RUN: plaidml-run %s --device cpu --entry mixed --print | FileCheck %s --check-prefix=MIXED
// RUN: plaidml-run %s --device cpu --threads 2 --entry mixed --print | FileCheck %s --check-prefix=MIXED
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry mixed --print | FileCheck %s --check-prefix=MIXED %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry mixed --print | FileCheck %s --check-prefix=MIXED %}
// RUN: plaidml-run %s --device reference --entry int_product --print | FileCheck %s --check-prefix=PRODUCT
// RUN: plaidml-run %s --device cpu --entry int_product --print | FileCheck %s --check-prefix=PRODUCT
// RUN: plaidml-run %s --device cpu --threads 2 --entry int_product --print | FileCheck %s --check-prefix=PRODUCT
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry int_product --print | FileCheck %s --check-prefix=PRODUCT %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry int_product --print | FileCheck %s --check-prefix=PRODUCT %}

// [[1 2 3] [4 5 6]] x [[1 0] [0 1] [1 1]] = [[4 5] [10 11]]
// MATMUL: result0: 2x2xf32
// MATMUL-NEXT: {{\[\[}}4, 5],
// MATMUL-NEXT: [10, 11]]
func.func @matmul() -> tensor<2x2xf32> {
  %a = tile.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tile.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

// 1-D "same" convolution: O[x] = sum_i I[x + i - 1] * K[i], out-of-range
// reads skipped. I = [1 2 3 4], K = [1 10 100]: O = [210, 321, 432, 43].
// CONV: result0: 4xsi32
// CONV-NEXT: [210, 321, 432, 43]
func.func @same_conv() -> tensor<4xsi32> {
  %i = tile.constant dense<[1, 2, 3, 4]> : tensor<4xsi32>
  %k = tile.constant dense<[1, 10, 100]> : tensor<3xsi32>
  %zero = tile.constant dense<0> : tensor<si32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (x + i - 1)>, affine_map<(x, i) -> (i)>]}
       : tensor<si32>, tensor<4xsi32>, tensor<3xsi32> -> tensor<4xsi32>
  return %o : tensor<4xsi32>
}

// 2-wide max pool with stride 2, window bounded by the constraint 0 <= i < 2
// (without i >= 0, i = -1 would be a valid point too).
// POOL: result0: 3xf32
// POOL-NEXT: [5, 7, -1]
func.func @max_pool() -> tensor<3xf32> {
  %i = tile.constant dense<[5.0, 1.0, -3.0, 7.0, -2.0, -1.0]> : tensor<6xf32>
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %lowest, %i {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (2 * x + i)>],
         cons = affine_set<(x, i) : (i >= 0, 1 - i >= 0)>}
       : tensor<f32>, tensor<6xf32> -> tensor<3xf32>
  return %o : tensor<3xf32>
}

// Cumulative sum: O[i] = sum_{k <= i} I[k].
// CUMSUM: result0: 5xsi64
// CUMSUM-NEXT: [1, 3, 6, 10, 15]
func.func @cumsum() -> tensor<5xsi64> {
  %i = tile.constant dense<[1, 2, 3, 4, 5]> : tensor<5xsi64>
  %zero = tile.constant dense<0> : tensor<si64>
  %o = tile.contract add, none, %zero, %i {idxs = ["i", "k"],
         sink = affine_map<(i, k) -> (i)>,
         srcs = [affine_map<(i, k) -> (k)>],
         cons = affine_set<(i, k) : (i - k >= 0)>}
       : tensor<si64>, tensor<5xsi64> -> tensor<5xsi64>
  return %o : tensor<5xsi64>
}

// Argmax along rows: the max of each row, then `cond` picks the index
// where the element equals it.
// ARGMAX: result0: 2xsi32
// ARGMAX-NEXT: [2, 0]
func.func @argmax() -> tensor<2xsi32> {
  %x = tile.constant dense<[[1.0, 4.0, 9.0], [8.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %lowest = tile.constant dense<0xFF800000> : tensor<f32>
  %m = tile.contract max, none, %lowest, %x {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r)>, srcs = [affine_map<(r, c) -> (r, c)>]}
       : tensor<f32>, tensor<2x3xf32> -> tensor<2xf32>
  %idx = tile.index 1 : tensor<2x3xsi32>
  %zero = tile.constant dense<0> : tensor<si32>
  %a = tile.contract max, cond, %zero, %x, %m, %idx {idxs = ["r", "c"],
         sink = affine_map<(r, c) -> (r)>,
         srcs = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>,
                 affine_map<(r, c) -> (r, c)>]}
       : tensor<si32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xsi32> -> tensor<2xsi32>
  return %a : tensor<2xsi32>
}

// TRANSPOSE: result0: 3x2xui8
// TRANSPOSE-NEXT: {{\[\[}}1, 4],
// TRANSPOSE-NEXT: [2, 5],
// TRANSPOSE-NEXT: [3, 6]]
func.func @transpose() -> tensor<3x2xui8> {
  %x = tile.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xui8>
  %zero = tile.constant dense<0> : tensor<ui8>
  %t = tile.contract assign, none, %zero, %x {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (j, i)>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<ui8>, tensor<2x3xui8> -> tensor<3x2xui8>
  return %t : tensor<3x2xui8>
}

// Trace-like diagonal read A[i, i]; elements not reached keep the init 7.
// DIAG: result0: 4xf64
// DIAG-NEXT: [1, 5, 9, 7]
func.func @diagonal() -> tensor<4xf64> {
  %x = tile.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf64>
  %seven = tile.constant dense<7.0> : tensor<f64>
  %d = tile.contract assign, none, %seven, %x {idxs = ["i"],
         sink = affine_map<(i) -> (i)>, srcs = [affine_map<(i) -> (i, i)>]}
       : tensor<f64>, tensor<3x3xf64> -> tensor<4xf64>
  return %d : tensor<4xf64>
}

// Strided, dilated 1-D conv: O[x] = sum_i I[2x + 2i] * K[i], I = 0..9.
// O = [0+2*... ]: x=0: I0*1 + I2*2 = 4; x=1: I2 + 2*I4 = 10; x=2: 4+12 = 16; x=3: 6+16 = 22
// STRIDED: result0: 4xf32
// STRIDED-NEXT: [4, 10, 16, 22]
func.func @strided() -> tensor<4xf32> {
  %i = tile.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
  %k = tile.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["x", "i"],
         sink = affine_map<(x, i) -> (x)>,
         srcs = [affine_map<(x, i) -> (2 * x + 2 * i)>, affine_map<(x, i) -> (i)>]}
       : tensor<f32>, tensor<10xf32>, tensor<2xf32> -> tensor<4xf32>
  return %o : tensor<4xf32>
}

// f16 inputs accumulating in f32: 2049 is not an f16 value (f16 rounds it
// to 2048), but the f32 accumulator holds the sum 2048 + 1 exactly.
// MIXED: result0: f32
// MIXED-NEXT: 2049
func.func @mixed() -> tensor<f32> {
  %x = tile.constant dense<[2048.0, 1.0]> : tensor<2xf16>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %s = tile.contract add, none, %zero, %x {idxs = ["i"],
         sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]}
       : tensor<f32>, tensor<2xf16> -> tensor<f32>
  return %s : tensor<f32>
}

// Products wrap in the 8-bit signed type: 2 * 3 * 5 * 7 = 210 -> -46.
// PRODUCT: result0: si8
// PRODUCT-NEXT: -46
func.func @int_product() -> tensor<si8> {
  %x = tile.constant dense<[2, 3, 5, 7]> : tensor<4xsi8>
  %one = tile.constant dense<1> : tensor<si8>
  %p = tile.contract mul, none, %one, %x {idxs = ["i"],
         sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]}
       : tensor<si8>, tensor<4xsi8> -> tensor<si8>
  return %p : tensor<si8>
}
