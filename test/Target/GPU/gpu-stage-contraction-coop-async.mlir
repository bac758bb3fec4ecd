// The multi-stage kernels plaidml-gpu-stage-contraction builds for a
// cooperative-matrix tile whose sixth value S is 2 to 4 (an OpenCL target
// with nv-ptx-cp-async; docs/GpuKernels.md, "Cooperative matrices"): S
// staged tiles per factor (memref<Sx...xi32>, the factors read through i32
// views of their buffers); before the loop each invocation copies its 16-byte
// chunks (4 i32) of steps 0 to S - 2 into stages 0 to S - 2 with
// nvgpu.device_async_copy, one group per step; each step waits until at most
// S - 2 groups are pending (its own complete), meets the others at the one
// barrier of the step, copies the step S - 1 ahead into stage
// (step + S - 1) % S and multiplies from stage step % S. Past the last step,
// two stages copy nothing (their wait is for every group); more stages copy
// the last step again into a stage no later step reads, so that every step
// commits one group and the count of the wait holds; a wait for every group
// follows their loop. The loop carries only the accumulators (no registers
// hold later steps) and has no second barrier.
// RUN: plaidml-opt %s -plaidml-gpu-stage-contraction -canonicalize -cse \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @two_stages
// CHECK-DAG:   %[[VA:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<256x64xf16> to memref<256x32xi32>
// CHECK-DAG:   %[[VB:.*]] = builtin.unrealized_conversion_cast %arg1 : memref<64x256xf16> to memref<64x128xi32>
// CHECK:       gpu.launch
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<2x128x20xi32, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<2x32x68xi32, 3>
// CHECK-COUNT-4: nvgpu.device_async_copy %[[VA]][%{{.*}}, %{{.*}}], %[[A]][%c0, %{{.*}}, %{{.*}}], 4 {bypassL1} : memref<256x32xi32> to memref<2x128x20xi32, 3>
// CHECK-COUNT-4: nvgpu.device_async_copy %[[VB]][%{{.*}}, %{{.*}}], %[[B]][%c0, %{{.*}}, %{{.*}}], 4 {bypassL1} : memref<64x128xi32> to memref<2x32x68xi32, 3>
// CHECK-NEXT:  %[[G0:.*]] = nvgpu.device_async_create_group %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}
// CHECK-NOT:   nvgpu.device_async_create_group
// CHECK:       %{{.*}}:16 = scf.for %[[K:.*]] = %c0 to %c64 step %c32 iter_args({{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">, {{.*}}, !gpu.mma_matrix<16x16xf32, "COp">) {
// CHECK-NEXT:  %[[STEP:.*]] = arith.divui %[[K]], %c32 : index
// CHECK-NEXT:  %[[STAGE:.*]] = arith.remui %[[STEP]], %c2 : index
// CHECK-NEXT:  nvgpu.device_async_wait %[[G0]] {numGroups = 0 : i32}
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  %[[NEXT:.*]] = arith.addi %[[K]], %c32 : index
// CHECK-NEXT:  %[[AHEAD:.*]] = arith.addi %[[STEP]], %c1 : index
// CHECK-NEXT:  %[[OTHER:.*]] = arith.remui %[[AHEAD]], %c2 : index
// CHECK-NEXT:  %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %c64 : index
// CHECK-NEXT:  scf.if %[[MORE]] {
// CHECK-COUNT-4: nvgpu.device_async_copy %[[VA]][%{{.*}}, %{{.*}}], %[[A]][%[[OTHER]], %{{.*}}, %{{.*}}], 4
// CHECK-COUNT-4: nvgpu.device_async_copy %[[VB]][%{{.*}}, %{{.*}}], %[[B]][%[[OTHER]], %{{.*}}, %{{.*}}], 4
// CHECK-NEXT:    nvgpu.device_async_create_group
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.subgroup_mma_load_matrix %[[A]][%[[STAGE]], %{{.*}}, %c0] {leadDimension = 20 : index} : memref<2x128x20xi32, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-NOT:   gpu.barrier
// CHECK:       gpu.subgroup_mma_load_matrix %[[B]][%[[STAGE]], %c16, %{{.*}}] {leadDimension = 68 : index}
// CHECK-NOT:   gpu.barrier
// CHECK:       scf.yield
// CHECK-COUNT-16: gpu.subgroup_mma_store_matrix

// Three stages of 16-deep steps: steps 0 and 1 before the loop, each its own
// group; each step waits for all but the newest group and copies the step 2
// ahead (clamped to the last, at 48) into stage (step + 2) % 3.
// CHECK-LABEL: func.func @three_stages
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<3x128x12xi32, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<3x16x68xi32, 3>
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[A]][%c0, %{{.*}}, %{{.*}}], 4
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[B]][%c0, %{{.*}}, %{{.*}}], 4
// CHECK-NEXT:  %[[G0:.*]] = nvgpu.device_async_create_group
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[A]][%c1, %{{.*}}, %{{.*}}], 4
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[B]][%c1, %{{.*}}, %{{.*}}], 4
// CHECK-NEXT:  nvgpu.device_async_create_group
// CHECK:       scf.for %[[K:.*]] = %c0 to %c64 step %c16
// CHECK-NEXT:  %[[STEP:.*]] = arith.divui %[[K]], %c16 : index
// CHECK-NEXT:  %[[STAGE:.*]] = arith.remui %[[STEP]], %c3 : index
// CHECK-NEXT:  nvgpu.device_async_wait %[[G0]] {numGroups = 1 : i32}
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  %[[NEXT:.*]] = arith.addi %[[K]], %c32 : index
// CHECK-NEXT:  %[[AHEAD:.*]] = arith.addi %[[STEP]], %c2 : index
// CHECK-NEXT:  %[[LATER:.*]] = arith.remui %[[AHEAD]], %c3 : index
// CHECK-NEXT:  %{{.*}} = arith.minui %[[NEXT]], %c48 : index
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[A]][%[[LATER]], %{{.*}}, %{{.*}}], 4
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[B]][%[[LATER]], %{{.*}}, %{{.*}}], 4
// CHECK-NEXT:  nvgpu.device_async_create_group
// CHECK-NEXT:  gpu.subgroup_mma_load_matrix %[[A]][%[[STAGE]], %{{.*}}, %c0] {leadDimension = 12 : index}
// CHECK-NOT:   gpu.barrier
// CHECK:       scf.yield

