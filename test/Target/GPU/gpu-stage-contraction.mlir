// plaidml-gpu-stage-contraction on hand-set tiles. First a 100x72x40 matmul
// with a fused bias, 32x32 tiles stepping 16 along K, 2x2 outputs per
// invocation (scalar workgroup memory). None of M, N, K is a multiple of
// its tile.
// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-stage-contraction -cse \
// RUN:   | FileCheck %s
// On an OpenCL target the tiles stay scalar (NVIDIA's OpenCL ran the
// vector<4xf32> tiles slower).
// RUN: plaidml-opt %s -split-input-file -plaidml-attach-target=device=opencl \
// RUN:   -plaidml-gpu-stage-contraction -cse | FileCheck %s --check-prefix=OPENCL
// OPENCL-LABEL: func.func @vectors
// OPENCL:       memref.alloc() : memref<16x68xf32, 3>
// OPENCL-NOT:   vector<4xf32>
// OPENCL-LABEL: func.func @conv_padded

// The grid: ceildiv(72, 32) x ceildiv(100, 32) x 1 workgroups of 256.
// CHECK-LABEL: func.func @matmul_bias
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
// CHECK:       gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %[[C3]], %{{.*}} = %[[C4]], %{{.*}} = %c1) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]]
// Both staged tiles: 16 steps x (32 + 4 padding) in workgroup memory.
// CHECK:         %[[AS:.*]] = memref.alloc() : memref<16x36xf32, 3>
// CHECK:         %[[BS:.*]] = memref.alloc() : memref<16x36xf32, 3>
// The first step's loads: A along K (its memory order), indices clamped,
// elements past K selected away as 0.
// CHECK:         arith.cmpi ult, %{{.*}}, %c40 : index
// CHECK:         arith.minui %{{.*}}, %c39 : index
// CHECK:         memref.load %arg0
// CHECK:         arith.select
// CHECK:         memref.load %arg1
// The steps: 3 of 16 (48 >= 40), carrying 4 accumulators and the 2 + 2
// staged elements of the next step.
// CHECK:         %[[LOOP:.*]]:8 = scf.for %{{.*}} = %c0 to %c48 step %c16 iter_args(
// CHECK:           memref.store %{{.*}}, %[[AS]]
// CHECK:           memref.store %{{.*}}, %[[BS]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %arg0
// CHECK:           memref.load %arg1
// CHECK:           memref.load %[[AS]][%c0,
// CHECK:           %[[A0:.*]] = memref.load %[[AS]][%c0,
// CHECK:           %[[B0:.*]] = memref.load %[[BS]][%c0,
// Each product is one fused multiply-add into its accumulator (f32).
// CHECK:           math.fma %[[A0]], %[[B0]], %{{.*}} : f32
// CHECK-NOT:       arith.mulf
// CHECK:           gpu.barrier
// CHECK:           scf.yield
// Per output: in range (100 and 72 are not multiples of 32), the initial
// value plus the accumulator, the bias, the store.
// CHECK:         scf.if
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %cst, %[[LOOP]]#0 : f32
// CHECK-NEXT:      %[[BIAS:.*]] = memref.load %arg2
// CHECK-NEXT:      %[[OUT:.*]] = arith.addf %[[SUM]], %[[BIAS]] : f32
// CHECK-NEXT:      memref.store %[[OUT]], %arg3
// CHECK:         gpu.terminator
// CHECK-NOT:   affine.parallel
func.func @matmul_bias(%a: memref<100x40xf32>, %b: memref<40x72xf32>, %bias: memref<72xf32>, %c: memref<100x72xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (100, 72) {
    %r = affine.for %k = 0 to 40 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<100x40xf32>
      %y = affine.load %b[%k, %n] : memref<40x72xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    %bb = affine.load %bias[%n] : memref<72xf32>
    %o = arith.addf %r, %bb : f32
    affine.store %o, %c[%m, %n] : memref<100x72xf32>
  } {plaidml.gpu.staged_tile = array<i64: 32, 32, 16, 2, 2>}
  return
}

// -----

