//===- Passes.td - OpenCL target passes --------------------*- tablegen -*-===//
//
// The passes of the OpenCL pipeline that upstream MLIR lacks: turning each
// outlined kernel module into OpenCL C 1.2 text held by a gpu.binary, where
// gpu-module-to-binary would put SPIR-V, or into a kernel bundle holding
// both. docs/OpenCLPipeline.md shows where they run.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_OPENCL_PASSES_TD
#define PLAIDML_TARGET_OPENCL_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuModuleToOpenCLCPass
    : Pass<"plaidml-gpu-module-to-opencl-c", "mlir::ModuleOp"> {
  let summary = "Replace each gpu.module by a gpu.binary of OpenCL C text";
  let description = [{
    Translates the kernels of every `gpu.module` (outlined by
    `gpu-kernel-outlining`: `gpu.func`s taking only memrefs, with `scf`,
    `arith`, `math`, `memref.load`/`store` and `gpu` index ops inside) into
    one OpenCL C 1.2 program, and replaces the module by

    ```mlir
    gpu.binary @K [#gpu.object<#spirv.target_env<..., api=OpenCL, ...>,
                               properties = {plaidml.kernel_format = "opencl-c"},
                               "// OpenCL C 1.2 ... __kernel void k(...) {...}\00">]
    ```

    so that `gpu.launch_func` and the host lowering stay as for SPIR-V
    (`mgpuModuleLoad` receives the null-terminated text and its size). The
    object's target is the module's first target, else an OpenCL
    `#spirv.target_env` with the capabilities `fp16`/`fp64` allow.

    Each kernel is `__kernel void name(__global T *arg0, ...)` with its
    buffers in argument order (flat, row-major: `memref.load %a[%i, %j]`
    reads `arg0[i * N + j]`), `reqd_work_group_size` from the launch's
    block sizes (`known_block_size`), `i1` stored as bytes, signless
    integers held as unsigned C types with each op's signedness spelled out
    (`arith.divsi` divides `int`s, `arith.divui` `uint`s), integer division
    guarded against zero and overflow, `arith.maximumf`/`minimumf`
    propagating NaN, math ops as OpenCL builtins, and
    `#pragma OPENCL FP_CONTRACT OFF` (no fused multiply-adds the IR did not
    ask for). What the device has comes from the module's `plaidml.target`:
    `cl_khr_fp16` and `cl_khr_fp64` among its `exts` (the pipeline options
    `fp16` and `fp64`), its `label` in messages. Without `cl_khr_fp16`, f16
    is emulated: `half` buffers through
    `vload_half`/`vstore_half_rte`, values in `float`s rounded to f16 after
    every op (docs/OpenCLPipeline.md). An op without a translation, or a
    type the device lacks (f64 without `cl_khr_fp64`, bf16 on any device), is an
    error at the op, which names it:

    ```
    error: 'math.cttz' has no OpenCL C translation yet
    error: 'arith.addf' computes on f64, which needs the OpenCL extension
    cl_khr_fp64 (option fp64); opencl:0 (...) does not have it
    ```

    `plaidml-translate --mlir-to-opencl-c` prints the text of these objects
    (and of any `gpu.module` left) for reading and tests.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::spirv::SPIRVDialect",
                           "mlir::plaidml::PlaidMLDialect"];
}

def GpuModuleToOpenCLBundlePass
    : Pass<"plaidml-gpu-module-to-opencl-bundle", "mlir::ModuleOp"> {
  let summary = "Replace each gpu.module by a gpu.binary of SPIR-V and "
                "OpenCL C";
  let description = [{
    Gives every kernel module both OpenCL kernel formats, so that the
    runtime can build SPIR-V on devices that take it and OpenCL C on the
    others (docs/OpenCLRuntime.md). Each `gpu.module` becomes

    ```mlir
    gpu.binary @K [#gpu.object<#spirv.target_env<..., api=OpenCL, ...>,
        properties = {plaidml.kernel_format = "bundle",
                      plaidml.kernel_formats = ["spirv", "opencl-c"]},
        "\7FPKB\01\00\00\00...">]
    ```

    whose bytes are a kernel bundle (docs/ABI.md section 6): the SPIR-V of
    the module, made by the OpenCL SPIR-V conversion
    (`buildOpenCLSPIRVConversion`: `plaidml-gpu-check-device-support`,
    `convert-gpu-to-spirv`, ..., `gpu-module-to-binary`) on a copy of the
    module, the OpenCL C of `plaidml-gpu-module-to-opencl-c`, and the
    module's name. The module needs what both want: views folded into the
    accesses (`fold-memref-alias-ops`) and `spirv.entry_point_abi` on its
    kernels (`plaidml-gpu-set-entry-point-abi`); its target is its first
    `#spirv.target_env` (`spirv-attach-target`), else the OpenCL target that
    `fp16`/`fp64` allow.

    One format is enough. A module SPIR-V cannot express (f16 without
    `fp16`, which OpenCL C emulates and SPIR-V has no way to) keeps its
    OpenCL C alone, and the first error of the SPIR-V conversion, where it
    is and how many more there were, becomes the bundle's note and the
    object's `plaidml.note` property:

    ```mlir
    properties = {plaidml.kernel_format = "bundle",
                  plaidml.kernel_formats = ["opencl-c"],
                  plaidml.note = "no SPIR-V: 'memref.load' reads f16 from a
                    buffer, which needs the SPIR-V capability Float16;
                    opencl:0 (...) does not have it (at f.mlir:7:8)"}
    ```

    The reverse holds for OpenCL C (`arith.mului_extended` has no
    translation, SPIR-V has `OpUMulExtended`: `no OpenCL C: ...`). Only
    when neither format can be made are the OpenCL C errors reported, as
    `plaidml-gpu-module-to-opencl-c` reports them, and the pass fails.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::spirv::SPIRVDialect",
                           "mlir::plaidml::PlaidMLDialect"];
}

#endif // PLAIDML_TARGET_OPENCL_PASSES_TD
