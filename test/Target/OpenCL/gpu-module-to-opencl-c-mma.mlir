// RUN: plaidml-translate %s --mlir-to-opencl-c --opencl-fp64 | FileCheck %s
// RUN: plaidml-translate %s --mlir-to-opencl-c --opencl-fp64 \
// RUN:   --opencl-emulate-nv-ptx | FileCheck %s --check-prefix=EMU \
// RUN:   --implicit-check-not=asm

// Emulated (--opencl-emulate-nv-ptx, plaidml-compile --emulate-nv-ptx): the
// same meaning in portable OpenCL C. Every invocation holds the whole
// matrix (row-major, f16 as float); loads read all of it in the load's
// layout, the product sums in k order, a store writes the lane's 8
// elements; asynchronous copies are queued with the group they join and
// done when a wait needs them (or the queue, as long as the kernel's copy
// ops, is full).
// EMU:       typedef struct { float r[256]; } plaidml_mma_emu;
// EMU:       void plaidml_q_done(
// EMU-LABEL: void mma(
// EMU:         plaidml_mma_emu [[ACC:v[0-9]+]];
// EMU-NEXT:    for (int i = 0; i < 256; ++i)
// EMU-NEXT:      [[ACC]].r[i] = 0.0f;
// EMU:         plaidml_mma_emu [[A:v[0-9]+]];
// EMU:           __local const half *p = (__local const half *)(&v0[{{.*}}]);
// EMU:               [[A]].r[i * 16 + j] = vload_half(i * 40 + j, p);
// EMU:         plaidml_mma_emu [[B:v[0-9]+]];
// EMU:               [[B]].r[i * 16 + j] = vload_half(j * 40 + i, p);
// EMU:         plaidml_mma_emu [[D:v[0-9]+]];
// EMU:             float s = [[ACC]].r[i * 16 + j];
// EMU-NEXT:        for (int k = 0; k < 16; ++k)
// EMU-NEXT:          s += [[A]].r[i * 16 + k] * [[B]].r[k * 16 + j];
// EMU-NEXT:        [[D]].r[i * 16 + j] = s;
// EMU:           __global float *p = (__global float *)(&arg2[{{.*}}]);
// EMU:           for (int e = lane * 8; e < lane * 8 + 8; ++e) {
// EMU:             p[i * 32 + j] = [[D]].r[e];
// EMU-LABEL: void copies(
// EMU:         __local uchar *plaidml_q_dst[3];
// EMU:         if (plaidml_q_n == 3)
// EMU-NEXT:      plaidml_q_done({{.*}}, plaidml_q_groups + 1);
// EMU-NEXT:    plaidml_q_dst[plaidml_q_n] = (__local uchar *)(&v0[{{.*}}]);
// EMU-NEXT:    plaidml_q_src[plaidml_q_n] = (__global const uchar *)(&arg0[{{.*}}]);
// EMU-NEXT:    plaidml_q_bytes[plaidml_q_n] = 16;
// EMU-NEXT:    plaidml_q_group[plaidml_q_n++] = plaidml_q_groups;
// EMU:         plaidml_q_bytes[plaidml_q_n] = 8;
// EMU:         ++plaidml_q_groups;
// EMU:         plaidml_q_bytes[plaidml_q_n] = 4;
// EMU:         ++plaidml_q_groups;
// EMU-NEXT:    plaidml_q_done({{.*}}, plaidml_q_groups - 1);
// EMU-NEXT:    plaidml_q_done({{.*}}, plaidml_q_groups - 0);
// EMU-NEXT:    barrier(

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

// The multi-stage kernels' asynchronous copies: nvgpu.device_async_copy of
// 16 bytes (4 i32) from global to workgroup memory is cp.async.cg (L2
// only), of 8 or 4 bytes cp.async.ca, with the shared-window address of the
// destination (declared 32-byte aligned, as cp.async needs 16) and the
// global pointer of the source; the tokens are no values; device_async_create_group commits the invocation's copies as a
// group; device_async_wait waits until at most numGroups groups are pending
// (0 without it).
// CHECK-LABEL: void copies(
// CHECK-NEXT:      __global const uint *arg0,
// CHECK-NEXT:      __global const float *arg1,
// CHECK-NEXT:      __global uint *arg2) {
// CHECK-NEXT:    __local uint [[S:v[0-9]+]][320] __attribute__((aligned(32)));
// CHECK-NEXT:    __local float [[S2:v[0-9]+]][16] __attribute__((aligned(32)));
// CHECK-NEXT:    long [[T:v[0-9]+]] = (long)get_local_id(0);
// CHECK-NEXT:    long [[ROW:v[0-9]+]] = [[T]] + 1;
// CHECK-NEXT:    long [[Q:v[0-9]+]] = [[T]] * 4;
// CHECK-NEXT:    long [[T2:v[0-9]+]] = [[T]] * 2;
// CHECK-NEXT:    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((uint)(ulong)(&[[S]][[[ROW]] * 20 + [[Q]] + 160])), "l"(&arg0[[[T]] * 16 + [[Q]]]) : "memory");
// CHECK-NEXT:    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((uint)(ulong)(&[[S2]][[[T2]]])), "l"(&arg1[[[T2]]]) : "memory");
// CHECK-NEXT:    asm volatile("cp.async.commit_group;" ::: "memory");
// CHECK-NEXT:    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((uint)(ulong)(&[[S2]][[[T]]])), "l"(&arg1[[[T]]]) : "memory");
// CHECK-NEXT:    asm volatile("cp.async.commit_group;" ::: "memory");
// CHECK-NEXT:    asm volatile("cp.async.wait_group 1;" ::: "memory");
// CHECK-NEXT:    asm volatile("cp.async.wait_group 0;" ::: "memory");
// CHECK-NEXT:    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:    uint [[V:v[0-9]+]] = [[S]][[[T]] * 20];
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
    gpu.func @copies(%a: memref<32x16xi32>, %b: memref<16xf32>, %o: memref<8xi32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %s = memref.alloc() : memref<2x8x20xi32, 3>
      %s2 = memref.alloc() : memref<16xf32, 3>
      %tid = gpu.thread_id x
      %row = arith.addi %tid, %c1 : index
      %q = arith.muli %tid, %c4 : index
      %t2 = arith.muli %tid, %c2 : index
      %t0 = nvgpu.device_async_copy %a[%tid, %q], %s[%c1, %row, %q], 4 {bypassL1} : memref<32x16xi32> to memref<2x8x20xi32, 3>
      %t1 = nvgpu.device_async_copy %b[%t2], %s2[%t2], 2 : memref<16xf32> to memref<16xf32, 3>
      %g0 = nvgpu.device_async_create_group %t0, %t1
      %t3 = nvgpu.device_async_copy %b[%tid], %s2[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      %g1 = nvgpu.device_async_create_group %t3
      nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
      nvgpu.device_async_wait %g1
      gpu.barrier
      %v = memref.load %s[%c0, %tid, %c0] : memref<2x8x20xi32, 3>
      memref.store %v, %o[%tid] : memref<8xi32>
      gpu.return
    }
  }
}
