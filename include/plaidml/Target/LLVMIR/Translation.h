//===- Translation.h - PlaidML host modules to LLVM IR ----------*- C++ -*-===//
//
// The last step of every pipeline that ends in the LLVM dialect (CPU code,
// and the host code of a GPU artifact): translation to LLVM IR. For a module
// whose `plaidml.target` is a GPU, the translation also binds the host code
// to the launch ABI of include/plaidml/Runtime/GpuAbi.h, so that
// `plaidml-translate --mlir-to-llvmir` and plaidml-compile give the same
// LLVM IR from the same pipeline output.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TARGET_LLVMIR_TRANSLATION_H
#define PLAIDML_TARGET_LLVMIR_TRANSLATION_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir::plaidml {

/// Registers the LLVM IR translations of every dialect a PlaidML host module
/// may hold after its pipeline (builtin, llvm, omp, gpu with the offloading
/// interface that embeds kernels).
void registerToLLVMIRTranslations(DialectRegistry &registry);

/// Translates `module` (LLVM dialect, gpu.binary and gpu.launch_func allowed)
/// to LLVM IR. When its `plaidml.target` is a GPU, binds the host code to the
/// launch ABI (bindGpuLaunchAbi). Emits a diagnostic and returns null on
/// failure. The module's context must have the translations of
/// registerToLLVMIRTranslations.
std::unique_ptr<llvm::Module> translateToLLVMIR(Operation *module,
                                                llvm::LLVMContext &context);

/// Rewrites the host code of a GPU artifact (GpuAbi.h): every `mgpu*`
/// declaration becomes a stub calling through the `_plaidml_gpu_abi` table
/// with the table's context first, the module exports
/// `_plaidml_gpu_abi_version`, and llvm.global_ctors/dtors become
/// `_plaidml_gpu_load` and `_plaidml_gpu_unload`. Fails naming any mgpu*
/// function outside the ABI.
llvm::Error bindGpuLaunchAbi(llvm::Module &module);

} // namespace mlir::plaidml

#endif // PLAIDML_TARGET_LLVMIR_TRANSLATION_H
