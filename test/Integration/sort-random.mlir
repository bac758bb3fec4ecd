// tile.argsort and tile.prng on every device (the reference interpreter, the
// CPU with one and two threads, vulkan:0, opencl:0) with the same CHECK
// lines: argsort against hand-sorted lines (ties, signed zeros, NaN, +-inf,
// unsigned keys above 127, either axis, both directions; the ascending
// results are NumPy's np.argsort(kind='stable')), prng against the
// known-answer vectors of Random123 (kat_vectors, philox4x32 with 10 rounds)
// and against a counter that carries across words. Float values are checked
// bit for bit by scaling them back to the integers they were made from.
// RUN: plaidml-run %s --device reference --entry argsort_floats --print | FileCheck %s --check-prefix=SORTF
// RUN: plaidml-run %s --device cpu --entry argsort_floats --print | FileCheck %s --check-prefix=SORTF
// RUN: plaidml-run %s --device cpu --threads 2 --entry argsort_floats --print | FileCheck %s --check-prefix=SORTF
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry argsort_floats --print | FileCheck %s --check-prefix=SORTF %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry argsort_floats --print | FileCheck %s --check-prefix=SORTF %}
// RUN: plaidml-run %s --device reference --entry argsort_ints --print | FileCheck %s --check-prefix=SORTI
// RUN: plaidml-run %s --device cpu --entry argsort_ints --print | FileCheck %s --check-prefix=SORTI
// RUN: plaidml-run %s --device cpu --threads 2 --entry argsort_ints --print | FileCheck %s --check-prefix=SORTI
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry argsort_ints --print | FileCheck %s --check-prefix=SORTI %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry argsort_ints --print | FileCheck %s --check-prefix=SORTI %}
// RUN: plaidml-run %s --device reference --entry prng_kat --print | FileCheck %s --check-prefix=KAT
// RUN: plaidml-run %s --device cpu --entry prng_kat --print | FileCheck %s --check-prefix=KAT
// RUN: plaidml-run %s --device cpu --threads 2 --entry prng_kat --print | FileCheck %s --check-prefix=KAT
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry prng_kat --print | FileCheck %s --check-prefix=KAT %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry prng_kat --print | FileCheck %s --check-prefix=KAT %}
// RUN: plaidml-run %s --device reference --entry prng_carry --print | FileCheck %s --check-prefix=CARRY
// RUN: plaidml-run %s --device cpu --entry prng_carry --print | FileCheck %s --check-prefix=CARRY
// RUN: plaidml-run %s --device cpu --threads 2 --entry prng_carry --print | FileCheck %s --check-prefix=CARRY
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry prng_carry --print | FileCheck %s --check-prefix=CARRY %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry prng_carry --print | FileCheck %s --check-prefix=CARRY %}
// RUN: plaidml-run %s --device reference --entry prng_floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: plaidml-run %s --device cpu --entry prng_floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: plaidml-run %s --device cpu --threads 2 --entry prng_floats --print | FileCheck %s --check-prefix=FLOATS
// RUN: %if vulkan %{ plaidml-run %s --device vulkan:0 --entry prng_floats --print | FileCheck %s --check-prefix=FLOATS %}
// RUN: %if opencl %{ plaidml-run %s --device opencl:0 --entry prng_floats --print | FileCheck %s --check-prefix=FLOATS %}

