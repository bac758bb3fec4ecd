// What the reference interpreter and plaidml-run report instead of a value:
// unspecified integer results, conflicting `assign` writes, unbounded
// indices, and command-line mistakes. Each is one clear line and a non-zero
// exit code.
// RUN: not plaidml-run %s --device reference --entry div_zero 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not plaidml-run %s --device reference --entry assign_twice 2>&1 | FileCheck %s --check-prefix=ASSIGN
// RUN: not plaidml-run %s --device reference --entry unbounded 2>&1 | FileCheck %s --check-prefix=UNBOUNDED
// RUN: not plaidml-run %s --device reference 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not plaidml-run %s --device reference --entry nope 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not plaidml-run %s --device reference --entry needs_input 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not plaidml-run %s --device reference --entry needs_input --input arg0=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: echo garbage > %t.bad.npy
// RUN: not plaidml-run %s --device reference --entry needs_input --input arg0=%t.bad.npy 2>&1 | FileCheck %s --check-prefix=BADNPY
// RUN: not plaidml-run %s --device reference --entry needs_input --input arg7=%t.bad.npy --random-inputs 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not plaidml-run %s --device reference --entry needs_input --bind arg0=3xf32 --random-inputs 2>&1 | FileCheck %s --check-prefix=BIND
// RUN: not plaidml-run %s --device nosuch --entry needs_input 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: %if opencl %{ not plaidml-run %s --device opencl:0 --entry needs_input --random-inputs 2>&1 | FileCheck %s --check-prefix=OPENCL %}
// RUN: not plaidml-run %s --frobnicate 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not plaidml-run %s --device reference --entry needs_input --repeat x 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not plaidml-run %t.nonexistent.mlir --device reference 2>&1 | FileCheck %s --check-prefix=NOMLIR
// RUN: plaidml-run %s --device reference --entry needs_input --bind arg0=2x2xf32 --random-inputs=7 --repeat 3 --warmup 1 | FileCheck %s --check-prefix=TIMING

// DIV: errors.mlir:[[@LINE+5]]:8: error: integer division by zero
// DIV: plaidml-run: error: running 'div_zero' failed
func.func @div_zero() -> tensor<2xsi32> {
  %a = tile.constant dense<[1, 2]> : tensor<2xsi32>
  %b = tile.constant dense<[1, 0]> : tensor<2xsi32>
  %q = tile.div %a, %b : tensor<2xsi32>
  return %q : tensor<2xsi32>
}

// ASSIGN: error: 'assign' contraction writes output element [0] more than once
func.func @assign_twice() -> tensor<2xf32> {
  %x = tile.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract assign, none, %zero, %x {idxs = ["i", "j"],
         sink = affine_map<(i, j) -> (i)>, srcs = [affine_map<(i, j) -> (i, j)>]}
       : tensor<f32>, tensor<2x2xf32> -> tensor<2xf32>
  return %o : tensor<2xf32>
}

// UNBOUNDED: error: index 'k' is unbounded below and above; bound it with a tensor access or a constraint
func.func @unbounded() -> tensor<2xf32> {
  %x = tile.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, none, %zero, %x {idxs = ["i", "k"],
         sink = affine_map<(i, k) -> (i)>, srcs = [affine_map<(i, k) -> (i + k - k)>]}
       : tensor<f32>, tensor<2xf32> -> tensor<2xf32>
  return %o : tensor<2xf32>
}

// ENTRY: plaidml-run: error: '{{.*}}errors.mlir' has 4 functions (div_zero, assign_twice, unbounded, needs_input); pick one with --entry
// NOFUNC: plaidml-run: error: no function 'nope' in
// MISSING: plaidml-run: error: missing input 'arg0' (2x2xf32): pass --input arg0=FILE.npy or --random-inputs
// NOFILE: plaidml-run: error: cannot open '{{.*}}.missing.npy'
// BADNPY: plaidml-run: error: '{{.*}}.bad.npy' is not a readable .npy file: missing the \x93NUMPY magic
// UNKNOWN: plaidml-run: error: 'arg7' is not an input of 'needs_input' (inputs: arg0)
// BIND: plaidml-run: error: --bind arg0=3xf32 does not match the input type 2x2xf32
// DEVICE: plaidml-run: error: invalid device name 'nosuch' (expected cpu, vulkan:N or opencl:N)
// OPENCL: errors.mlir:46:8: error: index 'k' is unbounded below and above
// OPENCL: plaidml-run: error: compiling '{{.*}}errors.mlir' for opencl:0 failed
// OPTION: plaidml-run: error: unknown option '--frobnicate' (see --help)
// REPEAT: plaidml-run: error: --repeat needs a non-negative count
// NOMLIR: plaidml-run: error: cannot read '{{.*}}.nonexistent.mlir'
// TIMING: {{^}}compile: {{[0-9.]+}} ms{{$}}
// TIMING-NEXT: {{^}}run: min {{[0-9.]+}} ms, median {{[0-9.]+}} ms, max {{[0-9.]+}} ms over 3 runs{{$}}
func.func @needs_input(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = tile.exp %a : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
