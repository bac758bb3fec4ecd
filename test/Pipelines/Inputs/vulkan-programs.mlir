// Hand-written functions in the ABI form of docs/ABI.md section 1 for the
// Vulkan pipeline tests (vulkan-pipeline.mlir, vulkan-spirv-val.test): every
// kernel they produce must pass spirv-val.

// Elementwise chain through an intermediate buffer: out = max(a * 2 + 1, 0).
func.func @chain(%a: memref<4x100xf32>, %out: memref<4x100xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<4x100xf32>], plaidml.outputs = [tensor<4x100xf32>]} {
  %tmp = memref.alloc() : memref<4x100xf32>
  affine.parallel (%i, %j) = (0, 0) to (4, 100) {
    %x = affine.load %a[%i, %j] : memref<4x100xf32>
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %x, %two : f32
    %s = arith.addf %m, %one : f32
    affine.store %s, %tmp[%i, %j] : memref<4x100xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (4, 100) {
    %x = affine.load %tmp[%i, %j] : memref<4x100xf32>
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    affine.store %r, %out[%i, %j] : memref<4x100xf32>
  }
  memref.dealloc %tmp : memref<4x100xf32>
  return
}

// Matmul: the reduction loop stays inside the kernel; the mapping is set by
// hand.
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x48xf32>,
                  %c: memref<64x48xf32>) attributes {plaidml.entry, plaidml.inputs = [tensor<64x32xf32>, tensor<32x48xf32>], plaidml.outputs = [tensor<64x48xf32>]} {
  affine.parallel (%i, %j) = (0, 0) to (64, 48) {
    %zero = arith.constant 0.0 : f32
    %r = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> f32 {
      %x = affine.load %a[%i, %k] : memref<64x32xf32>
      %y = affine.load %b[%k, %j] : memref<32x48xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%i, %j] : memref<64x48xf32>
  } {plaidml.gpu.workgroup_size = array<i64: 8, 16>}
  return
}

// 1-D convolution with zero padding 1: O[x] = sum_k I[x + k - 1] * K[k].
func.func @conv(%in: memref<10xf32>, %k: memref<3xf32>, %o: memref<10xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<10xf32>, tensor<3xf32>], plaidml.outputs = [tensor<10xf32>]} {
  affine.parallel (%x) = (0) to (10) {
    %zero = arith.constant 0.0 : f32
    %r = affine.for %kk = 0 to 3 iter_args(%acc = %zero) -> f32 {
      %v = affine.if affine_set<(x, k) : (x + k - 1 >= 0, 10 - x - k >= 0)>
          (%x, %kk) -> f32 {
        %a = affine.load %in[%x + %kk - 1] : memref<10xf32>
        %w = affine.load %k[%kk] : memref<3xf32>
        %p = arith.mulf %a, %w : f32
        affine.yield %p : f32
      } else {
        affine.yield %zero : f32
      }
      %s = arith.addf %acc, %v : f32
      affine.yield %s : f32
    }
    affine.store %r, %o[%x] : memref<10xf32>
  }
  return
}

// Integer ops on i32: ((a + b) >> 1) / 3, compared and selected.
func.func @ints(%a: memref<3x5x7xi32>, %b: memref<3x5x7xi32>,
                %o: memref<3x5x7xi32>) attributes {plaidml.entry, plaidml.inputs = [tensor<3x5x7xsi32>, tensor<3x5x7xsi32>], plaidml.outputs = [tensor<3x5x7xsi32>]} {
  affine.parallel (%i, %j, %k) = (0, 0, 0) to (3, 5, 7) {
    %x = affine.load %a[%i, %j, %k] : memref<3x5x7xi32>
    %y = affine.load %b[%i, %j, %k] : memref<3x5x7xi32>
    %one = arith.constant 1 : i32
    %three = arith.constant 3 : i32
    %s = arith.addi %x, %y : i32
    %h = arith.shrsi %s, %one : i32
    %d = arith.divsi %h, %three : i32
    %lt = arith.cmpi slt, %x, %y : i32
    %r = arith.select %lt, %d, %x : i32
    %m = arith.muli %r, %y : i32
    %q = arith.remui %m, %three : i32
    %v = arith.xori %q, %x : i32
    affine.store %v, %o[%i, %j, %k] : memref<3x5x7xi32>
  }
  return
}

// O[i + j] += A[i] * B[j]: the sink is not a projected permutation, so the
// accumulation is a sequential loop nest at the top level, plus a scalar
// store: both run in single-invocation kernels.
func.func @outer_sum(%a: memref<4xf32>, %b: memref<5xf32>, %o: memref<8xf32>,
                     %first: memref<f32>) attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>, tensor<5xf32>], plaidml.outputs = [tensor<8xf32>, tensor<f32>]} {
  affine.parallel (%x) = (0) to (8) {
    %zero = arith.constant 0.0 : f32
    affine.store %zero, %o[%x] : memref<8xf32>
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 5 {
      %x = affine.load %a[%i] : memref<4xf32>
      %y = affine.load %b[%j] : memref<5xf32>
      %p = arith.mulf %x, %y : f32
      %acc = affine.load %o[%i + %j] : memref<8xf32>
      %s = arith.addf %acc, %p : f32
      affine.store %s, %o[%i + %j] : memref<8xf32>
    }
  }
  %v = affine.load %o[0] : memref<8xf32>
  affine.store %v, %first[] : memref<f32>
  return
}

// Math functions: GLSL.std.450 instructions, tanh and powf expanded first,
// erf as a polynomial.
func.func @math(%a: memref<300xf32>, %o: memref<300xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<300xf32>], plaidml.outputs = [tensor<300xf32>]} {
  affine.parallel (%i) = (0) to (300) {
    %x = affine.load %a[%i] : memref<300xf32>
    %e = math.exp %x : f32
    %t = math.tanh %e : f32
    %s = math.sqrt %t : f32
    %l = math.log %s : f32
    %p = math.powf %l, %x : f32
    %r = math.erf %p : f32
    affine.store %r, %o[%i] : memref<300xf32>
  }
  return
}

// An output that aliases an input is a memref.copy at the top level: it
// becomes an elementwise copy kernel.
func.func @alias(%a: memref<2x3xi32>, %o: memref<2x3xi32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<2x3xsi32>], plaidml.outputs = [tensor<2x3xsi32>]} {
  memref.copy %a, %o : memref<2x3xi32> to memref<2x3xi32>
  return
}
