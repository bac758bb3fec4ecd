// RUN: plaidml-opt %s -canonicalize -split-input-file | FileCheck %s

// Folders and canonicalization patterns of the Tile ops. Each fold has a
// positive case and a case where it must not fire.

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

// Non-splat with broadcasting and promotion (si32 into f32), integer
// wrap-around, and splats of any size.
// CHECK-LABEL: func.func @add_constants
// CHECK-DAG: %[[A:.*]] = tile.constant dense<{{\[}}[1.100000e+01, 2.200000e+01, 3.300000e+01], [1.400000e+01, 2.500000e+01, 3.600000e+01]]> : tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = tile.constant dense<-128> : tensor<si8>
// CHECK-DAG: %[[C:.*]] = tile.constant dense<3.750000e+00> : tensor<4096xf64>
// CHECK-NOT: tile.add
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @add_constants() -> (tensor<2x3xf32>, tensor<si8>, tensor<4096xf64>) {
  %a = tile.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tile.constant dense<[10, 20, 30]> : tensor<3xsi32>
  %0 = tile.add %a, %b : tensor<2x3xf32>, tensor<3xsi32> -> tensor<2x3xf32>
  %c = tile.constant dense<127> : tensor<si8>
  %d = tile.constant dense<1> : tensor<si8>
  %1 = tile.add %c, %d : tensor<si8>
  %e = tile.constant dense<1.5> : tensor<4096xf32>
  %f = tile.constant dense<2.25> : tensor<f64>
  %2 = tile.add %e, %f : tensor<4096xf32>, tensor<f64> -> tensor<4096xf64>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<si8>, tensor<4096xf64>
}

// -----

// Not folded: an operand is not constant; the result would be a non-splat
// constant of 2048 elements.
// CHECK-LABEL: func.func @add_not_folded
// CHECK: tile.add %{{.*}}, %{{.*}} : tensor<3xf32>
// CHECK: tile.add %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<1024x2xf32> -> tensor<1024x2xf32>
func.func @add_not_folded(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<1024x2xf32>) {
  %a = tile.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = tile.add %x, %a : tensor<3xf32>
  %b = tile.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = tile.constant dense<1.0> : tensor<1024x2xf32>
  %1 = tile.add %b, %c : tensor<2xf32>, tensor<1024x2xf32> -> tensor<1024x2xf32>
  return %0, %1 : tensor<3xf32>, tensor<1024x2xf32>
}

// -----

// CHECK-LABEL: func.func @sub_mul_constants
// CHECK-DAG: %[[A:.*]] = tile.constant dense<254> : tensor<ui8>
// CHECK-DAG: %[[B:.*]] = tile.constant dense<[0, 9]> : tensor<2xi32>
// CHECK-DAG: %[[C:.*]] = tile.constant dense<{{\[}}[5.000000e-01, 3.000000e+00], [1.000000e+00, 6.000000e+00]]> : tensor<2x2xf16>
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @sub_mul_constants() -> (tensor<ui8>, tensor<2xi32>, tensor<2x2xf16>) {
  %a = tile.constant dense<3> : tensor<ui8>
  %b = tile.constant dense<5> : tensor<ui8>
  %0 = tile.sub %a, %b : tensor<ui8>
  %c = tile.constant dense<[65536, -3]> : tensor<2xi32>
  %1 = tile.mul %c, %c : tensor<2xi32>
  %d = tile.constant dense<[[1.0], [2.0]]> : tensor<2x1xf16>
  %e = tile.constant dense<[0.5, 3.0]> : tensor<2xf16>
  %2 = tile.mul %d, %e : tensor<2x1xf16>, tensor<2xf16> -> tensor<2x2xf16>
  return %0, %1, %2 : tensor<ui8>, tensor<2xi32>, tensor<2x2xf16>
}

// -----

