// RUN: plaidml-opt %s -convert-tile-to-affine -split-input-file | FileCheck %s

// Signed and unsigned integers pick different arith ops; the signedness
// comes from the Tile types (the memrefs are signless). Integer division
// never traps: a zero divisor and INT_MIN / -1 divide by 1 instead.

// CHECK-LABEL: func.func @signedness
// CHECK-SAME: (%[[A:[a-z0-9]+]]: memref<4xi32>, %[[B:[a-z0-9]+]]: memref<4xi32>, %[[UA:[a-z0-9]+]]: memref<4xi32>, %[[UB:[a-z0-9]+]]: memref<4xi32>
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (4) {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[A]][%[[I]]] : memref<4xi32>
// CHECK-NEXT: %[[Y:.*]] = affine.load %[[B]][%[[I]]] : memref<4xi32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[BZ:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK-DAG: %[[AMIN:.*]] = arith.cmpi eq, %[[X]], %[[MIN]] : i32
// CHECK-DAG: %[[BM1:.*]] = arith.cmpi eq, %[[Y]], %[[M1]] : i32
// CHECK: %[[OVF:.*]] = arith.andi %[[AMIN]], %[[BM1]] : i1
// CHECK-NEXT: %[[BAD:.*]] = arith.ori %[[BZ]], %[[OVF]] : i1
// CHECK-NEXT: %[[DIV:.*]] = arith.select %[[BAD]], %[[ONE]], %[[Y]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[X]], %[[DIV]] : i32
// CHECK: affine.load %[[UA]]
// CHECK: %[[UBZ:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[UDIV:.*]] = arith.select %[[UBZ]], %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.divui %{{.*}}, %[[UDIV]] : i32
// CHECK: arith.remsi
// CHECK: arith.remui
// CHECK: arith.shrsi
// CHECK: arith.shrui
// CHECK: arith.maxsi
// CHECK: arith.maxui
// CHECK: arith.minsi
// CHECK: arith.minui
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi ult
func.func @signedness(%a: tensor<4xsi32>, %b: tensor<4xsi32>, %ua: tensor<4xui32>, %ub: tensor<4xui32>)
    -> (tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>,
        tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>, tensor<4xi1>, tensor<4xi1>) {
  %0 = tile.div %a, %b : tensor<4xsi32>
  %1 = tile.div %ua, %ub : tensor<4xui32>
  %2 = tile.mod %a, %b : tensor<4xsi32>
  %3 = tile.mod %ua, %ub : tensor<4xui32>
  %4 = tile.shr %a, %b : tensor<4xsi32>
  %5 = tile.shr %ua, %ub : tensor<4xui32>
  %6 = tile.max %a, %b : tensor<4xsi32>
  %7 = tile.max %ua, %ub : tensor<4xui32>
  %8 = tile.min %a, %b : tensor<4xsi32>
  %9 = tile.min %ua, %ub : tensor<4xui32>
  %10 = tile.cmp lt, %a, %b : tensor<4xsi32>, tensor<4xsi32> -> tensor<4xi1>
  %11 = tile.cmp lt, %ua, %ub : tensor<4xui32>, tensor<4xui32> -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>, tensor<4xsi32>, tensor<4xui32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Mixed operands are converted to the promoted type first (si8 -> f32 by
// sitofp, ui8 -> f32 by uitofp, si8 -> si32 by extsi, ui8 -> si32 by extui),
// and read with broadcasting maps: a size-1 dim reads index 0, a missing
// leading dim is dropped.

// CHECK-LABEL: func.func @promote_and_broadcast
// CHECK-SAME: (%[[A:[a-z0-9]+]]: memref<2x3xf32>, %[[S:[a-z0-9]+]]: memref<3xi8>, %[[U:[a-z0-9]+]]: memref<2x1xi8>
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT: %[[Y:.*]] = affine.load %[[S]][%[[J]]] : memref<3xi8>
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[Y]] : i8 to f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[X]], %[[F]] : f32
// CHECK: affine.parallel (%[[I2:.*]], %[[J2:.*]]) = (0, 0) to (2, 3) {
// CHECK-NEXT: affine.load %[[A]][%[[I2]], %[[J2]]]
// CHECK-NEXT: %[[Z:.*]] = affine.load %[[U]][%[[I2]], 0] : memref<2x1xi8>
// CHECK-NEXT: arith.uitofp %[[Z]] : i8 to f32
// CHECK: affine.parallel
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.muli
func.func @promote_and_broadcast(%a: tensor<2x3xf32>, %s: tensor<3xsi8>, %u: tensor<2x1xui8>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xsi32>, tensor<2x1xsi32>) {
  %0 = tile.add %a, %s : tensor<2x3xf32>, tensor<3xsi8> -> tensor<2x3xf32>
  %1 = tile.sub %a, %u : tensor<2x3xf32>, tensor<2x1xui8> -> tensor<2x3xf32>
  %c = tile.constant dense<7> : tensor<si32>
  %2 = tile.mul %s, %c : tensor<3xsi8>, tensor<si32> -> tensor<3xsi32>
  %3 = tile.mul %u, %c : tensor<2x1xui8>, tensor<si32> -> tensor<2x1xsi32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xsi32>, tensor<2x1xsi32>
}

