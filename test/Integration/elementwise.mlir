// Elementwise semantics of docs/Design.md section 3 on every device (the
// reference interpreter and the CPU, also compiled for two threads):
// integer division and shifts by signedness, wrapping, promotion with
// broadcasting, float rounding to f16/bf16, NaN comparisons, casts, and the
// shape ops. Expected values are worked out by hand.
// RUN: plaidml-run %s --device reference --entry ints --print | FileCheck %s --check-prefix=INTS
// RUN: plaidml-run %s --device cpu --entry ints --print | FileCheck %s --check-prefix=INTS
// RUN: plaidml-run %s --device cpu --threads 2 --entry ints --print | FileCheck %s --check-prefix=INTS
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry ints --print | FileCheck %s --check-prefix=INTS %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry ints --print | FileCheck %s --check-prefix=INTS %}
// RUN: plaidml-run %s --device reference --entry promote --print | FileCheck %s --check-prefix=PROMOTE
// RUN: plaidml-run %s --device cpu --entry promote --print | FileCheck %s --check-prefix=PROMOTE
// RUN: plaidml-run %s --device cpu --threads 2 --entry promote --print | FileCheck %s --check-prefix=PROMOTE
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry promote --print | FileCheck %s --check-prefix=PROMOTE %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry promote --print | FileCheck %s --check-prefix=PROMOTE %}
// RUN: plaidml-run %s --device reference --entry floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: plaidml-run %s --device cpu --entry floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: plaidml-run %s --device cpu --threads 2 --entry floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry floats --print | FileCheck %s --check-prefix=FLOATS %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry floats --print | FileCheck %s --check-prefix=FLOATS %}
// RUN: plaidml-run %s --device reference --entry shapes --print | FileCheck %s --check-prefix=SHAPES
// RUN: plaidml-run %s --device cpu --entry shapes --print | FileCheck %s --check-prefix=SHAPES
// RUN: plaidml-run %s --device cpu --threads 2 --entry shapes --print | FileCheck %s --check-prefix=SHAPES
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry shapes --print | FileCheck %s --check-prefix=SHAPES %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry shapes --print | FileCheck %s --check-prefix=SHAPES %}

// INTS: result0: 4xsi32
// INTS-NEXT: [-3, 3, -3, 3]
// INTS: result1: 4xsi32
// INTS-NEXT: [-1, 1, 1, -1]
// INTS: result2: 2xui8
// INTS-NEXT: [83, 44]
// INTS: result3: 2xsi8
// INTS-NEXT: [-4, 64]
// INTS: result4: 2xui8
// INTS-NEXT: [124, 0]
// INTS: result5: 2xsi16
// INTS-NEXT: [-32768, 32767]
func.func @ints() -> (tensor<4xsi32>, tensor<4xsi32>, tensor<2xui8>, tensor<2xsi8>, tensor<2xui8>, tensor<2xsi16>) {
  %mask = tile.constant dense<[true, false]> : tensor<2xi1>
  %a = tile.constant dense<[-7, 7, 7, -7]> : tensor<4xsi32>
  %b = tile.constant dense<[2, 2, -2, -2]> : tensor<4xsi32>
  // Division truncates toward zero; the remainder has the dividend's sign.
  %q = tile.div %a, %b : tensor<4xsi32>
  %r = tile.mod %a, %b : tensor<4xsi32>
  // Unsigned: 250 / 3 = 83; 200 + 100 wraps to 44.
  %u = tile.constant dense<[250, 200]> : tensor<2xui8>
  %v = tile.constant dense<[3, 100]> : tensor<2xui8>
  %udiv = tile.div %u, %v : tensor<2xui8>
  %uadd = tile.add %u, %v : tensor<2xui8>
  %uout = tile.select %mask, %udiv, %uadd : tensor<2xi1>, tensor<2xui8>, tensor<2xui8> -> tensor<2xui8>
  // Shifts: arithmetic on signed (-8 >> 1 = -4), 1 << 6 = 64; logical on
  // unsigned (248 >> 1 = 124), 128 << 1 wraps to 0.
  %s = tile.constant dense<[-8, 1]> : tensor<2xsi8>
  %sa = tile.constant dense<[1, 6]> : tensor<2xsi8>
  %shr = tile.shr %s, %sa : tensor<2xsi8>
  %shl = tile.shl %s, %sa : tensor<2xsi8>
  %sout = tile.select %mask, %shr, %shl : tensor<2xi1>, tensor<2xsi8>, tensor<2xsi8> -> tensor<2xsi8>
  %w = tile.constant dense<[248, 128]> : tensor<2xui8>
  %one = tile.constant dense<1> : tensor<ui8>
  %ushr = tile.shr %w, %one : tensor<2xui8>, tensor<ui8> -> tensor<2xui8>
  %ushl = tile.shl %w, %one : tensor<2xui8>, tensor<ui8> -> tensor<2xui8>
  %wout = tile.select %mask, %ushr, %ushl : tensor<2xi1>, tensor<2xui8>, tensor<2xui8> -> tensor<2xui8>
  // Casts from float saturate and truncate toward zero.
  %f = tile.constant dense<[-1.0e9, 4.0e4]> : tensor<2xf32>
  %c = tile.cast %f : tensor<2xf32> -> tensor<2xsi16>
  return %q, %r, %uout, %sout, %wout, %c : tensor<4xsi32>, tensor<4xsi32>, tensor<2xui8>, tensor<2xsi8>, tensor<2xui8>, tensor<2xsi16>
}

