// RUN: plaidml-translate %s --mlir-to-opencl-c --opencl-fp64 | FileCheck %s

// The cooperative-matrix kernel's ops as NVIDIA's PTX wmma, inline in the
// OpenCL C: fragments are structs of 8 registers per invocation; loads from
// workgroup memory take the 32-bit shared-window address, global ones the
// 64-bit pointer; strides count halves (a vector<4xi32> staged element is 8,
// a vector<4xf16> one 4) or floats; the product's layouts are the ones its
// operands were loaded with (transpose: col). Workgroup arrays that wmma
// reads are 256-bit aligned; f16 chunks built from elements are their bits.

// CHECK:       typedef struct { float r[8]; } plaidml_mma_acc;
// CHECK:       typedef struct { uint r[8]; } plaidml_mma_ab;
// CHECK:       __kernel __attribute__((reqd_work_group_size(64, 1, 1)))
// CHECK-NEXT:  void mma(
// CHECK-NEXT:      __global const uint4 *arg0,
// CHECK-NEXT:      __global const ushort4 *arg1,
// CHECK-NEXT:      __global float *arg2) {
// CHECK:         __local uint4 [[A:v[0-9]+]][160] __attribute__((aligned(32)));
// CHECK:         __local ushort4 [[B:v[0-9]+]][160] __attribute__((aligned(32)));
// CHECK:         __local float [[S:v[0-9]+]][512] __attribute__((aligned(32)));
// Subgroups of 32 on the linear local id.
// CHECK:         long [[SG:v[0-9]+]] = (long)((get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))) / 32);
// CHECK:         long {{v[0-9]+}} = (long)((get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))) % 32);
// CHECK:         plaidml_mma_acc [[C0:v[0-9]+]] = {{[{][{]}}0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f{{[}][}]}};
// CHECK:         uint4 [[VA:v[0-9]+]] = arg0[{{.*}}];
// CHECK-NEXT:    [[A]][{{.*}}] = [[VA]];
// CHECK-NEXT:    ushort4 [[CH:v[0-9]+]] = (ushort4)(plaidml_half_to_bits(1.0f), plaidml_half_to_bits(1.0f), plaidml_half_to_bits(1.0f), plaidml_half_to_bits(1.0f));
// CHECK-NEXT:    [[B]][{{.*}}] = [[CH]];
// CHECK:         plaidml_mma_ab [[FA:v[0-9]+]];
// CHECK-NEXT:    asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], 40;" : "=r"([[FA]].r[0]), {{.*}}, "=r"([[FA]].r[7]) : "r"((uint)(ulong)(&[[A]][{{.*}}])) : "memory");
// CHECK:         plaidml_mma_ab [[FB:v[0-9]+]];
// CHECK-NEXT:    asm volatile("wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], 40;" : {{.*}} : "r"((uint)(ulong)(&[[B]][{{.*}}])) : "memory");
// CHECK:         plaidml_mma_acc [[D:v[0-9]+]];
// CHECK-NEXT:    asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19,%20,%21,%22,%23}, {%24,%25,%26,%27,%28,%29,%30,%31};" : "=f"([[D]].r[0]), {{.*}} : "r"([[FA]].r[0]), {{.*}}, "r"([[FB]].r[0]), {{.*}}, "f"([[C0]].r[0]), {{.*}}, "f"([[C0]].r[7]));
// CHECK:         asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, 32;" :: "l"(&arg2[{{.*}}]), "f"([[D]].r[0]), {{.*}} : "memory");
// CHECK:         asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, 16;" :: "r"((uint)(ulong)(&[[S]][{{.*}}])), {{.*}} : "memory");

