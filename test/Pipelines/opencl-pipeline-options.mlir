// RUN: plaidml-opt %s -plaidml-opencl-lowering-pipeline="max-workgroup-size=32" \
// RUN:   | FileCheck %s
// RUN: plaidml-opt %s -plaidml-opencl-lowering-pipeline="fp16=1 fp64=1" \
// RUN:   | FileCheck %s --check-prefix=CAPS
// RUN: plaidml-opt %s -plaidml-opencl-lowering-pipeline="kernel-format=spirv max-workgroup-size=32 fp64=1" \
// RUN:   | FileCheck %s --check-prefix=SPIRV
// RUN: plaidml-opt %s -plaidml-opencl-lowering-pipeline="kernel-format=spirv host-to-llvm=1" \
// RUN:   | FileCheck %s --check-prefix=SPIRV-BINARY
// RUN: plaidml-opt %s -plaidml-opencl-lowering-pipeline="kernel-format=both fp64=1" \
// RUN:   | FileCheck %s --check-prefix=BUNDLE
// RUN: plaidml-opt %s -plaidml-opencl-lowering-pipeline="ptx-wmma=1 ptx-cp-async=1 emulate-nv-ptx=1" \
// RUN:   | FileCheck %s --check-prefix=PTX
// RUN: not plaidml-opt %s -plaidml-opencl-pipeline="max-workgroup-size=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// RUN: not plaidml-opt %s -plaidml-opencl-pipeline="kernel-format=ptx" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORMAT

// ptx-wmma, ptx-cp-async and emulate-nv-ptx become the target's
// extensions, which plaidml-gpu-configure (the cooperative-matrix tiles)
// and the OpenCL C translation (the PTX, or its emulation) read.
// PTX: plaidml.target = #plaidml.target<device = opencl, cpu = "x86-64", exts = ["nv-ptx-wmma", "nv-ptx-cp-async", "emulate-nv-ptx"]>

// The typed options reach the passes: the workgroup budget, the kernel
// format and the device's capabilities (the object's target).
// CHECK: gpu.launch_func @copy_kernel::@copy_kernel blocks in (%[[C4:.*]], %[[C1:.*]], %[[C1]]) threads in (%[[C32:.*]], %[[C1]], %[[C1]])
// CHECK: gpu.binary @copy_kernel [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64], []>, api=OpenCL, #spirv.resource_limits<>>, properties = {plaidml.kernel_format = "opencl-c", plaidml.requirements = []}, "{{.*}}reqd_work_group_size(32, 1, 1){{.*}}">]
// CAPS: gpu.binary @copy_kernel [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float16, Float64], []>, api=OpenCL, #spirv.resource_limits<>>, properties = {plaidml.kernel_format = "opencl-c", plaidml.requirements = []}

// kernel-format=spirv: the SPIR-V of the OpenCL environment nested in the
// gpu.module (Kernel, Physical64, CrossWorkgroup pointers as arguments),
// serialized by gpu-module-to-binary with host-to-llvm.
// SPIRV: gpu.module @copy_kernel [#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>]
// SPIRV-NEXT: spirv.module @__spv__copy_kernel Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []>
// SPIRV: spirv.func @copy_kernel(%{{.*}}: !spirv.ptr<!spirv.array<100 x f32>, CrossWorkgroup>, %{{.*}}: !spirv.ptr<!spirv.array<100 x f32>, CrossWorkgroup>)
// SPIRV: spirv.EntryPoint "Kernel" @copy_kernel
// SPIRV-NEXT: spirv.ExecutionMode @copy_kernel "LocalSize", 32, 1, 1
// SPIRV-BINARY: llvm.func @copy(
// SPIRV-BINARY: gpu.binary @copy_kernel [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64], []>, api=OpenCL, #spirv.resource_limits<>>, "\03\02#\07
// kernel-format=both: a kernel bundle of the two (opencl-kernel-bundle.mlir),
// with the device's capabilities in the object's target.
// BUNDLE: gpu.binary @copy_kernel [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>, properties = {plaidml.kernel_format = "bundle", plaidml.kernel_formats = ["spirv", "opencl-c"], plaidml.requirements = []}, "\7FPKB
// SIZE: max-workgroup-size must be in [1, 1024], not 0
// FORMAT: for the --kernel-format option: Cannot find option named 'ptx'!
func.func @copy(%a: memref<100xf32>, %b: memref<100xf32>) {
  affine.parallel (%i) = (0) to (100) {
    %x = affine.load %a[%i] : memref<100xf32>
    affine.store %x, %b[%i] : memref<100xf32>
  }
  return
}
