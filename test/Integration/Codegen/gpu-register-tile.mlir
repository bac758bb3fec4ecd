// The GPU schedules plaidml-gpu-configure chooses (after
// plaidml-fuse-elementwise) on shapes that reach each code path, on
// vulkan:0 (lavapipe) and opencl:0 (PoCL), each entry checked against the
// reference interpreter on the same random inputs. Matrix products whose M
// and N are at least 16 take the staged (workgroup-memory) schedule
// (gpu-staged.mlir tests its paths): the odd matmul (tiles that divide
// neither output dimension nor the reduction), the one with a fused bias
// and relu, the padded 3x1 convolution (a three-deep reduction chain with
// the padding guard inside) and the small 37x53x29 matmul. The register tile
// keeps the GEMV, whose K of 7 is too short to split (one row: a 1x4
// tile, wrapped loads, guarded stores);
// the 3x3 convolution with 8 output channels (N below 16, three window
// loops) and the elementwise chain (one kernel) run one output per
// invocation. gpu-configure-register-tile.mlir shows the register tile's
// choices on matmuls with staging off.
//
// The choices, as remarks:
// RUN: plaidml-opt %s -split-input-file -tile-compute-bounds \
// RUN:   -convert-tile-to-affine="border-fill=false split-guards=false" \
// RUN:   -plaidml-fuse-elementwise -plaidml-gpu-configure=remarks=1 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 509 x 511 x 29, batch 1
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 515 x 517 x 13, batch 1
// REMARK: no staged tile: M or N is below 16; no split-K tile: K is below 256, too short to split
// REMARK: register tile 1x4 (4 outputs per invocation), workgroup 1x256 over 1x16385
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 4489 x 32 x 3, batch 1
// REMARK: no staged tile: M or N is below 16; no split-K tile: M is 16 or more
// REMARK: no register tile: 3 reduction loops of more than one iteration (a window): at most 1
// REMARK: workgroup 1x1x32x8 over 1x17x19x8
// REMARK: no staged tile: no reduction loop before the store
// REMARK: no register tile: no reduction loop
// REMARK: workgroup 1x256 over 257x131
// REMARK: staged tile 32x32x16, 2x2 outputs per invocation, over M x N x K = 37 x 53 x 29, batch 1
//
// RUN: %if vulkan %{ rm -rf %t.vk && %python %S/compare_devices.py \
// RUN:   --plaidml-run plaidml-run --program %s --work-dir %t.vk \
// RUN:   --device vulkan:0 matmul_odd matmul_bias_relu gemv conv_same \
// RUN:   conv3x3 chain matmul_small | FileCheck %s %}
// RUN: %if opencl %{ rm -rf %t.cl && %python %S/compare_devices.py \
// RUN:   --plaidml-run plaidml-run --program %s --work-dir %t.cl \
// RUN:   --device opencl:0 matmul_odd matmul_bias_relu gemv conv_same \
// RUN:   conv3x3 chain matmul_small | FileCheck %s %}
// CHECK: PASS matmul_odd
// CHECK: PASS matmul_bias_relu
// CHECK: PASS gemv
// CHECK: PASS conv_same
// CHECK: PASS conv3x3
// CHECK: PASS chain
// CHECK: PASS matmul_small

func.func @matmul_odd(%A: tensor<509x29xf32>, %B: tensor<29x511xf32>) -> tensor<509x511xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<509x29xf32>, tensor<29x511xf32> -> tensor<509x511xf32>
  return %C : tensor<509x511xf32>
}

// -----

func.func @matmul_bias_relu(%A: tensor<515x13xf32>, %B: tensor<13x517xf32>, %bias: tensor<517xf32>) -> tensor<515x517xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<515x13xf32>, tensor<13x517xf32> -> tensor<515x517xf32>
  %S = tile.add %C, %bias : tensor<515x517xf32>, tensor<517xf32> -> tensor<515x517xf32>
  %R = tile.relu %S : tensor<515x517xf32>
  return %R : tensor<515x517xf32>
}

// -----

func.func @gemv(%x: tensor<1x7xf32>, %W: tensor<7x65539xf32>) -> tensor<1x65539xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %y = tile.contract add, mul, %zero, %x, %W {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<1x7xf32>, tensor<7x65539xf32> -> tensor<1x65539xf32>
  return %y : tensor<1x65539xf32>
}

// -----

// A 3x1 window padded along the rows over one input channel: a three-deep
// reduction chain (two of its loops of one iteration, so the configuration
// tiles it) with the padding guard inside.
func.func @conv_same(%I: tensor<1x67x67x1xf32>, %K: tensor<3x1x1x32xf32>) -> tensor<1x67x67x32xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["n", "x", "y", "f", "i", "j", "c"],
         sink = affine_map<(n, x, y, f, i, j, c) -> (n, x, y, f)>,
         srcs = [affine_map<(n, x, y, f, i, j, c) -> (n, x + i - 1, y + j, c)>,
                 affine_map<(n, x, y, f, i, j, c) -> (i, j, c, f)>]}
       : tensor<f32>, tensor<1x67x67x1xf32>, tensor<3x1x1x32xf32> -> tensor<1x67x67x32xf32>
  return %O : tensor<1x67x67x32xf32>
}

// A 3x3 window with 8 output channels: neither staged (N below 16) nor
// register-tiled (three reduction loops of more than one iteration), one
// output per invocation.
func.func @conv3x3(%I: tensor<1x19x21x4xf32>, %K: tensor<3x3x4x8xf32>) -> tensor<1x17x19x8xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %O = tile.contract add, mul, %zero, %I, %K {idxs = ["n", "x", "y", "f", "i", "j", "c"],
         sink = affine_map<(n, x, y, f, i, j, c) -> (n, x, y, f)>,
         srcs = [affine_map<(n, x, y, f, i, j, c) -> (n, x + i, y + j, c)>,
                 affine_map<(n, x, y, f, i, j, c) -> (i, j, c, f)>]}
       : tensor<f32>, tensor<1x19x21x4xf32>, tensor<3x3x4x8xf32> -> tensor<1x17x19x8xf32>
  return %O : tensor<1x17x19x8xf32>
}

// -----

func.func @chain(%X: tensor<257x131xf32>, %B: tensor<131xf32>) -> tensor<257x131xf32> {
  %S = tile.add %X, %B : tensor<257x131xf32>, tensor<131xf32> -> tensor<257x131xf32>
  %R = tile.relu %S : tensor<257x131xf32>
  %half = tile.constant dense<0.5> : tensor<f32>
  %H = tile.mul %R, %half : tensor<257x131xf32>, tensor<f32> -> tensor<257x131xf32>
  return %H : tensor<257x131xf32>
}

// -----

func.func @matmul_small(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>) -> tensor<37x53xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %C = tile.contract add, mul, %zero, %A, %B {idxs = ["m", "n", "k"],
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<37x29xf32>, tensor<29x53xf32> -> tensor<37x53xf32>
  return %C : tensor<37x53xf32>
}
