// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -pass-pipeline='builtin.module(plaidml-attach-target{device=vulkan label="vulkan:0 (llvmpipe)"},gpu.module(plaidml-gpu-check-device-support))' \
// RUN:   | FileCheck %s

// What MLIR's SPIR-V conversion can do for each target was checked through
// -plaidml-vulkan-lowering-pipeline: every module accepted here converts, and
// every error stands for a kernel that did not convert ("failed to legalize")
// or converted to a wrong buffer layout (f16 and bf16 buffers as f32 words).

// Accepted: 32-bit types on a bare Shader target.
// CHECK-LABEL: gpu.module @plain
module attributes {gpu.container_module} {
  gpu.module @plain [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf32>, %b: memref<8xi32>, %o: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %n = memref.load %b[%i] : memref<8xi32>
      %f = arith.sitofp %n : i32 to f32
      %s = arith.addf %x, %f : f32
      %e = math.exp %s : f32
      memref.store %e, %o[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// Accepted: 64-bit types with Int64 and Float64.
// CHECK-LABEL: gpu.module @wide
module attributes {gpu.container_module} {
  gpu.module @wide [#spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Float64], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf64>, %b: memref<8xi64>, %o: memref<8xf64>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf64>
      %n = memref.load %b[%i] : memref<8xi64>
      %f = arith.sitofp %n : i64 to f64
      %s = arith.mulf %x, %f : f64
      %r = math.sqrt %s : f64
      %e = math.floor %r : f64
      memref.store %e, %o[%i] : memref<8xf64>
      gpu.return
    }
  }
}

// -----

// Accepted without any 8/16-bit capability: i8/i16/i1 buffers are packed
// into i32 words, signed arithmetic and f16 arithmetic that never touches a
// buffer are done in 32 bits.
// CHECK-LABEL: gpu.module @emulated
module attributes {gpu.container_module} {
  gpu.module @emulated [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xi8>, %b: memref<8xi16>, %m: memref<8xi1>,
                %f: memref<8xf32>, %o: memref<8xi8>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xi8>
      %y = memref.load %b[%i] : memref<8xi16>
      %c = memref.load %m[%i] : memref<8xi1>
      %w = arith.extsi %x : i8 to i16
      %s = arith.addi %w, %y : i16
      %lt = arith.cmpi slt, %s, %y : i16
      %d = arith.divsi %s, %y : i16
      %t = arith.trunci %d : i16 to i8
      %r = arith.select %c, %t, %x : i8
      memref.store %r, %o[%i] : memref<8xi8>
      memref.store %lt, %m[%i] : memref<8xi1>
      %v = memref.load %f[%i] : memref<8xf32>
      %h = arith.truncf %v : f32 to f16
      %hh = arith.mulf %h, %h : f16
      %back = arith.extf %hh : f16 to f32
      memref.store %back, %f[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// Accepted: f16 with Float16 and 16-bit storage; i8 with Int8 but packed
// storage. The target may also be only a spirv.target_env attribute.
// CHECK-LABEL: gpu.module @narrow
module attributes {gpu.container_module} {
  gpu.module @narrow attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Float16, StorageBuffer16BitAccess, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>, api=Vulkan, #spirv.resource_limits<>>} {
    gpu.func @k(%a: memref<8xf16>, %b: memref<8xi8>, %o: memref<8xf16>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf16>
      %e = math.exp %x : f16
      memref.store %e, %o[%i] : memref<8xf16>
      %n = memref.load %b[%i] : memref<8xi8>
      %q = arith.divui %n, %n : i8
      memref.store %q, %b[%i] : memref<8xi8>
      gpu.return
    }
  }
}

// -----

// f64 without Float64: every use, once per op name.
module attributes {gpu.container_module} {
  gpu.module @f64 [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf64>, %o: memref<8xf64>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads f64 from a buffer, which needs the SPIR-V capability Float64; vulkan:0 (llvmpipe) does not have it}}
      %x = memref.load %a[%i] : memref<8xf64>
      // expected-error @+1 {{'arith.addf' computes on f64, which needs the SPIR-V capability Float64; vulkan:0 (llvmpipe) does not have it}}
      %s = arith.addf %x, %x : f64
      %t = arith.addf %s, %x : f64
      // expected-error @+1 {{'memref.store' writes f64 to a buffer, which needs the SPIR-V capability Float64; vulkan:0 (llvmpipe) does not have it}}
      memref.store %t, %o[%i] : memref<8xf64>
      gpu.return
    }
  }
}

// -----

// GLSL.std.450 has exp, log, sin, pow, ... for 16- and 32-bit floats only;
// erf is approximated for those only. Float64 does not help.
module attributes {gpu.container_module} {
  gpu.module @f64math [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float64], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf64>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf64>
      // expected-error @+1 {{'math.exp' computes on f64, which the SPIR-V conversion does not support on any device (GLSL.std.450 has it for 16- and 32-bit floats only)}}
      %e = math.exp %x : f64
      // expected-error @+1 {{'math.erf' computes on f64, which the SPIR-V conversion does not support on any device (it is approximated for f16 and f32 only)}}
      %r = math.erf %e : f64
      memref.store %r, %a[%i] : memref<8xf64>
      gpu.return
    }
  }
}

// -----

