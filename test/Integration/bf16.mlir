// bf16 arithmetic: rounded to bf16 after every op on the reference
// interpreter and the CPU. Vulkan kernels cannot use bf16 yet (SPIR-V has it
// only through SPV_KHR_bfloat16): compiling for vulkan:0 is an error naming
// the op, not a wrong result.
// RUN: plaidml-run %s --device reference --print | FileCheck %s
// RUN: plaidml-run %s --device cpu --print | FileCheck %s
// RUN: %if vulkan %{ not plaidml-run %s --device vulkan:0 2>&1 | FileCheck %s --check-prefix=VULKAN %}

// CHECK: result0: bf16
// CHECK-NEXT: 0.333984
// VULKAN: bf16.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}bf16{{.*}}, which the SPIR-V conversion does not support on any device
func.func @third() -> tensor<bf16> {
  %b1 = tile.constant dense<1.0> : tensor<bf16>
  %b3 = tile.constant dense<3.0> : tensor<bf16>
  %third = tile.div %b1, %b3 : tensor<bf16>
  return %third : tensor<bf16>
}
