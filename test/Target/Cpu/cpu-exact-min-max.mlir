// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-exact-min-max | FileCheck %s

// The max and min of convert-tile-to-affine, zeros ordered by hand
// (test/Conversion/TileToAffine shows them made), become the plain
// maximumf and minimumf, which LLVM lowers to IEEE maximum and minimum;
// the comparisons, the sums and the negations go.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[MIN:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: return %[[MAX]], %[[MIN]] : f32, f32
func.func @scalar(%x: f32, %y: f32) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %m = arith.maximumf %x, %y : f32
  %zx = arith.cmpf oeq, %x, %zero : f32
  %zy = arith.cmpf oeq, %y, %zero : f32
  %zz = arith.andi %zx, %zy : i1
  %s = arith.addf %x, %y : f32
  %r = arith.select %zz, %s, %m : f32
  %n = arith.minimumf %x, %y : f32
  %nx = arith.negf %x : f32
  %ny = arith.negf %y : f32
  %t = arith.addf %nx, %ny : f32
  %u = arith.negf %t : f32
  %q = arith.select %zz, %u, %n : f32
  return %r, %q : f32, f32
}

// -----

// A max-pool's reduction as convert-tile-to-affine writes it (the
// accumulator and the element, either order in the tests), in its loop.
// CHECK-LABEL: func.func @pool
// CHECK: affine.for
// CHECK-NEXT: affine.load
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: affine.yield %[[M]] : f32
func.func @pool(%in: memref<8xf32>) -> f32 {
  %init = arith.constant 0xFF800000 : f32
  %r = affine.for %i = 0 to 8 iter_args(%acc = %init) -> (f32) {
    %v = affine.load %in[%i] : memref<8xf32>
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %acc, %v : f32
    %za = arith.cmpf oeq, %acc, %zero : f32
    %zv = arith.cmpf oeq, %v, %zero : f32
    %zz = arith.andi %zv, %za : i1
    %s = arith.addf %v, %acc : f32
    %r = arith.select %zz, %s, %m : f32
    affine.yield %r : f32
  }
  return %r : f32
}

// -----

// Vectors: the zero is a splat.
// CHECK-LABEL: func.func @vectors
// CHECK-NEXT: %[[M:.*]] = arith.maximumf
// CHECK-NEXT: return %[[M]]
func.func @vectors(%x: vector<8xf32>, %y: vector<8xf32>) -> vector<8xf32> {
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %m = arith.maximumf %x, %y : vector<8xf32>
  %zx = arith.cmpf oeq, %x, %zero : vector<8xf32>
  %zy = arith.cmpf oeq, %y, %zero : vector<8xf32>
  %zz = arith.andi %zx, %zy : vector<8xi1>
  %s = arith.addf %x, %y : vector<8xf32>
  %r = arith.select %zz, %s, %m : vector<8xi1>, vector<8xf32>
  return %r : vector<8xf32>
}

// -----

// Anything else stays: the sum of other values, a test against 1.0, a
// max with the sum (the min's combination) or a select on another
// condition.
// CHECK-LABEL: func.func @others
// CHECK-COUNT-4: arith.select
func.func @others(%x: f32, %y: f32, %w: f32, %c: i1) -> (f32, f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = arith.maximumf %x, %y : f32
  %zx = arith.cmpf oeq, %x, %zero : f32
  %zy = arith.cmpf oeq, %y, %zero : f32
  %zz = arith.andi %zx, %zy : i1
  %other = arith.addf %x, %w : f32
  %a = arith.select %zz, %other, %m : f32
  %ox = arith.cmpf oeq, %x, %one : f32
  %oz = arith.andi %ox, %zy : i1
  %s = arith.addf %x, %y : f32
  %b = arith.select %oz, %s, %m : f32
  %nx = arith.negf %x : f32
  %ny = arith.negf %y : f32
  %t = arith.addf %nx, %ny : f32
  %u = arith.negf %t : f32
  %d = arith.select %zz, %u, %m : f32
  %e = arith.select %c, %s, %m : f32
  return %a, %b, %d, %e : f32, f32, f32, f32
}
