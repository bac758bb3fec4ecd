// The kernel plaidml-gpu-stage-contraction builds for a cooperative-matrix
// tile: f16 tiles staged in workgroup memory in the order of each factor's
// memory (A row-major: [m][k]; B: [k][n]; rows padded by 8 halves) as
// vector<4xf16> chunks, each invocation loading 4 adjacent elements and
// storing them as one vector; the cooperative-matrix loads count the lead
// dimension and the index along a row in chunks; subgroup g's 16x16 f32
// accumulators at rows (g / 4) * 32 and columns (g % 4) * 16 of the 64x64
// tile; the next step's loads carried (steps clamped whole); the epilogue
// (a bias) through the subgroup's scratch matrix with guarded stores
// (100 x 70 is not a multiple of 64). The second function stores both
// factors transposed: A staged [k][m] and read column-major, B [n][k] and
// read column-major; it has no epilogue, an initial value of 0 and tiles
// that divide its output, so its accumulators go straight into the output
// (no scratch matrix). So do the third's, a batch of products whose 0 is a
// Tile constant (a constant global), at the batch index; the fourth's
// initial value is 1, and its accumulators take the scratch path.
// The first two have steps that do not divide K (45, 48); the others stage
// 8 halves at a time (wide): each factor through a vector<4xi32> view of
// its buffer (an unrealized cast before the launch), one 128-bit load and
// one 128-bit store per chunk, the staged tiles and the lead dimensions of
// the cooperative-matrix loads in chunks of 8 halves (@wide, @wide_t).
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-stage-contraction \
// RUN:   -canonicalize -cse | FileCheck %s

