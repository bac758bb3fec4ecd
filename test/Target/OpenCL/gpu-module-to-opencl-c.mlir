// RUN: plaidml-opt %s -plaidml-attach-target="device=opencl exts=cl_khr_fp64" -plaidml-gpu-module-to-opencl-c \
// RUN:   | FileCheck %s --check-prefix=BINARY
// RUN: plaidml-opt %s -plaidml-attach-target="device=opencl exts=cl_khr_fp64" -plaidml-gpu-module-to-opencl-c \
// RUN:   | plaidml-translate --mlir-to-opencl-c | FileCheck %s
// RUN: plaidml-translate %s --mlir-to-opencl-c --opencl-fp64 | FileCheck %s

// The translation of hand-written kernels, op by op: what the pipelines do
// not happen to produce. plaidml-translate --mlir-to-opencl-c translates a
// gpu.module directly too.

// BINARY:     gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>, properties = {plaidml.kernel_format = "opencl-c", plaidml.requirements = ["cl_khr_fp64"]}, "// OpenCL C 1.2 of gpu.module @kernels
// BINARY:     gpu.binary @targeted [#gpu.object<#spirv.target_env<#spirv.vce<v1.2, [Kernel, Addresses], []>, api=OpenCL, #spirv.resource_limits<>>, properties = {plaidml.kernel_format = "opencl-c", plaidml.requirements = []}
// BINARY-NOT: {{^ *}}gpu.module