// si32 [[1, 2], [3, 4]] + f32 [0.5, 0.25] broadcasts and promotes to f32;
// si8 -1 compared with ui8 255 promotes to ui8, where -1 is 255.
// PROMOTE: result0: 2x2xf32
// PROMOTE-NEXT: {{\[\[}}1.5, 2.25],
// PROMOTE-NEXT: [3.5, 4.25]]
// PROMOTE: result1: i1
// PROMOTE-NEXT: 1
func.func @promote() -> (tensor<2x2xf32>, tensor<i1>) {
  %a = tile.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xsi32>
  %b = tile.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %s = tile.add %a, %b : tensor<2x2xsi32>, tensor<2xf32> -> tensor<2x2xf32>
  %m = tile.constant dense<-1> : tensor<si8>
  %u = tile.constant dense<255> : tensor<ui8>
  %eq = tile.cmp eq, %m, %u : tensor<si8>, tensor<ui8> -> tensor<i1>
  return %s, %eq : tensor<2x2xf32>, tensor<i1>
}

// f16 rounds 0.1 to 0.0999755859375; bf16 rounds 1/3 to 0.333984375.
// NaN compares unequal to itself and `ne` is true.
// FLOATS: result0: f16
// FLOATS-NEXT: 0.0999756
// FLOATS: result1: 2xi1
// FLOATS-NEXT: [0, 1]
// FLOATS: result2: 3xf32
// FLOATS-NEXT: [0.5, 0, 0.842701]
// (bf16 is in bf16.mlir: Vulkan kernels cannot use it yet.)
func.func @floats() -> (tensor<f16>, tensor<2xi1>, tensor<3xf32>) {
  %one = tile.constant dense<1.0> : tensor<f16>
  %ten = tile.constant dense<10.0> : tensor<f16>
  %tenth = tile.div %one, %ten : tensor<f16>
  %nan = tile.constant dense<0x7FC00000> : tensor<f32>
  %eq = tile.cmp eq, %nan, %nan : tensor<f32>, tensor<f32> -> tensor<i1>
  %ne = tile.cmp ne, %nan, %nan : tensor<f32>, tensor<f32> -> tensor<i1>
  %r0 = tile.reshape %eq : tensor<i1> -> tensor<1xi1>
  %r1 = tile.reshape %ne : tensor<i1> -> tensor<1xi1>
  %sel = tile.constant dense<[true, false]> : tensor<2xi1>
  %both = tile.select %sel, %r0, %r1 : tensor<2xi1>, tensor<1xi1>, tensor<1xi1> -> tensor<2xi1>
  %x = tile.constant dense<[0.0, -3.0, 1.0]> : tensor<3xf32>
  %sig = tile.sigmoid %x : tensor<3xf32>
  %relu = tile.relu %x : tensor<3xf32>
  %erf = tile.erf %x : tensor<3xf32>
  %which = tile.constant dense<[0, 1, 2]> : tensor<3xsi32>
  %i0 = tile.constant dense<0> : tensor<si32>
  %i1 = tile.constant dense<1> : tensor<si32>
  %is0 = tile.cmp eq, %which, %i0 : tensor<3xsi32>, tensor<si32> -> tensor<3xi1>
  %is1 = tile.cmp eq, %which, %i1 : tensor<3xsi32>, tensor<si32> -> tensor<3xi1>
  %t = tile.select %is1, %relu, %erf : tensor<3xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %mix = tile.select %is0, %sig, %t : tensor<3xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %tenth, %both, %mix : tensor<f16>, tensor<2xi1>, tensor<3xf32>
}

