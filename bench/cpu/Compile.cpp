//===- Compile.cpp - Compile a case's program -----------------------------===//
//
// Parses a generated program and compiles it to an artifact, collecting the
// diagnostics (with the source lines they point at, since the program exists
// only in memory) into the failure message.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace plaidml;

rt::StatusOr<double>
bench::compileProgram(mlir::MLIRContext &context, const std::string &name,
                      const std::string &program,
                      const mlir::plaidml::CompileOptions &options,
                      const std::string &outputPath) {
  auto start = std::chrono::steady_clock::now();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(program, name), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    return rt::Status::failure("cannot parse the generated program:\n" +
                               diagnostics);
  if (mlir::failed(
          mlir::plaidml::compileToArtifact(*module, options, outputPath)))
    return rt::Status::failure("compilation failed:\n" + diagnostics);
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}
