// Parameters (plaidml.param) packed once by the entry's preparation
// (docs/ABI.md section 2, plaidml-cpu-split-prepare): a matmul whose
// right-hand side spans three cache blocks, a 3x3 and a 1x1 convolution
// (one cache block, spread over the output rows), a depthwise convolution,
// a parameter read by two contractions and a 3x3 convolution to 200
// channels (several cache blocks, their loop joined by the output rows',
// remainder vectors and columns) and a 3x3 convolution of 512 channels
// with a bias and relu (its filter panels larger than a cache block: the
// reduction runs in chunks, partial sums in a scratch buffer, the epilogue
// after the last chunk; with 64 channels and AVX-512, blocks of two
// whole rows). Each entry runs on the CPU
// three times on one invocation (the preparation runs once) and is checked
// against the reference interpreter on the same random inputs; then with
// two threads.
//
// RUN: rm -rf %t && %python %S/compare_devices.py --plaidml-run plaidml-run \
// RUN:   --program %s --work-dir %t --extra=--repeat --extra=3 \
// RUN:   matmul conv3x3 conv1x1 depthwise shared conv_blocks conv_chunks \
// RUN:   conv_chunks_rows \
// RUN:   | FileCheck %s
// RUN: rm -rf %t && %python %S/compare_devices.py --plaidml-run plaidml-run \
// RUN:   --program %s --work-dir %t --extra=--threads --extra=2 \
// RUN:   --extra=--repeat --extra=2 matmul conv3x3 conv1x1 shared conv_blocks \
// RUN:   conv_chunks conv_chunks_rows \
// RUN:   | FileCheck %s --check-prefix=THREADS
// CHECK: PASS matmul
// CHECK: PASS conv3x3
// CHECK: PASS conv1x1
// CHECK: PASS depthwise
// CHECK: PASS shared
// CHECK: PASS conv_blocks
// CHECK: PASS conv_chunks
// CHECK: PASS conv_chunks_rows
// THREADS: PASS matmul
// THREADS: PASS conv3x3
// THREADS: PASS conv1x1
// THREADS: PASS shared
// THREADS: PASS conv_blocks
// THREADS: PASS conv_chunks
// THREADS: PASS conv_chunks_rows
//
// Every entry has a preparation that reads its parameters only.
// RUN: plaidml-opt %s -plaidml-cpu-pipeline="cpu=x86-64 features=+avx2,+fma" \
// RUN:   | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: entry matmul _plaidml_entry_matmul\0Aprepare _plaidml_prepare_matmul {{[0-9]+}}\0Ainput arg0 37x45xf32\0Ainput arg1 45x200xf32 param\0Ainput arg2 200xf32\0A
// MANIFEST-SAME: entry conv3x3 _plaidml_entry_conv3x3\0Aprepare _plaidml_prepare_conv3x3 {{[0-9]+}}\0Ainput arg0 1x12x20x24xf32\0Ainput arg1 3x3x24x40xf32 param\0A
// MANIFEST-SAME: entry conv1x1 _plaidml_entry_conv1x1\0Aprepare _plaidml_prepare_conv1x1 {{[0-9]+}}\0Ainput arg0 1x6x7x64xf32\0Ainput arg1 1x1x64x32xf32 param\0A
// MANIFEST-SAME: entry depthwise _plaidml_entry_depthwise\0Aprepare _plaidml_prepare_depthwise {{[0-9]+}}\0Ainput arg0 1x10x34x32xf32\0Ainput arg1 3x3x32xf32 param\0A
// MANIFEST-SAME: entry shared _plaidml_entry_shared\0Aprepare _plaidml_prepare_shared {{[0-9]+}}\0Ainput arg0 20x64xf32\0Ainput arg1 30x64xf32\0Ainput arg2 64x48xf32 param\0A
// REQUIRES: host-x86_64

// 37 rows, 200 columns: three panels of four vectors (three cache blocks)
// and 8 columns that do not fill a vector; the bias is not a parameter.
func.func @matmul(%a: tensor<37x45xf32>, %b: tensor<45x200xf32> {plaidml.param}, %bias: tensor<200xf32>) -> tensor<37x200xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %c = tile.contract add, mul, %zero, %a, %b {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<37x45xf32>, tensor<45x200xf32> -> tensor<37x200xf32>
  %d = tile.add %c, %bias : tensor<37x200xf32>, tensor<200xf32> -> tensor<37x200xf32>
  %e = tile.relu %d : tensor<37x200xf32>
  return %e : tensor<37x200xf32>
}

