// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-launch-bools-as-bytes | FileCheck %s

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

// -----

// A vector<4xi32> view of an f16 buffer (the wide staging of
// plaidml-gpu-stage-contraction) reaches the launch as the buffer itself:
// the same bytes, and gpu-to-llvm sizes only integer and float elements.
// A view of other bytes stays.
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[A:.*]]: memref<64x64xf16>, %[[O:.*]]: memref<64x64xf32>)
// CHECK-NOT: builtin.unrealized_conversion_cast %[[A]]
// CHECK: %[[ODD:.*]] = builtin.unrealized_conversion_cast %[[O]] : memref<64x64xf32> to memref<64x8xvector<4xi32>>
// CHECK: gpu.launch_func @kernels::@k blocks in ({{.*}}) threads in ({{.*}}) args(%[[A]] : memref<64x64xf16>, %[[ODD]] : memref<64x8xvector<4xi32>>)
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>, "">]
  func.func @views(%a: memref<64x64xf16>, %o: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %v = builtin.unrealized_conversion_cast %a : memref<64x64xf16> to memref<64x8xvector<4xi32>>
    %w = builtin.unrealized_conversion_cast %o : memref<64x64xf32> to memref<64x8xvector<4xi32>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%v : memref<64x8xvector<4xi32>>, %w : memref<64x8xvector<4xi32>>)
    return
  }
}
