// Hand-written functions in the ABI form of docs/ABI.md section 1 for the
// OpenCL pipeline tests (opencl-pipeline.mlir, opencl-execute.test): the
// integer, bool and float semantics the OpenCL C translation has to spell
// out, and an scf.while inside a kernel.

// i32 ops on the same bits read as signed and as unsigned. The divisions by
// zero and INT_MIN / -1 are written without the guards convert-tile-to-affine
// adds: the kernel must not trap (PoCL runs it on the host CPU).
func.func @ints(%a: memref<6xi32>, %b: memref<6xi32>, %o: memref<8x6xi32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<6xsi32>, tensor<6xsi32>], plaidml.outputs = [tensor<8x6xsi32>]} {
  affine.parallel (%i) = (0) to (6) {
    %x = affine.load %a[%i] : memref<6xi32>
    %y = affine.load %b[%i] : memref<6xi32>
    %one = arith.constant 1 : i32
    %q = arith.divsi %x, %y : i32
    %r = arith.remsi %x, %y : i32
    %uq = arith.divui %x, %y : i32
    %ur = arith.remui %x, %y : i32
    %s = arith.shrsi %x, %one : i32
    %us = arith.shrui %x, %one : i32
    %lt = arith.cmpi ult, %x, %y : i32
    %lt32 = arith.extui %lt : i1 to i32
    %m = arith.maxui %x, %y : i32
    affine.store %q, %o[0, %i] : memref<8x6xi32>
    affine.store %r, %o[1, %i] : memref<8x6xi32>
    affine.store %uq, %o[2, %i] : memref<8x6xi32>
    affine.store %ur, %o[3, %i] : memref<8x6xi32>
    affine.store %s, %o[4, %i] : memref<8x6xi32>
    affine.store %us, %o[5, %i] : memref<8x6xi32>
    affine.store %lt32, %o[6, %i] : memref<8x6xi32>
    affine.store %m, %o[7, %i] : memref<8x6xi32>
  }
  return
}

// i8 arithmetic wraps at 8 bits (OpenCL C would compute it in int).
func.func @bytes(%a: memref<4xi8>, %o: memref<4x4xi8>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<4xsi8>], plaidml.outputs = [tensor<4x4xsi8>]} {
  affine.parallel (%i) = (0) to (4) {
    %x = affine.load %a[%i] : memref<4xi8>
    %one = arith.constant 1 : i8
    %three = arith.constant 3 : i8
    %sum = arith.addi %x, %x : i8
    %sq = arith.muli %x, %x : i8
    %uq = arith.divui %x, %three : i8
    %s = arith.shrsi %x, %one : i8
    affine.store %sum, %o[0, %i] : memref<4x4xi8>
    affine.store %sq, %o[1, %i] : memref<4x4xi8>
    affine.store %uq, %o[2, %i] : memref<4x4xi8>
    affine.store %s, %o[3, %i] : memref<4x4xi8>
  }
  return
}

// A bool buffer written by one kernel and read by the next; maximumf and
// minimumf propagate NaN and order -0 below +0 (OpenCL's fmax would not).
func.func @floats(%a: memref<5xf32>, %b: memref<5xf32>, %lt: memref<5xi1>,
                  %mx: memref<5xf32>, %mn: memref<5xf32>) attributes {plaidml.entry, plaidml.inputs = [tensor<5xf32>, tensor<5xf32>], plaidml.outputs = [tensor<5xi1>, tensor<5xf32>, tensor<5xf32>]} {
  affine.parallel (%i) = (0) to (5) {
    %x = affine.load %a[%i] : memref<5xf32>
    %y = affine.load %b[%i] : memref<5xf32>
    %c = arith.cmpf olt, %x, %y : f32
    %max = arith.maximumf %x, %y : f32
    %min = arith.minimumf %x, %y : f32
    affine.store %c, %lt[%i] : memref<5xi1>
    affine.store %max, %mx[%i] : memref<5xf32>
    affine.store %min, %mn[%i] : memref<5xf32>
  }
  return
}

// Reading an i1 buffer (a function of its own: in @floats,
// plaidml-fuse-elementwise would pass the comparison in a register).
func.func @select_bytes(%lt: memref<5xi1>, %a: memref<5xf32>, %b: memref<5xf32>,
                        %sel: memref<5xf32>) attributes {plaidml.entry, plaidml.inputs = [tensor<5xi1>, tensor<5xf32>, tensor<5xf32>], plaidml.outputs = [tensor<5xf32>]} {
  affine.parallel (%i) = (0) to (5) {
    %c = affine.load %lt[%i] : memref<5xi1>
    %x = affine.load %a[%i] : memref<5xf32>
    %y = affine.load %b[%i] : memref<5xf32>
    %r = arith.select %c, %x, %y : f32
    affine.store %r, %sel[%i] : memref<5xf32>
  }
  return
}

// f64 needs cl_khr_fp64 (option fp64).
func.func @doubles(%a: memref<3xf64>, %o: memref<3xf64>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<3xf64>], plaidml.outputs = [tensor<3xf64>]} {
  affine.parallel (%i) = (0) to (3) {
    %x = affine.load %a[%i] : memref<3xf64>
    %tenth = arith.constant 0.1 : f64
    %sq = arith.mulf %x, %x : f64
    %r = arith.addf %sq, %tenth : f64
    affine.store %r, %o[%i] : memref<3xf64>
  }
  return
}

// Collatz steps: an scf.while carrying two values in each invocation.
func.func @collatz(%a: memref<4xi32>, %o: memref<4xi32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<4xsi32>], plaidml.outputs = [tensor<4xsi32>]} {
  affine.parallel (%i) = (0) to (4) {
    %n = affine.load %a[%i] : memref<4xi32>
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %three = arith.constant 3 : i32
    %r:2 = scf.while (%x = %n, %c = %zero) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ne, %x, %one : i32
      scf.condition(%more) %x, %c : i32, i32
    } do {
    ^bb0(%x: i32, %c: i32):
      %bit = arith.andi %x, %one : i32
      %odd = arith.cmpi ne, %bit, %zero : i32
      %t = arith.muli %x, %three : i32
      %up = arith.addi %t, %one : i32
      %down = arith.shrui %x, %one : i32
      %next = arith.select %odd, %up, %down : i32
      %count = arith.addi %c, %one : i32
      scf.yield %next, %count : i32, i32
    }
    affine.store %r#1, %o[%i] : memref<4xi32>
  }
  return
}
