// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-gpu-tile-workgroups

// One size per loop dimension: the plaidml dialect's verifier says so before
// the pass runs.
func.func @bad(%a: memref<8xf32>) {
  // expected-error @+1 {{'plaidml.gpu.workgroup_size' has 2 sizes for a loop of 1 dimensions}}
  affine.parallel (%i) = (0) to (8) {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.store %x, %a[%i] : memref<8xf32>
  } {plaidml.gpu.workgroup_size = array<i64: 2, 2>}
  return
}

// -----

// Reductions cannot be split into workgroups.
func.func @reduction(%a: memref<8xf32>) -> f32 {
  // expected-error @+1 {{cannot apply plaidml.gpu.workgroup_size}}
  %r = affine.parallel (%i) = (0) to (8) reduce ("addf") -> f32 {
    %x = affine.load %a[%i] : memref<8xf32>
    affine.yield %x : f32
  } {plaidml.gpu.workgroup_size = array<i64: 8>}
  return %r : f32
}