// 64x64 tiles with 4x4 outputs per invocation: the tiles are staged as
// vector<4xf32> elements (16 + 1 padding per row), each invocation's 4 + 4
// loaded elements stored as one vector, its rows and columns read as one
// vector each and taken apart. B's memory follows N and the tiles and
// steps divide it: its 4 elements are one vector load through a
// vector<4xf32> view of its buffer (an unrealized cast before the launch),
// stored as it is; A's 4 rows are 4 loads.
// CHECK-LABEL: func.func @vectors
// CHECK:       %[[BV:.*]] = builtin.unrealized_conversion_cast %arg1 : memref<64x128xf32> to memref<64x32xvector<4xf32>>
// CHECK:       gpu.launch
// CHECK:       %[[AS:.*]] = memref.alloc() : memref<16x17xvector<4xf32>, 3>
// CHECK:       %[[BS:.*]] = memref.alloc() : memref<16x17xvector<4xf32>, 3>
// CHECK:       %[[B0:.*]] = memref.load %[[BV]][%{{.*}}, %{{.*}}] : memref<64x32xvector<4xf32>>
// CHECK:       scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args({{.*}}, %[[BR:[a-z0-9_]+]] = %[[B0]])
// CHECK:         %[[VA:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT:    memref.store %[[VA]], %[[AS]]
// CHECK-NEXT:    memref.store %[[BR]], %[[BS]]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[BV]][%{{.*}}, %{{.*}}] : memref<64x32xvector<4xf32>>
// CHECK:         %[[RA:.*]] = memref.load %[[AS]][%c0, %{{.*}}] : memref<16x17xvector<4xf32>, 3>
// CHECK-NEXT:    vector.extract %[[RA]][0] : f32 from vector<4xf32>
// CHECK-NEXT:    vector.extract %[[RA]][1]
// CHECK-NEXT:    vector.extract %[[RA]][2]
// CHECK-NEXT:    vector.extract %[[RA]][3]
// CHECK:         memref.load %[[BS]][%c0, %{{.*}}] : memref<16x17xvector<4xf32>, 3>
func.func @vectors(%a: memref<128x64xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x128xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16, 4, 4>}
  return
}

// -----

// Transposed factors: A's memory follows M (A stored K x M), so its groups
// of 4 rows are vector loads through a view; B's follows K (B stored N x
// K): 4 loads and a vector.from_elements.
// CHECK-LABEL: func.func @vectors_t
// CHECK:       %[[AV:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<64x128xf32> to memref<64x32xvector<4xf32>>
// CHECK-NOT:   builtin.unrealized_conversion_cast
// CHECK:       gpu.launch
// CHECK:       scf.for
// CHECK:         memref.store %{{.*}}, %{{.*}} : memref<16x17xvector<4xf32>, 3>
// CHECK:         %[[VB:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT:    memref.store %[[VB]]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<64x32xvector<4xf32>>
func.func @vectors_t(%a: memref<64x128xf32>, %b: memref<128x64xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%k, %m] : memref<64x128xf32>
      %y = affine.load %b[%n, %k] : memref<128x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16, 4, 4>}
  return
}

// -----

// B read along a diagonal, B[k, n, n]: the chunks' index n addresses two
// dimensions, so 4 adjacent n are not 4 adjacent elements; no view (each
// element its own load).
// CHECK-LABEL: func.func @vectors_diagonal
// CHECK-NOT:   builtin.unrealized_conversion_cast
// CHECK:       gpu.launch
// CHECK:         memref.load %arg1[%{{.*}}, %[[N:.*]], %[[N]]] : memref<64x128x128xf32>
func.func @vectors_diagonal(%a: memref<128x64xf32>, %b: memref<64x128x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x64xf32>
      %y = affine.load %b[%k, %n, %n] : memref<64x128x128xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16, 4, 4>}
  return
}

// -----

