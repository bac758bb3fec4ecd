// RUN: plaidml-opt %s | plaidml-opt | FileCheck %s

// Every plaidml attribute round-trips, defaults elided.

// CHECK: module attributes {plaidml.target = #plaidml.target<device = vulkan, cpu = "x86-64", caps = ["Float64", "Int64"], exts = ["SPV_KHR_8bit_storage"], max_workgroup_size = 64, label = "vulkan:0 (llvmpipe)">}
module attributes {plaidml.target = #plaidml.target<device = vulkan,
    cpu = "x86-64", caps = ["Float64", "Int64"],
    exts = ["SPV_KHR_8bit_storage"], max_workgroup_size = 64,
    label = "vulkan:0 (llvmpipe)">} {
  // CHECK-LABEL: func.func @f
  // CHECK-SAME: plaidml.entry, plaidml.inputs = [tensor<4xsi32>], plaidml.outputs = [tensor<4xf32>]
  func.func @f(%a: memref<4xi32>, %b: memref<4xf32>)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xsi32>],
                  plaidml.outputs = [tensor<4xf32>]} {
    // CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14, vectors = 2, panels_per_block = 4, pack = true, unroll_inner = false>
    affine.parallel (%i) = (0) to (4) {
    } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14,
        vectors = 2, panels_per_block = 4, pack = true, unroll_inner = false>}
    // CHECK: plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 4, vectors = 3, panels_per_block = 1, pack = true, unroll_inner = false, reduction_chunk = 16>
    affine.parallel (%i) = (0) to (4) {
    } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 8, rows = 4,
        vectors = 3, panels_per_block = 1, pack = true, unroll_inner = false,
        reduction_chunk = 16>}
    // CHECK: plaidml.gpu.workgroup_size = array<i64: 2, 2>
    affine.parallel (%i, %j) = (0, 0) to (4, 4) {
    } {plaidml.gpu.workgroup_size = array<i64: 2, 2>}
    return
  }
}

// -----

// CHECK: #plaidml.target<device = cpu>
// CHECK: #plaidml.target<device = opencl, triple = "x86_64-unknown-linux-gnu", features = "+avx2", exts = ["cl_khr_fp64"]>
module attributes {plaidml.target = #plaidml.target<device = cpu>} {
  module attributes {plaidml.target = #plaidml.target<device = opencl,
      triple = "x86_64-unknown-linux-gnu", features = "+avx2",
      exts = ["cl_khr_fp64"]>} {
  }
}
