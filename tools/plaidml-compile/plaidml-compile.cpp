//===- plaidml-compile.cpp - Compile a program to an artifact -------------===//
//
// `plaidml-compile FILE --device cpu -o OUT`: compiles an MLIR module (Tile
// dialect, or the ABI form of docs/ABI.md section 1) into an artifact, the
// shared library of docs/ABI.md section 4. Errors are one line each on
// stderr, and the exit status is non-zero. `--use-cache` compiles through
// the on-disk cache (lib/Compiler/Cache.cpp) and reports hit or miss.
// A .onnx model is imported first (docs/Onnx.md); its weights are the
// artifact's last inputs, written as DIR/argN.npy by --params-dir. With
// --use-cache a model is compiled through the cache by its file's bytes
// (plaidml/Runner/OnnxCache.h): a hit does not import it (`model: not
// imported` on stdout) and the weights come from the cache entry.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Compiler/Cache.h"
#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Compiler/DeviceTarget.h"
#include "plaidml/Import/Onnx.h"
#include "plaidml/InitAll.h"
#include "plaidml/Runner/OnnxCache.h"
#include "plaidml/Support/NestingLimit.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::plaidml;
namespace cl = llvm::cl;

static cl::OptionCategory category("plaidml-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output artifact"),
                                       cl::value_desc("file"),
                                       cl::cat(category));
static cl::opt<std::string> device(
    "device",
    cl::desc("Target device: cpu, vulkan:N or opencl:N (kernels for what "
             "that device of this machine offers; for a device this machine "
             "does not have, for every feature the runtime checks)"),
    cl::init("cpu"), cl::cat(category));
