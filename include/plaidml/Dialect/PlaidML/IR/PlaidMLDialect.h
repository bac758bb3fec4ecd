//===- PlaidMLDialect.h - The plaidml attribute dialect ---------*- C++ -*-===//
//
// Declares the `plaidml` dialect, its attributes (TargetAttr,
// CpuScheduleAttr) and the name of every `plaidml.*` attribute, so no other
// file spells one. PlaidMLAttrs.td describes where each attribute sits and
// who sets and reads it; the dialect's verifyOperationAttribute checks them.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_PLAIDML_IR_PLAIDMLDIALECT_H
#define PLAIDML_DIALECT_PLAIDML_IR_PLAIDMLDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h.inc"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "plaidml/Dialect/PlaidML/IR/PlaidMLAttrs.h.inc"

namespace mlir::plaidml {

/// On a function: an entry point of the artifact (unit).
inline constexpr llvm::StringLiteral kEntryAttrName = "plaidml.entry";

/// The target extension (plaidml-compile and plaidml-run --emulate-nv-ptx)
/// under which the OpenCL C of the cooperative-matrix kernels prints their
/// PTX as portable code of the same meaning (OpenCLCOptions::emulateNvPtx,
/// docs/GpuKernels.md), and the configuration keeps their tiles small.
inline constexpr llvm::StringLiteral kEmulateNvPtxFeature = "emulate-nv-ptx";
/// On an entry function: the tensor types of its inputs and outputs, which
/// keep the signedness the signless memrefs lost.
inline constexpr llvm::StringLiteral kInputsAttrName = "plaidml.inputs";
inline constexpr llvm::StringLiteral kOutputsAttrName = "plaidml.outputs";
/// On a CPU entry function: the bytes of the workspace its temporaries live
/// in (plaidml-cpu-plan-workspace), a positive i64 that
/// plaidml-emit-entry-points writes into the manifest (docs/ABI.md sections
/// 2 and 3).
inline constexpr llvm::StringLiteral kWorkspaceAttrName = "plaidml.workspace";
/// On an argument of a function (unit): the input is a parameter, the same
/// values on every call (a model's weights), so that a target may compute
/// what it derives from it once (docs/ABI.md section 2, "Prepared data").
inline constexpr llvm::StringLiteral kParamAttrName = "plaidml.param";
/// On a top-level memref.alloc of a CPU entry function (unit): a buffer
/// computed from parameters only, by the ops marked kCpuPrepareAttrName
/// (plaidml-cpu-tile-contractions); plaidml-cpu-split-prepare moves them.
inline constexpr llvm::StringLiteral kCpuPreparedAttrName =
    "plaidml.cpu.prepared";
inline constexpr llvm::StringLiteral kCpuPrepareAttrName =
    "plaidml.cpu.prepare";
/// On a CPU entry function after plaidml-cpu-split-prepare: its
/// preparation function (a FlatSymbolRefAttr), the bytes of the prepared
/// buffer it fills (a positive i64), and the inputs it reads (an
/// array<i64> of input positions), which plaidml-emit-entry-points writes
/// into the manifest.
inline constexpr llvm::StringLiteral kPrepareFuncAttrName = "plaidml.prepare";
inline constexpr llvm::StringLiteral kPreparedBytesAttrName =
    "plaidml.prepared";
inline constexpr llvm::StringLiteral kPrepareInputsAttrName =
    "plaidml.prepare_inputs";
/// On the module: its TargetAttr.
inline constexpr llvm::StringLiteral kTargetAttrName = "plaidml.target";
/// On a reduction nest's affine.parallel: its CpuScheduleAttr.
inline constexpr llvm::StringLiteral kCpuScheduleAttrName =
    "plaidml.cpu.schedule";
/// On an outermost affine.parallel: the workgroup tile, one size per loop
/// dimension.
inline constexpr llvm::StringLiteral kGpuWorkgroupSizeAttrName =
    "plaidml.gpu.workgroup_size";
/// On an outermost affine.parallel holding a reduction: the register tile,
/// how many outputs one invocation computes along each loop dimension
/// (plaidml-gpu-configure chooses it, plaidml-gpu-register-tile applies it).
inline constexpr llvm::StringLiteral kGpuRegisterTileAttrName =
    "plaidml.gpu.register_tile";
/// On an outermost affine.parallel that is a batch of matrix products: the
/// workgroup-memory schedule (TM, TN, TK, RM, RN), which
/// plaidml-gpu-configure chooses and plaidml-gpu-stage-contraction applies.
inline constexpr llvm::StringLiteral kGpuStagedTileAttrName =
    "plaidml.gpu.staged_tile";
/// On an outermost affine.parallel that is a matrix-vector product: the
/// split-K schedule (TN outputs per workgroup, S invocations per output),
/// which plaidml-gpu-configure chooses and plaidml-gpu-stage-contraction
/// applies.
inline constexpr llvm::StringLiteral kGpuSplitKAttrName = "plaidml.gpu.split_k";
/// On an outermost affine.parallel that is a batch of matrix products of
/// f16 factors with f32 accumulation: the cooperative-matrix schedule (TM,
/// TN, TK of the workgroup tile, SM, SN of each subgroup's tile, STAGES: 1,
/// or 2 for asynchronous copies into two buffers), which
/// plaidml-gpu-configure chooses and plaidml-gpu-stage-contraction applies.
inline constexpr llvm::StringLiteral kGpuCoopTileAttrName =
    "plaidml.gpu.coop_tile";
/// On the module, and as a property of an OpenCL kernel object: what the
/// kernels need of the device (SPIR-V capabilities and extensions for
/// Vulkan; OpenCL extensions, and `spirv` for SPIR-V-only kernels, for
/// OpenCL), sorted and unique. The manifest's `requires` line.
inline constexpr llvm::StringLiteral kRequirementsAttrName =
    "plaidml.requirements";
/// Properties of an OpenCL kernel object (`#gpu.object`): its format
/// ("opencl-c" or "bundle"), a bundle's formats, and why a bundle lacks
/// one.
inline constexpr llvm::StringLiteral kKernelFormatAttrName =
    "plaidml.kernel_format";
inline constexpr llvm::StringLiteral kKernelFormatsAttrName =
    "plaidml.kernel_formats";
inline constexpr llvm::StringLiteral kKernelNoteAttrName = "plaidml.note";

/// The `plaidml.target` of `module`, or null.
TargetAttr getTarget(ModuleOp module);
/// The `plaidml.target` of the module enclosing `op` (or `op` itself), or
/// the default: a CPU target for the host.
TargetAttr getTargetOrDefault(Operation *op);

/// The CPU name the pipelines use when none is given: "native" for a CPU
/// artifact; for the host code of a GPU artifact a portable baseline of the
/// triple's architecture ("x86-64" on x86-64, "generic" elsewhere), so the
/// artifact runs on any machine of that architecture.
llvm::StringRef getDefaultCpu(DeviceKind device, llvm::StringRef triple);

} // namespace mlir::plaidml

#endif // PLAIDML_DIALECT_PLAIDML_IR_PLAIDMLDIALECT_H
