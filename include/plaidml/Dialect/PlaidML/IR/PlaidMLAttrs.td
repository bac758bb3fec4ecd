//===- PlaidMLAttrs.td - The plaidml attribute dialect -----*- tablegen -*-===//
//
// The `plaidml` dialect owns every `plaidml.*` attribute the compiler puts on
// operations: the ABI attributes of entry functions (docs/ABI.md section 1),
// the target of a module, the CPU schedule of a reduction nest and the GPU
// workgroup tile of a loop nest. It has no operations. Each attribute is
// checked by the dialect's verifyOperationAttribute, so a malformed one is a
// verifier error wherever it appears, not a surprise in a later pass.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_PLAIDML_IR_PLAIDMLATTRS_TD
#define PLAIDML_DIALECT_PLAIDML_IR_PLAIDMLATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def PlaidML_Dialect : Dialect {
  let name = "plaidml";
  let cppNamespace = "::mlir::plaidml";
  let summary = "The attributes PlaidML's passes agree on";
  let description = [{
    The contracts between PlaidML's passes are attributes, and this dialect
    owns all of them; no other code spells a `plaidml.*` name. The dialect has
    no operations. Its attributes, and where they sit:

    | Attribute | On | Value | Set by | Read by |
    |---|---|---|---|---|
    | `plaidml.target` | `builtin.module` | `#plaidml.target<...>` | `plaidml-attach-target` (the pipelines, from the tools' `--device`) | the configure passes, the GPU passes, `plaidml-emit-entry-points` |
    | `plaidml.entry` | a function | unit | `convert-tile-to-affine` | `plaidml-emit-entry-points`, `plaidml-fuse-elementwise` |
    | `plaidml.inputs`, `plaidml.outputs` | a `plaidml.entry` function | array of static tensor types | `convert-tile-to-affine` | `plaidml-emit-entry-points` (the manifest), plaidml-run |
    | `plaidml.requirements` | `builtin.module` | array of names, sorted | `plaidml-gpu-collect-requirements` | `plaidml-emit-entry-points` (the manifest's `requires`) |
    | `plaidml.cpu.schedule` | `affine.parallel` | `#plaidml.cpu_schedule<...>` | `plaidml-cpu-configure` | `plaidml-cpu-tile-contractions` |
    | `plaidml.gpu.workgroup_size` | `affine.parallel` | `array<i64: ...>`, one positive size per dimension | `plaidml-gpu-configure` (for the ranges left after the register tile) | `plaidml-gpu-tile-workgroups` |
    | `plaidml.gpu.register_tile` | `affine.parallel` | `array<i64: ...>`, one positive factor per dimension | `plaidml-gpu-configure` | `plaidml-gpu-register-tile` |
    | `plaidml.gpu.staged_tile` | `affine.parallel` | `array<i64: TM, TN, TK, RM, RN>`, positive | `plaidml-gpu-configure` (matrix-product nests) | `plaidml-gpu-stage-contraction` |
    | `plaidml.gpu.coop_tile` | `affine.parallel` | `array<i64: TM, TN, TK, SM, SN, STAGES>`, positive | `plaidml-gpu-configure` (f16 matrix-product nests on devices with cooperative matrices) | `plaidml-gpu-stage-contraction` |
    | `plaidml.gpu.split_k` | `affine.parallel` | `array<i64: TN, S>`, positive | `plaidml-gpu-configure` (matrix-vector nests) | `plaidml-gpu-stage-contraction` |

    The properties `plaidml.kernel_format`, `plaidml.kernel_formats`,
    `plaidml.note` and `plaidml.requirements` of a `#gpu.object` (the OpenCL kernel objects of
    docs/OpenCLPipeline.md) are named here too. Any other `plaidml.*`
    attribute on an operation is an error.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class PlaidML_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<PlaidML_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def PlaidML_DeviceKind : I32EnumAttr<"DeviceKind", "the kind of a device", [
  I32EnumAttrCase<"cpu", 0>,
  I32EnumAttrCase<"vulkan", 1>,
  I32EnumAttrCase<"opencl", 2>,
]> {
  let cppNamespace = "::mlir::plaidml";
  let genSpecializedAttr = 0;
}

def PlaidML_TargetAttr : PlaidML_Attr<"Target", "target"> {
  let summary = "What a module is compiled for";
  let description = [{
    The one description of the target, on the module as `plaidml.target`;
    every pass that depends on the target reads it from there instead of
    taking options of its own. `plaidml-attach-target` sets it (the
    pipelines add that pass first, from their options); the tools resolve a
    device such as `vulkan:0` into these fields, the library never looks at
    the machine's devices.

    ```mlir
    module attributes {plaidml.target = #plaidml.target<device = vulkan,
        cpu = "x86-64", caps = ["Float64", "Int64"],
        exts = ["SPV_KHR_8bit_storage"], max_workgroup_size = 256,
        label = "vulkan:0 (llvmpipe)">} { ... }
    ```

    - `device`: `cpu`, `vulkan` or `opencl`, the kind recorded in the
      manifest.
    - `triple`, `cpu`, `features`: the CPU code (all of a CPU artifact, the
      host code of a GPU one), as CpuTarget.h resolves them: an empty triple
      is the host's, `cpu = "native"` the host CPU, empty features the CPU's
      own (the host's for `native`). The pipelines default `cpu` to `native`
      for a CPU artifact and to the portable `x86-64` baseline for the host
      code of a GPU artifact (`generic` on other architectures), so a GPU
      artifact moves between machines.
    - `caps`, `exts`: what the kernels may use. Vulkan: SPIR-V capabilities
      and extensions beyond `Shader` and
      `SPV_KHR_storage_buffer_storage_class`, and in `caps` the device
      properties that are not SPIR-V names (they contain a `-`):
      `coopmat-16x16x16-f16-f32` (a subgroup-scope cooperative matrix
      shape, f16 inputs, f32 accumulator), `subgroup-size-32`. OpenCL: device extensions
      (`cl_khr_fp64`, `cl_khr_fp16`). Empty for a CPU.
    - `max_workgroup_size`: most invocations per workgroup, 1-1024
      (`plaidml-gpu-configure`).
    - `label`: how diagnostics name the device, e.g. `vulkan:0 (llvmpipe)`.
  }];
  let parameters = (ins
    EnumParameter<PlaidML_DeviceKind>:$device,
    StringRefParameter<"target triple", "\"\"">:$triple,
    StringRefParameter<"LLVM CPU name", "\"native\"">:$cpu,
    StringRefParameter<"subtarget features", "\"\"">:$features,
    OptionalParameter<"ArrayAttr">:$caps,
    OptionalParameter<"ArrayAttr">:$exts,
    DefaultValuedParameter<"int64_t", "256">:$max_workgroup_size,
    StringRefParameter<"the device in diagnostics", "\"\"">:$label
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `name` is among `caps` or `exts`.
    bool hasCapability(llvm::StringRef name) const;
    bool hasExtension(llvm::StringRef name) const;
    /// `label`, or "the target device" when it is empty.
    std::string getDeviceLabel() const;
    /// Whether the device runs kernels (vulkan, opencl).
    bool isGpu() const { return getDevice() != DeviceKind::cpu; }
  }];
}

def PlaidML_CpuScheduleAttr : PlaidML_Attr<"CpuSchedule", "cpu_schedule"> {
  let summary = "How plaidml-cpu-tile-contractions generates a reduction nest";
  let description = [{
    Set by `plaidml-cpu-configure` on a reduction nest's `affine.parallel`
    as `plaidml.cpu.schedule`:

    ```mlir
    {plaidml.cpu.schedule = #plaidml.cpu_schedule<lanes = 16, rows = 14,
        vectors = 2, panels_per_block = 4, pack = true, unroll_inner = false>}
    ```

    `lanes` elements per vector register, a register block of `rows` x
    `vectors` vectors, `panels_per_block` column panels per cache block,
    `pack`: packable operands copied into a contiguous buffer per block,
    `unroll_inner`: the innermost reduction loop unrolled into the block,
    `reduction_chunk` (optional, 0 when absent): the innermost reduction
    loop runs in chunks of that many iterations, each chunk over every row
    block of a column panel before the next, the partial sums kept in a
    scratch buffer (0: the whole reduction in registers at once). Every
    count is at least 1; `reduction_chunk` at least 0.
  }];
  let parameters = (ins "int64_t":$lanes, "int64_t":$rows,
                        "int64_t":$vectors, "int64_t":$panels_per_block,
                        "bool":$pack, "bool":$unroll_inner,
                        DefaultValuedParameter<"int64_t", "0">:$reduction_chunk);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // PLAIDML_DIALECT_PLAIDML_IR_PLAIDMLATTRS_TD
