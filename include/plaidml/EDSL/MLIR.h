//===- MLIR.h - The MLIR side of EDSL programs ------------------*- C++ -*-===//
//
// For code that works with MLIR directly: a tensor's mlir::Value, the
// process-wide context the EDSL builds in, and a Program's module, which
// compileProgram hands to the compiler (compileToArtifact) for any device.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_EDSL_MLIR_H
#define PLAIDML_EDSL_MLIR_H

#include "plaidml/EDSL/EDSL.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"

namespace mlir::plaidml {
struct CompileOptions;
} // namespace mlir::plaidml

namespace plaidml::edsl {

/// The context every EDSL tensor and program lives in.
mlir::MLIRContext *getContext();
/// The value of `tensor` (its lens is not applied).
mlir::Value getValue(const Tensor &tensor);
/// A tensor for `value`, which must belong to the EDSL's scratch region
/// (the result of an op built with getBuilder()).
Tensor makeTensor(mlir::Value value, const std::string &name = "");
/// A builder at the end of the EDSL's scratch region, for ops the EDSL has
/// no function for.
mlir::OpBuilder getBuilder();
/// The program's module (owned by the program).
mlir::ModuleOp getModule(const Program &program);
/// Compiles a copy of the program's module for `options.device` into the
/// artifact `outputPath`; on failure returns the diagnostics' text.
std::string compileProgram(const Program &program,
                           const mlir::plaidml::CompileOptions &options,
                           const std::string &outputPath);

} // namespace plaidml::edsl

#endif // PLAIDML_EDSL_MLIR_H
