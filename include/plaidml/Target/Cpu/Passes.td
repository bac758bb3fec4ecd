//===- Passes.td - CPU target passes -----------------------*- tablegen -*-===//
//
// The passes that turn lowered PlaidML functions into a CPU artifact: today
// the entry-point wrappers and the manifest of docs/ABI.md sections 2 and 3.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_CPU_PASSES_TD
#define PLAIDML_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmitCpuEntryPointsPass
    : Pass<"plaidml-emit-cpu-entry-points", "mlir::ModuleOp"> {
  let summary = "Emit the entry-point wrappers and the manifest of a CPU "
                "artifact";
  let description = [{
    Runs on the LLVM dialect, after `convert-func-to-llvm` with the
    bare-pointer calling convention (`use-bare-ptr-memref-call-conv=1`). For
    every `llvm.func @f` that carries `plaidml.entry` (set by
    `convert-tile-to-affine`, see docs/ABI.md section 1), it emits

    ```mlir
    llvm.func @_plaidml_entry_f(%buffers: !llvm.ptr) {
      // load buffers[0], buffers[1], ... and call @f with them
    }
    ```

    with default visibility, gives `@f` internal linkage (the runtime calls
    only the wrappers, and LLVM may inline `@f` into its wrapper), and drops
    the `plaidml.*` attributes, whose content moves into the manifest: one
    exported, null-terminated global `@plaidml_manifest` that records the
    compiler version, the device, the target triple, the CPU and its ISA
    features (the names `llvm::sys::getHostCPUFeatures` uses, so the runtime
    can compare them with the machine's), and, for each entry point, its
    inputs and outputs with their original tensor types (docs/ABI.md
    section 3):

    ```
    plaidml-artifact 1
    compiler 0.1.0
    device cpu
    triple x86_64-pc-linux-gnu
    cpu skylake-avx512
    features +avx,+avx2,...
    entry f _plaidml_entry_f
    input arg0 2x3xsi32
    output result0 2x3xf32
    end
    ```

    Signless integer tensors are recorded as signed (`i32` as `si32`), as
    the Tile dialect treats them. The pass also sets `llvm.target_triple` on
    the module, so a later `--mlir-to-llvmir` produces IR for that target.

    `cpu=native` means the host CPU and, when `features` is empty, its
    features; a named CPU with empty `features` records the features the CPU
    implies. For a GPU artifact (`device=vulkan`), the host code is CPU code
    like any other and `requires` lists what the kernels need of the device
    (`requires Shader,Float64,SPV_KHR_8bit_storage`), which the runtime
    checks before it loads the artifact. An entry function that is not in bare-pointer form, or whose
    `plaidml.inputs`/`plaidml.outputs` do not match its arguments, is an
    error naming the function.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"triple", "triple", "std::string", /*default=*/"\"\"",
           "Target triple (empty: the host's)">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"native\"",
           "LLVM CPU name, or 'native' for the host CPU">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Subtarget features, '+a,-b' (empty: the host's for 'native', "
           "the CPU's own otherwise)">,
    Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
           "Device kind recorded in the manifest: 'cpu', or 'vulkan' for "
           "host code that launches GPU kernels">,
    ListOption<"requirements", "requires", "std::string",
               "What the device must offer (SPIR-V capabilities and "
               "extensions of the kernels), recorded as the manifest's "
               "'requires' line">,
  ];
}

#endif // PLAIDML_TARGET_CPU_PASSES_TD