// NHWC 3x3, 24 -> 40 channels.
func.func @conv3x3(%i: tensor<1x12x20x24xf32>, %k: tensor<3x3x24x40xf32> {plaidml.param}) -> tensor<1x10x18x40xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x12x20x24xf32>, tensor<3x3x24x40xf32> -> tensor<1x10x18x40xf32>
  return %o : tensor<1x10x18x40xf32>
}

// 1x1, 64 -> 32 channels: one panel, one cache block, spread over the six
// output rows, each of which packed its own copy before.
func.func @conv1x1(%i: tensor<1x6x7x64xf32>, %k: tensor<1x1x64x32xf32> {plaidml.param}) -> tensor<1x6x7x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x6x7x64xf32>, tensor<1x1x64x32xf32> -> tensor<1x6x7x32xf32>
  return %o : tensor<1x6x7x32xf32>
}

// Depthwise 3x3 over 32 channels.
func.func @depthwise(%i: tensor<1x10x34x32xf32>, %k: tensor<3x3x32xf32> {plaidml.param}) -> tensor<1x8x32x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "c", "kh", "kw"],
         sink = affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>,
         srcs = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                 affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>]}
       : tensor<f32>, tensor<1x10x34x32xf32>, tensor<3x3x32xf32> -> tensor<1x8x32x32xf32>
  return %o : tensor<1x8x32x32xf32>
}

// One parameter, two products (each packs its own copy), two outputs.
func.func @shared(%x: tensor<20x64xf32>, %y: tensor<30x64xf32>, %w: tensor<64x48xf32> {plaidml.param}) -> (tensor<20x48xf32>, tensor<30x48xf32>) {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %p = tile.contract add, mul, %zero, %x, %w {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<20x64xf32>, tensor<64x48xf32> -> tensor<20x48xf32>
  %q = tile.contract add, mul, %zero, %y, %w {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<30x64xf32>, tensor<64x48xf32> -> tensor<30x48xf32>
  return %p, %q : tensor<20x48xf32>, tensor<30x48xf32>
}

// 3x3, 16 -> 200 channels over a 7 x 9 map: several cache blocks of
// panels, whose parallel loop the 7 output rows join (the packed filter is
// a parameter, so no block packs at run time), then the remainder vectors
// and the columns that do not fill a vector (200 = 12 x 16 + 8).
func.func @conv_blocks(%i: tensor<1x9x11x16xf32>, %k: tensor<3x3x16x200xf32> {plaidml.param}) -> tensor<1x7x9x200xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x9x11x16xf32>, tensor<3x3x16x200xf32> -> tensor<1x7x9x200xf32>
  return %o : tensor<1x7x9x200xf32>
}

func.func @conv_chunks(%i: tensor<1x9x9x512xf32>, %k: tensor<3x3x512x40xf32> {plaidml.param}, %bias: tensor<40xf32>) -> tensor<1x7x7x40xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x9x9x512xf32>, tensor<3x3x512x40xf32> -> tensor<1x7x7x40xf32>
  %s = tile.add %o, %bias : tensor<1x7x7x40xf32>, tensor<40xf32> -> tensor<1x7x7x40xf32>
  %r = tile.relu %s : tensor<1x7x7x40xf32>
  return %r : tensor<1x7x7x40xf32>
}

func.func @conv_chunks_rows(%i: tensor<1x9x9x512xf32>, %k: tensor<3x3x512x64xf32> {plaidml.param}) -> tensor<1x7x7x64xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "h", "w", "co", "kh", "kw", "ci"],
         sink = affine_map<(n, h, w, co, kh, kw, ci) -> (n, h, w, co)>,
         srcs = [affine_map<(n, h, w, co, kh, kw, ci) -> (n, h + kh, w + kw, ci)>,
                 affine_map<(n, h, w, co, kh, kw, ci) -> (kh, kw, ci, co)>]}
       : tensor<f32>, tensor<1x9x9x512xf32>, tensor<3x3x512x64xf32> -> tensor<1x7x7x64xf32>
  return %o : tensor<1x7x7x64xf32>
}
