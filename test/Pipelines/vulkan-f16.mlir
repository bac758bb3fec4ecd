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

// Without Float16 the kernel does not convert (yet a conversion failure, not
// an error naming the type and the device).
// NOF16: error: failed to legalize operation
func.func @half(%a: memref<256xf16>, %out: memref<256xf16>) {
  affine.parallel (%i) = (0) to (256) {
    %x = affine.load %a[%i] : memref<256xf16>
    %e = math.exp %x : f16
    %s = arith.addf %x, %e : f16
    affine.store %s, %out[%i] : memref<256xf16>
  }
  return
}
