// RUN: plaidml-opt %s -plaidml-gpu-launch-bools-as-bytes | FileCheck %s

// An i1 buffer reaches the kernel as bytes (the kernel stores i1 as i8, and
// gpu-to-llvm could not size an i1 element); other operands are untouched.
// CHECK-LABEL: func.func @mask
// CHECK-SAME: (%[[A:.*]]: memref<3xi1>, %[[O:.*]]: memref<3xf32>)
// CHECK: %[[BYTES:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<3xi1> to memref<3xi8>
// CHECK: gpu.launch_func @kernels::@k blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[BYTES]] : memref<3xi8>, %[[O]] : memref<3xf32>)
module attributes {gpu.container_module} {
  // The pass runs after the kernels became binaries (their SPIR-V stores an
  // i1 as an i8 already).
  gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>, "">]
  func.func @mask(%a: memref<3xi1>, %o: memref<3xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<3xi1>, %o : memref<3xf32>)
    return
  }
}