// -----

// Float to integer casts saturate: fptosi only sees in-range values, the
// bounds are selected afterwards, NaN gives 0.

// CHECK-LABEL: func.func @saturating_cast
// CHECK: %[[X:.*]] = affine.load %{{.*}} : memref<4xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK-DAG: %[[LO:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK-DAG: %[[GTLO:.*]] = arith.cmpf ogt, %[[X]], %[[LO]] : f32
// CHECK-DAG: %[[LTHI:.*]] = arith.cmpf olt, %[[X]], %[[HI]] : f32
// CHECK: %[[IN:.*]] = arith.andi %[[GTLO]], %[[LTHI]] : i1
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[IN]], %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[CONV:.*]] = arith.fptosi %[[SAFE]] : f32 to i32
// CHECK-DAG: %[[IMAX:.*]] = arith.constant 2147483647 : i32
// CHECK-DAG: %[[IMIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[LE:.*]] = arith.cmpf ole, %[[X]], %[[LO]] : f32
// CHECK: %[[LOW:.*]] = arith.select %[[LE]], %[[IMIN]], %[[CONV]] : i32
// CHECK-NEXT: %[[GE:.*]] = arith.cmpf oge, %[[X]], %[[HI]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[GE]], %[[IMAX]], %[[LOW]] : i32
// CHECK-NEXT: affine.store %[[R]]
// CHECK: arith.fptoui %{{.*}} : f32 to i8
// CHECK: %[[NZ:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: affine.store %[[NZ]], %{{.*}} : memref<4xi1>
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.truncf %[[W]] : f32 to bf16
func.func @saturating_cast(%f: tensor<4xf32>, %i: tensor<4xsi32>)
    -> (tensor<4xsi32>, tensor<4xui8>, tensor<4xi1>, tensor<4xi1>, tensor<4xui8>, tensor<4xsi32>, tensor<4xbf16>) {
  %0 = tile.cast %f : tensor<4xf32> -> tensor<4xsi32>
  %1 = tile.cast %f : tensor<4xf32> -> tensor<4xui8>
  %2 = tile.cast %f : tensor<4xf32> -> tensor<4xi1>
  %3 = tile.cast %i : tensor<4xsi32> -> tensor<4xi1>
  %4 = tile.cast %i : tensor<4xsi32> -> tensor<4xui8>
  %5 = tile.cast %3 : tensor<4xi1> -> tensor<4xsi32>
  %h = tile.cast %f : tensor<4xf32> -> tensor<4xf16>
  %6 = tile.cast %h : tensor<4xf16> -> tensor<4xbf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xsi32>, tensor<4xui8>, tensor<4xi1>, tensor<4xi1>, tensor<4xui8>, tensor<4xsi32>, tensor<4xbf16>
}

// -----

// Float comparisons are ordered except `ne`; select and the logical ops test
// truthiness (`!= 0`, NaN is true) in each operand's own type.

// CHECK-LABEL: func.func @predicates
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf ole
// CHECK: %[[C:.*]] = affine.load %{{.*}} : memref<3xi32>
// CHECK: %[[T:.*]] = arith.cmpi ne, %[[C]], %{{.*}} : i32
// CHECK: arith.select %[[T]], %{{.*}}, %{{.*}} : f32
// CHECK: %[[L:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[ZR:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[R:.*]] = arith.cmpi ne, %{{.*}}, %[[ZR]] : i32
// CHECK-NEXT: arith.andi %[[L]], %[[R]] : i1
// CHECK: arith.ori %{{.*}}, %{{.*}} : i1
// CHECK: arith.xori %{{.*}}, %{{.*}} : i1
// CHECK: %[[N:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: arith.xori %[[N]], %[[TRUE]] : i1
func.func @predicates(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xsi32>)
    -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %0 = tile.cmp eq, %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %1 = tile.cmp ne, %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %2 = tile.cmp le, %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %3 = tile.select %c, %a, %b : tensor<3xsi32>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %4 = tile.logical_and %a, %c : tensor<3xf32>, tensor<3xsi32> -> tensor<3xi1>
  %5 = tile.logical_or %a, %c : tensor<3xf32>, tensor<3xsi32> -> tensor<3xi1>
  %6 = tile.logical_xor %a, %c : tensor<3xf32>, tensor<3xsi32> -> tensor<3xi1>
  %7 = tile.logical_not %a : tensor<3xf32> -> tensor<3xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// Unary ops: relu keeps NaN and -0.0 (select on olt, not maximumf), round is
