// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-cpu-split-prepare

// A preparation may read parameters only: %x is an ordinary input.
func.func @reads_input(%x: memref<16xf32>, %o: memref<16xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<16xf32>],
                plaidml.outputs = [tensor<16xf32>]} {
  %p = memref.alloc() {plaidml.cpu.prepared} : memref<16xf32>
  affine.for %i = 0 to 16 {
    // expected-error @below {{this 'plaidml.cpu.prepare' op reads a value that is neither a parameter (an input marked 'plaidml.param') nor a prepared buffer}}
    %v = affine.load %x[%i] : memref<16xf32>
    affine.store %v, %p[%i] : memref<16xf32>
  } {plaidml.cpu.prepare}
  memref.copy %p, %o : memref<16xf32> to memref<16xf32>
  memref.dealloc %p : memref<16xf32>
  return
}

// -----

// Nor a value the function computes.
func.func @reads_temporary(%w: memref<16xf32> {plaidml.param}, %o: memref<16xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<16xf32>],
                plaidml.outputs = [tensor<16xf32>]} {
  %c = arith.constant 2.0 : f32
  %p = memref.alloc() {plaidml.cpu.prepared} : memref<16xf32>
  affine.for %i = 0 to 16 {
    %v = affine.load %w[%i] : memref<16xf32>
    // expected-error @below {{reads a value that is neither a parameter}}
    %s = arith.mulf %v, %c : f32
    affine.store %s, %p[%i] : memref<16xf32>
  } {plaidml.cpu.prepare}
  memref.copy %p, %o : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Marked ops move from the top of an entry function only.
func.func @nested(%w: memref<16xf32> {plaidml.param}, %o: memref<16xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<16xf32>],
                plaidml.outputs = [tensor<16xf32>]} {
  affine.for %j = 0 to 2 {
    // expected-error @below {{a 'plaidml.cpu.prepared' op must be at the top level of its function}}
    %p = memref.alloc() {plaidml.cpu.prepared} : memref<16xf32>
  }
  return
}

// -----

// expected-error @below {{@helper has prepared data but is not an entry function ('plaidml.entry')}}
func.func @helper(%w: memref<16xf32> {plaidml.param}) {
  %p = memref.alloc() {plaidml.cpu.prepared} : memref<16xf32>
  return
}

// -----

func.func @dynamic(%w: memref<16xf32> {plaidml.param}, %o: memref<16xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<16xf32>],
                plaidml.outputs = [tensor<16xf32>]} {
  %n = arith.constant 16 : index
  // expected-error @below {{a prepared buffer must have a static shape and an identity layout, not 'memref<?xf32>'}}
  %p = memref.alloc(%n) {plaidml.cpu.prepared} : memref<?xf32>
  return
}

// -----

// The workspace comes after the prepared buffer: planned first, it would
// be in the way.
// expected-error @below {{already has a workspace (run plaidml-cpu-plan-workspace after this pass)}}
func.func @planned(%w: memref<16xf32> {plaidml.param}, %o: memref<16xf32>, %ws: memref<64xi8>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<16xf32>],
                plaidml.outputs = [tensor<16xf32>], plaidml.workspace = 64 : i64} {
  %p = memref.alloc() {plaidml.cpu.prepared} : memref<16xf32>
  return
}
