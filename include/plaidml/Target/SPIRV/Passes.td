//===- Passes.td - SPIR-V kernel passes --------------------*- tablegen -*-===//
//
// The passes that take outlined GPU kernels to SPIR-V, for Vulkan and for
// OpenCL alike: the glue around upstream's convert-gpu-to-spirv (the target
// environment where the conversions look for it, entry point ABIs from the
// launches, spirv.modules nested back into their gpu.modules), the math
// SPIR-V has no instruction for, and the check that a kernel's types run on
// the target before the conversion fails on them.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_SPIRV_PASSES_TD
#define PLAIDML_TARGET_SPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuApproximateMathPass : Pass<"plaidml-gpu-approximate-math"> {
  let summary = "Replace math ops without a SPIR-V instruction by "
                "polynomials";
  let description = [{
    GLSL.std.450 has no `erf`/`erfc`, and `convert-math-to-spirv` leaves
    them; this rewrites `math.erf` and `math.erfc` as the polynomial
    approximations of upstream's math transforms (the patterns of
    `populatePolynomialApproximateErf(c)Pattern`), whose exp, fma and
    division ops convert to SPIR-V. Runs inside the `gpu.module`s.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def GpuExposeTargetEnvPass
    : Pass<"plaidml-gpu-expose-target-env", "mlir::gpu::GPUModuleOp"> {
  let summary = "Copy a gpu.module's SPIR-V target into spirv.target_env";
  let description = [{
    `spirv-attach-target` records the target environment in the
    `gpu.module`'s `targets`, where `convert-gpu-to-spirv` looks, but the
    per-dialect conversions run inside kernels (`convert-math-to-spirv`,
    ...) look up a `spirv.target_env` attribute and otherwise assume a bare
    Shader target, so f16 math failed to convert even with Float16. This
    sets the attribute from the module's first `#spirv.target_env` target.
  }];
}

def GpuCheckDeviceSupportPass
    : Pass<"plaidml-gpu-check-device-support", "mlir::gpu::GPUModuleOp"> {
  let summary = "Reject kernel ops whose types the SPIR-V target cannot run";
  let description = [{
    Runs on each `gpu.module` before the SPIR-V conversions, with the target
    that `convert-gpu-to-spirv` uses (the module's `#spirv.target_env`
    target from `spirv-attach-target`, else a `spirv.target_env` attribute).
    For every op inside the kernels it asks MLIR's SPIR-V type converter
    what becomes of the op's types and of the buffers it reads or writes,
    and reports at the op, whose location is still the user's Tile op, what
    the device lacks:

    ```
    'arith.addf' computes on f64, which needs the SPIR-V capability Float64;
    vulkan:0 (llvmpipe) does not have it
    'memref.load' reads f16 from a buffer, which needs the SPIR-V capability
    StorageBuffer16BitAccess (extension SPV_KHR_16bit_storage); ...
    ```

    Without the pass these are "failed to legalize operation 'gpu.func'"
    in `convert-gpu-to-spirv`, or, for f16 and bf16 buffers, kernels that
    convert but read the buffer as f32 elements. What is rejected:

    - i64 and f64 anywhere without `Int64`/`Float64`: the converter does
      not narrow them.
    - f16 in a buffer without `StorageBuffer16BitAccess` (and, below
      SPIR-V 1.3, `SPV_KHR_16bit_storage`): it would become f32 words.
    - a buffer of i8/i16/f16 (i1 is stored as i8) that the device holds
      natively while lacking `Int8`/`Int16`/`Float16`: the load or store
      of the narrow value does not convert.
    - on i8/i16/f16 values the device lacks, the ops that 32-bit emulation
      cannot do: math ops (`convert-math-to-spirv` leaves casts behind) and
      unsigned division, remainder and comparison.
    - f64 math without a 64-bit SPIR-V form on any device: GLSL.std.450
      has exp, log, sin, pow, ... for 16- and 32-bit floats only, and erf
      is approximated for f16 and f32 only.
    - bf16 (and the f8 types) anywhere: the SPIR-V conversion has no type
      for them.

    Everything else the converter emulates is accepted, as before: i8/i16
    buffers packed into i32 words, signed and float arithmetic on
    i8/i16/f16 in 32 bits. Within a kernel there is one error per missing
    requirement and source location (and per op name), loads, stores and
    arithmetic before constants; then the pass fails. Messages name the
    device by the `label` of the module's `plaidml.target`.
  }];
}

def GpuSetEntryPointAbiPass
    : Pass<"plaidml-gpu-set-entry-point-abi", "mlir::ModuleOp"> {
  let summary = "Set spirv.entry_point_abi on kernels from their launches";
  let description = [{
    For every `gpu.launch_func` with constant block sizes, sets
    `spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [x, y, z]>`
    on the launched `gpu.func`, which `convert-gpu-to-spirv` turns into the
    entry point's LocalSize. A kernel launched with non-constant or
    conflicting block sizes is an error.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect"];
}

def NestSpirvModulesPass
    : Pass<"plaidml-nest-spirv-modules", "mlir::ModuleOp"> {
  let summary = "Move each spirv.module into the gpu.module it came from";
  let description = [{
    `convert-gpu-to-spirv` puts `spirv.module @__spv__K` beside
    `gpu.module @K`; `gpu-module-to-binary` expects it inside. This pass
    moves it there. The `gpu.func`s stay until `gpu-module-to-binary`
    replaces the whole `gpu.module`, so `gpu.launch_func` still verifies:

    ```mlir
    gpu.module @K [#spirv.target_env<...>] {
      spirv.module @__spv__K Logical GLSL450 { ... }
      gpu.func @k(...) kernel { ... }
    }
    ```
  }];
}

def SpirvBuiltinCapabilitiesPass
    : Pass<"plaidml-spirv-builtin-capabilities", "mlir::spirv::ModuleOp"> {
  let summary = "Declare the capability subgroup built-ins need";
  let description = [{
    Runs after `spirv-update-vce`, which deduces capabilities from ops and
    types but not from built-in variables: a Shader module that declares
    the `SubgroupId`, `SubgroupLocalInvocationId`, `NumSubgroups` or
    `SubgroupSize` built-in (from `gpu.subgroup_id`, `gpu.lane_id`, ...)
    gets `GroupNonUniform` in its `vce_triple` (and version 1.3 at least,
    where it is core), as SPIR-V requires:

    ```mlir
    spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, GroupNonUniform, ...], [...]> {
      spirv.GlobalVariable @__builtin__SubgroupId__ built_in("SubgroupId") : !spirv.ptr<i32, Input>
      ...
    }
    ```
  }];
}

#endif // PLAIDML_TARGET_SPIRV_PASSES_TD
