//===- GpuTarget.h - What the compiler needs for a GPU artifact -*- C++ -*-===//
//
// Private to lib/Compiler: the rewrite of a GPU artifact's host code, in
// LLVM IR, into the launch ABI of include/plaidml/Runtime/GpuAbi.h.
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

/// Rewrites the host code of a GPU artifact (GpuAbi.h): every `mgpu*`
/// declaration becomes a stub calling through the `_plaidml_gpu_abi`
/// table with the table's context first, the module exports
/// `_plaidml_gpu_abi_version`, and llvm.global_ctors/dtors become
/// `_plaidml_gpu_load` and
/// `_plaidml_gpu_unload`. Fails naming any mgpu* function outside the ABI.
llvm::Error bindGpuLaunchAbi(llvm::Module &module);

} // namespace mlir::plaidml

#endif // PLAIDML_LIB_COMPILER_GPUTARGET_H