// After the loop of more than 2 stages, a wait for every group (the last
// steps' repeated copies): nothing is in flight past it.
// CHECK-NEXT:  }
// CHECK-NEXT:  nvgpu.device_async_wait %[[G0]] {numGroups = 0 : i32}
// CHECK:       gpu.subgroup_mma_store_matrix

// Four stages of a single step (K = 16, fewer steps than S - 1): the
// prologue copies step 0 (the same source each time, clamped) into stages
// 0, 1 and 2, three groups; the step (its loop folded away) waits for all
// but 2 (its own is the oldest), copies step 0 again into stage 3,
// multiplies from stage 0 and waits for every group before the stores.
// Workgroup memory is counted as allocated (A 3 x 128 x (16 + 8) halves, B
// 3 x 16 x (256 + 8) halves: 43 776 bytes, no scratch), so this tile fits
// the 48 KiB.
// CHECK-LABEL: func.func @three_stages_wide
// CHECK-DAG:   memref.alloc() : memref<3x128x12xi32, 3>
// CHECK-DAG:   memref.alloc() : memref<3x16x132xi32, 3>
// CHECK:       nvgpu.device_async_wait
// CHECK-NOT:   memref.alloc

// CHECK-LABEL: func.func @four_stages_one_step
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<4x64x12xi32, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<4x16x68xi32, 3>
// CHECK:       nvgpu.device_async_copy %{{.*}}[%[[R:.*]], %[[C:.*]]], %[[A]][%c0,
// CHECK:       %[[G0:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT:  nvgpu.device_async_copy %{{.*}}[%[[R]], %[[C]]], %[[A]][%c1,
// CHECK:       nvgpu.device_async_create_group
// CHECK-NEXT:  nvgpu.device_async_copy %{{.*}}[%[[R]], %[[C]]], %[[A]][%c2,
// CHECK:       nvgpu.device_async_create_group
// CHECK-NEXT:  nvgpu.device_async_wait %[[G0]] {numGroups = 2 : i32}
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  nvgpu.device_async_copy %{{.*}}[%[[R]], %[[C]]], %[[A]][%c3,
// CHECK:       nvgpu.device_async_create_group
// CHECK-NEXT:  gpu.subgroup_mma_load_matrix %[[A]][%c0,
// CHECK:       nvgpu.device_async_wait %[[G0]] {numGroups = 0 : i32}
// CHECK-NOT:   nvgpu.
// CHECK:       gpu.subgroup_mma_store_matrix

// With an epilogue (a bias), the accumulators after the same loop go
// through the subgroups' scratch matrices (their own workgroup memory) to
// the bias and the stores: 2 x (10 240 + 8 704) bytes of staged tiles and
// 4 KiB of scratch.
// CHECK-LABEL: func.func @two_stages_bias
// CHECK-DAG:   memref.alloc() : memref<2x128x20xi32, 3>
// CHECK-DAG:   memref.alloc() : memref<2x32x68xi32, 3>
// CHECK:       %[[LOOP:.*]]:16 = scf.for
// CHECK:       nvgpu.device_async_wait
// CHECK-NEXT:  gpu.barrier
// CHECK:       scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[SCRATCH:.*]] = memref.alloc() : memref<4x16x16xf32, 3>
// CHECK:       gpu.subgroup_mma_store_matrix %[[LOOP]]#0, %[[SCRATCH]]
// CHECK-NEXT:  gpu.barrier
// CHECK:       memref.load %arg2
// CHECK:       arith.addf
// CHECK:       memref.store %{{.*}}, %arg3
module attributes {plaidml.target = #plaidml.target<device = opencl, exts = ["nv-ptx-wmma", "nv-ptx-cp-async"]>} {
func.func @two_stages(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (256, 256) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<256x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x256xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<256x256xf32>
  } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 2>}
  return
}
func.func @three_stages(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (256, 256) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<256x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x256xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<256x256xf32>
  } {plaidml.gpu.coop_tile = array<i64: 128, 128, 16, 64, 64, 3>}
  return
}
func.func @three_stages_wide(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 256) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x256xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x256xf32>
  } {plaidml.gpu.coop_tile = array<i64: 128, 256, 16, 64, 64, 3>}
  return
}

func.func @four_stages_one_step(%a: memref<128x16xf16>, %b: memref<16x256xf16>, %c: memref<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 256) {
    %r = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x16xf16>
      %y = affine.load %b[%k, %n] : memref<16x256xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x256xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 128, 16, 32, 64, 4>}
  return
}
func.func @two_stages_bias(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %bias: memref<256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (256, 256) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<256x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x256xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    %bb = affine.load %bias[%n] : memref<256xf32>
    %o = arith.addf %r, %bb : f32
    affine.store %o, %c[%m, %n] : memref<256x256xf32>
  } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 2>}
  return
}
}
