//===- SourcesUnavailable.cpp - plaidml-run without the compiler ----------===//
//
// The runtime-only build of plaidml-run runs artifacts only; a source file
// gets a message saying so instead of a compile.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

using namespace plaidml;
using namespace plaidml::run;

bool plaidml::run::canOpenSources() { return false; }

rt::StatusOr<std::unique_ptr<Runner>>
plaidml::run::openSource(const std::string &path, const std::string &,
                         const std::string &, const InputBindings &,
                         double &compileMs) {
  compileMs = 0;
  return rt::Status::failure(
      "'" + path +
      "' is not a compiled artifact, and this plaidml-run is the "
      "runtime-only build: compile it with plaidml-compile on a machine with "
      "the compiler");
}