// SHAPES: result0: 2x3xsi32
// SHAPES-NEXT: {{\[\[}}0, 0, 0],
// SHAPES-NEXT: [1, 1, 1]]
// SHAPES: result1: 3x2xf32
// SHAPES-NEXT: {{\[\[}}30, 31],
// SHAPES-NEXT: [10, 11],
// SHAPES-NEXT: [30, 31]]
// SHAPES: result2: 4xf32
// SHAPES-NEXT: [0, 2, 0, 5]
// SHAPES: result3: 3x2xsi32
// SHAPES-NEXT: {{\[\[}}0, 0],
// SHAPES-NEXT: [0, 1],
// SHAPES-NEXT: [1, 1]]
func.func @shapes() -> (tensor<2x3xsi32>, tensor<3x2xf32>, tensor<4xf32>, tensor<3x2xsi32>) {
  %rows = tile.index 0 : tensor<2x3xsi32>
  %table = tile.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0]]> : tensor<4x2xf32>
  // Out-of-range gather indices clamp: 7 reads row 3.
  %ids = tile.constant dense<[7, 1, 3]> : tensor<3xsi32>
  %g = tile.gather %table, %ids {axis = 0} : tensor<4x2xf32>, tensor<3xsi32> -> tensor<3x2xf32>
  // Scatter sums duplicates (1.5 + 0.5 at index 1, 5.0 at 3) and drops the
  // out-of-range index 9.
  %upd = tile.constant dense<[1.5, 0.5, 5.0, 100.0]> : tensor<4xf32>
  %at = tile.constant dense<[1, 1, 3, 9]> : tensor<4xui32>
  %s = tile.scatter %upd, %at {axis = 0} : tensor<4xf32>, tensor<4xui32> -> tensor<4xf32>
  %flat = tile.reshape %rows : tensor<2x3xsi32> -> tensor<3x2xsi32>
  return %rows, %g, %s, %flat : tensor<2x3xsi32>, tensor<3x2xf32>, tensor<4xf32>, tensor<3x2xsi32>
}

// 64-bit extremes print exactly; a 64-bit integer converts to f32 with one
// rounding: 2^60 + 2^36 + 1 is nearest to 2^60 + 2^37 (through double it
// would round to 2^60, which is 0x5D800000).
// RUN: plaidml-run %s --device reference --entry wide --print | FileCheck %s --check-prefix=WIDE
// RUN: plaidml-run %s --device cpu --entry wide --print | FileCheck %s --check-prefix=WIDE
// RUN: plaidml-run %s --device cpu --threads 2 --entry wide --print | FileCheck %s --check-prefix=WIDE
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry wide --print | FileCheck %s --check-prefix=WIDE %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry wide --print | FileCheck %s --check-prefix=WIDE %}
// WIDE: result0: 2xsi64
// WIDE-NEXT: [9223372036854775807, -9223372036854775808]
// WIDE: result1: ui64
// WIDE-NEXT: 18446744073709551615
// WIDE: result2: f32
// WIDE-NEXT: 1.15292e+18
// WIDE: result3: i1
// WIDE-NEXT: 1
func.func @wide() -> (tensor<2xsi64>, tensor<ui64>, tensor<f32>, tensor<i1>) {
  %s = tile.constant dense<[9223372036854775807, -9223372036854775808]> : tensor<2xsi64>
  %u = tile.constant dense<18446744073709551615> : tensor<ui64>
  %big = tile.constant dense<1152921573326323713> : tensor<si64>
  %f = tile.cast %big : tensor<si64> -> tensor<f32>
  %exact = tile.constant dense<0x5D800000> : tensor<f32>
  %above = tile.cmp gt, %f, %exact : tensor<f32>, tensor<f32> -> tensor<i1>
  return %s, %u, %f, %above : tensor<2xsi64>, tensor<ui64>, tensor<f32>, tensor<i1>
}
