// RUN: plaidml-opt %s -split-input-file -verify-diagnostics

// The plaidml.* attributes are checked wherever they appear.

// expected-error @+1 {{'plaidml.entry' must be a unit attribute on a function}}
func.func @entry_value() attributes {plaidml.entry = 1 : i32} {
  return
}

// -----

func.func @entry_not_on_function() {
  // expected-error @+1 {{'plaidml.entry' must be a unit attribute on a function}}
  affine.parallel (%i) = (0) to (4) {
  } {plaidml.entry}
  return
}

// -----

// expected-error @+1 {{'plaidml.inputs' must hold static tensor types, not memref<4xf32>}}
func.func @inputs_memref(%a: memref<4xf32>)
    attributes {plaidml.entry, plaidml.inputs = [memref<4xf32>]} {
  return
}

// -----

// expected-error @+1 {{'plaidml.outputs' must hold static tensor types, not tensor<?xf32>}}
func.func @outputs_dynamic(%a: memref<4xf32>)
    attributes {plaidml.entry, plaidml.outputs = [tensor<?xf32>]} {
  return
}

// -----

// expected-error @+1 {{'plaidml.inputs' must be an array of tensor types}}
func.func @inputs_not_array() attributes {plaidml.inputs = tensor<4xf32>} {
  return
}

// -----

// expected-error @+1 {{unknown PlaidML attribute 'plaidml.entry_point'}}
func.func @misspelled() attributes {plaidml.entry_point} {
  return
}

// -----

func.func @schedule_dictionary() {
  // expected-error @+1 {{'plaidml.cpu.schedule' must be a #plaidml.cpu_schedule on an affine.parallel}}
  affine.parallel (%i) = (0) to (4) {
  } {plaidml.cpu.schedule = {lanes = 16}}
  return
}

// -----

func.func @schedule_zero() {
  affine.parallel (%i) = (0) to (4) {
  // expected-error @+1 {{cpu_schedule 'rows' must be at least 1, not 0}}
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 0,
      vectors = 2, panels_per_block = 4, pack = true, unroll_inner = false>}
  return
}

// -----

func.func @schedule_negative_chunk() {
  affine.parallel (%i) = (0) to (4) {
  // expected-error @+1 {{cpu_schedule 'reduction_chunk' must be at least 0, not -1}}
  } {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 1,
      vectors = 2, panels_per_block = 4, pack = true, unroll_inner = false,
      reduction_chunk = -1>}
  return
}

// -----

func.func @workgroup_rank() {
  // expected-error @+1 {{'plaidml.gpu.workgroup_size' has 1 sizes for a loop of 2 dimensions}}
  affine.parallel (%i, %j) = (0, 0) to (4, 4) {
  } {plaidml.gpu.workgroup_size = array<i64: 4>}
  return
}

// -----

func.func @workgroup_zero() {
  // expected-error @+1 {{'plaidml.gpu.workgroup_size' sizes must be at least 1}}
  affine.parallel (%i) = (0) to (4) {
  } {plaidml.gpu.workgroup_size = array<i64: 0>}
  return
}

// -----

func.func @workgroup_not_on_loop() {
  // expected-error @+1 {{'plaidml.gpu.workgroup_size' must be an array<i64: ...> on an affine.parallel}}
  affine.for %i = 0 to 4 {
  } {plaidml.gpu.workgroup_size = array<i64: 4>}
  return
}

// -----

// expected-error @+1 {{'plaidml.target' must be a #plaidml.target on a module}}
func.func @target_on_function() attributes {
    plaidml.target = #plaidml.target<device = cpu>} {
  return
}

// -----

// expected-error @+1 {{'plaidml.target' must be a #plaidml.target on a module}}
module attributes {plaidml.target = "vulkan:0"} {
}

// -----

// expected-error @+1 {{a cpu target has no 'caps' or 'exts'}}
module attributes {plaidml.target = #plaidml.target<device = cpu,
    caps = ["Float64"]>} {
}

// -----

// expected-error @+1 {{an opencl target lists device extensions in 'exts', not 'caps'}}
module attributes {plaidml.target = #plaidml.target<device = opencl,
    caps = ["cl_khr_fp64"]>} {
}

// -----

// expected-error @+1 {{max_workgroup_size must be in [1, 1024], not 2048}}
module attributes {plaidml.target = #plaidml.target<device = vulkan,
    max_workgroup_size = 2048>} {
}

// -----

// expected-error @+1 {{'caps' must list capability or extension names, not 7 : i64}}
module attributes {plaidml.target = #plaidml.target<device = vulkan,
    caps = [7]>} {
}

// -----

// expected-error @+2 {{expected ::mlir::plaidml::DeviceKind to be one of: cpu, vulkan, opencl}}
// expected-error @+1 {{failed to parse PlaidML_TargetAttr parameter 'device'}}
module attributes {plaidml.target = #plaidml.target<device = metal>} {
}