// Float division follows IEEE; integer division truncates toward zero, with
// the signedness of the element type (signless is signed).
// CHECK-LABEL: func.func @div_constants
// CHECK-DAG: %[[F:.*]] = tile.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<3xf32>
// CHECK-DAG: %[[S:.*]] = tile.constant dense<[-3, 3, 4]> : tensor<3xsi32>
// CHECK-DAG: %[[U8:.*]] = tile.constant dense<100> : tensor<ui8>
// CHECK-DAG: %[[S8:.*]] = tile.constant dense<-28> : tensor<si8>
// CHECK-DAG: %[[I:.*]] = tile.constant dense<[2, -2]> : tensor<2xi32>
// CHECK-NOT: tile.div
// CHECK: return %[[F]], %[[S]], %[[U8]], %[[S8]], %[[I]]
func.func @div_constants() -> (tensor<3xf32>, tensor<3xsi32>, tensor<ui8>, tensor<si8>, tensor<2xi32>) {
  %a = tile.constant dense<[1.0, -1.0, 0.0]> : tensor<3xf32>
  %z = tile.constant dense<0.0> : tensor<f32>
  %0 = tile.div %a, %z : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
  %b = tile.constant dense<[-7, 7, 8]> : tensor<3xsi32>
  %two = tile.constant dense<2> : tensor<si32>
  %1 = tile.div %b, %two : tensor<3xsi32>, tensor<si32> -> tensor<3xsi32>
  // 200 is 0xC8, which is -56 as si8.
  %u = tile.constant dense<200> : tensor<ui8>
  %u2 = tile.constant dense<2> : tensor<ui8>
  %2 = tile.div %u, %u2 : tensor<ui8>
  %s = tile.constant dense<-56> : tensor<si8>
  %s2 = tile.constant dense<2> : tensor<si8>
  %3 = tile.div %s, %s2 : tensor<si8>
  %i = tile.constant dense<[-9, 9]> : tensor<2xi32>
  %i2 = tile.constant dense<-4> : tensor<i32>
  %4 = tile.div %i, %i2 : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xsi32>, tensor<ui8>, tensor<si8>, tensor<2xi32>
}

// -----

// Not folded: integer division by zero and the overflowing MIN / -1.
// CHECK-LABEL: func.func @div_undefined
// CHECK: tile.div %{{.*}}, %{{.*}} : tensor<2xsi32>
// CHECK: tile.div %{{.*}}, %{{.*}} : tensor<si8>
func.func @div_undefined() -> (tensor<2xsi32>, tensor<si8>) {
  %a = tile.constant dense<[4, 5]> : tensor<2xsi32>
  %z = tile.constant dense<[1, 0]> : tensor<2xsi32>
  %0 = tile.div %a, %z : tensor<2xsi32>
  %min = tile.constant dense<-128> : tensor<si8>
  %m1 = tile.constant dense<-1> : tensor<si8>
  %1 = tile.div %min, %m1 : tensor<si8>
  return %0, %1 : tensor<2xsi32>, tensor<si8>
}

// -----

// Unsigned and signed max differ on the same bits; NaN does not fold.
// CHECK-LABEL: func.func @max_min_constants
// CHECK-DAG: %[[U:.*]] = tile.constant dense<[200, 100]> : tensor<2xui8>
// CHECK-DAG: %[[S:.*]] = tile.constant dense<100> : tensor<2xsi8>
// CHECK-DAG: %[[F:.*]] = tile.constant dense<[-1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-DAG: %[[NAN:.*]] = tile.constant dense<0x7FC00000> : tensor<f32>
// CHECK-DAG: %[[HALF:.*]] = tile.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[M:.*]] = tile.max %[[NAN]], %[[HALF]] : tensor<f32>
// CHECK: return %[[U]], %[[S]], %[[F]], %[[M]]
func.func @max_min_constants() -> (tensor<2xui8>, tensor<2xsi8>, tensor<2xf32>, tensor<f32>) {
  %u = tile.constant dense<[200, 3]> : tensor<2xui8>
  %u1 = tile.constant dense<100> : tensor<ui8>
  %0 = tile.max %u, %u1 : tensor<2xui8>, tensor<ui8> -> tensor<2xui8>
  %s = tile.constant dense<[-56, 3]> : tensor<2xsi8>
  %s1 = tile.constant dense<100> : tensor<si8>
  %1 = tile.max %s, %s1 : tensor<2xsi8>, tensor<si8> -> tensor<2xsi8>
  %f = tile.constant dense<[-1.0, 2.0]> : tensor<2xf32>
  %g = tile.constant dense<0.5> : tensor<f32>
  %2 = tile.min %f, %g : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
  %nan = tile.constant dense<0x7FC00000> : tensor<f32>
  %3 = tile.max %nan, %g : tensor<f32>
  return %0, %1, %2, %3 : tensor<2xui8>, tensor<2xsi8>, tensor<2xf32>, tensor<f32>
}

