// RUN: plaidml-opt %s -pass-pipeline='builtin.module(gpu.module(plaidml-gpu-expose-target-env))' \
// RUN:   | FileCheck %s

// The #spirv.target_env that spirv-attach-target put among the module's
// targets becomes its spirv.target_env attribute too, where the per-dialect
// SPIR-V conversions look.
// CHECK-LABEL: gpu.module @with_target
// CHECK-SAME: attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float16], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>}
// CHECK-LABEL: gpu.module @without_target
// CHECK-NOT: spirv.target_env
module attributes {gpu.container_module} {
  gpu.module @with_target [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>] {
  }
  gpu.module @without_target {
  }
}
