//===- Translation.cpp - PlaidML host modules to LLVM IR ------------------===//
//
// translateToLLVMIR: upstream's translation of the LLVM dialect, then, for a
// GPU target, the launch-ABI binding of GpuLaunchAbi.cpp. What to do comes
// from the module's `plaidml.target` alone, so the compiler driver and
// `plaidml-translate --mlir-to-llvmir` cannot disagree.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Target/LLVMIR/Translation.h"

#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace mlir::plaidml;

void mlir::plaidml::registerToLLVMIRTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  // #gpu.select_object embeds the kernels; without its interface the
  // translation of gpu.binary would crash.
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

std::unique_ptr<llvm::Module>
mlir::plaidml::translateToLLVMIR(Operation *module,
                                 llvm::LLVMContext &context) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "plaidml");
  if (!llvmModule) {
    // Upstream reports most failures itself; say which step failed.
    module->emitError("translation to LLVM IR failed");
    return nullptr;
  }
  auto target = module->getAttrOfType<TargetAttr>(kTargetAttrName);
  if (target && target.isGpu()) {
    if (llvm::Error error = bindGpuLaunchAbi(*llvmModule)) {
      module->emitError() << llvm::toString(std::move(error));
      return nullptr;
    }
  }
  return llvmModule;
}
