//===- Passes.td - OpenCL target passes --------------------*- tablegen -*-===//
//
// The passes of the OpenCL pipeline that upstream MLIR lacks: turning each
// outlined kernel module into OpenCL C 1.2 text held by a gpu.binary, where
// gpu-module-to-binary would put SPIR-V. docs/OpenCLPipeline.md shows where
// they run.
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
    ask for). Without `fp16`, f16 is emulated: `half` buffers through
    `vload_half`/`vstore_half_rte`, values in `float`s rounded to f16 after
    every op (docs/OpenCLPipeline.md). An op without a translation, or a
    type the device lacks (f64 without `fp64`, bf16 on any device), is an
    error at the op, which names it:

    ```
    error: 'math.cttz' has no OpenCL C translation yet
    error: 'arith.addf' computes on f64, which needs the OpenCL extension
    cl_khr_fp64 (option fp64); opencl:0 (...) does not have it
    ```

    `plaidml-translate --mlir-to-opencl-c` prints the text of these objects
    (and of any `gpu.module` left) for reading and tests.
  }];
  let options = [
    Option<"fp16", "fp16", "bool", "false",
           "The device has half precision arithmetic (cl_khr_fp16); "
           "without it f16 is emulated in float">,
    Option<"fp64", "fp64", "bool", "false",
           "The device has double precision (cl_khr_fp64)">,
    Option<"device", "device", "std::string", "\"the target device\"",
           "The device in messages (e.g. 'opencl:0 (pthread-...)')">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::spirv::SPIRVDialect"];
}

#endif // PLAIDML_TARGET_OPENCL_PASSES_TD