static cl::list<std::string> deviceFeatures(
    "device-features",
    cl::desc("For a vulkan:N or opencl:N this machine does not have: the "
             "features it has, comma-separated (default: every feature the "
             "runtime checks; NVIDIA's OpenCL: cl_khr_fp64,nv-ptx-wmma, and "
             "nv-ptx-cp-async on compute capability 8.0 or later)"),
    cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> emulateNvPtxFlag(
    "emulate-nv-ptx",
    cl::desc("opencl:N: compile the cooperative-matrix kernels of NVIDIA's "
             "OpenCL (as for nv-ptx-wmma,nv-ptx-cp-async) with their PTX "
             "printed as portable OpenCL C, so that any OpenCL device runs "
             "them (slowly; a test aid)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    cpu("cpu",
        cl::desc("LLVM CPU name, or 'native' for the host CPU (default: "
                 "native for cpu; for the host code of vulkan:N and "
                 "opencl:N the portable x86-64 baseline, so the artifact "
                 "runs on other machines)"),
        cl::init(""), cl::cat(category));
static cl::opt<std::string> triple("triple",
                                   cl::desc("Target triple (default: host)"),
                                   cl::init(""), cl::cat(category));
static cl::opt<std::string>
    features("features",
             cl::desc("Subtarget features '+a,-b' (default: the host's for "
                      "native, the CPU's own otherwise)"),
             cl::init(""), cl::cat(category));
static cl::opt<unsigned> optLevel("opt-level",
                                  cl::desc("LLVM optimization level 0-3"),
                                  cl::init(3), cl::cat(category));
static cl::opt<unsigned> codegenParts(
    "codegen-parts",
    cl::desc("Parts of the program LLVM optimizes and compiles at once, on "
             "as many threads (default 2; 1: one module)"),
    cl::init(CompileOptions().codegenParts), cl::cat(category));
static cl::opt<std::string>
    ldPath("ld-path",
           cl::desc("ld.lld to link with (default: next to the LLVM tools, "
                    "then on PATH)"),
           cl::init(""), cl::cat(category));
static cl::opt<std::string>
    libompDir("libomp-dir",
              cl::desc("Directory of libomp.so for --threads > 1 (default: "
                       "next to the LLVM libraries, then the system's)"),
              cl::init(""), cl::cat(category));
static cl::opt<bool>
    useCache("use-cache",
             cl::desc("Compile through the on-disk cache and print "
                      "'cache: hit|miss PATH' on stdout"),
             cl::init(false), cl::cat(category));

static cl::opt<std::string>
    emitLLVMIR("emit-llvm-ir",
               cl::desc("Also write the LLVM IR of the artifact, before LLVM's "
                        "optimizations, to this file"),
               cl::value_desc("file"), cl::init(""), cl::cat(category));
static cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("Print the MLIR pass pipeline this input would be compiled "
             "with (for plaidml-opt --pass-pipeline) and exit; no -o needed"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> paramsDir(
    "params-dir",
    cl::desc("ONNX models: write the weights (the artifact's last inputs) as "
             "DIR/argN.npy"),
    cl::value_desc("dir"), cl::init(""), cl::cat(category));
static cl::list<std::string>
    onnxInputs("input",
               cl::desc("ONNX models: NAME=FILE.npy, the value of an input "
                        "an op reads at import time (a Reshape's shape)"),
               cl::value_desc("name=file"), cl::cat(category));

/// The --input values; false after reporting an error.
static bool getImportOptions(::plaidml::onnx::ImportOptions &importOptions) {
  for (const std::string &kv : onnxInputs) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "plaidml-compile: error: --input needs NAME=FILE.npy, "
                   << "got '" << kv << "'\n";
      return false;
    }
    std::string error;
    std::optional<::plaidml::rt::HostArray> array =
        ::plaidml::rt::readNpy(kv.substr(eq + 1), error);
    if (!array) {
      llvm::errs() << "plaidml-compile: error: " << error << "\n";
      return false;
    }
    importOptions.knownInputs[kv.substr(0, eq)] = std::move(*array);
  }
  return true;
}

/// Writes the `count` weights `get(i)` to --params-dir as arg<first+i>.npy
/// (or warns that they exist); false after reporting an error.
static bool
writeParams(size_t first, size_t count,
            llvm::function_ref<::plaidml::rt::HostArray(size_t)> get) {
  if (paramsDir.empty()) {
    if (count != 0)
      llvm::errs() << "plaidml-compile: warning: the model's " << count
                   << " weights are inputs of the artifact; --params-dir DIR "
                      "writes them\n";
    return true;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(paramsDir)) {
    llvm::errs() << "plaidml-compile: error: cannot create '" << paramsDir
                 << "': " << ec.message() << "\n";
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    std::string error;
    if (!::plaidml::rt::writeNpy(paramsDir + "/arg" +
                                     std::to_string(first + i) + ".npy",
                                 get(i), error)) {
      llvm::errs() << "plaidml-compile: error: " << error << "\n";
      return false;
    }
  }
  return true;
}

/// Imports the ONNX model `path` and returns its Tile IR (weights as
/// parameters, written to --params-dir); "" after reporting an error.
static std::string importOnnx(const std::string &path) {
  ::plaidml::onnx::ImportOptions importOptions;
  if (!getImportOptions(importOptions))
    return "";
  auto model = ::plaidml::onnx::importOnnxFile(path, importOptions);
  if (!model.ok()) {
    llvm::errs() << "plaidml-compile: error: " << model.message() << "\n";
    return "";
  }
  const ::plaidml::onnx::ImportedModel &m = **model;
  if (!writeParams(m.inputNames.size(), m.parameters.size(),
                   [&](size_t i) { return m.parameters[i]; }))
    return "";
  return m.program.str();
}

/// Prints where the artifact came from: `cache: hit|miss PATH`, or `cache:
/// off`.
static void printCacheLine(const CachedArtifact &artifact) {
  if (artifact.temporary)
    llvm::outs() << "cache: off\n";
  else
    llvm::outs() << "cache: " << (artifact.hit ? "hit " : "miss ")
                 << artifact.path << "\n";
}

/// `--threads`. libLLVM registers a hidden `-threads` option of its own, and
/// registering a second one is fatal: that one is renamed out of the way
/// before this one is created (so not at static initialization).
static cl::opt<unsigned> &getThreadsOption() {
  auto &registered = cl::getRegisteredOptions();
  if (auto it = registered.find("threads"); it != registered.end())
    it->second->setArgStr("llvm-internal-threads");
  static cl::opt<unsigned> threads(
      "threads",
      cl::desc("Threads of the generated CPU code (1: sequential; more: "
               "OpenMP, and the artifact needs libomp.so.5)"),
      cl::init(1), cl::cat(category));
  return threads;
}

/// `file:line:col`, from the first file location inside `loc`.
static std::string formatLocation(Location loc) {
  std::string result;
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      result = fileLoc.getFilename().str();
      // The implicit module of a file sits at line 0.
      if (fileLoc.getLine() != 0)
        result +=
            (":" + Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}

static int fail(const Twine &message) {
  llvm::errs() << "plaidml-compile: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::opt<unsigned> &threads = getThreadsOption();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "PlaidML compiler\n");

  if (inputFile.empty())
    return fail("no input file (usage: plaidml-compile FILE --device D -o "
                "OUT)");
  if (outputFile.empty() && !printPipeline)
    return fail("no output file (-o OUT)");
  if (useCache && (printPipeline || !emitLLVMIR.empty()))
    return fail("--use-cache cannot be combined with --print-pipeline or "
                "--emit-llvm-ir");
  CompileOptions options;
  options.device = device;
  options.cpu = cpu;
  options.triple = triple;
  options.features = features;
  options.optLevel = optLevel;
  options.threads = threads;
  options.codegenParts = codegenParts;
  options.linker = ldPath;
  options.openMPDir = libompDir;
  options.llvmIROutput = emitLLVMIR;
  std::string error = validateCompileOptions(options);
  if (!error.empty())
    return fail(error);
  // The device is resolved here, not in the compiler library.
  std::vector<std::string> features(deviceFeatures.begin(),
                                    deviceFeatures.end());
  std::string deviceError = resolveDeviceTarget(
      options, deviceFeatures.getNumOccurrences() ? &features : nullptr);
  if (!deviceError.empty())
    return fail(deviceError);
  if (emulateNvPtxFlag) {
    std::string error = mlir::plaidml::emulateNvPtx(options);
    if (!error.empty())
      return fail(error);
  }

  std::string readError;
  std::unique_ptr<llvm::MemoryBuffer> input;
  bool isOnnx = StringRef(inputFile).ends_with(".onnx");
  if (isOnnx && useCache) {
    // Compiled through the cache below, imported only on a miss.
  } else if (isOnnx) {
    std::string text = importOnnx(inputFile);
    if (text.empty())
      return 1;
    input = llvm::MemoryBuffer::getMemBufferCopy(text, inputFile + ".mlir");
  } else {
    input = openInputFile(inputFile, &readError);
  }
  if (!input && !(isOnnx && useCache))
    return fail(readError);

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // One line per error or warning (notes, such as op dumps, are dropped).
  bool reported = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Note ||
        diag.getSeverity() == DiagnosticSeverity::Remark)
      return success();
    reported |= diag.getSeverity() == DiagnosticSeverity::Error;
    std::string where = formatLocation(diag.getLocation());
    llvm::errs() << "plaidml-compile: "
                 << (diag.getSeverity() == DiagnosticSeverity::Error
                         ? "error: "
                         : "warning: ");
    if (!where.empty())
      llvm::errs() << where << ": ";
    std::string text = diag.str();
    std::replace(text.begin(), text.end(), '\n', ' ');
    llvm::errs() << text << "\n";
    return success();
  });

  if (isOnnx && useCache) {
    ::plaidml::onnx::ImportOptions importOptions;
    if (!getImportOptions(importOptions))
      return 1;
    ::plaidml::rt::StatusOr<::plaidml::run::CachedOnnxModel> model =
        ::plaidml::run::compileOnnxModel(context, inputFile, importOptions,
                                         options);
    if (!model.ok())
      return model.message().empty() ? (reported ? 1
                                                 : fail("compilation "
                                                        "failed"))
                                     : fail(model.message());
    std::error_code ec =
        llvm::sys::fs::copy_file(model->artifact.path, outputFile);
    removeTemporaryArtifact(model->artifact);
    if (ec)
      return fail("cannot copy '" + model->artifact.path + "' to '" +
                  outputFile + "': " + ec.message());
    if (!writeParams(model->getNumProgramInputs(), model->parameters.size(),
                     [&](size_t i) { return model->getParameter(i); }))
      return 1;
    llvm::outs() << "model: " << (model->imported ? "imported" : "not imported")
                 << "\n";
    printCacheLine(model->artifact);
    return 0;
  }

  // Input nested deeper than the parser's stack allows is refused here,
  // before either path below parses it.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  if (failed(checkNestingDepth(sourceMgr, &context)))
    return 1;
  const llvm::MemoryBuffer *text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());

  if (useCache) {
    FailureOr<CachedArtifact> artifact = getCachedArtifact(
        context, text->getBuffer(), options, text->getBufferIdentifier());
    if (failed(artifact))
      return reported ? 1 : fail("compilation failed");
    std::error_code ec = llvm::sys::fs::copy_file(artifact->path, outputFile);
    removeTemporaryArtifact(*artifact);
    if (ec)
      return fail("cannot copy '" + artifact->path + "' to '" + outputFile +
                  "': " + ec.message());
    printCacheLine(*artifact);
    return 0;
  }

  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return reported ? 1 : fail("cannot parse '" + inputFile + "'");
  if (printPipeline) {
    FailureOr<std::string> pipeline = getCompilePipeline(*module, options);
    if (failed(pipeline))
      return 1;
    llvm::outs() << *pipeline << "\n";
    return 0;
  }
  if (failed(compileToArtifact(*module, options, outputFile)))
    return reported ? 1 : fail("compilation failed");
  return 0;
}