// Row 0 [3, 1, nan, -inf, 1]: ascending -inf(3) 1(1) 1(4) 3(0) nan(2);
// descending nan(2) 3(0) 1(1) 1(4) -inf(3) (ties keep their order).
// Row 1 [0.0, -0.0, 2, nan, -1]: the zeros tie.
// SORTF: result0: 2x5xsi32
// SORTF-NEXT: {{\[\[}}3, 1, 4, 0, 2],
// SORTF-NEXT: [4, 0, 1, 2, 3]]
// SORTF: result1: 2x5xsi32
// SORTF-NEXT: {{\[\[}}2, 0, 1, 4, 3],
// SORTF-NEXT: [3, 2, 0, 1, 4]]
// Along axis 0: columns [3, 0], [1, -0], [nan, 2], [-inf, nan], [1, -1].
// SORTF: result2: 2x5xsi32
// SORTF-NEXT: {{\[\[}}1, 1, 1, 0, 1],
// SORTF-NEXT: [0, 0, 0, 1, 0]]
func.func @argsort_floats() -> (tensor<2x5xsi32>, tensor<2x5xsi32>, tensor<2x5xi32>) {
  %x = tile.constant dense<[[3.0, 1.0, 0x7FC00000, 0xFF800000, 1.0], [0.0, -0.0, 2.0, 0x7FC00000, -1.0]]> : tensor<2x5xf32>
  %asc = tile.argsort asc, %x {axis = 1} : tensor<2x5xf32> -> tensor<2x5xsi32>
  %desc = tile.argsort desc, %x {axis = 1} : tensor<2x5xf32> -> tensor<2x5xsi32>
  %cols = tile.argsort asc, %x {axis = 0} : tensor<2x5xf32> -> tensor<2x5xi32>
  return %asc, %desc, %cols : tensor<2x5xsi32>, tensor<2x5xsi32>, tensor<2x5xi32>
}

// si32 along axis 0 of [[5, -1], [-2, -1], [5, 7]]: columns -2(1) 5(0) 5(2)
// and -1(0) -1(1) 7(2).
// SORTI: result0: 3x2xsi32
// SORTI-NEXT: {{\[\[}}1, 0],
// SORTI-NEXT: [0, 1],
// SORTI-NEXT: [2, 2]]
// ui8 [200, 3, 255, 3] descending: 255(2) 200(0) 3(1) 3(3) (as si8 they
// would be negative and sort last).
// SORTI: result1: 4xsi32
// SORTI-NEXT: [2, 0, 1, 3]
// i1 [true, false, true, false] ascending: false first.
// SORTI: result2: 4xsi32
// SORTI-NEXT: [1, 3, 0, 2]
// A line of one element, and the permutation read back through gather:
// [40, 10, 30, 20] sorted descending is [40, 30, 20, 10].
// SORTI: result3: 3x1xsi32
// SORTI-NEXT: {{\[\[}}0],
// SORTI-NEXT: [0],
// SORTI-NEXT: [0]]
// SORTI: result4: 4xsi64
// SORTI-NEXT: [40, 30, 20, 10]
// Elementwise ops before and after argsort (which the fusion of
// elementwise nests must not merge into its scattered stores): the order of
// 2 * a is a's, and order + 1 counts from 1.
// SORTI: result5: 3x2xsi32
// SORTI-NEXT: {{\[\[}}2, 1],
// SORTI-NEXT: [1, 2],
// SORTI-NEXT: [3, 3]]
func.func @argsort_ints() -> (tensor<3x2xsi32>, tensor<4xsi32>, tensor<4xsi32>, tensor<3x1xsi32>, tensor<4xsi64>, tensor<3x2xsi32>) {
  %a = tile.constant dense<[[5, -1], [-2, -1], [5, 7]]> : tensor<3x2xsi32>
  %ra = tile.argsort asc, %a {axis = 0} : tensor<3x2xsi32> -> tensor<3x2xsi32>
  %u = tile.constant dense<[200, 3, 255, 3]> : tensor<4xui8>
  %ru = tile.argsort desc, %u {axis = 0} : tensor<4xui8> -> tensor<4xsi32>
  %b = tile.constant dense<[true, false, true, false]> : tensor<4xi1>
  %rb = tile.argsort asc, %b {axis = 0} : tensor<4xi1> -> tensor<4xsi32>
  %one = tile.constant dense<[[4], [2], [9]]> : tensor<3x1xsi32>
  %r1 = tile.argsort desc, %one {axis = 1} : tensor<3x1xsi32> -> tensor<3x1xsi32>
  %v = tile.constant dense<[40, 10, 30, 20]> : tensor<4xsi64>
  %order = tile.argsort desc, %v {axis = 0} : tensor<4xsi64> -> tensor<4xsi32>
  %sorted = tile.gather %v, %order {axis = 0} : tensor<4xsi64>, tensor<4xsi32> -> tensor<4xsi64>
  %a2 = tile.add %a, %a : tensor<3x2xsi32>
  %r2 = tile.argsort asc, %a2 {axis = 0} : tensor<3x2xsi32> -> tensor<3x2xsi32>
  %c1 = tile.constant dense<1> : tensor<si32>
  %from1 = tile.add %r2, %c1 : tensor<3x2xsi32>, tensor<si32> -> tensor<3x2xsi32>
  return %ra, %ru, %rb, %r1, %sorted, %from1 : tensor<3x2xsi32>, tensor<4xsi32>, tensor<4xsi32>, tensor<3x1xsi32>, tensor<4xsi64>, tensor<3x2xsi32>
}

