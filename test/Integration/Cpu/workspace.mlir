// Compiled CPU code keeps its temporaries in one workspace that the runtime
// allocates before the call (plaidml-cpu-plan-workspace, docs/ABI.md
// section 2), so a temporary too large for the machine is an error saying how
// much was asked for. It used to be a malloc in compiled code that nobody
// checked: an 8 GiB temporary under a 4 GiB address-space limit (ulimit -v)
// was a SIGSEGV.
// UNSUPPORTED: sanitized
// RUN: plaidml-compile %s --device cpu -o %t.so
// RUN: not %python %S/Inputs/memory-limit.py 4294967296 plaidml-run %t.so --device cpu --entry huge_temporary 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: plaidml-run: error: {{.*}}out of memory: cannot allocate 8589934592 bytes (8.0 GiB) for the temporaries of entry 'huge_temporary'

// Temporaries that are not alive at the same time share bytes: a chain of
// four 64 KiB intermediates (matmuls, which nothing fuses) needs 128 KiB of
// workspace, not 256; the numbers are the reference interpreter's (integers,
// so exactly).
// RUN: plaidml-opt %s --plaidml-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: entry chain _plaidml_entry_chain\0Aworkspace 131072\0A
// RUN: plaidml-run %s --device reference --entry chain --random-inputs --print > %t.ref
// RUN: plaidml-run %s --device cpu --entry chain --random-inputs --print > %t.cpu
// RUN: plaidml-run %s --device cpu --threads 2 --entry chain --random-inputs --print > %t.cpu2
// RUN: diff %t.ref %t.cpu
// RUN: diff %t.ref %t.cpu2

func.func @huge_temporary() -> tensor<si64> {
  %i = tile.index 0 : tensor<1024x1024x1024xsi64>
  %zero = tile.constant dense<0> : tensor<si64>
  %s = tile.contract add, none, %zero, %i {idxs = ["i", "j", "k"],
         sink = affine_map<(i, j, k) -> ()>, srcs = [affine_map<(i, j, k) -> (i, j, k)>]}
       : tensor<si64>, tensor<1024x1024x1024xsi64> -> tensor<si64>
  return %s : tensor<si64>
}

// x x x x x, then the sum of the result's elements.
func.func @chain(%x: tensor<128x128xsi32>) -> tensor<si32> {
  %z = tile.constant dense<0> : tensor<si32>
  %a = tile.contract add, mul, %z, %x, %x {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<si32>, tensor<128x128xsi32>, tensor<128x128xsi32> -> tensor<128x128xsi32>
  %b = tile.contract add, mul, %z, %a, %x {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<si32>, tensor<128x128xsi32>, tensor<128x128xsi32> -> tensor<128x128xsi32>
  %c = tile.contract add, mul, %z, %b, %x {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<si32>, tensor<128x128xsi32>, tensor<128x128xsi32> -> tensor<128x128xsi32>
  %d = tile.contract add, mul, %z, %c, %x {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<si32>, tensor<128x128xsi32>, tensor<128x128xsi32> -> tensor<128x128xsi32>
  %s = tile.contract add, none, %z, %d {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> ()>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<si32>, tensor<128x128xsi32> -> tensor<si32>
  return %s : tensor<si32>
}
