// An f16 matmul (f32 accumulation) on a Vulkan target with cooperative
// matrices: the kernel multiplies with spirv.KHR.CooperativeMatrix* ops,
// its module is SPIR-V 1.6 and declares GroupNonUniform for the subgroup
// built-ins, and the artifact requires the shape and 32-invocation
// subgroups. Without the shape, the SIMT staged kernel. The second
// product's tiles divide its output and nothing follows the sum: its
// accumulators are stored straight into the output buffer; its tiles and
// steps divide both factors too, which it loads and stages as
// vector<4xi32> (8 halves at a time) through views of their buffers, while
// the launch passes the f16 buffers themselves (their sizes in bytes).
// RUN: plaidml-opt %s -plaidml-vulkan-pipeline="caps=Float16,StorageBuffer16BitAccess,CooperativeMatrixKHR,coopmat-16x16x16-f16-f32,subgroup-size-32 exts=SPV_KHR_16bit_storage,SPV_KHR_cooperative_matrix" \
// RUN:   | FileCheck %s
// RUN: plaidml-opt %s -plaidml-vulkan-pipeline="host-to-llvm=1 caps=Float16,StorageBuffer16BitAccess,CooperativeMatrixKHR,coopmat-16x16x16-f16-f32,subgroup-size-32 exts=SPV_KHR_16bit_storage,SPV_KHR_cooperative_matrix" \
// RUN:   | FileCheck %s --check-prefix=REQ
// RUN: plaidml-opt %s -plaidml-vulkan-pipeline="caps=Float16,StorageBuffer16BitAccess exts=SPV_KHR_16bit_storage" \
// RUN:   | FileCheck %s --check-prefix=SIMT

// CHECK: spirv.module @__spv__half_kernel Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}GroupNonUniform], [{{.*}}SPV_KHR_cooperative_matrix]>
// CHECK-DAG: built_in("SubgroupId")
// CHECK-DAG: built_in("SubgroupLocalInvocationId")
// CHECK: spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<vector<4xf16>, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// CHECK: spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<vector<4xf16>, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// CHECK: spirv.KHR.CooperativeMatrixMulAdd {{.*}} -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: spirv.KHR.CooperativeMatrixStore %{{.*}}, %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f32, Workgroup>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
// CHECK: spirv.module @__spv__exact_kernel
// CHECK-NOT: x f32>)>, Workgroup>
// CHECK: spirv.Load "StorageBuffer" %{{.*}} : vector<4xi32>
// CHECK: spirv.Store "Workgroup" %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<vector<4xi32>, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// CHECK: spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<vector<4xi32>, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// CHECK: spirv.KHR.CooperativeMatrixStore %{{.*}}, %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32

// REQ: plaidml.requirements = [{{.*}}"CooperativeMatrixKHR", {{.*}}"GroupNonUniform", {{.*}}"coopmat-16x16x16-f16-f32", "subgroup-size-32"]
// REQ-LABEL: llvm.func internal @exact(
// REQ-DAG: llvm.mlir.constant(32768 : index) : i64
// REQ-DAG: llvm.mlir.constant(65536 : index) : i64
// REQ-DAG: llvm.mlir.constant(524288 : index) : i64

// SIMT-NOT: CooperativeMatrix
// SIMT: spirv.module @__spv__half_kernel
// SIMT-NOT: CooperativeMatrix
func.func @half(%A: tensor<200x96xf16>, %B: tensor<96x130xf16>) -> tensor<200x130xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<200x96xf16>, tensor<96x130xf16> -> tensor<200x130xf32>
  return %C : tensor<200x130xf32>
}

func.func @exact(%A: tensor<256x64xf16>, %B: tensor<64x512xf16>) -> tensor<256x512xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<256x64xf16>, tensor<64x512xf16> -> tensor<256x512xf32>
  return %C : tensor<256x512xf32>
}