// The two-stage kernels' asynchronous copies: memref.dma_start of one
// 16-byte element (vector<4xi32>) from global to workgroup memory is
// cp.async.cg (L2 only), of 8 or 4 bytes cp.async.ca, with the shared-window
// address of the destination and the global pointer of the source;
// memref.dma_wait waits for all of the invocation's copies; the tag, used
// by nothing else, is no array.
// CHECK-LABEL: void copies(
// CHECK-NEXT:      __global const uint4 *arg0,
// CHECK-NEXT:      __global const uint2 *arg1,
// CHECK-NEXT:      __global uint4 *arg2,
// CHECK-NEXT:      __global const float *arg3) {
// CHECK-NEXT:    __local uint4 [[S:v[0-9]+]][80];
// CHECK-NEXT:    __local uint2 [[S2:v[0-9]+]][8];
// CHECK-NEXT:    __local float [[S4:v[0-9]+]][8];
// CHECK-NEXT:    long [[T:v[0-9]+]] = (long)get_local_id(0);
// CHECK-NEXT:    long [[ROW:v[0-9]+]] = [[T]] + 1;
// CHECK-NEXT:    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((uint)(ulong)(&[[S]][[[ROW]] * 5 + 41])), "l"(&arg0[[[T]] * 4 + 1]) : "memory");
// CHECK-NEXT:    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((uint)(ulong)(&[[S2]][[[T]]])), "l"(&arg1[[[T]]]) : "memory");
// CHECK-NEXT:    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((uint)(ulong)(&[[S4]][[[T]]])), "l"(&arg3[[[T]]]) : "memory");
// CHECK-NEXT:    asm volatile("cp.async.wait_all;" ::: "memory");
// CHECK-NEXT:    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:    uint4 [[V:v[0-9]+]] = [[S]][[[T]] * 5];
// CHECK-NEXT:    arg2[[[T]]] = [[V]];

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mma(%a: memref<32x4xvector<4xi32>>, %b: memref<32x8xvector<4xf16>>, %out: memref<32x32xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %h = arith.constant 1.0 : f16
      %sa = memref.alloc() : memref<32x5xvector<4xi32>, 3>
      %sb = memref.alloc() : memref<16x10xvector<4xf16>, 3>
      %scratch = memref.alloc() : memref<2x16x16xf32, 3>
      %tid = gpu.thread_id x
      %sg = gpu.subgroup_id : index
      %lane = gpu.lane_id
      %acc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %va = memref.load %a[%tid, %c0] : memref<32x4xvector<4xi32>>
      memref.store %va, %sa[%tid, %c0] : memref<32x5xvector<4xi32>, 3>
      %chunk = vector.from_elements %h, %h, %h, %h : vector<4xf16>
      memref.store %chunk, %sb[%lane, %c0] : memref<16x10xvector<4xf16>, 3>
      gpu.barrier
      %row = arith.muli %sg, %c16 : index
      %fa = gpu.subgroup_mma_load_matrix %sa[%row, %c0] {leadDimension = 5 : index} : memref<32x5xvector<4xi32>, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %sb[%c0, %c0] {leadDimension = 10 : index, transpose} : memref<16x10xvector<4xf16>, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %d = gpu.subgroup_mma_compute %fa, %fb, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %d, %out[%row, %c16] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
      gpu.subgroup_mma_store_matrix %d, %scratch[%sg, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<2x16x16xf32, 3>
      gpu.return
    }
    gpu.func @copies(%a: memref<32x4xvector<4xi32>>, %b: memref<8xvector<2xi32>>, %o: memref<8xvector<4xi32>>, %f: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s = memref.alloc() : memref<2x8x5xvector<4xi32>, 3>
      %s2 = memref.alloc() : memref<8xvector<2xi32>, 3>
      %s4 = memref.alloc() : memref<8xf32, 3>
      %tag = memref.alloc() : memref<1xi32, 3>
      %tid = gpu.thread_id x
      %row = arith.addi %tid, %c1 : index
      memref.dma_start %a[%tid, %c1], %s[%c1, %row, %c1], %c1, %tag[%c0] : memref<32x4xvector<4xi32>>, memref<2x8x5xvector<4xi32>, 3>, memref<1xi32, 3>
      memref.dma_start %b[%tid], %s2[%tid], %c1, %tag[%c0] : memref<8xvector<2xi32>>, memref<8xvector<2xi32>, 3>, memref<1xi32, 3>
      memref.dma_start %f[%tid], %s4[%tid], %c1, %tag[%c0] : memref<8xf32>, memref<8xf32, 3>, memref<1xi32, 3>
      memref.dma_wait %tag[%c0], %c1 : memref<1xi32, 3>
      gpu.barrier
      %v = memref.load %s[%c0, %tid, %c0] : memref<2x8x5xvector<4xi32>, 3>
      memref.store %v, %o[%tid] : memref<8xvector<4xi32>>
      gpu.return
    }
  }
}
