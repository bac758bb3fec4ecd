//===- Importer.h - Tile language to Tile dialect ---------------*- C++ -*-===//
//
// The Tile-language frontend: a program of `function`s written in PlaidML's
// index notation (contractions and elementwise statements) becomes a module
// with one func.func of Tile-dialect ops per function. Input shapes and
// element types are bound at import time. Every problem is an error
// diagnostic located in the user's text, and no input bytes crash, assert or
// hang the importer. docs/TileLanguage.md describes the language.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_FRONTEND_TILELANG_IMPORTER_H
#define PLAIDML_FRONTEND_TILELANG_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::plaidml::tilelang {

struct ImportOptions {
  /// Input name -> its type (static shape, Tile element type).
  llvm::StringMap<RankedTensorType> bindings;
  /// When set, an input without a binding gets this element type and every
  /// one of its dimensions this size (used by fuzzing and quick experiments);
  /// otherwise an unbound input is a diagnostic.
  std::optional<std::pair<int64_t, Type>> defaultBinding;
};

/// Parses the Tile-language program in the main buffer of `sourceMgr` and
/// builds a module with one func.func per `function`. Every problem is
/// reported as an error diagnostic at its location (the caller installs a
/// SourceMgrDiagnosticHandler, which prints file:line:col, the source line
/// and a caret); returns null then. Never crashes, asserts or hangs on any
/// input bytes.
OwningOpRef<ModuleOp> importTileProgram(llvm::SourceMgr &sourceMgr,
                                        MLIRContext *context,
                                        const ImportOptions &options);

/// The names and declared ranks of the inputs of the function `entry` ("" =
/// the first), for tools that bind inputs from files; nullopt + diagnostic
/// on a syntax error.
std::optional<std::vector<std::pair<std::string, unsigned>>>
getTileInputs(llvm::SourceMgr &, MLIRContext *, StringRef entry);

/// The output names of the function `entry` ("" = the first), in order, for
/// tools that name result files; nullopt + diagnostic on a syntax error.
std::optional<std::vector<std::string>>
getTileOutputs(llvm::SourceMgr &, MLIRContext *, StringRef entry);

/// Parses a binding such as `2x3xf32`, `si8` (a scalar) or `4xbf16` into a
/// statically shaped tensor type of a Tile element type; on failure returns
/// null and sets `error` to a one-line reason.
RankedTensorType parseBindingType(StringRef spec, MLIRContext *context,
                                  std::string &error);

} // namespace mlir::plaidml::tilelang

#endif // PLAIDML_FRONTEND_TILELANG_IMPORTER_H
