//===- Internal.h - Shared pieces of the reference interpreter --*- C++ -*-===//
//
// Declarations shared by the files of the reference interpreter: the
// evaluators of tile.contract, tile.argsort and tile.prng, and the row-major
// index helpers.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_REFERENCE_INTERNAL_H
#define PLAIDML_LIB_REFERENCE_INTERNAL_H

#include "plaidml/Dialect/Tile/IR/TileOps.h"
#include "plaidml/Reference/Interpreter.h"

namespace mlir::plaidml::reference {

/// Coordinates of row-major element `linear` of `shape`.
SmallVector<int64_t> delinearize(int64_t linear, ArrayRef<int64_t> shape);
/// Row-major position of `coords` in `shape`.
int64_t linearize(ArrayRef<int64_t> coords, ArrayRef<int64_t> shape);
/// Position in `shape` of the element that broadcasting maps result
/// coordinates `coords` (right-aligned, size-1 dimensions stretch) to.
int64_t broadcastIndex(ArrayRef<int64_t> coords, ArrayRef<int64_t> shape);

/// Evaluates one tile.contract on its operand buffers (init first).
FailureOr<Buffer> evaluateContraction(tile::ContractionOp op,
                                      ArrayRef<const Buffer *> operands);

/// Evaluates tile.argsort (SortAndRandom.cpp).
FailureOr<Buffer> evaluateArgSort(tile::ArgSortOp op, const Buffer &operand);
/// Evaluates tile.prng: the values and the new state (SortAndRandom.cpp).
FailureOr<std::pair<Buffer, Buffer>> evaluatePrng(tile::PrngOp op,
                                                  const Buffer &state);

} // namespace mlir::plaidml::reference

#endif // PLAIDML_LIB_REFERENCE_INTERNAL_H