// CHECK:       #pragma OPENCL FP_CONTRACT OFF
// CHECK-NEXT:  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: void math(__global const float *arg0, __global float *arg1) {
    // CHECK-NEXT:    long v0 = (long)get_global_id(0);
    // CHECK-NEXT:    float v1 = arg0[v0];
    // CHECK-NEXT:    float v2 = fabs(v1);
    // CHECK-NEXT:    float v3 = ceil(v2);
    // CHECK-NEXT:    float v4 = floor(v3);
    // CHECK-NEXT:    float v5 = trunc(v4);
    // CHECK-NEXT:    float v6 = round(v5);
    // CHECK-NEXT:    float v7 = rint(v6);
    // CHECK-NEXT:    float v8 = rsqrt(v7);
    // CHECK-NEXT:    float v9 = exp2(v8);
    // CHECK-NEXT:    float v10 = log2(v9);
    // CHECK-NEXT:    float v11 = log1p(v10);
    // CHECK-NEXT:    float v12 = sin(v11);
    // CHECK-NEXT:    float v13 = cos(v12);
    // CHECK-NEXT:    float v14 = atan2(v13, v12);
    // CHECK-NEXT:    float v15 = erfc(v14);
    // CHECK-NEXT:    float v16 = fma(v15, v14, v13);
    // CHECK-NEXT:    uint v17 = (uint)(int)v16;
    // CHECK-NEXT:    float v18 = pown(v16, (int)v17);
    // CHECK-NEXT:    float v19 = fmax(v18, v16);
    // CHECK-NEXT:    float v20 = fmod(v19, v18);
    // CHECK-NEXT:    float v21 = -v20;
    // CHECK-NEXT:    arg1[v0] = v21;
    // CHECK-NEXT:  }
    gpu.func @math(%a: memref<8xf32>, %o: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %0 = math.absf %x : f32
      %1 = math.ceil %0 : f32
      %2 = math.floor %1 : f32
      %3 = math.trunc %2 : f32
      %4 = math.round %3 : f32
      %5 = math.roundeven %4 : f32
      %6 = math.rsqrt %5 : f32
      %7 = math.exp2 %6 : f32
      %8 = math.log2 %7 : f32
      %9 = math.log1p %8 : f32
      %10 = math.sin %9 : f32
      %11 = math.cos %10 : f32
      %12 = math.atan2 %11, %10 : f32
      %13 = math.erfc %12 : f32
      %14 = math.fma %13, %12, %11 : f32
      %n = arith.fptosi %14 : f32 to i32
      %15 = math.fpowi %14, %n : f32, i32
      %16 = arith.maxnumf %15, %14 : f32
      %17 = arith.remf %16, %15 : f32
      %18 = arith.negf %17 : f32
      memref.store %18, %o[%i] : memref<8xf32>
      gpu.return
    }

    // Every cmpf predicate: ordered ones are C's, unordered ones negate
    // the opposite ordered comparison.
    // CHECK-LABEL: __kernel void compare(
    // CHECK-SAME:     __global const double *arg0, __global uchar *arg1) {
    // CHECK-NEXT:    double v0 = arg0[0];
    // CHECK-NEXT:    double v1 = arg0[1];
    // CHECK-NEXT:    bool v2 = v0 == v1;
    // CHECK-NEXT:    bool v3 = (v0 < v1 || v0 > v1);
    // CHECK-NEXT:    bool v4 = (!isnan(v0) && !isnan(v1));
    // CHECK-NEXT:    bool v5 = !(v0 < v1 || v0 > v1);
    // CHECK-NEXT:    bool v6 = !(v0 <= v1);
    // CHECK-NEXT:    bool v7 = !(v0 >= v1);
    // CHECK-NEXT:    bool v8 = v0 != v1;
    // CHECK-NEXT:    bool v9 = (isnan(v0) || isnan(v1));
    // CHECK-NEXT:    bool v10 = isnan(v0) != 0;
    // CHECK-NEXT:    bool v11 = isinf(v0) != 0;
    // CHECK-NEXT:    bool v12 = v2 ^ v3;
    // CHECK-NEXT:    bool v13 = v12 | v4;
    // CHECK-NEXT:    bool v14 = v13 & v5;
    // i1 is stored as a byte.
    // CHECK-NEXT:    arg1[0] = v14;
    gpu.func @compare(%a: memref<2xf64>, %o: memref<8xi1>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %a[%c0] : memref<2xf64>
      %y = memref.load %a[%c1] : memref<2xf64>
      %oeq = arith.cmpf oeq, %x, %y : f64
      %one = arith.cmpf one, %x, %y : f64
      %ord = arith.cmpf ord, %x, %y : f64
      %ueq = arith.cmpf ueq, %x, %y : f64
      %ugt = arith.cmpf ugt, %x, %y : f64
      %ult = arith.cmpf ult, %x, %y : f64
      %une = arith.cmpf une, %x, %y : f64
      %uno = arith.cmpf uno, %x, %y : f64
      %nan = math.isnan %x : f64
      %inf = math.isinf %x : f64
      %b0 = arith.xori %oeq, %one : i1
      %b1 = arith.ori %b0, %ord : i1
      %b2 = arith.andi %b1, %ueq : i1
      memref.store %b2, %o[%c0] : memref<8xi1>
      memref.store %ugt, %o[%c1] : memref<8xi1>
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      memref.store %ult, %o[%c2] : memref<8xi1>
      memref.store %une, %o[%c3] : memref<8xi1>
      memref.store %uno, %o[%c4] : memref<8xi1>
      memref.store %nan, %o[%c5] : memref<8xi1>
      memref.store %inf, %o[%c6] : memref<8xi1>
      gpu.return
    }

    // Conversions between integer widths, index, floats and bits; i1
    // sign-extends to all ones; floor and ceil divisions guarded like the
    // others.
    // CHECK-LABEL: void casts(__global const ushort *arg0, __global ulong *arg1) {
    // CHECK-NEXT:    ushort v0 = arg0[0];
    // CHECK-NEXT:    ulong v1 = (ulong)(int)(short)v0;
    // CHECK-NEXT:    uint v2 = (uint)v0;
    // CHECK-NEXT:    uchar v3 = (uchar)v0;
    // CHECK-NEXT:    bool v4 = (v0 & 1) != 0;
    // CHECK-NEXT:    uint v5 = (uint)(-(int)v4);
    // CHECK-NEXT:    long v6 = (long)(int)(short)v0;
    // CHECK-NEXT:    long v7 = (long)(uint)v0;
    // CHECK-NEXT:    uint v8 = (uint)v6;
    // CHECK-NEXT:    float v9 = (float)(int)(char)v3;
    // CHECK-NEXT:    double v10 = (double)v1;
    // CHECK-NEXT:    uint v11 = as_uint(v9);
    // CHECK-NEXT:    float v12 = as_float(v11);
    // CHECK-NEXT:    float v13 = (float)v10;
    // CHECK-NEXT:    double v14 = (double)v13;
    // CHECK-NEXT:    ushort v15 = (ushort)(uint)v14;
    // CHECK-NEXT:    ulong v16 = (ulong)(long)v14;
    // CHECK-NEXT:    long v17 = (long)(plaidml_floordivsi_long(v6, v7));
    // CHECK-NEXT:    long v18 = (long)(plaidml_ceildivsi_long(v6, v7));
    // CHECK-NEXT:    uint v19 = (uint)(plaidml_ceildivui_uint(v8, v2));
    // CHECK-NEXT:    ulong v20 = v16 << v1;
    // CHECK-NEXT:    ushort v21 = (int)(short)v15 < 0 ? (ushort)(-(int)(short)v15) : v15;
    // CHECK-NEXT:    ushort v22 = (ushort)popcount(v21);
    // CHECK-NEXT:    arg1[0] = v20;
    // CHECK-NEXT:    ulong v23 = (ulong)(uint)v22;
    gpu.func @casts(%a: memref<i16>, %o: memref<8xi64>) kernel {
      %x = memref.load %a[] : memref<i16>
      %0 = arith.extsi %x : i16 to i64
      %1 = arith.extui %x : i16 to i32
      %2 = arith.trunci %x : i16 to i8
      %3 = arith.trunci %x : i16 to i1
      %4 = arith.extsi %3 : i1 to i32
      %5 = arith.index_cast %x : i16 to index
      %6 = arith.index_castui %x : i16 to index
      %7 = arith.index_cast %5 : index to i32
      %8 = arith.sitofp %2 : i8 to f32
      %9 = arith.uitofp %0 : i64 to f64
      %10 = arith.bitcast %8 : f32 to i32
      %11 = arith.bitcast %10 : i32 to f32
      %12 = arith.truncf %9 : f64 to f32
      %13 = arith.extf %12 : f32 to f64
      %14 = arith.fptoui %13 : f64 to i16
      %15 = arith.fptosi %13 : f64 to i64
      %16 = arith.floordivsi %5, %6 : index
      %17 = arith.ceildivsi %5, %6 : index
      %18 = arith.ceildivui %7, %1 : i32
      %19 = arith.shli %15, %0 : i64
      %20 = math.absi %14 : i16
      %21 = math.ctpop %20 : i16
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      memref.store %19, %o[%c0] : memref<8xi64>
      %w = arith.extui %21 : i16 to i64
      memref.store %w, %o[%c1] : memref<8xi64>
      %v = arith.index_cast %16 : index to i64
      memref.store %v, %o[%c2] : memref<8xi64>
      gpu.return
    }

    // scf.if without results, private arrays, literals of every kind.
    // CHECK-LABEL: void control(__global float *arg0) {
    // CHECK-NEXT:    long v0 = (long)get_local_id(0);
    // CHECK-NEXT:    long v1 = (long)get_local_size(0);
    // CHECK-NEXT:    long v2 = (long)get_num_groups(0);
    // CHECK-NEXT:    float v3[4];
    // CHECK-NEXT:    bool v4 = v0 < v1;
    // CHECK-NEXT:    if (v4) {
    // CHECK-NEXT:      v3[v0 + 2] = (-INFINITY);
    // CHECK-NEXT:    }
    // CHECK-NEXT:    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // CHECK-NEXT:    float v5 = v3[v2 * 2 + v0];
    // CHECK-NEXT:    float v6 = v5 + NAN;
    // CHECK-NEXT:    float v7 = v6 * (-0.0f);
    // CHECK-NEXT:    float v8 = v7 + 1e+30f;
    // CHECK-NEXT:    float v9 = v8 + 0.1f;
    // CHECK-NEXT:    arg0[v0] = v9;
    gpu.func @control(%o: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %g = gpu.grid_dim x
      %buf = memref.alloca() : memref<2x2xf32>
      %in = arith.cmpi slt, %t, %n : index
      scf.if %in {
        %ninf = arith.constant 0xFF800000 : f32
        %c1 = arith.constant 1 : index
        memref.store %ninf, %buf[%c1, %t] : memref<2x2xf32>
      }
      gpu.barrier
      %x = memref.load %buf[%g, %t] : memref<2x2xf32>
      %nan = arith.constant 0x7FC00000 : f32
      %mz = arith.constant -0.0 : f32
      %big = arith.constant 1.0e30 : f32
      %tenth = arith.constant 0.1 : f32
      %0 = arith.addf %x, %nan : f32
      %1 = arith.mulf %0, %mz : f32
      %2 = arith.addf %1, %big : f32
      %3 = arith.addf %2, %tenth : f32
      memref.store %3, %o[%t] : memref<4xf32>
      gpu.return
    }

    // Integer literals: small negatives read as such, others unsigned.
    // CHECK-LABEL: void literals(__global uint *arg0, __global ulong *arg1) {
    // CHECK-NEXT:    arg0[0] = ((uint)-1);
    // CHECK-NEXT:    arg0[1] = 2147483648u;
    // CHECK-NEXT:    arg1[0] = 9223372036854775808ul;
    // CHECK-NEXT:    arg1[1] = 4294967296ul;
    // CHECK-NEXT:  }
    gpu.func @literals(%a: memref<2xi32>, %b: memref<2xi64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m1 = arith.constant -1 : i32
      %min = arith.constant -2147483648 : i32
      %min64 = arith.constant -9223372036854775808 : i64
      %big = arith.constant 4294967296 : i64
      memref.store %m1, %a[%c0] : memref<2xi32>
      memref.store %min, %a[%c1] : memref<2xi32>
      memref.store %min64, %b[%c0] : memref<2xi64>
      memref.store %big, %b[%c1] : memref<2xi64>
      gpu.return
    }
  }

  // A module's own target is the object's.
  gpu.module @targeted [#spirv.target_env<#spirv.vce<v1.2, [Kernel, Addresses], []>, api=OpenCL, #spirv.resource_limits<>>] {
    gpu.func @empty(%a: memref<f32>) kernel {
      gpu.return
    }
  }
}
