//===- CompileOptions.h - Compile options of the runners --------*- C++ -*-===//
//
// Internal to lib/Runner: the compile options a runner that compiles (a
// source program, an ONNX model) uses for a device.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNNER_COMPILEOPTIONS_H
#define PLAIDML_LIB_RUNNER_COMPILEOPTIONS_H

#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Runner/Runner.h"

namespace plaidml::run {

/// The compile options for `device` with `settings`, validated and with
/// the device resolved to its target (resolveDeviceTarget).
rt::StatusOr<mlir::plaidml::CompileOptions>
getCompileOptions(const std::string &device, const CompileSettings &settings);

} // namespace plaidml::run

#endif // PLAIDML_LIB_RUNNER_COMPILEOPTIONS_H