// math.round (half away from zero), sigmoid is 1 / (1 + exp(-x)), integer
// abs and neg wrap, transcendental functions on f16 are computed in f32.

// CHECK-LABEL: func.func @unary
// CHECK: %[[X:.*]] = affine.load
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-NEXT: arith.select %[[NEG]], %[[Z]], %[[X]] : f32
// CHECK: math.round %{{.*}} : f32
// CHECK: %[[S:.*]] = affine.load
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[MS:.*]] = arith.negf %[[S]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[MS]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: arith.divf %[[ONE]], %[[D]] : f32
// CHECK: %[[I:.*]] = affine.load %{{.*}} : memref<3xi32>
// CHECK-NEXT: %[[IZ:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[IZ]] : i32
// CHECK-NEXT: %[[NI:.*]] = arith.subi %[[IZ]], %[[I]] : i32
// CHECK-NEXT: arith.select %[[LT]], %[[NI]], %[[I]] : i32
// CHECK: %[[H:.*]] = affine.load %{{.*}} : memref<3xf16>
// CHECK-NEXT: %[[HW:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT: %[[HE:.*]] = math.tanh %[[HW]] : f32
// CHECK-NEXT: arith.truncf %[[HE]] : f32 to f16
// CHECK: %[[B:.*]] = affine.load %{{.*}} : memref<3xi32>
// CHECK-NEXT: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: arith.xori %[[B]], %[[ALL]] : i32
// CHECK: affine.load %{{.*}} : memref<3xi32>
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: arith.maxsi
func.func @unary(%x: tensor<3xf32>, %i: tensor<3xsi32>, %h: tensor<3xf16>)
    -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xsi32>, tensor<3xf16>, tensor<3xsi32>, tensor<3xsi32>) {
  %0 = tile.relu %x : tensor<3xf32>
  %1 = tile.round %x : tensor<3xf32>
  %2 = tile.sigmoid %x : tensor<3xf32>
  %3 = tile.abs %i : tensor<3xsi32>
  %4 = tile.tanh %h : tensor<3xf16>
  %5 = tile.bit_not %i : tensor<3xsi32>
  %6 = tile.relu %i : tensor<3xsi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xsi32>, tensor<3xf16>, tensor<3xsi32>, tensor<3xsi32>
}

// -----

// Integer pow squares and multiplies over the exponent's bits; a negative
// signed exponent gives 1, +-1 or 0. Float pow is math.powf.

// CHECK-LABEL: func.func @pow
// CHECK: %[[LOOP:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32) {
// CHECK: arith.muli
// CHECK: scf.yield
// CHECK: %[[NEGEXP:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.select %[[NEGEXP]], %{{.*}}, %[[LOOP]]#0 : i32
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
func.func @pow(%a: tensor<3xsi32>, %b: tensor<3xsi32>, %x: tensor<3xf32>) -> (tensor<3xsi32>, tensor<3xf32>) {
  %0 = tile.pow %a, %b : tensor<3xsi32>
  %1 = tile.pow %x, %x : tensor<3xf32>
  return %0, %1 : tensor<3xsi32>, tensor<3xf32>
}

// -----

// f64 -> bf16 rounds once: toward zero to f32 with a sticky last bit (round
// to odd), then to bf16; a plain truncf would round twice through f32.

// CHECK-LABEL: func.func @f64_to_bf16
// CHECK: %[[X:.*]] = affine.load %{{.*}} : memref<2xf64>
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-NEXT: %[[B:.*]] = arith.extf %[[N]] : f32 to f64
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[N]] : f32 to i32
// CHECK: %[[INEXACT:.*]] = arith.cmpf une, %[[B]], %[[X]] : f64
// CHECK: %[[ODD:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: arith.truncf %[[ODD]] : f32 to bf16
func.func @f64_to_bf16(%x: tensor<2xf64>) -> tensor<2xbf16> {
  %0 = tile.cast %x : tensor<2xf64> -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
