//===- ArtifactRunner.cpp - Run compiled artifacts through the runtime ----===//
//
// The Runner of a compiled artifact: the runtime loads it, checks it against
// the device and the machine, and executes its entry. Links no MLIR, so the
// runtime-only build of plaidml-run has it too.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Program.h"

using namespace plaidml;
using namespace plaidml::run;

namespace {
class ArtifactRunner : public Runner {
public:
  ArtifactRunner(std::unique_ptr<rt::Program> program,
                 const rt::EntrySpec *entry)
      : program(std::move(program)), entry(entry) {}

  const std::vector<rt::TensorSpec> &getInputs() const override {
    return entry->inputs;
  }
  const std::vector<rt::TensorSpec> &getOutputs() const override {
    return entry->outputs;
  }
  rt::Status prepare(const std::vector<rt::HostArray> &inputs) override {
    rt::StatusOr<rt::Invocation> prepared =
        program->prepare(entry->name, inputs);
    if (!prepared.ok())
      return prepared.status();
    invocation = std::make_unique<rt::Invocation>(std::move(*prepared));
    return rt::Status::success();
  }
  rt::Status execute() override { return invocation->execute(); }
  rt::StatusOr<std::vector<rt::HostArray>> getResults() const override {
    return invocation->getOutputs();
  }
  std::vector<std::string> describeKernelModules() const override {
    return program->describeKernelModules();
  }

private:
  std::unique_ptr<rt::Program> program;
  const rt::EntrySpec *entry;
  std::unique_ptr<rt::Invocation> invocation;
};
} // namespace

rt::StatusOr<std::unique_ptr<Runner>>
plaidml::run::openArtifact(const std::string &path, const std::string &entry,
                           const std::string &device) {
  rt::StatusOr<rt::DeviceName> deviceName = rt::parseDeviceName(device);
  if (!deviceName.ok())
    return deviceName.status();
  rt::LoadOptions options;
  options.device = *deviceName;
  rt::StatusOr<std::unique_ptr<rt::Program>> program =
      rt::Program::load(path, options);
  if (!program.ok())
    return program.status();
  rt::StatusOr<const rt::EntrySpec *> spec = (*program)->getEntry(entry);
  if (!spec.ok())
    return spec.status();
  return std::unique_ptr<Runner>(
      new ArtifactRunner(std::move(*program), *spec));
}