// A's memory follows K (row-major) and each invocation copies 4 rows of 2
// steps (128 x 16 over 256 invocations): each row's 2 steps are one load
// through a vector<2xf32> view of A, the 4 vectors transposed in registers
// into 2 staged vectors of 4 rows (one per step). Invocation t copies
// group (t / 16) * 2 + t % 2 (the low bit fastest, so that the 8
// invocations of a 128-bit store phase write 8 banks) and steps
// ((t / 2) % 8) * 2 and + 1. B's memory follows N: vector<4xf32> loads.
// CHECK-LABEL: func.func @vectors_along_k
// CHECK:       %[[AV:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<128x64xf32> to memref<128x32xvector<2xf32>>
// CHECK:       %[[BV:.*]] = builtin.unrealized_conversion_cast %arg1 : memref<64x128xf32> to memref<64x32xvector<4xf32>>
// CHECK:       gpu.launch blocks({{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in
// CHECK:         %[[AS:.*]] = memref.alloc() : memref<16x33xvector<4xf32>, 3>
// CHECK:         %[[LOW:.*]] = arith.remui %[[T]], %c2 : index
// CHECK:         %[[REST:.*]] = arith.divui %[[T]], %c2 : index
// CHECK:         %[[CHUNK:.*]] = arith.remui %[[REST]], %c8 : index
// CHECK:         %[[HIGH:.*]] = arith.divui %[[REST]], %c8 : index
// CHECK:         %[[H2:.*]] = arith.muli %[[HIGH]], %c2 : index
// CHECK:         %[[GROUP:.*]] = arith.addi %[[H2]], %[[LOW]] : index
// CHECK:         %[[STEP:.*]] = arith.muli %[[CHUNK]], %c2 : index
// CHECK:         %[[A0:.*]] = memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x32xvector<2xf32>>
// CHECK:         %[[A1:.*]] = memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x32xvector<2xf32>>
// CHECK:         %[[A2:.*]] = memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x32xvector<2xf32>>
// CHECK:         %[[A3:.*]] = memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x32xvector<2xf32>>
// CHECK:         memref.load %[[BV]]
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args({{.*}}, %[[R0:[a-z0-9_]+]] = %[[A0]], %[[R1:[a-z0-9_]+]] = %[[A1]], %[[R2:[a-z0-9_]+]] = %[[A2]], %[[R3:[a-z0-9_]+]] = %[[A3]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> ({{.*}}, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-NEXT:      %[[E0:.*]] = vector.extract %[[R0]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[E1:.*]] = vector.extract %[[R1]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[E2:.*]] = vector.extract %[[R2]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[E3:.*]] = vector.extract %[[R3]][0] : f32 from vector<2xf32>
// CHECK-NEXT:      %[[V0:.*]] = vector.from_elements %[[E0]], %[[E1]], %[[E2]], %[[E3]] : vector<4xf32>
// CHECK-NEXT:      memref.store %[[V0]], %[[AS]][%[[STEP]], %[[GROUP]]] : memref<16x33xvector<4xf32>, 3>
// CHECK-NEXT:      vector.extract %[[R0]][1] : f32 from vector<2xf32>
// CHECK:           %[[V1:.*]] = vector.from_elements
// CHECK-NEXT:      %[[STEP1:.*]] = arith.addi %[[STEP]], %c1 : index
// CHECK-NEXT:      memref.store %[[V1]], %[[AS]][%[[STEP1]], %[[GROUP]]] : memref<16x33xvector<4xf32>, 3>
// CHECK:           gpu.barrier
// The next step's chunks, clamped into K.
// CHECK:           arith.minui %{{.*}}, %c63 : index
// CHECK:           memref.load %[[AV]][%{{.*}}, %{{.*}}] : memref<128x32xvector<2xf32>>
func.func @vectors_along_k(%a: memref<128x64xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x64xf32>
      %y = affine.load %b[%k, %n] : memref<64x128xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.staged_tile = array<i64: 128, 128, 16, 8, 8>}
  return
}

// -----

// Steps of 32: 4 steps per row, one 128-bit load (a vector<4xf32> view),
// for both factors: A row-major and B stored N x K (its memory follows K
// too), each invocation storing 4 vectors of 4 rows per factor.
// CHECK-LABEL: func.func @vectors_along_k_t
// CHECK-DAG:   builtin.unrealized_conversion_cast %arg0 : memref<128x64xf32> to memref<128x16xvector<4xf32>>
// CHECK-DAG:   builtin.unrealized_conversion_cast %arg1 : memref<128x64xf32> to memref<128x16xvector<4xf32>>
// CHECK:       memref.alloc() : memref<32x33xvector<4xf32>, 3>
// CHECK:       scf.for {{.*}} -> ({{.*}}, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-8: memref.store %{{.*}} : memref<32x33xvector<4xf32>, 3>
// CHECK-NEXT:    gpu.barrier
func.func @vectors_along_k_t(%a: memref<128x64xf32>, %b: memref<128x64xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x64xf32>
      %y = affine.load %b[%n, %k] : memref<128x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.staged_tile = array<i64: 128, 128, 32, 8, 8>}
  return
}

// -----

// Steps that do not divide K (40): no views (every chunk must lie inside
// its buffer); each group of 4 rows is 4 scalar loads, clamped, the steps
// past K selected away.
// CHECK-LABEL: func.func @vectors_along_k_edge
// CHECK-NOT:   builtin.unrealized_conversion_cast
// CHECK:       gpu.launch
// CHECK:         arith.cmpi ult, %{{.*}}, %c40 : index
// CHECK:         memref.load %arg0[%{{.*}}, %{{.*}}] : memref<128x40xf32>
// CHECK:         arith.select
func.func @vectors_along_k_edge(%a: memref<128x40xf32>, %b: memref<40x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (128, 128) {
    %r = affine.for %k = 0 to 40 iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%m, %k] : memref<128x40xf32>
      %y = affine.load %b[%k, %n] : memref<40x128xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %c[%m, %n] : memref<128x128xf32>
  } {plaidml.gpu.staged_tile = array<i64: 128, 128, 16, 8, 8>}
  return
}

