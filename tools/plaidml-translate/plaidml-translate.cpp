//===- plaidml-translate.cpp - mlir-translate for PlaidML -----------------===//
//
// mlir-translate with the translations PlaidML's pipelines need:
// --mlir-to-llvmir for the CPU pipeline's output, --serialize-spirv /
// --deserialize-spirv, --import-llvm and --mlir-to-cpp. Our --mlir-to-llvmir
// replaces upstream's registration of the same name only to parse its input
// with every PlaidML dialect: lowered IR may still carry attributes of other
// dialects (arith-to-llvm copies `fastmath = #arith.fastmath<...>` onto
// llvm.fpext), which upstream's LLVM-only context rejects. PlaidML's own
// translations (--import-tile) arrive with the frontend.
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;

/// --mlir-to-llvmir, as upstream's, on a context with every PlaidML dialect.
static void registerPlaidMLToLLVMIRTranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-llvmir", "Translate MLIR (LLVM dialect) to LLVM IR",
      [](Operation *op, raw_ostream &output) {
        llvm::LLVMContext llvmContext;
        std::unique_ptr<llvm::Module> llvmModule =
            translateModuleToLLVMIR(op, llvmContext);
        if (!llvmModule)
          return failure();
        llvmModule->removeDebugIntrinsicDeclarations();
        llvmModule->print(output, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        plaidml::registerAllDialects(registry);
        registerAllToLLVMIRTranslations(registry);
      });
}

int main(int argc, char **argv) {
  registerFromLLVMIRTranslation();
  registerFromSPIRVTranslation();
  registerToCppTranslation();
  registerToSPIRVTranslation();
  registerPlaidMLToLLVMIRTranslation();
  return failed(mlirTranslateMain(argc, argv, "PlaidML translation driver"));
}