// i64 without Int64, from index arithmetic. A constant the canonicalizer
// left without a location is reported at its user, and not twice.
module attributes {gpu.container_module} {
  gpu.module @i64 [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%o: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 3 : i64 loc(unknown)
      // expected-error @+1 {{'arith.index_cast' computes on i64, which needs the SPIR-V capability Int64; vulkan:0 (llvmpipe) does not have it}}
      %n = arith.index_cast %i : index to i64
      // expected-error @+1 {{'arith.addi' computes on i64, which needs the SPIR-V capability Int64; vulkan:0 (llvmpipe) does not have it}}
      %s = arith.addi %n, %c : i64
      // expected-error @+1 {{'arith.sitofp' computes on i64, which needs the SPIR-V capability Int64; vulkan:0 (llvmpipe) does not have it}}
      %f = arith.sitofp %s : i64 to f32
      memref.store %f, %o[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// f16 buffers without 16-bit storage would become f32 words. SPIR-V 1.3 has
// SPV_KHR_16bit_storage in its core; math on f16 needs Float16.
module attributes {gpu.container_module} {
  gpu.module @f16 [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf16>, %o: memref<8xf16>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads f16 from a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess; vulkan:0 (llvmpipe) does not have it}}
      %x = memref.load %a[%i] : memref<8xf16>
      // expected-error @+1 {{'math.exp' computes on f16, which needs the SPIR-V capability Float16; vulkan:0 (llvmpipe) does not have it}}
      %e = math.exp %x : f16
      // expected-error @+1 {{'memref.store' writes f16 to a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess; vulkan:0 (llvmpipe) does not have it}}
      memref.store %e, %o[%i] : memref<8xf16>
      gpu.return
    }
  }
}

// -----

// Below SPIR-V 1.3 the extension is needed too.
module attributes {gpu.container_module} {
  gpu.module @f16v10 [#spirv.target_env<#spirv.vce<v1.0, [Shader, Float16], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf16>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads f16 from a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess (extension SPV_KHR_16bit_storage); vulkan:0 (llvmpipe) does not have it}}
      %x = memref.load %a[%i] : memref<8xf16>
      %s = arith.addf %x, %x : f16
      // expected-error @+1 {{'memref.store' writes f16 to a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess (extension SPV_KHR_16bit_storage); vulkan:0 (llvmpipe) does not have it}}
      memref.store %s, %a[%i] : memref<8xf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @f16ext [#spirv.target_env<#spirv.vce<v1.0, [Shader, Float16, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xf16>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads f16 from a buffer, which needs the SPIR-V extension SPV_KHR_16bit_storage; vulkan:0 (llvmpipe) does not have it}}
      %x = memref.load %a[%i] : memref<8xf16>
      gpu.return
    }
  }
}

// -----

// Buffers held natively (8/16-bit storage) move narrow values, which then
// need the arithmetic capability.
module attributes {gpu.container_module} {
  gpu.module @storage [#spirv.target_env<#spirv.vce<v1.3, [Shader, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xi8>, %b: memref<8xf16>, %c: memref<8xi16>,
                %m: memref<8xi1>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads i8 from a buffer, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      %x = memref.load %a[%i] : memref<8xi8>
      // expected-error @+1 {{'memref.store' writes i8 to a buffer, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      memref.store %x, %a[%i] : memref<8xi8>
      // expected-error @+1 {{'memref.load' reads f16 from a buffer, which needs the SPIR-V capability Float16; vulkan:0 (llvmpipe) does not have it}}
      %y = memref.load %b[%i] : memref<8xf16>
      // expected-error @+1 {{'memref.load' reads i16 from a buffer, which needs the SPIR-V capability Int16; vulkan:0 (llvmpipe) does not have it}}
      %z = memref.load %c[%i] : memref<8xi16>
      // expected-error @+1 {{'memref.load' reads i1 from a buffer (stored as i8), which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      %p = memref.load %m[%i] : memref<8xi1>
      gpu.return
    }
  }
}

// -----

// On emulated i8/i16, unsigned division, remainder and comparison and math
// ops do not convert; signed ones do.
module attributes {gpu.container_module} {
  gpu.module @unsigned [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xi8>, %b: memref<8xi16>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xi8>
      %s = arith.divsi %x, %x : i8
      // expected-error @+1 {{'arith.divui' computes on i8, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      %d = arith.divui %x, %s : i8
      // expected-error @+1 {{'arith.remui' computes on i8, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      %r = arith.remui %d, %x : i8
      %eq = arith.cmpi eq, %r, %x : i8
      // expected-error @+1 {{'arith.cmpi' computes on i8, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      %lt = arith.cmpi ult, %r, %x : i8
      // expected-error @+1 {{'math.absi' computes on i8, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
      %abs = math.absi %r : i8
      %y = memref.load %b[%i] : memref<8xi16>
      // expected-error @+1 {{'arith.cmpi' computes on i16, which needs the SPIR-V capability Int16; vulkan:0 (llvmpipe) does not have it}}
      %ge = arith.cmpi uge, %y, %y : i16
      gpu.return
    }
  }
}

// -----

// bf16 converts on no target.
module attributes {gpu.container_module} {
  gpu.module @bf16 [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>, api=Vulkan, #spirv.resource_limits<>>] {
    gpu.func @k(%a: memref<8xbf16>, %o: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      // expected-error @+1 {{'memref.load' reads bf16 from a buffer, which the SPIR-V conversion does not support on any device}}
      %x = memref.load %a[%i] : memref<8xbf16>
      // expected-error @+1 {{'arith.extf' computes on bf16, which the SPIR-V conversion does not support on any device}}
      %f = arith.extf %x : bf16 to f32
      memref.store %f, %o[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// A kernel argument no op touches still fails the conversion of the kernel.
module attributes {gpu.container_module} {
  gpu.module @argument [#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>] {
    // expected-error @+1 {{'gpu.func' takes a buffer of f64, which needs the SPIR-V capability Float64; vulkan:0 (llvmpipe) does not have it}}
    gpu.func @k(%unused: memref<8xf64>) kernel {
      gpu.return
    }
  }
}
