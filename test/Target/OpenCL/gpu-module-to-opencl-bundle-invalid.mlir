// RUN: plaidml-opt %s -verify-diagnostics -plaidml-gpu-module-to-opencl-bundle

// A kernel module that neither format can express (f64 on a device without
// cl_khr_fp64 nor the SPIR-V capability Float64) is an error naming each op
// and what the device lacks, not a bundle without kernels.

module attributes {gpu.container_module, plaidml.target = #plaidml.target<device = opencl, cpu = "x86-64">} {
  gpu.module @bad [#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses], []>, api=OpenCL, #spirv.resource_limits<>>] {
    gpu.func @bad(%a: memref<2xf64>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [2, 1, 1]>} {
      %t = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads f64 from a buffer, which needs the OpenCL extension cl_khr_fp64 (option fp64); the target device does not have it}}
      %x = memref.load %a[%t] : memref<2xf64>
      // expected-error @+1 {{'arith.addf' computes on f64, which needs the OpenCL extension cl_khr_fp64}}
      %y = arith.addf %x, %x : f64
      // expected-error @+1 {{'memref.store' writes f64 to a buffer}}
      memref.store %y, %a[%t] : memref<2xf64>
      gpu.return
    }
  }
}
