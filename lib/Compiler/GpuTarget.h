//===- GpuTarget.h - What the compiler needs for a GPU artifact -*- C++ -*-===//
//
// Private to lib/Compiler: the device requirements read back from the
// kernels for the manifest, and the rewrite of the host code's LLVM IR into the launch ABI of
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
/// table, and llvm.global_ctors/dtors become `_plaidml_gpu_load` and
/// `_plaidml_gpu_unload`. Fails naming any mgpu* function outside the ABI.
llvm::Error bindGpuLaunchAbi(llvm::Module &module);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_COMPILER_GPUTARGET_H
