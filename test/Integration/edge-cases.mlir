// The element-semantics edge cases of docs/TileLanguage.md ("Edge cases")
// on every device: C's pow (pow(-2, 2), pow(0, 0), pow(-2.5, -inf), ...,
// once NaN on Vulkan), C's fmod (fmod(-2.5, -inf), once NaN on Vulkan),
// IEEE maximum/minimum of signed zeros (which devices disagreed on) and
// shifts by at least the width (si8 1 << 8 was 0 on cpu/opencl, 1 on
// Vulkan and an error in the reference interpreter). The operands go
// through tile.gather, which does not fold, so every device computes them.
// RUN: plaidml-run %s --device reference --entry floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: plaidml-run %s --device cpu --entry floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: plaidml-run %s --device cpu --threads 2 --entry floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry floats --print | FileCheck %s --check-prefix=FLOATS %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry floats --print | FileCheck %s --check-prefix=FLOATS %}
// RUN: plaidml-run %s --device reference --entry halves --print | FileCheck %s --check-prefix=HALVES
// RUN: plaidml-run %s --device cpu --entry halves --print | FileCheck %s --check-prefix=HALVES
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry halves --print | FileCheck %s --check-prefix=HALVES %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry halves --print | FileCheck %s --check-prefix=HALVES %}
// RUN: plaidml-run %s --device reference --entry shifts --print | FileCheck %s --check-prefix=SHIFTS
// RUN: plaidml-run %s --device cpu --entry shifts --print | FileCheck %s --check-prefix=SHIFTS
// RUN: plaidml-run %s --device cpu --threads 2 --entry shifts --print | FileCheck %s --check-prefix=SHIFTS
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry shifts --print | FileCheck %s --check-prefix=SHIFTS %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry shifts --print | FileCheck %s --check-prefix=SHIFTS %}

