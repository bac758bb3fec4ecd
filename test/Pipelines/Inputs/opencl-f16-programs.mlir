// ABI-form f16 functions for opencl-execute.test, compiled without fp16
// (PoCL has no cl_khr_fp16; the OpenCL C kernels emulate f16). Not in
// opencl-programs.mlir: the SPIR-V kernels of that file have no f16
// emulation.

// f16 on a device without cl_khr_fp16: half buffers through vload_half and
// vstore_half_rte, values held in floats and rounded to f16 after every op
// (x / 10, (x + 1) - x loses the 1 at 2048, x * x overflows to inf, f32 to
// f16 rounding, exp, fptosi of a rounded product, sitofp rounding, an f16
// loop-carried sum, extf of an f16 to f32).
func.func @halves(%a: memref<6xf16>, %b: memref<6xf32>, %o: memref<7x6xf16>,
                  %p: memref<6xi32>, %f: memref<6xf32>)
    attributes {plaidml.entry} {
  affine.parallel (%i) = (0) to (6) {
    %x = affine.load %a[%i] : memref<6xf16>
    %y = affine.load %b[%i] : memref<6xf32>
    %one = arith.constant 1.0 : f16
    %ten = arith.constant 10.0 : f16
    %three = arith.constant 3 : i32
    %onei = arith.constant 1 : i32
    %tenth = arith.divf %x, %ten : f16
    %inc = arith.addf %x, %one : f16
    %lost = arith.subf %inc, %x : f16
    %sq = arith.mulf %x, %x : f16
    %t = arith.truncf %y : f32 to f16
    %e = math.exp %x : f16
    %c = arith.constant 1.5 : f16
    %m = arith.mulf %x, %c : f16
    %n = arith.fptosi %m : f16 to i32
    %n3 = arith.muli %n, %three : i32
    %n31 = arith.subi %n3, %onei : i32
    %back = arith.sitofp %n31 : i32 to f16
    %zero = arith.constant 0.0 : f16
    %sum = affine.for %k = 0 to 10 iter_args(%acc = %zero) -> (f16) {
      %next = arith.addf %acc, %tenth : f16
      affine.yield %next : f16
    }
    %wide = arith.extf %tenth : f16 to f32
    affine.store %tenth, %o[0, %i] : memref<7x6xf16>
    affine.store %lost, %o[1, %i] : memref<7x6xf16>
    affine.store %sq, %o[2, %i] : memref<7x6xf16>
    affine.store %t, %o[3, %i] : memref<7x6xf16>
    affine.store %e, %o[4, %i] : memref<7x6xf16>
    affine.store %back, %o[5, %i] : memref<7x6xf16>
    affine.store %sum, %o[6, %i] : memref<7x6xf16>
    affine.store %n, %p[%i] : memref<6xi32>
    affine.store %wide, %f[%i] : memref<6xf32>
  }
  return
}
