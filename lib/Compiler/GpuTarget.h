//===- GpuTarget.h - What the compiler needs for a GPU artifact -*- C++ -*-===//
//
// Private to lib/Compiler: the Vulkan and OpenCL targets of `vulkan:N` and
// `opencl:N` devices (what they offer, asked of the runtime's device
// layers), the device requirements read back from the kernels for the
// manifest, and
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

/// What kernels for one OpenCL device are compiled for.
struct OpenCLTarget {
  /// "opencl:0 (pthread-...)": names the device in compile errors.
  std::string description;
  bool fp64 = false, fp16 = false;
};

/// The target of `opencl:index`: the device's own extensions when this
/// machine has it, else every one the runtime checks (the manifest records
/// what the kernels use, and the runtime there decides).
OpenCLTarget resolveOpenCLTarget(unsigned index);

/// What the OpenCL kernels in `module`'s gpu.binary ops need of a device,
/// sorted and unique: the extensions (`cl_khr_fp64`, `cl_khr_fp16`) the
/// OpenCL C text enables, and for a kernel module that exists only as
/// SPIR-V, `spirv` and the extensions its capabilities need (Float64,
/// Float16). A bundle with both formats needs what its OpenCL C needs: the
/// two come from the same kernels. Fails on an object that is not a kernel
/// module (docs/ABI.md section 6).
llvm::Expected<std::vector<std::string>>
collectOpenCLRequirements(ModuleOp module);

/// The SPIR-V capabilities and extensions declared by the kernels that
/// gpu-module-to-binary serialized into `module`'s gpu.binary ops, sorted
/// and unique.
llvm::Expected<std::vector<std::string>>
collectSpirvRequirements(ModuleOp module);

/// Rewrites the host code of a GPU artifact (GpuAbi.h): every `mgpu*`
/// declaration becomes a stub calling through the `_plaidml_gpu_abi`
/// table with the table's context first, the module exports
/// `_plaidml_gpu_abi_version`, and llvm.global_ctors/dtors become
/// `_plaidml_gpu_load` and
/// `_plaidml_gpu_unload`. Fails naming any mgpu* function outside the ABI.
llvm::Error bindGpuLaunchAbi(llvm::Module &module);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_COMPILER_GPUTARGET_H
