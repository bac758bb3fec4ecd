// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-vulkan-pipeline="label={vulkan:0 (llvmpipe)}"
// RUN: not plaidml-opt %s -split-input-file \
// RUN:   -plaidml-vulkan-pipeline="caps=Float64,Int64" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=WIDE
// RUN: not plaidml-opt %s -split-input-file \
// RUN:   -plaidml-vulkan-pipeline="caps=StorageBuffer8BitAccess exts=SPV_KHR_8bit_storage" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORAGE8
// RUN: not plaidml-opt %s -split-input-file \
// RUN:   -plaidml-vulkan-pipeline="caps=Int64,Float64,Int8,Float16,StorageBuffer8BitAccess,StorageBuffer16BitAccess exts=SPV_KHR_8bit_storage,SPV_KHR_16bit_storage" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=ALL

// A type the Vulkan device cannot run is an error at the Tile op that uses
// it, naming the device (plaidml-gpu-check-device-support), not a failure to
// legalize a gpu.func. With the capabilities the same programs convert.

// A contraction (one kernel: each invocation reduces from the init).
// WIDE: spirv.module @__spv__matmul64_kernel {{.*}}Float64
// WIDE-NOT: spirv.module @__spv__matmul64_kernel_0
func.func @matmul64(%A: tensor<4x8xf64>, %B: tensor<8x16xf64>) -> tensor<4x16xf64> {
  %zero = tile.constant dense<0.0> : tensor<f64>
  // expected-error @+1 {{'memref.load' reads f64 from a buffer, which needs the SPIR-V capability Float64; vulkan:0 (llvmpipe) does not have it}}
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f64>, tensor<4x8xf64>, tensor<8x16xf64> -> tensor<4x16xf64>
  return %C : tensor<4x16xf64>
}

// -----

// i64 values, and i64 index arithmetic the lowering introduces: tile.index
// converts coordinates through i64, tile.gather widens its indices to i64.
// WIDE: spirv.module @__spv__wide_kernel {{.*}}Int64
// WIDE: spirv.module @__spv__rows_kernel {{.*}}Int64
// WIDE: spirv.module @__spv__gather_kernel {{.*}}Int64
func.func @wide(%A: tensor<16xsi64>) -> tensor<16xsi64> {
  %one = tile.constant dense<1> : tensor<si64>
  // expected-error @+1 {{'memref.load' reads i64 from a buffer, which needs the SPIR-V capability Int64; vulkan:0 (llvmpipe) does not have it}}
  %s = tile.add %A, %one : tensor<16xsi64>, tensor<si64> -> tensor<16xsi64>
  return %s : tensor<16xsi64>
}

func.func @rows() -> tensor<3x4xf32> {
  // expected-error @+1 {{'arith.index_cast' computes on i64, which needs the SPIR-V capability Int64; vulkan:0 (llvmpipe) does not have it}}
  %r = tile.index 0 : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @gather(%T: tensor<100x16xf32>, %I: tensor<8xsi32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'arith.extui' computes on i64, which needs the SPIR-V capability Int64; vulkan:0 (llvmpipe) does not have it}}
  %e = tile.gather %T, %I {axis = 0} : tensor<100x16xf32>, tensor<8xsi32> -> tensor<8x16xf32>
  return %e : tensor<8x16xf32>
}

// -----

// f16 buffers need 16-bit storage (the SPIR-V conversion would otherwise
// read them as f32 words); tile.exp computes in f32. The add and the exp
// are one kernel (plaidml-fuse-elementwise): the add's loads and the exp's
// store are the errors.
// ALL: spirv.module @__spv__half_kernel {{.*}}StorageBuffer16BitAccess{{.*}}Float16
// ALL-NOT: spirv.module @__spv__half_kernel_0
func.func @half(%A: tensor<16xf16>, %B: tensor<16xf16>) -> tensor<16xf16> {
  // expected-error @+1 {{'memref.load' reads f16 from a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess; vulkan:0 (llvmpipe) does not have it}}
  %s = tile.add %A, %B : tensor<16xf16>, tensor<16xf16> -> tensor<16xf16>
  // expected-error @+1 {{'memref.store' writes f16 to a buffer, which needs the SPIR-V capability StorageBuffer16BitAccess; vulkan:0 (llvmpipe) does not have it}}
  %e = tile.exp %s : tensor<16xf16>
  return %e : tensor<16xf16>
}

// -----

// Without 8-bit types, i8 buffers are packed into i32 words and signed
// arithmetic is done in 32 bits, but unsigned division and comparison need
// Int8. With 8-bit storage but without Int8, the loads and stores do.
// ALL: spirv.module @__spv__bytes_kernel {{.*}}Int8
// ALL: spirv.module @__spv__bytes_kernel_0 {{.*}}Int8
// ALL: spirv.module @__spv__bytes_kernel_1 {{.*}}Int8
func.func @bytes(%A: tensor<16xui8>, %B: tensor<16xui8>, %S: tensor<16xsi8>)
    -> (tensor<16xui8>, tensor<16xi1>, tensor<16xsi8>) {
  // STORAGE8: vulkan-unsupported-types.mlir:[[@LINE+2]]:8: error: 'memref.load' reads i8 from a buffer, which needs the SPIR-V capability Int8; the target device does not have it
  // expected-error @+1 {{'arith.divui' computes on i8, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
  %q = tile.div %A, %B : tensor<16xui8>, tensor<16xui8> -> tensor<16xui8>
  // STORAGE8: vulkan-unsupported-types.mlir:[[@LINE+3]]:9: error: 'memref.load' reads i8 from a buffer, which needs the SPIR-V capability Int8; the target device does not have it
  // STORAGE8: vulkan-unsupported-types.mlir:[[@LINE+2]]:9: error: 'memref.store' writes i1 to a buffer (stored as i8), which needs the SPIR-V capability Int8; the target device does not have it
  // expected-error @+1 {{'arith.cmpi' computes on i8, which needs the SPIR-V capability Int8; vulkan:0 (llvmpipe) does not have it}}
  %lt = tile.cmp lt, %A, %B : tensor<16xui8>, tensor<16xui8> -> tensor<16xi1>
  // STORAGE8: vulkan-unsupported-types.mlir:[[@LINE+1]]:8: error: 'memref.load' reads i8 from a buffer, which needs the SPIR-V capability Int8; the target device does not have it
  %s = tile.add %S, %S : tensor<16xsi8>, tensor<16xsi8> -> tensor<16xsi8>
  return %q, %lt, %s : tensor<16xui8>, tensor<16xi1>, tensor<16xsi8>
}

// -----

// bf16 and f64 exp convert for no device.
func.func @brain(%A: tensor<16xf32>) -> tensor<16xbf16> {
  // expected-error @+1 {{'arith.truncf' computes on bf16, which the SPIR-V conversion does not support on any device}}
  %b = tile.cast %A : tensor<16xf32> -> tensor<16xbf16>
  return %b : tensor<16xbf16>
}

// WIDE-NOT: spirv.module @__spv__exp64
// ALL-NOT: spirv.module @__spv__exp64
func.func @exp64(%A: tensor<16xf64>) -> tensor<16xf64> {
  // expected-error @+2 {{'memref.load' reads f64 from a buffer, which needs the SPIR-V capability Float64; vulkan:0 (llvmpipe) does not have it}}
  // expected-error @+1 {{'math.exp' computes on f64, which the SPIR-V conversion does not support on any device (GLSL.std.450 has it for 16- and 32-bit floats only)}}
  %e = tile.exp %A : tensor<16xf64>
  return %e : tensor<16xf64>
}
