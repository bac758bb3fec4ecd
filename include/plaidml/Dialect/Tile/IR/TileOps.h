//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//
//
// Declares the Tile operations generated from TileOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_DIALECT_TILE_IR_TILEOPS_H
#define PLAIDML_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "plaidml/Dialect/Tile/IR/TileDialect.h"
#include "plaidml/Dialect/Tile/IR/TileTraits.h"
#include "plaidml/Dialect/Tile/IR/TileTypes.h"

#define GET_OP_CLASSES
#include "plaidml/Dialect/Tile/IR/TileOps.h.inc"

#endif // PLAIDML_DIALECT_TILE_IR_TILEOPS_H
