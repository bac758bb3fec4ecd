// RUN: plaidml-translate %s --mlir-to-opencl-c --opencl-fp64 | FileCheck %s
// RUN: plaidml-translate %s --mlir-to-opencl-c --opencl-fp64 --opencl-fp16 \
// RUN:   | FileCheck %s --check-prefix=NATIVE

// f16 without cl_khr_fp16 (OpenCL C 1.2 core has half only as a storage
// type): buffers stay `half *` and go through vload_half/vstore_half_rte,
// values are floats, and every op that produces an f16 rounds its float
// result to f16 (plaidml_round_half), as the CPU does after each op. Ops
// that are exact on f16 values (negf, select, maximumf, floor, ...) do not
// round. No cl_khr_fp16 pragma: the artifact does not require it. With
// fp16 the values are `half`.

// CHECK:       #pragma OPENCL FP_CONTRACT OFF
// CHECK-NEXT:  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-NOT:   cl_khr_fp16
// CHECK:       float plaidml_round_half(float x) {
// CHECK-NEXT:    ushort bits;
// CHECK-NEXT:    vstore_half_rte(x, 0, (__private half *)&bits);
// CHECK-NEXT:    return vload_half(0, (__private const half *)&bits);
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:  float plaidml_maximumf_float(float a, float b) {
// CHECK-NEXT:    if (isnan(a) || isnan(b))
// CHECK-NEXT:      return a + b;
// CHECK-NEXT:    if (a == b)
// CHECK-NEXT:      return signbit(a) ? b : a;
// CHECK-NEXT:    return a > b ? a : b;
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:  float plaidml_round_half_double(double x) {
// CHECK-NEXT:    ushort bits;
// CHECK-NEXT:    vstore_half_rte(x, 0, (__private half *)&bits);
// CHECK-NEXT:    return vload_half(0, (__private const half *)&bits);
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:  ushort plaidml_half_to_bits(float x) {
// CHECK-NEXT:    ushort bits;
// CHECK-NEXT:    vstore_half_rte(x, 0, (__private half *)&bits);
// CHECK-NEXT:    return bits;
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:  float plaidml_half_from_bits(ushort bits) {
// CHECK-NEXT:    return vload_half(0, (__private const half *)&bits);
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:  __kernel void halfs(
// CHECK-NEXT:      __global const half *arg0,
// CHECK-NEXT:      __global const float *arg1,
// CHECK-NEXT:      __global const double *arg2,
// CHECK-NEXT:      __global half *arg3,
// CHECK-NEXT:      __global uint *arg4,
// CHECK-NEXT:      __global float *arg5) {
// CHECK-NEXT:    long v0 = (long)get_local_id(0);
// CHECK-NEXT:    float v1 = vload_half(v0, arg0);
// CHECK-NEXT:    float v2 = arg1[v0];
// CHECK-NEXT:    double v3 = arg2[v0];
// CHECK-NEXT:    float v4 = plaidml_round_half(v1 + 0.099975586f);
// CHECK-NEXT:    float v5 = plaidml_round_half(v4 * 65504.0f);
// CHECK-NEXT:    float v6 = plaidml_round_half(v5 / v1);
// CHECK-NEXT:    float v7 = -v6;
// CHECK-NEXT:    float v8 = plaidml_round_half(exp(v7));
// CHECK-NEXT:    float v9 = plaidml_maximumf_float(v8, v1);
// CHECK-NEXT:    bool v10 = v9 < v1;
// CHECK-NEXT:    float v11 = v10 ? v9 : v1;
// CHECK-NEXT:    float v12 = floor(v11);
// CHECK-NEXT:    float v13 = plaidml_round_half(v2);
// CHECK-NEXT:    float v14 = v13;
// CHECK-NEXT:    float v15 = plaidml_round_half_double(v3);
// CHECK-NEXT:    uint v16 = (uint)(int)v12;
// CHECK-NEXT:    float v17 = plaidml_round_half((float)(int)v16);
// CHECK-NEXT:    ushort v18 = plaidml_half_to_bits(v17);
// CHECK-NEXT:    float v19 = plaidml_half_from_bits(v18);
// CHECK-NEXT:    double v20 = (double)v15;
// CHECK-NEXT:    float v21[2];
// CHECK-NEXT:    v21[0] = v19;
// CHECK-NEXT:    float v22 = v21[0];
// CHECK-NEXT:    float v23 = v22;
// CHECK-NEXT:    for (long v24 = 0; v24 < 4; v24 += 1) {
// CHECK-NEXT:      float v25 = plaidml_round_half(v23 + v13);
// CHECK-NEXT:      v23 = v25;
// CHECK-NEXT:    }
// CHECK-NEXT:    vstore_half_rte(v23, v0, arg3);
// CHECK-NEXT:    arg4[v0] = v16;
// CHECK-NEXT:    arg5[v0] = v14;
// CHECK-NEXT:    float v26 = (float)v20;
// CHECK-NEXT:    arg5[1] = v26;
// CHECK-NEXT:  }

// NATIVE:      #pragma OPENCL EXTENSION cl_khr_fp16 : enable
// NATIVE:       __kernel void halfs(
// NATIVE-NEXT:      __global const half *arg0,
// NATIVE-NEXT:      __global const float *arg1,
// NATIVE-NEXT:      __global const double *arg2,
// NATIVE-NEXT:      __global half *arg3,
// NATIVE-NEXT:      __global uint *arg4,
// NATIVE-NEXT:      __global float *arg5) {
// NATIVE-NEXT:    long v0 = (long)get_local_id(0);
// NATIVE-NEXT:    half v1 = arg0[v0];
// NATIVE-NEXT:    float v2 = arg1[v0];
// NATIVE-NEXT:    double v3 = arg2[v0];
// NATIVE-NEXT:    half v4 = v1 + ((half)0.099975586f);
// NATIVE-NEXT:    half v5 = v4 * ((half)65504.0f);
// NATIVE-NEXT:    half v6 = v5 / v1;
// NATIVE-NEXT:    half v7 = -v6;
// NATIVE-NEXT:    half v8 = exp(v7);
// NATIVE-NEXT:    half v9 = plaidml_maximumf_half(v8, v1);
// NATIVE-NEXT:    bool v10 = v9 < v1;
// NATIVE-NEXT:    half v11 = v10 ? v9 : v1;
// NATIVE-NEXT:    half v12 = floor(v11);
// NATIVE-NEXT:    half v13 = (half)v2;
// NATIVE-NEXT:    float v14 = (float)v13;
// NATIVE-NEXT:    half v15 = (half)v3;
// NATIVE-NEXT:    uint v16 = (uint)(int)v12;
// NATIVE-NEXT:    half v17 = (half)(int)v16;
// NATIVE-NEXT:    ushort v18 = as_ushort(v17);
// NATIVE-NEXT:    half v19 = as_half(v18);
// NATIVE-NEXT:    double v20 = (double)v15;
// NATIVE-NEXT:    half v21[2];
// NATIVE-NEXT:    v21[0] = v19;
// NATIVE-NEXT:    half v22 = v21[0];
// NATIVE-NEXT:    half v23 = v22;
// NATIVE-NEXT:    for (long v24 = 0; v24 < 4; v24 += 1) {
// NATIVE-NEXT:      half v25 = v23 + v13;
// NATIVE-NEXT:      v23 = v25;
// NATIVE-NEXT:    }
// NATIVE-NEXT:    arg3[v0] = v23;
// NATIVE-NEXT:    arg4[v0] = v16;
// NATIVE-NEXT:    arg5[v0] = v14;
// NATIVE-NEXT:    float v26 = (float)v20;
// NATIVE-NEXT:    arg5[1] = v26;
// NATIVE-NEXT:  }

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @halfs(%a: memref<8xf16>, %b: memref<8xf32>, %d: memref<8xf64>,
                   %o: memref<8xf16>, %n: memref<8xi32>, %w: memref<8xf32>)
        kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %x = memref.load %a[%i] : memref<8xf16>
      %y = memref.load %b[%i] : memref<8xf32>
      %z = memref.load %d[%i] : memref<8xf64>
      %tenth = arith.constant 0.1 : f16
      %big = arith.constant 65504.0 : f16
      %0 = arith.addf %x, %tenth : f16
      %1 = arith.mulf %0, %big : f16
      %2 = arith.divf %1, %x : f16
      %3 = arith.negf %2 : f16
      %4 = math.exp %3 : f16
      %5 = arith.maximumf %4, %x : f16
      %6 = arith.cmpf olt, %5, %x : f16
      %7 = arith.select %6, %5, %x : f16
      %8 = math.floor %7 : f16
      %9 = arith.truncf %y : f32 to f16
      %10 = arith.extf %9 : f16 to f32
      %11 = arith.truncf %z : f64 to f16
      %12 = arith.fptosi %8 : f16 to i32
      %13 = arith.sitofp %12 : i32 to f16
      %14 = arith.bitcast %13 : f16 to i16
      %15 = arith.bitcast %14 : i16 to f16
      %16 = arith.extf %11 : f16 to f64
      %buf = memref.alloca() : memref<2xf16>
      memref.store %15, %buf[%c0] : memref<2xf16>
      %17 = memref.load %buf[%c0] : memref<2xf16>
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %17) -> (f16) {
        %s = arith.addf %acc, %9 : f16
        scf.yield %s : f16
      }
      memref.store %sum, %o[%i] : memref<8xf16>
      memref.store %12, %n[%i] : memref<8xi32>
      memref.store %10, %w[%i] : memref<8xf32>
      %18 = arith.truncf %16 : f64 to f32
      memref.store %18, %w[%c1] : memref<8xf32>
      gpu.return
    }
  }
}