// pow: (-2, 2) (0, 0) (-2.5, -inf) (-2, 3) (0, -1) (-0, -1) (2, 0.5)
// (1, nan) (nan, 0) (-1, inf) (0.5, -inf) (-8, 1/3) (-inf, 3) (-inf, -3)
// (inf, -1) (-0, 3)
// FLOATS: result0: 16xf32
// FLOATS-NEXT: [4, 1, 0, -8, inf, -inf, 1.41421, 1, 1, 1, inf, {{-?}}nan, -inf, -0, 0, -0]
// fmod: (-2.5, -inf) (2.5, inf) (-2.5, 2) (5.5, -2) (-0, 3) (inf, 2) (1, 0)
// (nan, 1)
// FLOATS: result1: 8xf32
// FLOATS-NEXT: [-2.5, 2.5, -0.5, 1.5, -0, {{-?}}nan, {{-?}}nan, {{-?}}nan]
// max and min: (-0, 0) (0, -0) (-0, -0) (0, 0) (nan, 1) (1, nan) (-inf, -0)
// (2, -3)
// FLOATS: result2: 8xf32
// FLOATS-NEXT: [0, 0, -0, 0, {{-?}}nan, {{-?}}nan, -0, 2]
// FLOATS: result3: 8xf32
// FLOATS-NEXT: [-0, -0, -0, 0, {{-?}}nan, {{-?}}nan, -inf, -3]
func.func @floats() -> (tensor<16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %ids16 = tile.index 0 : tensor<16xsi32>
  %ids8 = tile.index 0 : tensor<8xsi32>
  %pa = tile.constant dense<[-2.0, 0.0, -2.5, -2.0, 0.0, -0.0, 2.0, 1.0, 0x7FC00000, -1.0, 0.5, -8.0, 0xFF800000, 0xFF800000, 0x7F800000, -0.0]> : tensor<16xf32>
  %pb = tile.constant dense<[2.0, 0.0, 0xFF800000, 3.0, -1.0, -1.0, 0.5, 0x7FC00000, 0.0, 0x7F800000, 0xFF800000, 0.333333343, 3.0, -3.0, -1.0, 3.0]> : tensor<16xf32>
  %ga = tile.gather %pa, %ids16 {axis = 0} : tensor<16xf32>, tensor<16xsi32> -> tensor<16xf32>
  %gb = tile.gather %pb, %ids16 {axis = 0} : tensor<16xf32>, tensor<16xsi32> -> tensor<16xf32>
  %pow = tile.pow %ga, %gb : tensor<16xf32>
  %ma = tile.constant dense<[-2.5, 2.5, -2.5, 5.5, -0.0, 0x7F800000, 1.0, 0x7FC00000]> : tensor<8xf32>
  %mb = tile.constant dense<[0xFF800000, 0x7F800000, 2.0, -2.0, 3.0, 2.0, 0.0, 1.0]> : tensor<8xf32>
  %gma = tile.gather %ma, %ids8 {axis = 0} : tensor<8xf32>, tensor<8xsi32> -> tensor<8xf32>
  %gmb = tile.gather %mb, %ids8 {axis = 0} : tensor<8xf32>, tensor<8xsi32> -> tensor<8xf32>
  %mod = tile.mod %gma, %gmb : tensor<8xf32>
  %xa = tile.constant dense<[-0.0, 0.0, -0.0, 0.0, 0x7FC00000, 1.0, 0xFF800000, 2.0]> : tensor<8xf32>
  %xb = tile.constant dense<[0.0, -0.0, -0.0, 0.0, 1.0, 0x7FC00000, -0.0, -3.0]> : tensor<8xf32>
  %gxa = tile.gather %xa, %ids8 {axis = 0} : tensor<8xf32>, tensor<8xsi32> -> tensor<8xf32>
  %gxb = tile.gather %xb, %ids8 {axis = 0} : tensor<8xf32>, tensor<8xsi32> -> tensor<8xf32>
  %max = tile.max %gxa, %gxb : tensor<8xf32>
  %min = tile.min %gxa, %gxb : tensor<8xf32>
  return %pow, %mod, %max, %min : tensor<16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// f16 computes pow in f32 and rounds once: (-2, 2) (0, 0) (-2.5, -inf)
// (-2, 3); max/min of (-0, 0) both ways.
// HALVES: result0: 4xf16
// HALVES-NEXT: [4, 1, 0, -8]
// HALVES: result1: 4xf16
// HALVES-NEXT: [0, 0, -0, -0]
func.func @halves() -> (tensor<4xf16>, tensor<4xf16>) {
  %ids = tile.index 0 : tensor<4xsi32>
  %pa = tile.constant dense<[-2.0, 0.0, -2.5, -2.0]> : tensor<4xf16>
  %pb = tile.constant dense<[2.0, 0.0, 0xFC00, 3.0]> : tensor<4xf16>
  %ga = tile.gather %pa, %ids {axis = 0} : tensor<4xf16>, tensor<4xsi32> -> tensor<4xf16>
  %gb = tile.gather %pb, %ids {axis = 0} : tensor<4xf16>, tensor<4xsi32> -> tensor<4xf16>
  %pow = tile.pow %ga, %gb : tensor<4xf16>
  %za = tile.constant dense<[-0.0, 0.0, -0.0, 0.0]> : tensor<4xf16>
  %zb = tile.constant dense<[0.0, -0.0, 0.0, -0.0]> : tensor<4xf16>
  %gza = tile.gather %za, %ids {axis = 0} : tensor<4xf16>, tensor<4xsi32> -> tensor<4xf16>
  %gzb = tile.gather %zb, %ids {axis = 0} : tensor<4xf16>, tensor<4xsi32> -> tensor<4xf16>
  %max = tile.max %gza, %gzb : tensor<4xf16>
  %min = tile.min %gza, %gzb : tensor<4xf16>
  %sel = tile.constant dense<[true, true, false, false]> : tensor<4xi1>
  %mm = tile.select %sel, %max, %min : tensor<4xi1>, tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %pow, %mm : tensor<4xf16>, tensor<4xf16>
}

// si8: 1 << 8 = 0, 1 << 7 wraps to -128, -8 << 9 = 0, -8 << 1, 1 << -1 = 0
// (the amount is 255 unsigned), -128 << 8, 3 << 0, 64 << 1 wraps;
// >> by the same: 0, 0, -1 (sign fill), -4, 0, -1, 3, 32.
// SHIFTS: result0: 8xsi8
// SHIFTS-NEXT: [0, -128, 0, -16, 0, 0, 3, -128]
// SHIFTS: result1: 8xsi8
// SHIFTS-NEXT: [0, 0, -1, -4, 0, -1, 3, 32]
// ui8: 1 << 8, 255 << 9, 128 << 7 wraps, 3 << 200; >>: 0, 0, 1, 0.
// SHIFTS: result2: 4xui8
// SHIFTS-NEXT: [0, 0, 0, 0]
// SHIFTS: result3: 4xui8
// SHIFTS-NEXT: [0, 0, 1, 0]
// si32 (1, 32) (-1, 33) (5, 31); si64 (1, 64) (-1, 63).
// SHIFTS: result4: 3xsi32
// SHIFTS-NEXT: [0, 0, -2147483648]
// SHIFTS: result5: 3xsi32
// SHIFTS-NEXT: [0, -1, 0]
// SHIFTS: result6: 2xsi64
// SHIFTS-NEXT: [0, -9223372036854775808]
// SHIFTS: result7: 2xsi64
// SHIFTS-NEXT: [0, -1]
func.func @shifts() -> (tensor<8xsi8>, tensor<8xsi8>, tensor<4xui8>, tensor<4xui8>, tensor<3xsi32>, tensor<3xsi32>, tensor<2xsi64>, tensor<2xsi64>) {
  %ids8 = tile.index 0 : tensor<8xsi32>
  %ids4 = tile.index 0 : tensor<4xsi32>
  %ids3 = tile.index 0 : tensor<3xsi32>
  %ids2 = tile.index 0 : tensor<2xsi32>
  %a8 = tile.constant dense<[1, 1, -8, -8, 1, -128, 3, 64]> : tensor<8xsi8>
  %b8 = tile.constant dense<[8, 7, 9, 1, -1, 8, 0, 1]> : tensor<8xsi8>
  %ga8 = tile.gather %a8, %ids8 {axis = 0} : tensor<8xsi8>, tensor<8xsi32> -> tensor<8xsi8>
  %gb8 = tile.gather %b8, %ids8 {axis = 0} : tensor<8xsi8>, tensor<8xsi32> -> tensor<8xsi8>
  %shl8 = tile.shl %ga8, %gb8 : tensor<8xsi8>
  %shr8 = tile.shr %ga8, %gb8 : tensor<8xsi8>
  %au = tile.constant dense<[1, 255, 128, 3]> : tensor<4xui8>
  %bu = tile.constant dense<[8, 9, 7, 200]> : tensor<4xui8>
  %gau = tile.gather %au, %ids4 {axis = 0} : tensor<4xui8>, tensor<4xsi32> -> tensor<4xui8>
  %gbu = tile.gather %bu, %ids4 {axis = 0} : tensor<4xui8>, tensor<4xsi32> -> tensor<4xui8>
  %shlu = tile.shl %gau, %gbu : tensor<4xui8>
  %shru = tile.shr %gau, %gbu : tensor<4xui8>
  %a32 = tile.constant dense<[1, -1, 5]> : tensor<3xsi32>
  %b32 = tile.constant dense<[32, 33, 31]> : tensor<3xsi32>
  %ga32 = tile.gather %a32, %ids3 {axis = 0} : tensor<3xsi32>, tensor<3xsi32> -> tensor<3xsi32>
  %gb32 = tile.gather %b32, %ids3 {axis = 0} : tensor<3xsi32>, tensor<3xsi32> -> tensor<3xsi32>
  %shl32 = tile.shl %ga32, %gb32 : tensor<3xsi32>
  %shr32 = tile.shr %ga32, %gb32 : tensor<3xsi32>
  %a64 = tile.constant dense<[1, -1]> : tensor<2xsi64>
  %b64 = tile.constant dense<[64, 63]> : tensor<2xsi64>
  %ga64 = tile.gather %a64, %ids2 {axis = 0} : tensor<2xsi64>, tensor<2xsi32> -> tensor<2xsi64>
  %gb64 = tile.gather %b64, %ids2 {axis = 0} : tensor<2xsi64>, tensor<2xsi32> -> tensor<2xsi64>
  %shl64 = tile.shl %ga64, %gb64 : tensor<2xsi64>
  %shr64 = tile.shr %ga64, %gb64 : tensor<2xsi64>
  return %shl8, %shr8, %shlu, %shru, %shl32, %shr32, %shl64, %shr64 : tensor<8xsi8>, tensor<8xsi8>, tensor<4xui8>, tensor<4xui8>, tensor<3xsi32>, tensor<3xsi32>, tensor<2xsi64>, tensor<2xsi64>
}
