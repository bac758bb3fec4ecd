//===- TileDialect.h - Tile dialect declaration -----------------*- C++ -*-===//
//
// Declares the Tile dialect class and its enum attributes. Include TileOps.h
// for the operations.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILEDIALECT_H
#define PLAIDML_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "plaidml/Dialect/Tile/IR/TileEnums.h.inc"
#include "plaidml/Dialect/Tile/IR/TileOpsDialect.h.inc"

#endif // PLAIDML_DIALECT_TILE_IR_TILEDIALECT_H
