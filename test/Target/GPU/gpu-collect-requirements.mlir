// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-gpu-collect-requirements | FileCheck %s

// Vulkan: every capability and extension of the kernels' VCE triples,
// sorted and unique, for the manifest's `requires` line.
// CHECK: module attributes {gpu.container_module, plaidml.requirements = ["Float64", "Int64", "SPV_KHR_storage_buffer_storage_class", "Shader"], plaidml.target = #plaidml.target<device = vulkan>}
module attributes {gpu.container_module,
                   plaidml.target = #plaidml.target<device = vulkan>} {
  gpu.module @a {
    spirv.module @__spv__a Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Float64], [SPV_KHR_storage_buffer_storage_class]> {
    }
  }
  gpu.module @b {
    spirv.module @__spv__b Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]> {
    }
  }
}

// -----

// OpenCL: SPIR-V kernels need a device that takes SPIR-V, and the
// extensions behind Float64/Float16; kernel objects bring what their
// OpenCL C enables.
// CHECK: plaidml.requirements = ["cl_khr_fp16", "cl_khr_fp64", "spirv"]
module attributes {gpu.container_module,
                   plaidml.target = #plaidml.target<device = opencl>} {
  gpu.module @a {
    spirv.module @__spv__a Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, Float64], []> {
    }
  }
  gpu.binary @b [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, #spirv.resource_limits<>>, properties = {plaidml.kernel_format = "opencl-c", plaidml.requirements = ["cl_khr_fp16"]}, "__kernel void k() {}">]
}

// -----

// Nothing needed: an empty list.
// CHECK: plaidml.requirements = []
module attributes {plaidml.target = #plaidml.target<device = vulkan>} {
}

// -----

module attributes {gpu.container_module,
                   plaidml.target = #plaidml.target<device = vulkan>} {
  gpu.module @a {
    // expected-error @+1 {{has no vce_triple, so what it needs of the device is unknown (run spirv-update-vce first)}}
    spirv.module @__spv__a Logical GLSL450 {
    }
  }
}
