// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-attach-target="device=opencl exts=cl_khr_fp64 label={opencl:0 (pocl)}" -plaidml-gpu-module-to-opencl-c

// What has no OpenCL C translation is an error at the op, never a guess;
// every such op of a kernel is reported. (f16 and f64 without the device's
// extensions: test/Pipelines/opencl-unsupported-types.mlir.)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bits(%a: memref<4xi32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xi32>
      // expected-error @+1 {{'math.cttz' has no OpenCL C translation yet}}
      %t = math.cttz %x : i32
      // expected-error @+1 {{'arith.mului_extended' has no OpenCL C translation yet}}
      %lo, %hi = arith.mului_extended %x, %x : i32
      memref.store %t, %a[%i] : memref<4xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rounding(%a: memref<4xf64>, %o: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf64>
      // expected-error @+1 {{'arith.truncf' has no OpenCL C translation yet}}
      %y = arith.truncf %x to_nearest_away : f64 to f32
      memref.store %y, %o[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 1 of 'scalar' is 'f32', not a statically shaped buffer in the default memory space; kernels take only buffers (docs/ABI.md section 6)}}
    gpu.func @scalar(%a: memref<4xf32>, %s: f32) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 0 of 'dynamic' is 'memref<?xf32>', not a statically shaped buffer}}
    gpu.func @dynamic(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{only kernels have an OpenCL C translation; 'helper' is not one}}
    gpu.func @helper(%a: memref<4xf32>) {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loop(%a: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %c1 = arith.constant 1 : i32
      // expected-error @+1 {{'scf.for' over i32 has no OpenCL C translation yet}}
      scf.for %i = %c0 to %c4 step %c1 : i32 {
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @strided(%a: memref<4xf32, strided<[?]>>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' accesses a buffer with a dynamic or non-strided layout, which has no OpenCL C translation yet}}
      %x = memref.load %a[%i] : memref<4xf32, strided<[?]>>
      gpu.return
    }
  }
}

// -----

// The wmma translation takes the product's layouts from the loads of its
// operands; 8x8 fragments and f16 accumulators have no wmma form here.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mma(%a: memref<16x16xf16>, %c: memref<16x16xf32>, %h: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      %zh = arith.constant 0.0 : f16
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %acc = gpu.subgroup_mma_constant_matrix %z : !gpu.mma_matrix<16x16xf32, "COp">
      // expected-error @+1 {{'gpu.subgroup_mma_compute' has no OpenCL C translation: its A and B must come straight from gpu.subgroup_mma_load_matrix}}
      %d = gpu.subgroup_mma_compute %fa, %fb, %acc {a_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      // expected-error @+1 {{'gpu.subgroup_mma_constant_matrix' has no OpenCL C translation yet}}
      %hacc = gpu.subgroup_mma_constant_matrix %zh : !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }
}

// -----

// cp.async copies from global memory (not between two workgroup buffers),
// without srcElements (a zero-filled tail); nvgpu's verifier takes the rest
// (4, 8 or 16 bytes, into workgroup memory).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copies(%a: memref<64xf32>, %counts: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %s = memref.alloc() : memref<64xf32, 3>
      %s1 = memref.alloc() : memref<64xf32, 3>
      %count = memref.load %counts[%c0] : memref<1xi32>
      %n = arith.index_cast %count : i32 to index
      // expected-error @+1 {{'nvgpu.device_async_copy' has no OpenCL C translation: it must copy 4, 8 or 16 bytes from global to workgroup memory, without srcElements}}
      %t0 = nvgpu.device_async_copy %s1[%c0], %s[%c0], 4 : memref<64xf32, 3> to memref<64xf32, 3>
      %t1 = nvgpu.device_async_copy %a[%c0], %s[%c0], 4 : memref<64xf32> to memref<64xf32, 3>
      // expected-error @+1 {{'nvgpu.device_async_copy' has no OpenCL C translation: it must copy 4, 8 or 16 bytes from global to workgroup memory, without srcElements}}
      %t2 = nvgpu.device_async_copy %a[%c0], %s[%c0], 4, %n : memref<64xf32> to memref<64xf32, 3>
      %g = nvgpu.device_async_create_group %t0, %t1, %t2
      nvgpu.device_async_wait %g
      gpu.return
    }
  }
}
