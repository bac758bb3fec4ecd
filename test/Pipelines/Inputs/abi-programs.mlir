// Hand-written functions in the ABI form of docs/ABI.md section 1 (what
// convert-tile-to-affine produces), compiled and run by cpu-compile.test.
// call-entry fills input k element j with j + 1 + 10 * k.

memref.global "private" constant @offsets : memref<3xf32> = dense<[0.5, 0.25, 0.125]>

// result0 = a + b (broadcast) + offsets; result1 = floor(erf(a / 2) * 1000)
// (erf is a libm call); result2 = sqrt(a[1][0]) = 2.
func.func @add(%a: memref<2x3xf32>, %b: memref<3xf32>, %out: memref<2x3xf32>,
               %erf: memref<2x3xi32>, %root: memref<f32>)
    attributes {plaidml.entry,
                plaidml.inputs = [tensor<2x3xf32>, tensor<3xf32>],
                plaidml.outputs = [tensor<2x3xf32>, tensor<2x3xsi32>, tensor<f32>]} {
  %offsets = memref.get_global @offsets : memref<3xf32>
  %half = arith.constant 0.5 : f32
  %thousand = arith.constant 1000.0 : f32
  affine.parallel (%i, %j) = (0, 0) to (2, 3) {
    %x = affine.load %a[%i, %j] : memref<2x3xf32>
    %y = affine.load %b[%j] : memref<3xf32>
    %z = affine.load %offsets[%j] : memref<3xf32>
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    affine.store %t, %out[%i, %j] : memref<2x3xf32>
    %h = arith.mulf %x, %half : f32
    %e = math.erf %h : f32
    %m = arith.mulf %e, %thousand : f32
    %f = math.floor %m : f32
    %n = arith.fptosi %f : f32 to i32
    affine.store %n, %erf[%i, %j] : memref<2x3xi32>
  }
  %v = affine.load %a[1, 0] : memref<2x3xf32>
  %r = math.sqrt %v : f32
  affine.store %r, %root[] : memref<f32>
  return
}

// result0 = a x b through a temporary buffer and a parallel reduction.
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf32>)
    attributes {plaidml.entry,
                plaidml.inputs = [tensor<2x3xf32>, tensor<3x2xf32>],
                plaidml.outputs = [tensor<2x2xf32>]} {
  %tmp = memref.alloc() : memref<2x2xf32>
  affine.parallel (%i, %j) = (0, 0) to (2, 2) {
    %sum = affine.parallel (%k) = (0) to (3) reduce ("addf") -> f32 {
      %x = affine.load %a[%i, %k] : memref<2x3xf32>
      %y = affine.load %b[%k, %j] : memref<3x2xf32>
      %p = arith.mulf %x, %y : f32
      affine.yield %p : f32
    }
    affine.store %sum, %tmp[%i, %j] : memref<2x2xf32>
  }
  memref.copy %tmp, %c : memref<2x2xf32> to memref<2x2xf32>
  memref.dealloc %tmp : memref<2x2xf32>
  return
}

// Signed and unsigned integers, booleans and a guarded (affine.if) store:
// result0 = a > 2; result1 = the sum of a as ui8 (wrapping); result2 = a
// with its diagonal zeroed (the rest copied).
func.func @ints(%a: memref<2x2xi32>, %gt: memref<2x2xi1>, %sum: memref<i8>,
                %offdiag: memref<2x2xi32>)
    attributes {plaidml.entry,
                plaidml.inputs = [tensor<2x2xsi32>],
                plaidml.outputs = [tensor<2x2xi1>, tensor<ui8>, tensor<2x2xsi32>]} {
  %two = arith.constant 2 : i32
  %zero8 = arith.constant 0 : i8
  %zero = arith.constant 0 : i32
  affine.store %zero8, %sum[] : memref<i8>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 2 {
      %x = affine.load %a[%i, %j] : memref<2x2xi32>
      %g = arith.cmpi sgt, %x, %two : i32
      affine.store %g, %gt[%i, %j] : memref<2x2xi1>
      %acc = affine.load %sum[] : memref<i8>
      %x8 = arith.trunci %x : i32 to i8
      %next = arith.addi %acc, %x8 : i8
      affine.store %next, %sum[] : memref<i8>
      affine.if affine_set<(d0, d1) : (d0 - d1 == 0)>(%i, %j) {
        affine.store %zero, %offdiag[%i, %j] : memref<2x2xi32>
      } else {
        affine.store %x, %offdiag[%i, %j] : memref<2x2xi32>
      }
    }
  }
  return
}

// Half precision: result0 = bf16(a * 3 + exp(0 * a)) = a * 3 + 1. On a CPU
// without native f16/bf16 conversions these are compiler-rt calls.
func.func @half(%a: memref<4xf16>, %out: memref<4xbf16>)
    attributes {plaidml.entry,
                plaidml.inputs = [tensor<4xf16>],
                plaidml.outputs = [tensor<4xbf16>]} {
  %three = arith.constant 3.0 : f16
  %zero = arith.constant 0.0 : f16
  affine.for %i = 0 to 4 {
    %x = affine.load %a[%i] : memref<4xf16>
    %y = arith.mulf %x, %three : f16
    %z = arith.mulf %x, %zero : f16
    %e = math.exp %z : f16
    %s = arith.addf %y, %e : f16
    %w = arith.extf %s : f16 to f32
    %b = arith.truncf %w : f32 to bf16
    affine.store %b, %out[%i] : memref<4xbf16>
  }
  return
}
