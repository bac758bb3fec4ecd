//===- Executable.h - The executable handle of the C API --------*- C++ -*-===//
//
// The definition of plaidml_executable, shared by Executable.cpp (compiling
// and running) and the EDSL bindings, which compile the Tile IR they print.
// A program keeps either a loaded runtime Program (compiled devices) or its
// module and context (the reference interpreter).
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_CAPI_EXECUTABLE_H
#define PLAIDML_LIB_CAPI_EXECUTABLE_H

#include "Internal.h"

#include "plaidml/Runtime/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace plaidml::capi {
/// One input or output of a program.
struct TensorSpec {
  std::string name;
  plaidml_dtype dtype = PLAIDML_F32;
  std::vector<int64_t> shape;
  mlir::RankedTensorType type;
};

/// Compiles Tile IR text (what the EDSL prints) like
/// plaidml_executable_compile.
plaidml_status compileModuleText(const std::string &text,
                                 const std::string &name,
                                 const plaidml_compile_options *options,
                                 plaidml_executable **out);
/// Runs `p` on host arrays (already checked against its inputs) into
/// `results`: the loaded program, or the reference interpreter.
plaidml_status runOnHost(plaidml_executable &p,
                         const std::vector<rt::HostArray> &arrays,
                         std::vector<rt::HostArray> &results);
/// The checks every run function makes first: `p` is not null, the input
/// and output counts are its own, the arrays are not null when not empty.
/// Errors start with `function`.
plaidml_status checkRunArity(const plaidml_executable *p, const char *function,
                             size_t numInputs, const void *inputs,
                             size_t numOutputs, const void *outputs);
/// Input #`i` as given (`type`: its element type and shape; null for a null
/// input) matches the program's input.
plaidml_status checkRunInput(const plaidml_executable &p, const char *function,
                             size_t i, const rt::HostArray *type);
} // namespace plaidml::capi

struct plaidml_executable {
  std::string device, entry;
  std::vector<plaidml::capi::TensorSpec> inputs, outputs;
  /// Compiled devices: the loaded artifact.
  std::unique_ptr<plaidml::rt::Program> program;
  /// The reference interpreter: the module and what it needs. Members are
  /// destroyed in reverse order (the module before the context).
  std::string diagnostics;
  std::unique_ptr<llvm::raw_string_ostream> diagnosticStream;
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> handler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp function;
};

#endif // PLAIDML_LIB_CAPI_EXECUTABLE_H
