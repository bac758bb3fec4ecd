// Tensors too large to allocate, or whose size overflows 64 bits, are an
// error that says how much was asked for, on every device; never an abort
// (bad_alloc, length_error) and never a wrapped size (a 2^64-element tensor
// once ran with rc 0 and wrote a corrupt .npy).
// RUN: not plaidml-run %s --device reference --entry huge_intermediate 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not plaidml-run %s --device reference --entry wrapping_intermediate 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not plaidml-run %s --device reference --entry wrapping_result --output-dir %t.out 2>&1 | FileCheck %s --check-prefix=WRAP-RESULT
// RUN: not ls %t.out/result0.npy
// RUN: not plaidml-run %S/Inputs/huge-input.mlir --device reference --random-inputs 2>&1 | FileCheck %s --check-prefix=RANDOM
// RUN: not plaidml-run %S/Inputs/huge-input.mlir --device cpu --random-inputs 2>&1 | FileCheck %s --check-prefix=RANDOM
// RUN: %if vulkan %{ not plaidml-run %S/Inputs/huge-input.mlir --device vulkan:0 --random-inputs 2>&1 | FileCheck %s --check-prefix=RANDOM %}
// RUN: %if opencl %{ not plaidml-run %S/Inputs/huge-input.mlir --device opencl:0 --random-inputs 2>&1 | FileCheck %s --check-prefix=RANDOM %}
// RUN: not plaidml-run %S/Inputs/huge-input.mlir --device reference --bind arg0=1048576x1048576x1024xsi8 --random-inputs 2>&1 | FileCheck %s --check-prefix=RANDOM
// RANDOM: plaidml-run: error: out of memory: cannot allocate 1125899906842624 bytes (1024.0 TiB) for input 'arg0' (1048576x1048576x1024xsi8)

// HUGE: allocation.mlir:[[@LINE+3]]:8: error: out of memory: the reference interpreter cannot allocate 9007199254740992 bytes (8.0 PiB) for 'tensor<1048576x1048576x1024xsi64>'
// HUGE: plaidml-run: error: running 'huge_intermediate' failed
func.func @huge_intermediate() -> tensor<si64> {
  %i = tile.index 0 : tensor<1048576x1048576x1024xsi64>
  %zero = tile.constant dense<0> : tensor<si64>
  %s = tile.contract add, none, %zero, %i {idxs = ["i", "j", "k"],
         sink = affine_map<(i, j, k) -> ()>, srcs = [affine_map<(i, j, k) -> (i, j, k)>]}
       : tensor<si64>, tensor<1048576x1048576x1024xsi64> -> tensor<si64>
  return %s : tensor<si64>
}

// WRAP: allocation.mlir:[[@LINE+3]]:8: error: the reference interpreter cannot allocate 'tensor<4294967296x4294967296xsi64>': its number of elements (4294967296 x 4294967296) overflows 64 bits
// WRAP: plaidml-run: error: running 'wrapping_intermediate' failed
func.func @wrapping_intermediate() -> tensor<si64> {
  %i = tile.index 0 : tensor<4294967296x4294967296xsi64>
  %zero = tile.constant dense<0> : tensor<si64>
  %s = tile.contract add, none, %zero, %i {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> ()>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<si64>, tensor<4294967296x4294967296xsi64> -> tensor<si64>
  return %s : tensor<si64>
}

// WRAP-RESULT: plaidml-run: error: 'result0' of 'wrapping_result': dimension '4294967296' in '4294967296x4294967296xsi64' is too large
func.func @wrapping_result() -> tensor<4294967296x4294967296xsi64> {
  %i = tile.index 0 : tensor<4294967296x4294967296xsi64>
  return %i : tensor<4294967296x4294967296xsi64>
}