// -----

// Comparisons happen in the promoted type: signedness matters, NaN is
// unordered (only `ne` is true), and shapes broadcast.
// CHECK-LABEL: func.func @cmp_constants
// CHECK-DAG: %[[T:.*]] = tile.constant dense<true> : tensor<i1>
// CHECK-DAG: %[[F:.*]] = tile.constant dense<false> : tensor<i1>
// CHECK-DAG: %[[NE:.*]] = tile.constant dense<[true, true, false, true]> : tensor<4xi1>
// CHECK-DAG: %[[LE:.*]] = tile.constant dense<[true, false, true, false]> : tensor<4xi1>
// CHECK-DAG: %[[EQ:.*]] = tile.constant dense<{{\[}}[true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-DAG: %[[GE:.*]] = tile.constant dense<[false, true]> : tensor<2xi1>
// CHECK-NOT: tile.cmp
// CHECK: return %[[T]], %[[F]], %[[NE]], %[[LE]], %[[EQ]], %[[GE]], %[[T]]
func.func @cmp_constants() -> (tensor<i1>, tensor<i1>, tensor<4xi1>, tensor<4xi1>, tensor<2x2xi1>, tensor<2xi1>, tensor<i1>) {
  %u = tile.constant dense<200> : tensor<ui8>
  %u1 = tile.constant dense<100> : tensor<ui8>
  %0 = tile.cmp gt, %u, %u1 : tensor<ui8>, tensor<ui8> -> tensor<i1>
  %s = tile.constant dense<-56> : tensor<si8>
  %s1 = tile.constant dense<100> : tensor<si8>
  %1 = tile.cmp gt, %s, %s1 : tensor<si8>, tensor<si8> -> tensor<i1>
  %f = tile.constant dense<[1.0, 0x7FC00000, 2.0, 3.0]> : tensor<4xf32>
  %two = tile.constant dense<2> : tensor<si32>
  %2 = tile.cmp ne, %f, %two : tensor<4xf32>, tensor<si32> -> tensor<4xi1>
  %3 = tile.cmp le, %f, %two : tensor<4xf32>, tensor<si32> -> tensor<4xi1>
  %a = tile.constant dense<[[1], [2]]> : tensor<2x1xsi64>
  %b = tile.constant dense<[1, 2]> : tensor<2xsi64>
  %4 = tile.cmp eq, %a, %b : tensor<2x1xsi64>, tensor<2xsi64> -> tensor<2x2xi1>
  %5 = tile.cmp ge, %b, %two : tensor<2xsi64>, tensor<si32> -> tensor<2xi1>
  // si8 with ui8 promotes to ui8, where -56 is 200.
  %6 = tile.cmp lt, %u1, %s : tensor<ui8>, tensor<si8> -> tensor<i1>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<i1>, tensor<i1>, tensor<4xi1>, tensor<4xi1>, tensor<2x2xi1>, tensor<2xi1>, tensor<i1>
}

// -----

// Commutative ops move a constant operand to the right; with a signless and
// a signed operand the result type must survive the swap.
// CHECK-LABEL: func.func @commute_signless_signed
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK: %[[C:.*]] = tile.constant dense<[1, 2, 3, 4]> : tensor<4xsi32>
// CHECK: tile.add %[[X]], %[[C]] : tensor<4xi32>, tensor<4xsi32> -> tensor<4xsi32>
func.func @commute_signless_signed(%x: tensor<4xi32>) -> tensor<4xsi32> {
  %c = tile.constant dense<[1, 2, 3, 4]> : tensor<4xsi32>
  %0 = tile.add %c, %x : tensor<4xsi32>, tensor<4xi32> -> tensor<4xsi32>
  return %0 : tensor<4xsi32>
}

// -----

