// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-nest-spirv-modules | FileCheck %s

// Each spirv.module that convert-gpu-to-spirv put beside its gpu.module
// moves inside it (first), where gpu-module-to-binary looks; the gpu.func
// stays, so the launch still verifies.
// CHECK-LABEL: gpu.module @k
// CHECK-NEXT: spirv.module @__spv__k Logical GLSL450
// CHECK: gpu.func @f
// CHECK: spirv.module @other
module attributes {gpu.container_module} {
  spirv.module @__spv__k Logical GLSL450 {
  }
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  // A SPIR-V module of another origin stays where it is.
  spirv.module @other Logical GLSL450 {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'spirv.module' op has no gpu.module @missing}}
  spirv.module @__spv__missing Logical GLSL450 {
  }
}
