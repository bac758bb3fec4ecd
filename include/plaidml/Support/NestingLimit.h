//===- NestingLimit.h - Refuse textual input nested too deeply --*- C++ -*-===//
//
// MLIR's parser, verifier, printer and walks recurse once per level of
// nesting, so a `.mlir` file with ten thousand nested brackets or regions
// overflows the stack of any tool that reads it. PlaidML's tools scan their
// textual input before parsing and refuse it, at the bracket that goes too
// deep, when it nests deeper than kMaxTextNesting levels (the Tile-language
// importer has its own, lower limit, docs/TileLanguage.md). The scan is one
// linear pass over the characters: brackets, braces, parentheses and angle
// brackets count, except inside string literals and `//` comments and in
// `->`, `<=` and `>=`.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_SUPPORT_NESTINGLIMIT_H
#define PLAIDML_SUPPORT_NESTINGLIMIT_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace plaidml {

/// The deepest nesting PlaidML's tools accept in textual MLIR. Real programs
/// nest a few dozen levels (loop nests, dense literals of rank <= 32).
constexpr unsigned kMaxTextNesting = 512;

/// The position in `text` of the opener that starts nesting level
/// `limit + 1`, or std::nullopt when `text` never nests that deep.
std::optional<size_t> findNestingPastLimit(StringRef text,
                                           unsigned limit = kMaxTextNesting);

/// Checks the main buffer of `sourceMgr` and, when it nests too deeply,
/// emits a located error through `context`'s diagnostic handlers (so
/// --verify-diagnostics and the tools' handlers see it) and fails.
LogicalResult checkNestingDepth(llvm::SourceMgr &sourceMgr,
                                MLIRContext *context,
                                unsigned limit = kMaxTextNesting);

} // namespace plaidml
} // namespace mlir

#endif // PLAIDML_SUPPORT_NESTINGLIMIT_H
