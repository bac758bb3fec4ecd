// The two-stage kernel plaidml-gpu-stage-contraction builds for a
// cooperative-matrix tile whose sixth value is 2 (an OpenCL target with
// nv-ptx-cp-async; docs/GpuKernels.md, "Cooperative matrices"): two
// staged tiles per factor (memref<2x...>) and one DMA tag; before the loop
// each invocation starts the asynchronous copies of its 4 wide chunks of
// each factor into stage 0; each step waits for its own copies
// (memref.dma_wait), meets the others at the one barrier of the step,
// starts the next step's copies into the other stage (1 - stage) unless
// it is the last step, and multiplies from stage (k / 32) % 2. The loop
// carries only the accumulators (no registers hold the next step) and has
// no second barrier.
// RUN: plaidml-opt %s -plaidml-gpu-stage-contraction -canonicalize -cse \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @two_stages
// CHECK:       gpu.launch
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<2x128x5xvector<4xi32>, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<2x32x17xvector<4xi32>, 3>
// CHECK-DAG:   %[[TAG:.*]] = memref.alloc() : memref<1xi32, 3>
// CHECK-COUNT-4: memref.dma_start %{{.*}}[%{{.*}}, %{{.*}}], %[[A]][%c0, %{{.*}}, %{{.*}}], %c1, %[[TAG]][%c0] : memref<256x8xvector<4xi32>>, memref<2x128x5xvector<4xi32>, 3>, memref<1xi32, 3>
// CHECK-COUNT-4: memref.dma_start %{{.*}}[%{{.*}}, %{{.*}}], %[[B]][%c0, %{{.*}}, %{{.*}}], %c1, %[[TAG]][%c0] : memref<64x32xvector<4xi32>>, memref<2x32x17xvector<4xi32>, 3>, memref<1xi32, 3>
// CHECK:       %{{.*}}:16 = scf.for %[[K:.*]] = %c0 to %c64 step %c32 iter_args({{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">, {{.*}}, !gpu.mma_matrix<16x16xf32, "COp">) {
// CHECK-NEXT:  %[[STEP:.*]] = arith.divui %[[K]], %c32 : index
// CHECK-NEXT:  %[[STAGE:.*]] = arith.remui %[[STEP]], %c2 : index
// CHECK-NEXT:  memref.dma_wait %[[TAG]][%c0], %c1 : memref<1xi32, 3>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  %[[NEXT:.*]] = arith.addi %[[K]], %c32 : index
// CHECK-NEXT:  %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %c64 : index
// CHECK-NEXT:  scf.if %[[MORE]] {
// CHECK-NEXT:    %[[OTHER:.*]] = arith.subi %c1, %[[STAGE]] : index
// CHECK-COUNT-4: memref.dma_start %{{.*}}, %[[A]][%[[OTHER]], %{{.*}}, %{{.*}}], %c1, %[[TAG]][%c0]
// CHECK-COUNT-4: memref.dma_start %{{.*}}, %[[B]][%[[OTHER]], %{{.*}}, %{{.*}}], %c1, %[[TAG]][%c0]
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.subgroup_mma_load_matrix %[[A]][%[[STAGE]], %{{.*}}, %c0] {leadDimension = 5 : index}
// CHECK-NOT:   gpu.barrier
// CHECK:       gpu.subgroup_mma_load_matrix %[[B]][%[[STAGE]], %c16, %{{.*}}] {leadDimension = 17 : index}
// CHECK-NOT:   gpu.barrier
// CHECK:       scf.yield
// CHECK-COUNT-16: gpu.subgroup_mma_store_matrix

// With an epilogue (a bias), the accumulators after the same loop go
// through the subgroups' scratch matrices (their own workgroup memory) to
// the bias and the stores: 2 x (10 240 + 8 704) bytes of staged tiles and
// 4 KiB of scratch.
// CHECK-LABEL: func.func @two_stages_bias
// CHECK-DAG:   memref.alloc() : memref<2x128x5xvector<4xi32>, 3>
// CHECK-DAG:   memref.alloc() : memref<2x32x17xvector<4xi32>, 3>
// CHECK:       %[[LOOP:.*]]:16 = scf.for
// CHECK:       memref.dma_wait
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
