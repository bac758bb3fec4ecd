//===- plaidml-translate.cpp - mlir-translate for PlaidML -----------------===//
//
// mlir-translate with the translations PlaidML's pipelines need:
// --mlir-to-llvmir for the CPU pipeline's output, --serialize-spirv /
// --deserialize-spirv, --import-llvm and --mlir-to-cpp. Our --mlir-to-llvmir
// replaces upstream's registration of the same name only to parse its input
// with every PlaidML dialect: lowered IR may still carry attributes of other
// dialects (arith-to-llvm copies `fastmath = #arith.fastmath<...>` onto
// llvm.fpext), which upstream's LLVM-only context rejects. --import-tile
// reads a Tile-language program (docs/TileLanguage.md), with input types from
// --bind NAME=2x3xf32. --mlir-to-opencl-c prints the OpenCL C kernels of the
// OpenCL pipeline (docs/OpenCLPipeline.md). The driver is mlir-translate's,
// plus a scan that refuses MLIR input nested deeper than the parser's stack
// allows (plaidml/Support/NestingLimit.h) before a translation parses it.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Frontend/TileLang/Importer.h"
#include "plaidml/InitAll.h"
#include "plaidml/Support/NestingLimit.h"
#include "plaidml/Target/OpenCL/EmitOpenCLC.h"

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

/// --import-tile [--bind NAME=2x3xf32 ...]: Tile language to Tile dialect.
static void registerImportTileTranslation() {
  // Registered with the translation, like upstream's translation options.
  static llvm::cl::list<std::string> binds(
      "bind",
      llvm::cl::desc("--import-tile: the type of an input, NAME=2x3xf32 "
                     "(repeatable)"),
      llvm::cl::value_desc("NAME=TYPE"));
  static llvm::cl::opt<std::string> bindDefault(
      "bind-default",
      llvm::cl::desc("--import-tile: give every input without --bind this "
                     "element type and every one of its dimensions this size, "
                     "as in 3xf32 (for experiments and fuzzing)"),
      llvm::cl::value_desc("SIZExTYPE"));
  TranslateToMLIRRegistration registration(
      "import-tile", "Import a Tile-language program as Tile dialect",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        plaidml::tilelang::ImportOptions options;
        for (const std::string &bind : binds) {
          auto [name, spec] = StringRef(bind).split('=');
          std::string error;
          RankedTensorType type =
              name.empty() || spec.empty()
                  ? RankedTensorType()
                  : plaidml::tilelang::parseBindingType(spec, context, error);
          if (!type) {
            emitError(UnknownLoc::get(context))
                << "--bind " << bind << ": "
                << (error.empty() ? "expected NAME=TYPE, as in A=2x3xf32"
                                  : error);
            return nullptr;
          }
          options.bindings[name] = type;
        }
        if (!bindDefault.empty()) {
          std::string error;
          RankedTensorType type =
              plaidml::tilelang::parseBindingType(bindDefault, context, error);
          if (!type || type.getRank() != 1) {
            emitError(UnknownLoc::get(context))
                << "--bind-default=" << bindDefault
                << ": expected a size and an element type, as in 3xf32";
            return nullptr;
          }
          options.defaultBinding = {type.getDimSize(0), type.getElementType()};
        }
        return plaidml::tilelang::importTileProgram(sourceMgr, context,
                                                    options);
      },
      [](DialectRegistry &registry) {
        plaidml::registerAllDialects(registry);
      });
}

/// --mlir-to-opencl-c: the OpenCL C text of every gpu.binary object that
/// plaidml-gpu-module-to-opencl-c made, and the translation of every
/// gpu.module still in the IR, each after a line naming it.
static void registerToOpenCLCTranslation() {
  static llvm::cl::opt<bool> fp16(
      "opencl-fp16",
      llvm::cl::desc("--mlir-to-opencl-c: gpu.modules may use f16 "
                     "(cl_khr_fp16)"),
      llvm::cl::init(false));
  static llvm::cl::opt<bool> fp64(
      "opencl-fp64",
      llvm::cl::desc("--mlir-to-opencl-c: gpu.modules may use f64 "
                     "(cl_khr_fp64)"),
      llvm::cl::init(false));
  TranslateFromMLIRRegistration registration(
      "mlir-to-opencl-c",
      "Print the OpenCL C of gpu.binary objects and gpu.modules",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        plaidml::OpenCLCOptions options;
        options.fp16 = fp16;
        options.fp64 = fp64;
        bool failed = false;
        bool found = false;
        op->walk([&](Operation *nested) {
          if (auto binary = dyn_cast<gpu::BinaryOp>(nested)) {
            for (Attribute attr : binary.getObjects()) {
              auto object = dyn_cast<gpu::ObjectAttr>(attr);
              std::optional<std::string> text =
                  object ? plaidml::getOpenCLCSource(object) : std::nullopt;
              if (!text)
                continue;
              found = true;
              output << "// gpu.binary @" << binary.getName() << "\n" << *text;
            }
            return WalkResult::skip();
          }
          if (auto module = dyn_cast<gpu::GPUModuleOp>(nested)) {
            found = true;
            output << "// gpu.module @" << module.getName() << "\n";
            failed |= mlir::failed(
                plaidml::translateGpuModuleToOpenCLC(module, options, output));
            return WalkResult::skip();
          }
          return WalkResult::advance();
        });
        if (!found)
          return op->emitError(
              "no gpu.module and no gpu.binary with OpenCL C objects");
        return failure(failed);
      },
      [](DialectRegistry &registry) {
        plaidml::registerAllDialects(registry);
      });
}

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
  registerPlaidMLToLLVMIRTranslation();
  registerImportTileTranslation();
  registerToOpenCLCTranslation();
  return failed(translateMain(argc, argv));
}
