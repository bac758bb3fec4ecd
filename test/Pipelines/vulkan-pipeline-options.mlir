// RUN: plaidml-opt %s -plaidml-vulkan-lowering-pipeline="max-workgroup-size=32 spirv-version=v1.5 caps=Int64 exts=SPV_KHR_8bit_storage" \
// RUN:   | FileCheck %s
// RUN: not plaidml-opt %s -plaidml-vulkan-pipeline="max-workgroup-size=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// RUN: not plaidml-opt %s -plaidml-vulkan-pipeline="spirv-version=1.3" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERSION

// The typed options reach the passes: the workgroup budget and the target
// environment.
// CHECK: gpu.launch_func @copy_kernel::@copy_kernel blocks in (%[[C4:.*]], %[[C1:.*]], %[[C1]]) threads in (%[[C32:.*]], %[[C1]], %[[C1]])
// CHECK: gpu.module @copy_kernel [#spirv.target_env<#spirv.vce<v1.5, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]>, api=Vulkan, #spirv.resource_limits<>>]
// CHECK: spirv.ExecutionMode @copy_kernel "LocalSize", 32, 1, 1
// SIZE: max-workgroup-size must be in [1, 1024], not 0
// VERSION: spirv-version must be v1.0 ... v1.6, not '1.3'
func.func @copy(%a: memref<100xf32>, %b: memref<100xf32>) {
  affine.parallel (%i) = (0) to (100) {
    %x = affine.load %a[%i] : memref<100xf32>
    affine.store %x, %b[%i] : memref<100xf32>
  }
  return
}
