//===- OnnxRunner.cpp - Run ONNX models -----------------------------------===//
//
// plaidml-run on a .onnx file: the model is imported (plaidml/Import/Onnx.h)
// with the --input files as the values of inputs that ops read at import
// time, the program's Tile IR (weights are parameters, never text) is opened
// like a source program, and a Runner over it speaks the model's language:
// inputs and outputs by their ONNX names, the parameters appended by the
// runner. Only in builds with the compiler.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

#include "plaidml/Import/Onnx.h"

using namespace ::plaidml;
using namespace ::plaidml::run;

namespace {
class OnnxRunner : public RenamedRunner {
public:
  OnnxRunner(std::unique_ptr<onnx::ImportedModel> model,
             std::unique_ptr<Runner> inner,
             std::map<std::string, rt::HostArray> known,
             std::vector<rt::TensorSpec> inputs,
             std::vector<rt::TensorSpec> outputs)
      : RenamedRunner(std::move(inner), std::move(inputs), std::move(outputs)),
        model(std::move(model)), known(std::move(known)) {}

  std::string getEntryName() const override { return model->program.getName(); }

  rt::Status prepare(const std::vector<rt::HostArray> &inputs) override {
    std::vector<rt::HostArray> args;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const std::string &name = model->graphInputs[i].name;
      if (model->isProgramInput[i]) {
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
    for (const rt::HostArray &p : model->parameters)
      args.push_back(p);
    return inner->prepare(args);
  }

private:
  std::unique_ptr<onnx::ImportedModel> model;
  std::map<std::string, rt::HostArray> known;
};
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
  rt::StatusOr<std::unique_ptr<onnx::ImportedModel>> model =
      onnx::importOnnxFile(path, options);
  if (!model.ok())
    return model.status();
  const edsl::Program &program = (*model)->program;
  rt::StatusOr<std::unique_ptr<Runner>> inner =
      openSourceText(program.str(), path + ".mlir", program.getName(), device,
                     InputBindings(), settings, compileMs);
  if (!inner.ok())
    return inner.status();
  std::vector<rt::TensorSpec> inputs, outputs;
  for (const edsl::TensorSpec &s : (*model)->graphInputs)
    inputs.push_back(rt::TensorSpec{s.name, s.dtype, s.shape});
  for (size_t i = 0; i < (*model)->outputNames.size(); ++i) {
    rt::TensorSpec spec = (*inner)->getOutputs()[i];
    spec.name = (*model)->outputNames[i];
    outputs.push_back(spec);
  }
  return std::unique_ptr<Runner>(std::make_unique<OnnxRunner>(
      std::move(*model), std::move(*inner), std::move(options.knownInputs),
      std::move(inputs), std::move(outputs)));
}
