//===- InitAllTranslations.cpp - PlaidML's translations -------------------===//
//
// registerAllTranslations (InitAll.h): the translations PlaidML adds to
// mlir-translate's, registered in one place so that plaidml-translate and an
// embedding tool get the same ones. --mlir-to-llvmir translates a pipeline's
// LLVM-dialect output as plaidml-compile does (binding GPU host code to the
// launch ABI); --import-tile reads a Tile-language program
// (docs/TileLanguage.md) with input types from --bind NAME=2x3xf32;
// --mlir-to-opencl-c prints the OpenCL C kernels of the OpenCL pipeline
// (docs/OpenCLPipeline.md).
//
//===----------------------------------------------------------------------===//

#include "plaidml/InitAll.h"

#include "plaidml/Frontend/TileLang/Importer.h"
#include "plaidml/Target/LLVMIR/Translation.h"
#include "plaidml/Target/OpenCL/EmitOpenCLC.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::plaidml;

/// --mlir-to-llvmir: translateToLLVMIR (Target/LLVMIR/Translation.h), so
/// the host code of a GPU target is bound to the launch ABI exactly as
/// plaidml-compile binds it. It replaces upstream's registration of the same
/// name, which also parses with an LLVM-only context: lowered IR may still
/// carry attributes of other dialects (arith-to-llvm copies `fastmath =
/// #arith.fastmath<...>` onto llvm.fpext) and the module its plaidml.target.
static void registerToLLVMIRTranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-llvmir", "Translate MLIR (LLVM dialect) to LLVM IR",
      [](Operation *op, raw_ostream &output) {
        llvm::LLVMContext llvmContext;
        std::unique_ptr<llvm::Module> llvmModule =
            translateToLLVMIR(op, llvmContext);
        if (!llvmModule)
          return failure();
        llvmModule->removeDebugIntrinsicDeclarations();
        llvmModule->print(output, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        registerAllDialects(registry);
        registerToLLVMIRTranslations(registry);
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
        tilelang::ImportOptions options;
        for (const std::string &bind : binds) {
          auto [name, spec] = StringRef(bind).split('=');
          std::string error;
          RankedTensorType type =
              name.empty() || spec.empty()
                  ? RankedTensorType()
                  : tilelang::parseBindingType(spec, context, error);
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
              tilelang::parseBindingType(bindDefault, context, error);
          if (!type || type.getRank() != 1) {
            emitError(UnknownLoc::get(context))
                << "--bind-default=" << bindDefault
                << ": expected a size and an element type, as in 3xf32";
            return nullptr;
          }
          options.defaultBinding = {type.getDimSize(0), type.getElementType()};
        }
        return tilelang::importTileProgram(sourceMgr, context, options);
      },
      [](DialectRegistry &registry) { registerAllDialects(registry); });
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
  static llvm::cl::opt<bool> emulateNvPtx(
      "opencl-emulate-nv-ptx",
      llvm::cl::desc("--mlir-to-opencl-c: NVIDIA's PTX (wmma, cp.async) as "
                     "portable OpenCL C"),
      llvm::cl::init(false));
  TranslateFromMLIRRegistration registration(
      "mlir-to-opencl-c",
      "Print the OpenCL C of gpu.binary objects and gpu.modules",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        OpenCLCOptions options;
        options.fp16 = fp16;
        options.fp64 = fp64;
        options.emulateNvPtx = emulateNvPtx;
        bool failed = false;
        bool found = false;
        op->walk([&](Operation *nested) {
          if (auto binary = dyn_cast<gpu::BinaryOp>(nested)) {
            for (Attribute attr : binary.getObjects()) {
              auto object = dyn_cast<gpu::ObjectAttr>(attr);
              std::optional<std::string> text =
                  object ? getOpenCLCSource(object) : std::nullopt;
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
                translateGpuModuleToOpenCLC(module, options, output));
            return WalkResult::skip();
          }
          return WalkResult::advance();
        });
        if (!found)
          return op->emitError(
              "no gpu.module and no gpu.binary with OpenCL C objects");
        return failure(failed);
      },
      [](DialectRegistry &registry) { registerAllDialects(registry); });
}

void mlir::plaidml::registerAllTranslations() {
  static bool registered = [] {
    registerToLLVMIRTranslation();
    registerImportTileTranslation();
    registerToOpenCLCTranslation();
    return true;
  }();
  (void)registered;
}
