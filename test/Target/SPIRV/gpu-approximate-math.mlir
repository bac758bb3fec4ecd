// RUN: plaidml-opt %s -plaidml-gpu-approximate-math | FileCheck %s

// erf and erfc, which GLSL.std.450 lacks, become polynomials of ops that
// convert to SPIR-V; other math stays for convert-math-to-spirv.
// CHECK-LABEL: func.func @erf
// CHECK-NOT: math.erf
// CHECK: math.exp
// CHECK: math.fma
// CHECK-NOT: math.erf
// CHECK-LABEL: func.func @others
// CHECK: math.exp
// CHECK: math.tanh
func.func @erf(%x: f32, %y: f32) -> (f32, f32) {
  %a = math.erf %x : f32
  %b = math.erfc %y : f32
  return %a, %b : f32, f32
}
func.func @others(%x: f32) -> (f32, f32) {
  %a = math.exp %x : f32
  %b = math.tanh %x : f32
  return %a, %b : f32, f32
}
