//===- TileFolds.cpp - Tile folders and canonicalization patterns ---------===//
//
// Folders and canonicalization patterns of the Tile ops, kept apart from the
// op definitions (like CIRCT's CombFolds.cpp).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::plaidml::tile;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
