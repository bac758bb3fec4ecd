//===- plaidml-translate.cpp - mlir-translate for PlaidML -----------------===//
//
// mlir-translate with the upstream translations PlaidML's pipelines need
// (--mlir-to-llvmir for the CPU pipeline's output, --serialize-spirv, the
// LLVM IR importer, ...). Each translation registers the dialects it reads.
// PlaidML's own translations (--import-tile) arrive with the frontend.
//
//===----------------------------------------------------------------------===//

#include "mlir/InitAllTranslations.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "PlaidML translation driver"));
}
