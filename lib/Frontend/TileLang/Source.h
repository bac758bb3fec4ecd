//===- Source.h - Tile-language source buffer and locations -----*- C++ -*-===//
//
// The one buffer a Tile-language import reads, and the bridge from its
// llvm::SMLoc positions to MLIR FileLineColLoc locations: every op the
// importer builds and every diagnostic it emits points at the user's text
// through here, so later passes report errors on the user's line too.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_FRONTEND_TILELANG_SOURCE_H
#define PLAIDML_LIB_FRONTEND_TILELANG_SOURCE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::plaidml::tilelang {

/// Limits that keep every import bounded in time and stack depth.
/// Parenthesized, unary and call nesting in one expression.
constexpr unsigned kMaxNesting = 256;
/// Height of an expression tree (long operator chains included).
constexpr unsigned kMaxTreeHeight = 1024;
/// Rank of any tensor.
constexpr unsigned kMaxRank = 32;

class Source {
public:
  Source(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), context(context),
        buffer(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())) {}

  StringRef getText() const { return buffer->getBuffer(); }
  MLIRContext *getContext() const { return context; }

  /// The FileLineColLoc of `loc` (a pointer into the buffer).
  Location getLocation(llvm::SMLoc loc) const {
    auto [line, col] =
        sourceMgr.getLineAndColumn(loc, sourceMgr.getMainFileID());
    return FileLineColLoc::get(context, buffer->getBufferIdentifier(), line,
                               col);
  }

  /// Reports an error at `loc`; the caller returns failure after it.
  InFlightDiagnostic emitError(llvm::SMLoc loc) const {
    return mlir::emitError(getLocation(loc));
  }

private:
  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const llvm::MemoryBuffer *buffer;
};

} // namespace mlir::plaidml::tilelang

#endif // PLAIDML_LIB_FRONTEND_TILELANG_SOURCE_H
