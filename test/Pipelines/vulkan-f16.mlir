// RUN: plaidml-opt %s -plaidml-vulkan-lowering-pipeline="caps=Float16,StorageBuffer16BitAccess exts=SPV_KHR_16bit_storage" \
// RUN:   | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: plaidml-opt %s -plaidml-vulkan-lowering-pipeline="host-to-llvm=1 caps=Float16,StorageBuffer16BitAccess exts=SPV_KHR_16bit_storage" \
// RUN:   | %python %S/Inputs/spirv-val-binaries.py spirv-val vulkan1.1 %t \
// RUN:   | FileCheck %s --check-prefix=VAL
// RUN: not plaidml-opt %s -plaidml-vulkan-lowering-pipeline 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOF16

// f16 storage and math on a target that has them: the math conversion sees
// the gpu.module's target (plaidml-gpu-expose-target-env), so exp stays f16.
// CHECK: spirv.module @__spv__half_kernel Logical GLSL450 requires #spirv.vce<v1.0, [{{.*}}Float16{{.*}}], [{{.*}}SPV_KHR_16bit_storage{{.*}}]>
// CHECK: spirv.GL.Exp %{{.*}} : f16
// VAL: VALID 0
// VAL-NEXT: KERNELS 1

// Without Float16 and 16-bit storage, errors at the ops that need them
// (plaidml-gpu-check-device-support).
// NOF16: vulkan-f16.mlir:[[@LINE+5]]:10: error: 'memref.load' reads f16 from a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess; the target device does not have it
// NOF16: vulkan-f16.mlir:[[@LINE+5]]:10: error: 'math.exp' computes on f16, which needs the SPIR-V capability Float16; the target device does not have it
// NOF16: vulkan-f16.mlir:[[@LINE+6]]:5: error: 'memref.store' writes f16 to a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess; the target device does not have it
func.func @half(%a: memref<256xf16>, %out: memref<256xf16>) {
  affine.parallel (%i) = (0) to (256) {
    %x = affine.load %a[%i] : memref<256xf16>
    %e = math.exp %x : f16
    %s = arith.addf %x, %e : f16
    affine.store %s, %out[%i] : memref<256xf16>
  }
  return
}