// CHECK-LABEL: func.func @cmp_not_folded
// CHECK: tile.cmp lt, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
func.func @cmp_not_folded(%x: tensor<4xf32>) -> tensor<4xi1> {
  %c = tile.constant dense<1.0> : tensor<f32>
  %0 = tile.cmp lt, %x, %c : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @neg
// CHECK-DAG: %[[I:.*]] = tile.constant dense<[-128, -5]> : tensor<2xsi8>
// CHECK-DAG: %[[F:.*]] = tile.constant dense<[-0.000000e+00, -1.500000e+00]> : tensor<2xf32>
// CHECK: %[[N:.*]] = tile.neg %{{.*}} : tensor<3xf64>
// CHECK: return %[[I]], %[[F]], %[[N]]
func.func @neg(%x: tensor<3xf64>) -> (tensor<2xsi8>, tensor<2xf32>, tensor<3xf64>) {
  %a = tile.constant dense<[-128, 5]> : tensor<2xsi8>
  %0 = tile.neg %a : tensor<2xsi8>
  %b = tile.constant dense<[0.0, 1.5]> : tensor<2xf32>
  %1 = tile.neg %b : tensor<2xf32>
  %2 = tile.neg %x : tensor<3xf64>
  return %0, %1, %2 : tensor<2xsi8>, tensor<2xf32>, tensor<3xf64>
}

// -----

// Float to integer truncates; integers extend by the source signedness and
// wrap; anything to i1 tests != 0; f64 to f16 rounds (65520 overflows to
// +inf).
// CHECK-LABEL: func.func @cast_constants
// CHECK-DAG: %[[A:.*]] = tile.constant dense<[2, -2]> : tensor<2xsi32>
// CHECK-DAG: %[[B:.*]] = tile.constant dense<65535> : tensor<ui16>
// CHECK-DAG: %[[C:.*]] = tile.constant dense<255> : tensor<si16>
// CHECK-DAG: %[[D:.*]] = tile.constant dense<[false, false, true]> : tensor<3xi1>
// CHECK-DAG: %[[E:.*]] = tile.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[F:.*]] = tile.constant dense<0x7C00> : tensor<f16>
// CHECK-DAG: %[[G:.*]] = tile.constant dense<44> : tensor<ui8>
// CHECK-NOT: tile.cast
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]], %[[G]]
func.func @cast_constants() -> (tensor<2xsi32>, tensor<ui16>, tensor<si16>, tensor<3xi1>, tensor<2xf32>, tensor<f16>, tensor<ui8>) {
  %f = tile.constant dense<[2.7, -2.7]> : tensor<2xf32>
  %0 = tile.cast %f : tensor<2xf32> -> tensor<2xsi32>
  %m1 = tile.constant dense<-1> : tensor<si8>
  %1 = tile.cast %m1 : tensor<si8> -> tensor<ui16>
  %u = tile.constant dense<255> : tensor<ui8>
  %2 = tile.cast %u : tensor<ui8> -> tensor<si16>
  %g = tile.constant dense<[0.0, -0.0, 0.5]> : tensor<3xf64>
  %3 = tile.cast %g : tensor<3xf64> -> tensor<3xi1>
  %b = tile.constant dense<[true, false]> : tensor<2xi1>
  %4 = tile.cast %b : tensor<2xi1> -> tensor<2xf32>
  %h = tile.constant dense<65520.0> : tensor<f64>
  %5 = tile.cast %h : tensor<f64> -> tensor<f16>
  %i = tile.constant dense<300> : tensor<i32>
  %6 = tile.cast %i : tensor<i32> -> tensor<ui8>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xsi32>, tensor<ui16>, tensor<si16>, tensor<3xi1>, tensor<2xf32>, tensor<f16>, tensor<ui8>
}

// -----

