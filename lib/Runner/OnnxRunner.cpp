//===- OnnxRunner.cpp - Run ONNX models -----------------------------------===//
//
// plaidml-run on a .onnx file: the model is compiled through the compile
// cache keyed by the file's bytes (plaidml/Runner/OnnxCache.h; on a miss it
// is imported with the --input files as the values of inputs that ops read
// at import time; a hit takes the artifact and the weights from the cache
// without importing), and a Runner over the artifact speaks the model's
// language: inputs and outputs by their ONNX names, the weights appended by
// the runner. The reference interpreter imports the model and runs its Tile
// IR. Only in builds with the compiler.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

#include "CompileOptions.h"

#include "plaidml/Import/Onnx.h"
#include "plaidml/InitAll.h"
#include "plaidml/Runner/OnnxCache.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"

using namespace ::plaidml;
using namespace ::plaidml::run;

namespace {
class OnnxRunner : public RenamedRunner {
public:
  OnnxRunner(CachedOnnxModel model, std::unique_ptr<Runner> inner,
             std::map<std::string, rt::HostArray> known,
             std::vector<rt::TensorSpec> inputs,
             std::vector<rt::TensorSpec> outputs)
      : RenamedRunner(std::move(inner), std::move(inputs), std::move(outputs)),
        model(std::move(model)), known(std::move(known)) {}

  std::string getEntryName() const override { return model.entryName; }

  rt::Status prepare(const std::vector<rt::HostArray> &inputs) override {
    std::vector<rt::HostArray> args;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const std::string &name = model.graphInputs[i].name;
      if (model.isProgramInput[i]) {
        args.push_back(inputs[i]);
        continue;
      }
      // Read at import time (or unused): it must not change.
      auto it = known.find(name);
      if (it != known.end() && it->second.bytes != inputs[i].bytes)
        return rt::Status::failure(
            "input '" + name +
            "' was read when the model was imported (a shape or an axis), so "
            "its value cannot change between runs");
    }
    // The weights, from the cache entry's data (mapped) or the import's.
    for (size_t i = 0; i < model.parameters.size(); ++i)
      args.push_back(model.getParameter(i));
    return inner->prepare(args);
  }

private:
  CachedOnnxModel model;
  std::map<std::string, rt::HostArray> known;
};

/// The model compiled for `device` through the compile cache (a hit does not
/// import it), and the runner of its artifact.
rt::StatusOr<CachedOnnxModel>
compileModel(const std::string &path, const std::string &device,
             const onnx::ImportOptions &importOptions,
             const CompileSettings &settings, double &compileMs,
             std::unique_ptr<Runner> &inner) {
  rt::StatusOr<mlir::plaidml::CompileOptions> options =
      getCompileOptions(device, settings);
  if (!options.ok())
    return options.status();
  mlir::DialectRegistry registry;
  mlir::plaidml::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  rt::StatusOr<CachedOnnxModel> model =
      compileOnnxModel(context, path, importOptions, *options);
  if (!model.ok())
    return rt::Status::failure(!model.message().empty()
                                   ? model.message()
                                   : "compiling '" + path + "' for " + device +
                                         " failed");
  compileMs = model->artifact.hit ? 0.0 : model->artifact.compileMs;
  rt::StatusOr<std::unique_ptr<Runner>> runner =
      openArtifact(model->artifact.path, model->entryName, device);
  // With the cache off the artifact is a temporary file: loaded, it can go.
  mlir::plaidml::removeTemporaryArtifact(model->artifact);
  if (!runner.ok())
    return runner.status();
  inner = std::move(*runner);
  return model;
}
} // namespace

rt::StatusOr<std::unique_ptr<Runner>>
plaidml::run::openOnnx(const std::string &path, const std::string &device,
                       const InputBindings &bindings,
                       const CompileSettings &settings, double &compileMs) {
  compileMs = 0;
  onnx::ImportOptions options;
  for (const auto &[name, file] : bindings.files) {
    std::string error;
    std::optional<rt::HostArray> array = rt::readNpy(file, error);
    if (!array)
      return rt::Status::failure(error);
    options.knownInputs[name] = std::move(*array);
  }
  std::unique_ptr<Runner> inner;
  rt::StatusOr<CachedOnnxModel> model = rt::Status::failure("");
  if (device != "reference") {
    model = compileModel(path, device, options, settings, compileMs, inner);
    if (!model.ok())
      return model.status();
  } else {
    // The reference interpreter runs the program itself: always imported.
    rt::StatusOr<std::unique_ptr<onnx::ImportedModel>> imported =
        onnx::importOnnxFile(path, options);
    if (!imported.ok())
      return imported.status();
    const edsl::Program &program = (*imported)->program;
    rt::StatusOr<std::unique_ptr<Runner>> runner =
        openSourceText(program.str(), path + ".mlir", program.getName(), device,
                       InputBindings(), settings, compileMs);
    if (!runner.ok())
      return runner.status();
    inner = std::move(*runner);
    mlir::plaidml::ImportedSource source = describeOnnxModel(**imported);
    mlir::plaidml::CachedSource described;
    described.description =
        llvm::MemoryBuffer::getMemBufferCopy(source.description, path);
    described.data = std::move(source.data);
    described.imported = true;
    model = readOnnxModel(std::move(described));
    if (!model.ok())
      return model.status();
  }
  std::vector<rt::TensorSpec> outputs;
  for (size_t i = 0; i < model->outputNames.size(); ++i) {
    rt::TensorSpec spec = inner->getOutputs()[i];
    spec.name = model->outputNames[i];
    outputs.push_back(spec);
  }
  std::vector<rt::TensorSpec> inputs = model->graphInputs;
  return std::unique_ptr<Runner>(std::make_unique<OnnxRunner>(
      std::move(*model), std::move(inner), std::move(options.knownInputs),
      std::move(inputs), std::move(outputs)));
}
