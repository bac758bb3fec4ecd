// plaidml-spirv-builtin-capabilities: a Shader module that declares a
// subgroup built-in gets GroupNonUniform (and SPIR-V 1.3 at least); other
// modules are left as they are.
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(spirv.module(plaidml-spirv-builtin-capabilities))' \
// RUN:   | FileCheck %s

// CHECK-LABEL: spirv.module @subgroup
// CHECK-SAME:  requires #spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>
spirv.module @subgroup Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @id built_in("SubgroupId") : !spirv.ptr<i32, Input>
}

// -----

// CHECK-LABEL: spirv.module @lane
// CHECK-SAME:  requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, GroupNonUniform], []>
spirv.module @lane Logical GLSL450 requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR], []> {
  spirv.GlobalVariable @lane built_in("SubgroupLocalInvocationId") : !spirv.ptr<i32, Input>
}

// -----

// CHECK-LABEL: spirv.module @local
// CHECK-SAME:  requires #spirv.vce<v1.0, [Shader], []>
spirv.module @local Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @id built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
}

// -----

// Already declared: unchanged.
// CHECK-LABEL: spirv.module @declared
// CHECK-SAME:  requires #spirv.vce<v1.3, [Shader, GroupNonUniform], []>
spirv.module @declared Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform], []> {
  spirv.GlobalVariable @id built_in("SubgroupId") : !spirv.ptr<i32, Input>
}