// A cast to the same type is the operand. Not folded: out-of-range and NaN
// float-to-integer casts (undefined), and real conversions of non-constants.
// CHECK-LABEL: func.func @cast_not_folded
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[A:.*]] = tile.cast %{{.*}} : tensor<f32> -> tensor<si8>
// CHECK: %[[B:.*]] = tile.cast %{{.*}} : tensor<f32> -> tensor<ui32>
// CHECK: %[[C:.*]] = tile.cast %[[X]] : tensor<4xf32> -> tensor<4xf16>
// CHECK: return %[[A]], %[[B]], %[[X]], %[[C]]
func.func @cast_not_folded(%x: tensor<4xf32>) -> (tensor<si8>, tensor<ui32>, tensor<4xf32>, tensor<4xf16>) {
  %big = tile.constant dense<300.0> : tensor<f32>
  %0 = tile.cast %big : tensor<f32> -> tensor<si8>
  %nan = tile.constant dense<0x7FC00000> : tensor<f32>
  %1 = tile.cast %nan : tensor<f32> -> tensor<ui32>
  %2 = tile.cast %x : tensor<4xf32> -> tensor<4xf32>
  %3 = tile.cast %x : tensor<4xf32> -> tensor<4xf16>
  return %0, %1, %2, %3 : tensor<si8>, tensor<ui32>, tensor<4xf32>, tensor<4xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Identities
//===----------------------------------------------------------------------===//

// Exact identities only: x + (-0.0), x - (+0.0), integer zeros.
// CHECK-LABEL: func.func @add_sub_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<4xsi32>)
// CHECK-NOT: tile.add
// CHECK-NOT: tile.sub
// CHECK: return %[[X]], %[[X]], %[[S]], %[[X]]
func.func @add_sub_identity(%x: tensor<4xf32>, %s: tensor<4xsi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xsi32>, tensor<4xf32>) {
  %nzs = tile.constant dense<-0.0> : tensor<f32>
  %0 = tile.add %x, %nzs : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %nz = tile.constant dense<-0.0> : tensor<4xf32>
  %1 = tile.add %nz, %x : tensor<4xf32>
  // si32 with signless i32 keeps si32.
  %iz = tile.constant dense<0> : tensor<i32>
  %2 = tile.add %s, %iz : tensor<4xsi32>, tensor<i32> -> tensor<4xsi32>
  %z = tile.constant dense<0.0> : tensor<f32>
  %3 = tile.sub %x, %z : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xsi32>, tensor<4xf32>
}

// -----

// Not folded: the zero broadcasts `x` to a larger shape, or promotes it to
// another element type; a nonzero constant; `0 - x`; float `x + (+0.0)`
// (-0.0 + 0.0 is +0.0) and `x - (-0.0)`.
// CHECK-LABEL: func.func @add_sub_not_identity
// CHECK: tile.add %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
// CHECK: tile.add %{{.*}}, %{{.*}} : tensor<4xsi32>, tensor<f32> -> tensor<4xf32>
// CHECK: tile.add %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: tile.sub %{{.*}}, %{{.*}} : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: tile.add %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: tile.sub %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
func.func @add_sub_not_identity(%x: tensor<4xf32>, %s: tensor<4xsi32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = tile.constant dense<0.0> : tensor<2x4xf32>
  %0 = tile.add %x, %z : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %fz = tile.constant dense<0.0> : tensor<f32>
  %1 = tile.add %s, %fz : tensor<4xsi32>, tensor<f32> -> tensor<4xf32>
  %one = tile.constant dense<1.0> : tensor<f32>
  %2 = tile.add %x, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %3 = tile.sub %fz, %x : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  %4 = tile.add %x, %fz : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %nz = tile.constant dense<-0.0> : tensor<f32>
  %5 = tile.sub %x, %nz : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mul_div_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[U:.*]]: tensor<2xui8>)
// CHECK-NOT: tile.mul
// CHECK-NOT: tile.div
// CHECK: return %[[X]], %[[U]], %[[X]], %[[U]]
func.func @mul_div_identity(%x: tensor<4xf32>, %u: tensor<2xui8>) -> (tensor<4xf32>, tensor<2xui8>, tensor<4xf32>, tensor<2xui8>) {
  %one = tile.constant dense<1.0> : tensor<f32>
  %0 = tile.mul %x, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %uone = tile.constant dense<1> : tensor<2xui8>
  %1 = tile.mul %uone, %u : tensor<2xui8>
  %2 = tile.div %x, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %3 = tile.div %u, %uone : tensor<2xui8>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<2xui8>, tensor<4xf32>, tensor<2xui8>
}

// -----

