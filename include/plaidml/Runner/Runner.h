//===- Runner.h - What plaidml-run executes ---------------------*- C++ -*-===//
//
// plaidml-run treats every program the same way once it is open: a list of
// input and output specs, a prepare step that takes the inputs, an execute
// step (the part --repeat times) and the outputs. An artifact opens through
// the runtime alone; a source file (.mlir or .tile) needs the compiler and
// opens either in the reference interpreter or by compiling it to an
// artifact.
//
// This is the interface of the PlaidMLRunner library (lib/Runner),
// which plaidml-run and plaidml-setup link.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNNER_RUNNER_H
#define PLAIDML_RUNNER_RUNNER_H

#include "plaidml/Runtime/HostArray.h"
#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Status.h"

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace plaidml::run {

/// One entry point of a program, ready to run on one device.
class Runner {
public:
  virtual ~Runner() = default;

  /// The name of the entry function.
  virtual std::string getEntryName() const = 0;
  /// The entry's inputs (arg0, arg1, ...) and outputs (result0, ...).
  virtual const std::vector<rt::TensorSpec> &getInputs() const = 0;
  virtual const std::vector<rt::TensorSpec> &getOutputs() const = 0;
  /// Takes the inputs; they match getInputs().
  virtual rt::Status prepare(const std::vector<rt::HostArray> &inputs) = 0;
  /// Runs the entry once on the prepared inputs.
  virtual rt::Status execute() = 0;
  /// The outputs of the last execute().
  virtual rt::StatusOr<std::vector<rt::HostArray>> getResults() const = 0;
  /// For a GPU artifact, one line per kernel module saying what its kernels
  /// are built from (rt::Program::describeKernelModules); empty otherwise.
  virtual std::vector<std::string> describeKernelModules() const { return {}; }
};

/// A Runner that holds its input and output specs itself.
class SpecifiedRunner : public Runner {
public:
  SpecifiedRunner(std::vector<rt::TensorSpec> inputs,
                  std::vector<rt::TensorSpec> outputs)
      : inputSpecs(std::move(inputs)), outputSpecs(std::move(outputs)) {}

  const std::vector<rt::TensorSpec> &getInputs() const override {
    return inputSpecs;
  }
  const std::vector<rt::TensorSpec> &getOutputs() const override {
    return outputSpecs;
  }

private:
  std::vector<rt::TensorSpec> inputSpecs, outputSpecs;
};

/// Another runner under other input and output specs (the names of a .tile
/// program or an ONNX model in place of an artifact's arg0, result0, ...):
/// everything else is the inner runner's. Subclasses override what they
/// translate.
class RenamedRunner : public SpecifiedRunner {
public:
  RenamedRunner(std::unique_ptr<Runner> inner,
                std::vector<rt::TensorSpec> inputs,
                std::vector<rt::TensorSpec> outputs)
      : SpecifiedRunner(std::move(inputs), std::move(outputs)),
        inner(std::move(inner)) {}

  std::string getEntryName() const override { return inner->getEntryName(); }
  rt::Status prepare(const std::vector<rt::HostArray> &inputs) override {
    return inner->prepare(inputs);
  }
  rt::Status execute() override { return inner->execute(); }
  rt::StatusOr<std::vector<rt::HostArray>> getResults() const override {
    return inner->getResults();
  }
  std::vector<std::string> describeKernelModules() const override {
    return inner->describeKernelModules();
  }

protected:
  std::unique_ptr<Runner> inner;
};

/// Opens entry `entry` ("" = the only one) of the artifact at `path` for
/// device `device`.
rt::StatusOr<std::unique_ptr<Runner>> openArtifact(const std::string &path,
                                                   const std::string &entry,
                                                   const std::string &device);

/// Whether this build can open source programs (it has the compiler).
bool canOpenSources();

/// Why programs cannot run on `device` here (a bad name, a device this
/// machine lacks, `reference` in a runtime-only build), or success.
rt::Status checkDevice(const std::string &device);

/// The --input NAME=PATH.npy and --bind NAME=2x3xf32 options: a .tile
/// program takes its input types from them (--bind first, else the file).
struct InputBindings {
  std::map<std::string, std::string> files, types;
};

/// How a source program is compiled (the compile options plaidml-run
/// exposes; the rest are the defaults of CompileOptions).
struct CompileSettings {
  /// Threads of CPU code (--threads): 1 is sequential code.
  unsigned threads = 1;
  /// opencl:N: NVIDIA's PTX printed as portable OpenCL C (--emulate-nv-ptx,
  /// mlir::plaidml::emulateNvPtx).
  bool emulateNvPtx = false;
};

/// Opens entry `entry` of the source program at `path` for `device`:
/// "reference" interprets it, other devices compile it (through the compile
/// cache) with `settings`. `compileMs` receives the compile time (0 on a
/// cache hit). A .tile program is imported first, with input types from
/// `bindings`; its inputs and outputs keep their Tile names.
rt::StatusOr<std::unique_ptr<Runner>>
openSource(const std::string &path, const std::string &entry,
           const std::string &device, const InputBindings &bindings,
           const CompileSettings &settings, double &compileMs);

/// openSource on a program held in memory: `text` is the program and `name`
/// stands for its file (in messages and diagnostics; a name ending in .tile
/// makes it a Tile-language program, anything else MLIR).
rt::StatusOr<std::unique_ptr<Runner>>
openSourceText(const std::string &text, const std::string &name,
               const std::string &entry, const std::string &device,
               const InputBindings &bindings, const CompileSettings &settings,
               double &compileMs);

/// Opens an ONNX model (.onnx): imports it with the ONNX importer (reading
/// the --input files of the inputs an op needs at import time, such as a
/// Reshape's shape), then opens the program like a source (reference or
/// compiled through the cache). The runner's inputs are the model's graph
/// inputs and its outputs the graph outputs, by their ONNX names; the
/// weights the importer keeps out of the program are passed by the runner.
rt::StatusOr<std::unique_ptr<Runner>> openOnnx(const std::string &path,
                                               const std::string &device,
                                               const InputBindings &bindings,
                                               const CompileSettings &settings,
                                               double &compileMs);

/// A seeded input of `spec` (--random-inputs), the same on every machine and
/// device: floats in [-1, 1), integers in [-8, 8) (unsigned: [0, 16)),
/// booleans 0/1. Successive calls continue `rng`'s sequence. Fails (saying
/// how many bytes were asked for) when the array cannot be allocated.
rt::StatusOr<rt::HostArray> randomArray(const rt::TensorSpec &spec,
                                        std::mt19937_64 &rng);

} // namespace plaidml::run

#endif // PLAIDML_RUNNER_RUNNER_H
