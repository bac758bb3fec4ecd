//===- Compile.h - Compile a case's program ---------------------*- C++ -*-===//
//
// The PlaidML side of a case before it is timed: parse the generated Tile
// program and compile it with compileToArtifact (no compile cache, so the
// compile time is measured every run and the user's cache stays untouched).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_BENCH_CPU_COMPILE_H
#define PLAIDML_BENCH_CPU_COMPILE_H

#include "plaidml/Compiler/Compiler.h"
#include "plaidml/Runtime/Status.h"

#include "mlir/IR/MLIRContext.h"

#include <string>

namespace plaidml::bench {

/// Compiles `program` (MLIR text; `name` stands for its file in
/// diagnostics) with `options` into the artifact `outputPath`, in
/// `context` (which has the PlaidML dialects registered). Returns the
/// milliseconds it took, or a failure carrying the compiler's diagnostics
/// with the lines of the program they point at.
rt::StatusOr<double>
compileProgram(mlir::MLIRContext &context, const std::string &name,
               const std::string &program,
               const mlir::plaidml::CompileOptions &options,
               const std::string &outputPath);

} // namespace plaidml::bench

#endif // PLAIDML_BENCH_CPU_COMPILE_H