// Not folded: the one promotes `x` to f64; a factor of 2; `1 / x`.
// CHECK-LABEL: func.func @mul_div_not_identity
// CHECK: tile.mul %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f64> -> tensor<4xf64>
// CHECK: tile.mul %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: tile.div %{{.*}}, %{{.*}} : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
func.func @mul_div_not_identity(%x: tensor<4xf32>) -> (tensor<4xf64>, tensor<4xf32>, tensor<4xf32>) {
  %one = tile.constant dense<1.0> : tensor<f64>
  %0 = tile.mul %x, %one : tensor<4xf32>, tensor<f64> -> tensor<4xf64>
  %two = tile.constant dense<2.0> : tensor<f32>
  %1 = tile.mul %x, %two : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %f1 = tile.constant dense<1.0> : tensor<f32>
  %2 = tile.div %f1, %x : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf64>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @max_min_same
// CHECK-SAME: (%[[X:.*]]: tensor<4xsi16>, %[[Y:.*]]: tensor<4xsi16>)
// CHECK: %[[M:.*]] = tile.max %[[X]], %[[Y]] : tensor<4xsi16>
// CHECK-NOT: tile.min
// CHECK: return %[[X]], %[[X]], %[[M]]
func.func @max_min_same(%x: tensor<4xsi16>, %y: tensor<4xsi16>) -> (tensor<4xsi16>, tensor<4xsi16>, tensor<4xsi16>) {
  %0 = tile.max %x, %x : tensor<4xsi16>
  %1 = tile.min %x, %x : tensor<4xsi16>
  %2 = tile.max %x, %y : tensor<4xsi16>
  return %0, %1, %2 : tensor<4xsi16>, tensor<4xsi16>, tensor<4xsi16>
}

// -----

//===----------------------------------------------------------------------===//
// Shape ops and select
//===----------------------------------------------------------------------===//

// Identity reshape; reshape of reshape becomes one reshape (or none when it
// comes back to the original type); reshape of a constant. A real reshape
// of an argument stays.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-DAG: %[[C:.*]] = tile.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xsi8>
// CHECK-DAG: %[[R:.*]] = tile.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-DAG: %[[T:.*]] = tile.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: return %[[X]], %[[T]], %[[X]], %[[R]], %[[C]]
func.func @reshape(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xsi8>) {
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %r = tile.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = tile.reshape %r : tensor<6xf32> -> tensor<3x2xf32>
  %2 = tile.reshape %r : tensor<6xf32> -> tensor<2x3xf32>
  %c = tile.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xsi8>
  %3 = tile.reshape %c : tensor<2x3xsi8> -> tensor<3x2xsi8>
  return %0, %1, %2, %r, %3 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xsi8>
}

// -----

// A splat condition picks a value, and equal values need no condition, when
// the value already has the result type. Not folded: the value would need a
// broadcast; non-splat or non-constant conditions.
// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<f32>, %[[C:.*]]: tensor<4xi1>)
// CHECK: %[[R3:.*]] = tile.select %{{.*}}, %[[A]], %[[S]] : tensor<f32>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[R4:.*]] = tile.select %{{.*}}, %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[R5:.*]] = tile.select %[[C]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: return %[[A]], %[[B]], %[[A]], %[[R3]], %[[R4]], %[[R5]]
func.func @select(%a: tensor<4xf32>, %b: tensor<4xf32>, %s: tensor<f32>, %c: tensor<4xi1>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t = tile.constant dense<true> : tensor<4xi1>
  %0 = tile.select %t, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %f = tile.constant dense<0.0> : tensor<f32>
  %1 = tile.select %f, %a, %b : tensor<f32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = tile.select %c, %a, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = tile.select %f, %a, %s : tensor<f32>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %m = tile.constant dense<[true, false, true, false]> : tensor<4xi1>
  %4 = tile.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %5 = tile.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tile.contract
//===----------------------------------------------------------------------===//

// A splat init of any shape becomes a rank-0 constant. Not changed: a
// non-splat constant init, a non-constant init.
// CHECK-LABEL: func.func @contract_splat_init
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[R:.*]]: tensor<4x16xf32>)
// CHECK-DAG: %[[ROW:.*]] = tile.constant dense<{{\[}}[1.000000e+00], [2.000000e+00], [3.000000e+00], [4.000000e+00]]> : tensor<4x1xf32>
// CHECK-DAG: %[[ZERO:.*]] = tile.constant dense<0.000000e+00> : tensor<f32>
// CHECK: tile.contract add, mul, %[[ZERO]], %[[A]], %[[B]] {{.*}} : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: tile.contract add, mul, %[[ROW]], %[[A]], %[[B]] {{.*}} : tensor<4x1xf32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: tile.contract add, mul, %[[R]], %[[A]], %[[B]] {{.*}} : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
func.func @contract_splat_init(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>, %r: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = tile.constant dense<0.0> : tensor<4x16xf32>
  %0 = tile.contract add, mul, %zero, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %row = tile.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %1 = tile.contract add, mul, %row, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<4x1xf32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %2 = tile.contract add, mul, %r, %A, %B {sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Identity contractions: assign with any init, or an init that is the
// aggregation's identity (0 for add, 1 for mul, -inf / the smallest integer
// for max, +inf / the largest integer for min), also with recorded bounds
// that cover the tensor.
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @contract_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<4x8xf32>, %[[S:.*]]: tensor<4x8xsi32>, %[[U:.*]]: tensor<4x8xui8>)
// CHECK-NOT: tile.contract
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[S]], %[[U]], %[[X]]
func.func @contract_identity(%x: tensor<4x8xf32>, %i: tensor<4x8xf32>, %s: tensor<4x8xsi32>, %u: tensor<4x8xui8>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xsi32>, tensor<4x8xui8>, tensor<4x8xf32>) {
  %0 = tile.contract assign, none, %i, %x {sink = #id, srcs = [#id]} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %zero = tile.constant dense<0.0> : tensor<4x8xf32>
  %1 = tile.contract add, none, %zero, %x {sink = #id, srcs = [#id]} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %one = tile.constant dense<1.0> : tensor<f32>
  %2 = tile.contract mul, none, %one, %x {sink = #id, srcs = [#id]} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %ninf = tile.constant dense<0xFF800000> : tensor<f32>
  %3 = tile.contract max, none, %ninf, %x {sink = #id, srcs = [#id]} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %pinf = tile.constant dense<0x7F800000> : tensor<f32>
  %4 = tile.contract min, none, %pinf, %x {sink = #id, srcs = [#id]} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %smin = tile.constant dense<-2147483648> : tensor<si32>
  %5 = tile.contract max, none, %smin, %s {sink = #id, srcs = [#id]} : tensor<si32>, tensor<4x8xsi32> -> tensor<4x8xsi32>
  %umax = tile.constant dense<255> : tensor<ui8>
  %6 = tile.contract min, none, %umax, %u {sink = #id, srcs = [#id]} : tensor<ui8>, tensor<4x8xui8> -> tensor<4x8xui8>
  %7 = tile.contract assign, none, %i, %x {sink = #id, srcs = [#id], lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 3, 7>}
       : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xsi32>, tensor<4x8xui8>, tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @contract_not_identity
// CHECK-COUNT-10: tile.contract
// CHECK: return
func.func @contract_not_identity(%x: tensor<4x8xf32>, %sq: tensor<4x4xf32>, %h: tensor<4x8xf16>, %s: tensor<4x8xsi32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xsi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %one = tile.constant dense<1.0> : tensor<f32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  // Init 1 is not the identity of add.
  %0 = tile.contract add, none, %one, %x {sink = #id, srcs = [#id]} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // The lowest finite float is not the identity of max (-inf is).
  %lowest = tile.constant dense<-3.40282347E+38> : tensor<f32>
  %1 = tile.contract max, none, %lowest, %x {sink = #id, srcs = [#id]} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // A transpose.
  %2 = tile.contract assign, none, %zero, %sq {sink = #id, srcs = [affine_map<(i, j) -> (j, i)>]} : tensor<f32>, tensor<4x4xf32> -> tensor<4x4xf32>
  // Constraints skip elements.
  %3 = tile.contract assign, none, %zero, %sq {cons = affine_set<(i, j) : (i - j >= 0)>, sink = #id, srcs = [#id]}
       : tensor<f32>, tensor<4x4xf32> -> tensor<4x4xf32>
  // The input has another type: this is a conversion.
  %4 = tile.contract assign, none, %zero, %h {sink = #id, srcs = [#id]} : tensor<f32>, tensor<4x8xf16> -> tensor<4x8xf32>
  // A combination.
  %5 = tile.contract add, mul, %zero, %x, %x {sink = #id, srcs = [#id, #id]} : tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // 0 is not the identity of a signed max.
  %szero = tile.constant dense<0> : tensor<si32>
  %6 = tile.contract max, none, %szero, %s {sink = #id, srcs = [#id]} : tensor<si32>, tensor<4x8xsi32> -> tensor<4x8xsi32>
  // Recorded bounds narrower than the tensor.
  %7 = tile.contract assign, none, %zero, %x {sink = #id, srcs = [#id], lower_bounds = array<i64: 0, 0>, upper_bounds = array<i64: 1, 7>}
       : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // A non-constant init for add.
  %8 = tile.contract add, none, %x, %x {sink = #id, srcs = [#id]} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // A shifted source: the last column keeps the init.
  %9 = tile.contract assign, none, %zero, %x {sink = #id, srcs = [affine_map<(i, j) -> (i, j + 1)>]} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xsi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
