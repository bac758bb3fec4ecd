// The cooperative-matrix kernels of NVIDIA's OpenCL (f16 factors summed in
// f32; docs/GpuKernels.md, "Cooperative matrices") run on opencl:0 (PoCL)
// with their PTX printed as portable OpenCL C (plaidml-run
// --emulate-nv-ptx: every invocation holds whole 16x16 matrices, the
// asynchronous copies are queued and done when a wait needs them, so that
// a wait for too few groups reads stale workgroup memory; copies done as
// late as allowed cannot show a copy that overwrites a stage others still
// read, which only the barriers' placement, tested in the IR, prevents),
// each entry
// against the reference interpreter on the same random inputs. The shapes
// reach each path of the kernel: the multi-stage tiles copied
// asynchronously (A.B in 3 stages of 16, 64x64 in 4 subgroups of 32x32,
// the form large A.B products get on the GPU; A.B^T and A^T.B^T in 2
// stages of 32; a batch; more steps than stages), the one-stage tile of a
// reduction the step does not divide (guarded loads) and of edges in M
// and N that the tile does not divide (the scratch matrices and guarded
// stores), an epilogue (bias and relu through the scratch matrices, 3
// stages) and an initial value other than 0.
//
// The choices, as remarks (the target --emulate-nv-ptx compiles for):
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-attach-target="device=opencl exts=nv-ptx-wmma,nv-ptx-cp-async,emulate-nv-ptx" \
// RUN:   -tile-compute-bounds \
// RUN:   -convert-tile-to-affine="border-fill=false split-guards=false" \
// RUN:   -plaidml-fuse-elementwise -plaidml-gpu-configure=remarks=1 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK: cooperative-matrix tile 64x64x16, 32x32 per subgroup (16x16x16 f16 -> f32), 3 stages copied asynchronously, over M x N x K = 64 x 64 x 256, batch 1
// REMARK: cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 2 stages copied asynchronously, over M x N x K = 64 x 128 x 96, batch 1
// REMARK: cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 2 stages copied asynchronously, over M x N x K = 128 x 64 x 64, batch 1
// REMARK: cooperative-matrix tile 64x64x16, 32x32 per subgroup (16x16x16 f16 -> f32), 3 stages copied asynchronously, over M x N x K = 64 x 64 x 64, batch 3
// REMARK: cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 64 x 64 x 40, batch 1
// REMARK: cooperative-matrix tile 64x64x32, 32x16 per subgroup (16x16x16 f16 -> f32), 1 stage, over M x N x K = 70 x 50 x 64, batch 1
// REMARK: cooperative-matrix tile 64x64x16, 32x32 per subgroup (16x16x16 f16 -> f32), 3 stages copied asynchronously, over M x N x K = 64 x 64 x 64, batch 1
//
// RUN: %if opencl %{ rm -rf %t.cl && %python %S/compare_devices.py \
// RUN:   --plaidml-run plaidml-run --program %s --work-dir %t.cl \
// RUN:   --device opencl:0 --extra=--emulate-nv-ptx \
// RUN:   long_k bt tt batched odd_k edges bias_relu | FileCheck %s %}
// CHECK: PASS long_k
// CHECK: PASS bt
// CHECK: PASS tt
// CHECK: PASS batched
// CHECK: PASS odd_k
// CHECK: PASS edges
// CHECK: PASS bias_relu

// A.B with 8 steps of 32 through 2 stages.
func.func @long_k(%A: tensor<64x256xf16>, %B: tensor<256x64xf16>) -> tensor<64x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<64x256xf16>, tensor<256x64xf16> -> tensor<64x64xf32>
  return %O : tensor<64x64xf32>
}

// -----

// A.B^T: both factors' memory follows K.
func.func @bt(%A: tensor<64x96xf16>, %B: tensor<128x96xf16>) -> tensor<64x128xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>]}
       : tensor<f32>, tensor<64x96xf16>, tensor<128x96xf16> -> tensor<64x128xf32>
  return %O : tensor<64x128xf32>
}

// -----

// A^T.B^T: neither factor's memory follows K.
func.func @tt(%A: tensor<64x128xf16>, %B: tensor<64x64xf16>) -> tensor<128x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>]}
       : tensor<f32>, tensor<64x128xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
  return %O : tensor<128x64xf32>
}

// -----

func.func @batched(%A: tensor<3x64x64xf16>, %B: tensor<3x64x64xf16>) -> tensor<3x64x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["b", "m", "n", "k"], sink = affine_map<(b, m, n, k) -> (b, m, n)>, srcs = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>]}
       : tensor<f32>, tensor<3x64x64xf16>, tensor<3x64x64xf16> -> tensor<3x64x64xf32>
  return %O : tensor<3x64x64xf32>
}

// -----

// K = 40: the second step is cut short (guarded loads, one stage).
func.func @odd_k(%A: tensor<64x40xf16>, %B: tensor<40x64xf16>) -> tensor<64x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<64x40xf16>, tensor<40x64xf16> -> tensor<64x64xf32>
  return %O : tensor<64x64xf32>
}

// -----

// 70 x 50: partial tiles in M and N, an initial value of 1.
func.func @edges(%A: tensor<70x64xf16>, %B: tensor<64x50xf16>) -> tensor<70x50xf32> {
  %one = tile.constant dense<1.0> : tensor<f32>
  %O = tile.contract add, mul, %one, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<70x64xf16>, tensor<64x50xf16> -> tensor<70x50xf32>
  return %O : tensor<70x50xf32>
}

// -----

// A fused epilogue: relu(A.B + bias).
func.func @bias_relu(%A: tensor<64x64xf16>, %B: tensor<64x64xf16>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>, srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  %S = tile.add %O, %bias : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
  %R = tile.relu %S : tensor<64x64xf32>
  return %R : tensor<64x64xf32>
}
