// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-opencl-pipeline="device={opencl:0 (pocl)}"
// RUN: not plaidml-opt %s -split-input-file \
// RUN:   -plaidml-opencl-pipeline="fp64=1 fp16=1" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=BOTH

// A type the OpenCL device cannot run is an error at the Tile op that uses
// it, naming the extension, the pipeline option and the device
// (plaidml-gpu-module-to-opencl-c), not a program the driver rejects. With
// fp64 / fp16 the same programs translate and enable the extension.

// BOTH-LABEL: gpu.binary @matmul64_kernel
// BOTH-SAME:  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// BOTH-SAME:  void matmul64_kernel(__global double *arg0)
// BOTH-LABEL: gpu.binary @matmul64_kernel_0
// BOTH-SAME:  __global const double *arg0
func.func @matmul64(%A: tensor<4x8xf64>, %B: tensor<8x16xf64>) -> tensor<4x16xf64> {
  %zero = tile.constant dense<0.0> : tensor<f64>
  // expected-error @+4 {{'memref.store' writes f64 to a buffer, which needs the OpenCL extension cl_khr_fp64 (option fp64); opencl:0 (pocl) does not have it}}
  // expected-error @+3 {{'memref.load' reads f64 from a buffer, which needs the OpenCL extension cl_khr_fp64 (option fp64); opencl:0 (pocl) does not have it}}
  // expected-error @+2 {{'arith.mulf' computes on f64, which needs the OpenCL extension cl_khr_fp64 (option fp64); opencl:0 (pocl) does not have it}}
  // expected-error @+1 {{'arith.addf' computes on f64, which needs the OpenCL extension cl_khr_fp64 (option fp64); opencl:0 (pocl) does not have it}}
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f64>, tensor<4x8xf64>, tensor<8x16xf64> -> tensor<4x16xf64>
  return %C : tensor<4x16xf64>
}

// -----

// f16 arithmetic and buffers need cl_khr_fp16; tile.exp computes in f32
// and rounds once.
// BOTH-LABEL: gpu.binary @half_kernel
// BOTH-SAME:  #pragma OPENCL EXTENSION cl_khr_fp16 : enable
// BOTH-SAME:  half v3 = v1 + v2;
// BOTH-LABEL: gpu.binary @half_kernel_0
// BOTH-SAME:  half v1 = arg0[v0];
// BOTH-SAME:  float v2 = (float)v1;
// BOTH-SAME:  float v3 = exp(v2);
// BOTH-SAME:  half v4 = (half)v3;
func.func @half(%A: tensor<16xf16>) -> tensor<16xf16> {
  // expected-error @+3 {{'memref.load' reads f16 from a buffer, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  // expected-error @+2 {{'memref.store' writes f16 to a buffer, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  // expected-error @+1 {{'arith.addf' computes on f16, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  %s = tile.add %A, %A : tensor<16xf16>, tensor<16xf16> -> tensor<16xf16>
  // expected-error @+4 {{'memref.load' reads f16 from a buffer, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  // expected-error @+3 {{'memref.store' writes f16 to a buffer, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  // expected-error @+2 {{'arith.extf' computes on f16, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  // expected-error @+1 {{'arith.truncf' computes on f16, which needs the OpenCL extension cl_khr_fp16 (option fp16); opencl:0 (pocl) does not have it}}
  %e = tile.exp %s : tensor<16xf16>
  return %e : tensor<16xf16>
}

// -----

// bf16 has no OpenCL C type on any device.
// BOTH-NOT: gpu.binary @brain
func.func @brain(%A: tensor<16xbf16>) -> tensor<16xf32> {
  // expected-error @+2 {{'memref.load' reads bf16 from a buffer, which OpenCL C does not support on any device}}
  // expected-error @+1 {{'arith.extf' computes on bf16, which OpenCL C does not support on any device}}
  %c = tile.cast %A : tensor<16xbf16> -> tensor<16xf32>
  return %c : tensor<16xf32>
}
