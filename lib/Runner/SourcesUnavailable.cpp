//===- SourcesUnavailable.cpp - plaidml-run without the compiler ----------===//
//
// The runtime-only build of PlaidMLRunner runs artifacts only; a source file
// (or program text) gets a message saying so instead of a compile.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Runner.h"

using namespace plaidml;
using namespace plaidml::run;

bool plaidml::run::canOpenSources() { return false; }

rt::StatusOr<std::unique_ptr<Runner>>
plaidml::run::openSource(const std::string &path, const std::string &,
                         const std::string &, const InputBindings &,
                         const CompileSettings &, double &compileMs) {
  compileMs = 0;
  return rt::Status::failure(
      "'" + path +
      "' is not a compiled artifact, and this plaidml-run is the "
      "runtime-only build: compile it with plaidml-compile on a machine with "
      "the compiler");
}

rt::StatusOr<std::unique_ptr<Runner>> plaidml::run::openSourceText(
    const std::string &, const std::string &name, const std::string &entry,
    const std::string &device, const InputBindings &bindings,
    const CompileSettings &settings, double &compileMs) {
  return openSource(name, entry, device, bindings, settings, compileMs);
}

rt::StatusOr<std::unique_ptr<Runner>>
plaidml::run::openOnnx(const std::string &path, const std::string &,
                       const InputBindings &, const CompileSettings &,
                       double &compileMs) {
  compileMs = 0;
  return rt::Status::failure("'" + path +
                             "' is an ONNX model, and this plaidml-run is the "
                             "runtime-only build: compile it with "
                             "plaidml-compile on a machine with the compiler");
}
