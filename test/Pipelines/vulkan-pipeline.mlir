// RUN: plaidml-opt %S/Inputs/vulkan-programs.mlir \
// RUN:   -plaidml-vulkan-lowering-pipeline | FileCheck %s
// RUN: plaidml-opt %S/Inputs/vulkan-programs.mlir \
// RUN:   -plaidml-vulkan-lowering-pipeline | FileCheck %s --check-prefix=NONE

// The lowering half of the Vulkan pipeline on hand-written ABI-form functions
// (docs/ABI.md section 1): host functions launch one kernel per outermost
// loop nest with the configured sizes; each gpu.module holds its spirv.module
// with the matching LocalSize, storage buffers in set 0.

// No affine or scf loop survives on the host; intermediates that fusion
// leaves stay host allocations passed to the kernels.
// NONE-NOT: affine.
// NONE-NOT: scf.parallel
// NONE-NOT: gpu.launch {
// NONE-NOT: math.
// NONE-NOT: memref.copy

// The elementwise chain through an intermediate is one kernel
// (plaidml-fuse-elementwise): the intermediate buffer is gone.
// CHECK-LABEL: func.func @chain
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch_func @chain_kernel::@chain_kernel blocks in (%[[C1:.*]], %[[C2:.*]], %[[C1]]) threads in (%[[C128:.*]], %[[C2]], %[[C1]]) args(%{{.*}} : memref<4x100xf32>, %{{.*}} : memref<4x100xf32>)
// CHECK-NEXT:    return
// CHECK:       gpu.module @chain_kernel [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] attributes {spirv.target_env = #spirv.target_env<{{.*}}>} {
// CHECK-NEXT:    spirv.module @__spv__chain_kernel Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Matrix], [SPV_KHR_storage_buffer_storage_class]>
// CHECK:           spirv.GlobalVariable @chain_kernel_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<400 x f32, stride=4> [0])>, StorageBuffer>
// CHECK:           spirv.GlobalVariable @chain_kernel_arg_1 bind(0, 1)
// CHECK:           spirv.func @chain_kernel() "None"
// CHECK:           spirv.EntryPoint "GLCompute" @chain_kernel
// CHECK-NEXT:      spirv.ExecutionMode @chain_kernel "LocalSize", 128, 2, 1
// CHECK:         gpu.func @chain_kernel({{.*}}) kernel attributes {{{.*}}spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [128, 2, 1]>}
// CHECK-NOT:   gpu.module @chain_kernel_0

// The hand-set 8x16 tile of a 64x48 matmul: 3x8 workgroups of 16x8, the
// reduction a loop inside the kernel.
// CHECK-LABEL: func.func @matmul
// CHECK:         gpu.launch_func @matmul_kernel::@matmul_kernel blocks in (%c3, %c8, %c1) threads in (%c16, %c8, %c1)
// CHECK:       gpu.module @matmul_kernel
// CHECK-NEXT:    spirv.module @__spv__matmul_kernel
// CHECK:           spirv.mlir.loop
// CHECK:           spirv.ExecutionMode @matmul_kernel "LocalSize", 16, 8, 1

// CHECK-LABEL: func.func @conv
// CHECK:         gpu.launch_func @conv_kernel::@conv_kernel
// CHECK:       gpu.module @conv_kernel
// CHECK-NEXT:    spirv.module @__spv__conv_kernel
// CHECK:           spirv.ExecutionMode @conv_kernel "LocalSize", 16, 1, 1

// Three mapped dimensions, the innermost to x.
// CHECK-LABEL: func.func @ints
// CHECK:       gpu.module @ints_kernel
// CHECK-NEXT:    spirv.module @__spv__ints_kernel
// CHECK-DAG:       spirv.SDiv
// CHECK-DAG:       spirv.ShiftRightArithmetic
// CHECK-DAG:       spirv.UMod
// CHECK-DAG:       spirv.BitwiseXor
// CHECK:           spirv.ExecutionMode @ints_kernel "LocalSize", 8, 8, 4
// CHECK:         gpu.func @ints_kernel
// CHECK:           memref.store %{{.*}}, %{{.*}}[%thread_id_z, %thread_id_y, %thread_id_x]

// The initialization is parallel; the accumulation with a non-projected
// sink and the scalar store run in one single-invocation kernel.
// CHECK-LABEL: func.func @outer_sum
// CHECK:         gpu.launch_func @outer_sum_kernel::@outer_sum_kernel blocks in (%[[C1:.*]], %[[C1]], %[[C1]]) threads in (%[[C8:.*]], %[[C1]], %[[C1]]) args(%{{.*}} : memref<8xf32>)
// CHECK-NEXT:    gpu.launch_func @outer_sum_kernel_{{[0-9]+}}::@outer_sum_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args({{.*}} : memref<4xf32>, {{.*}} : memref<5xf32>, {{.*}} : memref<8xf32>, {{.*}} : memref<f32>)
// CHECK-NEXT:    return
// CHECK:       gpu.module @outer_sum_kernel_{{[0-9]+}}
// CHECK-NEXT:    spirv.module @__spv__outer_sum_kernel_{{[0-9]+}}
// CHECK:           spirv.ExecutionMode @outer_sum_kernel "LocalSize", 1, 1, 1

// 300 outputs: two workgroups of 256, the second guarded; math as GLSL,
// erf as a polynomial (no math op left).
// CHECK-LABEL: func.func @math
// CHECK:         gpu.launch_func @math_kernel::@math_kernel blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK:       gpu.module @math_kernel
// CHECK-NEXT:    spirv.module @__spv__math_kernel
// CHECK-DAG:       spirv.GL.Exp
// CHECK-DAG:       spirv.GL.Sqrt
// CHECK-DAG:       spirv.GL.Log
// CHECK:           spirv.ExecutionMode @math_kernel "LocalSize", 256, 1, 1

// CHECK-LABEL: func.func @alias
// CHECK:         gpu.launch_func @alias_kernel::@alias_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%{{.*}} : memref<2x3xi32>, %{{.*}} : memref<2x3xi32>)
// CHECK-NEXT:    return
