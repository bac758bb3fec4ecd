// RUN: plaidml-opt %s -split-input-file -plaidml-gpu-map-loops | FileCheck %s

// A 4-D grid and workgroup loop (an NHWC output): the innermost dimension
// (channels) on x, then y and z; the outermost (batch) runs as a loop.
// CHECK-LABEL: func.func @four_dims
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @four_dims(%out: memref<1x2x2x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b0, %b1, %b2, %b3) = (%c0, %c0, %c0, %c0) to (%c1, %c1, %c1, %c2) step (%c1, %c1, %c1, %c1) {
    scf.parallel (%t0, %t1, %t2, %t3) = (%c0, %c0, %c0, %c0) to (%c1, %c2, %c2, %c256) step (%c1, %c1, %c1, %c1) {
      %c = arith.muli %b3, %c256 : index
      %j = arith.addi %c, %t3 : index
      memref.store %zero, %out[%t0, %t1, %t2, %j] : memref<1x2x2x512xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// Two dimensions: the inner on x, the outer on y. A loop nested deeper than
// the workgroup loop is sequential, and a mapping given by hand is kept.
// CHECK-LABEL: func.func @two_dims
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-LABEL: func.func @kept
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @two_dims(%out: memref<4x8x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b0, %b1) = (%c0, %c0) to (%c1, %c1) step (%c1, %c1) {
    scf.parallel (%t0, %t1) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
      scf.parallel (%k) = (%c0) to (%c3) step (%c1) {
        memref.store %zero, %out[%t0, %t1, %k] : memref<4x8x3xf32>
        scf.reduce
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}
func.func @kept(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %out[%i] : memref<4xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
