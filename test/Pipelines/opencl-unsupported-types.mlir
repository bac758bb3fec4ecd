// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-opencl-pipeline="label={opencl:0 (pocl)}"
// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-opencl-pipeline="kernel-format=both label={opencl:0 (pocl)}"
// RUN: not plaidml-opt %s -split-input-file \
// RUN:   -plaidml-opencl-pipeline="fp64=1 fp16=1" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: not plaidml-opt %s -split-input-file -plaidml-opencl-pipeline \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=EMU

// A type the OpenCL device cannot run is an error at the Tile op that uses
// it, naming the extension, the pipeline option and the device
// (plaidml-gpu-module-to-opencl-c), not a program the driver rejects. With
// fp64 / fp16 the same programs translate and enable the extension. f16
// runs without fp16 too, emulated: half buffers, float values rounded to
// f16 after every op, no cl_khr_fp16 pragma. kernel-format=both reports
// exactly these errors: when neither format can be made, the OpenCL C
// errors are the compile's (the SPIR-V conversion's stay quiet).

// BOTH-LABEL: gpu.binary @matmul64_kernel
// BOTH-SAME:  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// BOTH-SAME:  void matmul64_kernel(
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

// f16 arithmetic with cl_khr_fp16; without it, vload_half, float
// arithmetic rounded with plaidml_round_half, vstore_half_rte. tile.exp
// computes in f32 and rounds once.
// BOTH-LABEL: gpu.binary @half_kernel
// BOTH-SAME:  #pragma OPENCL EXTENSION cl_khr_fp16 : enable
// BOTH-SAME:  half v2 = v1 + v1;
// BOTH-LABEL: gpu.binary @half_exp_kernel
// BOTH-SAME:  half v1 = arg0[v0];
// BOTH-SAME:  float v2 = (float)v1;
// BOTH-SAME:  float v3 = exp(v2);
// BOTH-SAME:  half v4 = (half)v3;
// EMU-LABEL: gpu.binary @half_kernel
// EMU-NOT:   cl_khr_fp16
// EMU-SAME:  float plaidml_round_half(float x) {\0A  ushort bits;\0A  vstore_half_rte(x, 0, (__private half *)&bits);\0A  return vload_half(0, (__private const half *)&bits);\0A}
// EMU-SAME:  __global const half *arg0, __global half *arg1
// EMU-SAME:  float v1 = vload_half(v0, arg0);
// EMU-SAME:  float v2 = plaidml_round_half(v1 + v1);
// EMU-SAME:  vstore_half_rte(v2, v0, arg1);
// EMU-LABEL: gpu.binary @half_exp_kernel
// EMU-NOT:   cl_khr_fp16
// EMU-SAME:  float v1 = vload_half(v0, arg0);
// EMU-SAME:  float v2 = v1;
// EMU-SAME:  float v3 = exp(v2);
// EMU-SAME:  float v4 = plaidml_round_half(v3);
// EMU-SAME:  vstore_half_rte(v4, v0, arg1);
// (Two functions: in one, plaidml-fuse-elementwise would make the add and
// the exp one kernel.)
func.func @half(%A: tensor<16xf16>) -> tensor<16xf16> {
  %s = tile.add %A, %A : tensor<16xf16>, tensor<16xf16> -> tensor<16xf16>
  return %s : tensor<16xf16>
}
func.func @half_exp(%A: tensor<16xf16>) -> tensor<16xf16> {
  %e = tile.exp %A : tensor<16xf16>
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
