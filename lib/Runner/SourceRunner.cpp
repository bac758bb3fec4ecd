//===- SourceRunner.cpp - Open source programs with the compiler ----------===//
//
// Opens .mlir programs (parsed) and .tile programs (imported with input types
// from --bind / --input), from a file or from memory (openSourceText: the
// check program of plaidml-setup), picks the entry function, and either
// evaluates it with the reference interpreter (device `reference`) or
// compiles it into an artifact through the compile cache and hands that to
// the runtime. A .tile program's inputs and outputs keep their Tile names.
// Only in builds with the compiler.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

#include "CompileOptions.h"

#include "plaidml/Compiler/Cache.h"
#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Compiler/DeviceTarget.h"
#include "plaidml/Dialect/PlaidML/IR/PlaidMLDialect.h"
#include "plaidml/Frontend/TileLang/Importer.h"
#include "plaidml/InitAll.h"
#include "plaidml/Reference/Interpreter.h"
#include "plaidml/Support/ElementTypes.h"
#include "plaidml/Support/NestingLimit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace ::plaidml::run;
namespace rt = ::plaidml::rt;
namespace reference = mlir::plaidml::reference;
namespace tilelang = mlir::plaidml::tilelang;

namespace {

/// Specs for `types`, named `names` when given (a .tile program), else
/// `prefix`0, `prefix`1, ...
rt::StatusOr<std::vector<rt::TensorSpec>>
toSpecs(TypeRange types, const std::vector<std::string> &names,
        const std::string &prefix, StringRef function) {
  std::vector<rt::TensorSpec> specs;
  for (auto [i, type] : llvm::enumerate(types)) {
    rt::TensorSpec spec;
    spec.name = i < names.size() ? names[i] : prefix + std::to_string(i);
    auto tensor = dyn_cast<RankedTensorType>(type);
    std::optional<rt::DType> dtype =
        tensor ? mlir::plaidml::getRuntimeDType(tensor.getElementType())
               : std::nullopt;
    if (!tensor || !tensor.hasStaticShape() || !dtype)
      return rt::Status::failure(
          "'" + spec.name + "' of '" + function.str() +
          "' is not a statically shaped tensor of a Tile element type");
    spec.dtype = *dtype;
    spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    // The checks of the runtime's shapes (element count and byte size
    // without overflow); MLIR's own element count wraps silently.
    std::vector<int64_t> shape;
    rt::DType checked;
    std::string error;
    if (!rt::parseShapeAndType(spec.describe(), shape, checked, error))
      return rt::Status::failure("'" + spec.name + "' of '" + function.str() +
                                 "': " + error);
    specs.push_back(std::move(spec));
  }
  return specs;
}

/// A parsed program: the context and module outlive every Runner on them.
/// Members are destroyed in reverse order: the module and the diagnostic
/// handler go before the context.
struct ParsedProgram {
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  // Errors print as "file:line:col: error: ..." with the source line, at
  // parse time and at run time (the reference interpreter's errors).
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  std::string text;
  /// A .tile program, and the Tile names of its entry's inputs and outputs.
  bool isTile = false;
  std::vector<std::string> inputNames, outputNames;
};

/// The input types of a .tile program: --bind, else the --input file's.
rt::StatusOr<tilelang::ImportOptions>
getImportOptions(const InputBindings &bindings, MLIRContext *context) {
  tilelang::ImportOptions options;
  std::string error;
  for (const auto &[name, file] : bindings.files) {
    if (bindings.types.count(name))
      continue;
    std::optional<rt::HostArray> array = rt::readNpy(file, error);
    if (!array)
      return rt::Status::failure(error);
    options.bindings[name] =
        tilelang::parseBindingType(array->describe(), context, error);
    if (!options.bindings[name])
      return rt::Status::failure("'" + file + "': " + error);
  }
  for (const auto &[name, spec] : bindings.types) {
    std::vector<int64_t> shape;
    rt::DType dtype;
    if (!rt::parseShapeAndType(spec, shape, dtype, error))
      return rt::Status::failure("--bind " + name + ": " + error);
    options.bindings[name] = tilelang::parseBindingType(
        rt::describeShapeAndType(shape, dtype), context, error);
    if (!options.bindings[name])
      return rt::Status::failure("--bind " + name + ": " + error);
  }
  return options;
}

/// Imports the .tile program in `parsed->sourceMgr` and records the Tile
/// names of the entry's inputs and outputs; the module's text (with the
/// .tile locations) is what the compile cache sees.
rt::Status importTile(ParsedProgram &parsed, const std::string &path,
                      const InputBindings &bindings) {
  MLIRContext *context = parsed.context.get();
  rt::StatusOr<tilelang::ImportOptions> options =
      getImportOptions(bindings, context);
  if (!options.ok())
    return options.status();
  parsed.module =
      tilelang::importTileProgram(parsed.sourceMgr, context, *options);
  if (!parsed.module)
    return rt::Status::failure("cannot import '" + path + "'");
  parsed.text.clear();
  llvm::raw_string_ostream os(parsed.text);
  parsed.module->print(os, OpPrintingFlags().enableDebugInfo());
  return rt::Status::success();
}

/// Parses (a .tile `path`: imports) the program in `file`, named `path`.
rt::StatusOr<std::unique_ptr<ParsedProgram>>
parseProgram(std::unique_ptr<llvm::MemoryBuffer> file, const std::string &path,
             const std::string &entryName, const InputBindings &bindings) {
  auto parsed = std::make_unique<ParsedProgram>();
  // Every dialect a program may use: Tile sources, and programs already in
  // the form after convert-tile-to-affine.
  DialectRegistry registry;
  mlir::plaidml::registerAllDialects(registry);
  parsed->context = std::make_unique<MLIRContext>(registry);
  // Diagnostics name the op by its location in the user's file; a dump of
  // the op would only repeat it.
  parsed->context->printOpOnDiagnostic(false);

  parsed->text = file->getBuffer().str();
  parsed->sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  parsed->diagnostics = std::make_unique<SourceMgrDiagnosticHandler>(
      parsed->sourceMgr, parsed->context.get());
  bool isTile = parsed->isTile = StringRef(path).ends_with(".tile");
  if (isTile) {
    if (rt::Status s = importTile(*parsed, path, bindings); !s.ok())
      return s;
  } else {
    if (failed(mlir::plaidml::checkNestingDepth(parsed->sourceMgr,
                                                parsed->context.get())))
      return rt::Status::failure("cannot parse '" + path + "'");
    parsed->module =
        parseSourceFile<ModuleOp>(parsed->sourceMgr, parsed->context.get());
    if (!parsed->module)
      return rt::Status::failure("cannot parse '" + path + "'");
  }

  SmallVector<func::FuncOp> funcs;
  for (auto f : parsed->module->getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  if (funcs.empty())
    return rt::Status::failure("'" + path + "' defines no function to run" +
                               (parsed->module->getBody()->empty()
                                    ? " (it is empty, or holds only comments)"
                                    : ""));
  if (!entryName.empty()) {
    parsed->entry = parsed->module->lookupSymbol<func::FuncOp>(entryName);
    if (!parsed->entry)
      return rt::Status::failure("no function '" + entryName + "' in '" + path +
                                 "'");
  } else if (funcs.size() == 1) {
    parsed->entry = funcs.front();
  } else if (!(parsed->entry =
                   parsed->module->lookupSymbol<func::FuncOp>("main"))) {
    std::string names;
    for (auto f : funcs)
      names += (names.empty() ? "" : ", ") + f.getSymName().str();
    return rt::Status::failure("'" + path + "' has " +
                               std::to_string(funcs.size()) + " functions (" +
                               names + "); pick one with --entry");
  }
  if (isTile) {
    StringRef name = parsed->entry.getSymName();
    auto inputs =
        tilelang::getTileInputs(parsed->sourceMgr, parsed->context.get(), name);
    auto outputs = tilelang::getTileOutputs(parsed->sourceMgr,
                                            parsed->context.get(), name);
    if (!inputs || !outputs)
      return rt::Status::failure("cannot import '" + path + "'");
    for (auto &input : *inputs)
      parsed->inputNames.push_back(input.first);
    parsed->outputNames = std::move(*outputs);
  }
  return parsed;
}

/// Runs a parsed program in the reference interpreter.
class ReferenceRunner : public SpecifiedRunner {
public:
  ReferenceRunner(std::unique_ptr<ParsedProgram> program,
                  std::vector<rt::TensorSpec> inputs,
                  std::vector<rt::TensorSpec> outputs)
      : SpecifiedRunner(std::move(inputs), std::move(outputs)),
        program(std::move(program)) {}

  std::string getEntryName() const override {
    return program->entry.getSymName().str();
  }
  rt::Status prepare(const std::vector<rt::HostArray> &inputs) override {
    buffers.clear();
    for (auto [array, type, spec] : llvm::zip_equal(
             inputs, program->entry.getArgumentTypes(), getInputs())) {
      FailureOr<reference::Buffer> buffer = reference::Buffer::create(
          cast<RankedTensorType>(type), program->entry.getLoc());
      if (failed(buffer))
        return rt::Status::failure("cannot hold input '" + spec.name + "'");
      if (failed(buffer->fromBytes(array.bytes)))
        return rt::Status::failure("input of " + array.describe() +
                                   " has the wrong byte size");
      buffers.push_back(std::move(*buffer));
    }
    return rt::Status::success();
  }
  rt::Status execute() override {
    FailureOr<std::vector<reference::Buffer>> out =
        reference::evaluate(program->entry, buffers);
    if (failed(out))
      return rt::Status::failure(
          "running '" + program->entry.getSymName().str() + "' failed");
    results = std::move(*out);
    return rt::Status::success();
  }
  rt::StatusOr<std::vector<rt::HostArray>> getResults() const override {
    std::vector<rt::HostArray> arrays;
    for (auto [buffer, spec] : llvm::zip_equal(results, getOutputs())) {
      rt::HostArray array;
      array.dtype = spec.dtype;
      array.shape = spec.shape;
      std::string error;
      if (!rt::allocateArray(array, "output '" + spec.name + "'", error))
        return rt::Status::failure(error);
      buffer.writeBytes(array.bytes);
      arrays.push_back(std::move(array));
    }
    return rt::StatusOr<std::vector<rt::HostArray>>(std::move(arrays));
  }

private:
  std::unique_ptr<ParsedProgram> program;
  std::vector<reference::Buffer> buffers, results;
};

/// openSource and openSourceText once the program is in memory.
rt::StatusOr<std::unique_ptr<Runner>>
openBuffer(std::unique_ptr<llvm::MemoryBuffer> file, const std::string &path,
           const std::string &entry, const std::string &device,
           const InputBindings &bindings, const CompileSettings &settings,
           double &compileMs) {
  compileMs = 0;
  rt::StatusOr<std::unique_ptr<ParsedProgram>> program =
      parseProgram(std::move(file), path, entry, bindings);
  if (!program.ok())
    return program.status();
  func::FuncOp fn = (*program)->entry;
  StringRef name = fn.getSymName();
  // A function already in the ABI form keeps its tensor types in
  // attributes (docs/ABI.md section 1).
  SmallVector<Type> inputTypes(fn.getArgumentTypes()),
      outputTypes(fn.getResultTypes());
  auto abiInputs = fn->getAttrOfType<ArrayAttr>(mlir::plaidml::kInputsAttrName);
  auto abiOutputs =
      fn->getAttrOfType<ArrayAttr>(mlir::plaidml::kOutputsAttrName);
  if (abiInputs && abiOutputs) {
    if (device == "reference")
      return rt::Status::failure(
          "'" + name.str() +
          "' is already lowered to memrefs; the reference interpreter "
          "evaluates Tile functions only");
    inputTypes.clear();
    outputTypes.clear();
    for (Attribute a : abiInputs)
      if (auto t = dyn_cast<TypeAttr>(a))
        inputTypes.push_back(t.getValue());
    for (Attribute a : abiOutputs)
      if (auto t = dyn_cast<TypeAttr>(a))
        outputTypes.push_back(t.getValue());
  }
  auto inputs = toSpecs(inputTypes, (*program)->inputNames, "arg", name);
  if (!inputs.ok())
    return inputs.status();
  auto outputs = toSpecs(outputTypes, (*program)->outputNames, "result", name);
  if (!outputs.ok())
    return outputs.status();
  if (device == "reference")
    return std::unique_ptr<Runner>(new ReferenceRunner(
        std::move(*program), std::move(*inputs), std::move(*outputs)));

  // Compile (or find in the cache) the whole file, then run the entry
  // through the runtime like any artifact.
  rt::StatusOr<mlir::plaidml::CompileOptions> options =
      getCompileOptions(device, settings);
  if (!options.ok())
    return options.status();
  FailureOr<mlir::plaidml::CachedArtifact> artifact =
      mlir::plaidml::getCachedArtifact(*(*program)->context, (*program)->text,
                                       *options, path);
  if (failed(artifact))
    return rt::Status::failure("compiling '" + path + "' for " + device +
                               " failed");
  compileMs = artifact->hit ? 0.0 : artifact->compileMs;
  rt::StatusOr<std::unique_ptr<Runner>> runner =
      openArtifact(artifact->path, name.str(), device);
  // With the cache off the artifact is a temporary file: loaded, it can go.
  mlir::plaidml::removeTemporaryArtifact(*artifact);
  if (!runner.ok() || !(*program)->isTile)
    return runner;
  return std::unique_ptr<Runner>(new RenamedRunner(
      std::move(*runner), std::move(*inputs), std::move(*outputs)));
}
} // namespace

namespace plaidml::run {

rt::StatusOr<mlir::plaidml::CompileOptions>
getCompileOptions(const std::string &device, const CompileSettings &settings) {
  mlir::plaidml::CompileOptions options;
  options.device = device;
  options.threads = settings.threads;
  std::string invalid = mlir::plaidml::validateCompileOptions(options);
  if (!invalid.empty())
    return rt::Status::failure(invalid);
  // A device of this machine, or the offline target: no error.
  (void)mlir::plaidml::resolveDeviceTarget(options);
  if (settings.emulateNvPtx) {
    std::string error = mlir::plaidml::emulateNvPtx(options);
    if (!error.empty())
      return rt::Status::failure(error);
  }
  return options;
}
bool canOpenSources() { return true; }

rt::StatusOr<std::unique_ptr<Runner>>
openSource(const std::string &path, const std::string &entry,
           const std::string &device, const InputBindings &bindings,
           const CompileSettings &settings, double &compileMs) {
  compileMs = 0;
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return rt::Status::failure("cannot read '" + path +
                               "': " + file.getError().message());
  return openBuffer(std::move(*file), path, entry, device, bindings, settings,
                    compileMs);
}

rt::StatusOr<std::unique_ptr<Runner>>
openSourceText(const std::string &text, const std::string &name,
               const std::string &entry, const std::string &device,
               const InputBindings &bindings, const CompileSettings &settings,
               double &compileMs) {
  return openBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name), name,
                    entry, device, bindings, settings, compileMs);
}
} // namespace plaidml::run
