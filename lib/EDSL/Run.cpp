//===- Run.cpp - Run EDSL programs through the runner library -------------===//
//
// An Executable prints the program's Tile IR and opens it with the runner
// library (lib/Runner, openSourceText): the reference interpreter
// for `reference`, else a compile through the compile cache and the
// runtime. Helpers make and read host arrays.
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/Run.h"

#include "plaidml/Runner/Runner.h"

using namespace ::plaidml;
using namespace ::plaidml::edsl;

struct Executable::Impl {
  std::unique_ptr<run::Runner> runner;
};

Executable::~Executable() = default;

rt::StatusOr<std::unique_ptr<Executable>>
Executable::open(const Program &program, const RunOptions &options) {
  std::unique_ptr<Executable> exe(new Executable());
  exe->impl = std::make_unique<Impl>();
  run::CompileSettings settings;
  settings.threads = options.threads;
  rt::StatusOr<std::unique_ptr<run::Runner>> runner = run::openSourceText(
      program.str(), program.getName() + ".mlir", program.getName(),
      options.device, run::InputBindings(), settings, exe->compileMs);
  if (!runner.ok())
    return runner.status();
  exe->impl->runner = std::move(*runner);
  return exe;
}

rt::StatusOr<std::vector<rt::HostArray>>
Executable::run(const std::vector<rt::HostArray> &inputs) {
  const std::vector<rt::TensorSpec> &specs = impl->runner->getInputs();
  if (inputs.size() != specs.size())
    return rt::Status::failure("the program takes " +
                               std::to_string(specs.size()) + " inputs but " +
                               std::to_string(inputs.size()) + " were given");
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].dtype != specs[i].dtype || inputs[i].shape != specs[i].shape)
      return rt::Status::failure("input " + std::to_string(i) + " is " +
                                 inputs[i].describe() + " but the program " +
                                 "takes " + specs[i].describe());
  rt::Status s = impl->runner->prepare(inputs);
  if (!s.ok())
    return s;
  s = impl->runner->execute();
  if (!s.ok())
    return s;
  return impl->runner->getResults();
}

rt::Status Executable::rerun() { return impl->runner->execute(); }

rt::HostArray plaidml::edsl::randomArray(const TensorSpec &spec,
                                         std::mt19937_64 &rng) {
  rt::TensorSpec s;
  s.name = spec.name;
  s.dtype = spec.dtype;
  s.shape = spec.shape;
  rt::StatusOr<rt::HostArray> array = run::randomArray(s, rng);
  if (!array.ok())
    throw Error(array.message());
  return std::move(*array);
}

std::vector<double> plaidml::edsl::toDoubles(const rt::HostArray &array) {
  std::vector<double> r;
  for (int64_t i = 0, e = array.getNumElements(); i < e; ++i)
    r.push_back(rt::getElementAsDouble(array, i));
  return r;
}