// -----

// A padded window: the guard, on the input's indices only, decides whether
// the element is loaded at all; K = 3 x 3 x 4 = 36 is delinearized into
// the window and the channel. Divisible edges need no guard on the store.
// CHECK-LABEL: func.func @conv_padded
// CHECK:       gpu.launch
// CHECK:         arith.cmpi sge
// CHECK:         %[[E:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:      memref.load %arg0
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %cst : f32
// CHECK:         scf.for
// CHECK:           gpu.barrier
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield %{{.*}}, %{{.*}}, %{{.*}}
// CHECK-NOT:     scf.if
// CHECK:         memref.store %{{.*}}, %arg2
#pad = affine_set<(x, y, i, j) : (x + i - 1 >= 0, -x - i + 64 >= 0, y + j - 1 >= 0, -y - j + 64 >= 0)>
func.func @conv_padded(%in: memref<64x64x4xf32>, %w: memref<3x3x4x64xf32>, %out: memref<64x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%x, %y, %f) = (0, 0, 0) to (64, 64, 64) {
    %r = affine.for %i = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
      %r1 = affine.for %j = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
        %r2 = affine.for %c = 0 to 4 iter_args(%a2 = %a1) -> (f32) {
          %g = affine.if #pad(%x, %y, %i, %j) -> f32 {
            %v = affine.load %in[%x + %i - 1, %y + %j - 1, %c] : memref<64x64x4xf32>
            %k = affine.load %w[%i, %j, %c, %f] : memref<3x3x4x64xf32>
            %p = arith.mulf %v, %k : f32
            %s = arith.addf %a2, %p : f32
            affine.yield %s : f32
          } else {
            affine.yield %a2 : f32
          }
          affine.yield %g : f32
        }
        affine.yield %r2 : f32
      }
      affine.yield %r1 : f32
    }
    affine.store %r, %out[%x, %y, %f] : memref<64x64x64xf32>
  } {plaidml.gpu.staged_tile = array<i64: 64, 64, 16, 4, 4>}
  return
}

// -----

// Split K on a hand-set tile: 8 outputs x 32 invocations per workgroup
// (ceildiv(100, 8) = 13 workgroups), each invocation summing k = s, s + 32,
// ... four products per iteration (1000 is not a multiple of 128: the
// products past K are 0), the partial sums in workgroup memory, the first
// invocation of each output adding them up and storing the output in range.
// CHECK-LABEL: func.func @split_k
// CHECK-DAG:   %[[C13:.*]] = arith.constant 13 : index
// CHECK:       gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C13]], %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK:         %[[PARTIAL:.*]] = memref.alloc() : memref<32x8xf32, 3>
// CHECK:         %[[LOOP:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %c1000 step %c128 iter_args(
// CHECK:           arith.select
// CHECK-COUNT-4:   math.fma
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
// CHECK:         %[[S1:.*]] = arith.addf %[[LOOP]]#0, %[[LOOP]]#1
// CHECK:         %[[S2:.*]] = arith.addf %[[S1]], %[[LOOP]]#2
// CHECK:         %[[S3:.*]] = arith.addf %[[S2]], %[[LOOP]]#3
// CHECK:         memref.store %[[S3]], %[[PARTIAL]]
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           memref.load %[[PARTIAL]][%c0,
// CHECK:           memref.load %[[PARTIAL]][%c31,
// CHECK:           memref.store %{{.*}}, %arg2
func.func @split_k(%x: memref<1x1000xf32>, %w: memref<1000x100xf32>, %y: memref<1x100xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%m, %n) = (0, 0) to (1, 100) {
    %r = affine.for %k = 0 to 1000 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %x[%m, %k] : memref<1x1000xf32>
      %b = affine.load %w[%k, %n] : memref<1000x100xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %r, %y[%m, %n] : memref<1x100xf32>
  } {plaidml.gpu.split_k = array<i64: 8, 32>}
  return
}
