//===- GpuTarget.h - What the compiler needs for a GPU artifact -*- C++ -*-===//
//
// Private to lib/Compiler: the Vulkan target of a `vulkan:N` device (its
// SPIR-V capabilities, asked of the runtime's device layer), the device
// requirements read back from the serialized kernels for the manifest, and
// the rewrite of the host code's LLVM IR into the launch ABI of
// include/plaidml/Runtime/GpuAbi.h.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_COMPILER_GPUTARGET_H
#define PLAIDML_LIB_COMPILER_GPUTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::plaidml {

/// The SPIR-V environment kernels for one Vulkan device are compiled for.
struct VulkanTarget {
  /// "vulkan:0 (llvmpipe ...)": names the device in compile errors.
  std::string description;
  std::vector<std::string> caps;
  std::vector<std::string> exts;
};

/// The target of `vulkan:index`: the device's own capabilities when this
/// machine has it, else (compiling for another machine) every capability
/// the runtime knows how to check, so that the artifact's manifest records
/// what its kernels use and the runtime there decides.
VulkanTarget resolveVulkanTarget(unsigned index);

/// The SPIR-V capabilities and extensions declared by the kernels that
/// gpu-module-to-binary serialized into `module`'s gpu.binary ops, sorted
/// and unique.
llvm::Expected<std::vector<std::string>>
collectSpirvRequirements(ModuleOp module);

/// Rewrites the host code of a GPU artifact (GpuAbi.h): every `mgpu*`
/// declaration becomes a stub calling through the `_plaidml_gpu_abi`
/// table, and llvm.global_ctors/dtors become `_plaidml_gpu_load` and
/// `_plaidml_gpu_unload`. Fails naming any mgpu* function outside the ABI.
llvm::Error bindGpuLaunchAbi(llvm::Module &module);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_COMPILER_GPUTARGET_H