// Random123 kat_vectors for philox4x32 with 10 rounds:
//   ctr 0, key 0 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8
//   ctr ffffffff x4, key ffffffff x2 -> 408f276d 41c83b0e a20bc7c6 6d5451fd
//   ctr 243f6a88 85a308d3 13198a2e 03707344, key a4093822 299f31d0
//     -> d16cfe09 94fdcceb 5001e420 24126ea1
// (in decimal below). The all-ones counter wraps to 0 in the new state.
// KAT: result0: 4xui32
// KAT-NEXT: [1713891541, 3781805453, 3159862348, 2600524760]
// KAT: result1: 6xui32
// KAT-NEXT: [0, 0, 1, 0, 0, 0]
// KAT: result2: 4xui32
// KAT-NEXT: [1083123565, 1103641358, 2718681030, 1834242557]
// KAT: result3: 6xui32
// KAT-NEXT: [4294967295, 4294967295, 0, 0, 0, 0]
// KAT: result4: 2x2xsi32
// KAT-NEXT: {{\[\[}}-781386231, -1795306261],
// KAT-NEXT: [1342301216, 605187745]]
// KAT: result5: 6xsi32
// KAT-NEXT: [-1542899678, 698298832, 608135817, -2052912941, 320440878, 57701188]
func.func @prng_kat() -> (tensor<4xui32>, tensor<6xui32>, tensor<4xui32>, tensor<6xui32>, tensor<2x2xsi32>, tensor<6xsi32>) {
  %zero = tile.constant dense<0> : tensor<6xui32>
  %w0, %s0 = tile.prng %zero : tensor<6xui32> -> tensor<4xui32>
  %ones = tile.constant dense<4294967295> : tensor<6xui32>
  %w1, %s1 = tile.prng %ones : tensor<6xui32> -> tensor<4xui32>
  // The same words read as si32, in a 2x2 shape.
  %pi = tile.constant dense<[-1542899678, 698298832, 608135816, -2052912941, 320440878, 57701188]> : tensor<6xsi32>
  %w2, %s2 = tile.prng %pi : tensor<6xsi32> -> tensor<2x2xsi32>
  return %w0, %s0, %w1, %s1, %w2, %s2 : tensor<4xui32>, tensor<6xui32>, tensor<4xui32>, tensor<6xui32>, tensor<2x2xsi32>, tensor<6xsi32>
}