// CHECK-LABEL: func.func @coop
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1) threads(%[[TID:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c256,
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<64x10xvector<4xf16>, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<32x18xvector<4xf16>, 3>
// CHECK:       %[[SG:.*]] = gpu.subgroup_id : index
// CHECK:       %[[LANE:.*]] = gpu.lane_id
// CHECK:       %[[SGM:.*]] = arith.divui %[[SG]], %c4 : index
// CHECK:       %[[M0:.*]] = arith.muli %[[SGM]], %c32 : index
// CHECK:       %[[SGN:.*]] = arith.remui %[[SG]], %c4 : index
// CHECK:       %[[N0:.*]] = arith.muli %[[SGN]], %c16 : index
// CHECK:       %[[ZERO:.*]] = gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:       memref.load %arg0[{{.*}}] : memref<100x45xf16>
// CHECK:       %[[LOOP:.*]]:18 = scf.for %[[K0:.*]] = %c0 to %c64 step %c32 iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], {{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, f16,
// CHECK:         %[[CHUNK:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf16>
// CHECK-NEXT:    memref.store %[[CHUNK]], %[[A]][%{{.*}}, %{{.*}}] : memref<64x10xvector<4xf16>, 3>
// CHECK:         memref.store %{{.*}}, %[[A]][%{{.*}}, %{{.*}}] : memref<64x10xvector<4xf16>, 3>
// CHECK-COUNT-2: memref.store %{{.*}}, %[[B]][{{.*}}] : memref<32x18xvector<4xf16>, 3>
// CHECK-NEXT:  gpu.barrier
// CHECK:       %[[NEXT:.*]] = arith.addi %[[K0]], %c32 : index
// CHECK-NEXT:  arith.minui %[[NEXT]], %c32 : index
// CHECK:       gpu.subgroup_mma_load_matrix %[[A]][%[[M0]], %c0] {leadDimension = 10 : index} : memref<64x10xvector<4xf16>, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:       %[[N0C:.*]] = arith.divui %[[N0]], %c4 : index
// CHECK:       gpu.subgroup_mma_load_matrix %[[B]][%c0, %[[N0C]]] {leadDimension = 18 : index} : memref<32x18xvector<4xf16>, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:       gpu.subgroup_mma_compute
// CHECK:       gpu.subgroup_mma_load_matrix %[[A]][%[[M0]], %c4]
// CHECK:       gpu.barrier
// CHECK-NEXT:  scf.yield
// CHECK:       %[[SCRATCH:.*]] = memref.alloc() : memref<8x16x16xf32, 3>
// CHECK:       gpu.subgroup_mma_store_matrix %[[LOOP]]#0, %[[SCRATCH]][%[[SG]], %c0, %c0] {leadDimension = 16 : index}
// CHECK-NEXT:  gpu.barrier
// CHECK:       memref.load %[[SCRATCH]][%[[SG]], {{.*}}] : memref<8x16x16xf32, 3>
// CHECK:       scf.if
// CHECK:       memref.load %arg2[{{.*}}] : memref<70xf32>
// CHECK:       arith.addf
// CHECK:       memref.store %{{.*}}, %arg3[{{.*}}] : memref<100x70xf32>
// CHECK:       gpu.barrier
// CHECK-NEXT:  gpu.subgroup_mma_store_matrix %[[LOOP]]#1, %[[SCRATCH]]
// CHECK-NOT:   affine.parallel
func.func @coop(%a: memref<100x45xf16>, %b: memref<45x70xf16>, %bias: memref<70xf32>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (100, 70) {
    %r = affine.for %k = 0 to 45 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x45xf16>
      %y = affine.load %b[%k, %n] : memref<45x70xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    %bb = affine.load %bias[%n] : memref<70xf32>
    %o = arith.addf %r, %bb : f32
    affine.store %o, %c[%m, %n] : memref<100x70xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// CHECK-LABEL: func.func @transposed
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<32x18xvector<4xf16>, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<64x10xvector<4xf16>, 3>
// CHECK:       %[[LOOP:.*]]:{{[0-9]+}} = scf.for
// CHECK:       gpu.subgroup_mma_load_matrix %[[A]][%c0, %{{.*}}] {leadDimension = 18 : index, transpose} : memref<32x18xvector<4xf16>, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:       gpu.subgroup_mma_load_matrix %[[B]][%{{.*}}, %c0] {leadDimension = 10 : index, transpose} : memref<64x10xvector<4xf16>, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:       scf.yield
// CHECK-NOT:   memref.alloc
// CHECK:       gpu.subgroup_mma_store_matrix %[[LOOP]]#0, %arg2[%{{.*}}, %{{.*}}] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
// CHECK:       gpu.subgroup_mma_store_matrix %[[LOOP]]#1, %arg2[%{{.*}}, %{{.*}}] {leadDimension = 64 : index}
// CHECK-NOT:   gpu.barrier
// CHECK:       gpu.terminator
func.func @transposed(%a: memref<48x64xf16>, %b: memref<64x48xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 48 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%k, %m] : memref<48x64xf16>
      %y = affine.load %b[%n, %k] : memref<64x48xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// CHECK-LABEL: func.func @batched
// CHECK:       gpu.launch blocks(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %[[BATCH:[a-z0-9]+]]) in
// CHECK:       gpu.subgroup_mma_store_matrix %{{.*}}, %arg2[%[[BATCH]], %{{.*}}, %{{.*}}] {leadDimension = 128 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<3x64x128xf32>
// CHECK-NOT:   memref.alloc() : memref<8x16x16xf32, 3>
memref.global "private" constant @zero : memref<f32> = dense<0.0>
func.func @batched(%a: memref<3x64x32xf16>, %b: memref<3x32x128xf16>, %c: memref<3x64x128xf32>) {
  %g = memref.get_global @zero : memref<f32>
  affine.parallel (%i, %m, %n) = (0, 0, 0) to (3, 64, 128) {
    %zero = affine.load %g[] : memref<f32>
    %r = affine.for %k = 0 to 32 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%i, %m, %k] : memref<3x64x32xf16>
      %y = affine.load %b[%i, %k, %n] : memref<3x32x128xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%i, %m, %n] : memref<3x64x128xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// CHECK-LABEL: func.func @one
// CHECK:       memref.alloc() : memref<8x16x16xf32, 3>
// CHECK:       gpu.subgroup_mma_store_matrix %{{.*}}, %{{.*}}[%{{.*}}, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<8x16x16xf32, 3>
func.func @one(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %one = arith.constant 1.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %one) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// Wide staging, A row-major ([m][k], 4 chunks of 8 along a row of 32 + 8
// halves) and B row-major ([k][n], 8 chunks along a row of 64 + 8): each
// invocation loads one vector<4xi32> of each per step and stores it as it
// is; the cooperative-matrix loads index rows in chunks (A at k / 8, B at
// n / 8).
// CHECK-LABEL: func.func @wide
// CHECK-SAME:  (%[[AM:.*]]: memref<128x64xf16>, %[[BM:.*]]: memref<64x128xf16>, %[[CM:.*]]: memref<128x128xf32>)
// CHECK-DAG:   %[[AV:.*]] = builtin.unrealized_conversion_cast %[[AM]] : memref<128x64xf16> to memref<128x8xvector<4xi32>>
// CHECK-DAG:   %[[BV:.*]] = builtin.unrealized_conversion_cast %[[BM]] : memref<64x128xf16> to memref<64x16xvector<4xi32>>
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1) threads(%[[TID:.*]], %{{.*}}, %{{.*}}) in
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<64x5xvector<4xi32>, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<32x9xvector<4xi32>, 3>
// CHECK-DAG:   %[[ALINE:.*]] = arith.divui %[[TID]], %c4 : index
// CHECK-DAG:   %[[ACHUNK:.*]] = arith.remui %[[TID]], %c4 : index
// CHECK:       %[[A0:.*]] = memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x8xvector<4xi32>>
// CHECK-DAG:   %[[BLINE:.*]] = arith.divui %[[TID]], %c8 : index
// CHECK-DAG:   %[[BCHUNK:.*]] = arith.remui %[[TID]], %c8 : index
// CHECK:       %[[B0:.*]] = memref.load %[[BV]][%{{.*}}, %{{.*}}] : memref<64x16xvector<4xi32>>
// CHECK:       scf.for %[[K0:.*]] = %c0 to %c64 step %c32 iter_args({{.*}}, %[[AR:.*]] = %[[A0]], %[[BR:.*]] = %[[B0]]) -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, vector<4xi32>, vector<4xi32>)
// CHECK-NEXT:    memref.store %[[AR]], %[[A]][%[[ALINE]], %[[ACHUNK]]] : memref<64x5xvector<4xi32>, 3>
// CHECK-NEXT:    memref.store %[[BR]], %[[B]][%[[BLINE]], %[[BCHUNK]]] : memref<32x9xvector<4xi32>, 3>
// CHECK-NEXT:    gpu.barrier
// CHECK:         memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x8xvector<4xi32>>
// CHECK:         memref.load %[[BV]][%{{.*}}, %{{.*}}] : memref<64x16xvector<4xi32>>
// CHECK:         gpu.subgroup_mma_load_matrix %[[A]][%{{.*}}, %c0] {leadDimension = 5 : index} : memref<64x5xvector<4xi32>, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:         gpu.subgroup_mma_load_matrix %[[B]][%c0, %{{.*}}] {leadDimension = 9 : index} : memref<32x9xvector<4xi32>, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:         gpu.subgroup_mma_compute
// CHECK:         gpu.subgroup_mma_load_matrix %[[A]][%{{.*}}, %c2] {leadDimension = 5 : index}
// CHECK:         gpu.barrier
// CHECK-NEXT:    scf.yield
// CHECK:       gpu.subgroup_mma_store_matrix %{{.*}}, %[[CM]][%{{.*}}, %{{.*}}] {leadDimension = 128 : index}
func.func @wide(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x128xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// A tile (given by hand) whose staged tiles split into whole chunks of 4
// per invocation but not of 8: 32 x 16 halves over 4 subgroups (128
// invocations) is 4 halves each. No wide view (it would copy no chunk at
// all); chunks of 4, as vector<4xf16>.
// CHECK-LABEL: func.func @narrow_chunks
// CHECK-NOT:   vector<4xi32>
// CHECK:       memref.alloc() : memref<{{.*}}xvector<4xf16>, 3>
// CHECK-NOT:   vector<4xi32>
func.func @narrow_chunks(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<64x64xf16>
      %y = affine.load %b[%k, %n] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 32, 32, 16, 16, 16, 1>}
  return
}

// -----

// Wide staging of transposed factors: A [k][m] (rows of 64 + 8 halves, 9
// chunks), B [n][k] (rows of 32 + 8, 5 chunks), both read column-major.
// CHECK-LABEL: func.func @wide_t
// CHECK-DAG:   builtin.unrealized_conversion_cast %arg0 : memref<64x64xf16> to memref<64x8xvector<4xi32>>
// CHECK-DAG:   builtin.unrealized_conversion_cast %arg1 : memref<64x64xf16> to memref<64x8xvector<4xi32>>
// CHECK-DAG:   %[[A:.*]] = memref.alloc() : memref<32x9xvector<4xi32>, 3>
// CHECK-DAG:   %[[B:.*]] = memref.alloc() : memref<64x5xvector<4xi32>, 3>
// CHECK:       scf.for
// CHECK:       gpu.subgroup_mma_load_matrix %[[A]][%c0, %{{.*}}] {leadDimension = 9 : index, transpose} : memref<32x9xvector<4xi32>, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:       gpu.subgroup_mma_load_matrix %[[B]][%{{.*}}, %c0] {leadDimension = 5 : index, transpose} : memref<64x5xvector<4xi32>, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:       gpu.subgroup_mma_load_matrix %[[B]][%{{.*}}, %c2] {leadDimension = 5 : index, transpose}
// CHECK:       scf.yield
func.func @wide_t(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (64, 64) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%k, %m] : memref<64x64xf16>
      %y = affine.load %b[%n, %k] : memref<64x64xf16>
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<64x64xf32>
  } {plaidml.gpu.coop_tile = array<i64: 64, 64, 32, 32, 16, 1>}
  return
}

// -----

// 4 subgroups of 64x64 (128 invocations): subgroup g at rows (g / 2) * 64,
// columns (g % 2) * 64, 16 accumulators each; each invocation copies 4
// chunks of each factor (chunks t + 128 c).
// CHECK-LABEL: func.func @quad
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1) threads(%[[TID:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c128,
// CHECK-DAG:   memref.alloc() : memref<128x5xvector<4xi32>, 3>
// CHECK-DAG:   memref.alloc() : memref<32x17xvector<4xi32>, 3>
// CHECK:       %[[SG:.*]] = gpu.subgroup_id : index
// CHECK:       arith.divui %[[SG]], %c2 : index
// CHECK:       arith.remui %[[SG]], %c2 : index
// CHECK:       arith.addi %[[TID]], %c128 : index
// CHECK:       arith.addi %[[TID]], %c256 : index
// CHECK:       arith.addi %[[TID]], %c384 : index
// CHECK:       %{{.*}}:24 = scf.for {{.*}} !gpu.mma_matrix<16x16xf32, "COp">, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>)
// CHECK-COUNT-16: gpu.subgroup_mma_store_matrix
func.func @quad(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
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
  } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 1>}
  return
}

// -----

// The same 4 subgroups with an epilogue (a bias): each of a subgroup's 16
// accumulators goes through its 16x16 scratch matrix (4 of them, one per
// subgroup), between barriers, each lane taking 8 of its elements (rows
// lane / 16 + 2q, column lane % 16) to the bias and the store; the tiles
// divide the output, so no store is guarded.
// CHECK-LABEL: func.func @quad_bias
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c128,
// CHECK:       %[[SG:.*]] = gpu.subgroup_id : index
// CHECK:       %[[LANE:.*]] = gpu.lane_id
// CHECK:       %[[LOOP:.*]]:24 = scf.for
// CHECK:       scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[SCRATCH:.*]] = memref.alloc() : memref<4x16x16xf32, 3>
// CHECK-NEXT:  %[[ROW:.*]] = arith.divui %[[LANE]], %c16 : index
// CHECK-NEXT:  %[[COL:.*]] = arith.remui %[[LANE]], %c16 : index
// CHECK-NEXT:  gpu.subgroup_mma_store_matrix %[[LOOP]]#0, %[[SCRATCH]][%[[SG]], %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4x16x16xf32, 3>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  memref.load %[[SCRATCH]][%[[SG]], %[[ROW]], %[[COL]]] : memref<4x16x16xf32, 3>
// CHECK-NOT:   scf.if
// CHECK:       memref.load %arg2[%{{.*}}] : memref<256xf32>
// CHECK:       arith.addf
// CHECK:       memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : memref<256x256xf32>
// CHECK-COUNT-7: memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : memref<256x256xf32>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  gpu.subgroup_mma_store_matrix %[[LOOP]]#1, %[[SCRATCH]][%[[SG]], %c0, %c0]
// CHECK-NOT:   scf.if
// CHECK:       gpu.subgroup_mma_store_matrix %[[LOOP]]#15, %[[SCRATCH]][%[[SG]], %c0, %c0]
// CHECK-NEXT:  gpu.barrier
// CHECK-COUNT-8: memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : memref<256x256xf32>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  gpu.terminator
func.func @quad_bias(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %bias: memref<256xf32>, %c: memref<256x256xf32>) {
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
  } {plaidml.gpu.coop_tile = array<i64: 128, 128, 32, 64, 64, 1>}
  return
}
