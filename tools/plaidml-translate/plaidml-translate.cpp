//===- plaidml-translate.cpp - mlir-translate for PlaidML -----------------===//
//
// mlir-translate with the translations PlaidML's pipelines need: PlaidML's
// own (registerAllTranslations, InitAll.h: --mlir-to-llvmir, --import-tile,
// --mlir-to-opencl-c) and upstream's --serialize-spirv /
// --deserialize-spirv, --import-llvm and --mlir-to-cpp. The driver is
// mlir-translate's,
// plus a scan that refuses MLIR input nested deeper than the parser's stack
// allows (plaidml/Support/NestingLimit.h) before a translation parses it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"
#include "plaidml/Support/NestingLimit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace {
/// Translations whose input is not MLIR text: the nesting scan does not
/// apply (the Tile-language importer limits nesting itself).
bool readsMLIRText(StringRef translation) {
  return translation != "import-tile" && translation != "import-llvm" &&
         translation != "deserialize-spirv";
}

/// mlir-translate's driver (mlirTranslateMain) with one addition: before the
/// first translation parses the user's MLIR, the input is refused when it
/// nests deeper than the parser's stack allows (NestingLimit.h).
LogicalResult translateMain(int argc, char **argv) {
  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  static llvm::cl::opt<bool> allowUnregisteredDialects(
      "allow-unregistered-dialect",
      llvm::cl::desc("Allow operation with no registered dialects "
                     "(discouraged: testing only!)"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> inputSplitMarker{
      "split-input-file", llvm::cl::ValueOptional,
      llvm::cl::callback([](const std::string &str) {
        if (str.empty())
          inputSplitMarker.setValue(kDefaultSplitMarker);
      }),
      llvm::cl::desc("Split the input file into chunks using the given or "
                     "default marker and process each chunk independently"),
      llvm::cl::init("")};
  static llvm::cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      llvm::cl::desc("Check that emitted diagnostics match expected-* lines "
                     "on the corresponding line"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> outputSplitMarker(
      "output-split-marker",
      llvm::cl::desc("Split marker to use for merging the output"),
      llvm::cl::init(""));
  llvm::cl::list<const Translation *, bool, TranslationParser>
      translationsRequested("", llvm::cl::desc("Translations to perform"),
                            llvm::cl::Required);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "PlaidML translation driver");

  // The name of the first translation, from the flag that requested it.
  StringRef first =
      StringRef(argv[translationsRequested.getPosition(0)]).ltrim('-');
  first = first.take_until([](char c) { return c == '='; });

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (auto alignment = translationsRequested[0]->getInputAlignment())
    input = openInputFile(inputFilename, *alignment, &errorMessage);
  else
    input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }

  auto processBuffer = [&](std::unique_ptr<llvm::MemoryBuffer> ownedBuffer,
                           raw_ostream &os) -> LogicalResult {
    // Translations expect a null-terminated buffer; split chunks are not.
    if (!ownedBuffer->getBuffer().ends_with('\0'))
      ownedBuffer = llvm::MemoryBuffer::getMemBufferCopy(
          ownedBuffer->getBuffer(), ownedBuffer->getBufferIdentifier());
    std::string dataIn, dataOut;
    for (size_t i = 0, e = translationsRequested.size(); i < e; ++i) {
      llvm::raw_string_ostream dataStream(dataOut);
      raw_ostream &stream = i == e - 1 ? os : dataStream;
      MLIRContext context;
      context.allowUnregisteredDialects(allowUnregisteredDialects);
      context.printOpOnDiagnostic(!verifyDiagnostics);
      auto sourceMgr = std::make_shared<llvm::SourceMgr>();
      sourceMgr->AddNewSourceBuffer(std::move(ownedBuffer), SMLoc());
      bool checkNesting = i == 0 && readsMLIRText(first);
      LogicalResult result = success();
      if (verifyDiagnostics) {
        // The translation is expected to fail; the diagnostics are checked.
        SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context);
        if (!checkNesting ||
            succeeded(plaidml::checkNestingDepth(*sourceMgr, &context)))
          (void)(*translationsRequested[i])(sourceMgr, os, &context);
        result = handler.verify();
      } else {
        SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
        if (checkNesting &&
            failed(plaidml::checkNestingDepth(*sourceMgr, &context)))
          return failure();
        result = (*translationsRequested[i])(sourceMgr, stream, &context);
      }
      if (failed(result))
        return result;
      if (i < e - 1) {
        dataIn = dataOut;
        dataOut.clear();
        ownedBuffer = llvm::MemoryBuffer::getMemBuffer(dataIn);
      }
    }
    return success();
  };
  if (failed(splitAndProcessBuffer(std::move(input), processBuffer,
                                   output->os(), inputSplitMarker,
                                   outputSplitMarker)))
    return failure();
  output->keep();
  return success();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerFromLLVMIRTranslation();
  registerFromSPIRVTranslation();
  registerToCppTranslation();
  registerToSPIRVTranslation();
  plaidml::registerAllTranslations();
  return failed(translateMain(argc, argv));
}