// Counter 0xffffffff with key (1, 2): the second block is counter
// (0, 1, 0, 0) (the carry), and the new state holds counter (1, 1, 0, 0).
// Chained: the next prng continues at (1, 1, 0, 0).
// CARRY: result0: 2x4xui32
// CARRY-NEXT: {{\[\[}}1764251873, 4177968096, 4232913951, 1186610385],
// CARRY-NEXT: [1088181077, 1231179899, 753870517, 1798271429]]
// CARRY: result1: 6xui32
// CARRY-NEXT: [1, 2, 1, 1, 0, 0]
// CARRY: result2: 3xsi32
// CARRY: result3: 6xui32
// CARRY-NEXT: [1, 2, 2, 1, 0, 0]
// CARRY: result4: 3xsi32
// CARRY-NEXT: [1, 1, 1]
func.func @prng_carry() -> (tensor<2x4xui32>, tensor<6xui32>, tensor<3xi32>, tensor<6xui32>, tensor<3xi32>) {
  %s = tile.constant dense<[1, 2, 4294967295, 0, 0, 0]> : tensor<6xui32>
  %w, %n = tile.prng %s : tensor<6xui32> -> tensor<2x4xui32>
  %w2, %n2 = tile.prng %n : tensor<6xui32> -> tensor<3xi32>
  // The chained words are the first three of the block at counter (1, 1).
  %direct = tile.constant dense<[1, 2, 1, 1, 0, 0]> : tensor<6xui32>
  %w3, %n3 = tile.prng %direct : tensor<6xui32> -> tensor<3xi32>
  %same = tile.cmp eq, %w2, %w3 : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %same32 = tile.cast %same : tensor<3xi1> -> tensor<3xi32>
  return %w, %n, %w2, %n2, %same32 : tensor<2x4xui32>, tensor<6xui32>, tensor<3xi32>, tensor<6xui32>, tensor<3xi32>
}

// Floats from the words of counter 0, key 0 (above, then block 1:
// f8e4cca4 5cb200db): f32 is (w >> 8) / 2^24, so scaling by 2^24 gives
// w >> 8 exactly; f16 is (w >> 21) / 2^11; f64 is w / 2^32.
// FLOATS: result0: 2x3xsi32
// FLOATS-NEXT: {{\[\[}}6694888, 14772677, 12343212],
// FLOATS-NEXT: [10158299, 16311500, 6074880]]
// FLOATS: result1: 2x3xi1
// FLOATS-NEXT: {{\[\[}}1, 1, 1],
// FLOATS-NEXT: [1, 1, 1]]
// FLOATS: result2: 6xsi32
// FLOATS-NEXT: [817, 1803, 1506, 1240, 1991, 741]
// FLOATS: result3: 6xsi64
// FLOATS-NEXT: [1713891541, 3781805453, 3159862348, 2600524760, 4175744164, 1555169499]
// FLOATS: result4: 6xui32
// FLOATS-NEXT: [0, 0, 2, 0, 0, 0]
func.func @prng_floats() -> (tensor<2x3xsi32>, tensor<2x3xi1>, tensor<6xsi32>, tensor<6xsi64>, tensor<6xui32>) {
  %s = tile.constant dense<0> : tensor<6xui32>
  %f, %n = tile.prng %s : tensor<6xui32> -> tensor<2x3xf32>
  %k24 = tile.constant dense<16777216.0> : tensor<f32>
  %f24 = tile.mul %f, %k24 : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %i24 = tile.cast %f24 : tensor<2x3xf32> -> tensor<2x3xsi32>
  // Every value is in [0, 1).
  %one = tile.constant dense<1.0> : tensor<f32>
  %below = tile.cmp lt, %f, %one : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xi1>
  %h, %hn = tile.prng %s : tensor<6xui32> -> tensor<6xf16>
  %k11 = tile.constant dense<2048.0> : tensor<f16>
  %h11 = tile.mul %h, %k11 : tensor<6xf16>, tensor<f16> -> tensor<6xf16>
  %i11 = tile.cast %h11 : tensor<6xf16> -> tensor<6xsi32>
  %d, %dn = tile.prng %s : tensor<6xui32> -> tensor<6xf64>
  %k32 = tile.constant dense<4294967296.0> : tensor<f64>
  %d32 = tile.mul %d, %k32 : tensor<6xf64>, tensor<f64> -> tensor<6xf64>
  %i32 = tile.cast %d32 : tensor<6xf64> -> tensor<6xsi64>
  return %i24, %below, %i11, %i32, %n : tensor<2x3xsi32>, tensor<2x3xi1>, tensor<6xsi32>, tensor<6xsi64>, tensor<6xui32>
}
