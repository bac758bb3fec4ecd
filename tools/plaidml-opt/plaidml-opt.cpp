//===- plaidml-opt.cpp - mlir-opt with PlaidML ----------------------------===//
//
// mlir-opt with the Tile dialect, every PlaidML pass and pipeline, and the
// upstream dialects and passes they use. It opens its input itself (rather
// than through the argv form of MlirOptMain) to refuse input nested deeper
// than the parser's stack allows (plaidml/Support/NestingLimit.h) before
// MLIR parses it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"
#include "plaidml/Support/NestingLimit.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  DialectRegistry registry;
  plaidml::registerAllDialects(registry);
  plaidml::registerAllPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "PlaidML optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  llvm::InitLLVM initLLVM(argc, argv);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    MLIRContext context(MLIRContext::Threading::DISABLED);
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    if (failed(plaidml::checkNestingDepth(sourceMgr, &context)))
      return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (failed(MlirOptMain(output->os(), std::move(file), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
